//! `tagmatch gen --engine onesided`: the one-sided offload unit's Verilog and a
//! `manifest.json` describing it; `cosim --engine onesided` and `bench onesided` run it.
//!
//! rust-hdl sizes the unit with const generics, so each size is an instantiation compiled
//! into this binary: 4, 16 or 64 windows with 16-bit counters (65,535 requests in flight
//! per window), 16 windows with 32-bit counters, and 4 windows with 3-bit counters, which
//! the tests drive to saturation.

use crate::emit::engine::{content_hash, ports_json, write_manifest, write_verilog};
use serde_json::json;
use std::path::Path;
use tagmatch_hdl::onesided::{onesided_ports, onesided_verilog};
use tagmatch_sim::onesided::UnitConfig;

/// The Verilog file in every output folder.
pub const ONESIDED_FILE: &str = "tagmatch_onesided.v";

macro_rules! sizes {
    ($(($w:literal, $c:literal)),* $(,)?) => {
        /// (windows, counter bits) compiled in.
        pub const SIZES: &[(usize, u32)] = &[$(($w, $c)),*];

        fn verilog_of(cfg: &UnitConfig) -> Option<String> {
            match (cfg.windows, cfg.counter_bits) {
                $(($w, $c) => Some(onesided_verilog::<$w, $c>()),)*
                _ => None,
            }
        }
    };
}

sizes!((4, 3), (4, 16), (16, 16), (64, 16), (16, 32));

pub const DEFAULT: UnitConfig = UnitConfig { windows: 16, counter_bits: 16 };

/// The compiled-in size, or a one-line reason naming what is.
pub fn configuration(windows: Option<usize>, counter_bits: Option<u32>) -> Result<UnitConfig, String> {
    let cfg = UnitConfig {
        windows: windows.unwrap_or(DEFAULT.windows),
        counter_bits: counter_bits.unwrap_or(DEFAULT.counter_bits),
    };
    if SIZES.contains(&(cfg.windows, cfg.counter_bits)) {
        return Ok(cfg);
    }
    let list: Vec<String> = SIZES.iter().map(|(w, c)| format!("--windows {w} --counter-bits {c}")).collect();
    Err(format!(
        "no one-sided unit built for --windows {} --counter-bits {}; supported: {}",
        cfg.windows,
        cfg.counter_bits,
        list.join("; ")
    ))
}

pub fn verilog(cfg: &UnitConfig) -> Result<String, String> {
    verilog_of(cfg).ok_or_else(|| {
        format!("no one-sided unit built for {} windows of {}-bit counters", cfg.windows, cfg.counter_bits)
    })
}

/// A name for the size's Verilator build, e.g. `onesided-w16-c16`.
pub fn build_name(cfg: &UnitConfig) -> String {
    format!("onesided-w{}-c{}", cfg.windows, cfg.counter_bits)
}

/// The manifest's `parameters` (what a timing record is keyed by).
pub fn parameters(cfg: &UnitConfig) -> serde_json::Value {
    json!({
        "windows": cfg.windows,
        "counter_bits": cfg.counter_bits,
        "max_outstanding_per_window": cfg.max_outstanding(),
        "target_bits": 16,
        "bytes_bits": 32,
    })
}

/// Every compiled-in size.
pub fn all_configurations() -> impl Iterator<Item = UnitConfig> {
    SIZES.iter().map(|&(windows, counter_bits)| UnitConfig { windows, counter_bits })
}

/// Writes the Verilog and `manifest.json` into `out`; returns the manifest.
pub fn generate(cfg: &UnitConfig, out: &Path) -> Result<serde_json::Value, String> {
    let text = verilog(cfg)?;
    let ports = ports_json(onesided_ports());
    write_verilog(out, ONESIDED_FILE, &text, &parameters(cfg), &ports)?;
    let manifest = json!({
        "engine": "onesided",
        "top": "top",
        "files": [ONESIDED_FILE],
        "hash": content_hash(&text),
        "clock": "clock",
        "reset": "reset",
        "parameters": parameters(cfg),
        "ports": ports,
    });
    write_manifest(out, &manifest)?;
    Ok(manifest)
}
