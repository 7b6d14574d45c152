//! `N` level-2 lists searched at once, inserts spread across them, and the oldest
//! candidate wins (Xiong, Skjellum and Herbordt's n parallel lists, made MPI-correct).
//!
//! Every entry carries its posting label, which the lists give it: a counter that steps
//! once per list insert (entries that go straight to the CAM need none: the CAM keeps
//! order by position). A label is `label_bits` wide and sits in the top bits of the
//! stored 32-bit field, so one 32-bit serial compare serves every width (the low bits stay
//! zero; storing fewer bits is for the generator's field widths). Serial-number order is
//! only right while every live label is within half the label space of every other, so
//! the lists count their entries per quarter of the label space (the label's top 2 bits)
//! and `label_room` is low while a quarter other than the next label's and the one before
//! it holds an entry: the queue then answers an insert with overflow (the host keeps the
//! entry) until the old entries have left the lists. Live labels therefore always span
//! less than half the space. With 32-bit labels that takes 2^30 list inserts while one
//! entry stays listed; `--label-bits 6` makes it an everyday event for the tests.
//!
//! A search starts in all lists in the same cycle; each list stops at its own oldest
//! match, so the search takes as long as the longest walk, about `1/N` of one list's. The
//! winner is the smallest label — the oldest in the queue — by serial-number arithmetic
//! (`a` is older than `b` when `a - b` is negative), chosen by a tournament tree of
//! `T = log2 N` registered levels, ties to the lower list; a last register stage selects
//! the winner's fields. So a search issued in cycle `S` whose longest walk compares `K`
//! elements is answered (`done` high, `found*` valid) in cycle `S + K + T + 3`
//! (`S + T + 2` when every list is empty); they stay valid until the lists change.
//! `remove` then deletes the winner from its list, until the next insert or removal.
//!
//! Inserts go round-robin: to the list after the previous insert's, or, if that one is
//! full, to the lowest-numbered list with room (a prefix OR over the lists' registered
//! full flags); `full` means every list is full. The entry count (`count`, `empty`) is an
//! up/down counter that settles one cycle after the lists change.
//!
//! The block is `Verilog::Custom` around its `BramList` children: the tree and the
//! encoders are written out per level, which rust-hdl's generator cannot express without
//! a chain; `update` beside it is the same behaviour for rust-hdl's simulator.

use crate::fields::FieldWidths;
use crate::generate::fill;
use crate::ports::EntryPorts;
use crate::primitives::trees::{encode_one_hot, levels, prefix_or};
use crate::two_level::bram_list::BramList;
use rust_hdl::prelude::*;

/// `a` is older than `b` in serial-number arithmetic: `a - b` is negative.
pub fn older(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

/// One tree node's candidate in the Rust simulation: (found, label, list).
type Candidate = (bool, u32, usize);

#[derive(LogicBlock)]
pub struct ParallelLists<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A list is walking or inserting, or a search result is on its way down the tree: a
    /// flip-flop, registered from the lists' next states (the queue's issue decision reads
    /// it).
    pub busy: Signal<Out, Bit>,
    /// `empty` after this edge: what the queue registers its issue decision from.
    pub empty_next: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    /// Entries in all lists together.
    pub count: Signal<Out, Bits<16>>,
    /// No list holds an entry.
    pub empty: Signal<Out, Bit>,
    pub insert: Signal<In, Bit>,
    pub r#in: EntryPorts,
    /// A list insert now would keep every live label within half the label space.
    pub label_room: Signal<Out, Bit>,
    pub search: Signal<In, Bit>,
    pub search_mode: Signal<In, Bits<2>>,
    pub key: EntryPorts,
    /// High for one cycle when the last search's answer is in `found*`.
    pub done: Signal<Out, Bit>,
    pub found: Signal<Out, Bit>,
    pub found_handle: Signal<Out, Bits<32>>,
    pub found_src: Signal<Out, Bits<32>>,
    pub found_tag: Signal<Out, Bits<32>>,
    pub found_comm: Signal<Out, Bits<32>>,
    pub found_src_any: Signal<Out, Bit>,
    pub found_tag_any: Signal<Out, Bit>,
    pub remove: Signal<In, Bit>,
    lists: Vec<BramList<A>>,
    // Simulation state (rust-hdl skips fields named with a leading underscore).
    _rr: usize,
    _used: u64,
    _inc: bool,
    _dec: bool,
    _full: Vec<bool>,
    _searching: bool,
    _armed: bool,
    _settle: Vec<bool>,
    /// The tree's registered levels, level 1 first.
    _tree: Vec<Vec<Candidate>>,
    _found: (Candidate, u64, u64, u64, u64, bool, bool),
    /// Label width (a generation parameter), the next label, and the entries per quarter
    /// of the label space (counted a cycle after the change, like `_used`).
    _label_bits: u32,
    _label: u32,
    _quarters: [u64; 4],
    _live: [bool; 4],
    _inc_quarter: usize,
    _dec_quarter: usize,
    _found_quarter: usize,
}

