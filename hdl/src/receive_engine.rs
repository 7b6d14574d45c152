//! The receive engine: a posted receive queue and an unexpected message queue (each a
//! [`TwoLevelQueue`]) behind a valid/ready command stream and a valid/ready response
//! stream.
//!
//! Commands (`cmd_op`): post a receive (search the UMQ, else queue in the PRQ), a message
//! arrives (search the PRQ, else queue in the UMQ), cancel a receive by handle (search the
//! PRQ by handle), probe (search the UMQ, leave the message), matched probe (search the
//! UMQ and take the message). A receive's `ANY_SOURCE`/`ANY_TAG` travel as wildcard flags:
//! stored with it in the PRQ, applied to the search when it scans the UMQ. Op code 7
//! answers `error` and changes nothing.
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
//! Pipeline (cycle `A` accepts the command): the command is registered at `A` before it
//! fans out to the queues; `A + 1` starts the search in one queue; the cycle `W` that
//! queue answers (`A + 2` from the CAM) the engine registers the response and what to do
//! with the queues; the response is valid at `W + 1`, and in that cycle the registered
//! action reaches the queues (remove the answer, insert into the other queue). So a CAM
//! hit answers in 3 cycles. `cmd_ready` and `resp_valid` come from registers.
//!
//! Every queued entry gets the next posting label, so the lists can order their
//! candidates; labels compare by serial-number arithmetic (`parallel_lists::older`).

use crate::two_level_queue::TwoLevelQueue;
use rust_hdl::prelude::*;

pub const OP_POST: u64 = 0;
pub const OP_ARRIVE: u64 = 1;
pub const OP_CANCEL: u64 = 2;
pub const OP_PROBE: u64 = 3;
pub const OP_MATCHED_PROBE: u64 = 4;
pub const OP_WAIT: u64 = 5;
pub const OP_TEST: u64 = 6;

pub const RESP_MATCHED: u64 = 0;
pub const RESP_QUEUED: u64 = 1;
pub const RESP_CANCELLED: u64 = 2;
pub const RESP_NOT_FOUND: u64 = 3;
pub const RESP_PROBE_FOUND: u64 = 4;
pub const RESP_PROBE_NONE: u64 = 5;
pub const RESP_OVERFLOW: u64 = 6;
/// An op code the engine does not know (7), or a wait while another is parked; nothing
/// changed.
pub const RESP_ERROR: u64 = 7;
pub const RESP_REACHED: u64 = 8;
pub const RESP_NOT_REACHED: u64 = 9;
pub const RESP_PARKED: u64 = 10;

/// Completion classes: the low bits of the communicator.
pub const COMPLETION_CLASSES: usize = 4;

