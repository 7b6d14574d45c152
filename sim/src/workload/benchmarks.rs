//! The two queue benchmarks of `docs/design.md`, run on software matchers.
//!
//! - preposted latency (Underwood and Brightwell): post `depth - 1` receives the probe
//!   message does not match, one that it does, then deliver the message;
//! - unload (Mattheakis): post `depth` receives, then deliver messages each matching the
//!   newest remaining receive until the queue is empty.
//!
//! Receive `i` names source `i + 1` and tag `i + 1` on communicator 0 (unique envelopes:
//! a job with many peers); the preposted probe comes from source 0. Work is counted in
//! queue entries inspected, which is exact and repeatable; time is wall-clock, averaged over
//! repetitions.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::ops::{Op, Outcome};
use crate::software::matchers::{MatcherKind, MatcherOptions};
use std::time::Instant;

fn filler(i: u32) -> RecvSpec {
    RecvSpec::exact(Envelope::new(0, i + 1, i + 1))
}

const PROBE: Envelope = Envelope { comm: 0, src: 0, tag: 0 };

/// Receives posted before the preposted-latency probe arrives; the last one matches it.
pub fn preposted_setup(depth: u32) -> Vec<Op> {
    let mut ops: Vec<Op> = (0..depth.saturating_sub(1))
        .map(|i| Op::PostRecv { recv: RecvId(i as u64), spec: filler(i) })
        .collect();
    ops.push(Op::PostRecv { recv: RecvId(u64::MAX), spec: RecvSpec::exact(PROBE) });
    ops
}

/// Receives posted before the unload starts.
pub fn unload_setup(depth: u32) -> Vec<Op> {
    (0..depth).map(|i| Op::PostRecv { recv: RecvId(i as u64), spec: filler(i) }).collect()
}

/// What one benchmark point measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measurement {
    /// Entries inspected by the measured deliveries (one delivery for preposted).
    pub inspected: u64,
    /// Wall-clock nanoseconds of the measured deliveries (mean over repetitions).
    pub nanos: f64,
}

fn check(outcome: Outcome, recv: RecvId, msg: MsgId, who: &str) -> Result<(), String> {
    match outcome {
        Outcome::Matched { recv: r, msg: m } if r == recv && m == msg => Ok(()),
        other => Err(format!("{who}: expected {recv:?} to match {msg:?}, got {other:?}")),
    }
}

/// Preposted latency of one matcher at `depth >= 1`, timed over `repeats` deliveries (the
/// matched receive is re-posted between them, which keeps the queue as it was).
pub fn preposted(
    kind: MatcherKind,
    options: &MatcherOptions,
    depth: u32,
    repeats: u32,
) -> Result<Measurement, String> {
    let setup = preposted_setup(depth);
    let mut m = kind.build(options, Some(&setup));
    for op in &setup {
        m.apply(op);
    }
    let before = m.stats().inspected;
    check(m.arrive(MsgId(0), PROBE), RecvId(u64::MAX), MsgId(0), kind.name())?;
    let inspected = m.stats().inspected - before;
    let mut total = 0.0;
    for r in 1..=repeats.max(1) {
        m.post_recv(RecvId(u64::MAX), RecvSpec::exact(PROBE));
        let t = Instant::now();
        let outcome = m.arrive(MsgId(r as u64), PROBE);
        total += t.elapsed().as_nanos() as f64;
        check(outcome, RecvId(u64::MAX), MsgId(r as u64), kind.name())?;
    }
    Ok(Measurement { inspected, nanos: total / repeats.max(1) as f64 })
}

/// Unload of one matcher from `depth` receives; time is the whole unload, mean over
/// `repeats` runs.
pub fn unload(
    kind: MatcherKind,
    options: &MatcherOptions,
    depth: u32,
    repeats: u32,
) -> Result<Measurement, String> {
    let setup = unload_setup(depth);
    let mut inspected = 0;
    let mut total = 0.0;
    for _ in 0..repeats.max(1) {
        let mut m = kind.build(options, Some(&setup));
        for op in &setup {
            m.apply(op);
        }
        let before = m.stats().inspected;
        let t = Instant::now();
        for i in (0..depth).rev() {
            let spec = filler(i);
            let env = Envelope::new(spec.comm, i + 1, i + 1);
            check(m.arrive(MsgId(i as u64), env), RecvId(i as u64), MsgId(i as u64), kind.name())?;
        }
        total += t.elapsed().as_nanos() as f64;
        inspected = m.stats().inspected - before;
        if m.stats().prq_len != 0 {
            return Err(format!("{}: the PRQ is not empty after unload", kind.name()));
        }
    }
    Ok(Measurement { inspected, nanos: total / repeats.max(1) as f64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linked_list_inspects_every_entry_and_hash_bins_few() {
        let o = MatcherOptions::default();
        let ll = preposted(MatcherKind::LinkedList, &o, 500, 3).unwrap();
        assert_eq!(ll.inspected, 500);
        let hb = preposted(MatcherKind::HashBins, &o, 500, 3).unwrap();
        assert!(hb.inspected < 10, "{hb:?}");
        // Unloading newest-first makes the linked list walk n, n-1, ..., 1 entries.
        assert_eq!(unload(MatcherKind::LinkedList, &o, 100, 1).unwrap().inspected, 100 * 101 / 2);
        let rb = unload(MatcherKind::RankBased, &o, 100, 1).unwrap();
        assert_eq!(rb.inspected, 100, "one entry per source list");
    }
}
