//! The receive descriptors' registers: what changes during a block (valid and taken flags,
//! `next`/`prev` links and whether each exists) and what every slot needs at once (the
//! label and sequence id for the fast path's run, the list for the unlink's bank).
//! Registers, not RAM, because any lane may take any slot in the same cycle and the tail
//! unlinks several receives at once. The fields a walk reads and never changes are also in
//! each lane's [`crate::optimistic::descriptor_copy`].
//!
//! Writes, later ones winning within a cycle:
//! - **takes:** a lane's slot is marked taken a cycle after its take, from registers (the
//!   next reader is a slow lane's walk, which starts at least a cycle after the take, or
//!   the block's end); the fast path's run is marked whole a cycle after it is taken, from
//!   a register of the take and one of each slot's membership (so the take, an OR over the
//!   lanes' decisions, ends at one flip-flop instead of fanning out to every slot's flag);
//! - **a post** (`insert`): the new receive at `insert_slot`, appended after `insert_tail`
//!   (0: the list was empty), whose `next` it becomes;
//! - **a cancel's removal** (`remove`) and **a flush** (`clear`) free slots;
//! - **the unlink units:** the slot before a leaving receive is the one whose `next` holds
//!   the unit's `front`, the slot after it the one whose `prev` holds its `back` (compares
//!   of registers, instead of decoding the unit's pointers behind its forwarding); the new
//!   links come from the unit of the slot's bank. A slot that left earlier (a slow lane's,
//!   still valid until the block ends) or a free one may hold a stale link that matches
//!   too; writing its own link is harmless, since no list reaches it and posting rewrites
//!   both. Links are masked to the pointer's bits: the loop link → unlink record → link is
//!   where synthesis would otherwise keep all 16 bits of every pointer register;
//! - **the block's end** (`free_taken`): taken receives are freed a cycle later, from a
//!   register of the finish (the finish waits on the UMQ placement and the unlinks, and
//!   fanned out from there to every slot's valid and taken flag: the 16-lane array's
//!   critical path). Nothing reads the flags in that cycle: the block's answer shows
//!   then, and the next command is accepted a cycle later at the earliest. Marks landing
//!   in that cycle are freed with the rest.
//!
//! Reads by pointer, one port per lane, each a mux tree over the slots
//! ([`crate::primitives::select`]): a walk's entry (valid, taken, `next` and whether it
//! exists, so the end of a list is a flop behind the mux, not a compare after it) at the
//! lane's read pointer, and the neighbours of the receive the lane took (its links and
//! whether they exist) at its slot, read while the unlink's banks arbitrate.

