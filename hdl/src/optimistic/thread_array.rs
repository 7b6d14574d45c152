//! Optimistic tag matching in hardware (after "Offloaded MPI message matching: an
//! optimistic approach"): `N` lanes match a block of up to `N` arriving messages at once
//! and repair conflicts afterwards. `tagmatch_sim::optimistic` is its functional model
//! (configuration `OptimisticConfig::hardware`) and `tagmatch_sim::optimistic::cost` its
//! timing, cycle for cycle; the module docs there give each step's cycles.
//!
//! Storage:
//! - the receive descriptor table, `D` slots, split by how its fields change: what changes
//!   during a block, and what every slot needs at once, in registers
//!   ([`DescriptorTable`]); what a walk reads and never changes after posting — envelope,
//!   wildcard flags, label, handle — also in a RAM per lane
//!   ([`crate::optimistic::descriptor_copy`]), from which the lane's walk reads its
//!   entry with a registered read instead of a `D`-way mux. Only the link and the flags
//!   are still read through a mux tree ([`crate::primitives::select`]),
//!   since they change under a block. The fast path keeps a RAM of the sequence ids read
//!   by lane 0's pointer ([`FastRun`]), so lane 0's candidate's id is a register beside
//!   the candidate and the run compares every descriptor's id with it, not with a `D`-way
//!   read by pointer. The booking
//!   bitmaps are not stored: a lane books exactly its candidate, once a block, so the
//!   bitmap of a receive is the set of lanes whose candidate register holds it (`N x N`
//!   pointer compares instead of `D` bitmaps written through an `N x D` decode at the
//!   end of every walk);
//! - the index tables: the head of each of the `3B + 1` lists (`B = 2^(H-2)` bins for
//!   each of the exact, `ANY_SOURCE` and `ANY_TAG` indexes, one list for both wildcards)
//!   and a table of tails for appending, each a
//!   [`crate::primitives::banked_table::BankedTable`] ([`ListEnds`]). Both are *banked by
//!   list*: list `l` is word `l / K` of bank `l mod K` (`K`, the lane count rounded up to
//!   a power of two, at most `B`), each bank with its own write port, so receives of lists
//!   in different banks leave in the same cycle. Every lane has its own copy of the head
//!   banks (its own read port), all copies written together. A lane reads a head through
//!   one port: with banks in LUT RAM (the default and small tables) the bank is selected
//!   before the read register, so the walk's `D`-way read starts from a flip-flop.
//!   Pointers are slot + 1, 0 for none, carried on 16-bit signals but only as wide as
//!   the descriptor count needs: the tables store that many bits and the unlink's link
//!   writes are masked, so synthesis narrows every link register, compare and mux (the
//!   links circulate through registers and tables, a loop no tool proves narrow);
//! - unexpected messages in an [`UnexpectedCam`] of `U` fixed slots, ordered by an age
//!   matrix: one search answers any wildcard pattern, so a receive or probe costs one
//!   cycle (the search is registered: the compares and the choice of the oldest hit run
//!   in the cycle that accepts the command, the hit's fields are read in the next); a
//!   block's unmatched messages go in one a cycle, each into the lowest free slot. (The
//!   functional model keeps the paper's four UMQ indexes; the pairing is the same.)
//!
//! A block: every lane ([`Lane`]) hashes its envelope, walks those of its four lists whose
//! index class holds a receive ([`crate::optimistic::list_occupancy`]; the first match in
//! each, the smallest label across them; a two-stage pipeline, the lane's module docs)
//! and books its candidate. The partial barrier lets lane `i` check its candidate's
//! bitmap once lanes `0..=i` have booked; a lane whose candidate a lower lane booked — and
//! every lane after it — resolves: by the fast path when all lanes booked receive `k` and
//! the receives labelled `k + 1 … k + n - 1` carry `k`'s sequence id (lane `i` takes
//! `k + i`, found by [`FastRun`]; the decision reads flops, and waits a cycle when lane 0
//! walked longest), else by the slow path (lane `i` walks again once lane `i - 1` has
//! taken its receive and unlinked it, skipping receives taken in this block).

