//! The one-sided offload unit: put/get progress and completion moved off the host, after
//! the SmartNIC proxy design (Michalowicz et al., "Effective and Efficient Offloading Designs
//! for One-Sided Communication to SmartNICs").
//!
//! The host sends commands and forgets them; the unit issues each put or get to the
//! network, counts what is outstanding per window, and answers a flush with a FIN once the
//! window's requests are complete, while the host computes.
//!
//! Streams (valid/ready):
//! - command in: `put(window, target, bytes)` (op 0), `get` (1), `flush(window)` (2),
//!   `flush_all` (3). Puts and gets have no response.
//! - request out to the network (`net_*`): one per put or get, in command order.
//! - completion in from the network (`cpl_valid`, `cpl_window`): one per cycle at most,
//!   always accepted. The completions of one window return in the order its requests were
//!   issued, as on an InfiniBand reliable connection.
//! - response out: `fin(window)` (kind 0), `fin_all` (1), `error(window)` (2, a put, get
//!   or flush naming a window the unit does not have; nothing else changes).
//!
//! Ordering rules:
//! - a flush of window `w` waits for every request of `w` accepted before it, and for none
//!   accepted after it;
//! - `flush_all` waits for every request accepted before it, of every window;
//! - each flush gets exactly one FIN;
//! - a flush with nothing outstanding answers at once: 3 cycles after it is accepted (its
//!   command register, the flag, the response register); a flush_all 4 (one more to AND
//!   the windows' flags).
//!
//! The host must take responses while it sends commands: answers wait in one flag per
//! window and one response register, so a host that keeps sending flushes of one window
//! without reading fills them and the command stream stalls behind them.
//!
//! A completion of a window with nothing outstanding is ignored, so a reset while
//! requests are still in the network cannot leave a window's counters unbalanced.
//!
//! A second flush of a window whose first has not been answered waits in the command
//! register (and so does every command behind it), which keeps one flag per window.
//!
//! Per window the unit keeps two `CB`-bit counters, requests issued and requests completed.
//! A flush snapshots `issued` and waits until `completed` equals it. Completions arrive at
//! most one per cycle, so `completed` cannot step past the snapshot unseen. A window with
//! `2^CB - 1` requests outstanding holds further puts and gets in the command register:
//! backpressure, never a lost request. The counters wrap freely. FIN comes 2 cycles
//! after the completion that ends the wait, FIN_ALL 3 (one more to AND the windows'
//! flags).
//!
//! Commands enter a command register through a one-entry skid buffer, so the unit takes
//! a command every cycle while the register drains every cycle, and `cmd_ready` still
//! comes from a register (it falls when the skid entry is full).

use rust_hdl::prelude::*;

pub const OP_PUT: u64 = 0;
pub const OP_GET: u64 = 1;
pub const OP_FLUSH: u64 = 2;
pub const OP_FLUSH_ALL: u64 = 3;

pub const RESP_FIN: u64 = 0;
pub const RESP_FIN_ALL: u64 = 1;
pub const RESP_ERROR: u64 = 2;

