//! The cycle-accurate model of the receive engine (`hdl/src/receive_engine.rs`): for every
//! operation the same response and the same acceptance and response cycles as the RTL,
//! for any CAM depth, number of lists and list size — the configurations `tagmatch gen`
//! emits and any other (those are model-only).
//!
//! It is exact without simulating every cycle because the RTL only changes state in a few
//! ways, each with a fixed duration. The rules, from the hdl modules (cycle `A` is the
//! acceptance, `W` the cycle the engine acts on the search's result, `T = log2 lists` the
//! levels of the lists' tournament tree):
//!
//! - The engine takes a command into its command register (when that is empty and no
//!   queue is in a multi-cycle step) and issues it at `A + 1` or when the queues allow
//!   (`engine.rs` has the general rule); the search starts at the issue, where the CAM
//!   compares every slot into its registered match vector, and chooses its oldest hit a
//!   cycle later. For a command issued at `A + 1`: a CAM hit, or a miss while the lists
//!   are empty, is answered at `W = A + 3` (a search by handle scans the CAM's slots
//!   first: `D + 3` cycles more, [`super::cam_banks::handle_scan_cycles`]). Otherwise the
//!   lists' search is issued the cycle after: every non-empty list walks from its head,
//!   one element per cycle (each compared a cycle after the RAM shows it), to its first
//!   match or its tail, the tree picks the oldest candidate in `T` registered levels and
//!   a last stage selects its fields, so `W = A + K + T + 7` with `K` the longest walk.
//!   The response is valid at `W + 1` (latency 4 for a CAM hit, `K + T + 8` after a walk).
//! - At `W` the engine registers what to do; at `W + 1` the queues do it. A CAM removal
//!   or insert is one edge, and the next command may issue in that same cycle (its search
//!   sees the CAM after the edge). A list removal is one edge too, but the lists' counters
//!   settle a cycle later, so the next command issues at `W + 2`. A list insert (when the
//!   lists hold entries or the CAM is full) keeps the queue busy until `W + 4` (the
//!   list's allocate and write states).
//! - The CAM's slots sit in banks that only append ([`super::cam_banks`]): it is full
//!   when its open bank is used up and no bank is empty. A CAM removal that leaves it not
//!   full (the removal empties a bank) while the lists hold entries starts the data mover
//!   at `W + 1`: the lists are searched for any entry (each head: one element), the oldest
//!   head moves into the CAM when the tree has answered, at `W + T + 5`, and two cycles
//!   later (the lists' counter settles) the mover goes again while the CAM is not full and
//!   the lists hold entries: `T + 6` cycles a move, and the queue is free one cycle after
//!   the last. Between operations the CAM is full or the lists are empty.
//! - Across lists the oldest label wins (serial-number arithmetic, ties to the lower
//!   list). Each queue's lists label the entries they take (a CAM insert needs none), in
//!   `label_bits` bits that wrap; an insert into the lists that would leave a live label
//!   more than a quarter behind the next one's quarter is refused (`full`, so overflow):
//!   `parallel_lists.rs` says why. The model orders list entries by a 32-bit sequence
//!   number and derives the RTL's label from it, counting every comparison the label's
//!   serial order would answer otherwise (`label_misorders`, which tests require to be 0).
//!
//! The tests in `tagmatch-testbench` co-simulate this model against the RTL op by op and
//! fail on one differing cycle. An operation costs the model one CAM scan and, for a list
//! search, one index lookup per list (`list_index.rs`) rather than a walk, which is what
//! lets 30,000-deep unloads of one list (4 × 10^8 cycles) run in a fraction of a second.

use super::cam_banks::CamBanks;
use super::engine::{Queue, QueueEngine};
use super::entry::{position_in, Entry, Key};
use super::list_index::ListIndex;
use std::collections::VecDeque;

