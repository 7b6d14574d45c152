//! The thread array's UMQ CAM passes `verilator --lint-only -Wall` and a yosys synthesis.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::optimistic::unexpected_cam::{unexpected_cam_verilog, MESSAGE_FIELDS};

#[test]
fn small_queues_lint_and_synthesize() {
    for depth in [2, 13, 16] {
        let file =
            write_top(&format!("unexpected-cam{depth}"), &unexpected_cam_verilog(depth, MESSAGE_FIELDS));
        lint(&file, &[]);
        yosys(&file, "synth -top top; check -assert");
    }
}

#[test]
fn a_queue_of_narrow_fields_lints_and_synthesizes_narrower() {
    let narrow = FieldWidths::new(3, 5, 7, 9).unwrap();
    let verilog = unexpected_cam_verilog(8, narrow);
    assert!(verilog.contains("reg [23:0] e_comm;") && verilog.contains("reg [55:0] e_tag;"), "{verilog}");
    let file = write_top("unexpected-cam8-narrow", &verilog);
    lint(&file, &[]);
    yosys(&file, "synth -top top; check -assert");
}

#[test]
fn the_deepest_queue_lints() {
    lint(&write_top("unexpected-cam256", &unexpected_cam_verilog(256, MESSAGE_FIELDS)), &[]);
}
