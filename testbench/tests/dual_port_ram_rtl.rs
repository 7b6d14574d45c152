//! The dual-port RAM in Verilator against a reference memory: both ports reading and
//! writing every cycle, read-first, one-cycle read latency. Collisions the block leaves
//! undefined (both ports writing one address, or reading what the other port writes)
//! are not generated.

use proptest::prelude::*;
use tagmatch_hdl::primitives::dual_port_ram::{dual_port_ram_ports, dual_port_ram_verilog};
use tagmatch_testbench::verilator::{ports_from, BuildSpec, Model};

const W: u32 = 40;
const A: u32 = 6;

fn model() -> Result<Model, String> {
    let spec = BuildSpec {
        name: "dpr40x6".into(),
        verilog: dual_port_ram_verilog::<40, 6>(),
        top: "top".into(),
        clock: "clock".into(),
        ports: ports_from(&dual_port_ram_ports(W, A)),
        trace: false,
    };
    Model::build(&spec).map(|(m, _)| m)
}

type PortOp = (u64, bool, u64); // address, write, data

fn port_op() -> impl Strategy<Value = PortOp> {
    (0..(1u64 << A), prop::bool::weighted(0.4), 0..(1u64 << W))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn reads_see_the_words_written_before(ops in prop::collection::vec((port_op(), port_op()), 1..300)) {
        let mut m = model().map_err(TestCaseError::fail)?;
        let p = |m: &Model, n: &str| m.port(n).unwrap();
        let mut mem = vec![0u64; 1 << A];
        for (cycle, (a, b)) in ops.iter().enumerate() {
            let (mut a, b) = (*a, *b);
            if a.0 == b.0 && (a.1 || b.1) {
                a.0 = (a.0 + 1) % (1 << A); // keep clear of undefined collisions
            }
            for (prefix, (addr, write, data)) in [("a", a), ("b", b)] {
                let (pa, pw, pd) = (p(&m, &format!("{prefix}_addr")), p(&m, &format!("{prefix}_write")), p(&m, &format!("{prefix}_wdata")));
                m.set(pa, addr);
                m.set(pw, write as u64);
                m.set(pd, data);
            }
            let want = (mem[a.0 as usize], mem[b.0 as usize]);
            if a.1 { mem[a.0 as usize] = a.2; }
            if b.1 { mem[b.0 as usize] = b.2; }
            m.tick(1);
            let got = (m.get(p(&m, "a_rdata")), m.get(p(&m, "b_rdata")));
            prop_assert_eq!(got, want, "cycle {}", cycle);
        }
    }
}
