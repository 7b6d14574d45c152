//! Partner/non-partner message queues (Ghazimirsaeed, Mirsadeghi, Afsahi).
//!
//! Processes that put many elements into a queue ("partners") get a dedicated list each;
//! all others share a non-partner list. Two ways to choose partners:
//!
//! - **static**: from a profile of a previous run (element counts per process and queue),
//!   with a perfect hash from (communicator, rank) to partner queue;
//! - **dynamic**: when the newest non-partner list grows past a threshold `t`, the
//!   processes in it that stand out (edge point by average, median or upper fence) become
//!   partners and a new non-partner list (a new level) is started, up to `c * sqrt(N)`
//!   partners.
//!
//! Elements never move between lists. A partner's elements from before it became one stay
//! in the non-partner lists of earlier levels, so a search for a given sender walks those
//! levels, oldest first, and then the sender's own list; that order is posting order, so
//! the first hit is the oldest. `ANY_SOURCE` receives live in a separate PRQ_ANY list, and
//! searches that must look at every list (a message against PRQ and PRQ_ANY, an
//! `ANY_SOURCE` receive against the whole UMQ) compare posting labels.

pub mod edge;
pub mod perfect_hash;

use crate::model::envelope::{Comm, Envelope, MsgId, Rank, RecvId, RecvSpec};
use crate::model::golden::Golden;
use crate::model::matcher::{older, Matcher, Posted, Unexpected, WorkStats};
use crate::model::ops::{Op, Outcome};
use crate::software::arena_list::{ArenaLists, ListId, NodeId};
use edge::{select_partners, EdgeMetric};
use perfect_hash::PerfectHash;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// A sender as the partner tables see it.
pub type PartnerKey = (Comm, Rank);

/// Queue entries know their sender and their label.
trait QueueElement: Copy {
    fn seq(&self) -> u64;
    fn sender(&self) -> PartnerKey;
}

impl QueueElement for Posted {
    fn seq(&self) -> u64 {
        self.seq
    }
    fn sender(&self) -> PartnerKey {
        // Only receives that name their source enter a partner queue.
        (self.spec.comm, self.spec.src.unwrap_or(Rank::MAX))
    }
}

impl QueueElement for Unexpected {
    fn seq(&self) -> u64 {
        self.seq
    }
    fn sender(&self) -> PartnerKey {
        (self.env.comm, self.env.src)
    }
}

/// Element counts per sender, for each queue, from a profiling run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartnerProfile {
    pub prq: BTreeMap<PartnerKey, u64>,
    pub umq: BTreeMap<PartnerKey, u64>,
}

impl PartnerProfile {
    /// Profiles a run: counts, per sender, the receives naming it that were queued in the
    /// PRQ and the messages from it that were queued in the UMQ.
    pub fn from_ops(ops: &[Op]) -> Self {
        let mut golden = Golden::new();
        let mut p = PartnerProfile::default();
        for op in ops {
            let outcome = golden.apply(op);
            match (op, outcome) {
                (Op::PostRecv { spec: RecvSpec { comm, src: Some(s), .. }, .. }, Outcome::Queued) => {
                    *p.prq.entry((*comm, *s)).or_default() += 1;
                }
                (Op::Arrive { env, .. }, Outcome::Queued) => {
                    *p.umq.entry((env.comm, env.src)).or_default() += 1;
                }
                _ => {}
            }
        }
        p
    }
}

/// How the partners are chosen.
#[derive(Clone, Debug)]
pub enum PartnerMode {
    Static { profile: PartnerProfile },
    Dynamic { threshold: usize },
}

#[derive(Clone, Debug)]
pub struct PartnerConfig {
    pub mode: PartnerMode,
    pub metric: EdgeMetric,
    /// `c` in the `c * sqrt(N)` bound on partners per queue; `None` is unbounded.
    pub cap_factor: Option<f64>,
    /// `N`: processes in the job, for the bound and as the population of the edge point.
    pub world_size: u32,
}

impl PartnerConfig {
    pub fn dynamic(threshold: usize) -> Self {
        PartnerConfig {
            mode: PartnerMode::Dynamic { threshold },
            metric: EdgeMetric::Average,
            cap_factor: None,
            world_size: 1024,
        }
    }

    pub fn static_from(profile: PartnerProfile) -> Self {
        PartnerConfig { mode: PartnerMode::Static { profile }, ..Self::dynamic(0) }
    }

    fn cap(&self) -> usize {
        match self.cap_factor {
            Some(c) => (c * (self.world_size as f64).sqrt()).floor() as usize,
            None => usize::MAX,
        }
    }
}

/// Sender → partner number.
#[derive(Clone, Debug)]
enum PartnerTable {
    /// Key `comm_index * stride + rank` through a perfect hash.
    Perfect {
        comm_index: FxHashMap<Comm, u64>,
        stride: u64,
        hash: PerfectHash,
    },
    Growing(FxHashMap<PartnerKey, u32>),
}

