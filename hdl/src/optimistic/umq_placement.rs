//! A block's unmatched messages into the UMQ: which fit, and one insert a cycle.
//!
//! In the tail's first cycle (`place`) every unmatched message learns whether it fits:
//! its rank among the unmatched (a prefix count over the lanes) against the UMQ's room,
//! which depends on the count alone, so the compare is as narrow as a rank. Those past the
//! room answer overflow (`overflow`). From the next cycle the lowest lane whose message
//! fits and is not in yet is chosen for the UMQ's one insert port (`found`; the array
//! asserts `insert` to take it), a message a cycle: an AND-OR over the lanes' own
//! registers. The choice is a register (`first`), loaded from a priority select: when
//! placing, of the unmatched messages (the fitting ones are the lowest `room` of them, so
//! the lowest fits if any does, and the select runs beside the ranks' adders, not behind
//! them); when inserting, of the pending ones but this cycle's choice. So the select's
//! tree and the AND-OR are in different cycles: the two together ended the 16-lane
//! array's critical path without the fast path (13.3 ns).
//!
//! Measured and dropped: the ranks registered in a tail cycle of their own, compared with
//! the room in a second (the lanes' results, the adder tree, the compare and the lanes'
//! result registers in one cycle were the 16-lane array's critical path without the fast
//! path, 13.0 ns). It moved that array's critical path elsewhere at the same clock and
//! cost blocks with an unmatched message a cycle. With it, the 16-lane array with the fast
//! path made 56 MHz with router1 at seed 1, against 79 with it reverted (1efb8ba). The
//! other low runs of that array (55–60 MHz, with and without the split) were routed by
//! router2, which the flow picks above 40,000 LUT4s; the timing history has every run.
//!
//! One port keeps the UMQ's slots free of a multiplexer per lane, and one message a cycle
//! needs no packing network: the slide that packed the 16-lane array's messages in one
//! cycle ended its routed critical path.
//!
//! The chosen message reaches the UMQ a cycle after its insert, from registers (`write`,
//! `write_*`): the priority select and the AND-OR over 16 lanes' 96 bits, followed by the
//! UMQ's write port, were the 16-lane array's critical path without the fast path. Nobody
//! sees the delay: the last insert of a block is in its finishing cycle, the answer shows
//! in the next, and the next command, the UMQ's next search, is accepted a cycle later at
//! the earliest. Only the array's `umq_count` port counts a block's last message a cycle
//! late. A reset in the insert's cycle drops the write (defensive: the clearing pass that
//! follows a reset empties the UMQ in the same edge anyway).

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
    /// The lowest pending message is taken this cycle (written a cycle later).
    pub insert: Signal<In, Bit>,
    /// Per lane: unmatched and past the UMQ's room.
    pub overflow: Vec<Signal<Out, Bit>>,
    /// Some lane's message is unmatched (an OR over the lanes, not a count: a carry chain
    /// over the lanes ended 16 lanes' critical path into the block's finish).
    pub any_unmatched: Signal<Out, Bit>,
    /// A message is pending: the lowest pending lane's, which `insert` takes.
    pub found: Signal<Out, Bit>,
    /// More than one message is pending: the inserts go on after this cycle's.
    pub more: Signal<Out, Bit>,
    /// The array's reset: an insert in its cycle is not written.
    pub reset: Signal<In, Bit>,
    /// Last cycle's insert, for the UMQ's write port (module docs).
    pub write: Signal<Out, Bit>,
    pub write_comm: Signal<Out, Bits<16>>,
    pub write_src: Signal<Out, Bits<16>>,
    pub write_tag: Signal<Out, Bits<32>>,
    pub write_handle: Signal<Out, Bits<32>>,
    umq_depth: Constant<Bits<16>>,
    /// The bits the UMQ's count (at most its depth) needs: the room and the ranks'
    /// compares are only as wide (the CAM's 16-bit count feeds back through its own
    /// register, so synthesis cannot narrow them itself).
    count_mask: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    room: Signal<Local, Bits<16>>,
    fits: Vec<Signal<Local, Bit>>,
    /// Per lane: its message fits and is not in the UMQ yet.
    pending: Vec<DFF<Bit>>,
    /// Per lane: the lowest pending lane, one-hot (zero when none is pending).
    first: Vec<DFF<Bit>>,
    w_insert: DFF<Bit>,
    w_comm: DFF<Bits<16>>,
    w_src: DFF<Bits<16>>,
    w_tag: DFF<Bits<32>>,
    w_handle: DFF<Bits<32>>,
    rank: PrefixCount,
    lowest_unmatched: LowestSet,
    lowest_rest: LowestSet,
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
            more: Default::default(),
            reset: Default::default(),
            write: Default::default(),
            write_comm: Default::default(),
            write_src: Default::default(),
            write_tag: Default::default(),
            write_handle: Default::default(),
            umq_depth: k(unexpected as u64),
            count_mask: k((1u64 << bits_to_hold(unexpected)) - 1),
            zero16: k(0),
            room: Default::default(),
            fits: signals(n),
            pending: dffs(n),
            first: dffs(n),
            w_insert: Default::default(),
            w_comm: Default::default(),
            w_src: Default::default(),
            w_tag: Default::default(),
            w_handle: Default::default(),
            rank: PrefixCount::new(n),
            lowest_unmatched: LowestSet::new(n),
            lowest_rest: LowestSet::new(n),
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
        self.found.next = false;
        self.more.next = false;
        for i in 0..self._lanes {
            self.rank.bits[i].next = self.unmatched[i].val();
            self.fits[i].next = self.unmatched[i].val() & (self.rank.counts[i].val() < self.room.val());
            self.overflow[i].next = self.unmatched[i].val() & !self.fits[i].val();
            if self.unmatched[i].val() {
                self.any_unmatched.next = true;
            }
            self.lowest_unmatched.bits[i].next = self.unmatched[i].val();
            // Pending, but not this cycle's choice.
            self.lowest_rest.bits[i].next = self.pending[i].q.val() & !self.first[i].q.val();
            self.pending[i].clock.next = self.clock.val();
            self.first[i].clock.next = self.clock.val();
            // `first` stays the lowest of `pending`: both change only here.
            self.pending[i].d.next = self.pending[i].q.val();
            self.first[i].d.next = self.first[i].q.val();
            if self.place.val() {
                self.pending[i].d.next = self.fits[i].val();
                self.first[i].d.next =
                    self.lowest_unmatched.first[i].val() & (self.room.val() != self.zero16.val());
            } else if self.insert.val() {
                self.pending[i].d.next = self.pending[i].q.val() & !self.first[i].q.val();
                self.first[i].d.next = self.lowest_rest.first[i].val();
            }
            if self.first[i].q.val() {
                self.found.next = true;
            }
            if self.pending[i].q.val() & !self.first[i].q.val() {
                self.more.next = true;
            }
            self.comm_sel.entries[i].next = self.comm[i].val();
            self.src_sel.entries[i].next = self.src[i].val();
            self.tag_sel.entries[i].next = self.tag[i].val();
            self.handle_sel.entries[i].next = self.handle[i].val();
            self.comm_sel.selects[i].next = self.first[i].q.val();
            self.src_sel.selects[i].next = self.first[i].q.val();
            self.tag_sel.selects[i].next = self.first[i].q.val();
            self.handle_sel.selects[i].next = self.first[i].q.val();
        }
        self.w_insert.clock.next = self.clock.val();
        self.w_comm.clock.next = self.clock.val();
        self.w_src.clock.next = self.clock.val();
        self.w_tag.clock.next = self.clock.val();
        self.w_handle.clock.next = self.clock.val();
        self.w_insert.d.next = self.insert.val() & !self.reset.val();
        self.w_comm.d.next = self.comm_sel.values[0].val();
        self.w_src.d.next = self.src_sel.values[0].val();
        self.w_tag.d.next = self.tag_sel.values[0].val();
        self.w_handle.d.next = self.handle_sel.values[0].val();
        self.write.next = self.w_insert.q.val();
        self.write_comm.next = self.w_comm.q.val();
        self.write_src.next = self.w_src.q.val();
        self.write_tag.next = self.w_tag.q.val();
        self.write_handle.next = self.w_handle.q.val();
    }
}
