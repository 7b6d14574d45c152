//! One queue of the receive engine (PRQ or UMQ): the level-1 CAM in front of `N`
//! parallel level-2 lists, with the data mover that keeps the CAM full.
//!
//! MPI order across the two levels rests on one invariant: every CAM entry is older than
//! every list entry. It holds because a new entry goes into the CAM only while the lists
//! are empty (otherwise it joins the lists, behind everything there), and the data mover
//! refills the CAM with the globally oldest list entry (a search for any entry returns
//! each list's head, the oldest label wins) as its youngest entry. So a CAM hit, which is
//! the oldest CAM match, is the oldest match of the queue, and only a CAM miss needs the
//! lists. Between operations the CAM is full (`cam.rs`: its open bank used up and no bank
//! empty) or the lists are empty.
//!
//! Protocol (cycle `S` is the one `search` is high in; a command only while `quick` is high):
//! - `search`: the CAM compares at `S` and answers at `S + 2` (by handle, a scan, at
//!   `S + D + 5`: `cam::handle_search_cycles`). A hit, or a miss while the lists are
//!   empty, raises `done` with the answer; otherwise the lists' search is issued from a
//!   register the cycle after (so no path runs from the CAM's answer to the lists' RAM
//!   addresses) and `done` rises when they answer (see `parallel_lists`).
//!   With `done`, `found` and `found_*` describe the answer.
//! - With `done` the queue takes `remove` (delete the answer) or nothing, and removes it
//!   at the end of the next cycle (Hold): it registers `remove` (`removing`), and tells
//!   the CAM a cycle ahead (`cam.rs`, "Removal"), so the engine's decision, made with the
//!   answer, reaches no slot in the cycle the next search compares. A CAM removal that
//!   empties a CAM bank (`frees`) while the lists hold entries starts the data mover in
//!   that same cycle: it searches the lists for any entry (each list's head: one
//!   element), and when they answer the oldest head moves into the CAM and leaves its
//!   list; two cycles later (the lists' counter settles) it moves again while the CAM is
//!   not full and the lists hold entries. Any other CAM removal leaves the CAM full, and
//!   needs no move.
//! - `insert` (when idle): one edge into the CAM while the lists are empty and the CAM
//!   has room, otherwise into the lists (busy for the list's two cycles). `full`: an
//!   insert would go to the lists and they have no room, or no posting label that keeps
//!   their order (`parallel_lists`); the engine answers overflow.
//! - `quick`: this cycle's removal (the `remove` taken with the answer) or `insert` (or
//!   none) is done at this edge, so the next search may start in this same cycle — the
//!   CAM's match vector describes the slots after the edge. Not quick: a list insert, a
//!   list removal (the lists' counters and full flags settle a cycle later, and the next
//!   decision reads them), a removal that starts the data mover, a search under way.
//!   `blocking` is the subset that lasts several cycles (a list walk, the mover, a list
//!   insert), during which the engine takes no command.
//! - `key_load`: the key inputs (`search_mode`, `key_*`) are loaded at this edge, and a
//!   later `search` uses them (the CAM keeps a copy per bank, see `cam.rs`). The lists
//!   search with the key registered when `search` was high, so the engine may load the
//!   next command's key while they walk.
//!
//! Every control input but `remove` comes from a register of the engine, `remove` from
//! the engine's decision on this queue's answer, and it ends at registers here (`removing`
//! and the CAM's); every decision here reads registers or the CAM's and lists' registered
//! answers, so no path runs from one module's handshake back into itself.
//!
//! # Why `quick` is registered
//! The engine issues the next command when both queues are `quick`, and the issue
//! enables every match-vector register of the CAM it searches. Computed from this queue's
//! state, the lists' occupancy and the CAM's flags, `quick` put the default engine's
//! critical path from one queue's lists, across the device and through the issue, into
//! the other queue's 256 match-vector enables (the `two-level` timing records and history
//! hold the runs). So every term of `quick` is a flip-flop loaded from the next values of
//! what it reads: `idle` (this queue's next state), the lists' `busy` (itself a flip-flop:
//! each list says whether it is busy after the edge with an insert and without, and the
//! lists pick by where the insert goes, so the engine's insert meets one select there),
//! `cam_room` (the lists' `empty_next`, the CAM's `full_next`) and `hold_quick` (the next
//! state, `take_*`, `remove`, which `removing` takes, `empty_next` and the CAM's
//! `frees_next`). Each is a function of registers evaluated one edge early, so `quick` is
//! the same in every cycle after reset and the cycle model does not change; only the
//! engine's insert register meets these flip-flops in the cycle. Loading the match vector
//! under an earlier enable instead was tried and did not route (`cam.rs`, "Timing").

