//! The receive engine's operation logic, shared by every cycle model: which queue an
//! operation searches, what it does with the result, and when things happen. A model
//! differs from another only in its [`Queue`] — how long a search takes and how much work
//! an insert or a removal leaves behind.
//!
//! Timing, in the RTL's terms (`hdl/src/receive_engine.rs`): a command is *presented* at
//! some cycle and *accepted* at the first cycle from then on in which the command register
//! is empty, no queue is in a multi-cycle step (a list walk, a list insert, the data
//! mover) and no woken wait's answer is due. It *issues* at the first cycle `I` after
//! acceptance that the queues allow; its search is answered at `W = I - 1 + search
//! cycles`, where the engine decides; the response is valid at `R = W + 1`, and in that
//! cycle the queues remove or insert. A change that is done at that edge (work 0: a CAM
//! insert, a removal without the data mover) lets the next command issue at `R` itself;
//! otherwise it issues once the queue is free, at `R + work`, and commands wait for
//! acceptance through `R + work - 1`. A wait or test is decided at `I` and answered at
//! `I + 1`.
//!
//! [`CycleEngine::apply`] presents each command the cycle after the previous response was
//! taken (the serial driver); [`CycleEngine::apply_stream`] presents each the cycle after
//! the previous one was accepted, taking every response as it comes (the streaming driver).

use super::entry::{Entry, Key};
use super::{check_fields, Applied, Completion, CompletionAnswer, CycleEngine, FieldWidths, Wakeup};
use crate::model::completion::CompletionCounters;
use crate::model::envelope::{MsgId, RecvId};
use crate::model::ops::{Op, Outcome};

/// One queue (PRQ or UMQ) of a cycle model.
pub trait Queue {
    /// Finds the oldest entry `key` matches and remembers where it is for
    /// [`Queue::remove_found`]; returns it and the cycles from acceptance to the result.
    fn search(&mut self, key: &Key) -> (Option<Entry>, u64);
    /// Removes what the last search found; returns its *work*: the cycles after the
    /// response before the next command may issue (it is not accepted in the cycles
    /// between: the queue is busy).
    fn remove_found(&mut self) -> u64;
    /// Appends an entry (the engine checks [`Queue::full`] first); returns its work.
    fn insert(&mut self, e: Entry) -> u64;
    /// No room for an insert: the engine answers overflow.
    fn full(&self) -> bool;
    /// Cycles from the cycle before the issue through which the last search left the
    /// engine free to take commands (the CAM's answer, not a list walk).
    fn free_search_cycles(&self) -> u64 {
        2
    }
    /// Empties the queue (a flush, or reset).
    fn clear(&mut self);
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An engine of two queues with posting labels and a cycle counter.
#[derive(Clone, Debug)]
pub struct QueueEngine<Q> {
    prq: Q,
    umq: Q,
    label: u32,
    /// The cycle the serial driver is at: the one after the last acknowledgement.
    now: u64,
    /// The first cycle the command register is free again (the one after the last issue).
    command_free: u64,
    /// The first cycle the next command may issue.
    issue_free: u64,
    /// Cycles (inclusive ranges) in which the engine takes no command: the last search's
    /// list walk and the last change's multi-cycle work.
    blocked: [(u64, u64); 2],
    /// The cycle a woken wait's answer is due in (no command is taken then).
    wake_due: Option<u64>,
    /// The completion unit's counters and parked wait (the golden semantics; this model
    /// adds when things happen), and the late answer the last operation caused.
    completions: CompletionCounters,
    wakeup: Option<Wakeup>,
    /// What an operation's values must fit.
    fields: FieldWidths,
}

impl<Q: Queue> QueueEngine<Q> {
    pub fn new(prq: Q, umq: Q) -> Self {
        QueueEngine {
            prq,
            umq,
            label: 0,
            now: 0,
            command_free: 0,
            issue_free: 0,
            blocked: [(1, 0); 2],
            wake_due: None,
            completions: CompletionCounters::new(),
            wakeup: None,
            fields: FieldWidths::default(),
        }
    }

    /// The same engine refusing operations whose values do not fit `fields`.
    pub fn with_fields(self, fields: FieldWidths) -> Self {
        QueueEngine { fields, ..self }
    }

    pub fn prq(&self) -> &Q {
        &self.prq
    }

    pub fn umq(&self) -> &Q {
        &self.umq
    }

    /// Entries in the PRQ and the UMQ.
    pub fn queue_lengths(&self) -> (usize, usize) {
        (self.prq.len(), self.umq.len())
    }

    /// Labels are 32 bits and wrap, as in the RTL (which compares them by serial-number
    /// arithmetic).
    fn next_label(&mut self) -> u32 {
        let l = self.label;
        self.label = self.label.wrapping_add(1);
        l
    }

    /// The cycle a command presented at `at` is accepted in.
    fn acceptance(&self, at: u64) -> u64 {
        let mut t = at.max(self.command_free);
        loop {
            let before = t;
            for &(from, to) in &self.blocked {
                if (from..=to).contains(&t) {
                    t = to + 1;
                }
            }
            if self.wake_due == Some(t) {
                t += 1;
            }
            if t == before {
                return t;
            }
        }
    }

    /// Issues the command accepted at `accepted`: returns its issue cycle.
    fn issue(&mut self, accepted: u64) -> u64 {
        let issued = (accepted + 1).max(self.issue_free);
        self.command_free = issued + 1;
        self.blocked = [(1, 0); 2];
        self.wake_due = None;
        issued
    }

