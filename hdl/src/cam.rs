//! Level 1 of the two-level queue: a pipelined content-addressable memory that always
//! answers with the OLDEST matching entry, with no path that grows linearly with its depth.
//!
//! Age is kept by position, as a collapsing FIFO: slot 0 is the oldest, a new entry goes
//! into the first free slot, and removing slot `k` moves every younger slot down by one
//! in the same edge. The occupied slots are always a prefix, kept as a valid bit per slot
//! (`valid`), so nothing compares a slot number with a count.
//!
//! Timing (cycle `S` is the one `search` is high in):
//! - `S`: every valid slot is compared with the key; the result is registered as the
//!   match vector `mv` (one bit per slot).
//! - `S + 1`: `hit` is the OR of `mv`, and the oldest hit is chosen from it by a
//!   parallel-prefix OR (Kogge–Stone, `log2 D` levels: `upto[i]` = any hit at or below
//!   `i`), which makes a one-hot `first`; `hit_*` are the fields of that slot, selected by
//!   an AND-OR tree. Both trees are `log D` deep, so the depth costs levels, not a chain.
//!   `upto` is registered at the end of `S + 1`.
//! - `S + 2` or later, `remove` deletes that entry: every slot whose `upto` bit is set
//!   takes its younger neighbour — one 2:1 mux in front of each slot, its select straight
//!   from a register.
//!
//! A removal clears the match vector, so a stale answer cannot be removed twice; an insert
//! appends behind every stored entry and leaves the answer of the last search as it is.
//! Insert and remove may share an edge (the insert lands after the shift); an insert into
//! a full CAM is ignored (the queue checks `full` first). `reset` empties the CAM.
//!
//! A search may share its edge with a removal and an insert: the match vector it registers
//! describes the slots as they are *after* that edge, so the engine can start the next
//! operation's search in the cycle the previous one's result is applied (the removed entry
//! is not found, the inserted one is). The current slots' matches take the removal's
//! shift — one 2:1 mux behind the compare, its select from a register — and one more
//! comparator checks the inserted entry for the slot it lands in.
//!
//! The body is a `Verilog::Custom` block with packed vectors and generate loops (rust-hdl's
//! generator would unroll a priority search into a chain of `D` nested ifs); `update`
//! beside it is the same behaviour for rust-hdl's simulator.

use rust_hdl::prelude::*;

use crate::fields::{in_word, outside, unused_sink, FieldWidths, FIELD_BITS};
pub use crate::single_cycle_cam::INDEX_BITS;

/// Search modes, shared with the level-2 lists.
pub use crate::bram_list::{MODE_ANY, MODE_ENVELOPE, MODE_HANDLE};

/// One stored entry, for the Rust simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Slot {
    comm: u64,
    src: u64,
    tag: u64,
    src_any: bool,
    tag_any: bool,
    handle: u64,
}

#[derive(LogicBlock)]
pub struct Cam {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties the CAM and clears the last answer.
    pub reset: Signal<In, Bit>,
    /// Compare every slot with the key at this edge.
    pub search: Signal<In, Bit>,
    /// 0: by envelope (wildcards on either side), 1: by handle, 2: any entry.
    pub search_mode: Signal<In, Bits<2>>,
    pub key_comm: Signal<In, Bits<FIELD_BITS>>,
    pub key_src: Signal<In, Bits<FIELD_BITS>>,
    pub key_tag: Signal<In, Bits<FIELD_BITS>>,
    pub key_src_any: Signal<In, Bit>,
    pub key_tag_any: Signal<In, Bit>,
    pub key_handle: Signal<In, Bits<FIELD_BITS>>,
    /// The last search's answer, valid from the cycle after `search`.
    pub hit: Signal<Out, Bit>,
    pub hit_handle: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_src: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_tag: Signal<Out, Bits<FIELD_BITS>>,
    /// Deletes the last search's answer (two cycles after `search` at the earliest).
    pub remove: Signal<In, Bit>,
    /// Appends an entry behind every stored one.
    pub insert: Signal<In, Bit>,
    pub in_comm: Signal<In, Bits<FIELD_BITS>>,
    pub in_src: Signal<In, Bits<FIELD_BITS>>,
    pub in_tag: Signal<In, Bits<FIELD_BITS>>,
    pub in_src_any: Signal<In, Bit>,
    pub in_tag_any: Signal<In, Bit>,
    pub in_handle: Signal<In, Bits<FIELD_BITS>>,
    /// Stored entries (an up/down counter).
    pub count: Signal<Out, Bits<INDEX_BITS>>,
    /// Every slot holds an entry (the last slot's valid bit).
    pub full: Signal<Out, Bit>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _depth: usize,
    _widths: FieldWidths,
    _slots: Vec<Slot>,
    _mv: Vec<bool>,
    _upto: Vec<bool>,
}

