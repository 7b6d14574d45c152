//! Field widths as generation parameters (`tagmatch_hdl::fields`): an engine whose sources
//! are 32 bits pairs ranks beyond 65,535 exactly as the golden model does, with narrow
//! communicators and tags and 24-bit handles; and a command whose field is wider than
//! generated answers `error` and changes nothing — it never aliases an entry that shares
//! its low bits.

use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::two_level::receive_engine::{
    receive_engine_verilog, EngineShape, OP_ARRIVE, OP_CANCEL, OP_POST, OP_PROBE,
};
use tagmatch_hdl::two_level::receive_engine::{RESP_ERROR, RESP_QUEUED};
use tagmatch_sim::workload::streams::random_stream;
use tagmatch_sim::{Envelope, MsgId, Op, Outcome, RecvId, RecvSpec};
use tagmatch_testbench::two_level::cosim::{cosim, EngineUnderTest};
use tagmatch_testbench::two_level::engine::{engine_spec, Command, RtlEngine};
use tagmatch_testbench::verilator::Model;

/// Ranks moved past 16 bits: every source `s` becomes `s + 70,000`.
fn far_ranks(op: &Op) -> Op {
    const FAR: u32 = 70_000;
    let spec = |s: RecvSpec| RecvSpec { src: s.src.map(|r| r + FAR), ..s };
    match *op {
        Op::PostRecv { recv, spec: s } => Op::PostRecv { recv, spec: spec(s) },
        Op::Arrive { msg, env } => Op::Arrive { msg, env: Envelope { src: env.src + FAR, ..env } },
        Op::Probe { spec: s } => Op::Probe { spec: spec(s) },
        Op::MatchedProbe { spec: s } => Op::MatchedProbe { spec: spec(s) },
        other => other,
    }
}

#[test]
fn thirty_two_bit_sources_pair_ranks_past_65535_like_the_golden_model() {
    let fields = FieldWidths::new(4, 32, 8, 24).unwrap();
    let config = EngineShape::new(8, 4, 4).unwrap().with_fields(fields);
    let ops: Vec<Op> = random_stream(31, 12_000).iter().map(far_ranks).collect();
    assert!(ops.iter().any(|op| matches!(op, Op::Arrive { env, .. } if env.src > 65_535)));
    let engine = EngineUnderTest {
        name: "engine-c8-a4-n4-f4.32.8.24".into(),
        verilog: receive_engine_verilog(&config),
        config,
    };
    let report = cosim(&engine, &ops, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.ops, ops.len());
    assert!(report.matched > ops.len() / 5 && report.deepest > 8 && report.overflows > 0, "{report:?}");
}

#[test]
fn a_field_wider_than_generated_answers_error_and_changes_nothing() {
    let fields = FieldWidths::new(8, 16, 12, 24).unwrap();
    let shape = EngineShape::new(4, 4, 2).unwrap().with_fields(fields);
    let (model, _) =
        Model::build(&engine_spec("engine-c4-a2-n4-f8.16.12.24", receive_engine_verilog(&shape), false))
            .unwrap();
    let mut rtl = RtlEngine::new(model).unwrap().with_fields(fields);
    let prq = |rtl: &RtlEngine| rtl.model().get(rtl.model().port("prq_count").unwrap());
    let umq = |rtl: &RtlEngine| rtl.model().get(rtl.model().port("umq_count").unwrap());
    let spec = RecvSpec::new(3, Some(5), Some(9));
    assert_eq!(rtl.apply(&Op::PostRecv { recv: RecvId(1), spec }).unwrap().outcome, Outcome::Queued);
    let base =
        Command { code: OP_ARRIVE, comm: 3, src: 5, tag: 9, src_any: false, tag_any: false, handle: 100 };
    let wide = [
        ("arrival, source with bit 16 (aliases source 5)", Command { src: (1 << 16) + 5, ..base }),
        ("arrival, tag with bit 12 (aliases tag 9)", Command { tag: (1 << 12) + 9, ..base }),
        ("arrival, communicator with bit 8", Command { comm: (1 << 8) + 3, ..base }),
        ("arrival, handle with bit 24", Command { handle: 1 << 24, ..base }),
        ("post, source with bit 31", Command { code: OP_POST, src: 1 << 31, ..base }),
        ("probe, tag with bit 31", Command { code: OP_PROBE, tag: 1 << 31, ..base }),
        (
            "cancel, handle with bit 24 (aliases receive 1)",
            Command { code: OP_CANCEL, handle: (1 << 24) + 1, ..base },
        ),
    ];
    for (what, c) in wide {
        let (kind, accepted, responded) = rtl.raw_fields(&c).unwrap();
        assert_eq!((kind, responded - accepted), (RESP_ERROR, 2), "{what}: decided at issue");
        assert_eq!((prq(&rtl), umq(&rtl)), (1, 0), "{what} changed a queue");
    }
    // A wildcard's field is not checked: a receive for ANY_SOURCE may carry anything there.
    let any = Command { code: OP_POST, src: u32::MAX as u64, src_any: true, handle: 2, ..base };
    assert_eq!(rtl.raw_fields(&any).unwrap().0, RESP_QUEUED);
    // The driver refuses what does not fit before the engine sees it, as the model does.
    let too_wide = Op::Arrive { msg: MsgId(7), env: Envelope::new(3, 1 << 16, 9) };
    assert!(rtl.apply(&too_wide).unwrap_err().contains("does not fit the engine's 16 bits"));
    // The in-range arrival takes the oldest receive, as ever.
    let got = rtl.apply(&Op::Arrive { msg: MsgId(100), env: Envelope::new(3, 5, 9) }).unwrap();
    assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(1), msg: MsgId(100) });
}
