//! The receive engine: a posted receive queue and an unexpected message queue (each a
//! [`TwoLevelQueue`]) behind a valid/ready command stream and a valid/ready response
//! stream.
//!
//! Commands (`cmd_op`): post a receive (search the UMQ, else queue in the PRQ), a message
//! arrives (search the PRQ, else queue in the UMQ), cancel a receive by handle (search the
//! PRQ by handle), probe (search the UMQ, leave the message), matched probe (search the
//! UMQ and take the message). A receive's `ANY_SOURCE`/`ANY_TAG` travel as wildcard flags:
//! stored with it in the PRQ, applied to the search when it scans the UMQ.
//!
//! Responses (`resp_kind`): matched (receive and message handles), queued, cancelled, not
//! found, probe found (message handle), probe found nothing, and overflow — the queue the
//! operation needed was full, the operation was not applied, and the host keeps it (to
//! retry or to match in software). Nothing is dropped.
//!
//! Every queued entry gets the next posting label, so the lists can order their
//! candidates; labels are 32 bits and must not wrap while entries are queued.

use crate::two_level_queue::TwoLevelQueue;
use rust_hdl::prelude::*;

pub const OP_POST: u64 = 0;
pub const OP_ARRIVE: u64 = 1;
pub const OP_CANCEL: u64 = 2;
pub const OP_PROBE: u64 = 3;
pub const OP_MATCHED_PROBE: u64 = 4;

pub const RESP_MATCHED: u64 = 0;
pub const RESP_QUEUED: u64 = 1;
pub const RESP_CANCELLED: u64 = 2;
pub const RESP_NOT_FOUND: u64 = 3;
pub const RESP_PROBE_FOUND: u64 = 4;
pub const RESP_PROBE_NONE: u64 = 5;
pub const RESP_OVERFLOW: u64 = 6;

#[derive(LogicBlock)]
pub struct ReceiveEngine<const C: usize, const A: usize, const N: usize> {
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
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_kind: Signal<Out, Bits<3>>,
    pub resp_recv: Signal<Out, Bits<32>>,
    pub resp_msg: Signal<Out, Bits<32>>,
    /// The matched or probed entry's source and tag (a probe's status).
    pub resp_src: Signal<Out, Bits<16>>,
    pub resp_tag: Signal<Out, Bits<32>>,
    pub prq_count: Signal<Out, Bits<16>>,
    pub umq_count: Signal<Out, Bits<16>>,
    /// Diagnostics: CAM occupancy and the last list walk of each queue (elements compared
    /// by the longest list, winning list and label).
    pub prq_cam_count: Signal<Out, Bits<16>>,
    pub umq_cam_count: Signal<Out, Bits<16>>,
    pub prq_walk_steps: Signal<Out, Bits<16>>,
    pub umq_walk_steps: Signal<Out, Bits<16>>,
    pub prq_walk_list: Signal<Out, Bits<8>>,
    pub umq_walk_list: Signal<Out, Bits<8>>,
    pub prq_walk_label: Signal<Out, Bits<32>>,
    pub umq_walk_label: Signal<Out, Bits<32>>,
    prq: TwoLevelQueue<C, A, N>,
    umq: TwoLevelQueue<C, A, N>,
    /// Idle (accepts a command and starts its search in the same cycle), Wait, Respond.
    state: DFF<Bits<2>>,
    op: DFF<Bits<3>>,
    comm: DFF<Bits<16>>,
    src: DFF<Bits<16>>,
    tag: DFF<Bits<32>>,
    src_any: DFF<Bit>,
    tag_any: DFF<Bit>,
    handle: DFF<Bits<32>>,
    label: DFF<Bits<32>>,
    kind: DFF<Bits<3>>,
    recv: DFF<Bits<32>>,
    msg: DFF<Bits<32>>,
    r_src: DFF<Bits<16>>,
    r_tag: DFF<Bits<32>>,
    s_idle: Constant<Bits<2>>,
    s_wait: Constant<Bits<2>>,
    s_respond: Constant<Bits<2>>,
    op_post: Constant<Bits<3>>,
    op_arrive: Constant<Bits<3>>,
    op_cancel: Constant<Bits<3>>,
    op_probe: Constant<Bits<3>>,
    r_matched: Constant<Bits<3>>,
    r_queued: Constant<Bits<3>>,
    r_cancelled: Constant<Bits<3>>,
    r_not_found: Constant<Bits<3>>,
    r_probe_found: Constant<Bits<3>>,
    r_probe_none: Constant<Bits<3>>,
    r_overflow: Constant<Bits<3>>,
    mode_envelope: Constant<Bits<2>>,
    mode_handle: Constant<Bits<2>>,
    one32: Constant<Bits<32>>,
    uses_prq: Signal<Local, Bit>,
    /// The operation being searched: the command's own fields in the cycle it is accepted,
    /// the latched copy while the queues walk their lists.
    key_op: Signal<Local, Bits<3>>,
    key_comm: Signal<Local, Bits<16>>,
    key_src: Signal<Local, Bits<16>>,
    key_tag: Signal<Local, Bits<32>>,
    key_src_any: Signal<Local, Bit>,
    key_tag_any: Signal<Local, Bit>,
    key_handle: Signal<Local, Bits<32>>,
}

