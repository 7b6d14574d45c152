//! Hash-bin matching after Flajslik et al. ("Mitigating MPI message matching misery").
//!
//! Each queue is split into bins, linked lists selected by a hash of the full envelope
//! (communicator, source, tag). A receive with any wildcard cannot be hashed, so the PRQ
//! keeps those in one extra wildcard list; an arriving message walks its bin and that list
//! and takes the candidate with the smaller posting label. In the UMQ every message has a
//! full envelope and lives in its bin; a receive without wildcards walks one bin, a
//! wildcard receive walks the first hit of every bin and takes the oldest.
//!
//! The bin count is either fixed (as in the paper, for studies by bin count) or grows with
//! the queue ([`Bins::Growing`]): a queue doubles its bins when it holds more than two
//! entries per bin, so the bins stay short at any depth while short queues keep few bins
//! (cheap wildcard scans). Doubling splits bin `i` into bins `2i` and `2i + 1` (see
//! [`reduce`]), and the split keeps each bin's order, which is what makes its first hit
//! the oldest.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::matcher::{mix3, older, reduce, Matcher, Posted, Unexpected, WorkStats};
use crate::model::ops::Outcome;
use crate::software::arena_list::{ArenaLists, ListId};
use std::str::FromStr;

/// How many bins a queue has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bins {
    Fixed(usize),
    /// Start with `GROWING_START` bins and double (up to `GROWING_MAX`) as the queue grows.
    Growing,
}

pub const GROWING_START: usize = 16;
pub const GROWING_MAX: usize = 1 << 16;

impl FromStr for Bins {
    type Err = String;

    /// `auto` or a bin count of at least one.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Bins::Growing),
            _ => match s.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Bins::Fixed(n)),
                _ => Err(format!("bad bin count '{s}': expected a number >= 1 or 'auto'")),
            },
        }
    }
}

impl Bins {
    fn initial(self) -> usize {
        match self {
            Bins::Fixed(n) => n.max(1),
            Bins::Growing => GROWING_START,
        }
    }
}

#[inline]
fn hash(env: &Envelope) -> u64 {
    mix3(env.comm, env.src, env.tag)
}

/// What a binned entry is hashed on.
trait Binned: Copy {
    fn envelope(&self) -> Envelope;
}

impl Binned for Posted {
    fn envelope(&self) -> Envelope {
        // Only receives without wildcards sit in bins.
        Envelope::new(self.spec.comm, self.spec.src.unwrap_or(0), self.spec.tag.unwrap_or(0))
    }
}

impl Binned for Unexpected {
    fn envelope(&self) -> Envelope {
        self.env
    }
}

/// One queue in bins; the PRQ also has a wildcard list after the bins.
#[derive(Clone, Debug)]
struct BinnedQueue<T> {
    bins: usize,
    growing: bool,
    extra_list: bool,
    lists: ArenaLists<T>,
}

impl<T: Binned> BinnedQueue<T> {
    fn new(bins: Bins, extra_list: bool) -> Self {
        let n = bins.initial();
        BinnedQueue {
            bins: n,
            growing: bins == Bins::Growing,
            extra_list,
            lists: ArenaLists::with_lists(n + extra_list as usize),
        }
    }

    #[inline]
    fn bin(&self, env: &Envelope) -> ListId {
        self.bin_of_hash(hash(env))
    }

    #[inline]
    fn bin_of_hash(&self, h: u64) -> ListId {
        reduce(h, self.bins)
    }

    fn hash_of(&self, v: &T) -> u64 {
        hash(&v.envelope())
    }

    fn extra(&self) -> ListId {
        self.bins as ListId
    }

    fn binned_len(&self) -> usize {
        let extra = if self.extra_list { self.lists.len(self.extra()) } else { 0 };
        self.lists.total_len() - extra
    }

    fn push(&mut self, list: ListId, value: T) {
        self.lists.push_back(list, value);
        if self.growing && self.bins < GROWING_MAX && self.binned_len() > 2 * self.bins {
            self.double();
        }
    }

    /// Rebuilds the queue with twice the bins, keeping every list's order.
    fn double(&mut self) {
        let bins = 2 * self.bins;
        let mut lists = ArenaLists::with_lists(bins + self.extra_list as usize);
        for old in 0..self.bins as ListId {
            // reduce(h, 2n) is 2 reduce(h, n) or one more, so an old bin's entries land in two
            // new bins of their own; walking it in order keeps both halves in order.
            for (_, v) in self.lists.iter(old) {
                lists.push_back(reduce(self.hash_of(v), bins), *v);
            }
        }
        if self.extra_list {
            for (_, v) in self.lists.iter(self.extra()) {
                lists.push_back(bins as ListId, *v);
            }
        }
        self.lists = lists;
        self.bins = bins;
    }
}

