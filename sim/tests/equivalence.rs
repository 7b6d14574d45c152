//! Every software matcher must report exactly the golden model's outcome for every
//! operation of random streams: wildcards, repeated envelopes, several communicators,
//! cancels (of live and of already matched receives), probes, matched probes, flushes, long
//! queues.

use proptest::prelude::*;
use tagmatch_sim::software::hash_bins::Bins;
use tagmatch_sim::software::partner::edge::EdgeMetric;
use tagmatch_sim::software::partner::{PartnerConfig, PartnerMatcher};
use tagmatch_sim::{Envelope, Golden, Matcher, MatcherKind, MatcherOptions, MsgId, Op, RecvId, RecvSpec};

#[derive(Clone, Debug)]
enum Raw {
    Post(u32, Option<u32>, Option<u32>),
    Arrive(u32, u32, u32),
    Cancel(usize),
    Probe(u32, Option<u32>, Option<u32>),
    MatchedProbe(u32, Option<u32>, Option<u32>),
    Flush,
}

/// Small value ranges so that envelopes repeat and wildcards have several candidates.
fn raw_op(comms: u32, ranks: u32, tags: u32) -> impl Strategy<Value = Raw> {
    let wild = |n: u32| prop_oneof![4 => (0..n).prop_map(Some), 1 => Just(None)];
    prop_oneof![
        80 => (0..comms, wild(ranks), wild(tags)).prop_map(|(c, s, t)| Raw::Post(c, s, t)),
        80 => (0..comms, 0..ranks, 0..tags).prop_map(|(c, s, t)| Raw::Arrive(c, s, t)),
        10 => any::<usize>().prop_map(Raw::Cancel),
        10 => (0..comms, wild(ranks), wild(tags)).prop_map(|(c, s, t)| Raw::Probe(c, s, t)),
        10 => (0..comms, wild(ranks), wild(tags)).prop_map(|(c, s, t)| Raw::MatchedProbe(c, s, t)),
        1 => Just(Raw::Flush),
    ]
}

/// Gives every receive and message a fresh handle; a cancel names any receive posted so far.
fn to_ops(raw: &[Raw]) -> Vec<Op> {
    let mut ops = Vec::with_capacity(raw.len());
    let (mut recvs, mut msgs) = (0u64, 0u64);
    for r in raw {
        ops.push(match *r {
            Raw::Post(c, s, t) => {
                recvs += 1;
                Op::PostRecv { recv: RecvId(recvs), spec: RecvSpec::new(c, s, t) }
            }
            Raw::Arrive(c, s, t) => {
                msgs += 1;
                Op::Arrive { msg: MsgId(msgs), env: Envelope::new(c, s, t) }
            }
            Raw::Cancel(pick) => Op::Cancel { recv: RecvId(1 + (pick as u64) % recvs.max(1)) },
            Raw::Probe(c, s, t) => Op::Probe { spec: RecvSpec::new(c, s, t) },
            Raw::MatchedProbe(c, s, t) => Op::MatchedProbe { spec: RecvSpec::new(c, s, t) },
            Raw::Flush => Op::Flush,
        });
    }
    ops
}

/// Configurations chosen to exercise the hard paths: bins that collide, partner
/// extraction that happens early and often, a bounded partner table.
fn configurations() -> Vec<(String, MatcherKind, MatcherOptions)> {
    let mut out = Vec::new();
    for kind in MatcherKind::ALL {
        out.push((kind.name().to_string(), kind, MatcherOptions::default()));
    }
    let small = MatcherOptions {
        bins: Bins::Fixed(3),
        index_bins: 3,
        partner_threshold: 3,
        partner_metric: EdgeMetric::Median,
        partner_cap_factor: Some(1.0),
        world_size: 9,
    };
    for kind in [
        MatcherKind::HashBins,
        MatcherKind::FourIndex,
        MatcherKind::PartnerDynamic,
        MatcherKind::PartnerStatic,
    ] {
        out.push((format!("{} (small)", kind.name()), kind, small.clone()));
    }
    let fence = MatcherOptions {
        bins: Bins::Fixed(1),
        index_bins: 1,
        partner_threshold: 5,
        partner_metric: EdgeMetric::UpperFence { alpha: 0.5 },
        world_size: 4,
        ..MatcherOptions::default()
    };
    for kind in [MatcherKind::HashBins, MatcherKind::PartnerDynamic, MatcherKind::PartnerStatic] {
        out.push((format!("{} (one bin, upper fence)", kind.name()), kind, fence.clone()));
    }
    out
}

fn check_all(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut golden = Golden::new();
    let expected: Vec<_> = ops.iter().map(|op| golden.apply(op)).collect();
    for (label, kind, options) in configurations() {
        let mut m = kind.build(&options, Some(ops));
        for (i, (op, want)) in ops.iter().zip(&expected).enumerate() {
            let got = m.apply(op);
            prop_assert_eq!(got, *want, "{} differs from golden at op {}: {:?}", label, i, op);
        }
        let (g, s) = (golden.stats(), m.stats());
        prop_assert_eq!((s.prq_len, s.umq_len), (g.prq_len, g.umq_len), "{} queue lengths", label);
        prop_assert_eq!((s.max_prq_len, s.max_umq_len), (g.max_prq_len, g.max_umq_len), "{} maxima", label);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn short_mixed_streams(raw in prop::collection::vec(raw_op(3, 6, 5), 0..300)) {
        check_all(&to_ops(&raw))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Queues hundreds deep: a burst of receives (or messages) builds one queue, then the
    /// mixed stream drains it, so searches walk long lists and partner levels form.
    #[test]
    fn long_queues(
        burst in prop::collection::vec(raw_op(2, 40, 30), 200..1500),
        posts_first in any::<bool>(),
        rest in prop::collection::vec(raw_op(2, 40, 30), 200..1500),
    ) {
        let burst: Vec<Raw> = burst
            .into_iter()
            .filter(|r| matches!(r, Raw::Post(..) | Raw::Arrive(..)))
            .filter(|r| matches!(r, Raw::Post(..)) == posts_first)
            .collect();
        let raw: Vec<Raw> = burst.into_iter().chain(rest).collect();
        check_all(&to_ops(&raw))?;
    }
}

/// A sender that floods the queue must become a partner; its elements are then split
/// between the non-partner levels and its own list, and order must still hold.
#[test]
fn dynamic_partners_form_and_keep_order_under_flooding() {
    let mut raw = Vec::new();
    for i in 0..400u32 {
        raw.push(Raw::Arrive(0, if i % 4 == 0 { i % 13 } else { 5 }, i % 3));
    }
    for i in 0..400u32 {
        raw.push(Raw::Post(
            0,
            if i % 5 == 0 { None } else { Some(5) },
            if i % 2 == 0 { None } else { Some(i % 3) },
        ));
    }
    let ops = to_ops(&raw);
    let mut config = PartnerConfig::dynamic(16);
    config.world_size = 16;
    let mut partner = PartnerMatcher::new(&config);
    let mut golden = Golden::new();
    for op in &ops {
        assert_eq!(partner.apply(op), golden.apply(op), "{op:?}");
    }
    let shape = partner.shape();
    assert!(shape.umq_partners >= 1 && shape.umq_levels >= 2, "{shape:?}");
}
