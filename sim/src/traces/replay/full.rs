//! Rebuilding each rank's matching stream from the whole run: its own receives, probes and
//! cancels at the times it made them, and every message sent to it by a traced rank,
//! arriving at the send's time plus a fixed latency, all on clocks corrected for skew. Ties keep a sender's messages in
//! send order (MPI's non-overtaking rule) and put a rank's own calls before arrivals.
//! Messages from ranks that are not in the trace never arrive: a single-rank trace of a
//! larger job shows its posted receives waiting.

use super::comms::{Communicators, Unroutable};
use super::events::{Event, Timed};
use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::ops::Op;
use std::collections::HashMap;

/// The operations one rank's matching engine sees, in order.
#[derive(Clone, Debug, Default)]
pub struct RankStream {
    pub rank: u32,
    pub ops: Vec<Op>,
    /// Sends by this rank to ranks that are not in the trace.
    pub sends_to_untraced: u64,
    /// Sends by this rank on communicators whose members the trace does not give (see
    /// [`super::comms`]): dropped.
    pub sends_unroutable: u64,
    /// The first communicator such a send used, for the report.
    pub unroutable_comm: Option<u32>,
}

struct Pending {
    time: f64,
    /// 0: the rank's own call, 1: an arrival.
    class: u8,
    from: u32,
    seq: usize,
    op: Op,
}

/// Where an event came from, for messages: "rank 3, record 120 (MPI_Irecv)".
fn at(rank: u32, e: &Timed) -> String {
    format!("rank {rank}, record {} ({})", e.record, e.call)
}

fn tag_u32(v: i64, rank: u32, e: &Timed) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| format!("{}: tag {v} is negative or above 2^32", at(rank, e)))
}

/// A receive's or probe's source, checked against the communicator's size (the remote
/// group's on an intercommunicator), or against the world when the size is unknown.
fn source_u32(v: i64, comm: u32, comms: &Communicators, rank: u32, e: &Timed) -> Result<u32, String> {
    let limit = comms.source_range(comm).unwrap_or(comms.world_size());
    u32::try_from(v).ok().filter(|&s| s < limit).ok_or_else(|| {
        format!(
            "{}: source rank {v} is outside {}, which has {limit} ranks",
            at(rank, e),
            comms.describe(comm)
        )
    })
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
        for (seq, e) in events.iter().enumerate() {
            let (time, event) = (e.time + offset, &e.event);
            let own = |op: Op| Pending { time, class: 0, from: *rank, seq, op };
            match event {
                Event::Post { request, comm, src, tag, .. } => {
                    if src.is_some_and(|s| s < 0) {
                        continue; // MPI_PROC_NULL: completes at once, matches nothing
                    }
                    recv_id += 1;
                    if let Some(q) = request {
                        requests.insert(*q, RecvId(recv_id));
                    }
                    let spec = RecvSpec::new(
                        *comm,
                        src.map(|s| source_u32(s, *comm, comms, *rank, e)).transpose()?,
                        tag.map(|t| tag_u32(t, *rank, e)).transpose()?,
                    );
                    queues[i].push(own(Op::PostRecv { recv: RecvId(recv_id), spec }));
                }
                Event::Probe { comm, src, tag } => {
                    if src.is_some_and(|s| s < 0) {
                        continue;
                    }
                    let spec = RecvSpec::new(
                        *comm,
                        src.map(|s| source_u32(s, *comm, comms, *rank, e)).transpose()?,
                        tag.map(|t| tag_u32(t, *rank, e)).transpose()?,
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
                    let route = match comms.route(*comm, *rank, *dest) {
                        Ok(route) => route,
                        Err(Unroutable::UnknownMembers) => {
                            streams[i].sends_unroutable += 1;
                            streams[i].unroutable_comm.get_or_insert(*comm);
                            continue;
                        }
                        Err(Unroutable::Invalid(why)) => return Err(format!("{}: {why}", at(*rank, e))),
                    };
                    let Some(&d) = traced.get(&route.dest_world) else {
                        streams[i].sends_to_untraced += 1;
                        continue;
                    };
                    msg_id += 1;
                    let env = Envelope::new(route.arrival_comm, route.source, tag_u32(*tag, *rank, e)?);
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
