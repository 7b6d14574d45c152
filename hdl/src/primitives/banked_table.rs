//! A table banked by address: `K` banks (a power of two), each with its own write port,
//! and `P` read ports on the whole table with a one-cycle registered read. Word `l` of
//! the table is word `l / K` of bank `l mod K`, so writes to words in different banks
//! land in the same cycle. Each read port has its own copy of every bank (a RAM has one
//! read port), all copies written together. The thread array keeps its list heads (a
//! read port per lane) and tails (one) in these: each bank's unlink unit writes its own
//! bank, and a lane reads any list through its port. The ports are flat vectors because
//! rust-hdl's generator cannot index twice (`heads[lane].write_address[bank]`).
//!
//! Where the bank select sits is the point of this block. With banks of at most
//! [`LUT_RAM_WORDS`] words (LUT RAM, whose read is asynchronous) every bank is read and
//! the word of the addressed bank selected *before* the read register: the bank is the
//! address's low bits, known with the address, so the select costs the read no cycle and
//! the word leaves a flip-flop. The thread array's walk starts its `D`-way descriptor
//! read from that word; with a register per bank and the select behind it (the earlier
//! design), the select's two LUT levels opened the 2-lane array's routed critical path.
//! Larger banks are block RAM, whose read must be registered in the RAM itself, so there
//! the select follows the banks' registers, driven by the registered bank number.
//! Both forms answer `read_address`'s word one cycle later, from before that edge's
//! writes.
//!
//! A table may store fewer bits than its ports carry ([`BankedTable::storing`]): the
//! thread array's pointers reach only its descriptor count, and a word stored narrow
//! reads back with zero upper bits that synthesis sees as constants, so every register,
//! compare and mux the pointer reaches is as narrow as the pointer (the links move in
//! a loop through registers and tables, where no tool can prove the upper bits zero).
//!
//! The words start at zero in simulation; the thread array does not depend on it (its
//! reset clears the tables word by word).

use crate::primitives::table_ram::{LUT_RAM_WORDS, TABLE_ADDRESS_BITS};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BankedTable<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// Per read port: the table's word (bank in the low bits), and the word a cycle later.
    pub read_address: Vec<Signal<In, Bits<16>>>,
    pub read_data: Vec<Signal<Out, Bits<W>>>,
    /// Per bank: the word within the bank.
    pub write_address: Vec<Signal<In, Bits<16>>>,
    pub write_data: Vec<Signal<In, Bits<W>>>,
    pub write_enable: Vec<Signal<In, Bit>>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _bank_bits: usize,
    _word_bits: usize,
    /// Bits of each word stored (the low ones); the rest read as zero.
    _stored_bits: usize,
    /// The banks' words (every read port's copy holds the same).
    _mem: Vec<Vec<Bits<W>>>,
    _out: Vec<Bits<W>>,
}

impl<const W: usize> BankedTable<W> {
    /// `read_ports` read ports on `2^bank_bits` banks of `2^word_bits` words each.
    pub fn new(read_ports: usize, bank_bits: usize, word_bits: usize) -> Self {
        assert!(read_ports > 0, "a table without read ports");
        assert!(bank_bits <= 6, "2^{bank_bits} banks: at most 64");
        assert!(TABLE_ADDRESS_BITS.contains(&word_bits), "banks of 2^{word_bits} words: 2^2 to 2^16");
        assert!(
            bank_bits + word_bits <= 16,
            "a table of 2^{} words: 16-bit addresses",
            bank_bits + word_bits
        );
        let banks = 1 << bank_bits;
        BankedTable {
            clock: Default::default(),
            read_address: (0..read_ports).map(|_| Default::default()).collect(),
            read_data: (0..read_ports).map(|_| Default::default()).collect(),
            write_address: (0..banks).map(|_| Default::default()).collect(),
            write_data: (0..banks).map(|_| Default::default()).collect(),
            write_enable: (0..banks).map(|_| Default::default()).collect(),
            _bank_bits: bank_bits,
            _word_bits: word_bits,
            _stored_bits: W,
            _mem: vec![vec![Bits::default(); 1 << word_bits]; banks],
            _out: vec![Bits::default(); read_ports],
        }
    }

