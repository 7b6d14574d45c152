//! What every design's Verilog generation shares: running rust-hdl's generator on a thread
//! with a large stack, the FNV-1a hash the project names emitted text and builds by, and
//! the filling of the hand-written Verilog templates (`*.vt`) of `Verilog::Custom` blocks.

/// Runs `generate` on a thread with a 1 GiB stack and returns what it returns. rust-hdl's
/// generator recurses through the whole design, which needs more stack than a test
/// thread's 2 MB at the larger sizes. `what` names the design in the panic message should
/// the generator itself panic.
pub fn on_big_stack<T: Send + 'static>(what: &str, generate: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name(format!("{what}-verilog"))
        .stack_size(1 << 30)
        .spawn(generate)
        .and_then(|t| t.join().map_err(|_| std::io::Error::other("the Verilog generator panicked")))
        .unwrap_or_else(|e| panic!("generating the {what}'s Verilog: {e}"))
}

/// FNV-1a (64 bits): stable across Rust versions and platforms, unlike `std`'s hashers, so
/// a hash written into a manifest, a record or a cache folder's name keeps its meaning.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

/// `template` with every `@name@` replaced by `name`'s value in `values`. The templates
/// (`*.vt` beside the blocks that include them) are Verilog with placeholders, so they
/// read as Verilog: no doubled braces as in a `format!` string. An `@` not around a
/// name (`always @(...)`) stays as it is.
///
/// # Panics
/// On a placeholder without a value or a value no placeholder takes: both are mistakes in
/// the generator, found by any test that emits the block.
pub fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len() * 2);
    let mut used = vec![false; values.len()];
    let mut rest = template;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let name_len = after.find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
        match name_len {
            Some(n) if n > 0 && after[n..].starts_with('@') => {
                let name = &after[..n];
                let i = values
                    .iter()
                    .position(|(k, _)| *k == name)
                    .unwrap_or_else(|| panic!("template placeholder @{name}@ has no value"));
                used[i] = true;
                out.push_str(&values[i].1);
                rest = &after[n + 1..];
            }
            _ => {
                out.push('@');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    if let Some(i) = used.iter().position(|u| !u) {
        panic!("template value {} fills no placeholder", values[i].0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        let hash = |s: &str| {
            let mut h = Fnv1a::default();
            h.update(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn fills_placeholders_and_leaves_other_at_signs() {
        let t = "always @(posedge clock) q <= {@w@{1'b0}}; // @w@ @not a name@";
        assert_eq!(
            fill(t, &[("w", "8".to_string())]),
            "always @(posedge clock) q <= {8{1'b0}}; // 8 @not a name@"
        );
    }

    #[test]
    #[should_panic(expected = "@d@ has no value")]
    fn a_placeholder_without_a_value_is_a_generator_bug() {
        fill("localparam D = @d@;", &[]);
    }

    #[test]
    #[should_panic(expected = "fills no placeholder")]
    fn a_value_without_a_placeholder_is_a_generator_bug() {
        fill("x", &[("d", "1".to_string())]);
    }
}
