//! One level-2 linked list in block RAM: insert at the tail, search from the head at one
//! element per cycle, delete the found element from the middle, with a free list.
//!
//! Storage: one block RAM (one read and one write port) per field — communicator,
//! source, tag, wildcard flags, handle, posting label, each as wide as generated
//! (`fields.rs`, `field_ram.rs`) — one for the `next` pointers and
//! one holding the stack of freed nodes; node 0 is never used, so a list with `A`-bit
//! addresses holds `2^A - 1` entries. Fresh nodes come from a bump counter, then from
//! the free stack. A walk stops at the tail by comparing with the tail register, so a
//! new tail's `next` never needs writing: every operation writes each RAM at most once
//! per cycle, which is what lets plain simple-dual-port block RAM hold the list.
//!
//! Why one element per cycle (the FPL 2018 design takes three): the RAM's registered read
//! data carries the node's `next` pointer, and that pointer drives the RAM address
//! through one multiplexer, so the read of node k+1 is issued in the cycle node k's data
//! arrives, whatever the compare says. The data is compared a cycle later, from a
//! register stage (`p_*`): a block RAM's clock-to-output is a large part of a cycle on
//! its own (4.3 ns on an ECP5), and with the compare behind it (7 LUT levels) the walk was
//! the engine's critical path; with the stage the walk loop is the RAM output, one LUT and
//! the address routing. The cost
//! is one cycle a search, not one an element. The head's read is issued in the cycle
//! the search is accepted, so a search that stops at element k (1-based) is busy for the
//! k + 1 cycles after that one.
//!
//! Commands (accepted when `busy` is low, one per cycle):
//! - `insert`: two cycles (read the free list's next pointer, then write the node and
//!   link it after the tail); ignored when `full`.
//! - `search` (mode 0: envelope with wildcards on either side, 1: handle, 2: any entry):
//!   walks from the head and stops at the first match, which is the oldest in this list;
//!   when `busy` drops, `found` and the `found_*` outputs describe it and `steps` says how
//!   many elements were compared.
//! - `remove`: removes the element the last successful search found (one cycle).

use crate::fields::FieldWidths;
use crate::ports::EntryPorts;
use crate::primitives::field_ram::FieldRam;
use rust_hdl::prelude::*;

pub const MODE_ENVELOPE: u64 = 0;
pub const MODE_HANDLE: u64 = 1;
pub const MODE_ANY: u64 = 2;