#[derive(LogicBlock)]
pub struct OneSidedUnit<const W: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous: clears every counter, flag and register.
    pub reset: Signal<In, Bit>,
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    pub cmd_op: Signal<In, Bits<2>>,
    pub cmd_window: Signal<In, Bits<8>>,
    pub cmd_target: Signal<In, Bits<16>>,
    pub cmd_bytes: Signal<In, Bits<32>>,
    pub net_valid: Signal<Out, Bit>,
    pub net_ready: Signal<In, Bit>,
    pub net_get: Signal<Out, Bit>,
    pub net_window: Signal<Out, Bits<8>>,
    pub net_target: Signal<Out, Bits<16>>,
    pub net_bytes: Signal<Out, Bits<32>>,
    pub cpl_valid: Signal<In, Bit>,
    pub cpl_window: Signal<In, Bits<8>>,
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_kind: Signal<Out, Bits<2>>,
    pub resp_window: Signal<Out, Bits<8>>,
    // The command register and its ready flag.
    ready: DFF<Bit>,
    c_valid: DFF<Bit>,
    c_op: DFF<Bits<2>>,
    c_window: DFF<Bits<8>>,
    c_target: DFF<Bits<16>>,
    c_bytes: DFF<Bits<32>>,
    // The skid entry: a command taken while the command register could not move on.
    k_valid: DFF<Bit>,
    k_op: DFF<Bits<2>>,
    k_window: DFF<Bits<8>>,
    k_target: DFF<Bits<16>>,
    k_bytes: DFF<Bits<32>>,
    // The request register towards the network.
    n_valid: DFF<Bit>,
    n_get: DFF<Bit>,
    n_window: DFF<Bits<8>>,
    n_target: DFF<Bits<16>>,
    n_bytes: DFF<Bits<32>>,
    // Per window.
    issued: [DFF<Bits<CB>>; W],
    completed: [DFF<Bits<CB>>; W],
    /// `issued != completed`, registered from the next values so that the completion
    /// count does not wait on a CB-bit compare.
    outstanding: [DFF<Bit>; W],
    /// `issued - completed` is the counters' limit, registered the same way.
    saturated_q: [DFF<Bit>; W],
    flush_wait: [DFF<Bit>; W],
    flush_target: [DFF<Bits<CB>>; W],
    fin: [DFF<Bit>; W],
    all_ok: [DFF<Bit>; W],
    all_target: [DFF<Bits<CB>>; W],
    // Flush-all and error flags.
    all_wait: DFF<Bit>,
    all_fin: DFF<Bit>,
    err: DFF<Bit>,
    err_window: DFF<Bits<8>>,
    // The response register.
    r_valid: DFF<Bit>,
    r_kind: DFF<Bits<2>>,
    r_window: DFF<Bits<8>>,
    // Combinational helpers.
    completed_next: [Signal<Local, Bits<CB>>; W],
    issued_next: [Signal<Local, Bits<CB>>; W],
    is_cmd_window: [Signal<Local, Bit>; W],
    all_ok_vec: Signal<Local, Bits<W>>,
    /// The windows with a FIN waiting, the lowest of them (one-hot) and its number.
    fin_vec: Signal<Local, Bits<W>>,
    fin_first: Signal<Local, Bits<W>>,
    fin_window: Signal<Local, Bits<8>>,
    taken: Signal<Local, Bit>,
    net_free: Signal<Local, Bit>,
    slot_free: Signal<Local, Bit>,
    // Constants.
    index: [Constant<Bits<8>>; W],
    window_bit: [Constant<Bits<W>>; W],
    all_windows: Constant<Bits<W>>,
    windows: Constant<Bits<8>>,
    one: Constant<Bits<CB>>,
    saturated: Constant<Bits<CB>>,
    zero: Constant<Bits<CB>>,
    zero_windows: Constant<Bits<W>>,
    one_windows: Constant<Bits<W>>,
    op_put: Constant<Bits<2>>,
    op_get: Constant<Bits<2>>,
    op_flush: Constant<Bits<2>>,
    op_flush_all: Constant<Bits<2>>,
    k_fin: Constant<Bits<2>>,
    k_fin_all: Constant<Bits<2>>,
    k_error: Constant<Bits<2>>,
    zero8: Constant<Bits<8>>,
}

