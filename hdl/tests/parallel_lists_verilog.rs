//! Parallel lists' Verilog lints clean for 16 lists and synthesizes (4 lists) with every
//! list's storage in block RAM.

use std::process::Command;
use tagmatch_hdl::parallel_lists::parallel_lists_verilog;

fn write(name: &str, verilog: String) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, verilog).unwrap();
    file
}

#[test]
fn sixteen_lists_lint_clean() {
    let file = write("plists16", parallel_lists_verilog::<8, 16>());
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(lint.status.success(), "lint:\n{}", String::from_utf8_lossy(&lint.stderr));
}

#[test]
fn four_lists_synthesize_into_block_ram() {
    let file = write("plists4", parallel_lists_verilog::<10, 4>());
    let synth = Command::new("yosys")
        .arg("-p")
        .arg(format!("read_verilog {}; synth_xilinx -top top; stat", file.display()))
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&synth.stdout);
    assert!(synth.status.success(), "yosys failed");
    let stats = log.rsplit("Printing statistics").next().unwrap_or("");
    assert!(stats.contains("RAMB18E1") || stats.contains("RAMB36E1"), "no block RAM inferred:\n{stats}");
}
