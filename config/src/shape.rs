//! The two-level receive engine's shape: CAM depth, lists, list size, posting-label width
//! and field widths, with the ranges the RTL takes and what follows from them.

use crate::FieldWidths;
use std::ops::RangeInclusive;

/// CAM depths the engine's RTL takes.
pub const ENGINE_CAM_DEPTHS: RangeInclusive<usize> = 2..=1024;
/// Most lists the RTL takes; a power of two, as its tournament tree pairs them.
pub const MAX_LISTS: usize = 64;
/// List address widths the RTL takes: 3 to 32,767 entries per list.
pub const LIST_ADDRESS_BITS: RangeInclusive<usize> = 2..=15;
/// Most list words a queue holds: its 16-bit entry count must also hold the CAM's.
pub const MAX_LIST_CAPACITY: usize = 32_768;
/// Posting labels: 32 bits by default, at least 4 (two for the quarter, two to count in it).
pub const LABEL_BITS: RangeInclusive<u32> = 4..=32;
/// Most lists of a model-only shape: the RTL numbers lists in 8 bits.
pub const MODEL_MAX_LISTS: usize = 256;
/// Most entries a queue holds: the RTL counts them in 16 bits.
pub const MAX_QUEUE_CAPACITY: usize = u16::MAX as usize;

/// The shape of a two-level receive engine; both queues (PRQ and UMQ) have it.
///
/// It lives in the leaf crate because every crate needs it (the generator emits it, the
/// hardware blocks are built to it, the models and testbenches are sized by it), and so
/// that there is one set of ranges and one default. [`EngineShape::new`] and
/// [`EngineShape::from_list_capacity`] give the shapes the RTL takes;
/// [`EngineShape::model`] also gives lists of any size, which only the cycle model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EngineShape {
    pub cam_depth: usize,
    pub lists: usize,
    /// Entries one list holds. Its block RAM has one word more (word 0 is the null
    /// pointer), so in the RTL this is `2^list_address_bits - 1`.
    pub entries_per_list: usize,
    /// Width of the lists' posting labels.
    pub label_bits: u32,
    /// Stored widths of the communicator, source, tag and handle: the hardware answers
    /// `error` to, and the models refuse, values that do not fit.
    pub fields: FieldWidths,
}

impl Default for EngineShape {
    fn default() -> Self {
        EngineShape::DEFAULT
    }
}

impl EngineShape {
    /// The paper's engine: a 256-entry CAM and 32,768 list words in 4 lists, 32-bit
    /// labels, the default field widths.
    pub const DEFAULT: EngineShape = EngineShape {
        cam_depth: 256,
        lists: 4,
        entries_per_list: (1 << 13) - 1,
        label_bits: 32,
        fields: FieldWidths::DEFAULT,
    };

    /// A shape the RTL takes, with 32-bit labels, or a one-line reason naming the range
    /// that was left.
    pub fn new(cam_depth: usize, lists: usize, list_address_bits: usize) -> Result<Self, String> {
        if !ENGINE_CAM_DEPTHS.contains(&cam_depth) {
            return Err(format!("--cam-depth {cam_depth}: the CAM holds 2 to 1,024 entries"));
        }
        check_lists(lists)?;
        if !LIST_ADDRESS_BITS.contains(&list_address_bits) {
            return Err(format!(
                "{list_address_bits}-bit list addresses: each list's block RAM has 4 to 32,768 words"
            ));
        }
        if lists << list_address_bits > MAX_LIST_CAPACITY {
            return Err(format!(
                "{lists} lists of {} words: the lists hold at most {MAX_LIST_CAPACITY} words together",
                1usize << list_address_bits
            ));
        }
        Ok(EngineShape { cam_depth, lists, entries_per_list: (1 << list_address_bits) - 1, ..Self::DEFAULT })
    }

