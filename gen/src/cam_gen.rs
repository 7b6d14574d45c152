//! `tagmatch gen --engine cam --cam-depth D`: the level-1 CAM on its own (top module
//! `top`), so the open timing flow can measure a CAM whose engine does not fit the ECP5
//! (the 256-entry engine needs 171 % of the LFE5U-85F's LUTs). The CAM is sized by a const
//! generic, so each depth is compiled into this binary.

use crate::engine_gen::{content_hash, ports_json, write_manifest, write_verilog};
use serde_json::json;
use std::path::Path;
use tagmatch_hdl::cam::{cam_verilog, CAM_PORTS};

/// The Verilog file in every output folder.
pub const CAM_FILE: &str = "tagmatch_cam.v";

macro_rules! depths {
    ($($d:literal),* $(,)?) => {
        /// CAM depths compiled in.
        pub const DEPTHS: &[u32] = &[$($d),*];

        fn verilog_of(depth: u32) -> Option<String> {
            match depth {
                $($d => Some(cam_verilog::<$d>()),)*
                _ => None,
            }
        }
    };
}

depths!(8, 16, 32, 64, 128, 256);

/// The CAM's Verilog, or a one-line reason naming the depths there are.
pub fn verilog(depth: u32) -> Result<String, String> {
    verilog_of(depth).ok_or_else(|| {
        let list: Vec<String> = DEPTHS.iter().map(|d| d.to_string()).collect();
        format!("no CAM built with --cam-depth {depth}; supported: {}", list.join(", "))
    })
}

/// Writes the CAM's Verilog and manifest into `out`; returns the manifest.
pub fn generate(depth: u32, out: &Path) -> Result<serde_json::Value, String> {
    let text = verilog(depth)?;
    write_verilog(out, CAM_FILE, &text)?;
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
    fn every_depth_generates_and_others_are_refused() {
        let dir = std::env::temp_dir().join(format!("tagmatch-cam-gen-{}", std::process::id()));
        let m = generate(8, &dir).unwrap();
        assert_eq!(m["parameters"]["cam_depth"], 8);
        assert!(std::fs::read_to_string(dir.join(CAM_FILE)).unwrap().contains("module top"));
        let e = generate(12, &dir).unwrap_err();
        assert!(e.contains("--cam-depth 12") && e.contains("256"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
