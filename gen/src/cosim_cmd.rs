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
//! `--engine optimistic` runs the thread array instead (small tables by default, 32
//! descriptors and a 16-entry UMQ), command by command: blocks of up to `--threads`
//! arrivals. Its stream draws envelopes from two communicators, three sources and two
//! tags, so the small tables fill and drain, and ends with bursts of alike receives and
//! messages that conflict.

use crate::engine_gen::EngineConfig;
use crate::report::Record;
use crate::thread_array_gen::ThreadArrayConfig;
use serde_json::json;
use std::io::{IsTerminal, Write};
use tagmatch_sim::streams::{bursty_stream, random_stream, random_stream_from, Envelopes};
use tagmatch_testbench::cosim::{cosim, CosimError, CosimReport, EngineUnderTest};
use tagmatch_testbench::thread_array_cosim::{cosim_thread_array, ThreadArrayUnderTest};

/// Progress on a terminal, every 1,000 operations.
fn progress(ops: usize) -> impl FnMut(usize) {
    let live = std::io::stderr().is_terminal();
    move |done: usize| {
        if live {
            eprint!("\rcosim: {done}/{ops} operations");
            let _ = std::io::stderr().flush();
            if done == ops {
                eprintln!();
            }
        }
    }
}

fn explain(result: Result<CosimReport, CosimError>, seed: u64) -> Result<CosimReport, String> {
    result.map_err(|e| match e {
        CosimError::Tool(e) => e,
        difference => format!("the RTL differs from the models (seed {seed}) at {difference}"),
    })
}

pub fn run(cfg: &EngineConfig, ops: usize, seed: u64) -> Result<Record, String> {
    let engine =
        EngineUnderTest { name: cfg.build_name(), verilog: cfg.verilog()?, config: cfg.model_config()? };
    let stream = random_stream(seed, ops);
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", cfg.build_name());
    let r = explain(cosim(&engine, &stream, &mut progress(ops)), seed)?;
    let mut record = vec![
        ("engine", json!("two-level")),
        ("cam_depth", json!(cfg.cam_depth)),
        ("lists", json!(cfg.lists)),
        ("list_capacity", json!(cfg.list_capacity)),
    ];
    record.extend(counts(&r, seed));
    Ok(record)
}

pub fn run_thread_array(cfg: &ThreadArrayConfig, ops: usize, seed: u64) -> Result<Record, String> {
    let array =
        ThreadArrayUnderTest { name: cfg.build_name(), verilog: cfg.verilog()?, config: cfg.model_config() };
    let mut stream = random_stream_from(seed, ops, 40, Envelopes { comms: 2, sources: 3, tags: 2 });
    stream.extend(bursty_stream(seed));
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", cfg.build_name());
    let total = stream.len();
    let r = explain(cosim_thread_array(&array, &stream, &mut progress(total)), seed)?;
    let mut record = vec![
        ("engine", json!("optimistic")),
        ("threads", json!(cfg.threads)),
        ("descriptors", json!(cfg.descriptors)),
        ("unexpected_capacity", json!(cfg.unexpected)),
        ("fast_path", json!(cfg.fast_path)),
    ];
    record.extend(counts(&r, seed));
    record.extend([
        ("blocks", json!(r.blocks)),
        ("fast_path_lanes", json!(r.fast_path)),
        ("slow_path_lanes", json!(r.slow_path)),
    ]);
    Ok(record)
}

fn counts(r: &CosimReport, seed: u64) -> Record {
    vec![
        ("seed", json!(seed)),
        ("ops", json!(r.ops)),
        ("matched", json!(r.matched)),
        ("queued", json!(r.queued)),
        ("cancelled", json!(r.cancelled)),
        ("not_found", json!(r.not_found)),
        ("probes", json!(r.probes)),
        ("overflows", json!(r.overflows)),
        ("deepest", json!(r.deepest)),
        ("cycles", json!(r.cycles)),
        ("sim_kcycles_per_s", json!((r.cycles as f64 / r.seconds.max(1e-9) / 1e3).round())),
        ("build_s", json!((r.build_seconds * 10.0).round() / 10.0)),
    ]
}
