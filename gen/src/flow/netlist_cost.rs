//! Where a synthesized ECP5 netlist's logic goes: the LUT4s of every combinational cell
//! shared out among the registers its output reaches. A design that does not fit the
//! device, or does not route, needs to know which registers its logic is for; nextpnr
//! only counts cells, and ABC's LUTs carry no source line.
//!
//! Counting follows nextpnr's "Total LUT4s": a LUT4 is one, a carry cell (CCU2C) two,
//! a LUT RAM (TRELLIS_DPR16X4) six (four LUTs of storage and two of write port), the
//! wide-mux cells (PFUMX, L6MUX21) none, as they are a slice's own muxes. A cell's LUT4s
//! are split evenly among the register groups it feeds through combinational cells
//! only (flip-flop data, enable and reset inputs, LUT RAM writes); logic in front of a
//! LUT RAM's read counts toward what that read feeds. A LUT RAM counts its own LUT4s to
//! its group. Groups are as in [`crate::flow::netlist_depth`]: the register's name with every
//! number as `*`; the design's outputs are one more group, `(outputs)`.
//! The split is a model of ownership, not of synthesis: logic shared by many registers
//! (a state decode) is spread thin over all of them.

use crate::flow::netlist_depth::{bit_names, bits, group_of, ports_of, register_of, top_module};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};

/// One group of registers and the LUT4s that are its share.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupCost {
    pub register: String,
    /// Flip-flops (one a bit) or LUT RAM cells in the group.
    pub cells: usize,
    pub lut4s: f64,
}

impl GroupCost {
    pub fn to_json(&self) -> Value {
        json!({"register": self.register, "cells": self.cells, "lut4s": self.lut4s.round() as u64})
    }
}

/// The netlist's LUT4s in all, and the `count` groups with the most, most first.
#[derive(Clone, Debug, PartialEq)]
pub struct Costs {
    pub total_lut4s: f64,
    pub groups: Vec<GroupCost>,
    /// The netlist's `TRELLIS_FF` and `DP16KD` cells.
    pub flip_flops: u64,
    pub dp16kd: u64,
}

/// The group a design output's logic counts toward.
pub const OUTPUTS: &str = "(outputs)";

struct Comb {
    lut4s: f64,
    outputs: Vec<usize>,
}

