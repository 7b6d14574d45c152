//! The pipelined CAM's RTL in Verilator against a reference model: random searches (with
//! and without wildcards, by handle, for any entry), each followed by a removal of its
//! answer or not (announced with the answer, `remove_next`, done at the edge after),
//! inserts (with and without wildcards, into a full CAM too) alone and in the same edge
//! as a removal, and half the time the next search in that same edge too (it must see the
//! slots after it). The answer, two cycles after the search, must be the OLDEST matching
//! entry, and at every edge `full_next` and `frees_next` must foretell `full` and `frees`.

mod common;
use common::{build, drive, matches, Entry};
use proptest::prelude::*;
use tagmatch_hdl::two_level::cam::{
    cam_verilog, handle_search_cycles, CAM_PORTS, MODE_ANY, MODE_ENVELOPE, MODE_HANDLE,
};
use tagmatch_sim::cycle::cam_banks::CamBanks;
use tagmatch_testbench::verilator::Model;

const DEPTH: usize = 8;

fn model() -> Result<Model, String> {
    build(format!("cam{DEPTH}"), cam_verilog(DEPTH), &CAM_PORTS)
}

#[derive(Clone, Copy, Debug)]
struct Step {
    key: Entry,
    mode: u64,
    remove: bool,
    insert: Option<Entry>,
    /// The removal and insert share their edge with the next step's search.
    overlap: bool,
}

/// Four sources and tags, 64 handles: more distinct envelopes than the shared default.
fn entry() -> impl Strategy<Value = Entry> {
    common::entry_over(4, 64)
}

fn step() -> impl Strategy<Value = Step> {
    let mode = prop_oneof![6 => Just(MODE_ENVELOPE), 1 => Just(MODE_HANDLE), 1 => Just(MODE_ANY)];
    (entry(), mode, prop::bool::weighted(0.4), prop::option::weighted(0.6, entry()), prop::bool::ANY)
        .prop_map(|(key, mode, remove, insert, overlap)| Step { key, mode, remove, insert, overlap })
}

/// What a step does after its answer: remove it, insert an entry.
type Act = (Option<usize>, bool, Option<Entry>);

/// Drives a step's insert for the coming edge, which is its removal's (announced a cycle
/// before).
fn set_insert(m: &mut Model, insert: Option<Entry>) {
    m.set(m.port("insert").unwrap(), insert.is_some() as u64);
    drive(m, "in_", &insert.unwrap_or_default());
}

/// The reference: the entries oldest first, each with its bank, and the banks.
struct Reference {
    entries: Vec<(Entry, usize)>,
    banks: CamBanks,
}

impl Reference {
    /// After an act's edge: the insert unless the CAM was full before the edge (the RTL
    /// places it by the registers before the edge, so before the removal), and the removal.
    fn apply(&mut self, act: &Act) {
        if let (Some(e), false) = (act.2, self.banks.full()) {
            let bank = self.banks.insert();
            self.entries.push((e, bank));
        }
        if let (Some(k), true, _) = act {
            let (_, bank) = self.entries.remove(*k);
            self.banks.remove(bank);
        }
    }

    /// Whether removing entry `k` leaves the CAM not full: it is alone in its bank.
    fn frees(&self, k: usize) -> bool {
        let bank = self.entries[k].1;
        !self.banks.full() || self.entries.iter().filter(|(_, b)| *b == bank).count() == 1
    }
}

/// Runs `steps` (search, answer, act; an overlapping step's act shares the next search's
/// edge); the first disagreement is an error naming the step.
/// One edge, checking that `full_next` and `frees_next` (what the queue registers its
/// issue decision from) foretell `full` and `frees` after it.
fn tick(m: &mut Model) -> Result<(), String> {
    let port = |m: &Model, n: &str| m.port(n).unwrap();
    m.eval();
    let foretold = (m.get(port(m, "full_next")), m.get(port(m, "frees_next")));
    m.tick(1);
    m.eval();
    let after = (m.get(port(m, "full")), m.get(port(m, "frees")));
    if foretold != after {
        return Err(format!(
            "cycle {}: (full_next, frees_next) were {foretold:?}, (full, frees) after the edge are {after:?}",
            m.cycles()
        ));
    }
    Ok(())
}

