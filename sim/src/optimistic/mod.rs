//! Optimistic tag matching (García, Di Girolamo, …, Hoefler, Bloch): `N` threads match a
//! block of `N` consecutive arriving messages at once and repair conflicts afterwards.
//! The four-index layout is [`crate::software::four_index`]'s; this module adds the threads.
//!
//! The hardware thread array (`tagmatch_hdl::thread_array`) is this matcher in its
//! [`OptimisticConfig::hardware`] configuration; [`cost`] gives its cycles and [`engine`]
//! its answers command by command, which the Verilator co-simulation checks.
//!
//! One block, thread `i` handling the `i`-th message:
//!
//! 1. *Optimistic phase*: every thread searches the four indexes (bins of (comm, src, tag),
//!    of (comm, tag) for `ANY_SOURCE`, of (comm, src) for `ANY_TAG`, one list for both;
//!    [`bin`] is an XOR fold the hardware computes alike),
//!    keeps the candidate with the smallest posting label and books it by setting bit `i`
//!    in the receive descriptor's booking bitmap. With the *early booking check* a thread
//!    skips receives a lower thread has already booked (a lower thread will get them).
//! 2. *Partial barrier*: thread `i` waits for threads `j < i` only.
//! 3. *Conflict detection*: a thread whose candidate carries a lower thread's bit is
//!    conflicted; it and every thread after the first conflicted one resolve again:
//!    - *fast path* (an option): when every thread of the block booked the same receive `k`,
//!      thread `i` takes the receive labelled `k + i` if it carries `k`'s sequence id
//!      (given at posting: consecutive receives with the same pattern share one) — then
//!      exactly the receive serial matching gives it. All or nothing: if one of the run is
//!      missing (cancelled), the later ones are no longer the `i`-th successors, and every
//!      conflicted thread takes the slow path. (The hardware finds `k + i` by label in one
//!      cycle; a partial run would need each lane to know how many are missing before it.)
//!    - *slow path*: wait for thread `i - 1` to finish, then match again.
//! 4. Unmatched messages become unexpected, in arrival order, entered in all four UMQ
//!    indexes; a new receive searches only its own class's index.
//!
//! Consumed receives leave their index at once, or with *lazy removal* (an option) are
//! marked and skipped by later searches until the block ends, when one thread per list
//! cleans them out. Lazy removal keeps every optimistic walk's lists still while lanes
//! walk side by side; a receive taken on the slow path leaves at once even so, because
//! slow lanes resolve one after another and the next one's walk should not meet it. Receive descriptors live in a fixed-size table (the lowest free slot is
//! taken, as the hardware's priority encoder does): posting into a full one answers
//! overflow (the host keeps the receive and matches in software), as does an arrival that
//! finds the UMQ full.
//!
//! The model runs the optimistic phase in thread order, so the early booking check sees
//! every lower thread's booking — the most it can skip. Pairing equals the golden model's
//! for every thread count and option set (property tests), so blocks change only cost.

pub mod cost;
pub mod engine;
pub mod rate;

use crate::cycle::FieldWidths;
use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec, WildcardClass};
use crate::model::ops::{Op, Outcome};
use std::collections::{BTreeSet, VecDeque};

/// The most threads a booking bitmap (one `u64`) names.
pub const MAX_THREADS: usize = 64;

/// The bin of a key in a hashed index of `bins` (a power of two). Cheap in hardware: XOR
/// of 16-bit pieces, the source shifted so that `src == tag` keys do not cancel out, low
/// bits kept. The thread array computes the same function, so walks are equally long.
pub fn bin(class: WildcardClass, comm: u32, src: u32, tag: u32, bins: usize) -> usize {
    let src = (src << 4) & 0xffff;
    let tag = (tag & 0xffff) ^ (tag >> 16);
    let key = (comm & 0xffff)
        ^ match class {
            WildcardClass::Exact => src ^ tag,
            WildcardClass::AnySource => tag,
            WildcardClass::AnyTag => src,
            WildcardClass::AnyBoth => 0,
        };
    key as usize & (bins - 1)
}

/// A matcher's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimisticConfig {
    pub threads: usize,
    /// Bins of each of the three hashed indexes.
    pub bins: usize,
    /// Receive descriptors: the most receives posted at once.
    pub descriptors: usize,
    /// Unexpected messages held at most (an arrival that finds the UMQ full answers
    /// overflow).
    pub unexpected: usize,
    pub fast_path: bool,
    pub lazy_removal: bool,
    pub early_booking_check: bool,
    /// Stored widths of the fields (the hardware's `--comm-bits` and so on): the
    /// command-level engine ([`engine`]) refuses an operation whose values do not fit, as
    /// its driver does; matching itself does not depend on them.
    pub fields: FieldWidths,
}

