//! Co-simulation: the receive engine's RTL against the golden model with finite queues,
//! operation by operation, on random streams ([`random_stream`]: wildcards, repeated
//! envelopes, several communicators, cancels, probes, matched probes, more live entries
//! than the CAM holds, queues driven past capacity). A differing outcome fails the test
//! and keeps a waveform of the run.

use tagmatch_hdl::receive_engine::receive_engine_verilog;
use tagmatch_sim::{Envelope, MsgId, Op, Outcome, RecvId, RecvSpec};
use tagmatch_testbench::cosim::{cosim, EngineUnderTest};
use tagmatch_testbench::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::streams::random_stream;
use tagmatch_testbench::verilator::Model;

fn run(name: &str, verilog: String, queue_capacity: usize, cam_depth: usize, seed: u64, n: usize) {
    let engine = EngineUnderTest { name: name.into(), verilog, queue_capacity };
    let report = cosim(&engine, &random_stream(seed, n), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.ops, n);
    assert!(report.deepest > cam_depth, "the stream never had more live entries than the CAM: {report:?}");
    assert!(report.overflows > 0, "the stream never filled a queue: {report:?}");
    assert!(report.matched > n / 5 && report.cancelled > 0 && report.probes > 0, "{report:?}");
}

#[test]
fn one_list_20000_ops() {
    run("engine-c8-a5-n1", receive_engine_verilog::<8, 5, 1>(), 8 + 31, 8, 11, 20_000);
}

#[test]
fn four_lists_20000_ops() {
    run("engine-c8-a3-n4", receive_engine_verilog::<8, 3, 4>(), 8 + 4 * 7, 8, 12, 20_000);
}

#[test]
fn sixteen_lists_20000_ops() {
    run("engine-c4-a2-n16", receive_engine_verilog::<4, 2, 16>(), 4 + 16 * 3, 4, 13, 20_000);
}

/// A CAM hit answers two cycles after the command is accepted (the search starts in the
/// accept cycle), whatever the queue held before.
#[test]
fn a_cam_hit_answers_in_two_cycles() {
    let (model, _) =
        Model::build(&engine_spec("engine-c4-a2-n4", receive_engine_verilog::<4, 2, 4>(), false)).unwrap();
    let mut rtl = RtlEngine::new(model).unwrap();
    for r in 1..=3 {
        let spec = RecvSpec::new(0, Some(r as u32), None);
        assert_eq!(rtl.apply(&Op::PostRecv { recv: RecvId(r), spec }).unwrap().outcome, Outcome::Queued);
    }
    for r in [2u64, 3, 1] {
        let got = rtl.apply(&Op::Arrive { msg: MsgId(100 + r), env: Envelope::new(0, r as u32, 9) }).unwrap();
        assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(r), msg: MsgId(100 + r) });
        assert_eq!(got.latency(), 2, "receive {r}");
    }
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
            rtl.apply(&Op::PostRecv { recv: RecvId(r), spec }).unwrap().outcome,
            Outcome::Queued,
            "receive {r}"
        );
    }
    let extra = Op::PostRecv { recv: RecvId(99), spec };
    assert_eq!(rtl.apply(&extra).unwrap().outcome, Outcome::Overflow);
    for r in 1..=CAPACITY {
        let got = rtl.apply(&Op::Arrive { msg: MsgId(1000 + r), env: Envelope::new(0, 1, 7) }).unwrap();
        assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(r), msg: MsgId(1000 + r) });
    }
    // The overflowed receive was not applied: a further message is unexpected.
    assert_eq!(
        rtl.apply(&Op::Arrive { msg: MsgId(5000), env: Envelope::new(0, 1, 7) }).unwrap().outcome,
        Outcome::Queued
    );
}
