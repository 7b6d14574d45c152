//! The host driver over the engine's cycle model: unbounded MPI matching on engines far
//! smaller than the queues, op by op against the unbounded golden model, in both modes.

use tagmatch_sim::cycle::two_level::{EngineShape, TwoLevelModel};
use tagmatch_sim::host::fallback::FallbackDriver;
use tagmatch_sim::host::split::{run_split, SplitOptions};
use tagmatch_sim::software::hash_bins::{Bins, HashBinsMatcher};
use tagmatch_sim::workload::streams::{random_stream_from, Envelopes};
use tagmatch_sim::{Envelope, Golden, Matcher, MsgId, Op, Outcome, RecvId, RecvSpec};

/// Engine sizes: (CAM depth, lists, entries per list).
const SIZES: [(usize, usize, usize); 3] = [(4, 2, 3), (8, 4, 7), (16, 1, 63)];

fn engine(size: (usize, usize, usize)) -> (TwoLevelModel, usize) {
    let cfg = EngineShape::model(size.0, size.1, size.2).unwrap();
    (TwoLevelModel::with_config(cfg), cfg.queue_capacity())
}

/// Phases of receive and message bursts over few envelopes: queues grow far past a small
/// engine and drain again.
fn stream(seed: u64, n: usize, phase: usize) -> Vec<Op> {
    random_stream_from(seed, n, phase, Envelopes { comms: 2, sources: 4, tags: 3 })
}

#[test]
fn fallback_pairs_exactly_as_the_unbounded_golden_model() {
    for size in SIZES {
        let (model, capacity) = engine(size);
        let mut driver = FallbackDriver::new(model);
        let mut golden = Golden::new();
        let ops = stream(size.0 as u64, 40_000, 40 * capacity);
        for (i, op) in ops.iter().enumerate() {
            let got = driver.apply(op).unwrap_or_else(|e| panic!("{size:?} op {i}: {e}"));
            assert_eq!(got, golden.apply(op), "{size:?} op {i} ({op:?})");
        }
        let r = driver.report();
        eprintln!("{size:?}: {r:?}");
        assert!(r.fallbacks >= 1000, "{size:?}: only {} overflows", r.fallbacks);
        assert!(r.readmitted >= 1000 && r.undone > 0, "{size:?}: {r:?}");
        assert!(r.matched_in_hardware > 0 && r.matched_in_host > 0, "{size:?}: {r:?}");
    }
}

/// Flushes between overflowing phases: the engine's queues and the host's empty together,
/// so the pairing stays the golden model's and nothing of a flushed job comes back.
#[test]
fn fallback_flushes_the_host_queues_with_the_engine() {
    use tagmatch_sim::workload::streams::with_flushes;
    let (model, capacity) = engine((4, 2, 3));
    let mut driver = FallbackDriver::new(model);
    let mut golden = Golden::new();
    let ops = with_flushes(&stream(7, 20_000, 40 * capacity), 7, 3_000);
    for (i, op) in ops.iter().enumerate() {
        let got = driver.apply(op).unwrap_or_else(|e| panic!("op {i}: {e}"));
        assert_eq!(got, golden.apply(op), "op {i} ({op:?})");
        if let Op::Flush = op {
            assert_eq!(driver.host_lengths(), (0, 0), "op {i}");
            assert_eq!(driver.engine().queue_lengths(), (0, 0), "op {i}");
        }
    }
    assert!(driver.report().fallbacks > 100, "{:?}", driver.report());
}

/// Split mode cannot flush (messages may be in flight between NIC and host): refused.
#[test]
fn split_mode_refuses_a_flush() {
    let (mut model, _) = engine((4, 2, 3));
    let err =
        run_split(&mut model, &[Op::Flush], SplitOptions { delay: 0, sync: true, capacity: 16 }).unwrap_err();
    assert!(err.contains("flush"), "{err}");
}

#[test]
fn a_stream_that_fits_is_matched_entirely_in_hardware() {
    let (model, capacity) = engine((256, 4, 1023));
    let ops = stream(5, 20_000, 300);
    let mut golden = Golden::new();
    let mut deepest = 0;
    let mut driver = FallbackDriver::new(model);
    for op in &ops {
        assert_eq!(driver.apply(op).unwrap(), golden.apply(op));
        let s = golden.stats();
        deepest = deepest.max(s.prq_len.max(s.umq_len));
    }
    assert!(deepest < capacity && deepest > 256, "queues reached {deepest} of {capacity}");
    let r = driver.report();
    assert_eq!((r.matched_in_host, r.fallbacks, r.undone, r.readmitted), (0, 0, 0, 0), "{r:?}");
    assert_eq!(r.host.searches, 0);
    assert_eq!(r.commands, ops.len() as u64);
    assert_eq!(r.hardware_share(), 1.0);
}

#[test]
fn host_work_on_overflow_is_no_worse_than_hash_bins() {
    let (model, _) = engine((4, 2, 3));
    let ops = stream(11, 30_000, 2000);
    let mut driver = FallbackDriver::new(model);
    let mut bins = HashBinsMatcher::new(Bins::Growing);
    for op in &ops {
        assert_eq!(driver.apply(op).unwrap(), bins.apply(op));
    }
    let (host, soft) = (driver.report().host, bins.stats());
    assert!(host.searches > 1000, "{host:?}");
    assert!(host.inspected <= soft.inspected, "host {host:?} against hash bins {soft:?}");
    assert!(host.max_inspected <= 4);
}

