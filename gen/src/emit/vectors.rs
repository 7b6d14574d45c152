//! What the engine is expected to answer to a stream of operations ([`expected`]: the golden
//! model's pairing and the cycle model's cycles, which the Verilog testbench of
//! [`crate::emit::testbench`] checks), and `tagmatch gen --testbench --testbench-vectors`:
//! the testbench's operations as JSON lines, for testbenches that drive the engine's IP
//! shells from outside this project (the cocotb tests in `testbench/cocotb/`).
//!
//! The file is `tagmatch_engine_vectors.jsonl`, beside the Verilog testbench. It holds one
//! [`Vector`] per line, one line per operation, in stream order:
//!
//! ```text
//! {"index":1,"op":"post receive 1 (comm 0 src 2 tag 1)","command":{"op":0,"id":1,"comm":0,
//!  "src":2,"tag":1,"src_any":false,"tag_any":false,"handle":1},
//!  "command_word":"00000001000000010002000000010000","expect":"queued",
//!  "response":{"kind":1,"id":1,"recv":null,"msg":null,"src":null,"tag":null},
//!  "response_word":"00000000000000000000000000000101",
//!  "response_mask":"0000000000000000000000000000ffff"}
//! ```
//!
//! (one line in the file; broken here to fit).
//!
//! - `command`: the command's fields as the engine's ports take them; `id` is the index
//!   modulo 256.
//! - `command_word`: the same fields packed as the shells' command word (docs/ip-guide.md,
//!   section 3.6), in hex, most significant digit first, `width / 4` digits.
//! - `response`: the fields of the response the models expect. `null` means the field
//!   carries no defined value for this answer and is not compared. `src` and `tag` are
//!   the message's (a match to a post, a probe that found one) or the matched receive's
//!   posted fields (a match to an arrival; 0 where it had a wildcard).
//! - `response_word`: those fields packed as the shells' response word, zero elsewhere.
//! - `response_mask`: the bits of the response word that must equal `response_word`:
//!   every defined field and the unused bits, which the shells send as zero.
//! - `expect`: the golden model's answer, in words.
//!
//! The responses are in command order, and a testbench compares them in that order only:
//! the file has no cycles, because a host's random backpressure changes them. The word
//! width and each field's lowest bit and width are in the manifest's
//! `testbench.vectors` entry ([`Layout`]), for a testbench that decodes a response word.

use crate::board::build::{command_fields, response_fields, stream_width, Field};
use crate::emit::engine::EngineShape;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use tagmatch_sim::cycle::two_level::TwoLevelModel;
use tagmatch_sim::cycle::{Applied, CycleEngine};
use tagmatch_sim::model::bounded::BoundedGolden;
use tagmatch_sim::{Op, Outcome};
use tagmatch_testbench::two_level::engine::{Command, Response};

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

pub const VECTORS_FILE: &str = "tagmatch_engine_vectors.jsonl";

/// One line of the vectors file: an operation and the response it must get.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vector {
    /// Position in the stream, from 0.
    pub index: usize,
    /// The operation, in words.
    pub op: String,
    pub command: CommandFields,
    /// The shells' command word, in hex.
    pub command_word: String,
    /// The golden model's answer, in words.
    pub expect: String,
    pub response: ResponseFields,
    /// The shells' response word, in hex, zero where the mask is zero.
    pub response_word: String,
    /// The response word's bits that are compared, in hex.
    pub response_mask: String,
}

/// A command's fields, as the engine's command ports take them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandFields {
    pub op: u64,
    pub id: u64,
    pub comm: u64,
    pub src: u64,
    pub tag: u64,
    pub src_any: bool,
    pub tag_any: bool,
    pub handle: u64,
}

/// A response's fields, as the engine's response ports give them; `None` (JSON `null`)
/// where the answer defines no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseFields {
    pub kind: u64,
    pub id: u64,
    pub recv: Option<u64>,
    pub msg: Option<u64>,
    pub src: Option<u64>,
    pub tag: Option<u64>,
}

/// Where a field sits in a stream word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldPlace {
    pub name: String,
    /// Lowest bit.
    pub lo: u32,
    pub width: u32,
}

/// The manifest's `testbench.vectors` entry: the file and the words' layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub file: String,
    pub ops: usize,
    /// Bits of both words.
    pub width: u32,
    pub command_fields: Vec<FieldPlace>,
    pub response_fields: Vec<FieldPlace>,
}

