//! The completion unit's golden semantics: a counter of matches per class (a
//! communicator's low 2 bits), waits that answer when their count is reached and tests
//! that answer at once. It observes the golden model's outcomes, so a co-simulation can
//! say after which operation a parked wait must end and with what counter.

use crate::cycle::{completion_class, reached, Completion, CompletionAnswer, COMPLETION_CLASSES};
use crate::model::ops::{Op, Outcome};

#[derive(Clone, Debug, Default)]
pub struct CompletionCounters {
    counters: [u32; COMPLETION_CLASSES],
    parked: Option<(usize, u32)>,
}

impl CompletionCounters {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn counter(&self, class: usize) -> u32 {
        self.counters[class % COMPLETION_CLASSES]
    }

    /// Counts `outcome` of `op`; returns the counter if it ends the parked wait.
    pub fn observe(&mut self, op: &Op, outcome: &Outcome) -> Option<u32> {
        let matched = matches!(outcome, Outcome::Matched { .. } | Outcome::MatchedProbed(Some(_)));
        let class = completion_class(op).filter(|_| matched)?;
        self.counters[class] = self.counters[class].wrapping_add(1);
        match self.parked {
            Some((c, count)) if c == class && reached(self.counters[class], count) => {
                self.parked = None;
                Some(self.counters[class])
            }
            _ => None,
        }
    }

    pub fn command(&mut self, c: &Completion) -> CompletionAnswer {
        let (Completion::Wait { class, count } | Completion::Test { class, count }) = *c;
        let class = class as usize % COMPLETION_CLASSES;
        let counter = self.counters[class];
        match c {
            Completion::Wait { .. } if self.parked.is_some() => CompletionAnswer::Refused,
            _ if reached(counter, count) => CompletionAnswer::Reached(counter),
            Completion::Test { .. } => CompletionAnswer::NotReached(counter),
            Completion::Wait { .. } => {
                self.parked = Some((class, count));
                CompletionAnswer::Parked
            }
        }
    }

    /// Counters cleared, nothing parked (the engine's reset).
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::envelope::{Envelope, MsgId, RecvId};

    #[test]
    fn a_parked_wait_ends_with_the_match_that_reaches_its_count() {
        let mut c = CompletionCounters::new();
        let arrive = |comm| Op::Arrive { msg: MsgId(1), env: Envelope::new(comm, 0, 0) };
        let matched = Outcome::Matched { recv: RecvId(1), msg: MsgId(1) };
        assert_eq!(c.command(&Completion::Wait { class: 1, count: 2 }), CompletionAnswer::Parked);
        assert_eq!(c.command(&Completion::Wait { class: 2, count: 0 }), CompletionAnswer::Refused);
        assert_eq!(c.observe(&arrive(1), &matched), None);
        assert_eq!(c.observe(&arrive(2), &matched), None, "another class");
        assert_eq!(c.observe(&arrive(5), &Outcome::Queued), None, "no match");
        assert_eq!(c.observe(&arrive(5), &matched), Some(2), "communicator 5 is class 1");
        assert_eq!(c.command(&Completion::Test { class: 1, count: 3 }), CompletionAnswer::NotReached(2));
        assert_eq!(c.command(&Completion::Wait { class: 1, count: 1 }), CompletionAnswer::Reached(2));
    }

    #[test]
    fn counts_compare_by_serial_arithmetic() {
        use crate::cycle::reached;
        assert!(reached(5, 3) && reached(5, 5) && !reached(5, 6));
        assert!(reached(3, u32::MAX - 2), "a count behind a wrapped counter is reached");
        assert!(!reached(0, 1 << 31), "exactly half the space ahead is not reached");
        assert!(reached(0, (1 << 31) + 1), "just past half is behind");
    }
}
