//! `tagmatch bench rate`: the optimistic tag matching paper's message-rate benchmark on the
//! thread array's cycle-level model (exact to its RTL), with the two-level engine's cycle-accurate model
//! on the same operations beside it. Records: one per scenario and thread count, plus one
//! `two-level` record per scenario; `scaling` is the rate over `threads` times the
//! one-thread rate (1.0 = linear).

//!
//! With `--backend rtl` the thread array's RTL runs in Verilator (the generator's default
//! tables, one build per thread count and fast-path setting) with the cycle-level model
//! beside it: every answer and every cycle must agree, so the rates are the hardware's.

use crate::emit::thread_array::{Tables, ThreadArrayConfig};
use crate::output::plot::{Chart, Scale, Series};
use crate::output::table::{field, Record};
use indicatif::ProgressBar;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Instant;
use tagmatch_sim::cycle::two_level::EngineShape;
use tagmatch_sim::optimistic::engine::OptimisticEngine;
use tagmatch_sim::optimistic::rate::{measure, optimistic, two_level, Rate, Scenario};
use tagmatch_testbench::optimistic::thread_array::{thread_array_spec, RtlThreadArray};
use tagmatch_testbench::verilator::Model;

pub struct RateOptions {
    pub threads: Vec<usize>,
    pub scenarios: Vec<Scenario>,
    /// Messages per sequence.
    pub k: u32,
    pub sequences: u32,
    pub engine: EngineShape,
    /// The thread array's tables; `None`: the generator's default tables, their
    /// descriptors grown to `k` if it is larger (the model only).
    pub tables: Option<Tables>,
    /// Run the thread array's RTL (Verilator) instead of only its model.
    pub rtl: bool,
    /// Build the thread array with the fast path where the scenario allows
    /// ([`Scenario::fast_path_build`]): `false` runs nc on the array without it.
    pub fast_path: bool,
}

impl RateOptions {
    /// The tables the thread array runs with.
    pub fn tables(&self) -> Tables {
        self.tables.unwrap_or(crate::emit::thread_array::DEFAULT_TABLES)
    }
}

/// One row; `fast_path_build`: whether the thread array that ran was built with the fast path
/// (`None` for the two-level engine).
fn record(
    scenario: Scenario,
    design: &str,
    threads: usize,
    r: &Rate,
    scaling: Option<f64>,
    rtl: bool,
    fast_path_build: Option<bool>,
) -> Record {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    vec![
        ("bench", json!("rate")),
        ("engine", json!(if rtl { "rtl" } else { "model" })),
        ("design", json!(design)),
        ("scenario", json!(scenario.name())),
        ("fast_path_build", json!(fast_path_build)),
        ("threads", json!(threads)),
        ("matches", json!(r.matches)),
        ("cycles", json!(r.cycles)),
        ("matches_per_cycle", json!(round(r.per_cycle()))),
        ("scaling", scaling.map_or(json!(null), |s| json!(round(s)))),
        ("conflicts", json!(r.conflicts)),
        ("fast_path", json!(r.fast)),
        ("slow_path", json!(r.slow)),
    ]
}

