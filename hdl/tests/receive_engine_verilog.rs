//! The receive engine's Verilog lints clean and passes yosys' elaboration and design
//! checks. Waiver as for the two-level queue: UNOPTFLAT (false loops through rust-hdl's
//! single combinational block per module).

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::receive_engine::receive_engine_verilog;

#[test]
fn receive_engine_lints_and_synthesizes() {
    let file = write_top("engine", &receive_engine_verilog::<8, 6, 4>());
    lint(&file, &["-Wno-UNOPTFLAT"]);
    // Elaborate, flatten and optimise the whole engine, keep memories as memories, and
    // require a clean design check (no undriven or multiply driven nets, no loops).
    // Technology mapping (block RAM inference) is tested per list, where it takes seconds;
    // for the whole engine `synth_xilinx` takes minutes.
    yosys(&file, "hierarchy -top top; proc; flatten; opt -fast; memory -nomap; check -assert");
}
