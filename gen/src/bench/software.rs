//! `tagmatch bench ... --backend software`: the preposted-latency and unload benchmarks on
//! the software matchers, in entries inspected and wall-clock time.

use crate::output::table::Record;
use serde_json::json;
use tagmatch_sim::workload::benchmarks::{preposted, unload};
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
    let progress =
        crate::output::progress::bar(&format!("bench {}", bench.name()), matchers.len() * depths.len());
    let mut out = Vec::new();
    for &depth in depths {
        for &kind in matchers {
            progress.set_message(format!("{} at depth {depth}", kind.name()));
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
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    Ok(out)
}
