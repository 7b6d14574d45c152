//! The list's Verilog lints clean and synthesizes with its storage in block RAM.

mod common;
use common::{assert_block_ram, lint, write_top, yosys};
use tagmatch_hdl::two_level::bram_list::bram_list_verilog;

#[test]
fn list_lints_and_keeps_its_nodes_in_block_ram() {
    let file = write_top("bramlist", &bram_list_verilog::<10>());
    lint(&file, &[]);
    assert_block_ram(&yosys(&file, "synth_xilinx -top top; stat"));
}