use crate::optimistic::vectors::{bank_indexes, dffs, k, pointer_mask, signals};
use crate::primitives::select::Select;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct DescriptorTable {
    pub clock: Signal<In, Clock>,
    /// Per lane: it took its receive last cycle, and the receive's slot pointer.
    pub lane_took: Vec<Signal<In, Bit>>,
    pub lane_slot: Vec<Signal<In, Bits<16>>>,
    /// The fast path's run is taken: its members (`in_run`, per slot) are marked, a cycle
    /// later from registers (module docs).
    pub run_taken: Signal<In, Bit>,
    pub in_run: Vec<Signal<In, Bit>>,
    /// A post: the receive's slot pointer, label, sequence id and list, and its list's
    /// tail before it.
    pub insert: Signal<In, Bit>,
    pub insert_slot: Signal<In, Bits<16>>,
    pub insert_label: Signal<In, Bits<32>>,
    pub insert_seq: Signal<In, Bits<32>>,
    pub insert_list: Signal<In, Bits<16>>,
    pub insert_tail: Signal<In, Bits<16>>,
    /// A cancelled receive's slot is freed.
    pub remove: Signal<In, Bit>,
    pub remove_slot: Signal<In, Bits<16>>,
    /// Every slot is freed (a flush).
    pub clear: Signal<In, Bit>,
    /// Per bank: the unlink unit's second stage ([`crate::optimistic::unlink`]).
    pub unlink_writing: Vec<Signal<In, Bit>>,
    pub unlink_front: Vec<Signal<In, Bits<16>>>,
    pub unlink_back: Vec<Signal<In, Bits<16>>>,
    pub unlink_prev: Vec<Signal<In, Bits<16>>>,
    pub unlink_next: Vec<Signal<In, Bits<16>>>,
    pub unlink_has_prev: Vec<Signal<In, Bit>>,
    pub unlink_has_next: Vec<Signal<In, Bit>>,
    /// The block ends: taken receives are freed, a cycle later (module docs).
    pub free_taken: Signal<In, Bit>,
    /// Per lane: the slot its walk reads (a pointer, 0: none), and that entry's flags and
    /// link.
    pub walk_pointer: Vec<Signal<In, Bits<16>>>,
    pub walk_valid: Vec<Signal<Out, Bit>>,
    pub walk_taken: Vec<Signal<Out, Bit>>,
    pub walk_next: Vec<Signal<Out, Bits<16>>>,
    pub walk_more: Vec<Signal<Out, Bit>>,
    /// Per lane: the links of the receive at its `lane_slot`, and whether they exist.
    pub prev_of: Vec<Signal<Out, Bits<16>>>,
    pub next_of: Vec<Signal<Out, Bits<16>>>,
    pub has_prev_of: Vec<Signal<Out, Bit>>,
    pub has_next_of: Vec<Signal<Out, Bit>>,
    /// Per slot: the registers.
    pub valid: Vec<Signal<Out, Bit>>,
    pub taken: Vec<Signal<Out, Bit>>,
    pub label: Vec<Signal<Out, Bits<32>>>,
    pub seq: Vec<Signal<Out, Bits<32>>>,
    pub list: Vec<Signal<Out, Bits<16>>>,
    pub next: Vec<Signal<Out, Bits<16>>>,
    pub prev: Vec<Signal<Out, Bits<16>>>,
    pub has_next: Vec<Signal<Out, Bit>>,
    pub has_prev: Vec<Signal<Out, Bit>>,
    slot1: Vec<Constant<Bits<16>>>,
    bank_mask: Constant<Bits<16>>,
    bank_index: Vec<Constant<Bits<16>>>,
    /// The bits a pointer (slot + 1) needs.
    pointer_mask: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    d_valid: Vec<DFF<Bit>>,
    d_label: Vec<DFF<Bits<32>>>,
    d_seq: Vec<DFF<Bits<32>>>,
    d_list: Vec<DFF<Bits<16>>>,
    d_next: Vec<DFF<Bits<16>>>,
    d_prev: Vec<DFF<Bits<16>>>,
    d_taken: Vec<DFF<Bit>>,
    /// The slot has a successor (`next` is not 0), and a predecessor: written with the
    /// links, from the flags that travel with them (a post knows its neighbours, the
    /// unlink's record carries them), so every read of "end of list" is a flop behind its
    /// mux, not a compare of the link with 0 in front of it.
    d_has_next: Vec<DFF<Bit>>,
    d_has_prev: Vec<DFF<Bit>>,
    /// With the fast path only (empty without, so that array has no such registers): the
    /// run was taken last cycle, and each slot's membership of it then.
    r_run_taken: Vec<DFF<Bit>>,
    r_in_run: Vec<DFF<Bit>>,
    /// The block ended last cycle.
    r_free_taken: DFF<Bit>,
    /// Per slot: taken this cycle; it links to a receive leaving this cycle (`before`:
    /// its `next` does; `after`: its `prev` does), and the new links from its bank's unit.
    s_take: Vec<Signal<Local, Bit>>,
    s_before: Vec<Signal<Local, Bit>>,
    s_after: Vec<Signal<Local, Bit>>,
    s_new_next: Vec<Signal<Local, Bits<16>>>,
    s_new_prev: Vec<Signal<Local, Bits<16>>>,
    s_new_has_next: Vec<Signal<Local, Bit>>,
    s_new_has_prev: Vec<Signal<Local, Bit>>,
    rd_valid: Select<1>,
    rd_taken: Select<1>,
    rd_next: Select<16>,
    rd_more: Select<1>,
    rd_prev_of: Select<16>,
    rd_next_of: Select<16>,
    rd_has_prev_of: Select<1>,
    rd_has_next_of: Select<1>,
    _lanes: usize,
    _descriptors: usize,
    _banks: usize,
    /// 1 with the fast path, else 0: the length of `r_run_taken`.
    _run_registers: usize,
}

