//! The receive engine's Verilog lints clean with no waiver (no circular logic, true or
//! false) and passes yosys' elaboration and design checks.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::receive_engine::{receive_engine_verilog, EngineShape};

#[test]
fn receive_engine_lints_and_synthesizes() {
    let file = write_top("engine", &receive_engine_verilog(&EngineShape::new(8, 4, 6).unwrap()));
    lint(&file, &[]);
    // Elaborate, flatten and optimise the whole engine, keep memories as memories, and
    // require a clean design check (no undriven or multiply driven nets, no loops).
    // Technology mapping (block RAM inference) is tested per list, where it takes seconds;
    // for the whole engine `synth_xilinx` takes minutes.
    yosys(&file, "hierarchy -top top; proc; flatten; opt -fast; memory -nomap; check -assert");
}
