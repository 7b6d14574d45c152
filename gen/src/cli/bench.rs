//! `tagmatch bench`'s arguments: which benchmark, on which engine, over what.

use super::design::OnesidedShape;
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
    /// Latency of a message that finds its receive already posted, behind a queue of
    /// non-matching receives of each depth.
    Preposted,
    /// Time to drain a queue of each depth: messages each matching the newest receive left.
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
    /// Which benchmark.
    #[arg(value_enum)]
    pub bench: BenchName,
    /// What runs the benchmark. `--engine` is the old name of this option, kept as an alias
    /// for one release.
    #[arg(long = "backend", alias = "engine", value_enum, default_value = "software")]
    pub engine: Backend,
    /// Parallel lists of the hardware engine (model and rtl engines) [default: 1,4,64]: 1 to
    /// 256 on the model (and in rate), a power of two from 1 to 64 on the RTL and in
    /// throughput. Rate takes one.
    #[arg(long, value_delimiter = ',')]
    pub lists: Vec<u32>,
    /// CAM entries of the hardware engine: 2 to 1,024 on the RTL and in throughput; on the
    /// model (and in rate) 1 or more, with a queue of at most 65,535 entries (--cam-depth +
    /// --list-capacity - --lists).
    #[arg(long, default_value_t = 256)]
    pub cam_depth: u32,
    /// List entries of the hardware engine, over all lists: a power of two from 4 × --lists
    /// to 32,768 on the RTL and in throughput; on the model (and in rate) a multiple of
    /// --lists, 2 or more per list.
    #[arg(long, default_value_t = 32768)]
    pub list_capacity: u32,
    /// Queue depths, 1 to 1,048,576 each; on the engine without --host, at most its queue
    /// (CAM and lists) [default: software 1,10,100,1000,10000; rtl
    /// 1,10,100,256,257,500,1000,2000; model those and 5000,10000,30000]. A sweep (depths ×
    /// designs or matchers) runs at most 262,144 points.
    #[arg(long, value_delimiter = ',')]
    pub depths: Vec<u32>,
    /// Baseline cost models beside the model engine: paper (the FPL 2018 design with the
    /// same --lists), alpu, hash, comma separated, or none [default: paper,alpu,hash].
    #[arg(long, value_delimiter = ',')]
    pub baselines: Vec<String>,
    /// The ALPU baseline's cost of walking one element of its software list, in cycles
    /// (0 to 2^64 - 1; an assumption, see the README).
    #[arg(long, default_value_t = SOFTWARE_CYCLES_PER_ELEMENT)]
    pub software_cycles: u64,
    /// Software matchers to run (software engine): names, comma separated, or "all".
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub matchers: Vec<String>,
    /// Bins of the hash-bin matcher: a count (1 to 65,536) or "auto" (grow with the queue).
    #[arg(long, default_value = "auto")]
    pub bins: String,
    /// Threads of the optimistic matcher (rate), 1 to 64 each. A sweep (scenarios ×
    /// threads) runs at most 262,144 points.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub threads: Vec<usize>,
    /// Traffic (throughput): cam-hits, unexpected, mover-hits.
    #[arg(long, value_delimiter = ',', default_value = "cam-hits,unexpected,mover-hits")]
    pub traffic: Vec<String>,
    /// Scenarios (rate): nc, wc-fp, wc-sp.
    #[arg(long, value_delimiter = ',', default_value = "nc,wc-fp,wc-sp")]
    pub scenario: Vec<String>,
    /// Messages per sequence (rate): 1 to 65,536, and at most what the two-level engine's
    /// queue holds and, with --descriptors or --backend rtl, the thread array's descriptors.
    #[arg(long, default_value_t = 100)]
    pub k: u32,
    /// Receive descriptors of the thread array (rate), as `gen --engine optimistic
    /// --descriptors` (2 to 32,767, at least --k): 32 or fewer take the small tables (4
    /// bins, a 16-entry UMQ), so
    /// `--descriptors 32 --k 32` runs the configuration the timing flow can place
    /// [default: the generator's 128, grown to --k in the model].
    #[arg(long)]
    pub descriptors: Option<usize>,
    /// Run nc on the thread array built without the fast path (rate), as `gen --engine
    /// optimistic --no-fast-path` builds it: the same cycles (nc never takes the fast path)
    /// at that build's clock. wc-sp always runs without it; wc-fp needs it.
    #[arg(long)]
    pub no_fast_path: bool,
    /// Sequences (rate): 1 to 2^32 - 1.
    #[arg(long, default_value_t = 500)]
    pub sequences: u32,
    /// Requests per run (onesided), 1 to 1,048,576 each. A sweep (requests × bytes ×
    /// compute) runs at most 262,144 points.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64")]
    pub requests: Vec<u32>,
    /// Bytes per request (onesided), 0 to 2^32 - 1 each.
    #[arg(long, value_delimiter = ',', default_value = "64,1024,4096,16384,65536")]
    pub bytes: Vec<u32>,
    /// Cycles the host computes between issuing and flushing (onesided), 0 to 2^40 each.
    #[arg(long, value_delimiter = ',', default_value = "10000",
          value_parser = clap::value_parser!(u64).range(0..=crate::cli::values::MAX_CYCLES))]
    pub compute: Vec<u64>,
    /// The network's latency, cycles from a request's last byte to its completion
    /// (onesided; 0 to 2^40).
    #[arg(long, default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(0..=crate::cli::values::MAX_CYCLES))]
    pub latency: u64,
    /// The network's bandwidth, bytes per cycle (onesided; 1 to 2^64 - 1).
    #[arg(long, default_value_t = 32)]
    pub bandwidth: u64,
    /// Requests the network's send queue holds (onesided; 1 to 2^64 - 1).
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
    pub host: Option<crate::cli::cosim::HostChoice>,
    /// How results are printed: a table for people, CSV or JSON (one array of flat objects) for scripts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Also draw the results as an SVG plot at this path.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}
