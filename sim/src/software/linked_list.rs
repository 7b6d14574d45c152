//! MPICH/MVAPICH-style matching: one linked list per queue, searched from the head.
//!
//! Every search walks the list in posting order, so cost grows linearly with queue depth;
//! this is the baseline the other structures are measured against.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::matcher::{Matcher, Posted, Unexpected, WorkStats};
use crate::model::ops::Outcome;
use crate::software::arena_list::{ArenaLists, ListId};

const QUEUE: ListId = 0;

#[derive(Clone, Debug)]
pub struct LinkedListMatcher {
    prq: ArenaLists<Posted>,
    umq: ArenaLists<Unexpected>,
    stats: WorkStats,
}

impl Default for LinkedListMatcher {
    fn default() -> Self {
        Self::new()
    }
}

impl LinkedListMatcher {
    pub fn new() -> Self {
        LinkedListMatcher {
            prq: ArenaLists::with_lists(1),
            umq: ArenaLists::with_lists(1),
            stats: WorkStats::default(),
        }
    }

    fn take_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        let f = self.umq.find_first(QUEUE, |u| spec.matches(&u.env));
        self.stats.search(f.inspected);
        let node = f.node?;
        if remove {
            self.stats.umq_shrank();
            Some(self.umq.remove(node).msg)
        } else {
            Some(self.umq.get(node).msg)
        }
    }
}

impl Matcher for LinkedListMatcher {
    fn name(&self) -> &'static str {
        "linked-list"
    }

    fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        match self.take_unexpected(&spec, true) {
            Some(msg) => Outcome::Matched { recv, msg },
            None => {
                // The list order is the posting order, so no label is needed here.
                self.prq.push_back(QUEUE, Posted { recv, spec, seq: 0 });
                self.stats.prq_grew();
                Outcome::Queued
            }
        }
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        let f = self.prq.find_first(QUEUE, |p| p.spec.matches(&env));
        self.stats.search(f.inspected);
        match f.node {
            Some(node) => {
                self.stats.prq_shrank();
                Outcome::Matched { recv: self.prq.remove(node).recv, msg }
            }
            None => {
                self.umq.push_back(QUEUE, Unexpected { msg, env, seq: 0 });
                self.stats.umq_grew();
                Outcome::Queued
            }
        }
    }

    fn cancel(&mut self, recv: RecvId) -> Outcome {
        match self.prq.find_first(QUEUE, |p| p.recv == recv).node {
            Some(node) => {
                self.prq.remove(node);
                self.stats.prq_shrank();
                Outcome::Cancelled { recv }
            }
            None => Outcome::NotFound,
        }
    }

    probe_flush_and_stats!(|_: &Self| Self::new());

    fn memory_bytes(&self) -> usize {
        self.prq.memory_bytes() + self.umq.memory_bytes()
    }
}
