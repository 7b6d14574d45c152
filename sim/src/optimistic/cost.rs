//! The thread array's cycle-level model: when the hardware (`tagmatch_hdl::thread_array`)
//! answers each command, exactly — the Verilator co-simulation compares every response
//! cycle with it. The functional model ([`super::OptimisticMatcher`] in its
//! [`super::OptimisticConfig::hardware`] configuration) says what each thread did
//! ([`super::BlockTrace`]); this module says when. A change to the RTL's timing is a change
//! here, and the other way round.
//!
//! Cycles count from `A`, the cycle the command is accepted (valid and ready). The engine
//! answers at `A + latency` and takes the next command the cycle after the host has taken
//! the answer.
//!
//! A block of `n` arrivals, lane `i` holding the `i`-th:
//!
//! - *hash* (1 cycle, `A + 1`): the three bins are XOR folds, computed while the lane
//!   presents the first index's head address to its copy of the index head table;
//! - *walk* (`walk` cycles, [`super::ThreadTrace::walk`]): a two-stage pipeline, so the
//!   descriptor read and the compares are not in one clock cycle. The read stage reads one
//!   entry a cycle into registers (a list's head, or the link of the entry being
//!   compared), the compare stage matches it the cycle after: one cycle for the first
//!   read, then one per index entry examined and one for an empty list. It reads the
//!   lists of the index classes that hold a receive when the block starts (a flag per
//!   class, kept from the index writes; the last list when none does), so a program
//!   without wildcard receives walks one list, not four. The read follows a link before
//!   the compare has judged its entry, so when a match ends a list other than the last
//!   walked before its last entry, that read is discarded and the next list's head is
//!   read a cycle later (one cycle more). The next list's head address is always out
//!   (each lane has its own read port: the head tables are replicated per lane, written
//!   together; the descriptors sit in registers, read through a parallel mux per lane),
//!   so lanes never wait for a memory port while walking.
//!   Lane `i` has walked at `W_i = A + 1 + walk_i`;
//! - *booking*: at the edge that ends the walk (no extra cycle);
//! - *partial barrier* and *conflict check* (1 cycle): lane `i` checks its candidate's
//!   booking bitmap at `T_i = max(W_0 ..= W_i) + 1` and, unless it or a lower lane is
//!   conflicted, takes the candidate in that cycle;
//! - *the decision* between the fast and the slow path, at `F`: the fast path needs every
//!   lane to have booked receive `k` (the full barrier `G = T_(n-1)`) and the run `k + i`,
//!   which is registered from lane 0's candidate (so the label subtraction and the takes
//!   are not one path): ready a cycle after lane 0 booked, `F = max(G, T_0 + 1)`. Without
//!   the fast path, `F = G`;
//! - *fast path*: every conflicted lane takes its run receive at `F`;
//! - *slow path*: lane `i` starts at `S_i = max(F, X_(i-1) + 1 + 2 u_(i-1))`, where
//!   `X_(i-1)` is the cycle the previous lane took its receive and `u_(i-1)` is 1 when it
//!   took it on the slow path: that receive leaves its list right after (the *eager
//!   unlink*: granted in the cycle after the take, written in the one after that, the
//!   unlink being two pipeline stages), so the next walk does not meet it. The lane
//!   presents the first head address at `S_i` and walks again, skipping receives taken in
//!   this block and reading only the lists its first walk matched in (or the last list
//!   when none; [`super::ThreadTrace::hit_classes`]): `X_i = S_i + rewalk_i`;
//! - *the tail*, from `E + 1` where `E` is the last take: the receives still linked leave
//!   their lists, and the unmatched messages enter the UMQ together.
//!   - The head and tail tables are banked by list (`list mod banks`, [`head_banks`]),
//!     each bank with its own write port and its own unlink unit, so one receive per
//!     bank leaves per cycle: `R` rounds, the most pending receives any bank holds.
//!     Pending are the optimistic lanes' takes, the fast path's run (one unlink: the
//!     run is consecutive in its list, so one pointer write on each side removes it,
//!     counted in lane 0's bank) and the last slow lane's take; earlier slow takes have
//!     left already.
//!   - The UMQ takes the block's unmatched messages one a cycle, in lane order, from
//!     `E + 2`: which of them fit (their rank among them against the UMQ's room) is
//!     registered at `E + 1`, and those past the room answer overflow. One write a
//!     cycle keeps the UMQ's slots free of a multiplexer per port
//!     (`tagmatch_hdl::optimistic::unexpected_cam`).
//!
//! The block answers at `E + 1 + max(R - 1, I)`, where `I` is 1 when every message
//! matched, else `max(2, q + 1)` for the `q` messages queued: in the last unlink round's
//! grant cycle at the earliest, its writes landing in the next command's acceptance
//! cycle, before that command reads a table. Single
//! operations: a receive that matches an unexpected message, or finds the table full,
//! answers at `A + 2` (one CAM search); one that is queued at `A + 3` (the list's tail is
//! read, then the descriptor written); a cancel at `A + 5 + S` when it finds its
//! receive, `A + 3 + S` when not, where `S = ceil(D / threads)` is its scan of the
//! descriptors' handles ([`cancel_latency`]); probes at `A + 2`.

