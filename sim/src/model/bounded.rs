//! The golden model with finite queues, as hardware has them: an operation that would
//! append to a full PRQ or UMQ is answered [`Outcome::Overflow`] and not applied, so the
//! host can keep it. Everything else is exactly the golden model.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::golden::Golden;
use crate::model::matcher::Matcher;
use crate::model::ops::{Op, Outcome};

#[derive(Clone, Debug)]
pub struct BoundedGolden {
    golden: Golden,
    prq_capacity: usize,
    umq_capacity: usize,
}

impl BoundedGolden {
    pub fn new(prq_capacity: usize, umq_capacity: usize) -> Self {
        BoundedGolden { golden: Golden::new(), prq_capacity, umq_capacity }
    }

    pub fn apply(&mut self, op: &Op) -> Outcome {
        if self.appends(op) && !self.has_room(op) {
            Outcome::Overflow
        } else {
            self.golden.apply(op)
        }
    }

    /// Whether `op` would be queued: it matches nothing and its queue has room. An engine
    /// may still refuse it with overflow for a reason of its own (narrow posting labels:
    /// `parallel_lists.rs`). Changes nothing.
    pub fn would_queue(&self, op: &Op) -> bool {
        self.appends(op) && self.has_room(op)
    }

    /// `op` is a receive or message that matches nothing, so it goes to its queue.
    fn appends(&self, op: &Op) -> bool {
        match *op {
            Op::PostRecv { spec, .. } => !self.golden.would_match_unexpected(&spec),
            Op::Arrive { env, .. } => !self.golden.would_match_posted(&env),
            _ => false,
        }
    }

    /// The queue `op` would append to has room.
    fn has_room(&self, op: &Op) -> bool {
        let s = self.golden.stats();
        match op {
            Op::PostRecv { .. } => s.prq_len < self.prq_capacity,
            Op::Arrive { .. } => s.umq_len < self.umq_capacity,
            _ => true,
        }
    }

    /// What an engine that answered `got` owes for `op`, applying it: an engine whose
    /// queues guarantee only `guaranteed` entries (its CAM wastes slots: `cycle::cam_banks`)
    /// may refuse an operation that would queue once that queue holds `guaranteed` or
    /// more, and then owes overflow and changes nothing; otherwise the golden outcome.
    pub fn expect(&mut self, op: &Op, got: &Outcome, guaranteed: usize) -> Outcome {
        if *got == Outcome::Overflow && self.would_queue(op) && self.queue_len_for(op) >= guaranteed {
            Outcome::Overflow
        } else {
            self.apply(op)
        }
    }

    /// Entries in the queue `op` appends to (0 for an operation that appends to none).
    pub fn queue_len_for(&self, op: &Op) -> usize {
        let s = self.golden.stats();
        match op {
            Op::PostRecv { .. } => s.prq_len,
            Op::Arrive { .. } => s.umq_len,
            _ => 0,
        }
    }

    pub fn queue_lengths(&self) -> (usize, usize) {
        let s = self.golden.stats();
        (s.prq_len, s.umq_len)
    }

    /// Posts a receive.
    pub fn post(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        self.apply(&Op::PostRecv { recv, spec })
    }

    /// Delivers a message.
    pub fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        self.apply(&Op::Arrive { msg, env })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_overflows_without_losing_the_operation() {
        let mut b = BoundedGolden::new(2, 1);
        let spec = |t| RecvSpec::new(0, Some(1), Some(t));
        assert_eq!(b.post(RecvId(1), spec(1)), Outcome::Queued);
        assert_eq!(b.post(RecvId(2), spec(2)), Outcome::Queued);
        assert_eq!(b.post(RecvId(3), spec(3)), Outcome::Overflow);
        // A message that matches still matches when the PRQ is full.
        assert_eq!(
            b.arrive(MsgId(9), Envelope::new(0, 1, 2)),
            Outcome::Matched { recv: RecvId(2), msg: MsgId(9) }
        );
        assert_eq!(b.arrive(MsgId(10), Envelope::new(0, 5, 5)), Outcome::Queued);
        assert_eq!(b.arrive(MsgId(11), Envelope::new(0, 5, 6)), Outcome::Overflow);
        assert_eq!(b.queue_lengths(), (1, 1));
    }
}
