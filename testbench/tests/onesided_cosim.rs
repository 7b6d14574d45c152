//! The one-sided offload unit's RTL against its cycle-accurate model, handshake for
//! handshake, and against the ordering rules: random scripts over slow and fast networks with a busy
//! host, on a unit of 4 windows with 3-bit counters (a window saturates at 7 outstanding
//! requests; the counters wrap thousands of times) and one of 16 windows with 16-bit
//! counters; then the timing the module docs promise.

use tagmatch_hdl::onesided::onesided_verilog;
use tagmatch_sim::onesided::harness::{random_script, run, Event, ResponsePolicy, Step};
use tagmatch_sim::onesided::network::NetworkConfig;
use tagmatch_sim::onesided::{Command, UnitConfig, RESP_FIN, RESP_FIN_ALL};
use tagmatch_testbench::onesided::{cosim_onesided, onesided_spec, RtlUnit, UnitUnderTest};
use tagmatch_testbench::verilator::Model;

fn narrow() -> UnitUnderTest {
    let config = UnitConfig { windows: 4, counter_bits: 3 };
    UnitUnderTest { name: "onesided-w4-c3".into(), verilog: onesided_verilog::<4, 3>(), config }
}

#[test]
fn random_scripts_agree_with_the_model_and_keep_the_rules() {
    let wide = UnitUnderTest {
        name: "onesided-w16-c16".into(),
        verilog: onesided_verilog::<16, 16>(),
        config: UnitConfig { windows: 16, counter_bits: 16 },
    };
    let mut requests = 0;
    for (unit, seed, latency, bytes_per_cycle, queue) in [
        (&narrow(), 1, 2000, 512, 32),
        (&narrow(), 2, 500, 8, 16),
        (&narrow(), 3, 0, 4096, 1),
        (&narrow(), 4, 40, 64, 4),
        (&wide, 5, 300, 256, 64),
        (&wide, 6, 5, 1024, 2),
        (&wide, 7, 1000, 2048, 128),
        (&wide, 8, 50, 32, 8),
    ] {
        let net = NetworkConfig { latency, bytes_per_cycle, queue };
        let script = random_script(seed, 20_000, unit.config.windows);
        let policy = ResponsePolicy::Sometimes { n: 3, seed };
        let r = cosim_onesided(unit, &script, net, policy).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let s = r.summary;
        assert!(s.fins > 500 && s.fin_alls > 100 && s.errors > 100, "seed {seed}: {s:?}");
        if unit.config.counter_bits == 3 && seed <= 2 {
            assert_eq!(s.max_outstanding, 7, "seed {seed}: the counters never saturated: {s:?}");
        }
        requests += s.requests;
    }
    assert!(requests >= 100_000, "{requests} requests");
}

/// A flush with nothing outstanding answers 3 cycles after it is taken; one that waits
/// answers 2 cycles after the completion that ends its wait, FIN_ALL 3.
#[test]
fn flush_timing_is_what_the_module_docs_say() {
    let unit = narrow();
    let (model, _) = Model::build(&onesided_spec(&unit.name, unit.verilog.clone(), false)).unwrap();
    let mut rtl = RtlUnit::new(model).unwrap();
    let net = NetworkConfig { latency: 30, bytes_per_cycle: 64, queue: 4 };
    let script = [
        Step::Send(Command::Flush { window: 1 }),
        Step::AwaitFins,
        Step::Send(Command::Put { window: 2, target: 0, bytes: 640 }),
        Step::Send(Command::Flush { window: 2 }),
        Step::Send(Command::FlushAll),
        Step::AwaitFins,
    ];
    let log = run(&mut rtl, 4, &script, net, ResponsePolicy::Always, 10_000).unwrap();
    let at = |f: &dyn Fn(&Event) -> bool| {
        log.events.iter().filter(|(_, e)| f(e)).map(|(c, _)| *c).collect::<Vec<_>>()
    };
    let taken = at(&|e| matches!(e, Event::Accepted { command: Command::Flush { .. }, .. }));
    let fins = at(&|e| matches!(e, Event::Response { kind: RESP_FIN, .. }));
    let fin_all = at(&|e| matches!(e, Event::Response { kind: RESP_FIN_ALL, .. }));
    let completed = at(&|e| matches!(e, Event::Completed { .. }));
    assert_eq!(fins[0], taken[0] + 3, "{log:?}");
    assert_eq!(completed.len(), 1);
    assert_eq!(fins[1], completed[0] + 2, "{log:?}");
    assert_eq!(fin_all[0], completed[0] + 3, "{log:?}");
}

/// A reset while a request is still in the network: its completion, arriving after the
/// reset, is ignored, and the window flushes at once afterwards (RTL and model alike).
#[test]
fn a_completion_after_reset_leaves_no_window_unbalanced() {
    use tagmatch_sim::onesided::model::UnitModel;
    use tagmatch_sim::onesided::{Inputs, UnitPins, OP_FLUSH, OP_PUT};
    fn scenario(unit: &mut impl UnitPins) -> Vec<(bool, u8)> {
        let idle = Inputs { net_ready: true, resp_ready: true, ..Inputs::default() };
        unit.clock(&idle);
        let put = Inputs { cmd_valid: true, cmd_op: OP_PUT, cmd_bytes: 64, ..idle };
        while !unit.outputs().cmd_ready {
            unit.clock(&idle);
        }
        unit.clock(&put);
        for _ in 0..3 {
            unit.clock(&idle); // the request leaves for the network
        }
        unit.clock(&Inputs { reset: true, ..idle });
        unit.clock(&idle);
        unit.clock(&Inputs { cpl_valid: true, cpl_window: 0, ..idle }); // the stale completion
        let flush = Inputs { cmd_valid: true, cmd_op: OP_FLUSH, ..idle };
        while !unit.outputs().cmd_ready {
            unit.clock(&idle);
        }
        unit.clock(&flush);
        (0..4)
            .map(|_| {
                let o = unit.outputs();
                unit.clock(&idle);
                (o.resp_valid, o.resp_kind)
            })
            .collect()
    }
    let unit = narrow();
    let (model, _) = Model::build(&onesided_spec(&unit.name, unit.verilog.clone(), false)).unwrap();
    let rtl = scenario(&mut RtlUnit::new(model).unwrap());
    assert_eq!(rtl, scenario(&mut UnitModel::new(unit.config)));
    assert_eq!(rtl[2], (true, RESP_FIN), "the flush answers 3 cycles after it is taken: {rtl:?}");
}
