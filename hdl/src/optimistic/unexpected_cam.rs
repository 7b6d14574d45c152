//! The thread array's unexpected message queue (UMQ): a CAM whose entries never move, that
//! answers a search with the OLDEST matching message and holds exactly `depth` messages.
//!
//! # Interface and timing
//! The search is registered: every cycle the messages are compared with the `search_*`
//! ports, and the cycle after, `hit` and `hit_*` answer that search (the thread array
//! presents the command's envelope in the cycle that accepts it). `remove_first` removes
//! that answer at the next edge. `insert` appends a message at the next edge, younger than
//! every stored one; `clear` empties the queue. The caller does not insert, remove or clear
//! between a search and its use, and inserts only while fewer than `depth` messages wait.
//!
//! # Why fixed slots and an age matrix
//! The collapsing FIFO this replaces kept age by position: removing a message shifted
//! every younger one down, so every stored bit had a multiplexer in front of it (keep,
//! take the neighbour, take one of the block's ports), and a block write compared every
//! slot's index with the count. Its slots were the end of the routed critical path of
//! every default-table record. Synthesized alone for the 4-lane array's 64 messages
//! (yosys `synth_ecp5 -nowidelut`, as the timing flow runs it):
//!
//! | UMQ of 64 messages | LUT4 | carry cells | flip-flops |
//! |---|---|---|---|
//! | collapsing FIFO, a block's messages in one edge through 4 ports | 28,907 | 1,394 | 6,421 |
//! | fixed slots, age matrix, one message an edge, answer by AND-OR | 14,780 | 16 | 8,305 |
//! | the same, answer from distributed RAM (this one; 80 `DPR16X4`) | 9,696 | 16 | 6,257 |
//!
//! At 16 messages this one takes 1,612 LUT4s, 20 `DPR16X4` and 1,193 flip-flops.
//!
//! Here a message stays in the slot it was written to until it leaves. Age is an *age
//! matrix*: one flip-flop per pair of slots, set when the pair's later slot is written, so
//! "the oldest hit" is "a hit that no older hit beats": per slot an AND over the other
//! slots, beside the compares in the search's cycle, registered as a one-hot.
//!
//! Only what a search compares (communicator, source, tag) sits in flip-flops. What an
//! answer returns (handle, source, tag) is also written to a distributed RAM at the
//! insert's slot, and read the cycle after the search at the one-hot's slot number: an
//! encoder and a RAM read instead of an AND-OR tree of 80 bits over the slots, which took
//! a third of this queue's LUT4s.
//!
//! The two-level engine's CAM keeps age with append-only banks instead (`two_level::cam`),
//! which costs less but reuses a bank only once it is empty, so it guarantees fewer
//! entries than it has slots. The thread array's model and its cycle-level model give the
//! UMQ an exact capacity (an arrival overflows when `depth` messages wait, not earlier), so
//! this queue reuses any free slot and pays `depth * (depth - 1) / 2` age flip-flops for
//! it: 2,016 at 64 messages. That is why its depth stops at 256
//! ([`UNEXPECTED_CAM_DEPTHS`]: 32,640 age flip-flops).
//!
//! # One message an edge
//! An insert writes the lowest free slot (a prefix OR over the free bits) from one write
//! bus: a clock enable per slot, no multiplexer in front of the stored bits. A block's
//! unmatched messages therefore go in one a cycle, not together. A first version of this
//! queue wrote a block's `M` messages in one edge into the `M` lowest free slots (a
//! prefix count of the free slots gave each its rank): that put an `M`-way multiplexer in
//! front of every stored bit, and at 64 messages and 4 ports it took more LUT4s than the
//! collapsing FIFO (40,536 against 33,096 with yosys' wide LUTs; 20,981 for one message
//! an edge, answer by AND-OR). Blocks with two or more unmatched messages pay a cycle for
//! each after the first (`tagmatch_sim::optimistic::cost`); the rate benchmark's blocks
//! match their receives.
//!
//! # Where it is tight
//! The choice of the oldest hit reads every slot's hit and its row and column of the
//! matrix: all to all. On the 4-lane array with the default tables (64 messages) the age
//! bits and the registered choice were the most congested nets after placement (26 % each,
//! with the search key's `cmd_tag_any` at 20 %; the router stopped at 157 overused wires,
//! see the timing history). A search key registered in groups of slots, as the two-level
//! CAM does, and the choice split over two cycles would spread it, at a cycle more for a
//! post or a probe.
//!
//! # Field widths
//! The ports carry [`MESSAGE_FIELDS`] (16-bit communicators and sources, 32-bit tags and
//! handles); the slots and the RAM store each field at the width the array is generated
//! with ([`UnexpectedCam::with_fields`]), and an answer's bits above are zero. Only the
//! stored bits are compared: the thread array refuses a command whose fields are wider,
//! so it never presents bits above them.
//!
//! The body is a `Verilog::Custom` block ([`unexpected_cam_body`]); `update` here is the
//! same behaviour, register by register, for rust-hdl's simulator.

