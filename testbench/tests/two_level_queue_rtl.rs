//! The two-level queue (CAM + parallel lists + data mover) in Verilator against one
//! reference queue in posting order: every search must return the oldest match, with
//! more live entries than the CAM holds, the data mover refilling the CAM after a CAM
//! removal, and inserts past capacity refused. A search is answered when `done` rises;
//! the queue takes the removal with it or not, as the engine drives it.

mod common;
use common::{build, drive, entry, matches, Entry};
use proptest::prelude::*;
use tagmatch_hdl::two_level::bram_list::{MODE_ANY, MODE_ENVELOPE, MODE_HANDLE};
use tagmatch_hdl::two_level::queue::{two_level_queue_ports, two_level_queue_verilog};
use tagmatch_sim::cycle::two_level::EngineShape;
use tagmatch_testbench::verilator::Model;

const C: usize = 4;
const A: usize = 3;
const N: usize = 2;
/// The queue's shape: a CAM of `C`, `N` lists of `2^A - 1` entries.
const SHAPE: EngineShape =
    EngineShape { cam_depth: C, lists: N, entries_per_list: (1 << A) - 1, ..EngineShape::DEFAULT };
const CAPACITY: usize = SHAPE.queue_capacity();
/// A full CAM holds one entry per bank at least.
const GUARANTEED: usize = SHAPE.guaranteed_capacity();

fn model() -> Result<Model, String> {
    build(format!("tlq{C}x{A}x{N}"), two_level_queue_verilog::<A>(C, N), &two_level_queue_ports())
}

#[derive(Clone, Copy, Debug)]
enum Cmd {
    Insert(Entry),
    Search { mode: u64, key: Entry, take: bool },
    Idle(u64),
}

fn cmd() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        6 => entry(40).prop_map(Cmd::Insert),
        6 => (entry(40), any::<bool>()).prop_map(|(key, take)| Cmd::Search { mode: MODE_ENVELOPE, key, take }),
        1 => (entry(40), any::<bool>()).prop_map(|(key, take)| Cmd::Search { mode: MODE_HANDLE, key, take }),
        2 => (entry(40), any::<bool>()).prop_map(|(key, take)| Cmd::Search { mode: MODE_ANY, key, take }),
        1 => (0..6u64).prop_map(Cmd::Idle),
    ]
}

fn run(m: &mut Model, cmds: &[Cmd]) -> Result<(), String> {
    let p = |m: &Model, n: &str| m.port(n).unwrap();
    let mut queue: Vec<Entry> = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        // Wait for the queue (the data mover may be working).
        let mut waited = 0;
        while m.get(p(m, "quick")) == 0 {
            m.tick(1);
            waited += 1;
            if waited > 200 {
                return Err(format!("command {i}: busy for 200 cycles"));
            }
        }
        let strobe = match *c {
            Cmd::Insert(e) => {
                drive(m, "in_", &e);
                let full = m.get(p(m, "full")) == 1;
                // Full at capacity, never below the guarantee (the CAM's banks may waste
                // slots between the two).
                if (queue.len() == CAPACITY && !full) || (queue.len() < GUARANTEED && full) {
                    return Err(format!("command {i}: full {full} with {} entries", queue.len()));
                }
                if !full {
                    queue.push(e);
                }
                Some("insert")
            }
            Cmd::Search { mode, key, .. } => {
                m.set(p(m, "search_mode"), mode);
                drive(m, "key_", &key);
                m.set(p(m, "key_load"), 1);
                // The key is loaded a cycle before the search.
                m.tick(1);
                m.set(p(m, "key_load"), 0);
                Some("search")
            }
            Cmd::Idle(n) => {
                m.tick(n);
                None
            }
        };
        if let Some(s) = strobe {
            let sp = p(m, s);
            m.set(sp, 1);
            m.tick(1);
            m.set(sp, 0);
        }
        if let Cmd::Search { mode, key, take } = *c {
            let mut waited = 1;
            while m.get(p(m, "done")) == 0 {
                m.tick(1);
                waited += 1;
                if waited > 200 {
                    return Err(format!("command {i} ({c:?}): no answer after 200 cycles"));
                }
            }
            let want = queue.iter().position(|e| matches(mode, &key, e));
            let found = m.get(p(m, "found")) == 1;
            if found != want.is_some() {
                return Err(format!("command {i} ({c:?}): found {found}, expected {want:?} in {queue:?}"));
            }
            if let Some(k) = want {
                let got = (m.get(p(m, "found_handle")), m.get(p(m, "found_src")), m.get(p(m, "found_tag")));
                let e = queue[k];
                if got != (e.handle, e.src, e.tag) {
                    return Err(format!("command {i} ({c:?}): got {got:?}, expected the oldest match {e:?} (position {k} of {queue:?})"));
                }
            }
            // The removal is decided with the answer, and done at the end of the next cycle.
            let rp = p(m, "remove");
            m.set(rp, take as u64);
            m.tick(1);
            m.set(rp, 0);
            m.tick(1);
            if let (true, Some(k)) = (take, want) {
                queue.remove(k);
            }
        }
        while m.get(p(m, "quick")) == 0 {
            m.tick(1);
        }
        // The lists' entry counter settles a cycle after they change.
        m.tick(1);
        let count = m.get(p(m, "count")) as usize;
        if count != queue.len() || m.get(p(m, "cam_count")) as usize > C {
            return Err(format!("command {i} ({c:?}): count {count}, expected {}", queue.len()));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn queue_returns_the_oldest_match(cmds in prop::collection::vec(cmd(), 1..400)) {
        let mut m = model().map_err(TestCaseError::fail)?;
        run(&mut m, &cmds).map_err(TestCaseError::fail)?;
    }
}
