//! `tagmatch trace`'s actions and their arguments: `stats` and `replay`.

use super::design::EngineShape;
use crate::commands;
use crate::output::table::Format;
use clap::Subcommand;
use std::path::PathBuf;

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
    #[arg(long, value_delimiter = ',', default_value = "1,16,32,64,128,256")]
    pub bins: Vec<usize>,
    #[arg(long, value_enum, default_value = "full")]
    pub mode: commands::trace::Mode,
    /// The bin hash of pending-recv mode.
    #[arg(long, value_enum, default_value = "own")]
    pub hash: commands::trace::Hash,
    /// Network latency added to a send's time to get its arrival (full mode), in microseconds.
    #[arg(long, default_value_t = 1.0)]
    pub latency_us: f64,
    /// One row per rank as well as the whole run.
    #[arg(long)]
    pub per_rank: bool,
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Draw depth against bins, across ranks, as SVG.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// `trace replay`: the run and the matchers (or the engine) to replay it through.
#[derive(clap::Args)]
pub struct ReplayArgs {
    pub path: PathBuf,
    /// Matchers, comma separated, or "all"; or alone "engine" (the receive engine's
    /// cycle-accurate model) or "rtl" (its RTL in Verilator), behind the host driver,
    /// sized by --cam-depth, --lists, --list-capacity: cycles, and what the host kept.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub matcher: Vec<String>,
    /// The engine's shape (--matcher engine).
    #[command(flatten)]
    pub shape: EngineShape,
    /// Bins of the hash-bin matcher: a count or "auto".
    #[arg(long, default_value = "auto")]
    pub bins: String,
    #[arg(long, default_value_t = 1.0)]
    pub latency_us: f64,
    #[arg(long)]
    pub per_rank: bool,
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
}
