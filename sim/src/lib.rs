//! tagmatch-sim: the golden MPI matching model, the software matchers it is compared with,
//! the cycle-accurate models of the hardware, and the workloads and traces that drive them.
//!
//! - [`model`]: operations, envelopes, the [`Matcher`] trait, the golden model (unbounded and
//!   with finite queues), the completion unit's semantics, operation files;
//! - [`software`]: the software matchers (linked list, rank-based, hash bins, four-index,
//!   partner queues) and building one by name;
//! - [`workload`]: random streams, the preposted and unload benchmarks, the real-MPI oracle's
//!   scenarios;
//! - [`traces`]: the DUMPI reader and the replay of a trace through any matcher;
//! - [`cycle`], [`optimistic`], [`onesided`]: cycle-accurate models of the hardware;
//! - [`host`]: the host driver that keeps matching past the engine's queues.
//!
//! Every engine implements [`Matcher`] and consumes the same [`Op`] stream; an engine is
//! correct when it reports the same [`Outcome`] as [`Golden`] for every operation.

pub mod cycle;
pub mod host;
pub mod model;
pub mod onesided;
pub mod optimistic;
pub mod software;
pub mod traces;
pub mod workload;

pub use model::envelope::{Comm, Envelope, MsgId, Rank, RecvId, RecvSpec, Tag, ANY_SOURCE, ANY_TAG};
pub use model::golden::Golden;
pub use model::matcher::{Matcher, WorkStats};
pub use model::ops::{Op, Outcome};
pub use software::matchers::{MatcherKind, MatcherOptions};
