//! Each of the thread array's blocks, emitted alone as module `top`, lints clean under
//! `verilator --lint-only -Wall` and passes yosys' `synth` and `check -assert`, at a lane
//! count that is not a power of two and at one lane. One waiver, UNUSEDSIGNAL: the blocks
//! take 16-bit lists and labels and read their low bits (the bank, the run's label bits),
//! as the array's own test waives it.

mod common;
use common::{lint, write_top, yosys};
use rust_hdl::prelude::*;
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::optimistic::barrier::Barrier;
use tagmatch_hdl::optimistic::command_width::CommandWidth;
use tagmatch_hdl::optimistic::controller::Controller;
use tagmatch_hdl::optimistic::descriptor_copy::DescriptorCopy;
use tagmatch_hdl::optimistic::descriptor_table::DescriptorTable;
use tagmatch_hdl::optimistic::fast_run::FastRun;
use tagmatch_hdl::optimistic::lane::Lane;
use tagmatch_hdl::optimistic::list_ends::ListEnds;
use tagmatch_hdl::optimistic::list_hash::ListHash;
use tagmatch_hdl::optimistic::list_occupancy::ListOccupancy;
use tagmatch_hdl::optimistic::shape::ThreadArrayShape;
use tagmatch_hdl::optimistic::umq_placement::UmqPlacement;
use tagmatch_hdl::optimistic::unexpected_cam::MESSAGE_FIELDS;
use tagmatch_hdl::optimistic::unlink::UnlinkUnits;
use tagmatch_hdl::optimistic::walk_order::WalkOrder;

fn lints_and_synthesizes(name: &str, block: &mut impl Block) {
    block.connect_all();
    let file = write_top(name, &tagmatch_hdl::ports::flatten_bundle_names(&generate_verilog(block)));
    lint(&file, &["-Wno-UNUSEDSIGNAL"]);
    yosys(&file, "synth -top top; check -assert");
}

/// Three lanes on four banks (a lane count below the banks), one lane on one bank, and
/// the split arbitration (the first lane count that builds it, on two banks).
#[test]
fn unlink_units_lint_and_synthesize() {
    lints_and_synthesizes("unlink-3x4", &mut UnlinkUnits::new(3, 4));
    lints_and_synthesizes("unlink-1x1", &mut UnlinkUnits::new(1, 1));
    let split = tagmatch_hdl::optimistic::unlink::SPLIT_FROM_LANES;
    lints_and_synthesizes("unlink-split-2", &mut UnlinkUnits::new(split, 2));
}

/// Three lanes over 5 descriptors, and one lane over 2.
#[test]
fn fast_run_lints_and_synthesizes() {
    lints_and_synthesizes("fast-run-3x5", &mut FastRun::new(3, 5));
    lints_and_synthesizes("fast-run-1x2", &mut FastRun::new(1, 2));
}

/// The walk's list order: a few LUTs from flags and a class.
#[test]
fn walk_order_lints_and_synthesizes() {
    lints_and_synthesizes("walk-order", &mut WalkOrder::default());
}

/// Which classes hold a receive: 4 bins on 2 banks, and 1 bin on 1 bank.
#[test]
fn list_occupancy_lints_and_synthesizes() {
    lints_and_synthesizes("list-occupancy-4x2", &mut ListOccupancy::new(4, 2));
    lints_and_synthesizes("list-occupancy-1x1", &mut ListOccupancy::new(1, 1));
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

/// Lane 2 over 16 descriptors (LUT RAM copies) at narrow fields, and lane 0 over 100
/// (block RAM copies) at the widest.
#[test]
fn lane_lints_and_synthesizes() {
    let narrow = FieldWidths::new(3, 5, 7, 9).unwrap();
    lints_and_synthesizes("lane-2-16-narrow", &mut Lane::new(2, 16, 12, narrow));
    lints_and_synthesizes("lane-0-100", &mut Lane::new(0, 100, 192, MESSAGE_FIELDS));
}

/// A copy of 16 descriptors at narrow fields (LUT RAM), and of 100 at the widest (block
/// RAM for the wide fields, LUT RAM for the flags).
#[test]
fn descriptor_copy_lints_and_synthesizes() {
    let narrow = FieldWidths::new(3, 5, 7, 9).unwrap();
    lints_and_synthesizes("descriptor-copy-16-narrow", &mut DescriptorCopy::new(16, narrow));
    lints_and_synthesizes("descriptor-copy-100", &mut DescriptorCopy::new(100, MESSAGE_FIELDS));
}

/// Five lanes, and one (no prefixes, no previous lane).
#[test]
fn barrier_lints_and_synthesizes() {
    lints_and_synthesizes("barrier-5", &mut Barrier::new(5));
    lints_and_synthesizes("barrier-1", &mut Barrier::new(1));
}

/// Three lanes, 5 descriptors, 4 banks, with the fast path's registers; one lane, 2
/// descriptors, one bank, without.
#[test]
fn descriptor_table_lints_and_synthesizes() {
    lints_and_synthesizes("descriptor-table-3x5x4", &mut DescriptorTable::new(3, 5, 4, true));
    lints_and_synthesizes("descriptor-table-1x2x1", &mut DescriptorTable::new(1, 2, 1, false));
}

/// Three lanes over 5 descriptors at narrow fields, and one lane over 2 at the widest.
#[test]
fn controller_lints_and_synthesizes() {
    let narrow = FieldWidths::new(3, 5, 7, 9).unwrap();
    let shape = |lanes, descriptors, fields| ThreadArrayShape {
        lanes,
        descriptors,
        head_bits: 4,
        unexpected: 4,
        fast_path: true,
        fields,
    };
    lints_and_synthesizes("controller-3x5-narrow", &mut Controller::new(&shape(3, 5, narrow)));
    lints_and_synthesizes("controller-1x2", &mut Controller::new(&shape(1, 2, MESSAGE_FIELDS)));
}

/// Three lanes on four banks of 16 lists, and one lane on one bank of 4.
#[test]
fn list_ends_lint_and_synthesize() {
    lints_and_synthesizes("list-ends-3x4", &mut ListEnds::new(3, 4, 4, 4, 3));
    lints_and_synthesizes("list-ends-1x1", &mut ListEnds::new(1, 1, 1, 2, 2));
}
