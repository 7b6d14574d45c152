//! `tagmatch bench`: preposted latency and unload (software matchers, the cycle model
//! beside its baselines, the RTL, or through the host driver), the thread array's message
//! rate, the one-sided unit's overlap and the engine's throughput; each refuses the
//! options it does not take.

use crate::bench;
use crate::bench::software::Bench;
use crate::cli::bench::{Backend, BenchArgs, BenchName};
use crate::cli::cosim::HostChoice;
use crate::cli::values::{check_points, parse_bins, parse_matchers, MAX_DEPTH, MAX_K};
use crate::output::progress::thousands;
use crate::output::table::{self, render, Format, Record};
use crate::{emit, flow};
use std::path::PathBuf;
use tagmatch_sim::cycle::baselines::Baseline;
use tagmatch_sim::cycle::bench::Traffic;
use tagmatch_sim::cycle::two_level::EngineShape;
use tagmatch_sim::optimistic::rate::Scenario;
use tagmatch_sim::optimistic::MAX_THREADS;
use tagmatch_sim::MatcherOptions;

/// Runs the benchmark named, after the checks every benchmark shares.
pub fn run(args: BenchArgs) -> Result<(), String> {
    if args.bench != BenchName::Onesided {
        args.onesided.unused()?;
    }
    if args.descriptors.is_some() && args.bench != BenchName::Rate {
        return Err("--descriptors sizes the thread array of bench rate".into());
    }
    if args.no_fast_path && args.bench != BenchName::Rate {
        return Err("--no-fast-path chooses the thread array's build for bench rate".into());
    }
    match args.bench {
        BenchName::Onesided => run_onesided(args),
        BenchName::Throughput => run_throughput(args),
        BenchName::Rate => run_rate(args),
        BenchName::Preposted => run_queue(Bench::Preposted, args),
        BenchName::Unload => run_queue(Bench::Unload, args),
    }
}

/// `bench onesided`: the one-sided unit's overlap with compute.
fn run_onesided(args: BenchArgs) -> Result<(), String> {
    let BenchArgs {
        engine,
        onesided,
        requests,
        bytes,
        compute,
        get,
        latency,
        bandwidth,
        net_queue,
        format,
        plot,
        ..
    } = args;
    if engine == Backend::Software {
        return Err("bench onesided runs the unit's model (--backend model) or RTL (--backend rtl)".into());
    }
    let cfg = onesided.config()?;
    check_points(&[("--requests", requests.len()), ("--bytes", bytes.len()), ("--compute", compute.len())])?;
    let net = tagmatch_sim::onesided::network::NetworkConfig {
        latency,
        bytes_per_cycle: bandwidth,
        queue: net_queue,
    };
    let sweep = bench::onesided::Sweep { requests, bytes, compute, get, net };
    let records = bench::onesided::run(cfg, &sweep, engine == Backend::Rtl)?;
    if let Some(svg) = plot {
        bench::onesided::plot(&records, &svg)?;
    }
    print!("{}", render(&records, format));
    Ok(())
}

/// `bench throughput`: operations per cycle of the two-level engine fed back to back.
fn run_throughput(args: BenchArgs) -> Result<(), String> {
    let BenchArgs {
        engine,
        depths,
        baselines,
        wait,
        traffic,
        lists,
        cam_depth,
        list_capacity,
        format,
        plot,
        ..
    } = args;
    if engine == Backend::Software || !depths.is_empty() || !baselines.is_empty() || wait {
        return Err("throughput runs the hardware engine (--backend model or rtl) with \
                    --lists, --cam-depth, --list-capacity and --traffic"
            .into());
    }
    let traffic = traffic.iter().map(|t| Traffic::parse(t)).collect::<Result<Vec<_>, _>>()?;
    let lists = if lists.is_empty() { vec![1, 4, 64] } else { lists };
    check_points(&[("--lists", lists.len()), ("--traffic", traffic.len())])?;
    let configs = lists
        .iter()
        .map(|&n| emit::engine::configuration(cam_depth, n, list_capacity))
        .collect::<Result<Vec<_>, _>>()?;
    let mut records = bench::throughput::run(&configs, &traffic, engine == Backend::Rtl)?;
    for w in flow::record::annotate(&mut records, list_capacity)? {
        eprintln!("tagmatch: warning: {w}; rerun `tagmatch gen ... --timing --record`");
    }
    bench::throughput::add_rates(&mut records);
    if plot.is_some() {
        return Err("bench throughput draws no plot; its table is the result".into());
    }
    let shown = if format == Format::Table { flow::record::for_table(&records) } else { records };
    print!("{}", render(&shown, format));
    Ok(())
}

