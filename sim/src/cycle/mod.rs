//! Engines that count clock cycles: the cycle-accurate model of the receive engine
//! ([`two_level`]), cost models of the designs it is compared with ([`baselines`]), and the
//! preposted-latency and unload benchmarks that drive any of them ([`bench`]). The RTL in
//! Verilator implements the same [`CycleEngine`] trait (in `tagmatch-testbench`), so the
//! model and the hardware run exactly the same operations and can be compared op by op.
//!
//! Cycle convention (`docs/design.md`): cycles are counted from the engine's first cycle; an
//! operation is *accepted* in the cycle its command is valid and ready, and *responded* in
//! the first cycle its response is valid. The driver presents the next command as soon as
//! the previous response is acknowledged, and acknowledges every response in the cycle it
//! becomes valid — the handshake the RTL driver uses.

pub mod baselines;
pub mod bench;
pub mod cam_banks;
pub mod engine;
pub mod entry;
pub mod list_index;
pub mod two_level;

use crate::model::ops::{Op, Outcome};

/// What one operation did and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applied {
    pub outcome: Outcome,
    pub accepted: u64,
    pub responded: u64,
}

impl Applied {
    /// The operation's latency as `docs/design.md` defines it.
    pub fn latency(&self) -> u64 {
        self.responded - self.accepted
    }
}

/// An engine that applies operations and counts its cycles.
pub trait CycleEngine {
    fn apply(&mut self, op: &Op) -> Result<Applied, String>;

    /// Applies `ops` back to back: each command is presented the cycle after the previous
    /// one was accepted, and every response is taken in the cycle it is valid, so an
    /// engine that overlaps operations does. An engine that does not takes them one at a
    /// time, as [`CycleEngine::apply`] does.
    fn apply_stream(&mut self, ops: &[Op]) -> Result<Vec<Applied>, String> {
        ops.iter().map(|op| self.apply(op)).collect()
    }
    /// Cycles simulated so far.
    fn cycles(&self) -> u64;

    /// A wait or test of the completion unit, with when it was accepted and answered.
    fn complete(&mut self, c: &Completion) -> Result<(CompletionAnswer, u64, u64), String> {
        Err(format!("this engine has no completion unit ({c:?})"))
    }

    /// The parked wait that the last operation's match ended, if it did.
    fn take_wakeup(&mut self) -> Option<Wakeup> {
        None
    }
}

/// A command of the completion unit (`hdl/src/receive_engine.rs`): `class` is a
/// communicator's low 2 bits, `count` compares with the class's counter of matches by
/// serial arithmetic on 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// Answer when the counter reaches `count`; other commands go on meanwhile.
    Wait { class: u8, count: u32 },
    /// Answer at once whether it has.
    Test { class: u8, count: u32 },
}

/// The completion unit's answers; each carries the class's counter where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionAnswer {
    Reached(u32),
    NotReached(u32),
    /// The wait is kept; a [`Wakeup`] follows the match that ends it.
    Parked,
    /// A wait while another is parked: nothing changed.
    Refused,
}

/// The late answer to a parked wait: the cycle it was valid in and the counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wakeup {
    pub cycle: u64,
    pub counter: u32,
}

/// Whether `counter` has reached `count` (serial arithmetic: the sign of the difference).
pub fn reached(counter: u32, count: u32) -> bool {
    (counter.wrapping_sub(count) as i32) >= 0
}

/// Completion classes: a communicator's low 2 bits.
pub const COMPLETION_CLASSES: usize = 4;

/// The class a matching operation counts in: its communicator's low bits.
pub fn completion_class(op: &Op) -> Option<usize> {
    match *op {
        Op::PostRecv { spec, .. } | Op::Probe { spec } | Op::MatchedProbe { spec } => {
            Some(spec.comm as usize % COMPLETION_CLASSES)
        }
        Op::Arrive { env, .. } => Some(env.comm as usize % COMPLETION_CLASSES),
        Op::Cancel { .. } | Op::Flush => None,
    }
}

/// Stored widths of the engine's command fields (the generator's `--comm-bits`,
/// `--source-bits`, `--tag-bits`, `--handle-bits`): one type for the hardware, the
/// models and the drivers.
pub use tagmatch_config::FieldWidths;

/// Checks that `op`'s fields fit `fields` (a wildcard has no value to fit). Operations
/// whose values do not fit are refused, by the RTL driver and the model alike, rather
/// than truncated into a different envelope (the hardware answers such a command `error`).
pub fn check_fields(fields: &FieldWidths, op: &Op) -> Result<(), String> {
    let (comm, src, tag, handle) = match *op {
        Op::PostRecv { recv, spec } => (spec.comm, spec.src, spec.tag, Some(recv.0)),
        Op::Arrive { msg, env } => (env.comm, Some(env.src), Some(env.tag), Some(msg.0)),
        Op::Cancel { recv } => (0, None, None, Some(recv.0)),
        Op::Flush => (0, None, None, None),
        Op::Probe { spec } | Op::MatchedProbe { spec } => (spec.comm, spec.src, spec.tag, None),
    };
    let fits = FieldWidths::fits;
    if !fits(comm as u64, fields.comm) {
        return Err(format!("communicator {comm} does not fit the engine's {} bits", fields.comm));
    }
    if let Some(src) = src.filter(|&s| !fits(s as u64, fields.src)) {
        return Err(format!("source rank {src} does not fit the engine's {} bits", fields.src));
    }
    if let Some(tag) = tag.filter(|&t| !fits(t as u64, fields.tag)) {
        return Err(format!("tag {tag} does not fit the engine's {} bits", fields.tag));
    }
    if let Some(h) = handle.filter(|&h| !fits(h, fields.handle)) {
        return Err(format!("handle {h} does not fit the engine's {} bits", fields.handle));
    }
    Ok(())
}
