//! `tagmatch gen --engine optimistic`: the optimistic thread array's Verilog and a
//! `manifest.json` describing it.
//!
//! As for the two-level engine, rust-hdl sizes the array with const generics, so each
//! shape is an instantiation compiled into this binary: 1, 2, 4, 8, 16 or 32 lanes, each
//! with the default tables (128 receive descriptors, 64 bins per hashed index, a
//! 64-entry UMQ) or the small ones the tests co-simulate (32 descriptors, 4 bins, 16
//! messages). 128 descriptors hold the rate benchmark's sequences of 100 receives; the
//! descriptor table is registers that every lane reads, so its Verilator build time and
//! its logic grow with lanes × descriptors.

use crate::engine_gen::{content_hash, ports_json, write_manifest, write_verilog};
use serde_json::json;
use std::path::Path;
use tagmatch_hdl::thread_array::{thread_array_ports, thread_array_verilog};
use tagmatch_sim::optimistic::OptimisticConfig;
use tagmatch_testbench::thread_array::thread_array_build_name;

/// One generatable shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadArrayConfig {
    pub threads: usize,
    pub descriptors: usize,
    /// The head tables hold 2^head_bits lists: 2^(head_bits - 2) bins per hashed index.
    pub head_bits: usize,
    pub unexpected: usize,
    pub fast_path: bool,
}

/// The Verilog file in every output folder.
pub const THREAD_ARRAY_FILE: &str = "tagmatch_thread_array.v";

impl ThreadArrayConfig {
    pub fn bins(&self) -> usize {
        1 << (self.head_bits - 2)
    }

    /// The functional and cycle-level model of this shape.
    pub fn model_config(&self) -> OptimisticConfig {
        let mut cfg =
            OptimisticConfig::hardware(self.threads, self.descriptors, self.bins(), self.unexpected);
        cfg.fast_path = self.fast_path;
        cfg
    }

    /// A name for the shape's Verilator build, e.g. `thread-array-t16-d128-b64-u64-fp1`.
    pub fn build_name(&self) -> String {
        thread_array_build_name(&self.model_config())
    }

    pub fn verilog(&self) -> Result<String, String> {
        verilog_of(self).ok_or_else(|| {
            format!(
                "no thread array built for {} threads, {} descriptors, {} bins, {} unexpected messages",
                self.threads,
                self.descriptors,
                self.bins(),
                self.unexpected
            )
        })
    }
}

macro_rules! shapes {
    ($(($t:literal, $d:literal, $h:literal, $u:literal)),* $(,)?) => {
        /// (threads, descriptors, head bits, UMQ entries) compiled in.
        pub const SHAPES: &[(usize, usize, usize, usize)] = &[$(($t, $d, $h, $u)),*];

        fn verilog_of(cfg: &ThreadArrayConfig) -> Option<String> {
            match (cfg.threads, cfg.descriptors, cfg.head_bits, cfg.unexpected) {
                $(($t, $d, $h, $u) => Some(thread_array_verilog::<$t, $d, $h, $u>(cfg.fast_path)),)*
                _ => None,
            }
        }
    };
}

shapes!(
    (1, 128, 8, 64),
    (2, 128, 8, 64),
    (4, 128, 8, 64),
    (8, 128, 8, 64),
    (16, 128, 8, 64),
    (32, 128, 8, 64),
    (1, 32, 4, 16),
    (2, 32, 4, 16),
    (4, 32, 4, 16),
    (8, 32, 4, 16),
    (16, 32, 4, 16),
    (32, 32, 4, 16),
);

/// The default tables and the small ones, by descriptor count.
pub const DEFAULT_DESCRIPTORS: usize = 128;
pub const SMALL_DESCRIPTORS: usize = 32;

/// The compiled-in shape for `threads` lanes and `descriptors` descriptors, or a one-line
/// reason naming what is supported.
pub fn configuration(
    threads: usize,
    descriptors: usize,
    fast_path: bool,
) -> Result<ThreadArrayConfig, String> {
    SHAPES
        .iter()
        .find(|&&(t, d, _, _)| t == threads && d == descriptors)
        .map(|&(threads, descriptors, head_bits, unexpected)| ThreadArrayConfig {
            threads,
            descriptors,
            head_bits,
            unexpected,
            fast_path,
        })
        .ok_or_else(|| {
            format!(
                "no thread array built for --threads {threads} --descriptors {descriptors}; supported: \
                 --threads 1, 2, 4, 8, 16 or 32 with --descriptors {DEFAULT_DESCRIPTORS} (64 bins, 64 unexpected \
                 messages) or {SMALL_DESCRIPTORS} (4 bins, 16 unexpected messages)"
            )
        })
}

/// Writes the Verilog and `manifest.json` into `out`; returns the manifest.
pub fn generate(cfg: &ThreadArrayConfig, out: &Path) -> Result<serde_json::Value, String> {
    let verilog = cfg.verilog()?;
    write_verilog(out, THREAD_ARRAY_FILE, &verilog)?;
    let ports = ports_json(thread_array_ports(cfg.threads));
    let manifest = json!({
        "engine": "optimistic",
        "top": "top",
        "files": [THREAD_ARRAY_FILE],
        "hash": content_hash(&verilog),
        "clock": "clock",
        "parameters": parameters(cfg),
        "ports": ports,
    });
    write_manifest(out, &manifest)?;
    Ok(manifest)
}

/// The manifest's `parameters` (what a timing record is keyed by).
pub fn parameters(cfg: &ThreadArrayConfig) -> serde_json::Value {
    json!({
        "threads": cfg.threads,
        "descriptors": cfg.descriptors,
        "bins": cfg.bins(),
        "index_lists": 3 * cfg.bins() + 1,
        "unexpected": cfg.unexpected,
        "fast_path": cfg.fast_path,
        "handle_bits": 32,
        "comm_bits": 16,
        "source_bits": 16,
        "tag_bits": 32,
    })
}

/// Every compiled-in shape, with and without the fast path.
pub fn all_configurations() -> impl Iterator<Item = ThreadArrayConfig> {
    SHAPES.iter().flat_map(|&(threads, descriptors, head_bits, unexpected)| {
        [true, false].map(|fast_path| ThreadArrayConfig {
            threads,
            descriptors,
            head_bits,
            unexpected,
            fast_path,
        })
    })
}