    /// One operation presented at cycle `at`.
    fn present(&mut self, op: &Op, at: u64) -> Result<Applied, String> {
        check_fields(&self.fields, op)?;
        let accepted = self.acceptance(at);
        let issued = self.issue(accepted);
        if let Op::Flush = op {
            return Ok(self.flush(accepted, issued));
        }
        let msg_of = |e: Option<Entry>| e.map(|m| MsgId(m.handle as u64));
        let (outcome, search, work) = match *op {
            Op::PostRecv { recv, spec } => {
                let key = Key::of_spec(&spec);
                match self.umq.search(&key) {
                    (Some(m), s) => {
                        let work = self.umq.remove_found();
                        (Outcome::Matched { recv, msg: MsgId(m.handle as u64) }, s, work)
                    }
                    (None, s) if self.prq.full() => (Outcome::Overflow, s, 0),
                    (None, s) => {
                        let e = key.entry(recv.0, self.next_label());
                        (Outcome::Queued, s, self.prq.insert(e))
                    }
                }
            }
            Op::Arrive { msg, env } => {
                let key = Key::of_env(&env);
                match self.prq.search(&key) {
                    (Some(r), s) => {
                        let work = self.prq.remove_found();
                        (Outcome::Matched { recv: RecvId(r.handle as u64), msg }, s, work)
                    }
                    (None, s) if self.umq.full() => (Outcome::Overflow, s, 0),
                    (None, s) => {
                        let e = key.entry(msg.0, self.next_label());
                        (Outcome::Queued, s, self.umq.insert(e))
                    }
                }
            }
            Op::Cancel { recv } => match self.prq.search(&Key::Handle(recv.0 as u32)) {
                (Some(_), s) => (Outcome::Cancelled { recv }, s, self.prq.remove_found()),
                (None, s) => (Outcome::NotFound, s, 0),
            },
            Op::Probe { spec } => {
                let (found, s) = self.umq.search(&Key::of_spec(&spec));
                (Outcome::Probed(msg_of(found)), s, 0)
            }
            Op::MatchedProbe { spec } => match self.umq.search(&Key::of_spec(&spec)) {
                (Some(m), s) => {
                    let work = self.umq.remove_found();
                    (Outcome::MatchedProbed(msg_of(Some(m))), s, work)
                }
                (None, s) => (Outcome::MatchedProbed(None), s, 0),
            },
            Op::Flush => unreachable!("answered above"),
        };
        // `search` counts from the cycle before the issue (the serial acceptance).
        let decided = issued - 1 + search;
        let responded = decided + 1;
        let free = match op {
            Op::Arrive { .. } | Op::Cancel { .. } => self.prq.free_search_cycles(),
            _ => self.umq.free_search_cycles(),
        };
        self.blocked[0] = (issued + free, decided);
        if work == 0 {
            self.issue_free = responded;
        } else {
            self.issue_free = responded + work;
            self.blocked[1] = (responded + 1, responded + work - 1);
        }
        self.now = responded + 1;
        // A match that ends the parked wait: the wait's answer follows the match's, in the
        // cycle after it is taken.
        self.wakeup =
            self.completions.observe(op, &outcome).map(|counter| Wakeup { cycle: responded + 1, counter });
        if self.wakeup.is_some() {
            self.now = responded + 2;
            self.wake_due = Some(responded);
            self.issue_free = self.issue_free.max(responded + 1);
        }
        Ok(Applied { outcome, accepted, responded })
    }

    /// A flush issued at `issued`: decided there, answered at `issued + 1`, when the queues
    /// clear (at that cycle's edge, before any later command can issue). The counters and a
    /// parked wait go too.
    fn flush(&mut self, accepted: u64, issued: u64) -> Applied {
        self.prq.clear();
        self.umq.clear();
        self.label = 0;
        self.completions.reset();
        let responded = issued + 1;
        self.issue_free = responded;
        self.now = responded + 1;
        self.wakeup = None;
        Applied { outcome: Outcome::Flushed, accepted, responded }
    }
}

impl<Q: Queue> CycleEngine for QueueEngine<Q> {
    fn apply(&mut self, op: &Op) -> Result<Applied, String> {
        self.present(op, self.now)
    }

    fn apply_stream(&mut self, ops: &[Op]) -> Result<Vec<Applied>, String> {
        let mut at = self.now;
        let mut applied = Vec::with_capacity(ops.len());
        let mut wakeup = None;
        for op in ops {
            let a = self.present(op, at)?;
            at = a.accepted + 1;
            wakeup = self.wakeup.or(wakeup);
            applied.push(a);
        }
        self.wakeup = wakeup;
        Ok(applied)
    }

    /// Answered from the counters, no search: decided at the issue, valid the cycle after.
    fn complete(&mut self, c: &Completion) -> Result<(CompletionAnswer, u64, u64), String> {
        let accepted = self.acceptance(self.now);
        let issued = self.issue(accepted);
        let answer = self.completions.command(c);
        let responded = issued + 1;
        self.issue_free = responded;
        self.now = responded + 1;
        self.wakeup = None;
        Ok((answer, accepted, responded))
    }

    fn take_wakeup(&mut self) -> Option<Wakeup> {
        self.wakeup.take()
    }

    fn cycles(&self) -> u64 {
        self.now
    }
}