//! Removal: a receive an optimistic lane takes stays linked until every lane is done, so
//! no walk changes under a lane; then one unlink unit per bank ([`UnlinkUnits`]) removes
//! one receive a cycle, the lowest lane's of that bank, in two pipeline stages with
//! forwarding between them. The slots whose links change are found in the second stage
//! by compares of registers: the one before a leaving receive is the slot whose `next`
//! holds it. The fast path's run is consecutive in its list, so it leaves in one unlink,
//! from `k`'s `prev` to the last one's `next`. A slow lane's receive enters the unlink in
//! the cycle after it is taken (slow lanes take one after another, so nothing else is
//! unlinking), and the next slow lane walks once its writes are in. The block answers in
//! the tail's last grant cycle, so the last unlink writes in the cycle after the answer,
//! which is the next command's acceptance at the earliest: that command reads the head,
//! tail and occupancy tables and the links from the cycle after its acceptance, when
//! every write is in (answering a cycle after the last grant cost a 16-lane block one
//! cycle in 13). Descriptors of taken receives are freed together a cycle after the
//! block's finish, from a register. The block's unmatched messages go into the UMQ in the
//! tail ([`UmqPlacement`]): in its first cycle they learn whether they fit, and those past
//! the room answer overflow; from its second, one goes in a cycle. The block answers with
//! one result per lane.
//!
//! Blocks: [`Controller`] (states, command and answer registers, posting, the cancel
//! scan), [`Lane`] (with its [`crate::optimistic::descriptor_copy::DescriptorCopy`]),
//! [`ListHash`] (a lane's or a post's lists), [`ListEnds`] (the head and tail tables), [`FastRun`]
//! (the fast path's run), [`UnlinkUnits`], [`UmqPlacement`] and [`CommandWidth`] (a
//! command wider than generated), [`Barrier`] (the partial barrier and conflict
//! detection) and [`DescriptorTable`]. Each is its own module with its own
//! lint-and-synthesis test. This module is the wiring, plus what joins blocks: the reads
//! for the fast path's last receive and a cancelled receive's list, the scan's valid
//! flags, the lowest free slot and the lowest lane a scan hit, and the fast path's
//! decision (`g_shared`, `fp_ready`).
//!
//! Single operations: post (search the UMQ, else append to the list of its class and
//! bin; overflow when no descriptor is free: the lowest free slot, by a prefix-OR tree,
//! registered every cycle in the controller),
//! cancel (a scan of the handles in the lanes' RAM copies, one slot per lane a cycle,
//! `ceil(D / n)` cycles: each read's compare is registered and the lowest hit kept; then
//! the found receive's list and links are read by pointer, lane 0's reads of its slot,
//! and it is unlinked, each a cycle. Every slot's handle in a register, compared at
//! once, answered in 4 cycles but took about 5,000 LUT4s at 4 lanes and 128
//! descriptors, for an operation MPI programs rarely issue), probe and matched probe
//! (search the UMQ), and flush (op 7): a clearing pass that writes one word of every bank a cycle, empty,
//! into every lane's head copy and the tail table (block RAM has no reset), while the
//! first cycle clears the descriptors' valid and taken bits, empties the UMQ CAM
//! and restarts labels and sequence ids; it answers `flushed` `3B/K + 2` cycles after
//! acceptance (50 with the default 64 bins and 4 lanes). Consecutive receives with the
//! same pattern share a sequence id (decided in a post's first cycle, registered for its
//! insert); a successful cancel ends the sequence.
//!
//! Sequence ids: a sequence's id is the label counter's value before its first receive,
//! so no two sequences share one (labels do not wrap among the receives held, as their
//! order needs anyway). That makes the fast path's run cheap: every receive of `k`'s
//! sequence has a label in `k .. k + D`, so `log2 max(D, n)` low bits tell `k + i` from
//! its other members, where a counter of sequences (which wraps) needed the whole label
//! compared. Why: `k`, the earliest receive lane 0's message matches, is the oldest of
//! its sequence still held (its members share one pattern, so they match in label
//! order); and every member after `k` was posted while `k` was held and before any
//! cancel (which ends the sequence), so they were all held at once with `k`: at most `D`.
//! At 4 lanes and 128 descriptors this replaced two 24-bit and a 16-bit compare per
//! descriptor, and an 8-bit one per descriptor and lane, by a 32-bit and a 7-bit one.
//!
//! Field widths (`ThreadArrayShape::fields`): the ports carry 16-bit communicators and
//! sources and 32-bit tags and handles, the widest the array is generated with; the
//! lanes' descriptor copies and the UMQ store each field at its generated width. A command
//! with a field wider than that (a post's or probe's envelope, a wildcard's field
//! excepted; a post's or cancel's handle; any field of a block's message) is answered
//! overflow at once and changes nothing, so a stored field never aliases a wider one and
//! the host keeps the operation. The command and lane registers keep only the generated
//! bits, so the bits above are constant zero from there on and synthesis removes them.
//!
//! Reset (`reset`, synchronous, active high, one cycle or more) is a flush's clearing pass
//! that ends without an answer: whatever was under way stops (a block's lanes and their
//! unlinks too), an answer not yet taken is dropped, and `cmd_ready` rises `3B/K + 2`
//! cycles after the last reset cycle, with the tables empty and labels restarted. As AXI
//! and Avalon ask of a source, `cmd_valid` stays low while `reset` is high.

