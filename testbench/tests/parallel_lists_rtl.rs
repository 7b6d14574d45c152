//! Parallel lists in Verilator against one reference queue in posting order: whatever
//! list an entry went to, a search must return the OLDEST match of the whole queue, and
//! answer `K + T + 3` cycles after it was issued (`K` the longest list walk, each element
//! compared a cycle after its read, `T` the tournament tree's levels; `T + 2` when every
//! list is empty).

mod common;
use common::{build, drive, list_cmd, matches, Entry, ListCmd};
use proptest::prelude::*;
use tagmatch_hdl::two_level::parallel_lists::{parallel_lists_ports, parallel_lists_verilog};
use tagmatch_testbench::verilator::Model;

const A: usize = 3; // 7 entries per list
const N: usize = 4;
const CAPACITY: usize = N * ((1 << A) - 1);

fn model() -> Result<Model, String> {
    build(format!("plists{A}x{N}"), parallel_lists_verilog::<A>(N), &parallel_lists_ports())
}

fn run(m: &mut Model, cmds: &[ListCmd]) -> Result<(), String> {
    let p = |m: &Model, n: &str| m.port(n).unwrap();
    // Reference: each list in posting order, plus the round-robin pointer.
    let mut lists: Vec<Vec<Entry>> = vec![Vec::new(); N];
    let mut rr = 0;
    let mut armed: Option<(usize, usize)> = None;
    let mut label = 0;
    for (i, c) in cmds.iter().enumerate() {
        let strobe = match *c {
            ListCmd::Insert(mut e) => {
                label += 1;
                e.label = label;
                drive(m, "in_", &e);
                let room = |l: &Vec<Entry>| l.len() < (1 << A) - 1;
                let target = if room(&lists[rr]) { Some(rr) } else { (0..N).find(|&k| room(&lists[k])) };
                if let Some(t) = target {
                    lists[t].push(e);
                    rr = (t + 1) % N;
                }
                armed = None;
                "insert"
            }
            ListCmd::Search { mode, key } => {
                m.set(p(m, "search_mode"), mode);
                drive(m, "key_", &key);
                "search"
            }
            ListCmd::Remove => "remove",
        };
        let sp = p(m, strobe);
        m.set(sp, 1);
        m.tick(1);
        m.set(sp, 0);
        let mut cycles = 1;
        let answered = |m: &Model| match c {
            ListCmd::Search { .. } => m.get(p(m, "done")) == 1,
            _ => m.get(p(m, "busy")) == 0,
        };
        while !answered(m) {
            m.tick(1);
            cycles += 1;
            if cycles > 100 {
                return Err(format!("command {i}: no answer after 100 cycles"));
            }
        }
        match *c {
            ListCmd::Search { mode, key } => {
                let per_list: Vec<Option<usize>> =
                    lists.iter().map(|l| l.iter().position(|e| matches(mode, &key, e))).collect();
                let walk =
                    lists.iter().zip(&per_list).map(|(l, f)| f.map_or(l.len(), |k| k + 1)).max().unwrap_or(0);
                let want = per_list
                    .iter()
                    .enumerate()
                    .filter_map(|(li, f)| f.map(|k| (lists[li][k].label, li, k)))
                    .min();
                let found = m.get(p(m, "found")) == 1;
                if found != want.is_some() {
                    return Err(format!("command {i} ({c:?}): found {found}, expected {want:?}"));
                }
                if let Some((lab, li, k)) = want {
                    let e = lists[li][k];
                    let got =
                        (m.get(p(m, "found_handle")), m.get(p(m, "found_src")), m.get(p(m, "found_tag")));
                    if got != (e.handle, e.src, e.tag) {
                        return Err(format!(
                            "command {i}: got {got:?}, expected the oldest (label {lab}, list {li}: {e:?})"
                        ));
                    }
                }
                let tree = N.trailing_zeros() as usize;
                let expected = if walk == 0 { tree + 2 } else { walk + tree + 3 };
                if cycles != expected {
                    return Err(format!(
                        "command {i}: answered after {cycles} cycles, expected {expected} (longest walk {walk})"
                    ));
                }
                armed = want.map(|(_, li, k)| (li, k));
                m.tick(1);
            }
            ListCmd::Remove => {
                if let Some((li, k)) = armed.take() {
                    lists[li].remove(k);
                }
            }
            ListCmd::Insert(_) => {}
        }
        // The entry counter settles a cycle after the lists change.
        m.tick(1);
        let total: usize = lists.iter().map(Vec::len).sum();
        if m.get(p(m, "count")) as usize != total {
            return Err(format!("command {i}: count {}, expected {total}", m.get(p(m, "count"))));
        }
        if (m.get(p(m, "full")) == 1) != (total == CAPACITY) {
            return Err(format!("command {i}: full flag wrong at {total} entries"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn parallel_lists_return_the_oldest_match(cmds in prop::collection::vec(list_cmd(30, 5), 1..300)) {
        let mut m = model().map_err(TestCaseError::fail)?;
        run(&mut m, &cmds).map_err(TestCaseError::fail)?;
    }
}
