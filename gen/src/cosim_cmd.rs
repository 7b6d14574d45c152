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

use crate::engine_gen::EngineConfig;
use crate::report::Record;
use serde_json::json;
use std::io::{IsTerminal, Write};
use tagmatch_sim::streams::random_stream;
use tagmatch_testbench::cosim::{cosim, CosimError, EngineUnderTest};

pub fn run(cfg: &EngineConfig, ops: usize, seed: u64) -> Result<Record, String> {
    let engine =
        EngineUnderTest { name: cfg.build_name(), verilog: cfg.verilog()?, config: cfg.model_config()? };
    let stream = random_stream(seed, ops);
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", cfg.build_name());
    let live = std::io::stderr().is_terminal();
    let mut progress = |done: usize| {
        if live {
            eprint!("\rcosim: {done}/{ops} operations");
            let _ = std::io::stderr().flush();
        }
    };
    let result = cosim(&engine, &stream, &mut progress);
    if live {
        eprintln!();
    }
    let r = match result {
        Ok(r) => r,
        Err(CosimError::Mismatch(m)) => {
            return Err(format!("the RTL differs from the models (seed {seed}) at {m}"));
        }
        Err(CosimError::Tool(e)) => return Err(e),
    };
    Ok(vec![
        ("cam_depth", json!(cfg.cam_depth)),
        ("lists", json!(cfg.lists)),
        ("list_capacity", json!(cfg.list_capacity)),
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
    ])
}