use super::{BlockTrace, Path};
use crate::model::ops::Outcome;

/// Cycles from acceptance to answer of a posted receive with this outcome.
pub fn post_latency(outcome: &Outcome) -> u64 {
    match outcome {
        Outcome::Queued => 3,
        _ => 2,
    }
}

/// Cycles from acceptance to answer of a probe.
pub const SEARCH_LATENCY: u64 = 2;

/// Cycles from acceptance to answer of a cancel. It scans the descriptors' handles in
/// the lanes' RAM copies, one slot per lane a cycle, so `S = ceil(D / threads)` cycles
/// present the slots; the last read and its compares take a cycle each, then the lowest
/// hit is known (`S + 2`). A cancel that found its receive selects its list and links
/// (lane 0's reads of the slot) and unlinks it, a cycle each, and answers in the next:
/// `S + 5`; one that found nothing answers at `S + 3`. Every slot's handle compared in
/// the cycle of acceptance (registers and a 32-bit compare per descriptor) answered at
/// 4 and 2 but took about 5,000 of the 4-lane array's LUT4s at 128 descriptors, for an
/// operation MPI programs rarely issue.
pub fn cancel_latency(descriptors: usize, threads: usize, found: bool) -> u64 {
    let scan = descriptors.div_ceil(threads.max(1)) as u64;
    if found {
        scan + 5
    } else {
        scan + 3
    }
}

/// Cycles from acceptance to answer of a flush: a clearing pass writes one word of every
/// head and tail bank a cycle (list `l` is word `l / banks` of bank `l mod banks`, so the
/// `3B + 1` lists take `3B / banks + 1` cycles; the descriptors and the UMQ clear in its
/// first cycle), then the answer.
pub fn flush_latency(bins: usize, banks: usize) -> u64 {
    (3 * bins / banks.max(1)) as u64 + 2
}

/// Banks of the head and tail tables of an array with `threads` lanes and `bins` bins per
/// hashed index: the lane count rounded up to a power of two, at most the bins (a bank
/// holds four lists or more). List `l` is in bank `l mod banks`.
pub fn head_banks(threads: usize, bins: usize) -> usize {
    threads.next_power_of_two().min(bins).max(1)
}

