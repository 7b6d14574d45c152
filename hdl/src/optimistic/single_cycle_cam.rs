//! The single-cycle CAM the optimistic thread array keeps its unexpected messages in: it
//! answers a search in the same cycle and always returns the OLDEST matching entry. (The
//! receive engine uses the pipelined [`crate::two_level::cam`]; the thread array moves to it with its
//! own clock-speed work.)
//!
//! How age is kept: by position. The CAM is a collapsing FIFO — entry 0 is the oldest,
//! new entries go in at slot `count`, and removing slot `k` shifts every younger slot
//! down by one in the same clock edge. "Oldest hit" is therefore "lowest-numbered hit",
//! a plain priority encoder, with no age counters or comparators across entries. The
//! cost is a 2:1 mux in front of every slot register (keep or take the next slot), which
//! is cheaper than the label comparator tree an age-tagged CAM needs for the same answer.
//! The data mover relies on this too: an entry refilled from the lists goes in at the
//! tail, younger than everything already in the CAM.
//!
//! Wildcards work both ways: an entry may be stored with `ANY_SOURCE`/`ANY_TAG` flags (a
//! posted receive) and a search may carry them (a receive searching unexpected messages).
//! The communicator always has to match. A search can also be by handle (cancel) or for
//! any entry, as in the level-2 lists.
//!
//! A *block insert* (`block_valid`, `block_end` = `count + k`) appends `k` entries at
//! once, the thread array's unmatched messages of one block: entry `j` of them is on
//! `block_*[(count + j) mod M]` (`M`, the block width, a power of two at least the block
//! size), so slot `count + j` takes the block port its own index names, a fixed wire, with
//! no mux over the block. The caller gives the count after the insert, computed a cycle
//! ahead, not `k`: each slot then compares its own index with two registers, and no adder
//! sits in front of those compares (with one, the 1-lane array's routed critical path was
//! that add and compare in series). The search is a prefix-OR tree over the per-slot hits,
//! `log2 depth` levels rather than a chain, and the hit slot's fields are an AND-OR by the
//! one-hot first hit ([`crate::primitives::select`]). `remove_first` removes that hit with the prefix
//! itself as the shift's condition (a slot at or above the first hit takes its younger
//! neighbour), so neither the fields nor the removal wait for the hit's index to be
//! encoded and compared.
//!
//! Ports: `insert_*` appends an entry at the next edge; `search_*` is combinational and
//! drives `hit`, `hit_index` and the hit entry's fields in the same cycle (a cycle later
//! when built [`SingleCycleCam::with_registered_search`]); `remove_valid`
//! with `remove_index` deletes one entry at the next edge (`remove_first`: the search's
//! hit, whatever `remove_index` says). Insert and remove may happen in
//! the same cycle (the insert lands after the shift). Inserting into a full CAM without a
//! remove is ignored; the engine checks `full` first.

use crate::primitives::select::{AnySet, LowestSet, OneHotSelect};
use rust_hdl::prelude::*;

/// Width of the CAM's index and count ports (so any depth up to 65,535 entries).
pub const INDEX_BITS: usize = 16;
pub const COMM_BITS: usize = 16;
pub const SRC_BITS: usize = 16;
pub const TAG_BITS: usize = 32;
pub const HANDLE_BITS: usize = 32;

