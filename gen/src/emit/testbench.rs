//! `tagmatch gen --testbench`: a self-checking Verilog testbench for the receive engine,
//! so a simulator other than Verilator (Icarus Verilog in CI, or a vendor's) checks the
//! emitted RTL against the models.
//!
//! The stimulus is a random operation stream (wildcards, repeated envelopes, several
//! communicators, cancels, probes, more live entries than the CAM holds and, on small
//! engines, full queues). The expected answers come from the golden model with the
//! engine's finite queues (the pairing) and the cycle-accurate model (the cycle each
//! command is accepted and answered); the two are checked against each other before the
//! file is written. The testbench drives the handshake the Verilator harness drives
//! (`tagmatch_testbench::two_level::engine`): present a command, wait for `cmd_ready`, drop
//! `cmd_valid` after the accepting edge, wait for `resp_valid`, take the response with
//! one cycle of `resp_ready`; so the cycles it measures are the ones the cycle model
//! predicts, counted in clock edges after one cycle of `reset`. (The co-simulation starts
//! from Verilator's zeroed state instead; an event-driven simulator starts block RAM and
//! CAM contents at X, and the reset is what makes the two starts the same.)
//!
//! Each operation is one packed vector of the command's fields and the expected response
//! in the file itself (no `$readmemh` path to get wrong). The testbench prints `PASS` or
//! `FAIL` with the first ten differences and calls `$finish`; a watchdog ends a run that
//! hangs. Plain Verilog-2005: `iverilog -g2005 tagmatch_engine_tb.v tagmatch_engine.v`.
//! With `--testbench-vectors` the same operations and answers are also written as JSON
//! lines (`emit::vectors`), for testbenches of the shells.

use crate::emit::engine::EngineShape;
use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;
use tagmatch_sim::cycle::two_level::TwoLevelModel;
use tagmatch_sim::cycle::{Applied, CycleEngine};
use tagmatch_sim::model::bounded::BoundedGolden;
use tagmatch_sim::workload::streams::random_stream;
use tagmatch_sim::{Op, Outcome};
use tagmatch_testbench::two_level::engine::{Command, Response};

pub const TESTBENCH_FILE: &str = "tagmatch_engine_tb.v";
pub const TESTBENCH_MODULE: &str = "tagmatch_engine_tb";
/// Operations a testbench may hold: one line of the file each.
const MAX_OPS: usize = 1_000_000;

/// One field of the packed vector: name, width.
const LAYOUT: [(&str, u32); 14] = [
    ("op", 4),
    ("comm", 32),
    ("src", 32),
    ("tag", 32),
    ("src_any", 1),
    ("tag_any", 1),
    ("handle", 32),
    ("kind", 4),
    ("check_recv", 1),
    ("check_msg", 1),
    ("recv", 32),
    ("msg", 32),
    ("accepted", 32),
    ("responded", 32),
];

/// An operation with what the models expect of it.
pub struct Expected {
    pub command: Command,
    pub response: Response,
    /// The golden model's answer the response encodes.
    pub outcome: Outcome,
    pub applied: Applied,
}

/// The golden model's and the cycle model's answers to `ops` on `cfg`; an error if the
/// two disagree on a pairing (then the models, not the RTL, need looking at).
pub fn expected(cfg: &EngineShape, ops: &[Op]) -> Result<Vec<Expected>, String> {
    let capacity = cfg.queue_capacity();
    let mut golden = BoundedGolden::new(capacity, capacity);
    let mut model = TwoLevelModel::with_config(*cfg);
    let mut out = Vec::with_capacity(ops.len());
    for (i, op) in ops.iter().enumerate() {
        let applied = model.apply(op).map_err(|e| format!("operation {i} ({op}): {e}"))?;
        // The CAM may refuse between the queue's guaranteed capacity and its most.
        let want = golden.expect(op, &applied.outcome, cfg.guaranteed_capacity());
        if applied.outcome != want {
            return Err(format!(
                "operation {i} ({op}): the cycle model answers \"{}\", the golden model \"{want}\"",
                applied.outcome
            ));
        }
        let too_late = applied.responded >= 1 << 32;
        if too_late {
            return Err("the stream runs past 2^32 cycles; use fewer operations".into());
        }
        out.push(Expected {
            command: Command::of(op),
            response: Response::of(&want),
            outcome: want,
            applied,
        });
    }
    Ok(out)
}

