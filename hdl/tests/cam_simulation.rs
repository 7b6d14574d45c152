//! The pipelined CAM's Rust behaviour (`Cam::update`, what rust-hdl's simulator runs) keeps
//! the Verilog's timing and answers: the answer two cycles after the search, the oldest
//! match (wildcards stored and searched), removal two cycles after the search, an insert
//! behind every stored entry, and reset. Each search compares the key loaded a cycle before.

use rust_hdl::prelude::*;
use tagmatch_hdl::ports::EntryPorts;
use tagmatch_hdl::two_level::cam::{CamTop, MODE_ENVELOPE, MODE_HANDLE};

/// (comm, src, tag, src_any, tag_any, handle)
type Entry = (u64, u64, u64, bool, bool, u64);

/// Drives an entry bus (`in`, `refill` or `key`) with `e`.
fn put(bus: &mut EntryPorts, e: Entry) {
    bus.comm.next = e.0.to_bits();
    bus.src.next = e.1.to_bits();
    bus.tag.next = e.2.to_bits();
    bus.src_any.next = e.3;
    bus.tag_any.next = e.4;
    bus.handle.next = e.5.to_bits();
}

fn set_insert(x: &mut CamTop, e: Entry) {
    x.insert.next = true;
    put(&mut x.r#in, e);
}

/// Loads the key at the next edge (a search compares the key loaded before it).
fn set_key(x: &mut CamTop, mode: u64, comm: u64, src: u64, tag: u64, handle: u64) {
    x.key_load.next = true;
    x.search_mode.next = mode.to_bits();
    x.key.comm.next = comm.to_bits();
    x.key.src.next = src.to_bits();
    x.key.tag.next = tag.to_bits();
    x.key.src_any.next = false;
    x.key.tag_any.next = false;
    x.key.handle.next = handle.to_bits();
}

#[test]
fn the_rust_behaviour_answers_like_the_verilog() {
    let mut uut = CamTop::new(4, tagmatch_hdl::fields::FieldWidths::default());
    uut.connect_all();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<CamTop>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<CamTop>| {
        let mut x = sim.init()?;
        wait_clock_true!(sim, clock, x);
        // Three entries: a wildcard-source receive for tag 7, then two exact ones.
        for e in [(1, 0, 7, true, false, 10), (1, 3, 7, false, false, 11), (1, 3, 8, false, false, 12)] {
            set_insert(&mut x, e);
            wait_clock_cycle!(sim, clock, x);
        }
        x.insert.next = false;
        sim_assert_eq!(sim, x.count.val().index(), 3, x);
        // Source 3, tag 7: both the wildcard (older) and handle 11 match; the oldest answers,
        // two cycles after the search.
        set_key(&mut x, MODE_ENVELOPE, 1, 3, 7, 0);
        wait_clock_cycle!(sim, clock, x);
        x.key_load.next = false;
        x.search.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.search.next = false;
        sim_assert!(sim, !x.answered.val(), x);
        wait_clock_cycle!(sim, clock, x);
        sim_assert!(sim, x.answered.val() && x.hit.val(), x);
        sim_assert_eq!(sim, x.hit_handle.val().index(), 10, x);
        wait_clock_cycle!(sim, clock, x);
        // Remove it: announced in one cycle, done at the end of the next (the answer stays
        // until then); the same search then answers handle 11.
        x.remove_next.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.remove_next.next = false;
        sim_assert!(sim, x.answered.val() && x.hit.val(), x);
        sim_assert_eq!(sim, x.count.val().index(), 3, x);
        wait_clock_cycle!(sim, clock, x);
        sim_assert!(sim, !x.hit.val(), x);
        sim_assert_eq!(sim, x.count.val().index(), 2, x);
        set_key(&mut x, MODE_ENVELOPE, 1, 3, 7, 0);
        wait_clock_cycle!(sim, clock, x);
        x.key_load.next = false;
        x.search.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.search.next = false;
        wait_clock_cycle!(sim, clock, x);
        sim_assert_eq!(sim, x.hit_handle.val().index(), 11, x);
        sim_assert_eq!(sim, x.hit_tag.val().index(), 7, x);
        // By handle (a scan of the 4 slots); then a communicator that holds nothing.
        set_key(&mut x, MODE_HANDLE, 0, 0, 0, 12);
        wait_clock_cycle!(sim, clock, x);
        x.key_load.next = false;
        x.search.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.search.next = false;
        for _ in 1..tagmatch_hdl::two_level::cam::handle_search_cycles(4) {
            sim_assert!(sim, !x.answered.val(), x);
            wait_clock_cycle!(sim, clock, x);
        }
        sim_assert!(sim, x.answered.val(), x);
        sim_assert_eq!(sim, x.hit_handle.val().index(), 12, x);
        set_key(&mut x, MODE_ENVELOPE, 2, 3, 7, 0);
        wait_clock_cycle!(sim, clock, x);
        x.key_load.next = false;
        x.search.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.search.next = false;
        wait_clock_cycle!(sim, clock, x);
        sim_assert!(sim, x.answered.val() && !x.hit.val(), x);
        // Reset empties it.
        x.reset.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.reset.next = false;
        sim_assert_eq!(sim, x.count.val().index(), 0, x);
        sim_assert!(sim, !x.full.val(), x);
        sim.done(x)
    });
    sim.run(Box::new(uut), 10_000).unwrap();
}

/// Drives the CAM's own ports (the standalone `CamTop` ties the refill bus off): a refill
/// writes the entry on `refill` while `in` carries another, and a search two edges later
/// answers with the refilled entry; `search_right_after` searches in the next edge instead,
/// which the refill contract rules out.
fn refill_then_search(search_right_after: bool) {
    use tagmatch_hdl::two_level::cam::Cam;
    let mut uut = Cam::new(4, tagmatch_hdl::fields::FieldWidths::default());
    uut.connect_all();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Cam>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Cam>| {
        let mut x = sim.init()?;
        wait_clock_true!(sim, clock, x);
        // The key: communicator 1, source 3, tag 7.
        x.key_load.next = true;
        x.search_mode.next = MODE_ENVELOPE.to_bits();
        put(&mut x.key, (1, 3, 7, false, false, 0));
        // The refill (handle 21) matches; the engine's bus carries another match (handle 99).
        x.insert.next = true;
        x.refilling.next = true;
        put(&mut x.refill, (1, 3, 7, false, false, 21));
        put(&mut x.r#in, (1, 3, 7, false, false, 99));
        wait_clock_cycle!(sim, clock, x);
        (x.insert.next, x.refilling.next, x.key_load.next) = (false, false, false);
        if !search_right_after {
            wait_clock_cycle!(sim, clock, x);
        }
        x.search.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.search.next = false;
        wait_clock_cycle!(sim, clock, x);
        sim_assert!(sim, x.answered.val() && x.hit.val(), x);
        sim_assert_eq!(sim, x.hit_handle.val().index(), 21, x);
        sim_assert_eq!(sim, x.count.val().index(), 1, x);
        sim.done(x)
    });
    sim.run(Box::new(uut), 10_000).unwrap();
}

#[test]
fn a_refill_writes_its_own_bus() {
    refill_then_search(false);
}

#[test]
#[should_panic(expected = "a search in or right after a refill's edge")]
fn a_search_right_after_a_refill_is_refused() {
    refill_then_search(true);
}
