//! `tagmatch record` against Open MPI: the real-MPI oracle's scenarios run under the
//! recorder, and the trace, replayed through the golden model, must pair every receive
//! with the message Open MPI gave it in that same run.
//!
//! Needs `mpicc.openmpi` and `mpirun.openmpi` (`scripts/setup.sh` installs them); it fails
//! rather than skips without them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use tagmatch_sim::traces::dumpi::trace::read_run;
use tagmatch_sim::traces::replay::events::Event;
use tagmatch_sim::traces::replay::{run_events, streams};
use tagmatch_sim::workload::oracle::{parse_oracle_output, parse_scenarios, Step};
use tagmatch_sim::{Golden, Matcher, Op, Outcome};

fn oracle_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/oracle")
}

fn build_oracle(dir: &Path) -> PathBuf {
    let exe = dir.join("oracle");
    let status = Command::new("mpicc.openmpi")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(oracle_dir().join("oracle.c"))
        .status()
        .expect("mpicc.openmpi runs (apt-get install openmpi-bin libopenmpi-dev)");
    assert!(status.success(), "the oracle builds");
    exe
}

/// Communicator numbers the recorder gives the oracle's communicators on rank 0: the
/// control communicator is the first it creates (4), the four data communicators the next.
const DATA_COMMS: std::ops::RangeInclusive<i64> = 5..=8;

/// Per scenario: the facts "recv R M" of the oracle's receives that got a message, and the
/// messages that other receives (the matched probes' and the final drain's) took.
type Pairing = BTreeMap<String, (BTreeSet<String>, BTreeSet<u32>)>;

fn oracle_pairing(stdout: &str) -> Pairing {
    let words = ["scenario", "recv", "cancel", "probe", "mprobe", "left", "end"];
    let lines: Vec<&str> =
        stdout.lines().filter(|l| l.split_whitespace().next().is_some_and(|w| words.contains(&w))).collect();
    let facts = parse_oracle_output(&lines.join("\n")).expect("the oracle's output parses");
    facts
        .into_iter()
        .map(|(name, set)| {
            let received: BTreeSet<String> =
                set.iter().filter(|f| f.starts_with("recv ") && !f.ends_with(" none")).cloned().collect();
            let others: BTreeSet<u32> = set
                .iter()
                .filter_map(|f| {
                    let w: Vec<&str> = f.split_whitespace().collect();
                    match w.as_slice() {
                        ["left", m] | ["mprobe", _, m] => m.parse().ok(),
                        _ => None,
                    }
                })
                .collect();
            (name, (received, others))
        })
        .collect()
}

