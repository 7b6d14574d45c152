//! The deepest register inputs of a synthesized ECP5 netlist (yosys `write_json`), in
//! cells: where a design's long paths are, known minutes after synthesis. nextpnr names a
//! critical path only once it has routed, and routing the thread array takes hours; its
//! placement estimate (`gen --timing --place-only`) names none.
//!
//! Counting: every combinational cell a path passes (LUT4, the wide-mux cells PFUMX and
//! L6MUX21, a carry cell entered by its data inputs, a LUT RAM's read) is one level; a
//! carry chain's ripple (`CIN` → `COUT`) is dedicated wiring and counts none. Paths start
//! at 0 at flip-flops, block RAM outputs and the design's inputs, and end at flip-flop
//! inputs (data, enable, set/reset) and the inputs of block and LUT RAM writes. A
//! register's depth is its deepest bit's, and registers whose names differ only in their
//! numbers (one per lane or per descriptor: `d_prev_0.q` … `d_prev_31.q`) are listed once,
//! as `d_prev_*.q`; the source named is where the deepest path starts. Depth is not delay (routing is most of an ECP5 path's), but the deepest
//! registers are the ones to look at first.

use serde_json::{json, Value};
use std::collections::HashMap;

/// One group of registers (or RAM ports) and its deepest input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeepInput {
    /// The registers' output net with `*` for numbers (`ln_first_*_q`), or a RAM cell's.
    pub register: String,
    /// Flip-flops (one a bit) or RAM cells in the group.
    pub cells: usize,
    pub levels: u32,
    /// Where the deepest path starts: a register's output net or a design input.
    pub from: String,
}

impl DeepInput {
    pub fn to_json(&self) -> Value {
        json!({"register": self.register, "cells": self.cells, "levels": self.levels, "from": self.from})
    }
}

/// What drives a net bit.
#[derive(Clone, Copy)]
enum Driver {
    /// A path starts here (flip-flop, block RAM output, design input, constant).
    Start,
    /// Cell `cell`: one level more than its deepest leveled input, or its carry in's
    /// depth.
    Logic { cell: usize },
}

struct Cell {
    /// Inputs that add a level, and inputs that add none.
    leveled: Vec<usize>,
    ripple: Vec<usize>,
}

pub(crate) fn bits(connections: &Value, port: &str) -> Vec<usize> {
    connections[port]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b.as_u64().map(|b| b as usize))
        .collect()
}

/// A cell's ports of direction `dir` (`input`, `output`), by name.
pub(crate) fn ports_of<'a>(cell: &'a Value, dir: &str) -> Vec<&'a str> {
    cell["port_directions"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, d)| d.as_str() == Some(dir))
        .map(|(p, _)| p.as_str())
        .collect()
}

/// The design's top module: the one yosys marks `top`, else the one named `top`.
pub(crate) fn top_module(netlist: &Value) -> Result<&serde_json::Map<String, Value>, String> {
    let modules = netlist["modules"].as_object().ok_or("the netlist has no modules")?;
    let marked = modules.values().find(|m| {
        m["attributes"]["top"].as_str().is_some_and(|t| t.trim_start_matches('0') == "1")
            || m["attributes"]["top"].as_u64() == Some(1)
    });
    marked
        .or_else(|| modules.get("top"))
        .and_then(|m| m.as_object())
        .ok_or_else(|| "the netlist names no top module".into())
}

/// The readable name of each net bit: a name the user wrote (not `$`-generated) where one
/// exists, the shortest such, with the bit's index when the net is wider than one bit.
pub(crate) fn bit_names(top: &serde_json::Map<String, Value>) -> HashMap<usize, String> {
    let mut names: HashMap<usize, (bool, String)> = HashMap::new();
    for (net, v) in top.get("netnames").and_then(|n| n.as_object()).into_iter().flatten() {
        let bits = v["bits"].as_array().cloned().unwrap_or_default();
        let generated = net.starts_with('$') || v["hide_name"].as_u64() == Some(1);
        for (i, b) in bits.iter().enumerate() {
            let Some(b) = b.as_u64() else { continue };
            let name = if bits.len() > 1 { format!("{net}[{i}]") } else { net.clone() };
            let better = match names.get(&(b as usize)) {
                None => true,
                Some((was_generated, was)) => {
                    (*was_generated && !generated) || (*was_generated == generated && name.len() < was.len())
                }
            };
            if better {
                names.insert(b as usize, (generated, name));
            }
        }
    }
    names.into_iter().map(|(b, (_, n))| (b, n)).collect()
}

/// The register a bit's name belongs to: its name without the bit index.
pub(crate) fn register_of(name: &str) -> &str {
    match name.rfind('[') {
        Some(at) if name.ends_with(']') => &name[..at],
        _ => name,
    }
}

/// `name` with every run of digits as `*`: the group of registers it belongs to.
pub(crate) fn group_of(name: &str) -> String {
    let mut group = String::with_capacity(name.len());
    for c in name.chars() {
        if !c.is_ascii_digit() {
            group.push(c);
        } else if !group.ends_with('*') {
            group.push('*');
        }
    }
    group
}

