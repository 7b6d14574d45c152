//! Level 1 of the two-level queue: a pipelined content-addressable memory whose entries
//! never move, and which always answers with the OLDEST matching entry.
//!
//! # Storage
//! A slot is written once, through one shared write bus with a per-slot write enable (a
//! flip-flop clock enable, no per-bit multiplexer), and stays where it was written until it
//! is removed (its valid bit cleared). Only what a search compares lives in flip-flops: the
//! communicator, source, tag and the two wildcard flags. The source, tag and handle that an
//! answer returns sit in a RAM indexed by slot (`mem`, block RAM: one write port, one
//! registered read port), read at the answer's slot number in the edge that registers the
//! choice — no AND-OR tree over the slots.
//!
//! # Age: banks that only append
//! The `D` slots form `B` banks of `S` slots ([`bank_size`]: `S` the largest power of two
//! with `S * S <= D` that divides `D`, so `B >= S`). One bank is *open*: inserts append to
//! it in slot order. When it is used up, the next insert opens the lowest-numbered bank
//! that is empty, which becomes the youngest bank. A bank-age matrix (one flip-flop per
//! pair of banks, set when a bank opens) orders the banks, so the oldest hit is the lowest
//! hit slot of the oldest bank that has a hit: per bank a prefix OR (`log2 S` levels), one
//! AND per bank over its `B - 1` pair bits, then a one-hot encoder — trees, no chain, and
//! no slot label or comparator.
//!
//! Why banks and not the alternatives. Measured on the LFE5U-85F (timing records in
//! `constraints/timing/`): the collapsing FIFO and the banks. Weighed, not built: the ring
//! and the labels.
//! - The collapsing FIFO this replaces kept age by position and so gave every stored bit a
//!   5-input next state (own bit, neighbour, new entry, shift, insert) and picked the hit by
//!   AND-OR trees across slots: about 410–458 LUT4s per entry (128 entries: 55,721 LUT4s,
//!   256 entries did not place). Banks: about 80 per entry (128: 10,436; 256: 19,948),
//!   most of it the per-slot comparator of 66 bits.
//! - Circular allocation (one ring, a rotating priority encoder) would cost a little less
//!   logic, but a slot is reused only after every older slot is free: one long-lived entry
//!   (an `ANY_SOURCE` receive posted at start-up) leaves the ring "full" with one live
//!   entry, and every later entry walks the lists.
//! - Serial labels with a minimum tree reuse any free slot, but add a label register and
//!   a comparator per slot (a 255-node tree of 9-bit serial compares at 256 entries, about
//!   6,000 LUT4s more) and pipeline stages, and a live label older than half the label
//!   space still has to be refused, which brings back the same waste.
//!
//! Banks waste less than the ring (a long-lived entry holds its own bank only) at about
//! the ring's logic cost plus `B * (B - 1) / 2` age flip-flops. The capacity the CAM
//! guarantees: `full` rises only when the open bank is used up and no bank is empty, so it
//! always takes an insert while it holds fewer than `B` entries, and holds `D` when
//! entries leave in the order they came. The queue never relies on more: its data mover
//! refills whenever `full` is low, and `full` is what the engine reads.
//!
//! # The write buffer
//! An insert's compared fields reach its slot's flip-flops one edge after the insert: the
//! insert registers them in its bank's buffer (one register per bank), and the next edge
//! writes the slot from there. For the one cycle in between, a search uses for that slot a
//! match bit computed at the insert's edge (the new entry against the key the next search
//! uses), a register. Nothing outside can tell (the valid bit, the RAM word and the
//! allocation change at the insert's edge, as before), and the Rust model below writes the
//! slot at once. Why: the insert bus comes from the lists' RAM through the data mover, and
//! without the buffer it fanned out to every slot's flip-flops; on the default engine this
//! bus was the most congested route. Cost: `B` words and `D + 1` flip-flops (256 slots:
//! about 1,300 flip-flops). A first version compared the buffered entry in the search's
//! cycle, from one central copy fanned out to every slot: that comparator and its fanout
//! became the CAM's critical path (70.5 MHz alone, against 91.1 before the buffer).
//!
//! # The key
//! A search compares the key loaded at an earlier edge (`key_load`), not the key ports of
//! its own cycle: the engine loads it with the command, at least one cycle before the
//! search. So every bank keeps its own copy of the key, loaded in the same edge as the
//! others, and the key bus ends at `B + 1` registers instead of every slot's comparator
//! (on the default engine, the command's tag and source fanned out to 512 comparators and
//! were the most congested routes once the write buffer was in). The copies are instances
//! of a module synthesis keeps whole ([`with_key_copy_module`]); plain registers with the
//! same input and enable would be merged back into one.
//!
//! # Timing (cycle `S` is the one `search` is high in)
//! - `S`: every stored slot (less one removed in this edge) is compared with the key; the
//!   match vector and each bank's OR are registered. An entry inserted in this edge is
//!   compared by one comparator on the insert bus into a register of its own (`new_hit`):
//!   it is younger than every stored entry, so it is the answer only when none of them
//!   matches. So a search may share its edge with an insert and a removal and sees the
//!   slots after them.
//! - `S + 1`: the oldest bank with a hit and its lowest hit slot are chosen (else the
//!   entry inserted at `S`, if it matched) and registered: the slot number, its one-hot,
//!   `hit`, and `frees` (removing it empties its bank, or the CAM is not full: so the
//!   queue knows whether its removal lets the mover refill). Keeping the inserted entry
//!   out of the match vector took the insert bus and its comparators (one per bank
//!   before) out of the CAM's deepest logic: on the default engine that path ran from the
//!   lists' answer through the data mover and the comparator into every bank's OR.
//! - `S + 2`: `answered` is high; `hit_*` are the RAM's word at the chosen slot.
//! - `S + 2` or later, `remove` clears that slot's valid bit (once: it clears the answer).
//!
//! A search by handle (a cancel) has no comparator per slot: it scans the RAM's handles,
//! one slot a cycle (read, registered, compared: the block RAM's output reaches no
//! comparator directly), into the match vector, masks it with the valid bits, then
//! chooses as above, so it answers `D + 3` cycles later than an envelope search
//! ([`handle_search_cycles`]). No insert or removal may come during a scan. An insert while `full` is ignored (the queue checks `full`
//! first), even in the edge of a removal. `reset` empties the CAM and clears the answer;
//! nothing depends on initial values or on the RAM's contents (a slot's RAM word is read
//! only while its valid bit is set).
//!
//! The body is a `Verilog::Custom` block (rust-hdl's generator would unroll the priority
//! search into a chain of nested ifs); `update` beside it is the same behaviour, register
//! by register, for rust-hdl's simulator.

