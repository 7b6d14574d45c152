//! The optimistic thread array's RTL in Verilator against the golden model (identical
//! pairing) and its cycle-level model (identical acceptance and answer cycles), command by
//! command, for 1, 4 and 16 lanes, fast path on and off. Streams: random traffic over
//! two communicators with wildcards and repeated envelopes, cancels and probes, whose
//! bursts overflow the small descriptor table and UMQ; then bursts of alike receives and
//! messages that fill blocks and conflict, reaching both the fast and the slow path. The
//! third stream flushes about once in 400 operations (the clearing pass, to the cycle); in
//! the second, the reset port cuts about one command in 13 short, 0 to 36 cycles after its
//! acceptance, so resets land in every phase of a block (walks, slow paths, unlinks, the
//! UMQ insert).

use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::optimistic::thread_array::{thread_array_verilog, ThreadArrayShape};
use tagmatch_sim::optimistic::cost::head_banks;
use tagmatch_sim::optimistic::OptimisticConfig;
use tagmatch_sim::workload::streams::{bursty_stream, random_stream_from, with_flushes, Envelopes};
use tagmatch_sim::{Envelope, MsgId, Op, Outcome, RecvId, RecvSpec};
use tagmatch_testbench::optimistic::cosim::{cosim_thread_array_with_resets, ThreadArrayUnderTest};
use tagmatch_testbench::optimistic::thread_array::{
    thread_array_build_name, thread_array_spec, RtlThreadArray,
};
use tagmatch_testbench::power_up::with_power_up_garbage;
use tagmatch_testbench::verilator::Model;

/// The small tables: 32 descriptors, 4 bins per hashed index (head tables of 2^4 lists),
/// a 16-entry UMQ.
fn small(lanes: usize, fast_path: bool) -> ThreadArrayShape {
    ThreadArrayShape {
        lanes,
        descriptors: 32,
        head_bits: 4,
        unexpected: 16,
        fast_path,
        fields: FieldWidths::DEFAULT,
    }
}

/// Two communicators, three sources, two tags: envelopes repeat and match often enough
/// that the small tables fill and drain (about a fifth of the random operations overflow).
const ENVELOPES: Envelopes = Envelopes { comms: 2, sources: 3, tags: 2 };

fn stream(seed: u64) -> Vec<Op> {
    let mut ops = random_stream_from(seed, 4000, 40, ENVELOPES);
    for s in 0..2 {
        ops.extend(bursty_stream(seed * 10 + s));
    }
    ops
}

/// The cycle model's configuration of the shape (and the golden model's table sizes).
fn config_of(shape: &ThreadArrayShape) -> OptimisticConfig {
    let mut config = OptimisticConfig::hardware(
        shape.lanes,
        shape.descriptors,
        1 << (shape.head_bits - 2),
        shape.unexpected,
    );
    config.fast_path = shape.fast_path;
    config.fields = shape.fields;
    config
}

/// The shape's Verilog under its cache name.
fn under_test(shape: &ThreadArrayShape) -> ThreadArrayUnderTest {
    let config = config_of(shape);
    ThreadArrayUnderTest {
        name: thread_array_build_name(&config),
        verilog: thread_array_verilog(shape),
        config,
    }
}

fn check(shape: ThreadArrayShape) {
    let ThreadArrayShape { lanes, fast_path, .. } = shape;
    let array = under_test(&shape);
    let mut totals = (0, 0, 0, 0);
    let (mut flushes, mut resets) = (0, 0);
    for seed in 1..=3 {
        let ops = if seed == 3 { with_flushes(&stream(seed), seed, 400) } else { stream(seed) };
        let resets_in_seed_2 = |at: usize| (seed == 2 && at.is_multiple_of(13)).then_some(at as u64 * 7 % 37);
        let report = cosim_thread_array_with_resets(&array, &ops, &resets_in_seed_2, &mut |_| {})
            .unwrap_or_else(|e| panic!("{e}"));
        flushes += report.flushes;
        resets += report.resets;
        eprintln!("{}: seed {seed}: {report:?}", array.name);
        totals.0 += report.overflows;
        totals.1 += report.fast_path;
        totals.2 += report.slow_path;
        totals.3 += report.matched;
    }
    let (overflows, fast, slow, matched) = totals;
    assert!(overflows > 0 && matched > 0, "{lanes} lanes: the streams must overflow the tables");
    assert!(flushes > 3, "{lanes} lanes: {flushes} flushes");
    assert!(resets > 20, "{lanes} lanes: {resets} resets");
    if lanes > 1 {
        assert!(slow > 0, "{lanes} lanes: no lane took the slow path");
        assert_eq!(fast > 0, fast_path, "{lanes} lanes: fast path {fast_path}, {fast} fast lanes");
    }
}

#[test]
fn one_lane() {
    check(small(1, true));
}