impl DescriptorTable {
    /// `descriptors` slots, taken by `lanes` lanes, unlinked by `banks` units (a power of
    /// two: list `l` is in bank `l mod banks`); `fast_path`: the array has the fast path, so
    /// the run's takes come in (`run_taken`, `in_run`) and get their registers.
    pub fn new(lanes: usize, descriptors: usize, banks: usize, fast_path: bool) -> Self {
        assert!(lanes > 0 && descriptors > 0 && banks.is_power_of_two(), "{lanes}, {descriptors}, {banks}");
        let (n, d, nb) = (lanes, descriptors, banks);
        DescriptorTable {
            clock: Default::default(),
            lane_took: signals(n),
            lane_slot: signals(n),
            run_taken: Default::default(),
            in_run: signals(d),
            insert: Default::default(),
            insert_slot: Default::default(),
            insert_label: Default::default(),
            insert_seq: Default::default(),
            insert_list: Default::default(),
            insert_tail: Default::default(),
            remove: Default::default(),
            remove_slot: Default::default(),
            clear: Default::default(),
            unlink_writing: signals(nb),
            unlink_front: signals(nb),
            unlink_back: signals(nb),
            unlink_prev: signals(nb),
            unlink_next: signals(nb),
            unlink_has_prev: signals(nb),
            unlink_has_next: signals(nb),
            free_taken: Default::default(),
            walk_pointer: signals(n),
            walk_valid: signals(n),
            walk_taken: signals(n),
            walk_next: signals(n),
            walk_more: signals(n),
            prev_of: signals(n),
            next_of: signals(n),
            has_prev_of: signals(n),
            has_next_of: signals(n),
            valid: signals(d),
            taken: signals(d),
            label: signals(d),
            seq: signals(d),
            list: signals(d),
            next: signals(d),
            prev: signals(d),
            has_next: signals(d),
            has_prev: signals(d),
            slot1: (0..d).map(|s| k(s as u64 + 1)).collect(),
            bank_mask: k(nb as u64 - 1),
            bank_index: bank_indexes(nb),
            pointer_mask: k(pointer_mask(d)),
            zero16: k(0),
            d_valid: dffs(d),
            d_label: dffs(d),
            d_seq: dffs(d),
            d_list: dffs(d),
            d_next: dffs(d),
            d_prev: dffs(d),
            d_taken: dffs(d),
            d_has_next: dffs(d),
            d_has_prev: dffs(d),
            r_run_taken: dffs(usize::from(fast_path)),
            r_in_run: dffs(if fast_path { d } else { 0 }),
            r_free_taken: Default::default(),
            s_take: signals(d),
            s_before: signals(d),
            s_after: signals(d),
            s_new_next: signals(d),
            s_new_prev: signals(d),
            s_new_has_next: signals(d),
            s_new_has_prev: signals(d),
            rd_valid: Select::shared(d, n),
            rd_taken: Select::shared(d, n),
            rd_next: Select::shared(d, n),
            rd_more: Select::shared(d, n),
            rd_prev_of: Select::shared(d, n),
            rd_next_of: Select::shared(d, n),
            rd_has_prev_of: Select::shared(d, n),
            rd_has_next_of: Select::shared(d, n),
            _lanes: n,
            _descriptors: d,
            _banks: nb,
            _run_registers: usize::from(fast_path),
        }
    }
}

