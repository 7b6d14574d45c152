//! `tagmatch cosim`: a random operation stream through the engine's RTL (Verilator), the
//! golden model with the same finite queues and the cycle-accurate model; every response
//! must agree with the golden model's and every acceptance and response cycle with the
//! cycle model's. The first difference stops the run with the operation, the answers and
//! a waveform.
//!
//! By default the small configuration (8-entry CAM, 256 list entries) runs, so a stream of
//! a few thousand operations spills past the CAM and overflows the queues; the paper's
//! sizes are one `--cam-depth 256 --list-capacity 32768` away (a longer Verilator build,
//! and overflow needs a longer stream).

//!
//! `--ops FILE` runs your own operations (JSON lines of `Op`) instead of a random stream.
//! `--host fallback|split` puts the host driver (`tagmatch_sim::host`) in front of the
//! engine and checks unbounded MPI matching against the golden model with no queue
//! limit; the table adds where matches were found and what the host did.
//!
//! `--engine optimistic` runs the thread array instead (small tables by default, 32
//! descriptors and a 16-entry UMQ), command by command: blocks of up to `--threads`
//! arrivals. Its stream draws envelopes from two communicators, three sources and two
//! tags, so the small tables fill and drain, and ends with bursts of alike receives and
//! messages that conflict.

use crate::cli::cosim::{CosimArgs, OpsSource, COSIM_ENGINE};
use crate::cli::design::{Design, EngineArgs, FieldArgs, NOT_FOR_ONESIDED, NOT_FOR_THREAD_ARRAY};
use crate::emit;
use crate::emit::engine::EngineShape;
use crate::emit::thread_array::ThreadArrayConfig;
use crate::output::table::{self, render, Record};
use serde_json::json;
use tagmatch_sim::onesided::harness::{random_script, ResponsePolicy};
use tagmatch_sim::onesided::network::NetworkConfig;
use tagmatch_sim::onesided::UnitConfig;
use tagmatch_sim::workload::streams::{
    bursty_stream, random_stream, random_stream_from, with_flushes, Envelopes,
};
use tagmatch_sim::Op;
use tagmatch_testbench::onesided::{cosim_onesided, UnitUnderTest};
use tagmatch_testbench::optimistic::cosim::{cosim_thread_array, ThreadArrayUnderTest};
use tagmatch_testbench::two_level::cosim::{cosim, CosimError, CosimReport, EngineUnderTest};
use tagmatch_testbench::two_level::host::{cosim_host, HostMode};

/// `tagmatch cosim`: the design `--engine` names, with the options it takes, through its
/// co-simulation; one table row, and the agreement on stderr.
pub fn run(args: CosimArgs) -> Result<(), String> {
    let CosimArgs {
        engine,
        array,
        onesided,
        lists,
        ops,
        seed,
        flush_every,
        cam_depth,
        list_capacity,
        label_bits,
        fields,
        host,
        delay,
        no_sync,
        format,
    } = args;
    if engine != Design::Onesided {
        onesided.unused()?;
    }
    if flush_every.is_some() && (engine == Design::Onesided || host.is_some()) {
        return Err("--flush-every drives the two-level engine (without --host) or the thread array".into());
    }
    let (record, agreement) = match (engine, host) {
        (Design::TwoLevel, None) => {
            array.unused()?;
            let cfg = EngineArgs { cam_depth, lists, list_capacity, label_bits, fields }.config()?;
            (run_two_level(&cfg, &ops, seed, flush_every)?, ENGINE_AGREES)
        }
        (Design::TwoLevel, Some(choice)) => {
            array.unused()?;
            let cfg = EngineArgs { cam_depth, lists, list_capacity, label_bits, fields }.config()?;
            let mode = choice.mode(delay, !no_sync);
            (run_host(&cfg, &ops, seed, mode)?, DRIVER_AGREES)
        }
        (Design::Optimistic, None) => {
            if (cam_depth, lists, list_capacity, label_bits) != COSIM_ENGINE {
                return Err(NOT_FOR_THREAD_ARRAY.into());
            }
            let cfg = array.config(emit::thread_array::SMALL_TABLES)?.with_fields(fields.widths()?)?;
            let n = ops.count().ok_or("--engine optimistic runs random streams: --ops takes a count")?;
            (run_thread_array(&cfg, n, seed, flush_every)?, ENGINE_AGREES)
        }
        (Design::Optimistic | Design::Onesided, Some(_)) => {
            return Err("--host drives the two-level engine".into())
        }
        (Design::Cam, _) => {
            return Err("the CAM alone is for `gen --timing`; cosim runs the engine around it \
                        (--engine two-level)"
                .into())
        }
        (Design::Onesided, None) => {
            array.unused()?;
            if (cam_depth, lists, list_capacity, label_bits) != COSIM_ENGINE || fields != FieldArgs::DEFAULT {
                return Err(NOT_FOR_ONESIDED.into());
            }
            let cfg = onesided.config()?;
            let n = ops.count().ok_or("--engine onesided runs random scripts: --ops takes a count")?;
            (run_onesided(&cfg, n, seed)?, ONESIDED_AGREES)
        }
    };
    let n = table::field(&record, "ops").as_u64().unwrap_or(0);
    print!("{}", render(&[record], format));
    eprintln!("tagmatch: all {n} operations agree: {agreement}");
    Ok(())
}

