//! Driving the receive engine's RTL with matching operations: one [`Op`] in through the
//! command stream, one [`Outcome`] out of the response stream, with the cycles it took
//! (from the cycle the command is accepted to the cycle its response is valid, as
//! `docs/design.md`'s cycle conventions say). The handshake is the one the cycle-accurate model
//! (`tagmatch_sim::cycle`) assumes.

use crate::verilator::{ports_from, BuildSpec, Model, PortId};
use tagmatch_hdl::two_level::receive_engine::*;
use tagmatch_sim::cycle::{
    check_fields, Applied, Completion, CompletionAnswer, CycleEngine, FieldWidths, Wakeup,
};
use tagmatch_sim::{MsgId, Op, Outcome, RecvId, RecvSpec};

pub struct RtlEngine {
    model: Model,
    ports: CommandPorts,
    reset: PortId,
    /// The late answer to a parked wait that followed the last operation's response.
    wakeup: Option<Wakeup>,
    /// The id the next command carries (they count up and wrap), and the parked wait's,
    /// which its late answer must echo.
    next_id: u8,
    parked_id: Option<u8>,
    /// The widths the engine was generated with: operations that do not fit are refused
    /// here, as the model refuses them (the RTL would answer `error`).
    fields: FieldWidths,
}

/// A single operation as the command stream carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command {
    pub code: u64,
    pub comm: u64,
    pub src: u64,
    pub tag: u64,
    pub src_any: bool,
    pub tag_any: bool,
    pub handle: u64,
}

impl Command {
    /// The command for `op`: a receive pattern or a message's envelope in the envelope
    /// fields (0 where a wildcard stands), the handle where the operation has one.
    pub fn of(op: &Op) -> Command {
        let pattern = |code: u64, spec: &RecvSpec, handle: u64| Command {
            code,
            comm: spec.comm as u64,
            src: spec.src.unwrap_or(0) as u64,
            tag: spec.tag.unwrap_or(0) as u64,
            src_any: spec.src.is_none(),
            tag_any: spec.tag.is_none(),
            handle,
        };
        let bare = |code: u64, handle: u64| Command {
            code,
            comm: 0,
            src: 0,
            tag: 0,
            src_any: false,
            tag_any: false,
            handle,
        };
        match *op {
            Op::PostRecv { recv, spec } => pattern(OP_POST, &spec, recv.0),
            Op::Arrive { msg, env } => pattern(OP_ARRIVE, &RecvSpec::exact(env), msg.0),
            Op::Cancel { recv } => bare(OP_CANCEL, recv.0),
            Op::Probe { spec } => pattern(OP_PROBE, &spec, 0),
            Op::MatchedProbe { spec } => pattern(OP_MATCHED_PROBE, &spec, 0),
            Op::Flush => bare(OP_FLUSH, 0),
        }
    }
}

/// A response as the response stream carries it: the kind, and the handles the outcome
/// names (the other fields are not defined for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Response {
    pub kind: u64,
    pub recv: Option<u64>,
    pub msg: Option<u64>,
}

impl Response {
    pub fn of(outcome: &Outcome) -> Response {
        let r = |kind: u64, recv: Option<u64>, msg: Option<u64>| Response { kind, recv, msg };
        match *outcome {
            Outcome::Matched { recv, msg } => r(RESP_MATCHED, Some(recv.0), Some(msg.0)),
            Outcome::Queued => r(RESP_QUEUED, None, None),
            Outcome::Cancelled { recv } => r(RESP_CANCELLED, Some(recv.0), None),
            Outcome::NotFound => r(RESP_NOT_FOUND, None, None),
            Outcome::Probed(Some(m)) | Outcome::MatchedProbed(Some(m)) => {
                r(RESP_PROBE_FOUND, None, Some(m.0))
            }
            Outcome::Probed(None) | Outcome::MatchedProbed(None) => r(RESP_PROBE_NONE, None, None),
            Outcome::Overflow => r(RESP_OVERFLOW, None, None),
            Outcome::Flushed => r(RESP_FLUSHED, None, None),
        }
    }
}

/// Cycles a driver waits for `cmd_ready` or `resp_valid` before it calls the design stuck.
const WAIT_LIMIT: u64 = 10_000_000;

