//! The preposted-latency and unload benchmarks (`docs/design.md`, cycle conventions) as drivers
//! of any engine that reports cycles, so the RTL and the cycle-accurate model run exactly
//! the same operations.
//!
//! Each run leaves the engine empty, so runs at several depths can share one engine and
//! reuse handles. Every response is checked: a benchmark of a wrong answer is no benchmark.

use super::{Applied, Completion, CompletionAnswer, CycleEngine};
use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::ops::{Op, Outcome};

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

/// The traffic of a sustained-throughput run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Traffic {
    /// Messages matching receives that wait in the CAM, oldest first: every one a CAM hit
    /// whose removal needs no data mover.
    CamHits,
    /// Messages nothing matches: every one a miss queued into the UMQ's CAM.
    Unexpected,
    /// Messages matching receives that fill the CAM and spill into the lists, oldest
    /// first: every one a CAM hit, and each that empties a CAM bank starts the data mover,
    /// which brings in a bank's worth of list entries (the queue holds the
    /// CAM's depth more receives than messages come).
    MoverHits,
}

impl Traffic {
    pub const ALL: [Traffic; 3] = [Traffic::CamHits, Traffic::Unexpected, Traffic::MoverHits];

    pub fn name(self) -> &'static str {
        match self {
            Traffic::CamHits => "cam-hits",
            Traffic::Unexpected => "unexpected",
            Traffic::MoverHits => "mover-hits",
        }
    }

    pub fn parse(s: &str) -> Result<Traffic, String> {
        Traffic::ALL.into_iter().find(|t| t.name() == s).ok_or_else(|| {
            let names: Vec<_> = Traffic::ALL.iter().map(|t| t.name()).collect();
            format!("unknown traffic '{s}' (one of {})", names.join(", "))
        })
    }
}

/// What a sustained run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Throughput {
    /// Messages driven back to back.
    pub ops: u32,
    /// Cycles per message in the steady state: from the first response to the last,
    /// divided by the messages between them.
    pub cycles_per_op: f64,
    /// The longest acceptance-to-response latency among them.
    pub max_latency: u64,
    /// Every cycle the run simulated, set-up and clean-up included.
    pub simulated: u64,
}

/// Drives `ops` messages of `traffic` back to back (each command presented the cycle after
/// the previous one was accepted, every response taken at once) through an engine whose
/// CAM holds `cam_depth` entries, checking every answer; leaves the engine empty. Set-up
/// and clean-up go one operation at a time.
pub fn throughput(
    engine: &mut (impl CycleEngine + ?Sized),
    traffic: Traffic,
    cam_depth: u32,
    ops: u32,
) -> Result<Throughput, String> {
    if ops < 2 {
        return Err("a throughput run needs at least 2 messages".into());
    }
    let start = engine.cycles();
    // Mover hits keep the CAM full behind every removal: `ops` more receives than it holds.
    let receives = match traffic {
        Traffic::CamHits if ops > cam_depth => {
            return Err(format!("{ops} CAM hits need {ops} receives in a {cam_depth}-entry CAM"))
        }
        Traffic::CamHits => ops,
        Traffic::MoverHits => cam_depth + ops,
        Traffic::Unexpected => 0,
    };
    for i in 1..=receives {
        let op = Op::PostRecv { recv: RecvId(i as u64), spec: RecvSpec::exact(filler(i)) };
        expect(engine.apply(&op)?, Outcome::Queued, || format!("posting receive {i}"))?;
    }
    let arrivals: Vec<Op> =
        (1..=ops).map(|i| Op::Arrive { msg: MsgId(MSG_BASE + i as u64), env: filler(i) }).collect();
    let got = engine.apply_stream(&arrivals)?;
    for (i, a) in (1..=ops).zip(&got) {
        let msg = MsgId(MSG_BASE + i as u64);
        let want = match traffic {
            Traffic::Unexpected => Outcome::Queued,
            _ => Outcome::Matched { recv: RecvId(i as u64), msg },
        };
        expect(*a, want, || format!("message {i} of {ops}"))?;
    }
    // Leave the engine empty: take the messages back out, or match the receives left.
    if traffic == Traffic::Unexpected {
        for i in 1..=ops {
            let op = Op::PostRecv { recv: RecvId(i as u64), spec: RecvSpec::exact(filler(i)) };
            let want = Outcome::Matched { recv: RecvId(i as u64), msg: MsgId(MSG_BASE + i as u64) };
            expect(engine.apply(&op)?, want, || format!("draining message {i}"))?;
        }
    }
    for i in ops + 1..=receives {
        let msg = MsgId(MSG_BASE + i as u64);
        let op = Op::Arrive { msg, env: filler(i) };
        expect(engine.apply(&op)?, Outcome::Matched { recv: RecvId(i as u64), msg }, || {
            format!("draining receive {i}")
        })?;
    }
    let (first, last) = (got[0], got[got.len() - 1]);
    Ok(Throughput {
        ops,
        cycles_per_op: (last.responded - first.responded) as f64 / (ops - 1) as f64,
        max_latency: got.iter().map(Applied::latency).max().unwrap_or(0),
        simulated: engine.cycles() - start,
    })
}