/// Cycles from acceptance to answer of a block of arrivals (module docs), the head tables
/// in `banks` banks, with or without the fast conflict path.
pub fn block_latency(trace: &BlockTrace, banks: usize, fast_path: bool) -> u64 {
    // W_i, then T_i = (max of W_0..=W_i) + 1, relative to A.
    let mut barrier = Vec::with_capacity(trace.threads.len());
    let mut walked = 0;
    for t in &trace.threads {
        walked = walked.max(1 + t.walk as u64);
        barrier.push(walked + 1);
    }
    let global = barrier.last().copied().unwrap_or(1);
    let decided = match (fast_path, barrier.first()) {
        (true, Some(&lane0)) => global.max(lane0 + 1),
        _ => global,
    };
    let (mut previous, mut unlinking) = (0, 0);
    let mut took = Vec::with_capacity(trace.threads.len());
    for (t, &checked) in trace.threads.iter().zip(&barrier) {
        let x = match t.path {
            Path::Optimistic => checked,
            Path::Fast => decided,
            Path::Slow => decided.max(previous + 1 + 2 * unlinking) + t.rewalk as u64,
        };
        unlinking = (t.path == Path::Slow && t.list.is_some()) as u64;
        previous = x;
        took.push(x);
    }
    let last = took.iter().copied().max().unwrap_or(0);
    let banks = banks.max(1);
    let mut pending = vec![0u64; banks];
    for (t, &x) in trace.threads.iter().zip(&took) {
        let Some(list) = t.list else { continue };
        let still_linked = match t.path {
            Path::Optimistic => true,
            Path::Fast => false,
            Path::Slow => x == last,
        };
        if still_linked {
            pending[list as usize % banks] += 1;
        }
    }
    let rounds = pending.into_iter().max().unwrap_or(0);
    // The UMQ takes one message a cycle from the tail's second cycle.
    let inserts =
        if trace.threads.iter().any(|t| t.list.is_none()) { (trace.queued as u64 + 1).max(2) } else { 1 };
    last + 1 + rounds.saturating_sub(1).max(inserts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimistic::ThreadTrace;

    fn thread(walk: u32, path: Path, rewalk: u32) -> ThreadTrace {
        thread_in(walk, path, rewalk, Some(0))
    }

    fn thread_in(walk: u32, path: Path, rewalk: u32, list: Option<u32>) -> ThreadTrace {
        ThreadTrace { walk, rewalk, hit_classes: 0, conflicted: path != Path::Optimistic, path, list }
    }

    #[test]
    fn a_block_waits_for_its_slowest_walk_then_unlinks_one_receive_per_bank_a_cycle() {
        // Lanes walk 4 and 7 cycles: W = 5, 8; T = 6, 9; E = 9.
        let trace = |lists: [u32; 2]| BlockTrace {
            threads: vec![
                thread_in(4, Path::Optimistic, 0, Some(lists[0])),
                thread_in(7, Path::Optimistic, 0, Some(lists[1])),
            ],
            ..BlockTrace::default()
        };
        // Lists 1 and 2 are in different banks of 2: one round.
        assert_eq!(block_latency(&trace([1, 2]), 2, true), 9 + 1 + 1);
        // Lists 1 and 3 share bank 1: two rounds, the answer in the second's grant cycle.
        assert_eq!(block_latency(&trace([1, 3]), 2, true), 9 + 1 + 1);
        // With one bank every receive waits its turn: three lanes, three rounds.
        let three = BlockTrace {
            threads: vec![thread_in(4, Path::Optimistic, 0, Some(1)); 3],
            ..BlockTrace::default()
        };
        assert_eq!(block_latency(&three, 1, true), 6 + 1 + 2);
    }

    #[test]
    fn unmatched_messages_enter_the_umq_one_a_cycle_from_the_second_tail_cycle() {
        let unmatched = |queued| BlockTrace {
            threads: vec![thread_in(4, Path::Optimistic, 0, None), thread_in(4, Path::Optimistic, 0, None)],
            queued,
            ..BlockTrace::default()
        };
        // E = 6: placed at 7; two messages go in at 8 and 9, the answer at 10.
        assert_eq!(block_latency(&unmatched(2), 4, true), 6 + 1 + 3);
        // One fits (the UMQ had room for one), or none: the second tail cycle answers.
        assert_eq!(block_latency(&unmatched(1), 4, true), 6 + 1 + 2);
        assert_eq!(block_latency(&unmatched(0), 4, true), 6 + 1 + 2);
    }

    #[test]
    fn slow_lanes_follow_one_another_and_fast_lanes_take_at_the_barrier() {
        let optimistic = thread(4, Path::Optimistic, 0);
        // G = 6; lane 0 takes at 6, lane 1 starts at 7 and takes at 11; its receive is
        // granted the unlink at 12 and written at 13, so lane 2 starts at 14 and takes at
        // 18; then lane 0's and lane 2's receives (both list 0) leave in two rounds, the
        // answer in the second's grant cycle.
        let slow = BlockTrace {
            threads: vec![optimistic, thread(4, Path::Slow, 4), thread(4, Path::Slow, 4)],
            ..BlockTrace::default()
        };
        assert_eq!(block_latency(&slow, 4, false), 18 + 1 + 1);
        // With the fast path built, lane 1 waits for the decision: T_0 = 6, so F = 7 and
        // lane 1 starts at 7 all the same.
        assert_eq!(block_latency(&slow, 4, true), 18 + 1 + 1);
        // The run leaves in one unlink. Lane 0 walked as long as the others, so its run is
        // registered at 7: the fast lanes take at F = 7.
        let fast = BlockTrace {
            threads: vec![optimistic, thread(4, Path::Fast, 0), thread(4, Path::Fast, 0)],
            ..BlockTrace::default()
        };
        assert_eq!(block_latency(&fast, 4, true), 7 + 1 + 1);
        // When a later lane walks longest, the run is ready at the full barrier.
        let late = BlockTrace {
            threads: vec![optimistic, thread(4, Path::Fast, 0), thread(6, Path::Fast, 0)],
            ..BlockTrace::default()
        };
        assert_eq!(block_latency(&late, 4, true), 8 + 1 + 1);
    }
}
