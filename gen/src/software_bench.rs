//! `tagmatch bench ... --engine software`: the preposted-latency and unload benchmarks on
//! the software matchers, in entries inspected and wall-clock time.

use crate::report::Record;
use serde_json::json;
use std::io::{IsTerminal, Write};
use tagmatch_sim::workloads::{preposted, unload};
use tagmatch_sim::{MatcherKind, MatcherOptions};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Bench {
    Preposted,
    Unload,
}

impl Bench {
    pub fn name(self) -> &'static str {
        match self {
            Bench::Preposted => "preposted",
            Bench::Unload => "unload",
        }
    }
}

/// Runs `bench` for every matcher and depth. Progress goes to stderr when it is a terminal.
pub fn run(
    bench: Bench,
    matchers: &[MatcherKind],
    depths: &[u32],
    options: &MatcherOptions,
) -> Result<Vec<Record>, String> {
    let total = matchers.len() * depths.len();
    let show = std::io::stderr().is_terminal() && total > 1;
    let mut out = Vec::new();
    for (d, &depth) in depths.iter().enumerate() {
        for (k, &kind) in matchers.iter().enumerate() {
            if show {
                eprint!(
                    "\r{} {}/{}: {} at depth {}        ",
                    bench.name(),
                    d * matchers.len() + k + 1,
                    total,
                    kind.name(),
                    depth
                );
                let _ = std::io::stderr().flush();
            }
            // Enough repetitions for a stable mean without letting deep linear scans drag on.
            let work = (depth as u64).max(1) * if bench == Bench::Unload { depth as u64 } else { 1 };
            let repeats = (2_000_000 / work.max(1)).clamp(1, 1000) as u32;
            let m = match bench {
                Bench::Preposted => preposted(kind, options, depth, repeats)?,
                Bench::Unload => unload(kind, options, depth, repeats)?,
            };
            out.push(vec![
                ("bench", json!(bench.name())),
                ("engine", json!("software")),
                ("design", json!(kind.name())),
                ("depth", json!(depth)),
                ("inspected", json!(m.inspected)),
                ("ns", json!((m.nanos * 10.0).round() / 10.0)),
            ]);
        }
    }
    if show {
        eprintln!();
    }
    Ok(out)
}
