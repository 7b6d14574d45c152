//! Runs a host's script against the unit (model or RTL) and the network, cycle by cycle,
//! and logs every handshake. Two runs agree when their logs are equal; [`super::check`]
//! holds a log to the ordering rules.

use super::network::{Network, NetworkConfig};
use super::{Command, Inputs, UnitPins};

/// One step of the host's script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Present a command until the unit takes it.
    Send(Command),
    /// Present nothing for this many cycles (the host computes).
    Compute(u64),
    /// Wait until every flush sent so far is answered.
    AwaitFins,
}

/// What happened in one cycle on one of the unit's streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The unit took command number `index` of the script's commands.
    Accepted { index: usize, command: Command },
    /// The network took a request.
    Request { get: bool, window: u8, target: u16, bytes: u32 },
    /// The network completed a request of `window`.
    Completed { window: u8 },
    /// The host took a response.
    Response { kind: u8, window: u8 },
}

/// A run: events with the cycle they happened in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    pub events: Vec<(u64, Event)>,
    /// Cycles the run took.
    pub cycles: u64,
}

/// How the host takes responses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResponsePolicy {
    /// Every response in the cycle it is valid.
    Always,
    /// Each cycle with probability 1/`n` the host is busy (a fixed pattern from `seed`).
    Sometimes { n: u64, seed: u64 },
}

/// Runs `script` on `unit` (of `windows` windows) with `net`, for at most `limit` cycles;
/// the run ends when the script is done, every flush and every command naming a window
/// the unit lacks answered, every put and get handed to the network and the network idle.
pub fn run(
    unit: &mut impl UnitPins,
    windows: usize,
    script: &[Step],
    net: NetworkConfig,
    policy: ResponsePolicy,
    limit: u64,
) -> Result<Log, String> {
    net.check()?;
    let mut network = Network::new(net);
    let mut log = Log::default();
    // `expected`: responses owed for the commands taken so far; `answered`: responses taken.
    let (mut step, mut computing, mut sent, mut expected, mut answered) = (0, 0u64, 0usize, 0usize, 0usize);
    let mut busy = policy_rng(policy);
    // Puts and gets taken by the unit and not yet handed to the network.
    let mut unsent = 0usize;
    let mut now = 0u64;
    loop {
        let script_done = step >= script.len();
        if script_done && answered == expected && unsent == 0 && network.idle() {
            break;
        }
        if now >= limit {
            return Err(format!(
                "the one-sided run did not finish in {limit} cycles (script step {step} of {}, {answered} of {expected} responses)",
                script.len()
            ));
        }
        let o = unit.outputs();
        let mut i = Inputs { net_ready: network.ready(now), ..Inputs::default() };
        if let Some(w) = network.completion(now) {
            i.cpl_valid = true;
            i.cpl_window = w;
            log.events.push((now, Event::Completed { window: w }));
        }
        // The host's script.
        let mut command = None;
        while step < script.len() && command.is_none() {
            match script[step] {
                Step::Send(c) => command = Some(c),
                Step::Compute(n) if computing < n => {
                    computing += 1;
                    break;
                }
                Step::Compute(_) => {
                    computing = 0;
                    step += 1;
                }
                Step::AwaitFins if answered < expected => break,
                Step::AwaitFins => step += 1,
            }
        }
        if let Some(c) = command {
            let (op, window, target, bytes) = c.fields();
            (i.cmd_valid, i.cmd_op, i.cmd_window, i.cmd_target, i.cmd_bytes) =
                (true, op, window, target, bytes);
            if o.cmd_ready {
                log.events.push((now, Event::Accepted { index: sent, command: c }));
                sent += 1;
                step += 1;
                expected += owes_response(&c, windows) as usize;
                unsent += matches!(c, Command::Put { window, .. } | Command::Get { window, .. } if (window as usize) < windows)
                    as usize;
            }
        }
        i.resp_ready = !busy();
        if o.resp_valid && i.resp_ready {
            log.events.push((now, Event::Response { kind: o.resp_kind, window: o.resp_window }));
            answered += 1;
        }
        if o.net_valid && i.net_ready {
            network.accept(now, o.net_window, o.net_bytes);
            unsent = unsent.saturating_sub(1);
            let e = Event::Request {
                get: o.net_get,
                window: o.net_window,
                target: o.net_target,
                bytes: o.net_bytes,
            };
            log.events.push((now, e));
        }
        unit.clock(&i);
        now += 1;
    }
    // Everything owed was taken: the unit must now stay quiet and ready.
    for _ in 0..16 {
        let o = unit.outputs();
        if o.resp_valid || o.net_valid || !o.cmd_ready {
            return Err(format!(
                "cycle {now}: after every response owed was taken the unit still drives {o:?} \
                 (a duplicate answer, an extra request, or a stuck command stream)"
            ));
        }
        unit.clock(&Inputs { net_ready: true, resp_ready: true, ..Inputs::default() });
        now += 1;
    }
    log.cycles = now;
    Ok(log)
}

