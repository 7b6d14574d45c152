//! The fast path's run: which descriptor is lane `i`'s receive `k + i`, where `k` is lane
//! 0's candidate, for every lane at once.
//!
//! Every descriptor compares its label with each lane's target `k + i`, and the result is
//! registered: lane 0's candidate is final once it has booked, so the run is ready a
//! cycle later (at the full barrier unless lane 0 walked longest), and the compares are
//! not in series with the array's decision and its takes. Within `k`'s sequence a label
//! is `k + i` when its low bits are (the thread array's module docs, sequence ids), so a
//! descriptor compares its sequence id with `k`'s once and only the low label bits
//! (`run_mask`) per lane.
//!
//! Registered per lane: its receive of the run as a pointer (a one-hot of the descriptors,
//! encoded by an OR tree), and whether it has one or no message (so the decision ANDs a
//! flop per lane, not an OR over the descriptors); per descriptor, whether it is in the run.
//!
//! `k` itself follows lane 0's walk (the lead lane; it never walks again): when the entry
//! its compare stage holds becomes its candidate, `k`'s sequence id is taken from a RAM
//! copy of the ids read by lane 0's pointer (written with every post; read late, the word
//! only goes through the candidate's mux), and each lane's next target is that entry's
//! label plus `i`. So the run compares a register with every descriptor, not a `D`-way
//! read by pointer.
//!
//! The sequence compare itself is registered too: per descriptor, a flop holds "its id is
//! `k`'s", kept true to the table by computing it from the next values (a new candidate
//! compares every id with the RAM word it takes, a post compares its id with the old or
//! new candidate's). The run's per-lane OR then starts from a flop, not from a 32-bit
//! compare behind `k`'s register (once the 16-lane array's critical path); a descriptor
//! that is not valid may hold a stale flag, and `valid` masks it.

use crate::optimistic::descriptor_copy::field_copy;
use crate::optimistic::vectors::{dffs, k, low_bits, signals};
use crate::primitives::select::OneHotPointers;
use crate::primitives::table_ram::TableRam;
use crate::primitives::trees::bits_to_hold;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct FastRun {
    pub clock: Signal<In, Clock>,
    /// Per descriptor: valid, its sequence id and its label's low 16 bits.
    pub valid: Vec<Signal<In, Bit>>,
    pub seq: Vec<Signal<In, Bits<32>>>,
    pub label_low: Vec<Signal<In, Bits<16>>>,
    /// A posted receive: its descriptor pointer and sequence id (the ids' RAM copy).
    pub posting: Signal<In, Bit>,
    pub post_slot: Signal<In, Bits<16>>,
    pub post_seq: Signal<In, Bits<32>>,
    /// Lane 0's walk: its read pointer; its compare stage's entry matches, the best so far
    /// (0: none), their labels; its first walk is under way.
    pub lead_read_pointer: Signal<In, Bits<16>>,
    pub lead_hit: Signal<In, Bit>,
    pub lead_best: Signal<In, Bits<16>>,
    pub lead_entry_label: Signal<In, Bits<32>>,
    pub lead_best_label: Signal<In, Bits<32>>,
    pub lead_first_walk: Signal<In, Bit>,
    /// Per lane: its target `k + i`, low bits (`run_mask`), as the lane holds it.
    pub target_low: Vec<Signal<In, Bits<16>>>,
    /// Per lane: its target as lane 0's walk leaves it (the lane loads it while lane 0
    /// walks first).
    pub next_target: Vec<Signal<Out, Bits<16>>>,
    /// Per lane: it has a message in the block.
    pub lane_valid: Vec<Signal<In, Bit>>,
    /// Per lane: its receive of the run, as a pointer (0: none). Registered.
    pub lane_slot: Vec<Signal<Out, Bits<16>>>,
    /// Per descriptor: it is in the run. Registered.
    pub in_run: Vec<Signal<Out, Bit>>,
    /// Every lane with a message has its receive in the run. Registered.
    pub complete: Signal<Out, Bit>,
    run_mask: Constant<Bits<16>>,
    lane_index16: Vec<Constant<Bits<16>>>,
    zero16: Constant<Bits<16>>,
    /// Sequence ids by descriptor, lane 0's read port only.
    seq_copy: TableRam<32>,
    /// Lane 0's candidate's sequence id.
    cand_seq: DFF<Bits<32>>,
    w_new_seq: Signal<Local, Bits<32>>,
    /// Lane 0's entry's label plus `i`, low bits.
    w_new_run: Vec<Signal<Local, Bits<16>>>,
    /// Per descriptor: valid, with the candidate's sequence id.
    s_run_seq: Vec<Signal<Local, Bit>>,
    /// Per descriptor: its sequence id is the candidate's (module docs).
    r_same_seq: Vec<DFF<Bit>>,
    /// Lane 0's entry becomes the candidate this cycle: `k`'s id is the RAM word.
    w_take_new: Signal<Local, Bit>,
    /// A post's id is the candidate's, as `k` is after this cycle.
    w_post_same: Signal<Local, Bit>,
    slot1: Vec<Constant<Bits<16>>>,
    /// Per lane × descriptor: the descriptor is lane `i`'s receive of the run.
    s_run_lane: Vec<Signal<Local, Bit>>,
    s_in_run: Vec<Signal<Local, Bit>>,
    /// Per lane: it has a receive in the run (an OR over the descriptors).
    s_lane_in_run: Vec<Signal<Local, Bit>>,
    r_run: Vec<DFF<Bit>>,
    r_in_run: Vec<DFF<Bit>>,
    r_lane_run_ok: Vec<DFF<Bit>>,
    run_slot: OneHotPointers,
    _lanes: usize,
    _descriptors: usize,
    /// `descriptors + 1`: rust-hdl evaluates an index from loop variables only, so
    /// `r_run[i * descriptors + s]` is written inside `for descriptors in ..`.
    _descriptors_once: usize,
}

