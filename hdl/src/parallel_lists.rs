//! `N` level-2 lists searched at once, inserts spread across them, and the oldest
//! candidate wins (Xiong, Skjellum and Herbordt's n parallel lists, made MPI-correct).
//!
//! Every entry carries its posting label. A search starts in all lists in the same cycle;
//! each list stops at its own oldest match, so the search takes as long as the longest
//! walk, about `1/N` of one list's. The winner among the lists that found something is
//! the one with the smallest label — the oldest in the queue — chosen by a comparator
//! chain over the lists' registered results; `remove` then deletes it from that list only.
//! A result can be removed until the next insert or removal (`found` drops then).
//! (The chain is `N` comparators deep; a tree would shorten the path for `N = 64`.)
//!
//! Inserts go round-robin: to the list after the previous insert's, or, if that one is
//! full, to the lowest-numbered list with room; `full` means every list is full. Labels
//! are compared as plain 32-bit numbers: the engine must not let them wrap while entries
//! are queued (4 billion postings).

use crate::bram_list::BramList;
use array_init::array_init;
use rust_hdl::prelude::*;

/// Width of the list-number signals (up to 256 lists).
pub const LIST_BITS: usize = 8;

#[derive(LogicBlock)]
pub struct ParallelLists<const A: usize, const N: usize> {
    pub clock: Signal<In, Clock>,
    pub busy: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    /// Entries in all lists together.
    pub count: Signal<Out, Bits<16>>,
    pub insert: Signal<In, Bit>,
    pub in_comm: Signal<In, Bits<16>>,
    pub in_src: Signal<In, Bits<16>>,
    pub in_tag: Signal<In, Bits<32>>,
    pub in_src_any: Signal<In, Bit>,
    pub in_tag_any: Signal<In, Bit>,
    pub in_handle: Signal<In, Bits<32>>,
    pub in_label: Signal<In, Bits<32>>,
    pub search: Signal<In, Bit>,
    pub search_mode: Signal<In, Bits<2>>,
    pub key_comm: Signal<In, Bits<16>>,
    pub key_src: Signal<In, Bits<16>>,
    pub key_tag: Signal<In, Bits<32>>,
    pub key_src_any: Signal<In, Bit>,
    pub key_tag_any: Signal<In, Bit>,
    pub key_handle: Signal<In, Bits<32>>,
    pub found: Signal<Out, Bit>,
    pub found_list: Signal<Out, Bits<LIST_BITS>>,
    pub found_handle: Signal<Out, Bits<32>>,
    pub found_label: Signal<Out, Bits<32>>,
    pub found_src: Signal<Out, Bits<16>>,
    pub found_tag: Signal<Out, Bits<32>>,
    pub found_comm: Signal<Out, Bits<16>>,
    pub found_src_any: Signal<Out, Bit>,
    pub found_tag_any: Signal<Out, Bit>,
    /// Elements compared by the longest walk of the last search.
    pub steps: Signal<Out, Bits<16>>,
    pub remove: Signal<In, Bit>,
    lists: [BramList<A>; N],
    list_index: [Constant<Bits<LIST_BITS>>; N],
    last_list: Constant<Bits<LIST_BITS>>,
    one: Constant<Bits<LIST_BITS>>,
    zero_list: Constant<Bits<LIST_BITS>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    rr: DFF<Bits<LIST_BITS>>,
    /// A search result may be removed until the next insert or removal.
    armed: DFF<Bit>,
    target: Signal<Local, Bits<LIST_BITS>>,
    spare: Signal<Local, Bit>,
    any_busy: Signal<Local, Bit>,
    best: Signal<Local, Bit>,
    best_label: Signal<Local, Bits<32>>,
}

impl<const A: usize, const N: usize> Default for ParallelLists<A, N> {
    fn default() -> Self {
        assert!(N.is_power_of_two() && N <= 64, "lists must be a power of two up to 64, not {N}");
        ParallelLists {
            clock: Default::default(),
            busy: Default::default(),
            full: Default::default(),
            count: Default::default(),
            insert: Default::default(),
            in_comm: Default::default(),
            in_src: Default::default(),
            in_tag: Default::default(),
            in_src_any: Default::default(),
            in_tag_any: Default::default(),
            in_handle: Default::default(),
            in_label: Default::default(),
            search: Default::default(),
            search_mode: Default::default(),
            key_comm: Default::default(),
            key_src: Default::default(),
            key_tag: Default::default(),
            key_src_any: Default::default(),
            key_tag_any: Default::default(),
            key_handle: Default::default(),
            found: Default::default(),
            found_list: Default::default(),
            found_handle: Default::default(),
            found_label: Default::default(),
            found_src: Default::default(),
            found_tag: Default::default(),
            found_comm: Default::default(),
            found_src_any: Default::default(),
            found_tag_any: Default::default(),
            steps: Default::default(),
            remove: Default::default(),
            lists: array_init(|_| Default::default()),
            list_index: array_init(|i| Constant::new((i as u64).to_bits())),
            last_list: Constant::new(((N - 1) as u64).to_bits()),
            one: Constant::new(1u64.to_bits()),
            zero_list: Constant::new(0u64.to_bits()),
            zero16: Constant::new(0u64.to_bits()),
            zero32: Constant::new(0u64.to_bits()),
            rr: Default::default(),
            armed: Default::default(),
            target: Default::default(),
            spare: Default::default(),
            any_busy: Default::default(),
            best: Default::default(),
            best_label: Default::default(),
        }
    }
}