#[derive(LogicBlock)]
pub struct BramList<const A: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties the list (the bump allocator restarts, so no RAM is cleared).
    pub reset: Signal<In, Bit>,
    pub busy: Signal<Out, Bit>,
    /// `busy` after this edge if `insert` is high, and if it is low: what the queue
    /// registers its issue decision from, picking one by its own insert decision so that
    /// the insert is not in front of this list's logic.
    pub busy_next_insert: Signal<Out, Bit>,
    pub busy_next_quiet: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<16>>,
    pub full: Signal<Out, Bit>,
    pub insert: Signal<In, Bit>,
    pub r#in: EntryPorts,
    pub in_label: Signal<In, Bits<32>>,
    pub search: Signal<In, Bit>,
    pub search_mode: Signal<In, Bits<2>>,
    pub key: EntryPorts,
    pub found: Signal<Out, Bit>,
    pub found_handle: Signal<Out, Bits<32>>,
    pub found_label: Signal<Out, Bits<32>>,
    pub found_src: Signal<Out, Bits<32>>,
    pub found_tag: Signal<Out, Bits<32>>,
    pub found_comm: Signal<Out, Bits<32>>,
    pub found_src_any: Signal<Out, Bit>,
    pub found_tag_any: Signal<Out, Bit>,
    pub steps: Signal<Out, Bits<16>>,
    pub remove: Signal<In, Bit>,
    /// Idle, Alloc, Write, Walk (a `Bits<2>`: an enum's register comes out of rust-hdl
    /// with a 64-bit reset literal that `-Wall` rejects).
    state: DFF<Bits<2>>,
    head: DFF<Bits<A>>,
    tail: DFF<Bits<A>>,
    used: DFF<Bits<16>>,
    fresh: DFF<Bits<A>>,
    free_top: DFF<Bits<A>>,
    node: DFF<Bits<A>>,
    cur: DFF<Bits<A>>,
    prev: DFF<Bits<A>>,
    hit: DFF<Bit>,
    hit_node: DFF<Bits<A>>,
    hit_prev: DFF<Bits<A>>,
    hit_next: DFF<Bits<A>>,
    hit_handle: DFF<Bits<32>>,
    hit_label: DFF<Bits<32>>,
    hit_src: DFF<Bits<32>>,
    hit_tag: DFF<Bits<32>>,
    hit_comm: DFF<Bits<32>>,
    hit_src_any: DFF<Bit>,
    hit_tag_any: DFF<Bit>,
    compared: DFF<Bits<16>>,
    mode: DFF<Bits<2>>,
    k_comm: DFF<Bits<32>>,
    k_src: DFF<Bits<32>>,
    k_tag: DFF<Bits<32>>,
    k_src_any: DFF<Bit>,
    k_tag_any: DFF<Bit>,
    k_handle: DFF<Bits<32>>,
    e_comm: DFF<Bits<32>>,
    e_src: DFF<Bits<32>>,
    e_tag: DFF<Bits<32>>,
    e_src_any: DFF<Bit>,
    e_tag_any: DFF<Bit>,
    e_handle: DFF<Bits<32>>,
    e_label: DFF<Bits<32>>,
    /// The walk's register stage: the element the RAMs showed last cycle, compared now.
    p_valid: DFF<Bit>,
    p_last: DFF<Bit>,
    p_node: DFF<Bits<A>>,
    p_prev: DFF<Bits<A>>,
    p_next: DFF<Bits<A>>,
    p_comm: DFF<Bits<32>>,
    p_src: DFF<Bits<32>>,
    p_tag: DFF<Bits<32>>,
    p_src_any: DFF<Bit>,
    p_tag_any: DFF<Bit>,
    p_handle: DFF<Bits<32>>,
    p_label: DFF<Bits<32>>,
    element_hit: Signal<Local, Bit>,
    /// A busy list stays busy after this edge (an insert's allocation, a walk going on).
    busy_on: Signal<Local, Bit>,
    read_at: Signal<Local, Bits<A>>,
    s_idle: Constant<Bits<2>>,
    s_alloc: Constant<Bits<2>>,
    s_write: Constant<Bits<2>>,
    s_walk: Constant<Bits<2>>,
    zero: Constant<Bits<A>>,
    one: Constant<Bits<A>>,
    last_node: Constant<Bits<A>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    mode_handle: Constant<Bits<2>>,
    mode_any: Constant<Bits<2>>,
    comm_ram: FieldRam<A>,
    src_ram: FieldRam<A>,
    tag_ram: FieldRam<A>,
    src_any_ram: RAM<Bit, A>,
    tag_any_ram: RAM<Bit, A>,
    handle_ram: FieldRam<A>,
    label_ram: FieldRam<A>,
    next_ram: RAM<Bits<A>, A>,
    free_ram: RAM<Bits<A>, A>,
}

impl<const A: usize> Default for BramList<A> {
    /// The default field widths and 32-bit labels.
    fn default() -> Self {
        BramList::new(FieldWidths::default(), 32)
    }
}

