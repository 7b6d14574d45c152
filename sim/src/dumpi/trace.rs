//! Opening a DUMPI run: a folder with a `.meta` file and one `.bin` per rank, a folder of
//! `.bin` files (or, without any, of `dumpi2ascii` `.txt` files), or a single `.bin` or
//! `.txt`. Ranks are parsed in parallel.

use super::binary::{self, BinaryTrace};
use super::TraceError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every rank of a run, by rank number.
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// Key-value lines of the `.meta` file, if there was one.
    pub meta: BTreeMap<String, String>,
    pub ranks: Vec<(u32, BinaryTrace)>,
}

fn error(file: &Path, message: impl Into<String>) -> TraceError {
    TraceError { file: file.display().to_string(), rank: None, at: None, message: message.into() }
}

/// The rank encoded in a DUMPI file name (`PREFIX-0012.bin` is rank 12).
pub fn rank_from_name(path: &Path) -> Option<u32> {
    let stem = path.file_stem()?.to_str()?;
    let digits = stem.rsplit('-').next()?;
    if digits.len() >= 4 && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()
    } else {
        None
    }
}

fn parse_meta(path: &Path) -> Result<BTreeMap<String, String>, TraceError> {
    let text = std::fs::read_to_string(path).map_err(|e| error(path, format!("cannot read: {e}")))?;
    let mut meta = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (k, v) = line.split_once('=').ok_or_else(|| TraceError {
            at: Some(super::Location::Line(i + 1)),
            ..error(path, format!("not a key=value line: '{line}'"))
        })?;
        meta.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(meta)
}

/// The rank files of a run and its meta data.
/// A run's meta data and its rank files.
type Located = (BTreeMap<String, String>, Vec<(u32, PathBuf)>);

fn locate(path: &Path) -> Result<Located, TraceError> {
    if path.is_file() {
        if path.extension().is_some_and(|e| e == "meta") {
            let meta = parse_meta(path)?;
            let dir = path.parent().unwrap_or(Path::new("."));
            return from_meta(dir, path, meta);
        }
        return Ok((BTreeMap::new(), vec![(rank_from_name(path).unwrap_or(0), path.to_path_buf())]));
    }
    if !path.is_dir() {
        return Err(error(path, "no such file or folder"));
    }
    let entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| error(path, format!("cannot list: {e}")))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    let metas: Vec<&PathBuf> =
        entries.iter().filter(|p| p.extension().is_some_and(|e| e == "meta")).collect();
    match metas.as_slice() {
        [one] => {
            let meta = parse_meta(one)?;
            from_meta(path, one, meta)
        }
        [] => {
            let mut bins: Vec<PathBuf> =
                entries.into_iter().filter(|p| p.extension().is_some_and(|e| e == "bin")).collect();
            bins.sort();
            if bins.is_empty() {
                return Err(error(path, "no .meta or .bin files: not a DUMPI trace folder"));
            }
            let n = bins.len();
            Ok((
                BTreeMap::new(),
                bins.into_iter()
                    .enumerate()
                    .map(|(i, p)| {
                        (
                            if n == 1 {
                                rank_from_name(&p).unwrap_or(0)
                            } else {
                                rank_from_name(&p).unwrap_or(i as u32)
                            },
                            p,
                        )
                    })
                    .collect(),
            ))
        }
        _ => Err(error(path, "several .meta files: name one of them")),
    }
}

fn from_meta(dir: &Path, meta_path: &Path, meta: BTreeMap<String, String>) -> Result<Located, TraceError> {
    let prefix = meta.get("fileprefix").ok_or_else(|| error(meta_path, "no fileprefix= line"))?.clone();
    let n: u32 = meta
        .get("numprocs")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| error(meta_path, "no valid numprocs= line"))?;
    let files: Vec<(u32, PathBuf)> = (0..n).map(|r| (r, dir.join(format!("{prefix}-{r:04}.bin")))).collect();
    if let Some((r, missing)) = files.iter().find(|(_, p)| !p.is_file()) {
        return Err(TraceError {
            rank: Some(*r),
            ..error(missing, "missing: the .meta file lists this rank")
        });
    }
    Ok((meta, files))
}

/// A rank's trace from its `dumpi2ascii` text form.
fn from_text(data: &[u8], name: &str, rank: u32) -> Result<BinaryTrace, TraceError> {
    let text = std::str::from_utf8(data).map_err(|e| TraceError {
        file: name.to_string(),
        rank: Some(rank),
        at: Some(super::Location::Byte(e.valid_up_to() as u64)),
        message: "not UTF-8 text".into(),
    })?;
    let t = super::text::parse(text, name).map_err(|e| TraceError { rank: Some(rank), ..e })?;
    let mut version = [0u8; 3];
    if let Some(v) = t.header.get("version") {
        for (slot, part) in version.iter_mut().zip(v.split('.')) {
            *slot = part.trim().parse().unwrap_or(0);
        }
    }
    Ok(BinaryTrace {
        version,
        hostname: t.header.get("hostname").cloned().unwrap_or_default(),
        username: t.header.get("username").cloned().unwrap_or_default(),
        records: t.records.into_iter().map(|r| r.record).collect(),
        counts: t.counts.unwrap_or_default(),
        ..BinaryTrace::default()
    })
}

/// Reads a whole run, ranks in parallel on the available cores. `progress` is called with
/// (ranks done, ranks in all) as ranks finish.
pub fn read_run(path: &Path, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<Run, TraceError> {
    let (meta, files) = locate(path)?;
    let total = files.len();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(total.max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<Vec<(usize, BinaryTrace)>, TraceError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((rank, file)) = files.get(i) else { return Ok(mine) };
                        let data = std::fs::read(file).map_err(|e| TraceError {
                            rank: Some(*rank),
                            ..error(file, format!("cannot read: {e}"))
                        })?;
                        let name = file.display().to_string();
                        let trace = if file.extension().is_some_and(|e| e == "txt") {
                            from_text(&data, &name, *rank)?
                        } else {
                            binary::parse(&data, &name, Some(*rank))?
                        };
                        mine.push((i, trace));
                        progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, total);
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a trace worker panicked")).collect()
    });
    let mut traces: Vec<(usize, BinaryTrace)> = Vec::with_capacity(total);
    for r in results {
        traces.extend(r?);
    }
    traces.sort_by_key(|(i, _)| *i);
    Ok(Run { meta, ranks: traces.into_iter().map(|(i, t)| (files[i].0, t)).collect() })
}
