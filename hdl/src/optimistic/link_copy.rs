//! The walk's links in RAM: each lane's copy of every descriptor's `next` link and
//! whether it has one, read by the lane's walk with a registered read instead of a
//! `D`-way mux tree over the descriptor table's link registers, and the write ports all
//! copies share. (One block for every lane's copies: rust-hdl's generator cannot index a
//! vector inside a vector of child blocks.)
//!
//! **Banked by list.** Several unlink units write links in one cycle, one per bank of
//! lists ([`crate::optimistic::unlink`]), and a RAM has one write port. Neighbours share
//! a list, so the links of list `l`'s receives are written only by unit `l mod K` and by
//! posts into `l`: each lane keeps one RAM per bank, each written by one port, and reads
//! the bank of the list it walks (all banks read the same pointer; the bank is chosen
//! after the read register, from a register of the list). A slot's word in other banks
//! is stale and never read. Storage is `K x D` words a lane.
//!
//! **Writes** (one a cycle per bank; posts, unlinks and a post's second write never
//! overlap, by the controller's states):
//! - an unlink record with a predecessor: the predecessor's link becomes the record's
//!   successor (the record's `prev` and `next`, after the unit's forwarding);
//! - a post appending to a non-empty list: the old tail's link becomes the new receive;
//! - the cycle after a post: the new receive's link, none. (Posting writes two words of
//!   one bank; the second waits a cycle. Nothing walks in it: the post answers then, and
//!   a block starts a cycle later at the earliest.)
//!
//! **Reads** see the words from before the edge's write, as a read of the table's
//! registers in the cycle before did, so the walk's cycles are unchanged. Pointer 0
//! (none) reads some slot's word: the lane ignores it (it knows it read pointer 0).
//! The link flag is a one-bit RAM, in LUT RAM at every table size, so the end-of-list
//! decision the walk makes from it starts 0.4 ns after the clock on an ECP5, where a block
//! RAM's word is out at 4.26 ns; the link itself is block RAM from
//! [`crate::optimistic::descriptor_copy::COPY_LUT_RAM_WORDS`] words, like the other
//! copied fields, and feeds only the walk's pointer mux.

use crate::optimistic::descriptor_copy::field_copy;
use crate::optimistic::vectors::{bank_indexes, dffs, k, pointer_mask, signals};
use crate::primitives::table_ram::TableRam;
use crate::primitives::trees::bits_to_hold;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LinkCopies {
    pub clock: Signal<In, Clock>,
    /// A post: the receive at pointer `insert_slot` joins list `insert_list` after
    /// `insert_tail` (0: the list was empty).
    pub insert: Signal<In, Bit>,
    pub insert_slot: Signal<In, Bits<16>>,
    pub insert_list: Signal<In, Bits<16>>,
    pub insert_tail: Signal<In, Bits<16>>,
    /// Per bank: the unlink unit's second stage (after forwarding).
    pub unlink_writing: Vec<Signal<In, Bit>>,
    pub unlink_prev: Vec<Signal<In, Bits<16>>>,
    pub unlink_next: Vec<Signal<In, Bits<16>>>,
    pub unlink_has_prev: Vec<Signal<In, Bit>>,
    pub unlink_has_next: Vec<Signal<In, Bit>>,
    /// Per lane: the entry its walk reads and the list it is in (its bank is chosen a
    /// cycle later); registered, the link of last cycle's entry and whether it has one.
    pub read_pointer: Vec<Signal<In, Bits<16>>>,
    pub read_list: Vec<Signal<In, Bits<16>>>,
    pub link: Vec<Signal<Out, Bits<16>>>,
    pub has_link: Vec<Signal<Out, Bit>>,
    /// Per lane and bank (`lane * banks + bank`): the links and their flags.
    next_rams: Vec<TableRam<16>>,
    more_rams: Vec<TableRam<1>>,
    /// Per lane: the bank of last cycle's read.
    read_bank: Vec<DFF<Bits<16>>>,
    /// Per bank: this cycle's write.
    w_enable: Vec<Signal<Local, Bit>>,
    w_at: Vec<Signal<Local, Bits<16>>>,
    w_next: Vec<Signal<Local, Bits<16>>>,
    w_more: Vec<Signal<Local, Bit>>,
    /// Last cycle's post, its slot and bank: the new receive's link is written now.
    r_posted: DFF<Bit>,
    r_slot: DFF<Bits<16>>,
    r_bank: DFF<Bits<16>>,
    bank_mask: Constant<Bits<16>>,
    bank_index: Vec<Constant<Bits<16>>>,
    /// Links are masked to a pointer's bits, as the table's are.
    pointer_mask: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    _lanes: usize,
    _banks: usize,
    /// `_banks + 1`: `for nb in _banks.._banks_once` names the bank count in an index.
    _banks_once: usize,
}

