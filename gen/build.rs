//! Records the commit this binary is built from as `TAGMATCH_BUILD_COMMIT` (`+dirty` when
//! the crates' sources differ from it), so a timing record names the source of the Verilog
//! it timed, not whatever the workspace holds while the flow runs. Empty without git.

use std::path::Path;
use std::process::Command;

/// The sources the Verilog and the binary come from, relative to this crate (not the timing
/// records, which runs write).
const SOURCES: &[&str] = &[
    "../config",
    "../sim",
    "../hdl",
    "../testbench",
    ".",
    "../Cargo.toml",
    "../Cargo.lock",
    "../formal",
    "../recorder",
    "../scripts",
    "../constraints/boards",
];

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    // Rerun when HEAD or its branch moves, or a source changes; not on the index, which
    // `git status` rewrites.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let mut watched = vec![format!("{dir}/HEAD"), format!("{dir}/packed-refs")];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(format!("{dir}/{branch}"));
        }
        // A missing file would rerun the script on every build.
        for file in watched.iter().filter(|f| Path::new(f).exists()) {
            println!("cargo:rerun-if-changed={file}");
        }
    }
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
    }
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).map(|hash| {
        let mut diff = vec!["diff", "--quiet", "HEAD", "--"];
        diff.extend(SOURCES);
        let clean = Command::new("git").args(&diff).status().is_ok_and(|s| s.success());
        if clean {
            hash
        } else {
            format!("{hash}+dirty")
        }
    });
    println!("cargo:rustc-env=TAGMATCH_BUILD_COMMIT={}", commit.unwrap_or_default());
}