use rust_hdl::prelude::*;

use crate::fields::{outside, unused_sink, FieldWidths, FIELD_BITS};
pub use crate::optimistic::single_cycle_cam::INDEX_BITS;
use crate::primitives::trees::{bits_to_hold, encode_one_hot, prefix_or};

/// Search modes, shared with the level-2 lists.
pub use crate::two_level::bram_list::{MODE_ANY, MODE_ENVELOPE, MODE_HANDLE};

/// CAM depths the block builds: two slots at least (two banks), and the entry count
/// (`count`) is `INDEX_BITS` wide.
pub const CAM_DEPTHS: std::ops::RangeInclusive<usize> = 2..=4096;

/// Slots per bank for a CAM of `depth` slots: the largest power of two `S` with
/// `S * S <= depth` that divides `depth` (256: 16 banks of 16; 128: 16 of 8; 6: 3 of 2;
/// a prime depth: one slot per bank).
pub const fn bank_size(depth: usize) -> usize {
    let mut s = 1;
    while (2 * s) * (2 * s) <= depth && depth.is_multiple_of(2 * s) {
        s *= 2;
    }
    s
}

/// Banks of a CAM of `depth` slots: also the fewest entries it holds when `full`.
pub fn banks(depth: usize) -> usize {
    depth / bank_size(depth)
}