use rust_hdl::prelude::*;

use crate::fields::{unused_sink, FieldWidths, INDEX_BITS};
use crate::primitives::trees::{balanced, bits_to_hold, encode_one_hot, prefix_or};

/// Widths of the thread array's field ports: the widest fields it can be generated with.
pub const COMM_BITS: usize = 16;
pub const SRC_BITS: usize = 16;
pub const TAG_BITS: usize = 32;
pub const HANDLE_BITS: usize = 32;
/// The same as field widths.
pub const MESSAGE_FIELDS: FieldWidths =
    FieldWidths { comm: COMM_BITS, src: SRC_BITS, tag: TAG_BITS, handle: HANDLE_BITS };

/// Depths the queue takes: its age matrix grows with the square of the depth (module docs).
pub const UNEXPECTED_CAM_DEPTHS: std::ops::RangeInclusive<usize> = 2..=256;

/// One stored message.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Message {
    comm: u64,
    src: u64,
    tag: u64,
    handle: u64,
}

/// The RTL's registers, for the Rust simulation. Age is a sequence number per slot here;
/// the RTL's matrix bit `(a, b)` is `seq[a] < seq[b]`.
#[derive(Clone, Debug, Default)]
struct Regs {
    valid: Vec<bool>,
    slots: Vec<Message>,
    seq: Vec<u64>,
    next_seq: u64,
    used: usize,
    hit: bool,
    /// The registered oldest hit.
    first: Option<usize>,
}

#[derive(LogicBlock)]
pub struct UnexpectedCam {
    pub clock: Signal<In, Clock>,
    pub search_comm: Signal<In, Bits<COMM_BITS>>,
    pub search_src: Signal<In, Bits<SRC_BITS>>,
    pub search_tag: Signal<In, Bits<TAG_BITS>>,
    pub search_src_any: Signal<In, Bit>,
    pub search_tag_any: Signal<In, Bit>,
    /// The search of the cycle before found a message (the oldest one is in `hit_*`).
    pub hit: Signal<Out, Bit>,
    pub hit_handle: Signal<Out, Bits<HANDLE_BITS>>,
    pub hit_src: Signal<Out, Bits<SRC_BITS>>,
    pub hit_tag: Signal<Out, Bits<TAG_BITS>>,
    /// Removes `hit`'s message at the next edge.
    pub remove_first: Signal<In, Bit>,
    /// Empties the queue at the next edge.
    pub clear: Signal<In, Bit>,
    /// Messages held.
    pub count: Signal<Out, Bits<INDEX_BITS>>,
    /// Appends the message on `insert_*` at the next edge.
    pub insert: Signal<In, Bit>,
    pub insert_comm: Signal<In, Bits<COMM_BITS>>,
    pub insert_src: Signal<In, Bits<SRC_BITS>>,
    pub insert_tag: Signal<In, Bits<TAG_BITS>>,
    pub insert_handle: Signal<In, Bits<HANDLE_BITS>>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _depth: usize,
    _fields: FieldWidths,
    _r: Regs,
}

impl UnexpectedCam {
    /// A queue of `depth` messages (in [`UNEXPECTED_CAM_DEPTHS`]), a generation parameter.
    pub fn new(depth: usize) -> Self {
        let (low, high) = UNEXPECTED_CAM_DEPTHS.into_inner();
        assert!(UNEXPECTED_CAM_DEPTHS.contains(&depth), "UMQ depth {depth} out of range ({low} to {high})");
        UnexpectedCam {
            clock: Default::default(),
            search_comm: Default::default(),
            search_src: Default::default(),
            search_tag: Default::default(),
            search_src_any: Default::default(),
            search_tag_any: Default::default(),
            hit: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            remove_first: Default::default(),
            clear: Default::default(),
            count: Default::default(),
            insert: Default::default(),
            insert_comm: Default::default(),
            insert_src: Default::default(),
            insert_tag: Default::default(),
            insert_handle: Default::default(),
            _depth: depth,
            _fields: MESSAGE_FIELDS,
            _r: Regs {
                valid: vec![false; depth],
                slots: vec![Message::default(); depth],
                seq: vec![0; depth],
                ..Regs::default()
            },
        }
    }