/// `bench rate`: its options checked and gathered for [`bench_rate`].
fn run_rate(args: BenchArgs) -> Result<(), String> {
    let BenchArgs {
        engine,
        depths,
        baselines,
        lists,
        cam_depth,
        list_capacity,
        k,
        scenario,
        descriptors,
        no_fast_path,
        threads,
        sequences,
        format,
        plot,
        ..
    } = args;
    if !depths.is_empty() || !baselines.is_empty() || lists.len() > 1 {
        return Err("rate takes --threads, --scenario, --k, --sequences and one \
                    engine configuration (--cam-depth, --lists N, --list-capacity)"
            .into());
    }
    // The model unless the RTL is asked for (rate has no software matchers).
    let rtl = engine == Backend::Rtl;
    let two_level = EngineShape::model_from_list_capacity(
        cam_depth as usize,
        lists.first().copied().unwrap_or(4) as usize,
        list_capacity as usize,
    )?;
    if k > MAX_K {
        return Err(format!(
            "--k {k} is above the limit of {} messages per sequence",
            thousands(MAX_K as u64)
        ));
    }
    let scenarios: Vec<Scenario> = scenario.iter().map(|s| Scenario::parse(s)).collect::<Result<_, _>>()?;
    check_points(&[("--scenario", scenarios.len()), ("--threads", threads.len())])?;
    let tables = descriptors.map(|d| emit::thread_array::Tables::with_descriptors(d, None, None));
    let options = bench::rate::RateOptions {
        threads,
        scenarios,
        k,
        sequences,
        engine: two_level,
        tables,
        rtl,
        fast_path: !no_fast_path,
    };
    bench_rate(options, format, plot)
}

/// `bench preposted|unload`: the depths checked, then through the host driver or on the
/// engine asked for.
fn run_queue(bench: Bench, args: BenchArgs) -> Result<(), String> {
    let (wait, engine, host) = (args.wait, args.engine, args.host);
    if let Some(bad) = args.depths.iter().find(|&&d| d == 0) {
        return Err(format!("bad depth {bad}: depths start at 1"));
    }
    if let Some(bad) = args.depths.iter().find(|&&d| d > MAX_DEPTH) {
        return Err(format!("--depths {bad} is above the limit of {} entries", thousands(MAX_DEPTH as u64)));
    }
    if wait && (engine == Backend::Software || host.is_some()) {
        return Err(
            "--wait parks a wait in the engine's completion unit: --backend model or rtl, without --host"
                .into(),
        );
    }
    if let Some(choice) = host {
        return run_host(bench, choice, args);
    }
    run_engine(bench, args)
}

