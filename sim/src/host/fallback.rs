//! Fallback mode: the hardware holds the oldest part of each queue, the host the rest.
//!
//! Every operation goes to the engine first. The engine answers it exactly as MPI would
//! unless the queue it needed is full (overflow) or the host holds part of the queue the
//! answer depends on; in those cases the driver finishes the operation in software. See
//! the module docs of [`crate::host`] for the invariants and why they keep MPI order.

use super::store::HostQueues;
use super::HostReport;
use crate::cycle::{Applied, CycleEngine};
use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::ops::{Op, Outcome};

/// A host driver over one receive engine, in fallback mode.
pub struct FallbackDriver<E> {
    engine: E,
    host: HostQueues,
    /// Labels for host entries: every host entry is younger than every hardware entry of
    /// its queue, so only host entries need ordering among themselves.
    next_label: u64,
    report: HostReport,
    /// The current operation's first acceptance and last response, in engine cycles.
    span: Option<(u64, u64)>,
}

impl<E: CycleEngine> FallbackDriver<E> {
    pub fn new(engine: E) -> Self {
        FallbackDriver {
            engine,
            host: HostQueues::new(),
            next_label: 0,
            report: HostReport::default(),
            span: None,
        }
    }

    pub fn engine(&self) -> &E {
        &self.engine
    }

    pub fn engine_mut(&mut self) -> &mut E {
        &mut self.engine
    }

    /// The engine back, for another run (after a reset).
    pub fn into_engine(self) -> E {
        self.engine
    }

    /// Entries the host holds: (receives, messages).
    pub fn host_lengths(&self) -> (usize, usize) {
        (self.host.prq_len(), self.host.umq_len())
    }

    /// What the run did so far.
    pub fn report(&self) -> HostReport {
        let mut r = self.report;
        r.cycles = self.engine.cycles();
        r.host = self.host.stats();
        r
    }

    fn hardware(&mut self, op: &Op) -> Result<Applied, String> {
        self.report.commands += 1;
        let a = self.engine.apply(op)?;
        self.span = Some((self.span.map_or(a.accepted, |s| s.0), a.responded));
        Ok(a)
    }

    fn label(&mut self) -> u64 {
        self.next_label += 1;
        self.next_label
    }

    /// Applies one MPI operation with unbounded semantics.
    pub fn apply(&mut self, op: &Op) -> Result<Outcome, String> {
        self.report.ops += 1;
        self.span = None;
        let outcome = match *op {
            Op::PostRecv { recv, spec } => self.post(recv, spec)?,
            Op::Arrive { msg, env } => self.arrive(msg, env)?,
            Op::Cancel { recv } => self.cancel(recv)?,
            Op::Probe { spec } => match self.hardware(op)?.outcome {
                Outcome::Probed(Some(m)) => self.hw_found(Outcome::Probed(Some(m))),
                Outcome::Probed(None) => {
                    let found = self.host_unexpected(&spec, false);
                    self.host_found(Outcome::Probed(found))
                }
                other => return Err(unexpected_answer(op, other)),
            },
            Op::MatchedProbe { spec } => match self.hardware(op)?.outcome {
                Outcome::MatchedProbed(Some(m)) => {
                    self.readmit_unexpected()?;
                    self.hw_found(Outcome::MatchedProbed(Some(m)))
                }
                Outcome::MatchedProbed(None) => {
                    let found = self.host_unexpected(&spec, true);
                    self.host_found(Outcome::MatchedProbed(found))
                }
                other => return Err(unexpected_answer(op, other)),
            },
            // The engine's queues and the host's go together.
            Op::Flush => match self.hardware(op)?.outcome {
                Outcome::Flushed => {
                    self.host.clear();
                    Outcome::Flushed
                }
                other => return Err(unexpected_answer(op, other)),
            },
        };
        self.report.note_host_lengths(self.host.prq_len(), self.host.umq_len());
        Ok(outcome)
    }

