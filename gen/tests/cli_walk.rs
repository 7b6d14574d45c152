//! Every option of every subcommand that takes a value, given hostile numbers: the command
//! must finish with a clean answer (exit 0, or exit 1 or 2 with an error message), or still be
//! working when its time runs out, under a memory limit. Never a panic, an abort or an
//! allocation failure.
//!
//! The options come from the command's own definition (`tagmatch docs --options`), so a new
//! option is walked without editing this test. Values are tried one option at a time on top
//! of a base command line that gets each subcommand past its required inputs, and in the
//! combinations that multiply (lists of depths × lists × threads, a long stream with the
//! host driver's delay, sweeps crossing lists of a thousand values).

mod run;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tagmatch() -> &'static str {
    env!("CARGO_BIN_EXE_tagmatch")
}

/// 0, 1, −1, 2^31, 2^32, 2^63 and 10^12.
const VALUES: [&str; 7] =
    ["0", "1", "-1", "2147483648", "4294967296", "9223372036854775808", "1000000000000"];
/// Address space each run may take: far above any legal small run, far below what an
/// allocation proportional to an unchecked number asks for.
const MEMORY_KIB: u64 = 4 << 20;
/// A legal value may mean a long run; it only has to survive this long without failing.
const TIME_LIMIT: Duration = Duration::from_millis(2500);
/// Runs at once: most end in milliseconds, the long ones mostly wait for their limit.
const PARALLEL: usize = 4;

/// How one run ended.
#[derive(Debug)]
enum Ending {
    Clean,
    TimedOut,
    Bad(String),
}

fn run(args: &[String], dir: &Path) -> Ending {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB}; exec \"$0\" \"$@\""))
        .arg(tagmatch())
        .args(args)
        .current_dir(dir)
        .env("TAGMATCH_BUILD_DIR", dir.join("verilator"))
        .env("TAGMATCH_TIMING_RECORD", dir.join("no-record.json"))
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn().expect("spawn sh");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > TIME_LIMIT {
            // The whole group: a Verilator or yosys run the command started goes too.
            let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut stderr);
    }
    let failure = ["panicked", "memory allocation of", "RUST_BACKTRACE", "stack overflow", "Aborted"];
    if let Some(word) = failure.iter().find(|w| stderr.contains(*w)) {
        return Ending::Bad(format!("{word:?} on stderr: {stderr}"));
    }
    match status.map(|s| s.code()) {
        None => Ending::TimedOut,
        Some(Some(0)) => Ending::Clean,
        // Ours: `tagmatch: error: ...`; clap's: `error: ...` with its usage lines.
        Some(Some(1 | 2)) if stderr.contains("error:") => Ending::Clean,
        Some(code) => Ending::Bad(format!("exit {code:?}, stderr: {stderr}")),
    }
}

/// A command line that gets each subcommand past its required inputs, cheaply.
fn base(path: &[String], trace: &Path) -> Vec<String> {
    let words: Vec<&str> = path.iter().map(String::as_str).collect();
    let mut args: Vec<String> = path.to_vec();
    if words == ["bench", "onesided"] {
        args.extend(["--engine".to_string(), "model".to_string()]);
    }
    if words.first() == Some(&"trace") {
        args.push(trace.display().to_string());
    }
    args
}

/// A small real trace for the trace commands' positional, so their options are judged past
/// reading it: SST's test trace.
fn small_trace() -> PathBuf {
    run::traces().join("sst-testtrace")
}

