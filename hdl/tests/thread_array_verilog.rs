//! The thread array's Verilog lints clean, names the ports the binding drives, and passes
//! yosys' elaboration and design checks. One waiver, UNUSEDSIGNAL: the 16-bit hash keys
//! and list numbers address the head tables by their low bits. No UNOPTFLAT waiver: the
//! array's own combinational values are isolated for Verilator
//! (`trees::isolate_top_locals`), so driving a read port's pointer and reading its value
//! in one block is no loop.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::optimistic::thread_array::{thread_array_ports, thread_array_verilog, ThreadArrayShape};
use tagmatch_hdl::optimistic::unexpected_cam::MESSAGE_FIELDS;

/// Small head tables (banks in LUT RAM, selected before the read register) at 4 lanes,
/// and large ones (block RAM, selected behind it) at 2 lanes and at 1 (one bank); the
/// 4-lane array once more with narrow fields (narrower RAM copies and UMQ slots).
#[test]
fn thread_array_lints_and_synthesizes() {
    let narrow = FieldWidths::new(3, 5, 7, 9).unwrap();
    for (lanes, head_bits, unexpected, fields) in [
        (4, 4, 8, MESSAGE_FIELDS),
        (2, 12, 8, MESSAGE_FIELDS),
        (1, 10, 32, MESSAGE_FIELDS),
        (4, 4, 8, narrow),
    ] {
        let verilog = thread_array_verilog(&ThreadArrayShape {
            lanes,
            descriptors: 16,
            head_bits,
            unexpected,
            fast_path: true,
            fields,
        });
        if fields == narrow {
            assert!(verilog.contains("reg [6:0] mem[0:15]"), "the tags' copies store 7 bits");
        }
        for (name, _, _) in thread_array_ports(lanes) {
            assert!(verilog.contains(&format!(" {name};")), "no port {name}");
        }
        let file = write_top(&format!("thread-array-{lanes}-lanes-{head_bits}-c{}", fields.comm), &verilog);
        lint(&file, &["-Wno-UNUSEDSIGNAL"]);
        yosys(&file, "hierarchy -top top; proc; flatten; opt -fast; memory -nomap; check -assert");
    }
}
