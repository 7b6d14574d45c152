//! The text form of a DUMPI trace, as printed by the DUMPI project's `dumpi2ascii`:
//! optional `key=value` header lines, then per call an `entering` line, one line per
//! argument (`TYPE NAME=VALUE`) and a `returning` line, then optionally the footer's
//! `... called N times and ignored M times` lines.
//!
//! Arguments are kept as the flat list of scalars [`super::Record::flat_args`] produces, so
//! the two forms can be compared value for value.

use super::{CallCounts, FlatValue, Location, Record, Span, Time, TraceError};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextRecord {
    pub name: String,
    pub thread: u16,
    pub wall: Option<Span>,
    pub cpu: Option<Span>,
    pub values: Vec<FlatValue>,
    /// Line of the `entering` line.
    pub line: usize,
}

#[derive(Clone, Debug, Default)]
pub struct TextTrace {
    pub header: BTreeMap<String, String>,
    pub records: Vec<TextRecord>,
    /// Footer counts by label, when the text has its footer.
    pub counts: Option<CallCounts>,
}

struct Times {
    wall: Option<Time>,
    cpu: Option<Time>,
    thread: u16,
}

fn parse_time(s: &str) -> Option<Time> {
    let (sec, frac) = s.split_once('.').unwrap_or((s, "0"));
    if frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let nsec = format!("{frac:0<9}").parse().ok()?;
    Some(Time { sec: sec.parse().ok()?, nsec })
}

/// Parses "at walltime W, cputime C seconds in thread T." (either time may be absent).
fn parse_times(rest: &str) -> Option<Times> {
    let rest = rest.strip_prefix("at ")?.trim_end_matches('.');
    let mut t = Times { wall: None, cpu: None, thread: 0 };
    let (times, thread) =
        rest.split_once(" seconds in thread ").or_else(|| rest.split_once(" in thread "))?;
    t.thread = thread.trim().parse().ok()?;
    for part in times.split(',') {
        let part = part.trim();
        if let Some(w) = part.strip_prefix("walltime ") {
            t.wall = Some(parse_time(w.trim_end_matches(" seconds"))?);
        } else if let Some(c) = part.strip_prefix("cputime ") {
            t.cpu = Some(parse_time(c.trim_end_matches(" seconds"))?);
        } else if !part.is_empty() {
            return None;
        }
    }
    Some(t)
}

/// Splits a bracketed list at top-level commas.
fn split_list(s: &str) -> Vec<&str> {
    let (mut depth, mut quoted, mut start) = (0, false, 0);
    let mut out = Vec::new();
    for (i, ch) in s.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            '{' | '[' if !quoted => depth += 1,
            '}' | ']' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

fn scalar(s: &str) -> Option<FlatValue> {
    if let Some(q) = s.strip_prefix('"').and_then(|q| q.strip_suffix('"')) {
        return Some(FlatValue::Str(q.to_string()));
    }
    // "2 (MPI_COMM_WORLD)": the number is the value, the name a comment.
    let number = s.split_once(' ').map_or(s, |(n, _)| n);
    number.parse::<i64>().ok().map(FlatValue::Int)
}

/// Status fields in storage order (bytes, source, cancelled, error, tag).
fn status(s: &str, out: &mut Vec<FlatValue>) -> Option<()> {
    let body = s.strip_prefix('{')?.strip_suffix('}')?;
    let fields: BTreeMap<&str, i64> = split_list(body)
        .into_iter()
        .map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((k.trim(), v.trim().parse().ok()?))
        })
        .collect::<Option<_>>()?;
    for k in ["bytes", "source", "cancelled", "error"] {
        out.push(FlatValue::Int(*fields.get(k)?));
    }
    if let Some(t) = fields.get("tag") {
        out.push(FlatValue::Int(*t));
    }
    Some(())
}

fn value(v: &str, out: &mut Vec<FlatValue>) -> Option<()> {
    let v = v.trim();
    if v == "<IGNORED>" || v == "NULL" {
        return Some(());
    }
    if let Some(inner) = v.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        for item in split_list(inner) {
            if item.starts_with('{') {
                status(item, out)?;
            } else if item.starts_with('[') {
                value(item, out)?;
            } else {
                out.push(scalar(item)?);
            }
        }
        return Some(());
    }
    if v.starts_with('{') {
        return status(v, out);
    }
    out.push(scalar(v)?);
    Some(())
}

