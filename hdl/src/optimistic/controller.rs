//! The thread array's controller: the command and response handshakes, the single
//! operations' states (post, cancel, probe, flush), a block's tail, and the registers a
//! command leaves behind (its fields, the answer, the posting sequence, the cancel scan).
//!
//! It decides and holds; the tables and the lanes act on its outputs: `start` starts the
//! lanes on a block, `posting` writes a receive into the descriptor table and every
//! lane's RAM copy, `selecting` and `removing` take a cancelled receive through the unlink
//! unit, `clearing_words` drives the flush's clearing pass over the index tables.
//!
//! **Posting.** A post's list is its class's (exact, `ANY_SOURCE`, `ANY_TAG`, both) in
//! the hashed indexes ([`ListHash`]). Consecutive receives with the same pattern share a
//! sequence id; a new sequence's id is the label counter before its first receive
//! (the array's module docs say why that is unique). Both are decided in the post's first
//! cycle (`C_POST`, the command and the last envelope are final then) and registered for
//! the insert (`C_INSERT`), so the shared-sequence compare is not in series with the
//! insert's writes. A successful cancel ends the sequence.
//!
//! **The cancel scan** reads the lanes' handle copies, one slot per lane a cycle: a step's
//! slots are presented (`scan_base`), read out a cycle later (`scan_data_base`, valid in
//! `scan_data_active`), and their compares are registered in the lanes a cycle after
//! that (`scan_hit_base`); the lowest hit of the step is `scan_pointer`. The first hit is
//! kept in `alloc`. After the last step's compares (`ceil(D / n) + 1` cycles), the found
//! receive's list and links are read by its pointer (`C_SELECT`, lane 0's reads) and it
//! leaves its list (`C_UNLINK`).
//!
//! **The lowest free descriptor** is registered every cycle and read by a post in its
//! first cycle (`C_POST`, a cycle after acceptance). Every change of the descriptors'
//! valid flags shows by the cycle a command is accepted (a post's insert, a cancel's
//! removal and a flush in their own states, a block's frees in its answer's cycle), so the
//! register is never stale when a post reads it; the descriptors' flags → the lowest free
//! slot's tree → the post's decision → the answer registers was a 16-lane array's
//! critical path (17.8 ns, most of it routing).
//!
//! **Reset** starts a flush's clearing pass that ends without an answer (`resetting`).

use crate::fields::FieldWidths;
use crate::optimistic::list_hash::ListHash;
use crate::optimistic::shape::ThreadArrayShape;
use crate::optimistic::vectors::{k, low_bits, pointer_mask};
use crate::ports::ThreadCommandPorts;
use crate::two_level::receive_engine::{
    OP_ARRIVE, OP_CANCEL, OP_FLUSH, OP_MATCHED_PROBE, OP_POST, OP_PROBE, RESP_CANCELLED, RESP_FLUSHED,
    RESP_MATCHED, RESP_NOT_FOUND, RESP_OVERFLOW, RESP_PROBE_FOUND, RESP_PROBE_NONE, RESP_QUEUED,
};
use rust_hdl::prelude::*;

/// `resp_kind` of a block of arrivals: the results are on the lane ports.
pub const RESP_BLOCK: u64 = 7;

// States.
const C_IDLE: u64 = 0;
const C_BLOCK: u64 = 1;
const C_POST: u64 = 2;
const C_INSERT: u64 = 3;
const C_CANCEL: u64 = 4;
const C_PROBE: u64 = 5;
const C_RESPOND: u64 = 6;
/// The flush's clearing pass: one word of every bank (every lane's head copy and the
/// tails) a cycle.
const C_FLUSH: u64 = 7;
/// After `C_SELECT`: the receive the scan found (slot in `alloc`, its list and links in
/// the unlink unit's second stage) leaves its list.
const C_UNLINK: u64 = 8;
/// After a cancel's scan (`C_CANCEL`) found the receive (`alloc`, and lane 0's slot):
/// its list and links, read by that pointer, go into the unlink's second stage.
const C_SELECT: u64 = 9;

