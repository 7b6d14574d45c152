//! Random operation streams for co-simulation: wildcards, repeated envelopes, several
//! communicators, cancels (of live and of already matched receives), probes and matched
//! probes, in phases that fill queues past the CAM and up to their capacity.
//!
//! The generator is a fixed xorshift64*, not `rand`, so a seed names the same stream on
//! every machine and in every version: a failing `tagmatch cosim --seed S` reproduces.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::ops::Op;

/// xorshift64* (Vigna): small, fast and good enough to shuffle test traffic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // splitmix64 spreads neighbouring seeds over the whole state; zero is xorshift's
        // fixed point and must be avoided.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Communicators, sources and tags an operation's envelope is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelopes {
    pub comms: u64,
    pub sources: u64,
    pub tags: u64,
}

/// The default: few, so envelopes repeat often.
pub const ENVELOPES: Envelopes = Envelopes { comms: 3, sources: 6, tags: 5 };
/// Operations per phase (balanced, receive burst, message burst) by default.
pub const PHASE: usize = 300;

/// Receive handles count from 1, message handles from here, so a pairing shows which is which.
pub const FIRST_MSG: u64 = 1_000_000;

/// `n` operations from `seed`: phases of 300 operations, each balanced traffic, a burst of
/// receives or a burst of messages, so both queues grow past the CAM and overflow.
pub fn random_stream(seed: u64, n: usize) -> Vec<Op> {
    random_stream_phased(seed, n, PHASE)
}

/// As [`random_stream`] with phases of `phase` operations: longer phases build deeper
/// queues (a receive burst of `phase` operations leaves about `phase / 2` more receives),
/// which is what reaches past a 256-entry CAM into the lists.
pub fn random_stream_phased(seed: u64, n: usize, phase: usize) -> Vec<Op> {
    random_stream_from(seed, n, phase, ENVELOPES)
}

/// As [`random_stream_phased`] with envelopes drawn from `e`: fewer envelopes match more
/// often, so small queues fill and drain instead of staying full.
pub fn random_stream_from(seed: u64, n: usize, phase: usize, e: Envelopes) -> Vec<Op> {
    let phase = phase.max(1);
    let mut r = Rng::new(seed);
    let mut ops = Vec::with_capacity(n);
    let (mut recvs, mut msgs) = (0u64, 0u64);
    let mut post_weight = 45;
    for i in 0..n {
        if i % phase == 0 {
            post_weight = [45, 80, 15][r.below(3) as usize];
        }
        let roll = r.below(100);
        let op = if roll < 6 {
            Op::Cancel { recv: RecvId(1 + r.below(recvs.max(1))) }
        } else if roll < 10 {
            let spec = pattern(&mut r, e);
            if r.chance(50) {
                Op::Probe { spec }
            } else {
                Op::MatchedProbe { spec }
            }
        } else if r.below(100) < post_weight {
            recvs += 1;
            Op::PostRecv { recv: RecvId(recvs), spec: pattern(&mut r, e) }
        } else {
            msgs += 1;
            Op::Arrive {
                msg: MsgId(FIRST_MSG + msgs),
                env: Envelope::new(
                    r.below(e.comms) as u32,
                    r.below(e.sources) as u32,
                    r.below(e.tags) as u32,
                ),
            }
        };
        ops.push(op);
    }
    ops
}

/// `ops` with a flush after about one operation in `mean_gap` (drawn from `seed`), never
/// first or last: a co-simulation then empties the engine while it holds entries in the
/// lists, often with a list walk or the data mover under way.
pub fn with_flushes(ops: &[Op], seed: u64, mean_gap: u64) -> Vec<Op> {
    let mut r = Rng::new(seed ^ 0xF1u64);
    let mut out = Vec::with_capacity(ops.len() + ops.len() / mean_gap.max(1) as usize + 1);
    for (i, op) in ops.iter().enumerate() {
        out.push(*op);
        if i + 1 < ops.len() && r.below(mean_gap.max(1)) == 0 {
            out.push(Op::Flush);
        }
    }
    out
}

/// Receive and message handles of [`bursty_stream`] count from here: above
/// [`random_stream`]'s, within the hardware's 32 bits.
pub const FIRST_BURST_HANDLE: u64 = 2_000_000_000;

/// Bursts that fill blocks of arrivals and make them conflict: runs of receives with one
/// pattern (sometimes a wildcard), then a burst of messages from a few senders, half the
/// bursts from one sender with one tag so whole blocks want one receive.
pub fn bursty_stream(seed: u64) -> Vec<Op> {
    let mut r = Rng::new(seed);
    let (mut ops, mut handle) = (Vec::new(), FIRST_BURST_HANDLE);
    for _ in 0..12 {
        for _ in 0..1 + r.below(6) {
            let src = r.below(3) as u32;
            let spec = match r.below(6) {
                0 => RecvSpec::new(0, None, Some(1)),
                1 => RecvSpec::new(0, Some(src), None),
                _ => RecvSpec::exact(Envelope::new(0, src, 1)),
            };
            for _ in 0..1 + r.below(20) {
                handle += 1;
                ops.push(Op::PostRecv { recv: RecvId(handle), spec });
            }
        }
        let one = r.chance(50).then(|| Envelope::new(0, r.below(3) as u32, 1));
        for _ in 0..r.below(90) {
            handle += 1;
            let env = one.unwrap_or_else(|| Envelope::new(0, r.below(3) as u32, r.below(2) as u32));
            ops.push(Op::Arrive { msg: MsgId(handle), env });
        }
    }
    ops
}

/// A receive pattern: source and tag each a wildcard one time in five.
fn pattern(r: &mut Rng, e: Envelopes) -> RecvSpec {
    let comm = r.below(e.comms) as u32;
    let src = r.below(e.sources) as u32;
    let tag = r.below(e.tags) as u32;
    let src = if r.chance(20) { None } else { Some(src) };
    let tag = if r.chance(20) { None } else { Some(tag) };
    RecvSpec::new(comm, src, tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_names_one_stream() {
        assert_eq!(random_stream(7, 500), random_stream(7, 500));
        assert_ne!(random_stream(7, 500), random_stream(8, 500));
        assert_ne!(random_stream(2, 500), random_stream(3, 500), "seeds differing in the low bit");
    }

    #[test]
    fn flushes_go_between_operations_and_keep_them_all() {
        let ops = random_stream(4, 5000);
        let flushed = with_flushes(&ops, 4, 500);
        let kept: Vec<Op> = flushed.iter().copied().filter(|o| !matches!(o, Op::Flush)).collect();
        assert_eq!(kept, ops);
        let flushes = flushed.len() - ops.len();
        assert!((4..=20).contains(&flushes), "{flushes} flushes in 5000 operations at one in 500");
        assert!(!matches!(flushed.last(), Some(Op::Flush)));
    }

    #[test]
    fn streams_hold_every_kind_of_operation() {
        let ops = random_stream(3, 3000);
        let count = |f: fn(&Op) -> bool| ops.iter().filter(|o| f(o)).count();
        assert!(count(|o| matches!(o, Op::PostRecv { spec, .. } if spec.src.is_none())) > 0);
        assert!(count(|o| matches!(o, Op::PostRecv { spec, .. } if spec.tag.is_none())) > 0);
        assert!(count(|o| matches!(o, Op::Arrive { .. })) > 500);
        assert!(count(|o| matches!(o, Op::Cancel { .. })) > 50);
        assert!(count(|o| matches!(o, Op::Probe { .. })) > 20);
        assert!(count(|o| matches!(o, Op::MatchedProbe { .. })) > 20);
    }
}
