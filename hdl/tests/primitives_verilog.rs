//! Every primitive's Verilog, emitted alone at small sizes, lints clean under
//! `verilator --lint-only -Wall` and passes yosys' `synth` and `check -assert`; the RAMs
//! also map onto the memory their docs ask for (`synth_xilinx`: LUT RAM for small tables,
//! block RAM for large ones).
//!
//! The blocks are emitted as they are, with rust-hdl's `generate_verilog`: a block whose
//! ports are vectors becomes module `top` with ports `entries$0`, `entries$1`.. (`$` is
//! legal in a Verilog identifier, and both tools take it).

mod common;
use common::{assert_block_ram, lint, write_top, yosys};
use rust_hdl::prelude::*;
use std::path::{Path, PathBuf};
use tagmatch_hdl::primitives::banked_table::BankedTable;
use tagmatch_hdl::primitives::field_ram::FieldRam;
use tagmatch_hdl::primitives::select::{
    AnySet, LowestSet, LowestSetPerGroup, OneHotPointers, OneHotSelect, PrefixCount, Select,
};
use tagmatch_hdl::primitives::table_ram::TableRam;

/// `block` as module `top`, written to `<test tmp>/<name>/top.v`.
fn emit(name: &str, block: &mut impl Block) -> PathBuf {
    block.connect_all();
    write_top(name, &generate_verilog(block))
}

/// Lints `block` with no waiver and synthesizes it generically.
fn lints_and_synthesizes(name: &str, block: &mut impl Block) -> PathBuf {
    let file = emit(name, block);
    lint(&file, &[]);
    yosys(&file, "synth -top top; check -assert");
    file
}

/// Lints `file` waiving UNUSEDSIGNAL for exactly the given bits and no others: each
/// `(signal, lo)` is `signal[15:lo]`, the upper bits of a 16-bit port the block documents
/// as unread. The table RAMs take 16-bit addresses and read their low bits (their module
/// docs), and a `BankedTable::storing` fewer bits ignores the upper bits of its write
/// data; where they sit in the thread array, its test waives UNUSEDSIGNAL outright. An
/// unused-bits sink in the blocks would change the thread array's Verilog.
fn lint_waiving_unused_bits(file: &Path, bits: &[(String, usize)]) {
    let mut config = "`verilator_config\n".to_string();
    for (signal, lo) in bits {
        config += &format!(
            "lint_off -rule UNUSEDSIGNAL -file \"*/top.v\" \
             -match \"Bits of signal are not used: '{signal}'[15:{lo}]\"\n"
        );
    }
    let waivers = file.with_file_name("unused_bits.vlt");
    std::fs::write(&waivers, config).unwrap();
    lint(file, &[waivers.to_str().unwrap()]);
}

/// The same bits, `[15:lo]`, of each of the vector ports `name$0` .. `name$(n-1)`.
fn ports(name: &str, n: usize, lo: usize) -> Vec<(String, usize)> {
    (0..n).map(|i| (format!("{name}${i}"), lo)).collect()
}

/// The last `stat` report of a yosys log, which must list Xilinx LUT RAM and no block RAM.
fn assert_lut_ram(log: &str) -> &str {
    let stats = log.rsplit("Printing statistics").next().unwrap_or("");
    assert!(!stats.contains("RAMB18E1") && !stats.contains("RAMB36E1"), "block RAM inferred:\n{stats}");
    assert!(
        ["RAM32M", "RAM64M", "RAM32X1D", "RAM64X1D", "RAM128X1D"].iter().any(|c| stats.contains(c)),
        "no LUT RAM inferred:\n{stats}"
    );
    stats
}

/// Select: a read port's mux tree, at 5 entries (pointers past the table read 0, so
/// subtrees drop) and 4 (a full tree), two ports each.
#[test]
fn select_lints_and_synthesizes() {
    lints_and_synthesizes("select-5x2", &mut Select::<8>::shared(5, 2));
    lints_and_synthesizes("select-4x2", &mut Select::<8>::shared(4, 2));
}

/// AnySet: one reduction OR, over 1 bit and 5.
#[test]
fn any_set_lints_and_synthesizes() {
    lints_and_synthesizes("any-set-1", &mut AnySet::new(1));
    lints_and_synthesizes("any-set-5", &mut AnySet::new(5));
}