impl Logic for DescriptorTable {
    #[hdl_gen]
    fn update(&mut self) {
        self.r_free_taken.clock.next = self.clock.val();
        self.r_free_taken.d.next = self.free_taken.val();
        for r in 0..self._run_registers {
            self.r_run_taken[r].clock.next = self.clock.val();
            self.r_run_taken[r].d.next = self.run_taken.val();
        }
        for s in 0..self._descriptors {
            self.d_valid[s].clock.next = self.clock.val();
            self.d_label[s].clock.next = self.clock.val();
            self.d_seq[s].clock.next = self.clock.val();
            self.d_list[s].clock.next = self.clock.val();
            self.d_next[s].clock.next = self.clock.val();
            self.d_prev[s].clock.next = self.clock.val();
            self.d_taken[s].clock.next = self.clock.val();
            self.d_has_next[s].clock.next = self.clock.val();
            self.d_has_prev[s].clock.next = self.clock.val();
            self.d_valid[s].d.next = self.d_valid[s].q.val();
            self.d_label[s].d.next = self.d_label[s].q.val();
            self.d_seq[s].d.next = self.d_seq[s].q.val();
            self.d_list[s].d.next = self.d_list[s].q.val();
            self.d_next[s].d.next = self.d_next[s].q.val();
            self.d_prev[s].d.next = self.d_prev[s].q.val();
            self.d_taken[s].d.next = self.d_taken[s].q.val();
            self.d_has_next[s].d.next = self.d_has_next[s].q.val();
            self.d_has_prev[s].d.next = self.d_has_prev[s].q.val();
            // Takes.
            self.s_take[s].next = self.run_taken.val() & self.in_run[s].val();
            for r in 0..self._run_registers {
                self.r_in_run[s].clock.next = self.clock.val();
                self.r_in_run[s].d.next = self.in_run[s].val();
                self.s_take[s].next = self.r_run_taken[r].q.val() & self.r_in_run[s].q.val();
            }
            for i in 0..self._lanes {
                if self.lane_took[i].val() & (self.lane_slot[i].val() == self.slot1[s].val()) {
                    self.s_take[s].next = true;
                }
            }
            if self.s_take[s].val() {
                self.d_taken[s].d.next = true;
            }
            // A post: the new receive, and its list's old tail links to it.
            if self.insert.val() & (self.insert_slot.val() == self.slot1[s].val()) {
                self.d_valid[s].d.next = true;
                self.d_label[s].d.next = self.insert_label.val();
                self.d_seq[s].d.next = self.insert_seq.val();
                self.d_list[s].d.next = self.insert_list.val();
                self.d_next[s].d.next = self.zero16.val();
                self.d_prev[s].d.next = self.insert_tail.val();
                self.d_has_next[s].d.next = false;
                self.d_has_prev[s].d.next = self.insert_tail.val() != self.zero16.val();
                self.d_taken[s].d.next = false;
            }
            if self.insert.val() & (self.insert_tail.val() == self.slot1[s].val()) {
                self.d_next[s].d.next = self.insert_slot.val();
                self.d_has_next[s].d.next = true;
            }
            if (self.remove.val() & (self.remove_slot.val() == self.slot1[s].val())) | self.clear.val() {
                self.d_valid[s].d.next = false;
                self.d_taken[s].d.next = false;
            }
            // The unlink units' link writes.
            self.s_before[s].next = false;
            self.s_after[s].next = false;
            self.s_new_next[s].next = self.zero16.val();
            self.s_new_prev[s].next = self.zero16.val();
            self.s_new_has_next[s].next = false;
            self.s_new_has_prev[s].next = false;
            for b in 0..self._banks {
                if self.unlink_writing[b].val() & (self.d_next[s].q.val() == self.unlink_front[b].val()) {
                    self.s_before[s].next = true;
                }
                if self.unlink_writing[b].val() & (self.d_prev[s].q.val() == self.unlink_back[b].val()) {
                    self.s_after[s].next = true;
                }
                if (self.d_list[s].q.val() & self.bank_mask.val()) == self.bank_index[b].val() {
                    self.s_new_next[s].next = self.s_new_next[s].val() | self.unlink_next[b].val();
                    self.s_new_prev[s].next = self.s_new_prev[s].val() | self.unlink_prev[b].val();
                    self.s_new_has_next[s].next =
                        self.s_new_has_next[s].val() | self.unlink_has_next[b].val();
                    self.s_new_has_prev[s].next =
                        self.s_new_has_prev[s].val() | self.unlink_has_prev[b].val();
                }
            }
            if self.s_before[s].val() {
                self.d_next[s].d.next = self.s_new_next[s].val() & self.pointer_mask.val();
                self.d_has_next[s].d.next = self.s_new_has_next[s].val();
            }
            if self.s_after[s].val() {
                self.d_prev[s].d.next = self.s_new_prev[s].val() & self.pointer_mask.val();
                self.d_has_prev[s].d.next = self.s_new_has_prev[s].val();
            }
            if self.r_free_taken.q.val() & (self.d_taken[s].q.val() | self.s_take[s].val()) {
                self.d_valid[s].d.next = false;
                self.d_taken[s].d.next = false;
            }
            self.valid[s].next = self.d_valid[s].q.val();
            self.taken[s].next = self.d_taken[s].q.val();
            self.label[s].next = self.d_label[s].q.val();
            self.seq[s].next = self.d_seq[s].q.val();
            self.list[s].next = self.d_list[s].q.val();
            self.next[s].next = self.d_next[s].q.val();
            self.prev[s].next = self.d_prev[s].q.val();
            self.has_next[s].next = self.d_has_next[s].q.val();
            self.has_prev[s].next = self.d_has_prev[s].q.val();
            self.rd_valid.entries[s].next = self.d_valid[s].q.val().into();
            self.rd_taken.entries[s].next = self.d_taken[s].q.val().into();
            self.rd_next.entries[s].next = self.d_next[s].q.val();
            self.rd_more.entries[s].next = self.d_has_next[s].q.val().into();
            self.rd_prev_of.entries[s].next = self.d_prev[s].q.val();
            self.rd_next_of.entries[s].next = self.d_next[s].q.val();
            self.rd_has_prev_of.entries[s].next = self.d_has_prev[s].q.val().into();
            self.rd_has_next_of.entries[s].next = self.d_has_next[s].q.val().into();
        }
        for i in 0..self._lanes {
            self.rd_valid.pointers[i].next = self.walk_pointer[i].val();
            self.rd_taken.pointers[i].next = self.walk_pointer[i].val();
            self.rd_next.pointers[i].next = self.walk_pointer[i].val();
            self.rd_more.pointers[i].next = self.walk_pointer[i].val();
            self.walk_valid[i].next = self.rd_valid.values[i].val().any();
            self.walk_taken[i].next = self.rd_taken.values[i].val().any();
            self.walk_next[i].next = self.rd_next.values[i].val();
            self.walk_more[i].next = self.rd_more.values[i].val().any();
            self.rd_prev_of.pointers[i].next = self.lane_slot[i].val();
            self.rd_next_of.pointers[i].next = self.lane_slot[i].val();
            self.rd_has_prev_of.pointers[i].next = self.lane_slot[i].val();
            self.rd_has_next_of.pointers[i].next = self.lane_slot[i].val();
            self.prev_of[i].next = self.rd_prev_of.values[i].val();
            self.next_of[i].next = self.rd_next_of.values[i].val();
            self.has_prev_of[i].next = self.rd_has_prev_of.values[i].val().any();
            self.has_next_of[i].next = self.rd_has_next_of.values[i].val().any();
        }
    }
}
