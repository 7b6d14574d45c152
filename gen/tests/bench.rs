//! `tagmatch bench` as a user runs it: every backend, the host driver, throughput, the
//! message rate, and nanoseconds at recorded clocks.

mod run;
use run::*;
use std::path::PathBuf;

#[test]
fn software_bench_json_records_are_flat() {
    let recs = json(&tagmatch(&[
        "bench",
        "unload",
        "--depths",
        "1,50",
        "--matchers",
        "linked-list",
        "--format",
        "json",
    ]));
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[1]["bench"], "unload");
    assert_eq!(recs[1]["design"], "linked-list");
    assert_eq!(recs[1]["inspected"], 50 * 51 / 2);
}

/// Past the engine's capacity the benchmarks run through the host driver: the receives
/// that do not fit wait in software and are matched there.
#[test]
fn bench_through_the_host_driver_runs_past_the_engine() {
    // `--engine` still names the backend (the option's old name, an alias for one release).
    let args = ["bench", "unload", "--engine", "model", "--host", "fallback", "--cam-depth", "8"];
    let mut args = args.to_vec();
    args.extend(["--lists", "4", "--list-capacity", "256", "--depths", "100,260,400", "--format", "json"]);
    let recs = json(&tagmatch(&args));
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[1]["queue_capacity"], 260);
    assert_eq!((recs[1]["fallbacks"].as_u64(), recs[1]["hw_share"].as_f64()), (Some(0), Some(1.0)));
    assert_eq!(recs[2]["fallbacks"], 140, "{}", recs[2]);
    assert!(recs[2]["cycles"].as_u64() > recs[1]["cycles"].as_u64());
    let e = one_line_error(&tagmatch(&["bench", "unload", "--host", "fallback"]));
    assert!(e.contains("--backend model or rtl"), "{e}");
}

#[test]
fn rtl_bench_records_cycles_per_depth_and_plots_them() {
    let dir = std::env::temp_dir().join(format!("tagmatch-rtl-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("preposted.svg");
    // The small engine, one list, at depths inside and past its 8-entry CAM.
    let small = |engine: &'static str| {
        let mut args = vec!["bench", "preposted", "--backend", engine, "--cam-depth", "8", "--list-capacity"];
        args.extend(["256", "--lists", "1", "--depths", "1,8,100,200", "--format", "json"]);
        args
    };
    let mut rtl = small("rtl");
    rtl.extend(["--plot", svg.to_str().unwrap()]);
    // With a recorded Fmax of 100 MHz for this configuration, every cycle is 10 ns.
    let record = record_file(&dir, "1", 100.0, false);
    let recs = json(&tagmatch_env(&rtl, &[("TAGMATCH_TIMING_RECORD", record.to_str().unwrap())]));
    let cycles: Vec<u64> = recs.iter().map(|r| r["cycles"].as_u64().unwrap()).collect();
    assert!(recs.iter().all(|r| r["ns"].as_f64() == Some(r["cycles"].as_f64().unwrap() * 10.0)), "{recs:?}");
    assert_eq!(&cycles[..2], &[4, 4], "CAM hits");
    assert_eq!(cycles[3] - cycles[2], 100, "one cycle per list element");
    assert!(recs.iter().all(|r| r["engine"] == "rtl" && r["design"] == "two-level" && r["lists"] == 1));
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("two-level, 1 list (rtl)"), "{plot}");
    std::fs::remove_dir_all(&dir).ok();

    // The cycle model gives the RTL's figures for the same configuration and depths.
    let mut model = small("model");
    model.extend(["--baselines", "none"]);
    let model = json(&tagmatch(&model));
    let modelled: Vec<u64> = model.iter().map(|r| r["cycles"].as_u64().unwrap()).collect();
    assert_eq!(modelled, cycles);

    let e = one_line_error(&tagmatch(&[
        "bench",
        "unload",
        "--backend",
        "rtl",
        "--cam-depth",
        "8",
        "--list-capacity",
        "256",
        "--lists",
        "64",
        "--depths",
        "300",
    ]));
    assert!(e.contains("exceeds the 200 entries"), "{e}");
}