    fn post(&mut self, recv: RecvId, spec: RecvSpec) -> Result<Outcome, String> {
        let op = Op::PostRecv { recv, spec };
        match self.hardware(&op)?.outcome {
            m @ Outcome::Matched { .. } => {
                // The hardware's messages are the oldest, so its match is MPI's.
                self.readmit_unexpected()?;
                Ok(self.hw_found(m))
            }
            Outcome::Queued => {
                // Queued in hardware: the host holds no receives (the PRQ had room), but
                // its messages, younger than the hardware's, may match. Then the receive
                // is taken back by handle, which is exact, and matched in software.
                match self.host_unexpected(&spec, true) {
                    None => Ok(Outcome::Queued),
                    Some(msg) => {
                        self.report.undone += 1;
                        match self.hardware(&Op::Cancel { recv })?.outcome {
                            Outcome::Cancelled { .. } => Ok(self.host_found(Outcome::Matched { recv, msg })),
                            other => Err(broken(&op, "taking back the receive", other)),
                        }
                    }
                }
            }
            Outcome::Overflow => {
                self.report.fallbacks += 1;
                match self.host_unexpected(&spec, true) {
                    Some(msg) => Ok(self.host_found(Outcome::Matched { recv, msg })),
                    None => {
                        let label = self.label();
                        self.host.push_posted(label, recv, spec);
                        Ok(Outcome::Queued)
                    }
                }
            }
            other => Err(unexpected_answer(&op, other)),
        }
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Result<Outcome, String> {
        let op = Op::Arrive { msg, env };
        match self.hardware(&op)?.outcome {
            m @ Outcome::Matched { .. } => {
                self.readmit_posted()?;
                Ok(self.hw_found(m))
            }
            Outcome::Queued => match self.host_posted(&env) {
                None => Ok(Outcome::Queued),
                Some(recv) => {
                    // A host receive matches, so no queued message has this envelope
                    // (MPI keeps no matching pair queued): a matched probe on the exact
                    // envelope takes back precisely this message.
                    self.report.undone += 1;
                    match self.hardware(&Op::MatchedProbe { spec: RecvSpec::exact(env) })?.outcome {
                        Outcome::MatchedProbed(Some(m)) if m == msg => {
                            Ok(self.host_found(Outcome::Matched { recv, msg }))
                        }
                        other => Err(broken(&op, "taking back the message", other)),
                    }
                }
            },
            Outcome::Overflow => {
                self.report.fallbacks += 1;
                match self.host_posted(&env) {
                    Some(recv) => Ok(self.host_found(Outcome::Matched { recv, msg })),
                    None => {
                        let label = self.label();
                        self.host.push_unexpected(label, msg, env);
                        Ok(Outcome::Queued)
                    }
                }
            }
            other => Err(unexpected_answer(&op, other)),
        }
    }

    fn cancel(&mut self, recv: RecvId) -> Result<Outcome, String> {
        if self.host.cancel(recv) {
            return Ok(Outcome::Cancelled { recv });
        }
        let op = Op::Cancel { recv };
        match self.hardware(&op)?.outcome {
            c @ Outcome::Cancelled { .. } => {
                self.readmit_posted()?;
                Ok(c)
            }
            Outcome::NotFound => Ok(Outcome::NotFound),
            other => Err(unexpected_answer(&op, other)),
        }
    }

    /// The hardware's PRQ lost an entry: the host's oldest receive takes the slot. It is
    /// younger than every hardware receive and older than every other host receive, so
    /// appending it keeps the order; it matches no queued message, so it is queued.
    fn readmit_posted(&mut self) -> Result<(), String> {
        // A removal may free more than one slot (the CAM refills a whole bank), so the
        // host's receives go back, oldest first, until the hardware refuses one.
        while let Some((label, recv, spec)) = self.host.pop_oldest_posted() {
            let op = Op::PostRecv { recv, spec };
            match self.hardware(&op)?.outcome {
                Outcome::Queued => self.report.readmitted += 1,
                Outcome::Overflow => {
                    self.host.push_posted(label, recv, spec);
                    break;
                }
                other => return Err(broken(&op, "moving a receive back into hardware", other)),
            }
        }
        Ok(())
    }

    /// As [`Self::readmit_posted`], for the UMQ.
    fn readmit_unexpected(&mut self) -> Result<(), String> {
        while let Some((label, msg, env)) = self.host.pop_oldest_unexpected() {
            let op = Op::Arrive { msg, env };
            match self.hardware(&op)?.outcome {
                Outcome::Queued => self.report.readmitted += 1,
                Outcome::Overflow => {
                    self.host.push_unexpected(label, msg, env);
                    break;
                }
                other => return Err(broken(&op, "moving a message back into hardware", other)),
            }
        }
        Ok(())
    }

    /// Searches the host's messages, if it holds any (an empty part costs nothing).
    fn host_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        (self.host.umq_len() > 0).then(|| self.host.find_unexpected(spec, remove)).flatten()
    }

    /// Takes the oldest host receive `env` matches, if the host holds any.
    fn host_posted(&mut self, env: &Envelope) -> Option<RecvId> {
        (self.host.prq_len() > 0).then(|| self.host.take_posted(env)).flatten()
    }

    fn hw_found(&mut self, o: Outcome) -> Outcome {
        self.report.count(&o, true);
        o
    }

    fn host_found(&mut self, o: Outcome) -> Outcome {
        self.report.count(&o, false);
        o
    }
}

/// The driver as an engine of its own, for the benchmarks: an operation is accepted when
/// its first command is and answered when its last command is (undo and re-admission
/// included); one settled in software alone takes no cycles.
impl<E: CycleEngine> CycleEngine for FallbackDriver<E> {
    fn apply(&mut self, op: &Op) -> Result<Applied, String> {
        let outcome = FallbackDriver::apply(self, op)?;
        let now = self.engine.cycles();
        let (accepted, responded) = self.span.unwrap_or((now, now));
        Ok(Applied { outcome, accepted, responded })
    }

    fn cycles(&self) -> u64 {
        self.engine.cycles()
    }
}

fn unexpected_answer(op: &Op, got: Outcome) -> String {
    format!("the engine answered \"{got}\" to {op}, which it never should")
}

fn broken(op: &Op, doing: &str, got: Outcome) -> String {
    format!("host driver invariant broken while {doing} for {op}: the engine answered \"{got}\"")
}
