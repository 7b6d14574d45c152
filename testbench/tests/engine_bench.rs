//! The preposted and unload drivers on small engines in Verilator: a CAM hit answers in
//! four cycles, a list costs one cycle per element per list, and operations sent one at
//! a time (each after the last response, as these benchmarks send them) take five cycles
//! each (accept, search, choose, answer, respond + acknowledge); streamed ones overlap
//! (see `engine_cosim.rs`).

use tagmatch_hdl::two_level::receive_engine::{receive_engine_verilog, EngineShape};
use tagmatch_sim::cycle::bench::{preposted, unload};
use tagmatch_testbench::two_level::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::verilator::Model;

fn engine(name: &str, verilog: String) -> RtlEngine {
    let (model, _) = Model::build(&engine_spec(name, verilog, false)).unwrap_or_else(|e| panic!("{e}"));
    RtlEngine::new(model).unwrap()
}

#[test]
fn preposted_latency_is_four_cycles_in_the_cam_and_one_per_element_per_list_beyond() {
    // 8-entry CAM, one list of 31 entries.
    let mut one = engine("engine-c8-a5-n1", receive_engine_verilog(&EngineShape::new(8, 1, 5).unwrap()));
    for depth in 1..=8 {
        assert_eq!(preposted(&mut one, depth).unwrap().cycles, 4, "depth {depth}");
    }
    let at = |e: &mut RtlEngine, d| preposted(e, d).unwrap().cycles;
    let base = at(&mut one, 10);
    for extra in [1, 5, 20, 29] {
        assert_eq!(at(&mut one, 10 + extra), base + extra as u64, "one list, depth {}", 10 + extra);
    }
    // 8-entry CAM, four lists of 7 entries: inserts go round robin, so four more receives
    // put the probe's receive one element deeper.
    let mut four = engine("engine-c8-a3-n4", receive_engine_verilog(&EngineShape::new(8, 4, 3).unwrap()));
    let base = at(&mut four, 12);
    for k in 1..=6 {
        assert_eq!(at(&mut four, 12 + 4 * k), base + k as u64, "four lists, depth {}", 12 + 4 * k);
    }
    assert!(preposted(&mut four, 8 + 4 * 7 + 1).is_err(), "a depth beyond the capacity overflows");
}

#[test]
fn unload_takes_five_cycles_per_cam_hit_and_walks_the_lists_beyond() {
    let mut one = engine("engine-c8-a5-n1", receive_engine_verilog(&EngineShape::new(8, 1, 5).unwrap()));
    for depth in 1..=8 {
        assert_eq!(unload(&mut one, depth).unwrap().cycles, 5 * depth as u64 - 1, "depth {depth}");
    }
    let shallow = unload(&mut one, 9).unwrap().cycles;
    let deep = unload(&mut one, 30).unwrap().cycles;
    // Each delivery beyond the CAM walks to the newest receive: quadratic in the excess.
    assert!(deep > shallow + (30 - 8) * (30 - 8) / 2, "{shallow} -> {deep}");
    let mut four = engine("engine-c8-a3-n4", receive_engine_verilog(&EngineShape::new(8, 4, 3).unwrap()));
    assert!(unload(&mut four, 30).unwrap().cycles < deep, "four lists unload faster than one");
}
