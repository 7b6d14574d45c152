//! `tagmatch gen --board NAME`: a stand-alone build that times the engine on the board and
//! shows it working. Beside the engine's Verilog: an on-chip traffic generator and checker
//! (`tagmatch_selftest.v`: LFSR envelopes, receives and messages whose MPI pairing is known
//! by construction, a flush a round), a top-level wrapper (clock, reset synchroniser, the
//! self-test's pass, fail and heartbeat on the board's LEDs), timing and pin constraints
//! (XDC for Vivado, SDC for Quartus) in which every port has a pin and every internal path
//! is timed, and a project script that builds a bitstream unchanged. A board file without
//! LEDs gets no stand-alone build (its ports would have no pins); the engine for a host
//! interface is the IP core below. Everything comes from the askama templates in
//! `constraints/templates/`, filled from the board file.
//!
//! The stream words are a whole number of bytes (as AXI4-Stream wants; 128 bits with the
//! default field widths), every field on a byte boundary so software packs them with
//! plain stores, each envelope field as wide as the engine stores it rounded up to bytes:
//! the fields below are the single source of the shell's slicing and of the layout
//! documented in the shell's and the wrapper's headers.
//!
//! `tagmatch gen --shell xilinx|intel` writes the engine as an IP core: the shell
//! (`tagmatch_shell.v`: registered skid buffers on both streams, AXI4-Stream with
//! `aclk`/`aresetn` or Avalon-ST with `clk`/`reset`), an out-of-context clock constraint
//! and the vendor's packaging script (Vivado `ipx::package_project`, a Platform Designer
//! `_hw.tcl`).

use crate::board::catalog::{Board, Vendor};
use crate::emit::engine_shape::EngineShape;
use askama::Template;
use std::path::Path;
use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::two_level::receive_engine::receive_engine_ports;

pub const WRAPPER_MODULE: &str = "tagmatch_board_top";
pub const WRAPPER_FILE: &str = "tagmatch_board_top.v";
pub const SELFTEST_FILE: &str = "tagmatch_selftest.v";

/// One field of a stream word.
pub struct Field {
    pub name: &'static str,
    pub lo: u32,
    pub width: u32,
    pub range: String,
    pub doc: &'static str,
    /// Command: the engine port's connection (the field, zero-extended to the port).
    /// Response: the engine port's bits the field carries.
    pub port: String,
}

/// The engine's port width for a stream field.
fn engine_port_width(name: &str, command: bool) -> u32 {
    let port = format!("{}_{name}", if command { "cmd" } else { "resp" });
    receive_engine_ports().into_iter().find(|(n, _, _)| *n == port).map_or(1, |(_, w, _)| w)
}

/// Fields as (name, start, width, doc): each at its given start bit, or (`None`) at the
/// first byte boundary after the field before it.
fn layout(fields: &[(&'static str, Option<u32>, u32, &'static str)], command: bool) -> Vec<Field> {
    let mut at = 0u32;
    fields
        .iter()
        .map(|&(name, start, width, doc)| {
            let lo = start.unwrap_or(at.div_ceil(8) * 8);
            at = lo + width;
            let range = if width == 1 { format!("{lo}") } else { format!("{}:{lo}", lo + width - 1) };
            let port_width = engine_port_width(name, command);
            let port = if command {
                let data = format!("tm_cmd_data[{range}]");
                if width < port_width {
                    format!("{{{}'d0, {data}}}", port_width - width)
                } else {
                    data
                }
            } else if width < port_width {
                format!("tm_engine_resp_{name}[{}:0]", width - 1)
            } else {
                format!("tm_engine_resp_{name}")
            };
            Field { name, lo, width, range, doc, port }
        })
        .collect()
}

/// Bits a field of `bits` takes in a stream word: whole bytes.
fn bytes(bits: usize) -> u32 {
    (bits as u32).div_ceil(8) * 8
}

/// Bits of both stream words for engines of `widths`: the longer layout's, so one word
/// width serves both streams (128 with the default widths).
pub fn stream_width(widths: &FieldWidths) -> u32 {
    let end = |fs: &[Field]| fs.iter().map(|f| f.lo + f.width).max().unwrap_or(0);
    end(&command_fields(widths)).max(end(&response_fields(widths))).div_ceil(8) * 8
}

