//! `tagmatch bench preposted|unload --host fallback`: the benchmarks through the host
//! driver, so depths past the engine's queue capacity run (the receives the engine cannot
//! hold wait in software, in order). Each point reports the engine's cycles and what the
//! host did: the share of matches found in hardware, fallbacks, re-admissions, undos and
//! host entries inspected.

use crate::bench::software::Bench;
use crate::output::table::Record;
use serde_json::json;
use tagmatch_sim::cycle::bench::{preposted, unload};
use tagmatch_sim::cycle::two_level::{EngineShape, TwoLevelModel};
use tagmatch_sim::cycle::CycleEngine;
use tagmatch_sim::host::fallback::FallbackDriver;
use tagmatch_testbench::two_level::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::verilator::Model;

/// The engines a host benchmark can drive.
pub enum Target<'a> {
    Model(&'a [EngineShape]),
    Rtl(&'a [EngineShape]),
}

/// Runs `bench` at every depth, each on a fresh driver over the engine.
pub fn run(bench: Bench, target: Target, depths: &[u32]) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    let configs = match &target {
        Target::Model(configs) => configs.len(),
        Target::Rtl(configs) => configs.len(),
    };
    let progress = crate::output::progress::bar(
        &format!("bench {} through the host driver", bench.name()),
        configs * depths.len(),
    );
    match target {
        Target::Model(configs) => {
            for cfg in configs {
                for &depth in depths {
                    progress.set_message(format!("{} lists, depth {depth}", cfg.lists));
                    let driver = FallbackDriver::new(TwoLevelModel::with_config(*cfg));
                    out.push(point(bench, driver, depth, "model", cfg)?.0);
                    progress.inc(1);
                }
            }
        }
        Target::Rtl(configs) => {
            for cfg in configs {
                let name = crate::emit::engine::build_name(cfg);
                crate::output::progress::note(
                    &progress,
                    &format!("tagmatch: building {name} in Verilator (cached after the first time)"),
                );
                progress.set_message(format!("building {name}"));
                let (model, _) =
                    Model::build(&engine_spec(&name, crate::emit::engine::verilog(cfg)?, false))?;
                let mut engine = Some(RtlEngine::new(model)?.with_fields(cfg.fields));
                for &depth in depths {
                    progress.set_message(format!("{} lists, depth {depth}", cfg.lists));
                    let mut e = engine.take().expect("returned after every point");
                    e.reset();
                    let (record, back) = point(bench, FallbackDriver::new(e), depth, "rtl", cfg)?;
                    out.push(record);
                    engine = Some(back);
                    progress.inc(1);
                }
            }
        }
    }
    progress.finish_and_clear();
    Ok(out)
}

fn point<E: CycleEngine>(
    bench: Bench,
    mut driver: FallbackDriver<E>,
    depth: u32,
    engine: &str,
    cfg: &EngineShape,
) -> Result<(Record, E), String> {
    let p = match bench {
        Bench::Preposted => preposted(&mut driver, depth)?,
        Bench::Unload => unload(&mut driver, depth)?,
    };
    let h = driver.report();
    let record = vec![
        ("bench", json!(bench.name())),
        ("engine", json!(engine)),
        ("design", json!("two-level")),
        ("host", json!("fallback")),
        ("cam_depth", json!(cfg.cam_depth)),
        ("lists", json!(cfg.lists)),
        ("queue_capacity", json!(cfg.queue_capacity())),
        ("depth", json!(depth)),
        ("cycles", json!(p.cycles)),
        ("hw_share", json!((h.hardware_share() * 1e4).round() / 1e4)),
        ("fallbacks", json!(h.fallbacks)),
        ("readmitted", json!(h.readmitted)),
        ("undone", json!(h.undone)),
        ("host_inspected", json!(h.host.inspected)),
        ("commands", json!(h.commands)),
        ("simulated_cycles", json!(p.simulated)),
    ];
    Ok((record, driver.into_engine()))
}