#[test]
fn model_bench_sweeps_deep_queues_beside_the_baselines() {
    let dir = std::env::temp_dir().join(format!("tagmatch-model-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("unload.svg");
    let out = tagmatch(&[
        "bench",
        "unload",
        "--backend",
        "model",
        "--depths",
        "10,1000,30000",
        "--format",
        "json",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let recs = json(&out);
    // Lists 1, 4, 64 of the engine, the paper's design with each, the ALPU and the hash.
    assert_eq!(recs.len(), 8 * 3);
    let find = |design: &str, lists: u64, depth: u64| {
        recs.iter()
            .find(|r| r["design"] == design && r["lists"] == lists && r["depth"] == depth)
            .unwrap_or_else(|| panic!("no record for {design} {lists} {depth}"))
    };
    for r in &recs {
        let kind = if r["design"] == "two-level" { "cycle-accurate" } else { "cost model" };
        assert_eq!(r["kind"], kind, "{r}");
        assert_eq!(r["engine"], "model");
        assert!(r["simulated_cycles"].as_u64().unwrap() >= r["cycles"].as_u64().unwrap());
    }
    // Within the CAM the pipelined engine takes 5 cycles an operation (4 to answer, 1 to
    // acknowledge), the baselines' single-cycle associative units 3.
    assert_eq!(find("two-level", 4, 10)["cycles"], 49);
    assert_eq!(find("alpu-256", 1, 10)["cycles"], 29);
    // The figure at 1,000 (the cycle model, equal to the RTL in co-simulation) and deep queues.
    assert_eq!(find("two-level", 4, 1000)["cycles"], 79_027);
    let deep = |design, lists| find(design, lists, 30_000)["cycles"].as_u64().unwrap();
    assert!(deep("two-level", 1) > 50 * deep("two-level", 64), "64 lists walk about 1/64 as far");
    assert!(deep("two-level", 64) < deep("paper-two-level", 64), "one cycle per element, not three");
    assert!(deep("paper-two-level", 1) < deep("alpu-256", 1), "hardware lists beat the software walk");
    let plot = std::fs::read_to_string(&svg).unwrap();
    for name in [
        "two-level, 64 lists (model)",
        "FPL 2018 two-level, 4 lists (cost model)",
        "ALPU-like",
        "hash by source",
    ] {
        assert!(plot.contains(name), "{name} missing from the plot");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("simulated cycles in"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rate_bench_reports_matches_per_cycle_beside_the_two_level_engine() {
    let dir = std::env::temp_dir().join(format!("tagmatch-rate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("rate.svg");
    let out = tagmatch(&[
        "bench",
        "rate",
        "--threads",
        "1,4,16",
        "--sequences",
        "20",
        "--format",
        "json",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains('\r') && !stderr.contains("bench rate ["),
        "no progress bar off a terminal: {stderr}"
    );
    let recs = json(&out);
    assert_eq!(recs.len(), 3 * (3 + 1), "three scenarios, three thread counts and the engine");
    let rate = |design: &str, scenario: &str, threads: u64| {
        recs.iter()
            .find(|r| r["design"] == design && r["scenario"] == scenario && r["threads"] == threads)
            .unwrap_or_else(|| panic!("no {design} {scenario} {threads}"))["matches_per_cycle"]
            .as_f64()
            .unwrap()
    };
    assert!(recs.iter().all(|r| r["matches"] == 2000), "every message of 20 sequences of 100 matched");
    // Matches per µs only at a measured clock (the records in constraints/timing/).
    for r in &recs {
        match r["fmax_mhz"].as_f64() {
            Some(mhz) => {
                let per_us = r["matches_per_us"].as_f64().unwrap_or(f64::NAN);
                let want = r["matches_per_cycle"].as_f64().unwrap() * mhz;
                assert!((per_us - want).abs() < 0.006, "{r}");
            }
            None => assert!(r["matches_per_us"].is_null(), "{r}"),
        }
    }
    // The banked tail unlinks a block's receives together: 16 lanes at 80 % of linear.
    assert!(rate("optimistic", "nc", 16) > 0.8 * 16.0 * rate("optimistic", "nc", 1));
    assert!(rate("optimistic", "nc", 16) > rate("two-level", "nc", 1));
    assert!(rate("optimistic", "wc-fp", 16) > 2.0 * rate("optimistic", "wc-sp", 16));
    let slow = recs.iter().find(|r| r["scenario"] == "wc-sp" && r["threads"] == 16).unwrap();
    assert!(slow["slow_path"].as_u64().unwrap() > 0 && slow["fast_path"] == 0, "{slow}");
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.contains("optimistic, wc-fp") && plot.contains("two-level engine, nc"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `bench rate --descriptors` runs the thread array with the tables `gen` builds for that
/// count, and reads the clock recorded for that very configuration.
#[test]
fn rate_bench_runs_the_small_tables_at_their_recorded_clock() {
    let dir = std::env::temp_dir().join(format!("tagmatch-rate-small-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let manifest =
        generate(&dir.join("array"), &["--engine", "optimistic", "--threads", "4", "--descriptors", "32"]);
    assert_eq!(manifest["parameters"]["bins"], 4, "{manifest}");
    let record = dir.join("timing.json");
    let file = serde_json::json!({"records": [{
        "design": "optimistic",
        "parameters": manifest["parameters"],
        "fmax_mhz": 40.0,
        "device": "LFE5U-85F-8 (CABGA756)",
        "verilog_hash": manifest["hash"],
        "date": "2026-01-01",
    }]});
    std::fs::write(&record, file.to_string()).unwrap();
    let args = ["bench", "rate", "--threads", "4", "--scenario", "nc", "--descriptors", "32", "--k", "32"];
    let out = tagmatch_env(
        &[&args[..], &["--sequences", "10", "--format", "json"]].concat(),
        &[("TAGMATCH_TIMING_RECORD", record.to_str().unwrap())],
    );
    let recs = json(&out);
    let array = recs.iter().find(|r| r["design"] == "optimistic" && r["threads"] == 4).unwrap();
    assert_eq!(array["matches"], 320, "{array}");
    assert_eq!(array["fmax_mhz"], 40.0, "{array}");
    let per_cycle = array["matches_per_cycle"].as_f64().unwrap();
    assert!((array["matches_per_us"].as_f64().unwrap() - per_cycle * 40.0).abs() < 0.006, "{array}");
    // The default tables are another configuration: no clock for them in this file.
    let default = json(&tagmatch_env(
        &["bench", "rate", "--threads", "4", "--scenario", "nc", "--sequences", "2", "--format", "json"],
        &[("TAGMATCH_TIMING_RECORD", record.to_str().unwrap())],
    ));
    assert!(default.iter().all(|r| r["fmax_mhz"].is_null()), "{default:?}");
    // A sequence longer than the table, or the option on another benchmark: one-line errors.
    let e = one_line_error(&tagmatch(&args[..args.len() - 2]));
    assert!(e.contains("--k 100") && e.contains("holds 32 receives"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "preposted", "--descriptors", "32"]));
    assert!(e.contains("--descriptors") && e.contains("bench rate"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `bench rate --no-fast-path` runs nc on the array built without the fast path: the same
/// cycles, at that build's recorded clock; wc-fp and other benchmarks refuse it.
#[test]
fn rate_bench_runs_nc_on_the_build_without_the_fast_path() {
    let dir = std::env::temp_dir().join(format!("tagmatch-rate-nofp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shape = ["--engine", "optimistic", "--threads", "4", "--descriptors", "32"];
    let with = generate(&dir.join("with"), &shape);
    let without = generate(&dir.join("without"), &[&shape[..], &["--no-fast-path"]].concat());
    let entry = |m: &serde_json::Value, mhz: f64| {
        serde_json::json!({"design": "optimistic", "parameters": m["parameters"], "fmax_mhz": mhz,
            "device": "LFE5U-85F-8 (CABGA756)", "verilog_hash": m["hash"], "date": "2026-01-01"})
    };
    let record = dir.join("timing.json");
    let file = serde_json::json!({"records": [entry(&with, 40.0), entry(&without, 60.0)]});
    std::fs::write(&record, file.to_string()).unwrap();
    let args = ["bench", "rate", "--threads", "4", "--scenario", "nc", "--descriptors", "32", "--k", "32"];
    let run = |extra: &[&str]| {
        let all = [&args[..], &["--sequences", "10", "--format", "json"], extra].concat();
        let recs = json(&tagmatch_env(&all, &[("TAGMATCH_TIMING_RECORD", record.to_str().unwrap())]));
        recs.into_iter().find(|r| r["design"] == "optimistic").unwrap()
    };
    let (fp, nofp) = (run(&[]), run(&["--no-fast-path"]));
    assert_eq!((fp["fmax_mhz"].as_f64(), nofp["fmax_mhz"].as_f64()), (Some(40.0), Some(60.0)));
    assert_eq!(fp["cycles"], nofp["cycles"], "nc takes the same cycles on both builds");
    assert_eq!(
        (&fp["fast_path_build"], &nofp["fast_path_build"]),
        (&serde_json::json!(true), &serde_json::json!(false))
    );
    // The default scenarios include wc-fp: refused before anything runs.
    let e = one_line_error(&tagmatch(&["bench", "rate", "--no-fast-path"]));
    assert!(e.contains("wc-fp") && e.contains("--scenario nc,wc-sp"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "preposted", "--no-fast-path"]));
    assert!(e.contains("--no-fast-path") && e.contains("bench rate"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A timing record file holding one measurement of the small engine with `lists` lists,
/// as `gen --timing --record` writes it; `stale` records another design's hash.
fn record_file(dir: &std::path::Path, lists: &str, fmax_mhz: f64, stale: bool) -> PathBuf {
    let generated = dir.join(format!("engine-{lists}"));
    let manifest = generate(&generated, &["--cam-depth", "8", "--lists", lists, "--list-capacity", "256"]);
    let hash = if stale { "0123456789abcdef".into() } else { manifest["hash"].clone() };
    let file = serde_json::json!({"records": [{
        "design": "two-level",
        "parameters": manifest["parameters"],
        "fmax_mhz": fmax_mhz,
        "device": "LFE5U-85F-8 (CABGA756)",
        "verilog_hash": hash,
        "date": "2026-01-01",
    }]});
    let path = dir.join(format!("timing-{lists}{}.json", if stale { "-stale" } else { "" }));
    std::fs::write(&path, file.to_string()).unwrap();
    path
}

/// Benchmarks turn cycles into ns with the recorded Fmax of the configuration, and only
/// that: an unmeasured configuration has `ns` null ("not measured" in tables); the FPL 2018
/// design runs at its published clocks.
#[test]
fn bench_records_carry_ns_at_the_recorded_fmax() {
    let dir = std::env::temp_dir().join(format!("tagmatch-ns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = record_file(&dir, "4", 50.0, false);
    let env = [("TAGMATCH_TIMING_RECORD", record.to_str().unwrap())];
    let small = ["bench", "preposted", "--backend", "model", "--cam-depth", "8", "--list-capacity", "256"];
    let args =
        [&small[..], &["--lists", "1,4", "--depths", "1,100", "--baselines", "none", "--format", "json"]]
            .concat();
    let out = tagmatch_env(&args, &env);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("older design"));
    let recs = json(&out);
    assert_eq!(recs.len(), 4);
    for r in &recs {
        let cycles = r["cycles"].as_f64().unwrap();
        if r["lists"] == 4 {
            assert_eq!(r["ns"].as_f64().unwrap(), cycles * 1000.0 / 50.0, "{r}");
            assert_eq!(
                (r["fmax_mhz"].as_f64(), r["device"].as_str()),
                (Some(50.0), Some("LFE5U-85F-8 (CABGA756)"))
            );
        } else {
            assert!(
                r["ns"].is_null() && r["fmax_mhz"].is_null() && r["device"].is_null(),
                "never measured: {r}"
            );
        }
    }
    let table = tagmatch_env(&[&args[..args.len() - 2], &["--format", "table"]].concat(), &env);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.lines().next().unwrap().contains("ns") && text.contains("not measured"), "{text}");

    // A record measured on Verilog the generator no longer emits: used, with a warning.
    let stale = record_file(&dir, "4", 50.0, true);
    let out = tagmatch_env(&args, &[("TAGMATCH_TIMING_RECORD", stale.to_str().unwrap())]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("Fmax measured for an older design"));
    assert!(json(&out).iter().any(|r| r["ns"].is_number()));

    // The FPL 2018 design's cost model at 234 MHz for 4 lists; no clock for 16 lists.
    let paper = json(&tagmatch_env(
        &[
            "bench",
            "preposted",
            "--backend",
            "model",
            "--lists",
            "4,16",
            "--depths",
            "300",
            "--baselines",
            "paper",
            "--format",
            "json",
        ],
        &env,
    ));
    let find = |design: &str, lists: u64| {
        paper.iter().find(|r| r["design"] == design && r["lists"] == lists).unwrap()
    };
    let p4 = find("paper-two-level", 4);
    assert_eq!(
        p4["ns"].as_f64().unwrap(),
        (p4["cycles"].as_f64().unwrap() * 1000.0 / 234.0 * 100.0).round() / 100.0
    );
    assert_eq!(p4["device"], "Stratix V 5SGSMD8 (published)");
    assert!(find("paper-two-level", 16)["ns"].is_null());
    assert!(find("two-level", 4)["ns"].is_null(), "the 256-entry CAM engine is not in this record file");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--wait`: a completion wait parked before the measured deliveries answers one cycle
/// after the last match, on the model and the RTL alike.
#[test]
fn bench_wait_measures_to_the_completion_units_answer() {
    let run = |engine: &str| {
        let mut args = vec!["bench", "unload", "--backend", engine, "--wait", "--cam-depth", "8"];
        args.extend(["--lists", "4", "--list-capacity", "256", "--depths", "1,100", "--format", "json"]);
        json(&tagmatch(&args))
    };
    let (model, rtl) = (run("model"), run("rtl"));
    for (m, r) in model.iter().zip(&rtl) {
        assert_eq!(m["wait_cycles"].as_u64(), m["cycles"].as_u64().map(|c| c + 1), "{m}");
        assert_eq!(
            (m["cycles"].clone(), m["wait_cycles"].clone()),
            (r["cycles"].clone(), r["wait_cycles"].clone())
        );
    }
    let e = one_line_error(&tagmatch(&["bench", "unload", "--wait"]));
    assert!(e.contains("--backend model or rtl"), "{e}");
}

/// `bench throughput` streams commands back to back: 3 cycles an operation from the CAM on
/// the model and the RTL alike, the data mover's hits slower, ns and operations per µs at
/// the recorded Fmax; bad traffic and options are one-line errors.
#[test]
fn throughput_bench_streams_commands_on_model_and_rtl() {
    let dir = std::env::temp_dir().join(format!("tagmatch-throughput-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = record_file(&dir, "4", 100.0, false);
    let env = [("TAGMATCH_TIMING_RECORD", record.to_str().unwrap())];
    let small = ["--cam-depth", "8", "--lists", "4", "--list-capacity", "256", "--format", "json"];
    let run = |engine: &str| {
        json(&tagmatch_env(&[&["bench", "throughput", "--backend", engine], &small[..]].concat(), &env))
    };
    let (model, rtl) = (run("model"), run("rtl"));
    assert_eq!(model.len(), 3);
    for (m, r) in model.iter().zip(&rtl) {
        assert_eq!(
            (&m["traffic"], &m["cycles"], &m["max_latency"]),
            (&r["traffic"], &r["cycles"], &r["max_latency"])
        );
    }
    let of = |traffic: &str| model.iter().find(|r| r["traffic"] == traffic).unwrap();
    assert_eq!(of("cam-hits")["cycles"], 3.0);
    assert_eq!(of("unexpected")["cycles"], 3.0);
    assert_eq!(of("mover-hits")["cycles"], 10.29, "a bank's worth of moves each time a bank empties");
    assert_eq!(of("cam-hits")["ns"], 30.0);
    assert_eq!(of("cam-hits")["ops_per_us"], 33.33);
    let e = one_line_error(&tagmatch(&["bench", "throughput", "--backend", "model", "--traffic", "bursty"]));
    assert!(e.contains("unknown traffic 'bursty'") && e.contains("mover-hits"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "throughput", "--depths", "10"]));
    assert!(e.contains("--backend model or rtl"), "{e}");
    let cam = dir.join("cam");
    let e = one_line_error(&tagmatch(&[
        "gen",
        "--engine",
        "cam",
        "--cam-depth",
        "5000",
        "--out",
        cam.to_str().unwrap(),
    ]));
    assert!(e.contains("--cam-depth 5000: the CAM holds 2 to 4,096 entries"), "{e}");
    let e = one_line_error(&tagmatch(&[
        "gen",
        "--engine",
        "cam",
        "--lists",
        "8",
        "--out",
        cam.to_str().unwrap(),
    ]));
    assert!(e.contains("--cam-depth only"), "{e}");
    assert_eq!(generate(&cam, &["--engine", "cam", "--cam-depth", "16"])["engine"], "cam");
    std::fs::remove_dir_all(&dir).ok();
}