/// The quarter of the label space `label` is in: its top 2 bits.
fn quarter(label: u32) -> usize {
    (label >> 30) as usize
}

impl<const A: usize> ParallelLists<A> {
    /// `n` lists (a power of two up to 64: the tournament tree pairs them) whose labels
    /// are `label_bits` wide (4 to 32). The number of lists is a generation parameter;
    /// only the address width `A` is a type parameter (rust-hdl sizes registers and RAMs
    /// by type).
    pub fn new(n: usize, widths: FieldWidths, label_bits: u32) -> Self {
        assert!(n.is_power_of_two() && n <= 64, "lists must be a power of two up to 64, not {n}");
        assert!((4..=32).contains(&label_bits), "labels of {label_bits} bits: 4 to 32");
        let t = levels(n);
        ParallelLists {
            clock: Default::default(),
            reset: Default::default(),
            busy: Default::default(),
            empty_next: Default::default(),
            full: Default::default(),
            count: Default::default(),
            empty: Default::default(),
            insert: Default::default(),
            r#in: Default::default(),
            label_room: Default::default(),
            search: Default::default(),
            search_mode: Default::default(),
            key: Default::default(),
            done: Default::default(),
            found: Default::default(),
            found_handle: Default::default(),
            found_src: Default::default(),
            found_tag: Default::default(),
            found_comm: Default::default(),
            found_src_any: Default::default(),
            found_tag_any: Default::default(),
            remove: Default::default(),
            lists: (0..n).map(|_| BramList::new(widths, label_bits)).collect(),
            _rr: 0,
            _used: 0,
            _inc: false,
            _dec: false,
            _full: vec![false; n],
            _searching: false,
            _armed: false,
            _settle: vec![false; t + 1],
            _tree: (1..=t).map(|k| vec![(false, 0, 0); n >> k]).collect(),
            _found: Default::default(),
            _label_bits: label_bits,
            _label: 0,
            _quarters: [0; 4],
            _live: [false; 4],
            _inc_quarter: 0,
            _dec_quarter: 0,
            _found_quarter: 0,
        }
    }

    /// What the label counter steps by: one in the label's lowest bit.
    fn label_step(&self) -> u32 {
        1u32 << (32 - self._label_bits)
    }
}

/// The winner of two candidates: the right one only if it is found and older.
fn play(left: Candidate, right: Candidate) -> Candidate {
    if right.0 && (!left.0 || older(right.1, left.1)) {
        right
    } else {
        left
    }
}

