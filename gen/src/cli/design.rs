//! The designs `gen` and `cosim` build, and the options that size each: the two-level
//! engine's shape and field widths, the thread array's, the one-sided unit's.

use crate::emit;
use crate::emit::engine::EngineShape;
use clap::ValueEnum;
use tagmatch_hdl::fields::FieldWidths;

/// The command line's options for one engine's shape ([`EngineShape`]), by default the
/// paper's: a 256-entry CAM and 32,768 list entries in 4 lists.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct EngineArgs {
    /// CAM entries (2 to 1,024; 2 to 4,096 with --engine cam).
    #[arg(long, default_value_t = EngineShape::DEFAULT.cam_depth as u32)]
    pub cam_depth: u32,
    /// Parallel lists (a power of two from 1 to 64).
    #[arg(long, default_value_t = EngineShape::DEFAULT.lists as u32)]
    pub lists: u32,
    /// List entries, over all lists (a power of two from 4 × --lists to 32,768).
    #[arg(long, default_value_t = EngineShape::DEFAULT.list_capacity() as u32)]
    pub list_capacity: u32,
    /// Bits of the lists' posting labels (4 to 32). Narrow labels wrap sooner; an insert
    /// that would leave labels half the space apart answers overflow.
    #[arg(long, default_value_t = EngineShape::DEFAULT.label_bits)]
    pub label_bits: u32,
    #[command(flatten)]
    pub fields: FieldArgs,
}

/// Stored widths of the fields of the two-level engine (its ports stay 32 bits; a wider
/// value answers `error`) and of the thread array (its ports stay 16/16/32/32 bits; a
/// wider value answers overflow).
#[derive(clap::Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldArgs {
    /// Communicator bits (1 to 32; 1 to 16 for the thread array).
    #[arg(long, default_value_t = FieldWidths::DEFAULT.comm)]
    pub comm_bits: usize,
    /// Source-rank bits (1 to 32; 32 for jobs of more than 65,536 ranks; 1 to 16 for the
    /// thread array).
    #[arg(long, default_value_t = FieldWidths::DEFAULT.src)]
    pub source_bits: usize,
    /// Tag bits (1 to 32).
    #[arg(long, default_value_t = FieldWidths::DEFAULT.tag)]
    pub tag_bits: usize,
    /// Receive and message handle bits (1 to 32).
    #[arg(long, default_value_t = FieldWidths::DEFAULT.handle)]
    pub handle_bits: usize,
}

impl FieldArgs {
    pub fn widths(&self) -> Result<FieldWidths, String> {
        FieldWidths::new(self.comm_bits, self.source_bits, self.tag_bits, self.handle_bits)
    }
}

impl FieldArgs {
    /// No field width was given.
    pub const DEFAULT: FieldArgs = FieldArgs {
        comm_bits: FieldWidths::DEFAULT.comm,
        source_bits: FieldWidths::DEFAULT.src,
        tag_bits: FieldWidths::DEFAULT.tag,
        handle_bits: FieldWidths::DEFAULT.handle,
    };
}

/// The error of a design that is not the two-level engine given the engine's options: the
/// one-sided unit takes none of them, the thread array only the field widths.
pub const NOT_FOR_ONESIDED: &str = "--cam-depth, --lists, --list-capacity, --label-bits and the field widths \
                                    shape the two-level engine, not the one-sided unit (--windows, --counter-bits)";
pub const NOT_FOR_THREAD_ARRAY: &str = "--cam-depth, --lists, --list-capacity and --label-bits shape the \
                                        two-level engine, not the thread array (--threads, --descriptors)";

impl EngineArgs {
    /// No two-level option was given (the other designs refuse them).
    pub fn is_default(&self) -> bool {
        self.shape().ok() == Some(EngineShape::DEFAULT)
    }

    /// No two-level option but the field widths was given (the thread array takes those).
    pub fn only_fields(&self) -> bool {
        EngineArgs { fields: FieldArgs::DEFAULT, ..*self }.is_default()
    }

    fn shape(&self) -> Result<EngineShape, String> {
        Ok(emit::engine::configuration(self.cam_depth, self.lists, self.list_capacity)?
            .with_label_bits(self.label_bits)?
            .with_fields(self.fields.widths()?))
    }

    /// The shape, with a warning on stderr when its labels are too narrow for its lists.
    pub fn config(&self) -> Result<EngineShape, String> {
        let cfg = self.shape()?;
        if let Some(w) = emit::engine::label_warning(&cfg) {
            eprintln!("{w}");
        }
        Ok(cfg)
    }
}

/// The hardware `gen` and `cosim` build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Design {
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
pub struct OnesidedShape {
    /// Windows (4, 16 or 64) [default: 16].
    #[arg(long)]
    pub windows: Option<usize>,
    /// Bits of each window's counters (16, or 3 with 4 windows, or 32 with 16 windows)
    /// [default: 16].
    #[arg(long)]
    pub counter_bits: Option<u32>,
}

impl OnesidedShape {
    pub fn config(&self) -> Result<tagmatch_sim::onesided::UnitConfig, String> {
        emit::onesided::configuration(self.windows, self.counter_bits)
    }

    /// Refuses one-sided options given for another design.
    pub fn unused(&self) -> Result<(), String> {
        if self.windows.is_some() || self.counter_bits.is_some() {
            return Err("--windows and --counter-bits size the one-sided unit: add --engine onesided".into());
        }
        Ok(())
    }
}

/// The thread array's shape (--engine optimistic).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct ArrayShape {
    /// Lanes (1 to 64) [default: 16].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Receive descriptors (2 to 32,767) [default: gen 128, cosim 32].
    #[arg(long)]
    pub descriptors: Option<usize>,
    /// Bins per hashed index (a power of two from 1 to 16,384) [default: 64; 4 with 32
    /// descriptors or fewer].
    #[arg(long)]
    pub bins: Option<usize>,
    /// Unexpected messages the UMQ holds (2 to 256) [default: 64; 16 with 32 descriptors
    /// or fewer].
    #[arg(long)]
    pub umq: Option<usize>,
    /// Leave out the fast conflict path (every conflict takes the slow path).
    #[arg(long)]
    pub no_fast_path: bool,
}

impl ArrayShape {
    pub fn config(
        &self,
        default: emit::thread_array::Tables,
    ) -> Result<emit::thread_array::ThreadArrayConfig, String> {
        let descriptors = self.descriptors.unwrap_or(default.descriptors);
        let tables = emit::thread_array::Tables::with_descriptors(descriptors, self.bins, self.umq);
        emit::thread_array::configuration(self.threads.unwrap_or(16), tables, !self.no_fast_path)
    }

    /// Refuses thread array options given for the two-level engine (they would be ignored).
    pub fn unused(&self) -> Result<(), String> {
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
