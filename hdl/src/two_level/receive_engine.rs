//! The receive engine: a posted receive queue and an unexpected message queue (each a
//! [`TwoLevelQueue`]) behind a valid/ready command stream and a valid/ready response
//! stream.
//!
//! Commands (`cmd_op`): post a receive (search the UMQ, else queue in the PRQ), a message
//! arrives (search the PRQ, else queue in the UMQ), cancel a receive by handle (search the
//! PRQ by handle), probe (search the UMQ, leave the message), matched probe (search the
//! UMQ and take the message). A receive's `ANY_SOURCE`/`ANY_TAG` travel as wildcard flags:
//! stored with it in the PRQ, applied to the search when it scans the UMQ. Op codes 8–15
//! answer `error` and change nothing.
//!
//! Field widths (`fields.rs`): the ports carry 32-bit communicators, sources, tags and
//! handles; the queues store each at its generated width. A command with a field wider
//! than that answers `error` at issue and changes nothing, so stored fields never alias.
//!
//! Flush (op 7) empties both queues between jobs without the reset port. It is a command
//! like the others, so it takes effect in order: the commands before it finish (a list walk
//! or the data mover under way completes first, as `cmd_ready` holds it back) and their
//! responses come out first. It is decided at issue `I` and answered `flushed` at `I + 1`;
//! in that cycle the `clearing` register resets both queues, so the next command (issued at
//! `I + 2` at the earliest) finds them empty. Labels restart, the completion counters
//! clear and a parked wait is dropped (it will never be answered; the host completes it
//! with the flush). Accepted at `A`, a flush into an idle engine has emptied it by the end
//! of `A + 2`.
//!
//! Completion unit (FPL 2018): every match (a posted receive or a matched probe taking a
//! message, a message taking a receive) counts one completed request in the counter of
//! its *class*, the low 2 bits of its communicator. Four classes, not one counter per
//! communicator: 65,536 32-bit counters would be a block RAM read in the decision cycle,
//! and an MPI library picks its own context ids, so it can keep the communicators it waits
//! on in different classes (or wait on a class and count the rest itself).
//! - `wait(class, count)` (op 5; class in `cmd_comm`, count in `cmd_handle`) answers
//!   `reached` at once if the class's counter has reached `count` (serial arithmetic on 32
//!   bits), else `parked`: the wait is kept, other commands go on, and the match that
//!   brings the counter to `count` is followed by a second response, `reached`, in the
//!   cycle after its own is taken — one cycle added to that match. One wait is parked at a
//!   time; another wait meanwhile answers `error`.
//! - `test(class, count)` (op 6) answers `reached` or `not reached` at once.
//! - Both carry the counter in `resp_msg` and `count` in `resp_recv`. `reset` clears the
//!   counters and the parked wait.
//!
//! Responses (`resp_kind`): matched (receive and message handles), queued, cancelled, not
//! found, probe found (message handle), probe found nothing, overflow — the queue the
//! operation needed was full, the operation was not applied, and the host keeps it (to
//! retry or to match in software; nothing is dropped) — error, and the completion unit's
//! reached, not reached and parked.
//!
//! Pipeline (cycle `A` accepts the command into the command register; it *issues* at the
//! first cycle `I > A` the queues allow):
//! - `I`: the searched queue's CAM compares every slot (with the key its banks loaded at
//!   `A`, beside the command register); the command moves on to the in-flight register,
//!   which the action and the lists' search read from then on, so the command register
//!   takes the next command at `I + 1`.
//! - `W`, the cycle the queue answers (`I + 2` from the CAM: the compare registers the bank
//!   hits, the next edge registers the oldest hit and reads its fields from RAM, see
//!   `cam.rs`): the engine decides the response and the action. The response and an
//!   insert go into registers: the response is valid at `W + 1`, and the insert reaches
//!   the other queue then. A removal goes at once to the queue that answered, which
//!   registers it and removes the answer at the end of `W + 1`; its CAM announces the
//!   removal to its banks a cycle ahead (`cam.rs`, "Removal"). So a CAM hit answers 4
//!   cycles after acceptance.
//! - The next command issues in that same cycle `W + 1` when both queues say the action is
//!   done at its edge (`quick`: a CAM insert, a CAM removal that needs no data mover,
//!   none): its search sees the CAM after the removal and the insert (see `cam.rs`), so a
//!   post that missed is found by the next arrival and a removed entry is not. After a
//!   list removal it issues a cycle later (the lists' counters settle), after a list
//!   insert or a data move when the queue is idle again. Back-to-back CAM hits therefore take
//!   3 cycles each, against 5 when every command waited for the last response: the decision cycle and
//!   the action cycle overlap the next command's acceptance and search.
//! - A wait, a test, a flush or an unknown op code needs no search: it is decided at `I`,
//!   answered at `I + 1`.
//!
//! Every command carries an 8-bit id (`cmd_id`) that its response echoes (`resp_id`); a
//! woken wait's late `reached` echoes the wait's id. So a host can tie answers to commands
//! without counting, and a shell can check it lost none.
//!
//! Handshakes come from registers: `cmd_ready` is high while the command register is
//! empty, no wait is being woken and no queue is in a multi-cycle step (`blocking`; so a
//! host that waits for each response sees the same acceptance cycles as before the
//! overlap). `resp_valid` is the response register's; a second response register (a skid
//! buffer) takes a decision while the host holds the first, and a command issues only
//! while one of the two is free, so no decision ever waits for the host.
//!
//! Each queue's lists give every entry they take the next posting label of that queue, so
//! they can order their candidates; labels compare by serial-number arithmetic and are
//! kept within half the label space (`parallel_lists`), which an insert that would break
//! that answers overflow. Reset and flush restart them.