/// A progress bar over the `ops` operations (the callback says how many are done), saying
/// the build of `name` until the first call.
fn progress(ops: usize, name: &str) -> impl FnMut(usize) {
    let bar = crate::output::progress::bar("cosim", ops);
    bar.set_message(format!("building {name} in Verilator"));
    move |done: usize| {
        bar.set_message("operations");
        bar.set_position(done as u64);
        if done == ops {
            bar.finish_and_clear();
        }
    }
}

fn explain(result: Result<CosimReport, CosimError>, seed: u64) -> Result<CosimReport, String> {
    result.map_err(|e| match e {
        CosimError::Tool(e) => e,
        difference => format!("the RTL differs from the models (seed {seed}) at {difference}"),
    })
}

pub const ENGINE_AGREES: &str = "RTL and golden model pair alike, RTL and cycle model to the cycle";
pub const DRIVER_AGREES: &str =
    "the host driver over the RTL pairs as the unbounded golden model, and as over the cycle model";

/// Every operation's values fit the engine's field widths, or a one-line error before
/// anything is built (the drivers would stop at the first that does not).
fn fits(cfg: &EngineShape, ops: &[Op], source: &OpsSource) -> Result<(), String> {
    for (i, op) in ops.iter().enumerate() {
        if let Err(e) = tagmatch_sim::cycle::check_fields(&cfg.fields, op) {
            let hint = if source.count().is_some() {
                "random streams use communicators 0-2, sources 0-5, tags 0-4 and message handles from \
                 1,000,000: at least --comm-bits 2, --source-bits 3, --tag-bits 3, --handle-bits 20; \
                 narrower fields take an --ops FILE whose values fit"
            } else {
                "the widths are --comm-bits, --source-bits, --tag-bits and --handle-bits"
            };
            return Err(format!("operation {i}: {e} ({hint})"));
        }
    }
    Ok(())
}

/// The engine of `cfg` as the co-simulations take it: its build's name, Verilog and shape.
pub fn under_test(cfg: &EngineShape) -> Result<EngineUnderTest, String> {
    Ok(EngineUnderTest {
        name: emit::engine::build_name(cfg),
        verilog: emit::engine::verilog(cfg)?,
        config: *cfg,
    })
}

pub fn run_two_level(
    cfg: &EngineShape,
    source: &OpsSource,
    seed: u64,
    flush_every: Option<u64>,
) -> Result<Record, String> {
    let engine = under_test(cfg)?;
    let mut stream = source.load(|n| random_stream(seed, n))?;
    if let Some(n) = flush_every {
        stream = with_flushes(&stream, seed, n);
    }
    fits(cfg, &stream, source)?;
    let ops = stream.len();
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", engine.name);
    let r = explain(cosim(&engine, &stream, &mut progress(ops, &engine.name)), seed)?;
    let mut record = vec![
        ("engine", json!("two-level")),
        ("cam_depth", json!(cfg.cam_depth)),
        ("lists", json!(cfg.lists)),
        ("list_capacity", json!(cfg.list_capacity())),
    ];
    record.extend(counts(&r, source.count().map(|_| seed)));
    // Operations driven back to back (the rest went one at a time).
    let at = record.iter().position(|(k, _)| *k == "cycles").unwrap_or(record.len());
    record.insert(at, ("streamed", json!(r.streamed)));
    Ok(record)
}