#[derive(LogicBlock)]
pub struct Controller {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The command ports, as the array receives them.
    pub cmd_valid: Signal<In, Bit>,
    pub cmd: ThreadCommandPorts,
    /// The command has a field wider than generated ([`crate::optimistic::command_width`]).
    pub cmd_wide: Signal<In, Bit>,
    pub resp_ready: Signal<In, Bit>,
    /// A block: every lane is done.
    pub all_done: Signal<In, Bit>,
    /// Three pending receives share a bank ([`crate::optimistic::unlink::UnlinkUnits`]'s
    /// `crowded`): once every lane is done, a taken receive is still to be unlinked after
    /// next cycle's. Read only under `all_done`.
    pub unlinks_left: Signal<In, Bit>,
    /// A lane takes its receive of the fast path's run this cycle.
    pub fast_now: Signal<In, Bit>,
    /// The UMQ placement: a message is on its insert port; more are pending; some lane's
    /// message is unmatched.
    pub place_found: Signal<In, Bit>,
    pub place_more: Signal<In, Bit>,
    pub any_unmatched: Signal<In, Bit>,
    /// The UMQ's registered search of the command accepted last cycle, and its hit.
    pub umq_hit: Signal<In, Bit>,
    pub umq_hit_handle: Signal<In, Bits<32>>,
    pub umq_hit_src: Signal<In, Bits<16>>,
    pub umq_hit_tag: Signal<In, Bits<32>>,
    /// The lowest free descriptor, as a pointer (registered here, module docs).
    pub free_found: Signal<In, Bit>,
    pub free_pointer: Signal<In, Bits<16>>,
    /// The lowest lane whose scanned slot hit, and its offset in the step as a pointer.
    pub scan_hit: Signal<In, Bit>,
    pub scan_hit_lane: Signal<In, Bits<16>>,
    /// `cmd_ready`, `resp_valid` and the answer's registers.
    pub ready: Signal<Out, Bit>,
    pub responding: Signal<Out, Bit>,
    pub kind: Signal<Out, Bits<4>>,
    pub recv: Signal<Out, Bits<32>>,
    pub msg: Signal<Out, Bits<32>>,
    pub msg_src: Signal<Out, Bits<16>>,
    pub msg_tag: Signal<Out, Bits<32>>,
    /// The accepted command's fields, generated bits only.
    pub comm: Signal<Out, Bits<16>>,
    pub src: Signal<Out, Bits<16>>,
    pub tag: Signal<Out, Bits<32>>,
    pub src_any: Signal<Out, Bit>,
    pub tag_any: Signal<Out, Bit>,
    pub handle: Signal<Out, Bits<32>>,
    pub count: Signal<Out, Bits<8>>,
    /// A block is accepted this cycle: the lanes take their messages.
    pub start: Signal<Out, Bit>,
    /// The block's tail, its first cycle: the unmatched messages learn whether they fit
    /// (those that do not answer overflow).
    pub place: Signal<Out, Bit>,
    /// The UMQ placement's chosen message goes into the UMQ (written a cycle later).
    pub umq_insert: Signal<Out, Bit>,
    /// The UMQ's hit leaves it (a post matched it, or a matched probe found it).
    pub umq_remove: Signal<Out, Bit>,
    /// The block answers this cycle: its taken descriptors are freed (a cycle later).
    pub finish: Signal<Out, Bit>,
    /// The fast path's run was taken this block: lane 0's unlink removes it all.
    pub fast_taken: Signal<Out, Bit>,
    /// A posted receive: its descriptor (`alloc`), label, list and sequence id are written
    /// this cycle; `post_list_now` is its list in the post's first cycle (the tail's read).
    pub posting: Signal<Out, Bit>,
    pub alloc: Signal<Out, Bits<16>>,
    pub post_label: Signal<Out, Bits<32>>,
    pub post_list: Signal<Out, Bits<16>>,
    pub post_seq: Signal<Out, Bits<32>>,
    pub post_list_now: Signal<Out, Bits<16>>,
    /// A cancel: scanning; the step presented, the step read out and whether it is one of
    /// the scan's; the lowest hit of the step in the lanes' compares, as a pointer.
    pub scanning: Signal<Out, Bit>,
    pub scan_base: Signal<Out, Bits<16>>,
    pub scan_data_base: Signal<Out, Bits<16>>,
    pub scan_data_active: Signal<Out, Bit>,
    pub scan_pointer: Signal<Out, Bits<16>>,
    /// The scan is over and found a receive: lane 0 takes `found_slot` as its slot.
    pub select_found: Signal<Out, Bit>,
    pub found_slot: Signal<Out, Bits<16>>,
    /// The found receive's links go into the unlink (`C_SELECT`); it leaves (`C_UNLINK`).
    pub selecting: Signal<Out, Bit>,
    pub removing: Signal<Out, Bit>,
    /// A flush: its first cycle (descriptors, UMQ, sequence state); every cycle of its
    /// pass, and the bank word it clears.
    pub clearing: Signal<Out, Bit>,
    pub clearing_words: Signal<Out, Bit>,
    pub clear_at: Signal<Out, Bits<16>>,
    comm_keep: Constant<Bits<16>>,
    src_keep: Constant<Bits<16>>,
    tag_keep: Constant<Bits<32>>,
    handle_keep: Constant<Bits<32>>,
    lanes: Constant<Bits<8>>,
    lanes16: Constant<Bits<16>>,
    /// A cancel's last scan cycle: `ceil(D / n) + 1` (its steps, then the last read's
    /// compare, then its hits); its steps, `ceil(D / n)`.
    scan_last: Constant<Bits<16>>,
    scan_steps: Constant<Bits<16>>,
    both_list: Constant<Bits<16>>,
    last_clear: Constant<Bits<16>>,
    /// The bits a pointer (slot + 1) needs: links written through it are as narrow.
    pointer_mask: Constant<Bits<16>>,
    zero2: Constant<Bits<2>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    one2: Constant<Bits<2>>,
    one8: Constant<Bits<8>>,
    one16: Constant<Bits<16>>,
    one32: Constant<Bits<32>>,
    c_idle: Constant<Bits<4>>,
    c_block: Constant<Bits<4>>,
    c_post: Constant<Bits<4>>,
    c_insert: Constant<Bits<4>>,
    c_cancel: Constant<Bits<4>>,
    c_probe: Constant<Bits<4>>,
    c_respond: Constant<Bits<4>>,
    c_flush: Constant<Bits<4>>,
    c_unlink: Constant<Bits<4>>,
    c_select: Constant<Bits<4>>,
    op_post: Constant<Bits<3>>,
    op_arrive: Constant<Bits<3>>,
    op_cancel: Constant<Bits<3>>,
    op_probe: Constant<Bits<3>>,
    op_matched_probe: Constant<Bits<3>>,
    op_flush: Constant<Bits<3>>,
    r_matched: Constant<Bits<4>>,
    r_queued: Constant<Bits<4>>,
    r_cancelled: Constant<Bits<4>>,
    r_not_found: Constant<Bits<4>>,
    r_probe_found: Constant<Bits<4>>,
    r_probe_none: Constant<Bits<4>>,
    r_overflow: Constant<Bits<4>>,
    r_block: Constant<Bits<4>>,
    r_flushed: Constant<Bits<4>>,
    state: DFF<Bits<4>>,
    op: DFF<Bits<3>>,
    comm_r: DFF<Bits<16>>,
    src_r: DFF<Bits<16>>,
    tag_r: DFF<Bits<32>>,
    src_any_r: DFF<Bit>,
    tag_any_r: DFF<Bit>,
    handle_r: DFF<Bits<32>>,
    count_r: DFF<Bits<8>>,
    kind_r: DFF<Bits<4>>,
    recv_r: DFF<Bits<32>>,
    msg_r: DFF<Bits<32>>,
    msg_src_r: DFF<Bits<16>>,
    msg_tag_r: DFF<Bits<32>>,
    label: DFF<Bits<32>>,
    /// The current sequence's id (the label counter when it began).
    seq_id: DFF<Bits<32>>,
    /// The last posted envelope: a post with the same pattern continues its sequence.
    last_valid: DFF<Bit>,
    last_comm: DFF<Bits<16>>,
    last_src: DFF<Bits<16>>,
    last_tag: DFF<Bits<32>>,
    last_src_any: DFF<Bit>,
    last_tag_any: DFF<Bit>,
    alloc_r: DFF<Bits<16>>,
    post_list_r: DFF<Bits<16>>,
    post_seq_r: DFF<Bits<32>>,
    clear_at_r: DFF<Bits<16>>,
    /// The clearing pass was started by `reset`: it ends without an answer.
    resetting: DFF<Bit>,
    /// The block's tail: 0 in its first cycle (the UMQ places), 1 from its second (the
    /// inserts, one message a cycle).
    tail_phase: DFF<Bits<2>>,
    fast_taken_r: DFF<Bit>,
    /// The scan's cycles in `C_CANCEL`; the first slot (lane 0's) of the step presented,
    /// read out, and compared; whether the step read out is one of the scan's; a hit was
    /// found (its pointer in `alloc`).
    scan_at: DFF<Bits<16>>,
    scan_base_r: DFF<Bits<16>>,
    scan_data_base_r: DFF<Bits<16>>,
    scan_hit_base: DFF<Bits<16>>,
    scan_data_active_r: DFF<Bit>,
    scan_found: DFF<Bit>,
    /// The lowest free descriptor, registered every cycle (module docs).
    free_found_r: DFF<Bit>,
    free_pointer_r: DFF<Bits<16>>,
    post_hash: ListHash,
    p_same: Signal<Local, Bit>,
    p_seq: Signal<Local, Bits<32>>,
}

