//! Reading and analysing a real trace: amg-n27 (27 ranks) parsed and analysed for all six
//! bin counts (1, 16, 32, 64, 128, 256), in both modes. Goal: under 0.5 s for one run.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;
use std::time::Duration;
use tagmatch_sim::software::hash_bins::{Bins, HashBinsMatcher};
use tagmatch_sim::traces::dumpi::trace::read_run;
use tagmatch_sim::traces::replay::pending::{pending_recv, BinHash};
use tagmatch_sim::traces::replay::{run_events, streams};
use tagmatch_sim::Matcher;

const BINS: [usize; 6] = [1, 16, 32, 64, 128, 256];

fn amg() -> PathBuf {
    std::env::var_os("TAGMATCH_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces"))
        .join("amg-n27")
}

fn bench(c: &mut Criterion) {
    let path = amg();
    c.bench_function("amg-n27/read", |b| b.iter(|| read_run(&path, &|_, _| {}).unwrap()));
    c.bench_function("amg-n27/read+pending-recv x6 bins", |b| {
        b.iter(|| {
            let ev = run_events(&read_run(&path, &|_, _| {}).unwrap()).unwrap();
            BINS.iter()
                .map(|&n| ev.ranks.iter().map(|(_, e)| pending_recv(e, n, BinHash::Own).max_depth).max())
                .collect::<Vec<_>>()
        })
    });
    c.bench_function("amg-n27/read+full x6 bins", |b| {
        b.iter(|| {
            let ev = run_events(&read_run(&path, &|_, _| {}).unwrap()).unwrap();
            let (st, _) = streams(&ev, 1e-6).unwrap();
            BINS.iter()
                .map(|&n| {
                    st.iter()
                        .map(|s| {
                            let mut m = HashBinsMatcher::new(Bins::Fixed(n));
                            s.ops.iter().for_each(|op| {
                                m.apply(op);
                            });
                            m.stats().max_inspected
                        })
                        .max()
                })
                .collect::<Vec<_>>()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3)).sample_size(20);
    targets = bench
}
criterion_main!(benches);