impl<const W: usize, const CB: usize> Default for OneSidedUnit<W, CB> {
    fn default() -> Self {
        assert!((1..=64).contains(&W), "1 to 64 windows");
        assert!((2..=32).contains(&CB), "counters of 2 to 32 bits");
        let k2 = |v: u64| Constant::new(v.to_bits());
        let ones = if W == 64 { u64::MAX } else { (1u64 << W) - 1 };
        OneSidedUnit {
            clock: Default::default(),
            reset: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd_op: Default::default(),
            cmd_window: Default::default(),
            cmd_target: Default::default(),
            cmd_bytes: Default::default(),
            net_valid: Default::default(),
            net_ready: Default::default(),
            net_get: Default::default(),
            net_window: Default::default(),
            net_target: Default::default(),
            net_bytes: Default::default(),
            cpl_valid: Default::default(),
            cpl_window: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_kind: Default::default(),
            resp_window: Default::default(),
            ready: Default::default(),
            c_valid: Default::default(),
            c_op: Default::default(),
            c_window: Default::default(),
            c_target: Default::default(),
            c_bytes: Default::default(),
            k_valid: Default::default(),
            k_op: Default::default(),
            k_window: Default::default(),
            k_target: Default::default(),
            k_bytes: Default::default(),
            n_valid: Default::default(),
            n_get: Default::default(),
            n_window: Default::default(),
            n_target: Default::default(),
            n_bytes: Default::default(),
            issued: array_init::array_init(|_| Default::default()),
            completed: array_init::array_init(|_| Default::default()),
            outstanding: array_init::array_init(|_| Default::default()),
            saturated_q: array_init::array_init(|_| Default::default()),
            flush_wait: array_init::array_init(|_| Default::default()),
            flush_target: array_init::array_init(|_| Default::default()),
            fin: array_init::array_init(|_| Default::default()),
            all_ok: array_init::array_init(|_| Default::default()),
            all_target: array_init::array_init(|_| Default::default()),
            all_wait: Default::default(),
            all_fin: Default::default(),
            err: Default::default(),
            err_window: Default::default(),
            r_valid: Default::default(),
            r_kind: Default::default(),
            r_window: Default::default(),
            completed_next: array_init::array_init(|_| Default::default()),
            issued_next: array_init::array_init(|_| Default::default()),
            is_cmd_window: array_init::array_init(|_| Default::default()),
            all_ok_vec: Default::default(),
            fin_vec: Default::default(),
            fin_first: Default::default(),
            fin_window: Default::default(),
            taken: Default::default(),
            net_free: Default::default(),
            slot_free: Default::default(),
            index: array_init::array_init(|w| Constant::new((w as u64).to_bits())),
            window_bit: array_init::array_init(|w| Constant::new((1u64 << w).to_bits())),
            all_windows: Constant::new(ones.to_bits()),
            windows: Constant::new((W as u64).to_bits()),
            one: Constant::new(1u64.to_bits()),
            saturated: Constant::new(((1u64 << CB) - 1).to_bits()),
            zero: Constant::new(0u64.to_bits()),
            zero_windows: Constant::new(0u64.to_bits()),
            one_windows: Constant::new(1u64.to_bits()),
            op_put: k2(OP_PUT),
            op_get: k2(OP_GET),
            op_flush: k2(OP_FLUSH),
            op_flush_all: k2(OP_FLUSH_ALL),
            k_fin: k2(RESP_FIN),
            k_fin_all: k2(RESP_FIN_ALL),
            k_error: k2(RESP_ERROR),
            zero8: Constant::new(0u64.to_bits()),
        }
    }
}