/// LowestSet: the prefix OR, the one-hot first bit and its pointer, over 1 bit (no
/// prefix levels, no `reached`) and 5.
#[test]
fn lowest_set_lints_and_synthesizes() {
    lints_and_synthesizes("lowest-set-1", &mut LowestSet::new(1));
    lints_and_synthesizes("lowest-set-5", &mut LowestSet::new(5));
}

/// LowestSetPerGroup: a prefix OR per group, one group of 1 bit and three of 5.
#[test]
fn lowest_set_per_group_lints_and_synthesizes() {
    lints_and_synthesizes("lowest-set-per-group-1x1", &mut LowestSetPerGroup::new(1, 1));
    lints_and_synthesizes("lowest-set-per-group-3x5", &mut LowestSetPerGroup::new(3, 5));
}

/// OneHotSelect: an AND-OR per port, 3 entries on 2 ports.
#[test]
fn one_hot_select_lints_and_synthesizes() {
    lints_and_synthesizes("one-hot-select-3x2", &mut OneHotSelect::<8>::new(3, 2));
}

/// OneHotPointers: each port encodes its own group, 2 ports of 3 bits and 1 of 1.
#[test]
fn one_hot_pointers_lint_and_synthesize() {
    lints_and_synthesizes("one-hot-pointers-2x3", &mut OneHotPointers::new(2, 3));
    lints_and_synthesizes("one-hot-pointers-1x1", &mut OneHotPointers::new(1, 1));
}

/// PrefixCount: a sum per prefix, over 1 bit (1-bit sums), 5 and 16 (four levels of blocks).
#[test]
fn prefix_count_lints_and_synthesizes() {
    lints_and_synthesizes("prefix-count-1", &mut PrefixCount::new(1));
    lints_and_synthesizes("prefix-count-5", &mut PrefixCount::new(5));
    lints_and_synthesizes("prefix-count-16", &mut PrefixCount::new(16));
}

/// TableRam: 64 words (LUT RAM, as its docs ask up to `LUT_RAM_WORDS`) and 512 (block
/// RAM); each reads the low 6 or 9 bits of its 16-bit addresses.
#[test]
fn table_ram_lints_and_maps_to_lut_or_block_ram() {
    for (bits, lut_ram) in [(6, true), (9, false)] {
        let file = emit(&format!("table-ram-{}", 1 << bits), &mut TableRam::<16>::new(bits));
        let unused = [("read_address".to_string(), bits), ("write_address".to_string(), bits)];
        lint_waiving_unused_bits(&file, &unused);
        yosys(&file, "synth -top top; check -assert");
        let log = yosys(&file, "synth_xilinx -top top; stat");
        if lut_ram {
            assert_lut_ram(&log);
        } else {
            assert_block_ram(&log);
        }
    }
}

/// BankedTable: 2 read ports on 4 banks of 16 words storing 6 of 16 bits (LUT RAM, the
/// bank selected before the read register, zero upper bits), and 1 port on 2 banks of
/// 512 words (block RAM, the select behind the registers).
#[test]
fn banked_table_lints_and_maps_to_lut_or_block_ram() {
    let file = emit("banked-table-lut", &mut BankedTable::<16>::new(2, 2, 4).storing(6));
    let unused = [ports("read_address", 2, 6), ports("write_address", 4, 4), ports("write_data", 4, 6)];
    lint_waiving_unused_bits(&file, &unused.concat());
    yosys(&file, "synth -top top; check -assert");
    assert_lut_ram(&yosys(&file, "synth_xilinx -top top; stat"));

    let file = emit("banked-table-block", &mut BankedTable::<16>::new(1, 1, 9));
    lint_waiving_unused_bits(&file, &[ports("read_address", 1, 10), ports("write_address", 2, 9)].concat());
    yosys(&file, "synth -top top; check -assert");
    assert_block_ram(&yosys(&file, "synth_xilinx -top top; stat"));
}

/// FieldRam: 1024 words keeping bits 4..12 of 32 (the rest never stored, and sunk in the
/// Verilog), in block RAM as its docs say, with its two clocks.
#[test]
fn field_ram_lints_and_maps_to_block_ram() {
    let file = lints_and_synthesizes("field-ram", &mut FieldRam::<10>::new(4, 8));
    assert_block_ram(&yosys(&file, "synth_xilinx -top top; stat"));
}