#[derive(LogicBlock)]
pub struct ReceiveEngine<const C: usize, const A: usize, const N: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties both queues, restarts the labels, drops any response.
    pub reset: Signal<In, Bit>,
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    pub cmd_op: Signal<In, Bits<3>>,
    pub cmd_comm: Signal<In, Bits<16>>,
    pub cmd_src: Signal<In, Bits<16>>,
    pub cmd_tag: Signal<In, Bits<32>>,
    pub cmd_src_any: Signal<In, Bit>,
    pub cmd_tag_any: Signal<In, Bit>,
    pub cmd_handle: Signal<In, Bits<32>>,
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_kind: Signal<Out, Bits<4>>,
    pub resp_recv: Signal<Out, Bits<32>>,
    pub resp_msg: Signal<Out, Bits<32>>,
    /// The matched or probed entry's source and tag (a probe's status).
    pub resp_src: Signal<Out, Bits<16>>,
    pub resp_tag: Signal<Out, Bits<32>>,
    pub prq_count: Signal<Out, Bits<16>>,
    pub umq_count: Signal<Out, Bits<16>>,
    /// Diagnostics: CAM occupancy of each queue.
    pub prq_cam_count: Signal<Out, Bits<16>>,
    pub umq_cam_count: Signal<Out, Bits<16>>,
    prq_queue: TwoLevelQueue<C, A, N>,
    umq_queue: TwoLevelQueue<C, A, N>,
    /// Idle, Search, Wait, Respond.
    state: DFF<Bits<2>>,
    op: DFF<Bits<3>>,
    comm: DFF<Bits<16>>,
    src: DFF<Bits<16>>,
    tag: DFF<Bits<32>>,
    src_any: DFF<Bit>,
    tag_any: DFF<Bit>,
    handle: DFF<Bits<32>>,
    label: DFF<Bits<32>>,
    kind: DFF<Bits<4>>,
    recv: DFF<Bits<32>>,
    msg: DFF<Bits<32>>,
    r_src: DFF<Bits<16>>,
    r_tag: DFF<Bits<32>>,
    /// The action decided with the response, applied in its first cycle.
    remove_prq: DFF<Bit>,
    remove_umq: DFF<Bit>,
    insert_prq: DFF<Bit>,
    insert_umq: DFF<Bit>,
    /// The completion unit: a counter per class, the parked wait, and whether the match
    /// being answered ends it.
    completions: [DFF<Bits<32>>; COMPLETION_CLASSES],
    w_valid: DFF<Bit>,
    w_class: DFF<Bits<2>>,
    w_count: DFF<Bits<32>>,
    wake: DFF<Bit>,
    class_count: Signal<Local, Bits<32>>,
    wait_count: Signal<Local, Bits<32>>,
    is_match: Signal<Local, Bit>,
    /// Counter minus count (test and wait), and counter after this match minus the parked
    /// wait's count: below 2^31 means the count is reached (serial arithmetic).
    test_diff: Signal<Local, Bits<32>>,
    wake_diff: Signal<Local, Bits<32>>,
    half: Constant<Bits<32>>,
    class_index: [Constant<Bits<2>>; COMPLETION_CLASSES],
    op_matched_probe: Constant<Bits<3>>,
    op_wait: Constant<Bits<3>>,
    op_test: Constant<Bits<3>>,
    r_reached: Constant<Bits<4>>,
    r_not_reached: Constant<Bits<4>>,
    r_parked: Constant<Bits<4>>,
    s_idle: Constant<Bits<2>>,
    s_search: Constant<Bits<2>>,
    s_wait: Constant<Bits<2>>,
    s_respond: Constant<Bits<2>>,
    op_post: Constant<Bits<3>>,
    op_arrive: Constant<Bits<3>>,
    op_cancel: Constant<Bits<3>>,
    op_probe: Constant<Bits<3>>,
    op_last: Constant<Bits<3>>,
    r_matched: Constant<Bits<4>>,
    r_queued: Constant<Bits<4>>,
    r_cancelled: Constant<Bits<4>>,
    r_not_found: Constant<Bits<4>>,
    r_probe_found: Constant<Bits<4>>,
    r_probe_none: Constant<Bits<4>>,
    r_overflow: Constant<Bits<4>>,
    r_error: Constant<Bits<4>>,
    mode_envelope: Constant<Bits<2>>,
    mode_handle: Constant<Bits<2>>,
    one32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    uses_prq: Signal<Local, Bit>,
}

