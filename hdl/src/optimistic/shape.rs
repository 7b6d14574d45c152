//! The thread array's configuration: its shape (lanes, descriptors, index and UMQ sizes,
//! the fast path, field widths), the checks that refuse a shape before anything is built,
//! and its ports.

use crate::fields::FieldWidths;
use crate::optimistic::unexpected_cam::MESSAGE_FIELDS;

/// Most lanes an array has: the booking bitmaps are this wide, and the bits above the
/// array's lane count stay zero, so synthesis keeps only the lanes' bits.
pub const MAX_LANES: usize = 64;

/// The array's sizes, all chosen when the Verilog is generated (no type parameters, so one
/// compiled block serves every shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadArrayShape {
    pub lanes: usize,
    pub descriptors: usize,
    /// The head tables hold `2^head_bits` lists: `2^(head_bits - 2)` bins per hashed index.
    pub head_bits: usize,
    /// UMQ entries.
    pub unexpected: usize,
    /// The fast conflict path (off: every conflict takes the slow path).
    pub fast_path: bool,
    /// Stored widths of the fields, each at most its port's ([`MESSAGE_FIELDS`]: 16-bit
    /// communicators and sources, 32-bit tags and handles, also the default).
    pub fields: FieldWidths,
}

impl ThreadArrayShape {
    /// Banks of the head and tail tables: the lane count rounded up to a power of two, at
    /// most the bins per index (`tagmatch_sim::optimistic::cost::head_banks`).
    pub fn banks(&self) -> usize {
        self.lanes.next_power_of_two().min(self.bins() as usize).max(1)
    }

    /// Bins per hashed index: `2^(head_bits - 2)`.
    pub fn bins(&self) -> u64 {
        1 << (self.head_bits - 2)
    }

    /// The list of receives with both wildcards, after the three indexes' `3B` lists.
    pub fn both_list(&self) -> u64 {
        3 * self.bins()
    }
}

/// Checks a shape before anything is built: lanes 1–64 (one booking bit each), 2 to
/// 32,767 descriptors (16-bit pointers, slot + 1), a head table of 4 to 2^16 lists.
pub fn check_shape(
    lanes: usize,
    descriptors: usize,
    head_bits: usize,
    unexpected: usize,
) -> Result<(), String> {
    if !(1..=64).contains(&lanes) {
        return Err(format!("{lanes} lanes: from 1 to 64"));
    }
    if !(2..32768).contains(&descriptors) {
        return Err(format!("{descriptors} descriptors: from 2 to 32,767"));
    }
    if !(2..=16).contains(&head_bits) {
        return Err(format!("a head table of 2^{head_bits} lists: from 2^2 to 2^16"));
    }
    // The UMQ's age matrix grows with the square of its depth (`unexpected_cam`).
    let depths = crate::optimistic::unexpected_cam::UNEXPECTED_CAM_DEPTHS;
    if !depths.contains(&unexpected) {
        let (low, high) = depths.into_inner();
        return Err(format!("{unexpected} unexpected messages: from {low} to {high}"));
    }
    Ok(())
}

/// Checks that `fields` fit the array's ports: a one-line reason naming the option.
pub fn check_fields(fields: FieldWidths) -> Result<(), String> {
    let m = MESSAGE_FIELDS;
    for (option, what, bits, most) in [
        ("--comm-bits", "communicators", fields.comm, m.comm),
        ("--source-bits", "sources", fields.src, m.src),
        ("--tag-bits", "tags", fields.tag, m.tag),
        ("--handle-bits", "handles", fields.handle, m.handle),
    ] {
        if !(1..=most).contains(&bits) {
            return Err(format!("{option} {bits}: the thread array's {what} are 1 to {most} bits"));
        }
    }
    Ok(())
}

/// Ports of a thread array of `lanes` lanes as (name, width, is input); lane ports are
/// named `<port>_<lane>`.
pub fn thread_array_ports(lanes: usize) -> Vec<(String, u32, bool)> {
    let mut ports: Vec<(String, u32, bool)> = [
        ("clock", 1, true),
        ("reset", 1, true),
        ("cmd_valid", 1, true),
        ("cmd_ready", 1, false),
        ("cmd_op", 3, true),
        ("cmd_comm", 16, true),
        ("cmd_src", 16, true),
        ("cmd_tag", 32, true),
        ("cmd_src_any", 1, true),
        ("cmd_tag_any", 1, true),
        ("cmd_handle", 32, true),
        ("cmd_count", 8, true),
    ]
    .iter()
    .map(|&(n, w, i)| (n.to_string(), w, i))
    .collect();
    for (name, width) in [("msg_comm", 16), ("msg_src", 16), ("msg_tag", 32), ("msg_handle", 32)] {
        ports.extend((0..lanes).map(|i| (format!("{name}_{i}"), width, true)));
    }
    for (name, width, input) in
        [("resp_valid", 1, false), ("resp_ready", 1, true), ("resp_kind", 4, false), ("resp_recv", 32, false)]
    {
        ports.push((name.to_string(), width, input));
    }
    for (name, width) in [("resp_msg", 32), ("resp_src", 16), ("resp_tag", 32), ("umq_count", 16)] {
        ports.push((name.to_string(), width, false));
    }
    for (name, width) in [("lane_kind", 2), ("lane_recv", 32)] {
        ports.extend((0..lanes).map(|i| (format!("{name}_{i}"), width, false)));
    }
    ports
}
