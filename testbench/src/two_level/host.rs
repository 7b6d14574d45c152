//! Co-simulation of the host driver (`tagmatch_sim::host`) over the engine's RTL, against
//! the unbounded golden model and against the same driver over the cycle-accurate model.
//!
//! - Fallback mode: operation by operation, the RTL-backed driver's outcome must equal
//!   the golden model's (no queue limit) and the model-backed driver's; at the end both
//!   drivers must have sent the same commands and counted the same cycles.
//! - Split mode: the run over the RTL must settle every operation in the same order with
//!   the same outcome as the run over the model, and the golden model replayed in that
//!   order must agree (`SplitRun::check`).
//!
//! A difference in fallback mode re-runs the stream on a traced build up to the failing
//! operation and names the waveform.

use crate::two_level::cosim::EngineUnderTest;
use crate::two_level::engine::{engine_spec, RtlEngine};
use crate::verilator::Model;
use std::path::PathBuf;
use std::time::Instant;
use tagmatch_sim::cycle::two_level::TwoLevelModel;
use tagmatch_sim::host::fallback::FallbackDriver;
use tagmatch_sim::host::split::{run_split, SplitOptions};
use tagmatch_sim::host::HostReport;
use tagmatch_sim::{Golden, Matcher, Op};

/// Which host protocol runs over the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostMode {
    Fallback,
    /// Split mode with a link delay in ticks and the phase counter on or off.
    Split {
        delay: u64,
        sync: bool,
    },
}

/// A run that agreed all the way.
#[derive(Clone, Debug)]
pub struct HostCosimReport {
    pub host: HostReport,
    pub seconds: f64,
    pub build_seconds: f64,
    pub build_cached: bool,
}

/// Runs `ops` through the driver over the RTL, the driver over the cycle model and the
/// golden model; `progress(done)` is called every 1,000 operations (fallback mode).
pub fn cosim_host(
    engine: &EngineUnderTest,
    ops: &[Op],
    mode: HostMode,
    progress: &mut dyn FnMut(usize),
) -> Result<HostCosimReport, String> {
    let (model, build) = Model::build(&engine_spec(&engine.name, engine.verilog.clone(), false))?;
    let rtl = RtlEngine::new(model)?.with_fields(engine.config.fields);
    let cycle_model = TwoLevelModel::with_config(engine.config);
    let started = Instant::now();
    let host = match mode {
        HostMode::Fallback => fallback(engine, rtl, cycle_model, ops, progress)?,
        HostMode::Split { delay, sync } => {
            let opt = SplitOptions { delay, sync, capacity: engine.config.queue_capacity() };
            let (mut rtl, mut cycle_model) = (rtl, cycle_model);
            let on_rtl = run_split(&mut rtl, ops, opt)?;
            progress(ops.len());
            let on_model = run_split(&mut cycle_model, ops, opt)?;
            if let Some(i) = (0..ops.len()).find(|&i| on_rtl.outcomes[i] != on_model.outcomes[i]) {
                return Err(format!(
                    "split mode: op {i} ({:?}) settled as {:?} over the RTL, {:?} over the cycle model",
                    ops[i], on_rtl.outcomes[i], on_model.outcomes[i]
                ));
            }
            if on_rtl.order != on_model.order || on_rtl.report != on_model.report {
                return Err(format!(
                    "split mode: the runs over the RTL and the cycle model differ: {:?} against {:?}",
                    on_rtl.report, on_model.report
                ));
            }
            on_rtl.check(ops).map_err(|e| format!("split mode against the golden model: {e}"))?;
            on_rtl.report
        }
    };
    Ok(HostCosimReport {
        host,
        seconds: started.elapsed().as_secs_f64(),
        build_seconds: build.seconds,
        build_cached: build.cached,
    })
}

fn fallback(
    engine: &EngineUnderTest,
    rtl: RtlEngine,
    cycle_model: TwoLevelModel,
    ops: &[Op],
    progress: &mut dyn FnMut(usize),
) -> Result<HostReport, String> {
    let mut on_rtl = FallbackDriver::new(rtl);
    let mut on_model = FallbackDriver::new(cycle_model);
    let mut golden = Golden::new();
    for (i, op) in ops.iter().enumerate() {
        if i % 1000 == 0 {
            progress(i);
        }
        let want = golden.apply(op);
        let got = on_rtl.apply(op).map_err(|e| format!("op {i} ({op:?}) over the RTL: {e}"))?;
        let modelled =
            on_model.apply(op).map_err(|e| format!("op {i} ({op:?}) over the cycle model: {e}"))?;
        let (rtl_report, model_report) = (on_rtl.report(), on_model.report());
        if got != want || modelled != want || rtl_report.cycles != model_report.cycles {
            let waveform = match waveform_of(engine, &ops[..=i]) {
                Ok(w) => format!("waveform: {}", w.display()),
                Err(e) => format!("no waveform ({e})"),
            };
            return Err(format!(
                "fallback mode, op {i} ({op:?}): over the RTL {got:?} at cycle {}, over the cycle model \
                 {modelled:?} at cycle {}, golden model {want:?}; {waveform}",
                rtl_report.cycles, model_report.cycles
            ));
        }
    }
    progress(ops.len());
    let (r, m) = (on_rtl.report(), on_model.report());
    if r != m {
        return Err(format!("fallback mode: the drivers' reports differ: RTL {r:?}, cycle model {m:?}"));
    }
    Ok(r)
}

/// Replays `ops` through the driver on a traced build; returns the VCD's path.
fn waveform_of(engine: &EngineUnderTest, ops: &[Op]) -> Result<PathBuf, String> {
    let (traced, build) = Model::build(&engine_spec(&engine.name, engine.verilog.clone(), true))?;
    let vcd = build.dir.join(format!("host-cosim-failure-op{}.vcd", ops.len() - 1));
    let mut driver = FallbackDriver::new(RtlEngine::new(traced)?.with_fields(engine.config.fields));
    driver.engine_mut().model_mut().trace_to(&vcd)?;
    for op in ops {
        // The failing operation is what the waveform is for; errors end the replay early.
        if driver.apply(op).is_err() {
            break;
        }
    }
    driver.engine_mut().model_mut().close_trace();
    Ok(vcd)
}
