//! Co-simulation on random streams ([`random_stream`]: wildcards, repeated envelopes,
//! several communicators, cancels, probes, matched probes, more live entries than the CAM
//! holds, queues driven past capacity): the receive engine's RTL against the golden model
//! with finite queues (same pairing) and against the cycle-accurate model (same response,
//! same acceptance and response cycle), operation by operation. One difference fails the
//! test and keeps a waveform of the run.
//!
//! Two streams carry flushes (about one in 1,500 and 2,500 operations), so the engine is
//! emptied mid-stream, with entries in the lists and often in the middle of a list walk or
//! while the data mover runs.
//!
//! Configurations: an 8- or 4-entry CAM with 1, 4, 16 and 64 lists (small lists, so the
//! streams overflow them), and the default 256-entry CAM with the 32,768-entry lists split
//! 1, 4 and 64 ways as `tagmatch gen` emits them (longer phases, so the queues reach past
//! the CAM into the lists).

use tagmatch_hdl::two_level::receive_engine::{receive_engine_verilog, EngineShape};
use tagmatch_sim::workload::streams::{random_stream, random_stream_phased, with_flushes};
use tagmatch_sim::{Envelope, MsgId, Op, Outcome, RecvId, RecvSpec};
use tagmatch_testbench::two_level::cosim::{cosim, cosim_from_power_up, CosimReport, EngineUnderTest};
use tagmatch_testbench::two_level::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::verilator::Model;

fn run(verilog: String, (cam, lists, address_bits): (usize, usize, u32), ops: &[Op]) -> CosimReport {
    let config = EngineShape::new(cam, lists, address_bits as usize).unwrap();
    let engine = EngineUnderTest { name: format!("engine-c{cam}-a{address_bits}-n{lists}"), verilog, config };
    let report = cosim(&engine, ops, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.ops, ops.len());
    assert!(report.deepest > cam, "the stream never had more live entries than the CAM: {report:?}");
    assert!(report.matched > ops.len() / 5 && report.cancelled > 0 && report.probes > 0, "{report:?}");
    report
}

fn run_small(verilog: String, shape: (usize, usize, u32), seed: u64) -> CosimReport {
    let report = run(verilog, shape, &random_stream(seed, 20_000));
    assert!(report.overflows > 0, "the stream never filled a queue: {report:?}");
    report
}

fn run_default(verilog: String, lists: usize, address_bits: u32, seed: u64) -> CosimReport {
    run(verilog, (256, lists, address_bits), &random_stream_phased(seed, 8_000, 1_000))
}

/// The engine of `shape` in Verilator (cached by its CAM depth, address bits and lists).
fn rtl_engine(shape: EngineShape) -> RtlEngine {
    let name = format!("engine-c{}-a{}-n{}", shape.cam_depth, shape.list_address_bits(), shape.lists);
    let (model, _) = Model::build(&engine_spec(&name, receive_engine_verilog(&shape), false)).unwrap();
    RtlEngine::new(model).unwrap()
}

#[test]
fn one_list_20000_ops() {
    run_small(receive_engine_verilog(&EngineShape::new(8, 1, 5).unwrap()), (8, 1, 5), 11);
}

#[test]
fn four_lists_20000_ops_with_flushes() {
    let ops = with_flushes(&random_stream(12, 20_000), 12, 1_500);
    let report = run(receive_engine_verilog(&EngineShape::new(8, 4, 3).unwrap()), (8, 4, 3), &ops);
    assert!(report.overflows > 0 && report.flushes > 5, "{report:?}");
}

#[test]
fn sixteen_lists_20000_ops() {
    run_small(receive_engine_verilog(&EngineShape::new(4, 16, 2).unwrap()), (4, 16, 2), 13);
}

#[test]
fn sixty_four_lists_20000_ops() {
    run_small(receive_engine_verilog(&EngineShape::new(8, 64, 2).unwrap()), (8, 64, 2), 14);
}

#[test]
fn default_cam_one_list() {
    run_default(receive_engine_verilog(&EngineShape::new(256, 1, 15).unwrap()), 1, 15, 21);
}

#[test]
fn default_cam_four_lists_with_flushes() {
    let ops = with_flushes(&random_stream_phased(22, 8_000, 1_000), 22, 2_500);
    let report = run(receive_engine_verilog(&EngineShape::new(256, 4, 13).unwrap()), (256, 4, 13), &ops);
    assert!(report.flushes > 0, "{report:?}");
}

#[test]
fn default_cam_sixty_four_lists() {
    run_default(receive_engine_verilog(&EngineShape::new(256, 64, 9).unwrap()), 64, 9, 23);
}