#[test]
fn four_lanes() {
    check(small(4, true));
}

#[test]
fn four_lanes_without_the_fast_path() {
    check(small(4, false));
}

#[test]
fn sixteen_lanes() {
    check(small(16, true));
}

/// Without the fast path the hardware differs (no run registers or label compares), so
/// the one- and sixteen-lane shapes are checked both ways too.
#[test]
fn one_lane_without_the_fast_path() {
    check(small(1, false));
}

#[test]
fn sixteen_lanes_without_the_fast_path() {
    check(small(16, false));
}

/// Every register and RAM word starts as garbage instead of zero; the reset before the
/// first command (the clearing pass) must make the array behave as if it started clean.
#[test]
fn reset_clears_power_up_garbage() {
    let shape = small(4, true);
    let config = config_of(&shape);
    let verilog = with_power_up_garbage(&thread_array_verilog(&shape)).unwrap();
    let name = format!("{}-power-up-garbage", thread_array_build_name(&config));
    let array = ThreadArrayUnderTest { name, verilog, config };
    let report = cosim_thread_array_with_resets(&array, &stream(4), &|_| None, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.matched > 0 && report.overflows > 0, "{report:?}");
}

/// The fast path's run found across a boundary of its label compare: with 32 descriptors
/// and 4 lanes the run compares each label's low 5 bits with each lane's target `k + i`,
/// which wraps at multiples of 32. Rounds of eight alike receives and their eight messages
/// (two 4-lane blocks, each a run from its first receive) with one receive and message of
/// another envelope between rounds shift the runs' labels by 9 a round, so some runs
/// start 29 to 31 labels past a multiple of 32 and end past it.
#[test]
fn fast_runs_across_label_boundaries() {
    let array = under_test(&small(4, true));
    let (alike, other) = (Envelope::new(0, 1, 1), Envelope::new(1, 2, 0));
    let mut ops = Vec::new();
    let mut handle = 0;
    let mut next = || {
        handle += 1;
        handle
    };
    let (mut label, mut straddling) = (0u32, 0);
    for round in 0..120 {
        let shift = if round == 0 { 240 } else { 1 };
        for _ in 0..shift {
            ops.push(Op::PostRecv { recv: RecvId(next()), spec: RecvSpec::exact(other) });
            ops.push(Op::Arrive { msg: MsgId(next()), env: other });
        }
        label += shift;
        for _ in 0..8 {
            ops.push(Op::PostRecv { recv: RecvId(next()), spec: RecvSpec::exact(alike) });
        }
        for _ in 0..8 {
            ops.push(Op::Arrive { msg: MsgId(next()), env: alike });
        }
        // The runs' first labels (labels count posts from 1).
        for first in [label + 1, label + 5] {
            straddling += usize::from(first % 32 > (first + 3) % 32);
        }
        label += 8;
    }
    assert!(straddling >= 20, "the stream crosses a 32-label boundary in {straddling} runs");
    let report = cosim_thread_array_with_resets(&array, &ops, &|_| None, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    // Lanes 1 to 3 of every block take the run's receives by the fast path.
    assert_eq!(report.fast_path, 120 * 2 * 3, "{report:?}");
}

/// The run compares only a label's low bits, so receives of other sequences with the
/// low bits of a missing member must not stand in for it. Four alike receives (labels 1
/// to 4), the second cancelled (which ends their sequence); 29 receives of another
/// envelope matched at once move the label counter on, so the alike receive posted next
/// is label 34, the cancelled one's low bits; and one of the other envelope, 35 (label
/// 3's). A block of four alike messages: every lane books receive 1, the run's lane 1
/// finds no label 2 of that sequence, and the conflicts go the slow way (to 1, 3, 4, 34).
#[test]
fn the_fast_run_skips_other_sequences_with_the_same_low_bits() {
    let array = under_test(&small(4, true));
    let (alike, other) = (Envelope::new(0, 1, 1), Envelope::new(1, 2, 0));
    let post = |recv, env| Op::PostRecv { recv: RecvId(recv), spec: RecvSpec::exact(env) };
    let mut ops: Vec<Op> = (1..=4).map(|r| post(r, alike)).collect();
    ops.push(Op::Cancel { recv: RecvId(2) });
    for r in 5..=33 {
        ops.push(post(r, other));
        ops.push(Op::Arrive { msg: MsgId(r), env: other });
    }
    ops.push(post(34, alike));
    ops.push(post(35, other));
    ops.extend((100..104).map(|m| Op::Arrive { msg: MsgId(m), env: alike }));
    let report = cosim_thread_array_with_resets(&array, &ops, &|_| None, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((report.fast_path, report.matched), (0, 29 + 4), "{report:?}");
}

/// A shape no catalogue had: 3 lanes, 20 descriptors, 2 bins per index, a 10-entry UMQ.
#[test]
fn three_lanes_with_odd_tables() {
    check(ThreadArrayShape {
        lanes: 3,
        descriptors: 20,
        head_bits: 3,
        unexpected: 10,
        fast_path: true,
        fields: FieldWidths::DEFAULT,
    });
}

/// A UMQ of 32 entries, twice the small tables' (its age matrix and free-slot prefix a
/// level deeper).
#[test]
fn two_lanes_with_a_deep_umq() {
    check(ThreadArrayShape {
        lanes: 2,
        descriptors: 32,
        head_bits: 4,
        unexpected: 32,
        fast_path: true,
        fields: FieldWidths::DEFAULT,
    });
}

/// Head banks of 1,024 words (2 lanes, 512 bins per index): block RAM, whose registered
/// reads come before the bank select, where the small tables' LUT RAM selects first.
#[test]
fn two_lanes_with_block_ram_heads() {
    check(ThreadArrayShape {
        lanes: 2,
        descriptors: 32,
        head_bits: 11,
        unexpected: 16,
        fast_path: true,
        fields: FieldWidths::DEFAULT,
    });
}

/// The RTL and the cycle model bank the head tables alike (the co-simulations would see a
/// difference only in the shapes they run).
#[test]
fn the_rtl_and_the_model_agree_on_the_head_banks() {
    for lanes in 1..=64 {
        for head_bits in 2..=16 {
            let shape = ThreadArrayShape {
                lanes,
                descriptors: 32,
                head_bits,
                unexpected: 16,
                fast_path: true,
                fields: FieldWidths::DEFAULT,
            };
            assert_eq!(shape.banks(), head_banks(lanes, 1 << (head_bits - 2)), "{shape:?}");
        }
    }
}

/// Narrow stored fields (2-bit communicators, 3-bit sources and tags, 31-bit handles:
/// what the streams need): the lanes' descriptor copies and the UMQ store fewer bits, the
/// pairing and the cycles stay the models'.
#[test]
fn four_lanes_with_narrow_fields() {
    let fields = FieldWidths::new(2, 3, 3, 31).unwrap();
    check(ThreadArrayShape { fields, ..small(4, true) });
}

/// A command with a field wider than generated is answered overflow and changes nothing,
/// so a stored field never aliases a wider value: a receive whose tag has a bit above
/// the 3 generated ones is refused, and a message carrying that tag's low bits does not
/// match it. (The driver here is told the ports' widths, so it passes the wide values
/// on; the drivers of the models refuse them before the hardware sees them.)
#[test]
fn fields_wider_than_generated_answer_overflow() {
    let fields = FieldWidths::new(2, 3, 3, 20).unwrap();
    let shape = ThreadArrayShape { fields, ..small(2, true) };
    let array = under_test(&shape);
    let (model, _) = Model::build(&thread_array_spec(&array.name, array.verilog, 2, false)).unwrap();
    let mut rtl = RtlThreadArray::new(model, 2).unwrap();
    rtl.reset();
    let outcome = |rtl: &mut RtlThreadArray, ops: &[Op]| rtl.apply(ops).unwrap().outcomes;
    let post =
        |recv, tag| Op::PostRecv { recv: RecvId(recv), spec: RecvSpec::exact(Envelope::new(1, 2, tag)) };
    let arrive = |msg, tag| Op::Arrive { msg: MsgId(msg), env: Envelope::new(1, 2, tag) };
    // Tag 9 is 0b1001: wider than 3 bits, 1 in them.
    assert_eq!(outcome(&mut rtl, &[post(1, 9)]), [Outcome::Overflow]);
    assert_eq!(outcome(&mut rtl, &[post(1 << 20, 1)]), [Outcome::Overflow], "a 21-bit handle");
    assert_eq!(outcome(&mut rtl, &[arrive(5, 1)]), [Outcome::Queued], "nothing was posted");
    assert_eq!(outcome(&mut rtl, &[post(2, 1)]), [Outcome::Matched { recv: RecvId(2), msg: MsgId(5) }]);
    // A block with one wide message is refused whole.
    assert_eq!(outcome(&mut rtl, &[arrive(6, 1), arrive(7, 9)]), [Outcome::Overflow; 2]);
    let probe = Op::Probe { spec: RecvSpec::exact(Envelope::new(1, 2, 1)) };
    assert_eq!(outcome(&mut rtl, &[probe]), [Outcome::Probed(None)], "the refused block queued nothing");
    let wide_probe = Op::Probe { spec: RecvSpec::exact(Envelope::new(4, 2, 1)) };
    assert_eq!(outcome(&mut rtl, &[wide_probe]), [Outcome::Overflow], "a 3-bit communicator");
    assert_eq!(outcome(&mut rtl, &[Op::Cancel { recv: RecvId(1 << 21) }]), [Outcome::Overflow]);
}