impl OptimisticConfig {
    /// The paper's prototype: hash tables twice the 1,024 in-flight receives.
    pub fn new(threads: usize) -> Self {
        OptimisticConfig {
            threads,
            bins: 2048,
            descriptors: 1024,
            unexpected: usize::MAX,
            fast_path: true,
            lazy_removal: false,
            early_booking_check: false,
            fields: FieldWidths::DEFAULT,
        }
    }

    /// The choices the hardware thread array makes (`tagmatch_hdl::thread_array`): lazy
    /// removal (optimistic takes are marked and unlinked at the end of the block, so no
    /// lane's walk changes under it; slow takes leave at once) and no early booking check (lanes walk side by side, so what a
    /// lane would see of lower lanes' bookings depends on timing).
    pub fn hardware(threads: usize, descriptors: usize, bins: usize, unexpected: usize) -> Self {
        OptimisticConfig {
            threads,
            bins,
            descriptors,
            unexpected,
            fast_path: true,
            lazy_removal: true,
            early_booking_check: false,
            fields: FieldWidths::DEFAULT,
        }
    }

    /// This configuration is one the hardware builds, so [`cost`] times it.
    pub fn is_hardware(&self) -> bool {
        self.lazy_removal && !self.early_booking_check
    }

    fn check(&self) -> Result<(), String> {
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(format!("{} threads: from 1 to {MAX_THREADS} (one booking bit each)", self.threads));
        }
        if self.descriptors == 0 || self.unexpected == 0 {
            return Err(format!(
                "{} receive descriptors and {} unexpected-message slots: each must be at least 1",
                self.descriptors, self.unexpected
            ));
        }
        if !self.bins.is_power_of_two() || self.bins > 1 << 14 {
            return Err(format!("{} bins: a power of two up to 16,384 (the hash keeps low bits)", self.bins));
        }
        Ok(())
    }
}

/// A posted receive's descriptor.
#[derive(Clone, Copy, Debug)]
struct Descriptor {
    recv: RecvId,
    spec: RecvSpec,
    label: u64,
    sequence: u64,
    booked: u64,
    consumed: bool,
    /// The index list that holds it.
    list: u32,
}

/// An unexpected message (entered in all four UMQ indexes).
#[derive(Clone, Copy, Debug)]
struct Unexpected {
    msg: MsgId,
    env: Envelope,
}

/// How a thread got its receive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Its optimistic candidate, no conflict before it.
    Optimistic,
    Fast,
    Slow,
}

/// The classes a walk reads, from the classes it may find a match in (bit `i`:
/// [`WildcardClass::ALL`]`[i]`): those, or the last one when there are none (the hardware
/// walks at least one list; with nothing to find, it finds nothing). The first walk may
/// find a match in the classes holding a receive at the block's start
/// ([`OptimisticMatcher::occupied_classes`]); the slow path's, in those its first walk
/// matched in ([`ThreadTrace::hit_classes`]).
fn walked_classes(may_match: u8) -> u8 {
    if may_match == 0 {
        1 << (WildcardClass::ALL.len() - 1)
    } else {
        may_match
    }
}

/// What one thread did in a block, for the cost model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadTrace {
    /// Cycles of the optimistic phase's walk, as the hardware's two-stage walk (read, then
    /// compare) spends them: one to read the first head, one per entry examined, one for
    /// an empty list, and one more for each list but the last walked left at a match with
    /// entries after it (the read that followed its link is discarded). It reads the lists
    /// of the classes that hold a receive when the block starts (an index with no receive
    /// at all is skipped, not walked as an empty list).
    pub walk: u32,
    /// The same for the slow path's walk, which reads only the lists of `hit_classes`.
    pub rewalk: u32,
    /// The index classes (bit `i`: [`WildcardClass::ALL`]`[i]`) whose list held a receive
    /// matching the message in the first walk. Only they can hold one later in the block
    /// (nothing is posted during a block), so the slow path's walk skips the others.
    pub hit_classes: u8,
    /// Its candidate was booked by a lower thread.
    pub conflicted: bool,
    pub path: Path,
    /// The index list of the receive it took, if it took one.
    pub list: Option<u32>,
}

/// What a block of arrivals did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockTrace {
    pub threads: Vec<ThreadTrace>,
    /// Index lists cleaned of lazily removed receives at the end of the block.
    pub cleaned_lists: u32,
    /// Entries removed by those cleanings.
    pub cleaned: u32,
    /// Removal was lazy (marks, then cleanings) rather than eager (unlinks).
    pub lazy: bool,
    /// Unmatched messages that entered the UMQ (the others overflowed).
    pub queued: u32,
}

