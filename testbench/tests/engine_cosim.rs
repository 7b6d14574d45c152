//! Co-simulation: the receive engine's RTL against the golden model with finite queues,
//! operation by operation, on random streams with wildcards, repeated envelopes, several
//! communicators, cancels (of live and of matched receives), probes, matched probes,
//! more live entries than the CAM holds, and queues driven past capacity (overflow).
//! A differing outcome fails the test and keeps a waveform of the run.

use tagmatch_hdl::receive_engine::receive_engine_verilog;
use tagmatch_sim::bounded::BoundedGolden;
use tagmatch_sim::{Envelope, MsgId, Op, Outcome, RecvId, RecvSpec};
use tagmatch_testbench::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::verilator::Model;

/// A small deterministic generator (xorshift64*), so a failing seed reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A stream that alternates phases: balanced traffic, bursts of receives, bursts of
/// messages, so queues fill past the CAM and up to their capacity.
fn stream(seed: u64, n: usize) -> Vec<Op> {
    let mut r = Rng(seed | 1);
    let mut ops = Vec::with_capacity(n);
    let (mut recvs, mut msgs) = (0u64, 0u64);
    let mut phase = 0;
    for i in 0..n {
        if i % 300 == 0 {
            phase = r.below(3);
        }
        // A pattern: communicator, source and tag, each wildcard one time in five.
        let pattern = |r: &mut Rng| {
            let comm = r.below(3) as u32;
            let src = r.below(6) as u32;
            let tag = r.below(5) as u32;
            let src = if r.chance(20) { None } else { Some(src) };
            let tag = if r.chance(20) { None } else { Some(tag) };
            RecvSpec::new(comm, src, tag)
        };
        let post_weight = match phase {
            0 => 45,
            1 => 80,
            _ => 15,
        };
        let roll = r.below(100);
        let op = if roll < 6 {
            Op::Cancel { recv: RecvId(1 + r.below(recvs.max(1))) }
        } else if roll < 10 {
            let spec = pattern(&mut r);
            if r.chance(50) {
                Op::Probe { spec }
            } else {
                Op::MatchedProbe { spec }
            }
        } else if r.below(100) < post_weight {
            recvs += 1;
            let spec = pattern(&mut r);
            Op::PostRecv { recv: RecvId(recvs), spec }
        } else {
            msgs += 1;
            Op::Arrive {
                msg: MsgId(1_000_000 + msgs),
                env: Envelope::new(r.below(3) as u32, r.below(6) as u32, r.below(5) as u32),
            }
        };
        ops.push(op);
    }
    ops
}

fn cosim(name: &str, verilog: String, capacity: usize, cam_depth: usize, seed: u64, n: usize) {
    let (model, _) =
        Model::build(&engine_spec(name, verilog.clone(), false)).unwrap_or_else(|e| panic!("{e}"));
    let mut rtl = RtlEngine::new(model).unwrap();
    let ops = stream(seed, n);
    let mut golden = BoundedGolden::new(capacity, capacity);
    let (mut overflows, mut deepest) = (0, 0);
    for (i, op) in ops.iter().enumerate() {
        let want = golden.apply(op);
        let (got, _) = rtl.apply(op).unwrap_or_else(|e| panic!("op {i}: {e}"));
        if got != want {
            // Re-run with tracing to keep a waveform of the failure.
            let (traced, report) = Model::build(&engine_spec(name, verilog, true)).unwrap();
            let mut t = RtlEngine::new(traced).unwrap();
            let vcd = report.dir.join(format!("cosim-failure-{seed}.vcd"));
            t.model_mut().trace_to(&vcd).unwrap();
            for op in &ops[..=i] {
                let _ = t.apply(op);
            }
            t.model_mut().close_trace();
            panic!("op {i} ({op:?}): RTL {got:?}, golden {want:?}\nwaveform: {}", vcd.display());
        }
        overflows += (want == Outcome::Overflow) as usize;
        let (p, u) = golden.queue_lengths();
        deepest = deepest.max(p.max(u));
    }
    assert!(deepest > cam_depth, "the stream never had more live entries than the CAM ({deepest})");
    assert!(overflows > 0, "the stream never filled a queue");
}

#[test]
fn one_list_20000_ops() {
    cosim("engine-c8-a5-n1", receive_engine_verilog::<8, 5, 1>(), 8 + 31, 8, 11, 20_000);
}

#[test]
fn four_lists_20000_ops() {
    cosim("engine-c8-a3-n4", receive_engine_verilog::<8, 3, 4>(), 8 + 4 * 7, 8, 12, 20_000);
}

#[test]
fn sixteen_lists_20000_ops() {
    cosim("engine-c4-a2-n16", receive_engine_verilog::<4, 2, 16>(), 4 + 16 * 3, 4, 13, 20_000);
}

/// Fill a small engine's whole PRQ (CAM and every list), overflow once, then match every
/// receive in posting order: nothing is lost, nothing is reordered.
#[test]
fn whole_capacity_fills_overflows_and_drains_in_order() {
    const CAPACITY: u64 = 4 + 4 * 3;
    let (model, _) =
        Model::build(&engine_spec("engine-c4-a2-n4", receive_engine_verilog::<4, 2, 4>(), false)).unwrap();
    let mut rtl = RtlEngine::new(model).unwrap();
    let spec = RecvSpec::new(0, Some(1), Some(7));
    for r in 1..=CAPACITY {
        assert_eq!(
            rtl.apply(&Op::PostRecv { recv: RecvId(r), spec }).unwrap().0,
            Outcome::Queued,
            "receive {r}"
        );
    }
    let extra = Op::PostRecv { recv: RecvId(99), spec };
    assert_eq!(rtl.apply(&extra).unwrap().0, Outcome::Overflow);
    for r in 1..=CAPACITY {
        let (got, _) = rtl.apply(&Op::Arrive { msg: MsgId(1000 + r), env: Envelope::new(0, 1, 7) }).unwrap();
        assert_eq!(got, Outcome::Matched { recv: RecvId(r), msg: MsgId(1000 + r) });
    }
    // The overflowed receive was not applied: a further message is unexpected.
    assert_eq!(
        rtl.apply(&Op::Arrive { msg: MsgId(5000), env: Envelope::new(0, 1, 7) }).unwrap().0,
        Outcome::Queued
    );
}