impl FastRun {
    /// The run of `lanes` lanes over `descriptors` descriptors.
    pub fn new(lanes: usize, descriptors: usize) -> Self {
        assert!(lanes > 0 && descriptors > 0, "{lanes} lanes, {descriptors} descriptors");
        let (n, d) = (lanes, descriptors);
        FastRun {
            clock: Default::default(),
            valid: signals(d),
            seq: signals(d),
            label_low: signals(d),
            posting: Default::default(),
            post_slot: Default::default(),
            post_seq: Default::default(),
            lead_read_pointer: Default::default(),
            lead_hit: Default::default(),
            lead_best: Default::default(),
            lead_entry_label: Default::default(),
            lead_best_label: Default::default(),
            lead_first_walk: Default::default(),
            target_low: signals(n),
            next_target: signals(n),
            lane_valid: signals(n),
            lane_slot: signals(n),
            in_run: signals(d),
            complete: Default::default(),
            run_mask: k(Self::run_mask(n, d)),
            lane_index16: (0..n).map(|i| k(i as u64)).collect(),
            zero16: k(0),
            seq_copy: field_copy(d),
            cand_seq: Default::default(),
            w_new_seq: Default::default(),
            w_new_run: signals(n),
            s_run_seq: signals(d),
            r_same_seq: dffs(d),
            w_take_new: Default::default(),
            w_post_same: Default::default(),
            slot1: (1..=d).map(|p| k(p as u64)).collect(),
            s_run_lane: signals(n * d),
            s_in_run: signals(d),
            s_lane_in_run: signals(n),
            r_run: dffs(n * d),
            r_in_run: dffs(d),
            r_lane_run_ok: dffs(n),
            run_slot: OneHotPointers::new(n, d),
            _lanes: n,
            _descriptors: d,
            _descriptors_once: d + 1,
        }
    }

    /// The low label bits the run compares (`k + i` within a sequence).
    pub fn run_mask(lanes: usize, descriptors: usize) -> u64 {
        low_bits(bits_to_hold(descriptors.max(lanes) - 1))
    }
}

