//! The one-sided offload unit's Verilog lints clean with no waiver and synthesizes for a
//! Xilinx part with yosys, in both the tests' narrow size and the default one.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::onesided::onesided_verilog;

#[test]
fn onesided_unit_lints_and_synthesizes() {
    let narrow = write_top("onesided-w4-c3", &onesided_verilog::<4, 3>());
    lint(&narrow, &[]);
    let default = write_top("onesided-w16-c16", &onesided_verilog::<16, 16>());
    lint(&default, &[]);
    let log = yosys(&default, "synth_xilinx -top top; stat");
    let stats = log.rsplit("Printing statistics").next().unwrap_or("");
    assert!(stats.contains("FDRE") || stats.contains("FDSE"), "no flip-flops:\n{stats}");
}
