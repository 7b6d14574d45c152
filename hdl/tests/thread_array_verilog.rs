//! The thread array's Verilog lints clean, names the ports the binding drives, and passes
//! yosys' elaboration and design checks. One waiver, UNUSEDSIGNAL: the 16-bit hash keys
//! and list numbers address the head tables by their low bits. No UNOPTFLAT waiver: the
//! array's own combinational values are isolated for Verilator
//! (`trees::isolate_top_locals`), so driving a read port's pointer and reading its value
//! in one block is no loop.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::optimistic::thread_array::{thread_array_ports, thread_array_verilog, ThreadArrayShape};

/// Small head tables (banks in LUT RAM, selected before the read register) at 4 lanes,
/// and large ones (block RAM, selected behind it) at 2 lanes and at 1 (one bank); the
/// 1-lane array's UMQ is deep enough to register its first hit rather than its matches
/// (`FIRST_HIT_REGISTERED_ABOVE`).
#[test]
fn thread_array_lints_and_synthesizes() {
    for (lanes, head_bits, unexpected) in [(4, 4, 8), (2, 12, 8), (1, 10, 32)] {
        let verilog = thread_array_verilog(&ThreadArrayShape {
            lanes,
            descriptors: 16,
            head_bits,
            unexpected,
            fast_path: true,
        });
        for (name, _, _) in thread_array_ports(lanes) {
            assert!(verilog.contains(&format!(" {name};")), "no port {name}");
        }
        let file = write_top(&format!("thread-array-{lanes}-lanes-{head_bits}"), &verilog);
        lint(&file, &["-Wno-UNUSEDSIGNAL"]);
        yosys(&file, "hierarchy -top top; proc; flatten; opt -fast; memory -nomap; check -assert");
    }
}
