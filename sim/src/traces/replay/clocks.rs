//! Correcting clock skew between ranks before arrivals are rebuilt.
//!
//! Ranks on different nodes record wall times from different clocks (the AMG trace has
//! three ranks 40 ms behind the rest), and a send time from one clock compared with a
//! receive time from another produces messages that arrive after the receive that took
//! them had already completed. Causality gives constraints: a message sent by `s` at `t_s`
//! and received by a receive that `d` saw complete at `c_d` satisfies
//! `t_s + latency + off_s <= c_d + off_d`. Messages are paired with receives without
//! matching: on a channel (communicator, sender, tag) the k-th send meets the k-th receive
//! that names that sender and tag, provided the receiver posts no wildcard receive on that
//! communicator (then the pairing is not certain and the channel is skipped). The
//! constraints are differences, so the offsets are a shortest-path problem (Bellman-Ford);
//! inconsistent constraints (a negative cycle) leave the clocks as recorded.

use super::comms::Communicators;
use super::events::{Event, Timed};
use std::collections::{HashMap, HashSet};

/// (communicator, source, tag) of an exact receive.
type Channel = (u32, i64, i64);

/// Per-rank offsets (seconds) to add to every time of that rank; `None` when the
/// constraints are inconsistent.
pub fn causal_offsets(
    ranks: &[(u32, Vec<Timed>)],
    comms: &Communicators,
    latency: f64,
) -> Option<HashMap<u32, f64>> {
    let index: HashMap<u32, usize> = ranks.iter().enumerate().map(|(i, (r, _))| (*r, i)).collect();
    // Receiver side: per channel, completion times of exact receives in posting order.
    let mut completions: HashMap<(usize, u32, i64, i64), Vec<f64>> = HashMap::new();
    let mut wildcard_comms: HashSet<(usize, u32)> = HashSet::new();
    for (d, (_, events)) in ranks.iter().enumerate() {
        // (channel, completion time once known), in posting order.
        let mut posted: Vec<(Channel, Option<f64>)> = Vec::new();
        let mut by_request: HashMap<i64, usize> = HashMap::new();
        for e in events {
            match &e.event {
                Event::Post { request, comm, src, tag, .. } => match (src, tag) {
                    (Some(s), Some(t)) => {
                        let done = if request.is_none() { Some(e.end) } else { None };
                        if let Some(q) = request {
                            by_request.insert(*q, posted.len());
                        }
                        posted.push(((*comm, *s, *t), done));
                    }
                    _ => {
                        wildcard_comms.insert((d, *comm));
                    }
                },
                Event::Complete { requests } => {
                    for q in requests {
                        if let Some(k) = by_request.remove(q) {
                            posted[k].1.get_or_insert(e.end);
                        }
                    }
                }
                _ => {}
            }
        }
        for ((comm, s, t), done) in posted {
            // An unknown completion puts no bound: infinity keeps the pairing aligned.
            completions.entry((d, comm, s, t)).or_default().push(done.unwrap_or(f64::INFINITY));
        }
    }
    // Sender side: pair the k-th send of each channel with the k-th receive.
    let n = ranks.len();
    // (d, s) -> bound: off_s - off_d <= bound. A map: only communicating pairs have one.
    let mut bound: HashMap<(usize, usize), f64> = HashMap::new();
    for (s, (rank, events)) in ranks.iter().enumerate() {
        let mut sent: HashMap<(usize, u32, i64, i64), usize> = HashMap::new();
        for e in events {
            let Event::Send { comm, dest, tag } = &e.event else { continue };
            let Ok(route) = comms.route(*comm, *rank, *dest) else { continue };
            let Some(&d) = index.get(&route.dest_world) else { continue };
            if wildcard_comms.contains(&(d, route.arrival_comm)) {
                continue;
            }
            let key = (d, route.arrival_comm, route.source as i64, *tag);
            let k = sent.entry(key).or_insert(0);
            if let Some(&c) = completions.get(&key).and_then(|v| v.get(*k)) {
                let b = bound.entry((d, s)).or_insert(f64::INFINITY);
                *b = b.min(c - (e.time + latency));
            }
            *k += 1;
        }
    }
    // Bellman-Ford from a virtual source joined to every rank with weight 0.
    let mut off = vec![0.0f64; n];
    for round in 0..=n {
        let mut changed = false;
        for (&(d, s), &w) in &bound {
            if w.is_finite() && off[d] + w < off[s] - 1e-12 {
                off[s] = off[d] + w;
                changed = true;
            }
        }
        if !changed {
            return Some(ranks.iter().zip(off).map(|((r, _), o)| (*r, o)).collect());
        }
        if round == n {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(time: f64, event: Event) -> Timed {
        Timed { time, end: time, event, call: "MPI_Irecv", record: 0 }
    }

    #[test]
    fn a_rank_whose_clock_runs_behind_is_moved_forward_relative_to_the_sender() {
        let comms = Communicators::new(2);
        // Rank 1 receives at its time 1.0 a message rank 0 sent at its time 5.0: rank 1's
        // clock must be at least 4.0 (+ latency) behind.
        let r0 = vec![t(5.0, Event::Send { comm: 0, dest: 1, tag: 7 })];
        let r1 = vec![
            t(0.5, Event::Post { request: Some(3), comm: 0, handle: 2, src: Some(0), tag: Some(7) }),
            t(1.0, Event::Complete { requests: vec![3] }),
        ];
        let off = causal_offsets(&[(0, r0), (1, r1)], &comms, 0.1).unwrap();
        assert!((off[&0] - off[&1] - (1.0 - 5.1)).abs() < 1e-9, "{off:?}");
    }
}
