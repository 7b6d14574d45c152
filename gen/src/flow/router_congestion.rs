//! When nextpnr's router2 cannot route a design, say so and say what congests it, instead
//! of running for hours. router2 rips up and reroutes every overused wire once a pass;
//! on a design too congested for the device the count of overused wires falls for a few
//! passes and then stays or rises (the 16-lane thread array on the LFE5U-85F: 70,000 to
//! 80,000 after the first pass, 17,000 to 20,000 from the seventh on). The flow watches
//! the count ([`Plateau`]) and stops nextpnr once [`PLATEAU_PASSES`] passes in a row have
//! not brought it below [`GAIN`] times the fewest so far. A route down to its last few
//! overused wires ([`ENDGAME_WIRES`] or fewer) gets [`ENDGAME_PASSES`] instead: there 2 %
//! is less than a wire, and router2 can sit on one wire for several passes before it
//! clears it (the 16-lane array without the fast path: one overused wire from pass 27
//! to 36, none at 37, where the 8-pass watch had stopped it at 35; with the fast path one
//! from pass 33 to 36, none at 37).
//!
//! router2's congestion heatmaps (`--router2-heatmap`) name, every pass, each net that
//! uses an overused wire and how many it uses. [`by_register`] adds them up by the
//! register whose logic the net belongs to: yosys names a cell's output net after the
//! net it was derived from (`d_next_5.q_LUT4_Z_D` is logic behind `d_next_5.q`), and the
//! numbers go (`d_next_*.q`), as in [`crate::flow::netlist_depth`]. The share says which
//! registers' logic to make narrower or more local.

use crate::flow::netlist_depth::group_of;
use std::path::{Path, PathBuf};

/// Passes without a gain after which the router is stopped.
pub const PLATEAU_PASSES: u32 = 8;
/// A gain: the overused wires fall below this fraction of the fewest seen so far.
pub const GAIN: f64 = 0.98;
/// At or below this many overused wires the route is in its endgame...
pub const ENDGAME_WIRES: u64 = 100;
/// ... and is stopped only after this many passes without a gain.
pub const ENDGAME_PASSES: u32 = 32;
/// At or below this many it is down to its last wires...
pub const LAST_WIRES: u64 = 10;
/// ... and is stopped only after this many passes without a gain.
pub const LAST_WIRES_PASSES: u32 = 128;

/// Watches router2's log, line by line, for a plateau in its overused wires.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plateau {
    /// The fewest overused wires so far and the pass that had them.
    pub fewest: Option<(u64, u32)>,
    /// The last pass's overused wires and its number.
    pub last: Option<(u64, u32)>,
}

impl Plateau {
    /// Reads a line of the log; after a pass that ends a plateau, why the router should
    /// stop.
    pub fn observe(&mut self, line: &str) -> Option<String> {
        let (pass, overused) = parse_pass(line)?;
        self.last = Some((overused, pass));
        match self.fewest {
            Some((fewest, _)) if (overused as f64) >= fewest as f64 * GAIN => {}
            _ => self.fewest = Some((overused, pass)),
        }
        let (fewest, at) = self.fewest?;
        let patience = patience(fewest);
        (overused > 0 && pass >= at + patience).then(|| {
            format!(
                "router2 is not converging: {overused} overused wires after pass {pass}, the fewest \
                 {fewest} at pass {at}, none {:.0} % fewer since",
                (1.0 - GAIN) * 100.0
            )
        })
    }
}

/// Passes without a gain a route whose fewest overused wires so far are `fewest` gets
/// before it is stopped.
pub fn patience(fewest: u64) -> u32 {
    if fewest <= LAST_WIRES {
        LAST_WIRES_PASSES
    } else if fewest <= ENDGAME_WIRES {
        ENDGAME_PASSES
    } else {
        PLATEAU_PASSES
    }
}

/// router2's per-pass line: `Info:     iter=7 wires=1015693 overused=21538 overuse=22248 archfail=NA`.
pub fn parse_pass(line: &str) -> Option<(u32, u64)> {
    let field = |key: &str| -> Option<&str> {
        line.split_whitespace().find_map(|w| w.strip_prefix(key)).filter(|v| !v.is_empty())
    };
    Some((field("iter=")?.parse().ok()?, field("overused=")?.parse().ok()?))
}

/// One register group's part of the congestion.
#[derive(Clone, Debug, PartialEq)]
pub struct Congested {
    pub register: String,
    /// Overused wire uses by the group's nets, and how many nets.
    pub uses: u64,
    pub nets: u64,
}

/// The register a net's logic belongs to: its name up to the first cell-derived suffix.
fn register_of_net(net: &str) -> &str {
    let net = net.trim_matches('"');
    ["_TRELLIS_", "_LUT4_", "_PFUMX_", "_L6MUX21_", "_CCU2C_"]
        .iter()
        .filter_map(|s| net.find(s))
        .min()
        .map_or(net, |at| &net[..at])
}

