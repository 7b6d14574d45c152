//! The one-sided unit's cycle-accurate model: the RTL's registers, one edge at a time, for
//! any number of windows and counter width. Co-simulation holds the RTL to it handshake for handshake, cycle for cycle.

use super::{Inputs, Outputs, UnitConfig, UnitPins, OP_FLUSH, OP_FLUSH_ALL, OP_GET, OP_PUT};
use super::{RESP_ERROR, RESP_FIN, RESP_FIN_ALL};

/// A request in the network register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Request {
    get: bool,
    window: u8,
    target: u16,
    bytes: u32,
}

/// A command in the command register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    op: u8,
    window: u8,
    target: u16,
    bytes: u32,
}

#[derive(Clone, Debug)]
pub struct UnitModel {
    cfg: UnitConfig,
    ready: bool,
    command: Option<Held>,
    /// The skid entry.
    skid: Option<Held>,
    request: Option<Request>,
    issued: Vec<u64>,
    completed: Vec<u64>,
    flush_wait: Vec<bool>,
    flush_target: Vec<u64>,
    fin: Vec<bool>,
    all_ok: Vec<bool>,
    all_target: Vec<u64>,
    all_wait: bool,
    all_fin: bool,
    err: Option<u8>,
    response: Option<(u8, u8)>,
}

impl UnitModel {
    pub fn new(cfg: UnitConfig) -> Self {
        let w = cfg.windows;
        UnitModel {
            cfg,
            ready: false,
            command: None,
            skid: None,
            request: None,
            issued: vec![0; w],
            completed: vec![0; w],
            flush_wait: vec![false; w],
            flush_target: vec![0; w],
            fin: vec![false; w],
            all_ok: vec![false; w],
            all_target: vec![0; w],
            all_wait: false,
            all_fin: false,
            err: None,
            response: None,
        }
    }

    /// Requests of `window` issued and not completed.
    pub fn outstanding(&self, window: usize) -> u64 {
        self.issued[window].wrapping_sub(self.completed[window]) & self.mask()
    }

    fn mask(&self) -> u64 {
        self.cfg.max_outstanding()
    }
}

impl UnitPins for UnitModel {
    fn outputs(&self) -> Outputs {
        let req = self.request.unwrap_or(Request { get: false, window: 0, target: 0, bytes: 0 });
        let (kind, window) = self.response.unwrap_or((0, 0));
        Outputs {
            cmd_ready: self.ready,
            net_valid: self.request.is_some(),
            net_get: req.get,
            net_window: req.window,
            net_target: req.target,
            net_bytes: req.bytes,
            resp_valid: self.response.is_some(),
            resp_kind: kind,
            resp_window: window,
        }
    }

    // Indexed loops over the windows, line for line the RTL's `for w in 0..W`.
    #[allow(clippy::needless_range_loop)]
    fn clock(&mut self, i: &Inputs) {
        let mask = self.mask();
        let mut nx = self.clone();
        let net_free = self.request.is_none() || i.net_ready;
        if self.request.is_some() && i.net_ready {
            nx.request = None;
        }
        let slot_free = self.response.is_none() || i.resp_ready;
        if self.response.is_some() && i.resp_ready {
            nx.response = None;
        }

        let windows = self.cfg.windows;
        let completed_next: Vec<u64> = (0..windows)
            .map(|w| {
                let hit = i.cpl_valid && i.cpl_window as usize == w && self.issued[w] != self.completed[w];
                (self.completed[w] + hit as u64) & mask
            })
            .collect();
        for w in 0..windows {
            nx.completed[w] = completed_next[w];
            if self.flush_wait[w] && completed_next[w] == self.flush_target[w] {
                nx.flush_wait[w] = false;
                nx.fin[w] = true;
            }
            if self.all_wait && !self.all_ok[w] && completed_next[w] == self.all_target[w] {
                nx.all_ok[w] = true;
            }
        }
        if self.all_wait && self.all_ok.iter().all(|&ok| ok) {
            nx.all_wait = false;
            nx.all_fin = true;
        }

        let mut taken = false;
        if let Some(c) = self.command {
            let w = c.window as usize;
            if w >= windows && c.op != OP_FLUSH_ALL {
                if self.err.is_none() {
                    nx.err = Some(c.window);
                    taken = true;
                }
            } else if c.op == OP_PUT || c.op == OP_GET {
                if net_free && self.outstanding(w) != mask {
                    nx.issued[w] = (self.issued[w] + 1) & mask;
                    nx.request = Some(Request {
                        get: c.op == OP_GET,
                        window: c.window,
                        target: c.target,
                        bytes: c.bytes,
                    });
                    taken = true;
                }
            } else if c.op == OP_FLUSH {
                if !self.flush_wait[w] && !self.fin[w] {
                    if self.issued[w] == completed_next[w] {
                        nx.fin[w] = true;
                    } else {
                        nx.flush_wait[w] = true;
                        nx.flush_target[w] = self.issued[w];
                    }
                    taken = true;
                }
            } else if !self.all_wait && !self.all_fin {
                nx.all_wait = true;
                for w in 0..windows {
                    nx.all_target[w] = self.issued[w];
                    nx.all_ok[w] = self.issued[w] == completed_next[w];
                }
                taken = true;
            }
        }
        let accept = i.cmd_valid && self.ready;
        let offered = Held { op: i.cmd_op, window: i.cmd_window, target: i.cmd_target, bytes: i.cmd_bytes };
        if self.command.is_none() || taken {
            nx.command = match self.skid {
                Some(k) => Some(k),
                None => accept.then_some(offered),
            };
            nx.skid = None;
            nx.ready = true;
        } else {
            if accept {
                nx.skid = Some(offered);
            }
            nx.ready = !(self.skid.is_some() || accept);
        }

        if slot_free {
            let mut loaded = false;
            if let Some(w) = self.err {
                nx.response = Some((RESP_ERROR, w));
                nx.err = None;
                loaded = true;
            }
            for w in 0..windows {
                if self.fin[w] && !loaded {
                    nx.response = Some((RESP_FIN, w as u8));
                    nx.fin[w] = false;
                    loaded = true;
                }
            }
            if self.all_fin && !loaded {
                nx.response = Some((RESP_FIN_ALL, 0));
                nx.all_fin = false;
            }
        }

        if i.reset {
            nx.ready = false;
            nx.command = None;
            nx.skid = None;
            nx.request = None;
            nx.response = None;
            nx.all_wait = false;
            nx.all_fin = false;
            nx.err = None;
            for w in 0..windows {
                nx.issued[w] = 0;
                nx.completed[w] = 0;
                nx.flush_wait[w] = false;
                nx.fin[w] = false;
                nx.all_ok[w] = false;
            }
        }
        *self = nx;
    }
}