/// The command and response stream ports the receive engine and the thread array share.
pub struct CommandPorts {
    pub cmd_valid: PortId,
    pub cmd_ready: PortId,
    pub cmd_op: PortId,
    pub cmd_comm: PortId,
    pub cmd_src: PortId,
    pub cmd_tag: PortId,
    pub cmd_src_any: PortId,
    pub cmd_tag_any: PortId,
    pub cmd_handle: PortId,
    pub resp_valid: PortId,
    pub resp_ready: PortId,
    pub resp_kind: PortId,
    pub resp_recv: PortId,
    pub resp_msg: PortId,
    /// The receive engine's command id and its echo (the thread array has none).
    pub ids: Option<(PortId, PortId)>,
}

impl CommandPorts {
    pub fn new(model: &Model) -> Result<Self, String> {
        let p = |n: &str| model.port(n);
        Ok(CommandPorts {
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
            ids: model.port("cmd_id").ok().zip(model.port("resp_id").ok()),
        })
    }

    /// Sets the fields of a single operation; returns its command code. A cancel leaves
    /// the envelope fields as they were (the engine ignores them).
    pub fn operation(&self, model: &mut Model, op: &Op) -> u64 {
        let c = Command::of(op);
        if !matches!(op, Op::Cancel { .. }) {
            model.set(self.cmd_comm, c.comm);
            model.set(self.cmd_src, c.src);
            model.set(self.cmd_tag, c.tag);
            model.set(self.cmd_src_any, c.src_any as u64);
            model.set(self.cmd_tag_any, c.tag_any as u64);
        }
        model.set(self.cmd_handle, c.handle);
        c.code
    }

    /// Presents command `code`, waits until it is taken and until the answer is valid;
    /// returns (accepted, responded) cycles. The caller reads the answer, then calls
    /// [`CommandPorts::acknowledge`].
    pub fn exchange(&self, model: &mut Model, code: u64) -> Result<(u64, u64), String> {
        let accepted = self.offer(model, code)?;
        if model.tick_until(self.resp_valid, WAIT_LIMIT) == WAIT_LIMIT {
            return Err(format!("no response after {WAIT_LIMIT} cycles"));
        }
        Ok((accepted, model.cycles()))
    }

    /// Presents command `code` and waits until it is taken; returns the cycle it was
    /// accepted in, with `cmd_valid` low again.
    pub fn offer(&self, model: &mut Model, code: u64) -> Result<u64, String> {
        // No `eval` after setting inputs: `cmd_ready` and `resp_valid` come from registers,
        // and the next edge's evaluation settles the inputs before it clocks them in, so
        // an extra pass over the design would change nothing.
        model.set(self.cmd_op, code);
        model.set(self.cmd_valid, 1);
        if model.tick_until(self.cmd_ready, WAIT_LIMIT) == WAIT_LIMIT {
            return Err("the design never became ready for a command".into());
        }
        let accepted = model.cycles();
        model.tick(1); // accepted at this edge
        model.set(self.cmd_valid, 0);
        Ok(accepted)
    }

    /// Puts `id` on `cmd_id` (where the design has one).
    pub fn set_id(&self, model: &mut Model, id: u8) {
        if let Some((cmd, _)) = self.ids {
            model.set(cmd, id as u64);
        }
    }

    /// Checks that the response on the ports echoes `id`.
    pub fn check_id(&self, model: &Model, id: u8, what: impl FnOnce() -> String) -> Result<(), String> {
        match self.ids {
            Some((_, resp)) if model.get(resp) != id as u64 => {
                Err(format!("the response to {} echoes id {}, not {id}", what(), model.get(resp)))
            }
            _ => Ok(()),
        }
    }

    /// Takes the answer: one cycle with `resp_ready` high.
    pub fn acknowledge(&self, model: &mut Model) {
        model.set(self.resp_ready, 1);
        model.tick(1);
        model.set(self.resp_ready, 0);
    }

