//! `tagmatch trace stats|replay`: queue behaviour of a real application's DUMPI trace.

use crate::cli::design::EngineArgs;
use crate::cli::trace::{Mode, ReplayArgs, StatsArgs, TraceAction};
use crate::cli::values::{parse_bins, parse_matchers, MAX_BINS};
use crate::output::plot::{Chart, Scale, Series};
use crate::output::progress::thousands;
use crate::output::table::{field, render, Record};
use serde_json::{json, Value};
use std::path::Path;
use tagmatch_sim::cycle::two_level::{EngineShape, TwoLevelModel};
use tagmatch_sim::cycle::CycleEngine;
use tagmatch_sim::host::fallback::FallbackDriver;
use tagmatch_sim::host::HostReport;
use tagmatch_sim::software::hash_bins::{Bins, HashBinsMatcher};
use tagmatch_sim::traces::dumpi::trace::{read_run, Run};
use tagmatch_sim::traces::replay::full::RankStream;
use tagmatch_sim::traces::replay::pending::{pending_recv, BinHash, DepthStats};
use tagmatch_sim::traces::replay::{run_events, streams, RunEvents};
use tagmatch_sim::{Golden, Matcher, MatcherKind, MatcherOptions};
use tagmatch_testbench::two_level::cosim::EngineUnderTest;
use tagmatch_testbench::two_level::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::verilator::Model;

/// `tagmatch trace stats|replay`.
pub fn run(action: TraceAction) -> Result<(), String> {
    match action {
        TraceAction::Stats(args) => run_stats(args),
        TraceAction::Replay(args) => run_replay(args),
    }
}

/// `trace stats`: queue depths over the bin counts asked for, a row per rank if asked, and
/// the plot.
fn run_stats(args: StatsArgs) -> Result<(), String> {
    let StatsArgs { path, bins, mode, hash, latency_us, per_rank, format, plot } = args;
    check_latency(latency_us)?;
    if let Some(bad) = bins.iter().find(|&&b| b == 0) {
        return Err(format!("bad bin count {bad}: bins start at 1"));
    }
    if let Some(bad) = bins.iter().find(|&&b| b > MAX_BINS) {
        return Err(format!("--bins {bad} is above the limit of {} bins", thousands(MAX_BINS as u64)));
    }
    if mode == Mode::Full && hash == crate::cli::trace::Hash::Analyzer {
        return Err("--hash analyzer is the analyzer's definition: use it with --mode pending-recv".into());
    }
    let (_, events) = load(&path)?;
    let records = stats(&events, mode, hash.bin_hash(), &bins, latency_us, per_rank || plot.is_some())?;
    if let Some(svg) = plot {
        let title =
            format!("{} ({} mode)", path.display(), if mode == Mode::Full { "full" } else { "pending-recv" });
        stats_plot(&records, &svg, &title)?;
    }
    let shown: Vec<_> = if per_rank {
        records
    } else {
        records.into_iter().filter(|r| r[0].1 == serde_json::json!("all")).collect()
    };
    print!("{}", render(&shown, format));
    Ok(())
}

/// `trace replay`: the software matchers' work per match, or alone the engine's model or
/// RTL behind the host driver.
fn run_replay(args: ReplayArgs) -> Result<(), String> {
    let ReplayArgs {
        path,
        matcher,
        cam_depth,
        lists,
        list_capacity,
        label_bits,
        fields,
        bins,
        latency_us,
        per_rank,
        format,
    } = args;
    let shape = EngineArgs { cam_depth, lists, list_capacity, label_bits, fields };
    check_latency(latency_us)?;
    if let Some(hw) = matcher.iter().find(|m| *m == "engine" || *m == "rtl") {
        if matcher.len() > 1 {
            return Err(format!("--matcher {hw} replays alone (its records carry cycles, not entries)"));
        }
        let engine = if hw == "engine" {
            ReplayEngine::Model(
                EngineShape::model_from_list_capacity(
                    shape.cam_depth as usize,
                    shape.lists as usize,
                    shape.list_capacity as usize,
                )?
                .with_label_bits(shape.label_bits)?
                .with_fields(shape.fields.widths()?),
            )
        } else {
            ReplayEngine::Rtl(crate::commands::cosim::under_test(&shape.config()?)?)
        };
        let (_, events) = load(&path)?;
        let records = replay_engine(&events, engine, latency_us, per_rank)?;
        print!("{}", render(&records, format));
        return Ok(());
    }
    let options = MatcherOptions { bins: parse_bins(&bins)?, ..MatcherOptions::default() };
    let records = replay(&path, &parse_matchers(&matcher)?, &options, latency_us, per_rank)?;
    print!("{}", render(&records, format));
    Ok(())
}

