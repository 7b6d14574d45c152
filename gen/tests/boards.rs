//! Board targets as a user gets them: for every board with LEDs, `tagmatch gen --board`
//! writes a stand-alone build — the engine under its on-chip self-test, a wrapper that
//! lints in Verilator and synthesizes in yosys, constraints that give every port a pin and
//! name only ports the wrapper has, and a project script that names every emitted file; a
//! board without LEDs is a one-line error pointing to `--shell`. The self-test passes in
//! Verilator and fails when told to expect a wrong handle. `--estimate` reports yosys'
//! figures. An unknown board is a one-line error.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tagmatch_testbench::verilator::{ports_from, BuildSpec, Model};

/// The small engine (8-entry CAM, one list of 256 words): quick to build and synthesize.
const SMALL_ENGINE: &[&str] = &["--cam-depth", "8", "--lists", "1", "--list-capacity", "256"];

fn tagmatch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tagmatch")).args(args).output().expect("tagmatch runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn boards() -> Vec<serde_json::Value> {
    json(&tagmatch(&["boards", "--format", "json"])).as_array().unwrap().clone()
}

/// A small engine (8-entry CAM, one list of 255) with `board`'s files, in a fresh folder of
/// the calling test's own (tests run in parallel and may build the same board).
fn generate(board: &str, test: &str) -> (PathBuf, serde_json::Value) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("board-{board}-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = gen_board(board, &dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let manifest =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    (dir, manifest)
}

fn gen_board(board: &str, dir: &Path) -> Output {
    tagmatch(&[&["gen", "--board", board], SMALL_ENGINE, &["--out", dir.to_str().unwrap()]].concat())
}

fn files(manifest: &serde_json::Value) -> Vec<String> {
    manifest["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect()
}

/// Every port given a pin: `PACKAGE_PIN ... [get_ports X]` (XDC) or
/// `set_location_assignment PIN_... -to X` (Quartus).
fn pinned_ports(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| l.contains("PACKAGE_PIN") || l.starts_with("set_location_assignment"))
        .filter_map(|l| {
            let at = l
                .find("get_ports ")
                .map(|a| a + "get_ports ".len())
                .or_else(|| l.find(" -to ").map(|a| a + 4))?;
            Some(l[at..].trim_end_matches(']').split_whitespace().next()?.trim_end_matches(']').to_string())
        })
        .collect()
}

/// Every name a constraint or script applies to: `get_ports X`, `get_ports {X Y[*]}`, `-to X`.
fn constrained_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let mut rest = line;
        while let Some(at) = rest.find("get_ports ") {
            rest = &rest[at + "get_ports ".len()..];
            let list = if let Some(r) = rest.strip_prefix('{') { &r[..r.find('}').unwrap()] } else { rest };
            let end = if rest.starts_with('{') { list.len() } else { list.find(']').unwrap_or(list.len()) };
            for n in list[..end].split_whitespace() {
                names.insert(n.trim_end_matches("[*]").to_string());
            }
        }
        // Quartus pin and IO assignments: `set_location_assignment PIN_X -to NAME`.
        let quartus =
            line.starts_with("set_location_assignment") || line.starts_with("set_instance_assignment");
        if let (true, Some(at)) = (quartus, line.find(" -to ")) {
            names.insert(line[at + 5..].split_whitespace().next().unwrap().to_string());
        }
    }
    names
}

fn lint(dir: &Path, xilinx: bool) {
    let mut cmd = Command::new("verilator");
    cmd.args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "--top-module", "tagmatch_board_top"]);
    if xilinx {
        cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/xilinx_primitives.v"));
    }
    let out = cmd
        .arg(dir.join("tagmatch_engine.v"))
        .arg(dir.join("tagmatch_selftest.v"))
        .arg(dir.join("tagmatch_board_top.v"))
        .output()
        .unwrap();
    assert!(out.status.success(), "lint {}:\n{}", dir.display(), String::from_utf8_lossy(&out.stderr));
}

