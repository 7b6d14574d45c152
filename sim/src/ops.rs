//! The operation stream every matcher consumes and the outcome it reports for each
//! operation. Two engines agree when they report equal outcomes for every operation.

use crate::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use serde::{Deserialize, Serialize};

/// One matching operation, as seen by the receiving process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// A receive is posted (MPI_Irecv): search the UMQ, else append to the PRQ.
    PostRecv { recv: RecvId, spec: RecvSpec },
    /// A message arrives: search the PRQ, else append to the UMQ.
    Arrive { msg: MsgId, env: Envelope },
    /// MPI_Cancel of a posted receive: remove it from the PRQ if it is still there.
    Cancel { recv: RecvId },
    /// MPI_Iprobe: find the oldest matching unexpected message, leave it queued.
    Probe { spec: RecvSpec },
    /// MPI_Improbe: find the oldest matching unexpected message and remove it; the later
    /// MPI_Mrecv on the returned handle needs no matching.
    MatchedProbe { spec: RecvSpec },
}

/// What happened to one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// A receive and a message were paired (by `PostRecv` or by `Arrive`).
    Matched { recv: RecvId, msg: MsgId },
    /// Nothing matched; the receive or message was appended to its queue.
    Queued,
    /// The receive was still posted and is now removed.
    Cancelled { recv: RecvId },
    /// The receive to cancel is not in the PRQ (already matched, cancelled or unknown).
    NotFound,
    /// Result of `Probe`: the oldest matching message, still queued.
    Probed(Option<MsgId>),
    /// Result of `MatchedProbe`: the oldest matching message, now removed.
    MatchedProbed(Option<MsgId>),
    /// The queue the operation needed is full (hardware only): nothing was applied and
    /// the host keeps the operation.
    Overflow,
}