/// `bench preposted|unload --host fallback`: the host driver over the model or the RTL.
fn run_host(bench: Bench, choice: HostChoice, args: BenchArgs) -> Result<(), String> {
    let BenchArgs { engine, baselines, lists, cam_depth, list_capacity, depths, format, plot, .. } = args;
    if choice != HostChoice::Fallback {
        return Err("bench --host runs fallback mode; split mode is exercised by \
                    `cosim --host split`"
            .into());
    }
    if engine == Backend::Software || !baselines.is_empty() {
        return Err("--host drives the hardware engine (--backend model or rtl), without baselines".into());
    }
    let lists = if lists.is_empty() { vec![4] } else { lists };
    // Without --depths, five depths up to past the engine's capacity (`host_depths`).
    let points_per_list = if depths.is_empty() { 5 } else { depths.len() };
    check_points(&[("--lists", lists.len()), ("--depths", points_per_list)])?;
    let records = match engine {
        Backend::Rtl => {
            let configs = lists
                .iter()
                .map(|&n| emit::engine::configuration(cam_depth, n, list_capacity))
                .collect::<Result<Vec<_>, _>>()?;
            let depths = host_depths(depths, configs[0].queue_capacity() as u32);
            bench::host::run(bench, bench::host::Target::Rtl(&configs), &depths)?
        }
        _ => {
            let configs = lists
                .iter()
                .map(|&n| {
                    EngineShape::model_from_list_capacity(
                        cam_depth as usize,
                        n as usize,
                        list_capacity as usize,
                    )
                })
                .collect::<Result<Vec<_>, _>>()?;
            let depths = host_depths(depths, configs[0].queue_capacity() as u32);
            bench::host::run(bench, bench::host::Target::Model(&configs), &depths)?
        }
    };
    finish_hardware_bench(records, bench, list_capacity, format, plot)
}

/// `bench preposted|unload` on the software matchers, the cycle model (beside its
/// baselines) or the RTL.
fn run_engine(bench: Bench, args: BenchArgs) -> Result<(), String> {
    let BenchArgs {
        engine,
        baselines,
        lists,
        cam_depth,
        list_capacity,
        depths,
        software_cycles,
        matchers,
        bins,
        wait,
        format,
        plot,
        ..
    } = args;
    if engine != Backend::Model && !baselines.is_empty() {
        return Err("--baselines go beside the cycle model (--backend model)".into());
    }
    let records = match engine {
        Backend::Model => {
            let lists = if lists.is_empty() { vec![1, 4, 64] } else { lists };
            let depths = if depths.is_empty() {
                vec![1, 10, 100, 256, 257, 500, 1000, 2000, 5000, 10000, 30000]
            } else {
                depths
            };
            // The baselines are cost models without a completion unit: none by default with --wait.
            let baselines = if wait && baselines.is_empty() { vec!["none".to_string()] } else { baselines };
            let designs = model_designs(&lists, cam_depth, list_capacity, &baselines, software_cycles)?;
            check_points(&[("--depths", depths.len()), ("designs (--lists, --baselines)", designs.len())])?;
            let sweep = bench::model::run(bench, &designs, &depths, wait)?;
            eprintln!(
                "tagmatch: {} points, {} simulated cycles in {:.2} s ({:.0} M cycles/s)",
                sweep.records.len(),
                sweep.simulated_cycles,
                sweep.seconds,
                sweep.simulated_cycles as f64 / sweep.seconds.max(1e-9) / 1e6
            );
            sweep.records
        }
        Backend::Rtl => {
            let lists = if lists.is_empty() { vec![1, 4, 64] } else { lists };
            let depths = if depths.is_empty() { vec![1, 10, 100, 256, 257, 500, 1000, 2000] } else { depths };
            check_points(&[("--lists", lists.len()), ("--depths", depths.len())])?;
            let configs = lists
                .iter()
                .map(|&n| emit::engine::configuration(cam_depth, n, list_capacity))
                .collect::<Result<Vec<_>, _>>()?;
            bench::hardware::run_rtl(bench, &configs, &depths, wait)?
        }
        Backend::Software => {
            if !lists.is_empty() {
                return Err("--lists applies to the hardware engines (--backend model or rtl)".into());
            }
            if plot.is_some() {
                return Err("--plot draws the hardware engines' cycles (--backend model or rtl)".into());
            }
            let depths = if depths.is_empty() { vec![1, 10, 100, 1000, 10000] } else { depths };
            let options = MatcherOptions { bins: parse_bins(&bins)?, ..MatcherOptions::default() };
            let matchers = parse_matchers(&matchers)?;
            check_points(&[("--matchers", matchers.len()), ("--depths", depths.len())])?;
            bench::software::run(bench, &matchers, &depths, &options)?
        }
    };
    if engine == Backend::Software {
        print!("{}", render(&records, format));
        return Ok(());
    }
    finish_hardware_bench(records, bench, list_capacity, format, plot)
}