use crate::optimistic::barrier::Barrier;
use crate::optimistic::command_width::CommandWidth;
use crate::optimistic::controller::Controller;
use crate::optimistic::descriptor_table::DescriptorTable;
use crate::optimistic::fast_run::FastRun;
use crate::optimistic::lane::Lane;
use crate::optimistic::list_ends::ListEnds;
use crate::optimistic::list_hash::ListHash;
use crate::optimistic::umq_placement::UmqPlacement;
use crate::optimistic::unexpected_cam::UnexpectedCam;
use crate::optimistic::unlink::UnlinkUnits;
use crate::optimistic::vectors::{k, low_bits, signals};
use crate::ports::ThreadCommandPorts;
use crate::primitives::select::{LowestSet, OneHotPointers, Select};
use crate::primitives::trees::bits_to_hold;
use rust_hdl::prelude::*;

pub use crate::optimistic::shape::{
    check_fields, check_shape, thread_array_ports, ThreadArrayShape, MAX_LANES,
};

/// `resp_kind` of a block of arrivals: the results are on the lane ports.
pub use crate::optimistic::controller::RESP_BLOCK;
/// `lane_kind` values.
pub use crate::optimistic::lane::{LANE_MATCHED, LANE_OVERFLOW, LANE_QUEUED};

#[derive(LogicBlock)]
pub struct ThreadArray {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (module docs).
    pub reset: Signal<In, Bit>,
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    /// The command's fields (its handshake is `cmd_valid` / `cmd_ready`).
    pub cmd: ThreadCommandPorts,
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
    /// Unexpected messages held; a block's last one counts from the cycle after the
    /// block's answer first shows ([`UmqPlacement`] writes a cycle after its insert).
    pub umq_count: Signal<Out, Bits<16>>,
    pub lane_kind: Vec<Signal<Out, Bits<2>>>,
    pub lane_recv: Vec<Signal<Out, Bits<32>>>,
    // Constants.
    fast_path: Constant<Bit>,
    /// Each field's generated bits: the lanes keep only these of a block's messages.
    comm_keep: Constant<Bits<16>>,
    src_keep: Constant<Bits<16>>,
    tag_keep: Constant<Bits<32>>,
    handle_keep: Constant<Bits<32>>,
    both_list: Constant<Bits<16>>,
    lane_index: Vec<Constant<Bits<8>>>,
    /// Lane `i`'s offset in a cancel's scan step, as a pointer: `i + 1`.
    lane_pointer1: Vec<Constant<Bits<16>>>,
    zero16: Constant<Bits<16>>,
    one8: Constant<Bits<8>>,
    two8: Constant<Bits<8>>,
    k_matched: Constant<Bits<2>>,
    /// The controller ([`Controller`]): states, command and answer registers, posting,
    /// the cancel scan.
    ctl: Controller,
    /// The list heads (a copy per lane) and tails, and their writes ([`ListEnds`]).
    ends: ListEnds,
    /// The lanes ([`Lane`]): each walks, books and takes for one message of a block,
    /// and keeps its own copy of the descriptors' fixed fields.
    lane: Vec<Lane>,
    /// The descriptors' registers ([`DescriptorTable`]).
    slots: DescriptorTable,
    /// The partial barrier and conflict detection ([`Barrier`]).
    barrier: Barrier,
    /// The fast path's run ([`FastRun`]): lane `i`'s receive labelled `k + i`, registered.
    fast_run: FastRun,
    fp_ready: DFF<Bit>,
    umq_cam: UnexpectedCam,
    // Reads and searches that join blocks.
    /// The link after the run's last receive (one port: lane `count - 1`'s `next`).
    run_last: Select<16>,
    run_last_lane: OneHotPointers,
    /// The run's last receive (one port: lane `count - 1`'s slot).
    run_last_slot: Select<16>,
    /// Whether the run's last receive has a successor (lane `count - 1`'s flag).
    run_last_has_next: Select<1>,
    free_slot: LowestSet,
    /// The lowest lane whose scanned slot hit.
    cancel_lane: LowestSet,
    /// The valid flag of the slot each lane read last cycle in a cancel's scan.
    scan_valid: Select<1>,
    /// The found receive's list, by pointer (its links are lane 0's reads).
    cancel_list: Select<16>,
    /// The block's unmatched messages into the UMQ ([`UmqPlacement`]).
    umq_place: UmqPlacement,
    // Per-lane combinational values.
    /// Per lane: its message's lists in the three hashed indexes ([`ListHash`]).
    lane_hash: Vec<ListHash>,
    // Block-wide combinational values.
    g_done: Signal<Local, Bit>,
    g_shared: Signal<Local, Bit>,
    g_fast_now: Signal<Local, Bit>,
    /// The unlink's second stage writes this cycle.
    g_unlinking: Signal<Local, Bit>,
    /// Whether the command on the ports has a field wider than generated ([`CommandWidth`]).
    command_width: CommandWidth,
    /// The unlink units, one per bank ([`UnlinkUnits`]).
    unlink: UnlinkUnits,
    _lanes: usize,
    _descriptors: usize,
    _banks: usize,
    /// 1 when the unlink units split on "all done" ([`UnlinkUnits::splits`]), else 0: the
    /// loop that drives their split inputs, so "all done" runs beside their grants, not
    /// in front of them.
    _unlink_split: usize,
}