/// The bit ranges of a `width`-bit word no field covers, as Verilog ranges.
fn gaps(fields: &[Field], width: u32) -> Vec<String> {
    let mut covered = vec![false; width as usize];
    for f in fields {
        covered[f.lo as usize..(f.lo + f.width) as usize].iter_mut().for_each(|c| *c = true);
    }
    let mut out = Vec::new();
    let mut at = 0;
    while at < width as usize {
        if covered[at] {
            at += 1;
            continue;
        }
        let end = (at..width as usize).find(|&i| covered[i]).unwrap_or(width as usize);
        out.push(if end - at == 1 { format!("{at}") } else { format!("{}:{at}", end - 1) });
        at = end;
    }
    out
}

/// The command word's fields: the envelope fields as wide as the engine stores them
/// (rounded up to bytes), the handle always 32 bits (it carries a wait's count).
pub fn command_fields(widths: &FieldWidths) -> Vec<Field> {
    layout(
        &[
            (
                "op",
                Some(0),
                4,
                "0 post receive, 1 arrival, 2 cancel, 3 probe, 4 matched probe, 5 wait (class in comm, count in \
                 handle), 6 test, 7 flush (empty both queues), 8-15 answer error",
            ),
            ("src_any", Some(8), 1, "receive or probe for MPI_ANY_SOURCE"),
            ("tag_any", Some(9), 1, "receive or probe for MPI_ANY_TAG"),
            ("id", Some(16), 8, "the host's tag for the command, echoed in its response"),
            ("comm", Some(32), bytes(widths.comm), "communicator (wait, test: the class in its low 2 bits)"),
            ("src", None, bytes(widths.src), "source rank (receive: ignored when src_any)"),
            ("tag", None, bytes(widths.tag), "tag (receive: ignored when tag_any)"),
            ("handle", None, 32, "receive handle (post, cancel), message handle (arrival) or count (wait, test)"),
        ],
        true,
    )
}

pub fn response_fields(widths: &FieldWidths) -> Vec<Field> {
    layout(
        &[
            (
                "kind",
                Some(0),
                4,
                "0 matched, 1 queued, 2 cancelled, 3 not found, 4 probe found, 5 probe found nothing, \
                 6 overflow (the queue was full; nothing was applied, the host keeps the operation), 7 error \
                 (an unknown op code, a field wider than generated), 8 reached (a wait's or test's count; \
                 counter in msg), 9 not reached, 10 parked, 11 flushed",
            ),
            ("id", Some(8), 8, "the command's id (a wait's late `reached`: the wait's)"),
            ("src", Some(16), bytes(widths.src), "source of the matched or probed message"),
            ("tag", None, bytes(widths.tag), "tag of the matched or probed message"),
            ("recv", None, 32, "receive handle (matched, cancelled; reached: the count)"),
            ("msg", None, 32, "message handle (matched, probe found; reached, not reached: the counter)"),
        ],
        false,
    )
}

/// Port names of the two streams on a vendor's interface.
struct StreamNames {
    cmd_valid: &'static str,
    cmd_ready: &'static str,
    cmd_data: &'static str,
    resp_valid: &'static str,
    resp_ready: &'static str,
    resp_data: &'static str,
}

fn stream_names(vendor: Vendor) -> StreamNames {
    match vendor {
        // AXI4-Stream slave and master, named as Vivado's interface inference expects.
        Vendor::Xilinx => StreamNames {
            cmd_valid: "s_axis_cmd_tvalid",
            cmd_ready: "s_axis_cmd_tready",
            cmd_data: "s_axis_cmd_tdata",
            resp_valid: "m_axis_resp_tvalid",
            resp_ready: "m_axis_resp_tready",
            resp_data: "m_axis_resp_tdata",
        },
        // Avalon-ST sink and source, with Platform Designer's asi_/aso_ prefixes.
        Vendor::Intel => StreamNames {
            cmd_valid: "asi_cmd_valid",
            cmd_ready: "asi_cmd_ready",
            cmd_data: "asi_cmd_data",
            resp_valid: "aso_resp_valid",
            resp_ready: "aso_resp_ready",
            resp_data: "aso_resp_data",
        },
    }
}

/// One LED of the board build: its port, pin, and what it shows.
struct LedPort {
    port: &'static str,
    pin: String,
    io_standard: String,
    active_low: bool,
    /// The wrapper's signal it shows.
    signal: String,
    doc: &'static str,
}

