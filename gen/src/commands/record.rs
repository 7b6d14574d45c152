//! `tagmatch record`: a live MPI run recorded as a DUMPI trace, then reported.
//!
//! The recorder is a PMPI interposition library in C (`recorder/`: `recorder.h` holds the
//! format and what it stores). C, not Rust: it has to export the MPI
//! symbols with the C ABI of the MPI the program links, so it is compiled by that MPI's
//! `mpicc` against that MPI's `mpi.h`, on the user's machine. The source is compiled into
//! this binary, and the library is built on first use next to it
//! (`recorder/libtagmatch_record-HASH.so`, HASH the sources'), so a changed source is a
//! new build and two checkouts never share a stale one.
//!
//! Open MPI's `mpirun` starts ranks with a clean environment except what `-x` names, so
//! the recorder reaches the ranks through `-x LD_PRELOAD=… -x TAGMATCH_RECORD_PREFIX=…`
//! inserted after the launcher; a program started alone gets the same variables directly.

use crate::cli::record::RecordArgs;
use crate::output::table::{render, Record};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use tagmatch_sim::cycle::two_level::EngineShape;
use tagmatch_sim::traces::replay::pending::BinHash;

/// The recorder's files (name, text): its header, then the files `mpicc` compiles.
const SOURCES: [(&str, &str); 6] = [
    ("recorder.h", include_str!("../../../recorder/recorder.h")),
    ("handles.c", include_str!("../../../recorder/handles.c")),
    ("trace_file.c", include_str!("../../../recorder/trace_file.c")),
    ("point_to_point.c", include_str!("../../../recorder/point_to_point.c")),
    ("collectives.c", include_str!("../../../recorder/collectives.c")),
    ("communicators.c", include_str!("../../../recorder/communicators.c")),
];
/// Launchers that forward environment variables only when `-x` names them (Open MPI).
const LAUNCHERS: [&str; 5] = ["mpirun", "mpiexec", "orterun", "mpirun.openmpi", "mpiexec.openmpi"];
const DEFAULT_PREFIX: &str = "trace";

/// Runs the program under the recorder and reports on its trace. Returns the exit status
/// to leave with: the program's.
pub fn run(args: RecordArgs) -> Result<u8, String> {
    if !(args.latency_us.is_finite() && args.latency_us >= 0.0) {
        return Err(format!("bad latency {}: microseconds, zero or more", args.latency_us));
    }
    let engine = EngineShape::model_from_list_capacity(
        args.cam_depth as usize,
        args.lists as usize,
        args.list_capacity as usize,
    )?;
    let prefix = args.prefix.clone().unwrap_or_else(|| DEFAULT_PREFIX.to_string());
    if prefix.is_empty() || prefix.contains('/') {
        return Err(format!("bad --prefix {prefix:?}: a file name, without '/'"));
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot make {}: {e}", args.out.display()))?;
    let out = args.out.canonicalize().map_err(|e| format!("{}: {e}", args.out.display()))?;
    remove_old_trace(&out, &prefix)?;
    let library = library()?;
    let status = run_program(&args.command, &library, &out.join(&prefix), !args.no_cpu_times)?;
    let report = report(&out, &prefix, engine, args.latency_us);
    match (report, status) {
        (Ok(records), _) => {
            let json: Vec<Value> = records
                .iter()
                .map(|(_, r)| Value::Object(r.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()))
                .collect();
            let path = out.join(format!("{prefix}.report.json"));
            std::fs::write(&path, serde_json::to_string_pretty(&json).expect("JSON values serialize"))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            let table = args.format == crate::output::table::Format::Table;
            let mut text = String::new();
            for (title, record) in &records {
                if table {
                    text += &format!("\n{title}\n");
                    text +=
                        &render(&crate::flow::record::for_table(std::slice::from_ref(record)), args.format);
                } else {
                    text += &render(std::slice::from_ref(record), args.format);
                }
            }
            // A reader that stops early (`| head`) is not an error.
            use std::io::Write;
            let _ = std::io::stdout().write_all(text.as_bytes());
            Ok(status)
        }
        (Err(e), 0) => Err(e),
        (Err(e), _) => {
            eprintln!("tagmatch: warning: the program failed and its trace does not read: {e}");
            Ok(status)
        }
    }
}

/// A rank file left by an earlier recording with the same prefix would join this one.
fn remove_old_trace(out: &Path, prefix: &str) -> Result<(), String> {
    let entries = std::fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let old = name == format!("{prefix}.meta")
            || (name.starts_with(&format!("{prefix}-")) && name.ends_with(".bin"));
        if old {
            std::fs::remove_file(entry.path()).map_err(|e| format!("cannot remove {name}: {e}"))?;
        }
    }
    Ok(())
}

