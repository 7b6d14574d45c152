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

use crate::traces::dumpi::trace::Run;
use crate::traces::dumpi::MAX_RANKS;
use comms::{Communicators, WORLD_HANDLE};
use events::{rank_events, Timed};

/// A run's events, rank by rank, with its communicators.
#[derive(Clone, Debug)]
pub struct RunEvents {
    pub world_size: u32,
    pub ranks: Vec<(u32, Vec<Timed>)>,
    pub comms: Communicators,
}

/// The size of `MPI_COMM_WORLD`. What the run says about it (the `.meta` file's
/// `numprocs`, every recorded `MPI_Comm_size` of the world) must agree, and is used when
/// present; otherwise the world spans the traced ranks and the highest peer rank named by
/// a send or receive (a one-rank trace of a large job may have nothing but the peers).
/// Either way the size is at most [`MAX_RANKS`]: a larger claim is an error, and a larger
/// peer is left out (it is then reported as outside the world where it is used).
fn world_size(run: &Run) -> Result<u32, String> {
    let limit = |what: &str, v: i64| -> Result<u32, String> {
        u32::try_from(v)
            .ok()
            .filter(|&v| (1..=MAX_RANKS).contains(&v))
            .ok_or_else(|| format!("{what} {v} is not a world size from 1 to the limit of {MAX_RANKS} ranks"))
    };
    let mut claimed: Option<(u32, String)> = None;
    let mut claim = |size: u32, source: String| -> Result<(), String> {
        match &claimed {
            Some((s, first)) if *s != size => {
                Err(format!("the world size is {s} ({first}) and {size} ({source}): the run is inconsistent"))
            }
            Some(_) => Ok(()),
            None => {
                claimed = Some((size, source));
                Ok(())
            }
        }
    };
    if let Some(v) = run.meta.get("numprocs") {
        let n = v.parse::<i64>().map_err(|_| format!("numprocs={v} in the .meta file is not a number"))?;
        claim(limit("numprocs=", n)?, "numprocs= in the .meta file".into())?;
    }
    for (rank, t) in &run.ranks {
        for r in t.records.iter().filter(|r| r.name() == "MPI_Comm_size" && r.int(0) == Some(WORLD_HANDLE)) {
            if let Some(v) = r.int(1) {
                claim(limit("MPI_Comm_size of the world", v)?, format!("MPI_Comm_size on rank {rank}"))?;
            }
        }
    }
    let traced = run.ranks.iter().map(|(r, _)| r.saturating_add(1)).max().unwrap_or(0);
    if traced > MAX_RANKS {
        return Err(format!("rank {} is above the limit of {MAX_RANKS} ranks", traced - 1));
    }
    if let Some((size, _)) = claimed {
        return Ok(size.max(traced));
    }
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
        .filter(|&p| (0..MAX_RANKS as i64).contains(&p))
        .max()
        .map_or(0, |p| p as u32 + 1);
    Ok(traced.max(peers))
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
    let world = world_size(run)?;
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