/// A stream word, built field by field.
struct Word(Vec<bool>);

impl Word {
    fn zero(width: u32) -> Word {
        Word(vec![false; width as usize])
    }

    /// `value` into the field at `lo` of `width` bits; an error if it does not fit.
    fn put(&mut self, name: &str, lo: u32, width: u32, value: u64) -> Result<(), String> {
        if width < 64 && value >> width != 0 {
            return Err(format!("{name} {value} does not fit the word's {width}-bit field"));
        }
        for b in 0..width {
            self.0[(lo + b) as usize] = b < 64 && (value >> b) & 1 == 1;
        }
        Ok(())
    }

    /// Hex digits, most significant first (the width is whole bytes).
    fn hex(&self) -> String {
        self.0
            .chunks(4)
            .rev()
            .map(|n| {
                let d = n.iter().rev().fold(0u32, |acc, &b| acc << 1 | b as u32);
                char::from_digit(d, 16).expect("a nibble is a hex digit")
            })
            .collect()
    }
}

/// The layout of `cfg`'s words for the manifest.
pub fn layout(cfg: &EngineShape, ops: usize) -> Layout {
    let places = |fields: Vec<Field>| {
        fields.into_iter().map(|f| FieldPlace { name: f.name.into(), lo: f.lo, width: f.width }).collect()
    };
    Layout {
        file: VECTORS_FILE.into(),
        ops,
        width: stream_width(&cfg.fields),
        command_fields: places(command_fields(&cfg.fields)),
        response_fields: places(response_fields(&cfg.fields)),
    }
}

/// The source and tag a response carries: the message's (a match to a post, a probe
/// that found it), or the matched receive's posted fields (a match to an arrival).
fn response_envelope(
    op: &Op,
    outcome: &Outcome,
    messages: &HashMap<u64, (u64, u64)>,
    receives: &HashMap<u64, (u64, u64)>,
) -> Option<(u64, u64)> {
    match (op, outcome) {
        (Op::Arrive { .. }, Outcome::Matched { recv, .. }) => receives.get(&recv.0).copied(),
        (_, Outcome::Matched { msg, .. }) => messages.get(&msg.0).copied(),
        (_, Outcome::Probed(Some(m)) | Outcome::MatchedProbed(Some(m))) => messages.get(&m.0).copied(),
        _ => None,
    }
}

/// The vectors of `ops` on `cfg`, given what the models expect of them.
pub fn vectors(cfg: &EngineShape, ops: &[Op], expected: &[Expected]) -> Result<Vec<Vector>, String> {
    let width = stream_width(&cfg.fields);
    let (cmd_layout, resp_layout) = (command_fields(&cfg.fields), response_fields(&cfg.fields));
    // Envelopes by handle: each message's arrival, each receive's posted fields.
    let mut messages = HashMap::new();
    let mut receives = HashMap::new();
    let mut out = Vec::with_capacity(ops.len());
    for (index, (op, e)) in ops.iter().zip(expected).enumerate() {
        let c = &e.command;
        let id = index as u64 % 256;
        match op {
            Op::Arrive { msg, .. } => {
                messages.insert(msg.0, (c.src, c.tag));
            }
            Op::PostRecv { recv, .. } => {
                receives.insert(recv.0, (c.src, c.tag));
            }
            _ => {}
        }
        let command = CommandFields {
            op: c.code,
            id,
            comm: c.comm,
            src: c.src,
            tag: c.tag,
            src_any: c.src_any,
            tag_any: c.tag_any,
            handle: c.handle,
        };
        let envelope = response_envelope(op, &e.outcome, &messages, &receives);
        let response = ResponseFields {
            kind: e.response.kind,
            id,
            recv: e.response.recv,
            msg: e.response.msg,
            src: envelope.map(|(s, _)| s),
            tag: envelope.map(|(_, t)| t),
        };
        let at = |what: &str| format!("operation {index} ({op}): {what}");
        let mut word = Word::zero(width);
        for f in &cmd_layout {
            let value = match f.name {
                "op" => command.op,
                "src_any" => command.src_any as u64,
                "tag_any" => command.tag_any as u64,
                "id" => command.id,
                "comm" => command.comm,
                "src" => command.src,
                "tag" => command.tag,
                "handle" => command.handle,
                other => return Err(at(&format!("no value for the command field {other}"))),
            };
            word.put(f.name, f.lo, f.width, value).map_err(|e| at(&e))?;
        }
        let command_word = word.hex();
        let (mut word, mut mask) = (Word::zero(width), Word(vec![true; width as usize]));
        for f in &resp_layout {
            let value = match f.name {
                "kind" => Some(response.kind),
                "id" => Some(response.id),
                "recv" => response.recv,
                "msg" => response.msg,
                "src" => response.src,
                "tag" => response.tag,
                other => return Err(at(&format!("no value for the response field {other}"))),
            };
            match value {
                Some(v) => word.put(f.name, f.lo, f.width, v).map_err(|e| at(&e))?,
                None => mask.put(f.name, f.lo, f.width, 0)?,
            }
        }
        out.push(Vector {
            index,
            op: op.to_string(),
            command,
            command_word,
            expect: e.outcome.to_string(),
            response,
            response_word: word.hex(),
            response_mask: mask.hex(),
        });
    }
    Ok(out)
}

