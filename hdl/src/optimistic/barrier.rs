//! The thread array's partial barrier and conflict detection, across the lanes.
//!
//! A receive's booking bitmap is the set of lanes that booked it, and a lane books exactly
//! its candidate, once a block: so the bitmap of lane `i`'s candidate is formed from the
//! lanes' candidate registers (`N x N` pointer compares), not stored per descriptor (`D`
//! bitmaps written through an `N x D` decode at the end of every walk).
//!
//! The barrier reaches lane `i` once lanes `0..=i` have booked (or have no message); lane
//! `i` resolves (`resolving`) when a lane at or below it holds a candidate that a lower lane
//! booked too, so every lane after a conflict resolves. A slow lane walks again once the
//! lane before it is done and, if that one took its receive on the slow path, has
//! unlinked it (`prev_done`: granted, and out of the unlink's second stage).

use crate::optimistic::shape::MAX_LANES;
use crate::optimistic::vectors::{k, signals};
use crate::primitives::select::LowestSet;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Barrier {
    /// Per lane: it has a message; it has ended its first walk; it is done; its
    /// candidate (0: none); its taken receive is still to be unlinked; it took it on the
    /// slow path.
    pub valid: Vec<Signal<In, Bit>>,
    pub booked: Vec<Signal<In, Bit>>,
    pub done: Vec<Signal<In, Bit>>,
    pub candidate: Vec<Signal<In, Bits<16>>>,
    pub pending: Vec<Signal<In, Bit>>,
    pub slow: Vec<Signal<In, Bit>>,
    /// An unlink writes this cycle.
    pub unlinking: Signal<In, Bit>,
    /// Per lane: the barrier has reached it; it resolves; the lane before it is done
    /// and its receive unlinked.
    pub barrier: Vec<Signal<Out, Bit>>,
    pub resolving: Vec<Signal<Out, Bit>>,
    pub prev_done: Vec<Signal<Out, Bit>>,
    /// Every lane has booked; every lane is done.
    pub all_booked: Signal<Out, Bit>,
    pub all_done: Signal<Out, Bit>,
    /// Every lane with a message booked lane 0's candidate.
    pub all_share_first: Signal<Out, Bit>,
    lane_bit: Vec<Constant<Bits<MAX_LANES>>>,
    lower_lanes: Vec<Constant<Bits<MAX_LANES>>>,
    zero16: Constant<Bits<16>>,
    zero_lanes: Constant<Bits<MAX_LANES>>,
    /// Per lane: it has booked a candidate; its candidate's booking bitmap.
    w_booked: Vec<Signal<Local, Bit>>,
    w_bitmap: Vec<Signal<Local, Bits<MAX_LANES>>>,
    /// Per lane: it has booked or has no message; it has a conflict (before the prefixes).
    w_reached: Vec<Signal<Local, Bit>>,
    w_conflict: Vec<Signal<Local, Bit>>,
    /// The lanes with a message.
    g_mask: Signal<Local, Bits<MAX_LANES>>,
    /// The prefixes over the lanes, as prefix-OR trees (a ripple chain over 16 lanes was
    /// as deep as the lanes are many): the lowest lane that has not reached the barrier,
    /// and the lowest with a conflict.
    not_reached: LowestSet,
    conflicted: LowestSet,
    _lanes: usize,
    /// `lanes - 1` and `lanes`: rust-hdl evaluates an index from loop variables only, so
    /// the last lane's is written inside `for last in _last.._lanes`.
    _last: usize,
}

impl Barrier {
    pub fn new(lanes: usize) -> Self {
        assert!((1..=MAX_LANES).contains(&lanes), "{lanes} lanes");
        let n = lanes;
        Barrier {
            valid: signals(n),
            booked: signals(n),
            done: signals(n),
            candidate: signals(n),
            pending: signals(n),
            slow: signals(n),
            unlinking: Default::default(),
            barrier: signals(n),
            resolving: signals(n),
            prev_done: signals(n),
            all_booked: Default::default(),
            all_done: Default::default(),
            all_share_first: Default::default(),
            lane_bit: (0..n).map(|i| k(1 << i)).collect(),
            lower_lanes: (0..n).map(|i| k((1 << i) - 1)).collect(),
            zero16: k(0),
            zero_lanes: k(0),
            w_booked: signals(n),
            w_bitmap: signals(n),
            w_reached: signals(n),
            w_conflict: signals(n),
            g_mask: Default::default(),
            not_reached: LowestSet::new(n),
            conflicted: LowestSet::new(n),
            _lanes: n,
            _last: n - 1,
        }
    }
}

impl Logic for Barrier {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._lanes {
            self.w_booked[i].next = self.booked[i].val() & (self.candidate[i].val() != self.zero16.val());
        }
        for i in 0..self._lanes {
            self.w_bitmap[i].next = self.zero_lanes.val();
            for j in 0..self._lanes {
                if self.w_booked[j].val() & (self.candidate[j].val() == self.candidate[i].val()) {
                    self.w_bitmap[i].next = self.w_bitmap[i].val() | self.lane_bit[j].val();
                }
            }
        }
        self.all_done.next = true;
        self.g_mask.next = self.zero_lanes.val();
        for i in 0..self._lanes {
            self.w_reached[i].next = !self.valid[i].val() | self.booked[i].val();
            self.w_conflict[i].next = (self.candidate[i].val() != self.zero16.val())
                & (self.w_bitmap[i].val() & self.lower_lanes[i].val()).any();
            self.all_done.next = self.all_done.val() & (!self.valid[i].val() | self.done[i].val());
            if self.valid[i].val() {
                self.g_mask.next = self.g_mask.val() | self.lane_bit[i].val();
            }
        }
        // Prefixes over the lanes: lane i is reached when no lane up to i is unreached, and
        // resolves when a lane up to i has a conflict.
        for i in 0..self._lanes {
            self.not_reached.bits[i].next = !self.w_reached[i].val();
            self.conflicted.bits[i].next = self.w_conflict[i].val();
        }
        for i in 0..self._last {
            self.barrier[i].next = !self.not_reached.reached[i].val();
            self.resolving[i].next = self.conflicted.reached[i].val();
        }
        for last in self._last..self._lanes {
            self.barrier[last].next = !self.not_reached.found.val();
            self.resolving[last].next = self.conflicted.found.val();
        }
        self.all_booked.next = !self.not_reached.found.val();
        self.all_share_first.next = self.w_bitmap[0].val() == self.g_mask.val();
        self.prev_done[0].next = true;
        for i in 1..self._lanes {
            self.prev_done[i].next = self.done[i - 1].val()
                & !(self.pending[i - 1].val() & self.slow[i - 1].val())
                & !self.unlinking.val();
        }
    }
}
