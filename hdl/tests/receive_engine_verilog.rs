//! The receive engine's Verilog lints clean and passes yosys' elaboration and design checks. Waivers as for the
//! two-level queue: DECLFILENAME (one file for all submodules) and UNOPTFLAT (false loops
//! through rust-hdl's single combinational block per module).

use std::process::Command;
use tagmatch_hdl::receive_engine::receive_engine_verilog;

#[test]
fn receive_engine_lints_and_synthesizes() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("engine");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("top.v");
    std::fs::write(&file, receive_engine_verilog::<8, 6, 4>()).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-UNOPTFLAT"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(lint.status.success(), "lint:\n{}", String::from_utf8_lossy(&lint.stderr));
    let synth = Command::new("yosys")
        .arg("-q")
        .arg("-p")
        // Elaborate, flatten and optimise the whole engine, keep memories as memories, and
        // require a clean design check (no undriven or multiply driven nets, no loops).
        // Technology mapping (block RAM inference) is tested per list, where it takes
        // seconds; for the whole engine `synth_xilinx` takes minutes.
        .arg(format!(
            "read_verilog {}; hierarchy -top top; proc; flatten; opt -fast; memory -nomap; check -assert",
            file.display()
        ))
        .output()
        .unwrap();
    assert!(
        synth.status.success(),
        "yosys:\n{}{}",
        String::from_utf8_lossy(&synth.stdout),
        String::from_utf8_lossy(&synth.stderr)
    );
}
