//! The CAM slot comparator's two forms, plain and in ECP5 carry chains, are the same
//! function: yosys proves it (SAT on a miter) with its own simulation models of the ECP5
//! cells, at the default widths and at odd, even and one-bit ones. A chain's first carry in
//! is left unconnected, so the proof also shows that no result depends on it.

mod common;
use common::{write_top, yosys};
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::two_level::cam_match::{fields_match_module, fields_match_module_name, ECP5_CARRY_MACRO};

/// The yosys script proving `plain` and `carry` forms of the module in the file equal.
fn proof(name: &str) -> String {
    format!(
        "rename {name} plain; read_verilog -D{ECP5_CARRY_MACRO} FILE; rename {name} carry; \
         read_verilog -lib +/ecp5/cells_bb.v; read_verilog -overwrite +/ecp5/cells_sim.v; \
         setattr -mod -unset keep_hierarchy *; hierarchy -check; proc; flatten; miter -equiv -flatten -make_assert plain carry miter; \
         hierarchy -top miter; sat -verify -prove-asserts miter"
    )
}

fn prove(tag: &str, verilog: &str, name: &str) -> Result<String, String> {
    let file = write_top(&format!("cam_match_{tag}"), verilog);
    let script = proof(name).replace("FILE", &file.display().to_string());
    std::panic::catch_unwind(|| yosys(&file, &script))
        .map_err(|e| e.downcast_ref::<String>().cloned().unwrap_or_else(|| "yosys failed".to_string()))
}

#[test]
fn carry_chains_equal_the_plain_comparator_at_every_width_shape() {
    for (comm, src, tag) in [(16, 16, 32), (16, 32, 32), (1, 1, 1), (2, 1, 2), (3, 4, 5), (32, 32, 32)] {
        let w = FieldWidths { comm, src, tag, ..FieldWidths::DEFAULT };
        let log =
            prove(&format!("{comm}_{src}_{tag}"), &fields_match_module(w), &fields_match_module_name(w))
                .unwrap_or_else(|e| panic!("widths {comm}/{src}/{tag}: not equal:\n{e}"));
        assert!(log.contains("SUCCESS"), "widths {comm}/{src}/{tag}: no proof in the log:\n{log}");
    }
}

#[test]
fn the_proof_catches_a_wrong_cell() {
    let w = FieldWidths::DEFAULT;
    let good = fields_match_module(w);
    // The tag wildcard no longer passes its field when set on the stored side.
    let broken = good.replacen("16'h100E", "16'h1006", 1);
    assert_ne!(good, broken);
    let failed =
        prove("broken", &broken, &fields_match_module_name(w)).expect_err("a wrong cell went unnoticed");
    assert!(failed.contains("proof did fail"), "the proof, not the script, must fail:\n{failed}");
}
