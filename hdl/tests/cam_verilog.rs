//! The pipelined CAM's emitted Verilog passes `verilator --lint-only -Wall` and a yosys
//! synthesis, at a small depth, a depth that is not a power of two, and the default 256.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::two_level::cam::cam_verilog;

#[test]
fn small_cam_lints_and_synthesizes() {
    let file = write_top("cam8", &cam_verilog(8));
    lint(&file, &[]);
    yosys(&file, "synth -top top; check -assert");
}

#[test]
fn a_depth_that_is_not_a_power_of_two_lints() {
    lint(&write_top("cam6", &cam_verilog(6)), &[]);
}

#[test]
fn default_depth_cam_lints() {
    lint(&write_top("cam256", &cam_verilog(256)), &[]);
}
