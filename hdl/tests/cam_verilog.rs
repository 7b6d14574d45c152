//! The CAM's emitted Verilog passes `verilator --lint-only -Wall` and a yosys synthesis.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::cam::cam_verilog;

#[test]
fn small_cam_lints_and_synthesizes() {
    let file = write_top("cam8", &cam_verilog::<8>());
    lint(&file, &[]);
    yosys(&file, "synth -top top; check -assert");
}

#[test]
fn default_depth_cam_lints() {
    lint(&write_top("cam256", &cam_verilog::<256>()), &[]);
}