/// The optimistic matcher.
#[derive(Clone, Debug)]
pub struct OptimisticMatcher {
    cfg: OptimisticConfig,
    table: Vec<Option<Descriptor>>,
    /// Free slots; the lowest is taken first, as the hardware's priority encoder does.
    free: BTreeSet<u32>,
    live: usize,
    /// PRQ index lists (`class * bins + bin`, the both-wildcards list last) of descriptor slots.
    prq: Vec<VecDeque<u32>>,
    /// UMQ index lists, same layout; every message is in four of them.
    umq: Vec<VecDeque<Unexpected>>,
    umq_len: usize,
    next_label: u64,
    sequence: u64,
    /// The last queued receive's pattern, for sequence ids.
    last_spec: Option<RecvSpec>,
    /// Receives consumed lazily in this block, cleaned at its end.
    marked: Vec<u32>,
}

impl OptimisticMatcher {
    pub fn new(cfg: OptimisticConfig) -> Result<Self, String> {
        cfg.check()?;
        let lists = 3 * cfg.bins + 1;
        Ok(OptimisticMatcher {
            cfg,
            table: vec![None; cfg.descriptors],
            free: (0..cfg.descriptors as u32).collect(),
            live: 0,
            prq: vec![VecDeque::new(); lists],
            umq: vec![VecDeque::new(); lists],
            umq_len: 0,
            next_label: 0,
            sequence: 0,
            last_spec: None,
            marked: Vec::new(),
        })
    }

    pub fn config(&self) -> OptimisticConfig {
        self.cfg
    }

    /// Drops every receive and message: the tables as they were built.
    pub fn flush(&mut self) {
        *self = Self::new(self.cfg).expect("the configuration was checked when built");
    }

    /// Receives posted and messages unexpected.
    pub fn queue_lengths(&self) -> (usize, usize) {
        (self.live, self.umq_len)
    }

    /// The lists of `class`'s index: `bins` for each hashed class, in class order, then
    /// the one list of receives with both wildcards.
    fn class_lists(&self, class: WildcardClass) -> std::ops::Range<usize> {
        let bins = self.cfg.bins;
        match class {
            WildcardClass::AnyBoth => 3 * bins..3 * bins + 1,
            hashed => hashed.index() * bins..(hashed.index() + 1) * bins,
        }
    }

    /// The list of `class` holding keys (comm, src, tag), parts the class ignores unused.
    fn list(&self, class: WildcardClass, comm: u32, src: u32, tag: u32) -> usize {
        let first = self.class_lists(class).start;
        match class {
            WildcardClass::AnyBoth => first,
            hashed => first + bin(hashed, comm, src, tag, self.cfg.bins),
        }
    }

    /// The classes (bit `i`: [`WildcardClass::ALL`]`[i]`) with a receive in one of their
    /// lists. The hardware keeps a flag per list and their OR per class
    /// (`tagmatch_hdl::optimistic::list_occupancy`).
    fn occupied_classes(&self) -> u8 {
        WildcardClass::ALL
            .into_iter()
            .filter(|&class| self.prq[self.class_lists(class)].iter().any(|l| !l.is_empty()))
            .fold(0, |mask, class| mask | 1 << class.index())
    }

    fn spec_list(&self, spec: &RecvSpec) -> usize {
        self.list(spec.class(), spec.comm, spec.src.unwrap_or(0), spec.tag.unwrap_or(0))
    }

    fn desc(&self, slot: u32) -> &Descriptor {
        self.table[slot as usize].as_ref().expect("indexed slots hold descriptors")
    }

    fn desc_mut(&mut self, slot: u32) -> &mut Descriptor {
        self.table[slot as usize].as_mut().expect("indexed slots hold descriptors")
    }