impl<const C: usize, const A: usize, const N: usize> Default for ReceiveEngine<C, A, N> {
    fn default() -> Self {
        let o = |v: u64| -> Constant<Bits<3>> { Constant::new(v.to_bits()) };
        let k = |v: u64| -> Constant<Bits<4>> { Constant::new(v.to_bits()) };
        let s = |v: u64| -> Constant<Bits<2>> { Constant::new(v.to_bits()) };
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
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_kind: Default::default(),
            resp_recv: Default::default(),
            resp_msg: Default::default(),
            resp_src: Default::default(),
            resp_tag: Default::default(),
            prq_count: Default::default(),
            umq_count: Default::default(),
            prq_cam_count: Default::default(),
            umq_cam_count: Default::default(),
            prq_queue: Default::default(),
            umq_queue: Default::default(),
            state: Default::default(),
            op: Default::default(),
            comm: Default::default(),
            src: Default::default(),
            tag: Default::default(),
            src_any: Default::default(),
            tag_any: Default::default(),
            handle: Default::default(),
            label: Default::default(),
            kind: Default::default(),
            recv: Default::default(),
            msg: Default::default(),
            r_src: Default::default(),
            r_tag: Default::default(),
            remove_prq: Default::default(),
            remove_umq: Default::default(),
            insert_prq: Default::default(),
            insert_umq: Default::default(),
            s_idle: s(0),
            s_search: s(1),
            s_wait: s(2),
            s_respond: s(3),
            op_post: o(OP_POST),
            op_arrive: o(OP_ARRIVE),
            op_cancel: o(OP_CANCEL),
            op_probe: o(OP_PROBE),
            op_last: o(OP_TEST),
            completions: array_init::array_init(|_| Default::default()),
            w_valid: Default::default(),
            w_class: Default::default(),
            w_count: Default::default(),
            wake: Default::default(),
            class_count: Default::default(),
            wait_count: Default::default(),
            is_match: Default::default(),
            test_diff: Default::default(),
            wake_diff: Default::default(),
            half: Constant::new((1u64 << 31).to_bits()),
            class_index: array_init::array_init(|i| Constant::new((i as u64).to_bits())),
            op_matched_probe: o(OP_MATCHED_PROBE),
            op_wait: o(OP_WAIT),
            op_test: o(OP_TEST),
            r_reached: k(RESP_REACHED),
            r_not_reached: k(RESP_NOT_REACHED),
            r_parked: k(RESP_PARKED),
            r_matched: k(RESP_MATCHED),
            r_queued: k(RESP_QUEUED),
            r_cancelled: k(RESP_CANCELLED),
            r_not_found: k(RESP_NOT_FOUND),
            r_probe_found: k(RESP_PROBE_FOUND),
            r_probe_none: k(RESP_PROBE_NONE),
            r_overflow: k(RESP_OVERFLOW),
            r_error: k(RESP_ERROR),
            mode_envelope: s(crate::bram_list::MODE_ENVELOPE),
            mode_handle: s(crate::bram_list::MODE_HANDLE),
            one32: Constant::new(1u64.to_bits()),
            zero32: Constant::new(0u64.to_bits()),
            uses_prq: Default::default(),
        }
    }
}

