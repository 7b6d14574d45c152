//! Operations per second of every matcher on short queues (depth <= 8) and long ones
//! (1,000 and 10,000), with unique and with repeated envelopes.
//!
//! - `short/<envelopes>/<matcher>`: a 32-operation block that never holds more than 8
//!   entries per queue (receives preposted then matched out of order, messages arriving
//!   unexpected then received), repeated; the queues are empty between blocks.
//! - `prq/<envelopes>/<depth>/<matcher>`: the PRQ holds `depth` receives; each iteration
//!   delivers a message for the newest one (the deepest in a list) and posts it again.
//! - `umq/<envelopes>/<depth>/<matcher>`: the same on the UMQ side.
//!
//! Unique envelopes give entry i source i and tag i (many peers); repeated envelopes give
//! every entry the same one (a single peer and tag).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use tagmatch_sim::{Envelope, MatcherKind, MatcherOptions, MsgId, Op, RecvId, RecvSpec};

#[derive(Clone, Copy)]
enum Envelopes {
    Unique,
    Repeated,
}

impl Envelopes {
    fn name(self) -> &'static str {
        match self {
            Envelopes::Unique => "unique",
            Envelopes::Repeated => "repeated",
        }
    }

    fn env(self, i: u32) -> Envelope {
        match self {
            Envelopes::Unique => Envelope::new(0, i, i),
            Envelopes::Repeated => Envelope::new(0, 0, 0),
        }
    }
}

/// One block of the short-queue workload: 8 receives matched out of posting order, then
/// 8 messages received out of arrival order, with a wildcard receive among them.
fn short_block(e: Envelopes) -> Vec<Op> {
    const ORDER: [u32; 8] = [3, 0, 7, 1, 6, 2, 5, 4];
    let mut ops = Vec::new();
    for i in 0..8 {
        ops.push(Op::PostRecv { recv: RecvId(i as u64), spec: RecvSpec::exact(e.env(i)) });
    }
    for (k, &i) in ORDER.iter().enumerate() {
        ops.push(Op::Arrive { msg: MsgId(k as u64), env: e.env(i) });
    }
    for i in 0..8 {
        ops.push(Op::Arrive { msg: MsgId(100 + i as u64), env: e.env(i) });
    }
    for (k, &i) in ORDER.iter().enumerate() {
        let spec = if k == 7 { RecvSpec::new(0, None, None) } else { RecvSpec::exact(e.env(i)) };
        ops.push(Op::PostRecv { recv: RecvId(100 + k as u64), spec });
    }
    ops
}

fn options() -> MatcherOptions {
    MatcherOptions::default()
}

fn bench_short(c: &mut Criterion) {
    for e in [Envelopes::Unique, Envelopes::Repeated] {
        let block = short_block(e);
        let mut g = c.benchmark_group(format!("short/{}", e.name()));
        g.throughput(Throughput::Elements(block.len() as u64));
        for kind in MatcherKind::ALL {
            let mut m = kind.build(&options(), Some(&block));
            g.bench_function(kind.name(), |b| {
                b.iter(|| {
                    for op in &block {
                        black_box(m.apply(black_box(op)));
                    }
                })
            });
        }
        g.finish();
    }
}

/// Fills one queue with `depth` entries, then measures "match the newest, refill it".
fn bench_deep(c: &mut Criterion, queue: &str, depths: &[u32]) {
    for e in [Envelopes::Unique, Envelopes::Repeated] {
        let mut g = c.benchmark_group(format!("{queue}/{}", e.name()));
        g.throughput(Throughput::Elements(2));
        for &depth in depths {
            let fill: Vec<Op> = (0..depth)
                .map(|i| match queue {
                    "prq" => Op::PostRecv { recv: RecvId(i as u64), spec: RecvSpec::exact(e.env(i)) },
                    _ => Op::Arrive { msg: MsgId(i as u64), env: e.env(i) },
                })
                .collect();
            for kind in MatcherKind::ALL {
                let mut m = kind.build(&options(), Some(&fill));
                for op in &fill {
                    m.apply(op);
                }
                let newest = e.env(depth - 1);
                let mut next = depth as u64;
                g.bench_with_input(BenchmarkId::new(kind.name(), depth), &depth, |b, _| {
                    b.iter(|| {
                        next += 1;
                        if queue == "prq" {
                            black_box(m.arrive(MsgId(next), newest));
                            black_box(m.post_recv(RecvId(next), RecvSpec::exact(newest)));
                        } else {
                            black_box(m.post_recv(RecvId(next), RecvSpec::exact(newest)));
                            black_box(m.arrive(MsgId(next), newest));
                        }
                    })
                });
            }
        }
        g.finish();
    }
}

fn bench_queues(c: &mut Criterion) {
    bench_deep(c, "prq", &[8, 1000, 10_000]);
    bench_deep(c, "umq", &[8, 1000, 10_000]);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = bench_short, bench_queues
}
criterion_main!(benches);
