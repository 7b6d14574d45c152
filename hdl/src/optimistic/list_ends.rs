//! The thread array's index tables: the head of each of the `3B + 1` lists, a copy per
//! lane (each lane's own read port), and the tails (one read port, for appending), each a
//! [`BankedTable`] banked by list (list `l` is word `l / K` of bank `l mod K`), and the
//! writes to them. Per bank, one write a cycle, from one of:
//! - a post's insert: the receive becomes its list's tail, and its head when the tail
//!   read in the post's first cycle was empty;
//! - a flush's clearing pass: word `clear_at` of every bank, empty (block RAM has no
//!   reset);
//! - that bank's unlink unit, whose writes win: a leaving receive's successor becomes
//!   the head when it had no predecessor, its predecessor the tail when it had no
//!   successor. Inserts, the clearing pass and unlinks are never asked for in the same
//!   cycle (the controller's states); the priority only states what wins if they were.
//!
//! The same writes keep which index classes hold a receive ([`ListOccupancy`]), so a
//! block's first walks skip the classes that hold none.

use crate::optimistic::list_occupancy::ListOccupancy;
use crate::optimistic::vectors::{bank_indexes, k, signals};
use crate::primitives::banked_table::BankedTable;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ListEnds {
    pub clock: Signal<In, Clock>,
    /// Per lane: the list whose head it reads; the head, a cycle later.
    pub head_address: Vec<Signal<In, Bits<16>>>,
    pub head: Vec<Signal<Out, Bits<16>>>,
    /// The list whose tail is read (a post's), and the tail, a cycle later.
    pub tail_list: Signal<In, Bits<16>>,
    pub tail: Signal<Out, Bits<16>>,
    /// A post appends descriptor pointer `insert_slot` to list `insert_list`.
    pub insert: Signal<In, Bit>,
    pub insert_list: Signal<In, Bits<16>>,
    pub insert_slot: Signal<In, Bits<16>>,
    /// A flush's clearing pass empties word `clear_at` of every bank.
    pub clearing: Signal<In, Bit>,
    pub clear_at: Signal<In, Bits<16>>,
    /// Per bank: its unlink unit writes; the list; the leaving receive's links and whether
    /// they exist.
    pub unlink_writing: Vec<Signal<In, Bit>>,
    pub unlink_list: Vec<Signal<In, Bits<16>>>,
    pub unlink_prev: Vec<Signal<In, Bits<16>>>,
    pub unlink_next: Vec<Signal<In, Bits<16>>>,
    pub unlink_has_prev: Vec<Signal<In, Bit>>,
    pub unlink_has_next: Vec<Signal<In, Bit>>,
    /// Bit `c`: index class `c` holds a receive ([`ListOccupancy`]; registered).
    pub occupied: Signal<Out, Bits<4>>,
    occupancy: ListOccupancy,
    heads: BankedTable<16>,
    tails: BankedTable<16>,
    bank_index: Vec<Constant<Bits<16>>>,
    bank_mask: Constant<Bits<16>>,
    bank_shift: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    _lanes: usize,
    _banks: usize,
}

impl ListEnds {
    /// Tables of `2^list_bits` lists in `banks` banks (a power of two), `lanes` head
    /// copies, storing pointers of `pointer_bits` bits; the `3 * bins + 1` lists of
    /// indexes of `bins` bins are used.
    pub fn new(lanes: usize, banks: usize, bins: usize, list_bits: usize, pointer_bits: usize) -> Self {
        assert!(banks.is_power_of_two() && lanes > 0, "{lanes} lanes, {banks} banks");
        let bank_bits = banks.trailing_zeros() as usize;
        assert!(bank_bits <= list_bits, "{banks} banks of {list_bits}-bit list numbers");
        assert!(3 * bins < 1 << list_bits, "{bins} bins in {list_bits}-bit list numbers");
        ListEnds {
            clock: Default::default(),
            head_address: signals(lanes),
            head: signals(lanes),
            tail_list: Default::default(),
            tail: Default::default(),
            insert: Default::default(),
            insert_list: Default::default(),
            insert_slot: Default::default(),
            clearing: Default::default(),
            clear_at: Default::default(),
            unlink_writing: signals(banks),
            unlink_list: signals(banks),
            unlink_prev: signals(banks),
            unlink_next: signals(banks),
            unlink_has_prev: signals(banks),
            unlink_has_next: signals(banks),
            occupied: Default::default(),
            occupancy: ListOccupancy::new(bins, banks),
            heads: BankedTable::new(lanes, bank_bits, list_bits - bank_bits).storing(pointer_bits),
            tails: BankedTable::new(1, bank_bits, list_bits - bank_bits).storing(pointer_bits),
            bank_index: bank_indexes(banks),
            bank_mask: k(banks as u64 - 1),
            bank_shift: k(bank_bits as u64),
            zero16: k(0),
            _lanes: lanes,
            _banks: banks,
        }
    }
}

impl Logic for ListEnds {
    #[hdl_gen]
    fn update(&mut self) {
        self.heads.clock.next = self.clock.val();
        self.tails.clock.next = self.clock.val();
        for i in 0..self._lanes {
            self.heads.read_address[i].next = self.head_address[i].val();
            self.head[i].next = self.heads.read_data[i].val();
        }
        self.tails.read_address[0].next = self.tail_list.val();
        self.tail.next = self.tails.read_data[0].val();
        self.occupancy.clock.next = self.clock.val();
        self.occupancy.insert.next = self.insert.val();
        self.occupancy.insert_list.next = self.insert_list.val();
        self.occupancy.clearing.next = self.clearing.val();
        self.occupied.next = self.occupancy.occupied.val();
        for b in 0..self._banks {
            self.occupancy.unlink_writing[b].next = self.unlink_writing[b].val();
            self.occupancy.unlink_list[b].next = self.unlink_list[b].val();
            self.occupancy.unlink_has_prev[b].next = self.unlink_has_prev[b].val();
            self.occupancy.unlink_has_next[b].next = self.unlink_has_next[b].val();
            self.heads.write_enable[b].next = false;
            self.heads.write_address[b].next = self.insert_list.val() >> self.bank_shift.val();
            self.heads.write_data[b].next = self.insert_slot.val();
            self.tails.write_enable[b].next = false;
            self.tails.write_address[b].next = self.insert_list.val() >> self.bank_shift.val();
            self.tails.write_data[b].next = self.insert_slot.val();
            if self.insert.val()
                & ((self.insert_list.val() & self.bank_mask.val()) == self.bank_index[b].val())
            {
                self.heads.write_enable[b].next = self.tails.read_data[0].val() == self.zero16.val();
                self.tails.write_enable[b].next = true;
            }
            if self.clearing.val() {
                self.heads.write_enable[b].next = true;
                self.heads.write_address[b].next = self.clear_at.val();
                self.heads.write_data[b].next = self.zero16.val();
                self.tails.write_enable[b].next = true;
                self.tails.write_address[b].next = self.clear_at.val();
                self.tails.write_data[b].next = self.zero16.val();
            }
            if self.unlink_writing[b].val() {
                self.heads.write_address[b].next = self.unlink_list[b].val() >> self.bank_shift.val();
                self.heads.write_data[b].next = self.unlink_next[b].val();
                self.heads.write_enable[b].next = !self.unlink_has_prev[b].val();
                self.tails.write_address[b].next = self.unlink_list[b].val() >> self.bank_shift.val();
                self.tails.write_data[b].next = self.unlink_prev[b].val();
                self.tails.write_enable[b].next = !self.unlink_has_next[b].val();
            }
        }
    }
}