/// `--latency-us`: microseconds, zero or more.
fn check_latency(latency_us: f64) -> Result<(), String> {
    if latency_us.is_finite() && latency_us >= 0.0 {
        Ok(())
    } else {
        Err(format!("bad latency {latency_us}: microseconds, zero or more"))
    }
}

/// A progress bar over the ranks, made when the first callback tells how many there are.
fn rank_progress(what: &'static str) -> impl Fn(usize, usize) + Sync {
    let bar = std::sync::OnceLock::new();
    move |done, total| {
        let bar = bar.get_or_init(|| crate::output::progress::bar(what, total).with_message("ranks"));
        bar.set_position(done as u64);
        if done == total {
            bar.finish_and_clear();
        }
    }
}

pub fn load(path: &Path) -> Result<(Run, RunEvents), String> {
    let run = read_run(path, &rank_progress("reading the trace")).map_err(|e| e.to_string())?;
    let events = run_events(&run)?;
    Ok((run, events))
}

fn rank_value(rank: Option<u32>) -> Value {
    rank.map_or(json!("all"), |r| json!(r))
}

fn round(v: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (v * f).round() / f
}

/// The run's matching streams; notes on stderr what the reconstruction had to assume.
fn streams_noted(events: &RunEvents, latency_us: f64) -> Result<Vec<RankStream>, String> {
    let (streams, corrected) = streams(events, latency_us * 1e-6)?;
    if !corrected {
        eprintln!("note: the ranks' clocks could not be reconciled; arrivals use the recorded clocks");
    }
    if events.comms.assumed() > 0 {
        eprintln!(
            "note: {} communicator(s) used without a recorded creation are assumed to span the world",
            events.comms.assumed()
        );
    }
    let unroutable: u64 = streams.iter().map(|s| s.sends_unroutable).sum();
    if let Some(comm) = streams.iter().find_map(|s| s.unroutable_comm) {
        eprintln!(
            "note: {unroutable} send(s) on communicators whose members the trace does not give were dropped, \
             e.g. on {}: {}",
            events.comms.describe(comm),
            events.comms.unknown_why(comm).unwrap_or("its members are unknown")
        );
    }
    Ok(streams)
}

/// Matches one stream with `matcher`, checking every outcome against the golden model;
/// returns the number of matched pairs.
fn replay_checked(stream: &RankStream, matcher: &mut dyn Matcher) -> Result<u64, String> {
    let mut golden = Golden::new();
    let mut matched = 0;
    for (i, op) in stream.ops.iter().enumerate() {
        let (want, got) = (golden.apply(op), matcher.apply(op));
        matched += matches!(want, tagmatch_sim::Outcome::Matched { .. }) as u64;
        if want != got {
            return Err(format!(
                "{} disagrees with the golden model on rank {} at operation {i} ({op}): {got} instead of {want}",
                matcher.name(),
                stream.rank
            ));
        }
    }
    Ok(matched)
}

