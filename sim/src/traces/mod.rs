//! Real application traces: the DUMPI reader ([`dumpi`]) and the replay of a trace through
//! any matcher ([`replay`]).

pub mod dumpi;
pub mod replay;
