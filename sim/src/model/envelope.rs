//! Message envelopes, receive patterns and the handles that name them.
//!
//! A message always carries a full envelope (communicator, source rank, tag). A receive
//! carries a pattern in which the source and/or the tag may be a wildcard
//! (`ANY_SOURCE`, `ANY_TAG`), represented as `None` so that no real rank or tag value is
//! reserved for it.

use serde::{Deserialize, Serialize};

/// Communicator (MPI context id). The engine stores `--comm-bits` of it (16 by default)
/// and refuses wider values; the models keep 32.
pub type Comm = u32;
/// Source rank within a communicator.
pub type Rank = u32;
/// Message tag (MPI tags are non-negative).
pub type Tag = u32;

/// `ANY_SOURCE` in a [`RecvSpec`].
pub const ANY_SOURCE: Option<Rank> = None;
/// `ANY_TAG` in a [`RecvSpec`].
pub const ANY_TAG: Option<Tag> = None;

/// The envelope of an arriving message: never a wildcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Envelope {
    pub comm: Comm,
    pub src: Rank,
    pub tag: Tag,
}

/// What a receive (or probe) asks for: `None` in `src` or `tag` is a wildcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecvSpec {
    pub comm: Comm,
    pub src: Option<Rank>,
    pub tag: Option<Tag>,
}

/// Which wildcards a receive uses; the optimistic matcher keeps one index per class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WildcardClass {
    Exact,
    AnySource,
    AnyTag,
    AnyBoth,
}

impl WildcardClass {
    pub const ALL: [WildcardClass; 4] =
        [WildcardClass::Exact, WildcardClass::AnySource, WildcardClass::AnyTag, WildcardClass::AnyBoth];

    pub fn index(self) -> usize {
        self as usize
    }
}

impl Envelope {
    pub fn new(comm: Comm, src: Rank, tag: Tag) -> Self {
        Envelope { comm, src, tag }
    }
}

impl RecvSpec {
    pub fn new(comm: Comm, src: Option<Rank>, tag: Option<Tag>) -> Self {
        RecvSpec { comm, src, tag }
    }

    /// A receive that names source and tag exactly.
    pub fn exact(env: Envelope) -> Self {
        RecvSpec { comm: env.comm, src: Some(env.src), tag: Some(env.tag) }
    }

    /// Whether a message with envelope `env` satisfies this pattern.
    #[inline]
    pub fn matches(&self, env: &Envelope) -> bool {
        self.comm == env.comm
            && self.src.is_none_or(|s| s == env.src)
            && self.tag.is_none_or(|t| t == env.tag)
    }

    pub fn class(&self) -> WildcardClass {
        match (self.src, self.tag) {
            (Some(_), Some(_)) => WildcardClass::Exact,
            (None, Some(_)) => WildcardClass::AnySource,
            (Some(_), None) => WildcardClass::AnyTag,
            (None, None) => WildcardClass::AnyBoth,
        }
    }
}

/// Handle of a posted receive, chosen by the caller (unique among live receives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RecvId(pub u64);

/// Handle of a message, chosen by the caller (unique among live messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MsgId(pub u64);

impl std::fmt::Display for RecvSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "comm {} src ", self.comm)?;
        match self.src {
            Some(s) => write!(f, "{s}")?,
            None => f.write_str("ANY")?,
        }
        f.write_str(" tag ")?;
        match self.tag {
            Some(t) => write!(f, "{t}"),
            None => f.write_str("ANY"),
        }
    }
}

impl std::fmt::Display for Envelope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "comm {} src {} tag {}", self.comm, self.src, self.tag)
    }
}