impl<const A: usize> BramList<A> {
    /// A list whose field RAMs keep `widths` bits of each field and the top `label_bits`
    /// bits of each posting label.
    pub fn new(widths: FieldWidths, label_bits: u32) -> Self {
        assert!((2..=20).contains(&A), "list address width {A} out of range");
        let label_bits = label_bits as usize;
        BramList {
            clock: Default::default(),
            reset: Default::default(),
            busy: Default::default(),
            busy_next_insert: Default::default(),
            busy_next_quiet: Default::default(),
            count: Default::default(),
            full: Default::default(),
            insert: Default::default(),
            r#in: Default::default(),
            in_label: Default::default(),
            search: Default::default(),
            search_mode: Default::default(),
            key: Default::default(),
            found: Default::default(),
            found_handle: Default::default(),
            found_label: Default::default(),
            found_src: Default::default(),
            found_tag: Default::default(),
            found_comm: Default::default(),
            found_src_any: Default::default(),
            found_tag_any: Default::default(),
            steps: Default::default(),
            remove: Default::default(),
            state: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            used: Default::default(),
            fresh: Default::default(),
            free_top: Default::default(),
            node: Default::default(),
            cur: Default::default(),
            prev: Default::default(),
            hit: Default::default(),
            hit_node: Default::default(),
            hit_prev: Default::default(),
            hit_next: Default::default(),
            hit_handle: Default::default(),
            hit_label: Default::default(),
            hit_src: Default::default(),
            hit_tag: Default::default(),
            hit_comm: Default::default(),
            hit_src_any: Default::default(),
            hit_tag_any: Default::default(),
            compared: Default::default(),
            mode: Default::default(),
            k_comm: Default::default(),
            k_src: Default::default(),
            k_tag: Default::default(),
            k_src_any: Default::default(),
            k_tag_any: Default::default(),
            k_handle: Default::default(),
            e_comm: Default::default(),
            e_src: Default::default(),
            e_tag: Default::default(),
            e_src_any: Default::default(),
            e_tag_any: Default::default(),
            e_handle: Default::default(),
            e_label: Default::default(),
            p_valid: Default::default(),
            p_last: Default::default(),
            p_node: Default::default(),
            p_prev: Default::default(),
            p_next: Default::default(),
            p_comm: Default::default(),
            p_src: Default::default(),
            p_tag: Default::default(),
            p_src_any: Default::default(),
            p_tag_any: Default::default(),
            p_handle: Default::default(),
            p_label: Default::default(),
            element_hit: Default::default(),
            busy_on: Default::default(),
            read_at: Default::default(),
            s_idle: Constant::new(0u64.to_bits()),
            s_alloc: Constant::new(1u64.to_bits()),
            s_write: Constant::new(2u64.to_bits()),
            s_walk: Constant::new(3u64.to_bits()),
            zero: Constant::new(0u64.to_bits()),
            one: Constant::new(1u64.to_bits()),
            last_node: Constant::new(((1u64 << A) - 1).to_bits()),
            one16: Constant::new(1u64.to_bits()),
            zero16: Constant::new(0u64.to_bits()),
            mode_handle: Constant::new(MODE_HANDLE.to_bits()),
            mode_any: Constant::new(MODE_ANY.to_bits()),
            comm_ram: FieldRam::new(0, widths.comm),
            src_ram: FieldRam::new(0, widths.src),
            tag_ram: FieldRam::new(0, widths.tag),
            src_any_ram: Default::default(),
            tag_any_ram: Default::default(),
            handle_ram: FieldRam::new(0, widths.handle),
            label_ram: FieldRam::new(32 - label_bits, label_bits),
            next_ram: Default::default(),
            free_ram: Default::default(),
        }
    }
}

