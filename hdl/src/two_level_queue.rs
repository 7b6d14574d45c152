//! One queue of the receive engine (PRQ or UMQ): the level-1 CAM in front of `N`
//! parallel level-2 lists, with the data mover that keeps the CAM full.
//!
//! MPI order across the two levels rests on one invariant: every CAM entry is older than
//! every list entry. It holds because a new entry goes into the CAM only while the lists
//! are empty (otherwise it joins the lists, behind everything there), and the data mover
//! refills the CAM with the globally oldest list entry (a search for any entry returns
//! each list's head, the smallest label wins) at the CAM's tail. So a CAM hit, which is
//! the oldest CAM match, is the oldest match of the queue, and only a CAM miss needs the
//! lists.
//!
//! Protocol (commands when `busy` is low, one per cycle):
//! - `insert`: one cycle into the CAM, or the lists' two; ignored when `full`.
//! - `search`: a CAM hit is reported the next cycle; otherwise the lists are walked and
//!   `busy` stays high until the answer is in `found`/`found_*`.
//! - `remove`: deletes what the last search found; valid until the next command.
//!
//! The data mover has priority: whenever the CAM has room, the lists hold entries and no
//! search result is waiting to be removed (so a reported position cannot move under a
//! `remove`), it runs and `busy` is high. So `full` means the whole capacity is in use.

use crate::cam::Cam;
use crate::parallel_lists::ParallelLists;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct TwoLevelQueue<const C: usize, const A: usize, const N: usize> {
    pub clock: Signal<In, Clock>,
    pub busy: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<16>>,
    pub cam_count: Signal<Out, Bits<16>>,
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
    pub found_handle: Signal<Out, Bits<32>>,
    pub found_src: Signal<Out, Bits<16>>,
    pub found_tag: Signal<Out, Bits<32>>,
    pub remove: Signal<In, Bit>,
    /// Diagnostics of the last list walk: elements compared by the longest list, and the
    /// list and label of its winner.
    pub walk_steps: Signal<Out, Bits<16>>,
    pub walk_list: Signal<Out, Bits<8>>,
    pub walk_label: Signal<Out, Bits<32>>,
    cam: Cam<C>,
    lists: ParallelLists<A, N>,
    /// Idle, WaitInsert, WaitSearch, Move.
    state: DFF<Bits<2>>,
    armed: DFF<Bit>,
    from_cam: DFF<Bit>,
    hit: DFF<Bit>,
    hit_index: DFF<Bits<16>>,
    hit_handle: DFF<Bits<32>>,
    hit_src: DFF<Bits<16>>,
    hit_tag: DFF<Bits<32>>,
    s_idle: Constant<Bits<2>>,
    s_insert: Constant<Bits<2>>,
    s_search: Constant<Bits<2>>,
    s_move: Constant<Bits<2>>,
    zero16: Constant<Bits<16>>,
    mode_any: Constant<Bits<2>>,
    lists_empty: Signal<Local, Bit>,
    mover_due: Signal<Local, Bit>,
}

impl<const C: usize, const A: usize, const N: usize> Default for TwoLevelQueue<C, A, N> {
    fn default() -> Self {
        TwoLevelQueue {
            clock: Default::default(),
            busy: Default::default(),
            full: Default::default(),
            count: Default::default(),
            cam_count: Default::default(),
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
            found_handle: Default::default(),
            found_src: Default::default(),
            found_tag: Default::default(),
            remove: Default::default(),
            walk_steps: Default::default(),
            walk_list: Default::default(),
            walk_label: Default::default(),
            cam: Default::default(),
            lists: Default::default(),
            state: Default::default(),
            armed: Default::default(),
            from_cam: Default::default(),
            hit: Default::default(),
            hit_index: Default::default(),
            hit_handle: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            s_idle: Constant::new(0u64.to_bits()),
            s_insert: Constant::new(1u64.to_bits()),
            s_search: Constant::new(2u64.to_bits()),
            s_move: Constant::new(3u64.to_bits()),
            zero16: Constant::new(0u64.to_bits()),
            mode_any: Constant::new(crate::bram_list::MODE_ANY.to_bits()),
            lists_empty: Default::default(),
            mover_due: Default::default(),
        }
    }
}