impl<const A: usize, const N: usize> Logic for ParallelLists<A, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rr, armed);
        // Where an insert goes: the round-robin list, else the lowest list with room.
        self.target.next = self.rr.q.val();
        self.spare.next = false;
        for i in 0..N {
            if !self.spare.val() & !self.lists[i].full.val() {
                self.spare.next = true;
                self.target.next = self.list_index[i].val();
            }
        }
        for i in 0..N {
            if (self.list_index[i].val() == self.rr.q.val()) & !self.lists[i].full.val() {
                self.target.next = self.rr.q.val();
            }
        }
        self.full.next = !self.spare.val();

        self.any_busy.next = false;
        self.count.next = self.zero16.val();
        for i in 0..N {
            self.count.next = self.count.val() + self.lists[i].count.val();
            self.lists[i].clock.next = self.clock.val();
            self.lists[i].insert.next = self.insert.val() & (self.list_index[i].val() == self.target.val());
            self.lists[i].in_comm.next = self.in_comm.val();
            self.lists[i].in_src.next = self.in_src.val();
            self.lists[i].in_tag.next = self.in_tag.val();
            self.lists[i].in_src_any.next = self.in_src_any.val();
            self.lists[i].in_tag_any.next = self.in_tag_any.val();
            self.lists[i].in_handle.next = self.in_handle.val();
            self.lists[i].in_label.next = self.in_label.val();
            // Every list takes part in every search.
            self.lists[i].search.next = self.search.val();
            self.lists[i].search_mode.next = self.search_mode.val();
            self.lists[i].key_comm.next = self.key_comm.val();
            self.lists[i].key_src.next = self.key_src.val();
            self.lists[i].key_tag.next = self.key_tag.val();
            self.lists[i].key_src_any.next = self.key_src_any.val();
            self.lists[i].key_tag_any.next = self.key_tag_any.val();
            self.lists[i].key_handle.next = self.key_handle.val();
            self.any_busy.next = self.any_busy.val() | self.lists[i].busy.val();
        }
        if self.insert.val() & self.spare.val() {
            if self.target.val() == self.last_list.val() {
                self.rr.d.next = self.zero_list.val();
            } else {
                self.rr.d.next = self.target.val() + self.one.val();
            }
        }
        self.busy.next = self.any_busy.val();
        if self.search.val() {
            self.armed.d.next = true;
        }
        if self.insert.val() | self.remove.val() {
            self.armed.d.next = false;
        }

        // The oldest candidate: the smallest label among the lists that found one.
        self.best.next = false;
        self.best_label.next = self.zero32.val();
        self.found_list.next = self.zero_list.val();
        self.found_handle.next = self.zero32.val();
        self.found_src.next = self.zero16.val();
        self.found_tag.next = self.zero32.val();
        self.found_comm.next = self.zero16.val();
        self.found_src_any.next = false;
        self.found_tag_any.next = false;
        self.steps.next = self.zero16.val();
        for i in 0..N {
            if self.lists[i].found.val()
                & (!self.best.val() | (self.lists[i].found_label.val() < self.best_label.val()))
            {
                self.best.next = true;
                self.best_label.next = self.lists[i].found_label.val();
                self.found_list.next = self.list_index[i].val();
                self.found_handle.next = self.lists[i].found_handle.val();
                self.found_src.next = self.lists[i].found_src.val();
                self.found_tag.next = self.lists[i].found_tag.val();
                self.found_comm.next = self.lists[i].found_comm.val();
                self.found_src_any.next = self.lists[i].found_src_any.val();
                self.found_tag_any.next = self.lists[i].found_tag_any.val();
            }
            if self.lists[i].steps.val() > self.steps.val() {
                self.steps.next = self.lists[i].steps.val();
            }
        }
        self.found.next = self.best.val() & self.armed.q.val();
        self.found_label.next = self.best_label.val();
        for i in 0..N {
            self.lists[i].remove.next = self.remove.val()
                & self.best.val()
                & self.armed.q.val()
                & (self.found_list.val() == self.list_index[i].val());
        }
    }
}

/// A standalone set of parallel lists' Verilog, top module `top`.
pub fn parallel_lists_verilog<const A: usize, const N: usize>() -> String {
    let mut uut = ParallelLists::<A, N>::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// Ports of [`ParallelLists`] as (name, width, is input).
pub fn parallel_lists_ports() -> Vec<(&'static str, u32, bool)> {
    // The same ports as one list, plus the winning list's number.
    let mut p = crate::bram_list::bram_list_ports();
    p.push(("found_list", LIST_BITS as u32, false));
    p
}