pub fn stats(
    events: &RunEvents,
    mode: Mode,
    hash: BinHash,
    bins: &[usize],
    latency_us: f64,
    per_rank: bool,
) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    match mode {
        Mode::PendingRecv => {
            let mut blocking = 0;
            for &b in bins {
                let mut all = DepthStats::default();
                for (rank, ev) in &events.ranks {
                    let s = pending_recv(ev, b, hash);
                    all.merge(&s);
                    if per_rank {
                        out.push(pending_record(Some(*rank), b, &s));
                    }
                }
                blocking = all.blocking;
                out.push(pending_record(None, b, &all));
            }
            if blocking > 0 {
                eprintln!(
                    "note: pending-recv counts nonblocking receives only, as the analyzer does: {blocking} \
                     blocking receive(s) (MPI_Recv, MPI_Sendrecv) are not counted; --mode full counts them"
                );
            }
        }
        Mode::Full => {
            let streams = streams_noted(events, latency_us).map_err(|e| {
                format!("{e} (--mode pending-recv reads each rank alone and needs no messages rebuilt)")
            })?;
            let untraced: u64 = streams.iter().map(|s| s.sends_to_untraced).sum();
            if untraced > 0 {
                eprintln!("note: {untraced} sends go to ranks that are not in the trace; they never arrive");
            }
            let progress = crate::output::progress::bar("trace stats", bins.len() * streams.len());
            for &b in bins {
                let mut all = tagmatch_sim::WorkStats::default();
                for s in &streams {
                    progress.set_message(format!("{b} bins, rank {}", s.rank));
                    progress.inc(1);
                    let mut m = HashBinsMatcher::new(Bins::Fixed(b));
                    replay_checked(s, &mut m)?;
                    let w = m.stats();
                    all.searches += w.searches;
                    all.inspected += w.inspected;
                    all.max_inspected = all.max_inspected.max(w.max_inspected);
                    all.max_prq_len = all.max_prq_len.max(w.max_prq_len);
                    all.max_umq_len = all.max_umq_len.max(w.max_umq_len);
                    if per_rank {
                        out.push(full_record(Some(s.rank), b, &w));
                    }
                }
                out.push(full_record(None, b, &all));
            }
        }
    }
    Ok(out)
}

fn pending_record(rank: Option<u32>, bins: usize, s: &DepthStats) -> Record {
    vec![
        ("rank", rank_value(rank)),
        ("bins", json!(bins)),
        ("mode", json!(Mode::PendingRecv.name())),
        ("max_depth", json!(s.max_depth)),
        ("mean_depth", json!(round(s.mean_depth(), 3))),
        ("empty_share", json!(round(s.empty_share(), 3))),
        ("points", json!(s.points)),
    ]
}

fn full_record(rank: Option<u32>, bins: usize, w: &tagmatch_sim::WorkStats) -> Record {
    vec![
        ("rank", rank_value(rank)),
        ("bins", json!(bins)),
        ("mode", json!(Mode::Full.name())),
        ("max_depth", json!(w.max_inspected)),
        ("mean_depth", json!(round(w.mean_inspected(), 3))),
        ("prq_max", json!(w.max_prq_len)),
        ("umq_max", json!(w.max_umq_len)),
        ("searches", json!(w.searches)),
    ]
}

/// Depth against bins: one thin line per rank, the whole run in colour (max and mean).
pub fn stats_plot(records: &[Record], path: &Path, title: &str) -> Result<(), String> {
    let mut by_rank: std::collections::BTreeMap<String, Vec<(f64, f64, f64)>> = Default::default();
    for r in records {
        let (Some(b), Some(mx), Some(mean)) =
            (field(r, "bins").as_f64(), field(r, "max_depth").as_f64(), field(r, "mean_depth").as_f64())
        else {
            continue;
        };
        by_rank
            .entry(field(r, "rank").to_string().trim_matches('"').to_string())
            .or_default()
            .push((b, mx, mean));
    }
    let mut series = Vec::new();
    for (rank, pts) in &by_rank {
        if rank != "all" {
            series.push(Series {
                name: format!("rank {rank}"),
                points: pts.iter().map(|p| (p.0, p.1)).collect(),
                strong: false,
                dashed: false,
            });
        }
    }
    if let Some(pts) = by_rank.get("all") {
        series.push(Series {
            name: "max depth, all ranks".into(),
            points: pts.iter().map(|p| (p.0, p.1)).collect(),
            strong: true,
            dashed: false,
        });
        series.push(Series {
            name: "mean depth, all ranks".into(),
            points: pts.iter().map(|p| (p.0, p.2)).collect(),
            strong: true,
            dashed: true,
        });
    }
    Chart {
        title: title.to_string(),
        x_label: "bins".into(),
        y_label: "queue depth (entries)".into(),
        x_scale: Scale::Log2,
        y_scale: Scale::Linear,
        series,
    }
    .write(path)
}

