//! The thread array's unlink units: one per bank of the head and tail tables, each removing
//! one taken receive a cycle from its list, in two pipeline stages so the `D`-way read of
//! the neighbours and the writes are in different clock cycles.
//!
//! - **Arbitration and first stage** (combinational, registered into the second): per
//!   bank, the lowest eligible lane whose receive's list is in the bank is granted (a
//!   prefix-OR tree over the lanes, [`LowestSetPerGroup`]; the ripple OR it replaced was
//!   most of the 16-lane array's critical path, lane state → grant → record). Every lane
//!   has read its receive's neighbours by its own pointer while the banks arbitrate, so
//!   the grant picks one lane's record with an
//!   AND-OR: arbitration and read side by side, not in series. When lane 0's receive
//!   heads the fast path's run (`run_taken`), the whole run leaves with it: the record's
//!   back end and successor are the run's last receive's.
//!
//!   Measured and dropped (c829f5c): the read after the grant, in series, at two ports
//!   per bank (the record's front's `prev`, its back's `next`) instead of one per lane.
//!   It saved 12–14 % of the 16-lane array's LUT4s (39,357 → 34,341 with the fast path,
//!   34,433 → 29,574 without), but the clock fell with every size timed: 16 lanes 71.73 →
//!   54.98 MHz with the fast path, 75.59 → 63.31 without, 4 lanes with it 105.94 →
//!   74.95 (router1, seed 1; the timing history has the runs). The path became lane
//!   state → eligible → grant → slot AND-OR → `D`-way read → record, 13–18 ns.
//! - **Split on "all done"** (from [`SPLIT_FROM_LANES`] lanes): a lane's receive is
//!   eligible when it is pending and either every lane is done or the lane took it on the
//!   slow path. "Every lane is done" is an AND over all lanes, and in front of the grant
//!   trees it was the 16-lane array's critical path (lane state → all done → eligible →
//!   grant → record). So each bank has two grant trees, one per value of "all done" (every
//!   pending receive; slow lanes' only), and `all_done` picks a grant after them, in front
//!   of the one record AND-OR: the AND runs beside the trees. Measured and dropped: two
//!   whole records picked just before the registers (the AND-OR built twice). The lanes'
//!   neighbour reads then fed twice the logic, spread further, and the 16-lane array
//!   without the fast path fell from 70.8 to 53.0 MHz, a wire from a read to the second
//!   record taking 9.8 ns. Smaller arrays, where the AND is short, keep one tree.
//! - **Second stage** (registers): the record `(list, prev, next, front, back)` and
//!   whether `prev` and `next` exist. A cancel loads it directly (`load`), in the bank of
//!   the found receive's list; nothing else unlinks outside a block.
//! - **Forwarding:** the first stage read its record's neighbours while the second stage
//!   wrote last cycle's record. Neighbours share a list, so only records of one bank can
//!   touch: when this record's predecessor was last cycle's front, its predecessor is the
//!   one that record had, and likewise for the successor. Older writes had landed.
//!
//! The outputs are the second stage after forwarding: from them the descriptor table
//! writes the neighbours' links ([`crate::optimistic::descriptor_table`]), and the index
//! tables the head (no predecessor) or tail (no successor) of `list`
//! ([`crate::optimistic::list_ends`]).

use crate::optimistic::vectors::{bank_indexes, dffs, k, signals};
use crate::primitives::select::LowestSetPerGroup;
use rust_hdl::prelude::*;

/// Lane counts from which the arbitration is built for both values of "all done"
/// (module docs); below it the parent folds "all done" into `eligible`.
pub const SPLIT_FROM_LANES: usize = 8;

