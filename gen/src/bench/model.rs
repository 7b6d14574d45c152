//! `tagmatch bench preposted|unload --backend model`: the benchmarks on the cycle-accurate
//! model of the engine (exact RTL cycles, any number of lists, depths far beyond what
//! Verilator can run) and, beside it, the cost models of the designs the FPL 2018 paper
//! compares with (`tagmatch_sim::cycle::baselines`), labelled as such.
//!
//! Configurations run on both cores, each on its own engine with every depth in turn (a
//! run leaves the engine empty). Records follow `docs/design.md` with two more columns: `kind`
//! (`cycle-accurate` or `cost model`) and the model's speed.

use crate::bench::software::Bench;
use crate::output::table::Record;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use tagmatch_sim::cycle::baselines::{Baseline, ASSOCIATIVE_ENTRIES, HASH_BUCKETS};
use tagmatch_sim::cycle::bench::{preposted, preposted_with_wait, unload, unload_with_wait, Point};
use tagmatch_sim::cycle::two_level::{check_depths, EngineShape, TwoLevelModel};
use tagmatch_sim::cycle::CycleEngine;

/// A design's points at every depth, each with the seconds it took.
type TimedPoints = Vec<(Point, f64)>;

/// One line of the sweep: the engine's model in one configuration, or a baseline.
#[derive(Clone, Copy, Debug)]
pub enum Design {
    TwoLevel(EngineShape),
    Baseline(Baseline),
}

impl Design {
    fn name(&self) -> &'static str {
        match self {
            Design::TwoLevel(_) => "two-level",
            Design::Baseline(b) => b.design(),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Design::TwoLevel(_) => "cycle-accurate",
            Design::Baseline(_) => "cost model",
        }
    }

    /// (CAM or associative entries, lists or buckets) for the records.
    fn shape(&self) -> (usize, usize) {
        match *self {
            Design::TwoLevel(c) => (c.cam_depth, c.lists),
            Design::Baseline(Baseline::Paper { lists }) => (ASSOCIATIVE_ENTRIES, lists),
            Design::Baseline(Baseline::Alpu { .. }) => (ASSOCIATIVE_ENTRIES, 1),
            Design::Baseline(Baseline::Hash) => (0, HASH_BUCKETS),
        }
    }

    fn run(
        &self,
        bench: Bench,
        depths: &[u32],
        wait: bool,
        done: &(dyn Fn() + Sync),
    ) -> Result<TimedPoints, String> {
        match *self {
            Design::TwoLevel(c) => sweep(&mut TwoLevelModel::with_config(c), bench, depths, wait, done),
            Design::Baseline(b) => sweep(&mut b.engine()?, bench, depths, wait, done),
        }
    }
}

fn sweep(
    engine: &mut impl CycleEngine,
    bench: Bench,
    depths: &[u32],
    wait: bool,
    done: &(dyn Fn() + Sync),
) -> Result<TimedPoints, String> {
    depths
        .iter()
        .map(|&depth| {
            let started = Instant::now();
            let point = match (bench, wait) {
                (Bench::Preposted, false) => preposted(engine, depth),
                (Bench::Unload, false) => unload(engine, depth),
                (Bench::Preposted, true) => preposted_with_wait(engine, depth),
                (Bench::Unload, true) => unload_with_wait(engine, depth),
            }?;
            done();
            Ok((point, started.elapsed().as_secs_f64()))
        })
        .collect()
}

/// What a sweep measured, with its speed for the summary line.
pub struct Sweep {
    pub records: Vec<Record>,
    pub simulated_cycles: u64,
    pub seconds: f64,
}

/// Runs `bench` at every depth on every design, with a completion wait when `wait`.
/// Progress goes to stderr on a terminal.
pub fn run(bench: Bench, designs: &[Design], depths: &[u32], wait: bool) -> Result<Sweep, String> {
    for d in designs {
        match d {
            Design::TwoLevel(c) => check_depths(c, depths)?,
            Design::Baseline(_) if wait => {
                return Err("--wait needs the engine's completion unit; the baselines are cost models \
                            without one (add --baselines none)"
                    .into())
            }
            Design::Baseline(_) => {}
        }
    }
    let total = designs.len() * depths.len();
    let progress = crate::output::progress::bar(&format!("bench {}", bench.name()), total);
    let done = || progress.inc(1);
    // Workers take designs in order; the deep single-list runs dominate, so two cores
    // about halve the sweep.
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<TimedPoints, String>>>> = Mutex::new(vec![None; designs.len()]);
    let started = Instant::now();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(designs.len()).max(1);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(design) = designs.get(i) else { break };
                let r = design.run(bench, depths, wait, &done);
                results.lock().expect("no worker panics holding the lock")[i] = Some(r);
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    progress.finish_and_clear();
    let mut records = Vec::with_capacity(total);
    let mut simulated_cycles = 0;
    let results = results.into_inner().expect("workers finished");
    for (design, result) in designs.iter().zip(results) {
        let points = result.expect("every design ran")?;
        let (cam, lists) = design.shape();
        for (&depth, (point, secs)) in depths.iter().zip(points) {
            simulated_cycles += point.simulated;
            let mut record = vec![
                ("bench", json!(bench.name())),
                ("engine", json!("model")),
                ("design", json!(design.name())),
                ("kind", json!(design.kind())),
                ("cam_depth", json!(cam)),
                ("lists", json!(lists)),
                ("depth", json!(depth)),
                ("cycles", json!(point.cycles)),
            ];
            if let Some(w) = point.wait_cycles {
                record.push(("wait_cycles", json!(w)));
            }
            record.extend([
                ("simulated_cycles", json!(point.simulated)),
                ("sim_mcycles_per_s", json!((point.simulated as f64 / secs.max(1e-9) / 1e6).round())),
            ]);
            records.push(record);
        }
    }
    Ok(Sweep { records, simulated_cycles, seconds })
}
