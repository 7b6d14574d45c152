//! Cost models of the designs the FPL 2018 paper compares with, so their cycle counts sit
//! beside the engine's in the same benchmark tables and plots. They are models of the
//! published structure, not of RTL: each says, for every operation, how many cycles its
//! structure spends, with the costs below. Every model pairs as the golden model does (the
//! oldest match wins; ages come from posting labels), whatever the original did: the paper
//! notes that its own design can pair out of MPI order, and the benchmarks use unique
//! envelopes, where order never decides.
//!
//! All of them sit in the same engine frame as the cycle-accurate model ([`QueueEngine`]):
//! latency = search + 1 cycles, an associative hit costs 1 cycle of search (2 cycles of
//! latency, as the engine's CAM), and the next command waits for the acknowledgement and
//! for the work an insert or removal leaves. So differences come from the structures.
//!
//! - [`PaperQueue`] — the paper's two-level queue: 256-entry CAM and `n` linked lists,
//!   **3 cycles per list element** walked (the paper's figure), the lists walked in parallel
//!   so a search costs its longest walk (to the oldest match's position, or the longest
//!   list when nothing matches); an insert goes to the CAM if a slot is free, else to the
//!   lists round robin (2 cycles: free-list read, then write and link); the data mover
//!   refills free CAM slots from the lists **round robin, one list per transfer, 1 cycle
//!   per transfer** (the paper's figure).
//! - [`AlpuQueue`] — a 256-entry associative list unit (Underwood et al., IPDPS 2005) with
//!   no second level: entries beyond its capacity wait in a list that host software keeps
//!   and walks at `software_cycles` per element (default [`SOFTWARE_CYCLES_PER_ELEMENT`],
//!   an assumption — one dependent load and compare on the NIC's processor, about 50 ns
//!   at a 200 MHz engine clock — not a published figure). Appending to the software list
//!   and moving its head into a freed unit slot cost one software step each.
//! - [`HashQueue`] — the hash-based MPI processor (Mattheakis and Papaefstathiou, TACO
//!   2013): 64 buckets by source rank (`src mod 64`), each a linked list in SRAM walked
//!   at 3 cycles per element like the paper's lists (which derive from it), after a
//!   1-cycle hash; receives with `ANY_SOURCE` in a list of their own, walked after the
//!   bucket; a search that names no source (`ANY_SOURCE` against messages, cancel by
//!   handle) walks every bucket in turn. An insert costs the hash and a 2-cycle list
//!   insert; the buckets share 32,768 entries.

use super::engine::{Queue, QueueEngine};
use super::entry::{position_in, Entry, Key};
use std::collections::VecDeque;

/// Cycles per list element walked in the paper's lists and the hash buckets.
pub const SRAM_CYCLES_PER_ELEMENT: u64 = 3;
/// The assumed cost of one element of the ALPU's software overflow list (module docs).
pub const SOFTWARE_CYCLES_PER_ELEMENT: u64 = 10;
/// Entries of the paper's CAM and of the ALPU.
pub const ASSOCIATIVE_ENTRIES: usize = 256;
/// List entries of the paper's design (over all lists) and of the hash processor.
pub const LIST_ENTRIES: usize = 32_768;
pub const HASH_BUCKETS: usize = 64;

/// Elements a walk that stops at the first match compares.
fn walk_length(list: &VecDeque<Entry>, hit: Option<usize>) -> usize {
    hit.map_or(list.len(), |p| p + 1)
}

/// The oldest entry in several lists' first matches: (list, position).
fn oldest<'a>(
    candidates: impl Iterator<Item = (usize, &'a VecDeque<Entry>, Option<usize>)>,
) -> Option<(usize, usize)> {
    let mut best: Option<(u32, usize, usize)> = None;
    for (l, list, hit) in candidates {
        if let Some(p) = hit {
            if best.is_none_or(|(label, _, _)| list[p].label < label) {
                best = Some((list[p].label, l, p));
            }
        }
    }
    best.map(|(_, l, p)| (l, p))
}

/// Where the paper queue's last result sits.
#[derive(Clone, Copy, Debug)]
enum PaperHit {
    Cam(usize),
    List(usize, usize),
}

/// The FPL 2018 two-level queue as published (module docs).
#[derive(Clone, Debug)]
pub struct PaperQueue {
    /// Slots in no particular order: the paper's CAM fills the first free slot.
    cam: Vec<Entry>,
    lists: Vec<VecDeque<Entry>>,
    per_list: usize,
    listed: usize,
    insert_turn: usize,
    mover_turn: usize,
    hit: Option<PaperHit>,
}