impl PartnerTable {
    fn perfect(partners: &[PartnerKey]) -> Self {
        let mut comm_index = FxHashMap::default();
        for &(c, _) in partners {
            let n = comm_index.len() as u64;
            comm_index.entry(c).or_insert(n);
        }
        let stride = partners.iter().map(|&(_, r)| r as u64 + 1).max().unwrap_or(1);
        let keys: Vec<(u64, u32)> = partners
            .iter()
            .enumerate()
            .map(|(i, &(c, r))| (comm_index[&c] * stride + r as u64, i as u32))
            .collect();
        PartnerTable::Perfect { comm_index, stride, hash: PerfectHash::build(&keys) }
    }

    #[inline]
    fn get(&self, key: PartnerKey) -> Option<u32> {
        match self {
            PartnerTable::Perfect { comm_index, stride, hash } => {
                let c = *comm_index.get(&key.0)?;
                if key.1 as u64 >= *stride {
                    return None;
                }
                hash.get(c * stride + key.1 as u64)
            }
            PartnerTable::Growing(map) => map.get(&key).copied(),
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            PartnerTable::Perfect { comm_index, hash, .. } => {
                comm_index.capacity() * 16 + hash.memory_bytes()
            }
            PartnerTable::Growing(map) => map.capacity() * 16,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct PartnerList {
    /// Non-partner levels that may still hold this sender's older elements.
    levels_before: usize,
    list: ListId,
}

#[derive(Clone, Copy, Debug)]
struct DynamicRule {
    threshold: usize,
    population: usize,
    /// Length of the newest non-partner list at which partners are next looked for.
    next_check: usize,
    cap: usize,
    metric: EdgeMetric,
}

/// One queue (PRQ without its ANY_SOURCE list, or UMQ) split into partner and
/// non-partner lists.
#[derive(Clone, Debug)]
struct PartnerQueue<T> {
    lists: ArenaLists<T>,
    /// Non-partner lists, one per level, oldest first; the last one takes new elements.
    levels: Vec<ListId>,
    table: PartnerTable,
    partners: Vec<PartnerList>,
    rule: Option<DynamicRule>,
}

impl<T: QueueElement> PartnerQueue<T> {
    fn new_static(partners: &[PartnerKey]) -> Self {
        let mut lists = ArenaLists::new();
        let levels = vec![lists.add_list()];
        let partners_lists =
            partners.iter().map(|_| PartnerList { levels_before: 0, list: lists.add_list() }).collect();
        PartnerQueue {
            lists,
            levels,
            table: PartnerTable::perfect(partners),
            partners: partners_lists,
            rule: None,
        }
    }

    fn new_dynamic(threshold: usize, population: usize, cap: usize, metric: EdgeMetric) -> Self {
        let mut lists = ArenaLists::new();
        let levels = vec![lists.add_list()];
        PartnerQueue {
            lists,
            levels,
            table: PartnerTable::Growing(FxHashMap::default()),
            partners: Vec::new(),
            rule: Some(DynamicRule {
                threshold: threshold.max(1),
                population,
                next_check: threshold.max(1),
                cap,
                metric,
            }),
        }
    }

    fn insert(&mut self, value: T) {
        match self.table.get(value.sender()) {
            Some(p) => {
                self.lists.push_back(self.partners[p as usize].list, value);
            }
            None => {
                let newest = *self.levels.last().expect("there is always a level");
                self.lists.push_back(newest, value);
                if self.rule.is_some_and(|r| self.lists.len(newest) > r.next_check) {
                    self.extract_partners();
                }
            }
        }
    }

    /// Dynamic rule: the senders standing out in the newest non-partner list become
    /// partners, and a new level begins.
    fn extract_partners(&mut self) {
        let Some(mut rule) = self.rule else { return };
        let newest = *self.levels.last().expect("there is always a level");
        let room = rule.cap.saturating_sub(self.partners.len());
        let mut chosen = Vec::new();
        if room > 0 {
            let mut counts: FxHashMap<PartnerKey, u64> = FxHashMap::default();
            for (_, e) in self.lists.iter(newest) {
                *counts.entry(e.sender()).or_default() += 1;
            }
            let counts: Vec<(PartnerKey, u64)> = counts.into_iter().collect();
            chosen = select_partners(&counts, rule.metric, rule.population, room);
        }
        if chosen.is_empty() {
            // Nobody stands out (or the table is full): look again after another t elements.
            rule.next_check = self.lists.len(newest) + rule.threshold;
        } else {
            let levels_before = self.levels.len();
            let PartnerTable::Growing(map) = &mut self.table else {
                unreachable!("dynamic queues grow their table")
            };
            for key in chosen {
                map.insert(key, self.partners.len() as u32);
                self.partners.push(PartnerList { levels_before, list: self.lists.add_list() });
            }
            self.levels.push(self.lists.add_list());
            rule.next_check = rule.threshold;
        }
        self.rule = Some(rule);
    }

    /// The oldest element from `sender` satisfying `pred`, and the entries inspected.
    fn search_sender(&self, sender: PartnerKey, mut pred: impl FnMut(&T) -> bool) -> (Option<NodeId>, u32) {
        let (levels, own) = match self.table.get(sender) {
            Some(p) => {
                let p = self.partners[p as usize];
                (&self.levels[..p.levels_before], Some(p.list))
            }
            None => (&self.levels[..], None),
        };
        let mut inspected = 0;
        for &l in levels.iter().chain(own.iter()) {
            let f = self.lists.find_first(l, &mut pred);
            inspected += f.inspected;
            if f.node.is_some() {
                return (f.node, inspected);
            }
        }
        (None, inspected)
    }

    /// The oldest element of any sender satisfying `pred`: first hits of all lists, by label.
    fn search_all(&self, mut pred: impl FnMut(&T) -> bool) -> (Option<(u64, NodeId)>, u32) {
        let mut inspected = 0;
        let mut best = None;
        for l in self.levels.iter().copied().chain(self.partners.iter().map(|p| p.list)) {
            let f = self.lists.find_first(l, &mut pred);
            inspected += f.inspected;
            best = older(best, f.node.map(|n| (self.lists.get(n).seq(), n)));
        }
        (best, inspected)
    }

    fn memory_bytes(&self) -> usize {
        self.lists.memory_bytes()
            + self.levels.capacity() * 4
            + self.partners.capacity() * std::mem::size_of::<PartnerList>()
            + self.table.memory_bytes()
    }
}

#[derive(Clone, Debug)]
pub struct PartnerMatcher {
    name: &'static str,
    prq: PartnerQueue<Posted>,
    prq_any_source: ArenaLists<Posted>,
    umq: PartnerQueue<Unexpected>,
    next_seq: u64,
    stats: WorkStats,
    /// What it was built from (a flush builds it again).
    config: PartnerConfig,
}

/// What the partner structure looks like now (for reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartnerShape {
    pub prq_partners: usize,
    pub prq_levels: usize,
    pub umq_partners: usize,
    pub umq_levels: usize,
}

const ANY_LIST: ListId = 0;

impl PartnerMatcher {
    pub fn new(config: &PartnerConfig) -> Self {
        let cap = config.cap();
        let (name, prq, umq) = match &config.mode {
            PartnerMode::Static { profile } => {
                let pick = |counts: &BTreeMap<PartnerKey, u64>| {
                    let c: Vec<(PartnerKey, u64)> = counts.iter().map(|(&k, &v)| (k, v)).collect();
                    select_partners(&c, config.metric, config.world_size as usize, cap)
                };
                (
                    "partner-static",
                    PartnerQueue::new_static(&pick(&profile.prq)),
                    PartnerQueue::new_static(&pick(&profile.umq)),
                )
            }
            PartnerMode::Dynamic { threshold } => (
                "partner-dynamic",
                PartnerQueue::new_dynamic(*threshold, config.world_size as usize, cap, config.metric),
                PartnerQueue::new_dynamic(*threshold, config.world_size as usize, cap, config.metric),
            ),
        };
        PartnerMatcher {
            name,
            prq,
            prq_any_source: ArenaLists::with_lists(1),
            umq,
            next_seq: 0,
            stats: WorkStats::default(),
            config: config.clone(),
        }
    }

    pub fn shape(&self) -> PartnerShape {
        PartnerShape {
            prq_partners: self.prq.partners.len(),
            prq_levels: self.prq.levels.len(),
            umq_partners: self.umq.partners.len(),
            umq_levels: self.umq.levels.len(),
        }
    }

    fn label(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    fn take_unexpected(&mut self, spec: &RecvSpec, remove: bool) -> Option<MsgId> {
        let pred = |u: &Unexpected| spec.matches(&u.env);
        let (node, inspected) = match spec.src {
            Some(s) => self.umq.search_sender((spec.comm, s), pred),
            None => {
                let (best, inspected) = self.umq.search_all(pred);
                (best.map(|b| b.1), inspected)
            }
        };
        self.stats.search(inspected);
        let node = node?;
        if remove {
            self.stats.umq_shrank();
            Some(self.umq.lists.remove(node).msg)
        } else {
            Some(self.umq.lists.get(node).msg)
        }
    }
}

/// Which list a found receive sits in.
#[derive(Clone, Copy)]
enum PrqPlace {
    Sender(NodeId),
    AnySource(NodeId),
}

impl Matcher for PartnerMatcher {
    fn name(&self) -> &'static str {
        self.name
    }

    fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        if let Some(msg) = self.take_unexpected(&spec, true) {
            return Outcome::Matched { recv, msg };
        }
        let seq = self.label();
        let posted = Posted { recv, spec, seq };
        if spec.src.is_some() {
            self.prq.insert(posted);
        } else {
            self.prq_any_source.push_back(ANY_LIST, posted);
        }
        self.stats.prq_grew();
        Outcome::Queued
    }

    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome {
        let (by_sender, inspected) = self.prq.search_sender((env.comm, env.src), |p| p.spec.matches(&env));
        let any = self.prq_any_source.find_first(ANY_LIST, |p| p.spec.matches(&env));
        self.stats.search(inspected + any.inspected);
        let best = older(
            by_sender.map(|n| (self.prq.lists.get(n).seq, PrqPlace::Sender(n))),
            any.node.map(|n| (self.prq_any_source.get(n).seq, PrqPlace::AnySource(n))),
        );
        let recv = match best {
            Some((_, PrqPlace::Sender(n))) => self.prq.lists.remove(n).recv,
            Some((_, PrqPlace::AnySource(n))) => self.prq_any_source.remove(n).recv,
            None => {
                let seq = self.label();
                self.umq.insert(Unexpected { msg, env, seq });
                self.stats.umq_grew();
                return Outcome::Queued;
            }
        };
        self.stats.prq_shrank();
        Outcome::Matched { recv, msg }
    }

    fn cancel(&mut self, recv: RecvId) -> Outcome {
        if let Some(n) = self.prq.lists.find_anywhere(|p| p.recv == recv).node {
            self.prq.lists.remove(n);
        } else if let Some(n) = self.prq_any_source.find_anywhere(|p| p.recv == recv).node {
            self.prq_any_source.remove(n);
        } else {
            return Outcome::NotFound;
        }
        self.stats.prq_shrank();
        Outcome::Cancelled { recv }
    }

    probe_flush_and_stats!(|matcher: &Self| Self::new(&matcher.config));

    fn memory_bytes(&self) -> usize {
        self.prq.memory_bytes() + self.prq_any_source.memory_bytes() + self.umq.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(s: u32, t: u32) -> Envelope {
        Envelope::new(0, s, t)
    }

    #[test]
    fn dynamic_extracts_a_busy_sender_and_keeps_its_order() {
        let mut m = PartnerMatcher::new(&PartnerConfig::dynamic(4));
        // Sender 7 floods the UMQ; sender 1 sends once.
        for i in 0..5 {
            assert_eq!(m.arrive(MsgId(i), env(7, 0)), Outcome::Queued);
        }
        m.arrive(MsgId(5), env(1, 0));
        assert_eq!(m.shape().umq_partners, 1, "sender 7 stands out after t elements");
        assert_eq!(m.shape().umq_levels, 2);
        // New elements from 7 go to its own list, older ones stay in level 0.
        m.arrive(MsgId(6), env(7, 0));
        for i in [0, 1, 2, 3, 4, 6] {
            let got = m.post_recv(RecvId(100 + i), RecvSpec::new(0, Some(7), Some(0)));
            assert_eq!(got, Outcome::Matched { recv: RecvId(100 + i), msg: MsgId(i) });
        }
        assert_eq!(
            m.post_recv(RecvId(200), RecvSpec::new(0, None, None)),
            Outcome::Matched { recv: RecvId(200), msg: MsgId(5) }
        );
    }

    #[test]
    fn static_profile_makes_partner_queues() {
        let ops: Vec<Op> = (0..10)
            .map(|i| Op::Arrive { msg: MsgId(i), env: env(if i < 8 { 3 } else { i as u32 }, 0) })
            .collect();
        let profile = PartnerProfile::from_ops(&ops);
        assert_eq!(profile.umq[&(0, 3)], 8);
        let mut cfg = PartnerConfig::static_from(profile);
        cfg.world_size = 4; // average over {8, 1, 1, 0} = 2.5: only sender 3 stands out
        let m = PartnerMatcher::new(&cfg);
        assert_eq!(m.shape().umq_partners, 1);
        assert_eq!(m.name(), "partner-static");
    }

    #[test]
    fn partner_cap_bounds_the_table() {
        let mut cfg = PartnerConfig::dynamic(2);
        cfg.cap_factor = Some(1.0);
        cfg.world_size = 4; // at most 2 partners
        let mut m = PartnerMatcher::new(&cfg);
        let mut id = 0;
        for round in 0..6 {
            for _ in 0..3 {
                id += 1;
                m.arrive(MsgId(id), env(round, 0));
            }
        }
        assert_eq!(m.shape().umq_partners, 2);
    }
}
