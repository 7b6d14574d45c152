//! `tagmatch gen`: the receive engine's Verilog and a `manifest.json` describing it.
//!
//! rust-hdl sizes the CAM and the lists with const generics, so each configuration is a
//! separate instantiation compiled into this binary. The supported set is the paper's
//! (a 256-entry CAM in front of 32,768 list entries split into 1, 4, 16 or 64 lists), a
//! small one for quick simulation (an 8-entry CAM, 256 list entries), and two whose lists
//! fit a Lattice ECP5's block RAM for the open timing flow (a 256- or 64-entry CAM with
//! 4,096 list entries in 4 lists), and a tiny one (a 4-entry CAM and 4 lists of 3) that
//! any stream overflows, for the host driver; other values are refused with the list of what is
//! supported. The posting labels' width (`--label-bits`, 4 to 32) is a run-time parameter of
//! every configuration.

use crate::board_gen;
use crate::board_gen::ShellTarget;
use crate::boards::Board;
use serde_json::{json, Value};
use std::path::Path;
use tagmatch_hdl::receive_engine::{receive_engine_ports, receive_engine_verilog_with_labels};
use tagmatch_sim::cycle::two_level::{check_label_bits, TwoLevelConfig};

/// One generatable configuration: CAM depth, total list capacity, lists, address bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub cam_depth: u32,
    pub list_capacity: u32,
    pub lists: u32,
    pub list_address_bits: u32,
    /// Width of the lists' posting labels (`parallel_lists.rs`).
    pub label_bits: u32,
}

impl EngineConfig {
    /// Entries each list holds (node 0 of each list is never used).
    pub fn entries_per_list(&self) -> u32 {
        (1 << self.list_address_bits) - 1
    }

    /// Entries one queue (PRQ or UMQ) holds: the CAM and every list.
    pub fn queue_capacity(&self) -> u32 {
        self.cam_depth + self.lists * self.entries_per_list()
    }

    /// The cycle-accurate model of this configuration.
    pub fn model_config(&self) -> Result<TwoLevelConfig, String> {
        TwoLevelConfig::new(self.cam_depth as usize, self.lists as usize, self.entries_per_list() as usize)?
            .with_label_bits(self.label_bits)
    }

    /// The same configuration with posting labels of `bits` bits; out of range, an error
    /// naming the range.
    pub fn with_label_bits(self, bits: u32) -> Result<Self, String> {
        check_label_bits(bits)?;
        Ok(EngineConfig { label_bits: bits, ..self })
    }

    /// A warning when the lists hold more entries than the labels can keep in order:
    /// live list labels stay within half the label space, so past `2^(B-1)` entries list
    /// inserts answer overflow.
    pub fn label_warning(&self) -> Option<String> {
        let keep = 1u64 << (self.label_bits - 1);
        let lists = self.lists as u64 * self.entries_per_list() as u64;
        (lists > keep).then(|| {
            format!(
                "tagmatch: warning: {}-bit labels keep at most {keep} entries in a queue's lists, which \
                 hold {lists}: list inserts past that answer overflow",
                self.label_bits
            )
        })
    }

    /// A name for the configuration's Verilator build, e.g. `engine-c256-a13-n4` (and
    /// `-l6` for 6-bit labels).
    pub fn build_name(&self) -> String {
        let labels = if self.label_bits == 32 { String::new() } else { format!("-l{}", self.label_bits) };
        format!("engine-c{}-a{}-n{}{labels}", self.cam_depth, self.list_address_bits, self.lists)
    }

    /// The configuration's Verilog (top module `top`).
    pub fn verilog(&self) -> Result<String, String> {
        verilog_of(self).ok_or_else(|| {
            format!(
                "no engine built for --cam-depth {} --lists {} --list-capacity {}",
                self.cam_depth, self.lists, self.list_capacity
            )
        })
    }
}

macro_rules! configurations {
    ($(($c:literal, $cap:literal, $n:literal, $a:literal)),* $(,)?) => {
        pub const SUPPORTED: &[EngineConfig] = &[
            $(EngineConfig {
                cam_depth: $c,
                list_capacity: $cap,
                lists: $n,
                list_address_bits: $a,
                label_bits: 32,
            }),*
        ];

        fn verilog_of(cfg: &EngineConfig) -> Option<String> {
            let bits = cfg.label_bits;
            match (cfg.cam_depth, cfg.lists, cfg.list_address_bits) {
                $(($c, $n, $a) => Some(receive_engine_verilog_with_labels::<$c, $a, $n>(bits)),)*
                _ => None,
            }
        }
    };
}

