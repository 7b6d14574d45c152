//! The golden model against a real MPI library (Open MPI from Debian): the scripted
//! scenarios of `sim/oracle/scenarios.txt` run under `mpirun`, and every receive, probe,
//! cancel and leftover must come out as the golden model says.
//!
//! This test needs `mpicc.openmpi` and `mpirun.openmpi` (`.ci/run` installs them). It fails
//! rather than skips without them: a green run must mean the oracle agreed.
//! `TAGMATCH_MPICC` and `TAGMATCH_MPIRUN` override the commands.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tagmatch_sim::workload::oracle::{parse_oracle_output, parse_scenarios, Step};
use tagmatch_sim::{MatcherKind, MatcherOptions};

fn tool(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

fn scenarios_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/scenarios.txt")
}

fn build_oracle() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/oracle.c");
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mpi-oracle");
    let mpicc = tool("TAGMATCH_MPICC", "mpicc.openmpi");
    let status = Command::new(&mpicc)
        .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .unwrap_or_else(|e| {
            panic!("cannot run {mpicc} ({e}); install Open MPI: apt-get install openmpi-bin libopenmpi-dev")
        });
    assert!(status.success(), "{mpicc} failed to build {}", src.display());
    exe
}

fn run_oracle(exe: &Path) -> String {
    let mpirun = tool("TAGMATCH_MPIRUN", "mpirun.openmpi");
    let mut child = Command::new(&mpirun)
        .args(["-np", "4", "--oversubscribe", "--mca", "btl", "self,vader"])
        // One delivery path per sender pair (no fast boxes): see oracle.c.
        .args(["--mca", "btl_vader_fbox_threshold", "4294967295"])
        .arg(exe)
        .arg(scenarios_path())
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {mpirun} ({e})"));
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("waiting for mpirun").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "the MPI oracle did not finish in 120 s (a scenario waits for a message that never comes?)"
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("mpirun output");
    assert!(out.status.success(), "mpirun failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("oracle prints text")
}

#[test]
fn golden_model_agrees_with_open_mpi_on_every_scenario() {
    let scenarios = parse_scenarios(&std::fs::read_to_string(scenarios_path()).unwrap()).unwrap();
    assert!(scenarios.len() >= 20, "at least 20 scenarios, found {}", scenarios.len());
    let uses = |f: &dyn Fn(&Step) -> bool| scenarios.iter().flat_map(|s| &s.steps).any(f);
    assert!(uses(&|s| matches!(s, Step::Post { spec, .. } if spec.src.is_none())), "ANY_SOURCE is exercised");
    assert!(uses(&|s| matches!(s, Step::Post { spec, .. } if spec.tag.is_none())), "ANY_TAG is exercised");
    assert!(uses(&|s| matches!(s, Step::Cancel { .. })), "cancel is exercised");
    assert!(uses(&|s| matches!(s, Step::Probe { .. })), "probe is exercised");
    assert!(uses(&|s| matches!(s, Step::MatchedProbe { .. })), "matched probe is exercised");

    let exe = build_oracle();
    let first = run_oracle(&exe);
    let mpi = parse_oracle_output(&first).unwrap();
    let names: Vec<_> = scenarios.iter().map(|s| s.name.clone()).collect();
    assert_eq!(
        mpi.keys().cloned().collect::<std::collections::BTreeSet<_>>(),
        names.iter().cloned().collect()
    );

    let mut disagreements = Vec::new();
    for sc in &scenarios {
        let golden = sc.golden_record();
        assert!(!golden.is_empty(), "scenario {} records nothing", sc.name);
        if golden != mpi[&sc.name] {
            disagreements
                .push(format!("{}:\n  Open MPI: {:?}\n  golden:   {:?}", sc.name, mpi[&sc.name], golden));
        }
        // The software matchers must tell the same story.
        for kind in MatcherKind::ALL {
            let mut m = kind.build(&MatcherOptions::default(), Some(&sc.ops()));
            assert_eq!(sc.record_with(m.as_mut()), golden, "{} on {}", kind.name(), sc.name);
        }
    }
    assert!(disagreements.is_empty(), "golden model and Open MPI disagree:\n{}", disagreements.join("\n"));

    // The scripted order must not depend on timing: a second run says the same.
    assert_eq!(parse_oracle_output(&run_oracle(&exe)).unwrap(), mpi, "the oracle is not repeatable");
}
