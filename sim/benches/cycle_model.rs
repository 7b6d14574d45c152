//! Simulated cycles per second of the engine's cycle-accurate model, to set beside
//! Verilator's figure for the same configuration (`tagmatch bench --backend rtl` reports
//! `sim_kcycles_per_s`; the goal is 1,000 times that).
//!
//! - `rtl-sweep/<bench>/<lists>`: the RTL benchmark's default sweep (depths 1 to 2,000),
//!   the exact operations Verilator runs, on a 256-entry CAM with 32,768 list entries.
//! - `model-sweep/<bench>/<lists>`: the model's default sweep (depths 1 to 30,000).
//! - `random/<lists>`: 20,000 random operations (wildcards, repeats, cancels, probes) on
//!   the small engine `tagmatch cosim` runs.
//!
//! Throughput is in simulated cycles ("elements").

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use tagmatch_sim::cycle::bench::{preposted, unload};
use tagmatch_sim::cycle::two_level::{EngineShape, TwoLevelModel};
use tagmatch_sim::cycle::CycleEngine;
use tagmatch_sim::workload::streams::random_stream;

const RTL_DEPTHS: [u32; 8] = [1, 10, 100, 256, 257, 500, 1000, 2000];
const MODEL_DEPTHS: [u32; 11] = [1, 10, 100, 256, 257, 500, 1000, 2000, 5000, 10000, 30000];

fn sweep(lists: usize, unloading: bool, depths: &[u32]) -> u64 {
    let cfg = EngineShape::from_list_capacity(256, lists, 32768).expect("a gen configuration");
    let mut model = TwoLevelModel::with_config(cfg);
    for &d in depths {
        if unloading { unload(&mut model, d) } else { preposted(&mut model, d) }.expect("the benchmark runs");
    }
    model.cycles()
}

fn sweeps(c: &mut Criterion) {
    for (group, depths) in [("rtl-sweep", &RTL_DEPTHS[..]), ("model-sweep", &MODEL_DEPTHS[..])] {
        let mut g = c.benchmark_group(group);
        g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
        for (name, unloading) in [("preposted", false), ("unload", true)] {
            for lists in [1, 4, 64] {
                g.throughput(Throughput::Elements(sweep(lists, unloading, depths)));
                g.bench_function(format!("{name}/{lists}"), |b| b.iter(|| sweep(lists, unloading, depths)));
            }
        }
        g.finish();
    }
}

fn random(c: &mut Criterion) {
    let ops = random_stream(1, 20_000);
    let mut g = c.benchmark_group("random");
    g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    for lists in [1, 4, 16, 64] {
        let cfg = EngineShape::from_list_capacity(8, lists, 256).expect("a gen configuration");
        let run = || {
            let mut model = TwoLevelModel::with_config(cfg);
            for op in &ops {
                model.apply(op).expect("fits");
            }
            model.cycles()
        };
        g.throughput(Throughput::Elements(run()));
        g.bench_function(format!("{lists}"), |b| b.iter(run));
    }
    g.finish();
}

criterion_group!(benches, sweeps, random);
criterion_main!(benches);
