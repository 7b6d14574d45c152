//! Co-simulation, operation by operation, of the receive engine's RTL against the golden
//! model with the engine's finite queues ([`BoundedGolden`]: same pairing) and against
//! the cycle-accurate model ([`TwoLevelModel`]: same response, same acceptance and
//! response cycles). The stream alternates between runs driven one operation at a time
//! (each command after the last response) and runs streamed back to back (each command
//! the cycle after the last was accepted, so the engine overlaps them), of 1 to 64
//! operations each. The first difference stops the run, which is repeated with tracing
//! on so a waveform of the failure is kept beside the cached build.
//!
//! [`cosim_from_power_up`] starts the RTL as a board does: every register and RAM word
//! garbage ([`crate::power_up`]), then one reset cycle; cycles are counted from after it,
//! so the run must agree with both models exactly as a clean start does.

use crate::power_up::with_power_up_garbage;
use crate::two_level::engine::{engine_spec, RtlEngine};
use crate::verilator::{BuildReport, Model};
use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;
use tagmatch_sim::cycle::two_level::{EngineShape, TwoLevelModel};
use tagmatch_sim::cycle::{Applied, CycleEngine};
use tagmatch_sim::model::bounded::BoundedGolden;
use tagmatch_sim::workload::streams::Rng;
use tagmatch_sim::{Op, Outcome};

/// The engine under test: a cache name for its build, its Verilog, and its shape (which
/// sizes the golden model's queues and configures the cycle model).
pub struct EngineUnderTest {
    pub name: String,
    pub verilog: String,
    pub config: EngineShape,
}

/// What a run that agreed all the way saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CosimReport {
    pub ops: usize,
    pub matched: usize,
    pub queued: usize,
    pub cancelled: usize,
    pub not_found: usize,
    pub probes: usize,
    pub overflows: usize,
    /// Overflows with room in the queue: inserts narrow posting labels refused.
    pub label_refusals: usize,
    /// Operations refused with overflow between the queue's guaranteed capacity and its
    /// most (the CAM's wasted slots).
    pub capacity_refusals: usize,
    /// Times a queue's posting-label counter wrapped (cycle model).
    pub label_wraps: u64,
    pub flushes: usize,
    /// Thread array only: commands cut short by the reset port.
    pub resets: usize,
    /// The most entries either queue held at once.
    pub deepest: usize,
    /// Operations driven back to back.
    pub streamed: usize,
    pub cycles: u64,
    /// Simulation time, without the build.
    pub seconds: f64,
    pub build_seconds: f64,
    pub build_cached: bool,
    /// Thread array only: blocks of arrivals, and lanes that took the fast and slow paths.
    pub blocks: usize,
    pub fast_path: usize,
    pub slow_path: usize,
}

impl CosimReport {
    /// The report of a run of `ops` operations on a model `build` made, before it runs.
    pub fn starting(build: &BuildReport, ops: usize) -> CosimReport {
        CosimReport {
            build_seconds: build.seconds,
            build_cached: build.cached,
            ops,
            ..CosimReport::default()
        }
    }

    /// Counts one answer; `queues` are the golden model's queue lengths after it.
    pub fn count(&mut self, outcome: &Outcome, queues: (usize, usize)) {
        match outcome {
            Outcome::Matched { .. } => self.matched += 1,
            Outcome::Queued => self.queued += 1,
            Outcome::Cancelled { .. } => self.cancelled += 1,
            Outcome::NotFound => self.not_found += 1,
            Outcome::Probed(_) | Outcome::MatchedProbed(_) => self.probes += 1,
            Outcome::Overflow => self.overflows += 1,
            Outcome::Flushed => self.flushes += 1,
        }
        self.deepest = self.deepest.max(queues.0.max(queues.1));
    }
}

/// A run that stopped at a difference: where, what each side said, and the waveform of
/// the run up to it.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub index: usize,
    pub op: Op,
    pub rtl: Applied,
    pub golden: Outcome,
    pub model: Applied,
    /// The operation was driven back to back with its neighbours.
    pub streamed: bool,
    pub waveform: Option<PathBuf>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (rtl, model) = (&self.rtl, &self.model);
        let driven = if self.streamed { "streamed" } else { "one at a time" };
        write!(f, "op {} ({}, {driven}): ", self.index, self.op)?;
        if rtl.outcome != self.golden {
            write!(f, "RTL answered {:?}, golden model {:?}", rtl.outcome, self.golden)?;
        } else {
            write!(
                f,
                "RTL {:?} accepted at cycle {} and answered at {}, cycle model {:?} at {} and {}",
                rtl.outcome, rtl.accepted, rtl.responded, model.outcome, model.accepted, model.responded
            )?;
        }
        match &self.waveform {
            Some(w) => write!(f, "; waveform: {}", w.display()),
            None => write!(f, "; no waveform (the traced re-run failed)"),
        }
    }
}

/// Why a co-simulation did not pass.
#[derive(Debug)]
pub enum CosimError {
    /// Building or driving the model failed.
    Tool(String),
    Mismatch(Box<Mismatch>),
    /// A command's answers differ (the thread array, whose commands are blocks); the
    /// text says where, what each side said and where the waveform is.
    Differs(String),
}

impl std::fmt::Display for CosimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CosimError::Tool(e) => f.write_str(e),
            CosimError::Mismatch(m) => m.fmt(f),
            CosimError::Differs(text) => f.write_str(text),
        }
    }
}

impl From<String> for CosimError {
    fn from(e: String) -> Self {
        CosimError::Tool(e)
    }
}

