//! Communicators rebuilt across ranks, checked by traffic: synthetic traces whose ranks
//! exchange rings of messages on dups, nested splits, group-built and inter-communicators.
//! A ring only closes (every receive matched, no message left) when every member list and
//! rank translation is right.

use tagmatch_sim::traces::dumpi::binary::BinaryTrace;
use tagmatch_sim::traces::dumpi::trace::Run;
use tagmatch_sim::traces::dumpi::{calls, Arg, Record};
use tagmatch_sim::traces::replay::{run_events, streams};
use tagmatch_sim::{Golden, Matcher, Outcome};

const WORLD: i64 = 2;
const NULL: i64 = 1;
const WORLD_SIZE: u32 = 8;

fn record(name: &str, args: Vec<Arg>) -> Record {
    let label = calls::label_of(name).unwrap_or_else(|| panic!("{name} is not a DUMPI call"));
    Record { label, thread: 0, cpu: None, wall: None, args }
}

fn ints(v: &[i64]) -> Vec<Arg> {
    v.iter().map(|&x| Arg::Int(x)).collect()
}

/// One rank's trace under construction: its records and its open requests.
struct RankTrace {
    rank: u32,
    records: Vec<Record>,
    requests: Vec<i64>,
}

impl RankTrace {
    fn call(&mut self, name: &str, args: Vec<Arg>) {
        self.records.push(record(name, args));
    }

    /// A ring on communicator `handle`: send to `to`, receive from `from` (ranks as the
    /// communicator names them), then wait.
    fn ring(&mut self, handle: i64, to: i64, from: i64, tag: i64) {
        let req = 1000 + self.records.len() as i64;
        self.call("MPI_Irecv", ints(&[1, 1, from, tag, handle, req]));
        self.call("MPI_Isend", ints(&[1, 1, to, tag, handle, req + 1]));
        self.requests.extend([req, req + 1]);
        let reqs = std::mem::take(&mut self.requests);
        self.call("MPI_Waitall", vec![Arg::Int(reqs.len() as i64), Arg::Ints(reqs), Arg::Statuses(None)]);
    }
}

/// The traffic a rank's handles carry: (handle, size, my rank) for each intra-communicator.
fn ring_on(t: &mut RankTrace, handle: i64, size: i64, me: i64, tag: i64) {
    t.ring(handle, (me + 1) % size, (me + size - 1) % size, tag);
}

/// Every rank's trace: the communicators are built with per-rank handle numbers, so the
/// same communicator has different handles on different ranks.
fn build() -> Vec<RankTrace> {
    let mut out = Vec::new();
    for rank in 0..WORLD_SIZE as i64 {
        let mut t = RankTrace { rank: rank as u32, records: Vec::new(), requests: Vec::new() };
        let h = |k: i64| 10 + k * 10 + rank % 3; // handles differ across ranks
                                                 // Split by parity, keys reversed: evens are [6, 4, 2, 0], odds [7, 5, 3, 1].
        t.call("MPI_Comm_split", ints(&[WORLD, rank % 2, -rank, h(0)]));
        let parity_rank = 3 - rank / 2;
        // A dup of the split (failed before: the dup copied members not yet known).
        t.call("MPI_Comm_dup", ints(&[h(0), h(1)]));
        // A split of the dup: pairs by parity_rank / 2, key keeps order.
        t.call("MPI_Comm_split", ints(&[h(1), parity_rank / 2, 0, h(2)]));
        // Six nested splits of the world, each reordering by a different key.
        let mut parent = WORLD;
        let mut order: Vec<i64> = (0..WORLD_SIZE as i64).collect();
        for level in 0..6 {
            let key = |r: i64| (r * (level + 3)) % 8 + level;
            t.call("MPI_Comm_split", ints(&[parent, 0, key(rank), h(3 + level)]));
            // Stable: ties keep the parent's order, as MPI orders them.
            order.sort_by_key(|&r| key(r));
            parent = h(3 + level);
        }
        let nested_rank = order.iter().position(|&r| r == rank).unwrap() as i64;
        // Groups: the world's group, odd ranks by range exclusion, then a reordered
        // inclusion; the communicator holds [7, 5, 3, 1].
        t.call("MPI_Comm_group", ints(&[WORLD, 100]));
        t.call(
            "MPI_Group_range_excl",
            vec![Arg::Int(100), Arg::Int(1), Arg::Rows(vec![vec![0, 6, 2]]), Arg::Int(101)],
        );
        t.call(
            "MPI_Group_incl",
            vec![Arg::Int(101), Arg::Int(4), Arg::Ints(vec![3, 2, 1, 0]), Arg::Int(102)],
        );
        // A union with the empty-difference group leaves it as is.
        t.call("MPI_Group_difference", ints(&[101, 101, 103]));
        t.call("MPI_Group_union", ints(&[102, 103, 104]));
        let created = if rank % 2 == 1 { h(9) } else { NULL };
        t.call("MPI_Comm_create", ints(&[WORLD, 104, created]));
        t.call("MPI_Group_free", ints(&[100]));
        // Inter-communicator between the parity halves: local leaders are parity rank 0
        // (world 6 and 7), the peer is the world.
        let remote_leader = if rank % 2 == 0 { 7 } else { 6 };
        t.call("MPI_Intercomm_create", ints(&[h(0), 0, WORLD, remote_leader, 99, h(10)]));
        // Merged with the odd half high: [6, 4, 2, 0, 7, 5, 3, 1].
        t.call("MPI_Intercomm_merge", ints(&[h(10), rank % 2, h(11)]));
        let merged_rank = parity_rank + 4 * (rank % 2);
        // A dup of the merged communicator: both halves' records must become one.
        t.call("MPI_Comm_dup", ints(&[h(11), h(12)]));

        // Traffic on each of them.
        ring_on(&mut t, h(0), 4, parity_rank, 1);
        ring_on(&mut t, h(1), 4, parity_rank, 2);
        ring_on(&mut t, h(2), 2, parity_rank % 2, 3);
        ring_on(&mut t, h(8), 8, nested_rank, 4);
        if rank % 2 == 1 {
            ring_on(&mut t, h(9), 4, parity_rank, 5);
        }
        // Across the inter-communicator: to and from the same rank of the other half.
        t.ring(h(10), parity_rank, parity_rank, 6);
        ring_on(&mut t, h(11), 8, merged_rank, 7);
        ring_on(&mut t, h(12), 8, merged_rank, 8);
        ring_on(&mut t, 3, 1, 0, 9); // MPI_COMM_SELF: to itself
        for (k, handle) in (0..=12).map(h).enumerate() {
            if k != 9 || rank % 2 == 1 {
                t.call("MPI_Comm_free", ints(&[handle]));
            }
        }
        out.push(t);
    }
    out
}

