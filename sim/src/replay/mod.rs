//! Trace-driven matching: from a DUMPI run to per-rank point-to-point events
//! ([`events`]), queue-depth statistics as the published analyzer defines them
//! ([`pending`]), and matching streams rebuilt across ranks ([`full`]) that any
//! [`crate::Matcher`] can replay.

pub mod analyzer_hash;
pub mod clocks;
pub mod comms;
pub mod events;
pub mod full;
pub mod pending;

use crate::dumpi::trace::Run;
use comms::{Communicators, WORLD_HANDLE};
use events::{rank_events, Timed};

/// A run's events, rank by rank, with its communicators.
#[derive(Clone, Debug)]
pub struct RunEvents {
    pub world_size: u32,
    pub ranks: Vec<(u32, Vec<Timed>)>,
    pub comms: Communicators,
}

/// The size of `MPI_COMM_WORLD`: the `.meta` file's `numprocs`, a recorded
/// `MPI_Comm_size` of the world, the traced ranks, or the highest peer rank named by a
/// send or receive, whichever is largest (a one-rank trace of a large job may have
/// nothing but the peers).
fn world_size(run: &Run) -> u32 {
    let from_meta = run.meta.get("numprocs").and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
    let from_calls = run
        .ranks
        .iter()
        .flat_map(|(_, t)| &t.records)
        .filter(|r| r.name() == "MPI_Comm_size" && r.int(0) == Some(WORLD_HANDLE))
        .filter_map(|r| r.int(1))
        .max()
        .unwrap_or(0) as u32;
    let traced = run.ranks.iter().map(|(r, _)| r + 1).max().unwrap_or(0);
    let peers = run
        .ranks
        .iter()
        .flat_map(|(_, t)| &t.records)
        .filter(|r| {
            r.name().contains("send")
                || r.name().contains("recv")
                || r.name().contains("Send")
                || r.name().contains("Recv")
        })
        .filter_map(|r| r.int(2))
        .filter(|&p| (0..1 << 24).contains(&p))
        .max()
        .map_or(0, |p| p as u32 + 1);
    from_meta.max(from_calls).max(traced).max(peers)
}

/// The matching streams of every traced rank, clocks corrected for skew when the run's
/// causality constraints are consistent (the flag says whether they were).
pub fn streams(events: &RunEvents, latency: f64) -> Result<(Vec<full::RankStream>, bool), String> {
    let offsets = clocks::causal_offsets(&events.ranks, &events.comms, latency);
    let corrected = offsets.is_some();
    Ok((
        full::matching_streams(&events.ranks, &events.comms, latency, &offsets.unwrap_or_default())?,
        corrected,
    ))
}

/// Extracts every rank's events.
pub fn run_events(run: &Run) -> Result<RunEvents, String> {
    let world = world_size(run);
    let mut comms = Communicators::new(world);
    let mut ranks = Vec::with_capacity(run.ranks.len());
    for (rank, trace) in &run.ranks {
        ranks.push((*rank, rank_events(*rank, &trace.records, &mut comms)?));
    }
    let traced: Vec<u32> = ranks.iter().map(|(r, _)| *r).collect();
    comms.finish(&traced);
    // Records of one communicator made on different ranks through different parents (the
    // two sides of a merged intercommunicator) get one id only once all ranks are read.
    for (_, events) in &mut ranks {
        for e in events {
            match &mut e.event {
                events::Event::Post { comm, .. }
                | events::Event::Send { comm, .. }
                | events::Event::Probe { comm, .. } => *comm = comms.canonical(*comm),
                _ => {}
            }
        }
    }
    Ok(RunEvents { world_size: world, ranks, comms })
}
