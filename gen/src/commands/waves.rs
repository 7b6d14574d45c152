//! `tagmatch waves`: timing diagrams of the receive engine's command and response
//! handshakes, drawn from the RTL's own signals, so a diagram cannot disagree with the
//! hardware.
//!
//! A small engine (a 4-entry CAM, one list of 16 words) runs in Verilator. Each scenario
//! drives its set-up operations unrecorded, then its shown operations cycle by cycle,
//! sampling every port just before each rising clock edge (the values the edge takes in).
//! The samples become WaveDrom JSON (`docs/waves/NAME.json`) and an SVG drawn from it by
//! the `wavedrom` crate (`docs/waves/NAME.svg`). The host takes every response at once
//! (`resp_ready` high), as the host driver does.
//!
//! `tagmatch waves --check` writes nothing and fails, naming the files, when one differs
//! from what the RTL draws now; a test runs it.

use crate::emit::engine::{build_name, configuration, verilog, EngineShape};
use serde_json::{json, Value};
use std::path::PathBuf;
use tagmatch_hdl::two_level::receive_engine::{
    OP_ARRIVE, OP_CANCEL, OP_FLUSH, OP_MATCHED_PROBE, OP_POST, OP_PROBE, OP_TEST, OP_WAIT, RESP_CANCELLED,
    RESP_ERROR, RESP_FLUSHED, RESP_MATCHED, RESP_NOT_FOUND, RESP_NOT_REACHED, RESP_OVERFLOW, RESP_PARKED,
    RESP_PROBE_FOUND, RESP_PROBE_NONE, RESP_QUEUED, RESP_REACHED,
};
use tagmatch_sim::cycle::two_level::TwoLevelModel;
use tagmatch_sim::cycle::CycleEngine;
use tagmatch_sim::{Envelope, MsgId, Op, Outcome, RecvId, RecvSpec};
use tagmatch_testbench::two_level::engine::{engine_spec, CommandPorts};
use tagmatch_testbench::verilator::{Model, PortId};

/// The engine the diagrams are drawn from: small, so the overflow scenario is short.
const CAM_DEPTH: u32 = 4;
const LISTS: u32 = 1;
const LIST_CAPACITY: u32 = 16;
/// Idle cycles drawn before the first shown command and after the last response.
const IDLE_BEFORE: usize = 1;
const IDLE_AFTER: usize = 2;
/// A scenario that has not answered by then is a broken engine, not a long diagram.
const MAX_CYCLES: usize = 200;

/// The signals drawn, in order: (port, how it is drawn, the valid that qualifies it). A
/// field is drawn `x` while its valid is low: its value then means nothing.
const SIGNALS: &[(&str, Draw, Option<&str>)] = &[
    ("cmd_valid", Draw::Bit, None),
    ("cmd_ready", Draw::Bit, None),
    ("cmd_op", Draw::Names(op_name), Some("cmd_valid")),
    ("cmd_id", Draw::Number, Some("cmd_valid")),
    ("resp_valid", Draw::Bit, None),
    ("resp_ready", Draw::Bit, None),
    ("resp_kind", Draw::Names(kind_name), Some("resp_valid")),
    ("resp_id", Draw::Number, Some("resp_valid")),
];

