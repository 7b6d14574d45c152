//! Each lane's taken receive's neighbours (`prev`, `next` and whether they exist) in
//! registers of its own, which the unlink units read instead of a `D`-way read of the
//! descriptor table's link registers per lane (at 16 lanes those reads were the array's
//! critical path: a lane's slot → the neighbour mux → the unlink record).
//!
//! **Captured by the walk.** The walk meets a receive's neighbours on its way: the entry
//! compared before it in its list is its predecessor (none when it was read as the list's
//! head), and its link, from the lane's link RAM, is its successor. So every compare
//! stage computes the compared entry's neighbours, and they follow the walk's best match
//! (`pick`) as the lane's `ln_best` does; on the first walk the candidate's follow it too.
//! An optimistic take loads them from the candidate's. A slow take is decided by the
//! walk's last compare, so it loads nothing: in the cycle after it (`slow_took`, from
//! the lane's registers) the unlink reads the best match's registers instead
//! ([`crate::optimistic::unlink`]), and the taken receive's registers take them from
//! there. Loaded in the take's own cycle, they put the compare in front of every
//! neighbour register's enable (the 16-lane array's critical path, at 67.3 MHz). The
//! outputs are registers only: one behind `slow_took`'s mux made a loop of blocks (take →
//! neighbours → grant → take) that Verilator could not order. The lists do not change
//! under a walk (unlinks wait for every lane, or for the slow lane before to be
//! unlinked), so what the walk met is what the descriptor table holds when the lane takes.
//!
//! **Kept up to date** by every unlink record, as the table's registers are: a
//! receive whose `next` is a leaving run's front gets the record's successor, one whose
//! `prev` is its back gets the record's predecessor (links masked to a pointer's bits).
//! So in every cycle they equal the table's registers for the taken receive, and the unit's
//! forwarding from last cycle's record stays what it was.
//!
//! The fast path's last receive and a cancelled receive were not met by a walk; their
//! links come from the table's two shared read ports
//! ([`crate::optimistic::descriptor_table`]).

use crate::optimistic::vectors::{dffs, k, pointer_mask, signals};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ReceiveNeighbours {
    pub clock: Signal<In, Clock>,
    /// Per lane, from its walk: this cycle's read is a list's head; the compare stage
    /// holds an entry, its pointer and its link (the link RAM's read) and whether it has
    /// one; the entry becomes the walk's best match; the lane is on its first walk; it
    /// takes its candidate this cycle (an optimistic take); it took a receive on the slow
    /// path last cycle.
    pub read_first: Vec<Signal<In, Bit>>,
    pub compared: Vec<Signal<In, Bit>>,
    pub entry: Vec<Signal<In, Bits<16>>>,
    pub link: Vec<Signal<In, Bits<16>>>,
    pub has_link: Vec<Signal<In, Bit>>,
    pub pick: Vec<Signal<In, Bit>>,
    pub first_walk: Vec<Signal<In, Bit>>,
    pub take: Vec<Signal<In, Bit>>,
    pub slow_took: Vec<Signal<In, Bit>>,
    /// Per bank: the unlink record being written, after forwarding.
    pub writing: Vec<Signal<In, Bit>>,
    pub front: Vec<Signal<In, Bits<16>>>,
    pub back: Vec<Signal<In, Bits<16>>>,
    pub record_prev: Vec<Signal<In, Bits<16>>>,
    pub record_next: Vec<Signal<In, Bits<16>>>,
    pub record_has_prev: Vec<Signal<In, Bit>>,
    pub record_has_next: Vec<Signal<In, Bit>>,
    /// Per lane: its taken receive's neighbours, and whether they exist (in the cycle
    /// after a slow take, `best_*` instead).
    pub prev: Vec<Signal<Out, Bits<16>>>,
    pub next: Vec<Signal<Out, Bits<16>>>,
    pub has_prev: Vec<Signal<Out, Bit>>,
    pub has_next: Vec<Signal<Out, Bit>>,
    /// Per lane: the walk's best match's neighbours.
    pub best_prev: Vec<Signal<Out, Bits<16>>>,
    pub best_next: Vec<Signal<Out, Bits<16>>>,
    pub best_has_prev: Vec<Signal<Out, Bit>>,
    pub best_has_next: Vec<Signal<Out, Bit>>,
    /// Per lane: last cycle's read was a list's head (so the entry compared now has no
    /// predecessor); the entry compared last (the predecessor of the one compared now).
    r_head: Vec<DFF<Bit>>,
    r_last: Vec<DFF<Bits<16>>>,
    /// Per lane: the walk's best match's neighbours.
    b_prev: Vec<DFF<Bits<16>>>,
    b_next: Vec<DFF<Bits<16>>>,
    b_has_prev: Vec<DFF<Bit>>,
    b_has_next: Vec<DFF<Bit>>,
    /// Per lane: the candidate's neighbours.
    c_prev: Vec<DFF<Bits<16>>>,
    c_next: Vec<DFF<Bits<16>>>,
    c_has_prev: Vec<DFF<Bit>>,
    c_has_next: Vec<DFF<Bit>>,
    /// Per lane: the taken receive's neighbours.
    n_prev: Vec<DFF<Bits<16>>>,
    n_next: Vec<DFF<Bits<16>>>,
    n_has_prev: Vec<DFF<Bit>>,
    n_has_next: Vec<DFF<Bit>>,
    /// Per lane: the best match's neighbours with this cycle's compare.
    w_prev: Vec<Signal<Local, Bits<16>>>,
    w_next: Vec<Signal<Local, Bits<16>>>,
    w_has_prev: Vec<Signal<Local, Bit>>,
    w_has_next: Vec<Signal<Local, Bit>>,
    /// Per lane: the taken receive's neighbours now.
    o_prev: Vec<Signal<Local, Bits<16>>>,
    o_next: Vec<Signal<Local, Bits<16>>>,
    o_has_prev: Vec<Signal<Local, Bit>>,
    o_has_next: Vec<Signal<Local, Bit>>,
    pointer_mask: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    _lanes: usize,
    _banks: usize,
}

