//! The host's own queues: the posted receives and unexpected messages the hardware does not
//! hold. Entries carry the label the driver gives them (their place in MPI order), so an
//! entry that comes back from the hardware's side slots in where it belongs.
//!
//! Indexed by what a search names, so no search walks a list:
//! - a posted receive is filed under its wildcard class and the fields that class names
//!   (`(comm, src, tag)`, `(comm, tag)`, `(comm, src)` or `comm`); an arriving envelope
//!   looks at the oldest entry of each of its four keys and takes the oldest of those;
//! - an unexpected message is filed under all four keys at once, so a receive of any class
//!   reads the oldest entry of exactly one key.
//!
//! Every entry under a key matches every search that reads that key, so a search inspects
//! at most four entries (PRQ) or one (UMQ), against a hash-bins matcher's whole bin plus
//! its wildcard list.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec, WildcardClass};
use crate::model::matcher::WorkStats;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// An index key: a wildcard class and the fields it names (unnamed fields are zero).
type Key = (u8, u32, u32, u32);

fn key(class: WildcardClass, comm: u32, src: u32, tag: u32) -> Key {
    match class {
        WildcardClass::Exact => (0, comm, src, tag),
        WildcardClass::AnySource => (1, comm, 0, tag),
        WildcardClass::AnyTag => (2, comm, src, 0),
        WildcardClass::AnyBoth => (3, comm, 0, 0),
    }
}

fn spec_key(spec: &RecvSpec) -> Key {
    key(spec.class(), spec.comm, spec.src.unwrap_or(0), spec.tag.unwrap_or(0))
}

/// The four keys an envelope can be found under.
fn envelope_keys(env: &Envelope) -> [Key; 4] {
    WildcardClass::ALL.map(|c| key(c, env.comm, env.src, env.tag))
}

/// Labels by key; empty sets are dropped so the map only holds live keys.
#[derive(Clone, Debug, Default)]
struct Index(HashMap<Key, BTreeSet<u64>>);

impl Index {
    fn insert(&mut self, k: Key, label: u64) {
        self.0.entry(k).or_default().insert(label);
    }

    fn remove(&mut self, k: Key, label: u64) {
        if let Some(set) = self.0.get_mut(&k) {
            set.remove(&label);
            if set.is_empty() {
                self.0.remove(&k);
            }
        }
    }

    fn oldest(&self, k: &Key) -> Option<u64> {
        self.0.get(k).and_then(|s| s.first().copied())
    }
}

/// The host's PRQ and UMQ, each in label order.
#[derive(Clone, Debug, Default)]
pub struct HostQueues {
    posted: BTreeMap<u64, (RecvId, RecvSpec)>,
    posted_index: Index,
    posted_labels: HashMap<RecvId, u64>,
    unexpected: BTreeMap<u64, (MsgId, Envelope)>,
    unexpected_index: Index,
    stats: WorkStats,
}

impl HostQueues {
    pub fn new() -> Self {
        Self::default()
    }

    /// Drops every receive and message (a flush); the work counts stay.
    pub fn clear(&mut self) {
        let mut stats = self.stats;
        stats.flushed();
        *self = HostQueues { stats, ..Self::default() };
    }

    pub fn prq_len(&self) -> usize {
        self.posted.len()
    }

    pub fn umq_len(&self) -> usize {
        self.unexpected.len()
    }

    /// Searches made and entries inspected, and the queues' lengths.
    pub fn stats(&self) -> WorkStats {
        self.stats
    }

    pub fn holds_recv(&self, recv: RecvId) -> bool {
        self.posted_labels.contains_key(&recv)
    }

    /// Files receive `recv` at `label`.
    pub fn push_posted(&mut self, label: u64, recv: RecvId, spec: RecvSpec) {
        self.posted.insert(label, (recv, spec));
        self.posted_index.insert(spec_key(&spec), label);
        self.posted_labels.insert(recv, label);
        self.stats.prq_grew();
    }

    /// Files message `msg` at `label`.
    pub fn push_unexpected(&mut self, label: u64, msg: MsgId, env: Envelope) {
        self.unexpected.insert(label, (msg, env));
        for k in envelope_keys(&env) {
            self.unexpected_index.insert(k, label);
        }
        self.stats.umq_grew();
    }