use crate::fields::FieldWidths;
use crate::ports::EntryPorts;
use crate::two_level::cam::Cam;
use crate::two_level::parallel_lists::ParallelLists;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct TwoLevelQueue<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub quick: Signal<Out, Bit>,
    pub blocking: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<16>>,
    pub cam_count: Signal<Out, Bits<16>>,
    pub insert: Signal<In, Bit>,
    pub r#in: EntryPorts,
    pub search: Signal<In, Bit>,
    /// Load the key (`search_mode`, `key_*`) at this edge for the searches after it.
    pub key_load: Signal<In, Bit>,
    pub search_mode: Signal<In, Bits<2>>,
    pub key: EntryPorts,
    /// The search's answer is in `found*` this cycle.
    pub done: Signal<Out, Bit>,
    pub found: Signal<Out, Bit>,
    pub found_handle: Signal<Out, Bits<32>>,
    pub found_src: Signal<Out, Bits<32>>,
    pub found_tag: Signal<Out, Bits<32>>,
    /// With `done`: delete the answer (at the end of the next cycle).
    pub remove: Signal<In, Bit>,
    cam_level: Cam,
    lists: ParallelLists<A>,
    /// Idle, Cam (its answer is out), ListStart (the lists' search is issued), List (the
    /// lists walk), Hold (the answer's removal, taken with `done`, is done), Move (the
    /// data mover waits for the lists).
    state: DFF<Bits<3>>,
    /// In Hold only: the answer is a CAM hit, or a list entry, that `removing` takes
    /// (flags set on entering Hold, so a removal is one gate from registers, not a state
    /// decode). The CAM hears of its removal a cycle earlier (`remove_next`).
    take_cam: DFF<Bit>,
    take_list: DFF<Bit>,
    /// In Hold: the answer leaves at this edge (`remove`, registered).
    removing: DFF<Bit>,
    /// `quick`'s terms, registered from the next state of what they read (module docs,
    /// "Why `quick` is registered"): Idle; the lists empty and the CAM not full; Hold with
    /// a removal that needs no list step and no mover.
    idle: DFF<Bit>,
    cam_room: DFF<Bit>,
    hold_quick: DFF<Bit>,
    /// The next values of `state`, `take_cam` and `take_list` (a register's input is not
    /// read back).
    state_next: Signal<Local, Bits<3>>,
    take_cam_next: Signal<Local, Bit>,
    take_list_next: Signal<Local, Bit>,
    /// The running search's key, for the lists.
    l_mode: DFF<Bits<2>>,
    l_comm: DFF<Bits<32>>,
    l_src: DFF<Bits<32>>,
    l_tag: DFF<Bits<32>>,
    l_src_any: DFF<Bit>,
    l_tag_any: DFF<Bit>,
    l_handle: DFF<Bits<32>>,
    /// The loaded key (the CAM keeps its own copies).
    k_mode: DFF<Bits<2>>,
    k_comm: DFF<Bits<32>>,
    k_src: DFF<Bits<32>>,
    k_tag: DFF<Bits<32>>,
    k_src_any: DFF<Bit>,
    k_tag_any: DFF<Bit>,
    k_handle: DFF<Bits<32>>,
    s_idle: Constant<Bits<3>>,
    s_cam: Constant<Bits<3>>,
    s_list: Constant<Bits<3>>,
    s_hold: Constant<Bits<3>>,
    s_move: Constant<Bits<3>>,
    s_list_start: Constant<Bits<3>>,
    s_move_wait: Constant<Bits<3>>,
    s_move_check: Constant<Bits<3>>,
    mode_any: Constant<Bits<2>>,
}

