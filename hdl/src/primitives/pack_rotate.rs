//! Packs the kept entries of a block in order and rotates them onto a ring of ports: the
//! `j`-th kept entry leaves on port `(rotate + j) mod M`, `M` the ports (a power of two, at
//! least the entries). The thread array inserts a block's unmatched messages this way:
//! the UMQ's slot `count + j` takes block port `(count + j) mod M` by a fixed wire.
//!
//! The two halves are separate blocks, [`Pack`] and [`Rotate`], so a register can sit
//! between them: the thread array packs in the tail's first cycle (the gaps hang off the
//! lanes' verdicts) and rotates in its second (the rotation hangs off the UMQ's count, a
//! register), and neither cycle holds the whole network. In one cycle it was the 16-lane
//! netlist's deepest path, 26 cells.
//!
//! Why a network and not a crossbar: a crossbar gives every port an `n`-way mux of every
//! entry, chosen by a pointer each port encodes from the entries' places. Here entries
//! first slide towards port 0 by the number of dropped entries before them (their *gap*),
//! one stage per bit of the gap, least significant first, then the whole ring rotates by
//! `rotate`, one stage per bit: `2 · log2 M` 2:1 muxes per entry and bit, no pointer, no
//! compare of places. Measured alone (Debian yosys `synth_ecp5`, 16 entries of 16 bits):
//! 5,680 LUT4s, 2,657 PFUMX and 1,490 L6MUX21 against 8,868, 3,544 and 1,573 for the
//! crossbar as the thread array had it (places compared per port, a pointer, a `case`).
//!
//! The slide needs no arbitration: after the stages for the low `k` bits an entry `i` with
//! gap `g` sits at `i - (g mod 2^k)`, and for kept `i < j` the gaps differ by at most the
//! dropped entries between them (`g_j - g_i ≤ j - i - 1`), so their positions stay in order
//! and apart. A position whose entry slides away keeps a stale copy with gap 0 (a dropped
//! entry never moves), which an arriving entry overwrites. Ports that no kept entry reaches
//! carry whatever the stages leave there; the caller writes only the ports it counted.

use crate::primitives::trees::{bits_to_hold, levels};
use rust_hdl::prelude::*;

/// Slides the kept entries towards position 0, in order: the `j`-th kept entry leaves on
/// `values[j]`; positions past the kept ones hold stale copies.
#[derive(LogicBlock)]
pub struct Pack<const W: usize> {
    pub keep: Vec<Signal<In, Bit>>,
    pub entries: Vec<Signal<In, Bits<W>>>,
    pub values: Vec<Signal<Out, Bits<W>>>,
}

impl<const W: usize> Pack<W> {
    pub fn new(entries: usize) -> Self {
        assert!((1..=1 << 12).contains(&entries), "{entries} entries");
        Pack {
            keep: (0..entries).map(|_| Default::default()).collect(),
            entries: (0..entries).map(|_| Default::default()).collect(),
            values: (0..entries).map(|_| Default::default()).collect(),
        }
    }
}

/// Rotates `entries` onto the smallest ring of ports that holds them: entry `j` leaves on
/// port `(rotate + j) mod M`; the ports past the entries carry zero before the rotation.
#[derive(LogicBlock)]
pub struct Rotate<const W: usize> {
    pub entries: Vec<Signal<In, Bits<W>>>,
    /// The ring's offset; only its low `log2 M` bits are read.
    pub rotate: Signal<In, Bits<16>>,
    pub values: Vec<Signal<Out, Bits<W>>>,
}

impl<const W: usize> Rotate<W> {
    pub fn new(entries: usize) -> Self {
        assert!((1..=1 << 12).contains(&entries), "{entries} entries");
        Rotate {
            entries: (0..entries).map(|_| Default::default()).collect(),
            rotate: Default::default(),
            values: (0..entries.next_power_of_two()).map(|_| Default::default()).collect(),
        }
    }
}

/// The slide on any values: the simulation runs it on the block's bits, the tests on
/// entry numbers; [`Pack`]'s Verilog is its transcription, stage by stage.
pub fn pack<T: Copy>(keep: &[bool], entries: &[T]) -> Vec<T> {
    let n = entries.len();
    let mut gaps: Vec<usize> =
        (0..n).map(|i| if keep[i] { keep[..i].iter().filter(|k| !**k).count() } else { 0 }).collect();
    let mut at = entries.to_vec();
    for s in 0..bits_to_hold(n - 1) {
        let step = 1 << s;
        let (before_gaps, before_at) = (gaps.clone(), at.clone());
        for q in 0..n {
            let arrives = q + step < n && before_gaps[q + step] >> s & 1 == 1;
            if arrives {
                at[q] = before_at[q + step];
                gaps[q] = before_gaps[q + step];
            } else if before_gaps[q] >> s & 1 == 1 {
                gaps[q] = 0;
            }
        }
    }
    at
}

