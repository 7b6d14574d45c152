//! The CAM's emitted Verilog passes `verilator --lint-only -Wall` and a yosys synthesis.
//! One waiver: DECLFILENAME, because rust-hdl writes every submodule into one file.

use std::process::Command;
use tagmatch_hdl::cam::cam_verilog;

fn check(verilog: &str, name: &str) {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, verilog).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME"])
        .arg(&file)
        .output()
        .expect("verilator is installed (scripts/setup.sh)");
    assert!(lint.status.success(), "lint:\n{}", String::from_utf8_lossy(&lint.stderr));
    let synth = Command::new("yosys")
        .arg("-q")
        .arg("-p")
        .arg(format!("read_verilog {}; synth -top top; check -assert", file.display()))
        .output()
        .expect("yosys is installed (scripts/setup.sh)");
    assert!(
        synth.status.success(),
        "yosys:\n{}{}",
        String::from_utf8_lossy(&synth.stdout),
        String::from_utf8_lossy(&synth.stderr)
    );
}

#[test]
fn small_cam_lints_and_synthesizes() {
    check(&cam_verilog::<8>(), "cam8");
}

#[test]
fn default_depth_cam_lints() {
    let v = cam_verilog::<256>();
    assert!(v.contains("module top("));
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cam256");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("top.v"), &v).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME"])
        .arg(dir.join("top.v"))
        .output()
        .unwrap();
    assert!(lint.status.success(), "lint:\n{}", String::from_utf8_lossy(&lint.stderr));
}