impl<const A: usize> TwoLevelQueue<A> {
    /// A queue of a `cam_depth`-entry CAM in front of `lists` lists of `2^A - 1` entries,
    /// whose lists label entries in `label_bits` bits (see `parallel_lists`).
    pub fn new(cam_depth: usize, lists: usize, widths: FieldWidths, label_bits: u32) -> Self {
        let s = |v: u64| -> Constant<Bits<3>> { Constant::new(v.to_bits()) };
        TwoLevelQueue {
            clock: Default::default(),
            reset: Default::default(),
            quick: Default::default(),
            blocking: Default::default(),
            full: Default::default(),
            count: Default::default(),
            cam_count: Default::default(),
            insert: Default::default(),
            r#in: Default::default(),
            search: Default::default(),
            key_load: Default::default(),
            search_mode: Default::default(),
            key: Default::default(),
            done: Default::default(),
            found: Default::default(),
            found_handle: Default::default(),
            found_src: Default::default(),
            found_tag: Default::default(),
            remove: Default::default(),
            cam_level: Cam::new(cam_depth, widths),
            lists: ParallelLists::new(lists, widths, label_bits),
            state: Default::default(),
            take_cam: Default::default(),
            take_list: Default::default(),
            removing: Default::default(),
            idle: Default::default(),
            cam_room: Default::default(),
            hold_quick: Default::default(),
            state_next: Default::default(),
            take_cam_next: Default::default(),
            take_list_next: Default::default(),
            l_mode: Default::default(),
            l_comm: Default::default(),
            l_src: Default::default(),
            l_tag: Default::default(),
            l_src_any: Default::default(),
            l_tag_any: Default::default(),
            l_handle: Default::default(),
            k_mode: Default::default(),
            k_comm: Default::default(),
            k_src: Default::default(),
            k_tag: Default::default(),
            k_src_any: Default::default(),
            k_tag_any: Default::default(),
            k_handle: Default::default(),
            s_idle: s(0),
            s_cam: s(1),
            s_list: s(2),
            s_hold: s(3),
            s_move: s(4),
            s_list_start: s(5),
            s_move_wait: s(6),
            s_move_check: s(7),
            mode_any: Constant::new(crate::two_level::bram_list::MODE_ANY.to_bits()),
        }
    }
}

