//! The binary DUMPI form of one rank (`PREFIX-NNNN.bin`).
//!
//! Layout (big-endian): the 8-byte magic `ff aa dd 'D' 'U' 'M' 'P' 'I'`; the body (two u32
//! time biases, then records, then an end-of-stream label); the header (version, start
//! time, host and user names, mesh); the footer (a magic word, then per-label counts of
//! calls made and calls ignored); and, in the last 64 bytes, an index of section offsets.
//! A record is a u16 label, a u8 mask (bits 0-1 statuses stored, bit 2 CPU times, bit 3
//! wall times, bit 6 thread id, bit 7 perf counters), the optional thread id, times and
//! counters, then the call's arguments as laid out in [`super::calls`].

use super::calls::{self, ALL_FUNCTIONS, END_OF_STREAM, FUNCTION_ENTER, FUNCTION_EXIT};
use super::{Arg, CallCounts, Location, Record, Span, Status, Time, TraceError};

const HEAD_MAGIC: u64 = 0xffaa_dd44_554d_5049;
const FOOT_MAGIC: u64 = 0xf007_fee7;
const MASK_STATUSES: u8 = 0b11;
const MASK_CPU: u8 = 1 << 2;
const MASK_WALL: u8 = 1 << 3;
const MASK_THREAD: u8 = 1 << 6;
const MASK_PERF: u8 = 1 << 7;

/// One rank's binary trace, decoded.
#[derive(Clone, Debug, Default)]
pub struct BinaryTrace {
    pub version: [u8; 3],
    pub start_time: u64,
    pub hostname: String,
    pub username: String,
    pub records: Vec<Record>,
    pub counts: CallCounts,
}

/// Why a read stopped, before the file name and rank are attached.
struct Failure {
    at: u64,
    message: String,
}

type R<T> = Result<T, Failure>;

struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn at(data: &'a [u8], pos: u64) -> R<Self> {
        if pos as usize > data.len() {
            return Err(Failure {
                at: pos,
                message: format!("section offset {pos} is past the end of the file"),
            });
        }
        Ok(Cursor { data, pos: pos as usize })
    }

    fn fail<T>(&self, message: impl Into<String>) -> R<T> {
        Err(Failure { at: self.pos as u64, message: message.into() })
    }

    fn take(&mut self, n: usize) -> R<&'a [u8]> {
        if self.data.len() - self.pos < n {
            return self.fail(format!(
                "truncated: needed {n} more bytes, the file ends after {}",
                self.data.len() - self.pos
            ));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u8(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> R<u16> {
        Ok(u16::from_be_bytes(self.take(2)?.try_into().expect("two bytes")))
    }
    fn u32(&mut self) -> R<u32> {
        Ok(u32::from_be_bytes(self.take(4)?.try_into().expect("four bytes")))
    }
    fn u64(&mut self) -> R<u64> {
        Ok(u64::from_be_bytes(self.take(8)?.try_into().expect("eight bytes")))
    }

    /// A u32 element count, refused when the rest of the file cannot hold that many
    /// elements of at least `min_size` bytes (so a corrupt count cannot allocate).
    fn count(&mut self, min_size: usize) -> R<usize> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_size) > self.data.len() - self.pos {
            self.pos -= 4;
            return self
                .fail(format!("corrupt: an array of {n} elements does not fit in the rest of the file"));
        }
        Ok(n)
    }

    fn string32(&mut self) -> R<String> {
        let n = self.count(1)?;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }

    fn string16(&mut self) -> R<String> {
        let n = self.u16()? as usize;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }

    fn ints32(&mut self) -> R<Vec<i64>> {
        let n = self.count(4)?;
        (0..n).map(|_| Ok(self.u32()? as i32 as i64)).collect()
    }

    fn strings(&mut self) -> R<Vec<String>> {
        let n = self.count(4)?;
        (0..n).map(|_| self.string32()).collect()
    }

    fn time(&mut self, bias: u32) -> R<Time> {
        let sec = self.u16()? as i64 + bias as i64;
        Ok(Time { sec, nsec: self.u32()? })
    }
}

fn version_at_least(v: [u8; 3], want: [u8; 3]) -> bool {
    v >= want
}

/// Section offsets from the index at the end of the file.
#[derive(Default)]
struct Index {
    perf_labels: u64,
    header: u64,
    body: u64,
    footer: u64,
}