/// The recorder's shared library, built with `mpicc` if these sources have not been yet.
pub fn library() -> Result<PathBuf, String> {
    let mut hash = tagmatch_hdl::generate::Fnv1a::default();
    for (name, text) in SOURCES {
        hash.update(name.as_bytes());
        hash.update(text.as_bytes());
    }
    let dir = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|p| p.join("recorder")))
        .unwrap_or_else(|| std::env::temp_dir().join("tagmatch-recorder"));
    let lib = dir.join(format!("libtagmatch_record-{:016x}.so", hash.finish()));
    if lib.exists() {
        return Ok(lib);
    }
    // Per process: tests (or users) building at once must not write over each other's sources.
    let sources = dir.join(format!("src-{:016x}.{}", hash.finish(), std::process::id()));
    std::fs::create_dir_all(&sources).map_err(|e| format!("cannot make {}: {e}", sources.display()))?;
    for (name, text) in SOURCES {
        let path = sources.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mpicc = mpicc()?;
    let partial = lib.with_extension(format!("so.{}", std::process::id()));
    eprintln!("tagmatch: building the recorder with {mpicc} (once)");
    let out = Command::new(&mpicc)
        // -flto: the wrappers inline the trace writer's helpers across files, as one file did.
        .args(["-O2", "-flto", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared", "-o"])
        .arg(&partial)
        .args(SOURCES.iter().filter(|(name, _)| name.ends_with(".c")).map(|(name, _)| sources.join(name)))
        .output()
        .map_err(|e| {
            format!("cannot run {mpicc} ({e}); install Open MPI: apt-get install openmpi-bin libopenmpi-dev")
        })?;
    if !out.status.success() {
        return Err(format!(
            "{mpicc} failed to build the recorder:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let _ = std::fs::remove_dir_all(&sources);
    std::fs::rename(&partial, &lib).map_err(|e| format!("cannot move the recorder into place: {e}"))?;
    Ok(lib)
}

/// `TAGMATCH_MPICC`, else Open MPI's `mpicc.openmpi`, else `mpicc`.
fn mpicc() -> Result<String, String> {
    if let Ok(cc) = std::env::var("TAGMATCH_MPICC") {
        return Ok(cc);
    }
    let found = |name: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(name).is_file()))
    };
    ["mpicc.openmpi", "mpicc"].into_iter().find(|c| found(c)).map(str::to_string).ok_or_else(|| {
        "no mpicc on PATH (set TAGMATCH_MPICC); install Open MPI: apt-get install openmpi-bin libopenmpi-dev".into()
    })
}

/// Runs `command` with the recorder in every rank; its exit status (128 + the signal for a
/// program killed by one).
fn run_program(command: &[String], library: &Path, prefix: &Path, cpu_times: bool) -> Result<u8, String> {
    let (program, rest) = command.split_first().ok_or("no command to run after `--`")?;
    let mut cmd = Command::new(program);
    let vars = [
        ("LD_PRELOAD", library.display().to_string()),
        ("TAGMATCH_RECORD_PREFIX", prefix.display().to_string()),
        ("TAGMATCH_RECORD_CPU_TIMES", (cpu_times as u8).to_string()),
    ];
    let name = Path::new(program).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for (var, value) in &vars {
        if LAUNCHERS.contains(&name.as_str()) {
            cmd.args(["-x", &format!("{var}={value}")]);
        } else {
            cmd.env(var, value);
        }
    }
    let status = cmd.args(rest).status().map_err(|e| format!("cannot run {program}: {e}"))?;
    use std::os::unix::process::ExitStatusExt;
    Ok(match (status.code(), status.signal()) {
        (Some(c), _) => c.clamp(0, 255) as u8,
        (None, Some(s)) => (128 + s).clamp(0, 255) as u8,
        _ => 1,
    })
}

/// The trace's queue depths, and its replay through the engine behind the host driver with
/// cycles and, where the engine's clock is recorded, nanoseconds.
fn report(
    out: &Path,
    prefix: &str,
    engine: EngineShape,
    latency_us: f64,
) -> Result<Vec<(String, Record)>, String> {
    let meta = out.join(format!("{prefix}.meta"));
    let path = if meta.exists() { meta } else { out.to_path_buf() };
    // Read once: the counts, the depths and the replay all come from this run.
    let (run, events) = super::trace::load(&path)?;
    let mut calls = 0u64;
    for (_, t) in &run.ranks {
        calls += t.records.len() as u64;
    }
    let substituted: u64 = run
        .meta
        .iter()
        .filter(|(k, _)| k.starts_with("substituted-"))
        .filter_map(|(_, v)| v.parse::<u64>().ok())
        .sum();
    let trace: Record = vec![
        ("trace", json!(path.display().to_string())),
        ("ranks", json!(run.ranks.len())),
        ("calls_recorded", json!(calls)),
        ("matched_probe_calls_substituted", json!(substituted)),
    ];
    let stats =
        super::trace::stats(&events, crate::cli::trace::Mode::Full, BinHash::Own, &[1], latency_us, false)?;
    let mut replay =
        super::trace::replay_engine(&events, super::trace::ReplayEngine::Model(engine), latency_us, false)?;
    let mut warnings = Vec::new();
    let clock = crate::flow::record::two_level_clock(
        &crate::flow::record::load()?,
        engine.cam_depth as u32,
        engine.lists as u32,
        engine.list_capacity() as u32,
        &mut warnings,
    )?;
    for w in warnings {
        eprintln!("tagmatch: warning: {w}");
    }
    let mut engine_record = replay.pop().ok_or("the replay gave no record")?;
    let cycles = crate::output::table::field(&engine_record, "cycles").as_f64().unwrap_or(0.0);
    let ops = crate::output::table::field(&engine_record, "ops").as_f64().unwrap_or(0.0);
    let (fmax, device, ns, ns_per_op) = match clock {
        Some(c) => {
            let ns = cycles * 1000.0 / c.fmax_mhz;
            (
                json!(c.fmax_mhz),
                json!(c.device),
                json!(ns.round() as u64),
                json!(if ops > 0.0 { (ns / ops * 10.0).round() / 10.0 } else { 0.0 }),
            )
        }
        None => (Value::Null, Value::Null, Value::Null, Value::Null),
    };
    engine_record.extend([("fmax_mhz", fmax), ("device", device), ("ns", ns), ("ns_per_op", ns_per_op)]);
    let mut out = vec![("The trace".to_string(), trace)];
    out.extend(stats.into_iter().map(|r| ("Queue depths (full mode, one bin)".to_string(), r)));
    let title = format!(
        "The receive engine (CAM {}, {} lists, queue {}) behind the host driver",
        engine.cam_depth,
        engine.lists,
        engine.queue_capacity()
    );
    out.push((title, engine_record));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library exports the MPI wrappers and nothing else: a helper of its own that
    /// stayed visible would interpose on a program's symbol of the same name.
    #[test]
    fn the_recorder_exports_only_mpi_functions() {
        let lib = library().unwrap();
        let out = Command::new("nm").args(["-D", "--defined-only"]).arg(&lib).output().unwrap();
        assert!(out.status.success(), "nm: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let symbols: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().nth(2)).collect();
        assert!(symbols.contains(&"MPI_Irecv") && symbols.contains(&"MPI_Comm_split"), "{symbols:?}");
        let others: Vec<_> = symbols.iter().filter(|s| !s.starts_with("MPI_")).collect();
        assert!(others.is_empty(), "exported besides the MPI wrappers: {others:?}");
    }
}
