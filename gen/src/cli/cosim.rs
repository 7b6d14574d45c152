//! `tagmatch cosim`'s arguments: the design, its size, the operations and the host driver.

use super::design::{ArrayShape, Design, FieldArgs, OnesidedShape};
use crate::output::table::Format;
use clap::ValueEnum;
use std::path::PathBuf;
use std::str::FromStr;
use tagmatch_sim::model::op_file::read_ops;
use tagmatch_sim::Op;
use tagmatch_testbench::two_level::host::HostMode;

/// `tagmatch cosim`: the design and its size, the operations, and the host driver.
/// The engine `cosim` runs by default: CAM depth, lists, list capacity and label bits.
pub const COSIM_ENGINE: (u32, u32, u32, u32) = (8, 4, 256, 32);

#[derive(clap::Args)]
pub struct CosimArgs {
    /// Which hardware: the two-level receive engine or the optimistic thread array.
    #[arg(long, value_enum, default_value = "two-level")]
    pub engine: Design,
    #[command(flatten)]
    pub array: ArrayShape,
    #[command(flatten)]
    pub onesided: OnesidedShape,
    /// Parallel lists (a power of two from 1 to 64).
    #[arg(long, default_value_t = COSIM_ENGINE.1)]
    pub lists: u32,
    /// Operations: a count of random ones (0 to 10,000,000), or a file of your own (JSON lines of `Op`,
    /// see `tagmatch_sim::model::op_file`; a file named only by digits needs a `./`).
    #[arg(long, default_value = "20000")]
    pub ops: OpsSource,
    /// Seed of the random operations and flushes (0 to 2^64 - 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A flush after about one operation in N (1 to 2^64 - 1; from `--seed`), so the engine
    /// or the thread array is emptied mid-stream.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub flush_every: Option<u64>,
    /// CAM entries (2 to 1,024; the small default makes streams spill past the CAM and
    /// overflow).
    #[arg(long, default_value_t = COSIM_ENGINE.0)]
    pub cam_depth: u32,
    /// List entries, over all lists (a power of two from 4 × --lists to 32,768).
    #[arg(long, default_value_t = COSIM_ENGINE.2)]
    pub list_capacity: u32,
    /// Bits of the lists' posting labels (4 to 32; see `gen --label-bits`).
    #[arg(long, default_value_t = COSIM_ENGINE.3)]
    pub label_bits: u32,
    #[command(flatten)]
    pub fields: FieldArgs,
    /// Run the host driver over the engine, for unbounded MPI matching: `fallback` (the
    /// host keeps what overflows) or `split` (the engine owns the receives, the host the
    /// unexpected messages), against the unbounded golden model.
    #[arg(long, value_enum)]
    pub host: Option<HostChoice>,
    /// Split mode: ticks a message takes between host and NIC (0 to 2^40).
    #[arg(long, default_value_t = 4,
          value_parser = clap::value_parser!(u64).range(0..=crate::cli::values::MAX_CYCLES))]
    pub delay: u64,
    /// Split mode: switch the phase counter off, to see the race it closes.
    #[arg(long)]
    pub no_sync: bool,
    /// How results are printed: a table for people, CSV or JSON (one array of flat objects) for scripts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
}

/// Where a co-simulation's operations come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpsSource {
    /// That many random operations from `--seed`.
    Random(usize),
    /// A user's JSON-lines file.
    File(PathBuf),
}

impl FromStr for OpsSource {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            let max = crate::cli::values::MAX_OPS;
            return match s.parse::<usize>() {
                Ok(n) if n <= max => Ok(OpsSource::Random(n)),
                _ => Err(format!(
                    "--ops {s}: at most {} random operations",
                    crate::output::progress::thousands(max as u64)
                )),
            };
        }
        Ok(OpsSource::File(PathBuf::from(s)))
    }
}

impl OpsSource {
    pub fn count(&self) -> Option<usize> {
        match self {
            OpsSource::Random(n) => Some(*n),
            OpsSource::File(_) => None,
        }
    }

    /// The operations: from the file, or `random(n)`.
    pub fn load(&self, random: impl FnOnce(usize) -> Vec<Op>) -> Result<Vec<Op>, String> {
        match self {
            OpsSource::Random(n) => Ok(random(*n)),
            OpsSource::File(path) => read_ops(path),
        }
    }
}

/// `--host`: the host driver's protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HostChoice {
    /// The engine holds the oldest entries of both queues, the host what overflows.
    Fallback,
    /// The engine owns the posted receives, the host the unexpected messages (ConnectX).
    Split,
}

impl HostChoice {
    pub fn mode(self, delay: u64, sync: bool) -> HostMode {
        match self {
            HostChoice::Fallback => HostMode::Fallback,
            HostChoice::Split => HostMode::Split { delay, sync },
        }
    }
}