impl<const A: usize> Logic for BramList<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            head,
            tail,
            used,
            fresh,
            free_top,
            node,
            cur,
            prev,
            hit,
            hit_node,
            hit_prev,
            hit_next,
            hit_handle,
            hit_label,
            hit_src,
            hit_tag,
            hit_comm,
            hit_src_any,
            hit_tag_any,
            compared,
            mode,
            k_comm,
            k_src,
            k_tag,
            k_src_any,
            k_tag_any,
            k_handle,
            e_comm,
            e_src,
            e_tag,
            e_src_any,
            e_tag_any,
            e_handle,
            e_label,
            p_valid,
            p_last,
            p_node,
            p_prev,
            p_next,
            p_comm,
            p_src,
            p_tag,
            p_src_any,
            p_tag_any,
            p_handle,
            p_label
        );
        self.comm_ram.read_clock.next = self.clock.val();
        self.comm_ram.write_clock.next = self.clock.val();
        self.src_ram.read_clock.next = self.clock.val();
        self.src_ram.write_clock.next = self.clock.val();
        self.tag_ram.read_clock.next = self.clock.val();
        self.tag_ram.write_clock.next = self.clock.val();
        self.src_any_ram.read_clock.next = self.clock.val();
        self.src_any_ram.write_clock.next = self.clock.val();
        self.tag_any_ram.read_clock.next = self.clock.val();
        self.tag_any_ram.write_clock.next = self.clock.val();
        self.handle_ram.read_clock.next = self.clock.val();
        self.handle_ram.write_clock.next = self.clock.val();
        self.label_ram.read_clock.next = self.clock.val();
        self.label_ram.write_clock.next = self.clock.val();
        self.next_ram.read_clock.next = self.clock.val();
        self.next_ram.write_clock.next = self.clock.val();
        self.free_ram.read_clock.next = self.clock.val();
        self.free_ram.write_clock.next = self.clock.val();

        // Writes: the payload RAMs write the latched entry at `node`; `next` and the free
        // stack are written by inserts and removals below.
        self.comm_ram.write_address.next = self.node.q.val();
        self.src_ram.write_address.next = self.node.q.val();
        self.tag_ram.write_address.next = self.node.q.val();
        self.src_any_ram.write_address.next = self.node.q.val();
        self.tag_any_ram.write_address.next = self.node.q.val();
        self.handle_ram.write_address.next = self.node.q.val();
        self.label_ram.write_address.next = self.node.q.val();
        self.comm_ram.write_data.next = self.e_comm.q.val();
        self.src_ram.write_data.next = self.e_src.q.val();
        self.tag_ram.write_data.next = self.e_tag.q.val();
        self.src_any_ram.write_data.next = self.e_src_any.q.val();
        self.tag_any_ram.write_data.next = self.e_tag_any.q.val();
        self.handle_ram.write_data.next = self.e_handle.q.val();
        self.label_ram.write_data.next = self.e_label.q.val();
        self.comm_ram.write_enable.next = false;
        self.src_ram.write_enable.next = false;
        self.tag_ram.write_enable.next = false;
        self.src_any_ram.write_enable.next = false;
        self.tag_any_ram.write_enable.next = false;
        self.handle_ram.write_enable.next = false;
        self.label_ram.write_enable.next = false;
        self.next_ram.write_address.next = self.tail.q.val();
        self.next_ram.write_data.next = self.node.q.val();
        self.next_ram.write_enable.next = false;
        self.free_ram.write_address.next = self.free_top.q.val();
        self.free_ram.write_data.next = self.hit_node.q.val();
        self.free_ram.write_enable.next = false;
        self.free_ram.read_address.next = self.free_top.q.val() - self.one.val();

        self.busy.next = self.state.q.val() != self.s_idle.val();
        self.count.next = self.used.q.val();
        self.full.next =
            (self.free_top.q.val() == self.zero.val()) & (self.fresh.q.val() == self.last_node.val());
        self.found.next = self.hit.q.val();
        self.found_handle.next = self.hit_handle.q.val();
        self.found_label.next = self.hit_label.q.val();
        self.found_src.next = self.hit_src.q.val();
        self.found_tag.next = self.hit_tag.q.val();
        self.found_comm.next = self.hit_comm.q.val();
        self.found_src_any.next = self.hit_src_any.q.val();
        self.found_tag_any.next = self.hit_tag_any.q.val();
        self.steps.next = self.compared.q.val();

        // The walk's register stage: whatever the RAMs show is registered, and compared
        // with the latched key in the next cycle, so no compare sits behind the RAM's
        // slow clock-to-output.
        self.p_valid.d.next = self.state.q.val() == self.s_walk.val();
        self.p_last.d.next = self.cur.q.val() == self.tail.q.val();
        self.p_node.d.next = self.cur.q.val();
        self.p_prev.d.next = self.prev.q.val();
        self.p_next.d.next = self.next_ram.read_data.val();
        self.p_comm.d.next = self.comm_ram.read_data.val();
        self.p_src.d.next = self.src_ram.read_data.val();
        self.p_tag.d.next = self.tag_ram.read_data.val();
        self.p_src_any.d.next = self.src_any_ram.read_data.val();
        self.p_tag_any.d.next = self.tag_any_ram.read_data.val();
        self.p_handle.d.next = self.handle_ram.read_data.val();
        self.p_label.d.next = self.label_ram.read_data.val();
        if self.mode.q.val() == self.mode_any.val() {
            self.element_hit.next = true;
        } else if self.mode.q.val() == self.mode_handle.val() {
            self.element_hit.next = self.p_handle.q.val() == self.k_handle.q.val();
        } else {
            self.element_hit.next = (self.p_comm.q.val() == self.k_comm.q.val())
                & ((self.p_src.q.val() == self.k_src.q.val())
                    | self.p_src_any.q.val()
                    | self.k_src_any.q.val())
                & ((self.p_tag.q.val() == self.k_tag.q.val())
                    | self.p_tag_any.q.val()
                    | self.k_tag_any.q.val());
        }

        // Reads: the head whenever the walk is not running, so a search's first read
        // depends on no command input (set below for the walk).
        self.read_at.next = self.head.q.val();

        if self.state.q.val() == self.s_idle.val() {
            if self.insert.val() {
                // Any insert, even one a full list ignores, ends the last search's hold.
                self.hit.d.next = false;
                if !((self.free_top.q.val() == self.zero.val())
                    & (self.fresh.q.val() == self.last_node.val()))
                {
                    self.e_comm.d.next = self.r#in.comm.val();
                    self.e_src.d.next = self.r#in.src.val();
                    self.e_tag.d.next = self.r#in.tag.val();
                    self.e_src_any.d.next = self.r#in.src_any.val();
                    self.e_tag_any.d.next = self.r#in.tag_any.val();
                    self.e_handle.d.next = self.r#in.handle.val();
                    self.e_label.d.next = self.in_label.val();
                    // The free stack's top is being read (address set above).
                    self.state.d.next = self.s_alloc.val();
                }
            } else if self.search.val() {
                self.mode.d.next = self.search_mode.val();
                self.k_comm.d.next = self.key.comm.val();
                self.k_src.d.next = self.key.src.val();
                self.k_tag.d.next = self.key.tag.val();
                self.k_src_any.d.next = self.key.src_any.val();
                self.k_tag_any.d.next = self.key.tag_any.val();
                self.k_handle.d.next = self.key.handle.val();
                self.hit.d.next = false;
                self.compared.d.next = self.zero16.val();
                self.prev.d.next = self.zero.val();
                self.cur.d.next = self.head.q.val();
                if self.used.q.val() != self.zero16.val() {
                    // The head's read is issued now; its data is compared next cycle.
                    self.state.d.next = self.s_walk.val();
                }
            } else if self.remove.val() & self.hit.q.val() {
                // Unlink: the predecessor (or head) skips the node; the node is freed.
                if self.hit_prev.q.val() == self.zero.val() {
                    self.head.d.next = self.hit_next.q.val();
                } else {
                    self.next_ram.write_address.next = self.hit_prev.q.val();
                    self.next_ram.write_data.next = self.hit_next.q.val();
                    self.next_ram.write_enable.next = true;
                }
                if self.tail.q.val() == self.hit_node.q.val() {
                    self.tail.d.next = self.hit_prev.q.val();
                }
                self.free_ram.write_enable.next = true;
                self.free_top.d.next = self.free_top.q.val() + self.one.val();
                self.used.d.next = self.used.q.val() - self.one16.val();
                self.hit.d.next = false;
            }
        } else if self.state.q.val() == self.s_alloc.val() {
            if self.free_top.q.val() != self.zero.val() {
                self.node.d.next = self.free_ram.read_data.val();
                self.free_top.d.next = self.free_top.q.val() - self.one.val();
            } else {
                self.node.d.next = self.fresh.q.val() + self.one.val();
                self.fresh.d.next = self.fresh.q.val() + self.one.val();
            }
            self.state.d.next = self.s_write.val();
        } else if self.state.q.val() == self.s_write.val() {
            self.comm_ram.write_enable.next = true;
            self.src_ram.write_enable.next = true;
            self.tag_ram.write_enable.next = true;
            self.src_any_ram.write_enable.next = true;
            self.tag_any_ram.write_enable.next = true;
            self.handle_ram.write_enable.next = true;
            self.label_ram.write_enable.next = true;
            if self.used.q.val() == self.zero16.val() {
                self.head.d.next = self.node.q.val();
            } else {
                self.next_ram.write_enable.next = true; // next[tail] = node
            }
            self.tail.d.next = self.node.q.val();
            self.used.d.next = self.used.q.val() + self.one16.val();
            self.state.d.next = self.s_idle.val();
        } else {
            // Walk: the RAMs show node `cur` (registered into the p_ stage at this edge),
            // and the p_ stage holds the node before it, compared now.
            // The answer's fields follow the stage while the walk runs, so they freeze on
            // the element that ends it without the compare steering a wide enable.
            self.hit_node.d.next = self.p_node.q.val();
            self.hit_prev.d.next = self.p_prev.q.val();
            self.hit_next.d.next = self.p_next.q.val();
            self.hit_handle.d.next = self.p_handle.q.val();
            self.hit_label.d.next = self.p_label.q.val();
            self.hit_src.d.next = self.p_src.q.val();
            self.hit_tag.d.next = self.p_tag.q.val();
            self.hit_comm.d.next = self.p_comm.q.val();
            self.hit_src_any.d.next = self.p_src_any.q.val();
            self.hit_tag_any.d.next = self.p_tag_any.q.val();
            if self.p_valid.q.val() {
                self.compared.d.next = self.compared.q.val() + self.one16.val();
                if self.element_hit.val() {
                    self.hit.d.next = true;
                    self.state.d.next = self.s_idle.val();
                } else if self.p_last.q.val() {
                    self.state.d.next = self.s_idle.val();
                }
            }
            // Always move on and issue the next node's read: the RAM's address comes
            // straight from its registered output, with no compare on the way (reads past
            // the element that ends the walk are ignored).
            self.prev.d.next = self.cur.q.val();
            self.cur.d.next = self.next_ram.read_data.val();
            self.read_at.next = self.next_ram.read_data.val();
        }
        if self.reset.val() {
            self.state.d.next = self.s_idle.val();
            self.head.d.next = self.zero.val();
            self.tail.d.next = self.zero.val();
            self.used.d.next = self.zero16.val();
            self.fresh.d.next = self.zero.val();
            self.free_top.d.next = self.zero.val();
            self.hit.d.next = false;
            self.comm_ram.write_enable.next = false;
            self.src_ram.write_enable.next = false;
            self.tag_ram.write_enable.next = false;
            self.src_any_ram.write_enable.next = false;
            self.tag_any_ram.write_enable.next = false;
            self.handle_ram.write_enable.next = false;
            self.label_ram.write_enable.next = false;
            self.next_ram.write_enable.next = false;
            self.free_ram.write_enable.next = false;
        }
        // Busy after this edge with and without `insert`: idle, an insert if there is room
        // (a search is then ignored), else a search if entries are held; else an insert's
        // write, a walk until a match or the last entry. One assignment each output, so
        // Verilator splits them from the block that reads `search`.
        self.busy_on.next = (self.state.q.val() == self.s_alloc.val())
            | ((self.state.q.val() == self.s_walk.val())
                & !(self.p_valid.q.val() & (self.element_hit.val() | self.p_last.q.val())));
        self.busy_next_insert.next = !self.reset.val()
            & (((self.state.q.val() == self.s_idle.val())
                & !((self.free_top.q.val() == self.zero.val())
                    & (self.fresh.q.val() == self.last_node.val())))
                | ((self.state.q.val() != self.s_idle.val()) & self.busy_on.val()));
        self.busy_next_quiet.next = !self.reset.val()
            & (((self.state.q.val() == self.s_idle.val())
                & self.search.val()
                & (self.used.q.val() != self.zero16.val()))
                | ((self.state.q.val() != self.s_idle.val()) & self.busy_on.val()));

        self.comm_ram.read_address.next = self.read_at.val();
        self.src_ram.read_address.next = self.read_at.val();
        self.tag_ram.read_address.next = self.read_at.val();
        self.src_any_ram.read_address.next = self.read_at.val();
        self.tag_any_ram.read_address.next = self.read_at.val();
        self.handle_ram.read_address.next = self.read_at.val();
        self.label_ram.read_address.next = self.read_at.val();
        self.next_ram.read_address.next = self.read_at.val();
    }
}

