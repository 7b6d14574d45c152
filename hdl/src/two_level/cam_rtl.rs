//! The level-1 CAM's Verilog ([`super::cam`] describes the design and holds the Rust model
//! of it): the body of the `Verilog::Custom` block, written out bank by bank and level by
//! level, and the key-copy module its banks are made of.

use super::cam::bank_size;
use super::cam_match::{fields_match_module_name, with_fields_match_modules};
use crate::fields::{outside, unused_sink, FieldWidths};
use crate::optimistic::single_cycle_cam::INDEX_BITS;
use crate::primitives::trees::{bits_to_hold, encode_one_hot, prefix_or};

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
    format!(
        r#"
localparam D = {d};
localparam S = {s};
localparam B = {b};
localparam KW = {kw};
localparam FW = {fw};

// Slot i is bank i / S, slot i % S of it. A slot's compared fields are flip-flops written
// once through the shared bus `in_key` (enable `we[i]`); its source, tag and handle are
// the RAM word `mem[i]`. Age: banks append in slot order; `older` orders the banks.
reg [D-1:0] valid;
reg [FW-1:0] mem [0:D-1];
// The last search: its match vector and each bank's OR (registered at the search), then
// the chosen slot (registered a cycle later).
reg [D-1:0] mv;
reg [B-1:0] bank_hit;
reg sel_go;
reg answered_q;
reg hit_q;
reg frees_q;
reg [{aw_msb}:0] sel_q;
reg [D-1:0] sel_oh_q;
// The open bank (one-hot), its next slot (one-hot), and whether it has one (`room`).
// All-zero is the empty CAM, as after reset: no room, so the next insert opens bank
// `spare_q` = 0.
reg [B-1:0] open_oh;
reg [S-1:0] ptr_oh;
reg room;
// The lowest empty bank (where the next bank opens) and `full`, registered from the
// slots after each edge.
reg [{bw_msb}:0] spare_q;
reg full_q;
reg [{iw_msb}:0] used;
// Bank-age matrix, upper triangle: bit (b, c), b < c, is set when bank b opened before c.
reg [{pairs_msb}:0] older;
// The handle scan: read slot `scan_cnt`, then compare slot `scan_at`'s handle.
reg scanning;
reg [{aw_msb}:0] scan_cnt;
reg scan_live;
reg [{aw_msb}:0] scan_at;
reg scan_live2;
reg [{aw_msb}:0] scan_at2;
reg [{hw_msb}:0] scan_rd;
reg scan_end;
// The loaded key (`key_load`): the compared fields in the slots' layout, with the mode;
// this copy compares the new and the buffered entry and decides the search, each bank
// compares its slots with its own copy (`bank[b].key_copy`), and the scan reads the handle.
reg [KW-1:0] k_key;
reg [1:0] k_mode;
reg [{hw_msb}:0] k_handle;
// The handle a scan looks for, kept from its search (a key loaded meanwhile is the next
// command's).
reg [{hw_msb}:0] scan_handle;
wire [KW+1:0] key_next = {{search_mode, key_tag_any, key_src_any, key_tag[{tw}-1:0], key_src[{sw}-1:0], key_comm[{cw}-1:0]}};
always @(posedge clock) if (key_load) begin
    k_key <= key_next[KW-1:0];
    k_mode <= key_next[KW+1:KW];
    k_handle <= key_handle[{hw}-1:0];
end

{sink}
// Whether compared fields `k` match the search key `q` (both in the slots' layout) in mode
// `mode` (0: envelope, wildcards on either side; 2: any entry; 1, by handle, is the scan's).
function automatic fields_match(input [KW-1:0] k, input [1:0] mode, input [KW-1:0] q);
    begin
        if (mode == 2'd2) fields_match = 1'b1;
        else if (mode == 2'd0) fields_match = (k[0 +: {cw}] == q[0 +: {cw}])
            & ((k[{so} +: {sw}] == q[{so} +: {sw}]) | k[{sao}] | q[{sao}])
            & ((k[{to} +: {tw}] == q[{to} +: {tw}]) | k[{tao}] | q[{tao}]);
        else fields_match = 1'b0;
    end
endfunction

// Encoded open bank, its next slot and the lowest empty bank: the write address.
{open_enc}{ptr_enc}
wire ins = insert & ~full_q;
wire rm = remove & answered_q & hit_q;
genvar gb, gj, gc;
{first_cols}wire [{aw_msb}:0] waddr = room ? {waddr_open} : {waddr_spare};
wire [B-1:0] spare_oh;
generate
    for (gb = 0; gb < B; gb = gb + 1) begin : spare_decode
        localparam [{bw_msb}:0] BANK = gb;
        assign spare_oh[gb] = spare_q == BANK;
    end
endgenerate
wire [KW-1:0] in_key = {{in_tag_any, in_src_any, in_tag[{tw}-1:0], in_src[{sw}-1:0], in_comm[{cw}-1:0]}};
// The write buffer: an insert's key is registered at its edge in its bank's copy (`wbuf`),
// and reaches its slot's flip-flops at the next edge (`pend_we`: the slots written late).
// So the insert bus, which the data mover drives from the lists' RAM, ends at B registers,
// not at every slot. Each copy loads only for its own bank, so no two have the same enable
// and synthesis cannot merge them back into one register. For the cycle in between, the
// slot answers with `pend_hit`: the new entry compared, at the insert's edge, with the key
// the next cycle's search uses (the one loaded at this edge, else the loaded one), so that
// comparator ends at a register and only one flip-flop fans out to the slots.
reg [D-1:0] pend_we;
reg pend_hit;
always @(posedge clock) begin
    pend_we <= we;
    if (ins) pend_hit <= key_load ? fields_match(in_key, key_next[KW+1:KW], key_next[KW-1:0])
                                  : fields_match(in_key, k_mode, k_key);
end

// An entry inserted in a search's edge is younger than every stored one, so it is the
// answer only when no stored entry matches: its match is registered beside the match
// vector (one comparator on the insert bus, ending at a register), and the choose stage
// falls back to it (`new_hit`, at slot `new_idx`). So the insert bus and its comparator
// stay out of the match vector's logic, which is the CAM's deepest. `new_idx` loads the
// write address every edge and is read only under `new_hit`: gating its load by the
// comparator would put the comparator (and the engine state behind `search`) on a path
// into every bit's reset.
reg new_hit;
reg [{aw_msb}:0] new_idx;
always @(posedge clock) begin
    new_hit <= search & ins & fields_match(in_key, k_mode, k_key);
    new_idx <= waddr;
end

wire [D-1:0] we;
wire [D-1:0] slot_hit;
wire [D-1:0] chosen_oh;
wire [B-1:0] bank_alone;
wire [B-1:0] oldest;
wire [B-1:0] new_bank_others;
generate
    for (gb = 0; gb < B; gb = gb + 1) begin : bank
        reg [KW-1:0] wbuf;
        always @(posedge clock) if (|we[gb*S +: S]) wbuf <= in_key;
        // The bank's own copy of the key, loaded with the central one: the key bus ends at
        // B copies, each feeding S comparators. A module of its own, so that synthesis
        // cannot merge the copies (they have the same input and enable) back into one.
        wire [KW+1:0] bank_key;
        tagmatch_key_copy #(.W(KW + 2)) key_copy (.clock(clock), .load(key_load), .d(key_next), .q(bank_key));
        // The search mode, decoded once a bank for its slots' comparators.
        wire bank_envelope = bank_key[KW+1:KW] == 2'd0;
        wire bank_any = bank_key[KW+1:KW] == 2'd2;
        for (gj = 0; gj < S; gj = gj + 1) begin : slot
            reg [KW-1:0] key;
            assign we[gb*S+gj] = ins & (room ? (open_oh[gb] & ptr_oh[gj]) : (spare_oh[gb] & (gj == 0)));
            always @(posedge clock) if (pend_we[gb*S+gj]) key <= wbuf;
            {match_module} cmp (.k(key), .q(bank_key[KW-1:0]), .envelope(bank_envelope), .any(bank_any), .m(slot_hit[gb*S+gj]));
        end
        // The bank's lowest hit slot (its oldest), and whether removing it empties the bank.
        wire [S-1:0] bank_mv = mv[gb*S +: S];
        {first_in_bank}{first_idx}
        assign bank_alone[gb] = ~|(valid[gb*S +: S] & ~first);
        // The oldest bank with a hit: every other bank with a hit is younger.
        wire [B-1:0] beats;
        for (gc = 0; gc < B; gc = gc + 1) begin : versus
            if (gc == gb) begin : self_pair
                assign beats[gc] = 1'b1;
            end else if (gb < gc) begin : later
                assign beats[gc] = ~bank_hit[gc] | older[gb*B - (gb*(gb+1))/2 + gc - gb - 1];
            end else begin : earlier
                assign beats[gc] = ~bank_hit[gc] | ~older[gc*B - (gc*(gc+1))/2 + gb - gc - 1];
            end
        end
        assign oldest[gb] = bank_hit[gb] & (&beats);
        assign chosen_oh[gb*S +: S] = first & {{S{{oldest[gb]}}}};
        // Whether the bank of the entry inserted in the last edge holds another entry.
        assign new_bank_others[gb] = (|pend_we[gb*S +: S]) & (|(valid[gb*S +: S] & ~pend_we[gb*S +: S]));
    end
endgenerate
{chosen_enc}// The answer: the oldest stored hit, else the entry inserted in the search's edge.
wire any_old = |bank_hit;
wire [{aw_msb}:0] pick_idx = any_old ? chosen_idx : (new_idx & {{{aw}{{new_hit}}}});
wire [D-1:0] pick_oh = any_old ? chosen_oh : (pend_we & {{D{{new_hit}}}});
wire pick_alone = any_old ? |(oldest & bank_alone) : (new_hit & ~|new_bank_others);
// The slots after this edge: the answer removed, the insert added. The match vector
// covers the stored slots only (a slot written in this edge was empty before it; its
// entry is `new_hit`'s).
wire [D-1:0] kept = valid & ~(rm ? sel_oh_q : {{D{{1'b0}}}});
wire [D-1:0] valid_next = kept | we;
wire [D-1:0] mv_next = kept & ((slot_hit & ~pend_we) | (pend_we & {{D{{pend_hit}}}}));
// The banks empty after this edge, the lowest of them and whether there is one, are
// worked out for each of the four cases (insert or not, removal or not) from registers
// alone; `ins` and `rm`, which arrive late (`full_q` and the engine's control are behind
// them), then pick one (a mux level) instead of entering the bank ORs, the lowest-empty
// search and its encoder. An insert fills the open bank if it has room, else the spare.
wire [B-1:0] ins_bank = room ? open_oh : spare_oh;
wire [B-1:0] empty_keep;
wire [B-1:0] empty_rm;
wire [B-1:0] bank_hit_next;
wire [B-1:0] bank_hit_scanned;
generate
    for (gb = 0; gb < B; gb = gb + 1) begin : bank_or
        assign empty_keep[gb] = ~|valid[gb*S +: S];
        assign empty_rm[gb] = ~|(valid[gb*S +: S] & ~sel_oh_q[gb*S +: S]);
        assign bank_hit_next[gb] = |mv_next[gb*S +: S];
        assign bank_hit_scanned[gb] = |(mv[gb*S +: S] & valid[gb*S +: S]);
    end
endgenerate
wire [B-1:0] empty_ins = empty_keep & ~ins_bank;
wire [B-1:0] empty_ins_rm = empty_rm & ~ins_bank;
{lowest_empty}wire [{bw_msb}:0] spare_next_idx = ins ? (rm ? spare_ins_rm_idx : spare_ins_idx) : (rm ? spare_rm_idx : spare_keep_idx);
wire any_empty_next = ins ? (rm ? |empty_ins_rm : |empty_ins) : (rm ? |empty_rm : |empty_keep);
// An open bank left empty is closed, so the next insert restarts the lowest empty bank
// at its first slot (an emptied CAM fills as after reset). A bank an insert fills is not
// empty, so after an insert only the slot pointer decides.
wire open_left_empty = rm ? |(open_oh & empty_rm) : |(open_oh & empty_keep);
wire [B-1:0] open_next = (ins & ~room) ? spare_oh : open_oh;
wire room_next = ins ? (room ? ~ptr_oh[S-1] : (S != 1)) : (room & ~open_left_empty);

// A bank opening becomes the youngest.
wire [{pairs_msb}:0] older_next;
wire opening = ins & ~room;
generate
    for (gb = 0; gb < B; gb = gb + 1) begin : age_row
        for (gc = gb + 1; gc < B; gc = gc + 1) begin : age_pair
            localparam integer P = gb*B - (gb*(gb+1))/2 + gc - gb - 1;
            assign older_next[P] = (opening & spare_oh[gc]) | (~(opening & spare_oh[gb]) & older[P]);
        end
    end
endgenerate

// One registered RAM read port (block RAM): the slot being chosen, the scan's slot while
// scanning, else the answer's again.
wire [{aw_msb}:0] raddr = sel_go ? pick_idx : (scanning ? scan_cnt : sel_q);
reg [FW-1:0] rdata;

always @(*) begin
    answered = answered_q;
    hit = hit_q;
    frees = frees_q;
    hit_src = {hit_src};
    hit_tag = {hit_tag};
    hit_handle = {hit_handle};
    count = used;
    full = full_q;
end

always @(posedge clock) begin
    if (ins) mem[waddr] <= {{in_handle[{hw}-1:0], in_tag[{tw}-1:0], in_src[{sw}-1:0]}};
    rdata <= mem[raddr];
end

always @(posedge clock) begin
    if (reset) begin
        valid <= {{D{{1'b0}}}};
        mv <= {{D{{1'b0}}}};
        bank_hit <= {{B{{1'b0}}}};
        sel_go <= 1'b0;
        answered_q <= 1'b0;
        hit_q <= 1'b0;
        frees_q <= 1'b0;
        sel_q <= {aw}'d0;
        sel_oh_q <= {{D{{1'b0}}}};
        open_oh <= {{B{{1'b0}}}};
        ptr_oh <= {{S{{1'b0}}}};
        room <= 1'b0;
        spare_q <= {bw}'d0;
        full_q <= 1'b0;
        used <= {iw}'d0;
        scanning <= 1'b0;
        scan_cnt <= {aw}'d0;
        scan_live <= 1'b0;
        scan_at <= {aw}'d0;
        scan_live2 <= 1'b0;
        scan_at2 <= {aw}'d0;
        scan_end <= 1'b0;
    end else begin
        valid <= valid_next;
        spare_q <= spare_next_idx;
        full_q <= ~room_next & ~any_empty_next;
        room <= room_next;
        older <= older_next;
        used <= used + {{{iw_pad}'d0, ins}} - {{{iw_pad}'d0, rm}};
        open_oh <= open_next;
        if (ins) ptr_oh <= room ? {ptr_step} : {ptr_first};
        // Choose (the cycle after the match vector): the oldest bank's lowest hit.
        sel_go <= 1'b0;
        scan_end <= 1'b0;
        if (sel_go) begin
            sel_q <= pick_idx;
            sel_oh_q <= pick_oh;
            hit_q <= any_old | new_hit;
            frees_q <= ~full_q | pick_alone;
            answered_q <= 1'b1;
        end
        if (rm) begin
            answered_q <= 1'b0;
            hit_q <= 1'b0;
        end
        if (search) begin
            answered_q <= 1'b0;
            hit_q <= 1'b0;
            if (k_mode == 2'd1) begin
                mv <= {{D{{1'b0}}}};
                scanning <= 1'b1;
                scan_cnt <= {aw}'d0;
                scan_handle <= k_handle;
            end else begin
                mv <= mv_next;
                bank_hit <= bank_hit_next;
                sel_go <= 1'b1;
            end
        end
        // The handle scan: one slot a cycle into the match vector, then choose as above.
        scan_live <= scanning;
        scan_at <= scan_cnt;
        if (scanning) begin
            scan_cnt <= scan_cnt + {aw}'d1;
            if (scan_cnt == {aw}'d{last}) scanning <= 1'b0;
        end
        scan_live2 <= scan_live;
        scan_at2 <= scan_at;
        scan_rd <= rdata[{ho} +: {hw}];
        if (scan_live2) begin
            mv[scan_at2] <= scan_rd == scan_handle;
            if (scan_at2 == {aw}'d{last}) scan_end <= 1'b1;
        end
        if (scan_end) begin
            mv <= mv & valid;
            bank_hit <= bank_hit_scanned;
            sel_go <= 1'b1;
        end
    end
end
"#,
        aw_msb = aw - 1,
        iw_msb = iw - 1,
        iw_pad = iw - 1,
        hw_msb = hw - 1,
        pairs_msb = pairs.max(1) - 1,
        last = d - 1,
        ho = sw + tw,
        open_enc = encode_one_hot("open_idx", "open_oh", b, bw),
        ptr_enc =
            if slot_bits == 0 { String::new() } else { encode_one_hot("ptr_idx", "ptr_oh", s, slot_bits) },
        bw_msb = bw - 1,
        match_module = fields_match_module_name(widths),
        hit_src = crate::fields::in_word(&format!("rdata[0 +: {sw}]"), 0, sw),
        hit_tag = crate::fields::in_word(&format!("rdata[{sw} +: {tw}]"), 0, tw),
        hit_handle = crate::fields::in_word(&format!("rdata[{} +: {hw}]", sw + tw), 0, hw),
    )
}

/// The module the CAM's per-bank key copies are made of ([`with_cam_modules`]).
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
