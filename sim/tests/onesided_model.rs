//! The one-sided unit's model against the ordering rules, on random scripts with narrow
//! counters (a window saturates at 7 outstanding requests and the counters wrap), a busy
//! host and networks of different speeds.

use tagmatch_sim::onesided::check::check;
use tagmatch_sim::onesided::harness::{random_script, run, ResponsePolicy};
use tagmatch_sim::onesided::model::UnitModel;
use tagmatch_sim::onesided::network::NetworkConfig;
use tagmatch_sim::onesided::UnitConfig;

#[test]
fn random_scripts_keep_the_ordering_rules() {
    let mut requests = 0;
    for (seed, bits, latency, bpc, queue) in
        [(1, 3, 2000, 512, 32), (2, 3, 500, 8, 16), (3, 16, 5, 1024, 1), (4, 4, 0, 4096, 8)]
    {
        let cfg = UnitConfig { windows: 4, counter_bits: bits };
        let mut unit = UnitModel::new(cfg);
        let net = NetworkConfig { latency, bytes_per_cycle: bpc, queue };
        let script = random_script(seed, 20_000, cfg.windows);
        let policy = ResponsePolicy::Sometimes { n: 3, seed };
        let log = run(&mut unit, cfg.windows, &script, net, policy, 1 << 32).unwrap();
        let s = check(&log, cfg.windows).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(s.fins > 1000 && s.fin_alls > 100 && s.errors > 100, "seed {seed}: {s:?}");
        if bits == 3 {
            assert_eq!(s.max_outstanding, 7, "seed {seed}: the counters never saturated: {s:?}");
        }
        requests += s.requests;
    }
    assert!(requests > 40_000);
}