#[derive(LogicBlock)]
pub struct UnlinkUnits {
    pub clock: Signal<In, Clock>,
    /// Per lane: its taken receive may leave now; it has a taken receive still to leave.
    pub eligible: Vec<Signal<In, Bit>>,
    pub pending: Vec<Signal<In, Bit>>,
    /// Split arrays only ([`UnlinkUnits::splits`]; empty otherwise): `eligible` is then
    /// the set for "all done" (every pending receive), `slow_eligible` the set otherwise
    /// (slow lanes' pending receives), and `all_done` (one bit) picks between them.
    pub slow_eligible: Vec<Signal<In, Bit>>,
    pub all_done: Vec<Signal<In, Bit>>,
    /// Per lane: the taken receive's list, its pointer, and its neighbours (read by the
    /// lane's own pointer) and whether they exist.
    pub list: Vec<Signal<In, Bits<16>>>,
    pub slot: Vec<Signal<In, Bits<16>>>,
    pub prev_of: Vec<Signal<In, Bits<16>>>,
    pub next_of: Vec<Signal<In, Bits<16>>>,
    pub has_prev_of: Vec<Signal<In, Bit>>,
    pub has_next_of: Vec<Signal<In, Bit>>,
    /// Lane 0's receive heads the fast path's run: the run's last receive, its successor
    /// and whether it has one.
    pub run_taken: Signal<In, Bit>,
    pub run_back: Signal<In, Bits<16>>,
    pub run_next: Signal<In, Bits<16>>,
    pub run_has_next: Signal<In, Bit>,
    /// A cancel's found receive (`load_slot`) enters the second stage of its list's bank.
    pub load: Signal<In, Bit>,
    pub load_slot: Signal<In, Bits<16>>,
    pub load_list: Signal<In, Bits<16>>,
    pub load_prev: Signal<In, Bits<16>>,
    pub load_next: Signal<In, Bits<16>>,
    pub load_has_prev: Signal<In, Bit>,
    pub load_has_next: Signal<In, Bit>,
    /// Empties both stages (the array's reset).
    pub clear: Signal<In, Bit>,
    /// Per lane: its receive was granted this cycle.
    pub granted: Vec<Signal<Out, Bit>>,
    /// Three or more pending receives are in one bank: once every lane is done (all
    /// pending receives eligible), the unlinks go on after next cycle's. The block answers
    /// in its last unlink's grant cycle, so its finish looks a round ahead. Formed from
    /// `pending` alone, beside the arbitration rather than behind it, so the block's finish
    /// does not wait for the barrier's "all done" to pass through the grants.
    pub crowded: Signal<Out, Bit>,
    /// Per bank, the second stage: it writes this cycle; the list; the first and last
    /// receive leaving; their neighbours after forwarding, and whether they exist.
    pub writing: Vec<Signal<Out, Bit>>,
    pub write_list: Vec<Signal<Out, Bits<16>>>,
    pub front: Vec<Signal<Out, Bits<16>>>,
    pub back: Vec<Signal<Out, Bits<16>>>,
    pub prev: Vec<Signal<Out, Bits<16>>>,
    pub next: Vec<Signal<Out, Bits<16>>>,
    pub has_prev: Vec<Signal<Out, Bit>>,
    pub has_next: Vec<Signal<Out, Bit>>,
    bank_mask: Constant<Bits<16>>,
    bank_index: Vec<Constant<Bits<16>>>,
    zero16: Constant<Bits<16>>,
    /// Per bank × lane: the lane wants the bank (split arrays: its receive is pending
    /// there, the set for "all done"); the grant (one-hot).
    a_wants: Vec<Signal<Local, Bit>>,
    a_grant: Vec<Signal<Local, Bit>>,
    /// Per bank × lane: the lane's pending receive is in the bank.
    c_pending: Vec<Signal<Local, Bit>>,
    /// Per bank × lane: the lowest lane that wants the bank (split arrays: groups
    /// `banks..2 * banks` are the slow set's); the lanes with a pending receive there
    /// (only its `crowd`, three or more, is read).
    grant_of: LowestSetPerGroup,
    pending_per_bank: LowestSetPerGroup,
    /// Per bank: the first stage's record.
    u_en: Vec<Signal<Local, Bit>>,
    u_list: Vec<Signal<Local, Bits<16>>>,
    u_prev: Vec<Signal<Local, Bits<16>>>,
    u_next: Vec<Signal<Local, Bits<16>>>,
    u_has_prev: Vec<Signal<Local, Bit>>,
    u_has_next: Vec<Signal<Local, Bit>>,
    u_front: Vec<Signal<Local, Bits<16>>>,
    u_back: Vec<Signal<Local, Bits<16>>>,
    /// Per bank: the second stage.
    ur_en: Vec<DFF<Bit>>,
    ur_list: Vec<DFF<Bits<16>>>,
    ur_prev: Vec<DFF<Bits<16>>>,
    ur_next: Vec<DFF<Bits<16>>>,
    ur_has_prev: Vec<DFF<Bit>>,
    ur_has_next: Vec<DFF<Bit>>,
    ur_front: Vec<DFF<Bits<16>>>,
    ur_back: Vec<DFF<Bits<16>>>,
    /// Per bank: the record the second stage wrote last cycle (forwarding's source).
    lr_en: Vec<DFF<Bit>>,
    lr_prev: Vec<DFF<Bits<16>>>,
    lr_next: Vec<DFF<Bits<16>>>,
    lr_has_prev: Vec<DFF<Bit>>,
    lr_has_next: Vec<DFF<Bit>>,
    lr_front: Vec<DFF<Bits<16>>>,
    lr_back: Vec<DFF<Bits<16>>>,
    /// Per bank: the second stage's neighbours after forwarding.
    f_prev: Vec<Signal<Local, Bits<16>>>,
    f_next: Vec<Signal<Local, Bits<16>>>,
    f_has_prev: Vec<Signal<Local, Bit>>,
    f_has_next: Vec<Signal<Local, Bit>>,
    _lanes: usize,
    _banks: usize,
    /// `lanes + 1`: rust-hdl evaluates an index from loop variables only, so
    /// `a_grant[b * lanes + i]` is written inside `for lanes in _lanes.._lanes_once`.
    _lanes_once: usize,
    /// `banks` and `banks + 1` when split, else an empty range: the slow set's loop, whose
    /// variable is its groups' offset in `grant_of`.
    _split_from: usize,
    _split_to: usize,
}