pub fn run(o: &RateOptions) -> Result<Vec<Record>, String> {
    if o.k == 0 || o.sequences == 0 {
        return Err("--k and --sequences must be at least 1".into());
    }
    // Every scenario's build is decided before any runs (wc-fp refuses --no-fast-path).
    for scenario in &o.scenarios {
        scenario.fast_path_build(o.fast_path)?;
    }
    // Per scenario: each thread count, the one-thread run if not among them, the engine.
    let extra = if o.threads.contains(&1) { 1 } else { 2 };
    let progress = crate::output::progress::bar("bench rate", o.scenarios.len() * (o.threads.len() + extra));
    let mut out = Vec::new();
    let rate = |scenario: Scenario, threads| {
        progress.set_message(format!("{}, {}", scenario.name(), lanes(threads)));
        let r = match (o.rtl, o.tables) {
            (true, _) => rtl(scenario, threads, o, &progress),
            (false, None) => optimistic(scenario, threads, o.k, o.sequences, o.fast_path),
            (false, Some(_)) => model(scenario, threads, o),
        };
        progress.inc(1);
        r
    };
    for &scenario in &o.scenarios {
        let build = scenario.fast_path_build(o.fast_path)?;
        let rates = o.threads.iter().map(|&t| rate(scenario, t)).collect::<Result<Vec<_>, _>>()?;
        // The one-thread rate scaling is measured against, run again only if not asked for.
        let single = match o.threads.iter().position(|&t| t == 1) {
            Some(i) => rates[i].per_cycle(),
            None => rate(scenario, 1)?.per_cycle(),
        };
        for (&threads, r) in o.threads.iter().zip(&rates) {
            let scaling = r.per_cycle() / (single * threads as f64);
            out.push(record(scenario, "optimistic", threads, r, Some(scaling), o.rtl, Some(build)));
        }
        progress.set_message(format!("{}, two-level engine", scenario.name()));
        let r = two_level(scenario, o.engine, o.k, o.sequences)?;
        progress.inc(1);
        out.push(record(scenario, "two-level", 1, &r, None, false, None));
    }
    progress.finish_and_clear();
    Ok(out)
}

fn lanes(threads: usize) -> String {
    format!("{threads} lane{}", if threads == 1 { "" } else { "s" })
}

/// The thread array of `tables` as the scenario runs it ([`Scenario::fast_path_build`]),
/// checked to hold a sequence.
fn array(
    scenario: Scenario,
    threads: usize,
    tables: Tables,
    k: u32,
    fast_path: bool,
) -> Result<ThreadArrayConfig, String> {
    let cfg =
        crate::emit::thread_array::configuration(threads, tables, scenario.fast_path_build(fast_path)?)?;
    if k as usize > cfg.descriptors {
        return Err(format!(
            "--k {k}: the thread array holds {} receives (--descriptors, or a smaller --k)",
            cfg.descriptors
        ));
    }
    Ok(cfg)
}

/// The benchmark on the cycle-level model of the thread array with `o`'s tables.
fn model(scenario: Scenario, threads: usize, o: &RateOptions) -> Result<Rate, String> {
    let cfg = array(scenario, threads, o.tables(), o.k, o.fast_path)?;
    let mut engine = OptimisticEngine::new(cfg.model_config())?;
    measure(scenario, threads, o.k, o.sequences, &mut |ops| engine.apply(ops))
}

/// The benchmark on the thread array's RTL, the cycle-level model checking every answer.
fn rtl(scenario: Scenario, threads: usize, o: &RateOptions, progress: &ProgressBar) -> Result<Rate, String> {
    let (k, sequences) = (o.k, o.sequences);
    let cfg = array(scenario, threads, o.tables(), k, o.fast_path)?;
    let name = cfg.build_name();
    crate::output::progress::note(
        progress,
        &format!("tagmatch: building {name} in Verilator (cached after the first time)"),
    );
    progress.set_message(format!("{}, {}: building {name}", scenario.name(), lanes(threads)));
    let (model, build) = Model::build(&thread_array_spec(&name, cfg.verilog()?, threads, false))?;
    progress.set_message(format!("{}, {}: running", scenario.name(), lanes(threads)));
    let mut array = RtlThreadArray::new(model, threads)?.with_fields(cfg.fields);
    let mut cycle_model = OptimisticEngine::new(cfg.model_config())?;
    let started = Instant::now();
    let rate = measure(scenario, threads, k, sequences, &mut |ops| {
        let (got, want) = (array.apply(ops)?, cycle_model.apply(ops)?);
        if (&got.outcomes, got.accepted, got.responded) != (&want.outcomes, want.accepted, want.responded) {
            return Err(format!("RTL and cycle model differ on {ops:?}: {got:?} vs {want:?}"));
        }
        Ok(want)
    })?;
    let line = format!(
        "tagmatch: {} {}: {} cycles in {:.1} s (build {:.0} s)",
        scenario.name(),
        lanes(threads),
        array.model_mut().cycles(),
        started.elapsed().as_secs_f64(),
        build.seconds
    );
    crate::output::progress::note(progress, &line);
    Ok(rate)
}

