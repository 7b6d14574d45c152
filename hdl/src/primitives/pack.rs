//! Packs the kept entries of a block in order: the `j`-th kept entry leaves on
//! `values[j]`. The thread array stages a block's unmatched messages this way, the `j`-th
//! of them for the UMQ's `j`-th insert.
//!
//! Why a network and not a crossbar: a crossbar gives every output an `n`-way mux of every
//! entry, chosen by a pointer each output encodes from the entries' places. Here entries
//! slide towards position 0 by the number of dropped entries before them (their *gap*),
//! one stage per bit of the gap, least significant first: `log2 n` 2:1 muxes per entry
//! and bit, no pointer, no compare of places. Measured alone (Debian yosys `synth_ecp5`,
//! 16 entries of 16 bits, with the rotation onto the UMQ's block ports the array had
//! then): 5,680 LUT4s, 2,657 PFUMX and 1,490 L6MUX21 against 8,868, 3,544 and 1,573 for
//! the crossbar as the thread array had it (places compared per port, a pointer, a `case`).
//!
//! The slide needs no arbitration: after the stages for the low `k` bits an entry `i` with
//! gap `g` sits at `i - (g mod 2^k)`, and for kept `i < j` the gaps differ by at most the
//! dropped entries between them (`g_j - g_i ≤ j - i - 1`), so their positions stay in order
//! and apart. A position whose entry slides away keeps a stale copy with gap 0 (a dropped
//! entry never moves), which an arriving entry overwrites. Positions that no kept entry
//! reaches carry whatever the stages leave there; the caller reads only the ones it counted.

use crate::primitives::trees::bits_to_hold;
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

/// [`Pack`] on `entries` 16-bit entries, as module `pack_top` with a clock port (which the
/// Verilator binding drives and the network ignores), for testing its Verilog.
pub fn pack_verilog(entries: usize) -> String {
    let mut uut = Pack::<16>::new(entries);
    uut.connect_all();
    let mut ports = vec!["clock".to_string()];
    let mut decls = vec!["input clock;".to_string()];
    let mut binds = Vec::new();
    for i in 0..entries {
        ports.extend([format!("keep_{i}"), format!("entries_{i}")]);
        decls.extend([format!("input keep_{i};"), format!("input [15:0] entries_{i};")]);
        binds.extend([format!(".keep_{i}(keep_{i})"), format!(".entries_{i}(entries_{i})")]);
        ports.push(format!("values_{i}"));
        decls.push(format!("output [15:0] values_{i};"));
        binds.push(format!(".values_{i}(values_{i})"));
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

    /// Every keep pattern of up to 16 entries: the `j`-th kept entry leaves on `values[j]`.
    #[test]
    fn the_jth_kept_entry_leaves_on_position_j() {
        for n in 1..=16usize {
            let numbers: Vec<usize> = (0..n).collect();
            for mask in 0u32..1 << n {
                let keep: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
                let out = pack(&keep, &numbers);
                for (j, i) in (0..n).filter(|i| keep[*i]).enumerate() {
                    assert_eq!(out[j], i, "{n} entries, keep {mask:b}");
                }
            }
        }
    }
}