fn replay_pairing(trace: &Path) -> Pairing {
    let scenarios =
        parse_scenarios(&std::fs::read_to_string(oracle_dir().join("scenarios.txt")).unwrap()).unwrap();
    // The script's receives and messages, in the order rank 0 posts and gets them.
    let mut posts = Vec::new();
    let mut sends = Vec::new();
    for sc in &scenarios {
        for step in &sc.steps {
            match step {
                Step::Post { recv, .. } => posts.push((sc.name.clone(), *recv)),
                Step::Send { msg, .. } => sends.push((sc.name.clone(), *msg)),
                _ => {}
            }
        }
    }
    let run = read_run(trace, &|_, _| {}).expect("the recorded trace reads");
    let events = run_events(&run).expect("every communicator resolves");
    let (_, rank0) = events.ranks.iter().find(|(r, _)| *r == 0).expect("rank 0 is traced");
    // Rank 0's posts, in order: a script receive (MPI_Irecv on a data communicator) or
    // another receive on a data communicator, or a control receive.
    #[derive(Clone, Copy, PartialEq)]
    enum Kind {
        Script,
        Other,
        Control,
    }
    let mut data_comms = BTreeSet::new();
    let post_kinds: Vec<Kind> = rank0
        .iter()
        .filter_map(|t| match &t.event {
            Event::Post { request, handle, comm, .. } if DATA_COMMS.contains(handle) => {
                data_comms.insert(*comm);
                Some(if request.is_some() { Kind::Script } else { Kind::Other })
            }
            Event::Post { .. } => Some(Kind::Control),
            _ => None,
        })
        .collect();
    // Latency 0: a data message is sent before its acknowledgement, so it arrives before
    // rank 0's next command, as it did in the run.
    let (streams, _) = streams(&events, 0.0).expect("the run's streams rebuild");
    let stream = streams.iter().find(|s| s.rank == 0).unwrap();
    let mut script_posts = posts.iter();
    let mut script_sends = sends.iter();
    let mut kind_of_post = post_kinds.iter();
    let mut recv_label: HashMap<u64, Option<(String, u32)>> = HashMap::new();
    let mut msg_label: HashMap<u64, (String, u32)> = HashMap::new();
    let mut golden = Golden::new();
    let mut out: Pairing = scenarios.iter().map(|s| (s.name.clone(), Default::default())).collect();
    for op in &stream.ops {
        match op {
            Op::PostRecv { recv, .. } => {
                let kind = *kind_of_post.next().expect("as many posts in the stream as in the events");
                match kind {
                    Kind::Script => {
                        recv_label.insert(recv.0, Some(script_posts.next().expect("a script post").clone()))
                    }
                    Kind::Other => recv_label.insert(recv.0, None),
                    Kind::Control => None,
                };
            }
            Op::Arrive { msg, env } if data_comms.contains(&env.comm) => {
                msg_label.insert(msg.0, script_sends.next().expect("a script message").clone());
            }
            _ => {}
        }
        if let Outcome::Matched { recv, msg } = golden.apply(op) {
            let (Some(label), Some((scenario, m))) = (recv_label.get(&recv.0), msg_label.get(&msg.0)) else {
                continue;
            };
            let entry = out.get_mut(scenario).unwrap();
            match label {
                Some((_, r)) => {
                    entry.0.insert(format!("recv {r} {m}"));
                }
                None => {
                    entry.1.insert(*m);
                }
            }
        }
    }
    assert!(script_posts.next().is_none(), "every script receive is in the trace");
    assert!(script_sends.next().is_none(), "every script message is in the trace");
    out
}

#[test]
fn recorded_oracle_replays_to_open_mpis_pairing() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("record-oracle");
    std::fs::create_dir_all(&dir).unwrap();
    let oracle = build_oracle(&dir);
    let out = dir.join("trace");
    let run = Command::new(env!("CARGO_BIN_EXE_tagmatch"))
        .args(["record", "--out"])
        .arg(&out)
        .args(["--prefix", "oracle", "--cam-depth", "8", "--list-capacity", "256", "--format", "json", "--"])
        .args(["mpirun.openmpi", "-np", "4", "--oversubscribe", "--mca", "btl", "self,vader"])
        .args(["--mca", "btl_vader_fbox_threshold", "4294967295"])
        .arg(&oracle)
        .arg(oracle_dir().join("scenarios.txt"))
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "record failed: {}\n{stdout}", String::from_utf8_lossy(&run.stderr));
    for rank in 0..4 {
        assert!(out.join(format!("oracle-{rank:04}.bin")).is_file(), "rank {rank}'s trace is written");
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("oracle.report.json")).unwrap()).unwrap();
    let engine = report.as_array().unwrap().last().unwrap();
    assert_eq!(engine["hw_share"], 1.0, "the oracle's queues fit a CAM of 8: {engine}");
    assert!(engine["cycles"].as_u64().unwrap() > 0);

    let open_mpi = oracle_pairing(&stdout);
    let replayed = replay_pairing(&out.join("oracle.meta"));
    assert_eq!(open_mpi.keys().collect::<Vec<_>>(), replayed.keys().collect::<Vec<_>>());
    let paired: usize = open_mpi.values().map(|(r, o)| r.len() + o.len()).sum();
    assert!(paired >= 40, "the scenarios pair at least 40 messages, found {paired}");
    for (name, want) in &open_mpi {
        assert_eq!(&replayed[name], want, "scenario {name}: the replay pairs differently from Open MPI");
    }
}