/// router2's congestion-by-net heatmap (`net,uses` lines) added up by register group,
/// most first, and the total.
pub fn by_register(csv: &str) -> Result<(u64, Vec<Congested>), String> {
    let mut groups: std::collections::HashMap<String, (u64, u64)> = std::collections::HashMap::new();
    for (n, line) in csv.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (net, uses) = line
            .rsplit_once(',')
            .and_then(|(net, u)| Some((net, u.trim().parse::<u64>().ok()?)))
            .ok_or_else(|| format!("line {}: not `net,uses`: {line}", n + 1))?;
        let e = groups.entry(group_of(register_of_net(net))).or_default();
        e.0 += uses;
        e.1 += 1;
    }
    let total = groups.values().map(|g| g.0).sum();
    let mut all: Vec<Congested> =
        groups.into_iter().map(|(register, (uses, nets))| Congested { register, uses, nets }).collect();
    all.sort_by(|a, b| b.uses.cmp(&a.uses).then_with(|| a.register.cmp(&b.register)));
    Ok((total, all))
}

/// The last pass's congestion-by-net heatmap under `prefix` (router2 writes
/// `{prefix}_congestion_by_net_{pass}.csv`).
pub fn latest_heatmap(prefix: &Path) -> Option<PathBuf> {
    let dir = prefix.parent()?;
    let stem = format!("{}_congestion_by_net_", prefix.file_name()?.to_string_lossy());
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().to_string();
            let pass: u32 = name.strip_prefix(&stem)?.strip_suffix(".csv")?.parse().ok()?;
            Some((pass, dir.join(name)))
        })
        .max_by_key(|(pass, _)| *pass)
        .map(|(_, path)| path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(iter: u32, overused: u64) -> String {
        format!(
            "Info:     iter={iter} wires=1015693 overused={overused} overuse={} archfail=NA",
            overused + 7
        )
    }

    #[test]
    fn a_falling_count_runs_on_and_a_plateau_stops() {
        let mut p = Plateau::default();
        assert_eq!(p.observe("Info: Routing.."), None);
        for (i, o) in [(1, 80_433), (2, 50_000), (3, 30_000), (4, 20_560)] {
            assert_eq!(p.observe(&pass(i, o)), None);
        }
        // Within 2 % of the fewest, or above it: no gain.
        for i in 5..12 {
            assert_eq!(p.observe(&pass(i, 20_560 - 100 + 200 * (i as u64 % 2))), None, "pass {i}");
        }
        let why = p.observe(&pass(12, 20_700)).expect("8 passes without a gain");
        assert!(
            why.contains("20700 overused wires after pass 12") && why.contains("20560 at pass 4"),
            "{why}"
        );
        assert_eq!(p.last, Some((20_700, 12)));
    }

    #[test]
    fn slow_gains_and_a_finished_route_never_stop() {
        let mut p = Plateau::default();
        let mut o = 10_000.0;
        for i in 1..40 {
            o *= 0.97;
            assert_eq!(p.observe(&pass(i, o as u64)), None);
        }
        let mut p = Plateau::default();
        for i in 1..20 {
            assert_eq!(p.observe(&pass(i, if i < 3 { 40 } else { 0 })), None);
        }
    }

    #[test]
    fn the_last_few_wires_get_a_longer_wait() {
        let mut p = Plateau::default();
        for (i, o) in [(1, 42_335), (2, 9_000), (3, 400), (4, 100)] {
            assert_eq!(p.observe(&pass(i, o)), None);
        }
        // 40 wires left at pass 5: more than 8 passes there is not a plateau yet.
        for i in 5..37 {
            assert_eq!(p.observe(&pass(i, 40)), None, "pass {i}");
        }
        let why = p.observe(&pass(37, 40)).expect("32 passes on the last 40 wires");
        assert!(why.contains("the fewest 40 at pass 5"), "{why}");
        // One wire left at pass 5: 32 passes on it are not a plateau yet, 128 are.
        let mut p = Plateau::default();
        for i in 1..133 {
            assert_eq!(p.observe(&pass(i, if i < 5 { 100 } else { 1 })), None, "pass {i}");
        }
        let why = p.observe(&pass(133, 1)).expect("128 passes on the last wire");
        assert!(why.contains("the fewest 1 at pass 5"), "{why}");
    }

    #[test]
    fn congestion_adds_up_by_register() {
        let csv = "d_next_5.q[3],9\nd_next_12.q[0],6\nd_cancel_match_3.q_LUT4_Z_D[0],15\n\
                   d_cancel_match_30.q_TRELLIS_FF_Q_CE_LUT4_Z,5\nlabel.q,2\n";
        let (total, g) = by_register(csv).unwrap();
        assert_eq!(total, 37);
        assert_eq!(
            g.iter().map(|c| (c.register.as_str(), c.uses, c.nets)).collect::<Vec<_>>(),
            [("d_cancel_match_*.q", 20, 2), ("d_next_*.q[*]", 15, 2), ("label.q", 2, 1)]
        );
        assert!(by_register("no comma here\n").unwrap_err().contains("line 1"));
    }

    #[test]
    fn the_latest_heatmap_is_the_last_pass() {
        let dir = std::env::temp_dir().join(format!("tagmatch-heat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for p in [1, 2, 10] {
            std::fs::write(dir.join(format!("congestion_congestion_by_net_{p}.csv")), "").unwrap();
        }
        std::fs::write(dir.join("congestion_congestion_by_coordinate_11.csv"), "").unwrap();
        let got = latest_heatmap(&dir.join("congestion")).unwrap();
        assert!(got.ends_with("congestion_congestion_by_net_10.csv"), "{}", got.display());
        assert_eq!(latest_heatmap(&dir.join("other")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