#[derive(LogicBlock)]
pub struct SingleCycleCam {
    pub clock: Signal<In, Clock>,
    pub insert_valid: Signal<In, Bit>,
    pub insert_comm: Signal<In, Bits<COMM_BITS>>,
    pub insert_src: Signal<In, Bits<SRC_BITS>>,
    pub insert_tag: Signal<In, Bits<TAG_BITS>>,
    pub insert_src_any: Signal<In, Bit>,
    pub insert_tag_any: Signal<In, Bit>,
    pub insert_handle: Signal<In, Bits<HANDLE_BITS>>,
    pub search_comm: Signal<In, Bits<COMM_BITS>>,
    pub search_src: Signal<In, Bits<SRC_BITS>>,
    pub search_tag: Signal<In, Bits<TAG_BITS>>,
    pub search_src_any: Signal<In, Bit>,
    pub search_tag_any: Signal<In, Bit>,
    /// 0: by envelope, 1: by handle (`search_handle`), 2: any entry (see `bram_list`).
    pub search_mode: Signal<In, Bits<2>>,
    pub search_handle: Signal<In, Bits<HANDLE_BITS>>,
    pub hit: Signal<Out, Bit>,
    pub hit_index: Signal<Out, Bits<INDEX_BITS>>,
    pub hit_handle: Signal<Out, Bits<HANDLE_BITS>>,
    pub hit_src: Signal<Out, Bits<SRC_BITS>>,
    pub hit_tag: Signal<Out, Bits<TAG_BITS>>,
    pub remove_valid: Signal<In, Bit>,
    pub remove_index: Signal<In, Bits<INDEX_BITS>>,
    /// Removes the search's first hit (if any) at the next edge.
    pub remove_first: Signal<In, Bit>,
    /// Empties the CAM at the next edge (a flush); overrides insert and remove.
    pub clear: Signal<In, Bit>,
    pub count: Signal<Out, Bits<INDEX_BITS>>,
    pub full: Signal<Out, Bit>,
    /// A block insert up to `block_end` entries in all (module docs); not with
    /// `insert_valid`.
    pub block_valid: Signal<In, Bit>,
    pub block_end: Signal<In, Bits<INDEX_BITS>>,
    pub block_comm: Vec<Signal<In, Bits<COMM_BITS>>>,
    pub block_src: Vec<Signal<In, Bits<SRC_BITS>>>,
    pub block_tag: Vec<Signal<In, Bits<TAG_BITS>>>,
    pub block_handle: Vec<Signal<In, Bits<HANDLE_BITS>>>,
    slot_index: Vec<Constant<Bits<INDEX_BITS>>>,
    depth: Constant<Bits<INDEX_BITS>>,
    // Typed constants: a bare literal would come out 32 bits wide in the Verilog.
    one: Constant<Bits<INDEX_BITS>>,
    zero_index: Constant<Bits<INDEX_BITS>>,
    mode_envelope: Constant<Bits<2>>,
    mode_handle: Constant<Bits<2>>,
    mode_any: Constant<Bits<2>>,
    insert_at: Signal<Local, Bits<INDEX_BITS>>,
    /// Per slot: it holds an entry the search matches.
    matches: Vec<Signal<Local, Bit>>,
    /// The matches, registered: what a registered search of up to
    /// [`FIRST_HIT_REGISTERED_ABOVE`] entries answers from (any other CAM has none).
    matches_q: Vec<DFF<Bit>>,
    /// A deeper registered search's answer: the priority select's outputs over this
    /// cycle's matches, registered (the one-hot first hit, what the fields are selected
    /// by; the prefix OR, the removal's shift; the hit's pointer), so each cycle crosses
    /// the CAM once. Empty in any other CAM.
    first_q: Vec<DFF<Bit>>,
    reached_q: Vec<DFF<Bit>>,
    pointer_q: Vec<DFF<Bits<16>>>,
    /// Built with a registered search (a constant, so synthesis keeps one of the two).
    registered_search: Constant<Bit>,
    /// A registered search's `hit` and the condition of its `remove_first`: the OR of the
    /// matches (a tree), registered beside them, so the caller's enables and the removal's
    /// shift start from a flip-flop (through the OR of `matches_q`, the thread array's
    /// response enables were its 2- and 4-lane critical path, then the removal's shift).
    any_match: AnySet,
    hit_q: DFF<Bit>,
    first_hit: LowestSet,
    hit_handle_sel: OneHotSelect<HANDLE_BITS>,
    hit_src_sel: OneHotSelect<SRC_BITS>,
    hit_tag_sel: OneHotSelect<TAG_BITS>,
    /// An entry leaves this cycle; per slot but the last, it is at or above the one that
    /// leaves (and takes its younger neighbour).
    removing: Signal<Local, Bit>,
    shifts: Vec<Signal<Local, Bit>>,
    used: DFF<Bits<INDEX_BITS>>,
    comm: Vec<DFF<Bits<COMM_BITS>>>,
    src: Vec<DFF<Bits<SRC_BITS>>>,
    tag: Vec<DFF<Bits<TAG_BITS>>>,
    src_any: Vec<DFF<Bit>>,
    tag_any: Vec<DFF<Bit>>,
    handle: Vec<DFF<Bits<HANDLE_BITS>>>,
    _depth: usize,
    /// 1 when the registers are `matches_q`, else 0: a loop over `0..1` or `0..0` emits
    /// its statements or nothing, so a CAM's Verilog names only the registers it has (an
    /// `if` on a `Constant` would emit both sets in every CAM, and the raw-match CAMs'
    /// Verilog, with its timing records, would change for registers synthesis drops).
    _raw_matches: usize,
    /// 1 when the registers are `first_q`, `reached_q` and `pointer_q`, else 0.
    _first_registered: usize,
    _block: usize,
    /// `_block + 1`: a loop over `_block.._block_once` names the width as a loop variable.
    _block_once: usize,
}

