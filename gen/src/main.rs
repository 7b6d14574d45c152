//! The `tagmatch` command. Subcommands and options follow DESIGN.md's CLI contract; parts
//! whose issues have not landed say so and exit non-zero rather than pretend.

mod bench;
mod board;
mod commands;
mod emit;
mod flow;
mod output;

use bench::software::Bench;
use clap::{Parser, Subcommand, ValueEnum};
use output::table::{render, Format};
use std::path::PathBuf;
use std::process::ExitCode;
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_sim::cycle::baselines::{Baseline, SOFTWARE_CYCLES_PER_ELEMENT};
use tagmatch_sim::cycle::bench::Traffic;
use tagmatch_sim::cycle::two_level::TwoLevelConfig;
use tagmatch_sim::optimistic::rate::Scenario;
use tagmatch_sim::optimistic::MAX_THREADS;
use tagmatch_sim::software::hash_bins::Bins;
use tagmatch_sim::{MatcherKind, MatcherOptions};

/// Limits on sizes given on the command line, the same for every command that takes them,
/// so a typo cannot ask for gigabytes: each one is refused with a one-line error naming it.
///
/// Hash bins (`trace stats --bins`, `trace replay --bins`, `bench --bins`): the deepest
/// queues in the shared traces are a few thousand entries, so more bins than 65,536 only
/// cost memory (one list head per bin, per communicator).
const MAX_BINS: usize = 65_536;
/// Queue depth of a benchmark (`bench preposted|unload --depths`): every entry is held at
/// once (a receive or message in each matcher, or in the engine's lists), about a hundred
/// bytes each; 2^20 entries is far past any engine's capacity and keeps a run in memory.
const MAX_DEPTH: u32 = 1 << 20;
/// Messages per sequence of `bench rate --k`: a sequence's receives and messages are
/// built up front; 65,536 is far past the thread array's 128 receive descriptors.
const MAX_K: u32 = 65_536;

/// Thousands separators, for limits in messages.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `--bins`: a count from 1 to [`MAX_BINS`], or "auto".
fn parse_bins(s: &str) -> Result<Bins, String> {
    let bins = s.parse::<Bins>()?;
    match bins {
        Bins::Fixed(n) if n > MAX_BINS => {
            Err(format!("--bins {n} is above the limit of {} bins", grouped(MAX_BINS as u64)))
        }
        _ => Ok(bins),
    }
}

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

/// One engine's shape, the default the paper's: a 256-entry CAM and 32,768 list entries
/// in 4 lists.
#[derive(clap::Args, Clone, Copy, Debug)]
struct EngineShape {
    /// CAM entries.
    #[arg(long, default_value_t = 256)]
    cam_depth: u32,
    /// Parallel lists.
    #[arg(long, default_value_t = 4)]
    lists: u32,
    /// List entries, over all lists.
    #[arg(long, default_value_t = 32768)]
    list_capacity: u32,
    /// Bits of the lists' posting labels, 4 to 32 (narrow labels wrap sooner; an insert
    /// that would leave labels half the space apart answers overflow).
    #[arg(long, default_value_t = 32)]
    label_bits: u32,
    #[command(flatten)]
    fields: FieldArgs,
}

/// Stored widths of the engine's fields (the ports stay 32 bits; a wider value answers
/// `error`).
#[derive(clap::Args, Clone, Copy, Debug, PartialEq, Eq)]
struct FieldArgs {
    /// Communicator bits, 1 to 32.
    #[arg(long, default_value_t = 16)]
    comm_bits: usize,
    /// Source-rank bits, 1 to 32 (32 for jobs of more than 65,536 ranks).
    #[arg(long, default_value_t = 16)]
    source_bits: usize,
    /// Tag bits, 1 to 32.
    #[arg(long, default_value_t = 32)]
    tag_bits: usize,
    /// Receive and message handle bits, 1 to 32.
    #[arg(long, default_value_t = 32)]
    handle_bits: usize,
}

impl FieldArgs {
    fn widths(&self) -> Result<FieldWidths, String> {
        FieldWidths::new(self.comm_bits, self.source_bits, self.tag_bits, self.handle_bits)
    }

    /// What the models refuse: values wider than these widths.
    fn limits(&self) -> Result<tagmatch_sim::cycle::FieldLimits, String> {
        Ok(emit::engine::field_limits(&self.widths()?))
    }
}

impl EngineShape {
    /// No two-level option was given (the other designs refuse them).
    fn is_default(&self) -> bool {
        (self.cam_depth, self.lists, self.list_capacity, self.label_bits) == (256, 4, 32768, 32)
            && self.fields.widths() == Ok(FieldWidths::default())
    }

    /// The configuration, with a warning on stderr when its labels are too narrow for
    /// its lists.
    fn config(&self) -> Result<emit::engine::EngineConfig, String> {
        let cfg = emit::engine::configuration(self.cam_depth, self.lists, self.list_capacity)?
            .with_label_bits(self.label_bits)?
            .with_fields(self.fields.widths()?);
        if let Some(w) = cfg.label_warning() {
            eprintln!("{w}");
        }
        Ok(cfg)
    }
}

/// The hardware `gen` and `cosim` build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Design {
    /// The receive engine: a CAM in front of parallel linked lists (FPL 2018).
    TwoLevel,
    /// The optimistic tag matching thread array: lanes match a block of arrivals at once.
    Optimistic,
    /// The one-sided offload unit: put/get progress, per-window counters, flush and FIN.
    Onesided,
    /// The two-level engine's level-1 CAM alone (gen only), to time a CAM whose engine
    /// does not fit the timing flow's FPGA.
    Cam,
}

/// The one-sided unit's size (--engine onesided).
#[derive(clap::Args, Clone, Copy, Debug)]
struct OnesidedShape {
    /// Windows: 4, 16 or 64 [default: 16].
    #[arg(long)]
    windows: Option<usize>,
    /// Bits of each window's counters: 16 (32, or 3 with 4 windows) [default: 16].
    #[arg(long)]
    counter_bits: Option<u32>,
}

impl OnesidedShape {
    fn config(&self) -> Result<tagmatch_sim::onesided::UnitConfig, String> {
        emit::onesided::configuration(self.windows, self.counter_bits)
    }

