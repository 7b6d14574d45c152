//! The receive engine's Verilog lints clean with no waiver (no circular logic, true or
//! false) and passes yosys' elaboration and design checks.

mod common;
use common::{lint, write_top, yosys};
use tagmatch_hdl::two_level::receive_engine::{receive_engine_verilog, EngineShape};

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

/// Field widths other than the default lint clean too: narrow fields (stored bits below
/// the 32-bit ports, a 1-bit handle) and 32-bit sources, with narrow labels.
#[test]
fn receive_engine_with_other_field_widths_lints_and_synthesizes() {
    use tagmatch_hdl::fields::FieldWidths;
    for (name, fields, labels) in [
        ("engine-narrow", FieldWidths::new(3, 5, 12, 1).unwrap(), 6),
        ("engine-wide", FieldWidths::new(32, 32, 32, 32).unwrap(), 32),
    ] {
        let shape = EngineShape::new(4, 2, 3).unwrap().with_label_bits(labels).unwrap().with_fields(fields);
        let file = write_top(name, &receive_engine_verilog(&shape));
        lint(&file, &[]);
        yosys(&file, "hierarchy -top top; proc; flatten; opt -fast; memory -nomap; check -assert");
    }
}
