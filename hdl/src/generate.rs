//! What every design's Verilog generation shares: running rust-hdl's generator on a thread
//! with a large stack, and the FNV-1a hash the project names emitted text and builds by.

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
}
