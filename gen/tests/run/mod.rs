//! Running the `tagmatch` binary from the integration tests: the helpers `cli.rs` and
//! `bench.rs` share. Each test file uses some of them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn tagmatch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tagmatch")).args(args).output().expect("tagmatch runs")
}

pub fn traces() -> PathBuf {
    std::env::var_os("TAGMATCH_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces"))
}

pub fn json(out: &Output) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON array").as_array().unwrap().clone()
}

/// Runs `gen <args> --out <dir>`, which must succeed; returns the manifest it wrote.
pub fn generate(dir: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let mut args = [&["gen"], args].concat();
    args.extend(["--out", dir.to_str().unwrap()]);
    let out = tagmatch(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

pub fn one_line_error(out: &Output) -> String {
    assert!(!out.status.success(), "expected a failure, got: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("tagmatch: error: "), "{err}");
    err
}

/// `tagmatch` with extra environment variables.
pub fn tagmatch_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tagmatch"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("tagmatch runs")
}
