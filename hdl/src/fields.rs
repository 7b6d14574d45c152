//! Field widths of the receive engine's entries: communicator, source rank, tag and
//! handle, each a generation parameter from 1 to 32 bits.
//!
//! Design: the engine's ports and its control path carry every field at [`FIELD_BITS`]
//! (32) bits, and only what scales with the queue is sized by the widths: the CAM's slots
//! and comparators (`cam.rs`) and the lists' field RAMs (`field_ram.rs`). A value wider
//! than its field is refused at acceptance — the engine answers `error` and changes
//! nothing — so a stored field never aliases a wider one. The command register keeps only
//! each envelope field's generated bits, so the bits above are constant zero from there
//! on and synthesis removes them (measured: 352 flip-flops and 13 MHz on the small
//! engine). One compiled engine serves every width (rust-hdl sizes signals by type, so
//! narrow *ports* would be an instantiation per width, the catalogue this replaces).
//!
//! Which fields an operation carries (and so which are checked): post and arrive all
//! four; cancel only the handle; probe and matched probe the envelope; a wildcard's field
//! is not checked. Wait and test use the communicator's low 2 bits and a 32-bit count in
//! the handle field, so they are never refused for width.

/// Width of every field port and of the engine's command and response registers.
pub const FIELD_BITS: usize = 32;

/// Widths each field may be generated with.
pub const FIELD_WIDTHS: std::ops::RangeInclusive<usize> = 1..=FIELD_BITS;

/// Stored widths of an entry's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldWidths {
    /// Communicator (MPI context id); its low 2 bits are the completion class.
    pub comm: usize,
    /// Source rank: 32 bits lets any MPI job use the engine.
    pub src: usize,
    pub tag: usize,
    /// The host's handle of a receive or message.
    pub handle: usize,
}

impl Default for FieldWidths {
    /// 16-bit communicators and ranks, 32-bit tags and handles.
    fn default() -> Self {
        FieldWidths { comm: 16, src: 16, tag: 32, handle: 32 }
    }
}

impl FieldWidths {
    /// The widths, or a one-line reason naming the option and its range.
    pub fn new(comm: usize, src: usize, tag: usize, handle: usize) -> Result<Self, String> {
        for (option, bits) in
            [("--comm-bits", comm), ("--source-bits", src), ("--tag-bits", tag), ("--handle-bits", handle)]
        {
            if !FIELD_WIDTHS.contains(&bits) {
                return Err(format!("{option} {bits}: a field is 1 to {FIELD_BITS} bits wide"));
            }
        }
        Ok(FieldWidths { comm, src, tag, handle })
    }

    /// Bits of one stored entry: the four fields and the two wildcard flags.
    pub fn entry_bits(&self) -> usize {
        self.comm + self.src + self.tag + self.handle + 2
    }

    /// The bits above a `bits`-wide field, as a 32-bit mask.
    pub fn over_mask(bits: usize) -> u64 {
        ((1u64 << FIELD_BITS) - 1) & !((1u64 << bits) - 1)
    }

    /// Whether `value` fits a `bits`-wide field.
    pub fn fits(value: u64, bits: usize) -> bool {
        value & !((1u64 << bits) - 1) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_out_of_range_name_the_option() {
        assert!(FieldWidths::new(16, 32, 32, 32).is_ok());
        let e = FieldWidths::new(16, 33, 32, 32).unwrap_err();
        assert!(e.contains("--source-bits 33") && e.contains("1 to 32"), "{e}");
        assert!(FieldWidths::new(0, 16, 32, 32).unwrap_err().contains("--comm-bits 0"));
    }

    #[test]
    fn masks_cover_the_bits_above_a_field() {
        assert_eq!(FieldWidths::over_mask(32), 0);
        assert_eq!(FieldWidths::over_mask(16), 0xffff_0000);
        assert_eq!(FieldWidths::over_mask(1), 0xffff_fffe);
        assert!(FieldWidths::fits(0xffff, 16) && !FieldWidths::fits(0x1_0000, 16));
        assert!(FieldWidths::fits(u32::MAX as u64, 32));
    }
}