impl<const C: usize, const A: usize, const N: usize> Logic for ReceiveEngine<C, A, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, op, comm, src, tag, src_any, tag_any, handle, label, kind, recv, msg, r_src,
            r_tag, remove_prq, remove_umq, insert_prq, insert_umq, w_valid, w_class, w_count, wake
        );
        // The completion counters; the one of the command's class and the parked wait's.
        self.class_count.next = self.zero32.val();
        self.wait_count.next = self.zero32.val();
        for i in 0..COMPLETION_CLASSES {
            self.completions[i].clock.next = self.clock.val();
            self.completions[i].d.next = self.completions[i].q.val();
            if self.comm.q.val().get_bits::<2>(0) == self.class_index[i].val() {
                self.class_count.next = self.completions[i].q.val();
            }
            if self.w_class.q.val() == self.class_index[i].val() {
                self.wait_count.next = self.completions[i].q.val();
            }
        }
        self.test_diff.next = self.class_count.val() - self.handle.q.val();
        self.wake_diff.next = self.class_count.val() + self.one32.val() - self.w_count.q.val();
        self.prq_queue.clock.next = self.clock.val();
        self.umq_queue.clock.next = self.clock.val();
        self.prq_queue.reset.next = self.reset.val();
        self.umq_queue.reset.next = self.reset.val();

        // Searches, from the registered command: a message (arrive) or a handle (cancel)
        // against the PRQ; a receive's pattern, wildcards on the search side, against the UMQ.
        self.uses_prq.next =
            (self.op.q.val() == self.op_arrive.val()) | (self.op.q.val() == self.op_cancel.val());
        self.is_match.next = ((self.op.q.val() == self.op_post.val()) & self.umq_queue.found.val())
            | ((self.op.q.val() == self.op_arrive.val()) & self.prq_queue.found.val())
            | ((self.op.q.val() == self.op_matched_probe.val()) & self.umq_queue.found.val());
        self.prq_queue.search.next = false;
        self.prq_queue.search_mode.next = self.mode_envelope.val();
        if self.op.q.val() == self.op_cancel.val() {
            self.prq_queue.search_mode.next = self.mode_handle.val();
        }
        self.prq_queue.key_comm.next = self.comm.q.val();
        self.prq_queue.key_src.next = self.src.q.val();
        self.prq_queue.key_tag.next = self.tag.q.val();
        self.prq_queue.key_src_any.next = false;
        self.prq_queue.key_tag_any.next = false;
        self.prq_queue.key_handle.next = self.handle.q.val();
        self.umq_queue.search.next = false;
        self.umq_queue.search_mode.next = self.mode_envelope.val();
        self.umq_queue.key_comm.next = self.comm.q.val();
        self.umq_queue.key_src.next = self.src.q.val();
        self.umq_queue.key_tag.next = self.tag.q.val();
        self.umq_queue.key_src_any.next = self.src_any.q.val();
        self.umq_queue.key_tag_any.next = self.tag_any.q.val();
        self.umq_queue.key_handle.next = self.handle.q.val();
        // Actions, from registers: the receive (with its wildcard flags) into the PRQ, the
        // message into the UMQ, or the answer out of the queue that gave it.
        self.prq_queue.insert.next = self.insert_prq.q.val();
        self.prq_queue.in_comm.next = self.comm.q.val();
        self.prq_queue.in_src.next = self.src.q.val();
        self.prq_queue.in_tag.next = self.tag.q.val();
        self.prq_queue.in_src_any.next = self.src_any.q.val();
        self.prq_queue.in_tag_any.next = self.tag_any.q.val();
        self.prq_queue.in_handle.next = self.handle.q.val();
        self.prq_queue.in_label.next = self.label.q.val();
        self.umq_queue.insert.next = self.insert_umq.q.val();
        self.umq_queue.in_comm.next = self.comm.q.val();
        self.umq_queue.in_src.next = self.src.q.val();
        self.umq_queue.in_tag.next = self.tag.q.val();
        self.umq_queue.in_src_any.next = false;
        self.umq_queue.in_tag_any.next = false;
        self.umq_queue.in_handle.next = self.handle.q.val();
        self.umq_queue.in_label.next = self.label.q.val();
        self.prq_queue.remove.next = self.remove_prq.q.val();
        self.umq_queue.remove.next = self.remove_umq.q.val();
        self.remove_prq.d.next = false;
        self.remove_umq.d.next = false;
        self.insert_prq.d.next = false;
        self.insert_umq.d.next = false;
        if self.insert_prq.q.val() | self.insert_umq.q.val() {
            self.label.d.next = self.label.q.val() + self.one32.val();
        }

        self.prq_count.next = self.prq_queue.count.val();
        self.umq_count.next = self.umq_queue.count.val();
        self.prq_cam_count.next = self.prq_queue.cam_count.val();
        self.umq_cam_count.next = self.umq_queue.cam_count.val();
        self.resp_src.next = self.r_src.q.val();
        self.resp_tag.next = self.r_tag.q.val();
        self.resp_valid.next = self.state.q.val() == self.s_respond.val();
        self.resp_kind.next = self.kind.q.val();
        self.resp_recv.next = self.recv.q.val();
        self.resp_msg.next = self.msg.q.val();
        self.cmd_ready.next = (self.state.q.val() == self.s_idle.val())
            & !self.prq_queue.busy.val()
            & !self.umq_queue.busy.val();

        if self.state.q.val() == self.s_idle.val() {
            if self.cmd_valid.val() & !self.prq_queue.busy.val() & !self.umq_queue.busy.val() {
                self.op.d.next = self.cmd_op.val();
                self.comm.d.next = self.cmd_comm.val();
                self.src.d.next = self.cmd_src.val();
                self.tag.d.next = self.cmd_tag.val();
                self.src_any.d.next = self.cmd_src_any.val();
                self.tag_any.d.next = self.cmd_tag_any.val();
                self.handle.d.next = self.cmd_handle.val();
                if self.cmd_op.val() > self.op_last.val() {
                    self.kind.d.next = self.r_error.val();
                    self.recv.d.next = self.cmd_handle.val();
                    self.msg.d.next = self.cmd_handle.val();
                    self.state.d.next = self.s_respond.val();
                } else {
                    self.state.d.next = self.s_search.val();
                }
            }
        } else if self.state.q.val() == self.s_search.val() {
            if (self.op.q.val() == self.op_wait.val()) | (self.op.q.val() == self.op_test.val()) {
                // The completion unit answers from its counters, without a search.
                self.msg.d.next = self.class_count.val();
                self.recv.d.next = self.handle.q.val();
                self.state.d.next = self.s_respond.val();
                if self.test_diff.val() < self.half.val() {
                    self.kind.d.next = self.r_reached.val();
                } else if self.op.q.val() == self.op_test.val() {
                    self.kind.d.next = self.r_not_reached.val();
                } else {
                    self.kind.d.next = self.r_parked.val();
                    self.w_valid.d.next = true;
                    self.w_class.d.next = self.comm.q.val().get_bits::<2>(0);
                    self.w_count.d.next = self.handle.q.val();
                }
                if (self.op.q.val() == self.op_wait.val()) & self.w_valid.q.val() {
                    self.kind.d.next = self.r_error.val();
                    self.w_valid.d.next = true;
                    self.w_class.d.next = self.w_class.q.val();
                    self.w_count.d.next = self.w_count.q.val();
                }
            } else {
                if self.uses_prq.val() {
                    self.prq_queue.search.next = true;
                } else {
                    self.umq_queue.search.next = true;
                }
                self.state.d.next = self.s_wait.val();
            }
        } else if self.state.q.val() == self.s_wait.val() {
            // The answer's fields follow the searched queue while the engine waits and
            // freeze when it answers, so the queue's `done` steers no wide enable.
            if self.uses_prq.val() {
                self.r_src.d.next = self.prq_queue.found_src.val();
                self.r_tag.d.next = self.prq_queue.found_tag.val();
            } else {
                self.r_src.d.next = self.umq_queue.found_src.val();
                self.r_tag.d.next = self.umq_queue.found_tag.val();
            }
            if self.op.q.val() == self.op_arrive.val() {
                self.msg.d.next = self.handle.q.val();
                self.recv.d.next = self.prq_queue.found_handle.val();
            } else {
                self.recv.d.next = self.handle.q.val();
                self.msg.d.next = self.umq_queue.found_handle.val();
            }
            if (self.uses_prq.val() & self.prq_queue.done.val())
                | (!self.uses_prq.val() & self.umq_queue.done.val())
            {
                self.state.d.next = self.s_respond.val();
                if self.op.q.val() == self.op_post.val() {
                    if self.umq_queue.found.val() {
                        self.remove_umq.d.next = true;
                        self.kind.d.next = self.r_matched.val();
                    } else if self.prq_queue.full.val() {
                        self.kind.d.next = self.r_overflow.val();
                    } else {
                        self.insert_prq.d.next = true;
                        self.kind.d.next = self.r_queued.val();
                    }
                } else if self.op.q.val() == self.op_arrive.val() {
                    if self.prq_queue.found.val() {
                        self.remove_prq.d.next = true;
                        self.kind.d.next = self.r_matched.val();
                    } else if self.umq_queue.full.val() {
                        self.kind.d.next = self.r_overflow.val();
                    } else {
                        self.insert_umq.d.next = true;
                        self.kind.d.next = self.r_queued.val();
                    }
                } else if self.op.q.val() == self.op_cancel.val() {
                    if self.prq_queue.found.val() {
                        self.remove_prq.d.next = true;
                        self.kind.d.next = self.r_cancelled.val();
                    } else {
                        self.kind.d.next = self.r_not_found.val();
                    }
                } else {
                    // Probe (leave the message) or matched probe (take it).
                    if self.umq_queue.found.val() {
                        self.kind.d.next = self.r_probe_found.val();
                        if self.op.q.val() != self.op_probe.val() {
                            self.remove_umq.d.next = true;
                        }
                    } else {
                        self.kind.d.next = self.r_probe_none.val();
                    }
                }
                // A match completes a request of the command's class, and may end the wait.
                if self.is_match.val() {
                    for i in 0..COMPLETION_CLASSES {
                        if self.comm.q.val().get_bits::<2>(0) == self.class_index[i].val() {
                            self.completions[i].d.next = self.completions[i].q.val() + self.one32.val();
                        }
                    }
                    if self.w_valid.q.val()
                        & (self.w_class.q.val() == self.comm.q.val().get_bits::<2>(0))
                        & (self.wake_diff.val() < self.half.val())
                    {
                        self.wake.d.next = true;
                    }
                }
            }
        } else if self.resp_ready.val() {
            if self.wake.q.val() {
                // The match just taken ends the parked wait: its answer follows at once.
                self.wake.d.next = false;
                self.w_valid.d.next = false;
                self.kind.d.next = self.r_reached.val();
                self.msg.d.next = self.wait_count.val();
                self.recv.d.next = self.w_count.q.val();
            } else {
                self.state.d.next = self.s_idle.val();
            }
        }
        if self.reset.val() {
            self.state.d.next = self.s_idle.val();
            self.label.d.next = self.zero32.val();
            self.remove_prq.d.next = false;
            self.remove_umq.d.next = false;
            self.insert_prq.d.next = false;
            self.insert_umq.d.next = false;
            self.w_valid.d.next = false;
            self.wake.d.next = false;
            for i in 0..COMPLETION_CLASSES {
                self.completions[i].d.next = self.zero32.val();
            }
        }
    }
}