impl<const W: usize, const CB: usize> Logic for OneSidedUnit<W, CB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ready, c_valid, c_op, c_window, c_target, c_bytes, k_valid, k_op, k_window,
            k_target, k_bytes, n_valid, n_get, n_window, n_target, n_bytes, all_wait, all_fin, err,
            err_window, r_valid, r_kind, r_window
        );
        for w in 0..W {
            self.issued[w].clock.next = self.clock.val();
            self.outstanding[w].clock.next = self.clock.val();
            self.saturated_q[w].clock.next = self.clock.val();
            self.issued_next[w].next = self.issued[w].q.val();
            self.completed[w].clock.next = self.clock.val();
            self.flush_wait[w].clock.next = self.clock.val();
            self.flush_target[w].clock.next = self.clock.val();
            self.fin[w].clock.next = self.clock.val();
            self.all_ok[w].clock.next = self.clock.val();
            self.all_target[w].clock.next = self.clock.val();
            self.completed[w].d.next = self.completed[w].q.val();
            self.flush_wait[w].d.next = self.flush_wait[w].q.val();
            self.flush_target[w].d.next = self.flush_target[w].q.val();
            self.fin[w].d.next = self.fin[w].q.val();
            self.all_ok[w].d.next = self.all_ok[w].q.val();
            self.all_target[w].d.next = self.all_target[w].q.val();
        }
        self.cmd_ready.next = self.ready.q.val();
        self.net_valid.next = self.n_valid.q.val();
        self.net_get.next = self.n_get.q.val();
        self.net_window.next = self.n_window.q.val();
        self.net_target.next = self.n_target.q.val();
        self.net_bytes.next = self.n_bytes.q.val();
        self.resp_valid.next = self.r_valid.q.val();
        self.resp_kind.next = self.r_kind.q.val();
        self.resp_window.next = self.r_window.q.val();

        // The output registers drain when taken.
        self.net_free.next = !self.n_valid.q.val() | self.net_ready.val();
        if self.n_valid.q.val() & self.net_ready.val() {
            self.n_valid.d.next = false;
        }
        self.slot_free.next = !self.r_valid.q.val() | self.resp_ready.val();
        if self.r_valid.q.val() & self.resp_ready.val() {
            self.r_valid.d.next = false;
        }

        // Completions, and the flushes they end.
        self.all_ok_vec.next = self.zero_windows.val();
        for w in 0..W {
            // A completion counts only against something outstanding: one still in flight
            // across a reset would otherwise leave the window looking saturated forever.
            if self.cpl_valid.val()
                & (self.cpl_window.val() == self.index[w].val())
                & self.outstanding[w].q.val()
            {
                self.completed_next[w].next = self.completed[w].q.val() + self.one.val();
            } else {
                self.completed_next[w].next = self.completed[w].q.val();
            }
            self.completed[w].d.next = self.completed_next[w].val();
            if self.flush_wait[w].q.val() & (self.completed_next[w].val() == self.flush_target[w].q.val()) {
                self.flush_wait[w].d.next = false;
                self.fin[w].d.next = true;
            }
            if self.all_wait.q.val()
                & !self.all_ok[w].q.val()
                & (self.completed_next[w].val() == self.all_target[w].q.val())
            {
                self.all_ok[w].d.next = true;
            }
            if self.all_ok[w].q.val() {
                self.all_ok_vec.next = self.all_ok_vec.val() | self.window_bit[w].val();
            }
            self.is_cmd_window[w].next = self.c_window.q.val() == self.index[w].val();
        }
        if self.all_wait.q.val() & (self.all_ok_vec.val() == self.all_windows.val()) {
            self.all_wait.d.next = false;
            self.all_fin.d.next = true;
        }

        // The command register: one command a cycle at most, when its resource is free.
        self.taken.next = false;
        if self.c_valid.q.val() {
            if (self.c_window.q.val() >= self.windows.val()) & (self.c_op.q.val() != self.op_flush_all.val())
            {
                if !self.err.q.val() {
                    self.err.d.next = true;
                    self.err_window.d.next = self.c_window.q.val();
                    self.taken.next = true;
                }
            } else if (self.c_op.q.val() == self.op_put.val()) | (self.c_op.q.val() == self.op_get.val()) {
                for w in 0..W {
                    if self.is_cmd_window[w].val() & self.net_free.val() & !self.saturated_q[w].q.val() {
                        self.issued_next[w].next = self.issued[w].q.val() + self.one.val();
                        self.n_valid.d.next = true;
                        self.n_get.d.next = self.c_op.q.val() == self.op_get.val();
                        self.n_window.d.next = self.c_window.q.val();
                        self.n_target.d.next = self.c_target.q.val();
                        self.n_bytes.d.next = self.c_bytes.q.val();
                        self.taken.next = true;
                    }
                }
            } else if self.c_op.q.val() == self.op_flush.val() {
                for w in 0..W {
                    if self.is_cmd_window[w].val() & !self.flush_wait[w].q.val() & !self.fin[w].q.val() {
                        if self.issued[w].q.val() == self.completed_next[w].val() {
                            self.fin[w].d.next = true;
                        } else {
                            self.flush_wait[w].d.next = true;
                            self.flush_target[w].d.next = self.issued[w].q.val();
                        }
                        self.taken.next = true;
                    }
                }
            } else if !self.all_wait.q.val() & !self.all_fin.q.val() {
                self.all_wait.d.next = true;
                for w in 0..W {
                    self.all_target[w].d.next = self.issued[w].q.val();
                    self.all_ok[w].d.next = self.issued[w].q.val() == self.completed_next[w].val();
                }
                self.taken.next = true;
            }
        }
        // The command register moves on when empty or taken: to the skid entry if it holds
        // one, else to the command just offered. Otherwise an offered command waits in the
        // skid entry (it is free whenever `cmd_ready` is high).
        if !self.c_valid.q.val() | self.taken.val() {
            if self.k_valid.q.val() {
                self.c_valid.d.next = true;
                self.c_op.d.next = self.k_op.q.val();
                self.c_window.d.next = self.k_window.q.val();
                self.c_target.d.next = self.k_target.q.val();
                self.c_bytes.d.next = self.k_bytes.q.val();
                self.k_valid.d.next = false;
            } else if self.cmd_valid.val() & self.ready.q.val() {
                self.c_valid.d.next = true;
                self.c_op.d.next = self.cmd_op.val();
                self.c_window.d.next = self.cmd_window.val();
                self.c_target.d.next = self.cmd_target.val();
                self.c_bytes.d.next = self.cmd_bytes.val();
            } else {
                self.c_valid.d.next = false;
            }
            self.ready.d.next = true;
        } else {
            if self.cmd_valid.val() & self.ready.q.val() {
                self.k_valid.d.next = true;
                self.k_op.d.next = self.cmd_op.val();
                self.k_window.d.next = self.cmd_window.val();
                self.k_target.d.next = self.cmd_target.val();
                self.k_bytes.d.next = self.cmd_bytes.val();
            }
            self.ready.d.next = !(self.k_valid.q.val() | (self.cmd_valid.val() & self.ready.q.val()));
        }

        // The response register: an error first, then the lowest window's FIN, then FIN_ALL.
        // The lowest waiting window is the lowest set bit of the FIN vector (x & -x, a carry
        // chain) and its number an OR of one-hot terms, so the choice is no priority chain
        // over the windows.
        self.fin_vec.next = self.zero_windows.val();
        for w in 0..W {
            if self.fin[w].q.val() {
                self.fin_vec.next = self.fin_vec.val() | self.window_bit[w].val();
            }
        }
        self.fin_first.next = self.fin_vec.val() & (!self.fin_vec.val() + self.one_windows.val());
        self.fin_window.next = self.zero8.val();
        for w in 0..W {
            if self.fin_first.val().get_bit(w) {
                self.fin_window.next = self.fin_window.val() | self.index[w].val();
            }
        }
        if self.slot_free.val() {
            if self.err.q.val() {
                self.r_valid.d.next = true;
                self.r_kind.d.next = self.k_error.val();
                self.r_window.d.next = self.err_window.q.val();
                self.err.d.next = false;
            } else if self.fin_vec.val().any() {
                self.r_valid.d.next = true;
                self.r_kind.d.next = self.k_fin.val();
                self.r_window.d.next = self.fin_window.val();
                for w in 0..W {
                    if self.fin_first.val().get_bit(w) {
                        self.fin[w].d.next = false;
                    }
                }
            } else if self.all_fin.q.val() {
                self.r_valid.d.next = true;
                self.r_kind.d.next = self.k_fin_all.val();
                self.r_window.d.next = self.zero8.val();
                self.all_fin.d.next = false;
            }
        }

        for w in 0..W {
            self.issued[w].d.next = self.issued_next[w].val();
            self.outstanding[w].d.next = self.issued_next[w].val() != self.completed_next[w].val();
            self.saturated_q[w].d.next =
                (self.issued_next[w].val() - self.completed_next[w].val()) == self.saturated.val();
        }

        if self.reset.val() {
            self.ready.d.next = false;
            self.c_valid.d.next = false;
            self.k_valid.d.next = false;
            self.n_valid.d.next = false;
            self.r_valid.d.next = false;
            self.all_wait.d.next = false;
            self.all_fin.d.next = false;
            self.err.d.next = false;
            for w in 0..W {
                self.issued[w].d.next = self.zero.val();
                self.outstanding[w].d.next = false;
                self.saturated_q[w].d.next = false;
                self.completed[w].d.next = self.zero.val();
                self.flush_wait[w].d.next = false;
                self.fin[w].d.next = false;
                self.all_ok[w].d.next = false;
            }
        }
    }
}

