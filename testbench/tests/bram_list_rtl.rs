//! One BRAM linked list in Verilator against a reference list: inserts up to and beyond
//! capacity (free-list reuse), searches by envelope (wildcards either side), by handle and
//! for any entry, deletes from head, middle and tail. The search must return the oldest
//! match and take exactly one cycle per element compared, plus one for the register stage
//! between the RAM and the compare.

mod common;
use common::{build, drive, list_cmd, matches, Entry, ListCmd};
use proptest::prelude::*;
use tagmatch_hdl::two_level::bram_list::{bram_list_ports, bram_list_verilog};
use tagmatch_testbench::verilator::Model;

const A: usize = 4;
const CAPACITY: usize = (1 << A) - 1;

fn model() -> Result<Model, String> {
    build(format!("bramlist{A}"), bram_list_verilog::<A>(), &bram_list_ports())
}

fn run(m: &mut Model, cmds: &[ListCmd]) -> Result<(), String> {
    let p = |m: &Model, n: &str| m.port(n).unwrap();
    let mut reference: Vec<Entry> = Vec::new();
    let mut last_found: Option<usize> = None;
    let mut label = 0;
    for (i, c) in cmds.iter().enumerate() {
        let strobe = match *c {
            ListCmd::Insert(mut e) => {
                label += 1;
                e.label = label;
                drive(m, "in_", &e);
                m.set(p(m, "in_label"), e.label);
                if reference.len() < CAPACITY {
                    reference.push(e);
                }
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
        let mut busy_cycles = 1;
        while m.get(p(m, "busy")) == 1 {
            m.tick(1);
            busy_cycles += 1;
            if busy_cycles > 100 {
                return Err(format!("command {i} ({c:?}): still busy after 100 cycles"));
            }
        }
        match *c {
            ListCmd::Search { mode, key } => {
                let want = reference.iter().position(|e| matches(mode, &key, e));
                let found = m.get(p(m, "found")) == 1;
                if found != want.is_some() {
                    return Err(format!(
                        "command {i} ({c:?}): found {found}, expected {want:?} in {reference:?}"
                    ));
                }
                let steps = m.get(p(m, "steps")) as usize;
                let expect_steps = want.map_or(reference.len(), |k| k + 1);
                if steps != expect_steps {
                    return Err(format!("command {i}: compared {steps} elements, expected {expect_steps}"));
                }
                // The accept cycle, then one cycle per element compared and one for the
                // register stage (an empty list answers at once).
                let expect_cycles = if expect_steps == 0 { 1 } else { 2 + expect_steps };
                if busy_cycles != expect_cycles {
                    return Err(format!(
                        "command {i}: took {busy_cycles} cycles for {expect_steps} elements"
                    ));
                }
                if let Some(k) = want {
                    let e = reference[k];
                    let got = (
                        m.get(p(m, "found_handle")),
                        m.get(p(m, "found_label")),
                        m.get(p(m, "found_src")),
                        m.get(p(m, "found_tag")),
                        m.get(p(m, "found_comm")),
                        m.get(p(m, "found_src_any")) == 1,
                        m.get(p(m, "found_tag_any")) == 1,
                    );
                    if got != (e.handle, e.label, e.src, e.tag, e.comm, e.src_any, e.tag_any) {
                        return Err(format!("command {i}: found {got:?}, expected the oldest match {e:?}"));
                    }
                }
                last_found = want;
            }
            ListCmd::Remove => {
                if let Some(k) = last_found.take() {
                    reference.remove(k);
                }
            }
            ListCmd::Insert(_) => {
                last_found = None; // the engine never deletes across an insert
            }
        }
        let count = m.get(p(m, "count")) as usize;
        if count != reference.len() || (m.get(p(m, "full")) == 1) != (reference.len() == CAPACITY) {
            return Err(format!("command {i} ({c:?}): count {count}, expected {}", reference.len()));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn list_matches_the_reference(cmds in prop::collection::vec(list_cmd(20, 4), 1..300)) {
        let mut m = model().map_err(TestCaseError::fail)?;
        run(&mut m, &cmds).map_err(TestCaseError::fail)?;
    }
}
