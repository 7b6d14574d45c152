//! `tagmatch bench throughput --backend model|rtl`: how fast the two-level engine takes
//! operations when the host streams them (`tagmatch_sim::cycle::bench::throughput`: each
//! command presented the cycle after the previous one was accepted, every response taken
//! at once), per kind of traffic: CAM hits, unexpected messages into the CAM, and CAM hits
//! that start the data mover. `cycles` is the steady state's cycles per operation, so the
//! `ns` beside it (from the recorded Fmax) is the time per operation.

use crate::emit::engine::EngineShape;
use crate::output::table::Record;
use serde_json::json;
use std::time::Instant;
use tagmatch_sim::cycle::bench::{throughput, Throughput, Traffic};
use tagmatch_sim::cycle::two_level::TwoLevelModel;
use tagmatch_sim::cycle::CycleEngine;

/// Operations per run: as many as the CAM holds.
fn ops_for(cfg: &EngineShape, traffic: Traffic) -> Result<u32, String> {
    let ops = cfg.cam_depth;
    if traffic == Traffic::MoverHits && cfg.cam_depth + ops > cfg.queue_capacity() {
        return Err(format!(
            "mover hits need {} receives; the {}-list engine's queue holds {}",
            cfg.cam_depth + ops,
            cfg.lists,
            cfg.queue_capacity()
        ));
    }
    Ok(ops as u32)
}

fn record(engine: &str, cfg: &EngineShape, traffic: Traffic, t: &Throughput) -> Record {
    vec![
        ("bench", json!("throughput")),
        ("engine", json!(engine)),
        ("design", json!("two-level")),
        ("cam_depth", json!(cfg.cam_depth)),
        ("lists", json!(cfg.lists)),
        ("traffic", json!(traffic.name())),
        ("ops", json!(t.ops)),
        ("cycles", json!((t.cycles_per_op * 100.0).round() / 100.0)),
        ("max_latency", json!(t.max_latency)),
    ]
}

/// Runs every traffic on each configuration, on the cycle model or (`rtl`) on its RTL in
/// Verilator.
pub fn run(configs: &[EngineShape], traffic: &[Traffic], rtl: bool) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    let progress = crate::output::progress::bar("bench throughput", configs.len() * traffic.len());
    for cfg in configs {
        let mut engine: Box<dyn CycleEngine> = if rtl {
            Box::new(crate::bench::hardware::build_rtl(cfg, &progress)?.0)
        } else {
            Box::new(TwoLevelModel::with_config(*cfg))
        };
        for &t in traffic {
            progress.set_message(format!("{} lists, {}", cfg.lists, t.name()));
            let started = Instant::now();
            let point = throughput(engine.as_mut(), t, cfg.cam_depth as u32, ops_for(cfg, t)?)?;
            let seconds = started.elapsed().as_secs_f64();
            let mut r = record(if rtl { "rtl" } else { "model" }, cfg, t, &point);
            r.push(("simulated_cycles", json!(point.simulated)));
            if rtl {
                r.push(("sim_kcycles_per_s", json!((point.simulated as f64 / seconds / 1e3).round())));
            }
            out.push(r);
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    Ok(out)
}

/// Operations per microsecond from each record's `ns` (null where no clock was measured).
pub fn add_rates(records: &mut [Record]) {
    for r in records.iter_mut() {
        let ns = crate::output::table::field(r, "ns").as_f64();
        let rate = ns.filter(|&ns| ns > 0.0).map(|ns| json!((1000.0 / ns * 100.0).round() / 100.0));
        let at = r.iter().position(|(k, _)| *k == "device").map_or(r.len(), |i| i + 1);
        r.insert(at, ("ops_per_us", rate.unwrap_or(serde_json::Value::Null)));
    }
}