/// The unit's Verilog, top module `top`.
pub fn onesided_verilog<const W: usize, const CB: usize>() -> String {
    let mut uut = OneSidedUnit::<W, CB>::default();
    uut.connect_all();
    // rust-hdl names array elements `name$i`; Verilator's C++ wants plain identifiers.
    crate::primitives::trees::isolate_outputs(&generate_verilog(&uut)).replace('$', "_")
}

/// Ports of [`OneSidedUnit`] as (name, width, is input).
pub fn onesided_ports() -> Vec<(&'static str, u32, bool)> {
    vec![
        ("clock", 1, true),
        ("reset", 1, true),
        ("cmd_valid", 1, true),
        ("cmd_ready", 1, false),
        ("cmd_op", 2, true),
        ("cmd_window", 8, true),
        ("cmd_target", 16, true),
        ("cmd_bytes", 32, true),
        ("net_valid", 1, false),
        ("net_ready", 1, true),
        ("net_get", 1, false),
        ("net_window", 8, false),
        ("net_target", 16, false),
        ("net_bytes", 32, false),
        ("cpl_valid", 1, true),
        ("cpl_window", 8, true),
        ("resp_valid", 1, false),
        ("resp_ready", 1, true),
        ("resp_kind", 2, false),
        ("resp_window", 8, false),
    ]
}
