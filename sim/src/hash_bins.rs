//! Hash-bin matching after Flajslik et al. ("Mitigating MPI message matching misery").
//!
//! Each queue is split into `bins` linked lists selected by a hash of the full envelope
//! (communicator, source, tag). A receive with any wildcard cannot be hashed, so the PRQ
//! keeps those in one extra wildcard list; an arriving message walks its bin and that list
//! and takes the candidate with the smaller posting label. In the UMQ every message has a
//! full envelope and lives in its bin; a receive without wildcards walks one bin, a
//! wildcard receive walks the first hit of every bin and takes the oldest.

use crate::arena_list::{ArenaLists, ListId};
use crate::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::matcher::{mix3, older, reduce, Matcher, Posted, Unexpected, WorkStats};
use crate::ops::Outcome;

#[derive(Clone, Debug)]
pub struct HashBinsMatcher {
    bins: usize,
    /// Lists `0..bins` are bins; list `bins` holds wildcard receives.
    prq: ArenaLists<Posted>,
    umq: ArenaLists<Unexpected>,
    next_seq: u64,
    stats: WorkStats,
}

impl HashBinsMatcher {
    /// A matcher with `bins` bins per queue (at least one).
    pub fn new(bins: usize) -> Self {
        let bins = bins.max(1);
        HashBinsMatcher {
            bins,
            prq: ArenaLists::with_lists(bins + 1),
            umq: ArenaLists::with_lists(bins),
            next_seq: 0,
            stats: WorkStats::default(),
        }
    }

    pub fn bins(&self) -> usize {
        self.bins
    }

    #[inline]
    fn bin(&self, env: &Envelope) -> ListId {
        reduce(mix3(env.comm, env.src, env.tag), self.bins)
    }

    fn wildcard_list(&self) -> ListId {
        self.bins as ListId
    }

    fn label(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    fn search_umq(&mut self, spec: &RecvSpec) -> Option<u32> {
        if let (Some(src), Some(tag)) = (spec.src, spec.tag) {
            let b = self.bin(&Envelope::new(spec.comm, src, tag));
            let f = self.umq.find_first(b, |u| spec.matches(&u.env));
            self.stats.search(f.inspected);
            return f.node;
        }
        let mut inspected = 0;
        let mut best = None;
        for b in 0..self.bins as ListId {
            let f = self.umq.find_first(b, |u| spec.matches(&u.env));
            inspected += f.inspected;
            best = older(best, f.node.map(|n| (self.umq.get(n).seq, n)));
        }
        self.stats.search(inspected);
        best.map(|(_, n)| n)
    }

    fn take_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        let node = self.search_umq(spec)?;
        if remove {
            self.stats.umq_shrank();
            Some(self.umq.remove(node).msg)
        } else {
            Some(self.umq.get(node).msg)
        }
    }
}

impl Matcher for HashBinsMatcher {
    fn name(&self) -> &'static str {
        "hash-bins"
    }

    fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        if let Some(msg) = self.take_unexpected(&spec, true) {
            return Outcome::Matched { recv, msg };
        }
        let list = match (spec.src, spec.tag) {
            (Some(src), Some(tag)) => self.bin(&Envelope::new(spec.comm, src, tag)),
            _ => self.wildcard_list(),
        };
        let seq = self.label();
        self.prq.push_back(list, Posted { recv, spec, seq });
        self.stats.prq_grew();
        Outcome::Queued
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        let bin = self.prq.find_first(self.bin(&env), |p| p.spec.matches(&env));
        let wild = self.prq.find_first(self.wildcard_list(), |p| p.spec.matches(&env));
        self.stats.search(bin.inspected + wild.inspected);
        let best = older(
            bin.node.map(|n| (self.prq.get(n).seq, n)),
            wild.node.map(|n| (self.prq.get(n).seq, n)),
        );
        match best {
            Some((_, node)) => {
                self.stats.prq_shrank();
                Outcome::Matched { recv: self.prq.remove(node).recv, msg }
            }
            None => {
                let seq = self.label();
                self.umq.push_back(self.bin(&env), Unexpected { msg, env, seq });
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

    fn probe(&mut self, spec: RecvSpec) -> Outcome {
        Outcome::Probed(self.take_unexpected(&spec, false))
    }

    fn matched_probe(&mut self, spec: RecvSpec) -> Outcome {
        Outcome::MatchedProbed(self.take_unexpected(&spec, true))
    }

    fn stats(&self) -> WorkStats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.prq.memory_bytes() + self.umq.memory_bytes()
    }
}
