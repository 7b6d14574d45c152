//! `tagmatch trace`'s actions and their arguments: `stats` and `replay`.

use super::design::FieldArgs;
use crate::output::table::Format;
use clap::Subcommand;
use std::path::PathBuf;
use tagmatch_sim::traces::replay::pending::BinHash;

#[derive(Subcommand)]
pub enum TraceAction {
    /// Queue depths with 1 to 256 bins.
    Stats(StatsArgs),
    /// Replay the run's matching through software matchers: work per match.
    Replay(ReplayArgs),
}

/// `trace stats`: the run, the bin counts and how its queues are rebuilt.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// A run's folder (with its .meta, or its .bin or .txt rank files), a .meta file, or one
    /// rank's .bin or .txt.
    pub path: PathBuf,
    /// Bin counts, comma separated (1 to 65,536 each).
    #[arg(long, value_delimiter = ',', default_value = "1,16,32,64,128,256")]
    pub bins: Vec<usize>,
    /// How the queues are rebuilt from the trace.
    #[arg(long, value_enum, default_value = "full")]
    pub mode: Mode,
    /// The bin hash of pending-recv mode.
    #[arg(long, value_enum, default_value = "own")]
    pub hash: Hash,
    /// Network latency added to a send's time to get its arrival (full mode), in
    /// microseconds (0 or more).
    #[arg(long, default_value_t = 1.0)]
    pub latency_us: f64,
    /// One row per rank as well as the whole run.
    #[arg(long)]
    pub per_rank: bool,
    /// How results are printed: a table for people, CSV or JSON (one array of flat objects) for scripts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Draw depth against bins, across ranks, as SVG.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// `trace replay`: the run and the matchers (or the engine) to replay it through.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A run's folder (with its .meta, or its .bin or .txt rank files), a .meta file, or one
    /// rank's .bin or .txt.
    pub path: PathBuf,
    /// Matchers, comma separated, or "all"; or alone "engine" (the receive engine's
    /// cycle-accurate model) or "rtl" (its RTL in Verilator), behind the host driver,
    /// sized by --cam-depth, --lists, --list-capacity: cycles, and what the host kept.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub matcher: Vec<String>,
    // The engine's shape: `EngineArgs`' options, with the ranges of `gen` for the RTL and
    // of the cycle model for `--matcher engine`.
    /// CAM entries: 2 to 1,024 with --matcher rtl; with --matcher engine 1 or more, with a
    /// queue of at most 65,535 entries (--cam-depth + --list-capacity - --lists).
    #[arg(long, default_value_t = 256)]
    pub cam_depth: u32,
    /// Parallel lists: a power of two from 1 to 64 with --matcher rtl, 1 to 256 with
    /// --matcher engine.
    #[arg(long, default_value_t = 4)]
    pub lists: u32,
    /// List entries, over all lists: a power of two from 4 × --lists to 32,768 with
    /// --matcher rtl; a multiple of --lists, 2 or more per list, with --matcher engine.
    #[arg(long, default_value_t = 32768)]
    pub list_capacity: u32,
    /// Bits of the lists' posting labels (4 to 32; see `gen --label-bits`).
    #[arg(long, default_value_t = 32)]
    pub label_bits: u32,
    #[command(flatten)]
    pub fields: FieldArgs,
    /// Bins of the hash-bin matcher: a count (1 to 65,536) or "auto".
    #[arg(long, default_value = "auto")]
    pub bins: String,
    /// Network latency added to a send's time to get its arrival, in microseconds (0 or
    /// more).
    #[arg(long, default_value_t = 1.0)]
    pub latency_us: f64,
    /// One row per rank as well as the whole run.
    #[arg(long)]
    pub per_rank: bool,
    /// How results are printed: a table for people, CSV or JSON (one array of flat objects) for scripts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// The published analyzer's definition: pending Irecvs in bins until a Wait/Test completes them.
    PendingRecv,
    /// Arrivals rebuilt across ranks and real PRQ/UMQ matching.
    Full,
}

/// The bin hash of pending-recv mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Hash {
    /// The hash the software matchers use.
    Own,
    /// The published trace analyzer's (Pearson's hash over the trace's handles): its figures exactly.
    Analyzer,
}

impl Hash {
    pub fn bin_hash(self) -> BinHash {
        match self {
            Hash::Own => BinHash::Own,
            Hash::Analyzer => BinHash::Analyzer,
        }
    }
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::PendingRecv => "pending-recv",
            Mode::Full => "full",
        }
    }
}
