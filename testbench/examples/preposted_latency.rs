//! Preposted latency of the default engine (256-entry CAM, 4 lists, 32,768 list entries)
//! in Verilator: post N-1 receives the probe message does not match, one that it does,
//! deliver the message, print the cycles from acceptance to response. Also prints the
//! Verilator build time and the simulation speed.
//!
//! `cargo run --release -p tagmatch-testbench --example preposted_latency [DEPTH ...]`

use std::time::Instant;
use tagmatch_hdl::receive_engine::receive_engine_verilog;
use tagmatch_sim::{Envelope, MsgId, Op, RecvId, RecvSpec};
use tagmatch_testbench::engine::{engine_spec, RtlEngine};
use tagmatch_testbench::verilator::Model;

fn main() -> Result<(), String> {
    let depths: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let depths = if depths.is_empty() { vec![1, 10, 100, 256, 257, 500, 1000, 2000] } else { depths };
    let (model, report) =
        Model::build(&engine_spec("engine-c256-a13-n4", receive_engine_verilog::<256, 13, 4>(), false))?;
    println!("build: {:.1} s{}", report.seconds, if report.cached { " (cached)" } else { "" });
    let mut engine = RtlEngine::new(model)?;
    let probe = Envelope::new(0, 0, 0);
    let mut handle = 0u64;
    for depth in depths {
        let start_cycles = engine.model_mut().cycles();
        let t = Instant::now();
        for i in 1..depth {
            handle += 1;
            let spec = RecvSpec::exact(Envelope::new(1, i & 0xffff, i));
            engine.apply(&Op::PostRecv { recv: RecvId(handle), spec })?;
        }
        handle += 1;
        let matching = handle;
        engine.apply(&Op::PostRecv { recv: RecvId(matching), spec: RecvSpec::exact(probe) })?;
        let (outcome, cycles) = engine.apply(&Op::Arrive { msg: MsgId(handle + 1_000_000), env: probe })?;
        // Drain the fillers so the next depth starts empty.
        for i in 1..depth {
            engine.apply(&Op::Arrive { msg: MsgId(0), env: Envelope::new(1, i & 0xffff, i) })?;
        }
        let simulated = engine.model_mut().cycles() - start_cycles;
        println!(
            "depth {depth:5}: {cycles:4} cycles ({outcome:?}); {simulated} cycles simulated at {:.0} k cycles/s",
            simulated as f64 / t.elapsed().as_secs_f64() / 1e3
        );
    }
    Ok(())
}
