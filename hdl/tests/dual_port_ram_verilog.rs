//! The dual-port RAM's Verilog lints clean and is inferred as block RAM, not registers.

use std::process::Command;
use tagmatch_hdl::dual_port_ram::dual_port_ram_verilog;

#[test]
fn dual_port_ram_lints_and_maps_to_block_ram() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dpr");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, dual_port_ram_verilog::<40, 10>()).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME"])
        .arg(&file)
        .output()
        .expect("verilator is installed (scripts/setup.sh)");
    assert!(lint.status.success(), "lint:\n{}", String::from_utf8_lossy(&lint.stderr));
    let synth = Command::new("yosys")
        .arg("-p")
        .arg(format!("read_verilog {}; synth_xilinx -top top; stat", file.display()))
        .output()
        .expect("yosys is installed (scripts/setup.sh)");
    let log = String::from_utf8_lossy(&synth.stdout);
    assert!(synth.status.success(), "yosys failed:\n{log}");
    let stats = log.rsplit("Printing statistics").next().unwrap_or("");
    assert!(stats.contains("RAMB18E1") || stats.contains("RAMB36E1"), "no block RAM inferred:\n{stats}");
    assert!(
        !stats.contains("FDRE ") || stats.matches("FDRE").count() < 10,
        "the memory became flip-flops:\n{stats}"
    );
}