impl PaperQueue {
    pub fn new(lists: usize) -> Result<Self, String> {
        if lists == 0 || !LIST_ENTRIES.is_multiple_of(lists) {
            return Err(format!(
                "the paper's design splits {LIST_ENTRIES} list entries evenly, not {lists} ways"
            ));
        }
        Ok(PaperQueue {
            cam: Vec::with_capacity(ASSOCIATIVE_ENTRIES),
            lists: vec![VecDeque::new(); lists],
            per_list: LIST_ENTRIES / lists,
            listed: 0,
            insert_turn: 0,
            mover_turn: 0,
            hit: None,
        })
    }

    /// Round-robin transfers into free CAM slots, 1 cycle each.
    fn move_data(&mut self) -> u64 {
        let mut cycles = 0;
        while self.cam.len() < ASSOCIATIVE_ENTRIES && self.listed > 0 {
            let n = self.lists.len();
            let l = (0..n).map(|i| (self.mover_turn + i) % n).find(|&l| !self.lists[l].is_empty());
            let l = l.expect("lists hold entries");
            let e = self.lists[l].pop_front().expect("a head");
            self.cam.push(e);
            self.listed -= 1;
            self.mover_turn = (l + 1) % n;
            cycles += 1;
        }
        cycles
    }
}

impl Queue for PaperQueue {
    fn clear(&mut self) {
        *self = Self::new(self.lists.len()).expect("built with this list count");
    }

    fn search(&mut self, key: &Key) -> (Option<Entry>, u64) {
        let in_cam = self.cam.iter().enumerate().filter(|(_, e)| key.matches(e)).min_by_key(|(_, e)| e.label);
        // Each list is oldest first, so a CAM hit older than every list head is the oldest
        // match, and the lists need no scan (the common case, which keeps sweeps fast).
        let oldest_head = self.lists.iter().filter_map(|l| l.front().map(|e| e.label)).min();
        if let Some((i, e)) = in_cam {
            if oldest_head.is_none_or(|h| e.label < h) {
                self.hit = Some(PaperHit::Cam(i));
                return (Some(*e), 1);
            }
        }
        let hits: Vec<Option<usize>> = self.lists.iter().map(|l| position_in(l, key)).collect();
        let in_lists = oldest(self.lists.iter().zip(&hits).enumerate().map(|(i, (l, h))| (i, l, *h)));
        let list_label = in_lists.map(|(l, p)| self.lists[l][p].label);
        match (in_cam, in_lists) {
            (Some((i, e)), _) if list_label.is_none_or(|ll| e.label < ll) => {
                self.hit = Some(PaperHit::Cam(i));
                (Some(*e), 1)
            }
            (_, Some((l, p))) => {
                self.hit = Some(PaperHit::List(l, p));
                (Some(self.lists[l][p]), 1 + SRAM_CYCLES_PER_ELEMENT * (p as u64 + 1))
            }
            _ => {
                self.hit = None;
                let longest =
                    self.lists.iter().zip(&hits).map(|(l, h)| walk_length(l, *h)).max().unwrap_or(0);
                (None, 1 + SRAM_CYCLES_PER_ELEMENT * longest as u64)
            }
        }
    }

    fn remove_found(&mut self) -> u64 {
        match self.hit.take() {
            Some(PaperHit::Cam(i)) => {
                self.cam.swap_remove(i);
                self.move_data()
            }
            Some(PaperHit::List(l, p)) => {
                self.lists[l].remove(p);
                self.listed -= 1;
                0
            }
            None => 0,
        }
    }

    fn insert(&mut self, e: Entry) -> u64 {
        self.hit = None;
        if self.cam.len() < ASSOCIATIVE_ENTRIES {
            self.cam.push(e);
            return 0;
        }
        let n = self.lists.len();
        let Some(l) =
            (0..n).map(|i| (self.insert_turn + i) % n).find(|&l| self.lists[l].len() < self.per_list)
        else {
            return 0;
        };
        self.lists[l].push_back(e);
        self.listed += 1;
        self.insert_turn = (l + 1) % n;
        2
    }

    fn full(&self) -> bool {
        self.cam.len() == ASSOCIATIVE_ENTRIES && self.listed == LIST_ENTRIES
    }

    fn len(&self) -> usize {
        self.cam.len() + self.listed
    }
}

/// Where the ALPU queue's last result sits.
#[derive(Clone, Copy, Debug)]
enum AlpuHit {
    Unit(usize),
    Software(usize),
}

