//! Driving the optimistic thread array's RTL: a command is one operation, or a block of up
//! to `lanes` arrivals presented on the lane ports at once; its answer is one outcome per
//! operation, with the cycle the command was accepted and the cycle the answer was valid
//! — what `tagmatch_sim::optimistic::engine::OptimisticEngine` predicts. A command can
//! also be offered and then cut short by the reset port ([`RtlThreadArray::cut_short`]).

use crate::two_level::engine::CommandPorts;
use crate::verilator::{BuildSpec, Model, Port, PortId};
use tagmatch_hdl::optimistic::thread_array::{
    thread_array_ports, LANE_MATCHED, LANE_OVERFLOW, LANE_QUEUED, RESP_BLOCK,
};
use tagmatch_hdl::two_level::receive_engine::{OP_ARRIVE, RESP_OVERFLOW};
use tagmatch_sim::cycle::{check_fields, FieldWidths};
use tagmatch_sim::optimistic::engine::Answer;
use tagmatch_sim::optimistic::OptimisticConfig;
use tagmatch_sim::{Envelope, MsgId, Op, Outcome, RecvId};

/// The Verilator cache name of the thread array `cfg` describes, the same for the tests
/// and the `tagmatch` commands so they share builds.
pub fn thread_array_build_name(cfg: &OptimisticConfig) -> String {
    let f = cfg.fields;
    let fields = if f == FieldWidths::DEFAULT {
        String::new()
    } else {
        format!("-f{}-{}-{}-{}", f.comm, f.src, f.tag, f.handle)
    };
    format!(
        "thread-array-t{}-d{}-b{}-u{}-fp{}{fields}",
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
    ports: CommandPorts,
    reset: PortId,
    cmd_count: PortId,
    lanes: Vec<Lane>,
    /// The array's field widths: a command whose values do not fit is refused here.
    fields: FieldWidths,
}

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
            ports: CommandPorts::new(&model)?,
            reset: p("reset")?,
            cmd_count: p("cmd_count")?,
            lanes: (0..lanes).map(lane).collect::<Result<_, _>>()?,
            model,
            fields: FieldWidths::DEFAULT,
        })
    }

    /// The array was generated with these field widths.
    pub fn with_fields(mut self, fields: FieldWidths) -> Self {
        self.fields = fields;
        self
    }

    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }

    /// Applies one command: a single operation, or a block of arrivals (at most one per
    /// lane). Values must fit the field widths ([`RtlThreadArray::with_fields`]).
    pub fn apply(&mut self, ops: &[Op]) -> Result<Answer, String> {
        let (code, arrivals) = self.present(ops)?;
        let (accepted, responded) = self.ports.exchange(&mut self.model, code)?;
        let outcomes = if code == OP_ARRIVE {
            let kind = self.model.get(self.ports.resp_kind);
            if kind == RESP_OVERFLOW {
                // The block was refused whole (a field wider than generated).
                vec![Outcome::Overflow; arrivals.len()]
            } else if kind != RESP_BLOCK {
                return Err(format!("a block of arrivals answered kind {kind}"));
            } else {
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
            }
        } else {
            vec![self.ports.outcome(&self.model, &ops[0])?]
        };
        self.ports.acknowledge(&mut self.model);
        Ok(Answer { outcomes, accepted, responded, block: None })
    }

    /// Offers one command like [`RtlThreadArray::apply`], lets `delay` cycles pass after
    /// its acceptance and resets the array, whatever the command has done by then (its
    /// answer, if out, is dropped); returns the reset's cycle.
    pub fn cut_short(&mut self, ops: &[Op], delay: u64) -> Result<u64, String> {
        let (code, _) = self.present(ops)?;
        self.ports.offer(&mut self.model, code)?;
        self.model.tick(delay);
        Ok(self.reset())
    }

    /// Holds `reset` high for one cycle and returns that cycle; an answer not taken is
    /// dropped.
    pub fn reset(&mut self) -> u64 {
        let cycle = self.model.cycles();
        self.model.set(self.reset, 1);
        self.model.tick(1);
        self.model.set(self.reset, 0);
        cycle
    }

    /// Puts a command's fields on the ports; returns its op code and, for a block, its
    /// arrivals.
    fn present(&mut self, ops: &[Op]) -> Result<(u64, Vec<(MsgId, Envelope)>), String> {
        ops.iter().try_for_each(|op| check_fields(&self.fields, op))?;
        let arrivals: Vec<(MsgId, Envelope)> = ops
            .iter()
            .filter_map(|op| if let Op::Arrive { msg, env } = *op { Some((msg, env)) } else { None })
            .collect();
        match ops {
            [] => Err("an empty command".into()),
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
                Ok((OP_ARRIVE, arrivals))
            }
            [op] => Ok((self.ports.operation(&mut self.model, op), Vec::new())),
            _ => Err(format!("{} operations in a command that is not a block of arrivals", ops.len())),
        }
    }
}
