//! What the `*_verilog` tests share: write a design as `top.v`, lint it with Verilator,
//! run a yosys script on it. Every design is linted with `-Wall`; DECLFILENAME is always
//! waived because rust-hdl writes every submodule into one file, other waivers are named
//! by the test that needs them. And what the source tests share: the HDL's Rust sources
//! ([`hdl_sources`]).

// Each test binary compiles this module and uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `verilog` to `<test tmp>/<name>/top.v`.
pub fn write_top(name: &str, verilog: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, verilog).unwrap();
    file
}

/// `verilator --lint-only -Wall -Wno-DECLFILENAME` plus `waivers` must pass.
pub fn lint(file: &Path, waivers: &[&str]) {
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME"])
        .args(waivers)
        .arg(file)
        .output()
        .expect("verilator is installed (scripts/setup.sh)");
    assert!(out.status.success(), "lint:\n{}", String::from_utf8_lossy(&out.stderr));
}

/// Runs `read_verilog FILE; <script>` in yosys, which must succeed; returns its log.
pub fn yosys(file: &Path, script: &str) -> String {
    let out = Command::new("yosys")
        .arg("-p")
        .arg(format!("read_verilog {}; {script}", file.display()))
        .output()
        .expect("yosys is installed (scripts/setup.sh)");
    let log = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "yosys:\n{log}{}", String::from_utf8_lossy(&out.stderr));
    log
}

/// The last `stat` report of a yosys log, which must list a Xilinx block RAM.
pub fn assert_block_ram(log: &str) -> &str {
    let stats = log.rsplit("Printing statistics").next().unwrap_or("");
    assert!(stats.contains("RAMB18E1") || stats.contains("RAMB36E1"), "no block RAM inferred:\n{stats}");
    stats
}

/// Every Rust source under `hdl/src`, as (path, text), for the tests that check the
/// blocks' source itself.
pub fn hdl_sources() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, found: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).expect("hdl/src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file is readable");
                found.push((path, text));
            }
        }
    }
    let mut found = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(!found.is_empty(), "hdl/src holds the blocks' sources");
    found
}
