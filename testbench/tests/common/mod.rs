//! What the CAM, list and queue RTL tests share: an entry as the hardware stores it, a proptest
//! strategy for entries with few distinct envelopes (so searches hit), the reference
//! match rule the RTL must follow, and the Verilator side: building a block and driving an
//! entry onto its ports.
// Each test binary includes this module and uses a part of it.
#![allow(dead_code)]

use proptest::prelude::*;
use tagmatch_hdl::two_level::bram_list::{MODE_ANY, MODE_ENVELOPE, MODE_HANDLE};
use tagmatch_testbench::verilator::{ports_from, BuildSpec, Model};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    entry_over(3, handles)
}

/// [`entry`] with sources and tags below `values`.
pub fn entry_over(values: u64, handles: u64) -> impl Strategy<Value = Entry> {
    (0..2u64, 0..values, 0..values, prop::bool::weighted(0.2), prop::bool::weighted(0.2), 0..handles)
        .prop_map(|(comm, src, tag, src_any, tag_any, handle)| Entry {
            comm,
            src,
            tag,
            src_any,
            tag_any,
            handle,
            label: 0,
        })
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

/// A list's command, for the list tests: insert an entry, search in a mode, remove the last
/// search's answer.
#[derive(Clone, Copy, Debug)]
pub enum ListCmd {
    Insert(Entry),
    Search { mode: u64, key: Entry },
    Remove,
}

/// List commands with handles below `handles`, `inserts` inserts to 3 envelope searches, a
/// search by handle, one for any entry and 3 removals.
pub fn list_cmd(handles: u64, inserts: u32) -> impl Strategy<Value = ListCmd> {
    prop_oneof![
        inserts => entry(handles).prop_map(ListCmd::Insert),
        3 => entry(handles).prop_map(|key| ListCmd::Search { mode: MODE_ENVELOPE, key }),
        1 => entry(handles).prop_map(|key| ListCmd::Search { mode: MODE_HANDLE, key }),
        1 => entry(handles).prop_map(|key| ListCmd::Search { mode: MODE_ANY, key }),
        3 => Just(ListCmd::Remove),
    ]
}

/// The block `verilog` (top module `top`, clock `clock`, `ports`) built in Verilator as
/// `name` (cached).
pub fn build(name: String, verilog: String, ports: &[(&str, u32, bool)]) -> Result<Model, String> {
    let spec = BuildSpec {
        name,
        verilog,
        top: "top".into(),
        clock: "clock".into(),
        ports: ports_from(ports),
        trace: false,
    };
    Model::build(&spec).map(|(m, _)| m)
}

/// Drives entry `e` onto the ports `{prefix}comm` … `{prefix}handle` (an `EntryPorts`
/// bundle: `in_` an insert's, `key_` a search's).
pub fn drive(m: &mut Model, prefix: &str, e: &Entry) {
    for (field, v) in [
        ("comm", e.comm),
        ("src", e.src),
        ("tag", e.tag),
        ("src_any", e.src_any as u64),
        ("tag_any", e.tag_any as u64),
        ("handle", e.handle),
    ] {
        let port = m.port(&format!("{prefix}{field}")).unwrap_or_else(|e| panic!("{e}"));
        m.set(port, v);
    }
}