fn read_index(data: &[u8]) -> R<Index> {
    if data.len() < 8 + 64 {
        return Err(Failure {
            at: data.len() as u64,
            message: "truncated: too short for a DUMPI file".into(),
        });
    }
    let mut c = Cursor::at(data, 0)?;
    if c.u64()? != HEAD_MAGIC {
        return Err(Failure { at: 0, message: "not a DUMPI binary trace (bad magic)".into() });
    }
    // The index ends the file: a magic word, then (depending on the DUMPI version) up to
    // three label offsets (sizes, addresses, perf counters, in that order), then the
    // header, body, footer and key-value offsets. The four classic offsets are always the
    // last 32 bytes; the perf-label offset, when present, is the word just before them.
    let word_at = |from_end: usize| -> R<u64> { Cursor::at(data, (data.len() - from_end) as u64)?.u64() };
    let magic_at = [40, 48, 56, 64].into_iter().find(|&e| word_at(e).is_ok_and(|w| w == HEAD_MAGIC));
    let Some(magic_at) = magic_at else {
        return Err(Failure {
            at: (data.len() - 64) as u64,
            message: "truncated or corrupt: no DUMPI index at the end of the file".into(),
        });
    };
    let mut idx = Index::default();
    if magic_at > 40 {
        idx.perf_labels = word_at(40)?;
    }
    let tail = data.len() - 32;
    let mut c = Cursor::at(data, tail as u64)?;
    idx.header = c.u64()?;
    idx.body = c.u64()?;
    idx.footer = c.u64()?;
    let _keyval = c.u64()?;
    for (name, off) in [("header", idx.header), ("body", idx.body), ("footer", idx.footer)] {
        if off as usize >= data.len() || (off != 0 && off < 8) || (name == "body" && off == 0) {
            return Err(Failure {
                at: tail as u64,
                message: format!("corrupt index: {name} offset {off} is outside the file"),
            });
        }
    }
    Ok(idx)
}

/// Decodes one rank's binary trace held in `data`. `file` and `rank` only label errors.
pub fn parse(data: &[u8], file: &str, rank: Option<u32>) -> Result<BinaryTrace, TraceError> {
    decode(data).map_err(|f| TraceError {
        file: file.to_string(),
        rank,
        at: Some(Location::Byte(f.at)),
        message: f.message,
    })
}

fn decode(data: &[u8]) -> R<BinaryTrace> {
    let idx = read_index(data)?;
    let mut t = BinaryTrace::default();

    // An offset of zero means the writer did not store that section.
    if idx.header != 0 {
        let mut c = Cursor::at(data, idx.header)?;
        for v in &mut t.version {
            *v = c.u8()?;
        }
        t.start_time = c.u64()?;
        t.hostname = c.string16()?;
        t.username = c.string16()?;
    }

    if idx.footer != 0 {
        let mut c = Cursor::at(data, idx.footer)?;
        if c.u64()? != FOOT_MAGIC {
            return c.fail("corrupt: bad footer magic");
        }
        let n = ALL_FUNCTIONS as usize + 1;
        t.counts.called = (0..n).map(|_| c.u32()).collect::<R<_>>()?;
        t.counts.ignored = (0..n).map(|_| c.u32()).collect::<R<_>>()?;
    }

    // Refuse up front a call the reader cannot decode, naming it.
    for (label, (&called, &ignored)) in t.counts.called.iter().zip(&t.counts.ignored).enumerate() {
        let layout = calls::layout(label as u16);
        if called > ignored && layout.is_some_and(|l| l.fields.is_none()) && label != ALL_FUNCTIONS as usize {
            return Err(Failure {
                at: idx.footer,
                message: format!(
                    "the trace records {} {} call(s), which this reader cannot decode",
                    called - ignored,
                    layout.expect("checked").name
                ),
            });
        }
    }

    let perf_count =
        if idx.perf_labels > 0 { Some(Cursor::at(data, idx.perf_labels)?.u32()? as usize) } else { None };

    let mut c = Cursor::at(data, idx.body)?;
    // The footer says how many records to expect: reserving them avoids growing the list
    // by doubling (up to twice the memory). A corrupt footer reserves at most one record
    // per 16 bytes of body (real records take 20 to 60), about 7 times the body's size.
    let expected: u64 = t
        .counts
        .called
        .iter()
        .zip(&t.counts.ignored)
        .take(ALL_FUNCTIONS as usize)
        .map(|(&called, &ignored)| called.saturating_sub(ignored) as u64)
        .sum();
    t.records.reserve_exact(expected.min(((data.len() - c.pos) / 16) as u64) as usize);
    let cpu_bias = c.u32()?;
    let wall_bias = c.u32()?;
    loop {
        let at = c.pos;
        let label = c.u16()?;
        if label == END_OF_STREAM || label == ALL_FUNCTIONS {
            break;
        }
        let layout = match calls::layout(label) {
            Some(l) if label != ALL_FUNCTIONS => l,
            _ if label == FUNCTION_ENTER || label == FUNCTION_EXIT => calls::layout(label).expect("in table"),
            _ => {
                c.pos = at;
                return c.fail(format!("corrupt: unknown call label {label}"));
            }
        };
        let Some(fields) = layout.fields else {
            c.pos = at;
            return c.fail(format!("cannot decode a {} record", layout.name));
        };
        let mask = c.u8()?;
        let thread = if mask & MASK_THREAD != 0 { c.u16()? } else { 0 };
        let cpu = if mask & MASK_CPU != 0 {
            Some(Span { start: c.time(cpu_bias)?, stop: c.time(cpu_bias)? })
        } else {
            None
        };
        let wall = if mask & MASK_WALL != 0 {
            Some(Span { start: c.time(wall_bias)?, stop: c.time(wall_bias)? })
        } else {
            None
        };
        if mask & MASK_PERF != 0 {
            let stored = c.u8()? as usize;
            let pairs = perf_count.unwrap_or(stored);
            c.take(pairs.saturating_mul(16))?;
        }
        let args = decode_args(&mut c, fields, layout.root_check, mask, t.version).map_err(|f| Failure {
            at: f.at,
            message: format!("in a {} record starting at byte {at}: {}", layout.name, f.message),
        })?;
        t.records.push(Record { label, thread, cpu, wall, args });
    }
    Ok(t)
}