    /// The oldest receive matching `env` that `skip` allows, in the index classes whose bit
    /// is set in `classes` (bit `i`: [`WildcardClass::ALL`]`[i]`); the walk's cycles
    /// ([`ThreadTrace::walk`]); and the classes whose list holds a receive matching `env`
    /// whether `skip` allows it or not ([`walked_classes`] says which classes each walk
    /// reads).
    fn search(
        &self,
        env: &Envelope,
        classes: u8,
        skip: impl Fn(&Descriptor) -> bool,
    ) -> (Option<u32>, u32, u8) {
        let mut walked = 1;
        let mut best: Option<(u64, u32)> = None;
        let mut hits = 0;
        let walked_classes =
            WildcardClass::ALL.into_iter().enumerate().filter(|(i, _)| classes & (1 << i) != 0);
        let last = walked_classes.clone().next_back().map(|(i, _)| i);
        for (index, class) in walked_classes {
            let list = self.list(class, env.comm, env.src, env.tag);
            let entries = &self.prq[list];
            walked += entries.is_empty() as u32;
            for (at, &slot) in entries.iter().enumerate() {
                walked += 1;
                let d = self.desc(slot);
                if !d.consumed && d.spec.matches(env) {
                    hits |= 1 << index;
                    if skip(d) {
                        continue;
                    }
                    if best.is_none_or(|(label, _)| d.label < label) {
                        best = Some((d.label, slot));
                    }
                    let wasted_read = at + 1 < entries.len() && Some(index) != last;
                    walked += wasted_read as u32;
                    break;
                }
            }
        }
        (best.map(|(_, s)| s), walked, hits)
    }

    /// Takes a receive: gone at once (`eager`, or no lazy removal), or marked until the
    /// block ends.
    fn consume(&mut self, slot: u32, eager: bool) -> RecvId {
        let lazy = self.cfg.lazy_removal && !eager;
        let d = self.desc_mut(slot);
        d.consumed = true;
        let (recv, list) = (d.recv, d.list as usize);
        if lazy {
            self.marked.push(slot);
        } else {
            self.unindex(slot, list);
        }
        recv
    }

    fn unindex(&mut self, slot: u32, list: usize) {
        let at = self.prq[list].iter().position(|&s| s == slot).expect("the receive is indexed");
        self.prq[list].remove(at);
        self.table[slot as usize] = None;
        self.free.insert(slot);
        self.live -= 1;
    }

    /// The oldest unexpected message `spec` matches (its own class's index only).
    fn find_unexpected(&self, spec: &RecvSpec) -> Option<(usize, Unexpected)> {
        let list = self.spec_list(spec);
        self.umq[list].iter().enumerate().find(|(_, u)| spec.matches(&u.env)).map(|(i, u)| (i, *u))
    }

    fn remove_unexpected(&mut self, u: &Unexpected) {
        for class in WildcardClass::ALL {
            let list = self.list(class, u.env.comm, u.env.src, u.env.tag);
            let at = self.umq[list].iter().position(|x| x.msg == u.msg).expect("in all four indexes");
            self.umq[list].remove(at);
        }
        self.umq_len -= 1;
    }

    pub fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome {
        if let Some((_, u)) = self.find_unexpected(&spec) {
            self.remove_unexpected(&u);
            return Outcome::Matched { recv, msg: u.msg };
        }
        let Some(slot) = self.free.pop_first() else { return Outcome::Overflow };
        if self.last_spec != Some(spec) {
            self.sequence += 1;
            self.last_spec = Some(spec);
        }
        let list = self.spec_list(&spec);
        self.next_label += 1;
        self.table[slot as usize] = Some(Descriptor {
            recv,
            spec,
            label: self.next_label,
            sequence: self.sequence,
            booked: 0,
            consumed: false,
            list: list as u32,
        });
        self.prq[list].push_back(slot);
        self.live += 1;
        Outcome::Queued
    }

    pub fn cancel(&mut self, recv: RecvId) -> Outcome {
        let found = self.table.iter().position(|d| d.is_some_and(|d| d.recv == recv && !d.consumed));
        match found {
            Some(slot) => {
                let list = self.desc(slot as u32).list as usize;
                self.unindex(slot as u32, list);
                // The next receive must not join the cancelled one's sequence across a gap.
                self.last_spec = None;
                Outcome::Cancelled { recv }
            }
            None => Outcome::NotFound,
        }
    }

    pub fn probe(&mut self, spec: RecvSpec, remove: bool) -> Outcome {
        let found = self.find_unexpected(&spec).map(|(_, u)| u);
        if remove {
            if let Some(u) = &found {
                self.remove_unexpected(u);
            }
            Outcome::MatchedProbed(found.map(|u| u.msg))
        } else {
            Outcome::Probed(found.map(|u| u.msg))
        }
    }

