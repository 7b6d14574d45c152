//! The one-sided offload unit's RTL behind the model's pins ([`UnitPins`]), and its
//! co-simulation: the same host script and network run on the RTL and on the
//! cycle-accurate model must log the same handshakes (every command, request, completion
//! and response) in the same cycles, and the log must keep the ordering rules
//! (`tagmatch_sim::onesided::check`). A difference keeps a waveform of the RTL run.

use crate::verilator::{ports_from, BuildSpec, Model, PortId};
use std::path::PathBuf;
use tagmatch_hdl::onesided::onesided_ports;
use tagmatch_sim::onesided::check::{check, Summary};
use tagmatch_sim::onesided::harness::{cycle_limit, run, Log, ResponsePolicy, Step};
use tagmatch_sim::onesided::model::UnitModel;
use tagmatch_sim::onesided::network::NetworkConfig;
use tagmatch_sim::onesided::{Inputs, Outputs, UnitConfig, UnitPins};

/// The build description of a unit whose Verilog is `verilog`.
pub fn onesided_spec(name: &str, verilog: String, trace: bool) -> BuildSpec {
    BuildSpec {
        name: name.into(),
        verilog,
        top: "top".into(),
        clock: "clock".into(),
        ports: ports_from(&onesided_ports()),
        trace,
    }
}

/// The unit's RTL in Verilator.
pub struct RtlUnit {
    model: Model,
    p: Ports,
}

struct Ports {
    reset: PortId,
    cmd_valid: PortId,
    cmd_ready: PortId,
    cmd_op: PortId,
    cmd_window: PortId,
    cmd_target: PortId,
    cmd_bytes: PortId,
    net_valid: PortId,
    net_ready: PortId,
    net_get: PortId,
    net_window: PortId,
    net_target: PortId,
    net_bytes: PortId,
    cpl_valid: PortId,
    cpl_window: PortId,
    resp_valid: PortId,
    resp_ready: PortId,
    resp_kind: PortId,
    resp_window: PortId,
}

impl RtlUnit {
    pub fn new(model: Model) -> Result<Self, String> {
        let p = |n: &str| model.port(n);
        let p = Ports {
            reset: p("reset")?,
            cmd_valid: p("cmd_valid")?,
            cmd_ready: p("cmd_ready")?,
            cmd_op: p("cmd_op")?,
            cmd_window: p("cmd_window")?,
            cmd_target: p("cmd_target")?,
            cmd_bytes: p("cmd_bytes")?,
            net_valid: p("net_valid")?,
            net_ready: p("net_ready")?,
            net_get: p("net_get")?,
            net_window: p("net_window")?,
            net_target: p("net_target")?,
            net_bytes: p("net_bytes")?,
            cpl_valid: p("cpl_valid")?,
            cpl_window: p("cpl_window")?,
            resp_valid: p("resp_valid")?,
            resp_ready: p("resp_ready")?,
            resp_kind: p("resp_kind")?,
            resp_window: p("resp_window")?,
        };
        Ok(RtlUnit { model, p })
    }

    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }
}

impl UnitPins for RtlUnit {
    fn outputs(&self) -> Outputs {
        let (m, p) = (&self.model, &self.p);
        Outputs {
            cmd_ready: m.get(p.cmd_ready) != 0,
            net_valid: m.get(p.net_valid) != 0,
            net_get: m.get(p.net_get) != 0,
            net_window: m.get(p.net_window) as u8,
            net_target: m.get(p.net_target) as u16,
            net_bytes: m.get(p.net_bytes) as u32,
            resp_valid: m.get(p.resp_valid) != 0,
            resp_kind: m.get(p.resp_kind) as u8,
            resp_window: m.get(p.resp_window) as u8,
        }
    }

    fn clock(&mut self, i: &Inputs) {
        let (m, p) = (&mut self.model, &self.p);
        m.set(p.reset, i.reset as u64);
        m.set(p.cmd_valid, i.cmd_valid as u64);
        m.set(p.cmd_op, i.cmd_op as u64);
        m.set(p.cmd_window, i.cmd_window as u64);
        m.set(p.cmd_target, i.cmd_target as u64);
        m.set(p.cmd_bytes, i.cmd_bytes as u64);
        m.set(p.net_ready, i.net_ready as u64);
        m.set(p.cpl_valid, i.cpl_valid as u64);
        m.set(p.cpl_window, i.cpl_window as u64);
        m.set(p.resp_ready, i.resp_ready as u64);
        m.tick(1);
    }
}

/// The unit under test: a cache name, its Verilog and its size.
pub struct UnitUnderTest {
    pub name: String,
    pub verilog: String,
    pub config: UnitConfig,
}

/// What an agreeing co-simulation saw.
#[derive(Clone, Debug)]
pub struct OnesidedReport {
    pub summary: Summary,
    pub cycles: u64,
    pub build_seconds: f64,
    pub seconds: f64,
}

/// Runs `script` over `net` on the RTL and on the model; the logs must be equal and keep
/// the rules.
pub fn cosim_onesided(
    unit: &UnitUnderTest,
    script: &[Step],
    net: NetworkConfig,
    policy: ResponsePolicy,
) -> Result<OnesidedReport, String> {
    let (model, build) = Model::build(&onesided_spec(&unit.name, unit.verilog.clone(), false))?;
    let started = std::time::Instant::now();
    let windows = unit.config.windows;
    let limit = cycle_limit(script, net);
    let with_waveform = |e: String| match waveform_of(unit, script, net, policy) {
        Ok(w) => format!("{e}; waveform: {}", w.display()),
        Err(we) => format!("{e}; no waveform ({we})"),
    };
    let rtl_log = run(&mut RtlUnit::new(model)?, windows, script, net, policy, limit)
        .map_err(|e| with_waveform(format!("the RTL: {e}")))?;
    let model_log = run(&mut UnitModel::new(unit.config), windows, script, net, policy, limit)
        .map_err(|e| format!("the model (the RTL finished): {e}"))?;
    if let Some(at) = first_difference(&rtl_log, &model_log) {
        let waveform = match waveform_of(unit, script, net, policy) {
            Ok(w) => format!("waveform: {}", w.display()),
            Err(e) => format!("no waveform ({e})"),
        };
        return Err(format!(
            "the one-sided RTL and its model differ at event {at}: RTL {:?}, model {:?}; {waveform}",
            rtl_log.events.get(at),
            model_log.events.get(at)
        ));
    }
    let summary = check(&rtl_log, windows)?;
    Ok(OnesidedReport {
        summary,
        cycles: rtl_log.cycles,
        build_seconds: build.seconds,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn first_difference(a: &Log, b: &Log) -> Option<usize> {
    let n = a.events.len().max(b.events.len());
    (0..n).find(|&i| a.events.get(i) != b.events.get(i)).or((a.cycles != b.cycles).then_some(n))
}

fn waveform_of(
    unit: &UnitUnderTest,
    script: &[Step],
    net: NetworkConfig,
    policy: ResponsePolicy,
) -> Result<PathBuf, String> {
    let (traced, build) = Model::build(&onesided_spec(&unit.name, unit.verilog.clone(), true))?;
    let vcd = build.dir.join("onesided-cosim-failure.vcd");
    let mut rtl = RtlUnit::new(traced)?;
    rtl.model_mut().trace_to(&vcd)?;
    // The run's own errors are what the waveform shows; they end it early.
    let _ = run(&mut rtl, unit.config.windows, script, net, policy, cycle_limit(script, net));
    rtl.model_mut().close_trace();
    Ok(vcd)
}
