//! Rewrites of emitted Verilog that do not change what it computes.

pub mod event_safe;