/// How `ops` is driven: runs of 1 to 64 operations, alternately one at a time and back to
/// back (the same for every run of the same length).
pub fn runs(ops: usize) -> Vec<(Range<usize>, bool)> {
    let mut rng = Rng::new(ops as u64);
    let (mut runs, mut at, mut streamed) = (Vec::new(), 0, false);
    while at < ops {
        let end = (at + 1 + rng.below(64) as usize).min(ops);
        runs.push((at..end, streamed));
        at = end;
        streamed = !streamed;
    }
    runs
}

/// Applies one run to an engine.
fn drive(engine: &mut impl CycleEngine, ops: &[Op], streamed: bool) -> Result<Vec<Applied>, String> {
    if streamed {
        engine.apply_stream(ops)
    } else {
        ops.iter().map(|op| engine.apply(op)).collect()
    }
}

/// Runs `ops` through RTL and golden model; `progress(done)` is called after every run of
/// operations.
pub fn cosim(
    engine: &EngineUnderTest,
    ops: &[Op],
    progress: &mut dyn FnMut(usize),
) -> Result<CosimReport, CosimError> {
    cosim_started(engine, ops, Start::Clean, progress)
}

/// [`cosim`] from power-up garbage and a reset (module docs).
pub fn cosim_from_power_up(
    engine: &EngineUnderTest,
    ops: &[Op],
    progress: &mut dyn FnMut(usize),
) -> Result<CosimReport, CosimError> {
    cosim_started(engine, ops, Start::PowerUpGarbageThenReset, progress)
}

/// How the RTL starts a co-simulation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Registers at their initial values, RAM zeroed (as Verilator starts it).
    Clean,
    PowerUpGarbageThenReset,
}

/// The RTL of `engine` started as `start` says, traced or not.
fn start_rtl(
    engine: &EngineUnderTest,
    start: Start,
    trace: bool,
) -> Result<(RtlEngine, BuildReport), String> {
    let (name, verilog) = match start {
        Start::Clean => (engine.name.clone(), engine.verilog.clone()),
        Start::PowerUpGarbageThenReset => {
            (format!("{}-power-up-garbage", engine.name), with_power_up_garbage(&engine.verilog)?)
        }
    };
    let (model, build) = Model::build(&engine_spec(&name, verilog, trace))?;
    let mut rtl = RtlEngine::new(model)?.with_fields(engine.config.fields);
    if start == Start::PowerUpGarbageThenReset {
        rtl.reset();
        rtl.model_mut().restart_cycle_count();
    }
    Ok((rtl, build))
}

fn cosim_started(
    engine: &EngineUnderTest,
    ops: &[Op],
    start: Start,
    progress: &mut dyn FnMut(usize),
) -> Result<CosimReport, CosimError> {
    let (mut rtl, build) = start_rtl(engine, start, false)?;
    let capacity = engine.config.queue_capacity();
    let mut golden = BoundedGolden::new(capacity, capacity);
    let mut cycle_model = TwoLevelModel::with_config(engine.config);
    let mut report = CosimReport::starting(&build, ops.len());
    let started = Instant::now();
    for (run, streamed) in runs(ops.len()) {
        let at = run.start;
        let got = drive(&mut rtl, &ops[run.clone()], streamed).map_err(|e| format!("ops from {at}: {e}"))?;
        let modelled = drive(&mut cycle_model, &ops[run.clone()], streamed)
            .map_err(|e| format!("ops from {at}: {e}"))?;
        for (k, ((got, modelled), op)) in got.iter().zip(&modelled).zip(&ops[run.clone()]).enumerate() {
            let index = at + k;
            // Narrow labels refuse inserts the queue has room for (the cycle model says
            // when); the golden model must agree that the operation would have queued.
            // Full-width labels never do in a test (that takes 2^30 list inserts), so there
            // every overflow must be the golden model's.
            let label_refusal = engine.config.label_bits < 32
                && modelled.outcome == Outcome::Overflow
                && golden.would_queue(op);
            // A CAM that wastes slots refuses early, but never below the queue's guarantee.
            let want = if label_refusal {
                Outcome::Overflow
            } else {
                let want = golden.expect(op, &modelled.outcome, engine.config.guaranteed_capacity());
                report.capacity_refusals += (want == Outcome::Overflow && golden.would_queue(op)) as usize;
                want
            };
            if got.outcome != want || got != modelled {
                let waveform = waveform_of(engine, ops, start, run.end).ok();
                return Err(CosimError::Mismatch(Box::new(Mismatch {
                    index,
                    op: *op,
                    rtl: *got,
                    golden: want,
                    model: *modelled,
                    streamed,
                    waveform,
                })));
            }
            report.count(&want, golden.queue_lengths());
            report.label_refusals += label_refusal as usize;
        }
        report.streamed += if streamed { run.len() } else { 0 };
        progress(run.end);
    }
    report.seconds = started.elapsed().as_secs_f64();
    report.cycles = rtl.model_mut().cycles();
    report.label_wraps = cycle_model.label_wraps();
    Ok(report)
}

/// Replays `ops` up to `end` on a traced build, driven as [`cosim`] drives them, and
/// returns the VCD's path.
fn waveform_of(engine: &EngineUnderTest, ops: &[Op], start: Start, end: usize) -> Result<PathBuf, String> {
    let (mut rtl, build) = start_rtl(engine, start, true)?;
    let vcd = build.dir.join(format!("cosim-failure-op{}.vcd", end - 1));
    rtl.model_mut().trace_to(&vcd)?;
    for (run, streamed) in runs(ops.len()).into_iter().take_while(|(r, _)| r.start < end) {
        // The failing response is what the waveform is for; errors end the replay early.
        if drive(&mut rtl, &ops[run], streamed).is_err() {
            break;
        }
    }
    rtl.model_mut().close_trace();
    Ok(vcd)
}