// (CAM depth, list capacity, lists, address bits per list): each list gets a block RAM of
// capacity / lists words, of which node 0 is the null pointer, so the lists together hold
// `lists` entries fewer than the capacity (32,764 of 32,768 with 4 lists).
configurations!(
    (256, 32768, 1, 15),
    (256, 32768, 4, 13),
    (256, 32768, 16, 11),
    (256, 32768, 64, 9),
    (256, 4096, 4, 10),
    (64, 4096, 4, 10),
    (8, 256, 1, 8),
    (8, 256, 4, 6),
    (4, 16, 4, 2),
    (8, 256, 16, 4),
    (8, 256, 64, 2),
);

/// The supported configuration for these parameters, or a one-line reason.
pub fn configuration(cam_depth: u32, lists: u32, list_capacity: u32) -> Result<EngineConfig, String> {
    if !lists.is_power_of_two() || lists > 64 {
        return Err(format!("--lists {lists}: the number of lists must be a power of two from 1 to 64"));
    }
    SUPPORTED
        .iter()
        .find(|c| c.cam_depth == cam_depth && c.lists == lists && c.list_capacity == list_capacity)
        .copied()
        .ok_or_else(|| {
            let list: Vec<String> = SUPPORTED
                .iter()
                .map(|c| format!("--cam-depth {} --lists {} --list-capacity {}", c.cam_depth, c.lists, c.list_capacity))
                .collect();
            format!(
                "no engine built for --cam-depth {cam_depth} --lists {lists} --list-capacity {list_capacity}; supported: {}",
                list.join("; ")
            )
        })
}

/// The engine's Verilog file in every output folder.
pub const ENGINE_FILE: &str = "tagmatch_engine.v";

/// FNV-1a of the emitted text: a content hash scripts can compare.
pub fn content_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
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
/// (`tagmatch_hdl::event_safe`): the same logic, each combinational signal assigned once
/// per pass. It is not the default because the rewrite makes the Verilog a third larger,
/// and Verilator's C++ for the 256-entry, 64-list engine then needed more than 11 GB per
/// compiler process.
pub fn generate(
    cfg: &EngineConfig,
    packaging: Packaging,
    out: &Path,
    event_safe: bool,
) -> Result<serde_json::Value, String> {
    let file = ENGINE_FILE;
    let verilog = cfg.verilog()?;
    let verilog = if event_safe { tagmatch_hdl::event_safe::settle_once(&verilog) } else { verilog };
    write_verilog(out, file, &verilog)?;
    let ports = ports_json(receive_engine_ports());
    let mut files = vec![file.to_string()];
    // The top module (the engine inside is `engine_top`), its clock, and what wraps it.
    let (top, clock, board_json, shell_json) = match packaging {
        Packaging::Bare => ("top", "clock", Value::Null, Value::Null),
        Packaging::Board(b) => {
            files.extend(board_gen::generate(b, file, out)?);
            let board = json!({
                "name": b.name,
                "vendor": b.vendor.name(),
                "family": b.family,
                "part": b.part,
                "interface": b.interface(),
                "clock_port": b.clock.port,
                "clock_mhz": b.clock.mhz,
                "engine_mhz": b.engine_mhz(),
            });
            (board_gen::WRAPPER_MODULE, b.clock.port.as_str(), board, Value::Null)
        }
        Packaging::Shell(s) => {
            files.extend(board_gen::generate_shell(s, file, out)?);
            let shell = json!({
                "vendor": s.vendor.name(),
                "interface": s.vendor.interface(),
                "part": s.part,
                "clock_mhz": s.clock_mhz,
            });
            (board_gen::SHELL_MODULE, board_gen::shell_clock_reset(s.vendor).0, Value::Null, shell)
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
        "ports": ports,
    });
    write_manifest(out, &manifest)?;
    Ok(manifest)
}

/// The manifest's `parameters`: the configuration and its field widths (what a timing
/// record is keyed by).
pub fn parameters(cfg: &EngineConfig) -> serde_json::Value {
    json!({
        "cam_depth": cfg.cam_depth,
        "lists": cfg.lists,
        "list_capacity": cfg.list_capacity,
        "entries_per_list": cfg.entries_per_list(),
        "queue_capacity": cfg.queue_capacity(),
        "handle_bits": 32,
        "comm_bits": 16,
        "source_bits": 16,
        "tag_bits": 32,
        "label_bits": cfg.label_bits,
    })
}

/// Writes `verilog` as `out/file`, creating `out` first.
pub fn write_verilog(out: &Path, file: &str, verilog: &str) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let path = out.join(file);
    std::fs::write(&path, verilog).map_err(|e| format!("cannot write {}: {e}", path.display()))
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
