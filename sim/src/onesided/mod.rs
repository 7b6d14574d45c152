//! One-sided offload: the unit's pins and its cycle-accurate model ([`model`]), the network
//! it drives ([`network`]), a harness that runs a host's script against either the model
//! or the RTL cycle by cycle ([`harness`]), the golden ordering rules checked on what came
//! out ([`check`]), and the overlap benchmark ([`bench`]).
//!
//! The unit is `hdl/src/onesided.rs`; its module docs give the command set and ordering
//! rules. This side is what the RTL is held to.

pub mod bench;
pub mod check;
pub mod harness;
pub mod model;
pub mod network;

pub const OP_PUT: u8 = 0;
pub const OP_GET: u8 = 1;
pub const OP_FLUSH: u8 = 2;
pub const OP_FLUSH_ALL: u8 = 3;

pub const RESP_FIN: u8 = 0;
pub const RESP_FIN_ALL: u8 = 1;
pub const RESP_ERROR: u8 = 2;

/// A host command to the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Put { window: u8, target: u16, bytes: u32 },
    Get { window: u8, target: u16, bytes: u32 },
    Flush { window: u8 },
    FlushAll,
}

impl Command {
    /// (op, window, target, bytes) as driven onto the command port.
    pub fn fields(&self) -> (u8, u8, u16, u32) {
        match *self {
            Command::Put { window, target, bytes } => (OP_PUT, window, target, bytes),
            Command::Get { window, target, bytes } => (OP_GET, window, target, bytes),
            Command::Flush { window } => (OP_FLUSH, window, 0, 0),
            Command::FlushAll => (OP_FLUSH_ALL, 0, 0, 0),
        }
    }
}

/// The unit's size: windows and bits per counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitConfig {
    pub windows: usize,
    pub counter_bits: u32,
}

impl UnitConfig {
    /// Requests one window may have outstanding before puts and gets wait.
    pub fn max_outstanding(&self) -> u64 {
        (1u64 << self.counter_bits) - 1
    }
}

/// The unit's inputs in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub reset: bool,
    pub cmd_valid: bool,
    pub cmd_op: u8,
    pub cmd_window: u8,
    pub cmd_target: u16,
    pub cmd_bytes: u32,
    pub net_ready: bool,
    pub cpl_valid: bool,
    pub cpl_window: u8,
    pub resp_ready: bool,
}

/// The unit's outputs (all from registers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub cmd_ready: bool,
    pub net_valid: bool,
    pub net_get: bool,
    pub net_window: u8,
    pub net_target: u16,
    pub net_bytes: u32,
    pub resp_valid: bool,
    pub resp_kind: u8,
    pub resp_window: u8,
}

/// Something with the unit's pins, clocked one cycle at a time: the model or the RTL.
pub trait UnitPins {
    /// The outputs in the current cycle.
    fn outputs(&self) -> Outputs;
    /// Applies `inputs` for the current cycle and clocks the edge that ends it.
    fn clock(&mut self, inputs: &Inputs);
}