#[test]
fn a_failing_program_leaves_a_readable_trace_and_its_status() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("record-abort");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("abort.c");
    // Rank 0 posts a receive, sends to itself, talks to MPI_PROC_NULL, then exits with
    // status 3 before MPI_Finalize.
    std::fs::write(
        &source,
        "#include <mpi.h>\n#include <stdlib.h>\nint main(int c, char **v) {\n  MPI_Init(&c, &v);\n  int x = 1, y;\n  \
         MPI_Request r;\n  MPI_Irecv(&y, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);\n  \
         MPI_Send(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);\n  MPI_Wait(&r, MPI_STATUS_IGNORE);\n  \
         MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD);\n  \
         MPI_Recv(&y, 1, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n  exit(3);\n}\n",
    )
    .unwrap();
    let exe = dir.join("abort");
    assert!(Command::new("mpicc.openmpi").arg("-o").arg(&exe).arg(&source).status().unwrap().success());
    let out = dir.join("trace");
    let run = Command::new(env!("CARGO_BIN_EXE_tagmatch"))
        .args(["record", "--out"])
        .arg(&out)
        .args(["--format", "json", "--"])
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "record exits with the program's status");
    let trace = read_run(&out.join("trace-0000.bin"), &|_, _| {}).expect("the trace of a failed run reads");
    let names: Vec<&str> = trace.ranks[0].1.records.iter().map(|r| r.name()).collect();
    assert_eq!(names, ["MPI_Init", "MPI_Irecv", "MPI_Send", "MPI_Wait", "MPI_Send", "MPI_Recv"]);
    // The calls on MPI_PROC_NULL carry no message: the replay leaves them out.
    let events = run_events(&trace).expect("the trace's events");
    let kinds: Vec<&str> = events.ranks[0]
        .1
        .iter()
        .map(|t| match t.event {
            Event::Post { .. } => "post",
            Event::Send { .. } => "send",
            Event::Complete { .. } => "complete",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["post", "send", "complete"]);
}

