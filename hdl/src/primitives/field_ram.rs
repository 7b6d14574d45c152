//! One field of a level-2 list's entries in block RAM: a simple dual-port RAM (one read
//! port with a registered read, one write port) that stores only bits `lo .. lo + width`
//! of a 32-bit field and reads them back in place, the other bits zero.
//!
//! The same ports as rust-hdl's `RAM<Bits<32>, A>`, so the list drives it unchanged; what
//! differs is that the stored width is a generation parameter (`fields.rs`): a list of
//! 8-bit ranks keeps 8 bits a word, not 32, and a label of `B` bits keeps its top `B`
//! bits (the label counter steps in the top bits, see `parallel_lists`). The Verilog is
//! the RAM template Quartus, Vivado and yosys map onto block RAM.

use crate::fields::{in_word, outside, unused_sink};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct FieldRam<const A: usize> {
    pub read_address: Signal<In, Bits<A>>,
    pub read_clock: Signal<In, Clock>,
    pub read_data: Signal<Out, Bits<32>>,
    pub write_address: Signal<In, Bits<A>>,
    pub write_clock: Signal<In, Clock>,
    pub write_data: Signal<In, Bits<32>>,
    pub write_enable: Signal<In, Bit>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _lo: usize,
    _width: usize,
    _mem: Vec<u32>,
    _out: u32,
}

impl<const A: usize> FieldRam<A> {
    /// A RAM of `2^A` words keeping bits `lo .. lo + width` (within 32) of each.
    pub fn new(lo: usize, width: usize) -> Self {
        assert!(width >= 1 && lo + width <= 32, "a field of bits {lo}..{} of 32", lo + width);
        FieldRam {
            read_address: Default::default(),
            read_clock: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_clock: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _lo: lo,
            _width: width,
            _mem: vec![0; 1 << A],
            _out: 0,
        }
    }

    fn kept(&self) -> u32 {
        (((1u64 << self._width) - 1) << self._lo) as u32
    }
}

impl<const A: usize> Logic for FieldRam<A> {
    fn update(&mut self) {
        if self.read_clock.pos_edge() {
            self._out = self._mem[self.read_address.val().index()];
        }
        if self.write_clock.pos_edge() && self.write_enable.val() {
            let at = self.write_address.val().index();
            self._mem[at] = self.write_data.val().index() as u32 & self.kept();
        }
        self.read_data.next = (self._out as u64).to_bits();
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let (lo, w) = (self._lo, self._width);
        let hi = lo + w - 1;
        // The bits outside the field are never stored; the write port ignores them.
        let unused_in = unused_sink("unused_bits", &outside("write_data", lo, w));
        let out = in_word("word", lo, w);
        Verilog::Custom(format!(
            "\
reg [{wm}:0] mem[0:{last}];
reg [{wm}:0] word;
{unused_in}always @(posedge read_clock) begin
    word <= mem[read_address];
end
always @(posedge write_clock) begin
    if (write_enable) mem[write_address] <= write_data[{hi}:{lo}];
end
always @(*) read_data = {out};
",
            wm = w - 1,
            last = (1usize << A) - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_ram_keeps_only_its_bits() {
        let ram = FieldRam::<2>::new(4, 8);
        // The simulation's write mask and the Verilog's part-select keep the same bits.
        assert_eq!(ram.kept(), 0xff0);
        assert_eq!(0xdead_beef & ram.kept(), 0xee0);
        let v = ram.hdl();
        let Verilog::Custom(text) = v else { panic!("custom Verilog") };
        assert!(text.contains("reg [7:0] mem[0:3]"), "{text}");
        assert!(text.contains("write_data[11:4]") && text.contains("{20'd0, word, 4'd0}"), "{text}");
    }
}