    /// Stores the fields at `fields` (each at most its port's width, [`MESSAGE_FIELDS`]).
    pub fn with_fields(mut self, fields: FieldWidths) -> Self {
        let m = MESSAGE_FIELDS;
        assert!(
            fields.comm <= m.comm && fields.src <= m.src && fields.tag <= m.tag && fields.handle <= m.handle,
            "{fields:?} wider than the ports ({m:?})"
        );
        self._fields = fields;
        self
    }

    /// One clock edge of the registers.
    fn edge(&mut self) {
        let r = &self._r;
        let mut n = r.clone();
        let f = self._fields;
        let low = |value: u64, bits: usize| value & ((1u64 << bits) - 1);
        // The search: the oldest valid slot that matches in the stored bits.
        let matches = |s: usize| {
            let e = &r.slots[s];
            r.valid[s]
                && e.comm == low(self.search_comm.val().index() as u64, f.comm)
                && (self.search_src_any.val() || e.src == low(self.search_src.val().index() as u64, f.src))
                && (self.search_tag_any.val() || e.tag == low(self.search_tag.val().index() as u64, f.tag))
        };
        n.first = (0..self._depth).filter(|&s| matches(s)).min_by_key(|&s| r.seq[s]);
        n.hit = n.first.is_some();
        if self.remove_first.val() && r.hit {
            let s = r.first.expect("a registered hit has a slot");
            n.valid[s] = false;
            n.used -= 1;
        }
        if self.insert.val() {
            if let Some(slot) = r.valid.iter().position(|&v| !v) {
                n.valid[slot] = true;
                n.slots[slot] = Message {
                    comm: low(self.insert_comm.val().index() as u64, f.comm),
                    src: low(self.insert_src.val().index() as u64, f.src),
                    tag: low(self.insert_tag.val().index() as u64, f.tag),
                    handle: low(self.insert_handle.val().index() as u64, f.handle),
                };
                n.seq[slot] = r.next_seq;
                n.next_seq = r.next_seq + 1;
                n.used = r.used + 1;
            }
        }
        if self.clear.val() {
            n.valid = vec![false; self._depth];
            n.used = 0;
        }
        self._r = n;
    }
}

impl Logic for UnexpectedCam {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.edge();
        }
        let r = &self._r;
        let e = r.first.map(|s| r.slots[s]).unwrap_or_default();
        self.hit.next = r.hit;
        self.hit_handle.next = e.handle.to_bits();
        self.hit_src.next = e.src.to_bits();
        self.hit_tag.next = e.tag.to_bits();
        self.count.next = (r.used as u64).to_bits();
    }

    fn connect(&mut self) {
        self.hit.connect();
        self.hit_handle.connect();
        self.hit_src.connect();
        self.hit_tag.connect();
        self.count.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(unexpected_cam_body(self._depth, self._fields))
    }
}

/// Bit of the age matrix's upper triangle for slots `a < b` of `d`: row `a` holds
/// `b = a + 1 .. d`, rows one after another.
fn pair(d: usize, a: usize, b: usize) -> usize {
    debug_assert!(a < b && b < d);
    a * d - a * (a + 1) / 2 + (b - a - 1)
}

/// `free_first`, the one-hot lowest free slot of `d`, by a prefix OR over the free bits.
fn lowest_free(d: usize) -> String {
    format!(
        "wire [{m}:0] free = ~valid;\n/* verilator lint_off UNUSEDSIGNAL */\n{}/* verilator lint_on UNUSEDSIGNAL */\n\
         wire [{m}:0] free_first = free & ~{{free_upto[{}:0], 1'b0}};",
        prefix_or("free_upto", "free", d),
        d - 2,
        m = d - 1
    )
}

