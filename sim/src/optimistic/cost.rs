//! The optimistic matcher's cycle-level cost: what each step of a block costs a hardware
//! thread array (one lane per thread, index tables and descriptor table in block RAM),
//! giving the message rate in matches per cycle. The functional model
//! ([`super::OptimisticMatcher`]) says what each thread did ([`super::BlockTrace`]); this
//! module says when. The HDL thread array is to be built to these costs; a change to one
//! is a change to the other.
//!
//! A block starts when its messages are in the lanes. Per thread `i`:
//!
//! - optimistic phase: `hash` cycles for the three hashes (computed side by side), then
//!   one read per index head (4) and per entry walked, then the booking write. The index
//!   and descriptor memories serve `banks × ports` accesses a cycle in all, lower threads
//!   first, so thread `i` finishes no earlier than its own latency and no earlier than the
//!   accesses of threads `0..=i` take at that bandwidth — this is where adding threads
//!   stops paying: the memories saturate;
//! - partial barrier: `barrier` cycles after the last of threads `0..=i` booked;
//! - conflict check: `check` (read the booking bitmap);
//! - resolution: none, the fast path (`fast`: read receive `k + i`'s sequence id and
//!   book it), or the slow path (wait for thread `i - 1` to finish, then hash and walk
//!   again and book);
//! - taking the receive: `consume`; with eager removal, threads taking receives from the
//!   same list unlink one after another (the list's lock), except the fast path's: its
//!   receives are the run right after the first thread's, and the last of them unlinks
//!   the whole run with one pointer write (it read the run's successor), so they take
//!   `consume` each, side by side; with lazy removal threads mark in parallel and the block
//!   ends with one cleaning pass per list (`consume` per entry, lists side by side);
//! - an unmatched message: `unexpected` cycles to enter it in the UMQ's four indexes.
//!
//! The block ends when its last thread is done; the next block starts then.

use super::{BlockTrace, Path};

/// Cycles per step (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs {
    pub hash: u64,
    pub read: u64,
    pub book: u64,
    pub barrier: u64,
    pub check: u64,
    pub fast: u64,
    pub consume: u64,
    pub unexpected: u64,
    /// Independent memory banks (index tables split by bin, descriptor table by slot).
    pub banks: u64,
    /// Ports of each bank (true dual-port block RAM: 2).
    pub ports: u64,
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            hash: 1,
            read: 1,
            book: 1,
            barrier: 1,
            check: 1,
            fast: 2,
            consume: 1,
            unexpected: 2,
            banks: 8,
            ports: 2,
        }
    }
}

/// Index heads a search reads before walking.
const HEADS: u64 = 4;

impl Costs {
    /// Cycles a block takes.
    pub fn block(&self, trace: &BlockTrace) -> u64 {
        let bandwidth = (self.banks * self.ports).max(1);
        let mut accesses = 0;
        let mut booked_by_all = 0;
        let mut previous_done = 0;
        let mut end = 0;
        // When each list's last eager unlink finishes.
        let mut unlinked: Vec<(u32, u64)> = Vec::new();
        for t in &trace.threads {
            let reads = HEADS + t.walked as u64;
            accesses += reads + 1;
            let own = self.hash + self.read * reads + self.book;
            let booked = own.max(self.hash + accesses.div_ceil(bandwidth));
            booked_by_all = booked_by_all.max(booked);
            let checked = booked_by_all + self.barrier + self.check;
            let mut done = match t.path {
                Path::Optimistic => checked,
                Path::Fast => checked + self.fast,
                Path::Slow => {
                    checked.max(previous_done)
                        + self.hash
                        + self.read * (HEADS + t.rewalked as u64)
                        + self.book
                }
            };
            done = match t.list {
                Some(list) if !trace.lazy && t.path != Path::Fast => {
                    let free = unlinked.iter().find(|(l, _)| *l == list).map_or(0, |&(_, at)| at);
                    let finish = done.max(free) + self.consume;
                    match unlinked.iter_mut().find(|(l, _)| *l == list) {
                        Some(slot) => slot.1 = finish,
                        None => unlinked.push((list, finish)),
                    }
                    finish
                }
                Some(_) => done + self.consume,
                None => done + self.unexpected,
            };
            previous_done = done;
            end = end.max(done);
        }
        if trace.cleaned > 0 {
            let per_list = (trace.cleaned as u64).div_ceil(trace.cleaned_lists.max(1) as u64);
            end += self.consume * per_list;
        }
        end
    }
}
