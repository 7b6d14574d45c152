//! What matching means: operations and their outcomes, envelopes, the [`matcher::Matcher`]
//! trait, the golden model (unbounded, and with the hardware's finite queues), the
//! completion unit's semantics, and users' own operation files.

pub mod bounded;
pub mod completion;
pub mod envelope;
pub mod golden;
pub mod matcher;
pub mod op_file;
pub mod ops;
