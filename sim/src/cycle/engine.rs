//! The receive engine's operation logic, shared by every cycle model: which queue an
//! operation searches, what it does with the result, and when things happen. A model
//! differs from another only in its [`Queue`] — how long a search takes and how much work
//! an insert or a removal leaves behind.
//!
//! Timing, in the RTL's terms (`hdl/src/receive_engine.rs`): an operation is accepted in
//! cycle `A` once the previous response was acknowledged and both queues are free; its
//! search is answered at `W = A + search cycles`, where the engine decides; the response
//! is valid at `W + 1`, acknowledged in that cycle, and in it the queues remove or insert.
//! The queue it changed is busy for the change's work cycles after the response; the
//! next command waits for that.

use super::entry::{Entry, Key};
use super::{check_fits, Applied, Completion, CompletionAnswer, CycleEngine, Wakeup};
use crate::completion::CompletionCounters;
use crate::envelope::{MsgId, RecvId};
use crate::ops::{Op, Outcome};

/// One queue (PRQ or UMQ) of a cycle model.
pub trait Queue {
    /// Finds the oldest entry `key` matches and remembers where it is for
    /// [`Queue::remove_found`]; returns it and the cycles from acceptance to the result.
    fn search(&mut self, key: &Key) -> (Option<Entry>, u64);
    /// Removes what the last search found; returns the busy cycles after the response.
    fn remove_found(&mut self) -> u64;
    /// Appends an entry (the engine checks [`Queue::full`] first); returns the busy
    /// cycles after the response.
    fn insert(&mut self, e: Entry) -> u64;
    /// No room for an insert: the engine answers overflow.
    fn full(&self) -> bool;
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
    prq_free_at: u64,
    umq_free_at: u64,
    label: u32,
    /// The cycle the driver is at: the one after the last acknowledgement.
    now: u64,
    /// The completion unit's counters and parked wait (the golden semantics; this model
    /// adds when things happen), and the late answer the last operation caused.
    completions: CompletionCounters,
    wakeup: Option<Wakeup>,
}

impl<Q: Queue> QueueEngine<Q> {
    pub fn new(prq: Q, umq: Q) -> Self {
        QueueEngine {
            prq,
            umq,
            prq_free_at: 0,
            umq_free_at: 0,
            label: 0,
            now: 0,
            completions: CompletionCounters::new(),
            wakeup: None,
        }
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

    /// Labels are 32 bits and wrap, as in the RTL (which compares them unsigned).
    fn next_label(&mut self) -> u32 {
        let l = self.label;
        self.label = self.label.wrapping_add(1);
        l
    }
}

/// What an operation did to a queue, for the timing.
enum Change {
    None,
    Prq(u64),
    Umq(u64),
}

impl<Q: Queue> CycleEngine for QueueEngine<Q> {
    fn apply(&mut self, op: &Op) -> Result<Applied, String> {
        check_fits(op)?;
        let accepted = self.now.max(self.prq_free_at).max(self.umq_free_at);
        let msg_of = |e: Option<Entry>| e.map(|m| MsgId(m.handle as u64));
        let (outcome, search, change) = match *op {
            Op::PostRecv { recv, spec } => {
                let key = Key::of_spec(&spec);
                match self.umq.search(&key) {
                    (Some(m), s) => {
                        let work = self.umq.remove_found();
                        (Outcome::Matched { recv, msg: MsgId(m.handle as u64) }, s, Change::Umq(work))
                    }
                    (None, s) if self.prq.full() => (Outcome::Overflow, s, Change::None),
                    (None, s) => {
                        let e = key.entry(recv.0, self.next_label());
                        (Outcome::Queued, s, Change::Prq(self.prq.insert(e)))
                    }
                }
            }
            Op::Arrive { msg, env } => {
                let key = Key::of_env(&env);
                match self.prq.search(&key) {
                    (Some(r), s) => {
                        let work = self.prq.remove_found();
                        (Outcome::Matched { recv: RecvId(r.handle as u64), msg }, s, Change::Prq(work))
                    }
                    (None, s) if self.umq.full() => (Outcome::Overflow, s, Change::None),
                    (None, s) => {
                        let e = key.entry(msg.0, self.next_label());
                        (Outcome::Queued, s, Change::Umq(self.umq.insert(e)))
                    }
                }
            }
            Op::Cancel { recv } => match self.prq.search(&Key::Handle(recv.0 as u32)) {
                (Some(_), s) => (Outcome::Cancelled { recv }, s, Change::Prq(self.prq.remove_found())),
                (None, s) => (Outcome::NotFound, s, Change::None),
            },
            Op::Probe { spec } => {
                let (found, s) = self.umq.search(&Key::of_spec(&spec));
                (Outcome::Probed(msg_of(found)), s, Change::None)
            }
            Op::MatchedProbe { spec } => match self.umq.search(&Key::of_spec(&spec)) {
                (Some(m), s) => {
                    let work = self.umq.remove_found();
                    (Outcome::MatchedProbed(msg_of(Some(m))), s, Change::Umq(work))
                }
                (None, s) => (Outcome::MatchedProbed(None), s, Change::None),
            },
        };
        let responded = accepted + search + 1;
        match change {
            Change::None => {}
            Change::Prq(work) => self.prq_free_at = responded + work,
            Change::Umq(work) => self.umq_free_at = responded + work,
        }
        self.now = responded + 1;
        // A match that ends the parked wait: the wait's answer follows the match's, in the
        // cycle after it is taken.
        self.wakeup = self.completions.observe(op, &outcome).map(|counter| {
            self.now = responded + 2;
            Wakeup { cycle: responded + 1, counter }
        });
        Ok(Applied { outcome, accepted, responded })
    }

    /// Answered from the counters, no search: accepted, decided the next cycle, valid the
    /// one after.
    fn complete(&mut self, c: &Completion) -> Result<(CompletionAnswer, u64, u64), String> {
        let accepted = self.now.max(self.prq_free_at).max(self.umq_free_at);
        let answer = self.completions.command(c);
        let responded = accepted + 2;
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
