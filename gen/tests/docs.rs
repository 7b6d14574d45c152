//! The generated documentation is current: docs/cli.md matches the command line,
//! docs/results.md and the README's results table match the timing records.

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