impl<const A: usize> Logic for TwoLevelQueue<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, removing, idle, cam_room, hold_quick, l_mode, l_comm, l_src, l_tag, l_src_any,
            l_tag_any, l_handle, k_mode, k_comm, k_src, k_tag, k_src_any, k_tag_any, k_handle
        );
        self.state.clock.next = self.clock.val();
        self.take_cam.clock.next = self.clock.val();
        self.take_list.clock.next = self.clock.val();
        self.state_next.next = self.state.q.val();
        self.cam_level.clock.next = self.clock.val();
        self.lists.clock.next = self.clock.val();
        self.cam_level.reset.next = self.reset.val();
        self.lists.reset.next = self.reset.val();

        // Both levels search with the key loaded before the search: the CAM with its own
        // copies, the lists with the key registered when the search started.
        self.cam_level.search.next = false;
        self.cam_level.key_load.next = self.key_load.val();
        self.cam_level.search_mode.next = self.search_mode.val();
        self.cam_level.key.comm.next = self.key.comm.val();
        self.cam_level.key.src.next = self.key.src.val();
        self.cam_level.key.tag.next = self.key.tag.val();
        self.cam_level.key.src_any.next = self.key.src_any.val();
        self.cam_level.key.tag_any.next = self.key.tag_any.val();
        self.cam_level.key.handle.next = self.key.handle.val();
        self.lists.search.next = false;
        self.lists.search_mode.next = self.l_mode.q.val();
        self.lists.key.comm.next = self.l_comm.q.val();
        self.lists.key.src.next = self.l_src.q.val();
        self.lists.key.tag.next = self.l_tag.q.val();
        self.lists.key.src_any.next = self.l_src_any.q.val();
        self.lists.key.tag_any.next = self.l_tag_any.q.val();
        self.lists.key.handle.next = self.l_handle.q.val();
        if self.key_load.val() {
            self.k_mode.d.next = self.search_mode.val();
            self.k_comm.d.next = self.key.comm.val();
            self.k_src.d.next = self.key.src.val();
            self.k_tag.d.next = self.key.tag.val();
            self.k_src_any.d.next = self.key.src_any.val();
            self.k_tag_any.d.next = self.key.tag_any.val();
            self.k_handle.d.next = self.key.handle.val();
        }
        if self.search.val() {
            self.l_mode.d.next = self.k_mode.q.val();
            self.l_comm.d.next = self.k_comm.q.val();
            self.l_src.d.next = self.k_src.q.val();
            self.l_tag.d.next = self.k_tag.q.val();
            self.l_src_any.d.next = self.k_src_any.q.val();
            self.l_tag_any.d.next = self.k_tag_any.q.val();
            self.l_handle.d.next = self.k_handle.q.val();
        }
        // The CAM hears of a removal of its answer in the answer's cycle (what `take_cam`
        // is set from), the lists in Hold.
        self.removing.d.next = self.remove.val();
        self.cam_level.remove_next.next = self.remove.val()
            & (self.state.q.val() == self.s_cam.val())
            & self.cam_level.answered.val()
            & self.cam_level.hit.val();
        self.lists.remove.next = self.removing.q.val() & self.take_list.q.val();
        self.take_cam_next.next = false;
        self.take_list_next.next = false;
        // Inserts take the engine's entry; the data mover's (`refilling`, in Move) come
        // from the lists' answer, on a bus of their own (`cam.rs`: "Two insert buses").
        self.cam_level.insert.next = false;
        self.cam_level.r#in.comm.next = self.r#in.comm.val();
        self.cam_level.r#in.src.next = self.r#in.src.val();
        self.cam_level.r#in.tag.next = self.r#in.tag.val();
        self.cam_level.r#in.src_any.next = self.r#in.src_any.val();
        self.cam_level.r#in.tag_any.next = self.r#in.tag_any.val();
        self.cam_level.r#in.handle.next = self.r#in.handle.val();
        self.cam_level.refilling.next = self.state.q.val() == self.s_move.val();
        self.cam_level.refill.comm.next = self.lists.found_comm.val();
        self.cam_level.refill.src.next = self.lists.found_src.val();
        self.cam_level.refill.tag.next = self.lists.found_tag.val();
        self.cam_level.refill.src_any.next = self.lists.found_src_any.val();
        self.cam_level.refill.tag_any.next = self.lists.found_tag_any.val();
        self.cam_level.refill.handle.next = self.lists.found_handle.val();
        self.lists.insert.next = false;
        self.lists.r#in.comm.next = self.r#in.comm.val();
        self.lists.r#in.src.next = self.r#in.src.val();
        self.lists.r#in.tag.next = self.r#in.tag.val();
        self.lists.r#in.src_any.next = self.r#in.src_any.val();
        self.lists.r#in.tag_any.next = self.r#in.tag_any.val();
        self.lists.r#in.handle.next = self.r#in.handle.val();

        self.blocking.next = self.lists.busy.val()
            | (self.state.q.val() == self.s_list_start.val())
            | (self.state.q.val() == self.s_list.val())
            | (self.state.q.val() == self.s_move.val())
            | (self.state.q.val() == self.s_move_wait.val())
            | (self.state.q.val() == self.s_move_check.val());
        // Done at this edge: an insert into the CAM, a CAM removal that needs no mover,
        // nothing. (After a list removal the lists' counters and full flags settle a cycle
        // later, and the next search's decision reads them.) Its terms are registered (set
        // at the end of `update`), so only the engine's insert register meets them here.
        self.quick.next =
            (self.idle.q.val() & !self.lists.busy.val() & (!self.insert.val() | self.cam_room.q.val()))
                | self.hold_quick.q.val();
        // An insert would go to the lists, and they have no room or no label that keeps
        // their order (`parallel_lists`: the engine answers overflow either way).
        self.full.next = (!self.lists.empty.val() | self.cam_level.full.val())
            & (self.lists.full.val() | !self.lists.label_room.val());
        self.count.next = self.cam_level.count.val() + self.lists.count.val();
        self.cam_count.next = self.cam_level.count.val();

        // The answer: the CAM's while in Cam, the lists' otherwise.
        self.done.next = false;
        self.found.next = self.lists.found.val();
        self.found_handle.next = self.lists.found_handle.val();
        self.found_src.next = self.lists.found_src.val();
        self.found_tag.next = self.lists.found_tag.val();
        if self.state.q.val() == self.s_cam.val() {
            self.found.next = self.cam_level.hit.val();
            self.found_handle.next = self.cam_level.hit_handle.val();
            self.found_src.next = self.cam_level.hit_src.val();
            self.found_tag.next = self.cam_level.hit_tag.val();
        }

        if self.state.q.val() == self.s_idle.val() {
            // An insert and a search may share the edge (the engine only does so when the
            // insert goes to the CAM, which the search then sees).
            if self.insert.val() {
                if self.lists.empty.val() & !self.cam_level.full.val() {
                    self.cam_level.insert.next = true;
                } else {
                    self.lists.insert.next = true;
                }
            }
            if self.search.val() {
                self.cam_level.search.next = true;
                self.state_next.next = self.s_cam.val();
            }
        } else if self.state.q.val() == self.s_cam.val() {
            if self.cam_level.answered.val() {
                if self.cam_level.hit.val() | self.lists.empty.val() {
                    self.done.next = true;
                    self.take_cam_next.next = self.cam_level.hit.val();
                    self.state_next.next = self.s_hold.val();
                } else {
                    // The lists start from a register next cycle: no path from the CAM's
                    // answer to their RAM addresses.
                    self.state_next.next = self.s_list_start.val();
                }
            }
        } else if self.state.q.val() == self.s_list_start.val() {
            self.lists.search.next = true;
            self.state_next.next = self.s_list.val();
        } else if self.state.q.val() == self.s_list.val() {
            if self.lists.done.val() {
                self.done.next = true;
                self.take_list_next.next = self.lists.found.val();
                self.state_next.next = self.s_hold.val();
            }
        } else if self.state.q.val() == self.s_hold.val() {
            self.state_next.next = self.s_idle.val();
            if self.removing.q.val()
                & self.take_cam.q.val()
                & !self.lists.empty.val()
                & self.cam_level.frees.val()
            {
                // The removal empties a CAM bank: the data mover finds the oldest list head.
                self.lists.search.next = true;
                self.lists.search_mode.next = self.mode_any.val();
                self.state_next.next = self.s_move.val();
            }
            // The next search, in the removal's edge (only when that needs no mover).
            if self.search.val() {
                self.cam_level.search.next = true;
                self.state_next.next = self.s_cam.val();
            }
        } else if self.state.q.val() == self.s_move_wait.val() {
            // The lists' counter settles a cycle after the move's removal. No search here
            // also keeps the CAM's refill contract (`cam.rs`: none in or right after a
            // refill's edge).
            self.state_next.next = self.s_move_check.val();
        } else if self.state.q.val() == self.s_move_check.val() {
            // Refill until the CAM is full or the lists are empty (a freed bank takes up
            // to a bank's worth of moves).
            self.state_next.next = self.s_idle.val();
            if !self.cam_level.full.val() & !self.lists.empty.val() {
                self.lists.search.next = true;
                self.lists.search_mode.next = self.mode_any.val();
                self.state_next.next = self.s_move.val();
            }
        } else {
            // Move: the oldest head goes to the CAM's tail and leaves its list.
            if self.lists.done.val() {
                self.lists.remove.next = true;
                self.cam_level.insert.next = true;
                self.state_next.next = self.s_move_wait.val();
            }
        }
        if self.reset.val() {
            self.state_next.next = self.s_idle.val();
            self.take_cam_next.next = false;
            self.take_list_next.next = false;
        }
        self.state.d.next = self.state_next.val();
        self.take_cam.d.next = self.take_cam_next.val();
        self.take_list.d.next = self.take_list_next.val();
        // `quick`'s terms for the next cycle, from what its registers will hold then
        // (`removing` takes `remove`).
        self.idle.d.next = self.state_next.val() == self.s_idle.val();
        self.cam_room.d.next = self.lists.empty_next.val() & !self.cam_level.full_next.val();
        self.hold_quick.d.next = (self.state_next.val() == self.s_hold.val())
            & !(self.remove.val()
                & (self.take_list_next.val()
                    | (self.take_cam_next.val()
                        & !self.lists.empty_next.val()
                        & self.cam_level.frees_next.val())));
    }
}

/// A standalone queue's Verilog, top module `top`.
pub fn two_level_queue_verilog<const A: usize>(cam_depth: usize, lists: usize) -> String {
    let mut uut = TwoLevelQueue::<A>::new(cam_depth, lists, FieldWidths::default(), 32);
    uut.connect_all();
    let verilog = crate::ports::flatten_bundle_names(&generate_verilog(&uut));
    crate::two_level::cam::with_cam_modules(crate::primitives::trees::isolate_outputs(&verilog))
}

/// Ports of [`TwoLevelQueue`] as (name, width, is input).
pub fn two_level_queue_ports() -> Vec<(&'static str, u32, bool)> {
    let drop = [
        "busy",
        "busy_next_insert",
        "busy_next_quiet",
        "in_label",
        "found_label",
        "found_comm",
        "found_src_any",
        "found_tag_any",
        "steps",
    ];
    let mut p: Vec<_> = crate::two_level::bram_list::bram_list_ports()
        .into_iter()
        .filter(|(n, _, _)| !drop.contains(n))
        .collect();
    p.push(("cam_count", 16, false));
    p.push(("done", 1, false));
    p.push(("quick", 1, false));
    p.push(("blocking", 1, false));
    p.push(("key_load", 1, true));
    p
}
