//! The preposted-latency and unload benchmarks (DESIGN.md, cycle conventions) as drivers
//! of any engine that reports cycles, so the RTL and the cycle-accurate model run exactly
//! the same operations.
//!
//! Each run leaves the engine empty, so runs at several depths can share one engine and
//! reuse handles. Every response is checked: a benchmark of a wrong answer is no benchmark.

use super::{Applied, Completion, CompletionAnswer, CycleEngine};
use crate::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::ops::{Op, Outcome};

/// One benchmark point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// The benchmark's figure: the probe message's latency (preposted) or the cycles from
    /// the first delivery's acceptance to the last response (unload).
    pub cycles: u64,
    /// Every cycle the run simulated, set-up and clean-up included.
    pub simulated: u64,
    /// With a wait (`*_with_wait`): cycles from the same start to the wait's answer, as
    /// the FPL 2018 paper measures.
    pub wait_cycles: Option<u64>,
}

/// Parks a wait for `more` matches of `class` beyond its counter now.
fn park_wait(engine: &mut impl CycleEngine, class: u8, more: u32) -> Result<(), String> {
    let now = match engine.complete(&Completion::Test { class, count: 0 })?.0 {
        CompletionAnswer::Reached(c) | CompletionAnswer::NotReached(c) => c,
        other => return Err(format!("reading the completion counter: {other:?}")),
    };
    match engine.complete(&Completion::Wait { class, count: now.wrapping_add(more) })?.0 {
        CompletionAnswer::Parked => Ok(()),
        other => Err(format!("parking the benchmark's wait: {other:?}")),
    }
}

/// The wait's answer after the operation that should have ended it.
fn wakeup_cycle(engine: &mut impl CycleEngine) -> Result<u64, String> {
    engine
        .take_wakeup()
        .map(|w| w.cycle)
        .ok_or_else(|| "the wait was not answered after its last match".into())
}

/// The `i`-th filler receive's envelope: exact, all distinct, never the probe's.
fn filler(i: u32) -> Envelope {
    Envelope::new(1, i & 0xffff, i)
}

const PROBE: Envelope = Envelope { comm: 0, src: 0, tag: 0 };
const MSG_BASE: u64 = 1 << 31;

/// `got`, if it is `want`; `what` names the step only on failure (formatting it for every
/// operation would cost the cycle model more than the operation).
fn expect(got: Applied, want: Outcome, what: impl FnOnce() -> String) -> Result<Applied, String> {
    if got.outcome == want {
        Ok(got)
    } else {
        Err(format!("{}: the engine answered {:?}, expected {want:?}", what(), got.outcome))
    }
}

/// Preposted latency at `depth` (≥ 1): post `depth - 1` receives the probe message does not
/// match, then one it does, deliver the message and time it; then match the fillers away.
pub fn preposted(engine: &mut impl CycleEngine, depth: u32) -> Result<Point, String> {
    preposted_run(engine, depth, false)
}

/// [`preposted`], with a wait for the probe's match parked before the message comes.
pub fn preposted_with_wait(engine: &mut impl CycleEngine, depth: u32) -> Result<Point, String> {
    preposted_run(engine, depth, true)
}

fn preposted_run(engine: &mut impl CycleEngine, depth: u32, wait: bool) -> Result<Point, String> {
    if depth == 0 {
        return Err("depths start at 1".into());
    }
    let start = engine.cycles();
    for i in 1..depth {
        let op = Op::PostRecv { recv: RecvId(i as u64), spec: RecvSpec::exact(filler(i)) };
        expect(engine.apply(&op)?, Outcome::Queued, || format!("posting receive {i} of {depth}"))?;
    }
    let target = RecvId(depth as u64);
    let post = Op::PostRecv { recv: target, spec: RecvSpec::exact(PROBE) };
    expect(engine.apply(&post)?, Outcome::Queued, || format!("posting receive {depth} of {depth}"))?;
    if wait {
        park_wait(engine, PROBE.comm as u8, 1)?;
    }
    let msg = MsgId(MSG_BASE);
    let probe = engine.apply(&Op::Arrive { msg, env: PROBE })?;
    let probe = expect(probe, Outcome::Matched { recv: target, msg }, || "the probe message".into())?;
    let wait_cycles = if wait { Some(wakeup_cycle(engine)? - probe.accepted) } else { None };
    for i in 1..depth {
        let msg = MsgId(MSG_BASE + i as u64);
        let got = engine.apply(&Op::Arrive { msg, env: filler(i) })?;
        expect(got, Outcome::Matched { recv: RecvId(i as u64), msg }, || "draining the fillers".into())?;
    }
    Ok(Point { cycles: probe.latency(), simulated: engine.cycles() - start, wait_cycles })
}

/// Unload at `depth` (≥ 1): post `depth` receives, then deliver messages matching the newest
/// remaining receive until none is left; cycles from the first delivery's acceptance to the
/// last response.
pub fn unload(engine: &mut impl CycleEngine, depth: u32) -> Result<Point, String> {
    unload_run(engine, depth, false)
}

/// [`unload`], with a wait for all `depth` matches parked before the first delivery.
pub fn unload_with_wait(engine: &mut impl CycleEngine, depth: u32) -> Result<Point, String> {
    unload_run(engine, depth, true)
}

fn unload_run(engine: &mut impl CycleEngine, depth: u32, wait: bool) -> Result<Point, String> {
    if depth == 0 {
        return Err("depths start at 1".into());
    }
    let start = engine.cycles();
    for i in 1..=depth {
        let op = Op::PostRecv { recv: RecvId(i as u64), spec: RecvSpec::exact(filler(i)) };
        expect(engine.apply(&op)?, Outcome::Queued, || format!("posting receive {i} of {depth}"))?;
    }
    if wait {
        park_wait(engine, filler(1).comm as u8, depth)?;
    }
    let (mut first, mut last) = (None, 0);
    for i in (1..=depth).rev() {
        let msg = MsgId(MSG_BASE + i as u64);
        let got = engine.apply(&Op::Arrive { msg, env: filler(i) })?;
        let got = expect(got, Outcome::Matched { recv: RecvId(i as u64), msg }, || "unloading".into())?;
        first.get_or_insert(got.accepted);
        last = got.responded;
    }
    let first = first.expect("depth ≥ 1 delivers at least once");
    let wait_cycles = if wait { Some(wakeup_cycle(engine)? - first) } else { None };
    Ok(Point { cycles: last - first, simulated: engine.cycles() - start, wait_cycles })
}