/// Cycles from the search to the answer: 2 by envelope (or any entry), `depth + 5` by
/// handle (the scan reads one slot a cycle, registers its handle and compares it, then
/// two stages collect and choose).
pub fn handle_search_cycles(depth: usize) -> u64 {
    depth as u64 + 5
}

/// Compared fields of one slot (flip-flops in the RTL).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Key {
    comm: u64,
    src: u64,
    tag: u64,
    src_any: bool,
    tag_any: bool,
}

/// The RAM word of one slot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Word {
    src: u64,
    tag: u64,
    handle: u64,
}

/// The RTL's registers, for the Rust simulation.
#[derive(Clone, Debug, Default)]
struct Regs {
    valid: Vec<bool>,
    keys: Vec<Key>,
    mem: Vec<Word>,
    mv: Vec<bool>,
    bank_hit: Vec<bool>,
    sel_go: bool,
    answered: bool,
    hit: bool,
    frees: bool,
    sel: usize,
    /// `older[b][c]`, `b < c`: bank `b` opened before bank `c`.
    older: Vec<Vec<bool>>,
    open: usize,
    ptr: usize,
    exhausted: bool,
    spare: Option<usize>,
    bank_empty: Vec<bool>,
    full: bool,
    used: usize,
    scanning: bool,
    scan_cnt: usize,
    scan_live: bool,
    scan_at: usize,
    scan_live2: bool,
    scan_at2: usize,
    scan_rd: u64,
    /// The RAM's registered read.
    rdata: Word,
    scan_end: bool,
    /// The loaded key: compared fields, mode and handle.
    k: Key,
    k_mode: u64,
    k_handle: u64,
    scan_handle: u64,
    /// An entry inserted in a search's edge matched that search (the choose stage's
    /// fallback), and its slot.
    new_hit: bool,
    new_idx: usize,
}

#[derive(LogicBlock)]
pub struct Cam {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties the CAM and clears the last answer.
    pub reset: Signal<In, Bit>,
    /// Compare every slot with the loaded key at this edge (by handle: start the scan).
    pub search: Signal<In, Bit>,
    /// Load the key (`search_mode` and `key_*`) at this edge, for the searches after it.
    pub key_load: Signal<In, Bit>,
    /// 0: by envelope (wildcards on either side), 1: by handle, 2: any entry.
    pub search_mode: Signal<In, Bits<2>>,
    pub key_comm: Signal<In, Bits<FIELD_BITS>>,
    pub key_src: Signal<In, Bits<FIELD_BITS>>,
    pub key_tag: Signal<In, Bits<FIELD_BITS>>,
    pub key_src_any: Signal<In, Bit>,
    pub key_tag_any: Signal<In, Bit>,
    pub key_handle: Signal<In, Bits<FIELD_BITS>>,
    /// The last search's answer is out (`hit`, `hit_*`, `frees`); low from the search's
    /// edge until then, and after a removal.
    pub answered: Signal<Out, Bit>,
    pub hit: Signal<Out, Bit>,
    pub hit_handle: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_src: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_tag: Signal<Out, Bits<FIELD_BITS>>,
    /// Removing the answer leaves the CAM not full (it empties its bank, or the CAM is
    /// not full now), as of the answer.
    pub frees: Signal<Out, Bit>,
    /// Deletes the last search's answer (while `answered`).
    pub remove: Signal<In, Bit>,
    /// Appends an entry, younger than every stored one (ignored while `full`).
    pub insert: Signal<In, Bit>,
    pub in_comm: Signal<In, Bits<FIELD_BITS>>,
    pub in_src: Signal<In, Bits<FIELD_BITS>>,
    pub in_tag: Signal<In, Bits<FIELD_BITS>>,
    pub in_src_any: Signal<In, Bit>,
    pub in_tag_any: Signal<In, Bit>,
    pub in_handle: Signal<In, Bits<FIELD_BITS>>,
    /// Stored entries (an up/down counter).
    pub count: Signal<Out, Bits<INDEX_BITS>>,
    /// An insert would be ignored: the open bank is used up and no bank is empty.
    pub full: Signal<Out, Bit>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _depth: usize,
    _widths: FieldWidths,
    _r: Regs,
}

