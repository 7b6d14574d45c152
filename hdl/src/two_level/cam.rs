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
//!   AND-OR trees across slots: over 400 LUT4s per entry, and 256 entries did not place.
//!   Banks take a fifth of that (the `cam` records give today's figures). Most of a slot's
//!   LUT4s are its comparator: a 64-entry CAM synthesized with the comparators cut out
//!   keeps under a third of its LUT4s (yosys `synth_ecp5 -nowidelut`), so the floor of
//!   this design is the comparator, about 56 LUT4s for 66 bits with wildcards where 45
//!   would be a perfect LUT4 packing. On the ECP5 the comparator is therefore built from
//!   carry cells ([`super::cam_match`]: two bit pairs per LUT4, the AND in the chain, 38
//!   LUT4s a slot), a form proven equal to the plain one every simulator runs; a CAM in
//!   distributed RAM (the TCAM literature) would go further still, at up to 16 cycles an
//!   insert.
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
//! insert registers them in its group's buffer (one register per key copy), and the next edge
//! writes the slot from there. For the one cycle in between, a search uses for that slot a
//! match bit computed at the insert's edge (the new entry against the key the next search
//! uses), a register. Nothing outside can tell (the valid bit, the RAM word and the
//! allocation change at the insert's edge, as before), and the Rust model below writes the
//! slot at once. Why: the refill bus comes from the lists' RAM through the data mover,
//! and without the buffer the write bus fanned out to every slot's flip-flops; on the
//! default engine this bus was the most congested route. Cost: a word per key copy and `D + 1` flip-flops
//! (256 slots: about 2,400 flip-flops). A first version compared the buffered entry in the search's
//! cycle, from one central copy fanned out to every slot: that comparator and its fanout
//! became the CAM's critical path (70.5 MHz alone, against 91.1 before the buffer).
//!
//! # Two insert buses
//! An insert writes the engine's entry (`in`) or, with `refilling`, the data mover's
//! (`refill`, a list head moving up). Only the engine's is compared at its insert (the
//! `new_hit` and `pend_hit` registers below), because nothing searches in a refill's edge or
//! the edge after it: the queue's mover waits for the lists' counters then. So the
//! mover's bus, which the queue picks from the lists' answer by its state, ends at the
//! write buffers and the RAM, not at a comparator. With one muxed bus, the default
//! engine's critical path ran from the queue's state through that mux and across the
//! device into the comparator in front of `pend_hit` (51.6 MHz; 10.6 of its 19.4 ns were
//! one wire of the bus). The Rust model below writes what the RTL writes and compares what
//! it compares; a search the contract rules out panics in it.
//!
//! # The key
//! A search compares the key loaded at an earlier edge (`key_load`), not the key ports of
//! its own cycle: the engine loads it with the command, at least one cycle before the
//! search. So every group of up to eight slots of a bank ([`super::cam_rtl::KEY_COPY_SLOTS`])
//! keeps its own copy of the key, loaded in the same edge as the others, and the key bus
//! ends at `D / 8 + 1` registers (`B + 1` where banks are smaller) instead of every slot's
//! comparator (on the default engine, the command's tag and source fanned out to 512
//! comparators and were the most congested routes once the write buffer was in; with one
//! copy a bank of 16 and carry-chain comparators, the copies were). The write buffer is
//! split the same way. The copies are instances
//! of a module synthesis keeps whole ([`with_cam_modules`]); plain registers with the
//! same input and enable would be merged back into one.
//!
//! # Timing (cycle `S` is the one `search` is high in)
//! - `S`: every stored slot (less one removed in this edge) is compared with the key; the
//!   match vector and each bank's OR are registered. An entry inserted in this edge is
//!   compared by one comparator on the engine's bus `in` (a refill never shares a search's
//!   edge) into a register of its own (`new_hit`): it is younger than every stored entry,
//!   so it is the answer only when none of them matches. So a search may share its edge
//!   with an insert and a removal and sees the slots after them.
//!   The match vector loads under `search` itself, though the engine's issue decision
//!   behind it (which reads both queues) then enables every slot's bit, and that is the
//!   default engine's critical path. Two enables that settle earlier in the cycle were
//!   tried and reverted, because the default engine no longer routed (router2 did not
//!   converge, congested in the CAMs, at every seed tried; the timing history has the
//!   runs): loading at every edge outside a handle scan (176a81b), and loading while a
//!   search of that queue waits in the engine's command register (464a94c). So the
//!   queues register the decision's inputs instead, from this CAM's `full_next` and
//!   `frees_next` among others (`queue.rs`, "Why `quick` is registered").
//! - `S + 1`: the oldest bank with a hit and its lowest hit slot are chosen (else the
//!   entry inserted at `S`, if it matched) and registered: the slot number, its one-hot,
//!   `hit`, and `frees` (removing it empties its bank, or the CAM is not full: so the
//!   queue knows whether its removal lets the mover refill). Keeping the inserted entry
//!   out of the match vector took the insert bus and its comparators (one per bank
//!   before) out of the CAM's deepest logic: on the default engine that path ran from the
//!   lists' answer through the data mover and the comparator into every bank's OR.
//! - `S + 2`: `answered` is high; `hit_*` are the RAM's word at the chosen slot.
//! - `S + 2` or later, `remove_next` announces the answer's removal: the slot's valid bit
//!   clears at the edge after the next (once: it clears the answer then).
//!
//! # Removal
//! The removal is registered: `remove_next` in one cycle, the slot leaves at the end of
//! the next, and a search in that next cycle (the queue's Hold) already sees it gone.
//! Each bank keeps its own copy of the registered removal, set only when the answer is
//! in that bank, and masks its slots' valid bits with it. Before, the engine's decision
//! (`remove`, ANDed with `answered` and `hit`) arrived in the removal's own cycle and
//! fanned out to every slot in front of the next search's bank ORs: on the default
//! engine (256 slots) that was the critical path, nearly all of it routing. The engine
//! decides with the answer anyway (`answered` is a register), so announcing it a cycle
//! ahead costs no cycle. An announcement counts only while the answer is out and no
//! search or removal clears it (not in the choice's cycle, when the chosen slot is about
//! to change).
//!
//! A search by handle (a cancel) has no comparator per slot: it scans the RAM's handles,
//! one slot a cycle (read, registered, compared: the block RAM's output reaches no
//! comparator directly), into the match vector, masks it with the valid bits, then
//! chooses as above, so it answers `D + 3` cycles later than an envelope search
//! ([`handle_search_cycles`]). No search, insert or removal may come during a scan (the
//! queue waits for the answer). An insert while `full` is ignored (the queue checks
//! `full` first), even in the edge of a removal. `reset` empties the CAM and clears the
//! answer; nothing depends on initial values or on the RAM's contents (a slot's RAM word
//! is read only while its valid bit is set).
//!
//! The body is a `Verilog::Custom` block, written in [`super::cam_rtl`] (rust-hdl's
//! generator would unroll the priority search into a chain of nested ifs); `update` here is
//! the same behaviour, register by register, for rust-hdl's simulator.