#[derive(Clone, Copy)]
enum Draw {
    Bit,
    Number,
    Names(fn(u64) -> &'static str),
}

/// A shown command: a matching operation, or a wait or test of the completion unit.
#[derive(Clone, Copy, Debug)]
enum Shown {
    Op(Op),
    Wait { class: u8, count: u32 },
}

struct Scenario {
    name: &'static str,
    title: &'static str,
    setup: Vec<Op>,
    shown: Vec<Shown>,
}

fn recv(i: u64, tag: u32) -> Op {
    Op::PostRecv { recv: RecvId(i), spec: RecvSpec::exact(Envelope::new(0, 1, tag)) }
}

fn arrive(i: u64, tag: u32) -> Op {
    Op::Arrive { msg: MsgId(100 + i), env: Envelope::new(0, 1, tag) }
}

/// Receives that fill the engine's PRQ, found on the cycle model (which the co-simulation
/// holds equal to the RTL): the last of them is refused with an overflow.
fn until_overflow(cfg: &EngineShape) -> Result<Vec<Op>, String> {
    let mut model = TwoLevelModel::with_config(*cfg);
    let mut ops = Vec::new();
    for i in 1..=cfg.queue_capacity() as u64 + 1 {
        let op = recv(i, i as u32);
        ops.push(op);
        if model.apply(&op)?.outcome == Outcome::Overflow {
            return Ok(ops);
        }
    }
    Err("the PRQ never overflowed".into())
}

fn scenarios(cfg: &EngineShape) -> Result<Vec<Scenario>, String> {
    let mut full = until_overflow(cfg)?;
    let overflow = full.pop().expect("at least the refused receive");
    // Past the CAM's entries the receive sits in the list: the arrival searches both.
    let listed = CAM_DEPTH as u64 + 2;
    Ok(vec![
        Scenario {
            name: "cam-hit",
            title: "A CAM hit: an arrival matches a receive in the CAM",
            setup: vec![recv(1, 7)],
            shown: vec![Shown::Op(arrive(1, 7))],
        },
        Scenario {
            name: "list-hit",
            title: "A list hit: the receive waits in the block-RAM list behind a full CAM",
            setup: (1..=listed).map(|i| recv(i, i as u32)).collect(),
            shown: vec![Shown::Op(arrive(1, listed as u32))],
        },
        Scenario {
            name: "overflow",
            title: "An overflow: a receive the full PRQ cannot take, left to the host",
            setup: full,
            shown: vec![Shown::Op(overflow)],
        },
        Scenario {
            name: "flush",
            title: "A flush: both queues emptied for a new job",
            setup: vec![recv(1, 1), arrive(2, 2)],
            shown: vec![Shown::Op(Op::Flush)],
        },
        Scenario {
            name: "parked-wait",
            title: "A parked wait: answered parked, then reached when a match completes it",
            setup: vec![recv(1, 5)],
            shown: vec![Shown::Wait { class: 0, count: 1 }, Shown::Op(arrive(1, 5))],
        },
    ])
}

/// The ports, by name, of the model.
struct Ports {
    ids: Vec<(&'static str, PortId)>,
}

impl Ports {
    fn get(&self, name: &str) -> PortId {
        self.ids.iter().find(|(n, _)| *n == name).map(|(_, id)| *id).expect("a port of the engine")
    }
}

/// One scenario's samples: one row per cycle, one value per drawn signal.
struct Recording {
    rows: Vec<Vec<u64>>,
}

struct Driver {
    model: Model,
    /// The drawn signals and `reset`, by name.
    ports: Ports,
    /// The command fields, set as the RTL driver sets them.
    command: CommandPorts,
    next_id: u64,
}

impl Driver {
    fn new(model: Model) -> Result<Self, String> {
        let mut ids = Vec::new();
        for name in std::iter::once("reset").chain(SIGNALS.iter().map(|(n, _, _)| *n)) {
            ids.push((name, model.port(name)?));
        }
        let command = CommandPorts::new(&model)?;
        let mut driver = Driver { model, ports: Ports { ids }, command, next_id: 0 };
        driver.set("resp_ready", 1);
        Ok(driver)
    }

    fn set(&mut self, name: &str, value: u64) {
        let port = self.ports.get(name);
        self.model.set(port, value);
    }

    fn get(&self, name: &str) -> u64 {
        self.model.get(self.ports.get(name))
    }

    /// One cycle: the values the coming edge takes in, then the edge.
    fn cycle(&mut self, recording: Option<&mut Recording>) -> Vec<u64> {
        self.model.eval();
        let row: Vec<u64> = SIGNALS.iter().map(|(n, _, _)| self.get(n)).collect();
        if let Some(r) = recording {
            r.rows.push(row.clone());
        }
        self.model.tick(1);
        row
    }

    fn reset(&mut self) {
        self.set("reset", 1);
        self.model.tick(1);
        self.set("reset", 0);
    }

