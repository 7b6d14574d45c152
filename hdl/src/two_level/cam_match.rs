//! A CAM slot's comparator: whether a slot's stored fields match the search key. One
//! Verilog module per field widths, instantiated once per slot, in two forms chosen by a
//! macro at synthesis:
//!
//! - **Plain** (the default, and what every simulator runs): equality of communicator,
//!   source and tag, a wildcard on either side passing its field.
//! - **ECP5 carry chains** (`` `define TAGMATCH_ECP5_CARRY ``; `gen --timing --cam-comparators carry`):
//!   the same function in `CCU2C` carry cells, two bit pairs per LUT4 and the AND in the
//!   chain's dedicated ripple. ABC maps the plain form to about 56 LUT4s a slot for the
//!   default 66 compared bits (a LUT4 compares two bit pairs, then a tree of ANDs); the
//!   chain takes 19 `CCU2C` (38 LUT4s) and no AND tree. A test proves both forms equal
//!   with yosys' own models of the cells, for several widths.
//!
//! # The chains
//! A `CCU2C` half computes `cout = p ? cin : g`, where `p` is its LUT4 of `A..D` and `g`
//! its LUT2 of `A, B` (the LUT4's low four INIT bits), or `cout = p & cin` with
//! `INJECT1 = "YES"`. The elements:
//! - *start*: `g = (a == b)`, `p = 0` (`C`, `D` tied high, so `g` is free of `p`): a chain
//!   begins without a carry in, so nextpnr adds no feed-in cell;
//! - *pair* / *single*: `p` = two (one) bit pairs equal, `INJECT1`: an AND;
//! - *wildcard*: `cout = wild ? 1 : cin` — it overrides everything before it, so a field
//!   with a wildcard must start its part of the chain;
//! - *final*: `cout = any | (envelope & part_one & cin)`: the search mode, and the
//!   result of the chain's first part, joined in its second part;
//! - *read-out*: `LUT4 = 0`, no inject, so its sum output is the carry in: the result
//!   leaves through a sum output, so nextpnr adds no feed-out cell. A start element is
//!   also one (its `LUT4` is 0), which is how one chain holds two parts.
//!
//! One chain a slot: part one compares the tag (its wildcard last) and the communicator;
//! part two starts with the source's start element, which hands part one's result out of
//! its sum output, then the source's wildcard and the final element, which takes that
//! result back in. A wildcard element overrides everything before it in its part, hence
//! two parts. With the default widths: 38 halves, 19 cells. Two separate chains (the first
//! version) cost one cell more, and the placer put them apart: on the 256-entry CAM the
//! hop from one to the other was 1.9 ns of a 10.9 ns critical path.
//!
//! The carry form is synthesized as a module of its own (`keep_hierarchy`, flattened after
//! synthesis as the flow does for every kept module): flattened into the CAM first, yosys
//! 0.70's ABC9 dropped the chains and with them every slot's stored fields, leaving a CAM
//! that never matched. A test proves the module equal to the plain form after synthesis
//! too.

use crate::fields::FieldWidths;

/// The macro that selects the carry-chain form.
pub const ECP5_CARRY_MACRO: &str = "TAGMATCH_ECP5_CARRY";

/// Prefix of the comparator modules' names; the widths follow.
const MODULE_PREFIX: &str = "tagmatch_fields_match_";

/// The comparator module's name for `widths` (comm, source, tag).
pub fn fields_match_module_name(widths: FieldWidths) -> String {
    format!("{MODULE_PREFIX}{}_{}_{}", widths.comm, widths.src, widths.tag)
}

/// One half of a `CCU2C`: its LUT4's INIT, whether its LUT2 is ignored (`INJECT1`), and
/// its `A..D` inputs (Verilog expressions).
struct Half {
    init: u16,
    inject: bool,
    inputs: [String; 4],
    /// The net its sum output drives, if any.
    sum: Option<String>,
}

const HIGH: &str = "1'b1";

impl Half {
    fn new(init: u16, inject: bool, inputs: [&str; 4]) -> Self {
        Half { init, inject, inputs: inputs.map(str::to_string), sum: None }
    }
    /// `cout = (a == b)`, whatever the carry in.
    fn start(a: &str, b: &str) -> Self {
        Half::new(0x0009, false, [a, b, HIGH, HIGH])
    }
    /// `cout = cin & (a0 == b0) & (a1 == b1)`.
    fn pair(a0: &str, b0: &str, a1: &str, b1: &str) -> Self {
        Half::new(0x9009, true, [a0, b0, a1, b1])
    }
    /// `cout = cin & (a == b)`.
    fn single(a: &str, b: &str) -> Self {
        Half::new(0x9999, true, [a, b, HIGH, HIGH])
    }
    /// `cout = (w0 | w1) ? 1 : cin`.
    fn wildcard(w0: &str, w1: &str) -> Self {
        Half::new(0x100E, false, [w0, w1, HIGH, HIGH])
    }
    /// `cout = any | (envelope & t & cin)`.
    fn last(t: &str, any: &str, envelope: &str) -> Self {
        Half::new(0x200C, false, [t, any, envelope, HIGH])
    }
    /// Passes the carry in to its sum output, `net`.
    fn read_out(net: &str) -> Self {
        Half { sum: Some(net.to_string()), ..Half::new(0, false, [HIGH; 4]) }
    }
}

