//! The two-level queue's Verilog lints clean at a realistic size (64-entry CAM, 4 lists of
//! 255 entries). Waivers: DECLFILENAME (rust-hdl writes every submodule into one file)
//! and UNOPTFLAT (rust-hdl emits a module's combinational logic as one `always @(*)`
//! block, so Verilator reports a false loop from the lists' `remove` input to their `full`
//! output through that block; `full` depends only on registers). A real loop would keep
//! the Verilated model from converging ("didn't converge"), which the RTL tests would hit.

use std::process::Command;
use tagmatch_hdl::two_level_queue::two_level_queue_verilog;

#[test]
fn two_level_queue_lints_clean() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tlq");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, two_level_queue_verilog::<64, 8, 4>()).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-UNOPTFLAT"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(lint.status.success(), "lint:\n{}", String::from_utf8_lossy(&lint.stderr));
}