    /// Presents `command` and runs until its response is taken (and, after a match that
    /// completes a parked wait, the wait's answer too); returns the response kinds.
    fn drive(&mut self, command: Shown, mut recording: Option<&mut Recording>) -> Result<Vec<u64>, String> {
        let code = match command {
            Shown::Op(op) => self.command.operation(&mut self.model, &op),
            Shown::Wait { class, count } => {
                // As the RTL driver's `complete`: the class in `cmd_comm`, the count in
                // `cmd_handle`.
                self.model.set(self.command.cmd_comm, class as u64);
                self.model.set(self.command.cmd_handle, count as u64);
                OP_WAIT
            }
        };
        self.set("cmd_op", code);
        self.set("cmd_id", self.next_id);
        self.next_id = (self.next_id + 1) % 256;
        self.set("cmd_valid", 1);
        let at = |name: &str| SIGNALS.iter().position(|(n, _, _)| *n == name).expect("a drawn signal");
        let mut kinds = Vec::new();
        for _ in 0..MAX_CYCLES {
            let row = self.cycle(recording.as_deref_mut());
            if row[at("cmd_valid")] == 1 && row[at("cmd_ready")] == 1 {
                self.set("cmd_valid", 0);
            }
            if row[at("resp_valid")] == 1 {
                kinds.push(row[at("resp_kind")]);
            }
            // A response taken with the command gone: done, unless the engine has the
            // late answer of a parked wait to give right behind it.
            if !kinds.is_empty() && self.get("cmd_valid") == 0 {
                self.model.eval();
                if self.get("resp_valid") == 0 {
                    return Ok(kinds);
                }
            }
        }
        Err(format!("no response to {command:?} within {MAX_CYCLES} cycles"))
    }
}

/// Runs one scenario on a fresh reset of the engine; returns its samples.
fn record(driver: &mut Driver, scenario: &Scenario) -> Result<Recording, String> {
    driver.reset();
    for op in &scenario.setup {
        driver.drive(Shown::Op(*op), None)?;
    }
    let mut recording = Recording { rows: Vec::new() };
    for _ in 0..IDLE_BEFORE {
        driver.cycle(Some(&mut recording));
    }
    for shown in &scenario.shown {
        driver.drive(*shown, Some(&mut recording))?;
    }
    for _ in 0..IDLE_AFTER {
        driver.cycle(Some(&mut recording));
    }
    Ok(recording)
}

/// The samples as WaveDrom JSON: a clock, then each signal's wave string (`.` repeats the
/// last value; `=` starts a new bus value, named in `data`).
fn wavejson(scenario: &Scenario, recording: &Recording) -> Value {
    let cycles = recording.rows.len();
    let mut signal = vec![json!({ "name": "clock", "wave": format!("p{}", ".".repeat(cycles - 1)) })];
    let column = |name: &str| SIGNALS.iter().position(|(n, _, _)| *n == name).expect("a drawn signal");
    for (i, (name, draw, valid)) in SIGNALS.iter().enumerate() {
        let mut wave = String::new();
        let mut data = Vec::new();
        let mut last = None;
        for row in &recording.rows {
            // None: not valid, drawn `x`.
            let v = match valid {
                Some(valid) if row[column(valid)] == 0 => None,
                _ => Some(row[i]),
            };
            if last == Some(v) {
                wave.push('.');
                continue;
            }
            last = Some(v);
            let Some(v) = v else {
                wave.push('x');
                continue;
            };
            match draw {
                Draw::Bit => wave.push(if v == 0 { '0' } else { '1' }),
                Draw::Number => {
                    wave.push('=');
                    data.push(v.to_string());
                }
                Draw::Names(name_of) => {
                    wave.push('=');
                    data.push(name_of(v).to_string());
                }
            }
        }
        let mut s = json!({ "name": name, "wave": wave });
        if !data.is_empty() {
            s["data"] = json!(data);
        }
        signal.push(s);
    }
    json!({ "signal": signal, "head": { "text": scenario.title, "tick": 0 } })
}

fn op_name(code: u64) -> &'static str {
    match code {
        OP_POST => "post",
        OP_ARRIVE => "arrive",
        OP_CANCEL => "cancel",
        OP_PROBE => "probe",
        OP_MATCHED_PROBE => "mprobe",
        OP_WAIT => "wait",
        OP_TEST => "test",
        OP_FLUSH => "flush",
        _ => "?",
    }
}

fn kind_name(kind: u64) -> &'static str {
    match kind {
        RESP_MATCHED => "matched",
        RESP_QUEUED => "queued",
        RESP_CANCELLED => "cancelled",
        RESP_NOT_FOUND => "not found",
        RESP_PROBE_FOUND => "found",
        RESP_PROBE_NONE => "none",
        RESP_OVERFLOW => "overflow",
        RESP_ERROR => "error",
        RESP_REACHED => "reached",
        RESP_NOT_REACHED => "not reached",
        RESP_PARKED => "parked",
        RESP_FLUSHED => "flushed",
        _ => "?",
    }
}

/// Writes (or with `check`, compares) every scenario's JSON and SVG in `docs/waves/`.
pub fn run(check: bool) -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join("docs/waves");
    let cfg = configuration(CAM_DEPTH, LISTS, LIST_CAPACITY)?;
    eprintln!("tagmatch: building {} in Verilator (cached after the first time)", build_name(&cfg));
    let spec = engine_spec(&format!("waves-{}", build_name(&cfg)), verilog(&cfg)?, false);
    let (model, _) = Model::build(&spec)?;
    let mut driver = Driver::new(model)?;
    let mut stale = Vec::new();
    for scenario in scenarios(&cfg)? {
        let recording = record(&mut driver, &scenario)?;
        let wave = wavejson(&scenario, &recording);
        let json_text = serde_json::to_string_pretty(&wave).expect("JSON values serialize") + "\n";
        let mut svg = Vec::new();
        wavedrom::render_json(&json_text, &mut svg)
            .map_err(|e| format!("drawing {}: {e:?}", scenario.name))?;
        for (file, text) in [
            (format!("{}.json", scenario.name), json_text.into_bytes()),
            (format!("{}.svg", scenario.name), svg),
        ] {
            let path = dir.join(&file);
            if std::fs::read(&path).ok().as_deref() == Some(&text[..]) {
                continue;
            }
            if check {
                stale.push(format!("docs/waves/{file}"));
            } else {
                std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                eprintln!("tagmatch: wrote docs/waves/{file}");
            }
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!("out of date: {} (run `tagmatch waves` to redraw)", stale.join(", ")))
    }
}
