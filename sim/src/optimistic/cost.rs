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
//! - *walk* (`walk` cycles): one per index entry examined, one for an empty list. The next
//!   list's head address goes out in the cycle the previous list ends, and each lane has
//!   its own read port (the head tables are replicated per lane, written together; the
//!   descriptors sit in registers), so lanes never wait for a memory port while walking.
//!   Lane `i` has walked at `W_i = A + 1 + walk_i`;
//! - *booking*: at the edge that ends the walk (no extra cycle);
//! - *partial barrier* and *conflict check* (1 cycle): lane `i` checks its candidate's
//!   booking bitmap at `T_i = max(W_0 ..= W_i) + 1` and, unless it or a lower lane is
//!   conflicted, takes the candidate in that cycle;
//! - *fast path* (0 extra cycles): decided at the full barrier `G = T_(n-1)` (all lanes must
//!   have booked receive `k`), every conflicted lane takes its run receive at `G`;
//! - *slow path*: lane `i` starts at `S_i = max(G, X_(i-1) + 1)`, one cycle after the
//!   previous lane took its receive at `X_(i-1)`, presents the first head address at `S_i`
//!   and walks again: `X_i = S_i + rewalk_i`;
//! - *memory-port conflicts*: all at the end of the block. Removing the taken receives
//!   from their lists (one head-table write port) and entering unmatched messages into
//!   the UMQ (one CAM insert port) go one lane a cycle, from `E + 1` where `E` is the last
//!   take: `n` cycles. This serial tail is where adding lanes stops paying.
//!
//! The block answers at `E + 1 + n`. Single operations: a receive that matches an
//! unexpected message, or finds the table full, answers at `A + 2` (one CAM search); one
//! that is queued at `A + 3` (the list's tail is read, then the descriptor written);
//! cancel (search by handle, unlink) and probes at `A + 2`.

use super::{BlockTrace, Path};
use crate::ops::Outcome;

/// Cycles from acceptance to answer of a posted receive with this outcome.
pub fn post_latency(outcome: &Outcome) -> u64 {
    match outcome {
        Outcome::Queued => 3,
        _ => 2,
    }
}

/// Cycles from acceptance to answer of a cancel or a probe.
pub const SEARCH_LATENCY: u64 = 2;

/// Cycles from acceptance to answer of a flush: a clearing pass writes one of the `3B + 1`
/// index lists a cycle (every lane's head copy and the tail together; the descriptors and
/// the UMQ clear in its first cycle), then the answer.
pub fn flush_latency(bins: usize) -> u64 {
    3 * bins as u64 + 2
}

/// Cycles from acceptance to answer of a block of arrivals (module docs).
pub fn block_latency(trace: &BlockTrace) -> u64 {
    let n = trace.threads.len() as u64;
    // W_i, then T_i = (max of W_0..=W_i) + 1, relative to A.
    let mut barrier = Vec::with_capacity(trace.threads.len());
    let mut walked = 0;
    for t in &trace.threads {
        walked = walked.max(1 + t.walk as u64);
        barrier.push(walked + 1);
    }
    let global = barrier.last().copied().unwrap_or(1);
    let (mut previous, mut last) = (0, 0);
    for (t, &checked) in trace.threads.iter().zip(&barrier) {
        let took = match t.path {
            Path::Optimistic => checked,
            Path::Fast => global,
            Path::Slow => global.max(previous + 1) + t.rewalk as u64,
        };
        previous = took;
        last = last.max(took);
    }
    last + 1 + n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimistic::ThreadTrace;

    fn thread(walk: u32, path: Path, rewalk: u32) -> ThreadTrace {
        ThreadTrace { walk, rewalk, conflicted: path != Path::Optimistic, path, list: Some(0) }
    }

    #[test]
    fn a_block_waits_for_its_slowest_walk_then_cleans_one_lane_a_cycle() {
        // Lanes walk 4 and 7 cycles: W = 5, 8; T = 6, 9; E = 9; answer 9 + 1 + 2.
        let trace = BlockTrace {
            threads: vec![thread(4, Path::Optimistic, 0), thread(7, Path::Optimistic, 0)],
            ..BlockTrace::default()
        };
        assert_eq!(block_latency(&trace), 12);
    }

    #[test]
    fn slow_lanes_follow_one_another_and_fast_lanes_take_at_the_barrier() {
        let optimistic = thread(4, Path::Optimistic, 0);
        // G = 6; lane 0 takes at 6, lane 1 starts at 7 and takes at 11, lane 2 starts at
        // 12 and takes at 16.
        let slow = BlockTrace {
            threads: vec![optimistic, thread(4, Path::Slow, 4), thread(4, Path::Slow, 4)],
            ..BlockTrace::default()
        };
        assert_eq!(block_latency(&slow), 16 + 1 + 3);
        let fast = BlockTrace {
            threads: vec![optimistic, thread(4, Path::Fast, 0), thread(4, Path::Fast, 0)],
            ..BlockTrace::default()
        };
        assert_eq!(block_latency(&fast), 6 + 1 + 3);
    }
}