    /// The answer to single operation `op`, read from the response ports.
    pub fn outcome(&self, model: &Model, op: &Op) -> Result<Outcome, String> {
        let (kind, recv, msg) =
            (model.get(self.resp_kind), model.get(self.resp_recv), model.get(self.resp_msg));
        let probe = |found: Option<MsgId>| match op {
            Op::Probe { .. } => Outcome::Probed(found),
            _ => Outcome::MatchedProbed(found),
        };
        Ok(match kind {
            RESP_MATCHED => Outcome::Matched { recv: RecvId(recv), msg: MsgId(msg) },
            RESP_QUEUED => Outcome::Queued,
            RESP_CANCELLED => Outcome::Cancelled { recv: RecvId(recv) },
            RESP_NOT_FOUND => Outcome::NotFound,
            RESP_PROBE_FOUND => probe(Some(MsgId(msg))),
            RESP_PROBE_NONE => probe(None),
            RESP_OVERFLOW => Outcome::Overflow,
            RESP_FLUSHED => Outcome::Flushed,
            other => return Err(format!("unknown response kind {other}")),
        })
    }
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
        let ports = CommandPorts::new(&model)?;
        let reset = model.port("reset")?;
        Ok(RtlEngine {
            model,
            ports,
            reset,
            wakeup: None,
            next_id: 0,
            parked_id: None,
            fields: FieldWidths::default(),
        })
    }

    /// The same driver for an engine generated with `fields`' widths.
    pub fn with_fields(self, fields: FieldWidths) -> Self {
        RtlEngine { fields, ..self }
    }

    /// Holds `reset` high for one cycle: both queues empty, labels restart.
    pub fn reset(&mut self) {
        self.model.set(self.reset, 1);
        self.model.tick(1);
        self.model.set(self.reset, 0);
        self.wakeup = None;
        self.parked_id = None;
    }

    /// Presents command `code` (its other fields already set) with the next id, waits for
    /// the answer and checks that it echoes the id; returns the acceptance and answer
    /// cycles and the id. The caller reads the answer, then acknowledges it.
    fn exchange(&mut self, code: u64, what: impl FnOnce() -> String) -> Result<(u64, u64, u8), String> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        self.ports.set_id(&mut self.model, id);
        let (accepted, responded) = self.ports.exchange(&mut self.model, code)?;
        self.ports.check_id(&self.model, id, what)?;
        Ok((accepted, responded, id))
    }

    /// Sends command code `code` with handle `handle` and no other fields (for codes the
    /// engine does not know); returns the response kind and when it was accepted and
    /// answered.
    pub fn raw_command(&mut self, code: u64, handle: u64) -> Result<(u64, u64, u64), String> {
        self.model.set(self.ports.cmd_handle, handle);
        let (accepted, responded, _) = self.exchange(code, || format!("op code {code}"))?;
        let kind = self.model.get(self.ports.resp_kind);
        self.ports.acknowledge(&mut self.model);
        Ok((kind, accepted, responded))
    }

    /// Sends `command` as it is, unchecked (values wider than the engine's fields
    /// included); returns the response kind and when it was accepted and answered.
    pub fn raw_fields(&mut self, command: &Command) -> Result<(u64, u64, u64), String> {
        let p = &self.ports;
        for (port, value) in [
            (p.cmd_comm, command.comm),
            (p.cmd_src, command.src),
            (p.cmd_tag, command.tag),
            (p.cmd_src_any, command.src_any as u64),
            (p.cmd_tag_any, command.tag_any as u64),
        ] {
            self.model.set(port, value);
        }
        self.raw_command(command.code, command.handle)
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }

    /// Applies one operation: presents the command, waits for the response and
    /// acknowledges it. Its values must fit the engine's field widths.
    pub fn apply(&mut self, op: &Op) -> Result<Applied, String> {
        check_fields(&self.fields, op)?;
        let code = self.ports.operation(&mut self.model, op);
        let (accepted, responded, _) = self.exchange(code, || op.to_string())?;
        let outcome = self.ports.outcome(&self.model, op)?;
        if *op == Op::Flush {
            self.parked_id = None;
        }
        self.ports.acknowledge(&mut self.model);
        // A match that ends a parked wait is followed at once by the wait's answer.
        self.wakeup = None;
        self.take_late_wakeup(|| format!("{op:?}"))?;
        Ok(Applied { outcome, accepted, responded })
    }

    /// Applies `ops` back to back (see [`CycleEngine::apply_stream`]), taking each response
    /// in every cycle `take(cycle)` allows; a wait's late answer is kept for
    /// [`CycleEngine::take_wakeup`].
    pub fn stream(&mut self, ops: &[Op], mut take: impl FnMut(u64) -> bool) -> Result<Vec<Applied>, String> {
        for op in ops {
            check_fields(&self.fields, op)?;
        }
        const LIMIT: u64 = 10_000_000;
        let start = self.model.cycles();
        let first_id = self.next_id;
        let id_of = |i: usize| first_id.wrapping_add(i as u8);
        let mut accepted = Vec::with_capacity(ops.len());
        let mut applied: Vec<Applied> = Vec::with_capacity(ops.len());
        self.wakeup = None;
        let mut presenting = false;
        while applied.len() < ops.len() {
            let now = self.model.cycles();
            if now - start > LIMIT {
                return Err(format!("{} of {} responses after {LIMIT} cycles", applied.len(), ops.len()));
            }
            if !presenting && accepted.len() < ops.len() {
                let code = self.ports.operation(&mut self.model, &ops[accepted.len()]);
                self.ports.set_id(&mut self.model, id_of(accepted.len()));
                self.model.set(self.ports.cmd_op, code);
                self.model.set(self.ports.cmd_valid, 1);
                presenting = true;
            }
            // `cmd_ready` and `resp_valid` come from registers: this cycle's handshakes.
            if presenting && self.model.get(self.ports.cmd_ready) != 0 {
                accepted.push(now);
                presenting = false;
            }
            let taking = take(now);
            self.model.set(self.ports.resp_ready, taking as u64);
            if taking && self.model.get(self.ports.resp_valid) != 0 {
                if self.model.get(self.ports.resp_kind) == RESP_REACHED {
                    self.wakeup = Some(self.shown_wakeup()?);
                } else {
                    let i = applied.len();
                    self.ports.check_id(&self.model, id_of(i), || ops[i].to_string())?;
                    let outcome = self.ports.outcome(&self.model, &ops[i])?;
                    if outcome == Outcome::Flushed {
                        self.parked_id = None;
                    }
                    applied.push(Applied { outcome, accepted: accepted[i], responded: now });
                }
            }
            self.model.tick(1);
            if !presenting {
                self.model.set(self.ports.cmd_valid, 0);
            }
        }
        self.model.set(self.ports.resp_ready, 0);
        self.next_id = id_of(ops.len());
        self.take_late_wakeup(|| "the streamed operations".to_string())?;
        Ok(applied)
    }

    /// The woken wait's answer on the response ports this cycle; it must echo the wait's id.
    fn shown_wakeup(&mut self) -> Result<Wakeup, String> {
        let id = self.parked_id.take().ok_or("a late `reached` with no wait parked")?;
        self.ports.check_id(&self.model, id, || "the parked wait".to_string())?;
        Ok(Wakeup { cycle: self.model.cycles(), counter: self.model.get(self.ports.resp_msg) as u32 })
    }

    /// A match that ends a parked wait is followed at once by the wait's answer: takes it if
    /// it is there; any other response still waiting after `what` is an error.
    fn take_late_wakeup(&mut self, what: impl FnOnce() -> String) -> Result<(), String> {
        if self.model.get(self.ports.resp_valid) != 0 {
            let kind = self.model.get(self.ports.resp_kind);
            if kind != RESP_REACHED {
                return Err(format!("a second response of kind {kind} after {}", what()));
            }
            self.wakeup = Some(self.shown_wakeup()?);
            self.ports.acknowledge(&mut self.model);
        }
        Ok(())
    }

    /// A wait or test of the completion unit: the class goes in `cmd_comm`, the count in
    /// `cmd_handle`.
    pub fn complete(&mut self, c: &Completion) -> Result<(CompletionAnswer, u64, u64), String> {
        let (code, Completion::Wait { class, count } | Completion::Test { class, count }) = match *c {
            Completion::Wait { .. } => (OP_WAIT, *c),
            Completion::Test { .. } => (OP_TEST, *c),
        };
        self.model.set(self.ports.cmd_comm, class as u64);
        self.model.set(self.ports.cmd_handle, count as u64);
        let (accepted, responded, id) = self.exchange(code, || format!("{c:?}"))?;
        let counter = self.model.get(self.ports.resp_msg) as u32;
        let answer = match self.model.get(self.ports.resp_kind) {
            RESP_REACHED => CompletionAnswer::Reached(counter),
            RESP_NOT_REACHED => CompletionAnswer::NotReached(counter),
            RESP_PARKED => {
                self.parked_id = Some(id);
                CompletionAnswer::Parked
            }
            RESP_ERROR => CompletionAnswer::Refused,
            other => return Err(format!("the completion unit answered kind {other} to {c:?}")),
        };
        self.ports.acknowledge(&mut self.model);
        self.wakeup = None;
        Ok((answer, accepted, responded))
    }
}

impl CycleEngine for RtlEngine {
    fn apply(&mut self, op: &Op) -> Result<Applied, String> {
        RtlEngine::apply(self, op)
    }

    fn apply_stream(&mut self, ops: &[Op]) -> Result<Vec<Applied>, String> {
        self.stream(ops, |_| true)
    }

    fn complete(&mut self, c: &Completion) -> Result<(CompletionAnswer, u64, u64), String> {
        RtlEngine::complete(self, c)
    }

    fn take_wakeup(&mut self) -> Option<Wakeup> {
        self.wakeup.take()
    }

    fn cycles(&self) -> u64 {
        self.model().cycles()
    }
}
