//! The text form of a DUMPI trace, as printed by the DUMPI project's `dumpi2ascii`:
//! optional `key=value` header lines, then per call an `entering` line, one line per
//! argument (`TYPE NAME=VALUE`) and a `returning` line, then optionally the footer's
//! `... called N times and ignored M times` lines.
//!
//! Each argument line becomes one [`Arg`] (a scalar, an array, strings or statuses), so a
//! text trace yields the same [`Record`]s as the binary form and can be analysed the same
//! way; comparing the two forms uses [`Record::flat_args`], which forgets how values were
//! grouped (the text prints a single request as `[2]`).

use super::{Arg, CallCounts, Location, Record, Span, Status, Time, TraceError};
use std::collections::BTreeMap;

/// A record and the line its `entering` line is on.
#[derive(Clone, Debug, PartialEq)]
pub struct TextRecord {
    pub record: Record,
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

fn number(s: &str) -> Option<i64> {
    // "2 (MPI_COMM_WORLD)": the number is the value, the name a comment.
    s.split_once(' ').map_or(s, |(n, _)| n).parse().ok()
}

fn quoted(s: &str) -> Option<String> {
    s.strip_prefix('"').and_then(|q| q.strip_suffix('"')).map(str::to_string)
}

/// One status, from `{bytes=.., cancelled=.., source=.., tag=.., error=..}`.
fn status(s: &str) -> Option<Status> {
    let body = s.strip_prefix('{')?.strip_suffix('}')?;
    let fields: BTreeMap<&str, i64> = split_list(body)
        .into_iter()
        .map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((k.trim(), v.trim().parse().ok()?))
        })
        .collect::<Option<_>>()?;
    Some(Status {
        bytes: *fields.get("bytes")? as i32,
        source: *fields.get("source")? as i32,
        cancelled: *fields.get("cancelled")? as u8,
        error: *fields.get("error")? as u8,
        tag: fields.get("tag").map(|&t| t as i32),
    })
}

/// The argument printed as `TYPE NAME=VALUE`.
fn argument(ty: &str, v: &str) -> Option<Arg> {
    let v = v.trim();
    let is_status = ty.starts_with("MPI_Status");
    if v == "<IGNORED>" || v == "NULL" {
        return Some(if is_status { Arg::Statuses(None) } else { Arg::NotStored });
    }
    if let Some(inner) = v.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        let items = split_list(inner);
        if is_status {
            let st: Vec<Status> = items.iter().map(|i| status(i)).collect::<Option<_>>()?;
            return Some(Arg::Statuses(if st.is_empty() { None } else { Some(st) }));
        }
        if items.first().is_some_and(|i| i.starts_with('"')) {
            return items.iter().map(|i| quoted(i)).collect::<Option<_>>().map(Arg::Strs);
        }
        if items.first().is_some_and(|i| i.starts_with('[')) {
            let rows = items
                .iter()
                .map(|row| {
                    row.strip_prefix('[')?
                        .strip_suffix(']')
                        .map(|r| split_list(r).iter().map(|x| number(x)).collect::<Option<Vec<_>>>())?
                })
                .collect::<Option<_>>()?;
            return Some(Arg::Rows(rows));
        }
        return items.iter().map(|i| number(i)).collect::<Option<_>>().map(Arg::Ints);
    }
    if is_status {
        return status(v).map(|s| Arg::Statuses(Some(vec![s])));
    }
    if let Some(q) = quoted(v) {
        return Some(Arg::Str(q));
    }
    number(v).map(Arg::Int)
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
                return Err(err(
                    n,
                    format!("{} (line {}) has no returning line", open.record.name(), open.line),
                ));
            }
            let times = parse_times(rest)
                .ok_or_else(|| err(n, format!("cannot read the entering line: '{line}'")))?;
            let label = super::calls::label_of(name)
                .ok_or_else(|| err(n, format!("unknown MPI call '{name}': the reader cannot decode it")))?;
            current = Some(TextRecord {
                record: Record {
                    label,
                    thread: times.thread,
                    wall: times.wall.map(|start| Span { start, stop: start }),
                    cpu: times.cpu.map(|start| Span { start, stop: start }),
                    args: Vec::new(),
                },
                line: n,
            });
        } else if let Some((name, rest)) = line.split_once(" returning ") {
            let mut rec =
                current.take().ok_or_else(|| err(n, format!("{name} returns but never entered")))?;
            if rec.record.name() != name {
                return Err(err(
                    n,
                    format!("{name} returns inside {} (line {})", rec.record.name(), rec.line),
                ));
            }
            let times = parse_times(rest)
                .ok_or_else(|| err(n, format!("cannot read the returning line: '{line}'")))?;
            if let (Some(w), Some(stop)) = (rec.record.wall.as_mut(), times.wall) {
                w.stop = stop;
            }
            if let (Some(c), Some(stop)) = (rec.record.cpu.as_mut(), times.cpu) {
                c.stop = stop;
            }
            t.records.push(rec);
        } else if let Some(rec) = current.as_mut() {
            let (decl, v) =
                line.split_once('=').ok_or_else(|| err(n, format!("not an argument line: '{line}'")))?;
            let ty = decl.rsplit_once(' ').map_or(decl, |(t, _)| t);
            let arg = argument(ty, v).ok_or_else(|| err(n, format!("cannot read the value of '{line}'")))?;
            rec.record.args.push(arg);
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
        return Err(err(open.line, format!("truncated: {} has no returning line", open.record.name())));
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
pub fn difference(bin: &Record, txt: &Record) -> Option<String> {
    if bin.label != txt.label {
        return Some(format!("call {} vs {}", bin.name(), txt.name()));
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
    let (a, b) = (bin.flat_args(), txt.flat_args());
    if a != b {
        return Some(format!("arguments {a:?} vs {b:?}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traces::dumpi::FlatValue;

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
        let w = &t.records[0].record;
        assert_eq!(w.name(), "MPI_Waitall");
        assert_eq!(w.wall.unwrap().stop, Time { sec: 10, nsec: 750_000_000 });
        assert_eq!(w.cpu.unwrap().start, Time { sec: 0, nsec: 1 });
        assert_eq!(w.int(0), Some(2));
        assert_eq!(w.ints(1), Some(&[4, 5][..]));
        let Arg::Statuses(Some(st)) = &w.args[2] else { panic!("{:?}", w.args[2]) };
        assert_eq!(st[1], Status { bytes: 0, source: -1, cancelled: 1, error: 0, tag: Some(-1) });
        let ints: Vec<i64> =
            w.flat_args().iter().map(|v| if let FlatValue::Int(i) = v { *i } else { 0 }).collect();
        assert_eq!(ints, vec![2, 4, 5, 8, 1, 0, 0, 7, 0, -1, 1, 0, -1]);
        assert_eq!(t.records[1].record.thread, 3);
        assert_eq!(t.records[1].record.args, vec![Arg::Int(2), Arg::Int(-1)]);
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
        let e = parse("MPI_Frobnicate entering at walltime 1.0 seconds in thread 0.\n", "f").unwrap_err();
        assert!(e.message.contains("MPI_Frobnicate"), "{e}");
    }
}
