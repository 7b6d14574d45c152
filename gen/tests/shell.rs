//! The IP core as a user gets it: `tagmatch gen --shell xilinx|intel` writes a shell that
//! lints with `-Wall`, scripts that name only files and ports that exist, and a shell
//! that Verilator runs against the golden model: random operations streamed through the
//! 128-bit words while the host takes responses in 60 % of cycles, every response echoing
//! its command's id, nothing taken or answered during reset (the host holds valid low, as
//! AXI4-Stream and Avalon-ST require), and the queues empty after it.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use tagmatch_sim::model::bounded::BoundedGolden;
use tagmatch_sim::workload::streams::{random_stream, Rng};
use tagmatch_sim::Op;
use tagmatch_testbench::two_level::engine::{Command as EngineCommand, Response};
use tagmatch_testbench::verilator::{ports_from, BuildSpec, Model, PortId};

/// The small engine: a 4-entry CAM and 4 lists of 3, which random streams overflow.
const ENGINE: &[&str] = &["--cam-depth", "4", "--lists", "4", "--list-capacity", "16"];
const CAPACITY: usize = 4 + 4 * 3;

/// What the engine owes each operation: the golden pairing, with the overflows the cycle
/// model says the CAM's banks cause between the guaranteed capacity and `CAPACITY`.
struct Oracle {
    golden: BoundedGolden,
    model: tagmatch_sim::cycle::two_level::TwoLevelModel,
    guaranteed: usize,
}

impl Oracle {
    fn new() -> Self {
        use tagmatch_sim::cycle::two_level::{EngineShape, TwoLevelModel};
        let cfg = EngineShape::new(4, 4, 2).unwrap();
        assert_eq!(cfg.queue_capacity(), CAPACITY);
        Oracle {
            golden: BoundedGolden::new(CAPACITY, CAPACITY),
            model: TwoLevelModel::with_config(cfg),
            guaranteed: cfg.guaranteed_capacity(),
        }
    }

    fn apply(&mut self, op: &Op) -> tagmatch_sim::Outcome {
        use tagmatch_sim::cycle::CycleEngine;
        let modelled = self.model.apply(op).unwrap().outcome;
        let want = self.golden.expect(op, &modelled, self.guaranteed);
        assert_eq!(modelled, want, "{op}: the cycle model and the golden model differ");
        want
    }
}

/// The shell for `vendor` around the small engine, in a folder of the calling test's own:
/// the tests run in parallel and each regenerates its folder from scratch.
fn generate(vendor: &str, test: &str) -> (PathBuf, serde_json::Value) {
    generate_with(vendor, &[], test)
}

/// The shell for `vendor` around the small engine with `extra` options, in a folder named
/// for `test`.
fn generate_with(vendor: &str, extra: &[&str], test: &str) -> (PathBuf, serde_json::Value) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("shell-{vendor}-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_tagmatch"))
        .args([&["gen", "--shell", vendor], ENGINE, extra, &["--out", dir.to_str().unwrap()]].concat())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let manifest =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    (dir, manifest)
}

