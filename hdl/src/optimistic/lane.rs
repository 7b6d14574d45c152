//! One lane of the thread array: it holds one arriving message of a block, walks the four
//! lists its envelope hashes to, books the earliest receive it matches (its candidate),
//! and takes a receive when the array resolves it.
//!
//! **The walk** is a two-stage pipeline, so no clock cycle holds both the `D`-way
//! descriptor read and the compares. The read stage reads the entry the walk points at (a
//! list's head out of the head table, or the link of the entry being compared): its links
//! and flags through the descriptor table's read ports (by `read_pointer`) into `ex_*`, its
//! fixed fields out of this lane's own RAM copies (registered reads). The compare stage
//! matches the entry read last cycle and keeps the smallest label across the lists. The
//! read follows a link before the compare has judged its entry: when that entry matches
//! (its list is done), the read is wasted and the next list's head is read a cycle later.
//! The move to the next list is registered (`ln_adv`) and applied in the next cycle, the
//! one that reads that list's head: the head table is always read for the list after the
//! current one, so the head is out of its RAM then either way, and the end-of-list bit of
//! the `D`-way read feeds only two flags.
//!
//! **Resolution**, once the partial barrier reaches the lane (`barrier`): a lane whose
//! candidate no lower lane booked (`!resolving`) takes it. Otherwise, once every lane has
//! booked (`go`), it takes its receive of the fast path's run (`shared`, `run_slot`), or
//! walks again skipping receives taken in this block, once the lane before it is done and
//! its receive unlinked (`prev_done`). A slow walk's take is unlinked in the next cycle.
//! The first walk reads the lists of the index classes that hold a receive (`occupied`,
//! from [`crate::optimistic::list_occupancy`]), the slow walk only the lists in which the
//! first walk matched an entry ([`WalkOrder`]):
//! nothing is posted during a block, so no other list can hold a match, and each list
//! skipped saves a cycle (the wc-sp scenario's three empty wildcard lists were most of
//! its slow walk). The walked classes come from four flags and the registered class, so
//! choosing the next list stays beside the read, not behind it.
//!
//! **The RAM copies** of the descriptors' fixed fields (envelope, wildcard flags, label,
//! handle) are written together in every lane when a receive is posted; the handle copy
//! also answers the lane's result and a cancel's scan (the array's module docs).

use crate::fields::FieldWidths;
use crate::optimistic::descriptor_copy::DescriptorCopy;
use crate::optimistic::vectors::{k, low_bits, pointer_mask};
use crate::optimistic::walk_order::WalkOrder;
use crate::primitives::trees::bits_to_hold;
use rust_hdl::prelude::*;

// Lane states; a lane at `L_WAIT` or beyond has booked.
const L_IDLE: u64 = 0;
const L_START: u64 = 1;
const L_WALK: u64 = 2;
const L_WAIT: u64 = 3;
const L_SLOW_WAIT: u64 = 4;
const L_REWALK: u64 = 5;
const L_DONE: u64 = 6;

/// `kind` values: the lane's result.
pub const LANE_MATCHED: u64 = 0;
pub const LANE_QUEUED: u64 = 1;
pub const LANE_OVERFLOW: u64 = 2;