/// The LUT4 share of every register group of `netlist`'s top module (module docs).
pub fn by_register(netlist: &Value, count: usize) -> Result<Costs, String> {
    let top = top_module(netlist)?;
    let names = bit_names(top);
    let mut group_ids: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<GroupCost> = Vec::new();
    let mut group_of_register = |register: &str, groups: &mut Vec<GroupCost>| -> usize {
        let g = group_of(register);
        *group_ids.entry(g.clone()).or_insert_with(|| {
            groups.push(GroupCost { register: g, cells: 0, lut4s: 0.0 });
            groups.len() - 1
        })
    };
    let outputs_group = group_of_register(OUTPUTS, &mut groups);

    let (mut flip_flops, mut dp16kd) = (0, 0);
    let mut combs: Vec<Comb> = Vec::new();
    // Who reads each net bit: a combinational cell, or a register group's input.
    let mut comb_readers: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut group_readers: HashMap<usize, Vec<usize>> = HashMap::new();
    for (cell_name, c) in top.get("cells").and_then(|c| c.as_object()).into_iter().flatten() {
        let kind = c["type"].as_str().unwrap_or("");
        let conn = &c["connections"];
        let ports = |ps: &[&str]| -> Vec<usize> { ps.iter().flat_map(|p| bits(conn, p)).collect() };
        match kind {
            "TRELLIS_FF" => {
                flip_flops += 1;
                let q = bits(conn, "Q");
                let name =
                    q.first().and_then(|b| names.get(b)).map_or(cell_name.as_str(), |n| register_of(n));
                let g = group_of_register(name, &mut groups);
                groups[g].cells += 1;
                for b in ports(&["DI", "CE", "LSR"]) {
                    group_readers.entry(b).or_default().push(g);
                }
            }
            "TRELLIS_DPR16X4" => {
                let g = group_of_register(cell_name, &mut groups);
                groups[g].cells += 1;
                groups[g].lut4s += 6.0;
                for b in ports(&["WAD", "DI", "WRE"]) {
                    group_readers.entry(b).or_default().push(g);
                }
                // The read: free, but what feeds its address counts toward what it feeds.
                let cell = combs.len();
                combs.push(Comb { lut4s: 0.0, outputs: ports(&["DO"]) });
                for b in ports(&["RAD"]) {
                    comb_readers.entry(b).or_default().push(cell);
                }
            }
            "LUT4" | "CCU2C" | "PFUMX" | "L6MUX21" => {
                let lut4s = match kind {
                    "LUT4" => 1.0,
                    "CCU2C" => 2.0,
                    _ => 0.0,
                };
                let with_dir = |dir: &str| ports(&ports_of(c, dir));
                let cell = combs.len();
                combs.push(Comb { lut4s, outputs: with_dir("output") });
                for b in with_dir("input") {
                    comb_readers.entry(b).or_default().push(cell);
                }
            }
            "DP16KD" => dp16kd += 1,
            // Block RAM, I/O and the rest: where counting stops.
            _ => {}
        }
    }
    let mut design_outputs: BTreeSet<usize> = BTreeSet::new();
    for (_, port) in top.get("ports").and_then(|p| p.as_object()).into_iter().flatten() {
        if port["direction"].as_str() == Some("output") {
            design_outputs.extend(bits(port, "bits"));
        }
    }

    // Each cell's combinational readers and the groups it feeds directly.
    let n = combs.len();
    let mut fanout: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut reach: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for (cell, comb) in combs.iter().enumerate() {
        for b in &comb.outputs {
            fanout[cell].extend(comb_readers.get(b).into_iter().flatten());
            reach[cell].extend(group_readers.get(b).into_iter().flatten());
            if design_outputs.contains(b) {
                reach[cell].insert(outputs_group);
            }
        }
        fanout[cell].sort_unstable();
        fanout[cell].dedup();
    }
    // Readers before the cells they read (reverse topological, Kahn's order): a cell's
    // reach is its own plus its readers'. Cells on a combinational loop keep their own.
    let mut waiting: Vec<usize> = fanout.iter().map(Vec::len).collect();
    let mut drivers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (cell, readers) in fanout.iter().enumerate() {
        for &r in readers {
            drivers[r].push(cell);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&c| waiting[c] == 0).collect();
    while let Some(cell) = ready.pop() {
        let mut all = std::mem::take(&mut reach[cell]);
        for &r in &fanout[cell] {
            all.extend(reach[r].iter().copied());
        }
        reach[cell] = all;
        for &d in &drivers[cell] {
            waiting[d] -= 1;
            if waiting[d] == 0 {
                ready.push(d);
            }
        }
    }
    let mut unowned = 0.0;
    for (cell, comb) in combs.iter().enumerate() {
        if reach[cell].is_empty() {
            unowned += comb.lut4s;
            continue;
        }
        let share = comb.lut4s / reach[cell].len() as f64;
        for &g in &reach[cell] {
            groups[g].lut4s += share;
        }
    }
    let total_lut4s = groups.iter().map(|g| g.lut4s).sum::<f64>() + unowned;
    groups.retain(|g| g.lut4s > 0.0);
    groups.sort_by(|a, b| b.lut4s.total_cmp(&a.lut4s).then_with(|| a.register.cmp(&b.register)));
    groups.truncate(count);
    Ok(Costs { total_lut4s, groups, flip_flops, dp16kd })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::netlist_depth::tests::netlist;

    #[test]
    fn a_cell_is_shared_among_the_registers_it_feeds() {
        // a.q → l1 → l2 → b.DI, and l1 → c.CE; the carry cell k → c.DI; l3 → the output.
        // l1 (1 LUT4) is half b's, half c's; l2 is b's; k (2 LUT4s) is c's.
        let n = netlist(
            &[
                ("a", "TRELLIS_FF", &[("DI", "input", &[2]), ("Q", "output", &[2])]),
                ("l1", "LUT4", &[("A", "input", &[2]), ("Z", "output", &[3])]),
                ("l2", "LUT4", &[("A", "input", &[3]), ("Z", "output", &[4])]),
                ("m", "PFUMX", &[("ALUT", "input", &[4]), ("Z", "output", &[5])]),
                ("b1", "TRELLIS_FF", &[("DI", "input", &[5]), ("Q", "output", &[6])]),
                ("k", "CCU2C", &[("A0", "input", &[2]), ("S0", "output", &[7])]),
                ("c", "TRELLIS_FF", &[("DI", "input", &[7]), ("CE", "input", &[3]), ("Q", "output", &[8])]),
                ("l3", "LUT4", &[("A", "input", &[8]), ("Z", "output", &[9])]),
                ("ram", "DP16KD", &[("ADA0", "input", &[8])]),
            ],
            &[("a_q", &[2]), ("b_1.q", &[6]), ("c_q", &[8])],
        );
        let mut n = n;
        n["modules"]["top"]["ports"] = json!({"out": {"direction": "output", "bits": [9]}});
        let got = by_register(&n, 10).unwrap();
        let of = |r: &str| got.groups.iter().find(|g| g.register == r).map(|g| g.lut4s);
        assert_eq!(got.total_lut4s, 5.0);
        assert_eq!((got.flip_flops, got.dp16kd), (3, 1), "the cells counted beside the LUT4s");
        assert_eq!(of("b_*.q"), Some(1.5));
        assert_eq!(of("c_q"), Some(2.5));
        assert_eq!(of(OUTPUTS), Some(1.0));
        assert_eq!(of("a_q"), None, "a register fed by no logic has no share");
        assert_eq!(got.groups[0].register, "c_q", "most first");
        assert_eq!(by_register(&n, 1).unwrap().groups.len(), 1);
    }

    #[test]
    fn a_lut_ram_counts_its_own_and_its_writes_and_passes_its_read_on() {
        // w → ram.DI (write), r → ram.RAD → DO → l → d.DI.
        let n = netlist(
            &[
                ("lw", "LUT4", &[("A", "input", &[2]), ("Z", "output", &[3])]),
                ("lr", "LUT4", &[("A", "input", &[2]), ("Z", "output", &[4])]),
                (
                    "ram",
                    "TRELLIS_DPR16X4",
                    &[("DI", "input", &[3]), ("RAD", "input", &[4]), ("DO", "output", &[5])],
                ),
                ("l", "LUT4", &[("A", "input", &[5]), ("Z", "output", &[6])]),
                ("d", "TRELLIS_FF", &[("DI", "input", &[6]), ("Q", "output", &[7])]),
            ],
            &[("x", &[2]), ("d_q", &[7])],
        );
        let got = by_register(&n, 10).unwrap();
        let of = |r: &str| got.groups.iter().find(|g| g.register == r).map(|g| g.lut4s);
        assert_eq!(of("ram"), Some(7.0), "six of its own and the write's LUT4");
        assert_eq!(of("d_q"), Some(2.0), "the read address's LUT4 and the read's");
        assert_eq!(got.total_lut4s, 9.0);
    }

    #[test]
    fn a_combinational_loop_does_not_hang_and_keeps_its_cells() {
        let n = netlist(
            &[
                ("l1", "LUT4", &[("A", "input", &[3]), ("Z", "output", &[2])]),
                ("l2", "LUT4", &[("A", "input", &[2]), ("Z", "output", &[3])]),
                ("r", "TRELLIS_FF", &[("DI", "input", &[3]), ("Q", "output", &[4])]),
            ],
            &[("r_q", &[4])],
        );
        let got = by_register(&n, 10).unwrap();
        assert_eq!(got.total_lut4s, 2.0);
        assert!(by_register(&json!({"modules": {}}), 5).unwrap_err().contains("top"));
    }
}