    /// Matches a block of at most `threads` arriving messages, thread `i` taking the
    /// `i`-th; returns their outcomes in arrival order and what each thread did.
    pub fn arrive_block(&mut self, msgs: &[(MsgId, Envelope)]) -> (Vec<Outcome>, BlockTrace) {
        let n = msgs.len();
        assert!(n <= self.cfg.threads, "a block has at most one message per thread");
        let mut trace = BlockTrace { lazy: self.cfg.lazy_removal, ..BlockTrace::default() };
        // Nothing is posted during a block: a class without a receive now has none to find.
        let first_walk = walked_classes(self.occupied_classes());
        // 1. Optimistic phase, with bookings.
        let mut candidates = Vec::with_capacity(n);
        for (i, (_, env)) in msgs.iter().enumerate() {
            let lower = (1u64 << i) - 1;
            let early = self.cfg.early_booking_check;
            let (cand, walk, hits) = self.search(env, first_walk, |d| early && d.booked & lower != 0);
            if let Some(slot) = cand {
                self.desc_mut(slot).booked |= 1 << i;
            }
            candidates.push(cand);
            trace.threads.push(ThreadTrace {
                walk,
                rewalk: 0,
                hit_classes: hits,
                conflicted: false,
                path: Path::Optimistic,
                list: None,
            });
        }
        // The fast path's condition and targets, read before anything is consumed.
        let all_booked = if n == 0 { 0 } else { u64::MAX >> (64 - n) };
        let shared = match candidates.first() {
            Some(&Some(k)) if n > 1 && self.desc(k).booked == all_booked => Some(k),
            _ => None,
        };
        // The run: receive `k`'s label plus `i`, same sequence id. Taken all or nothing: if
        // one is missing (cancelled), later ones are not the `i`-th successors any more.
        let fast_targets: Option<Vec<u32>> = match shared {
            Some(k) if self.cfg.fast_path => {
                let (label, sequence) = (self.desc(k).label, self.desc(k).sequence);
                let list = &self.prq[self.desc(k).list as usize];
                let at = list.iter().position(|&s| s == k).expect("the candidate is indexed");
                (0..n)
                    .map(|i| {
                        list.get(at + i).copied().filter(|&s| {
                            let d = self.desc(s);
                            d.sequence == sequence && d.label == label + i as u64
                        })
                    })
                    .collect()
            }
            _ => None,
        };
        // 2–3. Barrier, conflict detection and resolution, in thread order. Each thread
        // reads its candidate's bitmap as the optimistic phase left it (a lower thread's
        // later booking only happens while resolving, which sends this thread there too).
        let bitmaps: Vec<u64> = candidates.iter().map(|c| c.map_or(0, |s| self.desc(s).booked)).collect();
        let mut outcomes = Vec::with_capacity(n);
        let mut resolving = false;
        for (i, &(msg, env)) in msgs.iter().enumerate() {
            let lower = (1u64 << i) - 1;
            let cand = candidates[i];
            let conflicted = bitmaps[i] & lower != 0;
            trace.threads[i].conflicted = conflicted;
            resolving |= conflicted;
            let taken = if !resolving {
                cand
            } else if let Some(targets) = &fast_targets {
                trace.threads[i].path = Path::Fast;
                Some(targets[i])
            } else {
                trace.threads[i].path = Path::Slow;
                let (again, walk, _) =
                    self.search(&env, walked_classes(trace.threads[i].hit_classes), |_| false);
                trace.threads[i].rewalk = walk;
                again
            };
            outcomes.push(match taken {
                Some(slot) => {
                    trace.threads[i].list = Some(self.desc(slot).list);
                    // A slow lane's receive leaves its list at once: lanes resolve one
                    // after another by then, so no walk is under way to change.
                    let eager = trace.threads[i].path == Path::Slow;
                    Outcome::Matched { recv: self.consume(slot, eager), msg }
                }
                None => Outcome::Queued,
            });
        }
        // Bookings end with the block; lazily removed receives are cleaned out.
        for slot in candidates.into_iter().flatten() {
            if let Some(d) = self.table[slot as usize].as_mut() {
                d.booked = 0;
            }
        }
        if self.cfg.lazy_removal {
            self.clean(&mut trace);
        }
        // 4. Unexpected messages, in arrival order, while the UMQ has room.
        for (&(msg, env), outcome) in msgs.iter().zip(outcomes.iter_mut()) {
            if *outcome == Outcome::Queued && self.umq_len == self.cfg.unexpected {
                *outcome = Outcome::Overflow;
            } else if *outcome == Outcome::Queued {
                let u = Unexpected { msg, env };
                for class in WildcardClass::ALL {
                    let list = self.list(class, env.comm, env.src, env.tag);
                    self.umq[list].push_back(u);
                }
                self.umq_len += 1;
                trace.queued += 1;
            }
        }
        (outcomes, trace)
    }

