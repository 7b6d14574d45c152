//! A block's unmatched messages into the UMQ: which fit, and one insert a cycle.
//!
//! In the tail's first cycle (`place`) every unmatched message learns whether it fits:
//! its rank among the unmatched (a prefix count over the lanes) against the UMQ's room,
//! which depends on the count alone, so the compare is as narrow as a rank. Those past the
//! room answer overflow (`overflow`). From the next cycle the lowest lane whose message
//! fits and is not in yet puts it on the UMQ's one insert port (`found`, the message on
//! `insert_*`; the array asserts `insert` to take it), a message a cycle: a priority
//! select and an AND-OR over the lanes' own registers. One port keeps the UMQ's slots
//! free of a multiplexer per lane, and one message a cycle needs no packing network: the
//! slide that packed the 16-lane array's messages in one cycle ended its routed critical
//! path.

use crate::optimistic::vectors::{dffs, k, signals};
use crate::primitives::select::{LowestSet, OneHotSelect, PrefixCount};
use crate::primitives::trees::bits_to_hold;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct UmqPlacement {
    pub clock: Signal<In, Clock>,
    /// Per lane: its message is in the block and unmatched.
    pub unmatched: Vec<Signal<In, Bit>>,
    /// Per lane: its message's fields.
    pub comm: Vec<Signal<In, Bits<16>>>,
    pub src: Vec<Signal<In, Bits<16>>>,
    pub tag: Vec<Signal<In, Bits<32>>>,
    pub handle: Vec<Signal<In, Bits<32>>>,
    /// Messages the UMQ holds.
    pub count: Signal<In, Bits<16>>,
    /// The tail's first cycle: the messages that fit become pending.
    pub place: Signal<In, Bit>,
    /// The message on `insert_*` goes into the UMQ this cycle.
    pub insert: Signal<In, Bit>,
    /// Per lane: unmatched and past the UMQ's room.
    pub overflow: Vec<Signal<Out, Bit>>,
    /// Some lane's message is unmatched (an OR over the lanes, not a count: a carry chain
    /// over the lanes ended 16 lanes' critical path into the block's finish).
    pub any_unmatched: Signal<Out, Bit>,
    /// A message is pending, and it is on `insert_*`.
    pub found: Signal<Out, Bit>,
    pub insert_comm: Signal<Out, Bits<16>>,
    pub insert_src: Signal<Out, Bits<16>>,
    pub insert_tag: Signal<Out, Bits<32>>,
    pub insert_handle: Signal<Out, Bits<32>>,
    /// More than one message is pending: the inserts go on after this cycle's.
    pub more: Signal<Out, Bit>,
    umq_depth: Constant<Bits<16>>,
    /// The bits the UMQ's count (at most its depth) needs: the room and the ranks'
    /// compares are only as wide (the CAM's 16-bit count feeds back through its own
    /// register, so synthesis cannot narrow them itself).
    count_mask: Constant<Bits<16>>,
    room: Signal<Local, Bits<16>>,
    fits: Vec<Signal<Local, Bit>>,
    /// Per lane: its message fits and is not in the UMQ yet.
    pending: Vec<DFF<Bit>>,
    rank: PrefixCount,
    lowest_pending: LowestSet,
    comm_sel: OneHotSelect<16>,
    src_sel: OneHotSelect<16>,
    tag_sel: OneHotSelect<32>,
    handle_sel: OneHotSelect<32>,
    _lanes: usize,
}

impl UmqPlacement {
    /// Placement of `lanes` lanes' messages into a UMQ of `unexpected` entries.
    pub fn new(lanes: usize, unexpected: usize) -> Self {
        assert!(lanes > 0 && unexpected > 0, "{lanes} lanes, {unexpected} UMQ entries");
        let n = lanes;
        UmqPlacement {
            clock: Default::default(),
            unmatched: signals(n),
            comm: signals(n),
            src: signals(n),
            tag: signals(n),
            handle: signals(n),
            count: Default::default(),
            place: Default::default(),
            insert: Default::default(),
            overflow: signals(n),
            any_unmatched: Default::default(),
            found: Default::default(),
            insert_comm: Default::default(),
            insert_src: Default::default(),
            insert_tag: Default::default(),
            insert_handle: Default::default(),
            more: Default::default(),
            umq_depth: k(unexpected as u64),
            count_mask: k((1u64 << bits_to_hold(unexpected)) - 1),
            room: Default::default(),
            fits: signals(n),
            pending: dffs(n),
            rank: PrefixCount::new(n),
            lowest_pending: LowestSet::new(n),
            comm_sel: OneHotSelect::new(n, 1),
            src_sel: OneHotSelect::new(n, 1),
            tag_sel: OneHotSelect::new(n, 1),
            handle_sel: OneHotSelect::new(n, 1),
            _lanes: n,
        }
    }
}

impl Logic for UmqPlacement {
    #[hdl_gen]
    fn update(&mut self) {
        self.room.next =
            (self.umq_depth.val() - (self.count.val() & self.count_mask.val())) & self.count_mask.val();
        self.any_unmatched.next = false;
        self.more.next = false;
        for i in 0..self._lanes {
            self.rank.bits[i].next = self.unmatched[i].val();
            self.fits[i].next = self.unmatched[i].val() & (self.rank.counts[i].val() < self.room.val());
            self.overflow[i].next = self.unmatched[i].val() & !self.fits[i].val();
            if self.unmatched[i].val() {
                self.any_unmatched.next = true;
            }
            self.pending[i].clock.next = self.clock.val();
            self.pending[i].d.next = self.pending[i].q.val();
            if self.place.val() {
                self.pending[i].d.next = self.fits[i].val();
            } else if self.insert.val() & self.lowest_pending.first[i].val() {
                self.pending[i].d.next = false;
            }
            self.lowest_pending.bits[i].next = self.pending[i].q.val();
            if self.pending[i].q.val() & !self.lowest_pending.first[i].val() {
                self.more.next = true;
            }
            self.comm_sel.entries[i].next = self.comm[i].val();
            self.src_sel.entries[i].next = self.src[i].val();
            self.tag_sel.entries[i].next = self.tag[i].val();
            self.handle_sel.entries[i].next = self.handle[i].val();
            self.comm_sel.selects[i].next = self.lowest_pending.first[i].val();
            self.src_sel.selects[i].next = self.lowest_pending.first[i].val();
            self.tag_sel.selects[i].next = self.lowest_pending.first[i].val();
            self.handle_sel.selects[i].next = self.lowest_pending.first[i].val();
        }
        self.found.next = self.lowest_pending.found.val();
        self.insert_comm.next = self.comm_sel.values[0].val();
        self.insert_src.next = self.src_sel.values[0].val();
        self.insert_tag.next = self.tag_sel.values[0].val();
        self.insert_handle.next = self.handle_sel.values[0].val();
    }
}
