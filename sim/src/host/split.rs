//! Split mode, after ConnectX tag matching: the NIC (the engine) owns the posted receives,
//! the host owns the unexpected messages, and the two talk over a link with a delay.
//!
//! The run is a discrete-event simulation in ticks: operation `i` of the stream happens
//! at tick `i` where it originates — a message at the NIC, everything else at the host —
//! and every message between the two sides takes `delay` ticks, in order (each direction
//! is FIFO). The host is the single place where operations take effect: an operation's
//! *linearization point* is when the host settles it (a message the NIC matched, when its
//! report reaches the host). [`SplitRun::check`] replays the stream in that order through
//! the golden model and requires the same outcome for every operation, with each side's
//! own order kept (the host's calls in program order, messages in arrival order).
//!
//! The race: a receive on its way to the NIC and a matching message on its way to the
//! host pass each other; the NIC queues the receive, the host queues the message, and a
//! later message matches the receive although an older one waits in software. The phase
//! counter closes it: the NIC counts the events it sends the host that change what the
//! host must know (a message handed to software, a receive refused for lack of room);
//! the host stamps each receive it hands over with the count it has seen; the NIC
//! refuses a receive whose stamp is behind. When the host sees event `n`, every receive
//! it has in flight carries a stamp below `n` and will be refused, so it takes them back
//! into its own PRQ at once — in posting order, ahead of its other receives — and matches
//! the message against them. Without the counter (`sync: false`) both sides trust the
//! hand-over and the race shows.
//!
//! The host hands over no more receives than `capacity`, counting those in flight and
//! those whose matches it has not heard of, so with the engine's guaranteed capacity (the
//! manifest's `queue_guaranteed`) a refusal for room does not happen. With a larger one,
//! such as `queue_capacity`, which the CAM's banks reach only when entries leave in order,
//! it can: then the host hands nothing over until a match or a cancel reports a free slot.
//!
//! A stream may post a receive under a handle whose match the host has not heard of yet
//! (valid in stream order: the message came first). The host holds that call, and every
//! later one, until the handle is settled, so it never sees two live receives with one
//! handle.

use super::store::HostQueues;
use super::HostReport;
use crate::cycle::CycleEngine;
use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::golden::Golden;
use crate::model::matcher::Matcher;
use crate::model::ops::{Op, Outcome};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, VecDeque};

/// How the two sides are connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// Ticks a message takes between host and NIC, each way.
    pub delay: u64,
    /// The phase counter protocol; off shows the race.
    pub sync: bool,
    /// Receives the engine's PRQ holds; the host hands over no more than that.
    pub capacity: usize,
}

/// Host to NIC.
#[derive(Clone, Copy, Debug)]
enum ToNic {
    /// A message arrives from the network (operation `op`).
    Arrive {
        op: usize,
        msg: MsgId,
        env: Envelope,
    },
    /// A receive handed to hardware, stamped with the host's phase.
    Post {
        send: u64,
        recv: RecvId,
        spec: RecvSpec,
        stamp: u64,
    },
    Cancel {
        recv: RecvId,
    },
}

/// NIC to host.
#[derive(Clone, Copy, Debug)]
enum ToHost {
    /// The host's own operation `op` is called.
    Call {
        op: usize,
    },
    Matched {
        op: usize,
        recv: RecvId,
        msg: MsgId,
    },
    /// A message no hardware receive matched, as phase event `phase`.
    Unexpected {
        op: usize,
        msg: MsgId,
        env: Envelope,
        phase: u64,
    },
    Accepted {
        send: u64,
    },
    /// A receive refused: stale stamp (`phase: None`) or no room (phase event).
    Refused {
        send: u64,
        phase: Option<u64>,
    },
    CancelAnswer {
        recv: RecvId,
        cancelled: bool,
    },
}

#[derive(Clone, Copy, Debug)]
enum Event {
    Nic(ToNic),
    Host(ToHost),
}

struct Scheduled {
    at: Reverse<(u64, u64)>,
    event: Event,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.at.cmp(&other.at)
    }
}

/// A receive handed to hardware and not yet accepted or refused.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    recv: RecvId,
    spec: RecvSpec,
    label: u64,
}

/// What a split run produced: each operation's outcome and the order the host settled
/// them in.
#[derive(Clone, Debug)]
pub struct SplitRun {
    pub outcomes: Vec<Outcome>,
    pub order: Vec<usize>,
    pub report: HostReport,
}

