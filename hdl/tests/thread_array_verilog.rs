//! The thread array's Verilog lints clean, names the ports the binding drives, and passes
//! yosys' elaboration and design checks. Waivers: UNOPTFLAT as for the receive engine
//! (false loops through rust-hdl's single combinational block per module), UNUSEDSIGNAL
//! because the 16-bit hash keys and list numbers address head tables by their low bits.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::thread_array::{thread_array_ports, thread_array_verilog};

#[test]
fn thread_array_lints_and_synthesizes() {
    let verilog = thread_array_verilog::<4, 16, 4, 8>(true);
    for (name, _, _) in thread_array_ports(4) {
        assert!(verilog.contains(&format!(" {name};")), "no port {name}");
    }
    let file = write_top("thread-array", &verilog);
    lint(&file, &["-Wno-UNOPTFLAT", "-Wno-UNUSEDSIGNAL"]);
    yosys(&file, "hierarchy -top top; proc; flatten; opt -fast; memory -nomap; check -assert");
}
