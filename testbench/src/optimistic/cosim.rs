//! Co-simulation, command by command, of the optimistic thread array's RTL against the
//! golden model with the array's finite tables ([`BoundedGolden`]: same pairing) and
//! against its cycle-level model ([`OptimisticEngine`]: same outcomes, same acceptance and
//! answer cycles). Commands are cut from the stream as the hardware takes them: runs of
//! up to `lanes` arrivals, every other operation alone. The first difference stops the
//! run, which is repeated with tracing on so a waveform of the failure is kept.
//!
//! The array is reset before the first command, as after power-up, so a design whose
//! registers and RAMs start as garbage ([`crate::power_up`]) must pass as well.
//!
//! With resets, chosen commands are cut short by the reset port a chosen number of cycles
//! after they are accepted: the answer is dropped, both models start again from nothing,
//! and the cycle model is told the reset's cycle, so the next command's acceptance is
//! checked to the cycle as well.

use crate::optimistic::thread_array::{thread_array_spec, RtlThreadArray};
use crate::two_level::cosim::{CosimError, CosimReport};
use crate::verilator::Model;
use std::path::PathBuf;
use std::time::Instant;
use tagmatch_sim::model::bounded::BoundedGolden;
use tagmatch_sim::optimistic::engine::{commands, OptimisticEngine};
use tagmatch_sim::optimistic::{OptimisticConfig, Path};
use tagmatch_sim::Op;

/// The thread array under test: a cache name, its Verilog, and its configuration (lanes,
/// table sizes, bins, fast path), which sizes the golden model and configures the model.
pub struct ThreadArrayUnderTest {
    pub name: String,
    pub verilog: String,
    pub config: OptimisticConfig,
}

/// Runs `ops` through RTL, cycle-level model and golden model; `progress(done)` is called
/// every 1,000 operations or so.
pub fn cosim_thread_array(
    array: &ThreadArrayUnderTest,
    ops: &[Op],
    progress: &mut dyn FnMut(usize),
) -> Result<CosimReport, CosimError> {
    cosim_thread_array_with_resets(array, ops, &|_| None, progress)
}

/// When to reset: given the index of a command's first operation, `Some(d)` cuts that
/// command short `d` cycles after its acceptance.
pub type ResetPlan<'a> = &'a dyn Fn(usize) -> Option<u64>;

/// The same with the commands `reset_at` picks cut short by the reset port (module docs).
pub fn cosim_thread_array_with_resets(
    array: &ThreadArrayUnderTest,
    ops: &[Op],
    reset_at: ResetPlan,
    progress: &mut dyn FnMut(usize),
) -> Result<CosimReport, CosimError> {
    let lanes = array.config.threads;
    let (model, build) = Model::build(&thread_array_spec(&array.name, array.verilog.clone(), lanes, false))?;
    let mut rtl = RtlThreadArray::new(model, lanes)?.with_fields(array.config.fields);
    let mut golden = BoundedGolden::new(array.config.descriptors, array.config.unexpected);
    let mut cycle_model = OptimisticEngine::new(array.config)?;
    cycle_model.reset(rtl.reset());
    let mut report = CosimReport::starting(&build, ops.len());
    let started = Instant::now();
    let mut reported = 0;
    for range in commands(ops, lanes) {
        if range.start >= reported {
            progress(range.start);
            reported = range.start + 1000;
        }
        let command = &ops[range.clone()];
        if let Some(delay) = reset_at(range.start) {
            let at = |e: String| format!("ops {range:?}, cut short by a reset: {e}");
            let cycle = rtl.cut_short(command, delay).map_err(at)?;
            golden = BoundedGolden::new(array.config.descriptors, array.config.unexpected);
            cycle_model.reset(cycle);
            report.resets += 1;
            continue;
        }
        let mut want = Vec::with_capacity(command.len());
        for op in command {
            want.push(golden.apply(op));
            report.count(want.last().expect("just pushed"), golden.queue_lengths());
        }
        let at = |e: String| format!("ops {range:?}: {e}");
        let got = rtl.apply(command).map_err(at)?;
        let modelled = cycle_model.apply(command).map_err(at)?;
        let cycles = |a: &tagmatch_sim::optimistic::engine::Answer| (a.accepted, a.responded);
        if got.outcomes != want || modelled.outcomes != want || cycles(&got) != cycles(&modelled) {
            let waveform = match waveform_of(array, &ops[..range.end], reset_at) {
                Ok(path) => format!("waveform: {}", path.display()),
                Err(e) => format!("no waveform ({e})"),
            };
            return Err(CosimError::Differs(format!(
                "ops {range:?} ({command:?}): golden model {want:?}; RTL {:?} accepted at cycle {} and \
                 answered at {}; cycle model {:?} at {} and {}; {waveform}",
                got.outcomes,
                got.accepted,
                got.responded,
                modelled.outcomes,
                modelled.accepted,
                modelled.responded
            )));
        }
        if let Some(block) = &modelled.block {
            report.blocks += 1;
            report.fast_path += block.threads.iter().filter(|t| t.path == Path::Fast).count();
            report.slow_path += block.threads.iter().filter(|t| t.path == Path::Slow).count();
        }
    }
    progress(ops.len());
    report.seconds = started.elapsed().as_secs_f64();
    report.cycles = rtl.model_mut().cycles();
    Ok(report)
}

/// Replays `ops` (with the same resets) on a traced build and returns the VCD's path.
fn waveform_of(array: &ThreadArrayUnderTest, ops: &[Op], reset_at: ResetPlan) -> Result<PathBuf, String> {
    let lanes = array.config.threads;
    let (traced, build) = Model::build(&thread_array_spec(&array.name, array.verilog.clone(), lanes, true))?;
    let mut rtl = RtlThreadArray::new(traced, lanes)?.with_fields(array.config.fields);
    let vcd = build.dir.join(format!("cosim-failure-op{}.vcd", ops.len() - 1));
    rtl.model_mut().trace_to(&vcd)?;
    rtl.reset();
    for range in commands(ops, lanes) {
        if let Some(delay) = reset_at(range.start) {
            if rtl.cut_short(&ops[range], delay).is_err() {
                break;
            }
            continue;
        }
        // The failing answer is what the waveform is for; errors end the replay early.
        if rtl.apply(&ops[range]).is_err() {
            break;
        }
    }
    rtl.model_mut().close_trace();
    Ok(vcd)
}