#[derive(LogicBlock)]
pub struct Lane {
    pub clock: Signal<In, Clock>,
    /// Stops the lane (the array's reset): idle, no message, nothing to unlink.
    pub reset: Signal<In, Bit>,
    /// A block is accepted: the lane takes `message_*` and starts walking if `has_message`.
    pub start: Signal<In, Bit>,
    pub has_message: Signal<In, Bit>,
    pub message_comm: Signal<In, Bits<16>>,
    pub message_src: Signal<In, Bits<16>>,
    pub message_tag: Signal<In, Bits<32>>,
    pub message_handle: Signal<In, Bits<32>>,
    /// The message's lists ([`crate::optimistic::list_hash::ListHash`] of its envelope),
    /// and the list of receives with both wildcards.
    pub list_exact: Signal<In, Bits<16>>,
    pub list_any_src: Signal<In, Bits<16>>,
    pub list_any_tag: Signal<In, Bits<16>>,
    pub list_both: Signal<In, Bits<16>>,
    /// Bit `c`: index class `c` holds a receive; the first walk reads only those lists.
    pub occupied: Signal<In, Bits<4>>,
    /// The head table's read of `head_address` (registered: last cycle's address).
    pub head: Signal<In, Bits<16>>,
    /// The descriptor table's reads of the entry at `read_pointer`: valid, taken in this
    /// block, its `next` link and whether it has one.
    pub read_valid: Signal<In, Bit>,
    pub read_taken: Signal<In, Bit>,
    pub read_next: Signal<In, Bits<16>>,
    pub read_more: Signal<In, Bit>,
    /// Resolution: the partial barrier has reached the lane; a lower lane booked its
    /// candidate; every lane has booked (and the run is ready); the block takes the fast
    /// path, this lane's receive of the run; the lane before is done and unlinked.
    pub barrier: Signal<In, Bit>,
    pub resolving: Signal<In, Bit>,
    pub go: Signal<In, Bit>,
    pub shared: Signal<In, Bit>,
    pub run_slot: Signal<In, Bits<16>>,
    pub prev_done: Signal<In, Bit>,
    /// The lane's taken receive leaves its list this cycle.
    pub granted: Signal<In, Bit>,
    /// The lane's unmatched message does not fit in the UMQ.
    pub overflow: Signal<In, Bit>,
    /// Sets the taken slot (a cancel's found receive, lane 0).
    pub set_slot: Signal<In, Bit>,
    pub slot_value: Signal<In, Bits<16>>,
    /// Lane 0's walk moved its candidate: the lane's fast-path target follows.
    pub run_target_load: Signal<In, Bit>,
    pub run_target: Signal<In, Bits<16>>,
    /// A receive is posted: its fields go into this lane's RAM copies at `post_slot`.
    pub posting: Signal<In, Bit>,
    pub post_slot: Signal<In, Bits<16>>,
    pub post_comm: Signal<In, Bits<16>>,
    pub post_src: Signal<In, Bits<16>>,
    pub post_tag: Signal<In, Bits<32>>,
    pub post_src_any: Signal<In, Bit>,
    pub post_tag_any: Signal<In, Bit>,
    pub post_label: Signal<In, Bits<32>>,
    pub post_handle: Signal<In, Bits<32>>,
    /// A cancel's scan: the handle copy reads `scan_address` instead of the taken slot;
    /// `scan_check` says last cycle's read is one of the scan's valid slots.
    pub scanning: Signal<In, Bit>,
    pub scan_address: Signal<In, Bits<16>>,
    pub scan_check: Signal<In, Bit>,
    pub cancel_handle: Signal<In, Bits<32>>,
    /// The lane has a message in the block, and its fields.
    pub valid: Signal<Out, Bit>,
    pub comm: Signal<Out, Bits<16>>,
    pub src: Signal<Out, Bits<16>>,
    pub tag: Signal<Out, Bits<32>>,
    pub handle: Signal<Out, Bits<32>>,
    /// It has ended its first walk (`L_WAIT` or beyond); it is done.
    pub booked: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    /// It is on its first walk.
    pub first_walk: Signal<Out, Bit>,
    /// Its candidate (0: none).
    pub candidate: Signal<Out, Bits<16>>,
    /// The taken receive's slot and list, and the lane's result.
    pub slot: Signal<Out, Bits<16>>,
    pub taken_list: Signal<Out, Bits<16>>,
    pub kind: Signal<Out, Bits<2>>,
    /// Its taken receive is still to be unlinked; it took it on the slow path; it took it
    /// last cycle.
    pub pending: Signal<Out, Bit>,
    pub slow: Signal<Out, Bit>,
    pub took: Signal<Out, Bit>,
    /// It takes its receive of the fast path's run this cycle.
    pub fast_take: Signal<Out, Bit>,
    /// Where the walk reads: the head table's address, the entry's pointer.
    pub head_address: Signal<Out, Bits<16>>,
    pub read_pointer: Signal<Out, Bits<16>>,
    /// The compare stage: its entry matches; its label; the best match so far.
    pub hit: Signal<Out, Bit>,
    pub entry_label: Signal<Out, Bits<32>>,
    pub best: Signal<Out, Bits<16>>,
    pub best_label: Signal<Out, Bits<32>>,
    /// Its fast-path target `k + i`, low bits.
    pub target: Signal<Out, Bits<16>>,
    /// The handle copy's read: the taken receive's handle (the lane's result), or the
    /// scanned slot's.
    pub recv: Signal<Out, Bits<32>>,
    /// Last cycle's scanned slot holds the cancel's handle (registered).
    pub scan_hit: Signal<Out, Bit>,
    index16: Constant<Bits<16>>,
    /// A descriptor pointer's bits (`slot + 1`). The pointer registers (`ln_best`,
    /// `ln_cand`, `ln_slot`) hold their values through the walk's select, and synthesis
    /// cannot prove their upper bits zero through that loop; so `w_new` and `ln_slot`'s
    /// input (`w_slot`) are masked with it, and the registers keep only the pointer's bits.
    /// Unmasked, the barrier compared 16-bit candidates (its critical path at 16 lanes)
    /// and the descriptor table 16-bit slots.
    pointer_mask: Constant<Bits<16>>,
    /// A list number's bits. The walk's list registers (`ln_list_now`, `ex_list`, the
    /// best's, the candidate's, the taken's) hold their values through the walk order's
    /// selects, which synthesis cannot see through either: unmasked, each kept 16 bits, 60
    /// flip-flops a lane more than the list numbers need at 4 bins.
    list_mask: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    l_idle: Constant<Bits<3>>,
    l_start: Constant<Bits<3>>,
    l_walk: Constant<Bits<3>>,
    l_wait: Constant<Bits<3>>,
    l_slow_wait: Constant<Bits<3>>,
    l_rewalk: Constant<Bits<3>>,
    l_done: Constant<Bits<3>>,
    k_matched: Constant<Bits<2>>,
    k_queued: Constant<Bits<2>>,
    k_overflow: Constant<Bits<2>>,
    ln_valid: DFF<Bit>,
    ln_comm: DFF<Bits<16>>,
    ln_src: DFF<Bits<16>>,
    ln_tag: DFF<Bits<32>>,
    ln_handle: DFF<Bits<32>>,
    ln_state: DFF<Bits<3>>,
    /// The list class (exact, any source, any tag, both) the read stage is in.
    ln_class: DFF<Bits<2>>,
    /// The read stage reads a list's head this cycle (else the link of the entry being
    /// compared).
    ln_first: DFF<Bit>,
    /// The read stage has lists left to read.
    ln_reading: DFF<Bit>,
    /// The read stage decided last cycle to move to the next list (its entry was the
    /// list's last, or the compare stage matched); applied this cycle, so the decision,
    /// which waits on the `D`-way read, only feeds this flag and `ln_first`.
    ln_adv: DFF<Bit>,
    /// The list the read stage is in.
    ln_list_now: DFF<Bits<16>>,
    /// The compare stage: the entry read last cycle (`ex_live`: one is there), its
    /// pointer, list and link; whether it is the last of its list and whether that list
    /// is the last of the four; valid, and not taken in this block if the lane walks again.
    ex_live: DFF<Bit>,
    ex_ptr: DFF<Bits<16>>,
    ex_list: DFF<Bits<16>>,
    ex_last: DFF<Bit>,
    ex_final: DFF<Bit>,
    ex_usable: DFF<Bit>,
    ex_next: DFF<Bits<16>>,
    /// The compare stage's list class.
    ex_class: DFF<Bits<2>>,
    ln_cand: DFF<Bits<16>>,
    ln_cand_label: DFF<Bits<32>>,
    ln_cand_list: DFF<Bits<16>>,
    /// Lane 0's candidate's label plus this lane's index, its low bits: this lane's
    /// receive of the fast path's run is the descriptor of the candidate's sequence whose
    /// label has these low bits (the array's module docs, sequence ids).
    cand_run_low: DFF<Bits<16>>,
    /// The best match of the walk under way, first or second (0: none yet): the compare
    /// stage reads a register, not a select of the two walks' candidates by lane state.
    ln_best: DFF<Bits<16>>,
    ln_best_label: DFF<Bits<32>>,
    ln_best_list: DFF<Bits<16>>,
    ln_slot: DFF<Bits<16>>,
    ln_kind: DFF<Bits<2>>,
    ln_list: DFF<Bits<16>>,
    ln_pending: DFF<Bit>,
    ln_slow: DFF<Bit>,
    /// Took its receive last cycle: the array marks its slot taken now, so the per-slot
    /// decode is not on the walk's path.
    ln_took: DFF<Bit>,
    scan_hit_r: DFF<Bit>,
    /// The lane's copy of the descriptors' fixed fields.
    copy: DescriptorCopy,
    w_walking: Signal<Local, Bit>,
    w_rewalk: Signal<Local, Bit>,
    /// The lists the walk reads, in order: the occupied classes' on the first walk, then
    /// those it matched in.
    order: WalkOrder,
    /// This cycle's walk state, with last cycle's move to the next list applied.
    e_class: Signal<Local, Bits<2>>,
    e_reading: Signal<Local, Bit>,
    e_list_now: Signal<Local, Bits<16>>,
    w_addr: Signal<Local, Bits<16>>,
    w_ptr: Signal<Local, Bits<16>>,
    w_hit: Signal<Local, Bit>,
    /// The read stage's entry is the last of its list (or the list is empty).
    w_last: Signal<Local, Bit>,
    /// The read stage followed the link of an entry that matched: the read is wasted.
    w_kill: Signal<Local, Bit>,
    /// The read stage moves to the next list (registered into `ln_adv` and `ln_first`).
    w_adv: Signal<Local, Bit>,
    w_new: Signal<Local, Bits<16>>,
    /// `ln_slot`'s next value, masked into it (`pointer_mask`).
    w_slot: Signal<Local, Bits<16>>,
    w_new_label: Signal<Local, Bits<32>>,
    w_new_list: Signal<Local, Bits<16>>,
    /// The compare stage ends the walk: the last list's entry matched or was its last.
    w_done: Signal<Local, Bit>,
    w_take: Signal<Local, Bit>,
    w_start_rewalk: Signal<Local, Bit>,
}

