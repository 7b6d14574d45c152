//! `tagmatch gen --estimate`: resource estimates from yosys for the emitted engine.
//!
//! Two syntheses of the engine alone (no board wrapper, no IO buffers), flattened:
//! - `synth_xilinx -family xcup` (UltraScale+): LUTs, flip-flops, block RAM in RAMB18
//!   units (a RAMB36 counts two), LUT RAM cells;
//! - `synth_intel_alm -family cyclonev`: yosys has no Stratix or Agilex flow, so Cyclone V
//!   ALMs stand in: LUTs as ALUT cells (an ALM holds one or two), flip-flops, M10K blocks.
//!
//! For each, the longest combinational path in cells (`ltp`; flip-flops and block RAMs cut
//! the paths) is the only timing figure an open flow gives: no open tool times Stratix or
//! UltraScale parts.

use crate::output::table::Record;
use serde_json::{json, Value};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// One synthesis' figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    pub flow: &'static str,
    pub luts: u64,
    pub flip_flops: u64,
    /// Xilinx: RAMB18 equivalents; Intel: M10K blocks.
    pub block_rams: u64,
    pub lut_rams: u64,
    pub logic_levels: u64,
    /// Bits in the design's memories (`reg [w-1:0] m [d-1:0]`), whatever they map to.
    pub memory_bits: u64,
    pub seconds: f64,
}

impl Estimate {
    /// A table row for the design whose shape `shape` names (its leading columns).
    pub fn record(&self, shape: &Record) -> Record {
        let mut row = vec![("flow", json!(self.flow))];
        row.extend(shape.iter().cloned());
        row.extend([
            ("luts", json!(self.luts)),
            ("flip_flops", json!(self.flip_flops)),
            ("block_rams", json!(self.block_rams)),
            ("lut_rams", json!(self.lut_rams)),
            ("logic_levels", json!(self.logic_levels)),
            ("memory_kib", json!(self.memory_bits / 8192)),
            ("seconds", json!((self.seconds * 10.0).round() / 10.0)),
        ]);
        row
    }

    pub fn to_json(&self) -> Value {
        json!({
            "flow": self.flow,
            "luts": self.luts,
            "flip_flops": self.flip_flops,
            "block_rams": self.block_rams,
            "lut_rams": self.lut_rams,
            "logic_levels": self.logic_levels,
            "memory_bits": self.memory_bits,
            "seconds": (self.seconds * 10.0).round() / 10.0,
        })
    }
}

/// Cell counts from a yosys `stat` report: (cell type, count).
fn cell_counts(stat: &str) -> Vec<(String, u64)> {
    stat.lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (name, count) = (parts.next()?, parts.next()?);
            if parts.next().is_some() || name.starts_with('$') && name.contains("auto") {
                return None;
            }
            Some((name.to_string(), count.parse().ok()?))
        })
        .collect()
}

fn sum(cells: &[(String, u64)], pred: impl Fn(&str) -> bool) -> u64 {
    cells.iter().filter(|(n, _)| pred(n)).map(|(_, c)| c).sum()
}

/// Bits of every memory the Verilog declares, as rust-hdl writes them:
/// `reg[15:0] mem[8191:0];` (width × depth).
pub fn memory_bits(verilog: &str) -> u64 {
    let range = |s: &str| -> Option<u64> {
        let (hi, lo) = s.trim().strip_prefix('[')?.strip_suffix(']')?.split_once(':')?;
        Some(hi.trim().parse::<u64>().ok()?.abs_diff(lo.trim().parse().ok()?) + 1)
    };
    verilog
        .lines()
        .filter_map(|l| {
            let decl = l.trim().strip_prefix("reg")?.strip_suffix(';')?;
            let (width, rest) = decl.trim().split_at(decl.trim().find(']')? + 1);
            let depth = &rest[rest.find('[')?..];
            Some(range(width)? * range(depth)?)
        })
        .sum()
}

/// `Longest topological path in top (length=N)` → N.
fn path_length(ltp: &str) -> Option<u64> {
    let at = ltp.find("(length=")? + "(length=".len();
    ltp[at..].split(')').next()?.parse().ok()
}

/// Whether to stop a synthesis under way (the timing flow's budget ran out, or its ECP5
/// half failed); asked a few times a second.
pub type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// Never stops.
fn never() -> bool {
    false
}

/// The error of a synthesis stopped by its [`Stop`].
pub const STOPPED: &str = "stopped before it finished";

fn run_yosys(
    dir: &Path,
    verilog: &Path,
    synth: &str,
    cut: &str,
    stop: Stop,
) -> Result<(String, String, f64), String> {
    let stat = dir.join("stat.txt");
    let ltp = dir.join("ltp.txt");
    let script = format!(
        "read_verilog {v}; {synth}; {FLATTEN_KEPT}; tee -q -o {s} stat; tee -q -o {l} ltp -noff * {cut}",
        v = verilog.display(),
        s = stat.display(),
        l = ltp.display()
    );
    let started = std::time::Instant::now();
    let mut child = crate::flow::timing_tools::dies_with_parent(&mut Command::new("yosys"))
        .arg("-q")
        .arg("-p")
        .arg(&script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run yosys: {e} (apt-get install yosys)"))?;
    // stderr is read beside the wait, so a talkative yosys never blocks on a full pipe.
    let mut pipe = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut err = Vec::new();
        let _ = pipe.read_to_end(&mut err);
        err
    });
    let status = loop {
        match child.try_wait().map_err(|e| format!("yosys ({synth}) did not finish: {e}"))? {
            Some(status) => break status,
            None if stop() => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("yosys ({synth}) {STOPPED}"));
            }
            None => std::thread::sleep(std::time::Duration::from_millis(200)),
        }
    };
    let stderr = reader.join().unwrap_or_default();
    if !status.success() {
        let err = String::from_utf8_lossy(&stderr);
        let last = err
            .lines()
            .find(|l| l.starts_with("ERROR"))
            .or_else(|| err.lines().rev().find(|l| !l.trim().is_empty()))
            .unwrap_or("")
            .to_string();
        return Err(format!("yosys ({synth}) failed: {last}"));
    }
    let read =
        |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("yosys left no {}: {e}", p.display()));
    Ok((read(&stat)?, read(&ltp)?, started.elapsed().as_secs_f64()))
}

