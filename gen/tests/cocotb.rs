//! The cocotb tests of the IP shells (`scripts/cocotb.sh`, `testbench/cocotb/`): both
//! shells, AXI4-Stream and Avalon-ST, in Icarus Verilog and in Verilator, with commands
//! from cocotbext-axi's stream source (random gaps) and responses taken by its sink
//! (random backpressure). A long random stream (50,000 operations in Verilator, its first
//! 2,000 in Icarus) must give exactly the responses in `gen --testbench-vectors`, in order;
//! after a reset with commands in flight, a stream of another seed must give exactly its
//! own. The two simulators must also give each response they share in the same cycle (the
//! pauses are seeded).
//!
//! Needs iverilog, verilator and cocotb with cocotbext-axi in target/cocotb
//! (`scripts/setup.sh` installs them); it fails rather than skips without them. About
//! four and a half minutes on two cores.

use std::path::Path;
use std::process::Command;

#[test]
fn both_shells_pass_the_cocotb_tests_in_icarus_and_verilator() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut missing = Vec::new();
    if !repo.join("target/cocotb/bin/cocotb-config").is_file() {
        missing.push("cocotb (the virtual environment target/cocotb)");
    }
    for tool in ["iverilog", "verilator", "make"] {
        let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output();
        if !found.is_ok_and(|o| o.status.success()) {
            missing.push(tool);
        }
    }
    assert!(missing.is_empty(), "missing {}: run scripts/setup.sh", missing.join(", "));

    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cocotb");
    let start = std::time::Instant::now();
    let run = Command::new("bash")
        .arg(repo.join("scripts/cocotb.sh"))
        .arg("--out")
        .arg(&out)
        .env("TAGMATCH", env!("CARGO_BIN_EXE_tagmatch"))
        .output()
        .expect("bash runs scripts/cocotb.sh");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    eprintln!("{stdout}{stderr}scripts/cocotb.sh took {} s", start.elapsed().as_secs());
    assert!(run.status.success(), "scripts/cocotb.sh failed (logs in {}):\n{stdout}{stderr}", out.display());
    for (sim, ops) in [("icarus", 2_000), ("verilator", 50_000)] {
        for shell in ["xilinx", "intel"] {
            let line = format!("{sim} {shell}: 2 tests passed");
            let run = stdout.lines().find(|l| l.starts_with(&line));
            let run = run.unwrap_or_else(|| panic!("no \"{line}\" in:\n{stdout}"));
            assert!(run.ends_with(&format!("({ops} operations in the long stream)")), "{run}");
        }
    }
    for shell in ["xilinx", "intel"] {
        let line = format!("{shell}: icarus and verilator give every response in the same cycle");
        assert!(stdout.contains(&line), "no \"{line}\" in:\n{stdout}");
    }
    assert!(stdout.contains("cocotb: 8 passed, 0 failed"), "{stdout}");
}
