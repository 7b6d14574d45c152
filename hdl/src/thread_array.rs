//! Optimistic tag matching in hardware (after "Offloaded MPI message matching: an
//! optimistic approach"): `N` lanes match a block of up to `N` arriving messages at once
//! and repair conflicts afterwards. `tagmatch_sim::optimistic` is its functional model
//! (configuration `OptimisticConfig::hardware`) and `tagmatch_sim::optimistic::cost` its
//! timing, cycle for cycle; the module docs there give each step's cycles.
//!
//! Storage:
//! - the receive descriptor table, `D` slots in registers: envelope, wildcard flags,
//!   handle, posting label, sequence id, index list, `next`/`prev` links, the booking
//!   bitmap (one bit per lane) and a taken flag. Registers, because every lane examines one
//!   descriptor a cycle and any lane may book any slot in the same cycle;
//! - the index tables in block RAM: the head of each of the `3B + 1` lists (`B = 2^(H-2)`
//!   bins for each of the exact, `ANY_SOURCE` and `ANY_TAG` indexes, one list for both
//!   wildcards), one copy per lane so every lane has its own read port, all written
//!   together; and one table of tails for appending. Pointers are slot + 1, 0 for none,
//!   so a zeroed RAM is a table of empty lists;
//! - unexpected messages in a [`Cam`] of `U` entries: age-ordered, one search answers any
//!   wildcard pattern, so a receive or probe costs one cycle. (The functional model keeps
//!   the paper's four UMQ indexes; the pairing is the same.)
//!
//! A block: every lane hashes its envelope, walks the four lists (the first match in each,
//! the smallest label across them) and books its candidate; the partial barrier lets lane
//! `i` check its candidate's bitmap once lanes `0..=i` have booked; a lane whose candidate
//! a lower lane booked — and every lane after it — resolves: by the fast path when all
//! lanes booked receive `k` and the receives labelled `k + 1 … k + n - 1` carry `k`'s
//! sequence id (lane `i` takes `k + i`), else by the slow path (lane `i` walks again once
//! lane `i - 1` has taken its receive, skipping taken ones). Taken receives stay linked
//! until every lane is done, so no walk changes under a lane; then, one lane a cycle, the
//! taken receives are unlinked and the unmatched messages enter the UMQ (or answer
//! overflow when it is full). The block answers with one result per lane.
//!
//! Single operations: post (search the UMQ, else append to the list of its class and
//! bin; overflow when no descriptor is free), cancel (search the table by handle, unlink),
//! probe and matched probe (search the UMQ), and flush (op 7): a clearing pass that writes
//! one index list a cycle, empty, into every lane's head copy and the tail table (block
//! RAM has no reset), while the first cycle clears the descriptors' valid, taken and
//! booking bits, empties the UMQ CAM and restarts labels and sequence ids; it answers
//! `flushed` `3B + 2` cycles after acceptance (194 with the default 64 bins, 14 with 4).
//! Consecutive receives with the same pattern share a sequence id; a successful cancel
//! ends the sequence.

use crate::receive_engine::{
    OP_ARRIVE, OP_CANCEL, OP_FLUSH, OP_MATCHED_PROBE, OP_POST, OP_PROBE, RESP_CANCELLED, RESP_FLUSHED,
    RESP_MATCHED, RESP_NOT_FOUND, RESP_OVERFLOW, RESP_PROBE_FOUND, RESP_PROBE_NONE, RESP_QUEUED,
};
use crate::single_cycle_cam::SingleCycleCam;
use crate::table_ram::TableRam;
use rust_hdl::prelude::*;

/// Most lanes an array has: the booking bitmaps are this wide, and the bits above the
/// array's lane count are constant zero (masked), so synthesis keeps only the lanes' bits.
pub const MAX_LANES: usize = 64;

/// The array's sizes, all chosen when the Verilog is generated (no type parameters, so one
/// compiled block serves every shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadArrayShape {
    pub lanes: usize,
    pub descriptors: usize,
    /// The head tables hold `2^head_bits` lists: `2^(head_bits - 2)` bins per hashed index.
    pub head_bits: usize,
    /// UMQ entries.
    pub unexpected: usize,
    /// The fast conflict path (off: every conflict takes the slow path).
    pub fast_path: bool,
}

/// `resp_kind` of a block of arrivals: the results are on the lane ports.
pub const RESP_BLOCK: u64 = 7;
/// `lane_kind` values.
pub const LANE_MATCHED: u64 = 0;
pub const LANE_QUEUED: u64 = 1;
pub const LANE_OVERFLOW: u64 = 2;

// Controller states.
const C_IDLE: u64 = 0;
const C_BLOCK: u64 = 1;
const C_POST: u64 = 2;
const C_INSERT: u64 = 3;
const C_CANCEL: u64 = 4;
const C_PROBE: u64 = 5;
const C_RESPOND: u64 = 6;
/// The flush's clearing pass: one index list (every lane's head copy and the tail) a cycle.
const C_FLUSH: u64 = 7;

// Lane states; a lane at `L_WAIT` or beyond has booked.
const L_IDLE: u64 = 0;
const L_START: u64 = 1;
const L_WALK: u64 = 2;
const L_WAIT: u64 = 3;
const L_SLOW_WAIT: u64 = 4;
const L_REWALK: u64 = 5;
const L_DONE: u64 = 6;