/// Gives every record `fmax_mhz`, `device` and `matches_per_us` after `matches_per_cycle`:
/// the thread array at the recorded Fmax of the generator's array with that many lanes
/// (`tables`, fast path as the scenario runs it and `fast_path` allows), the two-level
/// engine at its configuration's; null where none was measured. Returns the warnings for
/// records of older designs.
pub fn annotate(
    records: &mut [Record],
    engine: EngineShape,
    tables: Tables,
    fast_path: bool,
) -> Result<Vec<String>, String> {
    let file = crate::flow::record::load()?;
    let mut warnings = Vec::new();
    let two_level = crate::flow::record::two_level_clock(
        &file,
        engine.cam_depth as u32,
        engine.lists as u32,
        engine.list_capacity() as u32,
        &mut warnings,
    )?;
    for r in records.iter_mut() {
        let text = |key: &str| field(r, key).as_str().unwrap_or_default().to_string();
        let clock = match text("design").as_str() {
            "two-level" => two_level.clone(),
            _ => {
                let threads = field(r, "threads").as_u64().unwrap_or(0) as usize;
                let built = Scenario::parse(&text("scenario"))?.fast_path_build(fast_path)?;
                match crate::emit::thread_array::configuration(threads, tables, built) {
                    Ok(cfg) => crate::flow::record::clock_of(
                        &file,
                        "optimistic",
                        &crate::emit::thread_array::parameters(&cfg),
                        &mut warnings,
                    )?,
                    Err(_) => None,
                }
            }
        };
        let per_cycle = field(r, "matches_per_cycle").as_f64().unwrap_or(0.0);
        let (fmax, device, per_us) = match clock {
            Some(c) => {
                (json!(c.fmax_mhz), json!(c.device), json!((per_cycle * c.fmax_mhz * 100.0).round() / 100.0))
            }
            None => (Value::Null, Value::Null, Value::Null),
        };
        let at = r.iter().position(|(k, _)| *k == "matches_per_cycle").map_or(r.len(), |i| i + 1);
        r.splice(at..at, [("fmax_mhz", fmax), ("device", device), ("matches_per_us", per_us)]);
    }
    Ok(warnings)
}

/// Matches per cycle against threads (log scale), one line per scenario; the two-level
/// engine's rate as a dashed line across.
pub fn plot(records: &[Record], path: &Path) -> Result<(), String> {
    let text = |r: &Record, key: &str| field(r, key).as_str().unwrap_or_default().to_string();
    let threads = records
        .iter()
        .filter(|r| text(r, "design") == "optimistic")
        .filter_map(|r| field(r, "threads").as_f64());
    let (lo, hi) = threads.fold((f64::MAX, 0.0f64), |(a, b), t| (a.min(t), b.max(t)));
    let mut series: Vec<Series> = Vec::new();
    for r in records {
        let y = field(r, "matches_per_cycle").as_f64().unwrap_or(0.0);
        if text(r, "design") == "two-level" {
            let name = format!("two-level engine, {}", text(r, "scenario"));
            Series::extend(&mut series, name, &[(lo, y), (hi, y)], true);
        } else {
            let x = field(r, "threads").as_f64().unwrap_or(1.0);
            Series::extend(&mut series, format!("optimistic, {}", text(r, "scenario")), &[(x, y)], false);
        }
    }
    Chart {
        title: "message rate (sequences of k messages, receives preposted)".into(),
        x_label: "threads".into(),
        y_label: "matches per cycle".into(),
        x_scale: Scale::Log2,
        y_scale: Scale::Linear,
        series,
    }
    .write(path)
}