use crate::fields::FieldWidths;
use crate::two_level::queue::TwoLevelQueue;
use rust_hdl::prelude::*;

/// The engine's sizes, chosen when the Verilog is generated; only the list address width
/// is a type parameter inside (rust-hdl sizes registers and RAMs by type), so
/// [`receive_engine_verilog`] holds one instantiation per width and nothing per size.
pub use tagmatch_config::{EngineShape, LIST_ADDRESS_BITS};

pub const OP_POST: u64 = 0;
pub const OP_ARRIVE: u64 = 1;
pub const OP_CANCEL: u64 = 2;
pub const OP_PROBE: u64 = 3;
pub const OP_MATCHED_PROBE: u64 = 4;
pub const OP_WAIT: u64 = 5;
pub const OP_TEST: u64 = 6;
pub const OP_FLUSH: u64 = 7;

pub const RESP_MATCHED: u64 = 0;
pub const RESP_QUEUED: u64 = 1;
pub const RESP_CANCELLED: u64 = 2;
pub const RESP_NOT_FOUND: u64 = 3;
pub const RESP_PROBE_FOUND: u64 = 4;
pub const RESP_PROBE_NONE: u64 = 5;
pub const RESP_OVERFLOW: u64 = 6;
/// An op code the engine does not know (8–15), or a wait while another is parked; nothing
/// changed.
pub const RESP_ERROR: u64 = 7;
pub const RESP_REACHED: u64 = 8;
pub const RESP_NOT_REACHED: u64 = 9;
pub const RESP_PARKED: u64 = 10;
pub const RESP_FLUSHED: u64 = 11;

/// Completion classes: the low bits of the communicator.
pub const COMPLETION_CLASSES: usize = 4;