#[derive(LogicBlock)]
pub struct ThreadArray {
    pub clock: Signal<In, Clock>,
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    pub cmd_op: Signal<In, Bits<3>>,
    pub cmd_comm: Signal<In, Bits<16>>,
    pub cmd_src: Signal<In, Bits<16>>,
    pub cmd_tag: Signal<In, Bits<32>>,
    pub cmd_src_any: Signal<In, Bit>,
    pub cmd_tag_any: Signal<In, Bit>,
    pub cmd_handle: Signal<In, Bits<32>>,
    /// Messages in an arrival block, on lanes `0..cmd_count`.
    pub cmd_count: Signal<In, Bits<8>>,
    pub msg_comm: Vec<Signal<In, Bits<16>>>,
    pub msg_src: Vec<Signal<In, Bits<16>>>,
    pub msg_tag: Vec<Signal<In, Bits<32>>>,
    pub msg_handle: Vec<Signal<In, Bits<32>>>,
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_kind: Signal<Out, Bits<4>>,
    pub resp_recv: Signal<Out, Bits<32>>,
    pub resp_msg: Signal<Out, Bits<32>>,
    /// The matched or probed message's source and tag (a probe's status).
    pub resp_src: Signal<Out, Bits<16>>,
    pub resp_tag: Signal<Out, Bits<32>>,
    /// Unexpected messages held.
    pub umq_count: Signal<Out, Bits<16>>,
    pub lane_kind: Vec<Signal<Out, Bits<2>>>,
    pub lane_recv: Vec<Signal<Out, Bits<32>>>,
    // Constants.
    fast_path: Constant<Bit>,
    slot1: Vec<Constant<Bits<16>>>,
    lane_index: Vec<Constant<Bits<8>>>,
    lane_offset: Vec<Constant<Bits<32>>>,
    lane_bit: Vec<Constant<Bits<MAX_LANES>>>,
    lower_lanes: Vec<Constant<Bits<MAX_LANES>>>,
    lanes: Constant<Bits<8>>,
    bin_mask: Constant<Bits<16>>,
    any_src_base: Constant<Bits<16>>,
    any_tag_base: Constant<Bits<16>>,
    both_list: Constant<Bits<16>>,
    zero8: Constant<Bits<8>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    zero_lanes: Constant<Bits<MAX_LANES>>,
    /// One bit per lane: the booking bitmaps' bits above the lane count stay 0 by design.
    lane_mask: Constant<Bits<MAX_LANES>>,
    one8: Constant<Bits<8>>,
    one16: Constant<Bits<16>>,
    one32: Constant<Bits<32>>,
    two8: Constant<Bits<8>>,
    class0: Constant<Bits<2>>,
    class1: Constant<Bits<2>>,
    class2: Constant<Bits<2>>,
    class3: Constant<Bits<2>>,
    c_idle: Constant<Bits<3>>,
    c_block: Constant<Bits<3>>,
    c_post: Constant<Bits<3>>,
    c_insert: Constant<Bits<3>>,
    c_cancel: Constant<Bits<3>>,
    c_probe: Constant<Bits<3>>,
    c_respond: Constant<Bits<3>>,
    l_idle: Constant<Bits<3>>,
    l_start: Constant<Bits<3>>,
    l_walk: Constant<Bits<3>>,
    l_wait: Constant<Bits<3>>,
    l_slow_wait: Constant<Bits<3>>,
    l_rewalk: Constant<Bits<3>>,
    l_done: Constant<Bits<3>>,
    op_post: Constant<Bits<3>>,
    op_arrive: Constant<Bits<3>>,
    op_cancel: Constant<Bits<3>>,
    op_probe: Constant<Bits<3>>,
    op_matched_probe: Constant<Bits<3>>,
    r_matched: Constant<Bits<4>>,
    r_queued: Constant<Bits<4>>,
    r_cancelled: Constant<Bits<4>>,
    r_not_found: Constant<Bits<4>>,
    r_probe_found: Constant<Bits<4>>,
    r_probe_none: Constant<Bits<4>>,
    r_overflow: Constant<Bits<4>>,
    r_block: Constant<Bits<4>>,
    r_flushed: Constant<Bits<4>>,
    op_flush: Constant<Bits<3>>,
    c_flush: Constant<Bits<3>>,
    k_matched: Constant<Bits<2>>,
    k_queued: Constant<Bits<2>>,
    k_overflow: Constant<Bits<2>>,
    mode_envelope: Constant<Bits<2>>,
    // Controller.
    state: DFF<Bits<3>>,
    op: DFF<Bits<3>>,
    comm: DFF<Bits<16>>,
    src: DFF<Bits<16>>,
    tag: DFF<Bits<32>>,
    src_any: DFF<Bit>,
    tag_any: DFF<Bit>,
    handle: DFF<Bits<32>>,
    count: DFF<Bits<8>>,
    cursor: DFF<Bits<8>>,
    kind: DFF<Bits<4>>,
    recv: DFF<Bits<32>>,
    msg: DFF<Bits<32>>,
    msg_src_r: DFF<Bits<16>>,
    msg_tag_r: DFF<Bits<32>>,
    label: DFF<Bits<32>>,
    seq_id: DFF<Bits<16>>,
    last_valid: DFF<Bit>,
    last_comm: DFF<Bits<16>>,
    last_src: DFF<Bits<16>>,
    last_tag: DFF<Bits<32>>,
    last_src_any: DFF<Bit>,
    last_tag_any: DFF<Bit>,
    alloc: DFF<Bits<16>>,
    post_list: DFF<Bits<16>>,
    /// The list the flush's clearing pass writes this cycle.
    clear_at: DFF<Bits<16>>,
    // The descriptor table.
    d_valid: Vec<DFF<Bit>>,
    d_comm: Vec<DFF<Bits<16>>>,
    d_src: Vec<DFF<Bits<16>>>,
    d_tag: Vec<DFF<Bits<32>>>,
    d_src_any: Vec<DFF<Bit>>,
    d_tag_any: Vec<DFF<Bit>>,
    d_handle: Vec<DFF<Bits<32>>>,
    d_label: Vec<DFF<Bits<32>>>,
    d_seq: Vec<DFF<Bits<16>>>,
    d_list: Vec<DFF<Bits<16>>>,
    d_next: Vec<DFF<Bits<16>>>,
    d_prev: Vec<DFF<Bits<16>>>,
    d_booked: Vec<DFF<Bits<MAX_LANES>>>,
    d_taken: Vec<DFF<Bit>>,
    // The lanes.
    ln_valid: Vec<DFF<Bit>>,
    ln_comm: Vec<DFF<Bits<16>>>,
    ln_src: Vec<DFF<Bits<16>>>,
    ln_tag: Vec<DFF<Bits<32>>>,
    ln_handle: Vec<DFF<Bits<32>>>,
    ln_state: Vec<DFF<Bits<3>>>,
    ln_class: Vec<DFF<Bits<2>>>,
    ln_first: Vec<DFF<Bit>>,
    ln_ptr: Vec<DFF<Bits<16>>>,
    ln_cand: Vec<DFF<Bits<16>>>,
    ln_cand_label: Vec<DFF<Bits<32>>>,
    ln_rcand: Vec<DFF<Bits<16>>>,
    ln_rcand_label: Vec<DFF<Bits<32>>>,
    ln_slot: Vec<DFF<Bits<16>>>,
    ln_kind: Vec<DFF<Bits<2>>>,
    ln_recv: Vec<DFF<Bits<32>>>,
    // Memories.
    heads: Vec<TableRam>,
    tails: TableRam,
    umq_cam: SingleCycleCam,
    // Per-lane combinational values.
    w_src4: Vec<Signal<Local, Bits<16>>>,
    w_tagf: Vec<Signal<Local, Bits<16>>>,
    w_list0: Vec<Signal<Local, Bits<16>>>,
    w_list1: Vec<Signal<Local, Bits<16>>>,
    w_list2: Vec<Signal<Local, Bits<16>>>,
    w_addr: Vec<Signal<Local, Bits<16>>>,
    w_walking: Vec<Signal<Local, Bit>>,
    w_rewalk: Vec<Signal<Local, Bit>>,
    w_ptr: Vec<Signal<Local, Bits<16>>>,
    w_hit: Vec<Signal<Local, Bit>>,
    w_next: Vec<Signal<Local, Bits<16>>>,
    w_label: Vec<Signal<Local, Bits<32>>>,
    w_best: Vec<Signal<Local, Bits<16>>>,
    w_best_label: Vec<Signal<Local, Bits<32>>>,
    w_new: Vec<Signal<Local, Bits<16>>>,
    w_new_label: Vec<Signal<Local, Bits<32>>>,
    w_end: Vec<Signal<Local, Bit>>,
    w_book: Vec<Signal<Local, Bit>>,
    w_take: Vec<Signal<Local, Bit>>,
    w_take_slot: Vec<Signal<Local, Bits<16>>>,
    w_start_rewalk: Vec<Signal<Local, Bit>>,
    w_bitmap: Vec<Signal<Local, Bits<MAX_LANES>>>,
    w_barrier: Vec<Signal<Local, Bit>>,
    w_resolving: Vec<Signal<Local, Bit>>,
    w_prev_done: Vec<Signal<Local, Bit>>,
    w_target: Vec<Signal<Local, Bits<16>>>,
    // Block-wide combinational values.
    g_booked: Signal<Local, Bit>,
    g_conflicted: Signal<Local, Bit>,
    g_done: Signal<Local, Bit>,
    g_mask: Signal<Local, Bits<MAX_LANES>>,
    g_seq: Signal<Local, Bits<16>>,
    g_targets: Signal<Local, Bit>,
    g_shared: Signal<Local, Bit>,
    // Per-slot accumulators: lanes booking or taking the slot this cycle.
    s_book: Vec<Signal<Local, Bits<MAX_LANES>>>,
    s_take: Vec<Signal<Local, Bit>>,
    // Single operations and the block's tail.
    p_src4: Signal<Local, Bits<16>>,
    p_tagf: Signal<Local, Bits<16>>,
    p_list: Signal<Local, Bits<16>>,
    p_free: Signal<Local, Bits<16>>,
    p_found: Signal<Local, Bit>,
    p_same: Signal<Local, Bit>,
    p_seq: Signal<Local, Bits<16>>,
    p_tail: Signal<Local, Bits<16>>,
    x_slot: Signal<Local, Bits<16>>,
    x_found: Signal<Local, Bit>,
    t_kind: Signal<Local, Bits<2>>,
    t_slot: Signal<Local, Bits<16>>,
    t_comm: Signal<Local, Bits<16>>,
    t_src: Signal<Local, Bits<16>>,
    t_tag: Signal<Local, Bits<32>>,
    t_handle: Signal<Local, Bits<32>>,
    u_en: Signal<Local, Bit>,
    u_slot: Signal<Local, Bits<16>>,
    u_prev: Signal<Local, Bits<16>>,
    u_next: Signal<Local, Bits<16>>,
    u_list: Signal<Local, Bits<16>>,
    h_en: Signal<Local, Bit>,
    h_addr: Signal<Local, Bits<16>>,
    h_data: Signal<Local, Bits<16>>,
    _lanes: usize,
    _descriptors: usize,
}

