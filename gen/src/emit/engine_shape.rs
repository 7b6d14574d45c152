//! What `gen` derives from an engine's shape ([`EngineShape`], whose ranges the leaf crate
//! `tagmatch-config` holds): the shape for command-line values, its Verilog, the name of
//! its Verilator build and the warning for labels too narrow for its lists. Apart from
//! `emit::engine`, so that board and shell builds, which take a shape, and the engine's
//! generator, which calls them, do not import each other.

use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::two_level::receive_engine::receive_engine_verilog;
pub use tagmatch_hdl::two_level::receive_engine::EngineShape;

/// The shape for these command-line values (32-bit labels), or a one-line reason naming
/// the range a value left ([`EngineShape::from_list_capacity`]). Each list is a block RAM
/// of `list_capacity / lists` words, of which word 0 is the null pointer, so the lists
/// together hold `lists` entries fewer than the capacity (32,764 of 32,768 with 4 lists).
pub fn configuration(cam_depth: u32, lists: u32, list_capacity: u32) -> Result<EngineShape, String> {
    EngineShape::from_list_capacity(cam_depth as usize, lists as usize, list_capacity as usize)
}

/// The shape's Verilog (top module `top`); an error for a shape only the model takes.
pub fn verilog(shape: &EngineShape) -> Result<String, String> {
    shape.check_hardware()?;
    Ok(receive_engine_verilog(shape))
}

/// A name for the shape's Verilator build, e.g. `engine-c256-a13-n4` (and `-l6` for 6-bit
/// labels, `-f16.32.32.32` for field widths other than the default).
pub fn build_name(shape: &EngineShape) -> String {
    let labels = if shape.label_bits == 32 { String::new() } else { format!("-l{}", shape.label_bits) };
    let f = shape.fields;
    let fields = if f == FieldWidths::default() {
        String::new()
    } else {
        format!("-f{}.{}.{}.{}", f.comm, f.src, f.tag, f.handle)
    };
    format!("engine-c{}-a{}-n{}{labels}{fields}", shape.cam_depth, shape.list_address_bits(), shape.lists)
}

/// A warning when the lists hold more entries than the labels can keep in order: live
/// list labels stay within half the label space, so past `2^(B-1)` entries list inserts
/// answer overflow.
pub fn label_warning(shape: &EngineShape) -> Option<String> {
    let keep = 1u64 << (shape.label_bits - 1);
    let lists = (shape.lists * shape.entries_per_list) as u64;
    (lists > keep).then(|| {
        format!(
            "tagmatch: warning: {}-bit labels keep at most {keep} entries in a queue's lists, which \
             hold {lists}: list inserts past that answer overflow",
            shape.label_bits
        )
    })
}