/// The host driver over the RTL. Random streams come in phases forty times the engine's
/// queue over few envelopes, so the queues grow far past the engine and drain again.
pub fn run_host(cfg: &EngineShape, source: &OpsSource, seed: u64, mode: HostMode) -> Result<Record, String> {
    let engine = under_test(cfg)?;
    let phase = 40 * cfg.queue_capacity();
    let stream =
        source.load(|n| random_stream_from(seed, n, phase, Envelopes { comms: 2, sources: 4, tags: 3 }))?;
    fits(cfg, &stream, source)?;
    if let (HostMode::Split { .. }, Some(i)) = (mode, stream.iter().position(|o| matches!(o, Op::Flush))) {
        // Not a difference between models: split mode has no flush (the messages in flight
        // between NIC and host would have to drain first).
        return Err(format!("--host split does not take a flush (operation {i}); use --host fallback"));
    }
    let ops = stream.len();
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", engine.name);
    let r = cosim_host(&engine, &stream, mode, &mut progress(ops, &engine.name)).map_err(|e| match mode {
        HostMode::Split { sync: false, .. } => {
            format!("the phase counter is off and the race it closes shows (seed {seed}): {e}")
        }
        _ => format!("the host driver differs (seed {seed}): {e}"),
    })?;
    let h = &r.host;
    let (name, delay, sync) = match mode {
        HostMode::Fallback => ("fallback", None, None),
        HostMode::Split { delay, sync } => ("split", Some(delay), Some(sync)),
    };
    Ok(vec![
        ("engine", json!("two-level")),
        ("cam_depth", json!(cfg.cam_depth)),
        ("lists", json!(cfg.lists)),
        ("list_capacity", json!(cfg.list_capacity())),
        ("queue_capacity", json!(cfg.queue_capacity())),
        ("host", json!(name)),
        ("delay", json!(delay)),
        ("sync", json!(sync)),
        ("seed", json!(source.count().map(|_| seed))),
        ("ops", json!(h.ops)),
        ("hw_share", json!((h.hardware_share() * 1e4).round() / 1e4)),
        ("matched_in_hw", json!(h.matched_in_hardware)),
        ("matched_in_host", json!(h.matched_in_host)),
        ("fallbacks", json!(h.fallbacks)),
        ("undone", json!(h.undone)),
        ("readmitted", json!(h.readmitted)),
        ("forwarded", json!(h.forwarded)),
        ("refused", json!(h.refused)),
        ("taken_back", json!(h.taken_back)),
        ("host_inspected_per_op", json!((h.host_inspected_per_op() * 1e3).round() / 1e3)),
        ("max_host_prq", json!(h.max_host_prq)),
        ("max_host_umq", json!(h.max_host_umq)),
        ("commands", json!(h.commands)),
        ("cycles", json!(h.cycles)),
        ("build_s", json!((r.build_seconds * 10.0).round() / 10.0)),
    ])
}

pub const ONESIDED_AGREES: &str =
    "the one-sided unit's RTL and its model handshake alike in every cycle and keep the ordering rules";

/// The one-sided unit's RTL against its model on a random script of `steps` steps, over a
/// network of 200 cycles' latency and 32 bytes per cycle, with a host that is busy one
/// cycle in three.
pub fn run_onesided(cfg: &UnitConfig, steps: usize, seed: u64) -> Result<Record, String> {
    let unit = UnitUnderTest {
        name: crate::emit::onesided::build_name(cfg),
        verilog: crate::emit::onesided::verilog(cfg)?,
        config: *cfg,
    };
    let script = random_script(seed, steps, cfg.windows);
    let net = NetworkConfig { latency: 200, bytes_per_cycle: 32, queue: 16 };
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", unit.name);
    let spinner = crate::output::progress::spinner("cosim");
    spinner.set_message(format!("{} (build, then {steps} steps)", unit.name));
    let r = cosim_onesided(&unit, &script, net, ResponsePolicy::Sometimes { n: 3, seed })
        .map_err(|e| format!("seed {seed}: {e}"))?;
    spinner.finish_and_clear();
    let s = r.summary;
    Ok(vec![
        ("engine", json!("onesided")),
        ("windows", json!(cfg.windows)),
        ("counter_bits", json!(cfg.counter_bits)),
        ("seed", json!(seed)),
        ("ops", json!(s.commands)),
        ("requests", json!(s.requests)),
        ("fins", json!(s.fins)),
        ("fin_alls", json!(s.fin_alls)),
        ("errors", json!(s.errors)),
        ("max_outstanding", json!(s.max_outstanding)),
        ("cycles", json!(r.cycles)),
        ("sim_kcycles_per_s", json!((r.cycles as f64 / r.seconds.max(1e-9) / 1e3).round())),
        ("build_s", json!((r.build_seconds * 10.0).round() / 10.0)),
    ])
}

