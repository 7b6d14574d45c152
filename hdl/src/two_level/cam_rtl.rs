//! The level-1 CAM's Verilog ([`super::cam`] describes the design and holds the Rust model
//! of it): the body of the `Verilog::Custom` block, written out bank by bank and level by
//! level, and the key-copy module its banks are made of.

use super::cam_match::{fields_match_module_name, with_fields_match_modules};
use crate::fields::INDEX_BITS;
use crate::fields::{outside, unused_sink, FieldWidths};
use crate::generate::fill;
use crate::primitives::trees::{bits_to_hold, encode_one_hot, prefix_or};
use tagmatch_config::cam_banks::bank_size;

/// The CAM's Verilog body for depth `d` and field widths `widths`.
pub(super) fn cam_body(d: usize, widths: FieldWidths) -> String {
    let (cw, sw, tw, hw, iw) = (widths.comm, widths.src, widths.tag, widths.handle, INDEX_BITS);
    let s = bank_size(d);
    let b = d / s;
    let aw = bits_to_hold(d - 1).max(1);
    let bw = bits_to_hold(b - 1).max(1);
    let slot_bits = bits_to_hold(s - 1);
    // Compared fields, in a slot's flip-flops: comm | src | tag | src_any | tag_any.
    let kw = cw + sw + tw + 2;
    let (so, to, sao, tao) = (cw, cw + sw, cw + sw + tw, cw + sw + tw + 1);
    // The RAM word: src | tag | handle.
    let fw = sw + tw + hw;
    let pairs = b * (b - 1) / 2;
    // The insert ports' bits above each field are not stored (the engine refuses values
    // that have them), nor the handle's bits above its width on the key port.
    let dropped: Vec<String> = [
        ("in_comm", cw),
        ("in_src", sw),
        ("in_tag", tw),
        ("in_handle", hw),
        ("refill_comm", cw),
        ("refill_src", sw),
        ("refill_tag", tw),
        ("refill_handle", hw),
        ("key_comm", cw),
        ("key_src", sw),
        ("key_tag", tw),
        ("key_handle", hw),
    ]
    .iter()
    .flat_map(|&(port, w)| outside(port, 0, w))
    .collect();
    let sink = unused_sink("unused_port_bits", &dropped);
    // A slot number from a bank number and a slot in it (banks are a power of two long).
    let slot_of = |bank: &str, slot: &str| {
        if slot_bits == 0 {
            bank.to_string()
        } else {
            format!("{{{bank}[{}:0], {slot}}}", aw - slot_bits - 1)
        }
    };
    let waddr_open = slot_of("open_idx", "ptr_idx");
    let waddr_spare = slot_of("spare_q", &format!("{slot_bits}'d0"));
    // `out`, the lowest set bit of the `n`-bit `input` (width parameter `width`), by a
    // prefix OR named `prefix` whose top bit goes unused.
    let lowest = |out: &str, input: &str, prefix: &str, n: usize, width: &str| {
        if n == 1 {
            format!("wire [{width}-1:0] {out} = {input};\n")
        } else {
            format!(
                "/* verilator lint_off UNUSEDSIGNAL */\n{}/* verilator lint_on UNUSEDSIGNAL */\n\
                 wire [{width}-1:0] {out} = {input} & ~{{{prefix}[{width}-2:0], 1'b0}};\n",
                prefix_or(prefix, input, n)
            )
        }
    };
    let first_in_bank = lowest("first", "bank_mv", "upto", s, "S");
    // The chosen slot's number is {oldest bank, its lowest hit}: every bank encodes its
    // own lowest hit beside the bank choice, and a one-hot AND-OR picks the oldest bank's
    // (fewer levels than encoding a D-bit one-hot after the choice).
    let (first_idx, first_cols, chosen_enc) = if slot_bits == 0 {
        (String::new(), String::new(), encode_one_hot("chosen_idx", "oldest", b, aw))
    } else {
        let first_idx = format!(
            "{}        for (gk = 0; gk < {slot_bits}; gk = gk + 1) begin : column\n            \
             assign first_cols[gk*B + gb] = first_idx[gk];\n        end\n",
            encode_one_hot("first_idx", "first", s, slot_bits)
        );
        let first_cols = format!("genvar gk;\nwire [{}:0] first_cols;\n", slot_bits * b - 1);
        let mut chosen = encode_one_hot("chosen_bank", "oldest", b, bw);
        chosen += &format!("wire [{}:0] chosen_slot;\n", slot_bits - 1);
        for k in 0..slot_bits {
            chosen += &format!("assign chosen_slot[{k}] = |(oldest & first_cols[{} +: B]);\n", k * b);
        }
        chosen += &format!("wire [{}:0] chosen_idx = {{chosen_bank, chosen_slot}};\n", aw - 1);
        (first_idx, first_cols, chosen)
    };
    // The lowest empty bank after the edge, for each case of insert and removal.
    let lowest_empty: String = ["keep", "rm", "ins", "ins_rm"]
        .iter()
        .map(|case| {
            let (oh, idx) = (format!("spare_{case}"), format!("spare_{case}_idx"));
            lowest(&oh, &format!("empty_{case}"), &format!("empty_{case}_upto"), b, "B")
                + &encode_one_hot(&idx, &oh, b, bw)
        })
        .collect();
    let ptr_step = if s == 1 { "1'b1".to_string() } else { "{ptr_oh[S-2:0], 1'b0}".to_string() };
    let ptr_first = match s {
        1 => "1'b1".to_string(),
        2 => "2'b10".to_string(),
        _ => format!("{{{}'d0, 2'b10}}", s - 2),
    };
    fill(
        include_str!("cam_body.vt"),
        &[
            ("d", d.to_string()),
            ("s", s.to_string()),
            ("b", b.to_string()),
            ("g", s.min(KEY_COPY_SLOTS).to_string()),
            ("kw", kw.to_string()),
            ("fw", fw.to_string()),
            ("aw_msb", (aw - 1).to_string()),
            ("bw_msb", (bw - 1).to_string()),
            ("iw_msb", (iw - 1).to_string()),
            ("pairs_msb", (pairs.max(1) - 1).to_string()),
            ("hw_msb", (hw - 1).to_string()),
            ("tw", tw.to_string()),
            ("sw", sw.to_string()),
            ("cw", cw.to_string()),
            ("hw", hw.to_string()),
            ("sink", sink),
            ("so", so.to_string()),
            ("sao", sao.to_string()),
            ("to", to.to_string()),
            ("tao", tao.to_string()),
            ("open_enc", encode_one_hot("open_idx", "open_oh", b, bw)),
            (
                "ptr_enc",
                if slot_bits == 0 {
                    String::new()
                } else {
                    encode_one_hot("ptr_idx", "ptr_oh", s, slot_bits)
                },
            ),
            ("first_cols", first_cols),
            ("waddr_open", waddr_open),
            ("waddr_spare", waddr_spare),
            ("match_module", fields_match_module_name(widths)),
            ("first_in_bank", first_in_bank),
            ("first_idx", first_idx),
            ("chosen_enc", chosen_enc),
            ("aw", aw.to_string()),
            ("lowest_empty", lowest_empty),
            ("hit_src", crate::fields::in_word(&format!("rdata[0 +: {sw}]"), 0, sw)),
            ("hit_tag", crate::fields::in_word(&format!("rdata[{sw} +: {tw}]"), 0, tw)),
            ("hit_handle", crate::fields::in_word(&format!("rdata[{} +: {hw}]", sw + tw), 0, hw)),
            ("bw", bw.to_string()),
            ("iw", iw.to_string()),
            ("ptr_step", ptr_step),
            ("ptr_first", ptr_first),
            ("last", (d - 1).to_string()),
            ("ho", (sw + tw).to_string()),
        ],
    )
}

