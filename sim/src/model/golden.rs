//! The golden model of MPI matching: the reference every other engine is checked against.
//!
//! It is deliberately the plainest structure that obeys the rules: each queue is a vector
//! in posting (or arrival) order, a search walks it from the front and takes the first hit.
//! The first hit in posting order is the oldest, which is rule C1 for the PRQ (a message
//! matches the oldest posted receive that matches it) and rule C2 for the UMQ (a receive
//! matches the oldest matching unexpected message, so one sender's messages are received in
//! the order they were sent). Ring buffers rather than linked lists keep short queues, the
//! common case, in one or two cache lines, and removing the oldest entry (the usual hit)
//! costs nothing however deep the queue is.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::matcher::{Matcher, WorkStats};
use crate::model::ops::Outcome;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug)]
struct PostedEntry {
    recv: RecvId,
    spec: RecvSpec,
}

#[derive(Clone, Copy, Debug)]
struct UnexpectedEntry {
    msg: MsgId,
    env: Envelope,
}

#[derive(Clone, Debug, Default)]
pub struct Golden {
    prq: VecDeque<PostedEntry>,
    umq: VecDeque<UnexpectedEntry>,
    stats: WorkStats,
}

impl Golden {
    pub fn new() -> Self {
        Self::default()
    }

    /// The posted receives, oldest first.
    pub fn posted(&self) -> impl Iterator<Item = (RecvId, RecvSpec)> + '_ {
        self.prq.iter().map(|e| (e.recv, e.spec))
    }

    /// The unexpected messages, oldest first.
    pub fn unexpected(&self) -> impl Iterator<Item = (MsgId, Envelope)> + '_ {
        self.umq.iter().map(|e| (e.msg, e.env))
    }

    /// Whether an arriving message with `env` would match a posted receive (no change).
    pub fn would_match_posted(&self, env: &Envelope) -> bool {
        self.prq.iter().any(|e| e.spec.matches(env))
    }

    /// Whether a receive with `spec` would match an unexpected message (no change).
    pub fn would_match_unexpected(&self, spec: &RecvSpec) -> bool {
        self.umq.iter().any(|e| spec.matches(&e.env))
    }

    fn search_umq(&mut self, spec: &RecvSpec) -> Option<usize> {
        let hit = self.umq.iter().position(|e| spec.matches(&e.env));
        self.stats.search(hit.map_or(self.umq.len(), |i| i + 1) as u32);
        hit
    }
}

