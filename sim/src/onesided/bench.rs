//! The overlap benchmark of the one-sided offload paper: the host issues `n` puts (or
//! gets) of `bytes` to one window, computes for `compute` cycles, then flushes and waits
//! for the FIN. Three runs on the same unit and network:
//!
//! - *communication alone*: no compute, `T_comm` cycles to the FIN;
//! - *offloaded*: the unit progresses the requests while the host computes (`T_off`);
//! - *host-progressed baseline*: the host issues a request only when it is not computing —
//!   the first before it computes, the rest after, as a library whose progress engine runs
//!   only inside MPI calls would (`T_base`).
//!
//! Overlap is the share of the shorter of communication and compute that was hidden:
//! `(T_comm + compute − T) / min(T_comm, compute)`, clamped to 0–100 %. It is 100 % when
//! the run takes `max(T_comm, compute)`, 0 % when it takes their sum.

use super::harness::{cycle_limit, run, Event, Log, ResponsePolicy, Step};
use super::network::NetworkConfig;
use super::{Command, Inputs, UnitPins, RESP_FIN};

/// One benchmark point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlapPoint {
    pub requests: u32,
    pub bytes: u32,
    pub compute: u64,
    pub get: bool,
    pub comm_cycles: u64,
    pub offload_cycles: u64,
    pub baseline_cycles: u64,
    pub offload_overlap: f64,
    pub baseline_overlap: f64,
    /// Cycles from the later of the flush's acceptance and the last completion to the
    /// FIN, offloaded: what the unit adds to the network.
    pub fin_delay: u64,
    /// Every cycle the three runs simulated.
    pub simulated: u64,
}

/// Holds `reset` for a cycle, then idles one, so the unit starts empty and ready.
pub fn reset(unit: &mut impl UnitPins) {
    unit.clock(&Inputs { reset: true, ..Inputs::default() });
    unit.clock(&Inputs::default());
}

fn request(get: bool, i: u32, bytes: u32) -> Command {
    let target = (i % 64) as u16;
    if get {
        Command::Get { window: 0, target, bytes }
    } else {
        Command::Put { window: 0, target, bytes }
    }
}

/// The cycle of the run's FIN, and of the later of its flush's acceptance and the last
/// completion.
fn finish(log: &Log) -> Result<(u64, u64), String> {
    let last = |f: &dyn Fn(&Event) -> bool| log.events.iter().rev().find_map(|(c, e)| f(e).then_some(*c));
    let fin = last(&|e| matches!(e, Event::Response { kind: RESP_FIN, .. }));
    let flushed = last(&|e| matches!(e, Event::Accepted { command: Command::Flush { .. }, .. }));
    let done = last(&|e| matches!(e, Event::Completed { .. }));
    Ok((fin.ok_or("the run ended without a FIN")?, flushed.unwrap_or(0).max(done.unwrap_or(0))))
}

fn overlap(comm: u64, compute: u64, total: u64) -> f64 {
    let shorter = comm.min(compute);
    if shorter == 0 {
        return 100.0;
    }
    let hidden = (comm + compute).saturating_sub(total) as f64 / shorter as f64;
    (hidden * 100.0).clamp(0.0, 100.0)
}

/// Runs the three runs on `unit` (reset before each) of `windows` windows over `net`.
pub fn overlap_point(
    unit: &mut impl UnitPins,
    windows: usize,
    net: NetworkConfig,
    requests: u32,
    bytes: u32,
    compute: u64,
    get: bool,
) -> Result<OverlapPoint, String> {
    if requests == 0 {
        return Err("the overlap benchmark needs at least one request".into());
    }
    let issue: Vec<Step> = (0..requests).map(|i| Step::Send(request(get, i, bytes))).collect();
    let flush = [Step::Send(Command::Flush { window: 0 }), Step::AwaitFins];
    let mut go = |script: Vec<Step>| -> Result<Log, String> {
        reset(unit);
        let limit = cycle_limit(&script, net);
        run(unit, windows, script.as_slice(), net, ResponsePolicy::Always, limit)
    };
    let alone = go([issue.clone(), flush.to_vec()].concat())?;
    let offloaded = go([issue.clone(), vec![Step::Compute(compute)], flush.to_vec()].concat())?;
    let baseline = go([
        issue[..1].to_vec(),
        vec![Step::Compute(compute)],
        issue[1..].to_vec(),
        flush.to_vec(),
    ]
    .concat())?;
    let (comm, _) = finish(&alone)?;
    let (off, ready) = finish(&offloaded)?;
    let (base, _) = finish(&baseline)?;
    Ok(OverlapPoint {
        requests,
        bytes,
        compute,
        get,
        comm_cycles: comm,
        offload_cycles: off,
        baseline_cycles: base,
        offload_overlap: overlap(comm, compute, off),
        baseline_overlap: overlap(comm, compute, base),
        fin_delay: off - ready,
        simulated: alone.cycles + offloaded.cycles + baseline.cycles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onesided::model::UnitModel;
    use crate::onesided::UnitConfig;

    #[test]
    fn offload_hides_transfers_behind_compute_and_the_baseline_does_not() {
        let cfg = UnitConfig { windows: 4, counter_bits: 8 };
        let net = NetworkConfig { latency: 100, bytes_per_cycle: 64, queue: 64 };
        let mut unit = UnitModel::new(cfg);
        let p = overlap_point(&mut unit, 4, net, 16, 4096, 2000, false).unwrap();
        assert!(p.comm_cycles >= 16 * 64 + 100, "{p:?}");
        assert!(p.offload_overlap >= 95.0, "{p:?}");
        assert!(p.baseline_overlap < 20.0, "{p:?}");
        assert!(p.fin_delay <= 3, "{p:?}");
    }
}