/// A registered search of more entries than this registers the priority select's outputs
/// (the first hit, its prefix, its pointer), fewer or as many its raw matches. Why, from
/// the thread array's timing runs: with 64 entries the raw matches put the prefix OR and
/// the field select, two trees across the CAM, in one cycle, and that was the critical
/// path; with 16 the prefix is two LUT levels, and registering the select's outputs
/// instead put the compares and the prefix in one cycle, which timed worse.
pub const FIRST_HIT_REGISTERED_ABOVE: usize = 16;

/// Depths the single-cycle CAM takes (its index ports are `INDEX_BITS` wide).
pub const SINGLE_CYCLE_CAM_DEPTHS: std::ops::RangeInclusive<usize> = 2..=65_535;

impl SingleCycleCam {
    /// A CAM of `depth` entries whose block inserts take up to `block` entries (rounded up
    /// to a power of two); both are generation parameters.
    pub fn new(depth: usize, block: usize) -> Self {
        SingleCycleCam::build(depth, block, false)
    }

    fn build(depth: usize, block: usize, registered: bool) -> Self {
        assert!(SINGLE_CYCLE_CAM_DEPTHS.contains(&depth), "CAM depth {depth} out of range");
        let d = depth;
        let m = block.max(1).next_power_of_two();
        let first_registered = registered && d > FIRST_HIT_REGISTERED_ABOVE;
        let (raw, first) = if first_registered { (0, d) } else { (d, 0) };
        SingleCycleCam {
            clock: Default::default(),
            insert_valid: Default::default(),
            insert_comm: Default::default(),
            insert_src: Default::default(),
            insert_tag: Default::default(),
            insert_src_any: Default::default(),
            insert_tag_any: Default::default(),
            insert_handle: Default::default(),
            search_comm: Default::default(),
            search_src: Default::default(),
            search_tag: Default::default(),
            search_src_any: Default::default(),
            search_tag_any: Default::default(),
            search_mode: Default::default(),
            search_handle: Default::default(),
            hit: Default::default(),
            hit_index: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            remove_valid: Default::default(),
            remove_index: Default::default(),
            remove_first: Default::default(),
            clear: Default::default(),
            count: Default::default(),
            full: Default::default(),
            block_valid: Default::default(),
            block_end: Default::default(),
            block_comm: ports(m),
            block_src: ports(m),
            block_tag: ports(m),
            block_handle: ports(m),
            slot_index: (0..d).map(|i| Constant::new((i as u64).to_bits())).collect(),
            depth: Constant::new((d as u64).to_bits()),
            one: Constant::new(1u64.to_bits()),
            zero_index: Constant::new(0u64.to_bits()),
            mode_envelope: Constant::new(crate::two_level::bram_list::MODE_ENVELOPE.to_bits()),
            mode_handle: Constant::new(crate::two_level::bram_list::MODE_HANDLE.to_bits()),
            mode_any: Constant::new(crate::two_level::bram_list::MODE_ANY.to_bits()),
            insert_at: Default::default(),
            matches: (0..d).map(|_| Default::default()).collect(),
            matches_q: regs(raw),
            first_q: regs(first),
            reached_q: regs(first.saturating_sub(1)),
            pointer_q: regs(first.min(1)),
            registered_search: Constant::new(registered),
            any_match: AnySet::new(d),
            hit_q: Default::default(),
            first_hit: LowestSet::new(d),
            hit_handle_sel: OneHotSelect::new(d, 1),
            hit_src_sel: OneHotSelect::new(d, 1),
            hit_tag_sel: OneHotSelect::new(d, 1),
            removing: Default::default(),
            shifts: (1..d).map(|_| Default::default()).collect(),
            used: Default::default(),
            comm: regs(d),
            src: regs(d),
            tag: regs(d),
            src_any: regs(d),
            tag_any: regs(d),
            handle: regs(d),
            _depth: d,
            _raw_matches: usize::from(!first_registered),
            _first_registered: usize::from(first_registered),
            _block: m,
            _block_once: m + 1,
        }
    }

