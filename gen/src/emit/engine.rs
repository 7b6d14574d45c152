//! `tagmatch gen`: the receive engine's Verilog and a `manifest.json` describing it.
//!
//! Every size is chosen on the command line: a CAM of 2 to 1,024 entries, 1 to 64 lists (a
//! power of two: the lists' tournament tree pairs them) sharing a list capacity of 4 words
//! per list up to 32,768 words, labels of 4 to 32 bits, and communicators, sources, tags
//! and handles of 1 to 32 bits each (`tagmatch_hdl::fields`). The engine's blocks take these
//! when the Verilog is generated (`tagmatch_config::EngineShape`), so the binary holds one
//! engine per list address width, not one per configuration, and adding a size costs no
//! compile time. Out-of-range values get a one-line error naming the range.

use crate::board::build::ShellTarget;
use crate::board::catalog::Board;
use serde_json::{json, Value};
use std::path::Path;
use tagmatch_hdl::two_level::receive_engine::receive_engine_ports;

pub use super::engine_shape::{build_name, configuration, label_warning, verilog, EngineShape};

/// The engine's Verilog file in every output folder.
pub const ENGINE_FILE: &str = "tagmatch_engine.v";

/// FNV-1a of the emitted text below its generated header ([`HEADER_PREFIX`] lines): a
/// content hash scripts can compare. The header names the command line, which differs
/// between runs that emit the same design, so it is not hashed.
pub fn content_hash(text: &str) -> String {
    let mut h = tagmatch_hdl::generate::Fnv1a::default();
    h.update(without_header(text).as_bytes());
    format!("{:016x}", h.finish())
}

/// Every line of an emitted file's generated header starts with this.
pub const HEADER_PREFIX: &str = "//| ";

/// `text` past its leading header lines.
pub fn without_header(text: &str) -> &str {
    let mut rest = text;
    while rest.starts_with(HEADER_PREFIX) {
        rest = rest.split_once('\n').map_or("", |(_, after)| after);
    }
    rest
}

/// The header every emitted Verilog file starts with: what wrote it and how to write it
/// again, its parameters, the hash of the text below it and its ports.
fn header(file: &str, verilog: &str, parameters: &Value, ports: &[Value]) -> String {
    let command: Vec<String> =
        std::env::args().enumerate().map(|(i, a)| if i == 0 { "tagmatch".to_string() } else { a }).collect();
    let parameters = parameters
        .as_object()
        .map(|p| p.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", "))
        .unwrap_or_default();
    let ports: Vec<String> = ports
        .iter()
        .map(|p| {
            let dir = if p["direction"] == "input" { "in" } else { "out" };
            format!("{} {dir} {}", p["name"].as_str().unwrap_or_default(), p["width"])
        })
        .collect();
    let mut lines = vec![
        format!(
            "{file}: written by tagmatch {}; do not edit, run the command again",
            env!("CARGO_PKG_VERSION")
        ),
        format!("command: {}", command.join(" ")),
        format!("parameters: {parameters}"),
        format!("content hash (FNV-1a of the text below this header): {}", content_hash(verilog)),
    ];
    // Ports, a few to a line, so the header stays readable for the wide designs.
    for (i, chunk) in ports.chunks(6).enumerate() {
        lines.push(format!("{}{}", if i == 0 { "ports: " } else { "       " }, chunk.join(", ")));
    }
    lines.iter().map(|l| format!("{HEADER_PREFIX}{l}\n")).collect()
}

