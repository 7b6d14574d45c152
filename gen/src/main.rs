//! The `tagmatch` command. Subcommands and options follow DESIGN.md's CLI contract; parts
//! whose issues have not landed say so and exit non-zero rather than pretend.

mod report;
mod software_bench;

use clap::{Parser, Subcommand, ValueEnum};
use report::{render, Format};
use software_bench::Bench;
use std::path::PathBuf;
use std::process::ExitCode;
use tagmatch_sim::hash_bins::Bins;
use tagmatch_sim::{MatcherKind, MatcherOptions};

#[derive(Parser)]
#[command(name = "tagmatch", version, about = "MPI message-matching hardware: generate, simulate, benchmark")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Engine {
    /// The software matchers (linked list, rank-based, hash bins, ...), in entries inspected and ns.
    Software,
    /// The cycle-accurate Rust model of the generated engine.
    Model,
    /// The generated RTL in Verilator.
    Rtl,
}

#[derive(Subcommand)]
enum Command {
    /// Write the engine's Verilog, constraints and manifest.json.
    Gen {
        #[arg(long, default_value_t = 256)]
        cam_depth: u32,
        #[arg(long, default_value_t = 4)]
        lists: u32,
        #[arg(long, default_value_t = 32768)]
        list_capacity: u32,
        #[arg(long)]
        board: Option<String>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Preposted-latency or unload benchmark.
    Bench {
        #[arg(value_enum)]
        bench: Bench,
        #[arg(long, value_enum, default_value = "software")]
        engine: Engine,
        /// Parallel lists of the hardware engine (model and rtl engines).
        #[arg(long, value_delimiter = ',')]
        lists: Vec<u32>,
        /// Queue depths.
        #[arg(long, value_delimiter = ',', default_value = "1,10,100,1000,10000")]
        depths: Vec<u32>,
        /// Software matchers to run (software engine): names, comma separated, or "all".
        #[arg(long, value_delimiter = ',', default_value = "all")]
        matchers: Vec<String>,
        /// Bins of the hash-bin matcher: a count or "auto" (grow with the queue).
        #[arg(long, default_value = "auto")]
        bins: String,
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Random operation streams through RTL, cycle model and golden model.
    Cosim {
        #[arg(long, default_value_t = 4)]
        lists: u32,
        #[arg(long, default_value_t = 20000)]
        ops: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// DUMPI trace statistics and replay.
    Trace {
        #[command(subcommand)]
        action: TraceAction,
    },
}

#[derive(Subcommand)]
enum TraceAction {
    Stats { path: PathBuf },
    Replay { path: PathBuf },
}

fn not_yet(what: &str) -> Result<(), String> {
    Err(format!("{what} is not yet available in this version of tagmatch"))
}

fn parse_matchers(names: &[String]) -> Result<Vec<MatcherKind>, String> {
    if names.iter().any(|n| n == "all") {
        return Ok(MatcherKind::ALL.to_vec());
    }
    names.iter().map(|n| n.parse()).collect()
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Gen { .. } => not_yet("Verilog generation (the two-level engine)"),
        Command::Cosim { .. } => not_yet("co-simulation (the two-level engine)"),
        Command::Trace { .. } => not_yet("DUMPI trace reading"),
        Command::Bench { bench, engine, lists, depths, matchers, bins, format, plot } => {
            match engine {
                Engine::Model => return not_yet("the cycle-accurate model (--engine model)"),
                Engine::Rtl => return not_yet("the RTL engine (--engine rtl)"),
                Engine::Software => {}
            }
            if !lists.is_empty() {
                return Err("--lists applies to the hardware engines (--engine model or rtl)".into());
            }
            if plot.is_some() {
                return not_yet("--plot");
            }
            if let Some(bad) = depths.iter().find(|&&d| d == 0) {
                return Err(format!("bad depth {bad}: depths start at 1"));
            }
            let options = MatcherOptions { bins: bins.parse::<Bins>()?, ..MatcherOptions::default() };
            let records = software_bench::run(bench, &parse_matchers(&matchers)?, &depths, &options)?;
            print!("{}", render(&records, format));
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tagmatch: error: {e}");
            ExitCode::from(2)
        }
    }
}