impl LinkCopies {
    /// `lanes` copies of the links of `descriptors` descriptors, in `banks` banks (a power
    /// of two).
    pub fn new(lanes: usize, descriptors: usize, banks: usize) -> Self {
        assert!(lanes > 0 && banks.is_power_of_two(), "{lanes} lanes, {banks} banks");
        let (n, nb) = (lanes, banks);
        let pointer_bits = bits_to_hold(descriptors);
        LinkCopies {
            clock: Default::default(),
            insert: Default::default(),
            insert_slot: Default::default(),
            insert_list: Default::default(),
            insert_tail: Default::default(),
            unlink_writing: signals(nb),
            unlink_prev: signals(nb),
            unlink_next: signals(nb),
            unlink_has_prev: signals(nb),
            unlink_has_next: signals(nb),
            read_pointer: signals(n),
            read_list: signals(n),
            link: signals(n),
            has_link: signals(n),
            next_rams: (0..n * nb).map(|_| field_copy(descriptors).stored_bits(pointer_bits)).collect(),
            more_rams: (0..n * nb).map(|_| field_copy(descriptors)).collect(),
            read_bank: dffs(n),
            w_enable: signals(nb),
            w_at: signals(nb),
            w_next: signals(nb),
            w_more: signals(nb),
            r_posted: Default::default(),
            r_slot: Default::default(),
            r_bank: Default::default(),
            bank_mask: k(nb as u64 - 1),
            bank_index: bank_indexes(nb),
            pointer_mask: k(pointer_mask(descriptors)),
            zero16: k(0),
            _lanes: n,
            _banks: nb,
            _banks_once: nb + 1,
        }
    }
}

impl Logic for LinkCopies {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_posted, r_slot, r_bank);
        self.r_posted.d.next = self.insert.val();
        self.r_slot.d.next = self.insert_slot.val() & self.pointer_mask.val();
        self.r_bank.d.next = self.insert_list.val() & self.bank_mask.val();
        for b in 0..self._banks {
            // The new receive's own link, none, a cycle after its post.
            self.w_enable[b].next = self.r_posted.q.val() & (self.r_bank.q.val() == self.bank_index[b].val());
            self.w_at[b].next = self.r_slot.q.val();
            self.w_next[b].next = self.zero16.val();
            self.w_more[b].next = false;
            // A post: the old tail links to the new receive.
            if self.insert.val()
                & ((self.insert_list.val() & self.bank_mask.val()) == self.bank_index[b].val())
            {
                self.w_enable[b].next = self.insert_tail.val() != self.zero16.val();
                self.w_at[b].next = self.insert_tail.val();
                self.w_next[b].next = self.insert_slot.val() & self.pointer_mask.val();
                self.w_more[b].next = true;
            }
            // An unlink: the predecessor links to the successor.
            if self.unlink_writing[b].val() {
                self.w_enable[b].next = self.unlink_has_prev[b].val();
                self.w_at[b].next = self.unlink_prev[b].val();
                self.w_next[b].next = self.unlink_next[b].val() & self.pointer_mask.val();
                self.w_more[b].next = self.unlink_has_next[b].val();
            }
        }
        for i in 0..self._lanes {
            self.read_bank[i].clock.next = self.clock.val();
            self.read_bank[i].d.next = self.read_list[i].val() & self.bank_mask.val();
            self.link[i].next = self.zero16.val();
            self.has_link[i].next = false;
        }
        for nb in self._banks..self._banks_once {
            for i in 0..self._lanes {
                for b in 0..self._banks {
                    self.next_rams[i * nb + b].clock.next = self.clock.val();
                    self.more_rams[i * nb + b].clock.next = self.clock.val();
                    self.next_rams[i * nb + b].write_enable.next = self.w_enable[b].val();
                    self.more_rams[i * nb + b].write_enable.next = self.w_enable[b].val();
                    self.next_rams[i * nb + b].write_address.next = self.w_at[b].val();
                    self.more_rams[i * nb + b].write_address.next = self.w_at[b].val();
                    self.next_rams[i * nb + b].write_data.next = self.w_next[b].val();
                    self.more_rams[i * nb + b].write_data.next = self.w_more[b].val().into();
                    self.next_rams[i * nb + b].read_address.next = self.read_pointer[i].val();
                    self.more_rams[i * nb + b].read_address.next = self.read_pointer[i].val();
                    if self.read_bank[i].q.val() == self.bank_index[b].val() {
                        self.link[i].next = self.next_rams[i * nb + b].read_data.val();
                        self.has_link[i].next = self.more_rams[i * nb + b].read_data.val().any();
                    }
                }
            }
        }
    }
}