impl Matcher for Golden {
    fn name(&self) -> &'static str {
        "golden"
    }

    fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        match self.search_umq(&spec) {
            Some(i) => {
                let m = self.umq.remove(i).expect("hit is in range");
                self.stats.umq_shrank();
                Outcome::Matched { recv, msg: m.msg }
            }
            None => {
                self.prq.push_back(PostedEntry { recv, spec });
                self.stats.prq_grew();
                Outcome::Queued
            }
        }
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        let hit = self.prq.iter().position(|e| e.spec.matches(&env));
        self.stats.search(hit.map_or(self.prq.len(), |i| i + 1) as u32);
        match hit {
            Some(i) => {
                let r = self.prq.remove(i).expect("hit is in range");
                self.stats.prq_shrank();
                Outcome::Matched { recv: r.recv, msg }
            }
            None => {
                self.umq.push_back(UnexpectedEntry { msg, env });
                self.stats.umq_grew();
                Outcome::Queued
            }
        }
    }

    fn cancel(&mut self, recv: RecvId) -> Outcome {
        match self.prq.iter().position(|e| e.recv == recv) {
            Some(i) => {
                self.prq.remove(i);
                self.stats.prq_shrank();
                Outcome::Cancelled { recv }
            }
            None => Outcome::NotFound,
        }
    }

    fn probe(&mut self, spec: RecvSpec) -> Outcome {
        let hit = self.search_umq(&spec);
        Outcome::Probed(hit.map(|i| self.umq[i].msg))
    }

    fn matched_probe(&mut self, spec: RecvSpec) -> Outcome {
        let hit = self.search_umq(&spec);
        Outcome::MatchedProbed(hit.map(|i| {
            self.stats.umq_shrank();
            self.umq.remove(i).expect("hit is in range").msg
        }))
    }

    fn flush(&mut self) {
        self.prq.clear();
        self.umq.clear();
        self.stats.flushed();
    }

    fn stats(&self) -> WorkStats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.prq.capacity() * std::mem::size_of::<PostedEntry>()
            + self.umq.capacity() * std::mem::size_of::<UnexpectedEntry>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::envelope::{ANY_SOURCE, ANY_TAG};

    fn env(c: u32, s: u32, t: u32) -> Envelope {
        Envelope::new(c, s, t)
    }

    #[test]
    fn message_takes_oldest_matching_receive_wildcard_or_not() {
        let mut g = Golden::new();
        assert_eq!(g.post_recv(RecvId(1), RecvSpec::new(0, Some(1), Some(9))), Outcome::Queued);
        assert_eq!(g.post_recv(RecvId(2), RecvSpec::new(0, ANY_SOURCE, Some(5))), Outcome::Queued);
        assert_eq!(g.post_recv(RecvId(3), RecvSpec::new(0, Some(1), Some(5))), Outcome::Queued);
        // Both 2 and 3 match; 2 was posted first.
        assert_eq!(g.arrive(MsgId(10), env(0, 1, 5)), Outcome::Matched { recv: RecvId(2), msg: MsgId(10) });
        assert_eq!(g.arrive(MsgId(11), env(0, 1, 5)), Outcome::Matched { recv: RecvId(3), msg: MsgId(11) });
        // Different communicator: no match.
        assert_eq!(g.arrive(MsgId(12), env(1, 1, 9)), Outcome::Queued);
        assert_eq!(g.stats().prq_len, 1);
        assert_eq!(g.stats().umq_len, 1);
    }

    #[test]
    fn receive_takes_oldest_matching_message_and_probe_leaves_it() {
        let mut g = Golden::new();
        g.arrive(MsgId(1), env(0, 2, 7));
        g.arrive(MsgId(2), env(0, 3, 7));
        g.arrive(MsgId(3), env(0, 2, 8));
        assert_eq!(g.probe(RecvSpec::new(0, Some(2), ANY_TAG)), Outcome::Probed(Some(MsgId(1))));
        assert_eq!(g.probe(RecvSpec::new(0, Some(9), ANY_TAG)), Outcome::Probed(None));
        assert_eq!(
            g.matched_probe(RecvSpec::new(0, ANY_SOURCE, Some(7))),
            Outcome::MatchedProbed(Some(MsgId(1)))
        );
        assert_eq!(
            g.post_recv(RecvId(5), RecvSpec::new(0, Some(2), ANY_TAG)),
            Outcome::Matched { recv: RecvId(5), msg: MsgId(3) }
        );
        assert_eq!(g.unexpected().map(|(m, _)| m).collect::<Vec<_>>(), vec![MsgId(2)]);
    }

    #[test]
    fn cancel_removes_only_a_receive_still_posted() {
        let mut g = Golden::new();
        g.post_recv(RecvId(1), RecvSpec::new(0, ANY_SOURCE, ANY_TAG));
        g.post_recv(RecvId(2), RecvSpec::new(0, ANY_SOURCE, ANY_TAG));
        assert_eq!(g.cancel(RecvId(1)), Outcome::Cancelled { recv: RecvId(1) });
        assert_eq!(g.cancel(RecvId(1)), Outcome::NotFound);
        assert_eq!(g.arrive(MsgId(1), env(0, 0, 0)), Outcome::Matched { recv: RecvId(2), msg: MsgId(1) });
        assert_eq!(g.cancel(RecvId(2)), Outcome::NotFound);
        assert_eq!(g.posted().count(), 0);
    }
}