fn k<const W: usize>(value: u64) -> Constant<Bits<W>> {
    Constant::new(value.to_bits())
}

fn dffs<T: Synth>(count: usize) -> Vec<DFF<T>> {
    (0..count).map(|_| Default::default()).collect()
}

fn locals<T: Synth>(count: usize) -> Vec<Signal<Local, T>> {
    (0..count).map(|_| Default::default()).collect()
}

impl ThreadArray {
    /// A thread array of `shape` (checked with [`check_shape`]).
    pub fn new(shape: &ThreadArrayShape) -> Self {
        let ThreadArrayShape { lanes: n, descriptors: d, head_bits: h, unexpected: u, fast_path } = *shape;
        check_shape(n, d, h, u).unwrap_or_else(|e| panic!("{e}"));
        let bins = 1u64 << (h - 2);
        ThreadArray {
            clock: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd_op: Default::default(),
            cmd_comm: Default::default(),
            cmd_src: Default::default(),
            cmd_tag: Default::default(),
            cmd_src_any: Default::default(),
            cmd_tag_any: Default::default(),
            cmd_handle: Default::default(),
            cmd_count: Default::default(),
            msg_comm: locals_in(n),
            msg_src: locals_in(n),
            msg_tag: locals_in(n),
            msg_handle: locals_in(n),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_kind: Default::default(),
            resp_recv: Default::default(),
            resp_msg: Default::default(),
            resp_src: Default::default(),
            resp_tag: Default::default(),
            umq_count: Default::default(),
            lane_kind: (0..n).map(|_| Default::default()).collect(),
            lane_recv: (0..n).map(|_| Default::default()).collect(),
            fast_path: Constant::new(fast_path),
            slot1: (0..d).map(|s| k(s as u64 + 1)).collect(),
            lane_index: (0..n).map(|i| k(i as u64)).collect(),
            lane_offset: (0..n).map(|i| k(i as u64)).collect(),
            lane_bit: (0..n).map(|i| k(1 << i)).collect(),
            lower_lanes: (0..n).map(|i| k((1 << i) - 1)).collect(),
            lanes: k(n as u64),
            bin_mask: k(bins - 1),
            any_src_base: k(bins),
            any_tag_base: k(2 * bins),
            both_list: k(3 * bins),
            zero8: k(0),
            zero16: k(0),
            zero32: k(0),
            zero_lanes: k(0),
            lane_mask: k(u64::MAX >> (MAX_LANES - n)),
            one8: k(1),
            one16: k(1),
            one32: k(1),
            two8: k(2),
            class0: k(0),
            class1: k(1),
            class2: k(2),
            class3: k(3),
            c_idle: k(C_IDLE),
            c_block: k(C_BLOCK),
            c_post: k(C_POST),
            c_insert: k(C_INSERT),
            c_cancel: k(C_CANCEL),
            c_probe: k(C_PROBE),
            c_respond: k(C_RESPOND),
            l_idle: k(L_IDLE),
            l_start: k(L_START),
            l_walk: k(L_WALK),
            l_wait: k(L_WAIT),
            l_slow_wait: k(L_SLOW_WAIT),
            l_rewalk: k(L_REWALK),
            l_done: k(L_DONE),
            op_post: k(OP_POST),
            op_arrive: k(OP_ARRIVE),
            op_cancel: k(OP_CANCEL),
            op_probe: k(OP_PROBE),
            op_matched_probe: k(OP_MATCHED_PROBE),
            r_matched: k(RESP_MATCHED),
            r_queued: k(RESP_QUEUED),
            r_cancelled: k(RESP_CANCELLED),
            r_not_found: k(RESP_NOT_FOUND),
            r_probe_found: k(RESP_PROBE_FOUND),
            r_probe_none: k(RESP_PROBE_NONE),
            r_overflow: k(RESP_OVERFLOW),
            r_block: k(RESP_BLOCK),
            r_flushed: k(RESP_FLUSHED),
            op_flush: k(OP_FLUSH),
            c_flush: k(C_FLUSH),
            k_matched: k(LANE_MATCHED),
            k_queued: k(LANE_QUEUED),
            k_overflow: k(LANE_OVERFLOW),
            mode_envelope: k(crate::bram_list::MODE_ENVELOPE),
            state: Default::default(),
            op: Default::default(),
            comm: Default::default(),
            src: Default::default(),
            tag: Default::default(),
            src_any: Default::default(),
            tag_any: Default::default(),
            handle: Default::default(),
            count: Default::default(),
            cursor: Default::default(),
            kind: Default::default(),
            recv: Default::default(),
            msg: Default::default(),
            msg_src_r: Default::default(),
            msg_tag_r: Default::default(),
            label: Default::default(),
            seq_id: Default::default(),
            clear_at: Default::default(),
            last_valid: Default::default(),
            last_comm: Default::default(),
            last_src: Default::default(),
            last_tag: Default::default(),
            last_src_any: Default::default(),
            last_tag_any: Default::default(),
            alloc: Default::default(),
            post_list: Default::default(),
            d_valid: dffs(d),
            d_comm: dffs(d),
            d_src: dffs(d),
            d_tag: dffs(d),
            d_src_any: dffs(d),
            d_tag_any: dffs(d),
            d_handle: dffs(d),
            d_label: dffs(d),
            d_seq: dffs(d),
            d_list: dffs(d),
            d_next: dffs(d),
            d_prev: dffs(d),
            d_booked: dffs(d),
            d_taken: dffs(d),
            ln_valid: dffs(n),
            ln_comm: dffs(n),
            ln_src: dffs(n),
            ln_tag: dffs(n),
            ln_handle: dffs(n),
            ln_state: dffs(n),
            ln_class: dffs(n),
            ln_first: dffs(n),
            ln_ptr: dffs(n),
            ln_cand: dffs(n),
            ln_cand_label: dffs(n),
            ln_rcand: dffs(n),
            ln_rcand_label: dffs(n),
            ln_slot: dffs(n),
            ln_kind: dffs(n),
            ln_recv: dffs(n),
            heads: (0..n).map(|_| TableRam::new(h)).collect(),
            tails: TableRam::new(h),
            umq_cam: SingleCycleCam::new(u),
            w_src4: locals(n),
            w_tagf: locals(n),
            w_list0: locals(n),
            w_list1: locals(n),
            w_list2: locals(n),
            w_addr: locals(n),
            w_walking: locals(n),
            w_rewalk: locals(n),
            w_ptr: locals(n),
            w_hit: locals(n),
            w_next: locals(n),
            w_label: locals(n),
            w_best: locals(n),
            w_best_label: locals(n),
            w_new: locals(n),
            w_new_label: locals(n),
            w_end: locals(n),
            w_book: locals(n),
            w_take: locals(n),
            w_take_slot: locals(n),
            w_start_rewalk: locals(n),
            w_bitmap: locals(n),
            w_barrier: locals(n),
            w_resolving: locals(n),
            w_prev_done: locals(n),
            w_target: locals(n),
            g_booked: Default::default(),
            g_conflicted: Default::default(),
            g_done: Default::default(),
            g_mask: Default::default(),
            g_seq: Default::default(),
            g_targets: Default::default(),
            g_shared: Default::default(),
            s_book: locals(d),
            s_take: locals(d),
            p_src4: Default::default(),
            p_tagf: Default::default(),
            p_list: Default::default(),
            p_free: Default::default(),
            p_found: Default::default(),
            p_same: Default::default(),
            p_seq: Default::default(),
            p_tail: Default::default(),
            x_slot: Default::default(),
            x_found: Default::default(),
            t_kind: Default::default(),
            t_slot: Default::default(),
            t_comm: Default::default(),
            t_src: Default::default(),
            t_tag: Default::default(),
            t_handle: Default::default(),
            u_en: Default::default(),
            u_slot: Default::default(),
            u_prev: Default::default(),
            u_next: Default::default(),
            u_list: Default::default(),
            h_en: Default::default(),
            h_addr: Default::default(),
            h_data: Default::default(),
            _lanes: n,
            _descriptors: d,
        }
    }
}