impl<const A: usize> Logic for ParallelLists<A> {
    fn update(&mut self) {
        let n = self.lists.len();
        let t = levels(n);
        let full = self._full.clone();
        let any_busy = self.lists.iter().any(|l| l.busy.val());
        let spare = full.iter().any(|f| !f);
        let target = if !full[self._rr] { self._rr } else { full.iter().position(|f| !f).unwrap_or(0) };
        let leaves: Vec<Candidate> = self
            .lists
            .iter()
            .enumerate()
            .map(|(i, l)| (l.found.val(), l.found_label.val().index() as u32, i))
            .collect();
        let winner = if t == 0 { leaves[0] } else { self._tree[t - 1][0] };
        if self.clock.pos_edge() {
            if self.reset.val() {
                self._rr = 0;
                self._used = 0;
                self._inc = false;
                self._dec = false;
                self._full.iter_mut().for_each(|f| *f = false);
                self._searching = false;
                self._armed = false;
                self._settle.iter_mut().for_each(|s| *s = false);
                self._label = 0;
                self._quarters = [0; 4];
                self._live = [false; 4];
            } else {
                let holder = self._found.0 .2;
                let removed =
                    self.remove.val() && self._armed && self._found.0 .0 && self.lists[holder].found.val();
                self._armed = self.search.val() || (self._armed && !self.insert.val() && !self.remove.val());
                if self.insert.val() && spare {
                    self._rr = (target + 1) % n;
                }
                self._used = self._used + self._inc as u64 - self._dec as u64;
                if self._inc {
                    self._quarters[self._inc_quarter] += 1;
                }
                if self._dec {
                    self._quarters[self._dec_quarter] -= 1;
                }
                self._live = self._quarters.map(|q| q != 0);
                self._inc = self.insert.val() && spare;
                self._inc_quarter = quarter(self._label);
                if self._inc {
                    self._label = self._label.wrapping_add(self.label_step());
                }
                self._dec = removed;
                self._dec_quarter = self._found_quarter;
                self._full = self.lists.iter().map(|l| l.full.val()).collect();
                let settled = self._searching && !any_busy;
                self._searching = self.search.val() || (self._searching && any_busy);
                self._settle.rotate_right(1);
                self._settle[0] = settled;
                for k in (0..t).rev() {
                    let below: &[Candidate] = if k == 0 { &leaves } else { &self._tree[k - 1] };
                    let next: Vec<Candidate> = below.chunks(2).map(|p| play(p[0], p[1])).collect();
                    self._tree[k] = next;
                }
                let l = &self.lists[winner.2];
                self._found_quarter = quarter(l.found_label.val().index() as u32);
                self._found = (
                    winner,
                    l.found_handle.val().index() as u64,
                    l.found_src.val().index() as u64,
                    l.found_tag.val().index() as u64,
                    l.found_comm.val().index() as u64,
                    l.found_src_any.val(),
                    l.found_tag_any.val(),
                );
            }
        }
        for (i, l) in self.lists.iter_mut().enumerate() {
            l.clock.next = self.clock.val();
            l.reset.next = self.reset.val();
            l.insert.next = self.insert.val() && i == target;
            l.r#in.comm.next = self.r#in.comm.val();
            l.r#in.src.next = self.r#in.src.val();
            l.r#in.tag.next = self.r#in.tag.val();
            l.r#in.src_any.next = self.r#in.src_any.val();
            l.r#in.tag_any.next = self.r#in.tag_any.val();
            l.r#in.handle.next = self.r#in.handle.val();
            l.in_label.next = self._label.to_bits();
            l.search.next = self.search.val();
            l.search_mode.next = self.search_mode.val();
            l.key.comm.next = self.key.comm.val();
            l.key.src.next = self.key.src.val();
            l.key.tag.next = self.key.tag.val();
            l.key.src_any.next = self.key.src_any.val();
            l.key.tag_any.next = self.key.tag_any.val();
            l.key.handle.next = self.key.handle.val();
            l.remove.next = self.remove.val() && self._armed && self._found.0 .0 && self._found.0 .2 == i;
        }
        let (c, handle, src, tag, comm, src_any, tag_any) = self._found;
        self.busy.next = any_busy || self._searching || self._settle.iter().any(|&s| s);
        self.empty_next.next = self.reset.val() || self._used + self._inc as u64 == self._dec as u64;
        self.full.next = !spare;
        self.count.next = self._used.to_bits();
        self.done.next = self._settle[t];
        self.found.next = c.0;
        self.empty.next = self._used == 0;
        let q = quarter(self._label);
        self.label_room.next = !self._live[(q + 1) % 4] && !self._live[(q + 2) % 4];
        self.found_handle.next = handle.to_bits();
        self.found_src.next = src.to_bits();
        self.found_tag.next = tag.to_bits();
        self.found_comm.next = comm.to_bits();
        self.found_src_any.next = src_any;
        self.found_tag_any.next = tag_any;
    }

