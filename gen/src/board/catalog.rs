//! Board definitions: one TOML file per board in `constraints/boards/`, compiled into the
//! binary so `tagmatch gen --board` works from any directory. A board names its device,
//! its clock (pin, frequency, IO standard, single-ended or differential, an optional
//! divider) and its reset (or none: the wrapper then resets itself at configuration), and
//! the vendor decides the host-side stream interface: AXI4-Stream for Xilinx, Avalon-ST
//! for Intel.

use crate::output::table::Record;
use serde::Deserialize;
use serde_json::json;

/// Every board file, by file name. A test checks that this list and the folder agree.
pub const BOARD_FILES: &[(&str, &str)] = &[
    ("agilex7-f-devkit.toml", include_str!("../../../constraints/boards/agilex7-f-devkit.toml")),
    ("alveo-u250.toml", include_str!("../../../constraints/boards/alveo-u250.toml")),
    ("de5net-5sgsmd8.toml", include_str!("../../../constraints/boards/de5net-5sgsmd8.toml")),
    ("vcu118.toml", include_str!("../../../constraints/boards/vcu118.toml")),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    Intel,
    Xilinx,
}

impl Vendor {
    pub fn name(self) -> &'static str {
        match self {
            Vendor::Intel => "intel",
            Vendor::Xilinx => "xilinx",
        }
    }

    /// The stream interface its tools expect.
    pub fn interface(self) -> &'static str {
        match self {
            Vendor::Xilinx => "AXI4-Stream",
            Vendor::Intel => "Avalon-ST",
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Top-level port name (the P side of a differential pair).
    pub port: String,
    /// The N side's port, for differential clocks on Xilinx parts (Quartus infers it).
    pub port_n: Option<String>,
    pub pin: String,
    pub pin_n: Option<String>,
    pub mhz: f64,
    pub io_standard: String,
    #[serde(default)]
    pub differential: bool,
    /// Divide the board clock before the engine (Xilinx UltraScale+ BUFGCE_DIV, 1 to 8).
    #[serde(default = "one")]
    pub divide: u32,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reset {
    pub port: String,
    pub pin: String,
    pub io_standard: String,
    pub active_low: bool,
}

/// A user LED: the board build shows its self-test on up to three (pass, fail, heartbeat,
/// in this order).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Led {
    pub pin: String,
    pub io_standard: String,
    #[serde(default)]
    pub active_low: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub name: String,
    pub description: String,
    pub vendor: Vendor,
    pub family: String,
    pub part: String,
    pub clock: Clock,
    pub reset: Option<Reset>,
    /// Xilinx configuration bank settings (`CFGBVS`, `CONFIG_VOLTAGE`).
    pub cfgbvs: Option<String>,
    pub config_voltage: Option<String>,
    /// Extra Quartus global assignments the board needs (`NAME VALUE`).
    #[serde(default)]
    pub project_assignments: Vec<String>,
    /// User LEDs for the stand-alone build's self-test (none: no stand-alone build).
    #[serde(default)]
    pub leds: Vec<Led>,
}

impl Board {
    /// The frequency the engine runs at: the board clock after its divider.
    pub fn engine_mhz(&self) -> f64 {
        self.clock.mhz / self.clock.divide as f64
    }

    pub fn interface(&self) -> &'static str {
        self.vendor.interface()
    }

    fn check(&self, file: &str) -> Result<(), String> {
        let c = &self.clock;
        if !(c.mhz > 0.0 && c.mhz <= 1000.0) {
            return Err(format!("{file}: clock.mhz {} is not a frequency in MHz", c.mhz));
        }
        if !(1..=8).contains(&c.divide) || (c.divide > 1 && self.vendor != Vendor::Xilinx) {
            return Err(format!("{file}: clock.divide {} (1 to 8, Xilinx BUFGCE_DIV only)", c.divide));
        }
        if self.vendor == Vendor::Xilinx && c.differential && (c.port_n.is_none() || c.pin_n.is_none()) {
            return Err(format!("{file}: a differential Xilinx clock needs port_n and pin_n"));
        }
        if self.leds.len() > 3 {
            return Err(format!(
                "{file}: {} LEDs; the board build drives up to 3 (pass, fail, heartbeat)",
                self.leds.len()
            ));
        }
        if format!("{}.toml", self.name) != file {
            return Err(format!(
                "{file}: the board's name is {}, the file must be named after it",
                self.name
            ));
        }
        Ok(())
    }
}

/// Every board, parsed and checked.
pub fn all() -> Result<Vec<Board>, String> {
    BOARD_FILES
        .iter()
        .map(|(file, text)| {
            let board: Board = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
            board.check(file)?;
            Ok(board)
        })
        .collect()
}

/// The board called `name`, or an error listing the known ones.
pub fn find(name: &str) -> Result<Board, String> {
    let boards = all()?;
    let known: Vec<&str> = boards.iter().map(|b| b.name.as_str()).collect();
    let list = known.join(", ");
    boards
        .iter()
        .find(|b| b.name == name)
        .cloned()
        .ok_or_else(|| format!("unknown board '{name}'; known boards: {list}"))
}

/// `tagmatch boards`: one record per board with its key facts.
pub fn records() -> Result<Vec<Record>, String> {
    Ok(all()?
        .into_iter()
        .map(|b| {
            vec![
                ("board", json!(b.name)),
                ("vendor", json!(b.vendor.name())),
                ("family", json!(b.family)),
                ("part", json!(b.part)),
                ("clock_pin", json!(b.clock.pin)),
                ("clock_mhz", json!(b.clock.mhz)),
                ("clock_io", json!(b.clock.io_standard)),
                ("engine_mhz", json!(b.engine_mhz())),
                (
                    "reset",
                    json!(b.reset.as_ref().map(|r| r.port.clone()).unwrap_or_else(|| "power-on".into())),
                ),
                ("interface", json!(b.interface())),
                ("leds", json!(b.leds.len())),
            ]
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_file_parses_and_is_registered() {
        let boards = all().unwrap();
        assert_eq!(boards.len(), BOARD_FILES.len());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../constraints/boards");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .collect();
        on_disk.sort();
        let registered: Vec<String> = BOARD_FILES.iter().map(|(f, _)| f.to_string()).collect();
        assert_eq!(on_disk, registered, "add new board files to BOARD_FILES");
        assert!(boards.iter().any(|b| b.vendor == Vendor::Intel && b.family == "Stratix V"));
        assert!(boards.iter().any(|b| b.vendor == Vendor::Xilinx));
    }

    #[test]
    fn an_unknown_board_lists_the_known_ones() {
        let e = find("de10").unwrap_err();
        assert!(
            e.contains("unknown board 'de10'") && e.contains("vcu118") && e.contains("alveo-u250"),
            "{e}"
        );
    }
}