impl UnlinkUnits {
    /// Units for `banks` banks (a power of two; list `l` is in bank `l mod banks`) and
    /// `lanes` lanes.
    pub fn new(lanes: usize, banks: usize) -> Self {
        assert!(lanes > 0 && banks.is_power_of_two(), "{lanes} lanes, {banks} banks");
        let split = Self::splits(lanes);
        let (sets, split_lanes) = if split { (2, lanes) } else { (1, 0) };
        UnlinkUnits {
            clock: Default::default(),
            eligible: signals(lanes),
            pending: signals(lanes),
            slow_eligible: signals(split_lanes),
            all_done: signals(split as usize),
            list: signals(lanes),
            slot: signals(lanes),
            prev_of: signals(lanes),
            next_of: signals(lanes),
            has_prev_of: signals(lanes),
            has_next_of: signals(lanes),
            run_taken: Default::default(),
            run_back: Default::default(),
            run_next: Default::default(),
            run_has_next: Default::default(),
            load: Default::default(),
            load_slot: Default::default(),
            load_list: Default::default(),
            load_prev: Default::default(),
            load_next: Default::default(),
            load_has_prev: Default::default(),
            load_has_next: Default::default(),
            clear: Default::default(),
            granted: signals(lanes),
            crowded: Default::default(),
            writing: signals(banks),
            write_list: signals(banks),
            front: signals(banks),
            back: signals(banks),
            prev: signals(banks),
            next: signals(banks),
            has_prev: signals(banks),
            has_next: signals(banks),
            bank_mask: k(banks as u64 - 1),
            bank_index: bank_indexes(banks),
            zero16: k(0),
            a_wants: signals(banks * lanes),
            a_grant: signals(banks * lanes),
            c_pending: signals(banks * lanes),
            grant_of: LowestSetPerGroup::new(sets * banks, lanes),
            pending_per_bank: LowestSetPerGroup::new(banks, lanes),
            u_en: signals(banks),
            u_list: signals(banks),
            u_prev: signals(banks),
            u_next: signals(banks),
            u_has_prev: signals(banks),
            u_has_next: signals(banks),
            u_front: signals(banks),
            u_back: signals(banks),
            ur_en: dffs(banks),
            ur_list: dffs(banks),
            ur_prev: dffs(banks),
            ur_next: dffs(banks),
            ur_has_prev: dffs(banks),
            ur_has_next: dffs(banks),
            ur_front: dffs(banks),
            ur_back: dffs(banks),
            lr_en: dffs(banks),
            lr_prev: dffs(banks),
            lr_next: dffs(banks),
            lr_has_prev: dffs(banks),
            lr_has_next: dffs(banks),
            lr_front: dffs(banks),
            lr_back: dffs(banks),
            f_prev: signals(banks),
            f_next: signals(banks),
            f_has_prev: signals(banks),
            f_has_next: signals(banks),
            _lanes: lanes,
            _banks: banks,
            _lanes_once: lanes + 1,
            _split_from: if split { banks } else { 0 },
            _split_to: if split { banks + 1 } else { 0 },
        }
    }