/// The engine's Verilog, top module `top`. Built on a thread of its own: rust-hdl builds
/// the whole 256-entry-CAM engine by value, which needs more stack than a test thread's
/// 2 MB.
pub fn receive_engine_verilog<const C: usize, const A: usize, const N: usize>() -> String {
    std::thread::Builder::new()
        .name("receive-engine-verilog".into())
        .stack_size(1 << 30)
        .spawn(|| {
            let mut uut = ReceiveEngine::<C, A, N>::default();
            uut.connect_all();
            // rust-hdl names array elements `name$i`; Verilator's C++ wants plain identifiers.
            crate::trees::isolate_outputs(&generate_verilog(&uut)).replace('$', "_")
        })
        .and_then(|t| t.join().map_err(|_| std::io::Error::other("the Verilog generator panicked")))
        .unwrap_or_else(|e| panic!("generating the engine's Verilog: {e}"))
}

/// Ports of [`ReceiveEngine`] as (name, width, is input).
pub fn receive_engine_ports() -> Vec<(&'static str, u32, bool)> {
    vec![
        ("clock", 1, true),
        ("reset", 1, true),
        ("cmd_valid", 1, true),
        ("cmd_ready", 1, false),
        ("cmd_op", 3, true),
        ("cmd_comm", 16, true),
        ("cmd_src", 16, true),
        ("cmd_tag", 32, true),
        ("cmd_src_any", 1, true),
        ("cmd_tag_any", 1, true),
        ("cmd_handle", 32, true),
        ("resp_valid", 1, false),
        ("resp_ready", 1, true),
        ("resp_kind", 4, false),
        ("resp_recv", 32, false),
        ("resp_msg", 32, false),
        ("resp_src", 16, false),
        ("resp_tag", 32, false),
        ("prq_count", 16, false),
        ("umq_count", 16, false),
        ("prq_cam_count", 16, false),
        ("umq_cam_count", 16, false),
    ]
}
