//! `tagmatch bench`'s arguments: which benchmark, on which engine, over what.

use super::design::OnesidedShape;
use crate::commands;
use crate::output::table::Format;
use clap::ValueEnum;
use std::path::PathBuf;
use tagmatch_sim::cycle::baselines::SOFTWARE_CYCLES_PER_ELEMENT;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
/// What runs a benchmark (`bench --backend`).
pub enum Backend {
    /// The software matchers (linked list, rank-based, hash bins, ...), in entries inspected and ns.
    Software,
    /// The cycle-accurate Rust model of the generated engine.
    Model,
    /// The generated RTL in Verilator.
    Rtl,
}

/// The benchmarks `tagmatch bench` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchName {
    Preposted,
    Unload,
    /// Matches per cycle of the optimistic matcher's threads (and the two-level engine).
    Rate,
    /// Overlap of one-sided puts or gets with compute, offloaded to the one-sided unit
    /// against a host-progressed baseline.
    Onesided,
    /// Operations per cycle (and per microsecond) of the two-level engine when the host
    /// streams commands back to back.
    Throughput,
}

/// `tagmatch bench`: the benchmark, the engine it runs on, and each benchmark's sweep.
#[derive(clap::Args)]
pub struct BenchArgs {
    #[arg(value_enum)]
    pub bench: BenchName,
    /// What runs the benchmark. `--engine` is the old name of this option, kept as an alias
    /// for one release.
    #[arg(long = "backend", alias = "engine", value_enum, default_value = "software")]
    pub engine: Backend,
    /// Parallel lists of the hardware engine (model and rtl engines) [default: 1,4,64].
    #[arg(long, value_delimiter = ',')]
    pub lists: Vec<u32>,
    /// CAM entries of the hardware engine.
    #[arg(long, default_value_t = 256)]
    pub cam_depth: u32,
    /// List entries of the hardware engine, over all lists.
    #[arg(long, default_value_t = 32768)]
    pub list_capacity: u32,
    /// Queue depths [default: software 1,10,100,1000,10000; rtl 1,10,100,256,257,500,1000,2000;
    /// model those and 5000,10000,30000].
    #[arg(long, value_delimiter = ',')]
    pub depths: Vec<u32>,
    /// Baseline cost models beside the model engine: paper (the FPL 2018 design with the
    /// same --lists), alpu, hash, comma separated, or none [default: paper,alpu,hash].
    #[arg(long, value_delimiter = ',')]
    pub baselines: Vec<String>,
    /// The ALPU baseline's cost of walking one element of its software list, in cycles
    /// (an assumption, see the README).
    #[arg(long, default_value_t = SOFTWARE_CYCLES_PER_ELEMENT)]
    pub software_cycles: u64,
    /// Software matchers to run (software engine): names, comma separated, or "all".
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub matchers: Vec<String>,
    /// Bins of the hash-bin matcher: a count or "auto" (grow with the queue).
    #[arg(long, default_value = "auto")]
    pub bins: String,
    /// Threads of the optimistic matcher (rate).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub threads: Vec<usize>,
    /// Traffic (throughput): cam-hits, unexpected, mover-hits.
    #[arg(long, value_delimiter = ',', default_value = "cam-hits,unexpected,mover-hits")]
    pub traffic: Vec<String>,
    /// Scenarios (rate): nc, wc-fp, wc-sp.
    #[arg(long, value_delimiter = ',', default_value = "nc,wc-fp,wc-sp")]
    pub scenario: Vec<String>,
    /// Messages per sequence (rate).
    #[arg(long, default_value_t = 100)]
    pub k: u32,
    /// Receive descriptors of the thread array (rate), as `gen --engine optimistic
    /// --descriptors`: 32 or fewer take the small tables (4 bins, a 16-entry UMQ), so
    /// `--descriptors 32 --k 32` runs the configuration the timing flow can place
    /// [default: the generator's 128, grown to --k in the model].
    #[arg(long)]
    pub descriptors: Option<usize>,
    /// Sequences (rate).
    #[arg(long, default_value_t = 500)]
    pub sequences: u32,
    /// Requests per run (onesided).
    #[arg(long, value_delimiter = ',', default_value = "1,16,64")]
    pub requests: Vec<u32>,
    /// Bytes per request (onesided).
    #[arg(long, value_delimiter = ',', default_value = "64,1024,4096,16384,65536")]
    pub bytes: Vec<u32>,
    /// Cycles the host computes between issuing and flushing (onesided).
    #[arg(long, value_delimiter = ',', default_value = "10000")]
    pub compute: Vec<u64>,
    /// The network's latency, cycles from a request's last byte to its completion (onesided).
    #[arg(long, default_value_t = 200)]
    pub latency: u64,
    /// The network's bandwidth, bytes per cycle (onesided).
    #[arg(long, default_value_t = 32)]
    pub bandwidth: u64,
    /// Requests the network's send queue holds (onesided).
    #[arg(long, default_value_t = 128)]
    pub net_queue: usize,
    /// Gets instead of puts (onesided).
    #[arg(long)]
    pub get: bool,
    #[command(flatten)]
    pub onesided: OnesidedShape,
    /// Preposted and unload with the completion unit: a wait parked before the measured
    /// deliveries, and `wait_cycles` to its answer beside `cycles` (model and rtl).
    #[arg(long)]
    pub wait: bool,
    /// Preposted and unload through the host driver (`fallback`), so depths past the
    /// engine's capacity run [default depths: 1, 1000, 10000, capacity, 1.2 x capacity].
    #[arg(long, value_enum)]
    pub host: Option<commands::cosim::HostChoice>,
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    #[arg(long)]
    pub plot: Option<PathBuf>,
}