impl<const C: usize, const A: usize, const N: usize> Logic for TwoLevelQueue<C, A, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, armed, from_cam, hit, hit_index, hit_handle, hit_src, hit_tag);
        self.cam.clock.next = self.clock.val();
        self.lists.clock.next = self.clock.val();

        // The CAM searches combinationally with the command's key.
        self.cam.search_comm.next = self.key_comm.val();
        self.cam.search_src.next = self.key_src.val();
        self.cam.search_tag.next = self.key_tag.val();
        self.cam.search_src_any.next = self.key_src_any.val();
        self.cam.search_tag_any.next = self.key_tag_any.val();
        self.cam.search_mode.next = self.search_mode.val();
        self.cam.search_handle.next = self.key_handle.val();
        self.cam.insert_valid.next = false;
        self.cam.insert_comm.next = self.in_comm.val();
        self.cam.insert_src.next = self.in_src.val();
        self.cam.insert_tag.next = self.in_tag.val();
        self.cam.insert_src_any.next = self.in_src_any.val();
        self.cam.insert_tag_any.next = self.in_tag_any.val();
        self.cam.insert_handle.next = self.in_handle.val();
        self.cam.remove_valid.next = false;
        self.cam.remove_index.next = self.hit_index.q.val();

        self.lists.insert.next = false;
        self.lists.in_comm.next = self.in_comm.val();
        self.lists.in_src.next = self.in_src.val();
        self.lists.in_tag.next = self.in_tag.val();
        self.lists.in_src_any.next = self.in_src_any.val();
        self.lists.in_tag_any.next = self.in_tag_any.val();
        self.lists.in_handle.next = self.in_handle.val();
        self.lists.in_label.next = self.in_label.val();
        self.lists.search.next = false;
        self.lists.search_mode.next = self.search_mode.val();
        self.lists.key_comm.next = self.key_comm.val();
        self.lists.key_src.next = self.key_src.val();
        self.lists.key_tag.next = self.key_tag.val();
        self.lists.key_src_any.next = self.key_src_any.val();
        self.lists.key_tag_any.next = self.key_tag_any.val();
        self.lists.key_handle.next = self.key_handle.val();
        self.lists.remove.next = false;

        self.lists_empty.next = self.lists.count.val() == self.zero16.val();
        // The mover goes first whenever the CAM has room and the lists hold entries, so
        // that `full` means the whole capacity is used, not that the CAM lags behind.
        self.mover_due.next = !self.armed.q.val() & !self.cam.full.val() & !self.lists_empty.val();
        self.busy.next = (self.state.q.val() != self.s_idle.val()) | self.mover_due.val();
        self.full.next = (!self.lists_empty.val() | self.cam.full.val()) & self.lists.full.val();
        self.count.next = self.cam.count.val() + self.lists.count.val();
        self.cam_count.next = self.cam.count.val();
        self.walk_steps.next = self.lists.steps.val();
        self.walk_list.next = self.lists.found_list.val();
        self.walk_label.next = self.lists.found_label.val();
        self.found.next = self.hit.q.val() & self.armed.q.val();
        self.found_handle.next = self.hit_handle.q.val();
        self.found_src.next = self.hit_src.q.val();
        self.found_tag.next = self.hit_tag.q.val();

        if self.state.q.val() == self.s_idle.val() {
            if self.mover_due.val() {
                // Data mover: find the globally oldest list entry.
                self.lists.search.next = true;
                self.lists.search_mode.next = self.mode_any.val();
                self.state.d.next = self.s_move.val();
            } else if self.insert.val() {
                self.armed.d.next = false;
                if self.lists_empty.val() & !self.cam.full.val() {
                    self.cam.insert_valid.next = true;
                } else if !self.lists.full.val() {
                    self.lists.insert.next = true;
                    self.state.d.next = self.s_insert.val();
                }
            } else if self.search.val() {
                self.armed.d.next = true;
                if self.cam.hit.val() {
                    self.hit.d.next = true;
                    self.from_cam.d.next = true;
                    self.hit_index.d.next = self.cam.hit_index.val();
                    self.hit_handle.d.next = self.cam.hit_handle.val();
                    self.hit_src.d.next = self.cam.hit_src.val();
                    self.hit_tag.d.next = self.cam.hit_tag.val();
                } else if !self.lists_empty.val() {
                    self.lists.search.next = true;
                    self.state.d.next = self.s_search.val();
                } else {
                    self.hit.d.next = false;
                }
            } else if self.remove.val() {
                if self.armed.q.val() & self.hit.q.val() {
                    if self.from_cam.q.val() {
                        self.cam.remove_valid.next = true;
                    } else {
                        self.lists.remove.next = true;
                    }
                }
                self.armed.d.next = false;
                self.hit.d.next = false;
            }
        } else if self.state.q.val() == self.s_insert.val() {
            if !self.lists.busy.val() {
                self.state.d.next = self.s_idle.val();
            }
        } else if self.state.q.val() == self.s_search.val() {
            if !self.lists.busy.val() {
                self.hit.d.next = self.lists.found.val();
                self.from_cam.d.next = false;
                self.hit_handle.d.next = self.lists.found_handle.val();
                self.hit_src.d.next = self.lists.found_src.val();
                self.hit_tag.d.next = self.lists.found_tag.val();
                self.state.d.next = self.s_idle.val();
            }
        } else if !self.lists.busy.val() {
            // Move: the oldest list entry goes to the CAM's tail and leaves its list.
            if self.lists.found.val() {
                self.lists.remove.next = true;
                self.cam.insert_valid.next = true;
                self.cam.insert_comm.next = self.lists.found_comm.val();
                self.cam.insert_src.next = self.lists.found_src.val();
                self.cam.insert_tag.next = self.lists.found_tag.val();
                self.cam.insert_src_any.next = self.lists.found_src_any.val();
                self.cam.insert_tag_any.next = self.lists.found_tag_any.val();
                self.cam.insert_handle.next = self.lists.found_handle.val();
            }
            self.state.d.next = self.s_idle.val();
        }
    }
}

/// A standalone queue's Verilog, top module `top`.
pub fn two_level_queue_verilog<const C: usize, const A: usize, const N: usize>() -> String {
    let mut uut = TwoLevelQueue::<C, A, N>::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// Ports of [`TwoLevelQueue`] as (name, width, is input).
pub fn two_level_queue_ports() -> Vec<(&'static str, u32, bool)> {
    let keep = ["found_label", "found_comm", "found_src_any", "found_tag_any", "steps", "found_list"];
    let mut p: Vec<_> =
        crate::bram_list::bram_list_ports().into_iter().filter(|(n, _, _)| !keep.contains(n)).collect();
    p.push(("cam_count", 16, false));
    p.push(("walk_steps", 16, false));
    p.push(("walk_list", 8, false));
    p.push(("walk_label", 32, false));
    p
}