/// A cycle limit no correct run of `script` over `net` reaches: each step's own worst
/// case (a transfer and the latency, or the compute), with room to spare.
pub fn cycle_limit(script: &[Step], net: NetworkConfig) -> u64 {
    let slack = net.latency + 64;
    let steps: u64 = script
        .iter()
        .map(|s| match *s {
            Step::Send(Command::Put { bytes, .. } | Command::Get { bytes, .. }) => {
                net.transfer_cycles(bytes) + slack
            }
            Step::Compute(n) => n + 1,
            Step::Send(_) | Step::AwaitFins => slack,
        })
        .sum();
    2 * steps + 10_000
}

/// Whether the unit answers `c`: flushes (FIN), and commands naming a missing window (error).
pub fn owes_response(c: &Command, windows: usize) -> bool {
    match *c {
        Command::FlushAll | Command::Flush { .. } => true,
        Command::Put { window, .. } | Command::Get { window, .. } => window as usize >= windows,
    }
}

/// The host's busy pattern: true when it does not take a response this cycle.
fn policy_rng(policy: ResponsePolicy) -> impl FnMut() -> bool {
    let mut rng = match policy {
        ResponsePolicy::Always => None,
        ResponsePolicy::Sometimes { n, seed } => Some((crate::workload::streams::Rng::new(seed), n.max(1))),
    };
    move || match &mut rng {
        None => false,
        Some((r, n)) => r.below(*n) == 0,
    }
}

/// A random script of `n` steps for a unit of `windows` windows: puts and gets of 1 byte
/// to 8 KiB (about two in three steps), flushes, flush_alls, commands naming a window one
/// past the last, pauses of up to 50 cycles and waits for every FIN, so counters fill,
/// drain and wrap.
pub fn random_script(seed: u64, n: usize, windows: usize) -> Vec<Step> {
    let mut r = crate::workload::streams::Rng::new(seed);
    let window = |r: &mut crate::workload::streams::Rng| {
        if r.chance(3) {
            windows as u8
        } else {
            r.below(windows as u64) as u8
        }
    };
    (0..n)
        .map(|_| {
            let roll = r.below(100);
            if roll < 66 {
                let (w, target) = (window(&mut r), r.below(1 << 16) as u16);
                let bytes = 1 + r.below(8192) as u32;
                Step::Send(if r.chance(50) {
                    Command::Put { window: w, target, bytes }
                } else {
                    Command::Get { window: w, target, bytes }
                })
            } else if roll < 84 {
                Step::Send(Command::Flush { window: window(&mut r) })
            } else if roll < 89 {
                Step::Send(Command::FlushAll)
            } else if roll < 97 {
                Step::Compute(1 + r.below(50))
            } else {
                Step::AwaitFins
            }
        })
        .collect()
}
