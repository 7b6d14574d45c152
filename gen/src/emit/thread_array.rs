//! `tagmatch gen --engine optimistic`: the optimistic thread array's Verilog and a
//! `manifest.json` describing it.
//!
//! Every size is chosen on the command line (`--threads` 1 to 64, `--descriptors` 2 to
//! 32,767, `--bins` a power of two from 1 to 16,384 per hashed index, `--umq` 2 to 256
//! unexpected messages); the array takes them when its Verilog is generated
//! (`tagmatch_hdl::optimistic::thread_array::ThreadArrayShape`), so one compiled block serves every
//! shape. The default tables are 128 receive descriptors, 64 bins and a 64-entry UMQ (128
//! descriptors hold the rate benchmark's sequences of 100 receives); the small ones the
//! tests co-simulate are 32 descriptors, 4 bins and 16 messages, and `--bins`/`--umq`
//! default to them when `--descriptors` is 32 or fewer. `--comm-bits`, `--source-bits`,
//! `--tag-bits` and `--handle-bits` narrow the stored fields (at most 16, 16, 32 and 32
//! bits, the ports' widths and the defaults). The descriptor table is registers
//! that every lane reads, so its Verilator build time and its logic grow with lanes ×
//! descriptors.

use crate::emit::engine::{content_hash, ports_json, write_manifest, write_verilog};
use serde_json::json;
use std::path::Path;
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::optimistic::thread_array::{
    check_fields, thread_array_ports, thread_array_verilog, ThreadArrayShape, MAX_LANES,
};
use tagmatch_hdl::optimistic::unexpected_cam::UNEXPECTED_CAM_DEPTHS;
use tagmatch_sim::optimistic::OptimisticConfig;
use tagmatch_testbench::optimistic::thread_array::thread_array_build_name;

/// One thread array's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadArrayConfig {
    pub threads: usize,
    pub descriptors: usize,
    /// The head tables hold 2^head_bits lists: 2^(head_bits - 2) bins per hashed index.
    pub head_bits: usize,
    pub unexpected: usize,
    pub fast_path: bool,
    /// Stored field widths (`--comm-bits` and so on).
    pub fields: FieldWidths,
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
        cfg.fields = self.fields;
        cfg
    }

    /// The same shape storing fields of `fields` bits, or a one-line reason naming the
    /// option whose width the array's ports cannot carry.
    pub fn with_fields(self, fields: FieldWidths) -> Result<Self, String> {
        check_fields(fields)?;
        Ok(ThreadArrayConfig { fields, ..self })
    }

    /// A name for the shape's Verilator build, e.g. `thread-array-t16-d128-b64-u64-fp1`.
    pub fn build_name(&self) -> String {
        thread_array_build_name(&self.model_config())
    }

    pub fn verilog(&self) -> Result<String, String> {
        Ok(thread_array_verilog(&ThreadArrayShape {
            lanes: self.threads,
            descriptors: self.descriptors,
            head_bits: self.head_bits,
            unexpected: self.unexpected,
            fast_path: self.fast_path,
            fields: self.fields,
        }))
    }
}

/// The sizes of the array's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables {
    pub descriptors: usize,
    /// Bins per hashed index.
    pub bins: usize,
    /// UMQ entries.
    pub unexpected: usize,
}

/// The default tables, and the small ones the tests co-simulate.
pub const DEFAULT_TABLES: Tables = Tables { descriptors: 128, bins: 64, unexpected: 64 };
pub const SMALL_TABLES: Tables = Tables { descriptors: 32, bins: 4, unexpected: 16 };

impl Tables {
    /// Tables of `descriptors` descriptors whose bins and UMQ, unless given, are the small
    /// tables' at 32 descriptors or fewer and the default tables' above.
    pub fn with_descriptors(descriptors: usize, bins: Option<usize>, unexpected: Option<usize>) -> Tables {
        let base = if descriptors <= SMALL_TABLES.descriptors { SMALL_TABLES } else { DEFAULT_TABLES };
        Tables {
            descriptors,
            bins: bins.unwrap_or(base.bins),
            unexpected: unexpected.unwrap_or(base.unexpected),
        }
    }
}

/// The shape for `threads` lanes and these tables, or a one-line reason naming the range a
/// value left.
pub fn configuration(threads: usize, tables: Tables, fast_path: bool) -> Result<ThreadArrayConfig, String> {
    let Tables { descriptors, bins, unexpected } = tables;
    if !(1..=MAX_LANES).contains(&threads) {
        return Err(format!("--threads {threads}: the thread array has 1 to {MAX_LANES} lanes"));
    }
    if !(2..=32_767).contains(&descriptors) {
        return Err(format!("--descriptors {descriptors}: 2 to 32,767 receive descriptors"));
    }
    if !bins.is_power_of_two() || bins > 1 << 14 {
        return Err(format!("--bins {bins}: a power of two from 1 to 16,384 bins per index"));
    }
    // The UMQ's age matrix grows with the square of its depth (`unexpected_cam`).
    if !UNEXPECTED_CAM_DEPTHS.contains(&unexpected) {
        let (low, high) = UNEXPECTED_CAM_DEPTHS.into_inner();
        return Err(format!(
            "--umq {unexpected}: {low} to {high} unexpected messages (the UMQ orders them with a flip-flop per pair)"
        ));
    }
    Ok(ThreadArrayConfig {
        threads,
        descriptors,
        head_bits: bins.trailing_zeros() as usize + 2,
        unexpected,
        fast_path,
        fields: FieldWidths::DEFAULT,
    })
}

/// Writes the Verilog and `manifest.json` into `out`; returns the manifest.
pub fn generate(cfg: &ThreadArrayConfig, out: &Path) -> Result<serde_json::Value, String> {
    let verilog = cfg.verilog()?;
    let ports = ports_json(thread_array_ports(cfg.threads));
    write_verilog(out, THREAD_ARRAY_FILE, &verilog, &parameters(cfg), &ports)?;
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
        "handle_bits": cfg.fields.handle,
        "comm_bits": cfg.fields.comm,
        "source_bits": cfg.fields.src,
        "tag_bits": cfg.fields.tag,
    })
}

/// The shape a record's parameters name, if the generator builds it.
pub fn from_parameters(p: &serde_json::Value) -> Option<ThreadArrayConfig> {
    let field = |k: &str| p[k].as_u64().map(|v| v as usize);
    let tables =
        Tables { descriptors: field("descriptors")?, bins: field("bins")?, unexpected: field("unexpected")? };
    let d = FieldWidths::DEFAULT;
    let width = |k: &str, default: usize| field(k).unwrap_or(default);
    let fields = FieldWidths {
        comm: width("comm_bits", d.comm),
        src: width("source_bits", d.src),
        tag: width("tag_bits", d.tag),
        handle: width("handle_bits", d.handle),
    };
    configuration(field("threads")?, tables, p["fast_path"].as_bool()?).ok()?.with_fields(fields).ok()
}
