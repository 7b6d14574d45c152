//! The four-index layout of optimistic tag matching, run serially.
//!
//! Posted receives are kept in one of four indexes by their wildcard class, each hashed on
//! what the class still names: no wildcard on hash(comm, src, tag), `ANY_SOURCE` on
//! hash(comm, tag), `ANY_TAG` on hash(comm, src), both wildcards in one list. An arriving
//! message can be matched by a receive of any class, so it looks in all four places and
//! keeps the candidate with the smallest posting label.
//!
//! Unexpected messages are entered in all four indexes at once (hash(comm, src, tag),
//! hash(comm, tag), hash(comm, src), and the list), so that a receive of any class walks
//! exactly one bin. A message matched through one index is unlinked from all four
//! immediately (the published design removes lazily; eager removal keeps the bins short
//! and needs no garbage pass, at the price of three extra unlinks).

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec, WildcardClass};
use crate::model::matcher::{mix3, older, reduce, Matcher, Posted, WorkStats};
use crate::model::ops::Outcome;
use crate::software::arena_list::{ArenaLists, ListId, NodeId};

/// An unexpected message as entered in one index; `slot` names its record, which knows the
/// message's node in each of the four indexes. No label is needed: a receive walks exactly
/// one index, whose lists are in arrival order.
#[derive(Clone, Copy, Debug)]
struct UmqLink {
    msg: MsgId,
    env: Envelope,
    slot: u32,
}

#[derive(Clone, Debug)]
pub struct FourIndexMatcher {
    bins: usize,
    /// Lists `class * bins + bin` for the three hashed classes, `3 * bins` for the list.
    prq: ArenaLists<Posted>,
    umq: ArenaLists<UmqLink>,
    /// For each live unexpected message, its node in each index; free slots are reused.
    umq_nodes: Vec<[NodeId; 4]>,
    free_slots: Vec<u32>,
    next_seq: u64,
    stats: WorkStats,
}

impl FourIndexMatcher {
    /// A matcher whose three hashed indexes have `bins` bins each (at least one).
    pub fn new(bins: usize) -> Self {
        let bins = bins.max(1);
        FourIndexMatcher {
            bins,
            prq: ArenaLists::with_lists(3 * bins + 1),
            umq: ArenaLists::with_lists(3 * bins + 1),
            umq_nodes: Vec::new(),
            free_slots: Vec::new(),
            next_seq: 0,
            stats: WorkStats::default(),
        }
    }

    /// The list of class `class` that holds keys `(comm, src, tag)` (unused parts ignored).
    #[inline]
    fn list(&self, class: WildcardClass, comm: u32, src: u32, tag: u32) -> ListId {
        let (hash, base) = match class {
            WildcardClass::Exact => (mix3(comm, src, tag), 0),
            WildcardClass::AnySource => (mix3(comm, u32::MAX, tag), 1),
            WildcardClass::AnyTag => (mix3(comm, src, u32::MAX), 2),
            WildcardClass::AnyBoth => return (3 * self.bins) as ListId,
        };
        (base * self.bins) as ListId + reduce(hash, self.bins)
    }

    fn label(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    fn take_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        let list = self.list(spec.class(), spec.comm, spec.src.unwrap_or(0), spec.tag.unwrap_or(0));
        let f = self.umq.find_first(list, |u| spec.matches(&u.env));
        self.stats.search(f.inspected);
        let link = *self.umq.get(f.node?);
        if remove {
            for node in self.umq_nodes[link.slot as usize] {
                self.umq.remove(node);
            }
            self.free_slots.push(link.slot);
            self.stats.umq_shrank();
        }
        Some(link.msg)
    }
}

impl Matcher for FourIndexMatcher {
    fn name(&self) -> &'static str {
        "four-index"
    }

    fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        if let Some(msg) = self.take_unexpected(&spec, true) {
            return Outcome::Matched { recv, msg };
        }
        let list = self.list(spec.class(), spec.comm, spec.src.unwrap_or(0), spec.tag.unwrap_or(0));
        let seq = self.label();
        self.prq.push_back(list, Posted { recv, spec, seq });
        self.stats.prq_grew();
        Outcome::Queued
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        let mut inspected = 0;
        let mut best = None;
        for class in WildcardClass::ALL {
            let list = self.list(class, env.comm, env.src, env.tag);
            let f = self.prq.find_first(list, |p| p.spec.matches(&env));
            inspected += f.inspected;
            best = older(best, f.node.map(|n| (self.prq.get(n).seq, n)));
        }
        self.stats.search(inspected);
        if let Some((_, node)) = best {
            self.stats.prq_shrank();
            return Outcome::Matched { recv: self.prq.remove(node).recv, msg };
        }
        let slot = match self.free_slots.pop() {
            Some(s) => s,
            None => {
                self.umq_nodes.push([0; 4]);
                (self.umq_nodes.len() - 1) as u32
            }
        };
        let link = UmqLink { msg, env, slot };
        for class in WildcardClass::ALL {
            let list = self.list(class, env.comm, env.src, env.tag);
            self.umq_nodes[slot as usize][class.index()] = self.umq.push_back(list, link);
        }
        self.stats.umq_grew();
        Outcome::Queued
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

    probe_flush_and_stats!(|matcher: &Self| Self::new(matcher.bins));

    fn memory_bytes(&self) -> usize {
        self.prq.memory_bytes()
            + self.umq.memory_bytes()
            + self.umq_nodes.capacity() * 16
            + self.free_slots.capacity() * 4
    }
}