/// A standalone list's Verilog, top module `top`.
pub fn bram_list_verilog<const A: usize>() -> String {
    let mut uut = BramList::<A>::default();
    uut.connect_all();
    crate::ports::flatten_bundle_names(&generate_verilog(&uut))
}

/// Ports of [`BramList`] as (name, width, is input).
pub fn bram_list_ports() -> Vec<(&'static str, u32, bool)> {
    vec![
        ("clock", 1, true),
        ("reset", 1, true),
        ("busy", 1, false),
        ("busy_next_insert", 1, false),
        ("busy_next_quiet", 1, false),
        ("count", 16, false),
        ("full", 1, false),
        ("insert", 1, true),
        ("in_comm", 32, true),
        ("in_src", 32, true),
        ("in_tag", 32, true),
        ("in_src_any", 1, true),
        ("in_tag_any", 1, true),
        ("in_handle", 32, true),
        ("in_label", 32, true),
        ("search", 1, true),
        ("search_mode", 2, true),
        ("key_comm", 32, true),
        ("key_src", 32, true),
        ("key_tag", 32, true),
        ("key_src_any", 1, true),
        ("key_tag_any", 1, true),
        ("key_handle", 32, true),
        ("found", 1, false),
        ("found_handle", 32, false),
        ("found_label", 32, false),
        ("found_src", 32, false),
        ("found_tag", 32, false),
        ("found_comm", 32, false),
        ("found_src_any", 1, false),
        ("found_tag_any", 1, false),
        ("steps", 16, false),
        ("remove", 1, true),
    ]
}