impl ThreadArray {
    /// A thread array of `shape` (checked with [`check_shape`]).
    pub fn new(shape: &ThreadArrayShape) -> Self {
        let ThreadArrayShape { lanes: n, descriptors: d, head_bits: h, unexpected: u, fast_path, fields } =
            *shape;
        check_shape(n, d, h, u).unwrap_or_else(|e| panic!("{e}"));
        check_fields(fields).unwrap_or_else(|e| panic!("{e}"));
        let nb = shape.banks();
        let pointer_bits = bits_to_hold(d);
        ThreadArray {
            clock: Default::default(),
            reset: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd: Default::default(),
            msg_comm: signals(n),
            msg_src: signals(n),
            msg_tag: signals(n),
            msg_handle: signals(n),
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
            comm_keep: k(low_bits(fields.comm)),
            src_keep: k(low_bits(fields.src)),
            tag_keep: k(low_bits(fields.tag)),
            handle_keep: k(low_bits(fields.handle)),
            both_list: k(shape.both_list()),
            lane_index: (0..n).map(|i| k(i as u64)).collect(),
            lane_pointer1: (0..n).map(|i| k(i as u64 + 1)).collect(),
            lane_hash: (0..n).map(|_| ListHash::new(shape.bins())).collect(),
            zero16: k(0),
            one8: k(1),
            two8: k(2),
            k_matched: k(LANE_MATCHED),
            ctl: Controller::new(shape),
            ends: ListEnds::new(n, nb, shape.bins() as usize, h, pointer_bits),
            lane: (0..n).map(|i| Lane::new(i, d, shape.both_list(), fields)).collect(),
            barrier: Barrier::new(n),
            slots: DescriptorTable::new(n, d, nb, fast_path),
            fast_run: FastRun::new(n, d),
            fp_ready: Default::default(),
            umq_cam: UnexpectedCam::new(u).with_fields(fields),
            run_last: Select::shared(n, 1),
            run_last_lane: OneHotPointers::new(1, n),
            run_last_slot: Select::shared(n, 1),
            run_last_has_next: Select::shared(n, 1),
            free_slot: LowestSet::new(d),
            cancel_lane: LowestSet::new(n),
            scan_valid: Select::shared(d, n),
            cancel_list: Select::shared(d, 1),
            umq_place: UmqPlacement::new(n, u),
            command_width: CommandWidth::new(n, fields),
            g_done: Default::default(),
            g_shared: Default::default(),
            g_fast_now: Default::default(),
            g_unlinking: Default::default(),
            unlink: UnlinkUnits::new(n, nb),
            _lanes: n,
            _unlink_split: UnlinkUnits::splits(n) as usize,
            _descriptors: d,
            _banks: nb,
        }
    }
}