/// The shell in `dir` with its engine lints with `-Wall`.
fn lint(dir: &Path, vendor: &str) {
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "--top-module", "tagmatch_shell"])
        .arg(dir.join("tagmatch_engine.v"))
        .arg(dir.join("tagmatch_shell.v"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{vendor}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A field of the layout the shell's header documents (`[hi:lo] name:`): lowest bit, width.
fn field(shell: &str, name: &str, after: &str) -> (u32, u32) {
    let text = &shell[shell.find(after).unwrap()..];
    let line =
        text.lines().find(|l| l.contains(&format!("] {name}:"))).unwrap_or_else(|| panic!("no field {name}"));
    let range = &line[line.find('[').unwrap() + 1..line.find(']').unwrap()];
    match range.split_once(':') {
        Some((hi, lo)) => (lo.parse().unwrap(), hi.parse::<u32>().unwrap() - lo.parse::<u32>().unwrap() + 1),
        None => (range.parse().unwrap(), 1),
    }
}

struct Words {
    command: Vec<(String, u32, u32)>,
    response: Vec<(String, u32, u32)>,
}

impl Words {
    fn of(shell: &str) -> Words {
        let cmd = ["op", "src_any", "tag_any", "id", "comm", "src", "tag", "handle"];
        let resp = ["kind", "id", "src", "tag", "recv", "msg"];
        let get = |names: &[&str], after: &str| {
            names
                .iter()
                .map(|n| {
                    let (lo, w) = field(shell, n, after);
                    (n.to_string(), lo, w)
                })
                .collect::<Vec<_>>()
        };
        Words { command: get(&cmd, "//   command"), response: get(&resp, "//   response") }
    }

    fn pack(&self, c: &EngineCommand, id: u8) -> u128 {
        let value = |n: &str| match n {
            "op" => c.code,
            "src_any" => c.src_any as u64,
            "tag_any" => c.tag_any as u64,
            "id" => id as u64,
            "comm" => c.comm,
            "src" => c.src,
            "tag" => c.tag,
            "handle" => c.handle,
            _ => unreachable!(),
        };
        self.command.iter().fold(0u128, |w, (n, lo, width)| {
            assert!(value(n) < 1 << width, "{n} does not fit");
            w | (value(n) as u128) << lo
        })
    }

    fn unpack(&self, word: u128, name: &str) -> u64 {
        let (_, lo, w) = self.response.iter().find(|(n, _, _)| n == name).unwrap();
        ((word >> lo) & ((1u128 << w) - 1)) as u64
    }
}

struct Harness {
    model: Model,
    words: Words,
    resetn: PortId,
    cmd_valid: PortId,
    cmd_ready: PortId,
    cmd: [PortId; 2],
    resp_valid: PortId,
    resp_ready: PortId,
    resp: [PortId; 2],
}

/// Builds the shell in Verilator behind a harness that splits the 128-bit words into the
/// binding's 64-bit ports.
fn build(dir: &Path, xilinx: bool) -> Harness {
    let shell = std::fs::read_to_string(dir.join("tagmatch_shell.v")).unwrap();
    let engine = std::fs::read_to_string(dir.join("tagmatch_engine.v")).unwrap();
    let (clk, rst, s_valid, s_ready, s_data, m_valid, m_ready, m_data) = if xilinx {
        (
            "aclk",
            "aresetn(resetn)",
            "s_axis_cmd_tvalid",
            "s_axis_cmd_tready",
            "s_axis_cmd_tdata",
            "m_axis_resp_tvalid",
            "m_axis_resp_tready",
            "m_axis_resp_tdata",
        )
    } else {
        (
            "clk",
            "reset(~resetn)",
            "asi_cmd_valid",
            "asi_cmd_ready",
            "asi_cmd_data",
            "aso_resp_valid",
            "aso_resp_ready",
            "aso_resp_data",
        )
    };
    let harness = format!(
        "module harness(input clock, input resetn, input cmd_valid, output cmd_ready, input [63:0] cmd_lo,\n\
         input [63:0] cmd_hi, output resp_valid, input resp_ready, output [63:0] resp_lo, output [63:0] resp_hi);\n\
         wire [127:0] resp;\n\
         tagmatch_shell shell(.{clk}(clock), .{rst}, .{s_valid}(cmd_valid), .{s_ready}(cmd_ready),\n\
         .{s_data}({{cmd_hi, cmd_lo}}), .{m_valid}(resp_valid), .{m_ready}(resp_ready), .{m_data}(resp));\n\
         assign resp_lo = resp[63:0];\nassign resp_hi = resp[127:64];\nendmodule\n"
    );
    let ports = ports_from(&[
        ("clock", 1, true),
        ("resetn", 1, true),
        ("cmd_valid", 1, true),
        ("cmd_ready", 1, false),
        ("cmd_lo", 64, true),
        ("cmd_hi", 64, true),
        ("resp_valid", 1, false),
        ("resp_ready", 1, true),
        ("resp_lo", 64, false),
        ("resp_hi", 64, false),
    ]);
    let spec = BuildSpec {
        name: format!("shell-{}", if xilinx { "xilinx" } else { "intel" }),
        verilog: format!("{engine}\n{shell}\n{harness}"),
        top: "harness".into(),
        clock: "clock".into(),
        ports,
        trace: false,
    };
    let (model, _) = Model::build(&spec).unwrap();
    let p = |n: &str| model.port(n).unwrap();
    Harness {
        words: Words::of(&shell),
        resetn: p("resetn"),
        cmd_valid: p("cmd_valid"),
        cmd_ready: p("cmd_ready"),
        cmd: [p("cmd_lo"), p("cmd_hi")],
        resp_valid: p("resp_valid"),
        resp_ready: p("resp_ready"),
        resp: [p("resp_lo"), p("resp_hi")],
        model,
    }
}

impl Harness {
    fn reset(&mut self, cycles: u64) {
        self.model.set(self.resetn, 0);
        self.model.tick(cycles);
        self.model.set(self.resetn, 1);
    }

    /// Streams `ops` (ids counting from `first_id`), taking responses when `take` says;
    /// checks every response against the golden model and its id; returns the cycles.
    fn stream(&mut self, ops: &[Op], golden: &mut Oracle, first_id: u8, take: &mut Rng) -> u64 {
        let want: Vec<(Response, u8)> = ops
            .iter()
            .enumerate()
            .map(|(i, op)| (Response::of(&golden.apply(op)), first_id.wrapping_add(i as u8)))
            .collect();
        let (mut sent, mut got, mut presenting, start) = (0, 0, false, self.model.cycles());
        while got < ops.len() {
            assert!(
                self.model.cycles() - start < 100 * ops.len() as u64 + 1000,
                "{got} of {} answered",
                ops.len()
            );
            if !presenting && sent < ops.len() {
                let word = self.words.pack(&EngineCommand::of(&ops[sent]), want[sent].1);
                self.model.set(self.cmd[0], word as u64);
                self.model.set(self.cmd[1], (word >> 64) as u64);
                self.model.set(self.cmd_valid, 1);
                presenting = true;
            }
            if presenting && self.model.get(self.cmd_ready) == 1 {
                sent += 1;
                presenting = false;
            }
            let taking = take.chance(60);
            self.model.set(self.resp_ready, taking as u64);
            if taking && self.model.get(self.resp_valid) == 1 {
                let word =
                    self.model.get(self.resp[0]) as u128 | (self.model.get(self.resp[1]) as u128) << 64;
                let (r, id) = want[got];
                let field = |n: &str| self.words.unpack(word, n);
                let op = &ops[got];
                assert_eq!(field("kind"), r.kind, "op {got} ({op}): kind");
                assert_eq!(field("id"), id as u64, "op {got} ({op}): the id echoed");
                if let Some(recv) = r.recv {
                    assert_eq!(field("recv"), recv, "op {got} ({op}): receive");
                }
                if let Some(msg) = r.msg {
                    assert_eq!(field("msg"), msg, "op {got} ({op}): message");
                }
                got += 1;
            }
            self.model.tick(1);
            if !presenting {
                self.model.set(self.cmd_valid, 0);
            }
        }
        self.model.set(self.resp_ready, 0);
        self.model.cycles() - start
    }
}

#[test]
fn both_shells_lint_and_their_scripts_name_what_exists() {
    for (vendor, script, constraints) in [
        ("xilinx", "package_vivado.tcl", "tagmatch_shell_ooc.xdc"),
        ("intel", "tagmatch_shell_hw.tcl", "tagmatch_shell.sdc"),
    ] {
        let (dir, manifest) = generate(vendor, "scripts");
        assert_eq!(manifest["top"], "tagmatch_shell");
        let files: Vec<&str> =
            manifest["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        for f in [script, constraints, "tagmatch_shell.v", "tagmatch_engine.v"] {
            assert!(files.contains(&f) && dir.join(f).is_file(), "{vendor}: {f} in {files:?}");
        }
        lint(&dir, vendor);
        let shell = std::fs::read_to_string(dir.join("tagmatch_shell.v")).unwrap();
        let ports = support::module_ports(&shell, "tagmatch_shell");
        let script_text = std::fs::read_to_string(dir.join(script)).unwrap();
        let constraint_text = std::fs::read_to_string(dir.join(constraints)).unwrap();
        let clock = manifest["clock"].as_str().unwrap();
        assert!(constraint_text.contains(&format!("[get_ports {clock}]")), "{vendor}: {constraint_text}");
        assert!(constraint_text.contains("-period 6.667"), "150 MHz by default: {constraint_text}");
        if vendor == "intel" {
            // Every port the component declares is one of the shell's, and all of them are declared.
            let declared: Vec<&str> = script_text
                .lines()
                .filter(|l| l.starts_with("add_interface_port"))
                .map(|l| l.split_whitespace().nth(2).unwrap())
                .collect();
            let mut sorted = declared.clone();
            sorted.sort_unstable();
            let all: Vec<&str> = ports.iter().map(String::as_str).collect();
            assert_eq!(sorted, all, "{vendor}: component ports");
        } else {
            for busif in ["s_axis_cmd", "m_axis_resp"] {
                assert!(ports.iter().any(|p| p.starts_with(busif)), "{busif}: {ports:?}");
            }
            assert!(ports.contains("aclk") && ports.contains("aresetn"));
            assert!(
                script_text.contains("-part xcu250-figd2104-2L-e") && script_text.contains("out_of_context")
            );
        }
        for f in files.iter().filter(|f| **f != script) {
            assert!(script_text.contains(f), "{vendor}: {script} does not name {f}");
        }
    }
}

/// Wider fields widen the words: 24-bit communicators and 32-bit sources take 3 and 4
/// bytes, still byte-aligned without overlap, and the shell lints clean around the engine.
#[test]
fn wider_fields_widen_the_words_and_the_shell_still_lints() {
    for vendor in ["xilinx", "intel"] {
        let (dir, manifest) = generate_with(vendor, &["--comm-bits", "20", "--source-bits", "32"], "wide");
        assert_eq!(manifest["parameters"]["source_bits"], 32);
        let shell = std::fs::read_to_string(dir.join("tagmatch_shell.v")).unwrap();
        assert!(shell.contains("Stream words are 152 bits"), "{vendor}: 4 + 3 + 4 + 4 + 4 bytes");
        let words = Words::of(&shell);
        let width =
            |fields: &[(String, u32, u32)], name: &str| fields.iter().find(|f| f.0 == name).unwrap().2;
        assert_eq!((width(&words.command, "comm"), width(&words.command, "src")), (24, 32));
        assert_eq!(width(&words.response, "src"), 32);
        for fields in [&words.command, &words.response] {
            let mut used = [false; 152];
            for (n, lo, w) in fields.iter() {
                assert!(n.ends_with("_any") || lo % 8 == 0, "{n} starts at bit {lo}");
                for b in *lo..lo + w {
                    assert!(!std::mem::replace(&mut used[b as usize], true), "{n} overlaps at bit {b}");
                }
            }
        }
        lint(&dir, vendor);
    }
}

/// Every field of both words starts on a byte boundary and no two overlap.
#[test]
fn stream_fields_are_byte_aligned() {
    let (dir, _) = generate("xilinx", "aligned");
    let words = Words::of(&std::fs::read_to_string(dir.join("tagmatch_shell.v")).unwrap());
    for fields in [&words.command, &words.response] {
        let mut used = 0u128;
        for (n, lo, w) in fields.iter() {
            let flag = n.ends_with("_any");
            assert!(flag || lo % 8 == 0, "{n} starts at bit {lo}");
            let mask = ((1u128 << w) - 1) << lo;
            assert_eq!(used & mask, 0, "{n} overlaps");
            used |= mask;
        }
    }
}

#[test]
fn shells_stream_the_golden_pairing_and_reset_cleanly() {
    for xilinx in [true, false] {
        let (dir, _) = generate(if xilinx { "xilinx" } else { "intel" }, "stream");
        let mut h = build(&dir, xilinx);
        h.reset(3);
        let ops = random_stream(71, 6000);
        let mut golden = Oracle::new();
        let mut rng = Rng::new(7);
        let cycles = h.stream(&ops[..3000], &mut golden, 0, &mut rng);
        assert!(cycles < 3000 * 20, "{cycles} cycles for 3000 operations");
        // Leave commands in flight: present a few without taking their answers.
        for op in &ops[3000..3004] {
            let word = h.words.pack(&EngineCommand::of(op), 0);
            h.model.set(h.cmd[0], word as u64);
            h.model.set(h.cmd[1], (word >> 64) as u64);
            h.model.set(h.cmd_valid, 1);
            h.model.tick(1);
        }
        h.model.set(h.cmd_valid, 0);
        // Reset with responses pending (valid low, as both protocols require during reset):
        // within two cycles the shell takes nothing and answers nothing.
        h.model.set(h.resp_ready, 1);
        h.model.set(h.resetn, 0);
        h.model.tick(2);
        for _ in 0..4 {
            assert_eq!(h.model.get(h.cmd_ready), 0, "ready during reset");
            assert_eq!(h.model.get(h.resp_valid), 0, "a response during reset");
            h.model.tick(1);
        }
        h.model.set(h.resp_ready, 0);
        h.model.set(h.resetn, 1);
        // The engine starts empty: the golden model does too.
        let mut golden = Oracle::new();
        h.stream(&ops[3004..], &mut golden, 200, &mut rng);
    }
}
