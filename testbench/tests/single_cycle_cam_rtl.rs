//! The CAM's RTL in Verilator against a reference model, cycle by cycle: random inserts
//! (with and without wildcards), block inserts of up to four entries as the thread array
//! makes them (wrapping around the block ports, clamped to the room left), searches (with
//! and without wildcards), removals from anywhere, inserts and removals in the same cycle,
//! a full CAM. The hit must be the OLDEST matching entry. A failing seed is re-run with
//! tracing and its waveform kept.

use proptest::prelude::*;
use tagmatch_hdl::optimistic::single_cycle_cam::{
    single_cycle_cam_verilog, CAM_PORTS, COMM_BITS, HANDLE_BITS, INDEX_BITS, SRC_BITS, TAG_BITS,
};
use tagmatch_hdl::two_level::bram_list::{MODE_ANY, MODE_ENVELOPE, MODE_HANDLE};
use tagmatch_testbench::verilator::{ports_from, BuildSpec, Model, Port, PortId};

const DEPTH: usize = 8;
/// The block width `single_cycle_cam_verilog` builds.
const BLOCK: usize = 4;

/// The CAM's ports and its block-insert ports (`block_<field>_<j>`).
fn ports() -> Vec<Port> {
    let mut ports = ports_from(&CAM_PORTS);
    let port = |name: String, width: usize| Port { name, width: width as u32, input: true };
    ports.push(port("block_valid".into(), 1));
    ports.push(port("block_end".into(), INDEX_BITS));
    for (field, width) in [("comm", COMM_BITS), ("src", SRC_BITS), ("tag", TAG_BITS), ("handle", HANDLE_BITS)]
    {
        ports.extend((0..BLOCK).map(|j| port(format!("block_{field}_{j}"), width)));
    }
    ports
}