/// A 256-entry associative unit with a software overflow list (module docs).
#[derive(Clone, Debug)]
pub struct AlpuQueue {
    /// Oldest first: the unit keeps order, and its entries are older than the software's.
    unit: VecDeque<Entry>,
    software: VecDeque<Entry>,
    software_cycles: u64,
    hit: Option<AlpuHit>,
}

impl AlpuQueue {
    pub fn new(software_cycles: u64) -> Self {
        AlpuQueue { unit: VecDeque::new(), software: VecDeque::new(), software_cycles, hit: None }
    }
}

impl Queue for AlpuQueue {
    fn clear(&mut self) {
        *self = Self::new(self.software_cycles);
    }

    fn search(&mut self, key: &Key) -> (Option<Entry>, u64) {
        if let Some(i) = position_in(&self.unit, key) {
            self.hit = Some(AlpuHit::Unit(i));
            return (Some(self.unit[i]), 1);
        }
        let hit = position_in(&self.software, key);
        self.hit = hit.map(AlpuHit::Software);
        let walked = walk_length(&self.software, hit) as u64;
        (hit.map(|p| self.software[p]), 1 + self.software_cycles * walked)
    }

    fn remove_found(&mut self) -> u64 {
        match self.hit.take() {
            Some(AlpuHit::Unit(i)) => {
                self.unit.remove(i);
                match self.software.pop_front() {
                    Some(e) => {
                        self.unit.push_back(e);
                        self.software_cycles
                    }
                    None => 0,
                }
            }
            Some(AlpuHit::Software(p)) => {
                self.software.remove(p);
                0
            }
            None => 0,
        }
    }

    fn insert(&mut self, e: Entry) -> u64 {
        self.hit = None;
        if self.software.is_empty() && self.unit.len() < ASSOCIATIVE_ENTRIES {
            self.unit.push_back(e);
            0
        } else {
            self.software.push_back(e);
            self.software_cycles
        }
    }

    /// Software lists grow as long as memory lasts.
    fn full(&self) -> bool {
        false
    }

    fn len(&self) -> usize {
        self.unit.len() + self.software.len()
    }
}

/// Hash buckets by source rank plus a list for `ANY_SOURCE` receives (module docs).
#[derive(Clone, Debug)]
pub struct HashQueue {
    /// `HASH_BUCKETS` buckets, then the `ANY_SOURCE` list.
    lists: Vec<VecDeque<Entry>>,
    len: usize,
    hit: Option<(usize, usize)>,
}

impl Default for HashQueue {
    fn default() -> Self {
        HashQueue { lists: vec![VecDeque::new(); HASH_BUCKETS + 1], len: 0, hit: None }
    }
}

impl HashQueue {
    const WILDCARD: usize = HASH_BUCKETS;

    fn bucket(src: u32) -> usize {
        src as usize % HASH_BUCKETS
    }
}

impl Queue for HashQueue {
    fn clear(&mut self) {
        *self = Self::default();
    }

    fn search(&mut self, key: &Key) -> (Option<Entry>, u64) {
        // The lists this search must walk: its bucket and the ANY_SOURCE list, or all.
        let walked: Vec<usize> = match key.src() {
            Some(src) => vec![Self::bucket(src), Self::WILDCARD],
            None => (0..=HASH_BUCKETS).collect(),
        };
        let hits: Vec<Option<usize>> = walked.iter().map(|&l| position_in(&self.lists[l], key)).collect();
        let elements: usize = walked.iter().zip(&hits).map(|(&l, h)| walk_length(&self.lists[l], *h)).sum();
        self.hit = oldest(walked.iter().zip(&hits).map(|(&l, h)| (l, &self.lists[l], *h)));
        let found = self.hit.map(|(l, p)| self.lists[l][p]);
        (found, 1 + SRAM_CYCLES_PER_ELEMENT * elements as u64)
    }

    fn remove_found(&mut self) -> u64 {
        if let Some((l, p)) = self.hit.take() {
            self.lists[l].remove(p);
            self.len -= 1;
        }
        0
    }

    fn insert(&mut self, e: Entry) -> u64 {
        self.hit = None;
        let l = if e.any_source() { Self::WILDCARD } else { Self::bucket(e.src()) };
        self.lists[l].push_back(e);
        self.len += 1;
        3
    }

    fn full(&self) -> bool {
        self.len == LIST_ENTRIES
    }

    fn len(&self) -> usize {
        self.len
    }
}