/// The packed vector of one operation, as a hex literal's digits.
fn vector(e: &Expected) -> String {
    let values = [
        e.command.code,
        e.command.comm,
        e.command.src,
        e.command.tag,
        e.command.src_any as u64,
        e.command.tag_any as u64,
        e.command.handle,
        e.response.kind,
        e.response.recv.is_some() as u64,
        e.response.msg.is_some() as u64,
        e.response.recv.unwrap_or(0),
        e.response.msg.unwrap_or(0),
        e.applied.accepted,
        e.applied.responded,
    ];
    // Most significant field first, as the part-selects below read it.
    let mut bits: Vec<bool> = Vec::new();
    for ((_, width), value) in LAYOUT.iter().zip(values) {
        bits.extend((0..*width).rev().map(|b| (value >> b) & 1 == 1));
    }
    while !bits.len().is_multiple_of(4) {
        bits.insert(0, false);
    }
    bits.chunks(4)
        .map(|n| {
            let d = n.iter().fold(0u32, |acc, &b| acc << 1 | b as u32);
            char::from_digit(d, 16).expect("a nibble is a hex digit")
        })
        .collect()
}

/// The bit offset (from the least significant bit) of each field.
fn offsets() -> Vec<(&'static str, u32, u32)> {
    let mut low = LAYOUT.iter().map(|(_, w)| w).sum::<u32>();
    LAYOUT
        .iter()
        .map(|&(name, width)| {
            low -= width;
            (name, low, width)
        })
        .collect()
}

