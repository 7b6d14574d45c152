//! A true dual-ported block RAM: two independent ports, each of which can read or write
//! one word per cycle, with a one-cycle read latency (the data of the address presented
//! before an edge is on `*_rdata` after it).
//!
//! rust-hdl's `RAM` has one read and one write port, so this is a custom block. Its
//! Verilog is the read-first template both Quartus and Vivado map onto block RAM (M20K,
//! RAMB36): one `always @(posedge clock)` per port, each writing the shared array and
//! registering its read. A port reading the address it writes in the same cycle gets the
//! old word (read-first). Both ports writing one address in one cycle, or one port
//! reading what the other writes in that cycle, is undefined in the devices; users must
//! avoid both (the simulation below returns the old word).
//!
//! The level-2 lists do not need it: they are arranged so that every RAM is written at
//! most once a cycle, and use simple dual-port RAMs (one read, one write port), which
//! every FPGA family has in more sizes. This block stays for designs that need two write
//! ports, such as the FPL 2018 paper's list layout.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct DualPortRam<D: Synth, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub a_addr: Signal<In, Bits<A>>,
    pub a_write: Signal<In, Bit>,
    pub a_wdata: Signal<In, D>,
    pub a_rdata: Signal<Out, D>,
    pub b_addr: Signal<In, Bits<A>>,
    pub b_write: Signal<In, Bit>,
    pub b_wdata: Signal<In, D>,
    pub b_rdata: Signal<Out, D>,
    // Simulation state; rust-hdl skips fields named with a leading underscore.
    _mem: Vec<D>,
    _a_out: D,
    _b_out: D,
}

impl<D: Synth, const A: usize> Default for DualPortRam<D, A> {
    fn default() -> Self {
        assert!(A <= 24, "a {A}-bit address is more block RAM than any target has");
        DualPortRam {
            clock: Default::default(),
            a_addr: Default::default(),
            a_write: Default::default(),
            a_wdata: Default::default(),
            a_rdata: Default::default(),
            b_addr: Default::default(),
            b_write: Default::default(),
            b_wdata: Default::default(),
            b_rdata: Default::default(),
            _mem: vec![D::default(); 1 << A],
            _a_out: D::default(),
            _b_out: D::default(),
        }
    }
}

impl<D: Synth, const A: usize> Logic for DualPortRam<D, A> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let (a, b) = (self.a_addr.val().index(), self.b_addr.val().index());
            // Read-first on both ports: reads see the words from before this edge.
            self._a_out = self._mem[a];
            self._b_out = self._mem[b];
            if self.a_write.val() {
                self._mem[a] = self.a_wdata.val();
            }
            if self.b_write.val() {
                self._mem[b] = self.b_wdata.val();
            }
        }
        self.a_rdata.next = self._a_out;
        self.b_rdata.next = self._b_out;
    }

    fn connect(&mut self) {
        self.a_rdata.connect();
        self.b_rdata.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
// Two always blocks write the array: the true dual-port block RAM template.
/* verilator lint_off MULTIDRIVEN */
reg [{msb}:0] mem[0:{last}];
/* verilator lint_on MULTIDRIVEN */
reg [{msb}:0] a_q;
reg [{msb}:0] b_q;

always @(posedge clock) begin
    if (a_write) mem[a_addr] <= a_wdata;
    a_q <= mem[a_addr];
end

always @(posedge clock) begin
    if (b_write) mem[b_addr] <= b_wdata;
    b_q <= mem[b_addr];
end

always @(*) begin
    a_rdata = a_q;
    b_rdata = b_q;
end
",
            msb = D::BITS - 1,
            last = (1usize << A) - 1,
        ))
    }
}

/// A dual-port RAM as a standalone top module (for lint, synthesis and RTL tests).
#[derive(LogicBlock, Default)]
pub struct DualPortRamTop<const W: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub a_addr: Signal<In, Bits<A>>,
    pub a_write: Signal<In, Bit>,
    pub a_wdata: Signal<In, Bits<W>>,
    pub a_rdata: Signal<Out, Bits<W>>,
    pub b_addr: Signal<In, Bits<A>>,
    pub b_write: Signal<In, Bit>,
    pub b_wdata: Signal<In, Bits<W>>,
    pub b_rdata: Signal<Out, Bits<W>>,
    ram: DualPortRam<Bits<W>, A>,
}

impl<const W: usize, const A: usize> Logic for DualPortRamTop<W, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ram.clock.next = self.clock.val();
        self.ram.a_addr.next = self.a_addr.val();
        self.ram.a_write.next = self.a_write.val();
        self.ram.a_wdata.next = self.a_wdata.val();
        self.a_rdata.next = self.ram.a_rdata.val();
        self.ram.b_addr.next = self.b_addr.val();
        self.ram.b_write.next = self.b_write.val();
        self.ram.b_wdata.next = self.b_wdata.val();
        self.b_rdata.next = self.ram.b_rdata.val();
    }
}

/// Verilog of a standalone `W`-bit, `2^A`-word dual-port RAM, top module `top`.
pub fn dual_port_ram_verilog<const W: usize, const A: usize>() -> String {
    let mut uut = DualPortRamTop::<W, A>::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// Ports of [`DualPortRamTop`] as (name, width, is input).
pub fn dual_port_ram_ports(width: u32, addr: u32) -> Vec<(&'static str, u32, bool)> {
    vec![
        ("clock", 1, true),
        ("a_addr", addr, true),
        ("a_write", 1, true),
        ("a_wdata", width, true),
        ("a_rdata", width, false),
        ("b_addr", addr, true),
        ("b_write", 1, true),
        ("b_wdata", width, true),
        ("b_rdata", width, false),
    ]
}