/// CAM depths the block builds: the priority tree needs two slots, and the entry count
/// (`count`) is `INDEX_BITS` wide.
pub const CAM_DEPTHS: std::ops::RangeInclusive<usize> = 2..=4096;

impl Cam {
    /// A CAM of `depth` slots (in [`CAM_DEPTHS`]) storing fields of `widths`; both are
    /// generation parameters, so one compiled block serves every size. The field ports
    /// are 32 bits; only the low `widths` bits are stored and compared (the engine refuses
    /// wider values before they get here).
    pub fn new(depth: usize, widths: FieldWidths) -> Self {
        assert!(CAM_DEPTHS.contains(&depth), "CAM depth {depth} out of range (2 to 4,096)");
        let d = depth;
        Cam {
            clock: Default::default(),
            reset: Default::default(),
            search: Default::default(),
            search_mode: Default::default(),
            key_comm: Default::default(),
            key_src: Default::default(),
            key_tag: Default::default(),
            key_src_any: Default::default(),
            key_tag_any: Default::default(),
            key_handle: Default::default(),
            hit: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            remove: Default::default(),
            insert: Default::default(),
            in_comm: Default::default(),
            in_src: Default::default(),
            in_tag: Default::default(),
            in_src_any: Default::default(),
            in_tag_any: Default::default(),
            in_handle: Default::default(),
            count: Default::default(),
            full: Default::default(),
            _depth: d,
            _widths: widths,
            _slots: Vec::with_capacity(d),
            _mv: vec![false; d],
            _upto: vec![false; d],
        }
    }

    fn slot_matches(&self, s: &Slot) -> bool {
        let w = self._widths;
        let key = |sig: &Signal<In, Bits<FIELD_BITS>>, bits: usize| low_bits(sig.val().index() as u64, bits);
        match self.search_mode.val().index() as u64 {
            MODE_ANY => true,
            MODE_HANDLE => s.handle == key(&self.key_handle, w.handle),
            MODE_ENVELOPE => {
                s.comm == key(&self.key_comm, w.comm)
                    && (s.src == key(&self.key_src, w.src) || s.src_any || self.key_src_any.val())
                    && (s.tag == key(&self.key_tag, w.tag) || s.tag_any || self.key_tag_any.val())
            }
            _ => false,
        }
    }
}

/// The low `bits` bits of `v`: what a field of that width stores.
fn low_bits(v: u64, bits: usize) -> u64 {
    v & ((1u64 << bits) - 1)
}

impl Logic for Cam {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.reset.val() {
                self._slots.clear();
                self._mv.iter_mut().for_each(|b| *b = false);
                self._upto.iter_mut().for_each(|b| *b = false);
            } else {
                // Registered at this edge from the values before it.
                let mut seen = false;
                let upto: Vec<bool> = self
                    ._mv
                    .iter()
                    .map(|&m| {
                        seen |= m;
                        seen
                    })
                    .collect();
                if self.remove.val() {
                    if let Some(k) = self._upto.iter().position(|&u| u) {
                        if k < self._slots.len() {
                            self._slots.remove(k);
                        }
                    }
                    self._mv.iter_mut().for_each(|b| *b = false);
                }
                if self.insert.val() && self._slots.len() < self._depth {
                    let w = self._widths;
                    self._slots.push(Slot {
                        comm: low_bits(self.in_comm.val().index() as u64, w.comm),
                        src: low_bits(self.in_src.val().index() as u64, w.src),
                        tag: low_bits(self.in_tag.val().index() as u64, w.tag),
                        src_any: self.in_src_any.val(),
                        tag_any: self.in_tag_any.val(),
                        handle: low_bits(self.in_handle.val().index() as u64, w.handle),
                    });
                }
                if self.search.val() {
                    // After this edge's removal and insert, as the RTL's shifted match vector.
                    self._mv = (0..self._depth)
                        .map(|i| self._slots.get(i).is_some_and(|s| self.slot_matches(s)))
                        .collect();
                }
                self._upto = upto;
            }
        }
        let first = self._mv.iter().position(|&m| m);
        let s = first.and_then(|i| self._slots.get(i)).copied().unwrap_or_default();
        self.hit.next = first.is_some();
        self.hit_handle.next = s.handle.to_bits();
        self.hit_src.next = s.src.to_bits();
        self.hit_tag.next = s.tag.to_bits();
        self.count.next = (self._slots.len() as u64).to_bits();
        self.full.next = self._slots.len() == self._depth;
    }

    fn connect(&mut self) {
        self.hit.connect();
        self.hit_handle.connect();
        self.hit_src.connect();
        self.hit_tag.connect();
        self.count.connect();
        self.full.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(cam_body(self._depth, self._widths))
    }
}

