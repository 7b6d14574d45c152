//! The command line: [`Cli`] and its subcommands ([`Command`]); each subcommand's
//! arguments and the option groups they share live in the files below.

pub mod bench;
pub mod cosim;
pub mod design;
pub mod gen;
pub mod record;
pub mod timing;
pub mod trace;
pub mod values;
pub mod verify;

use crate::output::table::Format;
use bench::BenchArgs;
use clap::{Parser, Subcommand};
use cosim::CosimArgs;
use gen::GenArgs;
use record::RecordArgs;
use trace::TraceAction;
use verify::VerifyArgs;

#[derive(Parser)]
#[command(name = "tagmatch", version, about = "MPI message-matching hardware: generate, simulate, benchmark")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Write the engine's Verilog, constraints and manifest.json.
    Gen(GenArgs),
    /// The boards `gen --board` knows, with their key facts.
    Boards {
        /// How results are printed: a table for people, CSV or JSON (one array of flat objects) for scripts.
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
    },
    /// Benchmarks: preposted latency, unload, sustained throughput, the thread array's message
    /// rate, one-sided overlap.
    ///
    /// A benchmark crosses its lists of values (depths × designs, lists × traffic, scenarios
    /// × threads, requests × bytes × compute) in at most 262,144 points.
    Bench(BenchArgs),
    /// A random operation stream through the RTL (Verilator), the golden model and the cycle model.
    Cosim(CosimArgs),
    /// DUMPI trace statistics and replay.
    Trace {
        #[command(subcommand)]
        action: TraceAction,
    },
    /// Record an MPI program's run as a DUMPI trace (a PMPI library preloaded into every
    /// rank), then report its queue depths and its replay through the receive engine's model
    /// behind the host driver. Exits with the program's status.
    Record(RecordArgs),
    /// Regenerate the documentation the code and the records write: docs/cli.md,
    /// docs/results.md and the README's results table.
    Docs {
        /// Write nothing; fail, naming the files, when one is out of date.
        #[arg(long)]
        check: bool,
        /// Print the command line's subcommands and options as JSON (for tests that walk them).
        #[arg(long, hide = true)]
        options: bool,
    },
    /// Redraw the timing diagrams of the engine's handshakes (docs/waves/) from the RTL's
    /// signals in Verilator.
    Waves {
        /// Write nothing; fail, naming the files, when a diagram differs from the RTL's.
        #[arg(long)]
        check: bool,
    },
    /// Formal checks with SymbiYosys: the receive engine's MPI order, conservation,
    /// handshakes, capacity, reset, flush and completion unit, and the one-sided unit's
    /// FINs, by bounded model checking on small configurations.
    Verify(VerifyArgs),
}