/// A CAM hit answers four cycles after the command is accepted (registered command, bank
/// hits, the oldest hit and its fields read from RAM, then the response), whatever the queue held before.
#[test]
fn a_cam_hit_answers_in_four_cycles() {
    let mut rtl = rtl_engine(EngineShape::new(4, 4, 2).unwrap());
    for r in 1..=3 {
        let spec = RecvSpec::new(0, Some(r as u32), None);
        assert_eq!(rtl.apply(&Op::PostRecv { recv: RecvId(r), spec }).unwrap().outcome, Outcome::Queued);
    }
    for r in [2u64, 3, 1] {
        let got = rtl.apply(&Op::Arrive { msg: MsgId(100 + r), env: Envelope::new(0, r as u32, 9) }).unwrap();
        assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(r), msg: MsgId(100 + r) });
        assert_eq!(got.latency(), 4, "receive {r}");
    }
}

/// Every register and RAM word of the engine starts as garbage (lists' links and the
/// CAM's entries included); one reset cycle must leave it behaving as a clean start, to
/// the cycle, on a stream that overflows the small engine's lists and flushes it.
#[test]
fn reset_clears_power_up_garbage() {
    let shape = (8, 4, 3);
    let config = EngineShape::new(shape.0, shape.1, shape.2).unwrap();
    let verilog = receive_engine_verilog(&config);
    let engine = EngineUnderTest { name: "engine-c8-a3-n4".into(), verilog, config };
    let ops = with_flushes(&random_stream(17, 20_000), 17, 1_500);
    let report = cosim_from_power_up(&engine, &ops, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.deepest > shape.0 && report.overflows > 0 && report.flushes > 0, "{report:?}");
}

/// Op codes 8-15 answer `error` and change nothing; reset empties both queues mid-stream
/// (including with entries in the lists) and the engine goes on from nothing.
#[test]
fn unknown_op_codes_are_refused_and_reset_empties_the_engine() {
    use tagmatch_hdl::two_level::receive_engine::RESP_ERROR;
    let mut rtl = rtl_engine(EngineShape::new(4, 4, 2).unwrap());
    let spec = RecvSpec::new(0, Some(1), Some(7));
    for r in 1..=10 {
        assert_eq!(rtl.apply(&Op::PostRecv { recv: RecvId(r), spec }).unwrap().outcome, Outcome::Queued);
    }
    // 0-4 match, 5 and 6 are the completion unit's, 7 is flush; 8-15 are unknown.
    let port = |rtl: &RtlEngine, n: &str| rtl.model().get(rtl.model().port(n).unwrap());
    for code in 8..16 {
        let (kind, accepted, responded) = rtl.raw_command(code, 77).unwrap();
        assert_eq!((kind, responded - accepted), (RESP_ERROR, 2), "op code {code}: decided at issue");
        assert_eq!(port(&rtl, "prq_count"), 10, "op code {code} changed the queue");
    }
    let first = rtl.apply(&Op::Arrive { msg: MsgId(100), env: Envelope::new(0, 1, 7) }).unwrap();
    assert_eq!(first.outcome, Outcome::Matched { recv: RecvId(1), msg: MsgId(100) });
    rtl.reset();
    assert_eq!((port(&rtl, "prq_count"), port(&rtl, "umq_count")), (0, 0));
    // Nothing of the old job answers: the message is unexpected, and a new receive takes it.
    let got = rtl.apply(&Op::Arrive { msg: MsgId(101), env: Envelope::new(0, 1, 7) }).unwrap();
    assert_eq!(got.outcome, Outcome::Queued);
    let got = rtl.apply(&Op::PostRecv { recv: RecvId(50), spec }).unwrap();
    assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(50), msg: MsgId(101) });
    for r in 51..=70 {
        rtl.apply(&Op::PostRecv { recv: RecvId(r), spec }).unwrap();
    }
    for r in 51..=66 {
        let got = rtl.apply(&Op::Arrive { msg: MsgId(r + 1000), env: Envelope::new(0, 1, 7) }).unwrap();
        assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(r), msg: MsgId(r + 1000) });
    }
}