impl SplitRun {
    /// Replays `ops` through the golden model in the order the run settled them; every
    /// outcome must agree, and the order must keep the host's calls and the messages'
    /// arrivals each in stream order.
    pub fn check(&self, ops: &[Op]) -> Result<(), String> {
        if self.order.len() != ops.len() || self.outcomes.len() != ops.len() {
            return Err(format!("{} of {} operations settled", self.order.len(), ops.len()));
        }
        let (mut last_call, mut last_arrival) = (None, None);
        let mut golden = Golden::new();
        for &i in &self.order {
            let last = if matches!(ops[i], Op::Arrive { .. }) { &mut last_arrival } else { &mut last_call };
            if last.is_some_and(|l| l >= i) {
                return Err(format!("op {i} ({:?}) settled out of its side's order", ops[i]));
            }
            *last = Some(i);
            let want = golden.apply(&ops[i]);
            if self.outcomes[i] != want {
                return Err(format!(
                    "op {i} ({:?}): split mode answered {:?}, the golden model in the same order {want:?}",
                    ops[i], self.outcomes[i]
                ));
            }
        }
        Ok(())
    }
}

/// Runs `ops` through host and NIC in split mode.
pub fn run_split<E: CycleEngine>(engine: &mut E, ops: &[Op], opt: SplitOptions) -> Result<SplitRun, String> {
    if let Some(i) = ops.iter().position(|o| matches!(o, Op::Flush)) {
        // A flush would have to drain the messages in flight between NIC and host first.
        return Err(format!("op {i}: split mode does not take a flush; use the fallback driver"));
    }
    let mut s = Split {
        opt,
        engine,
        queue: BinaryHeap::new(),
        next_event: 0,
        now: 0,
        phase_sent: 0,
        phase_seen: 0,
        host: HostQueues::new(),
        in_flight: BTreeMap::new(),
        in_hardware: HashMap::new(),
        next_send: 0,
        next_label: 0,
        waiting_cancel: None,
        waiting_handle: None,
        held_calls: VecDeque::new(),
        hardware_full: false,
        outcomes: vec![None; ops.len()],
        order: Vec::with_capacity(ops.len()),
        report: HostReport::default(),
    };
    for (i, op) in ops.iter().enumerate() {
        let at = i as u64;
        match *op {
            Op::Arrive { msg, env } => s.schedule(at, Event::Nic(ToNic::Arrive { op: i, msg, env })),
            _ => s.schedule(at, Event::Host(ToHost::Call { op: i })),
        }
    }
    while let Some(Scheduled { at: Reverse((at, _)), event }) = s.queue.pop() {
        s.now = at;
        match event {
            Event::Nic(e) => s.nic(e, ops)?,
            Event::Host(e) => s.host_event(e, ops)?,
        }
    }
    let missing = s.outcomes.iter().filter(|o| o.is_none()).count();
    if missing > 0 {
        return Err(format!("{missing} operations never settled"));
    }
    let mut report = s.report;
    report.ops = ops.len() as u64;
    report.cycles = s.engine.cycles();
    report.host = s.host.stats();
    Ok(SplitRun { outcomes: s.outcomes.into_iter().map(Option::unwrap).collect(), order: s.order, report })
}

struct Split<'e, E> {
    opt: SplitOptions,
    engine: &'e mut E,
    queue: BinaryHeap<Scheduled>,
    next_event: u64,
    now: u64,
    /// NIC: phase events sent to the host.
    phase_sent: u64,
    /// Host: phase events seen.
    phase_seen: u64,
    host: HostQueues,
    /// Receives handed over, by send number (send order is posting order).
    in_flight: BTreeMap<u64, InFlight>,
    /// The host's shadow of the hardware PRQ.
    in_hardware: HashMap<RecvId, u64>,
    next_send: u64,
    next_label: u64,
    /// A cancel waiting for the NIC's answer: (operation, receive). The host's later calls
    /// wait behind it, so calls settle in program order.
    waiting_cancel: Option<(usize, RecvId)>,
    /// A receive posted under a handle the host still sees live (its match not yet
    /// reported): it and every later call wait until that handle is settled.
    waiting_handle: Option<RecvId>,
    held_calls: VecDeque<usize>,
    /// The engine refused a receive for room: no hand-overs until a slot is reported free.
    hardware_full: bool,
    outcomes: Vec<Option<Outcome>>,
    order: Vec<usize>,
    report: HostReport,
}