    /// Refuses one-sided options given for another design.
    fn unused(&self) -> Result<(), String> {
        if self.windows.is_some() || self.counter_bits.is_some() {
            return Err("--windows and --counter-bits size the one-sided unit: add --engine onesided".into());
        }
        Ok(())
    }
}

/// The thread array's shape (--engine optimistic).
#[derive(clap::Args, Clone, Copy, Debug)]
struct ArrayShape {
    /// Lanes, 1 to 64 [default: 16].
    #[arg(long)]
    threads: Option<usize>,
    /// Receive descriptors, 2 to 32,767 [default: gen 128, cosim 32].
    #[arg(long)]
    descriptors: Option<usize>,
    /// Bins per hashed index, a power of two up to 16,384 [default: 64; 4 with 32
    /// descriptors or fewer].
    #[arg(long)]
    bins: Option<usize>,
    /// Unexpected messages the UMQ holds, 2 to 65,535 [default: 64; 16 with 32 descriptors
    /// or fewer].
    #[arg(long)]
    umq: Option<usize>,
    /// Leave out the fast conflict path (every conflict takes the slow path).
    #[arg(long)]
    no_fast_path: bool,
}

impl ArrayShape {
    fn config(
        &self,
        default: emit::thread_array::Tables,
    ) -> Result<emit::thread_array::ThreadArrayConfig, String> {
        let descriptors = self.descriptors.unwrap_or(default.descriptors);
        let tables = emit::thread_array::Tables::with_descriptors(descriptors, self.bins, self.umq);
        emit::thread_array::configuration(self.threads.unwrap_or(16), tables, !self.no_fast_path)
    }

    /// Refuses thread array options given for the two-level engine (they would be ignored).
    fn unused(&self) -> Result<(), String> {
        if self.threads.is_some()
            || self.descriptors.is_some()
            || self.bins.is_some()
            || self.umq.is_some()
            || self.no_fast_path
        {
            return Err(
                "--threads, --descriptors, --bins, --umq and --no-fast-path shape the thread array: \
                        add --engine optimistic"
                    .into(),
            );
        }
        Ok(())
    }
}

/// `gen --testbench`: a self-checking Verilog testbench (testbench_gen.rs).
#[derive(clap::Args, Clone, Copy, Debug)]
struct TestbenchArgs {
    /// Also write tagmatch_engine_tb.v: random operations with the answers and cycles the
    /// models expect, for any Verilog simulator (iverilog -g2005; prints PASS or FAIL).
    /// The engine is then written for event-driven simulators (same logic).
    #[arg(long)]
    testbench: bool,
    /// Operations in the testbench.
    #[arg(long, default_value_t = 2000, requires = "testbench")]
    testbench_ops: usize,
    /// Seed of the testbench's operations.
    #[arg(long, default_value_t = 1, requires = "testbench")]
    testbench_seed: u64,
}