/// Slots that share a copy of the search key and of the write buffer (fewer where a bank
/// has fewer). Each copy drives its slots' comparators; with 16 slots a copy (one a bank at
/// 256 entries) the copies were the most congested nets of the default engine. Eight halve
/// each copy's fanout for 2 x 134 flip-flops more a bank; the default engine first routed
/// with them (plain comparators; with carry chains it still did not).
pub const KEY_COPY_SLOTS: usize = 8;

/// The module the CAM's key copies are made of ([`with_cam_modules`]).
pub const KEY_COPY_MODULE: &str = "tagmatch_key_copy";

/// `verilog` (a design holding the CAM) with the modules the CAM instantiates appended:
/// its slots' comparators ([`super::cam_match`]) and [`KEY_COPY_MODULE`], a register with
/// a load enable, kept as a module of its own through synthesis (`keep_hierarchy`), since
/// yosys merges registers that share their input and enable, which would undo the copies.
pub fn with_cam_modules(verilog: String) -> String {
    let mut verilog = with_fields_match_modules(verilog);
    if verilog.contains(&format!("module {KEY_COPY_MODULE}")) {
        return verilog;
    }
    verilog += &format!(
        "\n// A register that synthesis keeps apart from its twins (see the CAM's key copies).\n\
         (* keep_hierarchy *)\n\
         module {KEY_COPY_MODULE} #(parameter W = 1) (\n    input clock,\n    input load,\n    \
         input [W-1:0] d,\n    output reg [W-1:0] q\n);\n    always @(posedge clock) if (load) q <= d;\n\
         endmodule\n"
    );
    verilog
}