/// `port`'s low `bits` of `width` as Verilog: the port itself when it is that wide.
fn low_bits(port: &str, bits: usize, width: usize) -> String {
    if bits == width {
        port.to_string()
    } else {
        format!("{port}[{}:0]", bits - 1)
    }
}

/// `value`, `bits` wide, zero-extended to `width` bits as Verilog.
fn widened(value: &str, bits: usize, width: usize) -> String {
    if bits == width {
        value.to_string()
    } else {
        format!("{{{}'d0, {value}}}", width - bits)
    }
}

/// The queue's Verilog body for `d` slots storing fields of `fields` bits.
pub fn unexpected_cam_body(d: usize, fields: FieldWidths) -> String {
    let (cw, sw, tw, hw, iw) = (fields.comm, fields.src, fields.tag, fields.handle, INDEX_BITS);
    let m = MESSAGE_FIELDS;
    let (s_comm, s_src, s_tag) = (
        low_bits("search_comm", cw, m.comm),
        low_bits("search_src", sw, m.src),
        low_bits("search_tag", tw, m.tag),
    );
    let (i_comm, i_src, i_tag, i_handle) = (
        low_bits("insert_comm", cw, m.comm),
        low_bits("insert_src", sw, m.src),
        low_bits("insert_tag", tw, m.tag),
        low_bits("insert_handle", hw, m.handle),
    );
    let pairs = d * (d - 1) / 2;
    let mut lines: Vec<String> = Vec::new();
    lines.push(format!("// The unexpected message queue: {d} fixed slots ordered by an age matrix."));
    // The port bits above the stored fields (the array keeps them zero).
    let dropped: Vec<String> = [
        ("search_comm", cw, m.comm),
        ("search_src", sw, m.src),
        ("search_tag", tw, m.tag),
        ("insert_comm", cw, m.comm),
        ("insert_src", sw, m.src),
        ("insert_tag", tw, m.tag),
        ("insert_handle", hw, m.handle),
    ]
    .iter()
    .filter(|&&(_, bits, width)| bits < width)
    .map(|&(port, bits, width)| format!("{port}[{}:{bits}]", width - 1))
    .collect();
    if !dropped.is_empty() {
        lines.push(unused_sink("unused_port_bits", &dropped));
    }
    lines.push(format!("reg [{}:0] valid;", d - 1));
    lines.push(format!("reg [{}:0] e_comm;\nreg [{}:0] e_src;", d * cw - 1, d * sw - 1));
    lines.push(format!("reg [{}:0] e_tag;", d * tw - 1));
    lines.push("// What an answer returns, in distributed RAM by slot: handle | tag | src.".into());
    lines.push(format!("reg [{}:0] words [0:{}];", hw + tw + sw - 1, d - 1));
    lines.push(format!("reg [{}:0] used;", iw - 1));
    lines.push("// older[pair(a, b)], a < b: slot a's message came before slot b's.".into());
    lines.push(format!("reg [{}:0] older;", pairs - 1));
    lines.push("// The registered search: any match, and the oldest match as a one-hot.".into());
    lines.push(format!("reg hit_q;\nreg [{}:0] first_q;", d - 1));

    // The search.
    lines.push(format!("wire [{}:0] hits;", d - 1));
    for s in 0..d {
        lines.push(format!(
            "assign hits[{s}] = valid[{s}] & (e_comm[{c} +: {cw}] == {s_comm}) \
             & (search_src_any | (e_src[{sr} +: {sw}] == {s_src})) \
             & (search_tag_any | (e_tag[{t} +: {tw}] == {s_tag}));",
            c = s * cw,
            sr = s * sw,
            t = s * tw
        ));
    }
    lines.push("// beaten[s]: an older message matches as well.".into());
    lines.push(format!("wire [{}:0] beaten;", d - 1));
    for s in 0..d {
        let mut terms: Vec<String> =
            (0..s).map(|t| format!("(hits[{t}] & older[{}])", pair(d, t, s))).collect();
        if s + 1 < d {
            let (lo, hi) = (pair(d, s, s + 1), pair(d, s, d - 1));
            terms.push(format!("(|(hits[{}:{}] & ~older[{hi}:{lo}]))", d - 1, s + 1));
        }
        lines.push(format!("assign beaten[{s}] = {};", balanced(&terms, "|", "1'b0")));
    }
    lines.push(
        "always @(posedge clock) begin\n    hit_q <= |hits;\n    first_q <= hits & ~beaten;\nend".into(),
    );

    // The answer: the RAM word at the registered oldest hit's slot.
    let aw = bits_to_hold(d - 1).max(1);
    lines.push(encode_one_hot("raddr", "first_q", d, aw));
    lines.push(format!("wire [{}:0] rword = words[raddr];", hw + tw + sw - 1));
    lines.push(format!(
        "always @(*) begin\n    hit = hit_q;\n    hit_src = hit_q ? {} : {}'d0;\n    \
         hit_tag = hit_q ? {} : {}'d0;\n    hit_handle = hit_q ? {} : {}'d0;\n    \
         count = used;\nend",
        widened(&format!("rword[{}:0]", sw - 1), sw, m.src),
        m.src,
        widened(&format!("rword[{}:{sw}]", sw + tw - 1), tw, m.tag),
        m.tag,
        widened(&format!("rword[{}:{}]", sw + tw + hw - 1, sw + tw), hw, m.handle),
        m.handle,
    ));

    // The insert: the lowest free slot, from the one write bus.
    lines.push(lowest_free(d));
    lines.push(format!("wire [{}:0] takes = {{{d}{{insert}}}} & free_first;", d - 1));
    lines.push(encode_one_hot("waddr", "free_first", d, aw));
    lines.push(format!(
        "always @(posedge clock) if (insert & ~&valid) words[waddr] <= {{{i_handle}, {i_tag}, {i_src}}};"
    ));
    lines.push("always @(posedge clock) begin".into());
    for s in 0..d {
        lines.push(format!(
            "    if (takes[{s}]) begin\n        e_comm[{} +: {cw}] <= {i_comm};\n        \
             e_src[{} +: {sw}] <= {i_src};\n        e_tag[{} +: {tw}] <= {i_tag};\n    end",
            s * cw,
            s * sw,
            s * tw,
        ));
    }
    lines.push("end".into());
    // Age: a written slot becomes younger than every other.
    lines.push("always @(posedge clock) if (insert) begin".into());
    for a in 0..d - 1 {
        let (lo, hi) = (pair(d, a, a + 1), pair(d, a, d - 1));
        lines.push(format!(
            "    older[{hi}:{lo}] <= takes[{}:{}] | (older[{hi}:{lo}] & {{{}{{~takes[{a}]}}}});",
            d - 1,
            a + 1,
            d - 1 - a
        ));
    }
    lines.push("end".into());
    lines.push(format!(
        "always @(posedge clock) begin\n    \
         if (remove_first & hit_q) begin\n        valid <= valid & ~first_q;\n        used <= used - {iw}'d1;\n    end\n    \
         if (insert & ~&valid) begin\n        valid <= valid | takes;\n        used <= used + {iw}'d1;\n    end\n    \
         if (clear) begin\n        valid <= {d}'d0;\n        used <= {iw}'d0;\n    end\nend"
    ));
    lines.join("\n") + "\n"
}

