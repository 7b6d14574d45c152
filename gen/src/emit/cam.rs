//! `tagmatch gen --engine cam --cam-depth D`: the level-1 CAM on its own (top module
//! `top`), so the open timing flow can measure the CAM apart from the engine around it
//! (an engine holds two, and takes far longer to place and route). Any depth from 2 to
//! 4,096 generates: the depth is a generation parameter of the block.

use crate::emit::engine::{content_hash, ports_json, write_manifest, write_verilog};
use serde_json::json;
use std::path::Path;
use tagmatch_hdl::two_level::cam::{cam_verilog, CAM_DEPTHS, CAM_PORTS};

/// The Verilog file in every output folder.
pub const CAM_FILE: &str = "tagmatch_cam.v";

/// The CAM's Verilog, or a one-line reason naming the depths there are.
pub fn verilog(depth: u32) -> Result<String, String> {
    if !CAM_DEPTHS.contains(&(depth as usize)) {
        return Err(format!("--cam-depth {depth}: the CAM holds 2 to 4,096 entries"));
    }
    Ok(cam_verilog(depth as usize))
}

/// Writes the CAM's Verilog and manifest into `out`; returns the manifest.
pub fn generate(depth: u32, out: &Path) -> Result<serde_json::Value, String> {
    let text = verilog(depth)?;
    write_verilog(out, CAM_FILE, &text, &parameters(depth), &ports_json(CAM_PORTS))?;
    let manifest = json!({
        "engine": "cam",
        "top": "top",
        "files": [CAM_FILE],
        "hash": content_hash(&text),
        "clock": "clock",
        "reset": "reset",
        "parameters": parameters(depth),
        "ports": ports_json(CAM_PORTS),
    });
    write_manifest(out, &manifest)?;
    Ok(manifest)
}

/// The manifest's (and the timing record's) parameters.
pub fn parameters(depth: u32) -> serde_json::Value {
    json!({ "cam_depth": depth })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_depth_in_range_generates_and_others_are_refused() {
        let dir = std::env::temp_dir().join(format!("tagmatch-cam-gen-{}", std::process::id()));
        for depth in [2, 12, 8] {
            let m = generate(depth, &dir).unwrap();
            assert_eq!(m["parameters"]["cam_depth"], depth);
            let text = std::fs::read_to_string(dir.join(CAM_FILE)).unwrap();
            assert!(text.contains("module top") && text.contains(&format!("localparam D = {depth};")));
        }
        for depth in [1, 5000] {
            let e = generate(depth, &dir).unwrap_err();
            assert!(e.contains(&format!("--cam-depth {depth}")) && e.contains("2 to 4,096"), "{e}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
