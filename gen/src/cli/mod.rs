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
    /// handshakes, capacity, reset, flush, order across the label wrap and completion unit,
    /// and the one-sided unit's FINs, by bounded model checking on small configurations.
    Verify(VerifyArgs),
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Options, and the values of every option that names its choices, that `--help` lists
    /// without a word of explanation, as "subcommand --option" or "subcommand --option=value".
    fn undocumented(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            let name = arg.get_long().map_or_else(|| id.to_string(), |l| format!("--{l}"));
            if arg.get_help().is_none() && arg.get_long_help().is_none() {
                out.push(format!("{path} {name}"));
            }
            // Choices are listed one per line, each with its help, once any has help: then
            // every one needs it (others are explained in the option's own help).
            let values = arg.get_possible_values();
            if values.iter().any(|v| v.get_help().is_some()) {
                let bare = values.iter().filter(|v| v.get_help().is_none());
                out.extend(bare.map(|v| format!("{path} {name}={}", v.get_name())));
            }
        }
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            undocumented(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    #[test]
    fn every_option_and_choice_has_help() {
        let mut missing = Vec::new();
        undocumented(&Cli::command(), "tagmatch", &mut missing);
        assert!(missing.is_empty(), "no help text: {missing:?}");
    }
}