/// The CAM's Verilog body for depth `d` and field widths `widths`.
fn cam_body(d: usize, widths: FieldWidths) -> String {
    let (cw, sw, tw, hw, iw) = (widths.comm, widths.src, widths.tag, widths.handle, INDEX_BITS);
    let ew = widths.entry_bits();
    // The insert ports' bits above each field are not stored (the engine refuses values
    // that have them); the key ports' go into the compare functions whole.
    let dropped: Vec<String> = [("in_comm", cw), ("in_src", sw), ("in_tag", tw), ("in_handle", hw)]
        .iter()
        .flat_map(|&(port, w)| outside(port, 0, w))
        .collect();
    let sink = unused_sink("unused_insert_bits", &dropped);
    // Field offsets in an entry word: comm | src | tag | src_any | tag_any | handle.
    let (so, to) = (cw, cw + sw);
    let (sao, tao, ho) = (to + tw, to + tw + 1, to + tw + 2);
    let hit_handle = in_word(&format!("hit_entry[{ho} +: {hw}]"), 0, hw);
    let hit_src = in_word(&format!("hit_entry[{so} +: {sw}]"), 0, sw);
    let hit_tag = in_word(&format!("hit_entry[{to} +: {tw}]"), 0, tw);
    let prefix = crate::trees::prefix_or("upto", "mv", d);
    format!(
        r#"
localparam D = {d};
localparam EW = {ew};

// Bit b of every slot's entry word is one vector, col[b*D +: D] (bit i: slot i), so the
// compare, the select and the shift are whole-vector operations. The valid slots are a
// prefix.
reg [D-1:0] valid;
reg [EW*D-1:0] col;
// The last search's match vector, and its prefix OR registered a cycle later.
reg [D-1:0] mv;
reg [D-1:0] upto_q;
reg [{iw_msb}:0] used;

// Slots whose field of `w` bits at entry bit `lo` equals `k`.
function automatic [D-1:0] field_eq(input [EW*D-1:0] c, input integer lo, input integer w, input [63:0] k);
    integer j;
    begin
        field_eq = {{D{{1'b1}}}};
        for (j = 0; j < w; j = j + 1) field_eq = field_eq & ~(c[(lo+j)*D +: D] ^ {{D{{k[j]}}}});
    end
endfunction

// Slots that match a search (0: envelope with wildcards either side, 1: handle, 2: any).
function automatic [D-1:0] matching(input [EW*D-1:0] c, input [1:0] mode, input [63:0] k_comm,
        input [63:0] k_src, input [63:0] k_tag, input s_any, input t_any, input [63:0] k_handle);
    begin
        if (mode == 2'd2) matching = {{D{{1'b1}}}};
        else if (mode == 2'd1) matching = field_eq(c, {ho}, {hw}, k_handle);
        else if (mode == 2'd0) matching = field_eq(c, 0, {cw}, k_comm)
            & (field_eq(c, {so}, {sw}, k_src) | c[{sao}*D +: D] | {{D{{s_any}}}})
            & (field_eq(c, {to}, {tw}, k_tag) | c[{tao}*D +: D] | {{D{{t_any}}}});
        else matching = {{D{{1'b0}}}};
    end
endfunction

// Whether one entry word matches a search (the same rules as `matching`).
/* verilator lint_off UNUSEDSIGNAL */
function automatic entry_matches(input [EW-1:0] w, input [1:0] mode, input [31:0] k_comm,
        input [31:0] k_src, input [31:0] k_tag, input s_any, input t_any, input [31:0] k_handle);
    begin
        if (mode == 2'd2) entry_matches = 1'b1;
        else if (mode == 2'd1) entry_matches = w[{ho} +: {hw}] == k_handle[{hw}-1:0];
        else if (mode == 2'd0) entry_matches = (w[0 +: {cw}] == k_comm[{cw}-1:0])
            & ((w[{so} +: {sw}] == k_src[{sw}-1:0]) | w[{sao}] | s_any)
            & ((w[{to} +: {tw}] == k_tag[{tw}-1:0]) | w[{tao}] | t_any);
        else entry_matches = 1'b0;
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

{prefix}wire [D-1:0] first = mv & ~{{upto[D-2:0], 1'b0}};

// The first hit's entry: an AND-OR tree over the one-hot `first` (yosys and the FPGA
// tools build reduction ORs as balanced trees). Its communicator and flags go unused.
/* verilator lint_off UNUSEDSIGNAL */
wire [EW-1:0] hit_entry;
/* verilator lint_on UNUSEDSIGNAL */
genvar b;
generate
    for (b = 0; b < EW; b = b + 1) begin : select
        assign hit_entry[b] = |(first & col[b*D +: D]);
    end
endgenerate

always @(*) begin
    hit = upto[D-1];
    hit_handle = {hit_handle};
    hit_src = {hit_src};
    hit_tag = {hit_tag};
    count = used;
    full = valid[D-1];
end

// Removal: slot i takes slot i+1 where upto_q[i] is set. Insert: the first free slot
// after that shift takes the new entry.
wire [D-1:0] shift = remove ? upto_q : {{D{{1'b0}}}};
wire [D-1:0] valid_shifted = (valid & ~shift) | ({{1'b0, valid[D-1:1]}} & shift);
wire [D-1:0] insert_here = insert ? (~valid_shifted & {{valid_shifted[D-2:0], 1'b1}}) : {{D{{1'b0}}}};
wire [EW-1:0] in_entry = {{in_handle[{hw}-1:0], in_tag_any, in_src_any, in_tag[{tw}-1:0], in_src[{sw}-1:0], in_comm[{cw}-1:0]}};
{sink}
wire removed = remove & (|(valid & upto_q));
wire inserted = |insert_here;

// The search's match vector as of after this edge: the current slots' matches shifted
// like the slots, and the inserted entry's own compare in the slot it lands in. Computed
// in the clocked block's `search` branch (a function, not wires), so a simulator compares
// the slots only in the cycles that search; synthesis builds the same logic either way.
function automatic [D-1:0] next_match(input [D-1:0] m_now, input [D-1:0] sh, input [D-1:0] here,
        input in_hit);
    reg [D-1:0] m_shifted;
    begin
        m_shifted = (m_now & ~sh) | ({{1'b0, m_now[D-1:1]}} & sh);
        next_match = (m_shifted & ~here) | (here & {{D{{in_hit}}}});
    end
endfunction

integer e;
always @(posedge clock) begin
    if (reset) begin
        valid <= {{D{{1'b0}}}};
        mv <= {{D{{1'b0}}}};
        upto_q <= {{D{{1'b0}}}};
        used <= {iw}'d0;
    end else begin
        upto_q <= upto;
        if (remove | insert) begin
            valid <= valid_shifted | insert_here;
            for (e = 0; e < EW; e = e + 1)
                col[e*D +: D] <= (((col[e*D +: D] & ~shift) | ({{1'b0, col[e*D+1 +: D-1]}} & shift)) & ~insert_here)
                    | (insert_here & {{D{{in_entry[e]}}}});
            used <= used + {{{iw_pad}'d0, inserted}} - {{{iw_pad}'d0, removed}};
        end
        if (search) begin
            mv <= next_match(valid & matching(col, search_mode, {{{k_pad}'d0, key_comm}}, {{{k_pad}'d0, key_src}},
                    {{{k_pad}'d0, key_tag}}, key_src_any, key_tag_any, {{{k_pad}'d0, key_handle}}),
                shift, insert_here, entry_matches(in_entry, search_mode, key_comm, key_src, key_tag, key_src_any,
                    key_tag_any, key_handle));
        end else if (remove) begin
            mv <= {{D{{1'b0}}}};
        end
    end
end
"#,
        iw_msb = iw - 1,
        iw_pad = iw - 1,
        k_pad = 64 - FIELD_BITS,
    )
}

/// The CAM's top-level ports as (name, width, is input), in declaration order.
pub const CAM_PORTS: [(&str, u32, bool); 24] = [
    ("clock", 1, true),
    ("reset", 1, true),
    ("search", 1, true),
    ("search_mode", 2, true),
    ("key_comm", FIELD_BITS as u32, true),
    ("key_src", FIELD_BITS as u32, true),
    ("key_tag", FIELD_BITS as u32, true),
    ("key_src_any", 1, true),
    ("key_tag_any", 1, true),
    ("key_handle", FIELD_BITS as u32, true),
    ("hit", 1, false),
    ("hit_handle", FIELD_BITS as u32, false),
    ("hit_src", FIELD_BITS as u32, false),
    ("hit_tag", FIELD_BITS as u32, false),
    ("remove", 1, true),
    ("insert", 1, true),
    ("in_comm", FIELD_BITS as u32, true),
    ("in_src", FIELD_BITS as u32, true),
    ("in_tag", FIELD_BITS as u32, true),
    ("in_src_any", 1, true),
    ("in_tag_any", 1, true),
    ("in_handle", FIELD_BITS as u32, true),
    ("count", INDEX_BITS as u32, false),
    ("full", 1, false),
];

/// A standalone CAM wrapped as top module `top`.
#[derive(LogicBlock)]
pub struct CamTop {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub search: Signal<In, Bit>,
    pub search_mode: Signal<In, Bits<2>>,
    pub key_comm: Signal<In, Bits<FIELD_BITS>>,
    pub key_src: Signal<In, Bits<FIELD_BITS>>,
    pub key_tag: Signal<In, Bits<FIELD_BITS>>,
    pub key_src_any: Signal<In, Bit>,
    pub key_tag_any: Signal<In, Bit>,
    pub key_handle: Signal<In, Bits<FIELD_BITS>>,
    pub hit: Signal<Out, Bit>,
    pub hit_handle: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_src: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_tag: Signal<Out, Bits<FIELD_BITS>>,
    pub remove: Signal<In, Bit>,
    pub insert: Signal<In, Bit>,
    pub in_comm: Signal<In, Bits<FIELD_BITS>>,
    pub in_src: Signal<In, Bits<FIELD_BITS>>,
    pub in_tag: Signal<In, Bits<FIELD_BITS>>,
    pub in_src_any: Signal<In, Bit>,
    pub in_tag_any: Signal<In, Bit>,
    pub in_handle: Signal<In, Bits<FIELD_BITS>>,
    pub count: Signal<Out, Bits<INDEX_BITS>>,
    pub full: Signal<Out, Bit>,
    cam: Cam,
}

impl CamTop {
    pub fn new(depth: usize, widths: FieldWidths) -> Self {
        CamTop {
            clock: Default::default(),
            reset: Default::default(),
            search: Default::default(),
            search_mode: Default::default(),
            key_comm: Default::default(),
            key_src: Default::default(),
            key_tag: Default::default(),
            key_src_any: Default::default(),
            key_tag_any: Default::default(),
            key_handle: Default::default(),
            hit: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            remove: Default::default(),
            insert: Default::default(),
            in_comm: Default::default(),
            in_src: Default::default(),
            in_tag: Default::default(),
            in_src_any: Default::default(),
            in_tag_any: Default::default(),
            in_handle: Default::default(),
            count: Default::default(),
            full: Default::default(),
            cam: Cam::new(depth, widths),
        }
    }
}

impl Logic for CamTop {
    #[hdl_gen]
    fn update(&mut self) {
        self.cam.clock.next = self.clock.val();
        self.cam.reset.next = self.reset.val();
        self.cam.search.next = self.search.val();
        self.cam.search_mode.next = self.search_mode.val();
        self.cam.key_comm.next = self.key_comm.val();
        self.cam.key_src.next = self.key_src.val();
        self.cam.key_tag.next = self.key_tag.val();
        self.cam.key_src_any.next = self.key_src_any.val();
        self.cam.key_tag_any.next = self.key_tag_any.val();
        self.cam.key_handle.next = self.key_handle.val();
        self.hit.next = self.cam.hit.val();
        self.hit_handle.next = self.cam.hit_handle.val();
        self.hit_src.next = self.cam.hit_src.val();
        self.hit_tag.next = self.cam.hit_tag.val();
        self.cam.remove.next = self.remove.val();
        self.cam.insert.next = self.insert.val();
        self.cam.in_comm.next = self.in_comm.val();
        self.cam.in_src.next = self.in_src.val();
        self.cam.in_tag.next = self.in_tag.val();
        self.cam.in_src_any.next = self.in_src_any.val();
        self.cam.in_tag_any.next = self.in_tag_any.val();
        self.cam.in_handle.next = self.in_handle.val();
        self.count.next = self.cam.count.val();
        self.full.next = self.cam.full.val();
    }
}

/// The Verilog of a CAM of `depth` slots (in [`CAM_DEPTHS`]) with the default field
/// widths, top module `top`.
pub fn cam_verilog(depth: usize) -> String {
    cam_verilog_with(depth, FieldWidths::default())
}

/// The Verilog of a CAM of `depth` slots storing fields of `widths`, top module `top`.
pub fn cam_verilog_with(depth: usize, widths: FieldWidths) -> String {
    let mut uut = CamTop::new(depth, widths);
    uut.connect_all();
    generate_verilog(&uut)
}