/// The rotation on any values (`stale` fills the ring past the entries); [`Rotate`]'s
/// Verilog is its transcription.
pub fn rotate<T: Copy>(entries: &[T], stale: T, rotate: usize) -> Vec<T> {
    let ring = entries.len().next_power_of_two();
    let mut at = entries.to_vec();
    at.resize(ring, stale);
    for s in 0..levels(ring) {
        let step = 1 << s;
        if rotate >> s & 1 == 1 {
            at = (0..ring).map(|m| at[(m + ring - step) % ring]).collect();
        }
    }
    at
}

/// Both halves in one: what the thread array's UMQ block ports carry.
pub fn pack_rotate<T: Copy>(keep: &[bool], entries: &[T], stale: T, offset: usize) -> Vec<T> {
    rotate(&pack(keep, entries), stale, offset)
}

impl<const W: usize> Logic for Pack<W> {
    fn update(&mut self) {
        let keep: Vec<bool> = self.keep.iter().map(|k| k.val()).collect();
        let entries: Vec<Bits<W>> = self.entries.iter().map(|e| e.val()).collect();
        for (port, value) in self.values.iter_mut().zip(pack(&keep, &entries)) {
            port.next = value;
        }
    }

    fn connect(&mut self) {
        for v in &mut self.values {
            v.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.entries.len();
        let gap_bits = bits_to_hold(n - 1).max(1);
        let mut text = String::new();
        // Each kept entry's gap: the dropped entries before it, one sum per entry (yosys
        // builds each sum as one adder tree, however it is written).
        for i in 0..n {
            let dropped: Vec<String> = (0..i)
                .map(|j| match gap_bits {
                    1 => format!("!keep${j}"),
                    w => format!("{{{}'d0, !keep${j}}}", w - 1),
                })
                .collect();
            let sum = if dropped.is_empty() { format!("{gap_bits}'d0") } else { dropped.join(" + ") };
            text += &format!("wire [{}:0] gap0_{i} = keep${i} ? {sum} : {gap_bits}'d0;\n", gap_bits - 1);
            text += &format!("wire [{}:0] at0_{i} = entries${i};\n", W - 1);
        }
        let slides = bits_to_hold(n - 1);
        for s in 0..slides {
            let step = 1 << s;
            for q in 0..n {
                let (g, a) = (format!("gap{s}_{q}"), format!("at{s}_{q}"));
                let (gap, at) = if q + step < n {
                    let up = format!("gap{s}_{}[{s}]", q + step);
                    (
                        format!("{up} ? gap{s}_{} : ({g}[{s}] ? {gap_bits}'d0 : {g})", q + step),
                        format!("{up} ? at{s}_{} : {a}", q + step),
                    )
                } else {
                    (format!("{g}[{s}] ? {gap_bits}'d0 : {g}"), a.clone())
                };
                let next = s + 1;
                text += &format!("wire [{}:0] gap{next}_{q} = {gap};\n", gap_bits - 1);
                text += &format!("wire [{}:0] at{next}_{q} = {at};\n", W - 1);
            }
        }
        for q in 0..n {
            text += &format!("always @(*) values${q} = at{slides}_{q};\n");
        }
        let stale: Vec<String> = (0..n).map(|q| format!("gap{slides}_{q}")).collect();
        text += &crate::fields::unused_sink("unused_pack_bits", &stale);
        Verilog::Custom(text)
    }
}

impl<const W: usize> Logic for Rotate<W> {
    fn update(&mut self) {
        let entries: Vec<Bits<W>> = self.entries.iter().map(|e| e.val()).collect();
        for (port, value) in self.values.iter_mut().zip(rotate(&entries, 0.into(), self.rotate.val().index()))
        {
            port.next = value;
        }
    }

