//! The interface every matching engine implements, the queue entries they store, and the
//! work counters benchmarks and trace replays compare.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::ops::{Op, Outcome};
use serde::Serialize;

/// A receive waiting in the posted receive queue. `seq` is its posting label: a counter
/// shared by all receives of one engine, so entries in different lists can be ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Posted {
    pub recv: RecvId,
    pub spec: RecvSpec,
    pub seq: u64,
}

/// A message waiting in the unexpected message queue, with its arrival label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unexpected {
    pub msg: MsgId,
    pub env: Envelope,
    pub seq: u64,
}

/// Work done by a matcher since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WorkStats {
    /// Queue searches made (one per operation that searches, however many lists it walks).
    pub searches: u64,
    /// Queue entries compared against a pattern, over all searches.
    pub inspected: u64,
    /// The most entries one search compared.
    pub max_inspected: u64,
    pub prq_len: usize,
    pub umq_len: usize,
    pub max_prq_len: usize,
    pub max_umq_len: usize,
}

impl WorkStats {
    #[inline]
    pub fn search(&mut self, inspected: u32) {
        self.searches += 1;
        self.inspected += inspected as u64;
        self.max_inspected = self.max_inspected.max(inspected as u64);
    }

    #[inline]
    pub fn prq_grew(&mut self) {
        self.prq_len += 1;
        self.max_prq_len = self.max_prq_len.max(self.prq_len);
    }

    #[inline]
    pub fn prq_shrank(&mut self) {
        self.prq_len -= 1;
    }

    #[inline]
    pub fn umq_grew(&mut self) {
        self.umq_len += 1;
        self.max_umq_len = self.max_umq_len.max(self.umq_len);
    }

    #[inline]
    pub fn umq_shrank(&mut self) {
        self.umq_len -= 1;
    }

    /// Both queues were emptied: the lengths restart, the counts of work done stay.
    pub fn flushed(&mut self) {
        self.prq_len = 0;
        self.umq_len = 0;
    }

    /// Mean entries inspected per search.
    pub fn mean_inspected(&self) -> f64 {
        if self.searches == 0 {
            0.0
        } else {
            self.inspected as f64 / self.searches as f64
        }
    }
}

/// A message matching engine: PRQ + UMQ under MPI ordering rules.
///
/// Handles are the caller's: a receive handle must be unique among live receives and a
/// message handle among live messages. Every implementation must return exactly the
/// outcomes of [`crate::model::golden::Golden`] for every operation stream.
pub trait Matcher {
    /// Short stable name (used on the command line and in reports).
    fn name(&self) -> &'static str;
    fn post_recv(&mut self, recv: RecvId, spec: RecvSpec) -> Outcome;
    fn arrive(&mut self, msg: MsgId, env: Envelope) -> Outcome;
    fn cancel(&mut self, recv: RecvId) -> Outcome;
    fn probe(&mut self, spec: RecvSpec) -> Outcome;
    fn matched_probe(&mut self, spec: RecvSpec) -> Outcome;
    /// Drops every posted receive and unexpected message; the work counters stay.
    fn flush(&mut self);
    fn stats(&self) -> WorkStats;
    /// Bytes of memory the structure holds (entries, links, bins, tables).
    fn memory_bytes(&self) -> usize;

    fn apply(&mut self, op: &Op) -> Outcome {
        match *op {
            Op::PostRecv { recv, spec } => self.post_recv(recv, spec),
            Op::Arrive { msg, env } => self.arrive(msg, env),
            Op::Cancel { recv } => self.cancel(recv),
            Op::Probe { spec } => self.probe(spec),
            Op::MatchedProbe { spec } => self.matched_probe(spec),
            Op::Flush => {
                self.flush();
                Outcome::Flushed
            }
        }
    }
}

/// Of two candidates from different lists, the one with the smaller label (the older).
#[inline]
pub(crate) fn older<K: Copy>(a: Option<(u64, K)>, b: Option<(u64, K)>) -> Option<(u64, K)> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// A fast 64-bit mix of an envelope's fields, for the hashed structures. Quality matters
/// only as far as spreading consecutive ranks and tags over bins.
#[inline]
pub(crate) fn mix3(a: u32, b: u32, c: u32) -> u64 {
    let mut x = (a as u64) ^ ((b as u64) << 32);
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= (c as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 32)
}

/// Maps a hash onto `0..n` without a division.
#[inline]
pub(crate) fn reduce(hash: u64, n: usize) -> u32 {
    (((hash as u128) * (n as u128)) >> 64) as u32
}
