//! The operation stream every matcher consumes and the outcome it reports for each
//! operation. Two engines agree when they report equal outcomes for every operation.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
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
    /// Empties both queues (the end of a job on an engine that outlives it): every posted
    /// receive and unexpected message is dropped, posting labels restart.
    Flush,
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
    /// Result of `Flush`: both queues are empty.
    Flushed,
}

/// How messages name an operation: "post receive 7 (comm 0 src ANY tag 3)".
impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Op::PostRecv { recv, spec } => write!(f, "post receive {} ({spec})", recv.0),
            Op::Arrive { msg, env } => write!(f, "arrival of message {} ({env})", msg.0),
            Op::Cancel { recv } => write!(f, "cancel of receive {}", recv.0),
            Op::Probe { spec } => write!(f, "probe ({spec})"),
            Op::MatchedProbe { spec } => write!(f, "matched probe ({spec})"),
            Op::Flush => f.write_str("flush"),
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let found = |f: &mut std::fmt::Formatter<'_>, m: &Option<MsgId>| match m {
            Some(m) => write!(f, "found message {}", m.0),
            None => f.write_str("found nothing"),
        };
        match self {
            Outcome::Matched { recv, msg } => write!(f, "matched receive {} with message {}", recv.0, msg.0),
            Outcome::Queued => f.write_str("queued"),
            Outcome::Cancelled { recv } => write!(f, "cancelled receive {}", recv.0),
            Outcome::NotFound => f.write_str("not found"),
            Outcome::Probed(m) => found(f, m),
            Outcome::MatchedProbed(m) => found(f, m).and_then(|_| f.write_str(" and removed it")),
            Outcome::Overflow => f.write_str("overflow"),
            Outcome::Flushed => f.write_str("flushed"),
        }
    }
}