/// Synthesizes the wrapper with the engine as a black box (the engine's own synthesis is
/// tested in `hdl/` and by `--estimate`); returns yosys' cell statistics.
fn synthesize_wrapper(dir: &Path, xilinx: bool) -> String {
    let synth = if xilinx {
        "synth_xilinx -family xcup -top tagmatch_board_top"
    } else {
        // yosys has no Stratix or Agilex flow; Cyclone V checks the wrapper maps to ALMs.
        "synth_intel_alm -family cyclonev -top tagmatch_board_top"
    };
    let stat = dir.join("wrapper-stat.txt");
    let out = Command::new("yosys")
        .arg("-q")
        .arg("-p")
        .arg(format!(
            "read_verilog {} {} {}; blackbox top; {synth}; check -assert; tee -q -o {} stat",
            dir.join("tagmatch_engine.v").display(),
            dir.join("tagmatch_selftest.v").display(),
            dir.join("tagmatch_board_top.v").display(),
            stat.display()
        ))
        .output()
        .expect("yosys is installed (scripts/setup.sh)");
    assert!(out.status.success(), "yosys {}:\n{}", dir.display(), String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(stat).unwrap()
}

#[test]
fn boards_lists_the_four_required_targets() {
    let b = boards();
    let has = |pred: &dyn Fn(&serde_json::Value) -> bool| b.iter().any(pred);
    assert!(has(&|r| r["part"].as_str().unwrap().starts_with("5SGSMD8") && r["interface"] == "Avalon-ST"));
    assert!(has(&|r| r["family"] == "Agilex 7" || r["family"] == "Stratix 10"));
    assert!(has(&|r| r["part"].as_str().unwrap().starts_with("xcu250") && r["interface"] == "AXI4-Stream"));
    assert!(has(&|r| r["part"].as_str().unwrap().starts_with("xcvu9p")));
    assert!(b.iter().all(|r| r["engine_mhz"].as_f64().unwrap() > 0.0 && r["clock_pin"].is_string()));
}

#[test]
fn every_board_gets_a_wrapper_constraints_and_a_script_that_fit_together() {
    let mut built = 0;
    for board in boards() {
        let name = board["board"].as_str().unwrap();
        let xilinx = board["vendor"] == "xilinx";
        if board["leds"] == 0 {
            let out = gen_board(name, &PathBuf::from("/tmp/never"));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success() && err.trim_end().lines().count() == 1, "{name}: {err}");
            assert!(err.contains("lists no LEDs") && err.contains("--shell"), "{name}: {err}");
            continue;
        }
        built += 1;
        let (dir, manifest) = generate(name, "files");
        assert_eq!(manifest["top"], "tagmatch_board_top", "{name}");
        assert_eq!(manifest["board"]["name"], name);
        let files = files(&manifest);
        for f in &files {
            assert!(dir.join(f).is_file(), "{name}: {f} listed but not written");
        }
        let wrapper = std::fs::read_to_string(dir.join("tagmatch_board_top.v")).unwrap();
        let ports = support::module_ports(&wrapper, "tagmatch_board_top");
        let clock = manifest["clock"].as_str().unwrap();
        assert!(ports.contains(clock), "{name}: clock {clock} is not a wrapper port: {ports:?}");
        assert!(ports.contains("led_pass"), "{name}: {ports:?}");
        assert!(
            !ports.iter().any(|p| p.contains("cmd") || p.contains("resp")),
            "{name}: stream ports {ports:?}"
        );

        let (constraints, script) = if xilinx {
            ("tagmatch_board.xdc", "build_vivado.tcl")
        } else {
            ("tagmatch_board.sdc", "build_quartus.tcl")
        };
        let constraint_text = std::fs::read_to_string(dir.join(constraints)).unwrap();
        let script_text = std::fs::read_to_string(dir.join(script)).unwrap();
        assert!(constraint_text.contains("create_clock") && constraint_text.contains(clock), "{name}");
        for text in [&constraint_text, &script_text] {
            for n in constrained_names(text) {
                assert!(ports.contains(&n), "{name}: constraint on {n}, which the wrapper does not have");
            }
        }
        assert!(constrained_names(&constraint_text).contains(clock));
        // No unplaced ports: every wrapper port has a pin (Quartus finds a differential
        // clock's N side itself), and no DRC is lowered to let one through.
        let pinned = pinned_ports(if xilinx { &constraint_text } else { &script_text });
        for p in &ports {
            let n_side = !xilinx && board["clock_io"].as_str().unwrap().contains("DIFFERENTIAL");
            assert!(
                pinned.contains(p) || (n_side && p.ends_with("_n")),
                "{name}: port {p} has no pin: {pinned:?}"
            );
        }
        assert!(!script_text.contains("UCIO") && !script_text.contains("NSTD"), "{name}: DRCs lowered");
        // The only untimed input is the asynchronous reset button (synchronised inside).
        let reset = board["reset"].as_str().unwrap();
        for line in constraint_text.lines().filter(|l| l.starts_with("set_false_path -from")) {
            assert_eq!(line, format!("set_false_path -from [get_ports {reset}]"), "{name}: an untimed input");
        }
        for f in files.iter().filter(|f| **f != script) {
            assert!(script_text.contains(f.as_str()), "{name}: {script} does not name {f}");
        }
        assert!(script_text.contains(board["part"].as_str().unwrap()), "{name}: no part in {script}");

        lint(&dir, xilinx);
        let stat = synthesize_wrapper(&dir, xilinx);
        assert!(stat.contains(" top "), "{name}: the engine instance is missing:\n{stat}");
        if xilinx {
            assert!(
                stat.contains("IBUFDS") || stat.contains("IBUF"),
                "{name}: no clock input buffer:\n{stat}"
            );
        }
    }
    assert!(built > 0, "no board has LEDs: nothing tested the stand-alone build");
}