fn run_of(traces: &[RankTrace], keep: impl Fn(u32) -> bool) -> Run {
    Run {
        meta: Default::default(),
        ranks: traces
            .iter()
            .filter(|t| keep(t.rank))
            .map(|t| (t.rank, BinaryTrace { records: t.records.clone(), ..Default::default() }))
            .collect(),
    }
}

/// Replays a run; returns (messages matched, what each rank's golden model did).
fn replay(run: &Run) -> (usize, String) {
    let ev = run_events(run).unwrap_or_else(|e| panic!("{e}"));
    let (streams, _) = streams(&ev, 1e-6).unwrap_or_else(|e| panic!("{e}"));
    let mut matched = 0;
    let mut log = String::new();
    for s in &streams {
        let mut g = Golden::new();
        for op in &s.ops {
            let o = g.apply(op);
            matched += matches!(o, Outcome::Matched { .. }) as usize;
            log.push_str(&format!("{} {op:?} {o:?}\n", s.rank));
        }
        let st = g.stats();
        assert_eq!((st.prq_len, st.umq_len), (0, 0), "rank {}: a ring did not close:\n{log}", s.rank);
        assert_eq!((s.sends_to_untraced, s.sends_unroutable), (0, 0), "rank {}", s.rank);
    }
    (matched, log)
}

#[test]
fn every_ring_closes_on_dups_nested_splits_groups_and_intercommunicators() {
    let traces = build();
    let (matched, _) = replay(&run_of(&traces, |_| true));
    // Per rank: 7 rings on every rank, one on the odd half, one on itself.
    assert_eq!(matched, 8 * 8 + 4);
}

#[test]
fn the_same_trace_gives_the_same_streams_on_every_run() {
    let traces = build();
    let run = run_of(&traces, |_| true);
    let (_, first) = replay(&run);
    for _ in 0..20 {
        assert_eq!(replay(&run).1, first);
    }
    // Ranks read in another order make the same communicators.
    let mut reversed = run.clone();
    reversed.ranks.reverse();
    let ev = run_events(&reversed).unwrap();
    let (streams, _) = streams(&ev, 1e-6).unwrap();
    for s in &streams {
        let mut g = Golden::new();
        s.ops.iter().for_each(|op| {
            g.apply(op);
        });
        assert_eq!((g.stats().prq_len, g.stats().umq_len), (0, 0), "rank {} read in reverse order", s.rank);
    }
}

#[test]
fn one_rank_of_a_larger_job_drops_sends_on_communicators_it_cannot_rebuild() {
    let traces = build();
    // The .meta file gives the job's size.
    let mut run = run_of(&traces, |r| r == 5);
    run.meta.insert("numprocs".into(), WORLD_SIZE.to_string());
    let ev = run_events(&run).unwrap();
    let (streams, _) = streams(&ev, 1e-6).unwrap();
    let s = &streams[0];
    // The parity split and everything made from it need the other ranks' records; the
    // world's nested splits too. Created-by-group and the world-sized ones do not.
    assert!(s.sends_unroutable >= 4, "{}", s.sends_unroutable);
    assert!(s.sends_to_untraced > 0);
    let comm = s.unroutable_comm.unwrap();
    assert_eq!(ev.comms.unknown_why(comm), Some("not every rank of its parent is traced"));
    assert!(ev.comms.describe(comm).contains("MPI_Comm_split"), "{}", ev.comms.describe(comm));
}

#[test]
fn a_send_outside_its_communicator_names_the_call_and_the_handle() {
    let mut traces = build();
    // On the dup of the 4-rank parity split, before it is freed.
    let at = traces[0].records.iter().position(|r| r.name() == "MPI_Comm_free").unwrap();
    traces[0].records.insert(at, record("MPI_Isend", ints(&[1, 1, 4, 0, 20, 1])));
    let ev = run_events(&run_of(&traces, |_| true)).unwrap();
    let err = streams(&ev, 1e-6).unwrap_err();
    assert!(err.contains("rank 0, record") && err.contains("MPI_Isend"), "{err}");
    assert!(err.contains("rank 4 is outside communicator handle"), "{err}");
    assert!(!err.contains('{'), "no Rust structures in messages: {err}");
}