#[derive(LogicBlock)]
pub struct ReceiveEngine<const A: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties both queues, restarts the labels, drops any response.
    pub reset: Signal<In, Bit>,
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    pub cmd_op: Signal<In, Bits<4>>,
    pub cmd_comm: Signal<In, Bits<32>>,
    pub cmd_src: Signal<In, Bits<32>>,
    pub cmd_tag: Signal<In, Bits<32>>,
    pub cmd_src_any: Signal<In, Bit>,
    pub cmd_tag_any: Signal<In, Bit>,
    pub cmd_handle: Signal<In, Bits<32>>,
    /// The host's tag for the command, echoed in `resp_id`.
    pub cmd_id: Signal<In, Bits<8>>,
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_kind: Signal<Out, Bits<4>>,
    pub resp_recv: Signal<Out, Bits<32>>,
    pub resp_msg: Signal<Out, Bits<32>>,
    /// The matched or probed entry's source and tag (a probe's status).
    pub resp_src: Signal<Out, Bits<32>>,
    pub resp_tag: Signal<Out, Bits<32>>,
    pub resp_id: Signal<Out, Bits<8>>,
    pub prq_count: Signal<Out, Bits<16>>,
    pub umq_count: Signal<Out, Bits<16>>,
    /// Diagnostics: CAM occupancy of each queue.
    pub prq_cam_count: Signal<Out, Bits<16>>,
    pub umq_cam_count: Signal<Out, Bits<16>>,
    prq_queue: TwoLevelQueue<A>,
    umq_queue: TwoLevelQueue<A>,
    /// The command register: accepted, not yet issued.
    c_valid: DFF<Bit>,
    c_op: DFF<Bits<4>>,
    c_comm: DFF<Bits<32>>,
    c_src: DFF<Bits<32>>,
    c_tag: DFF<Bits<32>>,
    c_src_any: DFF<Bit>,
    c_tag_any: DFF<Bit>,
    c_handle: DFF<Bits<32>>,
    c_id: DFF<Bits<8>>,
    /// The accepted command has a field wider than generated: it is answered `error` at
    /// issue, like an unknown op code (`fields.rs`).
    c_wide: DFF<Bit>,
    /// The in-flight register: the issued command until its action is done (`inflight`:
    /// its search has not answered yet).
    inflight: DFF<Bit>,
    p_op: DFF<Bits<4>>,
    p_comm: DFF<Bits<32>>,
    p_src: DFF<Bits<32>>,
    p_tag: DFF<Bits<32>>,
    p_src_any: DFF<Bit>,
    p_tag_any: DFF<Bit>,
    p_handle: DFF<Bits<32>>,
    p_id: DFF<Bits<8>>,
    /// The response register (the ports) and the skid register behind it.
    out_valid: DFF<Bit>,
    kind: DFF<Bits<4>>,
    recv: DFF<Bits<32>>,
    msg: DFF<Bits<32>>,
    r_src: DFF<Bits<32>>,
    r_tag: DFF<Bits<32>>,
    r_id: DFF<Bits<8>>,
    s_valid: DFF<Bit>,
    s_kind: DFF<Bits<4>>,
    s_recv: DFF<Bits<32>>,
    s_msg: DFF<Bits<32>>,
    s_src: DFF<Bits<32>>,
    s_tag: DFF<Bits<32>>,
    s_id: DFF<Bits<8>>,
    /// The action decided with the response, applied in its first cycle: the removal goes
    /// to the queue in the decision's cycle (it registers it), the insert from a register.
    remove_prq: Signal<Local, Bit>,
    remove_umq: Signal<Local, Bit>,
    insert_prq: DFF<Bit>,
    insert_umq: DFF<Bit>,
    /// The completion unit: a counter per class, the parked wait, and whether the last
    /// decided match ends it (its answer then follows that match's response).
    completions: [DFF<Bits<32>>; COMPLETION_CLASSES],
    w_valid: DFF<Bit>,
    w_class: DFF<Bits<2>>,
    w_count: DFF<Bits<32>>,
    w_id: DFF<Bits<8>>,
    wake: DFF<Bit>,
    /// A flush issued last cycle: the queues reset in this one.
    clearing: DFF<Bit>,
    /// The queues' reset: the port or a flush.
    clear_queues: Signal<Local, Bit>,
    /// Counters of the command register's class, the in-flight command's and the wait's.
    c_class_count: Signal<Local, Bits<32>>,
    p_class_count: Signal<Local, Bits<32>>,
    wait_count: Signal<Local, Bits<32>>,
    is_match: Signal<Local, Bit>,
    /// Counter minus count (test and wait), and counter after this match minus the parked
    /// wait's count: below 2^31 means the count is reached (serial arithmetic).
    test_diff: Signal<Local, Bits<32>>,
    wake_diff: Signal<Local, Bits<32>>,
    /// The command register's op searches a queue; which queue each register's op uses.
    c_search: Signal<Local, Bit>,
    c_uses_prq: Signal<Local, Bit>,
    p_uses_prq: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    decide: Signal<Local, Bit>,
    /// The response decided this cycle (by the in-flight search, or at issue).
    new_resp: Signal<Local, Bit>,
    n_kind: Signal<Local, Bits<4>>,
    n_recv: Signal<Local, Bits<32>>,
    n_msg: Signal<Local, Bits<32>>,
    n_src: Signal<Local, Bits<32>>,
    n_tag: Signal<Local, Bits<32>>,
    n_id: Signal<Local, Bits<8>>,
    taken: Signal<Local, Bit>,
    /// The command on the ports has a field wider than generated.
    cmd_wide: Signal<Local, Bit>,
    /// The bits of each envelope field the command register keeps: its generated width
    /// (the communicator at least the class's 2 bits), so the bits above are constant
    /// zero from there on and synthesis removes them. The handle is kept whole: a wait's
    /// count is 32 bits.
    comm_keep: Constant<Bits<32>>,
    src_keep: Constant<Bits<32>>,
    tag_keep: Constant<Bits<32>>,
    /// The bits above each field's generated width.
    comm_over: Constant<Bits<32>>,
    src_over: Constant<Bits<32>>,
    tag_over: Constant<Bits<32>>,
    handle_over: Constant<Bits<32>>,
    half: Constant<Bits<32>>,
    class_index: [Constant<Bits<2>>; COMPLETION_CLASSES],
    op_post: Constant<Bits<4>>,
    op_arrive: Constant<Bits<4>>,
    op_cancel: Constant<Bits<4>>,
    op_probe: Constant<Bits<4>>,
    op_matched_probe: Constant<Bits<4>>,
    op_wait: Constant<Bits<4>>,
    op_test: Constant<Bits<4>>,
    op_flush: Constant<Bits<4>>,
    r_matched: Constant<Bits<4>>,
    r_queued: Constant<Bits<4>>,
    r_cancelled: Constant<Bits<4>>,
    r_not_found: Constant<Bits<4>>,
    r_probe_found: Constant<Bits<4>>,
    r_probe_none: Constant<Bits<4>>,
    r_overflow: Constant<Bits<4>>,
    r_error: Constant<Bits<4>>,
    r_reached: Constant<Bits<4>>,
    r_not_reached: Constant<Bits<4>>,
    r_parked: Constant<Bits<4>>,
    r_flushed: Constant<Bits<4>>,
    mode_envelope: Constant<Bits<2>>,
    mode_handle: Constant<Bits<2>>,
    one32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
}

