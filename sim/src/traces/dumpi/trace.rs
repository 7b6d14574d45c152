//! Opening a DUMPI run. Ranks are parsed in parallel.
//!
//! PATH may be:
//!
//! - a `.meta` file, or a folder holding exactly one: the meta data's `fileprefix` and
//!   `numprocs` name the rank files. Rank `r` is `{prefix}-NNNN.bin` (NNNN is `r` with at
//!   least four digits) or, when there is no such binary file, its `dumpi2ascii` text form
//!   `{prefix}-NNNN.txt`; a rank with neither is an error. Other files in the folder are
//!   ignored, so a folder of `.bin` files plus the text form of one rank reads as the binary
//!   run. A folder with several `.meta` files is refused: name one.
//! - a folder without a `.meta`: its `.bin` and `.txt` files are grouped by prefix, the
//!   part of the name before `-NNNN` (the whole stem for a name without a rank number, which
//!   is then rank 0). The folder must hold one prefix: several are refused with the
//!   prefixes named, since they are different runs. Within the prefix each rank is its
//!   `.bin` file, or its `.txt` file when it has no `.bin`; two files giving the same rank
//!   number (`a-0001.bin`, `a-00001.bin`) are refused.
//! - one rank's file: `.txt` is read as text, anything else as binary; the rank is the
//!   number in its name, or 0.
//!
//! Limits: a rank number (in a file name) or `numprocs` must be below [`MAX_RANKS`]. The
//! `.meta` file's `numprocs` costs nothing by itself: each rank file it names must exist
//! before the next is looked for, so a corrupt count is reported as the first missing file.
//! Only regular files are read (symbolic links are followed): a FIFO, device or socket is
//! refused by type, never opened, so reading cannot block or run forever on `/dev/zero`.

use super::binary::{self, BinaryTrace};
use super::{TraceError, MAX_RANKS};
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
    split_name(path)?.1
}

/// A file name's prefix (the stem before `-NNNN`) and rank number, if it has one.
fn split_name(path: &Path) -> Option<(&str, Option<u32>)> {
    let stem = path.file_stem()?.to_str()?;
    if let Some((prefix, digits)) = stem.rsplit_once('-') {
        if digits.len() >= 4 && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Some((prefix, digits.parse().ok()));
        }
    }
    Some((stem, None))
}

/// What kind of file system object `path` is, when it is not a regular file or folder.
#[cfg(unix)]
fn special_kind(ft: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        Some("a FIFO")
    } else if ft.is_char_device() {
        Some("a character device")
    } else if ft.is_block_device() {
        Some("a block device")
    } else if ft.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

#[cfg(not(unix))]
fn special_kind(_: std::fs::FileType) -> Option<&'static str> {
    None
}

/// Whether `path` is a folder (`Ok(true)`) or a regular file (`Ok(false)`); anything else
/// (missing, FIFO, device, socket) is an error naming what it is.
fn kind(path: &Path) -> Result<bool, TraceError> {
    let md = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => error(path, "no such file or folder"),
        _ => error(path, format!("cannot read: {e}")),
    })?;
    let ft = md.file_type();
    if ft.is_dir() {
        Ok(true)
    } else if ft.is_file() {
        Ok(false)
    } else {
        let what = special_kind(ft).unwrap_or("not a regular file");
        Err(error(path, format!("is {what}, not a trace file")))
    }
}

/// `path` if it is a regular file, `None` if nothing is there, an error for a FIFO,
/// device or socket.
fn regular_file(path: &Path) -> Result<Option<&Path>, TraceError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(error(path, format!("cannot read: {e}"))),
        Ok(_) => kind(path).map(|dir| if dir { None } else { Some(path) }),
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
            ..error(path, format!("not a key=value line: '{}'", shorten(line)))
        })?;
        meta.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(meta)
}

/// At most 80 characters of `s`, for quoting a bad line in a one-line error.
fn shorten(s: &str) -> String {
    match s.char_indices().nth(80) {
        Some((cut, _)) => format!("{}...", &s[..cut]),
        None => s.to_string(),
    }
}

/// A run's meta data and its rank files.
type Located = (BTreeMap<String, String>, Vec<(u32, PathBuf)>);

fn locate(path: &Path) -> Result<Located, TraceError> {
    if !kind(path)? {
        if path.extension().is_some_and(|e| e == "meta") {
            let meta = parse_meta(path)?;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            return from_meta(dir, path, meta);
        }
        let rank = rank_from_name(path).unwrap_or(0);
        if rank >= MAX_RANKS {
            return Err(error(path, format!("rank {rank} is above the limit of {MAX_RANKS} ranks")));
        }
        return Ok((BTreeMap::new(), vec![(rank, path.to_path_buf())]));
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| error(path, format!("cannot list: {e}")))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "meta" || e == "bin" || e == "txt"))
        .collect();
    entries.sort();
    let metas: Vec<&PathBuf> =
        entries.iter().filter(|p| p.extension().is_some_and(|e| e == "meta")).collect();
    match metas.as_slice() {
        [] => from_folder(path, &entries),
        [one] => {
            if kind(one)? {
                return Err(error(one, "is a folder, not a .meta file"));
            }
            let meta = parse_meta(one)?;
            from_meta(path, one, meta)
        }
        several => Err(error(
            path,
            format!(
                "{} .meta files ({}): name one of them",
                several.len(),
                file_names(several.iter().copied())
            ),
        )),
    }
}