/// `synth_xilinx -family xcup` on `verilog` (top module `top`) in the scratch folder `dir`:
/// LUTs, flip-flops, RAMB18 units, LUT RAMs and the longest path in LUTs. `memory_bits`
/// is left for the caller.
pub fn xilinx(verilog: &Path, dir: &Path) -> Result<Estimate, String> {
    xilinx_until(verilog, dir, &never)
}

/// [`xilinx`], killed (an error ending in [`STOPPED`]) once `stop` says so.
pub fn xilinx_until(verilog: &Path, dir: &Path, stop: Stop) -> Result<Estimate, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (stat, ltp, seconds) = run_yosys(
        dir,
        verilog,
        "synth_xilinx -family xcup -top top -flatten -noiopad",
        "t:FD* %d t:RAMB* %d t:RAM64* %d t:RAM32* %d",
        stop,
    )?;
    let x = cell_counts(&stat);
    Ok(Estimate {
        flow: "yosys synth_xilinx (UltraScale+)",
        luts: sum(&x, |n| n.starts_with("LUT")),
        flip_flops: sum(&x, |n| n.starts_with("FD")),
        block_rams: sum(&x, |n| n.starts_with("RAMB18")) + 2 * sum(&x, |n| n.starts_with("RAMB36")),
        lut_rams: sum(&x, |n| n.starts_with("RAM64") || n.starts_with("RAM32")),
        logic_levels: path_length(&ltp).ok_or("yosys ltp printed no path length")?,
        memory_bits: 0,
        seconds,
    })
}

/// Flattens, after synthesis, the modules kept whole through it (`keep_hierarchy`, the
/// CAM's key copies: kept so that synthesis does not merge them), so that the counts and
/// paths cover one netlist.
pub const FLATTEN_KEPT: &str = "setattr -mod -unset keep_hierarchy *; flatten";

/// `synth_intel_alm -family cyclonev` on `verilog` in the scratch folder `dir`, as [`xilinx`].
pub fn intel(verilog: &Path, dir: &Path) -> Result<Estimate, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (stat, ltp, seconds) = run_yosys(
        dir,
        verilog,
        "synth_intel_alm -family cyclonev -top top",
        "t:MISTRAL_FF %d t:MISTRAL_M10K %d t:MISTRAL_MLAB %d",
        &never,
    )?;
    let i = cell_counts(&stat);
    Ok(Estimate {
        flow: "yosys synth_intel_alm (Cyclone V ALMs)",
        luts: sum(&i, |n| n.starts_with("MISTRAL_ALUT")),
        flip_flops: sum(&i, |n| n == "MISTRAL_FF"),
        block_rams: sum(&i, |n| n == "MISTRAL_M10K"),
        lut_rams: sum(&i, |n| n == "MISTRAL_MLAB"),
        logic_levels: path_length(&ltp).ok_or("yosys ltp printed no path length")?,
        memory_bits: 0,
        seconds,
    })
}

/// Runs both syntheses on `verilog` (top module `top`), side by side, in scratch folders
/// under `work`.
pub fn estimate(verilog: &Path, work: &Path) -> Result<Vec<Estimate>, String> {
    let text =
        std::fs::read_to_string(verilog).map_err(|e| format!("cannot read {}: {e}", verilog.display()))?;
    let memory_bits = memory_bits(&text);
    let (xilinx, intel) = std::thread::scope(|s| {
        let x = s.spawn(|| xilinx(verilog, &work.join("xilinx")));
        let i = intel(verilog, &work.join("intel"));
        (x.join().unwrap_or_else(|_| Err("the yosys thread panicked".into())), i)
    });
    Ok([xilinx?, intel?].into_iter().map(|e| Estimate { memory_bits, ..e }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_yosys_reports() {
        let stat = "   Number of wires:  10\n   Number of cells:  9\n     FDRE    4\n     LUT6   3\n     LUT2  1\n     RAMB36E2  1\n";
        let c = cell_counts(stat);
        assert_eq!(sum(&c, |n| n.starts_with("LUT")), 4);
        assert_eq!(sum(&c, |n| n.starts_with("FD")), 4);
        assert_eq!(path_length("Longest topological path in top (length=17):\n  0: x"), Some(17));
        assert_eq!(path_length("nothing"), None);
        let v = "    reg[15:0] mem[8191:0];\n    reg [31:0] lbl [0:3];\n    reg[3:0] state;\n";
        assert_eq!(memory_bits(v), 16 * 8192 + 32 * 4);
    }
}
