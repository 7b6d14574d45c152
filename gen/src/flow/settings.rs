//! What one run of the timing flow is set to: the device, nextpnr's placer and router,
//! the stage it stops at, the time budget, and the run's shared state ([`Flow`]). Apart
//! from the steps (`timing_synthesis`, `timing_place_route`) and the report, which all
//! read it, so that they and the flow that calls them do not import each other.

use crate::flow::timing_tools::Tools;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The part every figure is measured on.
pub const DEVICE: &str = "LFE5U-85F-8 (CABGA756)";
/// Its LUT4s, for the share of the device a design fills.
pub const DEVICE_LUT4S: u64 = 83_640;
/// The placer's default seed: one seed, so the same Verilog gives the same Fmax. Another
/// seed (`gen --timing --seed`) shows how much of a difference between two designs is
/// placement luck (on the 4-lane thread array, a few MHz).
pub const SEED: u32 = 1;
/// The frequency nextpnr aims for unless told otherwise (MHz). A design that misses it
/// still reports its Fmax (`--timing-allow-fail`).
pub const DEFAULT_TARGET_MHZ: f64 = 250.0;

/// nextpnr's router. router1 is nextpnr-ecp5's default and routes the smaller designs;
/// router2 progresses much faster on large, congested ones (on the thread array router1
/// rerouted a fraction of a percent of the arcs a minute where router2 cut the overused
/// wires by three quarters in twenty minutes). The flow picks one by the netlist's size
/// unless `--router` names it ([`crate::flow::router_choice`]).
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
/// It spreads a wire-bound design further: on the thread array, static's placements left
/// router2 with several times fewer overused wires than heap's, routed configurations
/// heap's did not, and gave higher clocks on the same netlist and seed. On the two-level
/// engine heap placed faster and no worse, so it stays heap's. The records name the placer
/// of every measurement (`constraints/timing/history.jsonl` keeps every run).
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
    /// the design ([`crate::flow::router_choice`]).
    pub fn default_for(design: &str) -> Placer {
        if design == "optimistic" {
            Placer::Static
        } else {
            Placer::Heap
        }
    }
}

/// How synthesis builds the CAMs' slot comparators ([`tagmatch_hdl::two_level::cam_match`]).
/// `plain`, the default, leaves them to ABC: logic the placer and router may spread.
/// `carry` puts each in one ECP5 carry chain: 38 LUT4s a slot at the default widths
/// against about 56 (the 256-entry CAM alone in 14,944 LUT4s against 20,442), but a LUT4
/// in a chain takes its inputs on fixed pins and a chain sits in one row of tiles. On the
/// default engine (two 256-entry CAMs) that did not route: router2 stayed above 6,000
/// overused wires, where the plain form routed (the history has both). Records name the
/// form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CamComparators {
    #[default]
    Plain,
    Carry,
}

impl CamComparators {
    pub fn name(self) -> &'static str {
        match self {
            CamComparators::Plain => "plain",
            CamComparators::Carry => "carry",
        }
    }
}

/// Scratch folder of the ECP5 flow inside the output folder.
pub(super) const ECP5_DIR: &str = "ecp5";

/// The step of the flow a time budget can run out in, for what to try instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Synthesis,
    Placement,
    Routing(Router, Placer),
    /// yosys' `synth_xilinx`, after the ECP5 flow finished.
    Xilinx,
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
    /// `--placer`; `None`: chosen by the netlist's size ([`crate::flow::router_choice`]).
    pub placer: Option<Placer>,
    /// The design's placer when the size does not call for static ([`Placer::default_for`]).
    pub design_placer: Placer,
    /// `--router`; `None`: chosen by the netlist's size, and router2 after a stalled
    /// router1 ([`crate::flow::router_choice`]).
    pub router: Option<Router>,
    pub seed: u32,
    pub stage: Stage,
    /// The whole flow's time budget (`--max-minutes`); `None`: none.
    pub budget: Option<Duration>,
    /// `--wide-luts`: synth_ecp5 may build LUT5 to LUT7 from LUT4 pairs and PFU muxes
    /// (yosys' default). Off, the flow's default, it passes `-nowidelut`: see
    /// [`crate::flow::timing`] for why.
    pub wide_luts: bool,
    /// `--cam-comparators`: the CAMs' comparators in carry chains or plain logic.
    pub cam_comparators: CamComparators,
}

/// What a run of the flow works with.
pub(super) struct Flow<'a> {
    pub(super) tools: &'a Tools,
    pub(super) dir: &'a Path,
    pub(super) verilog: &'a str,
    pub(super) work: PathBuf,
    pub(super) spinner: &'a ProgressBar,
    pub(super) started: Instant,
    pub(super) budget: Option<Duration>,
    pub(super) wide_luts: bool,
    pub(super) cam_comparators: CamComparators,
}

impl Flow<'_> {
    pub(super) fn say(&self, line: &str) {
        crate::output::progress::note(self.spinner, line);
    }

    pub(super) fn deadline(&self) -> Option<Instant> {
        self.budget.map(|b| self.started + b)
    }

    pub(super) fn out_of_budget(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// Seconds left of the budget.
    pub(super) fn left_s(&self) -> Option<f64> {
        self.deadline().map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64())
    }
}