    fn connect(&mut self) {
        for v in &mut self.values {
            v.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.entries.len();
        let ring = self.values.len();
        let mut text = String::new();
        // The ring: the entries, then the ports past them.
        for m in 0..ring {
            let from = if m < n { format!("entries${m}") } else { format!("{W}'d0") };
            text += &format!("wire [{}:0] ring0_{m} = {from};\n", W - 1);
        }
        let turns = levels(ring);
        for s in 0..turns {
            let step = 1 << s;
            for m in 0..ring {
                let from = (m + ring - step) % ring;
                text += &format!(
                    "wire [{}:0] ring{}_{m} = rotate[{s}] ? ring{s}_{from} : ring{s}_{m};\n",
                    W - 1,
                    s + 1
                );
            }
        }
        for m in 0..ring {
            text += &format!("always @(*) values${m} = ring{turns}_{m};\n");
        }
        text += &crate::fields::unused_sink("unused_rotate_bits", &[format!("rotate[15:{turns}]")]);
        Verilog::Custom(text)
    }
}

/// Both halves back to back, for testing their Verilog together.
#[derive(LogicBlock)]
struct PackThenRotate {
    keep: Vec<Signal<In, Bit>>,
    entries: Vec<Signal<In, Bits<16>>>,
    rotate: Signal<In, Bits<16>>,
    values: Vec<Signal<Out, Bits<16>>>,
    pack: Pack<16>,
    ring: Rotate<16>,
    _entries: usize,
    _ring: usize,
}

impl Logic for PackThenRotate {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self._entries {
            self.pack.keep[i].next = self.keep[i].val();
            self.pack.entries[i].next = self.entries[i].val();
            self.ring.entries[i].next = self.pack.values[i].val();
        }
        self.ring.rotate.next = self.rotate.val();
        for m in 0..self._ring {
            self.values[m].next = self.ring.values[m].val();
        }
    }
}

/// [`Pack`] then [`Rotate`] on `entries` 16-bit entries, as module `pack_top` with a clock
/// port (which the Verilator binding drives and the network ignores), for testing the
/// Verilog.
pub fn pack_rotate_verilog(entries: usize) -> String {
    let ring = entries.next_power_of_two();
    let mut uut = PackThenRotate {
        keep: (0..entries).map(|_| Default::default()).collect(),
        entries: (0..entries).map(|_| Default::default()).collect(),
        rotate: Default::default(),
        values: (0..ring).map(|_| Default::default()).collect(),
        pack: Pack::new(entries),
        ring: Rotate::new(entries),
        _entries: entries,
        _ring: ring,
    };
    uut.connect_all();
    let mut ports = vec!["clock".to_string(), "rotate".to_string()];
    let mut decls = vec!["input clock;".to_string(), "input [15:0] rotate;".to_string()];
    let mut binds = vec![".rotate(rotate)".to_string()];
    for i in 0..entries {
        ports.extend([format!("keep_{i}"), format!("entries_{i}")]);
        decls.extend([format!("input keep_{i};"), format!("input [15:0] entries_{i};")]);
        binds.extend([format!(".keep_{i}(keep_{i})"), format!(".entries_{i}(entries_{i})")]);
    }
    for m in 0..ring {
        ports.push(format!("values_{m}"));
        decls.push(format!("output [15:0] values_{m};"));
        binds.push(format!(".values_{m}(values_{m})"));
    }
    format!(
        "{}\nmodule pack_top({});\n{}\n{}top network({});\nendmodule\n",
        // Vector ports are `keep$0`.. in rust-hdl's text: `_` as everywhere we emit.
        generate_verilog(&uut).replace('$', "_"),
        ports.join(", "),
        decls.join("\n"),
        crate::fields::unused_sink("unused_clock", &["clock".to_string()]),
        binds.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every keep pattern of up to 10 entries at every rotation: the `j`-th kept entry
    /// leaves on port `(rotate + j) mod M`.
    #[test]
    fn the_kth_kept_entry_leaves_on_its_ring_port() {
        for n in 1..=10usize {
            let ring = n.next_power_of_two();
            let numbers: Vec<Option<usize>> = (0..n).map(Some).collect();
            for mask in 0u32..1 << n {
                let keep: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
                for rotate in 0..ring {
                    let out = pack_rotate(&keep, &numbers, None, rotate);
                    let kept = (0..n).filter(|i| keep[*i]);
                    for (j, i) in kept.enumerate() {
                        assert_eq!(
                            out[(rotate + j) % ring],
                            Some(i),
                            "{n} entries, keep {mask:b}, rotate {rotate}"
                        );
                    }
                }
            }
        }
    }

    /// Sixteen entries, every keep pattern, at three rotations.
    #[test]
    fn sixteen_entries_pack_without_collisions() {
        let numbers: Vec<Option<usize>> = (0..16).map(Some).collect();
        for mask in 0u32..1 << 16 {
            let keep: Vec<bool> = (0..16).map(|i| mask >> i & 1 == 1).collect();
            for rotate in [0, 5, 15] {
                let out = pack_rotate(&keep, &numbers, None, rotate);
                for (j, i) in (0..16).filter(|i| keep[*i]).enumerate() {
                    assert_eq!(out[(rotate + j) % 16], Some(i), "keep {mask:b}, rotate {rotate}");
                }
            }
        }
    }
}