#[test]
fn split_without_delay_is_the_golden_model_in_stream_order() {
    for size in SIZES {
        let (mut model, capacity) = engine(size);
        let ops = stream(3, 20_000, 40 * capacity);
        let run = run_split(&mut model, &ops, SplitOptions { delay: 0, sync: true, capacity }).unwrap();
        assert_eq!(run.order, (0..ops.len()).collect::<Vec<_>>());
        let mut golden = Golden::new();
        for (i, op) in ops.iter().enumerate() {
            assert_eq!(run.outcomes[i], golden.apply(op), "{size:?} op {i} ({op:?})");
        }
        assert!(run.report.fallbacks >= 1000, "{size:?}: {:?}", run.report);
    }
}

#[test]
fn split_with_messages_in_flight_keeps_mpi_order_with_the_phase_counter() {
    for size in SIZES {
        for delay in [1, 4, 37] {
            let (mut model, capacity) = engine(size);
            let ops = stream(delay, 20_000, 40 * capacity);
            let run = run_split(&mut model, &ops, SplitOptions { delay, sync: true, capacity }).unwrap();
            run.check(&ops).unwrap_or_else(|e| panic!("{size:?} delay {delay}: {e}"));
            let r = run.report;
            assert!(r.refused > 0 && r.taken_back > 0, "{size:?} delay {delay}: {r:?}");
        }
    }
}

/// The race, made on purpose: a receive goes to the NIC while a message it matches goes
/// to the host. Without the phase counter the receive is queued in hardware beside its
/// message, and the next alike message takes it out of order.
#[test]
fn without_the_phase_counter_the_race_reorders_messages() {
    let spec = RecvSpec::new(0, Some(1), Some(7));
    let env = Envelope::new(0, 1, 7);
    // Probes of another communicator pass the time until the receive reaches the NIC.
    let idle = Op::Probe { spec: RecvSpec::new(9, None, None) };
    let ops = vec![
        Op::PostRecv { recv: RecvId(1), spec },
        Op::Arrive { msg: MsgId(1), env },
        idle,
        idle,
        idle,
        Op::Arrive { msg: MsgId(2), env },
    ];
    let run = |sync| {
        let (mut model, capacity) = engine((4, 2, 3));
        run_split(&mut model, &ops, SplitOptions { delay: 3, sync, capacity }).unwrap()
    };
    let safe = run(true);
    safe.check(&ops).unwrap();
    assert_eq!(safe.outcomes[1], Outcome::Matched { recv: RecvId(1), msg: MsgId(1) });
    let racy = run(false);
    assert_eq!(racy.outcomes[5], Outcome::Matched { recv: RecvId(1), msg: MsgId(2) });
    assert!(racy.check(&ops).is_err());

    // And on random streams: some break without the counter, none with it.
    let mut broken = 0;
    for seed in 0..20 {
        let (mut model, capacity) = engine((8, 4, 7));
        let ops = stream(seed, 3000, 400);
        let opt = SplitOptions { delay: 5, sync: false, capacity };
        broken += run_split(&mut model, &ops, opt).unwrap().check(&ops).is_err() as u32;
    }
    assert!(broken > 0, "no random stream showed the race");
}

/// Found in review: a handle reused after its match (valid in stream order) while the
/// host has not yet heard of the match, and a capacity above the engine's (refusals for
/// room). Both must settle every operation in MPI order, not corrupt or spin.
#[test]
fn split_mode_survives_reused_handles_and_refusals_for_room() {
    let spec = |t| RecvSpec::new(0, Some(t), Some(t));
    let idle = Op::Probe { spec: RecvSpec::new(9, None, None) };
    let ops = vec![
        Op::PostRecv { recv: RecvId(10), spec: spec(5) },
        Op::PostRecv { recv: RecvId(11), spec: spec(6) },
        Op::PostRecv { recv: RecvId(1), spec: spec(0) },
        Op::Arrive { msg: MsgId(100), env: Envelope::new(0, 0, 0) },
        Op::PostRecv { recv: RecvId(1), spec: spec(1) },
        idle,
        idle,
        Op::Cancel { recv: RecvId(1) },
        Op::Arrive { msg: MsgId(101), env: Envelope::new(0, 1, 1) },
    ];
    for capacity in [2, 3, 8] {
        for delay in [0, 1, 3, 9] {
            let mut model = TwoLevelModel::with_config(EngineShape::model(1, 1, 1).unwrap());
            let run = run_split(&mut model, &ops, SplitOptions { delay, sync: true, capacity }).unwrap();
            run.check(&ops).unwrap_or_else(|e| panic!("capacity {capacity} delay {delay}: {e}"));
        }
    }
    // Refusals for room: three receives on an engine that holds two, told it holds three.
    let three: Vec<Op> = (1..=3).map(|i| Op::PostRecv { recv: RecvId(i), spec: spec(i as u32) }).collect();
    let mut model = TwoLevelModel::with_config(EngineShape::model(1, 1, 1).unwrap());
    let run = run_split(&mut model, &three, SplitOptions { delay: 2, sync: true, capacity: 3 }).unwrap();
    run.check(&three).unwrap();
    assert!(run.report.refused > 0, "{:?}", run.report);
}
