//! `tagmatch record`'s arguments.

use crate::output::table::Format;
use std::path::PathBuf;

/// Record a live MPI run as a DUMPI trace, then report its queues and its replay through the
/// receive engine's model behind the host driver.
#[derive(clap::Args, Debug)]
pub struct RecordArgs {
    /// Folder for the trace: `{prefix}-NNNN.bin` per rank and `{prefix}.meta` (made if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// File name prefix of the trace [default: the program's file name].
    #[arg(long)]
    pub prefix: Option<String>,
    /// CAM entries of the engine the trace replays through (1 or more; a queue of at most
    /// 65,535 entries).
    #[arg(long, default_value_t = 256)]
    pub cam_depth: u32,
    /// Parallel lists of that engine (1 to 256).
    #[arg(long, default_value_t = 4)]
    pub lists: u32,
    /// List entries of that engine, over all lists (a multiple of --lists, 2 or more per list).
    #[arg(long, default_value_t = 32768)]
    pub list_capacity: u32,
    /// Network latency added to a send's time to get its arrival, in microseconds (0 or more).
    #[arg(long, default_value_t = 1.0)]
    pub latency_us: f64,
    /// Leave out the CPU times of each call (DUMPI stores wall and CPU times; reading the
    /// CPU clock is a system call, about 0.8 µs each, two per call).
    #[arg(long)]
    pub no_cpu_times: bool,
    /// How results are printed: a table for people, CSV or JSON (one array of flat objects) for scripts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// The run: `mpirun -np N PROGRAM ARGS…` (Open MPI's `mpirun`, `mpiexec` or `orterun`
    /// get `-x` options that carry the recorder to every rank), or a program alone (one
    /// rank, MPI's singleton start).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}
