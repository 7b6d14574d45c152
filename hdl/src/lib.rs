//! tagmatch-hdl: the rust-hdl blocks of the matching hardware.
//!
//! - [`primitives`]: block RAMs, selection and reduction trees, the
//!   banked tables the designs are built from;
//! - [`two_level`]: the receive engine of FPL 2018 — the fixed-slot level-1 CAM, linked lists
//!   in block RAM searched in parallel, the two-level queue with its data mover, and the
//!   engine itself (PRQ and UMQ behind valid/ready command and response streams);
//! - [`optimistic`]: the optimistic tag matching thread array;
//! - [`onesided`]: the one-sided offload unit (put/get progress, per-window counters, flush
//!   and FIN);
//! - [`passes`]: rewrites of emitted Verilog ([`passes::event_safe`] for event-driven
//!   simulators);
//! - [`fields`]: the field widths every engine is generated with;
//! - [`ports`]: port bundles (an entry's fields, the thread array's command) and how their
//!   signals are named in the emitted Verilog;
//! - [`generate`]: what every design's Verilog generation shares (a large stack, a stable
//!   hash).
//!
//! Every emitted design passes through [`primitives::trees::isolate_outputs`] (no false
//! loops for Verilator).

pub mod fields;
pub mod generate;
pub mod onesided;
pub mod optimistic;
pub mod passes;
pub mod ports;
pub mod primitives;
pub mod two_level;
