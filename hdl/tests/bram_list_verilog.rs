//! The list's Verilog lints clean (DECLFILENAME waived: rust-hdl writes every submodule
//! into one file) and synthesizes with its storage in block RAM.

use std::process::Command;
use tagmatch_hdl::bram_list::bram_list_verilog;

#[test]
fn list_lints_and_keeps_its_nodes_in_block_ram() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bramlist");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, bram_list_verilog::<10>()).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(lint.status.success(), "lint:\n{}", String::from_utf8_lossy(&lint.stderr));
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