/// The testbench's text for `ops` on `cfg` (stream from `seed`, for the header).
pub fn testbench(cfg: &EngineShape, seed: u64, expected: &[Expected]) -> String {
    let width: u32 = LAYOUT.iter().map(|(_, w)| w).sum();
    let last = expected.last().map_or(0, |e| e.applied.responded);
    let mut v = String::new();
    let field = |name: &str| {
        let (_, low, w) = offsets().into_iter().find(|(n, _, _)| *n == name).expect("a field of the layout");
        format!("v[{}:{}]", low + w - 1, low)
    };
    let _ = writeln!(
        v,
        "// Generated by `tagmatch gen --testbench`: {ops} operations (seed {seed}) on the receive engine\n\
         // with a {cam}-entry CAM and {lists} lists of {per} entries. Expected answers: the golden model with\n\
         // the engine's queues; expected cycles: the cycle-accurate model. Prints PASS or FAIL.\n\
         // Run: iverilog -g2005 -o tb {TESTBENCH_FILE} tagmatch_engine.v && vvp tb\n\
         `timescale 1ns/1ps\n\
         module {TESTBENCH_MODULE};\n\
         \x20   localparam OPS = {ops};\n\
         \x20   localparam LAST_CYCLE = {last};\n\
         \x20   reg clock = 1'b0;\n\
         \x20   always #5 clock = ~clock;\n\
         \x20   integer cycle = 0;\n\
         \x20   reg counting = 1'b0;\n\
         \x20   always @(posedge clock) if (counting) cycle <= cycle + 1;\n\
         \x20   reg reset = 1'b0;\n\
         \x20   reg cmd_valid = 1'b0;\n\
         \x20   reg [3:0] cmd_op = 4'd0;\n\
         \x20   reg [31:0] cmd_comm = 32'd0;\n\
         \x20   reg [31:0] cmd_src = 32'd0;\n\
         \x20   reg [31:0] cmd_tag = 32'd0;\n\
         \x20   reg cmd_src_any = 1'b0;\n\
         \x20   reg cmd_tag_any = 1'b0;\n\
         \x20   reg [31:0] cmd_handle = 32'd0;\n\
         \x20   reg [7:0] cmd_id = 8'd0;\n\
         \x20   reg resp_ready = 1'b0;\n\
         \x20   wire cmd_ready, resp_valid;\n\
         \x20   wire [3:0] resp_kind;\n\
         \x20   wire [7:0] resp_id;\n\
         \x20   wire [31:0] resp_recv, resp_msg, resp_tag, resp_src;\n\
         \x20   wire [15:0] prq_count, umq_count, prq_cam_count, umq_cam_count;\n\
         \x20   top dut(\n\
         \x20       .clock(clock), .reset(reset),\n\
         \x20       .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_op(cmd_op), .cmd_comm(cmd_comm),\n\
         \x20       .cmd_src(cmd_src), .cmd_tag(cmd_tag), .cmd_src_any(cmd_src_any), .cmd_tag_any(cmd_tag_any),\n\
         \x20       .cmd_handle(cmd_handle), .cmd_id(cmd_id), .resp_id(resp_id),\n\
         \x20       .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_kind(resp_kind), .resp_recv(resp_recv),\n\
         \x20       .resp_msg(resp_msg), .resp_src(resp_src), .resp_tag(resp_tag),\n\
         \x20       .prq_count(prq_count), .umq_count(umq_count), .prq_cam_count(prq_cam_count),\n\
         \x20       .umq_cam_count(umq_cam_count));\n\
         \x20   reg [{top}:0] vectors [0:OPS-1];\n\
         \x20   reg [{top}:0] v;\n\
         \x20   integer i, errors, accepted, responded;\n\
         \x20   reg differs;",
        ops = expected.len(),
        cam = cfg.cam_depth,
        lists = cfg.lists,
        per = cfg.entries_per_list,
        top = width - 1,
    );
    v.push_str("    initial begin\n");
    let digits = width.div_ceil(4);
    for (i, e) in expected.iter().enumerate() {
        let _ =
            writeln!(v, "        vectors[{i}] = {width}'h{:0>digits$};", vector(e), digits = digits as usize);
    }
    v.push_str("    end\n");
    let _ = write!(
        v,
        "    initial begin\n\
         \x20       errors = 0;\n\
         \x20       #1;\n\
         \x20       reset = 1'b1;\n\
         \x20       @(posedge clock); #1;\n\
         \x20       reset = 1'b0;\n\
         \x20       counting = 1'b1;\n\
         \x20       for (i = 0; i < OPS; i = i + 1) begin\n\
         \x20           v = vectors[i];\n\
         \x20           cmd_op = {op};\n\
         \x20           if ({op} != 4'd2) begin\n\
         \x20               cmd_comm = {comm}; cmd_src = {src}; cmd_tag = {tag};\n\
         \x20               cmd_src_any = {src_any}; cmd_tag_any = {tag_any};\n\
         \x20           end\n\
         \x20           cmd_handle = {handle};\n\
         \x20           cmd_id = i[7:0];\n\
         \x20           cmd_valid = 1'b1;\n\
         \x20           while (cmd_ready !== 1'b1) begin @(posedge clock); #1; end\n\
         \x20           accepted = cycle;\n\
         \x20           @(posedge clock); #1;\n\
         \x20           cmd_valid = 1'b0;\n\
         \x20           while (resp_valid !== 1'b1) begin @(posedge clock); #1; end\n\
         \x20           responded = cycle;\n\
         \x20           differs = resp_kind !== {kind} || resp_id !== i[7:0]\n\
         \x20               || ({check_recv} && resp_recv !== {recv})\n\
         \x20               || ({check_msg} && resp_msg !== {msg})\n\
         \x20               || accepted != {accepted} || responded != {responded};\n\
         \x20           if (differs) begin\n\
         \x20               errors = errors + 1;\n\
         \x20               if (errors <= 10)\n\
         \x20                   $display(\"op %0d: kind %0d recv %0d msg %0d, accepted at cycle %0d, answered at %0d; \
         expected kind %0d recv %0d msg %0d at %0d and %0d\",\n\
         \x20                       i, resp_kind, resp_recv, resp_msg, accepted, responded,\n\
         \x20                       {kind}, {recv}, {msg}, {accepted}, {responded});\n\
         \x20           end\n\
         \x20           resp_ready = 1'b1;\n\
         \x20           @(posedge clock); #1;\n\
         \x20           resp_ready = 1'b0;\n\
         \x20           if (resp_valid === 1'b1) begin\n\
         \x20               errors = errors + 1;\n\
         \x20               $display(\"op %0d: a second response (kind %0d) follows the first\", i, resp_kind);\n\
         \x20           end\n\
         \x20       end\n\
         \x20       if (errors == 0)\n\
         \x20           $display(\"PASS: %0d operations, every response and cycle as the models expect\", OPS);\n\
         \x20       else\n\
         \x20           $display(\"FAIL: %0d of %0d operations differ\", errors, OPS);\n\
         \x20       $finish;\n\
         \x20   end\n\
         \x20   initial begin\n\
         \x20       #((LAST_CYCLE + 1000) * 10);\n\
         \x20       $display(\"FAIL: no answer by cycle %0d (operation %0d)\", cycle, i);\n\
         \x20       $finish;\n\
         \x20   end\n\
         endmodule\n",
        op = field("op"),
        comm = field("comm"),
        src = field("src"),
        tag = field("tag"),
        src_any = field("src_any"),
        tag_any = field("tag_any"),
        handle = field("handle"),
        kind = field("kind"),
        check_recv = field("check_recv"),
        check_msg = field("check_msg"),
        recv = field("recv"),
        msg = field("msg"),
        accepted = field("accepted"),
        responded = field("responded"),
    );
    v
}

