//! Port bundles: signals that travel together from block to block, declared once, so a
//! field added to a bundle reaches every block that carries it.
//!
//! - [`EntryPorts`]: an entry as the two-level queue's blocks take it (the CAM, a list, the
//!   parallel lists, the queue): its envelope, wildcards and handle. Each block has two, the
//!   search key (`key`) and the inserted entry (`r#in`); the CAM has a third, the data
//!   mover's refill (`refill`).
//! - [`ThreadCommandPorts`]: the thread array's command fields beside its `cmd_valid` /
//!   `cmd_ready` handshake, as the array and its controller take them.
//!
//! Names. rust-hdl names a bundle's signal `bundle$field` (and keeps a raw identifier's
//! `r#`), while the emitted Verilog's ports are `bundle_field`: the names the IP shells,
//! harnesses, testbenches, waveforms and timing records know. [`flatten_bundle_names`]
//! writes them so, in every generator of a design or block that holds a bundle (and in the
//! blocks' lint tests). Either way the emitted text is the one the flat ports gave, byte for
//! byte.

use crate::fields::FIELD_BITS;
use rust_hdl::prelude::*;

/// An entry's fields as the two-level queue's blocks take them ([`FIELD_BITS`] each; the
/// generated widths apply inside the blocks, see [`crate::fields`]).
#[derive(LogicInterface, Default)]
pub struct EntryPorts {
    pub comm: Signal<In, Bits<FIELD_BITS>>,
    pub src: Signal<In, Bits<FIELD_BITS>>,
    pub tag: Signal<In, Bits<FIELD_BITS>>,
    /// The source, resp. the tag, is a wildcard (a receive's `MPI_ANY_*`).
    pub src_any: Signal<In, Bit>,
    pub tag_any: Signal<In, Bit>,
    pub handle: Signal<In, Bits<FIELD_BITS>>,
}

/// The thread array's command fields (the ports carry the widest fields the array is
/// generated with; see [`crate::optimistic::thread_array`]).
#[derive(LogicInterface, Default)]
pub struct ThreadCommandPorts {
    pub op: Signal<In, Bits<3>>,
    pub comm: Signal<In, Bits<16>>,
    pub src: Signal<In, Bits<16>>,
    pub tag: Signal<In, Bits<32>>,
    pub src_any: Signal<In, Bit>,
    pub tag_any: Signal<In, Bit>,
    pub handle: Signal<In, Bits<32>>,
    /// Messages in an arrival block, on lanes `0..count`.
    pub count: Signal<In, Bits<8>>,
}

/// The bundles' Rust names and the prefixes their Verilog ports take.
const BUNDLES: [(&str, &str); 4] =
    [("r#in$", "in_"), ("key$", "key_"), ("cmd$", "cmd_"), ("refill$", "refill_")];

/// `verilog` with every bundle signal `bundle$field` named `bundle_field` (`r#in$comm`:
/// `in_comm`), wherever it stands: a port, a child's stub (`cam$key$comm`:
/// `cam$key_comm`), a connection. A bundle name counts only at the start of an identifier
/// or after a `$`, so `k_key$...` would stay (no such name exists today).
pub fn flatten_bundle_names(verilog: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    let mut rest = verilog;
    'scan: while !rest.is_empty() {
        let starts_name = !out.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '#');
        if starts_name {
            for (rust, verilog) in BUNDLES {
                if let Some(after) = rest.strip_prefix(rust) {
                    out.push_str(verilog);
                    rest = after;
                    continue 'scan;
                }
            }
        }
        let c = rest.chars().next().expect("rest is not empty");
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_names_flatten_where_they_start_a_name() {
        assert_eq!(
            flatten_bundle_names(
                "input wire [31:0] key$comm;\n cam$key$comm = r#in$src_any; .cmd$op(x$cmd$op)"
            ),
            "input wire [31:0] key_comm;\n cam$key_comm = in_src_any; .cmd_op(x$cmd_op)"
        );
        // Not inside a longer name.
        assert_eq!(flatten_bundle_names("k_key$x monkey$y"), "k_key$x monkey$y");
    }
}
