//! Rebuilding each rank's matching stream from the whole run: its own receives, probes and
//! cancels at the times it made them, and every message sent to it by a traced rank,
//! arriving at the send's time plus a fixed latency, all on clocks corrected for skew. Ties keep a sender's messages in
//! send order (MPI's non-overtaking rule) and put a rank's own calls before arrivals.
//! Messages from ranks that are not in the trace never arrive: a single-rank trace of a
//! larger job shows its posted receives waiting.

use super::comms::Communicators;
use super::events::{Event, Timed};
use crate::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::ops::Op;
use std::collections::HashMap;

/// The operations one rank's matching engine sees, in order.
#[derive(Clone, Debug, Default)]
pub struct RankStream {
    pub rank: u32,
    pub ops: Vec<Op>,
    /// Sends by this rank to ranks that are not in the trace.
    pub sends_to_untraced: u64,
}

struct Pending {
    time: f64,
    /// 0: the rank's own call, 1: an arrival.
    class: u8,
    from: u32,
    seq: usize,
    op: Op,
}

fn to_u32(v: i64, what: &str, rank: u32) -> Result<u32, String> {
    u32::try_from(v)
        .map_err(|_| format!("rank {rank}: {what} {v} is not a rank or tag the matchers can hold"))
}

/// A receive's or probe's named source as a matcher rank, checked against its
/// communicator: a source outside it is an error, so a corrupt source cannot make a
/// matcher size per-source tables for it. A communicator whose members are unknown (made
/// by `MPI_Comm_create`) is at most the world, so its sources are checked against that.
fn source(comms: &Communicators, comm: u32, src: Option<i64>, rank: u32) -> Result<Option<u32>, String> {
    let Some(s) = src else { return Ok(None) };
    let members_known = comms.world_rank(comm, 0).is_ok();
    let inside =
        if members_known { comms.world_rank(comm, s) } else { comms.world_rank(super::comms::WORLD, s) };
    inside.map_err(|e| format!("rank {rank}: a receive from source {s}: {e}"))?;
    to_u32(s, "source", rank).map(Some)
}

/// Builds every traced rank's stream. `latency` is in seconds; `offsets` corrects each
/// rank's clock (see [`super::clocks`]; ranks missing from it keep their clock).
pub fn matching_streams(
    ranks: &[(u32, Vec<Timed>)],
    comms: &Communicators,
    latency: f64,
    offsets: &HashMap<u32, f64>,
) -> Result<Vec<RankStream>, String> {
    let traced: HashMap<u32, usize> = ranks.iter().enumerate().map(|(i, (r, _))| (*r, i)).collect();
    let mut queues: Vec<Vec<Pending>> = ranks.iter().map(|_| Vec::new()).collect();
    let mut streams: Vec<RankStream> =
        ranks.iter().map(|(r, _)| RankStream { rank: *r, ..Default::default() }).collect();
    let (mut recv_id, mut msg_id) = (0u64, 0u64);
    for (i, (rank, events)) in ranks.iter().enumerate() {
        let mut requests: HashMap<i64, RecvId> = HashMap::new();
        let offset = offsets.get(rank).copied().unwrap_or(0.0);
        for (seq, Timed { time, event, .. }) in events.iter().enumerate() {
            let time = time + offset;
            let own = |op: Op| Pending { time, class: 0, from: *rank, seq, op };
            match event {
                Event::Post { request, comm, src, tag } => {
                    if src.is_some_and(|s| s < 0) {
                        continue; // MPI_PROC_NULL: completes at once, matches nothing
                    }
                    recv_id += 1;
                    if let Some(q) = request {
                        requests.insert(*q, RecvId(recv_id));
                    }
                    let spec = RecvSpec::new(
                        *comm,
                        source(comms, *comm, *src, *rank)?,
                        tag.map(|t| to_u32(t, "tag", *rank)).transpose()?,
                    );
                    queues[i].push(own(Op::PostRecv { recv: RecvId(recv_id), spec }));
                }
                Event::Probe { comm, src, tag } => {
                    if src.is_some_and(|s| s < 0) {
                        continue;
                    }
                    let spec = RecvSpec::new(
                        *comm,
                        source(comms, *comm, *src, *rank)?,
                        tag.map(|t| to_u32(t, "tag", *rank)).transpose()?,
                    );
                    queues[i].push(own(Op::Probe { spec }));
                }
                Event::Cancel { request } => {
                    if let Some(recv) = requests.get(request) {
                        queues[i].push(own(Op::Cancel { recv: *recv }));
                    }
                }
                Event::Send { comm, dest, tag } => {
                    if *dest < 0 {
                        continue; // MPI_PROC_NULL
                    }
                    let dest_world =
                        comms.world_rank(*comm, *dest).map_err(|e| format!("rank {rank}: a send on {e}"))?;
                    let Some(&d) = traced.get(&dest_world) else {
                        streams[i].sends_to_untraced += 1;
                        continue;
                    };
                    let src = comms.local_rank(*comm, *rank).ok_or_else(|| {
                        format!("rank {rank} sends on communicator {comm} it is not a member of")
                    })?;
                    msg_id += 1;
                    let env = Envelope::new(*comm, src, to_u32(*tag, "tag", *rank)?);
                    queues[d].push(Pending {
                        time: time + latency,
                        class: 1,
                        from: *rank,
                        seq,
                        op: Op::Arrive { msg: MsgId(msg_id), env },
                    });
                }
                Event::Complete { .. } => {}
            }
        }
    }
    for (q, s) in queues.iter_mut().zip(&mut streams) {
        q.sort_by(|a, b| {
            a.time
                .total_cmp(&b.time)
                .then(a.class.cmp(&b.class))
                .then(a.from.cmp(&b.from))
                .then(a.seq.cmp(&b.seq))
        });
        s.ops = q.iter().map(|p| p.op).collect();
    }
    Ok(streams)
}
