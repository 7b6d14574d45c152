//! The thread array's UMQ CAM passes `verilator --lint-only -Wall` and a yosys synthesis.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::optimistic::unexpected_cam::unexpected_cam_verilog;

#[test]
fn small_queues_lint_and_synthesize() {
    for depth in [2, 13, 16] {
        let file = write_top(&format!("unexpected-cam{depth}"), &unexpected_cam_verilog(depth));
        lint(&file, &[]);
        yosys(&file, "synth -top top; check -assert");
    }
}

#[test]
fn the_deepest_queue_lints() {
    lint(&write_top("unexpected-cam256", &unexpected_cam_verilog(256)), &[]);
}