impl Lane {
    /// Lane `index` of an array of `descriptors` descriptors storing fields at `fields`,
    /// whose lists are numbered up to `last_list` (the both-wildcards list).
    pub fn new(index: usize, descriptors: usize, last_list: u64, fields: FieldWidths) -> Self {
        Lane {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            has_message: Default::default(),
            message_comm: Default::default(),
            message_src: Default::default(),
            message_tag: Default::default(),
            message_handle: Default::default(),
            list_exact: Default::default(),
            list_any_src: Default::default(),
            list_any_tag: Default::default(),
            list_both: Default::default(),
            occupied: Default::default(),
            head: Default::default(),
            read_valid: Default::default(),
            read_taken: Default::default(),
            read_next: Default::default(),
            read_more: Default::default(),
            barrier: Default::default(),
            resolving: Default::default(),
            go: Default::default(),
            shared: Default::default(),
            run_slot: Default::default(),
            prev_done: Default::default(),
            granted: Default::default(),
            overflow: Default::default(),
            set_slot: Default::default(),
            slot_value: Default::default(),
            run_target_load: Default::default(),
            run_target: Default::default(),
            posting: Default::default(),
            post_slot: Default::default(),
            post_comm: Default::default(),
            post_src: Default::default(),
            post_tag: Default::default(),
            post_src_any: Default::default(),
            post_tag_any: Default::default(),
            post_label: Default::default(),
            post_handle: Default::default(),
            scanning: Default::default(),
            scan_address: Default::default(),
            scan_check: Default::default(),
            cancel_handle: Default::default(),
            valid: Default::default(),
            comm: Default::default(),
            src: Default::default(),
            tag: Default::default(),
            handle: Default::default(),
            booked: Default::default(),
            done: Default::default(),
            first_walk: Default::default(),
            candidate: Default::default(),
            slot: Default::default(),
            taken_list: Default::default(),
            kind: Default::default(),
            pending: Default::default(),
            slow: Default::default(),
            took: Default::default(),
            fast_take: Default::default(),
            head_address: Default::default(),
            read_pointer: Default::default(),
            hit: Default::default(),
            entry_label: Default::default(),
            best: Default::default(),
            best_label: Default::default(),
            target: Default::default(),
            recv: Default::default(),
            scan_hit: Default::default(),
            index16: k(index as u64),
            pointer_mask: k(pointer_mask(descriptors)),
            list_mask: k(low_bits(bits_to_hold(last_list as usize))),
            zero16: k(0),
            zero32: k(0),
            l_idle: k(L_IDLE),
            l_start: k(L_START),
            l_walk: k(L_WALK),
            l_wait: k(L_WAIT),
            l_slow_wait: k(L_SLOW_WAIT),
            l_rewalk: k(L_REWALK),
            l_done: k(L_DONE),
            k_matched: k(LANE_MATCHED),
            k_queued: k(LANE_QUEUED),
            k_overflow: k(LANE_OVERFLOW),
            ln_valid: Default::default(),
            ln_comm: Default::default(),
            ln_src: Default::default(),
            ln_tag: Default::default(),
            ln_handle: Default::default(),
            ln_state: Default::default(),
            ln_class: Default::default(),
            ln_first: Default::default(),
            ln_reading: Default::default(),
            ln_adv: Default::default(),
            ln_list_now: Default::default(),
            ex_live: Default::default(),
            ex_ptr: Default::default(),
            ex_list: Default::default(),
            ex_last: Default::default(),
            ex_final: Default::default(),
            ex_usable: Default::default(),
            ex_next: Default::default(),
            ex_class: Default::default(),
            ln_cand: Default::default(),
            ln_cand_label: Default::default(),
            ln_cand_list: Default::default(),
            cand_run_low: Default::default(),
            ln_best: Default::default(),
            ln_best_label: Default::default(),
            ln_best_list: Default::default(),
            ln_slot: Default::default(),
            ln_kind: Default::default(),
            ln_list: Default::default(),
            ln_pending: Default::default(),
            ln_slow: Default::default(),
            ln_took: Default::default(),
            scan_hit_r: Default::default(),
            copy: DescriptorCopy::new(descriptors, fields),
            w_walking: Default::default(),
            w_rewalk: Default::default(),
            order: WalkOrder::default(),
            e_class: Default::default(),
            e_reading: Default::default(),
            e_list_now: Default::default(),
            w_addr: Default::default(),
            w_ptr: Default::default(),
            w_hit: Default::default(),
            w_last: Default::default(),
            w_kill: Default::default(),
            w_adv: Default::default(),
            w_new: Default::default(),
            w_slot: Default::default(),
            w_new_label: Default::default(),
            w_new_list: Default::default(),
            w_done: Default::default(),
            w_take: Default::default(),
            w_start_rewalk: Default::default(),
        }
    }
}

