//! `tagmatch verify`'s arguments.

use crate::output::table::Format;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Also run the seeded mutations (priority reversed, an insert dropped, a flush that
    /// leaves entries, and more) and fail unless the checks catch each with a
    /// counterexample. Their shortest counterexamples take 4 to 12 cycles (30 in the labels
    /// harness, at its own depth), so a `--depth` below 12 misses some.
    #[arg(long)]
    pub mutations: bool,
    /// Bounded-model-checking depth in cycles of the receive engine's checks (1 to 200);
    /// default: each configuration's own. The labels and one-sided harnesses keep their
    /// depths.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub depth: Option<u32>,
    /// Only the configurations whose name contains this (e.g. `cam2`).
    #[arg(long)]
    pub only: Option<String>,
    /// Only this harness: `engine`, `completion`, `labels` or `onesided` (e.g. one harness
    /// to a deeper `--depth`).
    #[arg(long)]
    pub harness: Option<String>,
    /// Working folder: the harness, the generated Verilog, SymbiYosys' logs and any
    /// counterexample's waveform (VCD).
    #[arg(long, default_value = "target/verify")]
    pub out: PathBuf,
    /// How results are printed: a table for people, CSV or JSON (one array of flat objects) for scripts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
}