    fn connect(&mut self) {
        self.busy.connect();
        self.empty_next.connect();
        self.full.connect();
        self.count.connect();
        self.empty.connect();
        self.label_room.connect();
        self.done.connect();
        self.found.connect();
        self.found_handle.connect();
        self.found_src.connect();
        self.found_tag.connect();
        self.found_comm.connect();
        self.found_src_any.connect();
        self.found_tag_any.connect();
        for l in self.lists.iter_mut() {
            l.clock.connect();
            l.reset.connect();
            l.insert.connect();
            l.r#in.comm.connect();
            l.r#in.src.connect();
            l.r#in.tag.connect();
            l.r#in.src_any.connect();
            l.r#in.tag_any.connect();
            l.r#in.handle.connect();
            l.in_label.connect();
            l.search.connect();
            l.search_mode.connect();
            l.key.comm.connect();
            l.key.src.connect();
            l.key.tag.connect();
            l.key.src_any.connect();
            l.key.tag_any.connect();
            l.key.handle.connect();
            l.remove.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(parallel_lists_body(self.lists.len(), self.label_step()))
    }
}

/// The custom Verilog of `n` lists whose label counter steps by `label_step`.
fn parallel_lists_body(n: usize, label_step: u32) -> String {
    let t = levels(n);
    let lb = t.max(1);
    let child = |i: usize, port: &str| format!("lists${i}${port}");
    let gather =
        |port: &str| -> String { (0..n).rev().map(|i| child(i, port)).collect::<Vec<_>>().join(", ") };
    let unused = format!("{}, {}, list_label", gather("count"), gather("steps"));
    let shifted = if n == 1 { "1'b0".to_string() } else { format!("{{room_upto[{}:0], 1'b0}}", n - 2) };
    let mut v = fill(
        include_str!("parallel_lists_head.vt"),
        &[
            ("nm", (n - 1).to_string()),
            ("busy", gather("busy")),
            ("busy_next_insert", gather("busy_next_insert")),
            ("busy_next_quiet", gather("busy_next_quiet")),
            (
                "target_oh",
                (0..n).rev().map(|i| format!("target == {lb}'d{i}")).collect::<Vec<_>>().join(", "),
            ),
            ("full", gather("full")),
            ("found", gather("found")),
            ("n", n.to_string()),
            ("label", gather("found_label")),
            ("handle", gather("found_handle")),
            ("src", gather("found_src")),
            ("tag", gather("found_tag")),
            ("comm", gather("found_comm")),
            ("src_any", gather("found_src_any")),
            ("tag_any", gather("found_tag_any")),
            ("unused", unused),
            ("prefix", prefix_or("room_upto", "room", n)),
            ("shifted", shifted),
            ("encode", encode_one_hot("lowest_room", "first_room", n, lb)),
            ("lbm", (lb - 1).to_string()),
            (
                "quarter_regs",
                (0..4)
                    .map(|i| {
                        format!(
                            "reg [15:0] quarter_used_{i};\nwire [15:0] quarter_next_{i} = quarter_used_{i} \
                             + {{15'd0, inc_q & (inc_quarter_q == 2'd{i})}} - {{15'd0, dec_q & (dec_quarter_q == 2'd{i})}};\n"
                        )
                    })
                    .collect(),
            ),
            ("t", t.to_string()),
            ("settle_low", if t == 0 { "1'b0".to_string() } else { format!("|settle[{}:0]", t - 1) }),
        ],
    );
    // The tournament: level 0 is the lists' registered results, each level a register.
    let mut tree_regs = String::new();
    let mut tree_next = String::new();
    for k in 1..=t {
        let m = n >> k;
        // The root's label meets no further level.
        let (off, on) = if k == t {
            ("/* verilator lint_off UNUSEDSIGNAL */\n", "/* verilator lint_on UNUSEDSIGNAL */\n")
        } else {
            ("", "")
        };
        v += &format!(
            "reg [{}:0] t{k}_found;\n{off}reg [{m}*32-1:0] t{k}_label;\n{on}reg [{m}*{lb}-1:0] t{k}_list;\n",
            m - 1
        );
        tree_regs += &format!("        t{k}_found <= {m}'d0;\n");
        for j in 0..m {
            let (below_found, below_label, below_list) = if k == 1 {
                ("list_found".to_string(), "list_label".to_string(), None)
            } else {
                (format!("t{}_found", k - 1), format!("t{}_label", k - 1), Some(format!("t{}_list", k - 1)))
            };
            let (l, r) = (2 * j, 2 * j + 1);
            let list_of = |i: usize| match &below_list {
                Some(name) => format!("{name}[{} +: {lb}]", i * lb),
                None => format!("{lb}'d{i}"),
            };
            tree_next += &format!(
                "        if ({bf}[{r}] & (~{bf}[{l}] | older({bl}[{r}*32 +: 32], {bl}[{l}*32 +: 32]))) begin\n\
                 \x20           t{k}_found[{j}] <= 1'b1; t{k}_label[{j}*32 +: 32] <= {bl}[{r}*32 +: 32]; t{k}_list[{j}*{lb} +: {lb}] <= {rl};\n\
                 \x20       end else begin\n\
                 \x20           t{k}_found[{j}] <= {bf}[{l}]; t{k}_label[{j}*32 +: 32] <= {bl}[{l}*32 +: 32]; t{k}_list[{j}*{lb} +: {lb}] <= {ll};\n\
                 \x20       end\n",
                bf = below_found,
                bl = below_label,
                rl = list_of(r),
                ll = list_of(l),
            );
        }
    }
    let (win_found, win_list) = if t == 0 {
        ("list_found[0]".to_string(), format!("{lb}'d0"))
    } else {
        (format!("t{t}_found[0]"), format!("t{t}_list"))
    };
    let settle_next = if t == 0 {
        "searching & ~any_busy".to_string()
    } else {
        format!("{{settle[{}:0], searching & ~any_busy}}", t - 1)
    };
    v += &fill(
        include_str!("parallel_lists_tail.vt"),
        &[
            ("lbm", (lb - 1).to_string()),
            ("win_list", win_list),
            ("lb", lb.to_string()),
            ("quarter_reset", (0..4).map(|i| format!("        quarter_used_{i} <= 16'd0;\n")).collect()),
            ("n", n.to_string()),
            ("t1", (t + 1).to_string()),
            ("tree_regs", tree_regs),
            ("rr_next", if n == 1 { "1'b0".to_string() } else { format!("target + {lb}'d1") }),
            ("label_step", label_step.to_string()),
            (
                "quarter_step",
                (0..4)
                    .map(|i| {
                        format!(
                            "        quarter_used_{i} <= quarter_next_{i};\n        \
                             quarter_live[{i}] <= quarter_next_{i} != 16'd0;\n"
                        )
                    })
                    .collect(),
            ),
            ("settle_next", settle_next),
            ("tree_next", tree_next),
            ("win_found", win_found),
            ("t", t.to_string()),
        ],
    );
    for i in 0..n {
        let c = |p: &str| child(i, p);
        v += &format!(
            "    {clk} = clock;\n    {rst} = reset;\n    {ins} = insert & (target == {lb}'d{i});\n    {rm} = remove & armed & found_q & (found_list_q == {lb}'d{i});\n    {srch} = search;\n    {mode} = search_mode;\n",
            clk = c("clock"),
            rst = c("reset"),
            ins = c("insert"),
            rm = c("remove"),
            srch = c("search"),
            mode = c("search_mode"),
        );
        for f in ["comm", "src", "tag", "src_any", "tag_any", "handle"] {
            v += &format!("    {} = in_{f};\n", c(&format!("in_{f}")));
        }
        v += &format!("    {} = label;\n", c("in_label"));
        for f in ["comm", "src", "tag", "src_any", "tag_any", "handle"] {
            v += &format!("    {} = key_{f};\n", c(&format!("key_{f}")));
        }
    }
    v += "end\n";
    v
}

/// A standalone set of parallel lists' Verilog, top module `top`.
pub fn parallel_lists_verilog<const A: usize>(lists: usize) -> String {
    let mut uut = ParallelLists::<A>::new(lists, FieldWidths::default(), 32);
    uut.connect_all();
    crate::ports::flatten_bundle_names(&generate_verilog(&uut))
}

/// Ports of [`ParallelLists`] as (name, width, is input).
pub fn parallel_lists_ports() -> Vec<(&'static str, u32, bool)> {
    // The ports of one list, less its walk counter, the winner's label and its busy
    // after the edge (the lists register theirs), plus the empty flags and the answer
    // strobe.
    let mut p: Vec<_> = crate::two_level::bram_list::bram_list_ports()
        .into_iter()
        .filter(|(n, _, _)| *n != "steps")
        .collect();
    p.retain(|(n, _, _)| !["found_label", "in_label", "busy_next_insert", "busy_next_quiet"].contains(n));
    p.push(("empty", 1, false));
    p.push(("empty_next", 1, false));
    p.push(("label_room", 1, false));
    p.push(("done", 1, false));
    p
}
