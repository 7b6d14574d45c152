//! The thread array as a command-level engine: what the hardware answers and when, for
//! the same commands the RTL driver sends. A command is one operation, or a block of up
//! to `threads` consecutive arrivals (one per lane) — [`commands`] cuts a stream the way
//! both sides do.

use super::cost::{block_latency, cancel_latency, flush_latency, head_banks, post_latency, SEARCH_LATENCY};
use super::{BlockTrace, OptimisticConfig, OptimisticMatcher};
use crate::cycle::check_fields;
use crate::model::ops::{Op, Outcome};
use std::ops::Range;

/// What one command got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// One outcome per operation of the command, in order.
    pub outcomes: Vec<Outcome>,
    pub accepted: u64,
    pub responded: u64,
    /// What the lanes did, for a block.
    pub block: Option<BlockTrace>,
}

/// The stream cut into commands: runs of up to `threads` consecutive arrivals, every
/// other operation alone.
pub fn commands(ops: &[Op], threads: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < ops.len() {
        let mut end = at + 1;
        if matches!(ops[at], Op::Arrive { .. }) {
            while end < ops.len() && end - at < threads && matches!(ops[end], Op::Arrive { .. }) {
                end += 1;
            }
        }
        out.push(at..end);
        at = end;
    }
    out
}

/// The thread array's cycle-level model.
pub struct OptimisticEngine {
    matcher: OptimisticMatcher,
    threads: usize,
    /// The first cycle the engine can accept a command.
    now: u64,
}

impl OptimisticEngine {
    pub fn new(cfg: OptimisticConfig) -> Result<Self, String> {
        if !cfg.is_hardware() {
            return Err("the hardware thread array removes lazily and has no early booking check: \
                 its configuration cannot ask for either"
                .into());
        }
        Ok(OptimisticEngine { matcher: OptimisticMatcher::new(cfg)?, threads: cfg.threads, now: 0 })
    }

    /// The reset port held high through cycle `cycle`: whatever was under way is dropped,
    /// the tables empty, and the array takes its next command once the flush's clearing
    /// pass is done, `flush_latency` cycles later (the pass without its answer).
    pub fn reset(&mut self, cycle: u64) {
        self.matcher.flush();
        let cfg = self.matcher.config();
        self.now = cycle + flush_latency(cfg.bins, head_banks(cfg.threads, cfg.bins));
    }

    /// Applies one command: an operation, or a block of arrivals.
    pub fn apply(&mut self, ops: &[Op]) -> Result<Answer, String> {
        let fields = self.matcher.config().fields;
        ops.iter().try_for_each(|op| check_fields(&fields, op))?;
        let accepted = self.now;
        let (outcomes, latency, block) = match ops {
            [] => return Err("an empty command".into()),
            [Op::Arrive { .. }, ..] => {
                let msgs: Vec<_> = ops
                    .iter()
                    .map(|op| match *op {
                        Op::Arrive { msg, env } => Ok((msg, env)),
                        _ => Err(format!("a block holds arrivals only, not {op:?}")),
                    })
                    .collect::<Result<_, _>>()?;
                if msgs.len() > self.threads {
                    return Err(format!("{} arrivals in a block of {} lanes", msgs.len(), self.threads));
                }
                let (outcomes, trace) = self.matcher.arrive_block(&msgs);
                let cfg = self.matcher.config();
                (
                    outcomes,
                    block_latency(&trace, head_banks(cfg.threads, cfg.bins), cfg.fast_path),
                    Some(trace),
                )
            }
            [op] => {
                let outcome = match *op {
                    Op::PostRecv { recv, spec } => self.matcher.post_recv(recv, spec),
                    Op::Cancel { recv } => self.matcher.cancel(recv),
                    Op::Probe { spec } => self.matcher.probe(spec, false),
                    Op::MatchedProbe { spec } => self.matcher.probe(spec, true),
                    Op::Flush => {
                        self.matcher.flush();
                        Outcome::Flushed
                    }
                    Op::Arrive { .. } => unreachable!("matched above"),
                };
                let latency = match op {
                    Op::PostRecv { .. } => post_latency(&outcome),
                    Op::Cancel { .. } => {
                        let cfg = self.matcher.config();
                        let found = matches!(outcome, Outcome::Cancelled { .. });
                        cancel_latency(cfg.descriptors, cfg.threads, found)
                    }
                    Op::Flush => {
                        let cfg = self.matcher.config();
                        flush_latency(cfg.bins, head_banks(cfg.threads, cfg.bins))
                    }
                    _ => SEARCH_LATENCY,
                };
                (vec![outcome], latency, None)
            }
            _ => return Err(format!("{} operations in one command that is not a block", ops.len())),
        };
        let responded = accepted + latency;
        // The host takes the answer at `responded`; the engine is ready the cycle after.
        self.now = responded + 1;
        Ok(Answer { outcomes, accepted, responded, block })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cycle::FieldWidths;
    use crate::{Envelope, MsgId, RecvId, RecvSpec};

    #[test]
    fn commands_block_consecutive_arrivals_up_to_the_lane_count() {
        let arrive = |i| Op::Arrive { msg: MsgId(i), env: Envelope::new(0, 0, 0) };
        let post = Op::PostRecv { recv: RecvId(9), spec: RecvSpec::exact(Envelope::new(0, 0, 0)) };
        let ops = [arrive(0), arrive(1), arrive(2), post, arrive(3), post];
        assert_eq!(commands(&ops, 2), [0..2, 2..3, 3..4, 4..5, 5..6]);
        assert_eq!(commands(&ops, 4), [0..3, 3..4, 4..5, 5..6]);
    }

    #[test]
    fn answers_follow_one_another() {
        let mut e = OptimisticEngine::new(OptimisticConfig::hardware(4, 8, 4, 4)).unwrap();
        let spec = RecvSpec::exact(Envelope::new(0, 1, 2));
        let a = e.apply(&[Op::PostRecv { recv: RecvId(1), spec }]).unwrap();
        assert_eq!((a.outcomes[0], a.accepted, a.responded), (Outcome::Queued, 0, 3));
        // A cancel scans 8 descriptors on 4 lanes in 2 cycles.
        let b = e.apply(&[Op::Cancel { recv: RecvId(1) }]).unwrap();
        assert_eq!((b.accepted, b.responded), (4, 4 + 2 + 5));
        let c = e.apply(&[Op::Cancel { recv: RecvId(1) }]).unwrap();
        assert_eq!((c.outcomes[0], c.accepted, c.responded), (Outcome::NotFound, 12, 12 + 2 + 3));
        assert!(e.apply(&[Op::Cancel { recv: RecvId(1) }, Op::Cancel { recv: RecvId(1) }]).is_err());
    }

    #[test]
    fn operations_wider_than_the_fields_are_refused() {
        let mut cfg = OptimisticConfig::hardware(2, 8, 4, 4);
        cfg.fields = FieldWidths::new(4, 4, 4, 8).unwrap();
        let mut e = OptimisticEngine::new(cfg).unwrap();
        let post = |tag, handle| Op::PostRecv {
            recv: RecvId(handle),
            spec: RecvSpec::exact(Envelope::new(1, 2, tag)),
        };
        let err = e.apply(&[post(16, 1)]).unwrap_err();
        assert!(err.contains("tag 16") && err.contains("4 bits"), "{err}");
        assert!(e.apply(&[post(15, 256)]).unwrap_err().contains("handle 256"));
        assert_eq!(e.apply(&[post(15, 255)]).unwrap().outcomes, [Outcome::Queued]);
    }
}