/// The LEDs' roles, in the board file's order.
const LED_ROLES: [(&str, &str); 3] = [
    ("led_pass", "on once a self-test round has passed, off after any mismatch"),
    ("led_fail", "on from the first mismatch (a wrong answer kind, handle or id) until reset"),
    ("led_alive", "a heartbeat of about 1 Hz: the clock runs"),
];

/// What every board template sees.
struct Context<'a> {
    board: &'a Board,
    module: &'static str,
    xilinx: bool,
    engine_mhz: String,
    period_ns: String,
    clock_n: String,
    pin_n: String,
    leds: Vec<LedPort>,
    /// The heartbeat counter's top bit: it toggles about every half second.
    heartbeat_bit: u32,
    verilog_files: Vec<String>,
    constraints_file: &'static str,
    project: &'static str,
}

#[derive(Template)]
#[template(path = "selftest.v", escape = "none")]
struct SelfTest {
    pairs: usize,
    cam_depth: usize,
    comm_bits: usize,
    src_bits: usize,
    tag_bits: usize,
    handle_bits: usize,
    comm_mask: String,
    src_mask: String,
    tag_mask: String,
    handle_mask: String,
}

/// Receive/message pairs in a self-test round: past the CAM into the lists (twice the CAM
/// and 32 more), within what the queue holds and what its labels keep in order.
pub fn selftest_pairs(cfg: &EngineShape) -> usize {
    let label_room = 1usize << (cfg.label_bits - 2);
    let lists = cfg.queue_capacity() - cfg.cam_depth;
    let listed = lists.min(label_room).min(cfg.cam_depth + 32);
    (cfg.cam_depth + listed).min(u16::MAX as usize)
}

/// The self-test's Verilog for `cfg` (module `tagmatch_selftest`, around the engine's `top`).
pub fn selftest_verilog(cfg: &EngineShape) -> Result<String, String> {
    let f = cfg.fields;
    let mask = |bits: usize| format!("{:08x}", (1u64 << bits) - 1);
    let test = SelfTest {
        pairs: selftest_pairs(cfg),
        cam_depth: cfg.cam_depth,
        comm_bits: f.comm,
        src_bits: f.src,
        tag_bits: f.tag,
        handle_bits: f.handle,
        comm_mask: mask(f.comm),
        src_mask: mask(f.src),
        tag_mask: mask(f.tag),
        handle_mask: mask(f.handle),
    };
    rendered(test.render(), "self-test")
}

#[derive(Template)]
#[template(path = "wrapper.v", escape = "none")]
struct Wrapper<'a> {
    c: &'a Context<'a>,
}

#[derive(Template)]
#[template(path = "board.xdc", escape = "none")]
struct Xdc<'a> {
    c: &'a Context<'a>,
}

#[derive(Template)]
#[template(path = "board.sdc", escape = "none")]
struct Sdc<'a> {
    c: &'a Context<'a>,
}

#[derive(Template)]
#[template(path = "build_vivado.tcl", escape = "none")]
struct Vivado<'a> {
    c: &'a Context<'a>,
}

#[derive(Template)]
#[template(path = "build_quartus.tcl", escape = "none")]
struct Quartus<'a> {
    c: &'a Context<'a>,
}

// Each template struct shows the shared context's fields under their own names.
macro_rules! context_deref {
    ($($t:ident),*) => {$(
        impl<'a> std::ops::Deref for $t<'a> {
            type Target = Context<'a>;
            fn deref(&self) -> &Context<'a> {
                self.c
            }
        }
    )*};
}
context_deref!(Wrapper, Xdc, Sdc, Vivado, Quartus);

/// A rendered template as a file's text (askama drops the template's final newline; files
/// end with one), or an error naming which kind of template failed.
fn rendered(r: Result<String, askama::Error>, what: &str) -> Result<String, String> {
    r.map(|t| t + "\n").map_err(|e| format!("{what} template: {e}"))
}