impl TestbenchArgs {
    fn unused(&self) -> Result<(), String> {
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
struct ShellArgs {
    /// Also write the engine as an IP core: tagmatch_shell.v (registered skid buffers,
    /// AXI4-Stream for xilinx, Avalon-ST for intel), an out-of-context clock constraint and
    /// the vendor's packaging script (Vivado ipx::package_project; Platform Designer _hw.tcl).
    #[arg(long, value_enum)]
    shell: Option<board::catalog::Vendor>,
    /// The device of the out-of-context run [default: xilinx xcu250-figd2104-2L-e, intel
    /// AGFB014R24B2E2V].
    #[arg(long, requires = "shell")]
    part: Option<String>,
    /// The clock the shell is constrained for, in MHz.
    #[arg(long, default_value_t = 150.0, requires = "shell")]
    clock_mhz: f64,
}

impl ShellArgs {
    fn target(&self) -> Option<board::build::ShellTarget> {
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

    fn unused(&self) -> Result<(), String> {
        if self.shell.is_some() {
            return Err("--shell packages the two-level engine; the other designs have no shell yet".into());
        }
        Ok(())
    }
}

/// `gen --timing`: the open place-and-route flow (timing.rs).
#[derive(clap::Args, Clone, Copy, Debug)]
struct TimingArgs {
    /// Place and route the emitted Verilog on a Lattice ECP5 (LFE5U-85F-8) with yosys and
    /// nextpnr (yowasp, from scripts/setup.sh) and report its Fmax, critical path, logic
    /// levels and utilisation, with yosys synth_xilinx's logic depth beside it: minutes.
    #[arg(long)]
    timing: bool,
    /// The clock nextpnr aims for, MHz (the design's Fmax is reported either way).
    #[arg(long, default_value_t = flow::timing::DEFAULT_TARGET_MHZ, requires = "timing")]
    target_mhz: f64,
    /// nextpnr's router: router1 (nextpnr's default) or router2, which progresses faster
    /// on large, congested designs such as the thread array and is stopped when its
    /// overused wires stop falling, with what congests them listed. Default: chosen by the
    /// netlist's size after synthesis, router2 above 40,000 LUT4s (48 % of the device),
    /// router1 below, and router2 again if router1 stalls; a router1 asked for here is
    /// stopped when it stalls. The manifest and the record name the router and why.
    #[arg(long, value_enum, requires = "timing")]
    router: Option<flow::timing::Router>,
    /// nextpnr's placer: heap (nextpnr's default) or static, which spreads a wire-bound
    /// design such as the thread array further, so routing has room. Default: static above
    /// 40,000 LUT4s and for the thread array (every record of it), heap for the rest. The
    /// manifest and the record name the placer and why.
    #[arg(long, value_enum, requires = "timing")]
    placer: Option<flow::timing::Placer>,
    /// The whole flow's time budget in minutes (synthesis, placement, routing): when it
    /// runs out, the tool under way is stopped and the flow fails with one line naming the
    /// step, its last progress figures, nextpnr's estimate after placement where there is
    /// one, and what to try. 0: no limit.
    #[arg(long, default_value_t = flow::timing::DEFAULT_MAX_MINUTES, requires = "timing")]
    max_minutes: u32,
    /// Stop after placement: nextpnr's Fmax estimate (no routing delays, no critical path)
    /// and the netlist's deepest registers, in minutes where routing takes hours (the
    /// thread array). An estimate, so it cannot be recorded.
    #[arg(long, requires = "timing", conflicts_with = "record")]
    place_only: bool,
    /// nextpnr's placer seed. Records name theirs; a second seed shows how much of a
    /// difference between two designs is placement luck.
    #[arg(long, default_value_t = flow::timing::SEED, requires = "timing")]
    seed: u32,
    /// Store the measurement in constraints/timing/lfe5u-85f-8.json, where the benchmarks
    /// read their clocks (replacing an older one of the same configuration).
    #[arg(long, requires = "timing")]
    record: bool,
}

impl TimingArgs {
    /// The tools, found before anything slow starts (a missing one is a one-line error).
    fn tools(&self) -> Result<Option<flow::timing::Tools>, String> {
        if !(self.target_mhz.is_finite() && self.target_mhz > 0.0) {
            return Err(format!("--target-mhz {}: a frequency above zero", self.target_mhz));
        }
        self.timing.then(flow::timing::find_tools).transpose()
    }

    /// Runs the flow on `out/file`, writes it into the manifest, records it if asked, and
    /// prints its table row.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        tools: &flow::timing::Tools,
        out: &std::path::Path,
        file: &str,
        design: &str,
        manifest: &mut serde_json::Value,
        shape: &output::table::Record,
        xilinx_levels: Option<u64>,
        format: Format,
    ) -> Result<(), String> {
        let verilog =
            std::fs::read_to_string(out.join(file)).map_err(|e| format!("cannot read back {file}: {e}"))?;
        let hash = emit::engine::content_hash(&verilog);
        let stage = if self.place_only { flow::timing::Stage::Place } else { flow::timing::Stage::Route };
        let nextpnr = flow::timing::Nextpnr {
            target_mhz: self.target_mhz,
            placer: self.placer,
            design_placer: flow::timing::Placer::default_for(design),
            router: self.router,
            seed: self.seed,
            stage,
            budget: (self.max_minutes > 0)
                .then(|| std::time::Duration::from_secs(u64::from(self.max_minutes) * 60)),
        };
        let t = flow::timing::run(tools, out, file, nextpnr, xilinx_levels)?;
        let mut json = t.to_json();
        json["verilog_hash"] = serde_json::json!(hash);
        manifest["timing"] = json;
        emit::engine::write_manifest(out, manifest)?;
        if let (true, Some(routed)) = (self.record, t.routed()) {
            let m = flow::record::measurement(design, &manifest["parameters"], &hash, &t);
            let path = flow::record::record(m)?;
            eprintln!(
                "tagmatch: recorded {:.2} MHz for this configuration in {}",
                routed.fmax_mhz,
                path.display()
            );
        }
        print!("{}", render(&[t.record(shape)], format));
        Ok(())
    }
}

/// `gen --estimate` and `--timing` on the Verilog `file` just written into `out`, for any
/// design: yosys' figures into the manifest and a table (`announce` said first), then the
/// open flow with the Xilinx depth the estimate already measured.
#[allow(clippy::too_many_arguments)]
fn estimate_and_time(
    with_estimate: bool,
    announce: &str,
    timing: &TimingArgs,
    tools: &Option<flow::timing::Tools>,
    out: &std::path::Path,
    file: &str,
    design: &str,
    manifest: &mut serde_json::Value,
    shape: &output::table::Record,
    format: Format,
) -> Result<(), String> {
    let mut xilinx_levels = None;
    if with_estimate {
        eprintln!("tagmatch: {announce}");
        let estimates = flow::estimate::estimate(&out.join(file), &out.join("yosys"))?;
        xilinx_levels = estimates.first().map(|e| e.logic_levels);
        manifest["estimates"] = estimates.iter().map(|e| e.to_json()).collect();
        emit::engine::write_manifest(out, manifest)?;
        let records: Vec<_> = estimates.iter().map(|e| e.record(shape)).collect();
        print!("{}", render(&records, format));
    }
    if let Some(tools) = tools {
        timing.run(tools, out, file, design, manifest, shape, xilinx_levels, format)?;
    }
    Ok(())
}

/// The benchmarks `tagmatch bench` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BenchName {
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

#[derive(Subcommand)]
enum Command {
    /// Write the engine's Verilog, constraints and manifest.json.
    Gen {
        /// Which hardware: the two-level receive engine or the optimistic thread array.
        #[arg(long, value_enum, default_value = "two-level")]
        engine: Design,
        #[command(flatten)]
        shape: EngineShape,
        #[command(flatten)]
        array: ArrayShape,
        #[command(flatten)]
        onesided: OnesidedShape,
        /// Also write a top-level wrapper, constraints and a project script for this board
        /// (`tagmatch boards` lists them).
        #[arg(long)]
        board: Option<String>,
        #[command(flatten)]
        shell: ShellArgs,
        /// Synthesize the engine with yosys (synth_xilinx, synth_intel_alm) and report LUTs,
        /// flip-flops, block RAMs and logic levels, in the manifest and as a table.
        #[arg(long)]
        estimate: bool,
        #[command(flatten)]
        timing: TimingArgs,
        #[command(flatten)]
        testbench: TestbenchArgs,
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
        #[arg(long)]
        out: PathBuf,
    },
    /// The boards `gen --board` knows, with their key facts.
    Boards {
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
    },
    /// Preposted-latency, unload, or message-rate (optimistic tag matching) benchmark.
    Bench {
        #[arg(value_enum)]
        bench: BenchName,
        #[arg(long, value_enum, default_value = "software")]
        engine: Engine,
        /// Parallel lists of the hardware engine (model and rtl engines) [default: 1,4,64].
        #[arg(long, value_delimiter = ',')]
        lists: Vec<u32>,
        /// CAM entries of the hardware engine.
        #[arg(long, default_value_t = 256)]
        cam_depth: u32,
        /// List entries of the hardware engine, over all lists.
        #[arg(long, default_value_t = 32768)]
        list_capacity: u32,
        /// Queue depths [default: software 1,10,100,1000,10000; rtl 1,10,100,256,257,500,1000,2000;
        /// model those and 5000,10000,30000].
        #[arg(long, value_delimiter = ',')]
        depths: Vec<u32>,
        /// Baseline cost models beside the model engine: paper (the FPL 2018 design with the
        /// same --lists), alpu, hash, comma separated, or none [default: paper,alpu,hash].
        #[arg(long, value_delimiter = ',')]
        baselines: Vec<String>,
        /// The ALPU baseline's cost of walking one element of its software list, in cycles
        /// (an assumption, see the README).
        #[arg(long, default_value_t = SOFTWARE_CYCLES_PER_ELEMENT)]
        software_cycles: u64,
        /// Software matchers to run (software engine): names, comma separated, or "all".
        #[arg(long, value_delimiter = ',', default_value = "all")]
        matchers: Vec<String>,
        /// Bins of the hash-bin matcher: a count or "auto" (grow with the queue).
        #[arg(long, default_value = "auto")]
        bins: String,
        /// Threads of the optimistic matcher (rate).
        #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
        threads: Vec<usize>,
        /// Traffic (throughput): cam-hits, unexpected, mover-hits.
        #[arg(long, value_delimiter = ',', default_value = "cam-hits,unexpected,mover-hits")]
        traffic: Vec<String>,
        /// Scenarios (rate): nc, wc-fp, wc-sp.
        #[arg(long, value_delimiter = ',', default_value = "nc,wc-fp,wc-sp")]
        scenario: Vec<String>,
        /// Messages per sequence (rate).
        #[arg(long, default_value_t = 100)]
        k: u32,
        /// Receive descriptors of the thread array (rate), as `gen --engine optimistic
        /// --descriptors`: 32 or fewer take the small tables (4 bins, a 16-entry UMQ), so
        /// `--descriptors 32 --k 32` runs the configuration the timing flow can place
        /// [default: the generator's 128, grown to --k in the model].
        #[arg(long)]
        descriptors: Option<usize>,
        /// Sequences (rate).
        #[arg(long, default_value_t = 500)]
        sequences: u32,
        /// Requests per run (onesided).
        #[arg(long, value_delimiter = ',', default_value = "1,16,64")]
        requests: Vec<u32>,
        /// Bytes per request (onesided).
        #[arg(long, value_delimiter = ',', default_value = "64,1024,4096,16384,65536")]
        bytes: Vec<u32>,
        /// Cycles the host computes between issuing and flushing (onesided).
        #[arg(long, value_delimiter = ',', default_value = "10000")]
        compute: Vec<u64>,
        /// The network's latency, cycles from a request's last byte to its completion (onesided).
        #[arg(long, default_value_t = 200)]
        latency: u64,
        /// The network's bandwidth, bytes per cycle (onesided).
        #[arg(long, default_value_t = 32)]
        bandwidth: u64,
        /// Requests the network's send queue holds (onesided).
        #[arg(long, default_value_t = 128)]
        net_queue: usize,
        /// Gets instead of puts (onesided).
        #[arg(long)]
        get: bool,
        #[command(flatten)]
        onesided: OnesidedShape,
        /// Preposted and unload with the completion unit: a wait parked before the measured
        /// deliveries, and `wait_cycles` to its answer beside `cycles` (model and rtl).
        #[arg(long)]
        wait: bool,
        /// Preposted and unload through the host driver (`fallback`), so depths past the
        /// engine's capacity run [default depths: 1, 1000, 10000, capacity, 1.2 x capacity].
        #[arg(long, value_enum)]
        host: Option<commands::cosim::HostChoice>,
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// A random operation stream through the RTL (Verilator), the golden model and the cycle model.
    Cosim {
        /// Which hardware: the two-level receive engine or the optimistic thread array.
        #[arg(long, value_enum, default_value = "two-level")]
        engine: Design,
        #[command(flatten)]
        array: ArrayShape,
        #[command(flatten)]
        onesided: OnesidedShape,
        #[arg(long, default_value_t = 4)]
        lists: u32,
        /// Operations: a count of random ones, or a file of your own (JSON lines of `Op`,
        /// see `tagmatch_sim::model::op_file`; a file named only by digits needs a `./`).
        #[arg(long, default_value = "20000")]
        ops: commands::cosim::OpsSource,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A flush after about one operation in N (from `--seed`), so the engine or the
        /// thread array is emptied mid-stream.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        flush_every: Option<u64>,
        /// CAM entries (the small default makes streams spill past the CAM and overflow).
        #[arg(long, default_value_t = 8)]
        cam_depth: u32,
        /// List entries, over all lists.
        #[arg(long, default_value_t = 256)]
        list_capacity: u32,
        /// Bits of the lists' posting labels, 4 to 32 (see `gen --label-bits`).
        #[arg(long, default_value_t = 32)]
        label_bits: u32,
        #[command(flatten)]
        fields: FieldArgs,
        /// Run the host driver over the engine, for unbounded MPI matching: `fallback` (the
        /// host keeps what overflows) or `split` (the engine owns the receives, the host the
        /// unexpected messages), against the unbounded golden model.
        #[arg(long, value_enum)]
        host: Option<commands::cosim::HostChoice>,
        /// Split mode: ticks a message takes between host and NIC.
        #[arg(long, default_value_t = 4)]
        delay: u64,
        /// Split mode: switch the phase counter off, to see the race it closes.
        #[arg(long)]
        no_sync: bool,
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
    },
    /// DUMPI trace statistics and replay.
    Trace {
        #[command(subcommand)]
        action: TraceAction,
    },
}

#[derive(Subcommand)]
enum TraceAction {
    /// Queue depths with 1 to 256 bins.
    Stats {
        /// A run's folder (with its .meta, or its .bin or .txt rank files), a .meta file, or one
        /// rank's .bin or .txt.
        path: PathBuf,
        #[arg(long, value_delimiter = ',', default_value = "1,16,32,64,128,256")]
        bins: Vec<usize>,
        #[arg(long, value_enum, default_value = "full")]
        mode: commands::trace::Mode,
        /// The bin hash of pending-recv mode.
        #[arg(long, value_enum, default_value = "own")]
        hash: commands::trace::Hash,
        /// Network latency added to a send's time to get its arrival (full mode), in microseconds.
        #[arg(long, default_value_t = 1.0)]
        latency_us: f64,
        /// One row per rank as well as the whole run.
        #[arg(long)]
        per_rank: bool,
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
        /// Draw depth against bins, across ranks, as SVG.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Replay the run's matching through software matchers: work per match.
    Replay {
        path: PathBuf,
        /// Matchers, comma separated, or "all"; or alone "engine" (the receive engine's
        /// cycle-accurate model) or "rtl" (its RTL in Verilator), behind the host driver,
        /// sized by --cam-depth, --lists, --list-capacity: cycles, and what the host kept.
        #[arg(long, value_delimiter = ',', default_value = "all")]
        matcher: Vec<String>,
        /// The engine's shape (--matcher engine).
        #[command(flatten)]
        shape: EngineShape,
        /// Bins of the hash-bin matcher: a count or "auto".
        #[arg(long, default_value = "auto")]
        bins: String,
        #[arg(long, default_value_t = 1.0)]
        latency_us: f64,
        #[arg(long)]
        per_rank: bool,
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
    },
}

/// `bench rate`: the thread array's message rate beside the two-level engine's.
fn bench_rate(
    options: bench::rate::RateOptions,
    format: Format,
    plot: Option<PathBuf>,
) -> Result<(), String> {
    if let Some(&bad) = options.threads.iter().find(|&&t| !(1..=MAX_THREADS).contains(&t)) {
        return Err(format!("--threads {bad}: from 1 to {MAX_THREADS} (one booking bit each)"));
    }
    let mut records = bench::rate::run(&options)?;
    for w in bench::rate::annotate(&mut records, options.engine, options.tables())? {
        eprintln!("tagmatch: warning: {w}; rerun `tagmatch gen ... --timing --record`");
    }
    if let Some(svg) = plot {
        bench::rate::plot(&records, &svg)?;
    }
    let shown = if format == Format::Table { flow::record::for_table(&records) } else { records };
    print!("{}", render(&shown, format));
    Ok(())
}

/// The model engine's configurations, then the baselines asked for.
fn model_designs(
    lists: &[u32],
    cam_depth: u32,
    list_capacity: u32,
    baselines: &[String],
    software_cycles: u64,
) -> Result<Vec<bench::model::Design>, String> {
    let mut designs = Vec::new();
    for &n in lists {
        let cfg = TwoLevelConfig::from_list_capacity(cam_depth as usize, n as usize, list_capacity as usize)?;
        designs.push(bench::model::Design::TwoLevel(cfg));
    }
    let names: Vec<&str> = if baselines.is_empty() {
        vec!["paper", "alpu", "hash"]
    } else {
        baselines.iter().map(String::as_str).filter(|&b| b != "none").collect()
    };
    for name in names {
        match name {
            "paper" => {
                for &n in lists {
                    designs.push(bench::model::Design::Baseline(Baseline::Paper { lists: n as usize }));
                }
            }
            "alpu" => designs.push(bench::model::Design::Baseline(Baseline::Alpu { software_cycles })),
            "hash" => designs.push(bench::model::Design::Baseline(Baseline::Hash)),
            other => return Err(format!("unknown baseline {other:?}: paper, alpu, hash or none")),
        }
    }
    Ok(designs)
}

fn parse_matchers(names: &[String]) -> Result<Vec<MatcherKind>, String> {
    if names.iter().any(|n| n == "all") {
        return Ok(MatcherKind::ALL.to_vec());
    }
    names.iter().map(|n| n.parse()).collect()
}

fn check_latency(latency_us: f64) -> Result<(), String> {
    if latency_us.is_finite() && latency_us >= 0.0 {
        Ok(())
    } else {
        Err(format!("bad latency {latency_us}: microseconds, zero or more"))
    }
}

fn trace(action: TraceAction) -> Result<(), String> {
    match action {
        TraceAction::Stats { path, bins, mode, hash, latency_us, per_rank, format, plot } => {
            check_latency(latency_us)?;
            if let Some(bad) = bins.iter().find(|&&b| b == 0) {
                return Err(format!("bad bin count {bad}: bins start at 1"));
            }
            if let Some(bad) = bins.iter().find(|&&b| b > MAX_BINS) {
                return Err(format!("--bins {bad} is above the limit of {} bins", grouped(MAX_BINS as u64)));
            }
            let records = commands::trace::stats(
                &path,
                mode,
                hash.bin_hash(),
                &bins,
                latency_us,
                per_rank || plot.is_some(),
            )?;
            if let Some(svg) = plot {
                let title = format!(
                    "{} ({} mode)",
                    path.display(),
                    if mode == commands::trace::Mode::Full { "full" } else { "pending-recv" }
                );
                commands::trace::stats_plot(&records, &svg, &title)?;
            }
            let shown: Vec<_> = if per_rank {
                records
            } else {
                records.into_iter().filter(|r| r[0].1 == serde_json::json!("all")).collect()
            };
            print!("{}", render(&shown, format));
            Ok(())
        }
        TraceAction::Replay { path, matcher, shape, bins, latency_us, per_rank, format } => {
            check_latency(latency_us)?;
            if let Some(hw) = matcher.iter().find(|m| *m == "engine" || *m == "rtl") {
                if matcher.len() > 1 {
                    return Err(format!(
                        "--matcher {hw} replays alone (its records carry cycles, not entries)"
                    ));
                }
                let engine = if hw == "engine" {
                    commands::trace::ReplayEngine::Model(
                        TwoLevelConfig::from_list_capacity(
                            shape.cam_depth as usize,
                            shape.lists as usize,
                            shape.list_capacity as usize,
                        )?
                        .with_label_bits(shape.label_bits)?
                        .with_fields(shape.fields.limits()?),
                    )
                } else {
                    let cfg = shape.config()?;
                    commands::trace::ReplayEngine::Rtl(
                        tagmatch_testbench::two_level::cosim::EngineUnderTest {
                            name: cfg.build_name(),
                            verilog: cfg.verilog()?,
                            config: cfg.model_config()?,
                        },
                    )
                };
                let records = commands::trace::replay_engine(&path, engine, latency_us, per_rank)?;
                print!("{}", render(&records, format));
                return Ok(());
            }
            let options = MatcherOptions { bins: parse_bins(&bins)?, ..MatcherOptions::default() };
            let records =
                commands::trace::replay(&path, &parse_matchers(&matcher)?, &options, latency_us, per_rank)?;
            print!("{}", render(&records, format));
            Ok(())
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Boards { format } => {
            print!("{}", render(&board::catalog::records()?, format));
            Ok(())
        }
        Command::Gen {
            engine: Design::Onesided,
            shape,
            array,
            onesided,
            board,
            shell,
            estimate,
            timing,
            testbench,
            format,
            out,
        } => {
            testbench.unused()?;
            shell.unused()?;
            if !shape.is_default() {
                return Err("--cam-depth, --lists, --list-capacity, --label-bits and the field widths shape the two-level engine, not the \
                            one-sided unit (--windows, --counter-bits)"
                    .into());
            }
            array.unused()?;
            if board.is_some() {
                return Err(
                    "--board wraps the two-level engine; the one-sided unit has no board wrapper yet".into(),
                );
            }
            let cfg = onesided.config()?;
            let tools = timing.tools()?;
            let mut manifest = emit::onesided::generate(&cfg, &out)?;
            let shape: output::table::Record = vec![
                ("windows", serde_json::json!(cfg.windows)),
                ("counter_bits", serde_json::json!(cfg.counter_bits)),
            ];
            let file = emit::onesided::ONESIDED_FILE;
            let announce = "synthesizing the one-sided unit in yosys";
            estimate_and_time(
                estimate,
                announce,
                &timing,
                &tools,
                &out,
                file,
                "onesided",
                &mut manifest,
                &shape,
                format,
            )?;
            eprintln!(
                "tagmatch: wrote {} and manifest.json to {} ({} windows, {}-bit counters: {} requests outstanding per window)",
                emit::onesided::ONESIDED_FILE,
                out.display(),
                cfg.windows,
                cfg.counter_bits,
                cfg.max_outstanding()
            );
            Ok(())
        }
        Command::Gen {
            engine: Design::Cam,
            shape,
            array,
            onesided,
            board,
            shell,
            estimate,
            timing,
            testbench,
            format,
            out,
        } => {
            testbench.unused()?;
            shell.unused()?;
            array.unused()?;
            onesided.unused()?;
            if (shape.lists, shape.list_capacity, shape.label_bits) != (4, 32768, 32)
                || shape.fields.widths() != Ok(FieldWidths::default())
                || board.is_some()
            {
                return Err(
                    "--engine cam writes the CAM alone: --cam-depth only (no lists, field widths or board)"
                        .into(),
                );
            }
            let tools = timing.tools()?;
            let mut manifest = emit::cam::generate(shape.cam_depth, &out)?;
            let shape: output::table::Record = vec![("cam_depth", serde_json::json!(shape.cam_depth))];
            let announce = "synthesizing the CAM in yosys";
            estimate_and_time(
                estimate,
                announce,
                &timing,
                &tools,
                &out,
                emit::cam::CAM_FILE,
                "cam",
                &mut manifest,
                &shape,
                format,
            )?;
            eprintln!("tagmatch: wrote {} and manifest.json to {}", emit::cam::CAM_FILE, out.display());
            Ok(())
        }
        Command::Gen {
            engine: Design::Optimistic,
            shape,
            array,
            onesided,
            board,
            shell,
            estimate,
            timing,
            testbench,
            format,
            out,
        } => {
            onesided.unused()?;
            testbench.unused()?;
            shell.unused()?;
            if !shape.is_default() {
                return Err("--cam-depth, --lists, --list-capacity, --label-bits and the field widths shape the two-level engine, not the \
                            thread array (--threads, --descriptors)"
                    .into());
            }
            if board.is_some() {
                return Err("--board wraps the two-level engine's one-message command stream; the thread \
                            array's lane ports have no board wrapper yet"
                    .into());
            }
            let cfg = array.config(emit::thread_array::DEFAULT_TABLES)?;
            let tools = timing.tools()?;
            let mut manifest = emit::thread_array::generate(&cfg, &out)?;
            let shape: output::table::Record = vec![
                ("threads", serde_json::json!(cfg.threads)),
                ("descriptors", serde_json::json!(cfg.descriptors)),
            ];
            let file = emit::thread_array::THREAD_ARRAY_FILE;
            let announce = "synthesizing the thread array in yosys";
            estimate_and_time(
                estimate,
                announce,
                &timing,
                &tools,
                &out,
                file,
                "optimistic",
                &mut manifest,
                &shape,
                format,
            )?;
            eprintln!(
                "tagmatch: wrote {} and manifest.json to {} ({} lanes, {} receive descriptors, {} bins per index, \
                 {} unexpected messages, fast path {})",
                emit::thread_array::THREAD_ARRAY_FILE,
                out.display(),
                cfg.threads,
                cfg.descriptors,
                cfg.bins(),
                cfg.unexpected,
                if cfg.fast_path { "on" } else { "off" }
            );
            Ok(())
        }
        Command::Gen {
            engine: Design::TwoLevel,
            shape,
            array,
            onesided,
            board,
            shell,
            estimate,
            timing,
            testbench,
            format,
            out,
        } => {
            array.unused()?;
            onesided.unused()?;
            let board = board.map(|b| board::catalog::find(&b)).transpose()?;
            let cfg = shape.config()?;
            let tools = timing.tools()?;
            let shell_target = shell.target();
            let packaging = match (&board, &shell_target) {
                (Some(_), Some(_)) => {
                    return Err("--shell packages the engine out of context; --board builds a board's top \
                                level (which holds the same shell): choose one"
                        .into())
                }
                (Some(b), None) => emit::engine::Packaging::Board(b),
                (None, Some(s)) => emit::engine::Packaging::Shell(s),
                (None, None) => emit::engine::Packaging::Bare,
            };
            // The testbench's engine is written for event-driven simulators.
            let mut manifest = emit::engine::generate(&cfg, packaging, &out, testbench.testbench)?;
            if testbench.testbench {
                manifest["testbench"] =
                    emit::testbench::generate(&cfg, testbench.testbench_ops, testbench.testbench_seed, &out)?;
                emit::engine::write_manifest(&out, &manifest)?;
            }
            let shape: output::table::Record = vec![
                ("cam_depth", serde_json::json!(cfg.cam_depth)),
                ("lists", serde_json::json!(cfg.lists)),
            ];
            if tools.is_some() && cfg.cam_depth > 64 {
                eprintln!(
                    "tagmatch: warning: the flow on a {}-entry CAM takes hours if it finishes at all \
                     (the WebAssembly yosys once ran out of stack on a 256-deep CAM)",
                    cfg.cam_depth
                );
            }
            let file = emit::engine::ENGINE_FILE;
            let announce =
                "synthesizing the engine in yosys (about a minute for the small engines, an hour or \
                            more for a 256-entry CAM)";
            estimate_and_time(
                estimate,
                announce,
                &timing,
                &tools,
                &out,
                file,
                "two-level",
                &mut manifest,
                &shape,
                format,
            )?;
            let files: Vec<&str> =
                manifest["files"].as_array().into_iter().flatten().filter_map(|f| f.as_str()).collect();
            // stdout carries only data (the estimate table), so scripts can parse it.
            eprintln!(
                "tagmatch: wrote {} and manifest.json to {} (CAM {}, {} lists of {} entries, {} entries per queue)",
                files.join(", "),
                out.display(),
                cfg.cam_depth,
                cfg.lists,
                cfg.entries_per_list(),
                cfg.queue_capacity()
            );
            Ok(())
        }
        Command::Cosim {
            engine,
            array,
            onesided,
            lists,
            ops,
            seed,
            flush_every,
            cam_depth,
            list_capacity,
            label_bits,
            fields,
            host,
            delay,
            no_sync,
            format,
        } => {
            if engine != Design::Onesided {
                onesided.unused()?;
            }
            if flush_every.is_some() && (engine == Design::Onesided || host.is_some()) {
                return Err(
                    "--flush-every drives the two-level engine (without --host) or the thread array".into()
                );
            }
            let (record, agreement) = match (engine, host) {
                (Design::TwoLevel, None) => {
                    array.unused()?;
                    let cfg = EngineShape { cam_depth, lists, list_capacity, label_bits, fields }.config()?;
                    (commands::cosim::run(&cfg, &ops, seed, flush_every)?, commands::cosim::ENGINE_AGREES)
                }
                (Design::TwoLevel, Some(choice)) => {
                    array.unused()?;
                    let cfg = EngineShape { cam_depth, lists, list_capacity, label_bits, fields }.config()?;
                    let mode = choice.mode(delay, !no_sync);
                    (commands::cosim::run_host(&cfg, &ops, seed, mode)?, commands::cosim::DRIVER_AGREES)
                }
                (Design::Optimistic, None) => {
                    let cfg = array.config(emit::thread_array::SMALL_TABLES)?;
                    let n =
                        ops.count().ok_or("--engine optimistic runs random streams: --ops takes a count")?;
                    (
                        commands::cosim::run_thread_array(&cfg, n, seed, flush_every)?,
                        commands::cosim::ENGINE_AGREES,
                    )
                }
                (Design::Optimistic | Design::Onesided, Some(_)) => {
                    return Err("--host drives the two-level engine".into())
                }
                (Design::Cam, _) => {
                    return Err("the CAM alone is for `gen --timing`; cosim runs the engine around it \
                                (--engine two-level)"
                        .into())
                }
                (Design::Onesided, None) => {
                    array.unused()?;
                    let cfg = onesided.config()?;
                    let n =
                        ops.count().ok_or("--engine onesided runs random scripts: --ops takes a count")?;
                    (commands::cosim::run_onesided(&cfg, n, seed)?, commands::cosim::ONESIDED_AGREES)
                }
            };
            let n = output::table::field(&record, "ops").as_u64().unwrap_or(0);
            print!("{}", render(&[record], format));
            eprintln!("tagmatch: all {n} operations agree: {agreement}");
            Ok(())
        }
        Command::Trace { action } => trace(action),
        Command::Bench {
            bench,
            engine,
            lists,
            cam_depth,
            list_capacity,
            depths,
            baselines,
            software_cycles,
            matchers,
            bins,
            threads,
            scenario,
            traffic,
            k,
            descriptors,
            sequences,
            requests,
            bytes,
            compute,
            latency,
            bandwidth,
            net_queue,
            get,
            onesided,
            wait,
            host,
            format,
            plot,
        } => {
            if bench != BenchName::Onesided {
                onesided.unused()?;
            }
            if descriptors.is_some() && bench != BenchName::Rate {
                return Err("--descriptors sizes the thread array of bench rate".into());
            }
            let bench = match bench {
                BenchName::Onesided => {
                    if engine == Engine::Software {
                        return Err(
                            "bench onesided runs the unit's model (--engine model) or RTL (--engine rtl)"
                                .into(),
                        );
                    }
                    let cfg = onesided.config()?;
                    let net = tagmatch_sim::onesided::network::NetworkConfig {
                        latency,
                        bytes_per_cycle: bandwidth,
                        queue: net_queue,
                    };
                    let sweep = bench::onesided::Sweep { requests, bytes, compute, get, net };
                    let records = bench::onesided::run(cfg, &sweep, engine == Engine::Rtl)?;
                    if let Some(svg) = plot {
                        bench::onesided::plot(&records, &svg)?;
                    }
                    print!("{}", render(&records, format));
                    return Ok(());
                }
                BenchName::Throughput => {
                    if engine == Engine::Software || !depths.is_empty() || !baselines.is_empty() || wait {
                        return Err("throughput runs the hardware engine (--engine model or rtl) with \
                                    --lists, --cam-depth, --list-capacity and --traffic"
                            .into());
                    }
                    let traffic = traffic.iter().map(|t| Traffic::parse(t)).collect::<Result<Vec<_>, _>>()?;
                    let lists = if lists.is_empty() { vec![1, 4, 64] } else { lists };
                    let configs = lists
                        .iter()
                        .map(|&n| emit::engine::configuration(cam_depth, n, list_capacity))
                        .collect::<Result<Vec<_>, _>>()?;
                    let mut records = bench::throughput::run(&configs, &traffic, engine == Engine::Rtl)?;
                    for w in flow::record::annotate(&mut records, list_capacity)? {
                        eprintln!("tagmatch: warning: {w}; rerun `tagmatch gen ... --timing --record`");
                    }
                    bench::throughput::add_rates(&mut records);
                    if plot.is_some() {
                        return Err("bench throughput draws no plot; its table is the result".into());
                    }
                    let shown =
                        if format == Format::Table { flow::record::for_table(&records) } else { records };
                    print!("{}", render(&shown, format));
                    return Ok(());
                }
                BenchName::Preposted => Bench::Preposted,
                BenchName::Unload => Bench::Unload,
                BenchName::Rate => {
                    if !depths.is_empty() || !baselines.is_empty() || lists.len() > 1 {
                        return Err("rate takes --threads, --scenario, --k, --sequences and one \
                                    engine configuration (--cam-depth, --lists N, --list-capacity)"
                            .into());
                    }
                    // The model unless the RTL is asked for (rate has no software matchers).
                    let rtl = engine == Engine::Rtl;
                    let two_level = TwoLevelConfig::from_list_capacity(
                        cam_depth as usize,
                        lists.first().copied().unwrap_or(4) as usize,
                        list_capacity as usize,
                    )?;
                    if k > MAX_K {
                        return Err(format!(
                            "--k {k} is above the limit of {} messages per sequence",
                            grouped(MAX_K as u64)
                        ));
                    }
                    let scenarios = scenario.iter().map(|s| Scenario::parse(s)).collect::<Result<_, _>>()?;
                    let tables =
                        descriptors.map(|d| emit::thread_array::Tables::with_descriptors(d, None, None));
                    let options = bench::rate::RateOptions {
                        threads,
                        scenarios,
                        k,
                        sequences,
                        engine: two_level,
                        tables,
                        rtl,
                    };
                    return bench_rate(options, format, plot);
                }
            };
            if let Some(bad) = depths.iter().find(|&&d| d == 0) {
                return Err(format!("bad depth {bad}: depths start at 1"));
            }
            if let Some(bad) = depths.iter().find(|&&d| d > MAX_DEPTH) {
                return Err(format!(
                    "--depths {bad} is above the limit of {} entries",
                    grouped(MAX_DEPTH as u64)
                ));
            }
            if wait && (engine == Engine::Software || host.is_some()) {
                return Err("--wait parks a wait in the engine's completion unit: --engine model or rtl, without --host".into());
            }
            if let Some(choice) = host {
                if choice != commands::cosim::HostChoice::Fallback {
                    return Err("bench --host runs fallback mode; split mode is exercised by \
                                `cosim --host split`"
                        .into());
                }
                if engine == Engine::Software || !baselines.is_empty() {
                    return Err(
                        "--host drives the hardware engine (--engine model or rtl), without baselines".into(),
                    );
                }
                let lists = if lists.is_empty() { vec![4] } else { lists };
                let records = match engine {
                    Engine::Rtl => {
                        let configs = lists
                            .iter()
                            .map(|&n| emit::engine::configuration(cam_depth, n, list_capacity))
                            .collect::<Result<Vec<_>, _>>()?;
                        let depths = host_depths(depths, configs[0].queue_capacity());
                        bench::host::run(bench, bench::host::Target::Rtl(&configs), &depths)?
                    }
                    _ => {
                        let configs = lists
                            .iter()
                            .map(|&n| {
                                TwoLevelConfig::from_list_capacity(
                                    cam_depth as usize,
                                    n as usize,
                                    list_capacity as usize,
                                )
                            })
                            .collect::<Result<Vec<_>, _>>()?;
                        let depths = host_depths(depths, configs[0].queue_capacity() as u32);
                        bench::host::run(bench, bench::host::Target::Model(&configs), &depths)?
                    }
                };
                return finish_hardware_bench(records, bench, list_capacity, format, plot);
            }
            if engine != Engine::Model && !baselines.is_empty() {
                return Err("--baselines go beside the cycle model (--engine model)".into());
            }
            let records = match engine {
                Engine::Model => {
                    let lists = if lists.is_empty() { vec![1, 4, 64] } else { lists };
                    let depths = if depths.is_empty() {
                        vec![1, 10, 100, 256, 257, 500, 1000, 2000, 5000, 10000, 30000]
                    } else {
                        depths
                    };
                    // The baselines are cost models without a completion unit: none by default with --wait.
                    let baselines =
                        if wait && baselines.is_empty() { vec!["none".to_string()] } else { baselines };
                    let designs =
                        model_designs(&lists, cam_depth, list_capacity, &baselines, software_cycles)?;
                    let sweep = bench::model::run(bench, &designs, &depths, wait)?;
                    eprintln!(
                        "tagmatch: {} points, {} simulated cycles in {:.2} s ({:.0} M cycles/s)",
                        sweep.records.len(),
                        sweep.simulated_cycles,
                        sweep.seconds,
                        sweep.simulated_cycles as f64 / sweep.seconds.max(1e-9) / 1e6
                    );
                    sweep.records
                }
                Engine::Rtl => {
                    let lists = if lists.is_empty() { vec![1, 4, 64] } else { lists };
                    let configs = lists
                        .iter()
                        .map(|&n| emit::engine::configuration(cam_depth, n, list_capacity))
                        .collect::<Result<Vec<_>, _>>()?;
                    let depths =
                        if depths.is_empty() { vec![1, 10, 100, 256, 257, 500, 1000, 2000] } else { depths };
                    bench::hardware::run_rtl(bench, &configs, &depths, wait)?
                }
                Engine::Software => {
                    if !lists.is_empty() {
                        return Err("--lists applies to the hardware engines (--engine model or rtl)".into());
                    }
                    if plot.is_some() {
                        return Err(
                            "--plot draws the hardware engines' cycles (--engine model or rtl)".into()
                        );
                    }
                    let depths = if depths.is_empty() { vec![1, 10, 100, 1000, 10000] } else { depths };
                    let options = MatcherOptions { bins: parse_bins(&bins)?, ..MatcherOptions::default() };
                    bench::software::run(bench, &parse_matchers(&matchers)?, &depths, &options)?
                }
            };
            if engine == Engine::Software {
                print!("{}", render(&records, format));
                return Ok(());
            }
            finish_hardware_bench(records, bench, list_capacity, format, plot)
        }
    }
}

/// The host benchmark's depths: the ones asked for, or from one entry to past the
/// engine's capacity.
fn host_depths(asked: Vec<u32>, capacity: u32) -> Vec<u32> {
    if !asked.is_empty() {
        return asked;
    }
    let mut d = vec![1, 1000, 10000, capacity, capacity + capacity / 5];
    d.sort_unstable();
    d.dedup();
    d
}

/// Nanoseconds from the measured clock, the plot and the table of a hardware benchmark.
fn finish_hardware_bench(
    mut records: Vec<output::table::Record>,
    bench: Bench,
    list_capacity: u32,
    format: Format,
    plot: Option<PathBuf>,
) -> Result<(), String> {
    for w in flow::record::annotate(&mut records, list_capacity)? {
        eprintln!("tagmatch: warning: {w}; rerun `tagmatch gen ... --timing --record`");
    }
    if let Some(svg) = plot {
        let cam_depth =
            records.first().map(|r| output::table::field(r, "cam_depth").clone()).unwrap_or_default();
        let title = format!("{} benchmark, {}-entry CAM", bench.name(), cam_depth);
        bench::hardware::plot(&records, &svg, &title)?;
    }
    let shown = if format == Format::Table { flow::record::for_table(&records) } else { records };
    print!("{}", render(&shown, format));
    Ok(())
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