fn locals_in<T: Synth>(count: usize) -> Vec<Signal<In, T>> {
    (0..count).map(|_| Default::default()).collect()
}

/// Checks a shape before anything is built: lanes 1–64 (one booking bit each), 2 to
/// 32,767 descriptors (16-bit pointers, slot + 1), a head table of 4 to 2^16 lists.
pub fn check_shape(
    lanes: usize,
    descriptors: usize,
    head_bits: usize,
    unexpected: usize,
) -> Result<(), String> {
    if !(1..=64).contains(&lanes) {
        return Err(format!("{lanes} lanes: from 1 to 64"));
    }
    if !(2..32768).contains(&descriptors) {
        return Err(format!("{descriptors} descriptors: from 2 to 32,767"));
    }
    if !(2..=16).contains(&head_bits) {
        return Err(format!("a head table of 2^{head_bits} lists: from 2^2 to 2^16"));
    }
    if !(2..65536).contains(&unexpected) {
        return Err(format!("{unexpected} unexpected messages: from 2 to 65,535"));
    }
    Ok(())
}

impl Logic for ThreadArray {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            op,
            comm,
            src,
            tag,
            src_any,
            tag_any,
            handle,
            count,
            cursor,
            kind,
            recv,
            msg,
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
            alloc,
            post_list,
            clear_at
        );
        for s in 0..self._descriptors {
            self.d_valid[s].clock.next = self.clock.val();
            self.d_comm[s].clock.next = self.clock.val();
            self.d_src[s].clock.next = self.clock.val();
            self.d_tag[s].clock.next = self.clock.val();
            self.d_src_any[s].clock.next = self.clock.val();
            self.d_tag_any[s].clock.next = self.clock.val();
            self.d_handle[s].clock.next = self.clock.val();
            self.d_label[s].clock.next = self.clock.val();
            self.d_seq[s].clock.next = self.clock.val();
            self.d_list[s].clock.next = self.clock.val();
            self.d_next[s].clock.next = self.clock.val();
            self.d_prev[s].clock.next = self.clock.val();
            self.d_booked[s].clock.next = self.clock.val();
            self.d_taken[s].clock.next = self.clock.val();
            self.d_valid[s].d.next = self.d_valid[s].q.val();
            self.d_comm[s].d.next = self.d_comm[s].q.val();
            self.d_src[s].d.next = self.d_src[s].q.val();
            self.d_tag[s].d.next = self.d_tag[s].q.val();
            self.d_src_any[s].d.next = self.d_src_any[s].q.val();
            self.d_tag_any[s].d.next = self.d_tag_any[s].q.val();
            self.d_handle[s].d.next = self.d_handle[s].q.val();
            self.d_label[s].d.next = self.d_label[s].q.val();
            self.d_seq[s].d.next = self.d_seq[s].q.val();
            self.d_list[s].d.next = self.d_list[s].q.val();
            self.d_next[s].d.next = self.d_next[s].q.val();
            self.d_prev[s].d.next = self.d_prev[s].q.val();
            self.d_booked[s].d.next = self.d_booked[s].q.val();
            self.d_taken[s].d.next = self.d_taken[s].q.val();
            self.s_book[s].next = self.zero_lanes.val();
            self.s_take[s].next = false;
        }
        for i in 0..self._lanes {
            self.ln_valid[i].clock.next = self.clock.val();
            self.ln_comm[i].clock.next = self.clock.val();
            self.ln_src[i].clock.next = self.clock.val();
            self.ln_tag[i].clock.next = self.clock.val();
            self.ln_handle[i].clock.next = self.clock.val();
            self.ln_state[i].clock.next = self.clock.val();
            self.ln_class[i].clock.next = self.clock.val();
            self.ln_first[i].clock.next = self.clock.val();
            self.ln_ptr[i].clock.next = self.clock.val();
            self.ln_cand[i].clock.next = self.clock.val();
            self.ln_cand_label[i].clock.next = self.clock.val();
            self.ln_rcand[i].clock.next = self.clock.val();
            self.ln_rcand_label[i].clock.next = self.clock.val();
            self.ln_slot[i].clock.next = self.clock.val();
            self.ln_kind[i].clock.next = self.clock.val();
            self.ln_recv[i].clock.next = self.clock.val();
            self.ln_valid[i].d.next = self.ln_valid[i].q.val();
            self.ln_comm[i].d.next = self.ln_comm[i].q.val();
            self.ln_src[i].d.next = self.ln_src[i].q.val();
            self.ln_tag[i].d.next = self.ln_tag[i].q.val();
            self.ln_handle[i].d.next = self.ln_handle[i].q.val();
            self.ln_state[i].d.next = self.ln_state[i].q.val();
            self.ln_class[i].d.next = self.ln_class[i].q.val();
            self.ln_first[i].d.next = self.ln_first[i].q.val();
            self.ln_ptr[i].d.next = self.ln_ptr[i].q.val();
            self.ln_cand[i].d.next = self.ln_cand[i].q.val();
            self.ln_cand_label[i].d.next = self.ln_cand_label[i].q.val();
            self.ln_rcand[i].d.next = self.ln_rcand[i].q.val();
            self.ln_rcand_label[i].d.next = self.ln_rcand_label[i].q.val();
            self.ln_slot[i].d.next = self.ln_slot[i].q.val();
            self.ln_kind[i].d.next = self.ln_kind[i].q.val();
            self.ln_recv[i].d.next = self.ln_recv[i].q.val();
            self.lane_kind[i].next = self.ln_kind[i].q.val();
            self.lane_recv[i].next = self.ln_recv[i].q.val();
            self.heads[i].clock.next = self.clock.val();
        }
        self.tails.clock.next = self.clock.val();
        self.umq_cam.clock.next = self.clock.val();

        self.cmd_ready.next = self.state.q.val() == self.c_idle.val();
        self.resp_valid.next = self.state.q.val() == self.c_respond.val();
        self.resp_kind.next = self.kind.q.val();
        self.resp_recv.next = self.recv.q.val();
        self.resp_msg.next = self.msg.q.val();
        self.resp_src.next = self.msg_src_r.q.val();
        self.resp_tag.next = self.msg_tag_r.q.val();
        self.umq_count.next = self.umq_cam.count.val();

        // The UMQ: searched with the latched command, written by the block's tail.
        self.umq_cam.search_comm.next = self.comm.q.val();
        self.umq_cam.search_src.next = self.src.q.val();
        self.umq_cam.search_tag.next = self.tag.q.val();
        self.umq_cam.search_src_any.next = self.src_any.q.val();
        self.umq_cam.search_tag_any.next = self.tag_any.q.val();
        self.umq_cam.search_mode.next = self.mode_envelope.val();
        self.umq_cam.search_handle.next = self.handle.q.val();
        self.umq_cam.remove_valid.next = false;
        self.umq_cam.clear.next = false;
        self.umq_cam.remove_index.next = self.umq_cam.hit_index.val();
        self.umq_cam.insert_valid.next = false;
        self.umq_cam.insert_src_any.next = false;
        self.umq_cam.insert_tag_any.next = false;

        // ---- Lanes: hash, walk, book. ----
        for i in 0..self._lanes {
            self.w_src4[i].next = self.ln_src[i].q.val() << 4;
            self.w_tagf[i].next =
                self.ln_tag[i].q.val().get_bits::<16>(0) ^ self.ln_tag[i].q.val().get_bits::<16>(16);
            self.w_list0[i].next =
                (self.ln_comm[i].q.val() ^ self.w_src4[i].val() ^ self.w_tagf[i].val()) & self.bin_mask.val();
            self.w_list1[i].next = self.any_src_base.val()
                + ((self.ln_comm[i].q.val() ^ self.w_tagf[i].val()) & self.bin_mask.val());
            self.w_list2[i].next = self.any_tag_base.val()
                + ((self.ln_comm[i].q.val() ^ self.w_src4[i].val()) & self.bin_mask.val());
            self.w_walking[i].next = (self.ln_state[i].q.val() == self.l_walk.val())
                | (self.ln_state[i].q.val() == self.l_rewalk.val());
            self.w_rewalk[i].next = self.ln_state[i].q.val() == self.l_rewalk.val();
            // The head address of the list examined next cycle: the first list when
            // starting a walk, else the one after the current list.
            self.w_addr[i].next = self.w_list0[i].val();
            if self.w_walking[i].val() {
                if self.ln_class[i].q.val() == self.class0.val() {
                    self.w_addr[i].next = self.w_list1[i].val();
                } else if self.ln_class[i].q.val() == self.class1.val() {
                    self.w_addr[i].next = self.w_list2[i].val();
                } else if self.ln_class[i].q.val() == self.class2.val() {
                    self.w_addr[i].next = self.both_list.val();
                }
            }
            self.heads[i].read_address.next = self.w_addr[i].val();

            // Examine one entry: the list's head from the RAM, or the link followed.
            self.w_ptr[i].next = self.ln_ptr[i].q.val();
            if self.ln_first[i].q.val() {
                self.w_ptr[i].next = self.heads[i].read_data.val();
            }
            self.w_hit[i].next = false;
            self.w_next[i].next = self.zero16.val();
            self.w_label[i].next = self.zero32.val();
            for s in 0..self._descriptors {
                if self.w_ptr[i].val() == self.slot1[s].val() {
                    self.w_hit[i].next = self.d_valid[s].q.val()
                        & (self.d_comm[s].q.val() == self.ln_comm[i].q.val())
                        & (self.d_src_any[s].q.val() | (self.d_src[s].q.val() == self.ln_src[i].q.val()))
                        & (self.d_tag_any[s].q.val() | (self.d_tag[s].q.val() == self.ln_tag[i].q.val()))
                        & !(self.w_rewalk[i].val() & self.d_taken[s].q.val());
                    self.w_next[i].next = self.d_next[s].q.val();
                    self.w_label[i].next = self.d_label[s].q.val();
                }
            }
            self.w_best[i].next = self.ln_cand[i].q.val();
            self.w_best_label[i].next = self.ln_cand_label[i].q.val();
            if self.w_rewalk[i].val() {
                self.w_best[i].next = self.ln_rcand[i].q.val();
                self.w_best_label[i].next = self.ln_rcand_label[i].q.val();
            }
            self.w_new[i].next = self.w_best[i].val();
            self.w_new_label[i].next = self.w_best_label[i].val();
            if self.w_hit[i].val()
                & ((self.w_best[i].val() == self.zero16.val())
                    | (self.w_label[i].val() < self.w_best_label[i].val()))
            {
                self.w_new[i].next = self.w_ptr[i].val();
                self.w_new_label[i].next = self.w_label[i].val();
            }
            self.w_end[i].next = (self.w_ptr[i].val() == self.zero16.val())
                | self.w_hit[i].val()
                | (self.w_next[i].val() == self.zero16.val());

            self.w_book[i].next = false;
            self.w_take[i].next = false;
            self.w_take_slot[i].next = self.zero16.val();
            self.w_start_rewalk[i].next = false;
            if self.w_walking[i].val() {
                if self.w_rewalk[i].val() {
                    self.ln_rcand[i].d.next = self.w_new[i].val();
                    self.ln_rcand_label[i].d.next = self.w_new_label[i].val();
                } else {
                    self.ln_cand[i].d.next = self.w_new[i].val();
                    self.ln_cand_label[i].d.next = self.w_new_label[i].val();
                }
                if !self.w_end[i].val() {
                    self.ln_ptr[i].d.next = self.w_next[i].val();
                    self.ln_first[i].d.next = false;
                } else if self.ln_class[i].q.val() != self.class3.val() {
                    self.ln_class[i].d.next = self.ln_class[i].q.val() + self.class1.val();
                    self.ln_first[i].d.next = true;
                } else if self.w_rewalk[i].val() {
                    self.w_take[i].next = self.w_new[i].val() != self.zero16.val();
                    self.w_take_slot[i].next = self.w_new[i].val();
                    self.ln_state[i].d.next = self.l_done.val();
                } else {
                    self.w_book[i].next = self.w_new[i].val() != self.zero16.val();
                    self.ln_state[i].d.next = self.l_wait.val();
                }
            }
            if self.ln_state[i].q.val() == self.l_start.val() {
                self.ln_state[i].d.next = self.l_walk.val();
                self.ln_class[i].d.next = self.class0.val();
                self.ln_first[i].d.next = true;
            }
        }

        // ---- Partial barrier and conflict detection. ----
        self.g_booked.next = true;
        self.g_conflicted.next = false;
        self.g_done.next = true;
        self.g_mask.next = self.zero_lanes.val();
        for i in 0..self._lanes {
            self.w_bitmap[i].next = self.zero_lanes.val();
            for s in 0..self._descriptors {
                if self.ln_cand[i].q.val() == self.slot1[s].val() {
                    self.w_bitmap[i].next = self.d_booked[s].q.val();
                }
            }
            self.g_booked.next = self.g_booked.val()
                & (!self.ln_valid[i].q.val() | (self.ln_state[i].q.val() >= self.l_wait.val()));
            self.w_barrier[i].next = self.g_booked.val();
            self.g_conflicted.next = self.g_conflicted.val()
                | ((self.ln_cand[i].q.val() != self.zero16.val())
                    & (self.w_bitmap[i].val() & self.lower_lanes[i].val()).any());
            self.w_resolving[i].next = self.g_conflicted.val();
            self.g_done.next = self.g_done.val()
                & (!self.ln_valid[i].q.val() | (self.ln_state[i].q.val() == self.l_done.val()));
            if self.ln_valid[i].q.val() {
                self.g_mask.next = self.g_mask.val() | self.lane_bit[i].val();
            }
        }
        self.w_prev_done[0].next = true;
        for i in 1..self._lanes {
            self.w_prev_done[i].next = self.ln_state[i - 1].q.val() == self.l_done.val();
        }

        // ---- Fast path: all lanes booked lane 0's receive k, and k + i exist. ----
        self.g_seq.next = self.zero16.val();
        for s in 0..self._descriptors {
            if self.ln_cand[0].q.val() == self.slot1[s].val() {
                self.g_seq.next = self.d_seq[s].q.val();
            }
        }
        self.g_targets.next = true;
        for i in 0..self._lanes {
            self.w_target[i].next = self.zero16.val();
            for s in 0..self._descriptors {
                if self.d_valid[s].q.val()
                    & (self.d_label[s].q.val() == self.ln_cand_label[0].q.val() + self.lane_offset[i].val())
                    & (self.d_seq[s].q.val() == self.g_seq.val())
                {
                    self.w_target[i].next = self.slot1[s].val();
                }
            }
            if self.ln_valid[i].q.val() & (self.w_target[i].val() == self.zero16.val()) {
                self.g_targets.next = false;
            }
        }
        self.g_shared.next = self.fast_path.val()
            & (self.count.q.val() >= self.two8.val())
            & (self.ln_cand[0].q.val() != self.zero16.val())
            & (self.w_bitmap[0].val() == self.g_mask.val())
            & self.g_targets.val();

        // ---- Resolution: take the candidate, the run's receive, or walk again. ----
        for i in 0..self._lanes {
            if (self.ln_state[i].q.val() == self.l_wait.val()) & self.w_barrier[i].val() {
                if !self.w_resolving[i].val() {
                    self.w_take[i].next = self.ln_cand[i].q.val() != self.zero16.val();
                    self.w_take_slot[i].next = self.ln_cand[i].q.val();
                    self.ln_state[i].d.next = self.l_done.val();
                } else if self.g_booked.val() {
                    if self.g_shared.val() {
                        self.w_take[i].next = true;
                        self.w_take_slot[i].next = self.w_target[i].val();
                        self.ln_state[i].d.next = self.l_done.val();
                    } else if self.w_prev_done[i].val() {
                        self.w_start_rewalk[i].next = true;
                    } else {
                        self.ln_state[i].d.next = self.l_slow_wait.val();
                    }
                }
            }
            if (self.ln_state[i].q.val() == self.l_slow_wait.val()) & self.w_prev_done[i].val() {
                self.w_start_rewalk[i].next = true;
            }
            if self.w_start_rewalk[i].val() {
                self.ln_state[i].d.next = self.l_rewalk.val();
                self.ln_class[i].d.next = self.class0.val();
                self.ln_first[i].d.next = true;
                self.ln_rcand[i].d.next = self.zero16.val();
            }
            if self.w_take[i].val() {
                self.ln_slot[i].d.next = self.w_take_slot[i].val();
                self.ln_kind[i].d.next = self.k_matched.val();
            }
            for s in 0..self._descriptors {
                if self.w_book[i].val() & (self.w_new[i].val() == self.slot1[s].val()) {
                    self.s_book[s].next = self.s_book[s].val() | self.lane_bit[i].val();
                }
                if self.w_take[i].val() & (self.w_take_slot[i].val() == self.slot1[s].val()) {
                    self.s_take[s].next = true;
                    self.ln_recv[i].d.next = self.d_handle[s].q.val();
                }
            }
        }
        for s in 0..self._descriptors {
            self.d_booked[s].d.next =
                (self.d_booked[s].q.val() | self.s_book[s].val()) & self.lane_mask.val();
            if self.s_take[s].val() {
                self.d_taken[s].d.next = true;
            }
        }

        // ---- The block's tail: one lane a cycle, unlink its receive or queue its message. ----
        self.t_kind.next = self.k_queued.val();
        self.t_slot.next = self.zero16.val();
        self.t_comm.next = self.ln_comm[0].q.val();
        self.t_src.next = self.ln_src[0].q.val();
        self.t_tag.next = self.ln_tag[0].q.val();
        self.t_handle.next = self.ln_handle[0].q.val();
        for i in 0..self._lanes {
            if self.cursor.q.val() == self.lane_index[i].val() {
                self.t_kind.next = self.ln_kind[i].q.val();
                self.t_slot.next = self.ln_slot[i].q.val();
                self.t_comm.next = self.ln_comm[i].q.val();
                self.t_src.next = self.ln_src[i].q.val();
                self.t_tag.next = self.ln_tag[i].q.val();
                self.t_handle.next = self.ln_handle[i].q.val();
            }
        }
        self.umq_cam.insert_comm.next = self.t_comm.val();
        self.umq_cam.insert_src.next = self.t_src.val();
        self.umq_cam.insert_tag.next = self.t_tag.val();
        self.umq_cam.insert_handle.next = self.t_handle.val();

        // ---- A posted receive's list, free slot and sequence id. ----
        self.p_src4.next = self.src.q.val() << 4;
        self.p_tagf.next = self.tag.q.val().get_bits::<16>(0) ^ self.tag.q.val().get_bits::<16>(16);
        self.p_list.next = (self.comm.q.val() ^ self.p_src4.val() ^ self.p_tagf.val()) & self.bin_mask.val();
        if self.src_any.q.val() & self.tag_any.q.val() {
            self.p_list.next = self.both_list.val();
        } else if self.src_any.q.val() {
            self.p_list.next =
                self.any_src_base.val() + ((self.comm.q.val() ^ self.p_tagf.val()) & self.bin_mask.val());
        } else if self.tag_any.q.val() {
            self.p_list.next =
                self.any_tag_base.val() + ((self.comm.q.val() ^ self.p_src4.val()) & self.bin_mask.val());
        }
        self.tails.read_address.next = self.p_list.val();
        self.p_found.next = false;
        self.p_free.next = self.zero16.val();
        for s in 0..self._descriptors {
            if !self.p_found.val() & !self.d_valid[s].q.val() {
                self.p_found.next = true;
                self.p_free.next = self.slot1[s].val();
            }
        }
        self.p_same.next = self.last_valid.q.val()
            & (self.last_comm.q.val() == self.comm.q.val())
            & (self.last_src.q.val() == self.src.q.val())
            & (self.last_tag.q.val() == self.tag.q.val())
            & (self.last_src_any.q.val() == self.src_any.q.val())
            & (self.last_tag_any.q.val() == self.tag_any.q.val());
        self.p_seq.next = self.seq_id.q.val() + self.one16.val();
        if self.p_same.val() {
            self.p_seq.next = self.seq_id.q.val();
        }
        self.p_tail.next = self.tails.read_data.val();

        // ---- Cancel: the lowest slot holding the handle. ----
        self.x_found.next = false;
        self.x_slot.next = self.zero16.val();
        for s in 0..self._descriptors {
            if !self.x_found.val()
                & self.d_valid[s].q.val()
                & (self.d_handle[s].q.val() == self.handle.q.val())
            {
                self.x_found.next = true;
                self.x_slot.next = self.slot1[s].val();
            }
        }

        // ---- Controller. ----
        self.u_en.next = false;
        self.u_slot.next = self.t_slot.val();
        self.h_en.next = false;
        self.h_addr.next = self.post_list.q.val();
        self.h_data.next = self.alloc.q.val();
        self.tails.write_enable.next = false;
        self.tails.write_address.next = self.post_list.q.val();
        self.tails.write_data.next = self.alloc.q.val();
        if self.state.q.val() == self.c_idle.val() {
            if self.cmd_valid.val() {
                self.op.d.next = self.cmd_op.val();
                self.comm.d.next = self.cmd_comm.val();
                self.src.d.next = self.cmd_src.val();
                self.tag.d.next = self.cmd_tag.val();
                self.src_any.d.next = self.cmd_src_any.val();
                self.tag_any.d.next = self.cmd_tag_any.val();
                self.handle.d.next = self.cmd_handle.val();
                self.count.d.next = self.cmd_count.val();
                self.cursor.d.next = self.zero8.val();
                self.recv.d.next = self.cmd_handle.val();
                self.msg.d.next = self.zero32.val();
                self.kind.d.next = self.r_overflow.val();
                if self.cmd_op.val() == self.op_post.val() {
                    self.state.d.next = self.c_post.val();
                } else if self.cmd_op.val() == self.op_flush.val() {
                    self.clear_at.d.next = self.zero16.val();
                    self.state.d.next = self.c_flush.val();
                } else if self.cmd_op.val() == self.op_cancel.val() {
                    self.state.d.next = self.c_cancel.val();
                } else if (self.cmd_op.val() == self.op_probe.val())
                    | (self.cmd_op.val() == self.op_matched_probe.val())
                {
                    self.state.d.next = self.c_probe.val();
                } else if (self.cmd_op.val() == self.op_arrive.val())
                    & (self.cmd_count.val() >= self.one8.val())
                    & (self.cmd_count.val() <= self.lanes.val())
                {
                    self.state.d.next = self.c_block.val();
                    self.kind.d.next = self.r_block.val();
                    for i in 0..self._lanes {
                        self.ln_valid[i].d.next = self.lane_index[i].val() < self.cmd_count.val();
                        self.ln_comm[i].d.next = self.msg_comm[i].val();
                        self.ln_src[i].d.next = self.msg_src[i].val();
                        self.ln_tag[i].d.next = self.msg_tag[i].val();
                        self.ln_handle[i].d.next = self.msg_handle[i].val();
                        self.ln_state[i].d.next = self.l_idle.val();
                        if self.lane_index[i].val() < self.cmd_count.val() {
                            self.ln_state[i].d.next = self.l_start.val();
                        }
                        self.ln_cand[i].d.next = self.zero16.val();
                        self.ln_cand_label[i].d.next = self.zero32.val();
                        self.ln_rcand[i].d.next = self.zero16.val();
                        self.ln_slot[i].d.next = self.zero16.val();
                        self.ln_kind[i].d.next = self.k_queued.val();
                        self.ln_recv[i].d.next = self.zero32.val();
                    }
                } else {
                    // An unknown operation or an empty or oversized block: nothing is
                    // applied, the answer is overflow (the host keeps the operation).
                    self.state.d.next = self.c_respond.val();
                }
            }
        } else if self.state.q.val() == self.c_block.val() {
            if self.g_done.val() {
                if self.t_kind.val() == self.k_matched.val() {
                    self.u_en.next = true;
                } else if self.umq_cam.full.val() {
                    for i in 0..self._lanes {
                        if self.cursor.q.val() == self.lane_index[i].val() {
                            self.ln_kind[i].d.next = self.k_overflow.val();
                        }
                    }
                } else {
                    self.umq_cam.insert_valid.next = true;
                }
                if self.cursor.q.val() == self.zero8.val() {
                    // Bookings end with the block.
                    for s in 0..self._descriptors {
                        self.d_booked[s].d.next = self.zero_lanes.val();
                    }
                }
                self.cursor.d.next = self.cursor.q.val() + self.one8.val();
                if self.cursor.q.val() + self.one8.val() == self.count.q.val() {
                    self.state.d.next = self.c_respond.val();
                }
            }
        } else if self.state.q.val() == self.c_post.val() {
            if self.umq_cam.hit.val() {
                self.umq_cam.remove_valid.next = true;
                self.kind.d.next = self.r_matched.val();
                self.msg.d.next = self.umq_cam.hit_handle.val();
                self.msg_src_r.d.next = self.umq_cam.hit_src.val();
                self.msg_tag_r.d.next = self.umq_cam.hit_tag.val();
                self.state.d.next = self.c_respond.val();
            } else if !self.p_found.val() {
                self.kind.d.next = self.r_overflow.val();
                self.state.d.next = self.c_respond.val();
            } else {
                self.alloc.d.next = self.p_free.val();
                self.post_list.d.next = self.p_list.val();
                self.state.d.next = self.c_insert.val();
            }
        } else if self.state.q.val() == self.c_insert.val() {
            // Append to the list: link from its tail (or make it the head), new tail.
            for s in 0..self._descriptors {
                if self.alloc.q.val() == self.slot1[s].val() {
                    self.d_valid[s].d.next = true;
                    self.d_comm[s].d.next = self.comm.q.val();
                    self.d_src[s].d.next = self.src.q.val();
                    self.d_tag[s].d.next = self.tag.q.val();
                    self.d_src_any[s].d.next = self.src_any.q.val();
                    self.d_tag_any[s].d.next = self.tag_any.q.val();
                    self.d_handle[s].d.next = self.handle.q.val();
                    self.d_label[s].d.next = self.label.q.val() + self.one32.val();
                    self.d_seq[s].d.next = self.p_seq.val();
                    self.d_list[s].d.next = self.post_list.q.val();
                    self.d_next[s].d.next = self.zero16.val();
                    self.d_prev[s].d.next = self.p_tail.val();
                    self.d_booked[s].d.next = self.zero_lanes.val();
                    self.d_taken[s].d.next = false;
                }
                if self.p_tail.val() == self.slot1[s].val() {
                    self.d_next[s].d.next = self.alloc.q.val();
                }
            }
            if self.p_tail.val() == self.zero16.val() {
                self.h_en.next = true;
            }
            self.tails.write_enable.next = true;
            self.label.d.next = self.label.q.val() + self.one32.val();
            self.seq_id.d.next = self.p_seq.val();
            self.last_valid.d.next = true;
            self.last_comm.d.next = self.comm.q.val();
            self.last_src.d.next = self.src.q.val();
            self.last_tag.d.next = self.tag.q.val();
            self.last_src_any.d.next = self.src_any.q.val();
            self.last_tag_any.d.next = self.tag_any.q.val();
            self.kind.d.next = self.r_queued.val();
            self.state.d.next = self.c_respond.val();
        } else if self.state.q.val() == self.c_cancel.val() {
            if self.x_found.val() {
                self.u_en.next = true;
                self.u_slot.next = self.x_slot.val();
                self.last_valid.d.next = false;
                self.kind.d.next = self.r_cancelled.val();
            } else {
                self.kind.d.next = self.r_not_found.val();
            }
            self.state.d.next = self.c_respond.val();
        } else if self.state.q.val() == self.c_probe.val() {
            self.msg.d.next = self.umq_cam.hit_handle.val();
            self.msg_src_r.d.next = self.umq_cam.hit_src.val();
            self.msg_tag_r.d.next = self.umq_cam.hit_tag.val();
            if self.umq_cam.hit.val() {
                self.kind.d.next = self.r_probe_found.val();
                if self.op.q.val() == self.op_matched_probe.val() {
                    self.umq_cam.remove_valid.next = true;
                }
            } else {
                self.kind.d.next = self.r_probe_none.val();
            }
            self.state.d.next = self.c_respond.val();
        } else if self.state.q.val() == self.c_flush.val() {
            // The clearing pass: list `clear_at` empty in every head copy and the tails;
            // the descriptors, the UMQ and the sequence state in the first cycle.
            self.h_en.next = true;
            self.h_addr.next = self.clear_at.q.val();
            self.h_data.next = self.zero16.val();
            self.tails.write_enable.next = true;
            self.tails.write_address.next = self.clear_at.q.val();
            self.tails.write_data.next = self.zero16.val();
            self.clear_at.d.next = self.clear_at.q.val() + self.one16.val();
            if self.clear_at.q.val() == self.zero16.val() {
                for s in 0..self._descriptors {
                    self.d_valid[s].d.next = false;
                    self.d_taken[s].d.next = false;
                    self.d_booked[s].d.next = self.zero_lanes.val();
                }
                self.umq_cam.clear.next = true;
                self.label.d.next = self.zero32.val();
                self.seq_id.d.next = self.zero16.val();
                self.last_valid.d.next = false;
            }
            if self.clear_at.q.val() == self.both_list.val() {
                self.kind.d.next = self.r_flushed.val();
                self.state.d.next = self.c_respond.val();
            }
        } else if (self.state.q.val() == self.c_respond.val()) & self.resp_ready.val() {
            self.state.d.next = self.c_idle.val();
        }

        // ---- Unlink (a cancelled receive, or a taken one in the tail). ----
        self.u_prev.next = self.zero16.val();
        self.u_next.next = self.zero16.val();
        self.u_list.next = self.zero16.val();
        for s in 0..self._descriptors {
            if self.u_slot.val() == self.slot1[s].val() {
                self.u_prev.next = self.d_prev[s].q.val();
                self.u_next.next = self.d_next[s].q.val();
                self.u_list.next = self.d_list[s].q.val();
            }
        }
        if self.u_en.val() {
            for s in 0..self._descriptors {
                if self.u_slot.val() == self.slot1[s].val() {
                    self.d_valid[s].d.next = false;
                    self.d_taken[s].d.next = false;
                }
                if self.u_prev.val() == self.slot1[s].val() {
                    self.d_next[s].d.next = self.u_next.val();
                }
                if self.u_next.val() == self.slot1[s].val() {
                    self.d_prev[s].d.next = self.u_prev.val();
                }
            }
            self.h_addr.next = self.u_list.val();
            self.h_data.next = self.u_next.val();
            self.h_en.next = self.u_prev.val() == self.zero16.val();
            self.tails.write_address.next = self.u_list.val();
            self.tails.write_data.next = self.u_prev.val();
            self.tails.write_enable.next = self.u_next.val() == self.zero16.val();
        }
        for i in 0..self._lanes {
            self.heads[i].write_address.next = self.h_addr.val();
            self.heads[i].write_data.next = self.h_data.val();
            self.heads[i].write_enable.next = self.h_en.val();
        }
    }
}

