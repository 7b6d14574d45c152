//! `tagmatch bench preposted|unload --backend rtl`: the benchmarks on the generated engine,
//! one engine configuration per `--lists` value, every depth on the same engine (each run
//! leaves it empty). Records follow `docs/design.md`:
//! `{"bench","engine","design","cam_depth","lists","depth","cycles",...}`.

use crate::bench::software::Bench;
use crate::emit::engine::{build_name, verilog, EngineShape};
use crate::output::plot::{Chart, Scale, Series};
use crate::output::table::{field, Record};
use indicatif::ProgressBar;
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use tagmatch_sim::cycle::bench::{preposted, preposted_with_wait, unload, unload_with_wait};
use tagmatch_sim::cycle::two_level::check_depths;
use tagmatch_testbench::two_level::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::verilator::Model;

/// Runs `bench` at every depth on each configuration's RTL in Verilator. Build and
/// progress messages go to stderr.
pub fn run_rtl(
    bench: Bench,
    configs: &[EngineShape],
    depths: &[u32],
    wait: bool,
) -> Result<Vec<Record>, String> {
    for cfg in configs {
        check_depths(cfg, depths)?;
    }
    let mut out = Vec::new();
    let progress =
        crate::output::progress::bar(&format!("bench {}", bench.name()), configs.len() * depths.len());
    for cfg in configs {
        let (mut engine, build_seconds) = build_rtl(cfg, &progress)?;
        for &depth in depths {
            progress.set_message(format!("{} lists, depth {depth}", cfg.lists));
            let started = Instant::now();
            let point = match (bench, wait) {
                (Bench::Preposted, false) => preposted(&mut engine, depth)?,
                (Bench::Unload, false) => unload(&mut engine, depth)?,
                (Bench::Preposted, true) => preposted_with_wait(&mut engine, depth)?,
                (Bench::Unload, true) => unload_with_wait(&mut engine, depth)?,
            };
            let seconds = started.elapsed().as_secs_f64();
            let mut record = vec![
                ("bench", json!(bench.name())),
                ("engine", json!("rtl")),
                ("design", json!("two-level")),
                ("cam_depth", json!(cfg.cam_depth)),
                ("lists", json!(cfg.lists)),
                ("depth", json!(depth)),
                ("cycles", json!(point.cycles)),
            ];
            if let Some(w) = point.wait_cycles {
                record.push(("wait_cycles", json!(w)));
            }
            out.push(record);
            let record = out.last_mut().expect("just pushed");
            record.extend([
                ("simulated_cycles", json!(point.simulated)),
                ("sim_kcycles_per_s", json!((point.simulated as f64 / seconds / 1e3).round())),
                ("build_s", json!((build_seconds * 10.0).round() / 10.0)),
            ]);
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    Ok(out)
}

/// `cfg`'s RTL in Verilator, built or loaded from the cache, saying which above
/// `progress`; returns it with the build's seconds.
pub fn build_rtl(cfg: &EngineShape, progress: &ProgressBar) -> Result<(RtlEngine, f64), String> {
    let name = build_name(cfg);
    crate::output::progress::note(
        progress,
        &format!("tagmatch: building {name} in Verilator (minutes the first time, cached after)"),
    );
    progress.set_message(format!("building {name}"));
    let (model, build) = Model::build(&engine_spec(&name, verilog(cfg)?, false))?;
    crate::output::progress::note(
        progress,
        &format!(
            "tagmatch: {name} {} in {:.1} s",
            if build.cached { "loaded from the cache" } else { "built" },
            build.seconds
        ),
    );
    Ok((RtlEngine::new(model)?.with_fields(cfg.fields), build.seconds))
}

/// Cycles against depth, both on log scales, one line per design and list count (the form
/// of the FPL 2018 paper's Figures 4 and 5); cost models dashed.
pub fn plot(records: &[Record], path: &Path, title: &str) -> Result<(), String> {
    let text = |r: &Record, key: &str| field(r, key).as_str().unwrap_or_default().to_string();
    let mut series: Vec<Series> = Vec::new();
    for r in records {
        let lists = field(r, "lists").as_u64().unwrap_or(0);
        let plural = if lists == 1 { "list" } else { "lists" };
        let name = match text(r, "design").as_str() {
            "two-level" => format!("two-level, {lists} {plural} ({})", text(r, "engine")),
            "paper-two-level" => format!("FPL 2018 two-level, {lists} {plural} (cost model)"),
            "alpu-256" => "ALPU-like, 256 entries + software (cost model)".to_string(),
            "hash-64" => format!("hash by source, {lists} buckets (cost model)"),
            other => other.to_string(),
        };
        let x = field(r, "depth").as_f64().unwrap_or(0.0);
        let y = field(r, "cycles").as_f64().unwrap_or(0.0).max(1.0);
        Series::extend(&mut series, name, &[(x, y)], text(r, "kind") == "cost model");
    }
    Chart {
        title: title.into(),
        x_label: "queue depth".into(),
        y_label: "cycles".into(),
        x_scale: Scale::Log2,
        y_scale: Scale::Log2,
        series,
    }
    .write(path)
}