    /// Removes every consumed receive from its list (one cleaning thread per list).
    fn clean(&mut self, trace: &mut BlockTrace) {
        let marked = std::mem::take(&mut self.marked);
        let mut lists: Vec<usize> = marked.iter().map(|&s| self.desc(s).list as usize).collect();
        lists.sort_unstable();
        lists.dedup();
        for list in lists {
            trace.cleaned_lists += 1;
            let consumed: Vec<u32> =
                self.prq[list].iter().copied().filter(|&s| self.desc(s).consumed).collect();
            for slot in consumed {
                trace.cleaned += 1;
                self.unindex(slot, list);
            }
        }
    }

    /// Runs a stream: consecutive arrivals go in blocks of up to `threads`, every other
    /// operation alone; `on_block` sees each block's trace.
    pub fn run(&mut self, ops: &[Op], on_block: &mut dyn FnMut(&BlockTrace)) -> Vec<Outcome> {
        let mut out = Vec::with_capacity(ops.len());
        let mut block: Vec<(MsgId, Envelope)> = Vec::with_capacity(self.cfg.threads);
        let mut flush = |m: &mut Self, block: &mut Vec<(MsgId, Envelope)>, out: &mut Vec<Outcome>| {
            if !block.is_empty() {
                let (outcomes, trace) = m.arrive_block(block);
                on_block(&trace);
                out.extend(outcomes);
                block.clear();
            }
        };
        for op in ops {
            if let Op::Arrive { msg, env } = *op {
                block.push((msg, env));
                if block.len() == self.cfg.threads {
                    flush(self, &mut block, &mut out);
                }
                continue;
            }
            flush(self, &mut block, &mut out);
            out.push(match *op {
                Op::PostRecv { recv, spec } => self.post_recv(recv, spec),
                Op::Cancel { recv } => self.cancel(recv),
                Op::Probe { spec } => self.probe(spec, false),
                Op::MatchedProbe { spec } => self.probe(spec, true),
                Op::Flush => {
                    self.flush();
                    Outcome::Flushed
                }
                Op::Arrive { .. } => unreachable!("arrivals are blocked above"),
            });
        }
        flush(self, &mut block, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::bounded::BoundedGolden;
    use crate::workload::streams::{bursty_stream, random_stream_phased};
    use proptest::prelude::*;

    /// Runs `ops`; returns the outcomes and how many threads took the fast and slow paths.
    fn run_counting(cfg: OptimisticConfig, ops: &[Op]) -> (Vec<Outcome>, usize, usize) {
        let mut m = OptimisticMatcher::new(cfg).unwrap();
        let (mut fast, mut slow) = (0, 0);
        let got = m.run(ops, &mut |b| {
            fast += b.threads.iter().filter(|t| t.path == Path::Fast).count();
            slow += b.threads.iter().filter(|t| t.path == Path::Slow).count();
        });
        (got, fast, slow)
    }

    fn check_stream(cfg: OptimisticConfig, seed: u64) -> Result<(), TestCaseError> {
        for ops in [random_stream_phased(seed, 1500, 200), bursty_stream(seed)] {
            let (got, _, _) = run_counting(cfg, &ops);
            let mut golden = BoundedGolden::new(cfg.descriptors, cfg.unexpected);
            for (i, (op, got)) in ops.iter().zip(&got).enumerate() {
                prop_assert_eq!(*got, golden.apply(op), "op {} {:?} with {:?}", i, op, cfg);
            }
        }
        Ok(())
    }

    /// The bursts exercise what the pairing tests are for: conflicts on both paths.
    #[test]
    fn bursts_reach_both_conflict_paths() {
        for threads in [4, 16] {
            let (mut fast, mut slow) = (0, 0);
            for seed in 0..8 {
                let (_, f, s) = run_counting(OptimisticConfig::new(threads), &bursty_stream(seed));
                fast += f;
                slow += s;
            }
            assert!(fast > 0 && slow > 0, "{threads} threads: fast {fast}, slow {slow}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn pairing_equals_the_golden_model(
            seed in any::<u64>(),
            threads in 1usize..=MAX_THREADS,
            (fast_path, lazy_removal, early_booking_check) in any::<(bool, bool, bool)>(),
            small_table in any::<bool>(),
            bins in prop_oneof![Just(1usize), Just(4), Just(64)],
        ) {
            let (descriptors, unexpected) = if small_table { (40, 30) } else { (4096, usize::MAX) };
            let cfg = OptimisticConfig {
                threads,
                bins,
                descriptors,
                unexpected,
                fast_path,
                lazy_removal,
                early_booking_check,
                fields: FieldWidths::DEFAULT,
            };
            check_stream(cfg, seed)?;
        }
    }

    /// Every option set, on thread counts around the bitmap's edges.
    #[test]
    fn every_option_set_pairs_as_the_golden_model() {
        for options in 0..8 {
            for threads in [1, 2, 7, 32, 64] {
                let cfg = OptimisticConfig {
                    fast_path: options & 1 != 0,
                    lazy_removal: options & 2 != 0,
                    early_booking_check: options & 4 != 0,
                    bins: 8,
                    ..OptimisticConfig::new(threads)
                };
                check_stream(cfg, options * 100 + threads as u64).unwrap();
            }
        }
    }

    /// The walk's cycles as the two-stage hardware walk spends them.
    #[test]
    fn a_walk_counts_the_first_read_and_a_read_discarded_after_an_early_match() {
        let env = Envelope::new(0, 3, 7);
        let walk = |specs: &[RecvSpec]| {
            let mut m = OptimisticMatcher::new(OptimisticConfig::hardware(1, 32, 4, 16)).unwrap();
            for (r, spec) in specs.iter().enumerate() {
                m.post_recv(RecvId(r as u64), *spec);
            }
            m.arrive_block(&[(MsgId(100), env)]).1.threads[0].walk
        };
        let exact = RecvSpec::exact(env);
        let any_src = RecvSpec::new(0, None, Some(7));
        let both = RecvSpec::new(0, None, None);
        // First read, then the match; the other classes hold no receive and are skipped.
        assert_eq!(walk(&[exact]), 1 + 1);
        // The match has an entry after it: the last list walked, so nothing is discarded.
        assert_eq!(walk(&[exact, exact]), 1 + 1);
        // With a later list to walk, the read that followed the match's link is discarded.
        assert_eq!(walk(&[exact, exact, both]), 1 + 1 + 1 + 1);
        assert_eq!(walk(&[both]), 1 + 1);
        assert_eq!(walk(&[both, both]), 1 + 1);
        // Both wildcard classes in between hold a receive: exact, ANY_SOURCE and both.
        assert_eq!(walk(&[exact, any_src, both]), 1 + 1 + 1 + 1);
        // No match (tag 11 shares tag 7's bin): every entry is examined to its list's end.
        assert_eq!(walk(&[RecvSpec::exact(Envelope::new(0, 3, 11)); 2]), 1 + 2);
        // A class with a receive in another bin costs its empty list (bin of tag 8 ≠ 7's).
        assert_eq!(walk(&[exact, RecvSpec::new(0, None, Some(8))]), 1 + 1 + 1);
        // Nothing posted: the last list is read, empty.
        assert_eq!(walk(&[]), 1 + 1);
    }

    /// The slow path's walk reads only the lists the first walk matched in (nothing is
    /// posted during a block), or the last list when it matched in none.
    #[test]
    fn a_slow_walk_reads_only_the_lists_the_first_walk_matched_in() {
        let env = Envelope::new(0, 3, 7);
        let mut cfg = OptimisticConfig::hardware(3, 32, 4, 16);
        cfg.fast_path = false;
        let mut m = OptimisticMatcher::new(cfg).unwrap();
        m.post_recv(RecvId(0), RecvSpec::exact(env));
        m.post_recv(RecvId(1), RecvSpec::exact(env));
        // Thread 1 wants thread 0's receive; thread 2's message matches nothing.
        let other = Envelope::new(0, 4, 9);
        let (outcomes, trace) = m.arrive_block(&[(MsgId(10), env), (MsgId(11), env), (MsgId(12), other)]);
        assert_eq!(outcomes[1], Outcome::Matched { recv: RecvId(1), msg: MsgId(11) });
        assert_eq!(outcomes[2], Outcome::Queued);
        let [t0, t1, t2] = &trace.threads[..] else { panic!("three threads") };
        assert_eq!((t0.hit_classes, t1.hit_classes, t2.hit_classes), (1, 1, 0));
        assert_eq!((t1.path, t2.path), (Path::Slow, Path::Slow));
        // Thread 1: the first read, then receive 0 (taken, still linked until the block
        // ends) and receive 1, the last entry of the only list walked: nothing discarded.
        assert_eq!(t1.rewalk, 1 + 2);
        // Thread 2: the first read and the empty list of receives with both wildcards.
        assert_eq!(t2.rewalk, 1 + 1);
        // The first walks read only the exact index, the one class holding receives.
        assert_eq!(t1.walk, 1 + 1);
    }

    /// Receives all alike, messages for them in blocks: the fast path takes every thread
    /// after the first; without it, the slow path does.
    #[test]
    fn the_fast_path_serves_sequences_of_compatible_receives() {
        let env = Envelope::new(0, 3, 7);
        for fast in [true, false] {
            let mut cfg = OptimisticConfig::new(8);
            cfg.fast_path = fast;
            let mut m = OptimisticMatcher::new(cfg).unwrap();
            for r in 0..8 {
                m.post_recv(RecvId(r), RecvSpec::exact(env));
            }
            let msgs: Vec<_> = (0..8).map(|i| (MsgId(100 + i), env)).collect();
            let (outcomes, trace) = m.arrive_block(&msgs);
            for (i, o) in outcomes.iter().enumerate() {
                assert_eq!(*o, Outcome::Matched { recv: RecvId(i as u64), msg: MsgId(100 + i as u64) });
            }
            let want = if fast { Path::Fast } else { Path::Slow };
            assert_eq!(trace.threads[0].path, Path::Optimistic);
            assert!(trace.threads[1..].iter().all(|t| t.path == want && t.conflicted), "{trace:?}");
        }
    }

    /// A receive of another pattern posted inside the run ends the sequence: the fast path
    /// must not jump over it, and takes its run whole or not at all.
    #[test]
    fn the_fast_path_stops_at_the_end_of_a_sequence() {
        let env = Envelope::new(0, 3, 7);
        let mut m = OptimisticMatcher::new(OptimisticConfig::new(4)).unwrap();
        m.post_recv(RecvId(0), RecvSpec::exact(env));
        m.post_recv(RecvId(1), RecvSpec::exact(env));
        m.post_recv(RecvId(2), RecvSpec::new(0, None, Some(7)));
        m.post_recv(RecvId(3), RecvSpec::exact(env));
        let msgs: Vec<_> = (0..4).map(|i| (MsgId(100 + i), env)).collect();
        let (outcomes, trace) = m.arrive_block(&msgs);
        let recvs: Vec<_> = outcomes
            .iter()
            .map(|o| match o {
                Outcome::Matched { recv, .. } => recv.0,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(recvs, [0, 1, 2, 3]);
        assert!(trace.threads[1..].iter().all(|t| t.path == Path::Slow), "{trace:?}");
    }

    /// A cancelled receive inside a run: the receives after it are not the run's next
    /// ones any more, so the fast path stands down.
    #[test]
    fn a_gap_in_the_run_sends_the_block_to_the_slow_path() {
        let env = Envelope::new(0, 3, 7);
        let mut m = OptimisticMatcher::new(OptimisticConfig::new(3)).unwrap();
        for r in 0..4 {
            m.post_recv(RecvId(r), RecvSpec::exact(env));
        }
        assert_eq!(m.cancel(RecvId(1)), Outcome::Cancelled { recv: RecvId(1) });
        let msgs: Vec<_> = (0..3).map(|i| (MsgId(100 + i), env)).collect();
        let (outcomes, trace) = m.arrive_block(&msgs);
        let want: Vec<_> = [0, 2, 3]
            .iter()
            .zip(&msgs)
            .map(|(&r, &(msg, _))| Outcome::Matched { recv: RecvId(r), msg })
            .collect();
        assert_eq!(outcomes, want);
        assert!(trace.threads[1..].iter().all(|t| t.path == Path::Slow), "{trace:?}");
    }

    #[test]
    fn unique_envelopes_need_no_resolution() {
        let mut m = OptimisticMatcher::new(OptimisticConfig::new(16)).unwrap();
        for r in 0..16u32 {
            m.post_recv(RecvId(r as u64), RecvSpec::exact(Envelope::new(0, r, r)));
        }
        let msgs: Vec<_> = (0..16u32).map(|i| (MsgId(100 + i as u64), Envelope::new(0, i, i))).collect();
        let (_, trace) = m.arrive_block(&msgs);
        assert!(trace.threads.iter().all(|t| t.path == Path::Optimistic && t.list.is_some()));
    }

    #[test]
    fn a_full_descriptor_table_answers_overflow() {
        let mut cfg = OptimisticConfig::new(4);
        cfg.descriptors = 2;
        let mut m = OptimisticMatcher::new(cfg).unwrap();
        let spec = RecvSpec::exact(Envelope::new(0, 1, 1));
        assert_eq!(m.post_recv(RecvId(1), spec), Outcome::Queued);
        assert_eq!(m.post_recv(RecvId(2), spec), Outcome::Queued);
        assert_eq!(m.post_recv(RecvId(3), spec), Outcome::Overflow);
        assert!(OptimisticMatcher::new(OptimisticConfig::new(65)).is_err());
    }
}