pub fn run_thread_array(
    cfg: &ThreadArrayConfig,
    ops: usize,
    seed: u64,
    flush_every: Option<u64>,
) -> Result<Record, String> {
    let array =
        ThreadArrayUnderTest { name: cfg.build_name(), verilog: cfg.verilog()?, config: cfg.model_config() };
    let mut stream = random_stream_from(seed, ops, 40, Envelopes { comms: 2, sources: 3, tags: 2 });
    stream.extend(bursty_stream(seed));
    if let Some(n) = flush_every {
        stream = with_flushes(&stream, seed, n);
    }
    if let Some(e) = stream.iter().find_map(|op| tagmatch_sim::cycle::check_fields(&cfg.fields, op).err()) {
        let n = needed_widths(&stream);
        return Err(format!(
            "{e}: this random stream needs at least --comm-bits {} --source-bits {} --tag-bits {} --handle-bits {}",
            n.comm, n.src, n.tag, n.handle
        ));
    }
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", cfg.build_name());
    let total = stream.len();
    let r = explain(cosim_thread_array(&array, &stream, &mut progress(total, &array.name)), seed)?;
    let mut record = vec![
        ("engine", json!("optimistic")),
        ("threads", json!(cfg.threads)),
        ("descriptors", json!(cfg.descriptors)),
        ("unexpected_capacity", json!(cfg.unexpected)),
        ("fast_path", json!(cfg.fast_path)),
        ("comm_bits", json!(cfg.fields.comm)),
        ("source_bits", json!(cfg.fields.src)),
        ("tag_bits", json!(cfg.fields.tag)),
        ("handle_bits", json!(cfg.fields.handle)),
    ];
    record.extend(counts(&r, Some(seed)));
    record.extend([
        ("blocks", json!(r.blocks)),
        ("fast_path_lanes", json!(r.fast_path)),
        ("slow_path_lanes", json!(r.slow_path)),
    ]);
    Ok(record)
}

/// The narrowest field widths that hold every value of `ops` (wildcards hold none).
fn needed_widths(ops: &[Op]) -> tagmatch_sim::cycle::FieldWidths {
    let bits = |v: u64| (64 - v.leading_zeros() as usize).max(1);
    let mut n = tagmatch_sim::cycle::FieldWidths { comm: 1, src: 1, tag: 1, handle: 1 };
    let mut widen = |comm: u32, src: Option<u32>, tag: Option<u32>, handle: Option<u64>| {
        n.comm = n.comm.max(bits(comm as u64));
        n.src = n.src.max(src.map_or(1, |v| bits(v as u64)));
        n.tag = n.tag.max(tag.map_or(1, |v| bits(v as u64)));
        n.handle = n.handle.max(handle.map_or(1, bits));
    };
    for op in ops {
        match *op {
            Op::PostRecv { recv, spec } => widen(spec.comm, spec.src, spec.tag, Some(recv.0)),
            Op::Arrive { msg, env } => widen(env.comm, Some(env.src), Some(env.tag), Some(msg.0)),
            Op::Cancel { recv } => widen(0, None, None, Some(recv.0)),
            Op::Probe { spec } | Op::MatchedProbe { spec } => widen(spec.comm, spec.src, spec.tag, None),
            Op::Flush => {}
        }
    }
    n
}

/// What a run saw; `seed` is `None` for a user's file.
fn counts(r: &CosimReport, seed: Option<u64>) -> Record {
    vec![
        ("seed", json!(seed)),
        ("ops", json!(r.ops)),
        ("matched", json!(r.matched)),
        ("queued", json!(r.queued)),
        ("cancelled", json!(r.cancelled)),
        ("not_found", json!(r.not_found)),
        ("probes", json!(r.probes)),
        ("overflows", json!(r.overflows)),
        ("label_refusals", json!(r.label_refusals)),
        ("label_wraps", json!(r.label_wraps)),
        ("flushes", json!(r.flushes)),
        ("deepest", json!(r.deepest)),
        ("cycles", json!(r.cycles)),
        ("sim_kcycles_per_s", json!((r.cycles as f64 / r.seconds.max(1e-9) / 1e3).round())),
        ("build_s", json!((r.build_seconds * 10.0).round() / 10.0)),
    ]
}
