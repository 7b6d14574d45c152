//! `gen --timing`'s arguments: the open place-and-route flow's target, router, placer,
//! budget and seed.

use crate::flow;

/// `gen --timing`: the open place-and-route flow (timing.rs).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct TimingArgs {
    /// Place and route the emitted Verilog on a Lattice ECP5 (LFE5U-85F-8) with yosys and
    /// nextpnr (yowasp, from scripts/setup.sh) and report its Fmax, critical path, logic
    /// levels and utilisation, with yosys synth_xilinx's logic depth beside it: minutes.
    #[arg(long)]
    pub timing: bool,
    /// The clock nextpnr aims for, MHz (above 0; the design's Fmax is reported either way).
    #[arg(long, default_value_t = flow::timing::DEFAULT_TARGET_MHZ, requires = "timing")]
    pub target_mhz: f64,
    /// nextpnr's router: router1 (nextpnr's default) or router2, which progresses faster
    /// on large, congested designs such as the thread array and is stopped when its
    /// overused wires stop falling, with what congests them listed. Default: chosen by the
    /// netlist's size after synthesis, router2 above 40,000 LUT4s (48 % of the device),
    /// router1 below, and router2 again if router1 stalls; a router1 asked for here is
    /// stopped when it stalls. The manifest and the record name the router and why.
    #[arg(long, value_enum, requires = "timing")]
    pub router: Option<flow::timing::Router>,
    /// nextpnr's placer: heap (nextpnr's default) or static, which spreads a wire-bound
    /// design such as the thread array further, so routing has room. Default: static above
    /// 40,000 LUT4s and for the thread array (every record of it), heap for the rest. The
    /// manifest and the record name the placer and why.
    #[arg(long, value_enum, requires = "timing")]
    pub placer: Option<flow::timing::Placer>,
    /// The whole flow's time budget in minutes (synthesis, placement, routing): when it
    /// runs out, the tool under way is stopped and the flow fails with one line naming the
    /// step, its last progress figures, nextpnr's estimate after placement where there is
    /// one, and what to try (0 to 2^32 - 1; 0 = no limit).
    #[arg(long, default_value_t = flow::timing::DEFAULT_MAX_MINUTES, requires = "timing")]
    pub max_minutes: u32,
    /// Stop after placement: nextpnr's Fmax estimate (no routing delays, no critical path)
    /// and the netlist's deepest registers, in minutes where routing takes hours (the
    /// thread array). An estimate, so it cannot be recorded.
    #[arg(long, requires = "timing", conflicts_with = "record")]
    pub place_only: bool,
    /// nextpnr's placer seed (0 to 2^31 - 1: nextpnr reads it as a signed 32-bit number).
    /// Records name theirs; a second seed shows how much of a difference between two
    /// designs is placement luck.
    #[arg(long, default_value_t = flow::timing::SEED, requires = "timing")]
    pub seed: u32,
    /// Let synth_ecp5 pair LUT4s into LUT5 to LUT7 (yosys' own default). Without it the
    /// flow maps to LUT4s alone (`-nowidelut`): fewer LUT4s, most of them saved in the
    /// CAMs' comparators, at about the same clock. Records name the setting.
    #[arg(long, requires = "timing")]
    pub wide_luts: bool,
    /// How synthesis builds the CAMs' slot comparators: `plain`, logic ABC maps and the
    /// router may spread, or `carry`, one ECP5 carry chain a slot (about a third fewer
    /// LUT4s, but on fixed pins in one row of tiles: the default engine did not route with
    /// them). Records name the form.
    #[arg(long, value_enum, default_value_t = flow::timing::CamComparators::Plain, requires = "timing")]
    pub cam_comparators: flow::timing::CamComparators,
    /// Store the measurement in constraints/timing/lfe5u-85f-8.json, where the benchmarks
    /// read their clocks (replacing an older one of the same configuration).
    #[arg(long, requires = "timing")]
    pub record: bool,
}

impl TimingArgs {
    /// The tools, found before anything slow starts (a missing one is a one-line error).
    pub fn tools(&self) -> Result<Option<flow::timing::Tools>, String> {
        if !(self.target_mhz.is_finite() && self.target_mhz > 0.0) {
            return Err(format!("--target-mhz {}: a frequency above zero", self.target_mhz));
        }
        if self.seed > i32::MAX as u32 {
            // Refused here, not by nextpnr after minutes of synthesis.
            let max = crate::output::progress::thousands(i32::MAX as u64);
            return Err(format!("--seed {}: nextpnr takes seeds from 0 to {max}", self.seed));
        }
        self.timing.then(flow::timing::find_tools).transpose()
    }
}