/// Writes the testbench for `ops` random operations from `seed` into `out`, and with
/// `vectors` the same operations as JSON lines (`emit::vectors`); returns the manifest's
/// `testbench` entry.
pub fn generate(
    cfg: &EngineShape,
    ops: usize,
    seed: u64,
    vectors: bool,
    out: &Path,
) -> Result<serde_json::Value, String> {
    if !(1..=MAX_OPS).contains(&ops) {
        return Err(format!("--testbench-ops {ops}: from 1 to {MAX_OPS}"));
    }
    let stream = random_stream(seed, ops);
    let expected = expected(cfg, &stream)?;
    let parameters = json!({ "ops": ops, "seed": seed, "engine": crate::emit::engine::parameters(cfg) });
    crate::emit::engine::write_verilog(
        out,
        TESTBENCH_FILE,
        &testbench(cfg, seed, &expected),
        &parameters,
        &[],
    )?;
    let vectors = if vectors {
        crate::emit::vectors::write(cfg, &stream, &expected, out)?
    } else {
        serde_json::Value::Null
    };
    let last = expected.last().map_or(0, |e| e.applied.responded);
    Ok(json!({
        "file": TESTBENCH_FILE,
        "module": TESTBENCH_MODULE,
        "ops": ops,
        "seed": seed,
        "cycles": last + 1,
        "run": format!("iverilog -g2005 -o tb {TESTBENCH_FILE} {} && vvp tb", crate::emit::engine::ENGINE_FILE),
        "vectors": vectors,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagmatch_sim::{Envelope, MsgId, RecvId, RecvSpec};

    #[test]
    fn fields_pack_most_significant_first() {
        let cfg = crate::emit::engine::configuration(4, 4, 16).unwrap();
        let ops = [
            Op::PostRecv { recv: RecvId(7), spec: RecvSpec::new(1, Some(2), None) },
            Op::Arrive { msg: MsgId(9), env: Envelope::new(1, 2, 5) },
        ];
        let e = expected(&cfg, &ops).unwrap();
        assert_eq!(e[1].response.recv, Some(7));
        let hex = vector(&e[1]);
        let width: u32 = LAYOUT.iter().map(|(_, w)| w).sum();
        assert_eq!(hex.len() as u32, width.div_ceil(4));
        // The responded cycle is the lowest 32 bits, the accepted cycle the next.
        let low = u64::from_str_radix(&hex[hex.len() - 8..], 16).unwrap();
        assert_eq!(low, e[1].applied.responded);
        let next = u64::from_str_radix(&hex[hex.len() - 16..hex.len() - 8], 16).unwrap();
        assert_eq!(next, e[1].applied.accepted);
        let offsets = offsets();
        assert_eq!(offsets.last().unwrap(), &("responded", 0, 32));
        assert_eq!(offsets[0].1 + offsets[0].2, width);
    }
}