/// Names of up to four files, for an error message.
fn file_names<'a>(paths: impl Iterator<Item = &'a PathBuf>) -> String {
    let names: Vec<String> = paths
        .map(|p| p.file_name().map_or(p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect();
    if names.len() > 4 {
        format!("{}, ... ({} in all)", names[..4].join(", "), names.len())
    } else {
        names.join(", ")
    }
}

/// A folder without a `.meta`: one prefix's rank files, `.bin` preferred over `.txt`.
fn from_folder(dir: &Path, entries: &[PathBuf]) -> Result<Located, TraceError> {
    // prefix -> rank -> (binary file, text file)
    type Forms = (Option<PathBuf>, Option<PathBuf>);
    let mut runs: BTreeMap<&str, BTreeMap<u32, Forms>> = BTreeMap::new();
    for p in entries {
        // `entries` holds only .meta, .bin and .txt files.
        let binary = p.extension().is_some_and(|e| e == "bin");
        if p.extension().is_some_and(|e| e == "meta") {
            continue;
        }
        let Some((prefix, rank)) = split_name(p) else {
            return Err(error(p, "the file name is not UTF-8: name the file or its .meta"));
        };
        let rank = rank.unwrap_or(0);
        if rank >= MAX_RANKS {
            return Err(error(p, format!("rank {rank} is above the limit of {MAX_RANKS} ranks")));
        }
        let slot = runs.entry(prefix).or_default().entry(rank).or_default();
        let form = if binary { &mut slot.0 } else { &mut slot.1 };
        if let Some(first) = form {
            return Err(error(
                dir,
                format!("two files for rank {rank}: {}", file_names([&*first, p].into_iter())),
            ));
        }
        *form = Some(p.clone());
    }
    let mut runs = runs.into_iter();
    let Some((prefix, ranks)) = runs.next() else {
        return Err(error(dir, "no .meta, .bin or .txt files: not a DUMPI trace folder"));
    };
    if runs.len() > 0 {
        let mut prefixes = vec![prefix];
        prefixes.extend(runs.map(|(p, _)| p));
        let shown: Vec<String> = prefixes.iter().take(4).map(|p| format!("'{p}'")).collect();
        let more =
            if prefixes.len() > 4 { format!(", ... ({} in all)", prefixes.len()) } else { String::new() };
        return Err(error(
            dir,
            format!(
                "files of {} runs (prefixes {}{more}): name the run's .meta file or one rank's file",
                prefixes.len(),
                shown.join(", ")
            ),
        ));
    }
    let mut files = Vec::with_capacity(ranks.len());
    for (rank, (bin, txt)) in ranks {
        let file = bin.or(txt).expect("a rank has a file of one form");
        if kind(&file)? {
            return Err(TraceError { rank: Some(rank), ..error(&file, "is a folder, not a trace file") });
        }
        files.push((rank, file));
    }
    Ok((BTreeMap::new(), files))
}

fn from_meta(dir: &Path, meta_path: &Path, meta: BTreeMap<String, String>) -> Result<Located, TraceError> {
    let prefix = meta.get("fileprefix").ok_or_else(|| error(meta_path, "no fileprefix= line"))?.clone();
    let n: u32 = meta
        .get("numprocs")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| error(meta_path, "no valid numprocs= line"))?;
    if n == 0 {
        return Err(error(meta_path, "numprocs=0: the run has no ranks"));
    }
    if n > MAX_RANKS {
        return Err(error(meta_path, format!("numprocs={n} is above the limit of {MAX_RANKS} ranks")));
    }
    // Each file must exist before the next is named, so the list is no longer than the
    // folder's listing whatever `numprocs` says.
    let mut files = Vec::new();
    for r in 0..n {
        let bin = dir.join(format!("{prefix}-{r:04}.bin"));
        let txt = bin.with_extension("txt");
        let file = match regular_file(&bin)? {
            Some(f) => f.to_path_buf(),
            None => match regular_file(&txt)? {
                Some(f) => f.to_path_buf(),
                None => {
                    return Err(TraceError {
                        rank: Some(r),
                        ..error(
                            &bin,
                            format!("missing (and no .txt form): {} lists {n} ranks", meta_path.display()),
                        )
                    })
                }
            },
        };
        files.push((r, file));
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