/// The self-test of a board build runs in Verilator: rounds complete and pass; told to
/// expect a wrong message handle, it fails.
#[test]
fn the_board_self_test_passes_and_catches_a_wrong_answer() {
    let board = boards().into_iter().find(|b| b["leds"] != 0).expect("a board with LEDs");
    let (dir, manifest) = generate(board["board"].as_str().unwrap(), "self-test");
    let pairs = manifest["board"]["self_test_pairs"].as_u64().unwrap();
    assert!(pairs > 8, "the round must reach the lists past the 8-entry CAM: {pairs}");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let spec = BuildSpec {
        name: "board-selftest".into(),
        verilog: format!("{}\n{}", read("tagmatch_engine.v"), read("tagmatch_selftest.v")),
        top: "tagmatch_selftest".into(),
        clock: "clock".into(),
        ports: ports_from(&[
            ("clock", 1, true),
            ("reset", 1, true),
            ("corrupt", 1, true),
            ("pass", 1, false),
            ("fail", 1, false),
            ("rounds", 16, false),
        ]),
        trace: false,
    };
    let (mut m, _) = Model::build(&spec).unwrap();
    let p = |m: &Model, n: &str| m.port(n).unwrap();
    let (reset, corrupt, pass, fail, rounds) =
        (p(&m, "reset"), p(&m, "corrupt"), p(&m, "pass"), p(&m, "fail"), p(&m, "rounds"));
    let run = |m: &mut Model, corrupted: bool, want_rounds: u64| {
        m.set(corrupt, corrupted as u64);
        m.set(reset, 1);
        m.tick(3);
        m.set(reset, 0);
        // A round is 2 × pairs commands and a flush, each well under 40 cycles.
        let budget = want_rounds * (2 * pairs + 1) * 40;
        let start = m.cycles();
        while m.get(rounds) < want_rounds && m.cycles() - start < budget {
            m.tick(1);
        }
        assert!(m.get(rounds) >= want_rounds, "{} rounds in {budget} cycles", m.get(rounds));
    };
    run(&mut m, false, 5);
    assert_eq!((m.get(pass), m.get(fail)), (1, 0), "five clean rounds pass");
    run(&mut m, true, 1);
    assert_eq!((m.get(pass), m.get(fail)), (0, 1), "a wrong expected handle fails");
}

#[test]
fn an_unknown_board_is_a_one_line_error_naming_the_known_ones() {
    let out = tagmatch(&["gen", "--board", "de10-nano", "--out", "/tmp/never"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("unknown board 'de10-nano'") && err.contains("vcu118"), "{err}");
}

#[test]
fn estimate_reports_yosys_figures_in_the_manifest_and_a_table() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("estimate");
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let recs = json(&tagmatch(
        &[&["gen"], SMALL_ENGINE, &["--estimate", "--format", "json", "--out", out]].concat(),
    ));
    let recs = recs.as_array().unwrap();
    assert_eq!(recs.len(), 2, "a Xilinx and an Intel estimate");
    for r in recs {
        for key in ["luts", "flip_flops", "logic_levels"] {
            assert!(r[key].as_u64().unwrap() > 0, "{key}: {r}");
        }
    }
    // The lists' nodes live in block RAM, not in flip-flops.
    assert!(recs[0]["block_rams"].as_u64().unwrap() > 0, "{}", recs[0]);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["estimates"].as_array().unwrap().len(), 2);
    assert_eq!(manifest["estimates"][0]["luts"], recs[0]["luts"]);
    // 2 queues x 256 words (node 0 unused) x (130 payload bits + 8-bit next + 8-bit free
    // stack); the CAMs are registers, not memories.
    assert_eq!(manifest["estimates"][0]["memory_bits"], 2 * 256 * (130 + 8 + 8));
}
