//! The generated documentation is current: docs/cli.md matches the command line,
//! docs/results.md and the README's results table match the timing records, and the
//! timing diagrams match the RTL.

use std::process::Command;

#[test]
fn generated_docs_are_current() {
    let out = Command::new(env!("CARGO_BIN_EXE_tagmatch"))
        .args(["docs", "--check"])
        .output()
        .expect("tagmatch runs");
    assert!(
        out.status.success(),
        "generated documentation is stale:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The timing diagrams in docs/waves/ are what the RTL draws now (a Verilator run of a
/// small engine, scenario by scenario).
#[test]
fn timing_diagrams_match_the_rtl() {
    let out = Command::new(env!("CARGO_BIN_EXE_tagmatch"))
        .args(["waves", "--check"])
        .output()
        .expect("tagmatch runs");
    assert!(
        out.status.success(),
        "the diagrams differ from the RTL's signals:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