impl ReceiveNeighbours {
    /// Registers for `lanes` lanes over `descriptors` descriptors, updated by `banks`
    /// unlink units.
    pub fn new(lanes: usize, descriptors: usize, banks: usize) -> Self {
        let n = lanes;
        ReceiveNeighbours {
            clock: Default::default(),
            read_first: signals(n),
            compared: signals(n),
            entry: signals(n),
            link: signals(n),
            has_link: signals(n),
            pick: signals(n),
            first_walk: signals(n),
            take: signals(n),
            slow_took: signals(n),
            writing: signals(banks),
            front: signals(banks),
            back: signals(banks),
            record_prev: signals(banks),
            record_next: signals(banks),
            record_has_prev: signals(banks),
            record_has_next: signals(banks),
            prev: signals(n),
            next: signals(n),
            has_prev: signals(n),
            has_next: signals(n),
            best_prev: signals(n),
            best_next: signals(n),
            best_has_prev: signals(n),
            best_has_next: signals(n),
            r_head: dffs(n),
            r_last: dffs(n),
            b_prev: dffs(n),
            b_next: dffs(n),
            b_has_prev: dffs(n),
            b_has_next: dffs(n),
            c_prev: dffs(n),
            c_next: dffs(n),
            c_has_prev: dffs(n),
            c_has_next: dffs(n),
            n_prev: dffs(n),
            n_next: dffs(n),
            n_has_prev: dffs(n),
            n_has_next: dffs(n),
            w_prev: signals(n),
            w_next: signals(n),
            w_has_prev: signals(n),
            w_has_next: signals(n),
            o_prev: signals(n),
            o_next: signals(n),
            o_has_prev: signals(n),
            o_has_next: signals(n),
            pointer_mask: k(pointer_mask(descriptors)),
            zero16: k(0),
            _lanes: n,
            _banks: banks,
        }
    }
}