impl Controller {
    pub fn new(shape: &ThreadArrayShape) -> Self {
        let ThreadArrayShape { lanes: n, descriptors: d, fields, .. } = *shape;
        let FieldWidths { comm, src, tag, handle } = fields;
        let bank_bits = shape.banks().trailing_zeros() as usize;
        Controller {
            clock: Default::default(),
            reset: Default::default(),
            cmd_valid: Default::default(),
            cmd: Default::default(),
            cmd_wide: Default::default(),
            resp_ready: Default::default(),
            all_done: Default::default(),
            unlinks_left: Default::default(),
            fast_now: Default::default(),
            place_found: Default::default(),
            place_more: Default::default(),
            any_unmatched: Default::default(),
            umq_hit: Default::default(),
            umq_hit_handle: Default::default(),
            umq_hit_src: Default::default(),
            umq_hit_tag: Default::default(),
            free_found: Default::default(),
            free_pointer: Default::default(),
            scan_hit: Default::default(),
            scan_hit_lane: Default::default(),
            ready: Default::default(),
            responding: Default::default(),
            kind: Default::default(),
            recv: Default::default(),
            msg: Default::default(),
            msg_src: Default::default(),
            msg_tag: Default::default(),
            comm: Default::default(),
            src: Default::default(),
            tag: Default::default(),
            src_any: Default::default(),
            tag_any: Default::default(),
            handle: Default::default(),
            count: Default::default(),
            start: Default::default(),
            place: Default::default(),
            umq_insert: Default::default(),
            umq_remove: Default::default(),
            finish: Default::default(),
            fast_taken: Default::default(),
            posting: Default::default(),
            alloc: Default::default(),
            post_label: Default::default(),
            post_list: Default::default(),
            post_seq: Default::default(),
            post_list_now: Default::default(),
            scanning: Default::default(),
            scan_base: Default::default(),
            scan_data_base: Default::default(),
            scan_data_active: Default::default(),
            scan_pointer: Default::default(),
            select_found: Default::default(),
            found_slot: Default::default(),
            selecting: Default::default(),
            removing: Default::default(),
            clearing: Default::default(),
            clearing_words: Default::default(),
            clear_at: Default::default(),
            comm_keep: k(low_bits(comm)),
            src_keep: k(low_bits(src)),
            tag_keep: k(low_bits(tag)),
            handle_keep: k(low_bits(handle)),
            lanes: k(n as u64),
            lanes16: k(n as u64),
            scan_last: k(d.div_ceil(n) as u64 + 1),
            scan_steps: k(d.div_ceil(n) as u64),
            both_list: k(shape.both_list()),
            last_clear: k(shape.both_list() >> bank_bits),
            pointer_mask: k(pointer_mask(d)),
            zero2: k(0),
            zero16: k(0),
            zero32: k(0),
            one2: k(1),
            one8: k(1),
            one16: k(1),
            one32: k(1),
            c_idle: k(C_IDLE),
            c_block: k(C_BLOCK),
            c_post: k(C_POST),
            c_insert: k(C_INSERT),
            c_cancel: k(C_CANCEL),
            c_probe: k(C_PROBE),
            c_respond: k(C_RESPOND),
            c_flush: k(C_FLUSH),
            c_unlink: k(C_UNLINK),
            c_select: k(C_SELECT),
            op_post: k(OP_POST),
            op_arrive: k(OP_ARRIVE),
            op_cancel: k(OP_CANCEL),
            op_probe: k(OP_PROBE),
            op_matched_probe: k(OP_MATCHED_PROBE),
            op_flush: k(OP_FLUSH),
            r_matched: k(RESP_MATCHED),
            r_queued: k(RESP_QUEUED),
            r_cancelled: k(RESP_CANCELLED),
            r_not_found: k(RESP_NOT_FOUND),
            r_probe_found: k(RESP_PROBE_FOUND),
            r_probe_none: k(RESP_PROBE_NONE),
            r_overflow: k(RESP_OVERFLOW),
            r_block: k(RESP_BLOCK),
            r_flushed: k(RESP_FLUSHED),
            state: Default::default(),
            op: Default::default(),
            comm_r: Default::default(),
            src_r: Default::default(),
            tag_r: Default::default(),
            src_any_r: Default::default(),
            tag_any_r: Default::default(),
            handle_r: Default::default(),
            count_r: Default::default(),
            kind_r: Default::default(),
            recv_r: Default::default(),
            msg_r: Default::default(),
            msg_src_r: Default::default(),
            msg_tag_r: Default::default(),
            label: Default::default(),
            seq_id: Default::default(),
            last_valid: Default::default(),
            last_comm: Default::default(),
            last_src: Default::default(),
            last_tag: Default::default(),
            last_src_any: Default::default(),
            last_tag_any: Default::default(),
            alloc_r: Default::default(),
            post_list_r: Default::default(),
            post_seq_r: Default::default(),
            clear_at_r: Default::default(),
            resetting: Default::default(),
            tail_phase: Default::default(),
            fast_taken_r: Default::default(),
            scan_at: Default::default(),
            scan_base_r: Default::default(),
            scan_data_base_r: Default::default(),
            scan_hit_base: Default::default(),
            scan_data_active_r: Default::default(),
            scan_found: Default::default(),
            free_found_r: Default::default(),
            free_pointer_r: Default::default(),
            post_hash: ListHash::new(shape.bins()),
            p_same: Default::default(),
            p_seq: Default::default(),
        }
    }
}

