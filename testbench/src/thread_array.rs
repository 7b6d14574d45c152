//! Driving the optimistic thread array's RTL: a command is one operation, or a block of up
//! to `lanes` arrivals presented on the lane ports at once; its answer is one outcome per
//! operation, with the cycle the command was accepted and the cycle the answer was valid
//! — what `tagmatch_sim::optimistic::engine::OptimisticEngine` predicts.

use crate::verilator::{BuildSpec, Model, Port, PortId};
use tagmatch_hdl::receive_engine::*;
use tagmatch_hdl::thread_array::{thread_array_ports, LANE_MATCHED, LANE_OVERFLOW, LANE_QUEUED, RESP_BLOCK};
use tagmatch_sim::cycle::check_fits;
use tagmatch_sim::optimistic::engine::Answer;
use tagmatch_sim::optimistic::OptimisticConfig;
use tagmatch_sim::{MsgId, Op, Outcome, RecvId, RecvSpec};

/// The Verilator cache name of the thread array `cfg` describes, the same for the tests
/// and the `tagmatch` commands so they share builds.
pub fn thread_array_build_name(cfg: &OptimisticConfig) -> String {
    format!(
        "thread-array-t{}-d{}-b{}-u{}-fp{}",
        cfg.threads, cfg.descriptors, cfg.bins, cfg.unexpected, cfg.fast_path as u8
    )
}

/// The build description of a thread array of `lanes` lanes whose Verilog is `verilog`.
pub fn thread_array_spec(name: &str, verilog: String, lanes: usize, trace: bool) -> BuildSpec {
    BuildSpec {
        name: name.into(),
        verilog,
        top: "top".into(),
        clock: "clock".into(),
        ports: thread_array_ports(lanes)
            .into_iter()
            .map(|(name, width, input)| Port { name, width, input })
            .collect(),
        trace,
    }
}

struct Lane {
    comm: PortId,
    src: PortId,
    tag: PortId,
    handle: PortId,
    kind: PortId,
    recv: PortId,
}

pub struct RtlThreadArray {
    model: Model,
    cmd_valid: PortId,
    cmd_ready: PortId,
    cmd_op: PortId,
    cmd_comm: PortId,
    cmd_src: PortId,
    cmd_tag: PortId,
    cmd_src_any: PortId,
    cmd_tag_any: PortId,
    cmd_handle: PortId,
    cmd_count: PortId,
    resp_valid: PortId,
    resp_ready: PortId,
    resp_kind: PortId,
    resp_recv: PortId,
    resp_msg: PortId,
    lanes: Vec<Lane>,
}

/// Cycles to wait for a handshake before calling the design stuck.
const LIMIT: u64 = 10_000_000;

