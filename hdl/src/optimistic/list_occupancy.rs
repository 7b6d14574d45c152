//! Which index classes hold a receive: a flag per list (set when a post appends to it,
//! cleared when an unlink removes its only entry or a flush clears the tables), and per
//! class the OR of its lists' flags, registered. A block's first walks read only the lists
//! of occupied classes ([`crate::optimistic::walk_order`]): nothing is posted during a
//! block, so a class without a receive has none to find, and each list skipped saves a
//! lane a cycle. Programs that post no wildcard receives (most of them) walk one list,
//! not four.
//!
//! The per-class flags are registered from the lists' next values, so they show a write
//! in the cycle after it, as the head table does: a block's lanes choose their first list
//! in the cycle after the block is accepted, when every earlier command's writes are in.
//! They are read only at the start of a walk and while walking; the unlinks of a block
//! happen after every lane has walked, so they never change under a first walk.
//!
//! Cost: a flip-flop per list (`3B + 1`) and a decoder per bank of its unlink's list (each
//! list is written by its own bank's unlink unit only), and four OR trees of `B` inputs.
//! Per-list flags read by each lane (skipping an empty list of an occupied class) would
//! need a `3B + 1`-way select per lane and class; per class, four bits reach every lane.

use crate::optimistic::vectors::{bank_indexes, dffs, k, signals};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ListOccupancy {
    pub clock: Signal<In, Clock>,
    /// A post appends to list `insert_list`.
    pub insert: Signal<In, Bit>,
    pub insert_list: Signal<In, Bits<16>>,
    /// A flush's clearing pass: every list is empty.
    pub clearing: Signal<In, Bit>,
    /// Per bank: its unlink unit removes an entry of `unlink_list`, which had neighbours
    /// or not (with neither, the list is empty after it).
    pub unlink_writing: Vec<Signal<In, Bit>>,
    pub unlink_list: Vec<Signal<In, Bits<16>>>,
    pub unlink_has_prev: Vec<Signal<In, Bit>>,
    pub unlink_has_next: Vec<Signal<In, Bit>>,
    /// Bit `c`: class `c` (exact, `ANY_SOURCE`, `ANY_TAG`, both wildcards) has a list with
    /// a receive. Registered.
    pub occupied: Signal<Out, Bits<4>>,
    /// Per list: it holds a receive.
    held: Vec<DFF<Bit>>,
    held_next: Vec<Signal<Local, Bit>>,
    /// Per bank: its unlink empties a list this cycle.
    emptying: Vec<Signal<Local, Bit>>,
    /// Per class: one of its lists holds a receive after this cycle.
    class_next: Vec<Signal<Local, Bit>>,
    class_bits: Signal<Local, Bits<4>>,
    classes: DFF<Bits<4>>,
    list_number: Vec<Constant<Bits<16>>>,
    /// Per list: its bank; per bank, its index.
    list_bank: Vec<Constant<Bits<16>>>,
    bank_index: Vec<Constant<Bits<16>>>,
    class_bit: Vec<Constant<Bits<4>>>,
    zero4: Constant<Bits<4>>,
    _banks: usize,
    _lists: usize,
    /// The first list of the `ANY_SOURCE` and `ANY_TAG` indexes; the both-wildcards list.
    _any_src: usize,
    _any_tag: usize,
    _both: usize,
}

impl ListOccupancy {
    /// The `3 * bins + 1` lists of indexes of `bins` bins (lists `c B .. (c + 1) B` of
    /// class `c`, the both-wildcards list `3B`), unlinked by `banks` units (list `l` by
    /// unit `l mod banks`).
    pub fn new(bins: usize, banks: usize) -> Self {
        assert!(
            bins.is_power_of_two() && banks.is_power_of_two() && banks <= bins,
            "{bins} bins, {banks} banks"
        );
        let lists = 3 * bins + 1;
        ListOccupancy {
            clock: Default::default(),
            insert: Default::default(),
            insert_list: Default::default(),
            clearing: Default::default(),
            unlink_writing: signals(banks),
            unlink_list: signals(banks),
            unlink_has_prev: signals(banks),
            unlink_has_next: signals(banks),
            occupied: Default::default(),
            held: dffs(lists),
            held_next: signals(lists),
            emptying: signals(banks),
            class_next: signals(4),
            class_bits: Default::default(),
            classes: Default::default(),
            list_number: (0..lists).map(|l| k(l as u64)).collect(),
            list_bank: (0..lists).map(|l| k((l % banks) as u64)).collect(),
            bank_index: bank_indexes(banks),
            class_bit: (0..4).map(|c| k(1 << c)).collect(),
            zero4: k(0),
            _banks: banks,
            _lists: lists,
            _any_src: bins,
            _any_tag: 2 * bins,
            _both: 3 * bins,
        }
    }
}

impl Logic for ListOccupancy {
    #[hdl_gen]
    fn update(&mut self) {
        for b in 0..self._banks {
            self.emptying[b].next = self.unlink_writing[b].val()
                & !self.unlink_has_prev[b].val()
                & !self.unlink_has_next[b].val();
        }
        for l in 0..self._lists {
            self.held[l].clock.next = self.clock.val();
            self.held_next[l].next = self.held[l].q.val();
            if self.insert.val() & (self.insert_list.val() == self.list_number[l].val()) {
                self.held_next[l].next = true;
            }
            // Only list `l`'s own bank unlinks it: the constant test leaves that one.
            for b in 0..self._banks {
                if self.emptying[b].val()
                    & (self.list_bank[l].val() == self.bank_index[b].val())
                    & (self.unlink_list[b].val() == self.list_number[l].val())
                {
                    self.held_next[l].next = false;
                }
            }
            if self.clearing.val() {
                self.held_next[l].next = false;
            }
            self.held[l].d.next = self.held_next[l].val();
        }
        for c in 0..4 {
            self.class_next[c].next = false;
        }
        for l in 0..self._any_src {
            self.class_next[0].next = self.class_next[0].val() | self.held_next[l].val();
        }
        for l in self._any_src..self._any_tag {
            self.class_next[1].next = self.class_next[1].val() | self.held_next[l].val();
        }
        for l in self._any_tag..self._both {
            self.class_next[2].next = self.class_next[2].val() | self.held_next[l].val();
        }
        for l in self._both..self._lists {
            self.class_next[3].next = self.held_next[l].val();
        }
        self.classes.clock.next = self.clock.val();
        self.class_bits.next = self.zero4.val();
        for c in 0..4 {
            if self.class_next[c].val() {
                self.class_bits.next = self.class_bits.val() | self.class_bit[c].val();
            }
        }
        self.classes.d.next = self.class_bits.val();
        self.occupied.next = self.classes.q.val();
    }
}
