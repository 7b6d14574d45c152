//! The dual-port RAM's Verilog lints clean and is inferred as block RAM, not registers.

mod common;
use common::{assert_block_ram, lint, write_top, yosys};
use tagmatch_hdl::primitives::dual_port_ram::dual_port_ram_verilog;

#[test]
fn dual_port_ram_lints_and_maps_to_block_ram() {
    let file = write_top("dpr", &dual_port_ram_verilog::<40, 10>());
    lint(&file, &[]);
    let log = yosys(&file, "synth_xilinx -top top; stat");
    let stats = assert_block_ram(&log);
    assert!(stats.matches("FDRE").count() < 10, "the memory became flip-flops:\n{stats}");
}
