//! tagmatch-sim: the golden MPI matching model, the software matchers it is compared with,
//! and the scenario scripts shared with the real-MPI oracle.
//!
//! Every engine implements [`Matcher`] and consumes the same [`Op`] stream; an engine is
//! correct when it reports the same [`Outcome`] as [`Golden`] for every operation.

pub mod arena_list;
pub mod bounded;
pub mod completion;
pub mod cycle;
pub mod dumpi;
pub mod envelope;
pub mod four_index;
pub mod golden;
pub mod hash_bins;
pub mod host;
pub mod linked_list;
pub mod matcher;
pub mod matchers;
pub mod onesided;
pub mod op_file;
pub mod ops;
pub mod optimistic;
pub mod oracle;
pub mod partner;
pub mod rank_based;
pub mod replay;
pub mod streams;
pub mod workloads;

pub use envelope::{Comm, Envelope, MsgId, Rank, RecvId, RecvSpec, Tag, ANY_SOURCE, ANY_TAG};
pub use golden::Golden;
pub use matcher::{Matcher, WorkStats};
pub use matchers::{MatcherKind, MatcherOptions};
pub use ops::{Op, Outcome};
