//! The configuration types every tagmatch crate shares, so that the generator, the
//! hardware blocks, the models and the testbenches read one definition with one set of
//! defaults and ranges: the two-level engine's shape ([`EngineShape`]) and the field
//! widths of its entries.
//!
//! Field widths of the receive engine's entries: communicator, source rank, tag and
//! handle, each a generation parameter from 1 to 32 bits. The hardware stores each at its
//! width (its ports stay [`FIELD_BITS`] wide: see `tagmatch_hdl::fields` for why); the
//! models and drivers refuse an operation whose values do not fit ([`FieldWidths::fits`]),
//! as the hardware answers such a command `error`, rather than truncate it into a
//! different envelope.

pub mod cam_banks;
mod shape;

pub use shape::{
    EngineShape, ENGINE_CAM_DEPTHS, LABEL_BITS, LIST_ADDRESS_BITS, MAX_LISTS, MAX_LIST_CAPACITY,
    MAX_QUEUE_CAPACITY, MODEL_MAX_LISTS,
};

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
    fn default() -> Self {
        FieldWidths::DEFAULT
    }
}

impl FieldWidths {
    /// 16-bit communicators and ranks, 32-bit tags and handles: what every crate and the
    /// command line's defaults read.
    pub const DEFAULT: FieldWidths = FieldWidths { comm: 16, src: 16, tag: 32, handle: 32 };

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

    /// Whether `value` fits a `bits`-wide field (any value fits 64 bits or more).
    pub fn fits(value: u64, bits: usize) -> bool {
        bits >= 64 || value >> bits == 0
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
