//! `tagmatch gen`'s arguments, with its own groups: `--testbench` and `--shell`.

use super::design::{ArrayShape, Design, EngineArgs, OnesidedShape};
use super::timing::TimingArgs;
use crate::board;
use crate::output::table::Format;
use std::path::PathBuf;

/// `tagmatch gen`: the design, its size, what to write beside it, and the flows to run on it.
#[derive(clap::Args)]
pub struct GenArgs {
    /// Which hardware: the two-level receive engine or the optimistic thread array.
    #[arg(long, value_enum, default_value = "two-level")]
    pub engine: Design,
    #[command(flatten)]
    pub shape: EngineArgs,
    #[command(flatten)]
    pub array: ArrayShape,
    #[command(flatten)]
    pub onesided: OnesidedShape,
    /// Also write a top-level wrapper, constraints and a project script for this board
    /// (`tagmatch boards` lists them).
    #[arg(long)]
    pub board: Option<String>,
    #[command(flatten)]
    pub shell: ShellArgs,
    /// Synthesize the engine with yosys (synth_xilinx, synth_intel_alm) and report LUTs,
    /// flip-flops, block RAMs and logic levels, in the manifest and as a table.
    #[arg(long)]
    pub estimate: bool,
    #[command(flatten)]
    pub timing: TimingArgs,
    #[command(flatten)]
    pub testbench: TestbenchArgs,
    /// How the summary is printed: a table for people, or CSV or JSON for scripts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Folder for the Verilog, the manifest and whatever else is asked for (made if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// `gen --testbench`: a self-checking Verilog testbench (testbench_gen.rs).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct TestbenchArgs {
    /// Also write tagmatch_engine_tb.v: random operations with the answers and cycles the
    /// models expect, for any Verilog simulator (iverilog -g2005; prints PASS or FAIL).
    /// The engine is then written for event-driven simulators (same logic).
    #[arg(long)]
    pub testbench: bool,
    /// Operations in the testbench (1 to 1,000,000).
    #[arg(long, default_value_t = 2000, requires = "testbench")]
    pub testbench_ops: usize,
    /// Seed of the testbench's operations (0 to 2^64 - 1).
    #[arg(long, default_value_t = 1, requires = "testbench")]
    pub testbench_seed: u64,
    /// Also write tagmatch_engine_vectors.jsonl: one JSON line per operation with the
    /// command's fields and the shells' command word, and the response the models expect
    /// with its word and the mask of its defined bits, for testbenches of the shells
    /// (testbench/cocotb). Compare responses in order, not by cycle.
    #[arg(long, requires = "testbench")]
    pub testbench_vectors: bool,
}

impl TestbenchArgs {
    pub fn unused(&self) -> Result<(), String> {
        if self.testbench {
            return Err(
                "--testbench writes the two-level engine's testbench; the other designs have none yet".into(),
            );
        }
        Ok(())
    }
}

/// `gen --shell`: the engine as an IP core (board_gen.rs).
#[derive(clap::Args, Clone, Debug)]
pub struct ShellArgs {
    /// Also write the engine as an IP core: tagmatch_shell.v (registered skid buffers,
    /// AXI4-Stream for xilinx, Avalon-ST for intel), an out-of-context clock constraint and
    /// the vendor's packaging script (Vivado ipx::package_project; Platform Designer _hw.tcl).
    #[arg(long, value_enum)]
    pub shell: Option<board::catalog::Vendor>,
    /// The device of the out-of-context run [default: xilinx xcu250-figd2104-2L-e, intel
    /// AGFB014R24B2E2V].
    #[arg(long, requires = "shell")]
    pub part: Option<String>,
    /// The clock the shell is constrained for, in MHz (above 0 to 1,000).
    #[arg(long, default_value_t = 150.0, requires = "shell")]
    pub clock_mhz: f64,
}

impl ShellArgs {
    pub fn target(&self) -> Option<board::build::ShellTarget> {
        self.shell.map(|vendor| board::build::ShellTarget {
            vendor,
            part: self.part.clone().unwrap_or_else(|| {
                match vendor {
                    board::catalog::Vendor::Xilinx => "xcu250-figd2104-2L-e",
                    board::catalog::Vendor::Intel => "AGFB014R24B2E2V",
                }
                .to_string()
            }),
            clock_mhz: self.clock_mhz,
        })
    }

    pub fn unused(&self) -> Result<(), String> {
        if self.shell.is_some() {
            return Err("--shell packages the two-level engine; the other designs have no shell yet".into());
        }
        Ok(())
    }
}
