//! `tagmatch bench onesided`: the one-sided offload paper's overlap measurement
//! (`tagmatch_sim::onesided::bench`) for every combination of request count, size and
//! compute time, on the unit's model or its RTL, offloaded beside the host-progressed
//! baseline. Records: `{"bench":"onesided","engine","windows","counter_bits","requests",
//! "bytes","compute","op","latency","bytes_per_cycle","comm_cycles","offload_cycles",
//! "baseline_cycles","offload_overlap_pct","baseline_overlap_pct","fin_delay",
//! "simulated_cycles"}`.

use crate::output::plot::{Chart, Scale, Series};
use crate::output::table::{field, Record};
use serde_json::json;
use std::path::Path;
use tagmatch_sim::onesided::bench::{overlap_point, OverlapPoint};
use tagmatch_sim::onesided::model::UnitModel;
use tagmatch_sim::onesided::network::NetworkConfig;
use tagmatch_sim::onesided::{UnitConfig, UnitPins};
use tagmatch_testbench::onesided::{onesided_spec, RtlUnit};
use tagmatch_testbench::verilator::Model;

/// What to sweep.
pub struct Sweep {
    pub requests: Vec<u32>,
    pub bytes: Vec<u32>,
    pub compute: Vec<u64>,
    pub get: bool,
    pub net: NetworkConfig,
}

/// Runs the sweep on the model, or on the RTL when `rtl`.
pub fn run(cfg: UnitConfig, sweep: &Sweep, rtl: bool) -> Result<Vec<Record>, String> {
    sweep.net.check()?;
    let max = crate::cli::values::MAX_REQUESTS;
    if sweep.requests.iter().any(|&r| r == 0 || r > max) || sweep.bytes.is_empty() || sweep.compute.is_empty()
    {
        return Err(format!(
            "--requests take 1 to {}; --bytes and --compute need at least one value",
            crate::output::progress::thousands(u64::from(max))
        ));
    }
    if rtl {
        let name = crate::emit::onesided::build_name(&cfg);
        eprintln!("tagmatch: building {name} in Verilator (cached after the first time)");
        let (model, _) = Model::build(&onesided_spec(&name, crate::emit::onesided::verilog(&cfg)?, false))?;
        points(&mut RtlUnit::new(model)?, cfg, sweep, "rtl")
    } else {
        points(&mut UnitModel::new(cfg), cfg, sweep, "model")
    }
}

fn points(
    unit: &mut impl UnitPins,
    cfg: UnitConfig,
    sweep: &Sweep,
    engine: &str,
) -> Result<Vec<Record>, String> {
    let total = sweep.requests.len() * sweep.bytes.len() * sweep.compute.len();
    let progress = crate::output::progress::bar("bench onesided", total);
    let mut out = Vec::with_capacity(total);
    for &requests in &sweep.requests {
        for &bytes in &sweep.bytes {
            for &compute in &sweep.compute {
                progress.set_message(format!("{requests} requests of {bytes} bytes, compute {compute}"));
                let p = overlap_point(unit, cfg.windows, sweep.net, requests, bytes, compute, sweep.get)?;
                out.push(record(&p, cfg, sweep, engine));
                progress.inc(1);
            }
        }
    }
    progress.finish_and_clear();
    Ok(out)
}

fn record(p: &OverlapPoint, cfg: UnitConfig, sweep: &Sweep, engine: &str) -> Record {
    let pct = |v: f64| (v * 10.0).round() / 10.0;
    vec![
        ("bench", json!("onesided")),
        ("engine", json!(engine)),
        ("windows", json!(cfg.windows)),
        ("counter_bits", json!(cfg.counter_bits)),
        ("requests", json!(p.requests)),
        ("bytes", json!(p.bytes)),
        ("compute", json!(p.compute)),
        ("op", json!(if p.get { "get" } else { "put" })),
        ("latency", json!(sweep.net.latency)),
        ("bytes_per_cycle", json!(sweep.net.bytes_per_cycle)),
        ("comm_cycles", json!(p.comm_cycles)),
        ("offload_cycles", json!(p.offload_cycles)),
        ("baseline_cycles", json!(p.baseline_cycles)),
        ("offload_overlap_pct", json!(pct(p.offload_overlap))),
        ("baseline_overlap_pct", json!(pct(p.baseline_overlap))),
        ("fin_delay", json!(p.fin_delay)),
        ("simulated_cycles", json!(p.simulated)),
    ]
}

/// Overlap against message size, one solid line per (requests, compute) offloaded and a
/// dashed one for the host-progressed baseline.
pub fn plot(records: &[Record], path: &Path) -> Result<(), String> {
    let compute = |r: &Record| field(r, "compute").as_u64().unwrap_or(0);
    // Short legend entries: the compute time goes in the title when there is only one.
    let one_compute = records.iter().all(|r| compute(r) == records.first().map_or(0, compute));
    let mut series: Vec<Series> = Vec::new();
    for r in records {
        let n = field(r, "requests").as_u64().unwrap_or(0);
        let x = field(r, "bytes").as_f64().unwrap_or(1.0);
        let c = if one_compute { String::new() } else { format!(", C {}", compute(r)) };
        for (key, label, dashed) in
            [("offload_overlap_pct", "offload", false), ("baseline_overlap_pct", "host", true)]
        {
            let y = field(r, key).as_f64().unwrap_or(0.0);
            Series::extend(&mut series, format!("{label}, {n} req{c}"), &[(x, y)], dashed);
        }
    }
    let title = match records.first().filter(|_| one_compute) {
        Some(r) => format!("one-sided offload: overlap with {} cycles of compute", compute(r)),
        None => "one-sided offload: overlap of communication and compute".into(),
    };
    Chart {
        title,
        x_label: "bytes per request".into(),
        y_label: "overlap (%)".into(),
        x_scale: Scale::Log2,
        y_scale: Scale::Linear,
        series,
    }
    .write(path)
}
