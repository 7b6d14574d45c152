//! The thread array's hashed indexes: an envelope's list in each of the exact,
//! `ANY_SOURCE` and `ANY_TAG` indexes, each of `B` bins. A receive with both wildcards has
//! a list of its own, after the three indexes. A posted receive goes into the list of its
//! class; an arriving message walks its four lists (those of the classes that hold a
//! receive), so each lane has one of these and the controller another, for posting.
//!
//! The hash is `tagmatch_sim::optimistic::bin`: XOR of 16-bit pieces (the tag's halves
//! folded, the source shifted by 4 so that `src == tag` keys do not cancel), low bits
//! kept. Cheap in hardware, and the model's walks are exactly as long.

use crate::optimistic::vectors::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ListHash {
    pub comm: Signal<In, Bits<16>>,
    pub src: Signal<In, Bits<16>>,
    pub tag: Signal<In, Bits<32>>,
    /// The list in the exact index (hash of all three fields), `0..B`.
    pub exact: Signal<Out, Bits<16>>,
    /// In the `ANY_SOURCE` index (communicator and tag), `B..2B`.
    pub any_src: Signal<Out, Bits<16>>,
    /// In the `ANY_TAG` index (communicator and source), `2B..3B`.
    pub any_tag: Signal<Out, Bits<16>>,
    bin_mask: Constant<Bits<16>>,
    any_src_base: Constant<Bits<16>>,
    any_tag_base: Constant<Bits<16>>,
    src4: Signal<Local, Bits<16>>,
    tag_folded: Signal<Local, Bits<16>>,
}

impl ListHash {
    /// Indexes of `bins` bins each (a power of two).
    pub fn new(bins: u64) -> Self {
        assert!(bins.is_power_of_two() && bins <= 1 << 14, "{bins} bins");
        ListHash {
            comm: Default::default(),
            src: Default::default(),
            tag: Default::default(),
            exact: Default::default(),
            any_src: Default::default(),
            any_tag: Default::default(),
            bin_mask: k(bins - 1),
            any_src_base: k(bins),
            any_tag_base: k(2 * bins),
            src4: Default::default(),
            tag_folded: Default::default(),
        }
    }
}

impl Logic for ListHash {
    #[hdl_gen]
    fn update(&mut self) {
        self.src4.next = self.src.val() << 4;
        self.tag_folded.next = self.tag.val().get_bits::<16>(0) ^ self.tag.val().get_bits::<16>(16);
        self.exact.next = (self.comm.val() ^ self.src4.val() ^ self.tag_folded.val()) & self.bin_mask.val();
        self.any_src.next =
            self.any_src_base.val() + ((self.comm.val() ^ self.tag_folded.val()) & self.bin_mask.val());
        self.any_tag.next =
            self.any_tag_base.val() + ((self.comm.val() ^ self.src4.val()) & self.bin_mask.val());
    }
}