impl Logic for Controller {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            op,
            comm_r,
            src_r,
            tag_r,
            src_any_r,
            tag_any_r,
            handle_r,
            count_r,
            kind_r,
            recv_r,
            msg_r,
            msg_src_r,
            msg_tag_r,
            label,
            seq_id,
            last_valid,
            last_comm,
            last_src,
            last_tag,
            last_src_any,
            last_tag_any,
            alloc_r,
            post_list_r,
            post_seq_r,
            clear_at_r,
            resetting,
            tail_phase,
            fast_taken_r,
            scan_at,
            scan_base_r,
            scan_data_base_r,
            scan_hit_base,
            scan_data_active_r,
            scan_found,
            free_found_r,
            free_pointer_r
        );
        self.free_found_r.d.next = self.free_found.val();
        self.free_pointer_r.d.next = self.free_pointer.val();
        self.ready.next = self.state.q.val() == self.c_idle.val();
        self.responding.next = self.state.q.val() == self.c_respond.val();
        self.kind.next = self.kind_r.q.val();
        self.recv.next = self.recv_r.q.val();
        self.msg.next = self.msg_r.q.val();
        self.msg_src.next = self.msg_src_r.q.val();
        self.msg_tag.next = self.msg_tag_r.q.val();
        self.comm.next = self.comm_r.q.val();
        self.src.next = self.src_r.q.val();
        self.tag.next = self.tag_r.q.val();
        self.src_any.next = self.src_any_r.q.val();
        self.tag_any.next = self.tag_any_r.q.val();
        self.handle.next = self.handle_r.q.val();
        self.count.next = self.count_r.q.val();
        self.fast_taken.next = self.fast_taken_r.q.val();
        self.alloc.next = self.alloc_r.q.val();
        self.post_list.next = self.post_list_r.q.val();
        self.post_seq.next = self.post_seq_r.q.val();
        self.post_label.next = self.label.q.val() + self.one32.val();
        self.posting.next = self.state.q.val() == self.c_insert.val();
        self.scanning.next = self.state.q.val() == self.c_cancel.val();
        self.selecting.next = self.state.q.val() == self.c_select.val();
        self.removing.next = self.state.q.val() == self.c_unlink.val();
        self.clearing_words.next = self.state.q.val() == self.c_flush.val();
        self.clearing.next =
            (self.state.q.val() == self.c_flush.val()) & (self.clear_at_r.q.val() == self.zero16.val());
        self.clear_at.next = self.clear_at_r.q.val();
        self.scan_base.next = self.scan_base_r.q.val();
        self.scan_data_base.next = self.scan_data_base_r.q.val();
        self.scan_data_active.next = self.scan_data_active_r.q.val();
        self.start.next = false;
        self.place.next = false;
        self.umq_insert.next = false;
        self.umq_remove.next = false;
        self.finish.next = false;
        self.select_found.next = false;

        // ---- Posting: the receive's list and sequence id, decided in `C_POST`. ----
        self.post_hash.comm.next = self.comm_r.q.val();
        self.post_hash.src.next = self.src_r.q.val();
        self.post_hash.tag.next = self.tag_r.q.val();
        self.post_list_now.next = self.post_hash.exact.val();
        if self.src_any_r.q.val() & self.tag_any_r.q.val() {
            self.post_list_now.next = self.both_list.val();
        } else if self.src_any_r.q.val() {
            self.post_list_now.next = self.post_hash.any_src.val();
        } else if self.tag_any_r.q.val() {
            self.post_list_now.next = self.post_hash.any_tag.val();
        }
        self.p_same.next = self.last_valid.q.val()
            & (self.last_comm.q.val() == self.comm_r.q.val())
            & (self.last_src.q.val() == self.src_r.q.val())
            & (self.last_tag.q.val() == self.tag_r.q.val())
            & (self.last_src_any.q.val() == self.src_any_r.q.val())
            & (self.last_tag_any.q.val() == self.tag_any_r.q.val());
        self.p_seq.next = self.label.q.val();
        if self.p_same.val() {
            self.p_seq.next = self.seq_id.q.val();
        }

        // ---- The cancel scan's pipeline (module docs). ----
        self.scan_data_active_r.d.next =
            (self.state.q.val() == self.c_cancel.val()) & (self.scan_at.q.val() < self.scan_steps.val());
        self.scan_data_base_r.d.next = self.scan_base_r.q.val();
        self.scan_hit_base.d.next = self.scan_data_base_r.q.val();
        // Masked: the pointer goes into `alloc` and from there into the links, whose loop
        // synthesis cannot narrow by itself; a found slot's pointer fits.
        self.scan_pointer.next =
            (self.scan_hit_base.q.val() + self.scan_hit_lane.val()) & self.pointer_mask.val();
        self.found_slot.next = self.scan_pointer.val();
        if self.scan_found.q.val() {
            self.found_slot.next = self.alloc_r.q.val();
        }
        if self.fast_now.val() {
            self.fast_taken_r.d.next = true;
        }

        // ---- The states. ----
        if self.state.q.val() == self.c_idle.val() {
            if self.cmd_valid.val() {
                self.op.d.next = self.cmd.op.val();
                self.comm_r.d.next = self.cmd.comm.val() & self.comm_keep.val();
                self.src_r.d.next = self.cmd.src.val() & self.src_keep.val();
                self.tag_r.d.next = self.cmd.tag.val() & self.tag_keep.val();
                self.src_any_r.d.next = self.cmd.src_any.val();
                self.tag_any_r.d.next = self.cmd.tag_any.val();
                self.handle_r.d.next = self.cmd.handle.val() & self.handle_keep.val();
                self.count_r.d.next = self.cmd.count.val();
                self.recv_r.d.next = self.cmd.handle.val() & self.handle_keep.val();
                self.msg_r.d.next = self.zero32.val();
                self.kind_r.d.next = self.r_overflow.val();
                if self.cmd_wide.val() {
                    // A field wider than generated: overflow, nothing applied.
                    self.state.d.next = self.c_respond.val();
                } else if self.cmd.op.val() == self.op_post.val() {
                    self.state.d.next = self.c_post.val();
                } else if self.cmd.op.val() == self.op_flush.val() {
                    self.clear_at_r.d.next = self.zero16.val();
                    self.state.d.next = self.c_flush.val();
                } else if self.cmd.op.val() == self.op_cancel.val() {
                    self.scan_at.d.next = self.zero16.val();
                    self.scan_base_r.d.next = self.zero16.val();
                    self.scan_found.d.next = false;
                    self.state.d.next = self.c_cancel.val();
                } else if (self.cmd.op.val() == self.op_probe.val())
                    | (self.cmd.op.val() == self.op_matched_probe.val())
                {
                    self.state.d.next = self.c_probe.val();
                } else if (self.cmd.op.val() == self.op_arrive.val())
                    & (self.cmd.count.val() >= self.one8.val())
                    & (self.cmd.count.val() <= self.lanes.val())
                {
                    self.state.d.next = self.c_block.val();
                    self.kind_r.d.next = self.r_block.val();
                    self.tail_phase.d.next = self.zero2.val();
                    self.fast_taken_r.d.next = false;
                    self.start.next = true;
                } else {
                    // An unknown operation or an empty or oversized block: nothing is
                    // applied, the answer is overflow (the host keeps the operation).
                    self.state.d.next = self.c_respond.val();
                }
            }
        } else if self.state.q.val() == self.c_block.val() {
            if self.all_done.val() {
                // The tail: unlink rounds until none is left; in its first cycle the UMQ
                // places, from its second the inserts, one message a cycle.
                if self.tail_phase.q.val() == self.zero2.val() {
                    self.place.next = true;
                    self.tail_phase.d.next = self.one2.val();
                } else if self.place_found.val() {
                    self.umq_insert.next = true;
                }
                // Done with the last insert (or none), and next cycle's unlinks are the
                // last (no bank holds three pending receives): they go on while the block
                // answers, and the next command is accepted a cycle later at the earliest,
                // when the last one writes (the array's module docs).
                self.finish.next = !self.unlinks_left.val()
                    & (((self.tail_phase.q.val() != self.zero2.val()) & !self.place_more.val())
                        | !self.any_unmatched.val());
                if self.finish.val() {
                    self.state.d.next = self.c_respond.val();
                }
            }
        } else if self.state.q.val() == self.c_post.val() {
            if self.umq_hit.val() {
                self.umq_remove.next = true;
                self.kind_r.d.next = self.r_matched.val();
                self.msg_r.d.next = self.umq_hit_handle.val();
                self.msg_src_r.d.next = self.umq_hit_src.val();
                self.msg_tag_r.d.next = self.umq_hit_tag.val();
                self.state.d.next = self.c_respond.val();
            } else if !self.free_found_r.q.val() {
                self.kind_r.d.next = self.r_overflow.val();
                self.state.d.next = self.c_respond.val();
            } else {
                self.alloc_r.d.next = self.free_pointer_r.q.val();
                self.post_list_r.d.next = self.post_list_now.val();
                self.post_seq_r.d.next = self.p_seq.val();
                self.state.d.next = self.c_insert.val();
            }
        } else if self.state.q.val() == self.c_insert.val() {
            // The tables append the receive to its list; here, the sequence goes on.
            self.label.d.next = self.label.q.val() + self.one32.val();
            self.seq_id.d.next = self.post_seq_r.q.val();
            self.last_valid.d.next = true;
            self.last_comm.d.next = self.comm_r.q.val();
            self.last_src.d.next = self.src_r.q.val();
            self.last_tag.d.next = self.tag_r.q.val();
            self.last_src_any.d.next = self.src_any_r.q.val();
            self.last_tag_any.d.next = self.tag_any_r.q.val();
            self.kind_r.d.next = self.r_queued.val();
            self.state.d.next = self.c_respond.val();
        } else if self.state.q.val() == self.c_cancel.val() {
            self.scan_at.d.next = self.scan_at.q.val() + self.one16.val();
            self.scan_base_r.d.next = self.scan_base_r.q.val() + self.lanes16.val();
            // `alloc` is written by the first hit only, never from itself through a mux
            // (which hid its narrow pointer from synthesis: every link register widened).
            if self.scan_hit.val() & !self.scan_found.q.val() {
                self.scan_found.d.next = true;
                self.alloc_r.d.next = self.scan_pointer.val();
            }
            if self.scan_at.q.val() == self.scan_last.val() {
                if self.scan_found.q.val() | self.scan_hit.val() {
                    self.select_found.next = true;
                    self.last_valid.d.next = false;
                    self.kind_r.d.next = self.r_cancelled.val();
                    self.state.d.next = self.c_select.val();
                } else {
                    self.kind_r.d.next = self.r_not_found.val();
                    self.state.d.next = self.c_respond.val();
                }
            }
        } else if self.state.q.val() == self.c_select.val() {
            self.state.d.next = self.c_unlink.val();
        } else if self.state.q.val() == self.c_unlink.val() {
            self.state.d.next = self.c_respond.val();
        } else if self.state.q.val() == self.c_probe.val() {
            self.msg_r.d.next = self.umq_hit_handle.val();
            self.msg_src_r.d.next = self.umq_hit_src.val();
            self.msg_tag_r.d.next = self.umq_hit_tag.val();
            if self.umq_hit.val() {
                self.kind_r.d.next = self.r_probe_found.val();
                if self.op.q.val() == self.op_matched_probe.val() {
                    self.umq_remove.next = true;
                }
            } else {
                self.kind_r.d.next = self.r_probe_none.val();
            }
            self.state.d.next = self.c_respond.val();
        } else if self.state.q.val() == self.c_flush.val() {
            // The clearing pass (the tables clear word `clear_at`); the sequence state in
            // its first cycle.
            self.clear_at_r.d.next = self.clear_at_r.q.val() + self.one16.val();
            if self.clear_at_r.q.val() == self.zero16.val() {
                self.label.d.next = self.zero32.val();
                self.seq_id.d.next = self.zero32.val();
                self.last_valid.d.next = false;
            }
            if self.clear_at_r.q.val() == self.last_clear.val() {
                self.kind_r.d.next = self.r_flushed.val();
                self.state.d.next = self.c_respond.val();
                if self.resetting.q.val() {
                    self.resetting.d.next = false;
                    self.state.d.next = self.c_idle.val();
                }
            }
        } else if (self.state.q.val() == self.c_respond.val()) & self.resp_ready.val() {
            self.state.d.next = self.c_idle.val();
        }

        // ---- Reset: last, so it overrides every register it names. ----
        if self.reset.val() {
            self.state.d.next = self.c_flush.val();
            self.clear_at_r.d.next = self.zero16.val();
            self.resetting.d.next = true;
            self.fast_taken_r.d.next = false;
        }
    }
}
