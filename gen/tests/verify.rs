//! `tagmatch verify`: the formal checks hold on the engine as generated, and each seeded
//! mutation is caught with a counterexample. Depth 13 keeps this to a few minutes;
//! `tagmatch verify` alone goes deeper.

mod run;
use run::{one_line_error, tagmatch};

#[test]
fn every_property_holds_and_every_seeded_mutation_is_caught() {
    let dir = std::env::temp_dir().join(format!("tagmatch-verify-{}", std::process::id()));
    let out = tagmatch(&[
        "verify",
        "--mutations",
        "--depth",
        "13",
        "--format",
        "json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Two JSON arrays: the properties, then the mutations.
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut arrays = serde_json::Deserializer::from_str(&text).into_iter::<serde_json::Value>();
    let properties = arrays.next().unwrap().unwrap();
    let mutations = arrays.next().unwrap().unwrap();
    let properties = properties.as_array().unwrap();
    let configurations: std::collections::BTreeSet<_> =
        properties.iter().map(|p| p["configuration"].as_str().unwrap().to_string()).collect();
    assert_eq!(configurations.len(), 4, "{configurations:?}");
    for p in properties {
        // The one-sided and labels harnesses keep their own depths.
        let stream = match p["harness"].as_str().unwrap() {
            "onesided" => "holds to depth 10",
            "labels" => "holds to depth 44",
            _ => "holds to depth 13",
        };
        assert_eq!(p["stream"], stream, "{p}");
        let power_up = if p["harness"] == "engine" { "holds to depth 8" } else { "-" };
        assert_eq!(p["power_up"], power_up, "{p}");
    }
    for (harness, name) in [
        ("engine", "order (PRQ)"),
        ("engine", "order (UMQ)"),
        ("engine", "conservation"),
        ("engine", "in order"),
        ("engine", "held"),
        ("engine", "flush"),
        ("engine", "capacity"),
        ("completion", "wait"),
        ("completion", "wake-up"),
        ("labels", "order across the wrap"),
        ("onesided", "fin"),
        ("onesided", "saturation"),
    ] {
        assert!(
            properties.iter().any(|p| p["harness"] == harness && p["property"] == name),
            "no property {name} in the {harness} harness"
        );
    }
    let mutations = mutations.as_array().unwrap();
    assert_eq!(mutations.len(), 7);
    for m in mutations {
        assert_eq!(m["verdict"], "caught", "{m}");
        let cycles = m["counterexample_cycles"].as_u64().unwrap();
        let depth = if m["configuration"] == "cam2-l2x3" { 44 } else { 13 };
        assert!((2..=depth).contains(&cycles), "{m}");
        let waveform = m["waveform"].as_str().unwrap();
        assert!(std::path::Path::new(waveform).is_file(), "no waveform {waveform}");
    }
    // The reset fix: without it, a command taken in a reset cycle goes unanswered.
    let reset = mutations.iter().find(|m| m["mutation"] == "reset drops a command").unwrap();
    assert!(reset["properties"].as_str().unwrap().contains("in order"), "{reset}");
    let early = mutations.iter().find(|m| m["mutation"] == "wake-up one match early").unwrap();
    assert!(early["properties"].as_str().unwrap().contains("answered"), "{early}");
    // Labels compared as plain numbers go wrong only across the wrap, which the labels
    // harness reaches by starting the counters anywhere.
    let wrap = mutations.iter().find(|m| m["mutation"] == "labels compared without the wrap").unwrap();
    assert!(wrap["properties"].as_str().unwrap().contains("order across the wrap"), "{wrap}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_configuration_is_refused_by_name() {
    let err = one_line_error(&tagmatch(&["verify", "--only", "nonesuch"]));
    assert!(err.contains("cam2-l1x3") && err.contains("cam2-l2x3") && err.contains("w4-c3"), "{err}");
}

#[test]
fn one_harness_runs_alone_and_an_unknown_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("tagmatch-verify-one-{}", std::process::id()));
    let out =
        tagmatch(&["verify", "--harness", "labels", "--format", "json", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert!(!rows.is_empty() && rows.iter().all(|r| r["harness"] == "labels"), "{rows:?}");
    let _ = std::fs::remove_dir_all(&dir);
    let err = one_line_error(&tagmatch(&["verify", "--harness", "nonesuch"]));
    assert!(err.contains("engine") && err.contains("labels") && err.contains("onesided"), "{err}");
    let err = one_line_error(&tagmatch(&["verify", "--harness", "onesided", "--only", "cam2"]));
    assert!(err.contains("select no check"), "{err}");
}
