//! Which of a lane's four lists its walk reads, and in what order: the exact, `ANY_SOURCE`,
//! `ANY_TAG` and both-wildcards lists (classes 0 to 3), in class order. The first walk
//! reads the lists of the classes that hold a receive (`occupied`,
//! [`crate::optimistic::list_occupancy`]). The slow path's walk reads only those the first
//! walk matched an entry in, kept in a flag per class. Nothing is posted during a block, so
//! no other list can hold a match in it ([`crate::optimistic::lane`]). When a walk has no
//! class to read, it reads the last list (and finds nothing).
//!
//! From the lane's registered walk position (class, list, still reading, and the move to
//! the next list decided last cycle), the block gives this cycle's position and the head
//! address to read: the head read runs a list ahead of the compare, so while the walk moves
//! to the next list it already addresses the one after. Inputs are flags and registers,
//! so the choice is a few LUTs beside the walk's read, not behind it.

use crate::optimistic::vectors::k;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WalkOrder {
    pub clock: Signal<In, Clock>,
    /// A block starts: the flags clear.
    pub clear: Signal<In, Bit>,
    /// The lane is on its first walk or before it: the occupied classes' lists are read.
    pub first_walk: Signal<In, Bit>,
    /// Bit `c`: class `c` holds a receive (steady while first walks run).
    pub occupied: Signal<In, Bits<4>>,
    /// The first walk's compare stage matched an entry of class `hit_class`'s list.
    pub hit: Signal<In, Bit>,
    pub hit_class: Signal<In, Bits<2>>,
    /// The lane's registered walk position: its class and list, whether lists are left
    /// to read; and the move to the next list decided last cycle, applied now.
    pub current: Signal<In, Bits<2>>,
    pub current_list: Signal<In, Bits<16>>,
    pub reading: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    /// The four lists, by class.
    pub list_exact: Signal<In, Bits<16>>,
    pub list_any_src: Signal<In, Bits<16>>,
    pub list_any_tag: Signal<In, Bits<16>>,
    pub list_both: Signal<In, Bits<16>>,
    /// This cycle's position, the move applied: class, list, lists left to read, and
    /// whether the class is the last walked one.
    pub now_class: Signal<Out, Bits<2>>,
    pub now_list: Signal<Out, Bits<16>>,
    pub now_reading: Signal<Out, Bit>,
    pub now_last: Signal<Out, Bit>,
    /// The head address of the list read next while walking: the one after this cycle's.
    /// (When starting a walk, `first_list`. The lane chooses: a lane-state input here
    /// would make one Verilator block of the lane's logic and this one a loop.)
    pub address: Signal<Out, Bits<16>>,
    /// The first walked class (3 when none is walked) and its list.
    pub first: Signal<Out, Bits<2>>,
    pub first_list: Signal<Out, Bits<16>>,
    /// The walked class after `current`, whether there is one, and its list.
    next1: Signal<Local, Bits<2>>,
    next1_ok: Signal<Local, Bit>,
    next1_list: Signal<Local, Bits<16>>,
    /// The walked class after `next1`, whether there is one, and its list.
    next2_ok: Signal<Local, Bit>,
    next2_list: Signal<Local, Bits<16>>,
    class0: Constant<Bits<2>>,
    class1: Constant<Bits<2>>,
    class2: Constant<Bits<2>>,
    class3: Constant<Bits<2>>,
    classes: Vec<Constant<Bits<2>>>,
    /// Per class: the first walk matched in its list.
    matched: Vec<DFF<Bit>>,
    /// Per class: the walk reads its list.
    walked: Vec<Signal<Local, Bit>>,
    next2: Signal<Local, Bits<2>>,
}

