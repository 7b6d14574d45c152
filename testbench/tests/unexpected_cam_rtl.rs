//! The thread array's UMQ CAM in Verilator against a reference queue, cycle by cycle:
//! runs of inserts on consecutive cycles (as a block's tail makes them, never past the
//! depth), registered searches with and without wildcards, removals of the answer from
//! anywhere in the queue, so that free slots lie between held ones, clears, a full queue. Every answer must
//! be the OLDEST matching message, and the count exact. A failing case is re-run with
//! tracing and its waveform kept.

use proptest::prelude::*;
use tagmatch_hdl::optimistic::unexpected_cam::{
    unexpected_cam_verilog, MESSAGE_FIELDS, UNEXPECTED_CAM_PORTS,
};
use tagmatch_testbench::verilator::{ports_from, BuildSpec, Model, Port};

/// Not a power of two, so the prefix trees have a ragged top.
const DEPTH: usize = 13;
/// The most messages a tail inserts (a block of four lanes).
const RUN: usize = 4;

fn ports() -> Vec<Port> {
    ports_from(&UNEXPECTED_CAM_PORTS)
}

fn spec(trace: bool) -> BuildSpec {
    BuildSpec {
        name: format!("unexpected-cam{DEPTH}"),
        verilog: unexpected_cam_verilog(DEPTH, MESSAGE_FIELDS),
        top: "top".into(),
        clock: "clock".into(),
        ports: ports(),
        trace,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Message {
    comm: u64,
    src: u64,
    tag: u64,
    handle: u64,
}

#[derive(Clone, Copy, Debug)]
struct Search {
    comm: u64,
    src: u64,
    tag: u64,
    src_any: bool,
    tag_any: bool,
}

#[derive(Clone, Debug)]
enum Step {
    /// Search, and remove the answer when `take`.
    Search {
        search: Search,
        take: bool,
    },
    /// Inserts on consecutive cycles.
    Insert(Vec<Message>),
    Clear,
}

fn message() -> impl Strategy<Value = Message> {
    (0..2u64, 0..4u64, 0..4u64, any::<u32>()).prop_map(|(comm, src, tag, handle)| Message {
        comm,
        src,
        tag,
        handle: handle as u64,
    })
}

fn step() -> impl Strategy<Value = Step> {
    let search = (0..2u64, 0..4u64, 0..4u64, prop::bool::weighted(0.2), prop::bool::weighted(0.2))
        .prop_map(|(comm, src, tag, src_any, tag_any)| Search { comm, src, tag, src_any, tag_any });
    prop_oneof![
        6 => (search, prop::bool::weighted(0.7)).prop_map(|(search, take)| Step::Search { search, take }),
        3 => prop::collection::vec(message(), 1..=RUN).prop_map(Step::Insert),
        1 => Just(Step::Clear),
    ]
}

/// Runs `steps`; the first disagreement is an error naming the step and the cycle.
fn run(model: &mut Model, steps: &[Step]) -> Result<(), String> {
    let port = |m: &Model, n: &str| m.port(n).expect("a port of the queue");
    let set = |m: &mut Model, n: &str, v: u64| {
        let id = port(m, n);
        m.set(id, v)
    };
    // Oldest first.
    let mut reference: Vec<Message> = Vec::new();
    let mut cycle = 0u64;
    let mut tick = |m: &mut Model, n: u64| {
        m.tick(n);
        cycle += n;
        cycle
    };
    for (at, s) in steps.iter().enumerate() {
        match s {
            Step::Search { search, take } => {
                set(model, "search_comm", search.comm);
                set(model, "search_src", search.src);
                set(model, "search_tag", search.tag);
                set(model, "search_src_any", search.src_any as u64);
                set(model, "search_tag_any", search.tag_any as u64);
                let now = tick(model, 1);
                let want = reference.iter().position(|e| {
                    e.comm == search.comm
                        && (search.src_any || e.src == search.src)
                        && (search.tag_any || e.tag == search.tag)
                });
                let hit = model.get(port(model, "hit")) == 1;
                if hit != want.is_some() {
                    return Err(format!("step {at}, cycle {now}: hit {hit} for {search:?} in {reference:?}"));
                }
                if let Some(i) = want {
                    let got = (
                        model.get(port(model, "hit_handle")),
                        model.get(port(model, "hit_src")),
                        model.get(port(model, "hit_tag")),
                    );
                    let e = reference[i];
                    if got != (e.handle, e.src, e.tag) {
                        return Err(format!(
                            "step {at}, cycle {now}: answer {got:?}, expected the oldest match {e:?} in {reference:?}"
                        ));
                    }
                    if *take {
                        set(model, "remove_first", 1);
                        tick(model, 1);
                        set(model, "remove_first", 0);
                        reference.remove(i);
                    }
                }
            }
            Step::Insert(run) => {
                // A tail inserts what fits.
                let taken = run.len().min(DEPTH - reference.len());
                for e in run.iter().take(taken) {
                    set(model, "insert", 1);
                    set(model, "insert_comm", e.comm);
                    set(model, "insert_src", e.src);
                    set(model, "insert_tag", e.tag);
                    set(model, "insert_handle", e.handle);
                    tick(model, 1);
                    reference.push(*e);
                }
                set(model, "insert", 0);
            }
            Step::Clear => {
                set(model, "clear", 1);
                tick(model, 1);
                set(model, "clear", 0);
                reference.clear();
            }
        }
        model.eval();
        let count = model.get(port(model, "count")) as usize;
        if count != reference.len() {
            return Err(format!("step {at}: count {count}, expected {}", reference.len()));
        }
    }
    Ok(())
}

fn check(steps: &[Step]) -> Result<(), TestCaseError> {
    let (mut model, _) = Model::build(&spec(false)).map_err(TestCaseError::fail)?;
    if let Err(e) = run(&mut model, steps) {
        // Keep a waveform of the failing run.
        let (mut traced, report) = Model::build(&spec(true)).map_err(TestCaseError::fail)?;
        let vcd = report.dir.join("failure.vcd");
        traced.trace_to(&vcd).map_err(TestCaseError::fail)?;
        let _ = run(&mut traced, steps);
        traced.close_trace();
        return Err(TestCaseError::fail(format!("{e}\nwaveform: {}", vcd.display())));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn queue_answers_the_oldest_match(steps in prop::collection::vec(step(), 1..400)) {
        check(&steps)?;
    }
}

/// Fill the queue, take messages from its middle, refill: the new messages land in the
/// freed slots, below older ones, and must still answer after them.
#[test]
fn refilled_slots_are_younger_than_the_slots_above_them() {
    let m = |comm, handle| Message { comm, src: 0, tag: 0, handle };
    let any = |comm| Search { comm, src: 0, tag: 0, src_any: true, tag_any: true };
    let mut steps: Vec<Step> =
        (0..4).map(|b| Step::Insert((0..4).map(|j| m(0, b * 4 + j)).collect())).collect();
    steps.extend((0..6).map(|_| Step::Search { search: any(0), take: true }));
    steps.push(Step::Insert(vec![m(1, 100), m(0, 101), m(1, 102)]));
    steps.extend((0..4).map(|_| Step::Search { search: any(1), take: true }));
    steps.extend((0..12).map(|_| Step::Search { search: any(0), take: true }));
    check(&steps).unwrap();
}

#[test]
fn a_traced_build_writes_a_waveform() {
    let (mut m, report) = Model::build(&spec(true)).unwrap();
    let vcd = report.dir.join("smoke.vcd");
    m.trace_to(&vcd).unwrap();
    let insert = m.port("insert").unwrap();
    m.set(insert, 1);
    m.tick(3);
    m.set(insert, 0);
    m.tick(1);
    m.close_trace();
    assert_eq!(m.get(m.port("count").unwrap()), 3);
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$enddefinitions") && text.contains("insert"));
}