/// Parses a `dumpi2ascii` text. `file` only labels errors.
pub fn parse(text: &str, file: &str) -> Result<TextTrace, TraceError> {
    let err = |line: usize, message: String| TraceError {
        file: file.to_string(),
        rank: None,
        at: Some(Location::Line(line)),
        message,
    };
    let mut t = TextTrace::default();
    let mut current: Option<TextRecord> = None;
    let mut called: BTreeMap<u16, (u32, u32)> = BTreeMap::new();
    let mut in_footer = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        if let Some((name, rest)) = line.split_once(" entering ") {
            if let Some(open) = &current {
                return Err(err(n, format!("{} (line {}) has no returning line", open.name, open.line)));
            }
            let times = parse_times(rest)
                .ok_or_else(|| err(n, format!("cannot read the entering line: '{line}'")))?;
            current = Some(TextRecord {
                name: name.to_string(),
                thread: times.thread,
                wall: times.wall.map(|start| Span { start, stop: start }),
                cpu: times.cpu.map(|start| Span { start, stop: start }),
                values: Vec::new(),
                line: n,
            });
        } else if let Some((name, rest)) = line.split_once(" returning ") {
            let mut rec =
                current.take().ok_or_else(|| err(n, format!("{name} returns but never entered")))?;
            if rec.name != name {
                return Err(err(n, format!("{name} returns inside {} (line {})", rec.name, rec.line)));
            }
            let times = parse_times(rest)
                .ok_or_else(|| err(n, format!("cannot read the returning line: '{line}'")))?;
            if let (Some(w), Some(stop)) = (rec.wall.as_mut(), times.wall) {
                w.stop = stop;
            }
            if let (Some(c), Some(stop)) = (rec.cpu.as_mut(), times.cpu) {
                c.stop = stop;
            }
            t.records.push(rec);
        } else if let Some(rec) = current.as_mut() {
            let (_, v) =
                line.split_once('=').ok_or_else(|| err(n, format!("not an argument line: '{line}'")))?;
            value(v, &mut rec.values).ok_or_else(|| err(n, format!("cannot read the value of '{line}'")))?;
        } else if let Some((name, rest)) = line.split_once(" called ") {
            let nums: Vec<u32> = rest.split_whitespace().filter_map(|w| w.parse().ok()).collect();
            let label = super::calls::label_of(name);
            in_footer = true;
            match (label, nums.as_slice()) {
                (Some(l), [c, ig]) => {
                    called.insert(l, (*c, *ig));
                }
                (None, [_, _]) => {} // labels this table does not know (e.g. the sentinel)
                _ => return Err(err(n, format!("cannot read the footer line '{line}'"))),
            }
        } else if line.starts_with("Total keyvals") {
            in_footer = true;
        } else if in_footer {
            // The trailer after the counts (perf counter labels, datatype sizes) carries
            // nothing the reader uses.
        } else if let Some((k, v)) = line.split_once('=') {
            if !t.records.is_empty() {
                return Err(err(n, format!("unexpected line between records: '{line}'")));
            }
            t.header.insert(k.to_string(), v.to_string());
        } else {
            return Err(err(n, format!("unexpected line: '{line}'")));
        }
    }
    if let Some(open) = current {
        return Err(err(open.line, format!("truncated: {} has no returning line", open.name)));
    }
    if !called.is_empty() {
        let n = super::calls::ALL_FUNCTIONS as usize + 1;
        let mut counts = CallCounts { called: vec![0; n], ignored: vec![0; n] };
        for (l, (c, ig)) in called {
            counts.called[l as usize] = c;
            counts.ignored[l as usize] = ig;
        }
        t.counts = Some(counts);
    }
    Ok(t)
}

/// Why a binary record and its text form differ, or `None` when they agree.
pub fn difference(bin: &Record, txt: &TextRecord) -> Option<String> {
    if bin.name() != txt.name {
        return Some(format!("call {} vs {}", bin.name(), txt.name));
    }
    if bin.thread != txt.thread {
        return Some(format!("thread {} vs {}", bin.thread, txt.thread));
    }
    if bin.wall != txt.wall {
        return Some(format!("wall times {:?} vs {:?}", bin.wall, txt.wall));
    }
    if bin.cpu != txt.cpu {
        return Some(format!("cpu times {:?} vs {:?}", bin.cpu, txt.cpu));
    }
    let flat = bin.flat_args();
    if flat != txt.values {
        return Some(format!("arguments {:?} vs {:?}", flat, txt.values));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_records_values_and_footer() {
        let text = "version=1\nMPI_Waitall entering at walltime 10.5, cputime 0.000000001 seconds in thread 0.\n\
            int count=2\nMPI_Request requests[2]=[4, 5]\n\
            MPI_Status statuses[2]=[{bytes=8, cancelled=0, source=1, tag=7, error=0}, {bytes=0, cancelled=1, source=-1, tag=-1, error=0}]\n\
            MPI_Waitall returning at walltime 10.75, cputime 0.000000002 seconds in thread 0.\n\
            MPI_Comm_rank entering at walltime 11.0, cputime 0.1 seconds in thread 3.\nMPI_Comm comm=2 (MPI_COMM_WORLD)\nint rank=-1 (MPI_ANY_SOURCE)\n\
            MPI_Comm_rank returning at walltime 11.0, cputime 0.1 seconds in thread 3.\n\
            MPI_Send called 3 times and ignored 1 times\n";
        let t = parse(text, "t").unwrap();
        assert_eq!(t.header["version"], "1");
        assert_eq!(t.records.len(), 2);
        let w = &t.records[0];
        assert_eq!(w.wall.unwrap().stop, Time { sec: 10, nsec: 750_000_000 });
        assert_eq!(w.cpu.unwrap().start, Time { sec: 0, nsec: 1 });
        let ints: Vec<i64> =
            w.values.iter().map(|v| if let FlatValue::Int(i) = v { *i } else { 0 }).collect();
        assert_eq!(ints, vec![2, 4, 5, 8, 1, 0, 0, 7, 0, -1, 1, 0, -1]);
        assert_eq!(t.records[1].thread, 3);
        assert_eq!(t.records[1].values, vec![FlatValue::Int(2), FlatValue::Int(-1)]);
        let c = t.counts.unwrap();
        assert_eq!((c.called[0], c.ignored[0]), (3, 1));
    }

    #[test]
    fn errors_name_the_line() {
        let e =
            parse("MPI_Send entering at walltime 1.0 seconds in thread 0.\nint count=x\n", "f").unwrap_err();
        assert_eq!(e.at, Some(Location::Line(2)));
        let e =
            parse("MPI_Send entering at walltime 1.0 seconds in thread 0.\nint count=1\n", "f").unwrap_err();
        assert!(e.message.contains("truncated"), "{e}");
        assert!(parse("garbage\n", "f").is_err());
    }
}