impl Logic for Lane {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ln_valid,
            ln_comm,
            ln_src,
            ln_tag,
            ln_handle,
            ln_state,
            ln_class,
            ln_first,
            ln_reading,
            ln_adv,
            ln_list_now,
            ex_live,
            ex_ptr,
            ex_list,
            ex_last,
            ex_final,
            ex_usable,
            ex_next,
            ex_class,
            ln_cand,
            ln_cand_label,
            ln_cand_list,
            cand_run_low,
            ln_best,
            ln_best_label,
            ln_best_list,
            ln_slot,
            ln_kind,
            ln_list,
            ln_pending,
            ln_slow,
            ln_took,
            scan_hit_r
        );
        self.ln_took.d.next = false;
        // Every lane's copy takes the posted receive's fields at once.
        self.copy.clock.next = self.clock.val();
        self.copy.write_enable.next = self.posting.val();
        self.copy.write_slot.next = self.post_slot.val();
        self.copy.write_comm.next = self.post_comm.val();
        self.copy.write_src.next = self.post_src.val();
        self.copy.write_tag.next = self.post_tag.val();
        self.copy.write_src_any.next = self.post_src_any.val();
        self.copy.write_tag_any.next = self.post_tag_any.val();
        self.copy.write_label.next = self.post_label.val();
        self.copy.write_handle.next = self.post_handle.val();
        // The answer's handle, read by the taken slot: a take sets `ln_slot` at least one
        // edge before the answer is valid (the block ends in the cycle after the last take
        // at the earliest), which is the edge the registered read needs.
        self.copy.handle_pointer.next = self.ln_slot.q.val();
        self.w_slot.next = self.ln_slot.q.val();
        if self.scanning.val() {
            self.copy.handle_pointer.next = self.scan_address.val();
        }
        self.recv.next = self.copy.handle.val();
        // A cancel's scan: registered, so the array chooses the lowest hit from flops.
        self.scan_hit_r.d.next = self.scan_check.val() & (self.copy.handle.val() == self.cancel_handle.val());
        self.scan_hit.next = self.scan_hit_r.q.val();

        // ---- The walk. ----
        self.w_walking.next =
            (self.ln_state.q.val() == self.l_walk.val()) | (self.ln_state.q.val() == self.l_rewalk.val());
        self.w_rewalk.next = self.ln_state.q.val() == self.l_rewalk.val();
        // The lists walked: the occupied classes' on the first walk, then those it matched in.
        self.order.clock.next = self.clock.val();
        self.order.clear.next = self.start.val();
        self.order.first_walk.next = self.ln_state.q.val() < self.l_wait.val();
        self.order.occupied.next = self.occupied.val();
        self.order.current.next = self.ln_class.q.val();
        self.order.list_exact.next = self.list_exact.val();
        self.order.list_any_src.next = self.list_any_src.val();
        self.order.list_any_tag.next = self.list_any_tag.val();
        self.order.list_both.next = self.list_both.val();
        self.order.current_list.next = self.ln_list_now.q.val();
        self.order.reading.next = self.ln_reading.q.val();
        self.order.advance.next = self.ln_adv.q.val();
        // Last cycle's move to the next list takes effect now.
        self.e_class.next = self.order.now_class.val();
        self.e_reading.next = self.order.now_reading.val();
        self.e_list_now.next = self.order.now_list.val() & self.list_mask.val();
        self.ex_final.d.next = self.order.now_last.val();
        // The head read next cycle: the first walked list when starting a walk.
        self.w_addr.next = self.order.first_list.val() & self.list_mask.val();
        if self.w_walking.val() {
            self.w_addr.next = self.order.address.val() & self.list_mask.val();
        }
        self.head_address.next = self.w_addr.val();

        // The read stage.
        self.w_ptr.next = self.ex_next.q.val();
        if self.ln_first.q.val() {
            self.w_ptr.next = self.head.val();
        }
        self.read_pointer.next = self.w_ptr.val();
        self.copy.read_pointer.next = self.w_ptr.val();
        self.ex_ptr.d.next = self.w_ptr.val();
        self.ex_list.d.next = self.e_list_now.val();
        self.ex_class.d.next = self.e_class.val();
        // Valid, and not taken in this block when walking again: one flop for the compare
        // stage's AND. The lane's state does not change between the read and the compare
        // while it walks, and the compare is ignored once it stops.
        self.ex_usable.d.next = self.read_valid.val() & !(self.w_rewalk.val() & self.read_taken.val());
        self.ex_next.d.next = self.read_next.val();
        self.w_last.next = !self.read_more.val();
        self.ex_last.d.next = self.w_last.val();

        // The compare stage.
        self.w_hit.next = self.ex_live.q.val()
            & self.ex_usable.q.val()
            & (self.copy.comm.val() == self.ln_comm.q.val())
            & (self.copy.src_any.val() | (self.copy.src.val() == self.ln_src.q.val()))
            & (self.copy.tag_any.val() | (self.copy.tag.val() == self.ln_tag.q.val()));
        self.order.hit.next = self.w_hit.val() & !self.w_rewalk.val();
        self.order.hit_class.next = self.ex_class.q.val();
        self.w_new.next = self.ln_best.q.val();
        self.w_new_label.next = self.ln_best_label.q.val();
        self.w_new_list.next = self.ln_best_list.q.val();
        if self.w_hit.val()
            & ((self.ln_best.q.val() == self.zero16.val())
                | (self.copy.label.val() < self.ln_best_label.q.val()))
        {
            self.w_new.next = self.ex_ptr.q.val();
            self.w_new_label.next = self.copy.label.val();
            self.w_new_list.next = self.ex_list.q.val();
        }
        // Only the pointer's and the list number's bits (`pointer_mask`, `list_mask`).
        self.w_new.next = self.w_new.val() & self.pointer_mask.val();
        self.w_new_list.next = self.w_new_list.val() & self.list_mask.val();
        self.w_done.next =
            self.ex_live.q.val() & self.ex_final.q.val() & (self.w_hit.val() | self.ex_last.q.val());
        // Without a head read, this cycle's read followed the link of the entry being
        // compared; a match there ends the list, so the read is discarded.
        self.w_kill.next = self.w_hit.val() & !self.ln_first.q.val();
        self.ex_live.d.next = self.w_walking.val() & self.e_reading.val() & !self.w_kill.val();
        self.w_adv.next = self.e_reading.val() & (self.w_kill.val() | self.w_last.val());

        self.w_take.next = false;
        self.w_start_rewalk.next = false;
        if self.w_walking.val() {
            self.ln_best.d.next = self.w_new.val();
            self.ln_best_label.d.next = self.w_new_label.val();
            self.ln_best_list.d.next = self.w_new_list.val();
            if self.w_rewalk.val() {
                // The slow take's slot and list follow the walk every cycle (nothing reads
                // them before the take), so the take sets only flags and no select waits
                // on its verdict.
                self.w_slot.next = self.w_new.val();
                self.ln_list.d.next = self.w_new_list.val();
            } else {
                self.ln_cand.d.next = self.w_new.val();
                self.ln_cand_label.d.next = self.w_new_label.val();
                self.ln_cand_list.d.next = self.w_new_list.val();
            }
            // The read stage moves to the next list when its entry was the list's last or
            // the compare stage ended the list at a match (after the fourth, it stops):
            // decided now, applied next cycle (`ln_adv`), when the next list's head is out
            // of its RAM either way. `ln_first` is set with it, so the read's pointer
            // select is a register.
            self.ln_class.d.next = self.e_class.val();
            self.ln_list_now.d.next = self.e_list_now.val();
            self.ln_reading.d.next = self.e_reading.val();
            self.ln_adv.d.next = self.w_adv.val();
            self.ln_first.d.next = self.w_adv.val();
            if self.w_done.val() {
                if self.w_rewalk.val() {
                    // The slow path's take: unlinked next cycle. `w_new` is not 0 exactly
                    // when this entry matched or an earlier one did: no zero test behind
                    // the select.
                    self.w_take.next = self.w_hit.val() | (self.ln_best.q.val() != self.zero16.val());
                    self.ln_slow.d.next = true;
                    self.ln_state.d.next = self.l_done.val();
                } else {
                    // Books `w_new`: it is the lane's candidate from now on.
                    self.ln_state.d.next = self.l_wait.val();
                }
            }
        }
        if self.ln_state.q.val() == self.l_start.val() {
            self.ln_state.d.next = self.l_walk.val();
            self.ln_class.d.next = self.order.first.val();
            self.ln_first.d.next = true;
            self.ln_adv.d.next = false;
            self.ln_reading.d.next = true;
            self.ln_list_now.d.next = self.w_addr.val();
        }
        // The fast path's target follows lane 0's candidate.
        if self.run_target_load.val() {
            self.cand_run_low.d.next = self.run_target.val();
        }

        // ---- Resolution: take the candidate, the run's receive, or walk again. ----
        self.fast_take.next = false;
        if (self.ln_state.q.val() == self.l_wait.val()) & self.barrier.val() {
            if !self.resolving.val() {
                self.w_take.next = self.ln_cand.q.val() != self.zero16.val();
                self.w_slot.next = self.ln_cand.q.val();
                self.ln_list.d.next = self.ln_cand_list.q.val();
                self.ln_state.d.next = self.l_done.val();
            } else if self.go.val() {
                if self.shared.val() {
                    // Part of the run, which lane 0's unlink removes whole.
                    self.fast_take.next = true;
                    self.w_slot.next = self.run_slot.val();
                    self.ln_kind.d.next = self.k_matched.val();
                    self.ln_state.d.next = self.l_done.val();
                } else if self.prev_done.val() {
                    self.w_start_rewalk.next = true;
                } else {
                    self.ln_state.d.next = self.l_slow_wait.val();
                }
            }
        }
        if (self.ln_state.q.val() == self.l_slow_wait.val()) & self.prev_done.val() {
            self.w_start_rewalk.next = true;
        }
        if self.w_start_rewalk.val() {
            self.ln_state.d.next = self.l_rewalk.val();
            self.ln_class.d.next = self.order.first.val();
            self.ln_first.d.next = true;
            self.ln_adv.d.next = false;
            self.ln_reading.d.next = true;
            self.ln_list_now.d.next = self.w_addr.val();
            self.ln_best.d.next = self.zero16.val();
        }
        if self.w_take.val() {
            self.ln_kind.d.next = self.k_matched.val();
            self.ln_pending.d.next = true;
            self.ln_took.d.next = true;
        }
        if self.granted.val() {
            self.ln_pending.d.next = false;
        }

        // ---- The array's controller: a block starts; the tail; a cancel. ----
        if self.start.val() {
            self.ln_valid.d.next = self.has_message.val();
            self.ln_comm.d.next = self.message_comm.val();
            self.ln_src.d.next = self.message_src.val();
            self.ln_tag.d.next = self.message_tag.val();
            self.ln_handle.d.next = self.message_handle.val();
            self.ln_state.d.next = self.l_idle.val();
            if self.has_message.val() {
                self.ln_state.d.next = self.l_start.val();
            }
            self.ln_cand.d.next = self.zero16.val();
            self.ln_cand_label.d.next = self.zero32.val();
            self.cand_run_low.d.next = self.index16.val();
            self.ln_cand_list.d.next = self.zero16.val();
            self.ln_best.d.next = self.zero16.val();
            self.w_slot.next = self.zero16.val();
            self.ln_kind.d.next = self.k_queued.val();
            self.ln_list.d.next = self.zero16.val();
            self.ln_pending.d.next = false;
            self.ln_slow.d.next = false;
        }
        if self.overflow.val() {
            self.ln_kind.d.next = self.k_overflow.val();
        }
        if self.set_slot.val() {
            self.w_slot.next = self.slot_value.val();
        }
        // Reset: last, so it overrides every register it names.
        if self.reset.val() {
            self.ln_state.d.next = self.l_idle.val();
            self.ln_valid.d.next = false;
            self.ln_pending.d.next = false;
            self.ln_slow.d.next = false;
            self.ln_took.d.next = false;
        }

        self.valid.next = self.ln_valid.q.val();
        self.comm.next = self.ln_comm.q.val();
        self.src.next = self.ln_src.q.val();
        self.tag.next = self.ln_tag.q.val();
        self.handle.next = self.ln_handle.q.val();
        self.booked.next = self.ln_state.q.val() >= self.l_wait.val();
        self.done.next = self.ln_state.q.val() == self.l_done.val();
        self.first_walk.next = self.w_walking.val() & !self.w_rewalk.val();
        self.candidate.next = self.ln_cand.q.val();
        self.ln_slot.d.next = self.w_slot.val() & self.pointer_mask.val();
        self.slot.next = self.ln_slot.q.val();
        // Masked here as well: every value `ln_list` loads is masked, but its hold loop
        // kept synthesis from seeing that its high bits stay 0 (12 flip-flops a lane, and
        // the unlink's record behind them, at 16 lanes).
        self.taken_list.next = self.ln_list.q.val() & self.list_mask.val();
        self.kind.next = self.ln_kind.q.val();
        self.pending.next = self.ln_pending.q.val();
        self.slow.next = self.ln_slow.q.val();
        self.took.next = self.ln_took.q.val();
        self.hit.next = self.w_hit.val();
        self.entry_label.next = self.copy.label.val();
        self.best.next = self.ln_best.q.val();
        self.best_label.next = self.ln_best_label.q.val();
        self.target.next = self.cand_run_low.q.val();
    }
}
