//! A simple dual-port RAM of `W`-bit words (one read port, one write port, a one-cycle
//! registered read) whose depth is a generation parameter: `2^address_bits` words,
//! addressed by the low `address_bits` bits of 16-bit address ports.
//!
//! rust-hdl's `RAM<D, N>` takes its address width as a type parameter, so every table size
//! would be another instantiation of the block around it; this one lets the thread array
//! size its tables on the command line: each lane's copy of the descriptors' fixed fields
//! (its head and tail tables are banked: [`crate::primitives::banked_table`]). The Verilog is the
//! same read/write template, which Quartus, Vivado and yosys map onto block RAM or LUT RAM.
//!
//! A table of at most [`LUT_RAM_WORDS`] words asks for LUT RAM (`ram_style =
//! "distributed"` for Vivado and yosys, `ramstyle = "MLAB"` for Quartus): the thread array
//! compares what it reads in the next cycle, and a block RAM without its output register
//! answers late, 4.26 ns after the clock on an ECP5-8's DP16KD (the 2-lane array's
//! routed critical path started there), where a LUT RAM's word is in a flip-flop 0.4 ns
//! after it. Left to itself, yosys put the 32-bit fields of 64-word tables in DP16KDs.
//! Larger tables keep the tools' choice, block RAM, since LUT RAM grows by a LUT per
//! 16 to 64 bits. A caller can lower the limit ([`TableRam::lut_ram_up_to`]):
//! the thread array's per-lane descriptor copies are block RAM above 64 words, because
//! with LUT RAM its default tables do not fit the ECP5-85
//! ([`crate::optimistic::descriptor_copy::COPY_LUT_RAM_WORDS`]).
//! The words start at zero in simulation; the thread array uses what it reads from its
//! descriptor copies only at slots written since.
//!
//! A table may store fewer bits than its ports carry ([`TableRam::stored_bits`]): the
//! thread array's field widths. The bits above read as zero and are not written; the
//! writer keeps them zero. Storing them anyway would leave it to synthesis to find
//! that a RAM column is only ever written with zeros, which it does not do for RAM.

use crate::fields::unused_sink;
use crate::primitives::trees::bits_to_hold;
use rust_hdl::prelude::*;

/// Address widths the table takes: 4 to 65,536 words.
pub const TABLE_ADDRESS_BITS: std::ops::RangeInclusive<usize> = 2..=16;

/// Tables this deep or shallower ask for LUT RAM (module docs).
pub const LUT_RAM_WORDS: usize = 256;

#[derive(LogicBlock)]
pub struct TableRam<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<16>>,
    pub read_data: Signal<Out, Bits<W>>,
    pub write_address: Signal<In, Bits<16>>,
    pub write_data: Signal<In, Bits<W>>,
    pub write_enable: Signal<In, Bit>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _address_bits: usize,
    /// The deepest table that asks for LUT RAM.
    _lut_ram_words: usize,
    /// The low bits of a word the table stores (module docs).
    _stored_bits: usize,
    _mem: Vec<Bits<W>>,
    _out: Bits<W>,
}

impl<const W: usize> TableRam<W> {
    pub fn new(address_bits: usize) -> Self {
        assert!(TABLE_ADDRESS_BITS.contains(&address_bits), "a table of 2^{address_bits} words: 2^2 to 2^16");
        TableRam {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _address_bits: address_bits,
            _lut_ram_words: LUT_RAM_WORDS,
            _stored_bits: W,
            _mem: vec![Bits::default(); 1 << address_bits],
            _out: Bits::default(),
        }
    }

    /// The narrowest table with a word for each of `slots` pointers (slot + 1, so
    /// `1..=slots`), addressed by a pointer's low bits: a word a slot, rounded up to a
    /// power of two. When `slots` is itself a power of two, pointer `slots` wraps to word
    /// 0 and the pointer 0 (none) reads the last slot's word, which its reader ignores.
    /// Sized to reach pointer `slots` instead, a table of 32 or 128 slots took twice the
    /// words, half of them never written (at 16 lanes of 32 descriptors, 6,600 of the
    /// 63,500 LUT4s were LUT RAM holding nothing, and 4,300 more its read muxes).
    pub fn for_pointers(slots: usize) -> Self {
        Self::new(bits_to_hold(slots.max(1) - 1).max(*TABLE_ADDRESS_BITS.start()))
    }

    /// Asks for LUT RAM only up to `words` words, block RAM beyond (module docs).
    pub fn lut_ram_up_to(mut self, words: usize) -> Self {
        self._lut_ram_words = words;
        self
    }