pub fn replay(
    path: &Path,
    matchers: &[MatcherKind],
    options: &MatcherOptions,
    latency_us: f64,
    per_rank: bool,
) -> Result<Vec<Record>, String> {
    let (_, events) = load(path)?;
    let streams = streams_noted(&events, latency_us)?;
    let mut out = Vec::new();
    let progress = crate::output::progress::bar("trace replay", matchers.len() * streams.len());
    for &kind in matchers {
        let mut all = tagmatch_sim::WorkStats::default();
        let (mut ops, mut matches, mut memory) = (0usize, 0u64, 0usize);
        for s in &streams {
            progress.set_message(format!("{}, rank {}", kind.name(), s.rank));
            progress.inc(1);
            let mut m = kind.build(options, Some(&s.ops));
            replay_checked(s, m.as_mut())?;
            let mut golden = Golden::new();
            let n_matches = s
                .ops
                .iter()
                .filter(|op| matches!(golden.apply(op), tagmatch_sim::Outcome::Matched { .. }))
                .count() as u64;
            let w = m.stats();
            if per_rank {
                out.push(replay_record(Some(s.rank), kind, s.ops.len(), n_matches, &w, m.memory_bytes()));
            }
            ops += s.ops.len();
            matches += n_matches;
            memory = memory.max(m.memory_bytes());
            all.searches += w.searches;
            all.inspected += w.inspected;
            all.max_inspected = all.max_inspected.max(w.max_inspected);
            all.max_prq_len = all.max_prq_len.max(w.max_prq_len);
            all.max_umq_len = all.max_umq_len.max(w.max_umq_len);
        }
        out.push(replay_record(None, kind, ops, matches, &all, memory));
    }
    Ok(out)
}

fn replay_record(
    rank: Option<u32>,
    kind: MatcherKind,
    ops: usize,
    matches: u64,
    w: &tagmatch_sim::WorkStats,
    memory: usize,
) -> Record {
    let per_match = if matches == 0 { 0.0 } else { w.inspected as f64 / matches as f64 };
    vec![
        ("rank", rank_value(rank)),
        ("matcher", json!(kind.name())),
        ("ops", json!(ops)),
        ("matches", json!(matches)),
        ("inspected", json!(w.inspected)),
        ("inspected_per_match", json!(round(per_match, 3))),
        ("max_search", json!(w.max_inspected)),
        ("prq_max", json!(w.max_prq_len)),
        ("umq_max", json!(w.max_umq_len)),
        ("memory_bytes", json!(memory)),
    ]
}

/// Which engine a replay drives.
pub enum ReplayEngine {
    /// The cycle-accurate model.
    Model(EngineShape),
    /// The RTL in Verilator, reset between ranks.
    Rtl(EngineUnderTest),
}

/// Replays every rank's stream through the receive engine behind the host driver
/// (fallback mode, `tagmatch_sim::host`): every outcome checked against the unbounded
/// golden model, so a trace whose queues outgrow the engine replays to the end with the
/// overflow kept in software. Reports where the matches were found, what the host did,
/// and the cycles the engine spent with the benchmarks' handshake (the next command is
/// presented as soon as the last response is taken).
pub fn replay_engine(
    events: &RunEvents,
    engine: ReplayEngine,
    latency_us: f64,
    per_rank: bool,
) -> Result<Vec<Record>, String> {
    let streams = streams_noted(events, latency_us)?;
    let (cfg, name) = match &engine {
        ReplayEngine::Model(cfg) => (*cfg, "engine"),
        ReplayEngine::Rtl(e) => (e.config, "rtl"),
    };
    let progress = crate::output::progress::bar("trace replay", streams.len());
    let mut rtl = match &engine {
        ReplayEngine::Model(_) => None,
        ReplayEngine::Rtl(e) => {
            let line = format!("tagmatch: building {} in Verilator (cached after the first time)", e.name);
            crate::output::progress::note(&progress, &line);
            progress.set_message(format!("building {}", e.name));
            let (model, _) = Model::build(&engine_spec(&e.name, e.verilog.clone(), false))?;
            Some(RtlEngine::new(model)?.with_fields(e.config.fields))
        }
    };
    let mut out = Vec::new();
    let mut all = EngineReplay::default();
    for s in &streams {
        progress.set_message(format!("rank {}", s.rank));
        progress.inc(1);
        let r = match rtl.take() {
            None => engine_replay_rank(s, TwoLevelModel::with_config(cfg), |m| Some(m.last_walk() as u64))?.0,
            Some(mut e) => {
                e.reset();
                let (r, driver) = engine_replay_rank(s, e, |_| None)?;
                rtl = Some(driver.into_engine());
                r
            }
        };
        if per_rank {
            out.push(r.record(Some(s.rank), &cfg, name));
        }
        all.merge(&r);
    }
    out.push(all.record(None, &cfg, name));
    Ok(out)
}