impl Cam {
    /// A CAM of `depth` slots (in [`CAM_DEPTHS`]) storing fields of `widths`; both are
    /// generation parameters, so one compiled block serves every size. The field ports
    /// are 32 bits; only the low `widths` bits are stored and compared (the engine refuses
    /// wider values before they get here).
    pub fn new(depth: usize, widths: FieldWidths) -> Self {
        assert!(CAM_DEPTHS.contains(&depth), "CAM depth {depth} out of range (2 to 4,096)");
        let b = banks(depth);
        let mut cam = Cam {
            clock: Default::default(),
            reset: Default::default(),
            search: Default::default(),
            key_load: Default::default(),
            search_mode: Default::default(),
            key_comm: Default::default(),
            key_src: Default::default(),
            key_tag: Default::default(),
            key_src_any: Default::default(),
            key_tag_any: Default::default(),
            key_handle: Default::default(),
            answered: Default::default(),
            hit: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            frees: Default::default(),
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
            _depth: depth,
            _widths: widths,
            _r: Regs {
                keys: vec![Key::default(); depth],
                mem: vec![Word::default(); depth],
                older: vec![vec![false; b]; b],
                ..Default::default()
            },
        };
        cam.reset_regs();
        cam
    }

    /// What `reset` leaves (the slots' fields, the RAM and the age matrix are kept).
    fn reset_regs(&mut self) {
        let (d, b) = (self._depth, banks(self._depth));
        let r = &mut self._r;
        r.valid = vec![false; d];
        r.mv = vec![false; d];
        r.bank_hit = vec![false; b];
        r.bank_empty = vec![true; b];
        r.spare = Some(0);
        (r.sel_go, r.answered, r.hit, r.frees, r.sel) = (false, false, false, false, 0);
        (r.open, r.ptr, r.exhausted, r.full, r.used) = (0, 0, true, false, 0);
        (r.scanning, r.scan_cnt, r.scan_live, r.scan_at, r.scan_end) = (false, 0, false, 0, false);
        (r.scan_live2, r.scan_at2) = (false, 0);
    }

    /// Loads the key from the ports (after the edge's other registers: a search in the
    /// same edge compares the key loaded before it).
    fn load_key(&mut self) {
        let w = self._widths;
        let k = Key {
            comm: self.key_of(&self.key_comm, w.comm),
            src: self.key_of(&self.key_src, w.src),
            tag: self.key_of(&self.key_tag, w.tag),
            src_any: self.key_src_any.val(),
            tag_any: self.key_tag_any.val(),
        };
        let (mode, handle) = (self.search_mode.val().index() as u64, self.key_of(&self.key_handle, w.handle));
        (self._r.k, self._r.k_mode, self._r.k_handle) = (k, mode, handle);
    }

    fn key_of(&self, sig: &Signal<In, Bits<FIELD_BITS>>, bits: usize) -> u64 {
        low_bits(sig.val().index() as u64, bits)
    }

    /// Whether compared fields `k` match this cycle's search (mode 1, by handle, is the
    /// scan's and matches nothing here).
    fn matches(&self, k: &Key) -> bool {
        let q = &self._r.k;
        match self._r.k_mode {
            MODE_ANY => true,
            MODE_ENVELOPE => {
                k.comm == q.comm
                    && (k.src == q.src || k.src_any || q.src_any)
                    && (k.tag == q.tag || k.tag_any || q.tag_any)
            }
            _ => false,
        }
    }