    /// The same CAM with a registered search: `hit`, the hit's fields and `remove_first`
    /// answer the query presented in the cycle before, over the entries as they were
    /// then. The caller must not insert, remove or clear between the query and its use.
    /// The compares and the field select are then in different cycles (the thread array
    /// presents the command's envelope in the cycle that accepts it, when its UMQ is
    /// idle); the priority select is in the second up to [`FIRST_HIT_REGISTERED_ABOVE`]
    /// entries (the matches and their OR registered), in the first above (the first hit,
    /// its prefix and its pointer registered, so each cycle crosses the CAM once).
    pub fn with_registered_search(depth: usize, block: usize) -> Self {
        SingleCycleCam::build(depth, block, true)
    }
}

fn ports<T: Synth>(count: usize) -> Vec<Signal<In, T>> {
    (0..count).map(|_| Default::default()).collect()
}

fn regs<T: Synth>(count: usize) -> Vec<DFF<T>> {
    (0..count).map(|_| Default::default()).collect()
}

impl Logic for SingleCycleCam {
    #[hdl_gen]
    fn update(&mut self) {
        self.used.clock.next = self.clock.val();
        for i in 0..self._depth {
            self.comm[i].clock.next = self.clock.val();
            self.src[i].clock.next = self.clock.val();
            self.tag[i].clock.next = self.clock.val();
            self.src_any[i].clock.next = self.clock.val();
            self.tag_any[i].clock.next = self.clock.val();
            self.handle[i].clock.next = self.clock.val();
            self.comm[i].d.next = self.comm[i].q.val();
            self.src[i].d.next = self.src[i].q.val();
            self.tag[i].d.next = self.tag[i].q.val();
            self.src_any[i].d.next = self.src_any[i].q.val();
            self.tag_any[i].d.next = self.tag_any[i].q.val();
            self.handle[i].d.next = self.handle[i].q.val();
        }
        self.count.next = self.used.q.val();
        self.full.next = self.used.q.val() == self.depth.val();

        // Search: every slot compares at once; the oldest (lowest) hit wins.
        for i in 0..self._depth {
            self.matches[i].next = (self.slot_index[i].val() < self.used.q.val())
                & ((self.search_mode.val() == self.mode_any.val())
                    | ((self.search_mode.val() == self.mode_handle.val())
                        & (self.handle[i].q.val() == self.search_handle.val()))
                    | ((self.search_mode.val() == self.mode_envelope.val())
                        & (self.comm[i].q.val() == self.search_comm.val())
                        & ((self.src[i].q.val() == self.search_src.val())
                            | self.src_any[i].q.val()
                            | self.search_src_any.val())
                        & ((self.tag[i].q.val() == self.search_tag.val())
                            | self.tag_any[i].q.val()
                            | self.search_tag_any.val())));
            for _raw in 0..self._raw_matches {
                self.matches_q[i].clock.next = self.clock.val();
                self.matches_q[i].d.next = self.matches[i].val();
            }
            self.any_match.bits[i].next = self.matches[i].val();
            self.first_hit.bits[i].next = self.matches[i].val();
            for _raw in 0..self._raw_matches {
                if self.registered_search.val() {
                    self.first_hit.bits[i].next = self.matches_q[i].q.val();
                }
            }
            self.hit_handle_sel.entries[i].next = self.handle[i].q.val();
            self.hit_src_sel.entries[i].next = self.src[i].q.val();
            self.hit_tag_sel.entries[i].next = self.tag[i].q.val();
            self.hit_handle_sel.selects[i].next = self.first_hit.first[i].val();
            self.hit_src_sel.selects[i].next = self.first_hit.first[i].val();
            self.hit_tag_sel.selects[i].next = self.first_hit.first[i].val();
            for _first in 0..self._first_registered {
                self.first_q[i].clock.next = self.clock.val();
                self.first_q[i].d.next = self.first_hit.first[i].val();
                self.hit_handle_sel.selects[i].next = self.first_q[i].q.val();
                self.hit_src_sel.selects[i].next = self.first_q[i].q.val();
                self.hit_tag_sel.selects[i].next = self.first_q[i].q.val();
            }
        }
        for _first in 0..self._first_registered {
            for i in 1..self._depth {
                self.reached_q[i - 1].clock.next = self.clock.val();
                self.reached_q[i - 1].d.next = self.first_hit.reached[i - 1].val();
            }
            self.pointer_q[0].clock.next = self.clock.val();
            self.pointer_q[0].d.next = self.first_hit.pointer.val();
        }
        self.hit_q.clock.next = self.clock.val();
        self.hit_q.d.next = self.any_match.any.val();
        // With a registered search `hit_q` is `first_hit.found`, a register earlier.
        self.hit.next = self.first_hit.found.val();
        if self.registered_search.val() {
            self.hit.next = self.hit_q.q.val();
        }
        self.hit_index.next = self.zero_index.val();
        if self.first_hit.found.val() {
            self.hit_index.next = self.first_hit.pointer.val() - self.one.val();
        }
        for _first in 0..self._first_registered {
            self.hit_index.next = self.zero_index.val();
            if self.hit_q.q.val() {
                self.hit_index.next = self.pointer_q[0].q.val() - self.one.val();
            }
        }
        self.hit_handle.next = self.hit_handle_sel.values[0].val();
        self.hit_src.next = self.hit_src_sel.values[0].val();
        self.hit_tag.next = self.hit_tag_sel.values[0].val();

        // Remove: every slot at or above the removed one takes its younger neighbour.
        self.removing.next = self.remove_valid.val() & (self.remove_index.val() < self.used.q.val());
        for i in 1..self._depth {
            self.shifts[i - 1].next = self.slot_index[i - 1].val() >= self.remove_index.val();
        }
        if self.remove_first.val() {
            self.removing.next = self.first_hit.found.val();
            if self.registered_search.val() {
                self.removing.next = self.hit_q.q.val();
            }
            for i in 1..self._depth {
                self.shifts[i - 1].next = self.first_hit.reached[i - 1].val();
            }
            for _first in 0..self._first_registered {
                for i in 1..self._depth {
                    self.shifts[i - 1].next = self.reached_q[i - 1].q.val();
                }
            }
        }
        self.insert_at.next = self.used.q.val();
        self.used.d.next = self.used.q.val();
        if self.removing.val() {
            self.insert_at.next = self.used.q.val() - self.one.val();
            self.used.d.next = self.used.q.val() - self.one.val();
            for i in 1..self._depth {
                if self.shifts[i - 1].val() {
                    self.comm[i - 1].d.next = self.comm[i].q.val();
                    self.src[i - 1].d.next = self.src[i].q.val();
                    self.tag[i - 1].d.next = self.tag[i].q.val();
                    self.src_any[i - 1].d.next = self.src_any[i].q.val();
                    self.tag_any[i - 1].d.next = self.tag_any[i].q.val();
                    self.handle[i - 1].d.next = self.handle[i].q.val();
                }
            }
        }
        // Insert at the tail, after any shift.
        if self.insert_valid.val() & (self.insert_at.val() < self.depth.val()) {
            self.used.d.next = self.insert_at.val() + self.one.val();
            for i in 0..self._depth {
                if self.slot_index[i].val() == self.insert_at.val() {
                    self.comm[i].d.next = self.insert_comm.val();
                    self.src[i].d.next = self.insert_src.val();
                    self.tag[i].d.next = self.insert_tag.val();
                    self.src_any[i].d.next = self.insert_src_any.val();
                    self.tag_any[i].d.next = self.insert_tag_any.val();
                    self.handle[i].d.next = self.insert_handle.val();
                }
            }
        }
        // A block insert: slot `used + j` takes block port `(used + j) mod M`, its own
        // index's low bits.
        if self.block_valid.val() {
            self.used.d.next = self.block_end.val();
            // `m` is the block width: rust-hdl evaluates an index from loop variables only.
            for m in self._block..self._block_once {
                for i in 0..self._depth {
                    if (self.slot_index[i].val() >= self.used.q.val())
                        & (self.slot_index[i].val() < self.block_end.val())
                    {
                        self.comm[i].d.next = self.block_comm[i % m].val();
                        self.src[i].d.next = self.block_src[i % m].val();
                        self.tag[i].d.next = self.block_tag[i % m].val();
                        self.src_any[i].d.next = false;
                        self.tag_any[i].d.next = false;
                        self.handle[i].d.next = self.block_handle[i % m].val();
                    }
                }
            }
        }
        if self.clear.val() {
            self.used.d.next = self.zero_index.val();
        }
    }
}