/// The file's text: one JSON object a line.
pub fn to_jsonl(vectors: &[Vector]) -> String {
    vectors.iter().map(|v| serde_json::to_string(v).expect("vectors serialize") + "\n").collect()
}

/// Writes the vectors of `ops` into `out`; returns the manifest's `testbench.vectors` entry.
pub fn write(
    cfg: &EngineShape,
    ops: &[Op],
    expected: &[Expected],
    out: &Path,
) -> Result<serde_json::Value, String> {
    let path = out.join(VECTORS_FILE);
    std::fs::write(&path, to_jsonl(&vectors(cfg, ops, expected)?))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(serde_json::to_value(layout(cfg, ops.len())).expect("the layout serializes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagmatch_sim::workload::streams::random_stream;
    use tagmatch_sim::{Envelope, MsgId, RecvId, RecvSpec};

    /// Reads a vectors file back, a line at a time, as a testbench would.
    fn read(path: &Path) -> Vec<Vector> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    }

    #[test]
    fn vectors_round_trip_and_pack_the_shells_words() {
        let cfg = crate::emit::engine::configuration(4, 4, 16).unwrap();
        let mut ops = vec![
            Op::PostRecv { recv: RecvId(7), spec: RecvSpec::new(1, Some(2), None) },
            Op::Arrive { msg: MsgId(9), env: Envelope::new(1, 2, 5) },
            Op::Arrive { msg: MsgId(10), env: Envelope::new(2, 3, 4) },
            Op::Probe { spec: RecvSpec::new(2, None, Some(4)) },
        ];
        ops.extend(random_stream(3, 300));
        let e = expected(&cfg, &ops).unwrap();
        let dir = std::env::temp_dir().join(format!("tagmatch-vectors-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = write(&cfg, &ops, &e, &dir).unwrap();
        let back = read(&dir.join(VECTORS_FILE));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(back, vectors(&cfg, &ops, &e).unwrap());
        assert_eq!(back.len(), ops.len());
        assert_eq!(manifest["width"], 128);
        assert_eq!(manifest["response_fields"][0], serde_json::json!({"name": "kind", "lo": 0, "width": 4}));

        // The post is queued: only kind, id and the unused bits are compared.
        assert_eq!(back[0].response.kind, 1);
        assert_eq!(back[0].response_word, format!("{:032x}", 1));
        assert_eq!(back[0].response_mask, format!("{:032x}", 0xffff));
        // src 2 and comm 1 at bits 63:32, tag_any at bit 9, handle 7 at 127:96.
        assert_eq!(back[0].command_word, "00000007000000000002000100000200");
        // The arrival matches it: receive 7, message 9, the receive's posted source and
        // tag (0 under its wildcard), id 1; every bit compared.
        let r = back[1].response;
        assert_eq!((r.kind, r.id, r.recv, r.msg, r.src, r.tag), (0, 1, Some(7), Some(9), Some(2), Some(0)));
        assert_eq!(back[1].response_word, "00000009000000070000000000020100");
        assert_eq!(back[1].response_mask, "f".repeat(32));
        assert_eq!(back[1].expect, "matched receive 7 with message 9");
        // The probe finds message 10 and gives its source and tag.
        let r = back[3].response;
        assert_eq!((r.kind, r.msg, r.src, r.tag, r.recv), (4, Some(10), Some(3), Some(4), None));
        // Ids count up and wrap at 256.
        assert_eq!(back[300].command.id, 300 % 256);
        assert!(back.iter().any(|v| v.expect == "overflow"), "the small queues overflow");
    }
}