#[test]
fn lammps_records_and_replays_through_the_engine() {
    // A program nobody here wrote (Debian's LAMMPS, its bundled melt example, 2 ranks).
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("record-lammps");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy("/usr/share/lammps/examples/melt/in.melt", dir.join("in.melt"))
        .expect("LAMMPS's examples are installed (scripts/setup.sh: lammps-examples)");
    let run = Command::new(env!("CARGO_BIN_EXE_tagmatch"))
        .current_dir(&dir)
        .args(["record", "--out", "trace", "--prefix", "melt", "--format", "json", "--"])
        .args(["mpirun.openmpi", "-np", "2", "--oversubscribe", "lmp", "-in", "in.melt", "-log", "none"])
        .args(["-screen", "none"])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .unwrap();
    assert!(run.status.success(), "record failed: {}", String::from_utf8_lossy(&run.stderr));
    let trace = read_run(&dir.join("trace/melt.meta"), &|_, _| {}).expect("the trace reads in full");
    assert_eq!(trace.ranks.len(), 2);
    let events = run_events(&trace).expect("every communicator resolves");
    let (streams, _) = streams(&events, 1e-6).unwrap();
    let mut golden = Golden::new();
    let matches =
        streams[0].ops.iter().filter(|op| matches!(golden.apply(op), Outcome::Matched { .. })).count();
    assert!(matches > 1000, "rank 0 of the melt matches thousands of messages, found {matches}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("trace/melt.report.json")).unwrap()).unwrap();
    let engine = report.as_array().unwrap().last().unwrap();
    assert!(engine["matches"].as_u64().unwrap() as usize > matches, "{engine}");
    assert!(engine["cycles"].as_u64().unwrap() > 0, "{engine}");
}

#[test]
fn every_communicator_and_group_constructor_replays() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("record-cart");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("cart.c");
    // Two ranks: a periodic ring as a Cartesian communicator, a node-local communicator, a
    // vector collective (counted, not stored), then communicators from groups, an
    // intercommunicator and its merge; a message on each.
    std::fs::write(
        &source,
        r#"#include <mpi.h>
int main(int c, char **v) {
  MPI_Init(&c, &v);
  int dims[1] = {2}, periods[1] = {1}, rank, left, right, x = 1, y, counts[2] = {1, 1}, displs[2] = {0, 1}, all[2];
  MPI_Comm cart, node;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_shift(cart, 0, 1, &left, &right);
  MPI_Sendrecv(&x, 1, MPI_INT, right, 5, &y, 1, MPI_INT, left, 5, cart, MPI_STATUS_IGNORE);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Sendrecv(&x, 1, MPI_INT, 1 - rank, 6, &y, 1, MPI_INT, 1 - rank, 6, node, MPI_STATUS_IGNORE);
  MPI_Allgatherv(&x, 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
  MPI_Sendrecv_replace(&x, 1, MPI_INT, 1 - rank, 7, 1 - rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Group world, both, none;
  MPI_Comm pair, half, inter, merged;
  int range[1][3] = {{0, 1, 1}}, nobody[1] = {0};
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_range_incl(world, 1, range, &both);
  MPI_Group_excl(both, 0, nobody, &none);
  MPI_Comm_create(MPI_COMM_WORLD, none, &pair);
  MPI_Sendrecv(&x, 1, MPI_INT, 1 - rank, 8, &y, 1, MPI_INT, 1 - rank, 8, pair, MPI_STATUS_IGNORE);
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank, 9, &inter);
  MPI_Sendrecv(&x, 1, MPI_INT, 0, 10, &y, 1, MPI_INT, 0, 10, inter, MPI_STATUS_IGNORE);
  MPI_Intercomm_merge(inter, rank, &merged);
  MPI_Sendrecv(&x, 1, MPI_INT, 1 - rank, 11, &y, 1, MPI_INT, 1 - rank, 11, merged, MPI_STATUS_IGNORE);
  MPI_Group_free(&world);
  MPI_Group_free(&both);
  MPI_Group_free(&none);
  MPI_Comm_free(&pair);
  MPI_Comm_free(&merged);
  MPI_Comm_disconnect(&inter);
  MPI_Finalize();
  return 0;
}
"#,
    )
    .unwrap();
    let exe = dir.join("cart");
    assert!(Command::new("mpicc.openmpi").arg("-o").arg(&exe).arg(&source).status().unwrap().success());
    let run = Command::new(env!("CARGO_BIN_EXE_tagmatch"))
        .args(["record", "--out"])
        .arg(dir.join("trace"))
        .args(["--format", "json", "--", "mpirun.openmpi", "-np", "2", "--oversubscribe"])
        .arg(&exe)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .unwrap();
    assert!(run.status.success(), "record failed: {}", String::from_utf8_lossy(&run.stderr));
    let meta = std::fs::read_to_string(dir.join("trace/trace.meta")).unwrap();
    for line in
        ["substituted-MPI_Cart_create=1", "substituted-MPI_Comm_split_type=1", "not-stored-MPI_Allgatherv=1"]
    {
        assert!(meta.lines().any(|l| l == line), "{line} in the .meta file:\n{meta}");
    }
    let trace = read_run(&dir.join("trace/trace.meta"), &|_, _| {}).unwrap();
    let events = run_events(&trace).expect("every communicator resolves");
    let (streams, _) = streams(&events, 1e-6).unwrap();
    for s in &streams {
        assert_eq!(s.sends_unroutable, 0, "rank {}: every send is routed", s.rank);
        let mut golden = Golden::new();
        let matches = s.ops.iter().filter(|op| matches!(golden.apply(op), Outcome::Matched { .. })).count();
        assert_eq!(
            matches, 6,
            "rank {}: a message on each of the ring, the node communicator, the world (replace), \
             a group's communicator, an intercommunicator and its merge",
            s.rank
        );
    }
}