    /// `b` opened before `c` (both non-empty).
    fn bank_older(&self, b: usize, c: usize) -> bool {
        if b < c {
            self._r.older[b][c]
        } else {
            !self._r.older[c][b]
        }
    }

    /// One clock edge, from the registers and inputs before it.
    fn edge(&mut self) {
        let (d, s) = (self._depth, bank_size(self._depth));
        let b = d / s;
        let w = self._widths;
        let r = self._r.clone();
        let ins = self.insert.val() && !r.full;
        let rm = self.remove.val() && r.answered && r.hit;
        // The slot an insert writes.
        let target =
            if r.exhausted { r.spare.expect("not full: a bank is empty") * s } else { r.open * s + r.ptr };
        let new_key = Key {
            comm: self.key_of(&self.in_comm, w.comm),
            src: self.key_of(&self.in_src, w.src),
            tag: self.key_of(&self.in_tag, w.tag),
            src_any: self.in_src_any.val(),
            tag_any: self.in_tag_any.val(),
        };
        let mut valid = r.valid.clone();
        if rm {
            valid[r.sel] = false;
        }
        if ins {
            valid[target] = true;
        }
        let bank_empty: Vec<bool> = (0..b).map(|k| !valid[k * s..(k + 1) * s].iter().any(|&v| v)).collect();
        let mut n = r.clone();
        // Choose (S + 1): from the registered match vector.
        if r.sel_go {
            let oldest = (0..b).find(|&k| {
                r.bank_hit[k] && (0..b).all(|c| c == k || !r.bank_hit[c] || self.bank_older(k, c))
            });
            match oldest {
                Some(k) => {
                    let j = (0..s).find(|&j| r.mv[k * s + j]).expect("a bank with a hit has a hit slot");
                    let alone = (0..s).all(|i| i == j || !r.valid[k * s + i]);
                    (n.sel, n.hit, n.frees) = (k * s + j, true, !r.full || alone);
                }
                // No stored entry matched: the entry inserted in the search's edge, if it did.
                None if r.new_hit => {
                    let k = r.new_idx / s;
                    let alone = (0..s).all(|i| k * s + i == r.new_idx || !r.valid[k * s + i]);
                    (n.sel, n.hit, n.frees) = (r.new_idx, true, !r.full || alone);
                }
                None => (n.sel, n.hit, n.frees) = (0, false, !r.full),
            }
            n.answered = true;
        }
        if rm {
            (n.answered, n.hit) = (false, false);
        }
        n.sel_go = false;
        n.scan_end = false;
        (n.new_hit, n.new_idx) = (false, target);
        if ins {
            n.keys[target] = new_key;
            n.mem[target] = Word {
                src: self.key_of(&self.in_src, w.src),
                tag: self.key_of(&self.in_tag, w.tag),
                handle: self.key_of(&self.in_handle, w.handle),
            };
            if r.exhausted {
                let opened = target / s;
                for (x, row) in n.older.iter_mut().enumerate() {
                    for (y, bit) in row.iter_mut().enumerate().skip(x + 1) {
                        if y == opened {
                            *bit = true;
                        } else if x == opened {
                            *bit = false;
                        }
                    }
                }
                (n.open, n.ptr, n.exhausted) = (opened, 1, s == 1);
            } else {
                (n.ptr, n.exhausted) = (r.ptr + 1, r.ptr + 1 == s);
            }
        }
        if self.search.val() {
            (n.answered, n.hit) = (false, false);
            if r.k_mode == MODE_HANDLE {
                n.mv = vec![false; d];
                (n.scanning, n.scan_cnt, n.scan_handle) = (true, 0, r.k_handle);
            } else {
                // The stored slots (a slot written in this edge was empty before it).
                n.mv = (0..d).map(|i| r.valid[i] && valid[i] && self.matches(&r.keys[i])).collect();
                n.new_hit = ins && self.matches(&new_key);
                n.bank_hit = (0..b).map(|k| n.mv[k * s..(k + 1) * s].iter().any(|&m| m)).collect();
                n.sel_go = true;
            }
        }
        // The handle scan: read a slot's handle, then compare it into the match vector.
        n.scan_live = r.scanning;
        n.scan_at = r.scan_cnt;
        // The RAM reads the slot being chosen, the scan's, or the answer's again.
        let address = if r.sel_go {
            n.sel
        } else if r.scanning {
            r.scan_cnt
        } else {
            r.sel
        };
        n.rdata = r.mem[address];
        if r.scanning {
            n.scan_cnt = r.scan_cnt + 1;
            n.scanning = r.scan_cnt != d - 1;
        }
        (n.scan_live2, n.scan_at2, n.scan_rd) = (r.scan_live, r.scan_at, r.rdata.handle);
        if r.scan_live2 {
            n.mv[r.scan_at2] = r.scan_rd == r.scan_handle;
            n.scan_end = r.scan_at2 == d - 1;
        }
        if r.scan_end {
            n.mv = (0..d).map(|i| r.mv[i] && r.valid[i]).collect();
            n.bank_hit = (0..b).map(|k| n.mv[k * s..(k + 1) * s].iter().any(|&m| m)).collect();
            n.sel_go = true;
        }
        n.exhausted |= bank_empty[n.open];
        n.full = n.exhausted && !bank_empty.iter().any(|&e| e);
        n.spare = bank_empty.iter().position(|&e| e);
        n.bank_empty = bank_empty;
        n.valid = valid;
        n.used = r.used + ins as usize - rm as usize;
        self._r = n;
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
                self.reset_regs();
            } else {
                self.edge();
            }
            // The key registers have no reset: a key loaded in a reset cycle is kept.
            if self.key_load.val() {
                self.load_key();
            }
        }
        let r = &self._r;
        let word = r.rdata;
        self.answered.next = r.answered;
        self.hit.next = r.hit;
        self.frees.next = r.frees;
        self.hit_handle.next = word.handle.to_bits();
        self.hit_src.next = word.src.to_bits();
        self.hit_tag.next = word.tag.to_bits();
        self.count.next = (r.used as u64).to_bits();
        self.full.next = r.full;
    }

    fn connect(&mut self) {
        self.answered.connect();
        self.hit.connect();
        self.hit_handle.connect();
        self.hit_src.connect();
        self.hit_tag.connect();
        self.frees.connect();
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
    let lowest_empty = lowest("spare_next", "bank_empty_next", "empty_upto", b, "B");
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
        for (gj = 0; gj < S; gj = gj + 1) begin : slot
            reg [KW-1:0] key;
            assign we[gb*S+gj] = ins & (room ? (open_oh[gb] & ptr_oh[gj]) : (spare_oh[gb] & (gj == 0)));
            always @(posedge clock) if (pend_we[gb*S+gj]) key <= wbuf;
            assign slot_hit[gb*S+gj] = fields_match(key, bank_key[KW+1:KW], bank_key[KW-1:0]);
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
wire [B-1:0] bank_empty_next;
wire [B-1:0] bank_hit_next;
wire [B-1:0] bank_hit_scanned;
generate
    for (gb = 0; gb < B; gb = gb + 1) begin : bank_or
        assign bank_empty_next[gb] = ~|valid_next[gb*S +: S];
        assign bank_hit_next[gb] = |mv_next[gb*S +: S];
        assign bank_hit_scanned[gb] = |(mv[gb*S +: S] & valid[gb*S +: S]);
    end
endgenerate
{lowest_empty}{spare_next_enc}// An open bank left empty is closed, so the next insert restarts the lowest empty bank
// at its first slot (an emptied CAM fills as after reset).
wire [B-1:0] open_next = (ins & ~room) ? spare_oh : open_oh;
wire room_next = (ins ? (room ? ~ptr_oh[S-1] : (S != 1)) : room) & ~|(open_next & bank_empty_next);

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
        full_q <= ~room_next & ~|bank_empty_next;
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
        spare_next_enc = encode_one_hot("spare_next_idx", "spare_next", b, bw),
        bw_msb = bw - 1,
        hit_src = crate::fields::in_word(&format!("rdata[0 +: {sw}]"), 0, sw),
        hit_tag = crate::fields::in_word(&format!("rdata[{sw} +: {tw}]"), 0, tw),
        hit_handle = crate::fields::in_word(&format!("rdata[{} +: {hw}]", sw + tw), 0, hw),
    )
}

