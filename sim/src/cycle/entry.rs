//! How the cycle models hold a queued entry and a search key: the envelope packed into one
//! word (communicator 32 | source 32 | tag 32, the widest fields the engine takes) with a mask of
//! the bits its wildcards leave unmatched, so a match is one xor and one and — the models
//! scan queues tens of thousands deep.

use crate::model::envelope::{Envelope, RecvSpec};
use std::collections::VecDeque;

/// A queued receive or message.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u128,
    pub wild: u128,
    pub handle: u32,
    /// Posting label: the engine numbers every queued entry, oldest smallest.
    pub label: u32,
}

impl Entry {
    /// The source rank.
    pub fn src(&self) -> u32 {
        (self.key >> 32) as u32
    }

    /// Whether the entry is a receive with `ANY_SOURCE`.
    pub fn any_source(&self) -> bool {
        self.wild & SRC_BITS != 0
    }
}

const SRC_BITS: u128 = 0xffff_ffff << 32;
const TAG_BITS: u128 = 0xffff_ffff;

fn pack(comm: u32, src: Option<u32>, tag: Option<u32>) -> (u128, u128) {
    let key = (comm as u128) << 64 | (src.unwrap_or(0) as u128) << 32 | tag.unwrap_or(0) as u128;
    let wild = if src.is_none() { SRC_BITS } else { 0 } | if tag.is_none() { TAG_BITS } else { 0 };
    (key, wild)
}

/// What a search looks for: an envelope (wildcards on either side) or a handle (cancel).
#[derive(Clone, Copy, Debug)]
pub enum Key {
    Envelope { key: u128, wild: u128 },
    Handle(u32),
}

impl Key {
    pub fn of_spec(spec: &RecvSpec) -> Key {
        let (key, wild) = pack(spec.comm, spec.src, spec.tag);
        Key::Envelope { key, wild }
    }

    pub fn of_env(env: &Envelope) -> Key {
        Key::of_spec(&RecvSpec::exact(*env))
    }

    /// The entry this key describes, to queue it.
    pub fn entry(&self, handle: u64, label: u32) -> Entry {
        let Key::Envelope { key, wild } = *self else { unreachable!("only envelopes are queued") };
        Entry { key, wild, handle: handle as u32, label }
    }

    /// The source rank a search names, if it names one.
    pub fn src(&self) -> Option<u32> {
        match *self {
            Key::Envelope { key, wild } if wild & SRC_BITS == 0 => Some((key >> 32) as u32),
            _ => None,
        }
    }

    #[inline]
    pub fn matches(&self, e: &Entry) -> bool {
        match *self {
            Key::Envelope { key, wild } => (e.key ^ key) & !(e.wild | wild) == 0,
            Key::Handle(h) => e.handle == h,
        }
    }
}

/// The index of the first entry of `entries` that `key` matches. Envelope keys are
/// compared eight entries at a time without a branch per entry, which lets the compiler
/// keep the loop in registers: deep list walks are most of a model's time.
#[inline]
pub fn position(entries: &[Entry], key: &Key) -> Option<usize> {
    let Key::Envelope { key, wild } = *key else {
        return entries.iter().position(|e| key.matches(e));
    };
    let hit = |e: &Entry| (e.key ^ key) & !(e.wild | wild) == 0;
    let mut chunks = entries.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mask = chunk.iter().enumerate().fold(0u32, |m, (i, e)| m | (hit(e) as u32) << i);
        if mask != 0 {
            return Some(base + mask.trailing_zeros() as usize);
        }
        base += 8;
    }
    chunks.remainder().iter().position(hit).map(|p| base + p)
}

/// [`position`] in a ring buffer.
#[inline]
pub fn position_in(list: &VecDeque<Entry>, key: &Key) -> Option<usize> {
    let (front, back) = list.as_slices();
    position(front, key).or_else(|| position(back, key).map(|p| front.len() + p))
}