/// The baselines by name, as the benchmarks select them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// The FPL 2018 two-level queue with this many lists.
    Paper {
        lists: usize,
    },
    Alpu {
        software_cycles: u64,
    },
    Hash,
}

impl Baseline {
    /// The design's name in records.
    pub fn design(&self) -> &'static str {
        match self {
            Baseline::Paper { .. } => "paper-two-level",
            Baseline::Alpu { .. } => "alpu-256",
            Baseline::Hash => "hash-64",
        }
    }

    /// A fresh engine of this design.
    pub fn engine(&self) -> Result<BaselineEngine, String> {
        Ok(match *self {
            Baseline::Paper { lists } => {
                BaselineEngine::Paper(QueueEngine::new(PaperQueue::new(lists)?, PaperQueue::new(lists)?))
            }
            Baseline::Alpu { software_cycles } => BaselineEngine::Alpu(QueueEngine::new(
                AlpuQueue::new(software_cycles),
                AlpuQueue::new(software_cycles),
            )),
            Baseline::Hash => {
                BaselineEngine::Hash(QueueEngine::new(HashQueue::default(), HashQueue::default()))
            }
        })
    }
}

/// One baseline's engine, whichever it is.
#[derive(Clone, Debug)]
pub enum BaselineEngine {
    Paper(QueueEngine<PaperQueue>),
    Alpu(QueueEngine<AlpuQueue>),
    Hash(QueueEngine<HashQueue>),
}

impl super::CycleEngine for BaselineEngine {
    fn apply(&mut self, op: &crate::model::ops::Op) -> Result<super::Applied, String> {
        match self {
            BaselineEngine::Paper(e) => e.apply(op),
            BaselineEngine::Alpu(e) => e.apply(op),
            BaselineEngine::Hash(e) => e.apply(op),
        }
    }

    fn cycles(&self) -> u64 {
        match self {
            BaselineEngine::Paper(e) => e.cycles(),
            BaselineEngine::Alpu(e) => e.cycles(),
            BaselineEngine::Hash(e) => e.cycles(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cycle::bench::{preposted, unload};
    use crate::cycle::CycleEngine;
    use crate::model::bounded::BoundedGolden;
    use crate::workload::streams::random_stream_phased;

    const ALL: [Baseline; 4] = [
        Baseline::Paper { lists: 1 },
        Baseline::Paper { lists: 4 },
        Baseline::Alpu { software_cycles: SOFTWARE_CYCLES_PER_ELEMENT },
        Baseline::Hash,
    ];

    #[test]
    fn every_baseline_pairs_as_the_golden_model() {
        for b in ALL {
            for seed in 0..3 {
                let mut engine = b.engine().unwrap();
                // Large enough never to overflow: the baselines' capacities differ.
                let mut golden = BoundedGolden::new(usize::MAX, usize::MAX);
                for (i, op) in random_stream_phased(seed, 4000, 1000).iter().enumerate() {
                    let got = engine.apply(op).unwrap();
                    assert_eq!(got.outcome, golden.apply(op), "{b:?} seed {seed} op {i}");
                }
            }
        }
    }

    #[test]
    fn costs_follow_the_documented_figures() {
        // Preposted at depth d > 256 with one list: the probe is the list's last element.
        let mut paper = Baseline::Paper { lists: 1 }.engine().unwrap();
        assert_eq!(preposted(&mut paper, 100).unwrap().cycles, 2);
        assert_eq!(preposted(&mut paper, 1000).unwrap().cycles, 2 + 3 * 744);
        let mut paper4 = Baseline::Paper { lists: 4 }.engine().unwrap();
        assert_eq!(preposted(&mut paper4, 1000).unwrap().cycles, 2 + 3 * 186);
        let mut alpu = Baseline::Alpu { software_cycles: 10 }.engine().unwrap();
        assert_eq!(preposted(&mut alpu, 256).unwrap().cycles, 2);
        assert_eq!(preposted(&mut alpu, 1000).unwrap().cycles, 2 + 10 * 744);
        // The hash: the probe (source 0) shares bucket 0 with fillers 64, 128, ..., 960.
        let mut hash = Baseline::Hash.engine().unwrap();
        assert_eq!(preposted(&mut hash, 1).unwrap().cycles, 2 + 3);
        assert_eq!(preposted(&mut hash, 1000).unwrap().cycles, 2 + 3 * 16);
        // Unload within the CAM: 3 cycles an operation, as the engine.
        assert_eq!(unload(&mut paper, 200).unwrap().cycles, 3 * 200 - 1);
    }
}