    /// Stores only the low `bits` of a word (1 to `W`); the bits above read as zero.
    pub fn stored_bits(mut self, bits: usize) -> Self {
        assert!((1..=W).contains(&bits), "{bits} stored bits of a {W}-bit word");
        self._stored_bits = bits;
        self
    }

    fn word(&self, address: Bits<16>) -> usize {
        address.index() & ((1 << self._address_bits) - 1)
    }
}

impl<const W: usize> Logic for TableRam<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            // The read registers the word from before this edge's write.
            self._out = self._mem[self.word(self.read_address.val())];
            if self.write_enable.val() {
                let at = self.word(self.write_address.val());
                let kept = if self._stored_bits >= 64 { u64::MAX } else { (1u64 << self._stored_bits) - 1 };
                self._mem[at] = (self.write_data.val().to_u64() & kept).to_bits();
            }
        }
        self.read_data.next = self._out;
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let a = self._address_bits;
        let used = |port: &str| if a == 16 { port.to_string() } else { format!("{port}[{}:0]", a - 1) };
        let style = if (1usize << a) <= self._lut_ram_words {
            "(* ram_style = \"distributed\", ramstyle = \"MLAB\" *) "
        } else {
            ""
        };
        let read = used("read_address");
        let (stored, read_word, write) = if self._stored_bits == W {
            (String::new(), format!("mem[{read}]"), "write_data".to_string())
        } else {
            let b = self._stored_bits;
            (
                format!(
                    "// The low {b} bits of a word are stored; the writer keeps the rest zero.\n{}",
                    unused_sink("unused_write_bits", &[format!("write_data[{}:{b}]", W - 1)])
                ),
                format!("{{{}'d0, mem[{read}]}}", W - b),
                format!("write_data[{}:0]", b - 1),
            )
        };
        Verilog::Custom(format!(
            "\
{stored}{style}reg [{top}:0] mem[0:{last}];

always @(posedge clock) begin
    read_data <= {read_word};
    if (write_enable) mem[{waddr}] <= {write};
end
",
            top = self._stored_bits - 1,
            last = (1usize << a) - 1,
            waddr = used("write_address"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_ram_holds_a_word_a_slot_rounded_up_to_a_power_of_two() {
        assert_eq!(TableRam::<16>::for_pointers(32)._address_bits, 5);
        assert_eq!(TableRam::<16>::for_pointers(33)._address_bits, 6);
        assert_eq!(TableRam::<16>::for_pointers(31)._address_bits, 5);
        assert_eq!(TableRam::<16>::for_pointers(128)._address_bits, 7);
        assert_eq!(TableRam::<1>::for_pointers(2)._address_bits, 2);
        // Pointers 1..=32 land on 32 distinct words: 32 wraps to word 0.
        let t = TableRam::<16>::for_pointers(32);
        let words: std::collections::BTreeSet<usize> = (1..=32u64).map(|p| t.word(p.into())).collect();
        assert_eq!((words.len(), t.word(32u64.into())), (32, 0));
        let Verilog::Custom(text) = TableRam::<32>::for_pointers(64).hdl() else { panic!("custom Verilog") };
        assert!(text.contains("reg [31:0] mem[0:63]") && text.contains("mem[read_address[5:0]]"), "{text}");
        assert!(text.contains("ram_style = \"distributed\""), "{text}");
        let Verilog::Custom(text) = TableRam::<16>::new(9).hdl() else { panic!("custom Verilog") };
        assert!(text.contains("reg [15:0] mem[0:511]") && !text.contains("ram_style"), "{text}");
        // A lowered limit: LUT RAM up to 64 words, block RAM beyond.
        let Verilog::Custom(text) = TableRam::<32>::for_pointers(64).lut_ram_up_to(64).hdl() else {
            panic!("custom Verilog")
        };
        assert!(text.contains("ram_style = \"distributed\""), "{text}");
        let Verilog::Custom(text) = TableRam::<32>::for_pointers(128).lut_ram_up_to(64).hdl() else {
            panic!("custom Verilog")
        };
        assert!(text.contains("reg [31:0] mem[0:127]") && !text.contains("ram_style"), "{text}");
        // Fewer stored bits: a narrower memory, zeros above on the read.
        let Verilog::Custom(text) = TableRam::<32>::for_pointers(16).stored_bits(12).hdl() else {
            panic!("custom Verilog")
        };
        assert!(text.contains("reg [11:0] mem[0:15]"), "{text}");
        assert!(text.contains("read_data <= {20'd0, mem[read_address[3:0]]}"), "{text}");
        assert!(text.contains("<= write_data[11:0]"), "{text}");
    }
}