impl<const C: usize, const A: usize, const N: usize> Default for ReceiveEngine<C, A, N> {
    fn default() -> Self {
        let k = |v: u64| -> Constant<Bits<3>> { Constant::new(v.to_bits()) };
        let s = |v: u64| -> Constant<Bits<2>> { Constant::new(v.to_bits()) };
        ReceiveEngine {
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
            prq_walk_steps: Default::default(),
            umq_walk_steps: Default::default(),
            prq_walk_list: Default::default(),
            umq_walk_list: Default::default(),
            prq_walk_label: Default::default(),
            umq_walk_label: Default::default(),
            prq: Default::default(),
            umq: Default::default(),
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
            s_idle: s(0),
            s_wait: s(2),
            s_respond: s(3),
            op_post: k(OP_POST),
            op_arrive: k(OP_ARRIVE),
            op_cancel: k(OP_CANCEL),
            op_probe: k(OP_PROBE),
            r_matched: k(RESP_MATCHED),
            r_queued: k(RESP_QUEUED),
            r_cancelled: k(RESP_CANCELLED),
            r_not_found: k(RESP_NOT_FOUND),
            r_probe_found: k(RESP_PROBE_FOUND),
            r_probe_none: k(RESP_PROBE_NONE),
            r_overflow: k(RESP_OVERFLOW),
            mode_envelope: s(crate::bram_list::MODE_ENVELOPE),
            mode_handle: s(crate::bram_list::MODE_HANDLE),
            one32: Constant::new(1u64.to_bits()),
            uses_prq: Default::default(),
            key_op: Default::default(),
            key_comm: Default::default(),
            key_src: Default::default(),
            key_tag: Default::default(),
            key_src_any: Default::default(),
            key_tag_any: Default::default(),
            key_handle: Default::default(),
        }
    }
}