/// The thread array's Verilog, top module `top`, generated on a thread with a large
/// stack (rust-hdl's generator recurses through the whole design).
pub fn thread_array_verilog(shape: &ThreadArrayShape) -> String {
    let shape = *shape;
    std::thread::Builder::new()
        .name("thread-array-verilog".into())
        .stack_size(1 << 30)
        .spawn(move || {
            let mut uut = ThreadArray::new(&shape);
            uut.connect_all();
            // rust-hdl names array elements `name$i`; legal Verilog, but the C++ that
            // Verilator makes of it (and many tools' port maps) want plain identifiers.
            generate_verilog(&uut).replace('$', "_")
        })
        .and_then(|t| t.join().map_err(|_| std::io::Error::other("the Verilog generator panicked")))
        .unwrap_or_else(|e| panic!("generating the thread array's Verilog: {e}"))
}

/// Ports of a thread array of `lanes` lanes as (name, width, is input); lane ports are
/// named `<port>_<lane>`.
pub fn thread_array_ports(lanes: usize) -> Vec<(String, u32, bool)> {
    let mut ports: Vec<(String, u32, bool)> = [
        ("clock", 1, true),
        ("cmd_valid", 1, true),
        ("cmd_ready", 1, false),
        ("cmd_op", 3, true),
        ("cmd_comm", 16, true),
        ("cmd_src", 16, true),
        ("cmd_tag", 32, true),
        ("cmd_src_any", 1, true),
        ("cmd_tag_any", 1, true),
        ("cmd_handle", 32, true),
        ("cmd_count", 8, true),
    ]
    .iter()
    .map(|&(n, w, i)| (n.to_string(), w, i))
    .collect();
    for (name, width) in [("msg_comm", 16), ("msg_src", 16), ("msg_tag", 32), ("msg_handle", 32)] {
        ports.extend((0..lanes).map(|i| (format!("{name}_{i}"), width, true)));
    }
    for (name, width, input) in
        [("resp_valid", 1, false), ("resp_ready", 1, true), ("resp_kind", 4, false), ("resp_recv", 32, false)]
    {
        ports.push((name.to_string(), width, input));
    }
    for (name, width) in [("resp_msg", 32), ("resp_src", 16), ("resp_tag", 32), ("umq_count", 16)] {
        ports.push((name.to_string(), width, false));
    }
    for (name, width) in [("lane_kind", 2), ("lane_recv", 32)] {
        ports.extend((0..lanes).map(|i| (format!("{name}_{i}"), width, false)));
    }
    ports
}
