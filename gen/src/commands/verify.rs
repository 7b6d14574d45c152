//! `tagmatch verify`: the formal checks of the receive engine (`crate::verify`), one
//! table row per property and configuration; with `--mutations`, each seeded bug and
//! whether the checks caught it. Exits non-zero when a property fails on the real engine
//! or a mutation goes uncaught.

use crate::cli::verify::VerifyArgs;
use crate::output::progress::{note, spinner};
use crate::output::table::{render, Record};
use crate::verify::mutations::MUTATIONS;
use crate::verify::{
    check, labels_sources, properties, sources, Harness, Outcome, Start, Target, LABELS_TARGET,
    ONESIDED_TARGET, POWER_UP_DEPTH, TARGETS,
};
use serde_json::json;

pub fn run(args: VerifyArgs) -> Result<(), String> {
    let wanted = |name: &str| args.only.as_deref().is_none_or(|o| name.contains(o));
    let targets: Vec<&Target> = TARGETS.iter().filter(|t| wanted(t.name)).collect();
    let onesided = wanted(ONESIDED_TARGET.name);
    let labels = wanted(LABELS_TARGET.name);
    if targets.is_empty() && !onesided && !labels {
        let mut names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        names.extend([LABELS_TARGET.name, ONESIDED_TARGET.name]);
        return Err(format!("--only matches no configuration (there are: {})", names.join(", ")));
    }
    if let Some(h) = &args.harness {
        if !Harness::ALL.iter().any(|x| x.name() == h) {
            let names: Vec<&str> = Harness::ALL.iter().map(|x| x.name()).collect();
            return Err(format!("--harness {h}: no such harness (there are: {})", names.join(", ")));
        }
    }
    let mut rows: Vec<Record> = Vec::new();
    let mut failures = Vec::new();
    // Every harness of the engine on every engine configuration, then the labels harness
    // and the one-sided unit's.
    let mut runs: Vec<(Harness, &str, String, String, u32)> = Vec::new();
    for target in &targets {
        let (verilog, params) = sources(target)?;
        for harness in Harness::ENGINE {
            runs.push((harness, target.name, verilog.clone(), params.clone(), target.depth));
        }
    }
    if labels {
        let (verilog, params) = labels_sources()?;
        runs.push((Harness::Labels, LABELS_TARGET.name, verilog, params, LABELS_TARGET.depth));
    }
    if onesided {
        let (verilog, params) = ONESIDED_TARGET.sources()?;
        runs.push((Harness::OneSided, ONESIDED_TARGET.name, verilog, params, ONESIDED_TARGET.depth));
    }
    runs.retain(|r| args.harness.as_deref().is_none_or(|h| r.0.name() == h));
    if runs.is_empty() {
        return Err("--only and --harness together select no check".into());
    }
    for (harness, name, verilog, params, default_depth) in &runs {
        let mut results: Vec<(Start, u32, Outcome)> = Vec::new();
        for &start in harness.starts() {
            let depth = match start {
                Start::Garbage => POWER_UP_DEPTH,
                Start::Zeroed => depth_of(&args, *harness, *default_depth),
            };
            let what = format!("{} harness on {name} ({})", harness.name(), start.name());
            let bar = spinner(&format!("verify {what} to depth {depth}"));
            let dir = args.out.join(format!("{}-{name}-{}", harness.name(), start.name()));
            let outcome = check(&dir, *harness, verilog, params, start, depth, &bar)?;
            bar.finish_and_clear();
            let verdict = if outcome.passed {
                format!("every property holds to depth {depth}")
            } else {
                "FAILS".into()
            };
            note(&bar, &format!("tagmatch: verify {what}: {verdict} in {:.0} s", outcome.seconds));
            if !outcome.passed {
                failures.push(format!(
                    "{what}: {} fail at step {} (waveform: {})",
                    outcome.failed_properties.join(", "),
                    outcome.failed_step.unwrap_or(0),
                    outcome.trace.as_ref().map_or("none".into(), |t| t.display().to_string())
                ));
            }
            results.push((start, depth, outcome));
        }
        for (property, text, _) in properties(*harness) {
            rows.push(property_row(*harness, name, &property, &text, &results));
        }
    }
    print!("{}", render(&rows, args.format));
    if args.mutations {
        let mut caught_rows: Vec<Record> = Vec::new();
        for m in MUTATIONS {
            // Each mutation on the first configuration its harness runs on.
            let Some((harness, name, verilog, params, default_depth)) =
                runs.iter().find(|r| r.0 == m.harness)
            else {
                continue;
            };
            let mutant = m.apply(verilog)?;
            let depth = depth_of(&args, *harness, *default_depth);
            let bar = spinner(&format!("mutation `{}` on {name}", m.name));
            let dir = args.out.join(format!("mutation-{}", m.name.replace(' ', "-")));
            let outcome = check(&dir, *harness, &mutant, params, Start::Zeroed, depth, &bar)?;
            bar.finish_and_clear();
            let verdict = if outcome.passed {
                failures.push(format!("mutation `{}` was not caught to depth {depth}", m.name));
                "NOT caught"
            } else {
                "caught"
            };
            caught_rows.push(vec![
                ("mutation", json!(m.name)),
                ("bug", json!(m.what)),
                ("configuration", json!(name)),
                ("verdict", json!(verdict)),
                ("counterexample_cycles", json!(outcome.failed_step.map(|s| s + 1))),
                ("properties", json!(outcome.failed_properties.join(", "))),
                ("seconds", json!((outcome.seconds * 10.0).round() / 10.0)),
                ("waveform", json!(outcome.trace.map(|t| t.display().to_string()))),
            ]);
        }
        println!();
        print!("{}", render(&caught_rows, args.format));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// A check's depth: `--depth` sets the receive engine's; the one-sided unit's harness keeps
/// its own (its solver time grows faster with depth), and so does the labels harness (its
/// schedule's length decides the depth it needs).
fn depth_of(args: &VerifyArgs, harness: Harness, default: u32) -> u32 {
    match harness {
        Harness::OneSided | Harness::Labels => default,
        Harness::Engine | Harness::Completion => args.depth.unwrap_or(default),
    }
}

/// One property's row: its result from each start it was checked from ("-" where the
/// harness is not checked from that start).
fn property_row(
    harness: Harness,
    configuration: &str,
    name: &str,
    text: &str,
    results: &[(Start, u32, Outcome)],
) -> Record {
    let mut row: Record = vec![
        ("harness", json!(harness.name())),
        ("property", json!(name)),
        ("configuration", json!(configuration)),
    ];
    for start in [Start::Garbage, Start::Zeroed] {
        let (key, seconds_key) = match start {
            Start::Garbage => ("power_up", "power_up_seconds"),
            Start::Zeroed => ("stream", "stream_seconds"),
        };
        let (result, seconds) = match results.iter().find(|(s, _, _)| *s == start) {
            None => ("-".to_string(), json!(null)),
            Some((_, depth, outcome)) => {
                let result = if outcome.passed {
                    format!("holds to depth {depth}")
                } else if outcome.failed_properties.iter().any(|p| p == name) {
                    format!("FAILS at step {}", outcome.failed_step.unwrap_or(0))
                } else {
                    format!("unknown past step {}", outcome.failed_step.unwrap_or(0))
                };
                (result, json!((outcome.seconds * 10.0).round() / 10.0))
            }
        };
        row.push((key, json!(result)));
        row.push((seconds_key, seconds));
    }
    row.push(("checks", json!(text)));
    row
}
