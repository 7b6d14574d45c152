//! Field widths of the receive engine's entries: communicator, source rank, tag and
//! handle, each a generation parameter from 1 to 32 bits.
//!
//! Design: the engine's ports and its control path carry every field at [`FIELD_BITS`]
//! (32) bits, and only what scales with the queue is sized by the widths: the CAM's slots
//! and comparators (`cam.rs`) and the lists' field RAMs (`field_ram.rs`). A value wider
//! than its field is refused at acceptance — the engine answers `error` and changes
//! nothing — so a stored field never aliases a wider one. The command register keeps only
//! each envelope field's generated bits, so the bits above are constant zero from there
//! on and synthesis removes them (flip-flops and clock both improved on the small engine).
//! One compiled engine serves every width (rust-hdl sizes signals by type, so
//! narrow *ports* would be an instantiation per width, the catalogue this replaces).
//!
//! Which fields an operation carries (and so which are checked): post and arrive all
//! four; cancel only the handle; probe and matched probe the envelope; a wildcard's field
//! is not checked. Wait and test use the communicator's low 2 bits and a 32-bit count in
//! the handle field, so they are never refused for width.

pub use tagmatch_config::{FieldWidths, FIELD_BITS, FIELD_WIDTHS};

/// Width of the CAMs' entry counts and slot numbers (so any depth up to 65,535 entries).
pub const INDEX_BITS: usize = 16;

/// A field of `width` bits that sits at bit `lo` of a [`FIELD_BITS`]-bit word, written as
/// Verilog: `value`, with zeros above and below, as the whole word.
pub fn in_word(value: &str, lo: usize, width: usize) -> String {
    let hi = lo + width;
    let mut parts = Vec::new();
    if hi < FIELD_BITS {
        parts.push(format!("{}'d0", FIELD_BITS - hi));
    }
    parts.push(value.to_string());
    if lo > 0 {
        parts.push(format!("{lo}'d0"));
    }
    if parts.len() == 1 {
        value.to_string()
    } else {
        format!("{{{}}}", parts.join(", "))
    }
}

/// The bits of a [`FIELD_BITS`]-bit port outside a `width`-bit field at bit `lo`, as
/// Verilog part-selects (none for a whole word).
pub fn outside(port: &str, lo: usize, width: usize) -> Vec<String> {
    let hi = lo + width;
    let mut parts = Vec::new();
    if hi < FIELD_BITS {
        parts.push(format!("{port}[{}:{hi}]", FIELD_BITS - 1));
    }
    if lo > 0 {
        parts.push(format!("{port}[{}:0]", lo - 1));
    }
    parts
}

/// Verilog that reads `parts` into a wire under a lint waiver, for bits a block takes on a
/// port and deliberately leaves unused (the waiver alone when there are none).
pub fn unused_sink(name: &str, parts: &[String]) -> String {
    let wire = if parts.is_empty() {
        String::new()
    } else {
        format!("wire {name} = &{{1'b0, {}}};\n", parts.join(", "))
    };
    format!("/* verilator lint_off UNUSEDSIGNAL */\n{wire}/* verilator lint_on UNUSEDSIGNAL */\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_in_its_word_is_zero_extended_on_both_sides() {
        assert_eq!(in_word("w", 0, 32), "w");
        assert_eq!(in_word("w", 0, 16), "{16'd0, w}");
        assert_eq!(in_word("w", 26, 6), "{w, 26'd0}");
        assert_eq!(in_word("w", 4, 8), "{20'd0, w, 4'd0}");
        assert!(outside("p", 0, 32).is_empty());
        assert_eq!(outside("p", 4, 8), ["p[31:12]", "p[3:0]"]);
        assert!(!unused_sink("u", &[]).contains("wire"));
        assert!(unused_sink("u", &outside("p", 0, 8)).contains("wire u = &{1'b0, p[31:8]};"));
    }
}