/// Fill a small engine's whole PRQ (CAM and every list), overflow once, then match every
/// receive in posting order: nothing is lost, nothing is reordered.
#[test]
fn whole_capacity_fills_overflows_and_drains_in_order() {
    const CAPACITY: u64 = 4 + 4 * 3;
    let mut rtl = rtl_engine(EngineShape::new(4, 4, 2).unwrap());
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

/// The completion unit on random streams: waits and tests of every class between the
/// operations. Its answers, the matches' answers and the cycle of every late `reached`
/// agree with the cycle model; the answers and after which operation a wait ends agree
/// with the golden counters.
#[test]
fn completion_unit_agrees_with_the_models() {
    use tagmatch_sim::cycle::two_level::TwoLevelModel;
    use tagmatch_sim::cycle::{Completion, CompletionAnswer, CycleEngine};
    use tagmatch_sim::model::completion::CompletionCounters;
    use tagmatch_sim::workload::streams::Rng;

    let mut rtl = rtl_engine(EngineShape::new(8, 4, 3).unwrap());
    let mut cycle_model = TwoLevelModel::with_config(EngineShape::new(8, 4, 3).unwrap());
    let mut golden = tagmatch_sim::model::bounded::BoundedGolden::new(36, 36);
    let mut counters = CompletionCounters::new();
    let mut r = Rng::new(99);
    let (mut wakeups, mut parked, mut refused) = (0, 0, 0);
    for (i, op) in random_stream(31, 20_000).iter().enumerate() {
        if r.chance(15) {
            // The stream's communicators are 0 to 2, so class 3 never counts: tests only.
            let wait = r.chance(50);
            let class = r.below(if wait { 3 } else { 4 }) as u8;
            let count = counters.counter(class as usize).wrapping_add(r.below(4) as u32);
            let c = if wait { Completion::Wait { class, count } } else { Completion::Test { class, count } };
            let want = counters.command(&c);
            let got = rtl.complete(&c).unwrap();
            assert_eq!(got.0, want, "before op {i}: {c:?}");
            assert_eq!(got, cycle_model.complete(&c).unwrap(), "before op {i}: {c:?}");
            parked += (want == CompletionAnswer::Parked) as u32;
            refused += (want == CompletionAnswer::Refused) as u32;
        }
        let got = rtl.apply(op).unwrap();
        let want = golden.expect(op, &got.outcome, EngineShape::new(8, 4, 3).unwrap().guaranteed_capacity());
        assert_eq!(got.outcome, want, "op {i} ({op:?})");
        assert_eq!(got, cycle_model.apply(op).unwrap(), "op {i} ({op:?})");
        let woken = counters.observe(op, &want);
        let (rtl_wake, model_wake) = (rtl.take_wakeup(), cycle_model.take_wakeup());
        assert_eq!(rtl_wake, model_wake, "op {i} ({op:?})");
        assert_eq!(rtl_wake.map(|w| w.counter), woken, "op {i} ({op:?})");
        if let Some(w) = rtl_wake {
            assert_eq!(w.cycle, got.responded + 1, "the wait's answer follows the match's by one cycle");
            wakeups += 1;
        }
    }
    assert!(
        wakeups > 100 && parked > wakeups / 2 && refused > 10,
        "{wakeups} wakeups, {parked} parked, {refused} refused"
    );
}

/// Streamed back to back, CAM hits and unexpected messages take 3 cycles each (the CAM
/// answers 2 cycles after its search, and the next search shares the removal's edge);
/// hits past the CAM bring in a bank's worth of list entries each time a bank empties
/// (210 cycles for 19 messages here), in the RTL as in the cycle model.
#[test]
fn streamed_operations_overlap_as_the_model_says() {
    use tagmatch_sim::cycle::bench::{throughput, Traffic};
    use tagmatch_sim::cycle::two_level::TwoLevelModel;
    let mut rtl = rtl_engine(EngineShape::new(8, 4, 3).unwrap());
    let mut cycle_model = TwoLevelModel::with_config(EngineShape::new(8, 4, 3).unwrap());
    for (traffic, ops, per_op) in
        [(Traffic::CamHits, 8, 3.0), (Traffic::Unexpected, 8, 3.0), (Traffic::MoverHits, 20, 210.0 / 19.0)]
    {
        let got = throughput(&mut rtl, traffic, 8, ops).unwrap();
        eprintln!("{traffic:?}: {got:?}");
        assert_eq!(got, throughput(&mut cycle_model, traffic, 8, ops).unwrap(), "{traffic:?}");
        assert_eq!(got.cycles_per_op, per_op, "{traffic:?}: {got:?}");
    }
}

/// A host that holds responses back: the skid register keeps every decided response, so
/// the pairing is the golden model's, in order, whatever `resp_ready` does, and the engine
/// goes on one operation at a time afterwards.
#[test]
fn a_slow_host_loses_no_response() {
    use tagmatch_sim::model::bounded::BoundedGolden;
    use tagmatch_sim::workload::streams::Rng;
    let mut rtl = rtl_engine(EngineShape::new(4, 4, 2).unwrap());
    let mut golden = BoundedGolden::new(16, 16);
    let ops = random_stream(41, 6000);
    let mut rng = Rng::new(5);
    let mut at = 0;
    for (run, percent) in [(2000, 30), (2000, 70), (2000, 95)] {
        let chunk = &ops[at..at + run];
        let got = rtl.stream(chunk, |_| rng.chance(percent)).unwrap();
        for (i, (a, op)) in got.iter().zip(chunk).enumerate() {
            let want =
                golden.expect(op, &a.outcome, EngineShape::new(4, 4, 2).unwrap().guaranteed_capacity());
            assert_eq!(a.outcome, want, "op {} ({op}) with responses taken {percent} %", at + i);
            assert!(a.responded > a.accepted);
        }
        at += run;
    }
    let env = Envelope::new(7, 7, 7);
    let last = Op::Arrive { msg: MsgId(1 << 30), env };
    let got = rtl.apply(&last).unwrap().outcome;
    assert_eq!(got, golden.expect(&last, &got, EngineShape::new(4, 4, 2).unwrap().guaranteed_capacity()));
}

/// A flush presented while a list walk runs, and one presented while the data mover runs,
/// waits for them (as the cycle model says, to the cycle), answers `flushed`, and leaves
/// both queues empty with labels restarted: old receives match nothing, new ones match in
/// posting order. Into an idle engine a flush answers 2 cycles after acceptance and the
/// queues are empty the cycle after.
#[test]
fn a_flush_waits_for_the_walk_and_the_mover_then_empties_the_engine() {
    use tagmatch_sim::cycle::two_level::TwoLevelModel;
    use tagmatch_sim::cycle::CycleEngine;
    use tagmatch_sim::model::bounded::BoundedGolden;
    let mut rtl = rtl_engine(EngineShape::new(4, 4, 2).unwrap());
    let mut cycle_model = TwoLevelModel::with_config(EngineShape::new(4, 4, 2).unwrap());
    let mut golden = BoundedGolden::new(16, 16);
    let port = |rtl: &RtlEngine, n: &str| rtl.model().get(rtl.model().port(n).unwrap());
    let post = |r: u64| Op::PostRecv { recv: RecvId(r), spec: RecvSpec::new(0, Some(1), Some(r as u32)) };
    let arrive = |m: u64, tag: u32| Op::Arrive { msg: MsgId(m), env: Envelope::new(0, 1, tag) };
    let mut check = |rtl: &mut RtlEngine, ops: &[Op], streamed: bool| -> Vec<tagmatch_sim::cycle::Applied> {
        let got =
            if streamed { rtl.stream(ops, |_| true).unwrap() } else { vec![rtl.apply(&ops[0]).unwrap()] };
        let modelled = if streamed {
            cycle_model.apply_stream(ops).unwrap()
        } else {
            vec![cycle_model.apply(&ops[0]).unwrap()]
        };
        assert_eq!(got, modelled, "{ops:?}");
        for (a, op) in got.iter().zip(ops) {
            assert_eq!(a.outcome, golden.apply(op), "{op}");
        }
        got
    };
    // Receives 1-4 fill the CAM, 5-10 go to the lists.
    for r in 1..=10 {
        check(&mut rtl, &[post(r)], false);
    }
    // Mid-walk: receive 9 is found by walking the lists; the flush comes the next cycle.
    let got = check(&mut rtl, &[arrive(100, 9), Op::Flush], true);
    assert_eq!(got[0].outcome, Outcome::Matched { recv: RecvId(9), msg: MsgId(100) });
    assert_eq!(got[1].outcome, Outcome::Flushed);
    // Accepted into the command register during the walk, it issues once the match is decided.
    assert!(got[1].latency() > 2 && got[1].responded > got[0].responded, "the flush did not wait: {got:?}");
    assert_eq!((port(&rtl, "prq_count"), port(&rtl, "umq_count")), (0, 0));
    // Mid-mover: a CAM hit that empties a bank while the lists hold receives starts the
    // data mover.
    for r in 11..=20 {
        check(&mut rtl, &[post(r)], false);
    }
    // Receives 11 and 12 share a CAM bank: taking both empties it, so the second starts
    // the mover.
    check(&mut rtl, &[arrive(103, 11)], false);
    let hit = check(&mut rtl, &[arrive(101, 12)], false)[0];
    let flush = check(&mut rtl, &[Op::Flush], false)[0];
    assert!(flush.accepted > hit.responded + 1, "the flush did not wait for the mover: {hit:?} {flush:?}");
    assert_eq!((port(&rtl, "prq_count"), port(&rtl, "umq_count")), (0, 0));
    // Nothing of the old receives answers; new ones match oldest first.
    assert_eq!(check(&mut rtl, &[arrive(102, 13)], false)[0].outcome, Outcome::Queued);
    let idle = check(&mut rtl, &[Op::Flush], false)[0];
    assert_eq!(idle.latency(), 2, "a flush into an idle engine");
    assert_eq!((port(&rtl, "prq_count"), port(&rtl, "umq_count")), (0, 0));
    for r in 21..=30 {
        check(&mut rtl, &[Op::PostRecv { recv: RecvId(r), spec: RecvSpec::new(0, None, Some(5)) }], false);
    }
    for m in 0..10 {
        let got = check(&mut rtl, &[arrive(200 + m, 5)], true)[0];
        assert_eq!(got.outcome, Outcome::Matched { recv: RecvId(21 + m), msg: MsgId(200 + m) });
    }
}

/// Posting labels of 6 bits (64 labels) wrap dozens of times in one stream: the RTL pairs
/// as the golden model (which knows no labels) and answers as the cycle model to the
/// cycle, receives with wildcards stay posted across several wraps, and the only
/// overflows with room in the queue are inserts the label rule refused.
#[test]
fn narrow_labels_wrap_dozens_of_times_in_order() {
    use std::collections::HashMap;
    use tagmatch_hdl::two_level::receive_engine::{receive_engine_verilog, EngineShape};
    use tagmatch_sim::cycle::two_level::TwoLevelModel;
    use tagmatch_sim::cycle::CycleEngine;
    let config = EngineShape::new(8, 4, 3).unwrap().with_label_bits(6).unwrap();
    // Three long-lived wildcard receives on a communicator the stream never uses: two
    // posted first (they stay in the CAM), one mid-stream (it joins the lists and blocks
    // their labels until the data mover brings it into the CAM); matched at the end.
    let stream = random_stream(61, 20_000);
    let post = |r: u64, src: Option<u32>, tag: Option<u32>| Op::PostRecv {
        recv: RecvId(900_000 + r),
        spec: RecvSpec::new(3, src, tag),
    };
    let mut ops = vec![post(1, None, Some(1)), post(2, Some(2), None)];
    ops.extend_from_slice(&stream[..10_000]);
    ops.push(post(3, None, None));
    ops.extend_from_slice(&stream[10_000..]);
    for (m, (src, tag)) in [(2, 1), (2, 5), (0, 0)].into_iter().enumerate() {
        ops.push(Op::Arrive { msg: MsgId(800_000 + m as u64), env: Envelope::new(3, src, tag) });
    }
    // How many wraps the longest-lived wildcard receive saw, from the cycle model alone.
    let mut model = TwoLevelModel::with_config(config);
    let mut posted: HashMap<RecvId, u64> = HashMap::new();
    let mut longest = 0;
    for op in &ops {
        let outcome = model.apply(op).unwrap().outcome;
        match (*op, outcome) {
            (Op::PostRecv { recv, spec }, Outcome::Queued) if spec.src.is_none() || spec.tag.is_none() => {
                posted.insert(recv, model.label_wraps());
            }
            (_, Outcome::Matched { recv, .. }) | (_, Outcome::Cancelled { recv }) => {
                if let Some(at) = posted.remove(&recv) {
                    longest = longest.max(model.label_wraps() - at);
                }
            }
            _ => {}
        }
    }
    assert!(longest >= 3, "no wildcard receive lived across 3 label wraps (longest {longest})");
    assert_eq!(model.label_misorders(), 0, "the label rule let two list entries misorder");
    let engine = EngineUnderTest {
        name: "engine-c8-a3-n4-l6".into(),
        verilog: receive_engine_verilog(&config),
        config,
    };
    let report = cosim(&engine, &ops, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report:?}; longest-lived wildcard receive: {longest} wraps");
    assert!(report.label_wraps >= 50, "{report:?}");
    // A sixth of the stream matches: the CAM's banks keep the mid-stream wildcard receive
    // in the lists (blocking their labels) until a whole bank empties.
    assert!(report.label_refusals > 0 && report.matched > ops.len() / 6, "{report:?}");
    let mut golden = tagmatch_sim::Golden::new();
    let outcomes: Vec<Outcome> = ops.iter().map(|op| tagmatch_sim::Matcher::apply(&mut golden, op)).collect();
    for (r, m) in [(1, 0), (2, 1), (3, 2)] {
        let want = Outcome::Matched { recv: RecvId(900_000 + r), msg: MsgId(800_000 + m) };
        assert_eq!(outcomes[ops.len() - 3 + m as usize], want, "the long-lived receives");
    }
}