use crate::ports::EntryPorts;
use rust_hdl::prelude::*;

pub use crate::fields::INDEX_BITS;
use crate::fields::{FieldWidths, FIELD_BITS};
use crate::two_level::cam_rtl::cam_body;
pub use crate::two_level::cam_rtl::{with_cam_modules, KEY_COPY_MODULE};

/// Search modes, shared with the level-2 lists.
pub use crate::two_level::bram_list::{MODE_ANY, MODE_ENVELOPE, MODE_HANDLE};

/// CAM depths the block builds: two slots at least (two banks), and the entry count
/// (`count`) is `INDEX_BITS` wide.
pub const CAM_DEPTHS: std::ops::RangeInclusive<usize> = 2..=4096;

pub use tagmatch_config::cam_banks::{bank_size, banks};

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
    /// The answer leaves at this edge (announced at the last one by `remove_next`).
    rm: bool,
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
    /// The last edge inserted a refill: no search may come in this one.
    refilled: bool,
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
    pub key: EntryPorts,
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
    /// Deletes the last search's answer (while `answered`) at the edge after this cycle's:
    /// the removal is registered (module docs, "Removal").
    pub remove_next: Signal<In, Bit>,
    /// Appends an entry, younger than every stored one (ignored while `full`): `in`, or
    /// with `refilling` `refill`, which no search may share the edge of or follow at the
    /// next edge (module docs).
    pub insert: Signal<In, Bit>,
    pub r#in: EntryPorts,
    pub refilling: Signal<In, Bit>,
    pub refill: EntryPorts,
    /// Stored entries (an up/down counter).
    pub count: Signal<Out, Bits<INDEX_BITS>>,
    /// An insert would be ignored: the open bank is used up and no bank is empty.
    pub full: Signal<Out, Bit>,
    /// `full` and `frees` after this edge: what the queue registers its issue decision
    /// from.
    pub full_next: Signal<Out, Bit>,
    pub frees_next: Signal<Out, Bit>,
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
            key: Default::default(),
            answered: Default::default(),
            hit: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            frees: Default::default(),
            remove_next: Default::default(),
            insert: Default::default(),
            r#in: Default::default(),
            refilling: Default::default(),
            refill: Default::default(),
            count: Default::default(),
            full: Default::default(),
            full_next: Default::default(),
            frees_next: Default::default(),
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
        (r.sel_go, r.answered, r.hit, r.rm, r.frees, r.sel) = (false, false, false, false, false, 0);
        (r.open, r.ptr, r.exhausted, r.full, r.used) = (0, 0, true, false, 0);
        (r.scanning, r.scan_cnt, r.scan_live, r.scan_at, r.scan_end) = (false, 0, false, 0, false);
        (r.scan_live2, r.scan_at2, r.refilled) = (false, 0, false);
    }

    /// Loads the key from the ports (after the edge's other registers: a search in the
    /// same edge compares the key loaded before it).
    fn load_key(&mut self) {
        let w = self._widths;
        let k = self.key_on(&self.key);
        let (mode, handle) = (self.search_mode.val().index() as u64, self.key_of(&self.key.handle, w.handle));
        (self._r.k, self._r.k_mode, self._r.k_handle) = (k, mode, handle);
    }

    /// The compared fields on an entry bus, at the generated widths.
    fn key_on(&self, bus: &EntryPorts) -> Key {
        let w = self._widths;
        Key {
            comm: self.key_of(&bus.comm, w.comm),
            src: self.key_of(&bus.src, w.src),
            tag: self.key_of(&bus.tag, w.tag),
            src_any: bus.src_any.val(),
            tag_any: bus.tag_any.val(),
        }
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
        let r = &self._r;
        if self.search.val() {
            let ins = self.insert.val() && !r.full;
            assert!(
                !(r.refilled || (ins && self.refilling.val())),
                "a search in or right after a refill's edge"
            );
            // The queue waits for the answer (module docs).
            assert!(
                !(r.scanning || r.scan_live || r.scan_live2 || r.scan_end),
                "a search during a handle scan"
            );
        }
        self._r = self.next_regs();
    }

    /// The registers after the next edge (without reset), from the registers and inputs
    /// now.
    fn next_regs(&self) -> Regs {
        let (d, s) = (self._depth, bank_size(self._depth));
        let b = d / s;
        let w = self._widths;
        let r = &self._r;
        let ins = self.insert.val() && !r.full;
        let rm = r.rm;
        // The slot an insert writes (none can while the CAM is full).
        let target = match (r.exhausted, r.spare) {
            (true, Some(spare)) => spare * s,
            (true, None) => 0,
            (false, _) => r.open * s + r.ptr,
        };
        let refilling = self.refilling.val();
        let bus = if refilling { &self.refill } else { &self.r#in };
        let new_key = self.key_on(bus);
        // The engine's entry, which the RTL compares at an insert (module docs).
        let engine_key = self.key_on(&self.r#in);
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
                src: self.key_of(&bus.src, w.src),
                tag: self.key_of(&bus.tag, w.tag),
                handle: self.key_of(&bus.handle, w.handle),
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
                n.new_hit = ins && self.matches(&engine_key);
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
        n.refilled = ins && refilling;
        n.used = r.used + ins as usize - rm as usize;
        n.rm = self.remove_next.val() && r.answered && r.hit && !self.search.val() && !rm;
        n
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
        let (full_next, frees_next) = if self.reset.val() {
            (false, false)
        } else {
            let n = self.next_regs();
            (n.full, n.frees)
        };
        self.full_next.next = full_next;
        self.frees_next.next = frees_next;
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
        self.full_next.connect();
        self.frees_next.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(cam_body(self._depth, self._widths))
    }
}

/// The CAM's top-level ports as (name, width, is input), in declaration order.
pub const CAM_PORTS: [(&str, u32, bool); 29] = [
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
    ("remove_next", 1, true),
    ("insert", 1, true),
    ("in_comm", FIELD_BITS as u32, true),
    ("in_src", FIELD_BITS as u32, true),
    ("in_tag", FIELD_BITS as u32, true),
    ("in_src_any", 1, true),
    ("in_tag_any", 1, true),
    ("in_handle", FIELD_BITS as u32, true),
    ("count", INDEX_BITS as u32, false),
    ("full", 1, false),
    ("full_next", 1, false),
    ("frees_next", 1, false),
];

/// A standalone CAM wrapped as top module `top`.
#[derive(LogicBlock)]
pub struct CamTop {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub search: Signal<In, Bit>,
    pub key_load: Signal<In, Bit>,
    pub search_mode: Signal<In, Bits<2>>,
    pub key: EntryPorts,
    pub answered: Signal<Out, Bit>,
    pub hit: Signal<Out, Bit>,
    pub hit_handle: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_src: Signal<Out, Bits<FIELD_BITS>>,
    pub hit_tag: Signal<Out, Bits<FIELD_BITS>>,
    pub frees: Signal<Out, Bit>,
    pub remove_next: Signal<In, Bit>,
    pub insert: Signal<In, Bit>,
    pub r#in: EntryPorts,
    pub count: Signal<Out, Bits<INDEX_BITS>>,
    pub full: Signal<Out, Bit>,
    pub full_next: Signal<Out, Bit>,
    pub frees_next: Signal<Out, Bit>,
    cam: Cam,
    /// The CAM alone has no data mover: its refill bus is unused.
    no_refill: Constant<Bits<FIELD_BITS>>,
}

impl CamTop {
    pub fn new(depth: usize, widths: FieldWidths) -> Self {
        CamTop {
            clock: Default::default(),
            reset: Default::default(),
            search: Default::default(),
            key_load: Default::default(),
            search_mode: Default::default(),
            key: Default::default(),
            answered: Default::default(),
            hit: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            frees: Default::default(),
            remove_next: Default::default(),
            insert: Default::default(),
            r#in: Default::default(),
            count: Default::default(),
            full: Default::default(),
            full_next: Default::default(),
            frees_next: Default::default(),
            cam: Cam::new(depth, widths),
            no_refill: Constant::new(0.into()),
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
        self.cam.key.comm.next = self.key.comm.val();
        self.cam.key.src.next = self.key.src.val();
        self.cam.key.tag.next = self.key.tag.val();
        self.cam.key.src_any.next = self.key.src_any.val();
        self.cam.key.tag_any.next = self.key.tag_any.val();
        self.cam.key.handle.next = self.key.handle.val();
        self.answered.next = self.cam.answered.val();
        self.frees.next = self.cam.frees.val();
        self.hit.next = self.cam.hit.val();
        self.hit_handle.next = self.cam.hit_handle.val();
        self.hit_src.next = self.cam.hit_src.val();
        self.hit_tag.next = self.cam.hit_tag.val();
        self.cam.remove_next.next = self.remove_next.val();
        self.cam.insert.next = self.insert.val();
        self.cam.r#in.comm.next = self.r#in.comm.val();
        self.cam.r#in.src.next = self.r#in.src.val();
        self.cam.r#in.tag.next = self.r#in.tag.val();
        self.cam.r#in.src_any.next = self.r#in.src_any.val();
        self.cam.r#in.tag_any.next = self.r#in.tag_any.val();
        self.cam.r#in.handle.next = self.r#in.handle.val();
        self.cam.refilling.next = false;
        self.cam.refill.comm.next = self.no_refill.val();
        self.cam.refill.src.next = self.no_refill.val();
        self.cam.refill.tag.next = self.no_refill.val();
        self.cam.refill.src_any.next = false;
        self.cam.refill.tag_any.next = false;
        self.cam.refill.handle.next = self.no_refill.val();
        self.count.next = self.cam.count.val();
        self.full.next = self.cam.full.val();
        self.full_next.next = self.cam.full_next.val();
        self.frees_next.next = self.cam.frees_next.val();
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
    with_cam_modules(crate::ports::flatten_bundle_names(&generate_verilog(&uut)))
}