impl Logic for ReceiveNeighbours {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._lanes {
            self.r_head[i].clock.next = self.clock.val();
            self.r_last[i].clock.next = self.clock.val();
            self.b_prev[i].clock.next = self.clock.val();
            self.b_next[i].clock.next = self.clock.val();
            self.b_has_prev[i].clock.next = self.clock.val();
            self.b_has_next[i].clock.next = self.clock.val();
            self.c_prev[i].clock.next = self.clock.val();
            self.c_next[i].clock.next = self.clock.val();
            self.c_has_prev[i].clock.next = self.clock.val();
            self.c_has_next[i].clock.next = self.clock.val();
            self.n_prev[i].clock.next = self.clock.val();
            self.n_next[i].clock.next = self.clock.val();
            self.n_has_prev[i].clock.next = self.clock.val();
            self.n_has_next[i].clock.next = self.clock.val();
            // The walk: the compared entry's predecessor and successor.
            self.r_head[i].d.next = self.read_first[i].val();
            self.r_last[i].d.next = self.r_last[i].q.val();
            if self.compared[i].val() {
                self.r_last[i].d.next = self.entry[i].val() & self.pointer_mask.val();
            }
            self.w_prev[i].next = self.b_prev[i].q.val();
            self.w_next[i].next = self.b_next[i].q.val();
            self.w_has_prev[i].next = self.b_has_prev[i].q.val();
            self.w_has_next[i].next = self.b_has_next[i].q.val();
            if self.pick[i].val() {
                self.w_prev[i].next = self.r_last[i].q.val();
                if self.r_head[i].q.val() {
                    self.w_prev[i].next = self.zero16.val();
                }
                self.w_has_prev[i].next = !self.r_head[i].q.val();
                self.w_next[i].next = self.link[i].val() & self.pointer_mask.val();
                self.w_has_next[i].next = self.has_link[i].val();
            }
            self.b_prev[i].d.next = self.w_prev[i].val();
            self.b_next[i].d.next = self.w_next[i].val();
            self.b_has_prev[i].d.next = self.w_has_prev[i].val();
            self.b_has_next[i].d.next = self.w_has_next[i].val();
            self.c_prev[i].d.next = self.c_prev[i].q.val();
            self.c_next[i].d.next = self.c_next[i].q.val();
            self.c_has_prev[i].d.next = self.c_has_prev[i].q.val();
            self.c_has_next[i].d.next = self.c_has_next[i].q.val();
            if self.first_walk[i].val() {
                self.c_prev[i].d.next = self.w_prev[i].val();
                self.c_next[i].d.next = self.w_next[i].val();
                self.c_has_prev[i].d.next = self.w_has_prev[i].val();
                self.c_has_next[i].d.next = self.w_has_next[i].val();
            }
            // The taken receive's neighbours now: the best match's the cycle after a slow
            // take, else the registers.
            self.o_prev[i].next = self.n_prev[i].q.val();
            self.o_next[i].next = self.n_next[i].q.val();
            self.o_has_prev[i].next = self.n_has_prev[i].q.val();
            self.o_has_next[i].next = self.n_has_next[i].q.val();
            if self.slow_took[i].val() {
                self.o_prev[i].next = self.b_prev[i].q.val();
                self.o_next[i].next = self.b_next[i].q.val();
                self.o_has_prev[i].next = self.b_has_prev[i].q.val();
                self.o_has_next[i].next = self.b_has_next[i].q.val();
            }
            // The unlink records, as the descriptor table applies them.
            self.n_prev[i].d.next = self.o_prev[i].val();
            self.n_next[i].d.next = self.o_next[i].val();
            self.n_has_prev[i].d.next = self.o_has_prev[i].val();
            self.n_has_next[i].d.next = self.o_has_next[i].val();
            for b in 0..self._banks {
                if self.writing[b].val() & (self.o_next[i].val() == self.front[b].val()) {
                    self.n_next[i].d.next = self.record_next[b].val() & self.pointer_mask.val();
                    self.n_has_next[i].d.next = self.record_has_next[b].val();
                }
                if self.writing[b].val() & (self.o_prev[i].val() == self.back[b].val()) {
                    self.n_prev[i].d.next = self.record_prev[b].val() & self.pointer_mask.val();
                    self.n_has_prev[i].d.next = self.record_has_prev[b].val();
                }
            }
            // An optimistic take: the candidate's.
            if self.take[i].val() {
                self.n_prev[i].d.next = self.c_prev[i].q.val();
                self.n_next[i].d.next = self.c_next[i].q.val();
                self.n_has_prev[i].d.next = self.c_has_prev[i].q.val();
                self.n_has_next[i].d.next = self.c_has_next[i].q.val();
            }
            self.prev[i].next = self.n_prev[i].q.val();
            self.next[i].next = self.n_next[i].q.val();
            self.has_prev[i].next = self.n_has_prev[i].q.val();
            self.has_next[i].next = self.n_has_next[i].q.val();
            self.best_prev[i].next = self.b_prev[i].q.val();
            self.best_next[i].next = self.b_next[i].q.val();
            self.best_has_prev[i].next = self.b_has_prev[i].q.val();
            self.best_has_next[i].next = self.b_has_next[i].q.val();
        }
    }
}
