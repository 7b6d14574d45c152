//! Printing result records as a table (for people), CSV or JSON (for scripts).
//!
//! A record is a flat list of (column, value) pairs; every record of one report has the same
//! columns in the same order. JSON output is one array of flat objects, as `docs/design.md`'s CLI
//! contract says.

use serde_json::{Map, Value};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Json,
}

pub type Record = Vec<(&'static str, Value)>;

/// The value of `key` in `r` (null when absent), for code that reads records back, as the
/// plots do.
pub fn field<'a>(r: &'a Record, key: &str) -> &'a Value {
    static NULL: Value = Value::Null;
    r.iter().find(|(k, _)| *k == key).map_or(&NULL, |(_, v)| v)
}

/// A value as a table shows it: fractions rounded for reading (two places below 10,
/// one above).
fn cell(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if !n.is_i64() && !n.is_u64() && f.abs() < 10.0 => format!("{f:.2}"),
            Some(f) if !n.is_i64() && !n.is_u64() => format!("{f:.1}"),
            _ => n.to_string(),
        },
        other => raw(other),
    }
}

/// A value as CSV carries it: unrounded, for scripts.
fn raw(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn render(records: &[Record], format: Format) -> String {
    match format {
        Format::Json => {
            let array: Vec<Value> = records
                .iter()
                .map(|r| {
                    Value::Object(r.iter().map(|(k, v)| (k.to_string(), v.clone())).collect::<Map<_, _>>())
                })
                .collect();
            serde_json::to_string_pretty(&Value::Array(array)).expect("JSON values serialize") + "\n"
        }
        Format::Csv => {
            let mut out = String::new();
            if let Some(first) = records.first() {
                let header: Vec<_> = first.iter().map(|(k, _)| csv_field(k)).collect();
                writeln!(out, "{}", header.join(",")).unwrap();
            }
            for r in records {
                let row: Vec<_> = r.iter().map(|(_, v)| csv_field(&raw(v))).collect();
                writeln!(out, "{}", row.join(",")).unwrap();
            }
            out
        }
        Format::Table => {
            let Some(first) = records.first() else { return String::from("(no results)\n") };
            let header: Vec<String> = first.iter().map(|(k, _)| k.to_string()).collect();
            let rows: Vec<Vec<String>> =
                records.iter().map(|r| r.iter().map(|(_, v)| cell(v)).collect()).collect();
            let widths: Vec<usize> = (0..header.len())
                .map(|i| rows.iter().map(|r| r[i].len()).chain([header[i].len()]).max().unwrap_or(0))
                .collect();
            // A column is right-aligned when it holds numbers, whatever its first row holds
            // (a null, or a word in place of a number).
            let numeric: Vec<bool> =
                (0..header.len()).map(|i| records.iter().any(|r| r[i].1.is_number())).collect();
            let line = |cells: &[String]| {
                let parts: Vec<String> = cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        if numeric[i] {
                            format!("{c:>w$}", w = widths[i])
                        } else {
                            format!("{c:<w$}", w = widths[i])
                        }
                    })
                    .collect();
                parts.join("  ").trim_end().to_string() + "\n"
            };
            let mut out = line(&header);
            out += &(widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  ") + "\n");
            for r in &rows {
                out += &line(r);
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Vec<Record> {
        vec![
            vec![("design", json!("linked-list")), ("depth", json!(10)), ("ns", json!(12.25))],
            vec![("design", json!("a,b")), ("depth", json!(1000)), ("ns", json!(3.0))],
        ]
    }

    #[test]
    fn renders_all_formats() {
        let json: Value = serde_json::from_str(&render(&sample(), Format::Json)).unwrap();
        assert_eq!(json[1]["depth"], 1000);
        assert_eq!(json[0]["design"], "linked-list");
        assert_eq!(
            render(&sample(), Format::Csv),
            "design,depth,ns\nlinked-list,10,12.25\n\"a,b\",1000,3.0\n",
            "CSV keeps every digit"
        );
        let table = render(&sample(), Format::Table);
        assert!(table.starts_with("design       depth    ns\n"), "{table}");
        assert!(table.contains("linked-list     10  12.2\n"), "{table}");
        assert!(table.contains("a,b           1000  3.00\n"), "small fractions keep two places: {table}");
    }
}
