//! The host driver over the receive engine's RTL: tiny engines (16 to 39 entries a queue)
//! under streams whose queues reach thousands of entries, op by op against the unbounded
//! golden model and the same driver over the cycle model, in fallback and split mode.
//! The engines are the ones `engine_cosim` builds, so a CI run compiles them once.

use tagmatch_hdl::two_level::receive_engine::{receive_engine_verilog, EngineShape};
use tagmatch_sim::workload::streams::{random_stream_from, Envelopes};
use tagmatch_sim::Op;
use tagmatch_testbench::two_level::cosim::EngineUnderTest;
use tagmatch_testbench::two_level::host::{cosim_host, HostMode};

fn engine(verilog: String, (cam, lists, address_bits): (usize, usize, u32)) -> EngineUnderTest {
    let config = EngineShape::new(cam, lists, address_bits as usize).unwrap();
    EngineUnderTest { name: format!("engine-c{cam}-a{address_bits}-n{lists}"), verilog, config }
}

/// Bursts over few envelopes, phases forty times the engine's queue: thousands of
/// overflows and re-admissions.
fn stream(seed: u64, n: usize, capacity: usize) -> Vec<Op> {
    random_stream_from(seed, n, 40 * capacity, Envelopes { comms: 2, sources: 4, tags: 3 })
}

fn both_modes(e: EngineUnderTest, seed: u64) {
    let capacity = e.config.queue_capacity();
    let ops = stream(seed, 40_000, capacity);
    let r = cosim_host(&e, &ops, HostMode::Fallback, &mut |_| {}).unwrap_or_else(|err| panic!("{err}"));
    let h = r.host;
    assert!(h.fallbacks >= 1000 && h.readmitted >= 1000 && h.undone > 0, "{}: {h:?}", e.name);
    assert!(h.matched_in_hardware > 1000 && h.matched_in_host > 1000, "{}: {h:?}", e.name);

    let ops = stream(seed + 100, 30_000, capacity);
    for (delay, overflows) in [(0, 1000), (6, 0)] {
        let mode = HostMode::Split { delay, sync: true };
        let r = cosim_host(&e, &ops, mode, &mut |_| {}).unwrap_or_else(|err| panic!("{mode:?}: {err}"));
        let h = r.host;
        assert!(h.fallbacks >= overflows && h.forwarded > 1000, "{} {mode:?}: {h:?}", e.name);
        if delay > 0 {
            assert!(h.refused > 0 && h.taken_back > 0, "{} {mode:?}: {h:?}", e.name);
        }
    }
}

#[test]
fn sixteen_entry_engine() {
    both_modes(engine(receive_engine_verilog(&EngineShape::new(4, 4, 2).unwrap()), (4, 4, 2)), 1);
}

#[test]
fn thirty_six_entry_engine() {
    both_modes(engine(receive_engine_verilog(&EngineShape::new(8, 4, 3).unwrap()), (8, 4, 3)), 3);
}

#[test]
fn thirty_nine_entry_engine() {
    both_modes(engine(receive_engine_verilog(&EngineShape::new(8, 1, 5).unwrap()), (8, 1, 5)), 5);
}
