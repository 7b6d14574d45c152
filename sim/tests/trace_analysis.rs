//! Queue statistics and replays on the real traces in `../shared/traces`.

use std::path::PathBuf;
use tagmatch_sim::traces::dumpi::trace::read_run;
use tagmatch_sim::traces::replay::pending::{pending_recv, BinHash, DepthStats};
use tagmatch_sim::traces::replay::{run_events, streams, RunEvents};
use tagmatch_sim::{Golden, Matcher, MatcherKind, MatcherOptions, Op, Outcome};

fn events(name: &str) -> RunEvents {
    let dir = std::env::var_os("TAGMATCH_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces"));
    let run = read_run(&dir.join(name), &|_, _| {}).unwrap_or_else(|e| panic!("{e}"));
    run_events(&run).unwrap()
}

fn pending_all(ev: &RunEvents, bins: usize) -> DepthStats {
    pending_hashed(ev, bins, BinHash::Own)
}

fn pending_hashed(ev: &RunEvents, bins: usize, hash: BinHash) -> DepthStats {
    let mut all = DepthStats::default();
    for (_, e) in &ev.ranks {
        all.merge(&pending_recv(e, bins, hash));
    }
    all
}

#[test]
fn amg_pending_receive_depth_matches_the_published_analyzer() {
    let ev = events("amg-n27");
    let one = pending_all(&ev, 1);
    assert_eq!(one.max_depth, 25, "the published analyzer reports 25 for AMG with one bin");
    assert_eq!(one.points, 1508, "one data point per Waitall");
    let mut last = one.max_depth;
    for bins in [16, 32, 64, 128, 256] {
        let s = pending_all(&ev, bins);
        assert!(s.max_depth <= last, "{bins} bins: {} deeper than with fewer bins ({last})", s.max_depth);
        last = s.max_depth;
    }
    assert!(last <= 2);
}

#[test]
fn amg_bin_counts_with_the_analyzers_hash_reproduce_its_figures() {
    let ev = events("amg-n27");
    let depths: Vec<u64> = [1, 16, 32, 64, 128, 256]
        .iter()
        .map(|&b| pending_hashed(&ev, b, BinHash::Analyzer).max_depth)
        .collect();
    assert_eq!(depths, [25, 3, 2, 1, 1, 0], "the published analyzer's amg-n27 figures");
}

#[test]
fn amg_full_matching_pairs_every_message_after_clock_correction() {
    let ev = events("amg-n27");
    let (streams, corrected) = streams(&ev, 1e-6).unwrap();
    assert!(corrected, "the AMG clocks (three ranks 40 ms behind) are reconcilable");
    let mut matched = 0;
    for s in &streams {
        assert_eq!(s.sends_to_untraced, 0);
        let mut g = Golden::new();
        matched += s.ops.iter().filter(|op| matches!(g.apply(op), Outcome::Matched { .. })).count();
        let st = g.stats();
        assert_eq!((st.prq_len, st.umq_len), (0, 0), "rank {}: everything posted is received", s.rank);
        // With skew corrected no receive waits for long: the pending depth bounds the PRQ.
        assert!(st.max_prq_len <= 26, "rank {}: PRQ reached {}", s.rank, st.max_prq_len);
    }
    assert_eq!(matched, 15524, "every Isend meets its Irecv");
}

#[test]
fn every_matcher_replays_amg_exactly_as_the_golden_model() {
    let ev = events("amg-n27");
    let (streams, _) = streams(&ev, 1e-6).unwrap();
    for kind in MatcherKind::ALL {
        for s in streams.iter().take(6) {
            let mut g = Golden::new();
            let mut m = kind.build(&MatcherOptions::default(), Some(&s.ops));
            for op in &s.ops {
                assert_eq!(m.apply(op), g.apply(op), "{} on rank {}: {op:?}", kind.name(), s.rank);
            }
        }
    }
}

#[test]
fn collectives_only_trace_reports_no_point_to_point_traffic() {
    let ev = events("bigfft");
    assert_eq!(pending_all(&ev, 1).points, 0);
    let (streams, _) = streams(&ev, 1e-6).unwrap();
    assert!(streams.iter().all(|s| s.ops.is_empty()));
}

#[test]
fn one_rank_of_a_larger_job_counts_messages_to_untraced_ranks() {
    let ev = events("multigrid");
    assert_eq!(ev.world_size, 125, "MPI_Comm_size of the world was recorded");
    let (streams, _) = streams(&ev, 1e-6).unwrap();
    assert_eq!(streams[0].sends_to_untraced, 1144);
    let posts = streams[0].ops.iter().filter(|op| matches!(op, Op::PostRecv { .. })).count();
    assert_eq!(posts, 1144);
}

#[test]
fn text_form_gives_the_same_statistics_as_the_binary_form() {
    let bin = events("multigrid/MultiGrid.bin");
    let txt = events("multigrid/MultiGrid.txt");
    for bins in [1, 16, 32, 64, 128, 256] {
        assert_eq!(pending_all(&bin, bins), pending_all(&txt, bins), "{bins} bins");
    }
    assert_eq!(pending_all(&txt, 1).max_depth, 18);
}

#[test]
fn every_shared_trace_replays_the_same_way_on_every_run_and_through_the_engine() {
    use tagmatch_sim::cycle::two_level::{EngineShape, TwoLevelModel};
    use tagmatch_sim::host::fallback::FallbackDriver;
    for name in ["amg-n27", "crystalrouter", "multigrid", "bigfft", "sst-testtrace"] {
        let first = format!("{:?}", streams(&events(name), 1e-6).unwrap());
        for _ in 0..19 {
            assert_eq!(format!("{:?}", streams(&events(name), 1e-6).unwrap()), first, "{name}");
        }
        // A small engine, so the bigger traces overflow it into the host driver.
        let cfg = EngineShape::model(8, 2, 15).unwrap();
        for s in &streams(&events(name), 1e-6).unwrap().0 {
            let mut driver = FallbackDriver::new(TwoLevelModel::with_config(cfg));
            let mut g = Golden::new();
            for op in &s.ops {
                assert_eq!(driver.apply(op).unwrap(), g.apply(op), "{name} rank {}: {op}", s.rank);
            }
        }
    }
}