/// The start, pair and single elements comparing bits `lo..lo + w` of `k` and `q`; the
/// first bit by a start element when `first`.
fn compare(out: &mut Vec<Half>, lo: usize, w: usize, first: bool) {
    let bit = |v: &str, i: usize| format!("{v}[{i}]");
    let mut i = lo;
    if first {
        out.push(Half::start(&bit("k", i), &bit("q", i)));
        i += 1;
    }
    while i + 1 < lo + w {
        out.push(Half::pair(&bit("k", i), &bit("q", i), &bit("k", i + 1), &bit("q", i + 1)));
        i += 2;
    }
    if i < lo + w {
        out.push(Half::single(&bit("k", i), &bit("q", i)));
    }
}

/// A chain's cells, two halves a cell, named `name_<cell>`.
fn chain(name: &str, halves: Vec<Half>) -> String {
    let cells = halves.len().div_ceil(2);
    // `carry[c]` runs from cell `c - 1` into cell `c`: the first cell has no carry in
    // and the last no carry out.
    let mut v = if cells > 1 { format!("wire [{}:1] {name}_carry;\n", cells - 1) } else { String::new() };
    let mut it = halves.into_iter();
    for c in 0..cells {
        let h0 = it.next().expect("a cell has a first half");
        // An odd chain leaves its last cell's second half unused.
        let h1 = it.next().unwrap_or_else(|| Half::new(0, true, [HIGH; 4]));
        let last = c + 1 == cells;
        let cin = if c == 0 { String::new() } else { format!("{name}_carry[{c}]") };
        let cout = if last { String::new() } else { format!("{name}_carry[{}]", c + 1) };
        let yes_no = |b: bool| if b { "YES" } else { "NO" };
        v += &format!(
            "CCU2C #(.INIT0(16'h{:04X}), .INIT1(16'h{:04X}), .INJECT1_0(\"{}\"), .INJECT1_1(\"{}\")) {name}_{c} (\n    \
             .CIN({cin}), .A0({}), .B0({}), .C0({}), .D0({}), .A1({}), .B1({}), .C1({}), .D1({}),\n    \
             .S0({}), .S1({}), .COUT({cout}));\n",
            h0.init,
            h1.init,
            yes_no(h0.inject),
            yes_no(h1.inject),
            h0.inputs[0],
            h0.inputs[1],
            h0.inputs[2],
            h0.inputs[3],
            h1.inputs[0],
            h1.inputs[1],
            h1.inputs[2],
            h1.inputs[3],
            h0.sum.unwrap_or_default(),
            h1.sum.unwrap_or_default(),
        );
    }
    v
}

/// The comparator module for `widths`: stored fields `k` and key `q`, both laid out
/// comm | src | tag | src_any | tag_any from bit 0; `envelope` and `any` are the search
/// mode (by envelope; any entry). `m = any | (envelope & fields match)`.
pub fn fields_match_module(widths: FieldWidths) -> String {
    let (cw, sw, tw) = (widths.comm, widths.src, widths.tag);
    let (so, to) = (cw, cw + sw);
    let (sa, ta) = (cw + sw + tw, cw + sw + tw + 1);
    // Part one: tag (its wildcard last), then communicator.
    let mut halves = Vec::new();
    compare(&mut halves, to, tw, true);
    halves.push(Half::wildcard(&format!("k[{ta}]"), &format!("q[{ta}]")));
    compare(&mut halves, 0, cw, false);
    // Part two starts in the same chain: its start element ignores the carry in and puts
    // it on its sum output, part one's result.
    let part_two = halves.len();
    compare(&mut halves, so, sw, true);
    halves[part_two].sum = Some("tag_comm_ok".to_string());
    halves.push(Half::wildcard(&format!("k[{sa}]"), &format!("q[{sa}]")));
    halves.push(Half::last("tag_comm_ok", "any", "envelope"));
    halves.push(Half::read_out("m"));
    format!(
        "\n// A CAM slot's comparator (comm {cw}, source {sw}, tag {tw} bits): plain, or in ECP5 carry\n\
         // chains when {ECP5_CARRY_MACRO} is defined (same function).\n\
         `ifdef {ECP5_CARRY_MACRO}\n(* keep_hierarchy *)\n`endif\n\
         module {name} (\n    input [{kw_msb}:0] k,\n    input [{kw_msb}:0] q,\n    input envelope,\n    \
         input any,\n    output m\n);\n\
         `ifdef {ECP5_CARRY_MACRO}\n\
         wire tag_comm_ok;\n{chain}\
         `else\n\
         assign m = any | (envelope & (k[0 +: {cw}] == q[0 +: {cw}])\n    \
         & ((k[{so} +: {sw}] == q[{so} +: {sw}]) | k[{sa}] | q[{sa}])\n    \
         & ((k[{to} +: {tw}] == q[{to} +: {tw}]) | k[{ta}] | q[{ta}]));\n\
         `endif\n\
         endmodule\n",
        name = fields_match_module_name(widths),
        kw_msb = ta,
        chain = chain("match", halves),
    )
}

/// `verilog` with a definition appended for every comparator module it instantiates
/// and does not define.
pub fn with_fields_match_modules(mut verilog: String) -> String {
    let mut needed = Vec::new();
    for (at, _) in verilog.match_indices(MODULE_PREFIX) {
        let rest = &verilog[at + MODULE_PREFIX.len()..];
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '_')).unwrap_or(rest.len());
        let widths: Vec<usize> = rest[..end].split('_').filter_map(|w| w.parse().ok()).collect();
        if let [comm, src, tag] = widths[..] {
            let w = FieldWidths { comm, src, tag, ..FieldWidths::default() };
            if !needed.contains(&w) {
                needed.push(w);
            }
        }
    }
    for w in needed {
        if !verilog.contains(&format!("module {}", fields_match_module_name(w))) {
            verilog += &fields_match_module(w);
        }
    }
    verilog
}