/// The module the CAM's per-bank key copies are made of ([`with_key_copy_module`]).
pub const KEY_COPY_MODULE: &str = "tagmatch_key_copy";

/// `verilog` (a design holding the CAM) with the definition of [`KEY_COPY_MODULE`]
/// appended: a register with a load enable, kept as a module of its own through
/// synthesis (`keep_hierarchy`), since yosys merges registers that share their input and
/// enable, which would undo the copies.
pub fn with_key_copy_module(mut verilog: String) -> String {
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

/// The CAM's top-level ports as (name, width, is input), in declaration order.
pub const CAM_PORTS: [(&str, u32, bool); 27] = [
    ("clock", 1, true),
    ("reset", 1, true),
    ("search", 1, true),
    ("key_load", 1, true),
    ("search_mode", 2, true),
    ("key_comm", FIELD_BITS as u32, true),
    ("key_src", FIELD_BITS as u32, true),
    ("key_tag", FIELD_BITS as u32, true),
    ("key_src_any", 1, true),
    ("key_tag_any", 1, true),
    ("key_handle", FIELD_BITS as u32, true),
    ("answered", 1, false),
    ("hit", 1, false),
    ("hit_handle", FIELD_BITS as u32, false),
    ("hit_src", FIELD_BITS as u32, false),
    ("hit_tag", FIELD_BITS as u32, false),
    ("frees", 1, false),
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
    pub key_load: Signal<In, Bit>,
    pub search_mode: Signal<In, Bits<2>>,
    pub key_comm: Signal<In, Bits<FIELD_BITS>>,
    pub key_src: Signal<In, Bits<FIELD_BITS>>,
    pub key_tag: Signal<In, Bits<FIELD_BITS>>,
    pub key_src_any: Signal<In, Bit>,
    pub key_tag_any: Signal<In, Bit>,
    pub key_handle: Signal<In, Bits<FIELD_BITS>>,
    pub answered: Signal<Out, Bit>,
    pub hit: Signal<Out, Bit>,
    pub hit_handle: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_src: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_tag: Signal<Out, Bits<FIELD_BITS>>,
    pub frees: Signal<Out, Bit>,
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
            key_load: Default::default(),
            search_mode: Default::default(),
            key_comm: Default::default(),
            key_src: Default::default(),
            key_tag: Default::default(),
            key_src_any: Default::default(),
            key_tag_any: Default::default(),
            key_handle: Default::default(),
            answered: Default::default(),
            hit: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            frees: Default::default(),
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
        self.cam.key_load.next = self.key_load.val();
        self.cam.search_mode.next = self.search_mode.val();
        self.cam.key_comm.next = self.key_comm.val();
        self.cam.key_src.next = self.key_src.val();
        self.cam.key_tag.next = self.key_tag.val();
        self.cam.key_src_any.next = self.key_src_any.val();
        self.cam.key_tag_any.next = self.key_tag_any.val();
        self.cam.key_handle.next = self.key_handle.val();
        self.answered.next = self.cam.answered.val();
        self.frees.next = self.cam.frees.val();
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
    with_key_copy_module(generate_verilog(&uut))
}
