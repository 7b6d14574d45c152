//! Reading DUMPI MPI traces: the binary form (`PREFIX.meta` plus one `PREFIX-NNNN.bin` per
//! rank) natively, with no C library, and the text form printed by `dumpi2ascii`.
//!
//! Both readers produce the same [`Record`]s, so a test can require them to agree record by
//! record. Malformed input is an error naming the file, the rank and the byte offset (binary)
//! or line (text); nothing in here panics on bad input or allocates more than the input's
//! size can justify.
//!
//! Every count read from a file is bounded before it is used:
//!
//! - binary array lengths by the bytes left in the file (an element takes at least one
//!   byte, a status ten), so a corrupt length is an error, not an allocation;
//! - text arrays and records by the text that spells them;
//! - rank numbers (in file names) and a `.meta` file's `numprocs` by [`MAX_RANKS`], and
//!   `numprocs` further by the rank files that exist (see [`trace`]);
//! - values that are only numbers (an `MPI_Comm_size` result, a peer rank) are never
//!   used as sizes here; the replay ([`crate::traces::replay`]) bounds the world size by
//!   [`MAX_RANKS`] and checks every peer against its communicator.
//!
//! Decoded records take a bounded multiple of the bytes that encode them: a [`Record`] is
//! about 112 bytes plus its arguments, and the smallest binary record (an argument-less
//! call without times) is 3 bytes, so a file of nothing else decodes to about 37 times
//! its size, up to twice that while the list grows (the footer's counts size the list up
//! front, to at most one record per 16 bytes). Real traces decode to about 11 times their size.
//! The mutation tests in `sim/tests/trace_fuzz.rs` hold the whole read-and-replay pipeline
//! to 64 times the input's size plus 64 MiB, plus the replay's per-rank tables for the
//! world size the run claims (at most [`MAX_RANKS`] ranks).

pub mod binary;
pub mod calls;
pub mod text;
pub mod trace;

use std::fmt;

/// The most ranks a run may have: rank numbers (in file names) must be below it, and a
/// `.meta` file's `numprocs` and the world size a replay derives (from `MPI_Comm_size` or
/// peer ranks) at most it. 2^20 is well above the largest published DUMPI runs (tens of thousands of
/// ranks) and keeps per-rank tables of a world that size to a few hundred MB.
pub const MAX_RANKS: u32 = 1 << 20;

/// A point in time as DUMPI stores it (seconds already corrected by the file's bias).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Time {
    pub sec: i64,
    pub nsec: u32,
}

impl Time {
    pub fn as_secs_f64(self) -> f64 {
        self.sec as f64 + self.nsec as f64 * 1e-9
    }
}

/// When a call was entered and when it returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: Time,
    pub stop: Time,
}

/// One `MPI_Status` as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    pub bytes: i32,
    pub source: i32,
    pub cancelled: u8,
    pub error: u8,
    /// Not stored by DUMPI before 0.6.3.
    pub tag: Option<i32>,
}

/// One decoded argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Int(i64),
    Ints(Vec<i64>),
    Rows(Vec<Vec<i64>>),
    Str(String),
    Strs(Vec<String>),
    StrRows(Vec<Vec<String>>),
    /// `None`: the trace did not store statuses (or stored them as ignored).
    Statuses(Option<Vec<Status>>),
    /// A field that only the root of a rooted collective stores.
    NotStored,
}

/// One recorded MPI call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub label: u16,
    pub thread: u16,
    pub cpu: Option<Span>,
    pub wall: Option<Span>,
    pub args: Vec<Arg>,
}

impl Record {
    pub fn name(&self) -> &'static str {
        calls::layout(self.label).map_or("unknown call", |c| c.name)
    }

    /// Integer argument `i` (a one-element array counts as its element).
    pub fn int(&self, i: usize) -> Option<i64> {
        match self.args.get(i)? {
            Arg::Int(v) => Some(*v),
            Arg::Ints(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }

    /// Integer-array argument `i`.
    pub fn ints(&self, i: usize) -> Option<&[i64]> {
        match self.args.get(i)? {
            Arg::Ints(v) => Some(v),
            Arg::Int(v) => Some(std::slice::from_ref(v)),
            _ => None,
        }
    }

    /// The arguments as a flat list of scalars in storage order, for comparing a binary
    /// record with its text form: arrays contribute their elements, statuses their fields
    /// (bytes, source, cancelled, error, tag).
    pub fn flat_args(&self) -> Vec<FlatValue> {
        let mut out = Vec::new();
        for a in &self.args {
            match a {
                Arg::Int(v) => out.push(FlatValue::Int(*v)),
                Arg::Ints(v) => out.extend(v.iter().map(|x| FlatValue::Int(*x))),
                Arg::Rows(rows) => out.extend(rows.iter().flatten().map(|x| FlatValue::Int(*x))),
                Arg::Str(s) => out.push(FlatValue::Str(s.clone())),
                Arg::Strs(v) => out.extend(v.iter().cloned().map(FlatValue::Str)),
                Arg::StrRows(rows) => out.extend(rows.iter().flatten().cloned().map(FlatValue::Str)),
                Arg::Statuses(Some(st)) => {
                    for s in st {
                        out.extend(
                            [s.bytes as i64, s.source as i64, s.cancelled as i64, s.error as i64]
                                .map(FlatValue::Int),
                        );
                        if let Some(t) = s.tag {
                            out.push(FlatValue::Int(t as i64));
                        }
                    }
                }
                Arg::Statuses(None) | Arg::NotStored => {}
            }
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlatValue {
    Int(i64),
    Str(String),
}

/// Per-call counts from a trace's footer: calls made and calls seen but not recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallCounts {
    pub called: Vec<u32>,
    pub ignored: Vec<u32>,
}

/// What went wrong reading a trace, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub file: String,
    pub rank: Option<u32>,
    /// Byte offset (binary form) or line number (text form), when known.
    pub at: Option<Location>,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    Byte(u64),
    Line(usize),
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(r) = self.rank {
            write!(f, " (rank {r})")?;
        }
        match self.at {
            Some(Location::Byte(b)) => write!(f, ", byte {b}")?,
            Some(Location::Line(l)) => write!(f, ", line {l}")?,
            None => {}
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for TraceError {}
