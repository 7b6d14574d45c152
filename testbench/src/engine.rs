//! Driving the receive engine's RTL with matching operations: one [`Op`] in through the
//! command stream, one [`Outcome`] out of the response stream, with the cycles it took
//! (from the cycle the command is accepted to the cycle its response is valid, as
//! DESIGN.md's cycle conventions say). The handshake is the one the cycle-accurate model
//! (`tagmatch_sim::cycle`) assumes.

use crate::verilator::{ports_from, BuildSpec, Model, PortId};
use tagmatch_hdl::receive_engine::*;
use tagmatch_sim::cycle::{check_fits, Applied, CycleEngine};
use tagmatch_sim::{MsgId, Op, Outcome, RecvId, RecvSpec};

pub struct RtlEngine {
    model: Model,
    ports: Ports,
}

struct Ports {
    cmd_valid: PortId,
    cmd_ready: PortId,
    cmd_op: PortId,
    cmd_comm: PortId,
    cmd_src: PortId,
    cmd_tag: PortId,
    cmd_src_any: PortId,
    cmd_tag_any: PortId,
    cmd_handle: PortId,
    resp_valid: PortId,
    resp_ready: PortId,
    resp_kind: PortId,
    resp_recv: PortId,
    resp_msg: PortId,
}

/// The build description of an engine whose Verilog is `verilog`.
pub fn engine_spec(name: &str, verilog: String, trace: bool) -> BuildSpec {
    BuildSpec {
        name: name.into(),
        verilog,
        top: "top".into(),
        clock: "clock".into(),
        ports: ports_from(&receive_engine_ports()),
        trace,
    }
}

impl RtlEngine {
    pub fn new(model: Model) -> Result<Self, String> {
        let p = |n: &str| model.port(n);
        let ports = Ports {
            cmd_valid: p("cmd_valid")?,
            cmd_ready: p("cmd_ready")?,
            cmd_op: p("cmd_op")?,
            cmd_comm: p("cmd_comm")?,
            cmd_src: p("cmd_src")?,
            cmd_tag: p("cmd_tag")?,
            cmd_src_any: p("cmd_src_any")?,
            cmd_tag_any: p("cmd_tag_any")?,
            cmd_handle: p("cmd_handle")?,
            resp_valid: p("resp_valid")?,
            resp_ready: p("resp_ready")?,
            resp_kind: p("resp_kind")?,
            resp_recv: p("resp_recv")?,
            resp_msg: p("resp_msg")?,
        };
        Ok(RtlEngine { model, ports })
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }

    fn pattern(&mut self, spec: &RecvSpec) {
        let p = &self.ports;
        self.model.set(p.cmd_comm, spec.comm as u64);
        self.model.set(p.cmd_src, spec.src.unwrap_or(0) as u64);
        self.model.set(p.cmd_tag, spec.tag.unwrap_or(0) as u64);
        self.model.set(p.cmd_src_any, spec.src.is_none() as u64);
        self.model.set(p.cmd_tag_any, spec.tag.is_none() as u64);
    }

    /// Applies one operation: presents the command, waits for the response and
    /// acknowledges it. Handles must fit in 32 bits, communicators and ranks in 16.
    pub fn apply(&mut self, op: &Op) -> Result<Applied, String> {
        check_fits(op)?;
        let (code, handle) = match *op {
            Op::PostRecv { recv, spec } => {
                self.pattern(&spec);
                (OP_POST, recv.0)
            }
            Op::Arrive { msg, env } => {
                self.pattern(&RecvSpec::exact(env));
                (OP_ARRIVE, msg.0)
            }
            Op::Cancel { recv } => (OP_CANCEL, recv.0),
            Op::Probe { spec } => {
                self.pattern(&spec);
                (OP_PROBE, 0)
            }
            Op::MatchedProbe { spec } => {
                self.pattern(&spec);
                (OP_MATCHED_PROBE, 0)
            }
        };
        // No `eval` after setting inputs: `cmd_ready` and `resp_valid` come from registers,
        // and the next edge's evaluation settles the inputs before it clocks them in, so
        // an extra pass over the design would change nothing.
        let p = &self.ports;
        self.model.set(p.cmd_op, code);
        self.model.set(p.cmd_handle, handle);
        self.model.set(p.cmd_valid, 1);
        const LIMIT: u64 = 10_000_000;
        if self.model.tick_until(p.cmd_ready, LIMIT) == LIMIT {
            return Err("the engine never became ready for a command".into());
        }
        let accepted = self.model.cycles();
        self.model.tick(1); // accepted at this edge
        self.model.set(p.cmd_valid, 0);
        let waited = self.model.tick_until(p.resp_valid, LIMIT);
        if waited == LIMIT {
            return Err(format!("no response after {LIMIT} cycles"));
        }
        let responded = self.model.cycles();
        let (kind, recv, msg) =
            (self.model.get(p.resp_kind), self.model.get(p.resp_recv), self.model.get(p.resp_msg));
        self.model.set(p.resp_ready, 1);
        self.model.tick(1);
        self.model.set(p.resp_ready, 0);
        let probe = |found: Option<MsgId>| match op {
            Op::Probe { .. } => Outcome::Probed(found),
            _ => Outcome::MatchedProbed(found),
        };
        let outcome = match kind {
            RESP_MATCHED => Outcome::Matched { recv: RecvId(recv), msg: MsgId(msg) },
            RESP_QUEUED => Outcome::Queued,
            RESP_CANCELLED => Outcome::Cancelled { recv: RecvId(recv) },
            RESP_NOT_FOUND => Outcome::NotFound,
            RESP_PROBE_FOUND => probe(Some(MsgId(msg))),
            RESP_PROBE_NONE => probe(None),
            RESP_OVERFLOW => Outcome::Overflow,
            other => return Err(format!("unknown response kind {other}")),
        };
        Ok(Applied { outcome, accepted, responded })
    }
}

impl CycleEngine for RtlEngine {
    fn apply(&mut self, op: &Op) -> Result<Applied, String> {
        RtlEngine::apply(self, op)
    }

    fn cycles(&self) -> u64 {
        self.model().cycles()
    }
}