impl<const C: usize, const A: usize, const N: usize> Logic for ReceiveEngine<C, A, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, op, comm, src, tag, src_any, tag_any, handle, label, kind, recv, msg, r_src,
            r_tag
        );
        self.prq.clock.next = self.clock.val();
        self.umq.clock.next = self.clock.val();

        // The search starts in the cycle the command is accepted, so a CAM hit answers two
        // cycles after acceptance; the queues keep reading the key while they walk their
        // lists, and by then it comes from the registers latched at acceptance.
        if self.state.q.val() == self.s_idle.val() {
            self.key_op.next = self.cmd_op.val();
            self.key_comm.next = self.cmd_comm.val();
            self.key_src.next = self.cmd_src.val();
            self.key_tag.next = self.cmd_tag.val();
            self.key_src_any.next = self.cmd_src_any.val();
            self.key_tag_any.next = self.cmd_tag_any.val();
            self.key_handle.next = self.cmd_handle.val();
        } else {
            self.key_op.next = self.op.q.val();
            self.key_comm.next = self.comm.q.val();
            self.key_src.next = self.src.q.val();
            self.key_tag.next = self.tag.q.val();
            self.key_src_any.next = self.src_any.q.val();
            self.key_tag_any.next = self.tag_any.q.val();
            self.key_handle.next = self.handle.q.val();
        }
        // Searches: a message (arrive) or a handle (cancel) against the PRQ; a receive's
        // pattern, wildcards on the search side, against the UMQ.
        self.prq.search.next = false;
        self.prq.search_mode.next = self.mode_envelope.val();
        if self.key_op.val() == self.op_cancel.val() {
            self.prq.search_mode.next = self.mode_handle.val();
        }
        self.prq.key_comm.next = self.key_comm.val();
        self.prq.key_src.next = self.key_src.val();
        self.prq.key_tag.next = self.key_tag.val();
        self.prq.key_src_any.next = false;
        self.prq.key_tag_any.next = false;
        self.prq.key_handle.next = self.key_handle.val();
        self.umq.search.next = false;
        self.umq.search_mode.next = self.mode_envelope.val();
        self.umq.key_comm.next = self.key_comm.val();
        self.umq.key_src.next = self.key_src.val();
        self.umq.key_tag.next = self.key_tag.val();
        self.umq.key_src_any.next = self.key_src_any.val();
        self.umq.key_tag_any.next = self.key_tag_any.val();
        self.umq.key_handle.next = self.key_handle.val();
        // Inserts: the receive (with its wildcard flags) into the PRQ, the message into the UMQ.
        self.prq.insert.next = false;
        self.prq.in_comm.next = self.comm.q.val();
        self.prq.in_src.next = self.src.q.val();
        self.prq.in_tag.next = self.tag.q.val();
        self.prq.in_src_any.next = self.src_any.q.val();
        self.prq.in_tag_any.next = self.tag_any.q.val();
        self.prq.in_handle.next = self.handle.q.val();
        self.prq.in_label.next = self.label.q.val();
        self.umq.insert.next = false;
        self.umq.in_comm.next = self.comm.q.val();
        self.umq.in_src.next = self.src.q.val();
        self.umq.in_tag.next = self.tag.q.val();
        self.umq.in_src_any.next = false;
        self.umq.in_tag_any.next = false;
        self.umq.in_handle.next = self.handle.q.val();
        self.umq.in_label.next = self.label.q.val();
        self.prq.remove.next = false;
        self.umq.remove.next = false;

        self.prq_count.next = self.prq.count.val();
        self.umq_count.next = self.umq.count.val();
        self.prq_cam_count.next = self.prq.cam_count.val();
        self.umq_cam_count.next = self.umq.cam_count.val();
        self.prq_walk_steps.next = self.prq.walk_steps.val();
        self.umq_walk_steps.next = self.umq.walk_steps.val();
        self.prq_walk_list.next = self.prq.walk_list.val();
        self.umq_walk_list.next = self.umq.walk_list.val();
        self.prq_walk_label.next = self.prq.walk_label.val();
        self.umq_walk_label.next = self.umq.walk_label.val();
        self.resp_src.next = self.r_src.q.val();
        self.resp_tag.next = self.r_tag.q.val();
        self.resp_valid.next = self.state.q.val() == self.s_respond.val();
        self.resp_kind.next = self.kind.q.val();
        self.resp_recv.next = self.recv.q.val();
        self.resp_msg.next = self.msg.q.val();
        self.cmd_ready.next =
            (self.state.q.val() == self.s_idle.val()) & !self.prq.busy.val() & !self.umq.busy.val();
        self.uses_prq.next =
            (self.key_op.val() == self.op_arrive.val()) | (self.key_op.val() == self.op_cancel.val());

        if self.state.q.val() == self.s_idle.val() {
            if self.cmd_valid.val() & !self.prq.busy.val() & !self.umq.busy.val() {
                self.op.d.next = self.cmd_op.val();
                self.comm.d.next = self.cmd_comm.val();
                self.src.d.next = self.cmd_src.val();
                self.tag.d.next = self.cmd_tag.val();
                self.src_any.d.next = self.cmd_src_any.val();
                self.tag_any.d.next = self.cmd_tag_any.val();
                self.handle.d.next = self.cmd_handle.val();
                if self.uses_prq.val() {
                    self.prq.search.next = true;
                } else {
                    self.umq.search.next = true;
                }
                self.state.d.next = self.s_wait.val();
            }
        } else if self.state.q.val() == self.s_wait.val() {
            if !self.prq.busy.val() & !self.umq.busy.val() {
                self.state.d.next = self.s_respond.val();
                if self.uses_prq.val() {
                    self.r_src.d.next = self.prq.found_src.val();
                    self.r_tag.d.next = self.prq.found_tag.val();
                } else {
                    self.r_src.d.next = self.umq.found_src.val();
                    self.r_tag.d.next = self.umq.found_tag.val();
                }
                if self.op.q.val() == self.op_post.val() {
                    self.recv.d.next = self.handle.q.val();
                    if self.umq.found.val() {
                        self.umq.remove.next = true;
                        self.kind.d.next = self.r_matched.val();
                        self.msg.d.next = self.umq.found_handle.val();
                    } else if self.prq.full.val() {
                        self.kind.d.next = self.r_overflow.val();
                    } else {
                        self.prq.insert.next = true;
                        self.label.d.next = self.label.q.val() + self.one32.val();
                        self.kind.d.next = self.r_queued.val();
                    }
                } else if self.op.q.val() == self.op_arrive.val() {
                    self.msg.d.next = self.handle.q.val();
                    if self.prq.found.val() {
                        self.prq.remove.next = true;
                        self.kind.d.next = self.r_matched.val();
                        self.recv.d.next = self.prq.found_handle.val();
                    } else if self.umq.full.val() {
                        self.kind.d.next = self.r_overflow.val();
                    } else {
                        self.umq.insert.next = true;
                        self.label.d.next = self.label.q.val() + self.one32.val();
                        self.kind.d.next = self.r_queued.val();
                    }
                } else if self.op.q.val() == self.op_cancel.val() {
                    self.recv.d.next = self.handle.q.val();
                    if self.prq.found.val() {
                        self.prq.remove.next = true;
                        self.kind.d.next = self.r_cancelled.val();
                    } else {
                        self.kind.d.next = self.r_not_found.val();
                    }
                } else {
                    // Probe (leave the message) or matched probe (take it).
                    self.msg.d.next = self.umq.found_handle.val();
                    if self.umq.found.val() {
                        self.kind.d.next = self.r_probe_found.val();
                        if self.op.q.val() != self.op_probe.val() {
                            self.umq.remove.next = true;
                        }
                    } else {
                        self.kind.d.next = self.r_probe_none.val();
                    }
                }
            }
        } else if self.resp_ready.val() {
            self.state.d.next = self.s_idle.val();
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
            generate_verilog(&uut)
        })
        .and_then(|t| t.join().map_err(|_| std::io::Error::other("the Verilog generator panicked")))
        .unwrap_or_else(|e| panic!("generating the engine's Verilog: {e}"))
}

/// Ports of [`ReceiveEngine`] as (name, width, is input).
pub fn receive_engine_ports() -> Vec<(&'static str, u32, bool)> {
    vec![
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
        ("resp_valid", 1, false),
        ("resp_ready", 1, true),
        ("resp_kind", 3, false),
        ("resp_recv", 32, false),
        ("resp_msg", 32, false),
        ("resp_src", 16, false),
        ("resp_tag", 32, false),
        ("prq_count", 16, false),
        ("umq_count", 16, false),
        ("prq_cam_count", 16, false),
        ("umq_cam_count", 16, false),
        ("prq_walk_steps", 16, false),
        ("umq_walk_steps", 16, false),
        ("prq_walk_list", 8, false),
        ("umq_walk_list", 8, false),
        ("prq_walk_label", 32, false),
        ("umq_walk_label", 32, false),
    ]
}