    /// The RTL's shape whose lists share `list_capacity` block-RAM words equally (what
    /// `gen --list-capacity` takes). Word 0 of each list is the null pointer, so the lists
    /// together hold `lists` entries fewer than the capacity.
    pub fn from_list_capacity(cam_depth: usize, lists: usize, list_capacity: usize) -> Result<Self, String> {
        check_lists(lists)?;
        let words = list_capacity / lists;
        if !list_capacity.is_power_of_two() || words < 4 || list_capacity > MAX_LIST_CAPACITY {
            return Err(format!(
                "--list-capacity {list_capacity}: a power of two from 4 words per list ({}) to {MAX_LIST_CAPACITY}",
                4 * lists
            ));
        }
        Self::new(cam_depth, lists, words.trailing_zeros() as usize)
    }

    /// A shape for the cycle model alone: any CAM depth, 1 to [`MODEL_MAX_LISTS`] lists of
    /// any size, a queue of at most [`MAX_QUEUE_CAPACITY`] entries; 32-bit labels.
    pub fn model(cam_depth: usize, lists: usize, entries_per_list: usize) -> Result<Self, String> {
        let shape = EngineShape { cam_depth, lists, entries_per_list, ..Self::DEFAULT };
        if cam_depth == 0 || lists == 0 || entries_per_list == 0 {
            return Err(format!(
                "CAM depth {cam_depth}, {lists} lists of {entries_per_list} entries: each must be at least 1"
            ));
        }
        if lists > MODEL_MAX_LISTS {
            return Err(format!(
                "{lists} lists: the engine numbers lists in 8 bits (at most {MODEL_MAX_LISTS})"
            ));
        }
        if shape.queue_capacity() > MAX_QUEUE_CAPACITY {
            return Err(format!(
                "a queue of {} entries: the engine counts entries in 16 bits (at most {MAX_QUEUE_CAPACITY})",
                shape.queue_capacity()
            ));
        }
        Ok(shape)
    }

    /// The model-only shape whose lists share `list_capacity` words equally (one word of
    /// each for the null pointer), as `tagmatch gen` splits them.
    pub fn model_from_list_capacity(
        cam_depth: usize,
        lists: usize,
        list_capacity: usize,
    ) -> Result<Self, String> {
        if lists == 0 || lists > MODEL_MAX_LISTS {
            return Err(format!("--lists {lists}: from 1 to {MODEL_MAX_LISTS} lists"));
        }
        if !list_capacity.is_multiple_of(lists) || list_capacity / lists < 2 {
            return Err(format!(
                "--list-capacity {list_capacity} does not split into {lists} lists of two or more words"
            ));
        }
        Self::model(cam_depth, lists, list_capacity / lists - 1)
    }

    /// The same shape with posting labels of `bits` bits, or a one-line error naming
    /// [`LABEL_BITS`].
    pub fn with_label_bits(self, bits: u32) -> Result<Self, String> {
        if !LABEL_BITS.contains(&bits) {
            return Err(format!(
                "--label-bits {bits}: from {} to {} bits",
                LABEL_BITS.start(),
                LABEL_BITS.end()
            ));
        }
        Ok(EngineShape { label_bits: bits, ..self })
    }

    /// The same shape storing fields of `fields` (see [`FieldWidths::new`]).
    pub fn with_fields(self, fields: FieldWidths) -> Self {
        EngineShape { fields, ..self }
    }

    /// Address bits of one list's block RAM (rounded up for a model-only list size).
    pub const fn list_address_bits(&self) -> usize {
        (self.entries_per_list + 1).next_power_of_two().trailing_zeros() as usize
    }

    /// Block-RAM words of all lists together, the null pointers included.
    pub const fn list_capacity(&self) -> usize {
        self.lists * (self.entries_per_list + 1)
    }

    /// Entries one queue holds at most: the CAM and every list.
    pub const fn queue_capacity(&self) -> usize {
        self.cam_depth + self.lists * self.entries_per_list
    }

    /// Entries one queue always takes: the CAM's banks (a full CAM holds one entry per
    /// bank at least: [`crate::cam_banks`]) and every list. Between this and
    /// [`EngineShape::queue_capacity`] an insert may be answered overflow, depending on
    /// which entries left the CAM.
    pub const fn guaranteed_capacity(&self) -> usize {
        crate::cam_banks::banks(self.cam_depth) + self.lists * self.entries_per_list
    }