#[derive(Clone, Debug)]
pub struct HashBinsMatcher {
    prq: BinnedQueue<Posted>,
    umq: BinnedQueue<Unexpected>,
    next_seq: u64,
    stats: WorkStats,
    /// The bins it started with (a flush starts again from them).
    config: Bins,
}

impl HashBinsMatcher {
    pub fn new(bins: Bins) -> Self {
        HashBinsMatcher {
            prq: BinnedQueue::new(bins, true),
            umq: BinnedQueue::new(bins, false),
            config: bins,
            next_seq: 0,
            stats: WorkStats::default(),
        }
    }

    /// Current bin counts of the PRQ and the UMQ.
    pub fn bins(&self) -> (usize, usize) {
        (self.prq.bins, self.umq.bins)
    }

    fn label(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    fn search_umq(&mut self, spec: &RecvSpec) -> Option<u32> {
        if let (Some(src), Some(tag)) = (spec.src, spec.tag) {
            let b = self.umq.bin(&Envelope::new(spec.comm, src, tag));
            let f = self.umq.lists.find_first(b, |u| spec.matches(&u.env));
            self.stats.search(f.inspected);
            return f.node;
        }
        let mut inspected = 0;
        let mut best = None;
        for b in 0..self.umq.bins as ListId {
            let f = self.umq.lists.find_first(b, |u| spec.matches(&u.env));
            inspected += f.inspected;
            best = older(best, f.node.map(|n| (self.umq.lists.get(n).seq, n)));
        }
        self.stats.search(inspected);
        best.map(|(_, n)| n)
    }

    fn take_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        let node = self.search_umq(spec)?;
        if remove {
            self.stats.umq_shrank();
            Some(self.umq.lists.remove(node).msg)
        } else {
            Some(self.umq.lists.get(node).msg)
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
            (Some(src), Some(tag)) => self.prq.bin(&Envelope::new(spec.comm, src, tag)),
            _ => self.prq.extra(),
        };
        let seq = self.label();
        self.prq.push(list, Posted { recv, spec, seq });
        self.stats.prq_grew();
        Outcome::Queued
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        let h = hash(&env);
        let bin = self.prq.lists.find_first(self.prq.bin_of_hash(h), |p| p.spec.matches(&env));
        let mut inspected = bin.inspected;
        let mut best = bin.node.map(|n| (self.prq.lists.get(n).seq, n));
        if self.prq.lists.len(self.prq.extra()) > 0 {
            let wild = self.prq.lists.find_first(self.prq.extra(), |p| p.spec.matches(&env));
            inspected += wild.inspected;
            best = older(best, wild.node.map(|n| (self.prq.lists.get(n).seq, n)));
        }
        self.stats.search(inspected);
        match best {
            Some((_, node)) => {
                self.stats.prq_shrank();
                Outcome::Matched { recv: self.prq.lists.remove(node).recv, msg }
            }
            None => {
                let seq = self.label();
                self.umq.push(self.umq.bin_of_hash(h), Unexpected { msg, env, seq });
                self.stats.umq_grew();
                Outcome::Queued
            }
        }
    }

    fn cancel(&mut self, recv: RecvId) -> Outcome {
        match self.prq.lists.find_anywhere(|p| p.recv == recv).node {
            Some(node) => {
                self.prq.lists.remove(node);
                self.stats.prq_shrank();
                Outcome::Cancelled { recv }
            }
            None => Outcome::NotFound,
        }
    }

    probe_flush_and_stats!(|matcher: &Self| Self::new(matcher.config));

    fn memory_bytes(&self) -> usize {
        self.prq.lists.memory_bytes() + self.umq.lists.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growing_bins_double_and_keep_order() {
        let mut m = HashBinsMatcher::new(Bins::Growing);
        for i in 0..200u64 {
            // Ten envelopes repeated: order within each bin is what C2 depends on.
            m.arrive(MsgId(i), Envelope::new(0, (i % 10) as u32, 1));
        }
        let (_, umq_bins) = m.bins();
        assert!(umq_bins >= 64, "{umq_bins} bins for 200 entries");
        for i in 0..200u64 {
            let spec = RecvSpec::new(0, Some((i % 10) as u32), Some(1));
            assert_eq!(m.post_recv(RecvId(i), spec), Outcome::Matched { recv: RecvId(i), msg: MsgId(i) });
        }
    }

    #[test]
    fn bin_counts_parse() {
        assert_eq!("auto".parse::<Bins>(), Ok(Bins::Growing));
        assert_eq!("32".parse::<Bins>(), Ok(Bins::Fixed(32)));
        assert!("0".parse::<Bins>().is_err());
        assert!("x".parse::<Bins>().is_err());
    }
}