/// `a` is older than `b` in serial-number arithmetic (`a - b` negative), as the RTL's
/// tournament tree compares posting labels.
pub fn older(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

/// The engine's shape; both queues (PRQ and UMQ) have it. The model takes any shape
/// [`EngineShape::model`] gives, not only the RTL's.
pub use tagmatch_config::EngineShape;

/// A benchmark depth the queues of `shape` cannot hold, as an error.
pub fn check_depths(shape: &EngineShape, depths: &[u32]) -> Result<(), String> {
    match depths.iter().find(|&&d| d as usize > shape.queue_capacity()) {
        Some(d) => Err(format!(
            "depth {d} exceeds the {} entries a queue of the {}-list engine holds",
            shape.queue_capacity(),
            shape.lists
        )),
        None => Ok(()),
    }
}

/// Where the last search's result sits.
#[derive(Clone, Copy, Debug)]
enum Hit {
    Cam(usize),
    List { list: usize, pos: usize },
}

/// One queue: the CAM (oldest first, each entry with its bank) and the lists (each oldest
/// first).
#[derive(Clone, Debug)]
pub struct TwoLevelQueue {
    cfg: EngineShape,
    cam: VecDeque<Entry>,
    /// The bank each CAM entry sits in, beside `cam`.
    cam_bank: VecDeque<usize>,
    banks: CamBanks,
    /// Cycles from the acceptance to the CAM's answer of the last search (a handle's scans).
    cam_cycles: u64,
    lists: Vec<VecDeque<Entry>>,
    listed: usize,
    /// The list the next list insert tries first.
    round_robin: usize,
    hit: Option<Hit>,
    /// Elements compared by the longest list walk of the last search.
    last_walk: usize,
    /// Each list's first match without walking (see [`ListIndex`]).
    index: ListIndex,
    /// Scratch for the index's answer, one slot per list.
    firsts: Vec<Option<u32>>,
    /// List inserts since reset (an entry's `label` in the lists is its number here), and
    /// list entries per quarter of the RTL's label space.
    listed_seq: u32,
    quarters: [usize; 4],
    /// Times the RTL's label counter wrapped, over the queue's life (flushes included).
    wraps: u64,
    /// Comparisons where the RTL's labels would have ordered two list entries otherwise
    /// than their sequence (the label rule failed): tests require none.
    misorders: std::cell::Cell<u64>,
}

impl TwoLevelQueue {
    pub fn new(cfg: EngineShape) -> Self {
        TwoLevelQueue {
            cfg,
            cam: VecDeque::with_capacity(cfg.cam_depth),
            cam_bank: VecDeque::with_capacity(cfg.cam_depth),
            banks: CamBanks::new(cfg.cam_depth),
            cam_cycles: 3,
            lists: vec![VecDeque::new(); cfg.lists],
            listed: 0,
            round_robin: 0,
            hit: None,
            last_walk: 0,
            index: ListIndex::default(),
            firsts: vec![None; cfg.lists],
            listed_seq: 0,
            quarters: [0; 4],
            wraps: 0,
            misorders: std::cell::Cell::new(0),
        }
    }

    /// The RTL's label for list insert number `seq` (since reset): the low `label_bits`
    /// of it, in the top bits of a 32-bit word.
    fn rtl_label(&self, seq: u32) -> u32 {
        seq << (32 - self.cfg.label_bits)
    }

    /// The quarter of the label space list entry `seq`'s RTL label is in.
    fn quarter(&self, seq: u32) -> usize {
        (self.rtl_label(seq) >> 30) as usize
    }

    /// A list insert now keeps every live label within half the label space: the two
    /// quarters ahead of the next label's hold no list entry.
    fn label_room(&self) -> bool {
        let q = self.quarter(self.listed_seq);
        self.quarters[(q + 1) % 4] == 0 && self.quarters[(q + 2) % 4] == 0
    }

    /// `a` is older than `b`: by sequence; a comparison the RTL's labels would answer
    /// otherwise is counted (`label_misorders`).
    fn older_entry(&self, a: u32, b: u32) -> bool {
        let by_seq = older(a, b);
        if by_seq != older(self.rtl_label(a), self.rtl_label(b)) {
            self.misorders.set(self.misorders.get() + 1);
        }
        by_seq
    }

    /// Comparisons of two list entries the RTL's labels would have got wrong (zero while
    /// the label rule holds).
    pub fn label_misorders(&self) -> u64 {
        self.misorders.get()
    }

    /// Takes list entry `e` out of the label accounting.
    fn unlisted(&mut self, e: &Entry) {
        let q = self.quarter(e.label);
        self.quarters[q] -= 1;
    }

    /// Times the RTL's label counter has wrapped.
    pub fn label_wraps(&self) -> u64 {
        self.wraps
    }

    /// Elements compared by the longest list walk of the last search (0: none).
    pub fn last_walk(&self) -> usize {
        self.last_walk
    }

    fn cam_full(&self) -> bool {
        self.banks.full()
    }

    fn cam_push(&mut self, e: Entry) {
        let bank = self.banks.insert();
        self.cam.push_back(e);
        self.cam_bank.push_back(bank);
    }

    fn lists_full(&self) -> bool {
        self.listed == self.cfg.lists * self.cfg.entries_per_list
    }

    /// Levels of the lists' tournament tree.
    fn tree_levels(&self) -> u64 {
        self.cfg.lists.next_power_of_two().trailing_zeros() as u64
    }

    /// The data mover: moves the oldest list head into the CAM while the CAM has room;
    /// returns the cycles after the response: `T + 6` a move (the lists' search for their
    /// heads, the move, two cycles for the lists' counter), and one more.
    fn move_data(&mut self) -> u64 {
        let mut moves = 0;
        while !self.cam_full() && self.listed > 0 {
            let mut oldest: Option<(u32, usize)> = None;
            for (l, list) in self.lists.iter().enumerate() {
                if let Some(head) = list.front() {
                    if oldest.is_none_or(|(label, _)| self.older_entry(head.label, label)) {
                        oldest = Some((head.label, l));
                    }
                }
            }
            let (_, l) = oldest.expect("lists hold entries");
            let e = self.lists[l].pop_front().expect("a head");
            self.index.remove(&e);
            self.unlisted(&e);
            self.listed -= 1;
            self.cam_push(e);
            moves += 1;
        }
        if moves == 0 {
            0
        } else {
            moves * (self.tree_levels() + 6) + 1
        }
    }
}

impl Queue for TwoLevelQueue {
    /// As reset leaves the RTL: empty, list inserts start again at list 0 and labels at 0.
    fn clear(&mut self) {
        *self = TwoLevelQueue { wraps: self.wraps, misorders: self.misorders.clone(), ..Self::new(self.cfg) };
    }

    fn search(&mut self, key: &Key) -> (Option<Entry>, u64) {
        self.last_walk = 0;
        // The CAM answers two cycles after the issue; by handle it scans its slots first.
        self.cam_cycles = match key {
            Key::Handle(_) => 3 + crate::cycle::cam_banks::handle_scan_cycles(self.cfg.cam_depth),
            Key::Envelope { .. } => 3,
        };
        if let Some(i) = position_in(&self.cam, key) {
            self.hit = Some(Hit::Cam(i));
            return (Some(self.cam[i]), self.cam_cycles);
        }
        if self.listed == 0 {
            self.hit = None;
            return (None, self.cam_cycles);
        }
        let mut longest = 0;
        let mut best: Option<(Entry, usize, usize)> = None;
        let indexed = self.index.first_matches(key, &mut self.firsts).is_some();
        for (l, list) in self.lists.iter().enumerate() {
            let first = if indexed {
                let at = |label| {
                    list.binary_search_by_key(&label, |e| e.label).expect("indexed entries are listed")
                };
                self.firsts[l].map(at)
            } else {
                position_in(list, key)
            };
            match first {
                Some(pos) => {
                    longest = longest.max(pos + 1);
                    if best.is_none_or(|(b, _, _)| self.older_entry(list[pos].label, b.label)) {
                        best = Some((list[pos], l, pos));
                    }
                }
                None => longest = longest.max(list.len()),
            }
        }
        self.last_walk = longest;
        self.hit = best.map(|(_, list, pos)| Hit::List { list, pos });
        (best.map(|(e, _, _)| e), self.cam_cycles + longest as u64 + self.tree_levels() + 4)
    }

    fn free_search_cycles(&self) -> u64 {
        self.cam_cycles
    }

    /// A removal is one edge; after a CAM removal the mover refills the CAM. After a list
    /// removal the lists' counters settle a cycle later, so the next command issues one
    /// cycle after the response instead of in it.
    fn remove_found(&mut self) -> u64 {
        match self.hit.take() {
            Some(Hit::Cam(i)) => {
                self.cam.remove(i);
                let bank = self.cam_bank.remove(i).expect("every CAM entry has a bank");
                self.banks.remove(bank);
                self.move_data()
            }
            Some(Hit::List { list, pos }) => {
                let e = self.lists[list].remove(pos).expect("the hit is listed");
                self.index.remove(&e);
                self.unlisted(&e);
                self.listed -= 1;
                1 + self.move_data()
            }
            None => self.move_data(),
        }
    }

    /// Into the CAM (one edge) while the lists are empty, else into the round-robin list
    /// (busy 3 cycles after the response: the insert edge, the list's allocate and
    /// write), or the lowest list with room. The RTL ignores an insert into a full queue,
    /// and so does the model.
    fn insert(&mut self, mut e: Entry) -> u64 {
        self.hit = None;
        if self.listed == 0 && !self.cam_full() {
            self.cam_push(e);
            return 0;
        }
        if self.lists_full() {
            return 0;
        }
        let room = |l: usize| self.lists[l].len() < self.cfg.entries_per_list;
        let target = if room(self.round_robin) {
            self.round_robin
        } else {
            (0..self.cfg.lists).find(|&l| room(l)).expect("lists not full")
        };
        e.label = self.listed_seq;
        let q = self.quarter(e.label);
        self.quarters[q] += 1;
        self.listed_seq = self.listed_seq.wrapping_add(1);
        if self.rtl_label(self.listed_seq) == 0 {
            self.wraps += 1;
        }
        self.lists[target].push_back(e);
        self.index.add(&e, target);
        self.listed += 1;
        self.round_robin = (target + 1) % self.cfg.lists;
        3 + self.move_data()
    }

    /// The RTL's `full`: an insert would go to the lists, and they have no room or no
    /// label that keeps their order.
    fn full(&self) -> bool {
        (self.listed > 0 || self.cam_full()) && (self.lists_full() || !self.label_room())
    }

    fn len(&self) -> usize {
        self.cam.len() + self.listed
    }
}

/// The receive engine's cycle-accurate model.
pub type TwoLevelModel = QueueEngine<TwoLevelQueue>;

impl TwoLevelModel {
    pub fn with_config(cfg: EngineShape) -> Self {
        QueueEngine::new(TwoLevelQueue::new(cfg), TwoLevelQueue::new(cfg)).with_fields(cfg.fields)
    }

    /// Elements compared by the longest list walk of the last operation's search.
    pub fn last_walk(&self) -> usize {
        self.prq().last_walk().max(self.umq().last_walk())
    }

    /// Times either queue's label counter has wrapped.
    pub fn label_wraps(&self) -> u64 {
        self.prq().label_wraps() + self.umq().label_wraps()
    }

    /// List-entry comparisons either queue's RTL labels would have ordered wrongly.
    pub fn label_misorders(&self) -> u64 {
        self.prq().label_misorders() + self.umq().label_misorders()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cycle::bench::{preposted, unload};
    use crate::cycle::CycleEngine;
    use crate::model::bounded::BoundedGolden;
    use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
    use crate::model::ops::{Op, Outcome};
    use crate::workload::streams::random_stream;

    fn model(cam: usize, lists: usize, per_list: usize) -> TwoLevelModel {
        TwoLevelModel::with_config(EngineShape::model(cam, lists, per_list).unwrap())
    }

    #[test]
    fn pairing_equals_the_bounded_golden_model() {
        for (cam, lists, per_list) in [(8, 1, 31), (8, 4, 7), (4, 16, 3), (8, 64, 3), (256, 4, 8191)] {
            for seed in 0..4 {
                let mut m = model(cam, lists, per_list);
                let cfg = EngineShape::model(cam, lists, per_list).unwrap();
                let cap = cfg.queue_capacity();
                let mut golden = BoundedGolden::new(cap, cap);
                let mut acknowledged = 0;
                for (i, op) in random_stream(seed, 6000).iter().enumerate() {
                    let got = m.apply(op).unwrap();
                    let want = golden.expect(op, &got.outcome, cfg.guaranteed_capacity());
                    assert_eq!(got.outcome, want, "{cam}/{lists}x{per_list} seed {seed} op {i}");
                    assert_eq!(m.queue_lengths(), golden.queue_lengths());
                    assert!(got.accepted >= acknowledged && got.latency() >= 2, "op {i}: {got:?}");
                    acknowledged = got.responded + 1;
                }
            }
        }
    }

    /// 4-bit labels (quarters of 4): a list entry two quarters behind the next label
    /// blocks list inserts (overflow, nothing applied) until it leaves.
    #[test]
    fn a_label_two_quarters_behind_refuses_list_inserts_until_it_leaves() {
        let cfg = EngineShape::model(1, 1, 63).unwrap().with_label_bits(4).unwrap();
        let mut m = TwoLevelModel::with_config(cfg);
        let post =
            |r: u64| Op::PostRecv { recv: RecvId(r), spec: RecvSpec::exact(Envelope::new(0, 0, r as u32)) };
        // Receive 0 fills the CAM; 1-8 take list labels 0-7 (quarters 0 and 1).
        for r in 0..=8 {
            assert_eq!(m.apply(&post(r)).unwrap().outcome, Outcome::Queued, "receive {r}");
        }
        // Label 8 opens quarter 2, whose far side (quarter 0) still holds labels 0-3.
        assert_eq!(m.apply(&post(9)).unwrap().outcome, Outcome::Overflow);
        for r in 1..=3 {
            assert_eq!(
                m.apply(&Op::Cancel { recv: RecvId(r) }).unwrap().outcome,
                Outcome::Cancelled { recv: RecvId(r) }
            );
            assert_eq!(
                m.apply(&post(9)).unwrap().outcome,
                Outcome::Overflow,
                "with receive {} listed",
                r + 1
            );
        }
        assert_eq!(
            m.apply(&Op::Cancel { recv: RecvId(4) }).unwrap().outcome,
            Outcome::Cancelled { recv: RecvId(4) }
        );
        assert_eq!(m.apply(&post(9)).unwrap().outcome, Outcome::Queued);
        for r in 5..=9 {
            m.apply(&Op::Cancel { recv: RecvId(r) }).unwrap();
        }
        // Order survives the wraps: receives of one envelope, each refused insert making room
        // by matching the oldest, which must be the one posted first.
        let same = |r: u64| Op::PostRecv { recv: RecvId(r), spec: RecvSpec::exact(Envelope::new(1, 0, 7)) };
        let mut live: std::collections::VecDeque<u64> = std::collections::VecDeque::new();
        for r in 100..160 {
            while m.apply(&same(r)).unwrap().outcome == Outcome::Overflow {
                let oldest = live.pop_front().expect("refused with nothing listed");
                let got =
                    m.apply(&Op::Arrive { msg: MsgId(r), env: Envelope::new(1, 0, 7) }).unwrap().outcome;
                assert_eq!(got, Outcome::Matched { recv: RecvId(oldest), msg: MsgId(r) });
            }
            live.push_back(r);
        }
        assert!(m.label_wraps() >= 3, "{} wraps", m.label_wraps());
    }

    /// Narrow labels on random streams: the pairing is the golden model's wherever the
    /// model does not refuse an insert for its labels, and every refusal is of an
    /// operation that would have queued; the labels' serial order agrees with the
    /// sequence (`label_misorders`).
    #[test]
    fn narrow_labels_keep_the_golden_pairing() {
        for bits in [4, 5, 6] {
            for (cam, lists, per_list) in [(8, 4, 7), (4, 16, 3), (8, 1, 31)] {
                let cfg = EngineShape::model(cam, lists, per_list).unwrap().with_label_bits(bits).unwrap();
                let mut m = TwoLevelModel::with_config(cfg);
                let cap = cfg.queue_capacity();
                let mut golden = BoundedGolden::new(cap, cap);
                let mut refused = 0;
                for (i, op) in random_stream(bits as u64, 8000).iter().enumerate() {
                    let got = m.apply(op).unwrap().outcome;
                    // A refusal is only right for an operation that would have queued; a
                    // refused match, or an overflow with no room, meets the golden model below.
                    if got == Outcome::Overflow && golden.would_queue(op) {
                        refused += 1;
                    } else {
                        assert_eq!(got, golden.apply(op), "{bits} bits {cam}/{lists}x{per_list} op {i}");
                    }
                }
                assert!(
                    m.label_wraps() > 10,
                    "{bits} bits {cam}/{lists}x{per_list}: {} wraps",
                    m.label_wraps()
                );
                assert_eq!(m.label_misorders(), 0, "{bits} bits {cam}/{lists}x{per_list}");
                assert!(refused > 0);
            }
        }
    }

    #[test]
    fn the_invariant_cam_full_or_lists_empty_holds_between_operations() {
        let mut m = model(8, 4, 7);
        for op in random_stream(5, 5000) {
            m.apply(&op).unwrap();
            for q in [m.prq(), m.umq()] {
                assert!(q.cam_full() || q.listed == 0, "CAM {} of 8 with {} listed", q.cam.len(), q.listed);
            }
        }
    }

    #[test]
    fn benchmark_figures_follow_the_rtl_rules() {
        // The figures the RTL measured (`tagmatch bench preposted|unload --backend rtl`) on the
        // 256-entry CAM: a CAM hit in 4 cycles; past the CAM the longest walk plus the
        // tree's levels plus 8; an unload from the CAM 5 cycles an operation.
        let paper = |lists| model(256, lists, 32768 / lists - 1);
        let mut one = paper(1);
        for (depth, cycles) in [(1, 4), (256, 4), (257, 9), (500, 252), (1000, 752), (2000, 1752)] {
            assert_eq!(preposted(&mut one, depth).unwrap().cycles, cycles, "1 list, depth {depth}");
        }
        let mut four = paper(4);
        for (depth, cycles) in [(257, 11), (500, 71), (1000, 196), (2000, 446)] {
            assert_eq!(preposted(&mut four, depth).unwrap().cycles, cycles, "4 lists, depth {depth}");
        }
        for (lists, cycles) in [(1, 1_538_615), (4, 401_527), (64, 52_079)] {
            assert_eq!(unload(&mut paper(lists), 2000).unwrap().cycles, cycles, "unload, {lists} lists");
        }
        assert_eq!(unload(&mut paper(4), 200).unwrap().cycles, 5 * 200 - 1);
    }

    #[test]
    fn back_to_back_operations_overlap() {
        use crate::cycle::bench::{throughput, Traffic};
        // CAM hits and unexpected messages: one every 3 cycles (the next search shares the
        // edge the previous answer is acted on), each answered in at most 5.
        let mut m = model(8, 4, 63);
        for traffic in [Traffic::CamHits, Traffic::Unexpected] {
            let t = throughput(&mut m, traffic, 8, 8).unwrap();
            assert_eq!((t.cycles_per_op, t.max_latency), (3.0, 5), "{traffic:?}");
        }
        // Past the CAM a removal that empties a bank (every second here: banks of 2) waits
        // for the mover to bring a bank's worth of list entries, `T + 6` cycles each.
        let t = throughput(&mut m, Traffic::MoverHits, 8, 40).unwrap();
        assert_eq!(m.queue_lengths(), (0, 0));
        assert_eq!((t.cycles_per_op, t.max_latency), (440.0 / 39.0, 22), "{t:?}");
        // One at a time, the same hits take 5 cycles each.
        let mut serial = model(8, 4, 63);
        for i in 1..=8u64 {
            serial
                .apply(&Op::PostRecv {
                    recv: RecvId(i),
                    spec: RecvSpec::exact(Envelope::new(1, 0, i as u32)),
                })
                .unwrap();
        }
        let a: Vec<_> = (1..=8u64)
            .map(|i| serial.apply(&Op::Arrive { msg: MsgId(i), env: Envelope::new(1, 0, i as u32) }).unwrap())
            .collect();
        assert_eq!(a[7].responded - a[0].responded, 7 * 5);
    }

    #[test]
    fn a_streamed_miss_is_seen_by_the_next_search_and_a_removal_is_not() {
        let mut m = model(4, 2, 3);
        let env = Envelope::new(0, 1, 2);
        let ops = [
            Op::PostRecv { recv: RecvId(1), spec: RecvSpec::exact(env) },
            Op::Arrive { msg: MsgId(10), env },
            Op::Arrive { msg: MsgId(11), env },
            Op::PostRecv { recv: RecvId(2), spec: RecvSpec::new(0, None, None) },
        ];
        let got: Vec<_> = m.apply_stream(&ops).unwrap().iter().map(|a| a.outcome).collect();
        assert_eq!(
            got,
            [
                Outcome::Queued,
                Outcome::Matched { recv: RecvId(1), msg: MsgId(10) },
                Outcome::Queued,
                Outcome::Matched { recv: RecvId(2), msg: MsgId(11) }
            ]
        );
    }

    #[test]
    fn labels_order_across_the_wrap_of_their_counter() {
        assert!(older(u32::MAX, 0) && older(u32::MAX - 5, 3) && !older(3, u32::MAX - 5));
        assert!(older(1, 2) && !older(2, 1) && !older(7, 7));
    }

    #[test]
    fn a_full_queue_answers_overflow_and_keeps_everything() {
        let mut m = model(2, 2, 1);
        let post =
            |i: u64| Op::PostRecv { recv: RecvId(i), spec: RecvSpec::exact(Envelope::new(0, 0, i as u32)) };
        for i in 1..=4 {
            assert_eq!(m.apply(&post(i)).unwrap().outcome, Outcome::Queued);
        }
        assert_eq!(m.apply(&post(5)).unwrap().outcome, Outcome::Overflow);
        for i in 1..=4 {
            let got =
                m.apply(&Op::Arrive { msg: MsgId(100 + i), env: Envelope::new(0, 0, i as u32) }).unwrap();
            assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(i), msg: MsgId(100 + i) });
        }
    }

    #[test]
    fn fields_too_wide_for_the_engine_are_refused() {
        let mut m = model(2, 1, 3);
        let e = m.apply(&Op::Arrive { msg: MsgId(1), env: Envelope::new(1 << 16, 0, 0) }).unwrap_err();
        assert!(e.contains("communicator"), "{e}");
        let e = m.apply(&Op::Cancel { recv: RecvId(1 << 32) }).unwrap_err();
        assert!(e.contains("32 bits"), "{e}");
        assert_eq!(m.cycles(), 0, "a refused operation costs no cycles");
    }

    #[test]
    fn depths_past_a_queue_are_refused() {
        // The shapes' own ranges are tested in `tagmatch-config`.
        let shape = EngineShape::model_from_list_capacity(8, 4, 256).unwrap();
        assert_eq!((shape.queue_capacity(), shape.guaranteed_capacity()), (260, 4 + 252));
        assert!(check_depths(&shape, &[1, 260]).is_ok());
        assert!(check_depths(&shape, &[261]).unwrap_err().contains("exceeds the 260 entries"));
    }
}