fn decode_args(
    c: &mut Cursor,
    fields: &str,
    root_check: Option<(usize, usize)>,
    mask: u8,
    version: [u8; 3],
) -> R<Vec<Arg>> {
    let mut args: Vec<Arg> = Vec::with_capacity(fields.len());
    let mut only_root = false;
    for f in fields.bytes() {
        if f == b'?' {
            only_root = true;
            continue;
        }
        if std::mem::take(&mut only_root) {
            let (me, root) = root_check.expect("layouts with '?' name their root check");
            let is_root =
                matches!((args.get(me), args.get(root)), (Some(Arg::Int(a)), Some(Arg::Int(b))) if a == b);
            if !is_root {
                args.push(Arg::NotStored);
                continue;
            }
        }
        let arg = match f {
            b'b' => Arg::Int(c.u8()? as i64),
            b'h' => Arg::Int(c.u16()? as i16 as i64),
            b'i' => Arg::Int(c.u32()? as i32 as i64),
            b'l' => Arg::Int(c.u64()? as i64),
            b'I' => Arg::Ints(c.ints32()?),
            b'H' => {
                let n = c.count(2)?;
                Arg::Ints((0..n).map(|_| Ok(c.u16()? as i16 as i64)).collect::<R<_>>()?)
            }
            b'B' => {
                let n = c.count(1)?;
                Arg::Ints(c.take(n)?.iter().map(|&b| b as i64).collect())
            }
            b'J' => {
                let n = c.count(4)?;
                Arg::Rows((0..n).map(|_| c.ints32()).collect::<R<_>>()?)
            }
            b's' => Arg::Str(c.string32()?),
            b'T' => Arg::Strs(c.strings()?),
            b'U' => {
                let n = c.count(4)?;
                Arg::StrRows((0..n).map(|_| c.strings()).collect::<R<_>>()?)
            }
            b'S' => Arg::Statuses(statuses(c, mask, version)?),
            b'n' => {
                let argc = c.count(4)?;
                if !version_at_least(version, [0, 6, 2]) {
                    c.u32()?;
                }
                args.push(Arg::Int(argc as i64));
                Arg::Strs((0..argc).map(|_| c.string32()).collect::<R<_>>()?)
            }
            b'x' | b'y' => {
                let since = if f == b'x' { [0, 6, 9] } else { [0, 6, 8] };
                if version_at_least(version, since) {
                    Arg::Ints(c.ints32()?)
                } else {
                    Arg::Int(c.u32()? as i32 as i64)
                }
            }
            other => unreachable!("layout letter {:?} is not in the table's alphabet", other as char),
        };
        args.push(arg);
    }
    Ok(args)
}

fn statuses(c: &mut Cursor, mask: u8, version: [u8; 3]) -> R<Option<Vec<Status>>> {
    if mask & MASK_STATUSES == 0 {
        return Ok(None);
    }
    let with_tag = version_at_least(version, [0, 6, 3]);
    let n = c.count(if with_tag { 14 } else { 10 })?;
    if n == 0 {
        return Ok(None);
    }
    (0..n)
        .map(|_| {
            Ok(Status {
                bytes: c.u32()? as i32,
                source: c.u32()? as i32,
                cancelled: c.u8()?,
                error: c.u8()?,
                tag: if with_tag { Some(c.u32()? as i32) } else { None },
            })
        })
        .collect::<R<Vec<_>>>()
        .map(Some)
}
