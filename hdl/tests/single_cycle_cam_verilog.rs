//! The CAM's emitted Verilog passes `verilator --lint-only -Wall` and a yosys synthesis.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::optimistic::single_cycle_cam::single_cycle_cam_verilog;

#[test]
fn small_cam_lints_and_synthesizes() {
    let file = write_top("single-cycle-cam8", &single_cycle_cam_verilog(8));
    lint(&file, &[]);
    yosys(&file, "synth -top top; check -assert");
}

#[test]
fn default_depth_cam_lints() {
    lint(&write_top("single-cycle-cam256", &single_cycle_cam_verilog(256)), &[]);
}