    /// Whether the RTL takes this shape (not a model-only one, nor one whose fields were
    /// set outside their range), or a one-line reason.
    pub fn check_hardware(&self) -> Result<(), String> {
        let bits = self.list_address_bits();
        if self.entries_per_list != (1 << bits) - 1 {
            return Err(format!(
                "lists of {} entries: the RTL's lists hold 2^k - 1 (a block RAM of 2^k words)",
                self.entries_per_list
            ));
        }
        let f = self.fields;
        FieldWidths::new(f.comm, f.src, f.tag, f.handle)?;
        Self::new(self.cam_depth, self.lists, bits)?.with_label_bits(self.label_bits)?;
        Ok(())
    }
}

/// `lists` is a number of lists the RTL takes, or a one-line reason.
fn check_lists(lists: usize) -> Result<(), String> {
    if lists.is_power_of_two() && lists <= MAX_LISTS {
        Ok(())
    } else {
        Err(format!("--lists {lists}: the number of lists must be a power of two from 1 to {MAX_LISTS}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_gen_default() {
        assert_eq!(EngineShape::from_list_capacity(256, 4, 32_768), Ok(EngineShape::DEFAULT));
        assert_eq!(EngineShape::DEFAULT.list_address_bits(), 13);
        assert_eq!(EngineShape::DEFAULT.list_capacity(), 32_768);
        assert_eq!(EngineShape::DEFAULT.queue_capacity(), 256 + 4 * 8191);
        assert!(EngineShape::DEFAULT.check_hardware().is_ok());
    }

    #[test]
    fn rtl_shapes_name_the_range_they_left() {
        let e = EngineShape::new(2000, 4, 13).unwrap_err();
        assert!(e.contains("--cam-depth 2000: the CAM holds 2 to 1,024 entries"), "{e}");
        assert!(EngineShape::new(1, 4, 13).unwrap_err().contains("2 to 1,024"));
        assert!(EngineShape::new(8, 3, 4).unwrap_err().contains("power of two from 1 to 64"));
        assert!(EngineShape::new(8, 4, 1).unwrap_err().contains("4 to 32,768 words"));
        assert!(EngineShape::new(8, 4, 14).unwrap_err().contains("at most 32768 words together"));
        let e = EngineShape::from_list_capacity(256, 4, 1000).unwrap_err();
        assert!(
            e.contains("--list-capacity 1000: a power of two from 4 words per list (16) to 32768"),
            "{e}"
        );
        assert!(EngineShape::from_list_capacity(256, 64, 128).unwrap_err().contains("(256)"));
        assert!(EngineShape::from_list_capacity(256, 0, 128).unwrap_err().contains("--lists 0"));
        let e = EngineShape::DEFAULT.with_label_bits(3).unwrap_err();
        assert!(e.contains("--label-bits 3: from 4 to 32 bits"), "{e}");
    }

    #[test]
    fn model_shapes_take_any_list_size() {
        let odd = EngineShape::model(1, 3, 2).unwrap();
        assert_eq!((odd.queue_capacity(), odd.list_capacity()), (7, 9));
        assert!(odd.check_hardware().unwrap_err().contains("lists of 2 entries"));
        assert!(EngineShape::model(0, 1, 1).is_err());
        assert!(EngineShape::model(256, 1, 65535).unwrap_err().contains("16 bits"));
        assert!(EngineShape::model(8, 257, 1).unwrap_err().contains("8 bits"));
        assert!(EngineShape::model_from_list_capacity(256, 3, 32768).unwrap_err().contains("does not split"));
        assert!(EngineShape::model_from_list_capacity(256, 512, 32768 * 16).is_err());
        let four = EngineShape::model_from_list_capacity(256, 4, 32768).unwrap();
        assert_eq!(four, EngineShape::DEFAULT);
    }

    #[test]
    fn hardware_shapes_keep_their_ranges() {
        let narrow = EngineShape::new(4, 2, 3).unwrap().with_label_bits(4).unwrap();
        assert!(narrow.check_hardware().is_ok());
        let bad_fields = narrow.with_fields(FieldWidths { tag: 0, ..FieldWidths::DEFAULT });
        assert!(bad_fields.check_hardware().unwrap_err().contains("--tag-bits 0"));
        assert!(EngineShape { cam_depth: 2000, ..narrow }.check_hardware().is_err());
    }
}