fn run(m: &mut Model, steps: &[Step]) -> Result<(), String> {
    let port = |m: &Model, n: &str| m.port(n).unwrap();
    let mut reference = Reference { entries: Vec::new(), banks: CamBanks::new(DEPTH) };
    let mut pending: Option<Act> = None;
    for (i, s) in steps.iter().enumerate() {
        // The key is loaded a cycle before the search (the CAM compares the loaded key), in
        // the pending act's announcing cycle; the act still shares its edge with the search.
        m.set(port(m, "search_mode"), s.mode);
        drive(m, "key_", &s.key);
        m.set(port(m, "key_load"), 1);
        tick(m)?;
        m.set(port(m, "key_load"), 0);
        m.set(port(m, "remove_next"), 0);
        m.set(port(m, "search"), 1);
        if let Some(act) = pending.take() {
            set_insert(m, act.2);
            reference.apply(&act);
        }
        tick(m)?;
        set_insert(m, None);
        m.set(port(m, "search"), 0);
        // The answer comes 2 cycles after the search, by handle after the scan.
        let cycles = if s.mode == MODE_HANDLE { handle_search_cycles(DEPTH) } else { 2 };
        for _ in 1..cycles {
            if m.get(port(m, "answered")) == 1 {
                return Err(format!("step {i}: answered before cycle {cycles}"));
            }
            tick(m)?;
        }
        if m.get(port(m, "answered")) != 1 {
            return Err(format!("step {i}: no answer {cycles} cycles after the search"));
        }
        let want = reference.entries.iter().position(|(e, _)| matches(s.mode, &s.key, e));
        let hit = m.get(port(m, "hit")) == 1;
        if hit != want.is_some() {
            return Err(format!(
                "step {i}: hit {hit}, expected {want:?} for {s:?} in {:?}",
                reference.entries
            ));
        }
        if let Some(k) = want {
            let e = reference.entries[k].0;
            let got = (m.get(port(m, "hit_handle")), m.get(port(m, "hit_src")), m.get(port(m, "hit_tag")));
            if got != (e.handle, e.src, e.tag) {
                return Err(format!("step {i}: answer {got:?}, expected the oldest match {e:?} (entry {k})"));
            }
            if (m.get(port(m, "frees")) == 1) != reference.frees(k) {
                return Err(format!(
                    "step {i}: frees {}, expected {}",
                    m.get(port(m, "frees")),
                    reference.frees(k)
                ));
            }
        }
        let (full, count) = (m.get(port(m, "full")) == 1, m.get(port(m, "count")) as usize);
        if full != reference.banks.full() || count != reference.entries.len() {
            return Err(format!(
                "step {i}: count {count} full {full}, expected {} {}",
                reference.entries.len(),
                reference.banks.full()
            ));
        }
        // The removal is announced with the answer and done at the edge after.
        let act = (want, s.remove, s.insert);
        m.set(port(m, "remove_next"), s.remove as u64);
        if s.overlap {
            pending = Some(act);
        } else {
            tick(m)?;
            m.set(port(m, "remove_next"), 0);
            set_insert(m, act.2);
            tick(m)?;
            set_insert(m, None);
            reference.apply(&act);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn cam_returns_the_oldest_match(steps in prop::collection::vec(step(), 1..300)) {
        let mut m = model().map_err(TestCaseError::fail)?;
        run(&mut m, &steps).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn reset_empties_the_cam() {
    let mut m = model().unwrap();
    let (insert, reset, count) =
        (m.port("insert").unwrap(), m.port("reset").unwrap(), m.port("count").unwrap());
    m.set(insert, 1);
    m.tick(3);
    m.set(insert, 0);
    assert_eq!(m.get(count), 3);
    m.set(reset, 1);
    m.tick(1);
    m.set(reset, 0);
    assert_eq!(m.get(count), 0);
    let search = m.port("search").unwrap();
    m.set(m.port("search_mode").unwrap(), MODE_ANY);
    m.set(search, 1);
    m.tick(1);
    m.set(search, 0);
    m.tick(1);
    assert_eq!(m.get(m.port("answered").unwrap()), 1);
    assert_eq!(m.get(m.port("hit").unwrap()), 0, "an entry survived the reset");
}

/// A removal is announced with the answer: one announced in the cycle the CAM chooses
/// (before `answered`) removes nothing, and the answer and the count stay.
#[test]
fn an_announcement_before_the_answer_is_ignored() {
    let mut m = model().unwrap();
    let port = |m: &Model, n: &str| m.port(n).unwrap();
    // Three entries: the first two fill bank 0, the third opens bank 1.
    let entries: Vec<Entry> =
        (0..3).map(|i| Entry { comm: 1, src: i, tag: i, handle: 10 + i, ..Entry::default() }).collect();
    m.set(port(&m, "insert"), 1);
    for e in &entries {
        drive(&mut m, "in_", e);
        m.tick(1);
    }
    m.set(port(&m, "insert"), 0);
    // Search for the first (answered, kept), then for the third, announcing a removal in
    // the second search's choice cycle.
    for (k, announce) in [(0, false), (2, true)] {
        m.set(port(&m, "search_mode"), MODE_ENVELOPE);
        drive(&mut m, "key_", &entries[k]);
        m.set(port(&m, "key_load"), 1);
        m.tick(1);
        m.set(port(&m, "key_load"), 0);
        m.set(port(&m, "search"), 1);
        m.tick(1);
        m.set(port(&m, "search"), 0);
        assert_eq!(m.get(port(&m, "answered")), 0, "search {k}: answered in its choice cycle");
        m.set(port(&m, "remove_next"), announce as u64);
        m.tick(1);
        m.set(port(&m, "remove_next"), 0);
        assert_eq!(m.get(port(&m, "answered")), 1, "search {k}: no answer two cycles after it");
        assert_eq!(m.get(port(&m, "hit_handle")), entries[k].handle, "search {k}: wrong answer");
    }
    m.tick(2);
    assert_eq!(m.get(port(&m, "answered")), 1, "an early announcement cleared the answer");
    assert_eq!(m.get(port(&m, "count")), 3, "an early announcement removed an entry");
}