/// The queue's top-level ports as (name, width, is input), in declaration order.
pub const UNEXPECTED_CAM_PORTS: [(&str, u32, bool); 18] = [
    ("clock", 1, true),
    ("search_comm", COMM_BITS as u32, true),
    ("search_src", SRC_BITS as u32, true),
    ("search_tag", TAG_BITS as u32, true),
    ("search_src_any", 1, true),
    ("search_tag_any", 1, true),
    ("hit", 1, false),
    ("hit_handle", HANDLE_BITS as u32, false),
    ("hit_src", SRC_BITS as u32, false),
    ("hit_tag", TAG_BITS as u32, false),
    ("remove_first", 1, true),
    ("clear", 1, true),
    ("count", INDEX_BITS as u32, false),
    ("insert", 1, true),
    ("insert_comm", COMM_BITS as u32, true),
    ("insert_src", SRC_BITS as u32, true),
    ("insert_tag", TAG_BITS as u32, true),
    ("insert_handle", HANDLE_BITS as u32, true),
];

/// A standalone queue's Verilog, top module `top`, storing fields of `fields` bits.
pub fn unexpected_cam_verilog(depth: usize, fields: FieldWidths) -> String {
    let mut uut = UnexpectedCam::new(depth).with_fields(fields);
    uut.connect_all();
    generate_verilog(&uut)
}