/// How `generate` wraps the engine: not at all, in a board's top level, or as an IP core.
#[derive(Clone, Copy)]
pub enum Packaging<'a> {
    Bare,
    Board(&'a Board),
    Shell(&'a ShellTarget),
}

/// Writes `tagmatch_engine.v` and `manifest.json` into `out`, and with a board its
/// wrapper, constraints and project script (as an IP core, the shell and its packaging);
/// returns the manifest. `event_safe` writes the engine for event-driven simulators
/// (`tagmatch_hdl::passes::event_safe`): the same logic, each combinational signal assigned once
/// per pass. It is not the default because the rewrite makes the Verilog a third larger,
/// and Verilator's C++ for the 256-entry, 64-list engine then needed more than 11 GB per
/// compiler process.
pub fn generate(
    cfg: &EngineShape,
    packaging: Packaging,
    out: &Path,
    event_safe: bool,
) -> Result<serde_json::Value, String> {
    let file = ENGINE_FILE;
    let verilog = verilog(cfg)?;
    let verilog = if event_safe { tagmatch_hdl::passes::event_safe::settle_once(&verilog) } else { verilog };
    let ports = ports_json(receive_engine_ports());
    write_verilog(out, file, &verilog, &parameters(cfg), &ports)?;
    let mut files = vec![file.to_string()];
    // The top module (the engine inside is `engine_top`), its clock, and what wraps it.
    let (top, clock, board_json, shell_json) = match packaging {
        Packaging::Bare => ("top", "clock", Value::Null, Value::Null),
        Packaging::Board(b) => {
            files.extend(crate::board::build::generate(b, cfg, file, out)?);
            let board = json!({
                "name": b.name,
                "vendor": b.vendor.name(),
                "family": b.family,
                "part": b.part,
                "self_test_pairs": crate::board::build::selftest_pairs(cfg),
                "leds": b.leds.len(),
                "clock_port": b.clock.port,
                "clock_mhz": b.clock.mhz,
                "engine_mhz": b.engine_mhz(),
            });
            (crate::board::build::WRAPPER_MODULE, b.clock.port.as_str(), board, Value::Null)
        }
        Packaging::Shell(s) => {
            files.extend(crate::board::build::generate_shell(s, &cfg.fields, file, out)?);
            let shell = json!({
                "vendor": s.vendor.name(),
                "interface": s.vendor.interface(),
                "part": s.part,
                "clock_mhz": s.clock_mhz,
            });
            (
                crate::board::build::SHELL_MODULE,
                crate::board::build::shell_clock_reset(s.vendor).0,
                Value::Null,
                shell,
            )
        }
    };
    // The hash covers every emitted file, in the manifest's order.
    let mut all = String::new();
    for f in &files {
        all += &std::fs::read_to_string(out.join(f)).map_err(|e| format!("cannot read back {f}: {e}"))?;
    }
    let manifest = json!({
        "top": top,
        "engine_top": "top",
        "board": board_json,
        "shell": shell_json,
        "files": files,
        "hash": content_hash(&all),
        "clock": clock,
        "event_safe": event_safe,
        "parameters": parameters(cfg),
        // A queue always takes this many entries; up to `queue_capacity` when its CAM's
        // banks are not wasted (`hdl/src/cam.rs`). Past it an insert may be answered
        // overflow, which the host driver falls back on.
        "queue_guaranteed": cfg.guaranteed_capacity(),
        "cam_banks": tagmatch_hdl::two_level::cam::banks(cfg.cam_depth),
        "ports": ports,
    });
    write_manifest(out, &manifest)?;
    Ok(manifest)
}

/// The manifest's `parameters`: the configuration and its field widths (what a timing
/// record is keyed by).
pub fn parameters(cfg: &EngineShape) -> serde_json::Value {
    json!({
        "cam_depth": cfg.cam_depth,
        "lists": cfg.lists,
        "list_capacity": cfg.list_capacity(),
        "entries_per_list": cfg.entries_per_list,
        "queue_capacity": cfg.queue_capacity(),
        "handle_bits": cfg.fields.handle,
        "comm_bits": cfg.fields.comm,
        "source_bits": cfg.fields.src,
        "tag_bits": cfg.fields.tag,
        "label_bits": cfg.label_bits,
    })
}

/// Writes `verilog` as `out/file` behind its generated header, creating `out` first.
pub fn write_verilog(
    out: &Path,
    file: &str,
    verilog: &str,
    parameters: &Value,
    ports: &[Value],
) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let path = out.join(file);
    let text = header(file, verilog, parameters, ports) + verilog;
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A design's (name, width, is input) ports as the manifest lists them.
pub fn ports_json<S: AsRef<str>>(ports: impl IntoIterator<Item = (S, u32, bool)>) -> Vec<serde_json::Value> {
    ports
        .into_iter()
        .map(|(n, w, i)| json!({"name": n.as_ref(), "width": w, "direction": if i { "input" } else { "output" }}))
        .collect()
}

pub fn write_manifest(out: &Path, manifest: &serde_json::Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(manifest).expect("JSON values serialize") + "\n";
    std::fs::write(out.join("manifest.json"), text).map_err(|e| format!("cannot write the manifest: {e}"))
}