    /// Takes the oldest receive `env` matches.
    pub fn take_posted(&mut self, env: &Envelope) -> Option<RecvId> {
        let mut inspected = 0;
        let mut best: Option<u64> = None;
        for k in envelope_keys(env) {
            if let Some(label) = self.posted_index.oldest(&k) {
                inspected += 1;
                best = Some(best.map_or(label, |b| b.min(label)));
            }
        }
        self.stats.search(inspected);
        let label = best?;
        Some(self.remove_posted(label).0)
    }

    /// The oldest message `spec` matches; removed when `remove`.
    pub fn find_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        let label = self.unexpected_index.oldest(&spec_key(spec));
        self.stats.search(label.is_some() as u32);
        let label = label?;
        if remove {
            Some(self.remove_unexpected(label).0)
        } else {
            Some(self.unexpected[&label].0)
        }
    }

    /// Removes receive `recv` if the host holds it.
    pub fn cancel(&mut self, recv: RecvId) -> bool {
        match self.posted_labels.get(&recv) {
            Some(&label) => {
                self.remove_posted(label);
                true
            }
            None => false,
        }
    }

    /// Removes and returns the oldest receive, with its label.
    pub fn pop_oldest_posted(&mut self) -> Option<(u64, RecvId, RecvSpec)> {
        let (&label, _) = self.posted.first_key_value()?;
        let (recv, spec) = self.remove_posted(label);
        Some((label, recv, spec))
    }

    /// Removes and returns the oldest message, with its label.
    pub fn pop_oldest_unexpected(&mut self) -> Option<(u64, MsgId, Envelope)> {
        let (&label, _) = self.unexpected.first_key_value()?;
        let (msg, env) = self.remove_unexpected(label);
        Some((label, msg, env))
    }

    fn remove_posted(&mut self, label: u64) -> (RecvId, RecvSpec) {
        let (recv, spec) = self.posted.remove(&label).expect("an indexed label is live");
        self.posted_index.remove(spec_key(&spec), label);
        self.posted_labels.remove(&recv);
        self.stats.prq_shrank();
        (recv, spec)
    }

    fn remove_unexpected(&mut self, label: u64) -> (MsgId, Envelope) {
        let (msg, env) = self.unexpected.remove(&label).expect("an indexed label is live");
        for k in envelope_keys(&env) {
            self.unexpected_index.remove(k, label);
        }
        self.stats.umq_shrank();
        (msg, env)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_take_the_oldest_match_across_wildcard_classes() {
        let mut q = HostQueues::new();
        q.push_posted(5, RecvId(1), RecvSpec::new(0, Some(1), Some(2)));
        q.push_posted(3, RecvId(2), RecvSpec::new(0, None, Some(2)));
        q.push_posted(7, RecvId(3), RecvSpec::new(0, None, None));
        assert_eq!(q.take_posted(&Envelope::new(0, 1, 2)), Some(RecvId(2)));
        assert_eq!(q.take_posted(&Envelope::new(0, 1, 2)), Some(RecvId(1)));
        assert_eq!(q.take_posted(&Envelope::new(1, 1, 2)), None);
        assert_eq!(q.take_posted(&Envelope::new(0, 9, 9)), Some(RecvId(3)));
        assert_eq!(q.prq_len(), 0);
        assert!(q.stats().max_inspected <= 4);

        q.push_unexpected(10, MsgId(1), Envelope::new(0, 1, 2));
        q.push_unexpected(4, MsgId(2), Envelope::new(0, 3, 2));
        assert_eq!(q.find_unexpected(&RecvSpec::new(0, None, Some(2)), false), Some(MsgId(2)));
        assert_eq!(q.find_unexpected(&RecvSpec::new(0, Some(1), None), true), Some(MsgId(1)));
        assert_eq!(q.find_unexpected(&RecvSpec::new(0, Some(1), Some(2)), true), None);
        assert_eq!(q.pop_oldest_unexpected(), Some((4, MsgId(2), Envelope::new(0, 3, 2))));
        assert_eq!(q.umq_len(), 0);
    }

    #[test]
    fn cancel_and_pop_keep_label_order() {
        let mut q = HostQueues::new();
        for (label, recv) in [(9, 1), (2, 2), (5, 3)] {
            q.push_posted(label, RecvId(recv), RecvSpec::new(0, Some(0), Some(0)));
        }
        assert!(q.cancel(RecvId(3)));
        assert!(!q.cancel(RecvId(3)));
        assert_eq!(q.pop_oldest_posted().map(|p| p.1), Some(RecvId(2)));
        assert_eq!(q.pop_oldest_posted().map(|p| p.1), Some(RecvId(1)));
        assert_eq!(q.pop_oldest_posted(), None);
    }
}