impl<const A: usize> ReceiveEngine<A> {
    /// An engine of `shape` (whose list address width is `A`).
    pub fn new(shape: &EngineShape) -> Self {
        assert_eq!(shape.list_address_bits(), A, "the shape's list address width");
        let (cam_depth, lists, label_bits, fields) =
            (shape.cam_depth, shape.lists, shape.label_bits, shape.fields);
        let over =
            |bits: usize| -> Constant<Bits<32>> { Constant::new(FieldWidths::over_mask(bits).to_bits()) };
        let keep = |bits: usize| -> Constant<Bits<32>> {
            Constant::new((!FieldWidths::over_mask(bits) & 0xffff_ffff).to_bits())
        };
        let o = |v: u64| -> Constant<Bits<4>> { Constant::new(v.to_bits()) };
        let k = |v: u64| -> Constant<Bits<4>> { Constant::new(v.to_bits()) };
        let m = |v: u64| -> Constant<Bits<2>> { Constant::new(v.to_bits()) };
        ReceiveEngine {
            clock: Default::default(),
            reset: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd_op: Default::default(),
            cmd_comm: Default::default(),
            cmd_src: Default::default(),
            cmd_tag: Default::default(),
            cmd_src_any: Default::default(),
            cmd_tag_any: Default::default(),
            cmd_handle: Default::default(),
            cmd_id: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_kind: Default::default(),
            resp_recv: Default::default(),
            resp_msg: Default::default(),
            resp_src: Default::default(),
            resp_tag: Default::default(),
            resp_id: Default::default(),
            prq_count: Default::default(),
            umq_count: Default::default(),
            prq_cam_count: Default::default(),
            umq_cam_count: Default::default(),
            prq_queue: TwoLevelQueue::new(cam_depth, lists, fields, label_bits),
            umq_queue: TwoLevelQueue::new(cam_depth, lists, fields, label_bits),
            c_valid: Default::default(),
            c_op: Default::default(),
            c_comm: Default::default(),
            c_src: Default::default(),
            c_tag: Default::default(),
            c_src_any: Default::default(),
            c_tag_any: Default::default(),
            c_handle: Default::default(),
            c_id: Default::default(),
            c_wide: Default::default(),
            inflight: Default::default(),
            p_op: Default::default(),
            p_comm: Default::default(),
            p_src: Default::default(),
            p_tag: Default::default(),
            p_src_any: Default::default(),
            p_tag_any: Default::default(),
            p_handle: Default::default(),
            p_id: Default::default(),
            out_valid: Default::default(),
            kind: Default::default(),
            recv: Default::default(),
            msg: Default::default(),
            r_src: Default::default(),
            r_tag: Default::default(),
            r_id: Default::default(),
            s_valid: Default::default(),
            s_kind: Default::default(),
            s_recv: Default::default(),
            s_msg: Default::default(),
            s_src: Default::default(),
            s_tag: Default::default(),
            s_id: Default::default(),
            remove_prq: Default::default(),
            remove_umq: Default::default(),
            insert_prq: Default::default(),
            insert_umq: Default::default(),
            completions: array_init::array_init(|_| Default::default()),
            w_valid: Default::default(),
            w_class: Default::default(),
            w_count: Default::default(),
            w_id: Default::default(),
            wake: Default::default(),
            clearing: Default::default(),
            clear_queues: Default::default(),
            c_class_count: Default::default(),
            p_class_count: Default::default(),
            wait_count: Default::default(),
            is_match: Default::default(),
            test_diff: Default::default(),
            wake_diff: Default::default(),
            c_search: Default::default(),
            c_uses_prq: Default::default(),
            p_uses_prq: Default::default(),
            issue: Default::default(),
            decide: Default::default(),
            new_resp: Default::default(),
            n_kind: Default::default(),
            n_recv: Default::default(),
            n_msg: Default::default(),
            n_src: Default::default(),
            n_tag: Default::default(),
            n_id: Default::default(),
            taken: Default::default(),
            cmd_wide: Default::default(),
            comm_keep: keep(fields.comm.max(2)),
            src_keep: keep(fields.src),
            tag_keep: keep(fields.tag),
            comm_over: over(fields.comm),
            src_over: over(fields.src),
            tag_over: over(fields.tag),
            handle_over: over(fields.handle),
            half: Constant::new((1u64 << 31).to_bits()),
            class_index: array_init::array_init(|i| Constant::new((i as u64).to_bits())),
            op_post: o(OP_POST),
            op_arrive: o(OP_ARRIVE),
            op_cancel: o(OP_CANCEL),
            op_probe: o(OP_PROBE),
            op_matched_probe: o(OP_MATCHED_PROBE),
            op_wait: o(OP_WAIT),
            op_test: o(OP_TEST),
            op_flush: o(OP_FLUSH),
            r_matched: k(RESP_MATCHED),
            r_queued: k(RESP_QUEUED),
            r_cancelled: k(RESP_CANCELLED),
            r_not_found: k(RESP_NOT_FOUND),
            r_probe_found: k(RESP_PROBE_FOUND),
            r_probe_none: k(RESP_PROBE_NONE),
            r_overflow: k(RESP_OVERFLOW),
            r_error: k(RESP_ERROR),
            r_reached: k(RESP_REACHED),
            r_not_reached: k(RESP_NOT_REACHED),
            r_parked: k(RESP_PARKED),
            r_flushed: k(RESP_FLUSHED),
            mode_envelope: m(crate::two_level::bram_list::MODE_ENVELOPE),
            mode_handle: m(crate::two_level::bram_list::MODE_HANDLE),
            one32: Constant::new(1u64.to_bits()),
            zero32: Constant::new(0u64.to_bits()),
        }
    }
}