/// The `count` deepest groups of registers of `netlist`'s top module, deepest first.
pub fn deepest(netlist: &Value, count: usize) -> Result<Vec<DeepInput>, String> {
    let top = top_module(netlist)?;
    let names = bit_names(top);
    let mut cells = Vec::new();
    let mut drivers: HashMap<usize, Driver> = HashMap::new();
    // Endpoints: (the register's name, its input bits).
    let mut ends: Vec<(String, Vec<usize>)> = Vec::new();
    for (cell_name, c) in top.get("cells").and_then(|c| c.as_object()).into_iter().flatten() {
        let kind = c["type"].as_str().unwrap_or("");
        let conn = &c["connections"];
        let ports = |dir: &str| ports_of(c, dir);
        let outputs: Vec<usize> = ports("output").iter().flat_map(|p| bits(conn, p)).collect();
        match kind {
            "TRELLIS_FF" => {
                let q = bits(conn, "Q");
                let name =
                    q.first().and_then(|b| names.get(b)).map_or(cell_name.as_str(), |n| register_of(n));
                let inputs = ["DI", "CE", "LSR"].iter().flat_map(|p| bits(conn, p)).collect();
                ends.push((name.to_string(), inputs));
                for b in q {
                    drivers.insert(b, Driver::Start);
                }
            }
            "DP16KD" => {
                let inputs = ports("input")
                    .iter()
                    .filter(|p| !p.starts_with("CLK"))
                    .flat_map(|p| bits(conn, p))
                    .collect();
                ends.push((cell_name.clone(), inputs));
                for b in outputs {
                    drivers.insert(b, Driver::Start);
                }
            }
            _ => {
                let (leveled, ripple) = match kind {
                    "CCU2C" => (
                        ["A0", "B0", "C0", "D0", "A1", "B1", "C1", "D1"]
                            .iter()
                            .flat_map(|p| bits(conn, p))
                            .collect(),
                        bits(conn, "CIN"),
                    ),
                    "TRELLIS_DPR16X4" => {
                        let writes = ["WAD", "DI", "WRE"].iter().flat_map(|p| bits(conn, p)).collect();
                        ends.push((cell_name.clone(), writes));
                        (bits(conn, "RAD"), Vec::new())
                    }
                    _ => (ports("input").iter().flat_map(|p| bits(conn, p)).collect(), Vec::new()),
                };
                let cell = cells.len();
                cells.push(Cell { leveled, ripple });
                for b in outputs {
                    drivers.insert(b, Driver::Logic { cell });
                }
            }
        }
    }
    if ends.is_empty() {
        return Err("the netlist has no flip-flops or RAMs to end a path".into());
    }

    // Depth of every bit, memoized, without recursion (paths can be thousands of cells).
    let mut depth: HashMap<usize, (u32, usize)> = HashMap::new();
    let mut stack: Vec<(usize, bool)> = Vec::new();
    let mut on_stack: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut resolve = |root: usize, depth: &mut HashMap<usize, (u32, usize)>| {
        stack.push((root, false));
        while let Some((bit, expanded)) = stack.pop() {
            if depth.contains_key(&bit) {
                continue;
            }
            let Some(Driver::Logic { cell }) = drivers.get(&bit).copied() else {
                depth.insert(bit, (0, bit));
                continue;
            };
            let c = &cells[cell];
            let inputs = c.leveled.iter().chain(&c.ripple);
            if !expanded {
                if !on_stack.insert(bit) {
                    // A combinational loop: cut it here.
                    depth.insert(bit, (0, bit));
                    continue;
                }
                stack.push((bit, true));
                stack.extend(inputs.filter(|b| !depth.contains_key(b)).map(|&b| (b, false)));
                continue;
            }
            on_stack.remove(&bit);
            let level = |b: &usize, cost: u32| depth.get(b).map(|&(d, s)| (d + cost, s));
            let best = c
                .leveled
                .iter()
                .filter_map(|b| level(b, 1))
                .chain(c.ripple.iter().filter_map(|b| level(b, 0)))
                .max_by_key(|&(d, _)| d)
                // No net input: a constant (a LUT of constant inputs), where no path starts.
                .unwrap_or((0, bit));
            depth.insert(bit, best);
        }
    };

    let mut found: HashMap<String, DeepInput> = HashMap::new();
    for (register, inputs) in &ends {
        let group = group_of(register);
        let entry = found.entry(group.clone()).or_insert_with(|| DeepInput {
            register: group,
            cells: 0,
            levels: 0,
            from: String::new(),
        });
        entry.cells += 1;
        for &b in inputs {
            resolve(b, &mut depth);
            let (levels, source) = depth[&b];
            if levels > entry.levels || entry.from.is_empty() {
                entry.levels = levels;
                entry.from = names
                    .get(&source)
                    .map_or_else(|| format!("net {source}"), |n| register_of(n).to_string());
            }
        }
    }
    let mut all: Vec<DeepInput> = found.into_values().collect();
    all.sort_by(|a, b| b.levels.cmp(&a.levels).then_with(|| a.register.cmp(&b.register)));
    all.truncate(count);
    Ok(all)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A cell's port: name, direction, net bits.
    pub(crate) type Port<'a> = (&'a str, &'a str, &'a [u64]);

    /// A netlist in yosys' JSON form: `cells` as (name, type, ports).
    pub(crate) fn netlist(cells: &[(&str, &str, &[Port])], nets: &[(&str, &[u64])]) -> Value {
        let mut c = serde_json::Map::new();
        for (name, kind, ports) in cells {
            let dirs: serde_json::Map<_, _> =
                ports.iter().map(|(p, d, _)| (p.to_string(), json!(d))).collect();
            let conns: serde_json::Map<_, _> =
                ports.iter().map(|(p, _, b)| (p.to_string(), json!(b))).collect();
            c.insert(name.to_string(), json!({"type": kind, "port_directions": dirs, "connections": conns}));
        }
        let n: serde_json::Map<_, _> = nets
            .iter()
            .map(|(name, bits)| (name.to_string(), json!({"hide_name": 0, "bits": bits})))
            .collect();
        json!({"modules": {"top": {"attributes": {"top": "00000000000000000000000000000001"}, "cells": c, "netnames": n}}})
    }

    #[test]
    fn counts_cells_from_register_to_register_and_not_the_carry_ripple() {
        // a.q (2) → LUT → PFUMX → b.DI: 2 levels. a.q → CCU2C data → CCU2C via CIN →
        // c.DI: 1 level. An input x → LUT → d.CE: 1 level, from the input.
        let n = netlist(
            &[
                ("a", "TRELLIS_FF", &[("DI", "input", &[9]), ("Q", "output", &[2])]),
                ("l1", "LUT4", &[("A", "input", &[2]), ("B", "input", &[2]), ("Z", "output", &[3])]),
                ("m1", "PFUMX", &[("ALUT", "input", &[3]), ("BLUT", "input", &[2]), ("Z", "output", &[4])]),
                ("b", "TRELLIS_FF", &[("DI", "input", &[4]), ("Q", "output", &[5])]),
                ("k1", "CCU2C", &[("A0", "input", &[2]), ("CIN", "input", &[]), ("COUT", "output", &[6])]),
                ("k2", "CCU2C", &[("A0", "input", &[]), ("CIN", "input", &[6]), ("S0", "output", &[7])]),
                ("c", "TRELLIS_FF", &[("DI", "input", &[7]), ("Q", "output", &[8])]),
                ("l2", "LUT4", &[("A", "input", &[10]), ("Z", "output", &[11])]),
                ("d", "TRELLIS_FF", &[("DI", "input", &[5]), ("CE", "input", &[11]), ("Q", "output", &[12])]),
            ],
            &[("a_q", &[2]), ("b_q", &[5]), ("c_q", &[8]), ("x", &[10]), ("d_q", &[12]), ("$auto$1", &[3])],
        );
        let got = deepest(&n, 10).unwrap();
        let by = |r: &str| got.iter().find(|d| d.register == r).cloned().unwrap();
        assert_eq!(got[0], DeepInput { register: "b_q".into(), cells: 1, levels: 2, from: "a_q".into() });
        assert_eq!(by("c_q").levels, 1, "the carry ripple is free");
        assert_eq!((by("d_q").levels, by("d_q").from.as_str()), (1, "x"), "the enable's path");
        assert_eq!(by("a_q").levels, 0);
        assert_eq!(deepest(&n, 1).unwrap().len(), 1);
    }

    #[test]
    fn registers_differing_only_in_numbers_are_one_group() {
        let n = netlist(
            &[
                ("a", "TRELLIS_FF", &[("DI", "input", &[2]), ("Q", "output", &[2])]),
                ("l", "LUT4", &[("A", "input", &[2]), ("Z", "output", &[3])]),
                ("r0", "TRELLIS_FF", &[("DI", "input", &[2]), ("Q", "output", &[4])]),
                ("r1", "TRELLIS_FF", &[("DI", "input", &[3]), ("Q", "output", &[5])]),
            ],
            &[("a_q", &[2]), ("lane_0.q", &[4]), ("lane_12.q", &[5])],
        );
        let got = deepest(&n, 10).unwrap();
        assert_eq!(
            got[0],
            DeepInput { register: "lane_*.q".into(), cells: 2, levels: 1, from: "a_q".into() }
        );
    }

    #[test]
    fn a_netlist_without_registers_or_top_is_an_error() {
        let e = deepest(&json!({"modules": {}}), 5).unwrap_err();
        assert!(e.contains("top"), "{e}");
        let n = netlist(&[("l", "LUT4", &[("A", "input", &[2]), ("Z", "output", &[3])])], &[]);
        assert!(deepest(&n, 5).unwrap_err().contains("no flip-flops"));
    }
}