impl<E: CycleEngine> Split<'_, E> {
    fn schedule(&mut self, at: u64, event: Event) {
        self.next_event += 1;
        self.queue.push(Scheduled { at: Reverse((at, self.next_event)), event });
    }

    fn send_host(&mut self, e: ToHost) {
        self.schedule(self.now + self.opt.delay, Event::Host(e));
    }

    fn send_nic(&mut self, e: ToNic) {
        self.schedule(self.now + self.opt.delay, Event::Nic(e));
    }

    fn hardware(&mut self, op: &Op) -> Result<Outcome, String> {
        self.report.commands += 1;
        Ok(self.engine.apply(op)?.outcome)
    }

    fn settle(&mut self, op: usize, outcome: Outcome, in_hardware: bool) {
        self.report.count(&outcome, in_hardware);
        self.outcomes[op] = Some(outcome);
        self.order.push(op);
        self.report.note_host_lengths(self.host.prq_len(), self.host.umq_len());
    }

    fn nic(&mut self, e: ToNic, ops: &[Op]) -> Result<(), String> {
        match e {
            ToNic::Arrive { op, msg, env } => match self.hardware(&ops[op])? {
                Outcome::Matched { recv, .. } => self.send_host(ToHost::Matched { op, recv, msg }),
                Outcome::Queued => {
                    // The engine queued the message; its UMQ is otherwise empty in this
                    // mode, so a matched probe on the exact envelope takes this one back.
                    match self.hardware(&Op::MatchedProbe { spec: RecvSpec::exact(env) })? {
                        Outcome::MatchedProbed(Some(m)) if m == msg => {}
                        other => {
                            return Err(format!("split mode: handing {msg:?} to software got {other:?}"))
                        }
                    }
                    self.phase_sent += 1;
                    self.report.forwarded += 1;
                    self.send_host(ToHost::Unexpected { op, msg, env, phase: self.phase_sent });
                }
                other => return Err(format!("split mode: the engine answered {other:?} to {:?}", ops[op])),
            },
            ToNic::Post { send, recv, spec, stamp } => {
                if self.opt.sync && stamp != self.phase_sent {
                    self.report.refused += 1;
                    self.send_host(ToHost::Refused { send, phase: None });
                    return Ok(());
                }
                match self.hardware(&Op::PostRecv { recv, spec })? {
                    Outcome::Queued => self.send_host(ToHost::Accepted { send }),
                    Outcome::Overflow => {
                        self.phase_sent += 1;
                        self.report.refused += 1;
                        self.send_host(ToHost::Refused { send, phase: Some(self.phase_sent) });
                    }
                    other => return Err(format!("split mode: handing over {recv:?} got {other:?}")),
                }
            }
            ToNic::Cancel { recv } => {
                let cancelled = match self.hardware(&Op::Cancel { recv })? {
                    Outcome::Cancelled { .. } => true,
                    Outcome::NotFound => false,
                    other => return Err(format!("split mode: cancelling {recv:?} got {other:?}")),
                };
                self.send_host(ToHost::CancelAnswer { recv, cancelled });
            }
        }
        Ok(())
    }

    fn host_event(&mut self, e: ToHost, ops: &[Op]) -> Result<(), String> {
        match e {
            ToHost::Call { op } => {
                self.held_calls.push_back(op);
            }
            ToHost::Matched { op, recv, msg } => {
                if self.in_hardware.remove(&recv).is_none() {
                    return Err(format!(
                        "split mode: the NIC matched {recv:?}, which the host never saw accepted"
                    ));
                }
                self.hardware_full = false;
                self.settle(op, Outcome::Matched { recv, msg }, true);
            }
            ToHost::Unexpected { op, msg, env, phase } => {
                self.phase_seen = phase;
                if self.opt.sync {
                    self.take_back_in_flight();
                }
                match self.host.take_posted(&env) {
                    Some(recv) => self.settle(op, Outcome::Matched { recv, msg }, false),
                    None => {
                        self.next_label += 1;
                        self.host.push_unexpected(self.next_label, msg, env);
                        self.settle(op, Outcome::Queued, false);
                    }
                }
            }
            ToHost::Accepted { send } => match self.in_flight.remove(&send) {
                Some(f) => {
                    self.in_hardware.insert(f.recv, f.label);
                }
                None => {
                    return Err(format!("split mode: the NIC accepted hand-over {send}, taken back already"))
                }
            },
            ToHost::Refused { send, phase } => {
                if phase.is_some() {
                    // Refused for room: the host's count was high enough to send it, so it
                    // cannot tell when room comes back; the next reported removal says.
                    self.hardware_full = true;
                }
                if let Some(p) = phase {
                    self.phase_seen = p;
                    if self.opt.sync {
                        self.take_back_in_flight();
                    }
                }
                // Stale refusals were taken back when the event that made them stale came.
                if let Some(f) = self.in_flight.remove(&send) {
                    self.host.push_posted(f.label, f.recv, f.spec);
                    self.report.taken_back += 1;
                }
            }
            ToHost::CancelAnswer { recv, cancelled } => {
                let Some((op, waiting)) = self.waiting_cancel.take() else {
                    return Err("split mode: a cancel answer nobody waits for".into());
                };
                debug_assert_eq!(waiting, recv);
                let outcome = if cancelled {
                    self.in_hardware.remove(&recv);
                    self.hardware_full = false;
                    Outcome::Cancelled { recv }
                } else if self.host.cancel(recv) {
                    // Refused on the way and taken back before the answer came.
                    Outcome::Cancelled { recv }
                } else {
                    Outcome::NotFound
                };
                self.settle(op, outcome, cancelled);
            }
        }
        self.run_held_calls(ops);
        self.hand_over_backlog();
        Ok(())
    }

    /// Whether the host still sees receive `recv` live: held, in flight or in hardware.
    fn live(&self, recv: RecvId) -> bool {
        self.host.holds_recv(recv)
            || self.in_hardware.contains_key(&recv)
            || self.in_flight.values().any(|f| f.recv == recv)
    }

    /// Runs the host's calls in program order until one has to wait: a cancel for the
    /// NIC's answer, or a receive whose handle the host still sees live (the stream reuses
    /// it after a match the host has not heard of yet).
    fn run_held_calls(&mut self, ops: &[Op]) {
        if self.waiting_handle.is_some_and(|r| !self.live(r)) {
            self.waiting_handle = None;
        }
        while self.waiting_cancel.is_none() && self.waiting_handle.is_none() {
            let Some(&next) = self.held_calls.front() else { break };
            if let Op::PostRecv { recv, .. } = ops[next] {
                if self.live(recv) {
                    self.waiting_handle = Some(recv);
                    break;
                }
            }
            self.held_calls.pop_front();
            self.call(next, ops);
        }
    }

    /// Every receive in flight has a stamp below the phase just seen and will be refused:
    /// take them into the host PRQ now, where their labels put them ahead of the rest.
    fn take_back_in_flight(&mut self) {
        for (_, f) in std::mem::take(&mut self.in_flight) {
            self.host.push_posted(f.label, f.recv, f.spec);
            self.report.taken_back += 1;
        }
    }

    /// Receives the hardware holds or will hold, as far as the host knows: never fewer
    /// than it really holds, since matches are reported late and a handle is not posted
    /// again while the host still sees it live.
    fn hardware_load(&self) -> usize {
        self.in_hardware.len() + self.in_flight.len()
    }

    fn hand_over(&mut self, recv: RecvId, spec: RecvSpec, label: u64) {
        self.next_send += 1;
        let send = self.next_send;
        self.in_flight.insert(send, InFlight { recv, spec, label });
        self.send_nic(ToNic::Post { send, recv, spec, stamp: self.phase_seen });
    }

    /// Moves the host's oldest receives into hardware while it has room. Not while a
    /// cancel waits: the receive it names could pass the cancel on the link.
    fn hand_over_backlog(&mut self) {
        while self.waiting_cancel.is_none() && !self.hardware_full && self.hardware_load() < self.opt.capacity
        {
            let Some((label, recv, spec)) = self.host.pop_oldest_posted() else { break };
            self.report.readmitted += 1;
            self.hand_over(recv, spec, label);
        }
    }

    /// One of the host's own calls.
    fn call(&mut self, op: usize, ops: &[Op]) {
        match ops[op] {
            Op::PostRecv { recv, spec } => {
                if let Some(msg) = self.host.find_unexpected(&spec, true) {
                    return self.settle(op, Outcome::Matched { recv, msg }, false);
                }
                self.next_label += 1;
                let label = self.next_label;
                // Behind host receives, or with the hardware full, it waits in software.
                if self.host.prq_len() > 0 || self.hardware_full || self.hardware_load() >= self.opt.capacity
                {
                    self.report.fallbacks += 1;
                    self.host.push_posted(label, recv, spec);
                } else {
                    self.hand_over(recv, spec, label);
                }
                self.settle(op, Outcome::Queued, false);
            }
            Op::Cancel { recv } => {
                if self.host.cancel(recv) {
                    self.settle(op, Outcome::Cancelled { recv }, false);
                } else if self.in_hardware.contains_key(&recv)
                    || self.in_flight.values().any(|f| f.recv == recv)
                {
                    self.waiting_cancel = Some((op, recv));
                    self.send_nic(ToNic::Cancel { recv });
                } else {
                    self.settle(op, Outcome::NotFound, false);
                }
            }
            Op::Probe { spec } => {
                let found = self.host.find_unexpected(&spec, false);
                self.settle(op, Outcome::Probed(found), false);
            }
            Op::MatchedProbe { spec } => {
                let found = self.host.find_unexpected(&spec, true);
                self.settle(op, Outcome::MatchedProbed(found), false);
            }
            Op::Arrive { .. } => unreachable!("messages arrive at the NIC"),
            Op::Flush => unreachable!("refused by run_split"),
        }
    }
}