impl<const A: usize> Logic for ReceiveEngine<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, c_valid, c_op, c_comm, c_src, c_tag, c_src_any, c_tag_any, c_handle, c_id, c_wide,
            inflight, p_op, p_comm, p_src, p_tag, p_src_any, p_tag_any, p_handle, p_id, out_valid, kind,
            recv, msg, r_src, r_tag, r_id, s_valid, s_kind, s_recv, s_msg, s_src, s_tag, s_id, insert_prq,
            insert_umq, w_valid, w_class, w_count, w_id, wake, clearing
        );
        // The completion counters of the command's class, the in-flight command's and the
        // parked wait's.
        self.c_class_count.next = self.zero32.val();
        self.p_class_count.next = self.zero32.val();
        self.wait_count.next = self.zero32.val();
        for i in 0..COMPLETION_CLASSES {
            self.completions[i].clock.next = self.clock.val();
            self.completions[i].d.next = self.completions[i].q.val();
            if self.c_comm.q.val().get_bits::<2>(0) == self.class_index[i].val() {
                self.c_class_count.next = self.completions[i].q.val();
            }
            if self.p_comm.q.val().get_bits::<2>(0) == self.class_index[i].val() {
                self.p_class_count.next = self.completions[i].q.val();
            }
            if self.w_class.q.val() == self.class_index[i].val() {
                self.wait_count.next = self.completions[i].q.val();
            }
        }
        self.test_diff.next = self.c_class_count.val() - self.c_handle.q.val();
        self.wake_diff.next = self.p_class_count.val() + self.one32.val() - self.w_count.q.val();
        self.prq_queue.clock.next = self.clock.val();
        self.umq_queue.clock.next = self.clock.val();
        self.clear_queues.next = self.reset.val() | self.clearing.q.val();
        self.prq_queue.reset.next = self.clear_queues.val();
        self.umq_queue.reset.next = self.clear_queues.val();
        self.clearing.d.next = false;

        self.c_search.next = (self.c_op.q.val() < self.op_wait.val()) & !self.c_wide.q.val();
        // Fields wider than generated, on the ports (registered at acceptance): the
        // envelope of a post, an arrival or a probe (a receive's wildcard field excepted),
        // the handle of a post, an arrival or a cancel.
        self.cmd_wide.next = ((self.cmd_op.val() < self.op_wait.val())
            & (self.cmd_op.val() != self.op_cancel.val())
            & (((self.cmd_comm.val() & self.comm_over.val()) != self.zero32.val())
                | (!(self.cmd_src_any.val() & (self.cmd_op.val() != self.op_arrive.val()))
                    & ((self.cmd_src.val() & self.src_over.val()) != self.zero32.val()))
                | (!(self.cmd_tag_any.val() & (self.cmd_op.val() != self.op_arrive.val()))
                    & ((self.cmd_tag.val() & self.tag_over.val()) != self.zero32.val()))))
            | ((self.cmd_op.val() < self.op_probe.val())
                & ((self.cmd_handle.val() & self.handle_over.val()) != self.zero32.val()));
        self.c_uses_prq.next =
            (self.c_op.q.val() == self.op_arrive.val()) | (self.c_op.q.val() == self.op_cancel.val());
        self.p_uses_prq.next =
            (self.p_op.q.val() == self.op_arrive.val()) | (self.p_op.q.val() == self.op_cancel.val());
        self.is_match.next = ((self.p_op.q.val() == self.op_post.val()) & self.umq_queue.found.val())
            | ((self.p_op.q.val() == self.op_arrive.val()) & self.prq_queue.found.val())
            | ((self.p_op.q.val() == self.op_matched_probe.val()) & self.umq_queue.found.val());

        // Handshakes and issue, from registers and the queues' registered states.
        self.cmd_ready.next = !self.c_valid.q.val()
            & !self.wake.q.val()
            & !self.prq_queue.blocking.val()
            & !self.umq_queue.blocking.val();
        self.issue.next = self.c_valid.q.val()
            & !self.inflight.q.val()
            & !self.wake.q.val()
            & !(self.out_valid.q.val() & self.s_valid.q.val())
            & self.prq_queue.quick.val()
            & self.umq_queue.quick.val();
        self.decide.next = self.inflight.q.val()
            & ((self.p_uses_prq.val() & self.prq_queue.done.val())
                | (!self.p_uses_prq.val() & self.umq_queue.done.val()));
        self.taken.next = self.out_valid.q.val() & self.resp_ready.val();

        // Searches, from the command register: a message (arrive) or a handle (cancel)
        // against the PRQ; a receive's pattern, wildcards on the search side, against the UMQ.
        self.prq_queue.search.next = self.issue.val() & self.c_search.val() & self.c_uses_prq.val();
        self.umq_queue.search.next = self.issue.val() & self.c_search.val() & !self.c_uses_prq.val();
        // The queues load the key in the edge that accepts the command into the command
        // register (the same values), and search with it when it issues, a cycle later or
        // more: so each CAM bank keeps its own copy of the key (see `cam.rs`).
        self.prq_queue.key_load.next = self.cmd_valid.val() & self.cmd_ready.val();
        self.umq_queue.key_load.next = self.cmd_valid.val() & self.cmd_ready.val();
        self.prq_queue.search_mode.next = self.mode_envelope.val();
        if self.cmd_op.val() == self.op_cancel.val() {
            self.prq_queue.search_mode.next = self.mode_handle.val();
        }
        self.prq_queue.key.comm.next = self.cmd_comm.val() & self.comm_keep.val();
        self.prq_queue.key.src.next = self.cmd_src.val() & self.src_keep.val();
        self.prq_queue.key.tag.next = self.cmd_tag.val() & self.tag_keep.val();
        self.prq_queue.key.src_any.next = false;
        self.prq_queue.key.tag_any.next = false;
        self.prq_queue.key.handle.next = self.cmd_handle.val();
        self.umq_queue.search_mode.next = self.mode_envelope.val();
        self.umq_queue.key.comm.next = self.cmd_comm.val() & self.comm_keep.val();
        self.umq_queue.key.src.next = self.cmd_src.val() & self.src_keep.val();
        self.umq_queue.key.tag.next = self.cmd_tag.val() & self.tag_keep.val();
        self.umq_queue.key.src_any.next = self.cmd_src_any.val();
        self.umq_queue.key.tag_any.next = self.cmd_tag_any.val();
        self.umq_queue.key.handle.next = self.cmd_handle.val();
        // Inserts, from registers: the receive (with its wildcard flags) into the PRQ, the
        // message into the UMQ. (The removal of an answer goes at the end of `update`.)
        self.prq_queue.insert.next = self.insert_prq.q.val();
        self.prq_queue.r#in.comm.next = self.p_comm.q.val();
        self.prq_queue.r#in.src.next = self.p_src.q.val();
        self.prq_queue.r#in.tag.next = self.p_tag.q.val();
        self.prq_queue.r#in.src_any.next = self.p_src_any.q.val();
        self.prq_queue.r#in.tag_any.next = self.p_tag_any.q.val();
        self.prq_queue.r#in.handle.next = self.p_handle.q.val();
        self.umq_queue.insert.next = self.insert_umq.q.val();
        self.umq_queue.r#in.comm.next = self.p_comm.q.val();
        self.umq_queue.r#in.src.next = self.p_src.q.val();
        self.umq_queue.r#in.tag.next = self.p_tag.q.val();
        self.umq_queue.r#in.src_any.next = false;
        self.umq_queue.r#in.tag_any.next = false;
        self.umq_queue.r#in.handle.next = self.p_handle.q.val();
        self.remove_prq.next = false;
        self.remove_umq.next = false;
        self.insert_prq.d.next = false;
        self.insert_umq.d.next = false;

        self.prq_count.next = self.prq_queue.count.val();
        self.umq_count.next = self.umq_queue.count.val();
        self.prq_cam_count.next = self.prq_queue.cam_count.val();
        self.umq_cam_count.next = self.umq_queue.cam_count.val();
        self.resp_valid.next = self.out_valid.q.val();
        self.resp_kind.next = self.kind.q.val();
        self.resp_recv.next = self.recv.q.val();
        self.resp_msg.next = self.msg.q.val();
        self.resp_src.next = self.r_src.q.val();
        self.resp_tag.next = self.r_tag.q.val();
        self.resp_id.next = self.r_id.q.val();

        // Accept into the command register; issue moves it to the in-flight register.
        if self.cmd_valid.val() & self.cmd_ready.val() {
            self.c_valid.d.next = true;
            self.c_op.d.next = self.cmd_op.val();
            self.c_comm.d.next = self.cmd_comm.val() & self.comm_keep.val();
            self.c_src.d.next = self.cmd_src.val() & self.src_keep.val();
            self.c_tag.d.next = self.cmd_tag.val() & self.tag_keep.val();
            self.c_src_any.d.next = self.cmd_src_any.val();
            self.c_tag_any.d.next = self.cmd_tag_any.val();
            self.c_handle.d.next = self.cmd_handle.val();
            self.c_id.d.next = self.cmd_id.val();
            self.c_wide.d.next = self.cmd_wide.val();
        }
        if self.issue.val() {
            self.c_valid.d.next = false;
            self.inflight.d.next = self.c_search.val();
            self.p_op.d.next = self.c_op.q.val();
            self.p_comm.d.next = self.c_comm.q.val();
            self.p_src.d.next = self.c_src.q.val();
            self.p_tag.d.next = self.c_tag.q.val();
            self.p_src_any.d.next = self.c_src_any.q.val();
            self.p_tag_any.d.next = self.c_tag_any.q.val();
            self.p_handle.d.next = self.c_handle.q.val();
            self.p_id.d.next = self.c_id.q.val();
        }

        // The response decided this cycle. Its fields follow the searched queue's answer
        // every cycle (they are data, not enables); `decide` only says they count.
        self.new_resp.next = self.decide.val() | (self.issue.val() & !self.c_search.val());
        self.n_id.next = self.p_id.q.val();
        if self.p_uses_prq.val() {
            self.n_src.next = self.prq_queue.found_src.val();
            self.n_tag.next = self.prq_queue.found_tag.val();
        } else {
            self.n_src.next = self.umq_queue.found_src.val();
            self.n_tag.next = self.umq_queue.found_tag.val();
        }
        if self.p_op.q.val() == self.op_arrive.val() {
            self.n_msg.next = self.p_handle.q.val();
            self.n_recv.next = self.prq_queue.found_handle.val();
        } else {
            self.n_recv.next = self.p_handle.q.val();
            self.n_msg.next = self.umq_queue.found_handle.val();
        }
        if self.p_op.q.val() == self.op_post.val() {
            if self.umq_queue.found.val() {
                self.n_kind.next = self.r_matched.val();
                self.remove_umq.next = self.decide.val();
            } else if self.prq_queue.full.val() {
                self.n_kind.next = self.r_overflow.val();
            } else {
                self.n_kind.next = self.r_queued.val();
                self.insert_prq.d.next = self.decide.val();
            }
        } else if self.p_op.q.val() == self.op_arrive.val() {
            if self.prq_queue.found.val() {
                self.n_kind.next = self.r_matched.val();
                self.remove_prq.next = self.decide.val();
            } else if self.umq_queue.full.val() {
                self.n_kind.next = self.r_overflow.val();
            } else {
                self.n_kind.next = self.r_queued.val();
                self.insert_umq.d.next = self.decide.val();
            }
        } else if self.p_op.q.val() == self.op_cancel.val() {
            if self.prq_queue.found.val() {
                self.n_kind.next = self.r_cancelled.val();
                self.remove_prq.next = self.decide.val();
            } else {
                self.n_kind.next = self.r_not_found.val();
            }
        } else if self.umq_queue.found.val() {
            // Probe (leave the message) or matched probe (take it).
            self.n_kind.next = self.r_probe_found.val();
            if self.p_op.q.val() == self.op_matched_probe.val() {
                self.remove_umq.next = self.decide.val();
            }
        } else {
            self.n_kind.next = self.r_probe_none.val();
        }
        if self.decide.val() {
            self.inflight.d.next = false;
            // A match completes a request of the command's class, and may end the wait.
            if self.is_match.val() {
                for i in 0..COMPLETION_CLASSES {
                    if self.p_comm.q.val().get_bits::<2>(0) == self.class_index[i].val() {
                        self.completions[i].d.next = self.completions[i].q.val() + self.one32.val();
                    }
                }
                if self.w_valid.q.val()
                    & (self.w_class.q.val() == self.p_comm.q.val().get_bits::<2>(0))
                    & (self.wake_diff.val() < self.half.val())
                {
                    self.wake.d.next = true;
                }
            }
        }
        if !self.inflight.q.val() {
            // Decided at issue: a flush, the completion unit from its counters, an unknown
            // op code answers error.
            self.n_id.next = self.c_id.q.val();
            self.n_recv.next = self.c_handle.q.val();
            self.n_msg.next = self.c_class_count.val();
            if self.c_op.q.val() == self.op_flush.val() {
                self.n_kind.next = self.r_flushed.val();
                self.clearing.d.next = self.issue.val();
            } else if (self.c_op.q.val() > self.op_test.val()) | self.c_wide.q.val() {
                self.n_kind.next = self.r_error.val();
                self.n_msg.next = self.c_handle.q.val();
            } else if (self.c_op.q.val() == self.op_wait.val()) & self.w_valid.q.val() {
                // Another wait is parked: refused.
                self.n_kind.next = self.r_error.val();
            } else if self.test_diff.val() < self.half.val() {
                self.n_kind.next = self.r_reached.val();
            } else if self.c_op.q.val() == self.op_test.val() {
                self.n_kind.next = self.r_not_reached.val();
            } else {
                self.n_kind.next = self.r_parked.val();
                if self.issue.val() & (self.c_op.q.val() == self.op_wait.val()) {
                    self.w_valid.d.next = true;
                    self.w_class.d.next = self.c_comm.q.val().get_bits::<2>(0);
                    self.w_count.d.next = self.c_handle.q.val();
                    self.w_id.d.next = self.c_id.q.val();
                }
            }
        }

        // The response register takes the skid register's, then a woken wait's answer,
        // then the new response; the skid register follows the new response until it
        // holds one.
        if !self.out_valid.q.val() | self.taken.val() {
            if self.s_valid.q.val() {
                self.out_valid.d.next = true;
                self.s_valid.d.next = false;
                self.kind.d.next = self.s_kind.q.val();
                self.recv.d.next = self.s_recv.q.val();
                self.msg.d.next = self.s_msg.q.val();
                self.r_src.d.next = self.s_src.q.val();
                self.r_tag.d.next = self.s_tag.q.val();
                self.r_id.d.next = self.s_id.q.val();
            } else if self.wake.q.val() {
                // The match just taken ends the parked wait: its answer follows at once.
                self.out_valid.d.next = true;
                self.wake.d.next = false;
                self.w_valid.d.next = false;
                self.kind.d.next = self.r_reached.val();
                self.msg.d.next = self.wait_count.val();
                self.recv.d.next = self.w_count.q.val();
                self.r_id.d.next = self.w_id.q.val();
            } else {
                self.out_valid.d.next = self.new_resp.val();
                self.kind.d.next = self.n_kind.val();
                self.recv.d.next = self.n_recv.val();
                self.msg.d.next = self.n_msg.val();
                self.r_src.d.next = self.n_src.val();
                self.r_tag.d.next = self.n_tag.val();
                self.r_id.d.next = self.n_id.val();
            }
        } else if self.new_resp.val() {
            self.s_valid.d.next = true;
        }
        if !self.s_valid.q.val() {
            self.s_kind.d.next = self.n_kind.val();
            self.s_recv.d.next = self.n_recv.val();
            self.s_msg.d.next = self.n_msg.val();
            self.s_src.d.next = self.n_src.val();
            self.s_tag.d.next = self.n_tag.val();
            self.s_id.d.next = self.n_id.val();
        }
        if self.clear_queues.val() {
            // Reset or flush: the queues are emptied (their own reset) and the engine's
            // state of them goes with it; only reset also drops commands and responses.
            self.w_valid.d.next = false;
            self.wake.d.next = false;
            for i in 0..COMPLETION_CLASSES {
                self.completions[i].d.next = self.zero32.val();
            }
        }
        if self.reset.val() {
            self.clearing.d.next = false;
            // A command taken in a reset cycle is kept: `cmd_ready` comes from registers,
            // so it cannot fall in the cycle reset rises, and a reset must not swallow a
            // command it let in. Held after a reset cycle, `c_valid` keeps `cmd_ready` low
            // through the next; a further reset cycle drops it, as it drops any command
            // taken before it.
            self.c_valid.d.next = self.cmd_valid.val() & self.cmd_ready.val();
            self.inflight.d.next = false;
            self.out_valid.d.next = false;
            self.s_valid.d.next = false;
            self.remove_prq.next = false;
            self.remove_umq.next = false;
            self.insert_prq.d.next = false;
            self.insert_umq.d.next = false;
        }
        self.prq_queue.remove.next = self.remove_prq.val();
        self.umq_queue.remove.next = self.remove_umq.val();
    }
}

