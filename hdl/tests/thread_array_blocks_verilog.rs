//! Each of the thread array's blocks, emitted alone as module `top`, lints clean under
//! `verilator --lint-only -Wall` and passes yosys' `synth` and `check -assert`, at a lane
//! count that is not a power of two and at one lane. One waiver, UNUSEDSIGNAL: the blocks
//! take 16-bit lists and labels and read their low bits (the bank, the run's label bits),
//! as the array's own test waives it.

mod common;
use common::{lint, write_top, yosys};
use rust_hdl::prelude::*;
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::optimistic::command_width::CommandWidth;
use tagmatch_hdl::optimistic::fast_run::FastRun;
use tagmatch_hdl::optimistic::list_hash::ListHash;
use tagmatch_hdl::optimistic::umq_placement::UmqPlacement;
use tagmatch_hdl::optimistic::unexpected_cam::MESSAGE_FIELDS;
use tagmatch_hdl::optimistic::unlink::UnlinkUnits;

fn lints_and_synthesizes(name: &str, block: &mut impl Block) {
    block.connect_all();
    let file = write_top(name, &generate_verilog(block));
    lint(&file, &["-Wno-UNUSEDSIGNAL"]);
    yosys(&file, "synth -top top; check -assert");
}

/// Three lanes on four banks (a lane count below the banks), and one lane on one bank.
#[test]
fn unlink_units_lint_and_synthesize() {
    lints_and_synthesizes("unlink-3x4", &mut UnlinkUnits::new(3, 4));
    lints_and_synthesizes("unlink-1x1", &mut UnlinkUnits::new(1, 1));
}

/// Three lanes over 5 descriptors, and one lane over 2.
#[test]
fn fast_run_lints_and_synthesizes() {
    lints_and_synthesizes("fast-run-3x5", &mut FastRun::new(3, 5));
    lints_and_synthesizes("fast-run-1x2", &mut FastRun::new(1, 2));
}

/// Three lanes into a 5-entry UMQ, one lane into a 1-entry one.
#[test]
fn umq_placement_lints_and_synthesizes() {
    lints_and_synthesizes("umq-placement-3x5", &mut UmqPlacement::new(3, 5));
    lints_and_synthesizes("umq-placement-1x1", &mut UmqPlacement::new(1, 1));
}

/// Narrow fields on three lanes, and the widest (nothing can be wider) on one.
#[test]
fn command_width_lints_and_synthesizes() {
    let narrow = FieldWidths::new(3, 5, 7, 9).unwrap();
    lints_and_synthesizes("command-width-3-narrow", &mut CommandWidth::new(3, narrow));
    lints_and_synthesizes("command-width-1-widest", &mut CommandWidth::new(1, MESSAGE_FIELDS));
}

/// One bin per index, and 16.
#[test]
fn list_hash_lints_and_synthesizes() {
    lints_and_synthesizes("list-hash-1", &mut ListHash::new(1));
    lints_and_synthesizes("list-hash-16", &mut ListHash::new(16));
}