impl Logic for FastRun {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cand_seq);
        self.seq_copy.clock.next = self.clock.val();
        self.seq_copy.write_enable.next = self.posting.val();
        self.seq_copy.write_address.next = self.post_slot.val();
        self.seq_copy.write_data.next = self.post_seq.val();
        self.seq_copy.read_address.next = self.lead_read_pointer.val();
        self.w_new_seq.next = self.cand_seq.q.val();
        self.w_take_new.next = false;
        for i in 0..self._lanes {
            self.w_new_run[i].next = (self.lead_entry_label.val().get_bits::<16>(0)
                + self.lane_index16[i].val())
                & self.run_mask.val();
            self.next_target[i].next = self.target_low[i].val();
        }
        // The same condition as the candidate select of lane 0's compare stage
        // ([`crate::optimistic::lane::Lane`]), written out from its outputs: a shared signal
        // for it once timed worse (ABC9 mapped the same logic differently).
        if self.lead_hit.val()
            & ((self.lead_best.val() == self.zero16.val())
                | (self.lead_entry_label.val() < self.lead_best_label.val()))
        {
            self.w_new_seq.next = self.seq_copy.read_data.val();
            self.w_take_new.next = self.lead_first_walk.val();
            for i in 0..self._lanes {
                self.next_target[i].next = self.w_new_run[i].val();
            }
        }
        if self.lead_first_walk.val() {
            self.cand_seq.d.next = self.w_new_seq.val();
        }
        // Both compares run beside the candidate's decision; the decision only selects.
        self.w_post_same.next = self.post_seq.val() == self.cand_seq.q.val();
        if self.w_take_new.val() {
            self.w_post_same.next = self.post_seq.val() == self.seq_copy.read_data.val();
        }
        for s in 0..self._descriptors {
            self.r_same_seq[s].clock.next = self.clock.val();
            self.r_same_seq[s].d.next = self.r_same_seq[s].q.val();
            if self.w_take_new.val() {
                self.r_same_seq[s].d.next = self.seq[s].val() == self.seq_copy.read_data.val();
            }
            if self.posting.val() & (self.post_slot.val() == self.slot1[s].val()) {
                self.r_same_seq[s].d.next = self.w_post_same.val();
            }
            self.s_run_seq[s].next = self.valid[s].val() & self.r_same_seq[s].q.val();
            self.s_in_run[s].next = false;
        }
        for descriptors in self._descriptors..self._descriptors_once {
            for i in 0..self._lanes {
                self.s_lane_in_run[i].next = false;
                for s in 0..self._descriptors {
                    // Lanes past the block's count have no receive in the run.
                    self.s_run_lane[i * descriptors + s].next = self.s_run_seq[s].val()
                        & self.lane_valid[i].val()
                        & ((self.label_low[s].val() & self.run_mask.val()) == self.target_low[i].val());
                    if self.s_run_lane[i * descriptors + s].val() {
                        self.s_in_run[s].next = true;
                        self.s_lane_in_run[i].next = true;
                    }
                    self.r_run[i * descriptors + s].clock.next = self.clock.val();
                    self.r_run[i * descriptors + s].d.next = self.s_run_lane[i * descriptors + s].val();
                    self.run_slot.bits[i * descriptors + s].next = self.r_run[i * descriptors + s].q.val();
                }
            }
        }
        for s in 0..self._descriptors {
            self.r_in_run[s].clock.next = self.clock.val();
            self.r_in_run[s].d.next = self.s_in_run[s].val();
            self.in_run[s].next = self.r_in_run[s].q.val();
        }
        self.complete.next = true;
        for i in 0..self._lanes {
            self.r_lane_run_ok[i].clock.next = self.clock.val();
            self.r_lane_run_ok[i].d.next = self.s_lane_in_run[i].val() | !self.lane_valid[i].val();
            if !self.r_lane_run_ok[i].q.val() {
                self.complete.next = false;
            }
            self.lane_slot[i].next = self.run_slot.pointers[i].val();
        }
    }
}
