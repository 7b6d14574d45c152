//! What the list and queue RTL tests share: an entry as the hardware stores it, a proptest
//! strategy for entries with few distinct envelopes (so searches hit) and the reference
//! match rule the RTL must follow.

use proptest::prelude::*;
use tagmatch_hdl::two_level::bram_list::{MODE_ANY, MODE_HANDLE};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub comm: u64,
    pub src: u64,
    pub tag: u64,
    pub src_any: bool,
    pub tag_any: bool,
    pub handle: u64,
    /// The posting label; the test's driver sets it when it inserts the entry.
    pub label: u64,
}

/// Entries over two communicators, three sources and three tags, each wildcard one time in
/// five, with handles below `handles`.
pub fn entry(handles: u64) -> impl Strategy<Value = Entry> {
    (0..2u64, 0..3u64, 0..3u64, prop::bool::weighted(0.2), prop::bool::weighted(0.2), 0..handles).prop_map(
        |(comm, src, tag, src_any, tag_any, handle)| Entry {
            comm,
            src,
            tag,
            src_any,
            tag_any,
            handle,
            label: 0,
        },
    )
}

/// Whether stored entry `e` answers a search for `key` in `mode` (wildcards either side).
pub fn matches(mode: u64, key: &Entry, e: &Entry) -> bool {
    match mode {
        MODE_ANY => true,
        MODE_HANDLE => e.handle == key.handle,
        _ => {
            e.comm == key.comm
                && (e.src == key.src || e.src_any || key.src_any)
                && (e.tag == key.tag || e.tag_any || key.tag_any)
        }
    }
}
