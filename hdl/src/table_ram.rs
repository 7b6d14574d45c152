//! A simple dual-port RAM of 16-bit words (one read port, one write port, a one-cycle
//! registered read) whose depth is a generation parameter: `2^address_bits` words,
//! addressed by the low `address_bits` bits of 16-bit address ports.
//!
//! rust-hdl's `RAM<D, N>` takes its address width as a type parameter, so every table size
//! would be another instantiation of the block around it; this one lets the thread array
//! size its head and tail tables on the command line. The Verilog is the same read/write
//! template, which Quartus, Vivado and yosys map onto block RAM. The words start at zero
//! (simulators and FPGA block RAM both start cleared), which the thread array reads as
//! "empty list".

use rust_hdl::prelude::*;

/// Address widths the table takes: 4 to 65,536 words.
pub const TABLE_ADDRESS_BITS: std::ops::RangeInclusive<usize> = 2..=16;

#[derive(LogicBlock)]
pub struct TableRam {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<16>>,
    pub read_data: Signal<Out, Bits<16>>,
    pub write_address: Signal<In, Bits<16>>,
    pub write_data: Signal<In, Bits<16>>,
    pub write_enable: Signal<In, Bit>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _address_bits: usize,
    _mem: Vec<u16>,
    _out: u16,
}

impl TableRam {
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
            _mem: vec![0; 1 << address_bits],
            _out: 0,
        }
    }

    fn word(&self, address: Bits<16>) -> usize {
        address.index() & ((1 << self._address_bits) - 1)
    }
}

impl Logic for TableRam {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            // The read registers the word from before this edge's write.
            self._out = self._mem[self.word(self.read_address.val())];
            if self.write_enable.val() {
                let at = self.word(self.write_address.val());
                self._mem[at] = self.write_data.val().index() as u16;
            }
        }
        self.read_data.next = (self._out as u64).to_bits();
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let a = self._address_bits;
        let used = |port: &str| if a == 16 { port.to_string() } else { format!("{port}[{}:0]", a - 1) };
        Verilog::Custom(format!(
            "\
reg [15:0] mem[0:{last}];

always @(posedge clock) begin
    read_data <= mem[{read}];
    if (write_enable) mem[{write}] <= write_data;
end
",
            last = (1usize << a) - 1,
            read = used("read_address"),
            write = used("write_address"),
        ))
    }
}