#[derive(Clone, Copy, Debug, Default)]
struct EngineReplay {
    ops: u64,
    matches: u64,
    cycles: u64,
    /// The most engine cycles one MPI operation took, driver commands included.
    max_latency: u64,
    /// List elements the searches compared (the model knows; the RTL does not say).
    walked: Option<u64>,
    prq_max: usize,
    umq_max: usize,
    host: HostReport,
}

impl EngineReplay {
    fn merge(&mut self, o: &EngineReplay) {
        self.ops += o.ops;
        self.matches += o.matches;
        self.cycles += o.cycles;
        self.max_latency = self.max_latency.max(o.max_latency);
        self.walked = match (self.walked, o.walked) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.prq_max = self.prq_max.max(o.prq_max);
        self.umq_max = self.umq_max.max(o.umq_max);
        self.host.merge(&o.host);
    }

    fn record(&self, rank: Option<u32>, cfg: &EngineShape, name: &str) -> Record {
        let per = |n: u64| if n == 0 { 0.0 } else { round(self.cycles as f64 / n as f64, 3) };
        let h = &self.host;
        vec![
            ("rank", rank_value(rank)),
            ("matcher", json!(name)),
            ("cam_depth", json!(cfg.cam_depth)),
            ("lists", json!(cfg.lists)),
            ("queue_capacity", json!(cfg.queue_capacity())),
            ("ops", json!(self.ops)),
            ("matches", json!(self.matches)),
            ("hw_share", json!(round(h.hardware_share(), 4))),
            ("fallbacks", json!(h.fallbacks)),
            ("readmitted", json!(h.readmitted)),
            ("undone", json!(h.undone)),
            ("host_inspected_per_op", json!(round(h.host_inspected_per_op(), 3))),
            ("commands", json!(h.commands)),
            ("cycles", json!(self.cycles)),
            ("cycles_per_op", json!(per(self.ops))),
            ("max_op_cycles", json!(self.max_latency)),
            ("list_elements_walked", json!(self.walked)),
            ("prq_max", json!(self.prq_max)),
            ("umq_max", json!(self.umq_max)),
        ]
    }
}

/// One rank's stream through the driver over `engine`; `walk` reads the elements the last
/// search compared, where the engine knows.
fn engine_replay_rank<E: CycleEngine>(
    stream: &RankStream,
    engine: E,
    walk: impl Fn(&E) -> Option<u64>,
) -> Result<(EngineReplay, FallbackDriver<E>), String> {
    let mut driver = FallbackDriver::new(engine);
    let start = driver.engine().cycles();
    let mut golden = Golden::new();
    let mut r = EngineReplay { ops: stream.ops.len() as u64, ..EngineReplay::default() };
    for (i, op) in stream.ops.iter().enumerate() {
        let want = golden.apply(op);
        let before = driver.engine().cycles();
        let got = driver.apply(op).map_err(|e| format!("rank {} operation {i} ({op}): {e}", stream.rank))?;
        if got != want {
            return Err(format!(
                "the engine behind the host driver disagrees with the golden model on rank {} at operation {i} ({op}): {got} instead of {want}",
                stream.rank
            ));
        }
        r.matches += matches!(want, tagmatch_sim::Outcome::Matched { .. }) as u64;
        r.max_latency = r.max_latency.max(driver.engine().cycles() - before);
        if let Some(w) = walk(driver.engine()) {
            *r.walked.get_or_insert(0) += w;
        }
    }
    let s = golden.stats();
    (r.prq_max, r.umq_max) = (s.max_prq_len, s.max_umq_len);
    r.host = driver.report();
    r.cycles = driver.engine().cycles() - start;
    Ok((r, driver))
}