/// `bench rate`: the thread array's message rate beside the two-level engine's.
fn bench_rate(
    options: bench::rate::RateOptions,
    format: Format,
    plot: Option<PathBuf>,
) -> Result<(), String> {
    if let Some(&bad) = options.threads.iter().find(|&&t| !(1..=MAX_THREADS).contains(&t)) {
        return Err(format!("--threads {bad}: from 1 to {MAX_THREADS} (one booking bit each)"));
    }
    let mut records = bench::rate::run(&options)?;
    for w in bench::rate::annotate(&mut records, options.engine, options.tables(), options.fast_path)? {
        eprintln!("tagmatch: warning: {w}; rerun `tagmatch gen ... --timing --record`");
    }
    if let Some(svg) = plot {
        bench::rate::plot(&records, &svg)?;
    }
    let shown = if format == Format::Table { flow::record::for_table(&records) } else { records };
    print!("{}", render(&shown, format));
    Ok(())
}

/// The model engine's configurations, then the baselines asked for.
fn model_designs(
    lists: &[u32],
    cam_depth: u32,
    list_capacity: u32,
    baselines: &[String],
    software_cycles: u64,
) -> Result<Vec<bench::model::Design>, String> {
    let mut designs = Vec::new();
    for &n in lists {
        let cfg =
            EngineShape::model_from_list_capacity(cam_depth as usize, n as usize, list_capacity as usize)?;
        designs.push(bench::model::Design::TwoLevel(cfg));
    }
    let names: Vec<&str> = if baselines.is_empty() {
        vec!["paper", "alpu", "hash"]
    } else {
        baselines.iter().map(String::as_str).filter(|&b| b != "none").collect()
    };
    for name in names {
        match name {
            "paper" => {
                for &n in lists {
                    designs.push(bench::model::Design::Baseline(Baseline::Paper { lists: n as usize }));
                }
            }
            "alpu" => designs.push(bench::model::Design::Baseline(Baseline::Alpu { software_cycles })),
            "hash" => designs.push(bench::model::Design::Baseline(Baseline::Hash)),
            other => return Err(format!("unknown baseline {other:?}: paper, alpu, hash or none")),
        }
    }
    Ok(designs)
}

/// The host benchmark's depths: the ones asked for, or from one entry to past the
/// engine's capacity.
fn host_depths(asked: Vec<u32>, capacity: u32) -> Vec<u32> {
    if !asked.is_empty() {
        return asked;
    }
    let mut d = vec![1, 1000, 10000, capacity, capacity + capacity / 5];
    d.sort_unstable();
    d.dedup();
    d
}

/// Nanoseconds from the measured clock, the plot and the table of a hardware benchmark.
fn finish_hardware_bench(
    mut records: Vec<Record>,
    bench: Bench,
    list_capacity: u32,
    format: Format,
    plot: Option<PathBuf>,
) -> Result<(), String> {
    for w in flow::record::annotate(&mut records, list_capacity)? {
        eprintln!("tagmatch: warning: {w}; rerun `tagmatch gen ... --timing --record`");
    }
    if let Some(svg) = plot {
        let cam_depth = records.first().map(|r| table::field(r, "cam_depth").clone()).unwrap_or_default();
        let title = format!("{} benchmark, {}-entry CAM", bench.name(), cam_depth);
        bench::hardware::plot(&records, &svg, &title)?;
    }
    let shown = if format == Format::Table { flow::record::for_table(&records) } else { records };
    print!("{}", render(&shown, format));
    Ok(())
}