impl Logic for ThreadArray {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fp_ready);
        self.ctl.clock.next = self.clock.val();
        self.ctl.reset.next = self.reset.val();
        self.ends.clock.next = self.clock.val();
        self.umq_cam.clock.next = self.clock.val();
        self.cmd_ready.next = self.ctl.ready.val();
        self.resp_valid.next = self.ctl.responding.val();
        self.resp_kind.next = self.ctl.kind.val();
        self.resp_recv.next = self.ctl.recv.val();
        self.resp_msg.next = self.ctl.msg.val();
        self.resp_src.next = self.ctl.msg_src.val();
        self.resp_tag.next = self.ctl.msg_tag.val();
        self.umq_count.next = self.umq_cam.count.val();

        // ---- The UMQ: searched with the command being accepted (registered: the UMQ is
        // still while idle), written by the block's tail ([`UmqPlacement`]). ----
        self.umq_cam.search_comm.next = self.cmd.comm.val();
        self.umq_cam.search_src.next = self.cmd.src.val();
        self.umq_cam.search_tag.next = self.cmd.tag.val();
        self.umq_cam.search_src_any.next = self.cmd.src_any.val();
        self.umq_cam.search_tag_any.next = self.cmd.tag_any.val();
        self.umq_cam.remove_first.next = self.ctl.umq_remove.val();
        self.umq_cam.clear.next = self.ctl.clearing.val();
        self.umq_cam.insert.next = self.umq_place.write.val();
        self.umq_place.clock.next = self.clock.val();
        self.umq_place.count.next = self.umq_cam.count.val();
        self.umq_place.place.next = self.ctl.place.val();
        self.umq_place.insert.next = self.ctl.umq_insert.val();
        self.umq_place.reset.next = self.reset.val();
        for i in 0..self._lanes {
            self.umq_place.unmatched[i].next =
                self.lane[i].valid.val() & (self.lane[i].kind.val() != self.k_matched.val());
            self.umq_place.comm[i].next = self.lane[i].comm.val();
            self.umq_place.src[i].next = self.lane[i].src.val();
            self.umq_place.tag[i].next = self.lane[i].tag.val();
            self.umq_place.handle[i].next = self.lane[i].handle.val();
        }
        self.umq_cam.insert_comm.next = self.umq_place.write_comm.val();
        self.umq_cam.insert_src.next = self.umq_place.write_src.val();
        self.umq_cam.insert_tag.next = self.umq_place.write_tag.val();
        self.umq_cam.insert_handle.next = self.umq_place.write_handle.val();

        // ---- The descriptors' valid flags: the scan's reads, the lowest free slot. ----
        for s in 0..self._descriptors {
            self.scan_valid.entries[s].next = self.slots.valid[s].val().into();
            self.cancel_list.entries[s].next = self.slots.list[s].val();
            self.free_slot.bits[s].next = !self.slots.valid[s].val();
        }

        // ---- Lanes ([`Lane`]): messages, posted fields, cancel scan, hashes, walks, reads.
        for i in 0..self._lanes {
            self.lane[i].clock.next = self.clock.val();
            self.lane[i].reset.next = self.reset.val();
            self.lane[i].posting.next = self.ctl.posting.val();
            self.lane[i].post_slot.next = self.ctl.alloc.val();
            self.lane[i].post_comm.next = self.ctl.comm.val();
            self.lane[i].post_src.next = self.ctl.src.val();
            self.lane[i].post_tag.next = self.ctl.tag.val();
            self.lane[i].post_src_any.next = self.ctl.src_any.val();
            self.lane[i].post_tag_any.next = self.ctl.tag_any.val();
            self.lane[i].post_label.next = self.ctl.post_label.val();
            self.lane[i].post_handle.next = self.ctl.handle.val();
            self.lane[i].start.next = self.ctl.start.val();
            self.lane[i].has_message.next = self.lane_index[i].val() < self.cmd.count.val();
            self.lane[i].message_comm.next = self.msg_comm[i].val() & self.comm_keep.val();
            self.lane[i].message_src.next = self.msg_src[i].val() & self.src_keep.val();
            self.lane[i].message_tag.next = self.msg_tag[i].val() & self.tag_keep.val();
            self.lane[i].message_handle.next = self.msg_handle[i].val() & self.handle_keep.val();
            // The tail's first cycle: the messages past the UMQ's room answer overflow.
            self.lane[i].overflow.next = self.ctl.place.val() & self.umq_place.overflow[i].val();
            self.lane[i].set_slot.next = false;
            self.lane[i].slot_value.next = self.ctl.found_slot.val();
            self.lane_kind[i].next = self.lane[i].kind.val();
            self.lane_recv[i].next = self.lane[i].recv.val();
            // A cancel's scan: lane `i` reads slot `scan_base + i` of its handle copy.
            self.lane[i].scanning.next = self.ctl.scanning.val();
            self.lane[i].scan_address.next = self.ctl.scan_base.val() + self.lane_pointer1[i].val();
            self.scan_valid.pointers[i].next = self.ctl.scan_data_base.val() + self.lane_pointer1[i].val();
            self.lane[i].scan_check.next =
                self.ctl.scan_data_active.val() & self.scan_valid.values[i].val().any();
            self.lane[i].cancel_handle.next = self.ctl.handle.val();
            self.cancel_lane.bits[i].next = self.lane[i].scan_hit.val();
            self.lane_hash[i].comm.next = self.lane[i].comm.val();
            self.lane_hash[i].src.next = self.lane[i].src.val();
            self.lane_hash[i].tag.next = self.lane[i].tag.val();
            self.lane[i].list_exact.next = self.lane_hash[i].exact.val();
            self.lane[i].list_any_src.next = self.lane_hash[i].any_src.val();
            self.lane[i].list_any_tag.next = self.lane_hash[i].any_tag.val();
            self.lane[i].list_both.next = self.both_list.val();
            self.lane[i].occupied.next = self.ends.occupied.val();
            self.ends.head_address[i].next = self.lane[i].head_address.val();
            self.lane[i].head.next = self.ends.head[i].val();
            self.slots.walk_pointer[i].next = self.lane[i].read_pointer.val();
            self.lane[i].read_valid.next = self.slots.walk_valid[i].val();
            self.lane[i].read_taken.next = self.slots.walk_taken[i].val();
            self.lane[i].read_next.next = self.slots.walk_next[i].val();
            self.lane[i].read_more.next = self.slots.walk_more[i].val();
        }
        self.lane[0].set_slot.next = self.ctl.select_found.val();

        // ---- Partial barrier and conflict detection ([`Barrier`]). ----
        self.g_unlinking.next = false;
        for b in 0..self._banks {
            if self.unlink.writing[b].val() {
                self.g_unlinking.next = true;
            }
        }
        self.barrier.unlinking.next = self.g_unlinking.val();
        for i in 0..self._lanes {
            self.barrier.valid[i].next = self.lane[i].valid.val();
            self.barrier.booked[i].next = self.lane[i].booked.val();
            self.barrier.done[i].next = self.lane[i].done.val();
            self.barrier.candidate[i].next = self.lane[i].candidate.val();
            self.barrier.pending[i].next = self.lane[i].pending.val();
            self.barrier.slow[i].next = self.lane[i].slow.val();
        }
        self.g_done.next = self.barrier.all_done.val();

        // ---- Fast path: all lanes booked lane 0's receive k, and k + i exist ([`FastRun`]:
        // registered, ready a cycle after lane 0 has booked). ----
        self.fp_ready.d.next = self.lane[0].booked.val();
        self.fast_run.clock.next = self.clock.val();
        self.fast_run.posting.next = self.ctl.posting.val();
        self.fast_run.post_slot.next = self.ctl.alloc.val();
        self.fast_run.post_seq.next = self.ctl.post_seq.val();
        self.fast_run.lead_read_pointer.next = self.lane[0].read_pointer.val();
        self.fast_run.lead_hit.next = self.lane[0].hit.val();
        self.fast_run.lead_best.next = self.lane[0].best.val();
        self.fast_run.lead_entry_label.next = self.lane[0].entry_label.val();
        self.fast_run.lead_best_label.next = self.lane[0].best_label.val();
        self.fast_run.lead_first_walk.next = self.lane[0].first_walk.val();
        for s in 0..self._descriptors {
            self.fast_run.valid[s].next = self.slots.valid[s].val();
            self.fast_run.seq[s].next = self.slots.seq[s].val();
            self.fast_run.label_low[s].next = self.slots.label[s].val().get_bits::<16>(0);
        }
        for i in 0..self._lanes {
            self.fast_run.target_low[i].next = self.lane[i].target.val();
            // The run's targets follow lane 0's candidate.
            self.lane[i].run_target_load.next = self.lane[0].first_walk.val();
            self.lane[i].run_target.next = self.fast_run.next_target[i].val();
            self.fast_run.lane_valid[i].next = self.lane[i].valid.val();
        }
        self.g_shared.next = self.fast_path.val()
            & (self.ctl.count.val() >= self.two8.val())
            & (self.lane[0].candidate.val() != self.zero16.val())
            & self.barrier.all_share_first.val()
            & self.fast_run.complete.val();
        for i in 0..self._lanes {
            self.run_last_lane.bits[i].next =
                self.lane_index[i].val() + self.one8.val() == self.ctl.count.val();
            self.run_last.entries[i].next = self.slots.next_of[i].val();
            self.run_last_has_next.entries[i].next = self.slots.has_next_of[i].val().into();
            self.run_last_slot.entries[i].next = self.lane[i].slot.val();
        }
        self.run_last.pointers[0].next = self.run_last_lane.pointers[0].val();
        self.run_last_has_next.pointers[0].next = self.run_last_lane.pointers[0].val();
        self.run_last_slot.pointers[0].next = self.run_last_lane.pointers[0].val();

        // ---- Resolution: take the candidate, the run's receive, or walk again. ----
        self.g_fast_now.next = false;
        for i in 0..self._lanes {
            self.lane[i].barrier.next = self.barrier.barrier[i].val();
            self.lane[i].resolving.next = self.barrier.resolving[i].val();
            self.lane[i].go.next =
                self.barrier.all_booked.val() & (self.fp_ready.q.val() | !self.fast_path.val());
            self.lane[i].shared.next = self.g_shared.val();
            self.lane[i].run_slot.next = self.fast_run.lane_slot[i].val();
            self.lane[i].prev_done.next = self.barrier.prev_done[i].val();
            if self.lane[i].fast_take.val() {
                self.g_fast_now.next = true;
            }
            self.slots.lane_took[i].next = self.lane[i].took.val();
            self.slots.lane_slot[i].next = self.lane[i].slot.val();
        }

        // ---- The descriptors' registers ([`DescriptorTable`]): takes, posts, removals,
        // link writes and frees. ----
        self.slots.clock.next = self.clock.val();
        self.slots.run_taken.next = self.g_fast_now.val();
        for s in 0..self._descriptors {
            self.slots.in_run[s].next = self.fast_run.in_run[s].val();
        }
        self.slots.insert.next = self.ctl.posting.val();
        self.slots.insert_slot.next = self.ctl.alloc.val();
        self.slots.insert_label.next = self.ctl.post_label.val();
        self.slots.insert_seq.next = self.ctl.post_seq.val();
        self.slots.insert_list.next = self.ctl.post_list.val();
        self.slots.insert_tail.next = self.ends.tail.val();
        self.slots.remove.next = self.ctl.removing.val();
        self.slots.remove_slot.next = self.ctl.alloc.val();
        self.slots.clear.next = self.ctl.clearing.val();
        self.slots.free_taken.next = self.ctl.finish.val();
        for b in 0..self._banks {
            self.slots.unlink_writing[b].next = self.unlink.writing[b].val();
            self.slots.unlink_front[b].next = self.unlink.front[b].val();
            self.slots.unlink_back[b].next = self.unlink.back[b].val();
            self.slots.unlink_prev[b].next = self.unlink.prev[b].val();
            self.slots.unlink_next[b].next = self.unlink.next[b].val();
            self.slots.unlink_has_prev[b].next = self.unlink.has_prev[b].val();
            self.slots.unlink_has_next[b].next = self.unlink.has_next[b].val();
        }

        // ---- Unlinking ([`UnlinkUnits`]): a slow lane's receive may leave at once, the
        // others' when every lane is done; a cancel's loads lane 0's reads (the scan's). ----
        self.unlink.clock.next = self.clock.val();
        for i in 0..self._lanes {
            self.unlink.eligible[i].next =
                self.lane[i].pending.val() & (self.g_done.val() | self.lane[i].slow.val());
            self.unlink.list[i].next = self.lane[i].taken_list.val();
            self.unlink.slot[i].next = self.lane[i].slot.val();
            self.unlink.prev_of[i].next = self.slots.prev_of[i].val();
            self.unlink.next_of[i].next = self.slots.next_of[i].val();
            self.unlink.has_prev_of[i].next = self.slots.has_prev_of[i].val();
            self.unlink.has_next_of[i].next = self.slots.has_next_of[i].val();
            self.lane[i].granted.next = self.unlink.granted[i].val();
            self.unlink.pending[i].next = self.lane[i].pending.val();
        }
        for once in 0..self._unlink_split {
            self.unlink.all_done[once].next = self.g_done.val();
            for i in 0..self._lanes {
                self.unlink.eligible[i].next = self.lane[i].pending.val();
                self.unlink.slow_eligible[i].next = self.lane[i].pending.val() & self.lane[i].slow.val();
            }
        }
        self.unlink.run_taken.next = self.ctl.fast_taken.val();
        self.unlink.run_next.next = self.run_last.values[0].val();
        self.unlink.run_has_next.next = self.run_last_has_next.values[0].val().any();
        self.unlink.run_back.next = self.run_last_slot.values[0].val();
        self.unlink.load.next = self.ctl.selecting.val();
        self.unlink.load_slot.next = self.ctl.alloc.val();
        self.unlink.load_list.next = self.cancel_list.values[0].val();
        self.unlink.load_prev.next = self.slots.prev_of[0].val();
        self.unlink.load_next.next = self.slots.next_of[0].val();
        self.unlink.load_has_prev.next = self.slots.has_prev_of[0].val();
        self.unlink.load_has_next.next = self.slots.has_next_of[0].val();
        self.unlink.clear.next = self.reset.val();
        self.cancel_list.pointers[0].next = self.ctl.alloc.val();

        // ---- The index tables ([`ListEnds`]): a post's tail read and append, the flush's
        // clearing pass, the unlink units' writes. ----
        self.ends.tail_list.next = self.ctl.post_list_now.val();
        self.ends.insert.next = self.ctl.posting.val();
        self.ends.insert_list.next = self.ctl.post_list.val();
        self.ends.insert_slot.next = self.ctl.alloc.val();
        self.ends.clearing.next = self.ctl.clearing_words.val();
        self.ends.clear_at.next = self.ctl.clear_at.val();
        for b in 0..self._banks {
            self.ends.unlink_writing[b].next = self.unlink.writing[b].val();
            self.ends.unlink_list[b].next = self.unlink.write_list[b].val();
            self.ends.unlink_prev[b].next = self.unlink.prev[b].val();
            self.ends.unlink_next[b].next = self.unlink.next[b].val();
            self.ends.unlink_has_prev[b].next = self.unlink.has_prev[b].val();
            self.ends.unlink_has_next[b].next = self.unlink.has_next[b].val();
        }

        // ---- Field widths: a command with a field wider than generated (module docs). ----
        self.command_width.op.next = self.cmd.op.val();
        self.command_width.comm.next = self.cmd.comm.val();
        self.command_width.src.next = self.cmd.src.val();
        self.command_width.tag.next = self.cmd.tag.val();
        self.command_width.src_any.next = self.cmd.src_any.val();
        self.command_width.tag_any.next = self.cmd.tag_any.val();
        self.command_width.handle.next = self.cmd.handle.val();
        self.command_width.count.next = self.cmd.count.val();
        for i in 0..self._lanes {
            self.command_width.msg_comm[i].next = self.msg_comm[i].val();
            self.command_width.msg_src[i].next = self.msg_src[i].val();
            self.command_width.msg_tag[i].next = self.msg_tag[i].val();
            self.command_width.msg_handle[i].next = self.msg_handle[i].val();
        }

        // ---- The controller ([`Controller`]). ----
        self.ctl.cmd_valid.next = self.cmd_valid.val();
        self.ctl.cmd.op.next = self.cmd.op.val();
        self.ctl.cmd.comm.next = self.cmd.comm.val();
        self.ctl.cmd.src.next = self.cmd.src.val();
        self.ctl.cmd.tag.next = self.cmd.tag.val();
        self.ctl.cmd.src_any.next = self.cmd.src_any.val();
        self.ctl.cmd.tag_any.next = self.cmd.tag_any.val();
        self.ctl.cmd.handle.next = self.cmd.handle.val();
        self.ctl.cmd.count.next = self.cmd.count.val();
        self.ctl.cmd_wide.next = self.command_width.wide.val();
        self.ctl.resp_ready.next = self.resp_ready.val();
        self.ctl.all_done.next = self.g_done.val();
        self.ctl.unlinks_left.next = self.unlink.crowded.val();
        self.ctl.fast_now.next = self.g_fast_now.val();
        self.ctl.place_found.next = self.umq_place.found.val();
        self.ctl.place_more.next = self.umq_place.more.val();
        self.ctl.any_unmatched.next = self.umq_place.any_unmatched.val();
        self.ctl.umq_hit.next = self.umq_cam.hit.val();
        self.ctl.umq_hit_handle.next = self.umq_cam.hit_handle.val();
        self.ctl.umq_hit_src.next = self.umq_cam.hit_src.val();
        self.ctl.umq_hit_tag.next = self.umq_cam.hit_tag.val();
        self.ctl.free_found.next = self.free_slot.found.val();
        self.ctl.free_pointer.next = self.free_slot.pointer.val();
        self.ctl.scan_hit.next = self.cancel_lane.found.val();
        self.ctl.scan_hit_lane.next = self.cancel_lane.pointer.val();
    }
}

/// The thread array's Verilog, top module `top` (generated on a large stack:
/// [`crate::generate::on_big_stack`]).
pub fn thread_array_verilog(shape: &ThreadArrayShape) -> String {
    let shape = *shape;
    crate::generate::on_big_stack("thread array", move || {
        let mut uut = ThreadArray::new(&shape);
        uut.connect_all();
        // rust-hdl names array elements `name$i`; legal Verilog, but the C++ that
        // Verilator makes of it (and many tools' port maps) want plain identifiers.
        crate::primitives::trees::isolate_top_locals(&generate_verilog(&uut)).replace('$', "_")
    })
}
