//! Parallel lists' Verilog lints clean for 1, 4 and 64 lists and synthesizes (4 lists)
//! with every list's storage in block RAM.

mod common;
use common::{assert_block_ram, lint, write_top, yosys};
use tagmatch_hdl::two_level::parallel_lists::parallel_lists_verilog;

#[test]
fn one_four_and_sixty_four_lists_lint_clean() {
    lint(&write_top("plists1", &parallel_lists_verilog::<4>(1)), &[]);
    lint(&write_top("plists4", &parallel_lists_verilog::<4>(4)), &[]);
    lint(&write_top("plists64", &parallel_lists_verilog::<2>(64)), &[]);
}

#[test]
fn four_lists_synthesize_into_block_ram() {
    let file = write_top("plists4-ram", &parallel_lists_verilog::<10>(4));
    assert_block_ram(&yosys(&file, "synth_xilinx -top top; stat"));
}
