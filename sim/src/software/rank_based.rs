//! Open MPI-style rank-based matching.
//!
//! Per communicator, an array indexed by source rank holds one PRQ list and one UMQ list
//! per sender, plus one PRQ list for `ANY_SOURCE` receives. An arriving message walks only
//! its sender's PRQ list and the `ANY_SOURCE` list and takes the candidate with the smaller
//! posting label. A receive from a named source walks that source's UMQ list; an
//! `ANY_SOURCE` receive must look at every sender's list and take the oldest first hit.
//! The arrays grow to the highest rank seen (Open MPI sizes them by communicator size,
//! which the model does not know): memory is O(ranks) per communicator.

use crate::model::envelope::{Comm, Envelope, MsgId, Rank, RecvId, RecvSpec};
use crate::model::matcher::{older, Matcher, Posted, Unexpected, WorkStats};
use crate::model::ops::Outcome;
use crate::software::arena_list::{ArenaLists, ListId};
use rustc_hash::FxHashMap;

#[derive(Clone, Debug)]
struct CommQueues {
    prq_by_src: Vec<ListId>,
    prq_any_source: ListId,
    umq_by_src: Vec<ListId>,
}

#[derive(Clone, Debug, Default)]
pub struct RankBasedMatcher {
    comm_index: FxHashMap<Comm, usize>,
    comms: Vec<CommQueues>,
    prq: ArenaLists<Posted>,
    umq: ArenaLists<Unexpected>,
    next_seq: u64,
    stats: WorkStats,
}

impl RankBasedMatcher {
    pub fn new() -> Self {
        Self::default()
    }

    fn comm(&mut self, comm: Comm) -> usize {
        if let Some(&i) = self.comm_index.get(&comm) {
            return i;
        }
        let q = CommQueues {
            prq_by_src: Vec::new(),
            prq_any_source: self.prq.add_list(),
            umq_by_src: Vec::new(),
        };
        self.comms.push(q);
        self.comm_index.insert(comm, self.comms.len() - 1);
        self.comms.len() - 1
    }

    /// Grows a communicator's per-source arrays so that `src` has its lists.
    fn ensure_rank(&mut self, c: usize, src: Rank) {
        let need = src as usize + 1;
        while self.comms[c].prq_by_src.len() < need {
            let p = self.prq.add_list();
            let u = self.umq.add_list();
            self.comms[c].prq_by_src.push(p);
            self.comms[c].umq_by_src.push(u);
        }
    }

    fn label(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    /// The oldest unexpected message matching `spec`, as (label, node).
    fn search_umq(&mut self, spec: &RecvSpec) -> Option<(u64, u32)> {
        let Some(&c) = self.comm_index.get(&spec.comm) else {
            self.stats.search(0);
            return None;
        };
        let cq = &self.comms[c];
        let mut inspected = 0;
        let mut best = None;
        let lists: &[ListId] = match spec.src {
            Some(s) => match cq.umq_by_src.get(s as usize) {
                Some(l) => std::slice::from_ref(l),
                None => &[],
            },
            None => &cq.umq_by_src,
        };
        for &l in lists {
            let f = self.umq.find_first(l, |u| spec.matches(&u.env));
            inspected += f.inspected;
            best = older(best, f.node.map(|n| (self.umq.get(n).seq, n)));
        }
        self.stats.search(inspected);
        best
    }

    fn take_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        let (_, node) = self.search_umq(spec)?;
        if remove {
            self.stats.umq_shrank();
            Some(self.umq.remove(node).msg)
        } else {
            Some(self.umq.get(node).msg)
        }
    }
}

impl Matcher for RankBasedMatcher {
    fn name(&self) -> &'static str {
        "rank-based"
    }

    fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        if let Some(msg) = self.take_unexpected(&spec, true) {
            return Outcome::Matched { recv, msg };
        }
        let c = self.comm(spec.comm);
        let list = match spec.src {
            Some(s) => {
                self.ensure_rank(c, s);
                self.comms[c].prq_by_src[s as usize]
            }
            None => self.comms[c].prq_any_source,
        };
        let seq = self.label();
        self.prq.push_back(list, Posted { recv, spec, seq });
        self.stats.prq_grew();
        Outcome::Queued
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        let c = self.comm(env.comm);
        self.ensure_rank(c, env.src);
        let cq = &self.comms[c];
        let by_src = self.prq.find_first(cq.prq_by_src[env.src as usize], |p| p.spec.matches(&env));
        let any = self.prq.find_first(cq.prq_any_source, |p| p.spec.matches(&env));
        self.stats.search(by_src.inspected + any.inspected);
        let best =
            older(by_src.node.map(|n| (self.prq.get(n).seq, n)), any.node.map(|n| (self.prq.get(n).seq, n)));
        match best {
            Some((_, node)) => {
                self.stats.prq_shrank();
                Outcome::Matched { recv: self.prq.remove(node).recv, msg }
            }
            None => {
                let seq = self.label();
                let list = self.comms[c].umq_by_src[env.src as usize];
                self.umq.push_back(list, Unexpected { msg, env, seq });
                self.stats.umq_grew();
                Outcome::Queued
            }
        }
    }

    fn cancel(&mut self, recv: RecvId) -> Outcome {
        match self.prq.find_anywhere(|p| p.recv == recv).node {
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
        let arrays: usize =
            self.comms.iter().map(|c| (c.prq_by_src.capacity() + c.umq_by_src.capacity()) * 4 + 4).sum();
        self.prq.memory_bytes() + self.umq.memory_bytes() + arrays
    }
}
