//! The two-level queue's Verilog lints clean at a realistic size (64-entry CAM, 4 lists of
//! 255 entries). Waiver UNOPTFLAT: rust-hdl emits a module's combinational logic as one
//! `always @(*)` block, so Verilator reports a false loop from the lists' `remove` input to
//! their `full` output through that block; `full` depends only on registers. A real loop
//! would keep the Verilated model from converging ("didn't converge"), which the RTL tests
//! would hit.

mod common;
use common::{lint, write_top};
use tagmatch_hdl::two_level_queue::two_level_queue_verilog;

#[test]
fn two_level_queue_lints_clean() {
    lint(&write_top("tlq", &two_level_queue_verilog::<64, 8, 4>()), &["-Wno-UNOPTFLAT"]);
}