impl RtlThreadArray {
    pub fn new(model: Model, lanes: usize) -> Result<Self, String> {
        let p = |n: &str| model.port(n);
        let lane = |i: usize| -> Result<Lane, String> {
            Ok(Lane {
                comm: p(&format!("msg_comm_{i}"))?,
                src: p(&format!("msg_src_{i}"))?,
                tag: p(&format!("msg_tag_{i}"))?,
                handle: p(&format!("msg_handle_{i}"))?,
                kind: p(&format!("lane_kind_{i}"))?,
                recv: p(&format!("lane_recv_{i}"))?,
            })
        };
        Ok(RtlThreadArray {
            cmd_valid: p("cmd_valid")?,
            cmd_ready: p("cmd_ready")?,
            cmd_op: p("cmd_op")?,
            cmd_comm: p("cmd_comm")?,
            cmd_src: p("cmd_src")?,
            cmd_tag: p("cmd_tag")?,
            cmd_src_any: p("cmd_src_any")?,
            cmd_tag_any: p("cmd_tag_any")?,
            cmd_handle: p("cmd_handle")?,
            cmd_count: p("cmd_count")?,
            resp_valid: p("resp_valid")?,
            resp_ready: p("resp_ready")?,
            resp_kind: p("resp_kind")?,
            resp_recv: p("resp_recv")?,
            resp_msg: p("resp_msg")?,
            lanes: (0..lanes).map(lane).collect::<Result<_, _>>()?,
            model,
        })
    }

    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }

    fn pattern(&mut self, spec: &RecvSpec) {
        self.model.set(self.cmd_comm, spec.comm as u64);
        self.model.set(self.cmd_src, spec.src.unwrap_or(0) as u64);
        self.model.set(self.cmd_tag, spec.tag.unwrap_or(0) as u64);
        self.model.set(self.cmd_src_any, spec.src.is_none() as u64);
        self.model.set(self.cmd_tag_any, spec.tag.is_none() as u64);
    }

    /// Applies one command: a single operation, or a block of arrivals (at most one per
    /// lane). Handles must fit in 32 bits, communicators and ranks in 16.
    pub fn apply(&mut self, ops: &[Op]) -> Result<Answer, String> {
        ops.iter().try_for_each(check_fits)?;
        let arrivals: Vec<(MsgId, _)> = ops
            .iter()
            .filter_map(|op| if let Op::Arrive { msg, env } = *op { Some((msg, env)) } else { None })
            .collect();
        let code = match ops {
            [] => return Err("an empty command".into()),
            _ if arrivals.len() == ops.len() => {
                if arrivals.len() > self.lanes.len() {
                    return Err(format!("{} arrivals for {} lanes", arrivals.len(), self.lanes.len()));
                }
                for (lane, (msg, env)) in self.lanes.iter().zip(&arrivals) {
                    self.model.set(lane.comm, env.comm as u64);
                    self.model.set(lane.src, env.src as u64);
                    self.model.set(lane.tag, env.tag as u64);
                    self.model.set(lane.handle, msg.0);
                }
                self.model.set(self.cmd_count, arrivals.len() as u64);
                OP_ARRIVE
            }
            [op] => match *op {
                Op::PostRecv { recv, spec } => {
                    self.pattern(&spec);
                    self.model.set(self.cmd_handle, recv.0);
                    OP_POST
                }
                Op::Cancel { recv } => {
                    self.model.set(self.cmd_handle, recv.0);
                    OP_CANCEL
                }
                Op::Probe { spec } => {
                    self.pattern(&spec);
                    OP_PROBE
                }
                Op::MatchedProbe { spec } => {
                    self.pattern(&spec);
                    OP_MATCHED_PROBE
                }
                Op::Arrive { .. } => unreachable!("a lone arrival is a block of one"),
            },
            _ => {
                return Err(format!("{} operations in a command that is not a block of arrivals", ops.len()))
            }
        };
        self.model.set(self.cmd_op, code);
        self.model.set(self.cmd_valid, 1);
        if self.model.tick_until(self.cmd_ready, LIMIT) == LIMIT {
            return Err("the thread array never became ready for a command".into());
        }
        let accepted = self.model.cycles();
        self.model.tick(1);
        self.model.set(self.cmd_valid, 0);
        if self.model.tick_until(self.resp_valid, LIMIT) == LIMIT {
            return Err(format!("no answer after {LIMIT} cycles"));
        }
        let responded = self.model.cycles();
        let kind = self.model.get(self.resp_kind);
        let outcomes = if code == OP_ARRIVE {
            if kind != RESP_BLOCK {
                return Err(format!("a block of arrivals answered kind {kind}"));
            }
            let mut outcomes = Vec::with_capacity(arrivals.len());
            for (lane, &(msg, _)) in self.lanes.iter().zip(&arrivals) {
                outcomes.push(match self.model.get(lane.kind) {
                    LANE_MATCHED => Outcome::Matched { recv: RecvId(self.model.get(lane.recv)), msg },
                    LANE_QUEUED => Outcome::Queued,
                    LANE_OVERFLOW => Outcome::Overflow,
                    other => return Err(format!("unknown lane result {other}")),
                });
            }
            outcomes
        } else {
            let (recv, msg) = (self.model.get(self.resp_recv), self.model.get(self.resp_msg));
            let probe = |found: Option<MsgId>| match code {
                OP_PROBE => Outcome::Probed(found),
                _ => Outcome::MatchedProbed(found),
            };
            vec![match kind {
                RESP_MATCHED => Outcome::Matched { recv: RecvId(recv), msg: MsgId(msg) },
                RESP_QUEUED => Outcome::Queued,
                RESP_CANCELLED => Outcome::Cancelled { recv: RecvId(recv) },
                RESP_NOT_FOUND => Outcome::NotFound,
                RESP_PROBE_FOUND => probe(Some(MsgId(msg))),
                RESP_PROBE_NONE => probe(None),
                RESP_OVERFLOW => Outcome::Overflow,
                other => return Err(format!("unknown response kind {other}")),
            }]
        };
        self.model.set(self.resp_ready, 1);
        self.model.tick(1);
        self.model.set(self.resp_ready, 0);
        Ok(Answer { outcomes, accepted, responded, block: None })
    }
}