/// Writes (name, text) `files` into `out`; returns their names.
fn write_files(out: &Path, files: Vec<(&str, String)>) -> Result<Vec<String>, String> {
    for (name, text) in &files {
        std::fs::write(out.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", out.join(name).display()))?;
    }
    Ok(files.into_iter().map(|(n, _)| n.to_string()).collect())
}

/// The shell's clock and reset ports on a vendor's interface.
pub fn shell_clock_reset(vendor: Vendor) -> (&'static str, &'static str) {
    match vendor {
        Vendor::Xilinx => ("aclk", "aresetn"),
        Vendor::Intel => ("clk", "reset"),
    }
}

pub const SHELL_MODULE: &str = "tagmatch_shell";
pub const SHELL_FILE: &str = "tagmatch_shell.v";

#[derive(Template)]
#[template(path = "shell.v", escape = "none")]
struct Shell {
    module: &'static str,
    vendor: &'static str,
    xilinx: bool,
    interface: &'static str,
    clock: &'static str,
    reset: &'static str,
    width: u32,
    cmd_fields: Vec<Field>,
    resp_fields: Vec<Field>,
    resp_gaps: Vec<String>,
    /// The engine's response ports the fields come from, at the ports' widths.
    resp_ports: Vec<(&'static str, u32)>,
    diagnostics: Vec<(&'static str, u32)>,
    streams: StreamNames,
}

/// The shell's Verilog for `vendor`'s interface.
pub fn shell_verilog(vendor: Vendor, widths: &FieldWidths) -> Result<String, String> {
    let used: Vec<String> = ["clock", "reset", "cmd_valid", "cmd_ready", "resp_valid", "resp_ready"]
        .iter()
        .map(|s| s.to_string())
        .chain(command_fields(widths).iter().map(|f| format!("cmd_{}", f.name)))
        .chain(response_fields(widths).iter().map(|f| format!("resp_{}", f.name)))
        .collect();
    if let Some((n, _, _)) =
        receive_engine_ports().into_iter().find(|(n, _, i)| *i && !used.iter().any(|u| u == n))
    {
        return Err(format!("the engine's input {n} has no field in the stream words"));
    }
    let diagnostics: Vec<(&'static str, u32)> = receive_engine_ports()
        .into_iter()
        .filter(|(n, _, input)| !input && !used.iter().any(|u| u == n))
        .map(|(n, w, _)| (n, w))
        .collect();
    let (clock, reset) = shell_clock_reset(vendor);
    let resp_fields = response_fields(widths);
    let width = stream_width(widths);
    let shell = Shell {
        module: SHELL_MODULE,
        vendor: vendor.name(),
        xilinx: vendor == Vendor::Xilinx,
        interface: vendor.interface(),
        clock,
        reset,
        width,
        cmd_fields: command_fields(widths),
        resp_gaps: gaps(&resp_fields, width),
        resp_ports: resp_fields.iter().map(|f| (f.name, engine_port_width(f.name, false))).collect(),
        resp_fields,
        diagnostics,
        streams: stream_names(vendor),
    };
    rendered(shell.render(), "shell")
}

/// Writes the self-test, wrapper, constraints and project script for `board` into `out`,
/// next to the engine's `engine_file`; returns the names of the files written. A board
/// without LEDs is refused: its build would have nothing to show and no pins to show it on.
pub fn generate(
    board: &Board,
    cfg: &EngineShape,
    engine_file: &str,
    out: &Path,
) -> Result<Vec<String>, String> {
    if board.leds.is_empty() {
        return Err(format!(
            "board {}: its board file lists no LEDs (constraints/boards/{}.toml, [[leds]]), so a stand-alone \
             build would have no pins to show its self-test on; package the engine with --shell {} instead",
            board.name,
            board.name,
            board.vendor.name()
        ));
    }
    let (constraints_file, script) = match board.vendor {
        Vendor::Xilinx => ("tagmatch_board.xdc", "build_vivado.tcl"),
        Vendor::Intel => ("tagmatch_board.sdc", "build_quartus.tcl"),
    };
    let heartbeat_bit = (board.engine_mhz() * 1e6).log2().round() as u32 - 1;
    let signals = ["tm_pass".to_string(), "tm_fail".to_string(), format!("tm_alive[{heartbeat_bit}]")];
    let leds = board
        .leds
        .iter()
        .zip(LED_ROLES.iter().zip(signals))
        .map(|(l, ((port, doc), signal))| LedPort {
            port,
            pin: l.pin.clone(),
            io_standard: l.io_standard.clone(),
            active_low: l.active_low,
            signal,
            doc,
        })
        .collect();
    let c = Context {
        board,
        module: WRAPPER_MODULE,
        xilinx: board.vendor == Vendor::Xilinx,
        engine_mhz: format!("{}", board.engine_mhz()),
        period_ns: format!("{:.3}", 1000.0 / board.clock.mhz),
        clock_n: board.clock.port_n.clone().unwrap_or_default(),
        pin_n: board.clock.pin_n.clone().unwrap_or_default(),
        leds,
        heartbeat_bit,
        verilog_files: vec![engine_file.to_string(), SELFTEST_FILE.to_string(), WRAPPER_FILE.to_string()],
        constraints_file,
        project: "tagmatch_board",
    };
    let render = |r| rendered(r, "board");
    let mut files =
        vec![(SELFTEST_FILE, selftest_verilog(cfg)?), (WRAPPER_FILE, render(Wrapper { c: &c }.render())?)];
    match board.vendor {
        Vendor::Xilinx => {
            files.push((constraints_file, render(Xdc { c: &c }.render())?));
            files.push((script, render(Vivado { c: &c }.render())?));
        }
        Vendor::Intel => {
            files.push((constraints_file, render(Sdc { c: &c }.render())?));
            files.push((script, render(Quartus { c: &c }.render())?));
        }
    }
    write_files(out, files)
}

/// What `gen --shell` packages for.
pub struct ShellTarget {
    pub vendor: Vendor,
    /// The device the out-of-context run targets (Vivado needs one; Platform Designer
    /// takes the system's).
    pub part: String,
    pub clock_mhz: f64,
}

#[derive(Template)]
#[template(path = "package_vivado.tcl", escape = "none")]
struct PackageVivado<'a> {
    module: &'static str,
    part: &'a str,
    mhz: String,
    freq_hz: u64,
    verilog_files: Vec<String>,
    constraints_file: &'static str,
}

#[derive(Template)]
#[template(path = "shell_hw.tcl", escape = "none")]
struct PlatformDesigner {
    module: &'static str,
    mhz: String,
    freq_hz: u64,
    width: u32,
    verilog_files: Vec<String>,
    top_file: &'static str,
    constraints_file: &'static str,
}

#[derive(Template)]
#[template(path = "shell_ooc.xdc", escape = "none")]
struct ShellXdc {
    module: &'static str,
    mhz: String,
    period_ns: String,
}

#[derive(Template)]
#[template(path = "shell.sdc", escape = "none")]
struct ShellSdc {
    module: &'static str,
    mhz: String,
    period_ns: String,
}

/// Writes the shell, its clock constraint and the vendor's packaging script into `out`
/// next to the engine's `engine_file`; returns the files written.
pub fn generate_shell(
    target: &ShellTarget,
    widths: &FieldWidths,
    engine_file: &str,
    out: &Path,
) -> Result<Vec<String>, String> {
    if !(target.clock_mhz > 0.0 && target.clock_mhz <= 1000.0) {
        return Err(format!("--clock-mhz {}: from above 0 to 1000 MHz", target.clock_mhz));
    }
    let mhz = format!("{}", target.clock_mhz);
    let period_ns = format!("{:.3}", 1000.0 / target.clock_mhz);
    let freq_hz = (target.clock_mhz * 1e6).round() as u64;
    let verilog_files = vec![engine_file.to_string(), SHELL_FILE.to_string()];
    let render = |r| rendered(r, "shell");
    let module = SHELL_MODULE;
    let mut files = vec![(SHELL_FILE, shell_verilog(target.vendor, widths)?)];
    match target.vendor {
        Vendor::Xilinx => {
            let constraints_file = "tagmatch_shell_ooc.xdc";
            files
                .push((constraints_file, render(ShellXdc { module, mhz: mhz.clone(), period_ns }.render())?));
            let script =
                PackageVivado { module, part: &target.part, mhz, freq_hz, verilog_files, constraints_file };
            files.push(("package_vivado.tcl", render(script.render())?));
        }
        Vendor::Intel => {
            let constraints_file = "tagmatch_shell.sdc";
            files
                .push((constraints_file, render(ShellSdc { module, mhz: mhz.clone(), period_ns }.render())?));
            let component = PlatformDesigner {
                module,
                mhz,
                freq_hz,
                width: stream_width(widths),
                verilog_files,
                top_file: SHELL_FILE,
                constraints_file,
            };
            files.push(("tagmatch_shell_hw.tcl", render(component.render())?));
        }
    }
    write_files(out, files)
}
