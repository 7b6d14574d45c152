//! The host driver: unbounded MPI matching over a receive engine with finite queues.
//!
//! The engine answers `overflow` when the queue an operation needs is full and keeps
//! nothing; an MPI library needs every receive and message kept, in order. This module is
//! the host side that does it, over any [`CycleEngine`](crate::cycle::CycleEngine) (the RTL in Verilator or the
//! cycle-accurate model), in two modes.
//!
//! # Fallback ([`fallback::FallbackDriver`])
//!
//! Each queue (PRQ, UMQ) is split in two: the hardware holds its oldest entries, the host
//! ([`store::HostQueues`]) the youngest. Three invariants hold before every operation:
//!
//! 1. **Prefix.** Every hardware entry of a queue is older than every host entry of it.
//! 2. **Full first.** The host holds entries of a queue only while the hardware's part of
//!    it is full.
//! 3. **MPI's own.** No queued receive matches a queued message.
//!
//! The driver sends every operation to the engine first and finishes it as follows:
//!
//! - *matched in hardware*: the engine's entries are the oldest (1), so its answer is
//!   MPI's. The removal may have freed slots (none, or a whole CAM bank's worth when the
//!   data mover refills one); the host's entries of that queue move into hardware oldest
//!   first until the engine refuses one (*re-admission*), which keeps (1) — each is
//!   younger than every hardware entry and older than every other host entry — and (2).
//!   None matches anything there (3), so the engine queues each until it is full again.
//! - *overflow*: the hardware holds no match and no room (*fallback*). The host searches
//!   its part of the other queue; a match there is the oldest anywhere; otherwise the
//!   entry joins the host's part, behind the full hardware part (1, 2).
//! - *queued in hardware*: the queue had room, so the host holds none of it (2) and the
//!   new entry is the youngest. But the host's part of the *other* queue may hold a match
//!   the hardware could not see. If it does, the driver takes the entry back (*undo*): a
//!   receive by its handle (`cancel`, exact); a message by a matched probe on its exact
//!   envelope — exact because any other queued message with that envelope would match
//!   the host receive, which (3) rules out — and pairs the two in software.
//! - *probes* look in hardware first, then in the host; a hit in hardware is the oldest
//!   (1). A *cancel* looks in the host first (a handle is in one place only), so a
//!   cancel of a receive the host holds never reaches the engine.
//!
//! So every search visits the queue's entries oldest first, across the two parts, which
//! is MPI's order (C1: a message takes the oldest matching receive; C2: a receive the
//! oldest matching message); co-simulation checks it op by op against the unbounded
//! golden model. Host work: a search of the host part inspects at most four entries.
//!
//! # Split ([`split::run_split`])
//!
//! After ConnectX tag matching: the engine owns the posted receives, the host the
//! unexpected messages, with a delay between them and a phase counter that closes the
//! race of a receive handed to hardware passing a matching message on its way to
//! software. The protocol and its argument are in [`split`].

pub mod fallback;
pub mod split;
pub mod store;

use crate::model::matcher::WorkStats;
use crate::model::ops::Outcome;
use serde::Serialize;

/// What a driver run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HostReport {
    /// MPI operations applied.
    pub ops: u64,
    /// Commands sent to the engine (operations, undos, re-admissions, hand-overs).
    pub commands: u64,
    /// The engine's clock cycles.
    pub cycles: u64,
    /// Pairings and probe hits found by the engine.
    pub matched_in_hardware: u64,
    /// Pairings and probe hits found in host software.
    pub matched_in_host: u64,
    /// Operations the engine could not hold (fallback) or, in split mode, receives kept
    /// in software because the hardware was full or software receives were older.
    pub fallbacks: u64,
    /// Entries the engine queued and the driver took back to pair in software.
    pub undone: u64,
    /// Host entries moved (back) into hardware.
    pub readmitted: u64,
    /// Split mode: messages the engine handed to software.
    pub forwarded: u64,
    /// Split mode: receives the engine refused (stale phase or no room).
    pub refused: u64,
    /// Split mode: receives in flight the host took back into software.
    pub taken_back: u64,
    /// The host queues' searches, entries inspected and lengths.
    pub host: WorkStats,
    pub max_host_prq: u64,
    pub max_host_umq: u64,
}

impl HostReport {
    fn count(&mut self, o: &Outcome, in_hardware: bool) {
        let hit =
            matches!(o, Outcome::Matched { .. } | Outcome::Probed(Some(_)) | Outcome::MatchedProbed(Some(_)));
        if hit && in_hardware {
            self.matched_in_hardware += 1;
        } else if hit {
            self.matched_in_host += 1;
        }
    }

    fn note_host_lengths(&mut self, prq: usize, umq: usize) {
        self.max_host_prq = self.max_host_prq.max(prq as u64);
        self.max_host_umq = self.max_host_umq.max(umq as u64);
    }

    /// Adds another run's counts (runs of one trace's ranks, say); maxima stay maxima.
    pub fn merge(&mut self, o: &HostReport) {
        self.ops += o.ops;
        self.commands += o.commands;
        self.cycles += o.cycles;
        self.matched_in_hardware += o.matched_in_hardware;
        self.matched_in_host += o.matched_in_host;
        self.fallbacks += o.fallbacks;
        self.undone += o.undone;
        self.readmitted += o.readmitted;
        self.forwarded += o.forwarded;
        self.refused += o.refused;
        self.taken_back += o.taken_back;
        self.host.searches += o.host.searches;
        self.host.inspected += o.host.inspected;
        self.host.max_inspected = self.host.max_inspected.max(o.host.max_inspected);
        self.host.max_prq_len = self.host.max_prq_len.max(o.host.max_prq_len);
        self.host.max_umq_len = self.host.max_umq_len.max(o.host.max_umq_len);
        self.max_host_prq = self.max_host_prq.max(o.max_host_prq);
        self.max_host_umq = self.max_host_umq.max(o.max_host_umq);
    }

    /// Share of pairings and probe hits the engine found (1 when there were none).
    pub fn hardware_share(&self) -> f64 {
        let all = self.matched_in_hardware + self.matched_in_host;
        if all == 0 {
            1.0
        } else {
            self.matched_in_hardware as f64 / all as f64
        }
    }

    /// Host queue entries inspected per MPI operation.
    pub fn host_inspected_per_op(&self) -> f64 {
        if self.ops == 0 {
            0.0
        } else {
            self.host.inspected as f64 / self.ops as f64
        }
    }
}