fn spec(trace: bool) -> BuildSpec {
    BuildSpec {
        name: format!("single-cycle-cam{DEPTH}"),
        verilog: single_cycle_cam_verilog(DEPTH),
        top: "top".into(),
        clock: "clock".into(),
        ports: ports(),
        trace,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    comm: u64,
    src: u64,
    tag: u64,
    src_any: bool,
    tag_any: bool,
    handle: u64,
}

#[derive(Clone, Debug)]
struct Step {
    search: Entry,
    mode: u64,
    insert: Option<Entry>,
    remove: Option<usize>,
    /// Removes the search's hit (`remove_first`) instead of an index.
    remove_first: bool,
    /// A block insert (alone in its cycle, as in the thread array's tail).
    block: Option<Vec<Entry>>,
}

fn entry() -> impl Strategy<Value = Entry> {
    (0..2u64, 0..4u64, 0..4u64, prop::bool::weighted(0.2), prop::bool::weighted(0.2), any::<u32>()).prop_map(
        |(comm, src, tag, src_any, tag_any, handle)| Entry {
            comm,
            src,
            tag,
            src_any,
            tag_any,
            handle: handle as u64,
        },
    )
}

fn step() -> impl Strategy<Value = Step> {
    let mode = prop_oneof![6 => Just(MODE_ENVELOPE), 1 => Just(MODE_HANDLE), 1 => Just(MODE_ANY)];
    let single = (
        entry(),
        mode.clone(),
        prop::option::weighted(0.6, entry()),
        prop::option::weighted(0.4, 0..DEPTH + 2),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(search, mode, insert, remove, remove_first)| Step {
            search,
            mode,
            insert,
            remove: remove.filter(|_| !remove_first),
            remove_first,
            block: None,
        });
    // A block's messages carry no wildcards (they are arrivals).
    let message = entry().prop_map(|e| Entry { src_any: false, tag_any: false, ..e });
    let block =
        (entry(), mode, prop::collection::vec(message, 1..=BLOCK)).prop_map(|(search, mode, block)| Step {
            search,
            mode,
            insert: None,
            remove: None,
            remove_first: false,
            block: Some(block),
        });
    prop_oneof![5 => single, 1 => block]
}

struct Ports(std::collections::HashMap<String, PortId>);

impl Ports {
    fn of(m: &Model) -> Self {
        Ports(
            ports().into_iter().map(|p| (m.port(&p.name).unwrap(), p)).map(|(id, p)| (p.name, id)).collect(),
        )
    }
    fn p(&self, n: &str) -> PortId {
        self.0[n]
    }
}

/// Runs `steps`; the first disagreement is an error naming the cycle.
fn run(model: &mut Model, steps: &[Step]) -> Result<(), String> {
    let ports = Ports::of(model);
    let mut reference: Vec<Entry> = Vec::new();
    for (cycle, s) in steps.iter().enumerate() {
        let set = |m: &mut Model, n: &str, v: u64| m.set(ports.p(n), v);
        set(model, "search_comm", s.search.comm);
        set(model, "search_src", s.search.src);
        set(model, "search_tag", s.search.tag);
        set(model, "search_src_any", s.search.src_any as u64);
        set(model, "search_tag_any", s.search.tag_any as u64);
        set(model, "search_mode", s.mode);
        set(model, "search_handle", s.search.handle);
        model.eval();
        let want = reference.iter().position(|e| match s.mode {
            MODE_ANY => true,
            MODE_HANDLE => e.handle == s.search.handle,
            _ => {
                e.comm == s.search.comm
                    && (e.src == s.search.src || e.src_any || s.search.src_any)
                    && (e.tag == s.search.tag || e.tag_any || s.search.tag_any)
            }
        });
        let got_hit = model.get(ports.p("hit")) == 1;
        if got_hit != want.is_some() {
            return Err(format!(
                "cycle {cycle}: hit {got_hit}, expected {want:?} for {:?} in {reference:?}",
                s.search
            ));
        }
        if let Some(i) = want {
            let got = (model.get(ports.p("hit_index")) as usize, model.get(ports.p("hit_handle")));
            if got != (i, reference[i].handle) {
                return Err(format!(
                    "cycle {cycle}: hit {got:?}, expected the oldest ({i}, {})",
                    reference[i].handle
                ));
            }
            let env = (model.get(ports.p("hit_src")), model.get(ports.p("hit_tag")));
            if env != (reference[i].src, reference[i].tag) {
                return Err(format!("cycle {cycle}: hit envelope {env:?}"));
            }
        }
        let full = reference.len() == DEPTH;
        if (model.get(ports.p("full")) == 1) != full
            || model.get(ports.p("count")) as usize != reference.len()
        {
            return Err(format!(
                "cycle {cycle}: count {} full {}, expected {}",
                model.get(ports.p("count")),
                model.get(ports.p("full")),
                reference.len()
            ));
        }
        set(model, "remove_valid", s.remove.is_some() as u64);
        set(model, "remove_index", s.remove.unwrap_or(0) as u64);
        set(model, "remove_first", s.remove_first as u64);
        if let Some(k) = s.remove.or(want.filter(|_| s.remove_first)) {
            if k < reference.len() {
                reference.remove(k);
            }
        }
        let ins =
            s.insert.unwrap_or(Entry { comm: 0, src: 0, tag: 0, src_any: false, tag_any: false, handle: 0 });
        set(model, "insert_valid", s.insert.is_some() as u64);
        set(model, "insert_comm", ins.comm);
        set(model, "insert_src", ins.src);
        set(model, "insert_tag", ins.tag);
        set(model, "insert_src_any", ins.src_any as u64);
        set(model, "insert_tag_any", ins.tag_any as u64);
        set(model, "insert_handle", ins.handle);
        if s.insert.is_some() && reference.len() < DEPTH {
            reference.push(ins);
        }
        if let Some(block) = &s.block {
            // The thread array clamps the count to the room left; entry `j` goes on port
            // `(count + j) mod BLOCK`.
            let taken = block.len().min(DEPTH - reference.len());
            set(model, "block_valid", 1);
            set(model, "block_end", (reference.len() + taken) as u64);
            for (j, e) in block.iter().take(taken).enumerate() {
                let port = (reference.len() + j) % BLOCK;
                set(model, &format!("block_comm_{port}"), e.comm);
                set(model, &format!("block_src_{port}"), e.src);
                set(model, &format!("block_tag_{port}"), e.tag);
                set(model, &format!("block_handle_{port}"), e.handle);
            }
            reference.extend(block.iter().take(taken).copied());
        }
        model.tick(1);
        set(model, "insert_valid", 0);
        set(model, "remove_valid", 0);
        set(model, "remove_first", 0);
        set(model, "block_valid", 0);
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
    fn cam_returns_the_oldest_match(steps in prop::collection::vec(step(), 1..400)) {
        check(&steps)?;
    }
}

#[test]
fn a_traced_build_writes_a_waveform() {
    let (mut m, report) = Model::build(&spec(true)).unwrap();
    let vcd = report.dir.join("smoke.vcd");
    m.trace_to(&vcd).unwrap();
    let insert = m.port("insert_valid").unwrap();
    m.set(insert, 1);
    m.tick(3);
    m.close_trace();
    assert_eq!(m.get(m.port("count").unwrap()), 3);
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$enddefinitions") && text.contains("insert_valid"));
}