fn options() -> Vec<(Vec<String>, Vec<String>)> {
    let out =
        Command::new(tagmatch()).args(["docs", "--options"]).output().expect("run tagmatch docs --options");
    assert!(out.status.success(), "tagmatch docs --options: {}", String::from_utf8_lossy(&out.stderr));
    let tree: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    tree.as_array()
        .expect("an array of subcommands")
        .iter()
        .map(|c| {
            let path =
                c["path"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect();
            let numeric = c["options"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| {
                    o["takes_value"] == true && o["possible_values"].as_array().is_some_and(|v| v.is_empty())
                })
                .map(|o| o["long"].as_str().unwrap().to_string())
                .collect();
            (path, numeric)
        })
        .collect()
}

/// Runs every command line, `PARALLEL` at a time; returns the bad endings.
fn walk(lines: Vec<Vec<String>>, dir: &Path) -> (Vec<String>, usize) {
    let lines = std::sync::Mutex::new(lines.into_iter());
    let bad = std::sync::Mutex::new(Vec::new());
    let timed_out = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for worker in 0..PARALLEL {
            let (lines, bad, timed_out) = (&lines, &bad, &timed_out);
            let dir = dir.join(format!("w{worker}"));
            std::fs::create_dir_all(&dir).unwrap();
            s.spawn(move || loop {
                let Some(line) = lines.lock().unwrap().next() else { break };
                match run(&line, &dir) {
                    Ending::Clean => {}
                    Ending::TimedOut => {
                        timed_out.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    Ending::Bad(why) => {
                        bad.lock().unwrap().push(format!("tagmatch {}: {why}", line.join(" ")))
                    }
                }
            });
        }
    });
    (bad.into_inner().unwrap(), timed_out.into_inner())
}

#[test]
fn every_numeric_option_takes_hostile_values_without_aborting() {
    let dir = std::env::temp_dir().join(format!("tagmatch-cli-walk-{}", std::process::id()));
    let trace = small_trace();
    assert!(trace.is_dir(), "no trace at {}", trace.display());
    let mut lines = Vec::new();
    for (path, numeric) in options() {
        for option in &numeric {
            for value in VALUES {
                let mut line = base(&path, &trace);
                line.extend([format!("--{option}"), value.to_string()]);
                lines.push(line);
            }
        }
    }
    // Combinations whose product would be the allocation; the sweeps' lists are short, but
    // every point's record would be reserved up front (a billion one-sided points asked for
    // 24 GB) or held to the end.
    let thousand = vec!["1"; 1000].join(",");
    let thousand_nc = vec!["nc"; 1000].join(",");
    let combos: &[&[&str]] = &[
        &[
            "bench",
            "preposted",
            "--backend",
            "model",
            "--depths",
            "1000000,1000000",
            "--lists",
            "1,4,64,1024",
        ],
        &["bench", "rate", "--threads", "1,2,4,8,16", "--k", "65536"],
        &["cosim", "--ops", "1000000000000", "--host", "split", "--delay", "1000000000000"],
        &["cosim", "--ops", "1000000000000", "--cam-depth", "4", "--lists", "1", "--list-capacity", "16"],
        &["bench", "onesided", "--backend", "model", "--requests", "1000000000"],
        &[
            "bench",
            "onesided",
            "--backend",
            "model",
            "--requests",
            &thousand,
            "--bytes",
            &thousand,
            "--compute",
            &thousand,
        ],
        &[
            "bench",
            "preposted",
            "--backend",
            "model",
            "--baselines",
            "none",
            "--lists",
            &thousand,
            "--depths",
            &thousand,
        ],
        &[
            "bench",
            "unload",
            "--backend",
            "model",
            "--host",
            "fallback",
            "--lists",
            &thousand,
            "--depths",
            &thousand,
        ],
        &["bench", "rate", "--threads", &thousand, "--scenario", &thousand_nc],
    ];
    lines.extend(combos.iter().map(|c| c.iter().map(|s| s.to_string()).collect()));
    let total = lines.len();
    assert!(total > 200, "only {total} command lines: did `docs --options` lose the options?");
    let (bad, timed_out) = walk(lines, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        bad.is_empty(),
        "{} of {total} runs failed badly ({timed_out} timed out):\n{}",
        bad.len(),
        bad.join("\n")
    );
    eprintln!("{total} command lines, {timed_out} still working at the time limit");
}