    /// Whether an array of `lanes` lanes builds the arbitration for both values of "all
    /// done" (module docs).
    pub fn splits(lanes: usize) -> bool {
        lanes >= SPLIT_FROM_LANES
    }
}

impl Logic for UnlinkUnits {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._lanes {
            self.granted[i].next = false;
        }
        self.crowded.next = false;
        // Per bank, the lowest lane with a receive there to unlink; its record, picked
        // from every lane's own reads with an AND-OR.
        for lanes in self._lanes..self._lanes_once {
            for b in 0..self._banks {
                for i in 0..self._lanes {
                    self.a_wants[b * lanes + i].next = self.eligible[i].val()
                        & ((self.list[i].val() & self.bank_mask.val()) == self.bank_index[b].val());
                    self.grant_of.bits[b * lanes + i].next = self.a_wants[b * lanes + i].val();
                    self.c_pending[b * lanes + i].next = self.pending[i].val()
                        & ((self.list[i].val() & self.bank_mask.val()) == self.bank_index[b].val());
                    self.pending_per_bank.bits[b * lanes + i].next = self.c_pending[b * lanes + i].val();
                }
                // Split arrays: the slow set wants the bank in groups `banks..2 * banks`.
                for banks in self._split_from..self._split_to {
                    for i in 0..self._lanes {
                        self.grant_of.bits[(banks + b) * lanes + i].next = self.slow_eligible[i].val()
                            & ((self.list[i].val() & self.bank_mask.val()) == self.bank_index[b].val());
                    }
                }
                self.u_prev[b].next = self.zero16.val();
                self.u_next[b].next = self.zero16.val();
                self.u_has_prev[b].next = false;
                self.u_has_next[b].next = false;
                self.u_list[b].next = self.zero16.val();
                self.u_front[b].next = self.zero16.val();
                self.u_back[b].next = self.zero16.val();
                for i in 0..self._lanes {
                    self.a_grant[b * lanes + i].next = self.grant_of.first[b * lanes + i].val();
                    // Split arrays: "all done" picks the grant, after the trees.
                    for banks in self._split_from..self._split_to {
                        for once in 0..1 {
                            if !self.all_done[once].val() {
                                self.a_grant[b * lanes + i].next =
                                    self.grant_of.first[(banks + b) * lanes + i].val();
                            }
                        }
                    }
                    if self.a_grant[b * lanes + i].val() {
                        self.granted[i].next = true;
                        self.u_prev[b].next = self.u_prev[b].val() | self.prev_of[i].val();
                        self.u_next[b].next = self.u_next[b].val() | self.next_of[i].val();
                        self.u_has_prev[b].next = self.u_has_prev[b].val() | self.has_prev_of[i].val();
                        self.u_has_next[b].next = self.u_has_next[b].val() | self.has_next_of[i].val();
                        self.u_list[b].next = self.u_list[b].val() | self.list[i].val();
                        self.u_front[b].next = self.u_front[b].val() | self.slot[i].val();
                        self.u_back[b].next = self.u_back[b].val() | self.slot[i].val();
                    }
                }
                self.u_en[b].next = self.grant_of.found[b].val();
                for banks in self._split_from..self._split_to {
                    for once in 0..1 {
                        if !self.all_done[once].val() {
                            self.u_en[b].next = self.grant_of.found[banks + b].val();
                        }
                    }
                }
                if self.pending_per_bank.crowd[b].val() {
                    self.crowded.next = true;
                }
                // Lane 0's receive heads the fast path's run: the run leaves with it.
                if self.run_taken.val() & self.a_grant[b * lanes].val() {
                    self.u_next[b].next = self.run_next.val();
                    self.u_has_next[b].next = self.run_has_next.val();
                    self.u_back[b].next = self.run_back.val();
                }
            }
        }
        for b in 0..self._banks {
            self.ur_en[b].clock.next = self.clock.val();
            self.ur_list[b].clock.next = self.clock.val();
            self.ur_prev[b].clock.next = self.clock.val();
            self.ur_next[b].clock.next = self.clock.val();
            self.ur_has_prev[b].clock.next = self.clock.val();
            self.ur_has_next[b].clock.next = self.clock.val();
            self.ur_front[b].clock.next = self.clock.val();
            self.ur_back[b].clock.next = self.clock.val();
            self.lr_en[b].clock.next = self.clock.val();
            self.lr_prev[b].clock.next = self.clock.val();
            self.lr_next[b].clock.next = self.clock.val();
            self.lr_has_prev[b].clock.next = self.clock.val();
            self.lr_has_next[b].clock.next = self.clock.val();
            self.lr_front[b].clock.next = self.clock.val();
            self.lr_back[b].clock.next = self.clock.val();
            self.ur_en[b].d.next = self.u_en[b].val();
            self.ur_list[b].d.next = self.u_list[b].val();
            self.ur_prev[b].d.next = self.u_prev[b].val();
            self.ur_next[b].d.next = self.u_next[b].val();
            self.ur_has_prev[b].d.next = self.u_has_prev[b].val();
            self.ur_has_next[b].d.next = self.u_has_next[b].val();
            self.ur_front[b].d.next = self.u_front[b].val();
            self.ur_back[b].d.next = self.u_back[b].val();
            if self.load.val() {
                self.ur_en[b].d.next =
                    (self.load_list.val() & self.bank_mask.val()) == self.bank_index[b].val();
                self.ur_list[b].d.next = self.load_list.val();
                self.ur_prev[b].d.next = self.load_prev.val();
                self.ur_next[b].d.next = self.load_next.val();
                self.ur_has_prev[b].d.next = self.load_has_prev.val();
                self.ur_has_next[b].d.next = self.load_has_next.val();
                self.ur_front[b].d.next = self.load_slot.val();
                self.ur_back[b].d.next = self.load_slot.val();
            }
            self.f_prev[b].next = self.ur_prev[b].q.val();
            self.f_next[b].next = self.ur_next[b].q.val();
            self.f_has_prev[b].next = self.ur_has_prev[b].q.val();
            self.f_has_next[b].next = self.ur_has_next[b].q.val();
            if self.lr_en[b].q.val() & (self.ur_prev[b].q.val() == self.lr_back[b].q.val()) {
                self.f_prev[b].next = self.lr_prev[b].q.val();
                self.f_has_prev[b].next = self.lr_has_prev[b].q.val();
            }
            if self.lr_en[b].q.val() & (self.ur_next[b].q.val() == self.lr_front[b].q.val()) {
                self.f_next[b].next = self.lr_next[b].q.val();
                self.f_has_next[b].next = self.lr_has_next[b].q.val();
            }
            self.lr_en[b].d.next = self.ur_en[b].q.val();
            self.lr_prev[b].d.next = self.f_prev[b].val();
            self.lr_next[b].d.next = self.f_next[b].val();
            self.lr_has_prev[b].d.next = self.f_has_prev[b].val();
            self.lr_has_next[b].d.next = self.f_has_next[b].val();
            self.lr_front[b].d.next = self.ur_front[b].q.val();
            self.lr_back[b].d.next = self.ur_back[b].q.val();
            if self.clear.val() {
                self.ur_en[b].d.next = false;
                self.lr_en[b].d.next = false;
            }
            self.writing[b].next = self.ur_en[b].q.val();
            self.write_list[b].next = self.ur_list[b].q.val();
            self.front[b].next = self.ur_front[b].q.val();
            self.back[b].next = self.ur_back[b].q.val();
            self.prev[b].next = self.f_prev[b].val();
            self.next[b].next = self.f_next[b].val();
            self.has_prev[b].next = self.f_has_prev[b].val();
            self.has_next[b].next = self.f_has_next[b].val();
        }
    }
}