impl Default for WalkOrder {
    fn default() -> Self {
        WalkOrder {
            clock: Default::default(),
            clear: Default::default(),
            first_walk: Default::default(),
            occupied: Default::default(),
            hit: Default::default(),
            hit_class: Default::default(),
            current: Default::default(),
            current_list: Default::default(),
            reading: Default::default(),
            advance: Default::default(),
            now_class: Default::default(),
            now_list: Default::default(),
            now_reading: Default::default(),
            now_last: Default::default(),
            address: Default::default(),
            list_exact: Default::default(),
            list_any_src: Default::default(),
            list_any_tag: Default::default(),
            list_both: Default::default(),
            first: Default::default(),
            first_list: Default::default(),
            next1: Default::default(),
            next1_ok: Default::default(),
            next1_list: Default::default(),
            next2_ok: Default::default(),
            next2_list: Default::default(),
            class0: k(0),
            class1: k(1),
            class2: k(2),
            class3: k(3),
            classes: (0..4).map(k).collect(),
            matched: (0..4).map(|_| Default::default()).collect(),
            walked: (0..4).map(|_| Default::default()).collect(),
            next2: Default::default(),
        }
    }
}

impl Logic for WalkOrder {
    #[hdl_gen]
    fn update(&mut self) {
        for c in 0..4 {
            self.matched[c].clock.next = self.clock.val();
            self.matched[c].d.next = self.matched[c].q.val();
            if self.hit.val() & (self.hit_class.val() == self.classes[c].val()) {
                self.matched[c].d.next = true;
            }
            if self.clear.val() {
                self.matched[c].d.next = false;
            }
            self.walked[c].next = self.matched[c].q.val();
            if self.first_walk.val() {
                self.walked[c].next = self.occupied.val().get_bit(c);
            }
        }
        if !(self.walked[0].val() | self.walked[1].val() | self.walked[2].val()) {
            self.walked[3].next = true;
        }
        // Each choice is written from the highest class down, so the lowest one wins.
        self.first.next = self.class3.val();
        if self.walked[2].val() {
            self.first.next = self.class2.val();
        }
        if self.walked[1].val() {
            self.first.next = self.class1.val();
        }
        if self.walked[0].val() {
            self.first.next = self.class0.val();
        }
        self.next1.next = self.class3.val();
        self.next1_ok.next = (self.current.val() < self.class3.val()) & self.walked[3].val();
        if (self.current.val() < self.class2.val()) & self.walked[2].val() {
            self.next1.next = self.class2.val();
            self.next1_ok.next = true;
        }
        if (self.current.val() < self.class1.val()) & self.walked[1].val() {
            self.next1.next = self.class1.val();
            self.next1_ok.next = true;
        }
        // `next1` is 1 at the least, so `next2` is 2 or 3.
        self.next2.next = self.class3.val();
        self.next2_ok.next = (self.next1.val() < self.class3.val()) & self.walked[3].val();
        if (self.next1.val() < self.class2.val()) & self.walked[2].val() {
            self.next2.next = self.class2.val();
            self.next2_ok.next = true;
        }
        self.first_list.next = self.list_both.val();
        if self.first.val() == self.class0.val() {
            self.first_list.next = self.list_exact.val();
        } else if self.first.val() == self.class1.val() {
            self.first_list.next = self.list_any_src.val();
        } else if self.first.val() == self.class2.val() {
            self.first_list.next = self.list_any_tag.val();
        }
        self.next1_list.next = self.list_both.val();
        if self.next1.val() == self.class1.val() {
            self.next1_list.next = self.list_any_src.val();
        } else if self.next1.val() == self.class2.val() {
            self.next1_list.next = self.list_any_tag.val();
        }
        self.next2_list.next = self.list_both.val();
        if self.next2.val() == self.class2.val() {
            self.next2_list.next = self.list_any_tag.val();
        }
        self.now_class.next = self.current.val();
        self.now_list.next = self.current_list.val();
        self.now_reading.next = self.reading.val();
        self.now_last.next = !self.next1_ok.val();
        if self.advance.val() {
            self.now_list.next = self.next1_list.val();
            self.now_last.next = !self.next2_ok.val();
            if self.next1_ok.val() {
                self.now_class.next = self.next1.val();
            } else {
                self.now_reading.next = false;
            }
        }
        self.address.next = self.next1_list.val();
        if self.advance.val() {
            self.address.next = self.next2_list.val();
        }
    }
}