/// The engine's Verilog, top module `top` (generated on a large stack:
/// [`crate::generate::on_big_stack`]). Panics on a model-only shape
/// ([`EngineShape::check_hardware`]).
pub fn receive_engine_verilog(shape: &EngineShape) -> String {
    if let Err(e) = shape.check_hardware() {
        panic!("no RTL for this shape: {e}");
    }
    let shape = *shape;
    crate::generate::on_big_stack("receive engine", move || engine_verilog_by_width(&shape))
}

fn verilog_of<const A: usize>(shape: &EngineShape) -> String {
    let mut uut = ReceiveEngine::<A>::new(shape);
    uut.connect_all();
    // rust-hdl names array elements `name$i`; Verilator's C++ wants plain identifiers.
    let verilog = crate::ports::flatten_bundle_names(&generate_verilog(&uut));
    crate::two_level::cam::with_cam_modules(
        crate::primitives::trees::isolate_outputs(&verilog).replace('$', "_"),
    )
}

/// One instantiation per list address width in [`LIST_ADDRESS_BITS`].
fn engine_verilog_by_width(shape: &EngineShape) -> String {
    macro_rules! widths {
        ($($a:literal),*) => {
            match shape.list_address_bits() {
                $($a => verilog_of::<$a>(shape),)*
                a => panic!("list address width {a} outside {LIST_ADDRESS_BITS:?}"),
            }
        };
    }
    widths!(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

/// Ports of [`ReceiveEngine`] as (name, width, is input).
pub fn receive_engine_ports() -> Vec<(&'static str, u32, bool)> {
    vec![
        ("clock", 1, true),
        ("reset", 1, true),
        ("cmd_valid", 1, true),
        ("cmd_ready", 1, false),
        ("cmd_op", 4, true),
        ("cmd_comm", 32, true),
        ("cmd_src", 32, true),
        ("cmd_tag", 32, true),
        ("cmd_src_any", 1, true),
        ("cmd_tag_any", 1, true),
        ("cmd_handle", 32, true),
        ("cmd_id", 8, true),
        ("resp_valid", 1, false),
        ("resp_ready", 1, true),
        ("resp_kind", 4, false),
        ("resp_recv", 32, false),
        ("resp_msg", 32, false),
        ("resp_src", 32, false),
        ("resp_tag", 32, false),
        ("resp_id", 8, false),
        ("prq_count", 16, false),
        ("umq_count", 16, false),
        ("prq_cam_count", 16, false),
        ("umq_cam_count", 16, false),
    ]
}