    /// The same table storing only the low `bits` of each word (1 to `W`; fewer than 64
    /// when fewer than `W`, which the simulation model masks in a `u64`).
    pub fn storing(self, bits: usize) -> Self {
        assert!((1..=W).contains(&bits) && (bits == W || bits < 64), "storing {bits} of {W} bits");
        BankedTable { _stored_bits: bits, ..self }
    }

    fn in_lut_ram(&self) -> bool {
        (1usize << self._word_bits) <= LUT_RAM_WORDS
    }

    /// Verilog's slice of the read address's word bits (`[hi:lo]`).
    fn word_slice(&self) -> String {
        format!("[{}:{}]", self._bank_bits + self._word_bits - 1, self._bank_bits)
    }
}

impl<const W: usize> Logic for BankedTable<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            // The reads register the words from before this edge's writes.
            for (out, address) in self._out.iter_mut().zip(&self.read_address) {
                let address = address.val().index();
                let bank = address & ((1 << self._bank_bits) - 1);
                let word = (address >> self._bank_bits) & ((1 << self._word_bits) - 1);
                *out = self._mem[bank][word];
            }
            let mask = (1 << self._word_bits) - 1;
            let stored = self._stored_bits;
            let narrow = |word: Bits<W>| match stored < W {
                true => Bits::<W>::from((word.index() & ((1 << stored) - 1)) as u64),
                false => word,
            };
            for (b, bank) in self._mem.iter_mut().enumerate() {
                if self.write_enable[b].val() {
                    bank[self.write_address[b].val().index() & mask] = narrow(self.write_data[b].val());
                }
            }
        }
        for (data, out) in self.read_data.iter_mut().zip(&self._out) {
            data.next = *out;
        }
    }

    fn connect(&mut self) {
        for data in &mut self.read_data {
            data.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let (ports, banks) = (self.read_address.len(), 1usize << self._bank_bits);
        let (top, last) = (self._stored_bits - 1, (1usize << self._word_bits) - 1);
        let written = if self._stored_bits == W { String::new() } else { format!("[{top}:0]") };
        // A stored word widened to the port: zero upper bits.
        let widened = |word: String| match W - self._stored_bits {
            0 => word,
            pad => format!("{{{pad}'d0, {word}}}"),
        };
        let write_word = format!("[{}:0]", self._word_bits - 1);
        let read_word = self.word_slice();
        let style =
            if self.in_lut_ram() { "(* ram_style = \"distributed\", ramstyle = \"MLAB\" *) " } else { "" };
        let mut text = String::new();
        for p in 0..ports {
            for b in 0..banks {
                text += &format!("{style}reg [{top}:0] bank_{p}_{b}[0:{last}];\n");
            }
        }
        text += "\nalways @(posedge clock) begin\n";
        for b in 0..banks {
            let copies: Vec<String> = (0..ports)
                .map(|p| format!("bank_{p}_{b}[write_address${b}{write_word}] <= write_data${b}{written};"))
                .collect();
            text +=
                &format!("    if (write_enable${b}) begin\n        {}\n    end\n", copies.join("\n        "));
        }
        text += "end\n";
        // Port `p`'s word from the bank `bank` names.
        let select = |p: usize, assign: &str, bank: &str| {
            if banks == 1 {
                return format!("    read_data${p} {assign} {};\n", widened(format!("word_{p}_0")));
            }
            let mut case = format!("    case ({bank})\n");
            for b in 0..banks {
                let word = widened(format!("word_{p}_{b}"));
                case += &format!("        {}'d{b}: read_data${p} {assign} {word};\n", self._bank_bits);
            }
            case + &format!("        default: read_data${p} {assign} {W}'d0;\n    endcase\n")
        };
        let bank_of = |p: usize| format!("read_address${p}[{}:0]", self._bank_bits.max(1) - 1);
        for p in 0..ports {
            text += "\n";
            if self.in_lut_ram() {
                // Asynchronous reads of every bank, the select, then the register.
                for b in 0..banks {
                    text += &format!(
                        "wire [{top}:0] word_{p}_{b} = bank_{p}_{b}[read_address${p}{read_word}];\n"
                    );
                }
                text += &format!("always @(posedge clock) begin\n{}end\n", select(p, "<=", &bank_of(p)));
                continue;
            }
            // Block RAM: every bank's registered read, the select behind the registers.
            let mut reads = String::new();
            for b in 0..banks {
                text += &format!("reg [{top}:0] word_{p}_{b};\n");
                reads += &format!("    word_{p}_{b} <= bank_{p}_{b}[read_address${p}{read_word}];\n");
            }
            if banks > 1 {
                text += &format!("reg [{}:0] read_bank_{p};\n", self._bank_bits - 1);
                reads += &format!("    read_bank_{p} <= {};\n", bank_of(p));
            }
            text += &format!("always @(posedge clock) begin\n{reads}end\n");
            text += &format!("always @(*) begin\n{}end\n", select(p, "=", &format!("read_bank_{p}")));
        }
        Verilog::Custom(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verilog<const W: usize>(table: BankedTable<W>) -> String {
        let Verilog::Custom(text) = table.hdl() else { panic!("custom Verilog") };
        text
    }

    #[test]
    fn lut_ram_banks_select_before_the_register() {
        let text = verilog(BankedTable::<16>::new(2, 2, 6));
        let style = "(* ram_style = \"distributed\", ramstyle = \"MLAB\" *)";
        assert!(text.contains(&format!("{style} reg [15:0] bank_1_3[0:63];")), "{text}");
        assert!(text.contains("wire [15:0] word_1_2 = bank_1_2[read_address$1[7:2]];"), "{text}");
        assert!(
            text.contains("case (read_address$0[1:0])") && text.contains("2'd3: read_data$1 <= word_1_3;"),
            "{text}"
        );
        assert!(text.contains("bank_0_1[write_address$1[5:0]] <= write_data$1;"), "{text}");
        assert!(text.contains("bank_1_1[write_address$1[5:0]] <= write_data$1;"), "{text}");
        assert!(!text.contains("read_bank"), "{text}");
    }

    #[test]
    fn block_ram_banks_select_behind_their_registers() {
        let text = verilog(BankedTable::<16>::new(1, 1, 12));
        assert!(text.contains("reg [15:0] bank_0_1[0:4095];") && !text.contains("ram_style"), "{text}");
        assert!(text.contains("word_0_0 <= bank_0_0[read_address$0[12:1]];"), "{text}");
        assert!(text.contains("read_bank_0 <= read_address$0[0:0];"), "{text}");
        assert!(
            text.contains("case (read_bank_0)") && text.contains("1'd1: read_data$0 = word_0_1;"),
            "{text}"
        );
    }

    #[test]
    fn narrow_words_read_back_zero_extended() {
        let text = verilog(BankedTable::<16>::new(1, 1, 3).storing(6));
        assert!(text.contains("reg [5:0] bank_0_1[0:7];") && text.contains("wire [5:0] word_0_1"), "{text}");
        assert!(text.contains("<= write_data$1[5:0];"), "{text}");
        assert!(text.contains("1'd1: read_data$0 <= {10'd0, word_0_1};"), "{text}");
    }

    #[test]
    fn one_bank_needs_no_select() {
        let text = verilog(BankedTable::<16>::new(1, 0, 4));
        assert!(text.contains("read_data$0 <= word_0_0;") && !text.contains("case"), "{text}");
        assert!(text.contains("word_0_0 = bank_0_0[read_address$0[3:0]];"), "{text}");
    }
}