/// The CAM's top-level ports as (name, width, is input), in declaration order.
pub const CAM_PORTS: [(&str, u32, bool); 26] = [
    ("clock", 1, true),
    ("insert_valid", 1, true),
    ("insert_comm", COMM_BITS as u32, true),
    ("insert_src", SRC_BITS as u32, true),
    ("insert_tag", TAG_BITS as u32, true),
    ("insert_src_any", 1, true),
    ("insert_tag_any", 1, true),
    ("insert_handle", HANDLE_BITS as u32, true),
    ("search_comm", COMM_BITS as u32, true),
    ("search_src", SRC_BITS as u32, true),
    ("search_tag", TAG_BITS as u32, true),
    ("search_src_any", 1, true),
    ("search_tag_any", 1, true),
    ("search_mode", 2, true),
    ("search_handle", HANDLE_BITS as u32, true),
    ("hit", 1, false),
    ("hit_index", INDEX_BITS as u32, false),
    ("hit_handle", HANDLE_BITS as u32, false),
    ("hit_src", SRC_BITS as u32, false),
    ("hit_tag", TAG_BITS as u32, false),
    ("remove_valid", 1, true),
    ("remove_index", INDEX_BITS as u32, true),
    ("remove_first", 1, true),
    ("clear", 1, true),
    ("count", INDEX_BITS as u32, false),
    ("full", 1, false),
];

/// The CAM's Verilog, top module `top`, with block inserts of up to 4 entries on the ports
/// `block_<field>_<j>`.
pub fn single_cycle_cam_verilog(depth: usize) -> String {
    let mut uut = SingleCycleCam::new(depth, 4);
    uut.connect_all();
    // rust-hdl names array elements `name$i`, which Verilator's C++ cannot name.
    generate_verilog(&uut).replace('$', "_")
}
