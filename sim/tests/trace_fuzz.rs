//! Mutated DUMPI runs through the whole pipeline the CLI runs (locate and read the run,
//! extract events, rebuild matching streams, pending-receive statistics, a rank-based
//! matcher over every stream): binary rank files, `dumpi2ascii` text files and `.meta`
//! files, from the shared traces in `../shared/traces` (override with `TAGMATCH_TRACES`).
//!
//! Every case must end in `Ok` or a clean error, never a panic, and its peak heap use
//! (counted by this test binary's global allocator) must stay under
//! [`BOUND_FACTOR`] times the bytes of the files read plus [`BOUND_CONSTANT`]. A single
//! allocation above [`REFUSED`] is refused outright, which aborts the test with "memory
//! allocation of N bytes failed": a count from the input was trusted.
//!
//! The generator is seeded (`TAGMATCH_FUZZ_SEED`, default below) so a failure repeats;
//! `TAGMATCH_FUZZ_CASES` scales the number of cases (percent; 200, about 4,300 cases, by
//! default), `TAGMATCH_FUZZ_VERBOSE` prints each.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tagmatch_sim::software::rank_based::RankBasedMatcher;
use tagmatch_sim::traces::dumpi::trace::{read_run, Run};
use tagmatch_sim::traces::dumpi::MAX_RANKS;
use tagmatch_sim::traces::replay::{self, pending::pending_recv, pending::BinHash};
use tagmatch_sim::Matcher;

const BOUND_FACTOR: usize = 64;
const BOUND_CONSTANT: usize = 64 << 20;
const REFUSED: usize = 1 << 30;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = CURRENT.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > REFUSED {
            return std::ptr::null_mut();
        }
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > REFUSED {
            return std::ptr::null_mut();
        }
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > REFUSED {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The counters are global: each test holds this for its whole run, so the tests in this
/// binary measure one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

mod common;
use common::read;

/// SplitMix64: small, seeded, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A number a corrupt count or rank might hold: small, near a power of two, near the
    /// limits of i32/u32, or anything.
    fn nasty(&mut self) -> i64 {
        match self.below(8) {
            0 => self.below(64) as i64,
            1 => (1i64 << self.below(33)) - self.below(3) as i64,
            2 => i32::MAX as i64 - self.below(2) as i64,
            3 => u32::MAX as i64 - self.below(300_000_000) as i64,
            4 => -(self.below(5) as i64),
            5 => 2_000_000_000,
            6 => self.below(1 << 24) as i64,
            _ => self.next() as u32 as i64,
        }
    }
}

/// Overwrites, inserts or deletes bytes, writes 4-byte big-endian numbers, truncates.
fn mutate_binary(rng: &mut Rng, data: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(6) {
        if data.is_empty() {
            break;
        }
        let at = rng.below(data.len());
        match rng.below(5) {
            0 | 1 => data[at] = rng.next() as u8,
            2 => {
                let v = (rng.nasty() as u32).to_be_bytes();
                for (k, b) in v.into_iter().enumerate() {
                    if let Some(slot) = data.get_mut(at + k) {
                        *slot = b;
                    }
                }
            }
            3 => data[at] ^= 1 << rng.below(8),
            _ => {
                let n = rng.below(8).min(data.len() - at);
                data.drain(at..at + n);
            }
        }
    }
    if rng.below(8) == 0 {
        let cut = rng.below(data.len() + 1);
        data.truncate(cut);
    }
}

/// Replaces numbers with nasty ones, flips characters, deletes, repeats or cuts lines.
fn mutate_text(rng: &mut Rng, data: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        if data.is_empty() {
            break;
        }
        let at = rng.below(data.len());
        match rng.below(6) {
            0..=2 => {
                // The number around `at` (or the next one) becomes a nasty one.
                let Some(start) = (at..data.len()).find(|&i| data[i].is_ascii_digit()) else { continue };
                let end = (start..data.len()).find(|&i| !data[i].is_ascii_digit()).unwrap_or(data.len());
                let v = rng.nasty().to_string().into_bytes();
                data.splice(start..end, v);
            }
            3 => {
                const CHARS: &[u8] = b" 0123456789-=[]{},\n.xMPI_";
                data[at] = CHARS[rng.below(CHARS.len())];
            }
            4 => {
                let start = data[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                let end = (at..data.len()).find(|&i| data[i] == b'\n').map_or(data.len(), |i| i + 1);
                if rng.below(2) == 0 {
                    data.drain(start..end);
                } else {
                    let line = data[start..end].to_vec();
                    data.splice(end..end, line);
                }
            }
            _ => data.truncate(at),
        }
    }
}

/// A `.meta` file: numbers replaced, lines dropped or altered, or the text mutated.
fn mutate_meta(rng: &mut Rng, data: &mut Vec<u8>) {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match rng.below(4) {
        0 | 1 => {
            let n = rng.nasty();
            for l in &mut lines {
                if l.starts_with("numprocs=") {
                    *l = format!("numprocs={n}");
                }
            }
        }
        2 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            if rng.below(2) == 0 {
                lines.remove(i);
            } else {
                lines[i] = lines[i].replace('=', "").replace("dumpi", "other").replace("testtrace", "x");
            }
        }
        _ => {
            *data = lines.join("\n").into_bytes();
            mutate_text(rng, data);
            return;
        }
    }
    *data = lines.join("\n").into_bytes();
}

struct Outcome {
    ok: bool,
    peak: usize,
    /// The largest world size the run could make the replay assume.
    world: u32,
}

/// The largest world size the replay could derive from `run` (see `replay::world_size`):
/// the traced ranks, the `.meta` file's `numprocs`, recorded `MPI_Comm_size` results and
/// peer ranks, each at most `MAX_RANKS`.
fn claimed_world(run: &Run) -> u32 {
    let ok = |v: i64| u32::try_from(v).ok().filter(|&v| v <= MAX_RANKS).unwrap_or(0);
    let meta = run.meta.get("numprocs").and_then(|v| v.parse().ok()).map_or(0, ok);
    let traced = run.ranks.iter().map(|(r, _)| r + 1).max().unwrap_or(0);
    let records = run.ranks.iter().flat_map(|(_, t)| &t.records);
    let calls = records
        .filter_map(|r| match r.name() {
            "MPI_Comm_size" => r.int(1),
            n if n.contains("send") || n.contains("recv") || n.contains("Send") || n.contains("Recv") => {
                r.int(2).map(|p| p.saturating_add(1))
            }
            _ => None,
        })
        .map(ok)
        .max()
        .unwrap_or(0);
    meta.max(traced).max(calls)
}

/// What the CLI does with a run, as far as memory goes.
fn pipeline(path: &Path, world: &mut u32) -> Result<(), String> {
    let run = read_run(path, &|_, _| {}).map_err(|e| e.to_string())?;
    *world = claimed_world(&run);
    let events = replay::run_events(&run)?;
    for (_, ev) in &events.ranks {
        let _ = pending_recv(ev, 16, BinHash::Own);
        let _ = pending_recv(ev, 16, BinHash::Analyzer);
    }
    let (streams, _) = replay::streams(&events, 1e-6)?;
    for s in &streams {
        let mut m = RankBasedMatcher::new();
        for op in &s.ops {
            m.apply(op);
        }
    }
    assert!(events.world_size <= *world, "world size {} above what the run claims", events.world_size);
    Ok(())
}

fn measured(path: &Path) -> Outcome {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut world = 0;
    let r = pipeline(path, &mut world);
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    if let Err(e) = &r {
        assert!(!e.contains('\n'), "a multi-line error: {e}");
    }
    Outcome { ok: r.is_ok(), peak, world }
}

struct Tally {
    cases: usize,
    ok: usize,
    /// The highest peak over input ratio among inputs of 64 KiB or more (below that the
    /// constant dominates), and its case.
    worst_ratio: f64,
    worst_case: String,
    max_peak: usize,
    max_world: u32,
}

impl Tally {
    fn check(&mut self, case: &str, input: usize, o: Outcome) {
        let bound = BOUND_FACTOR * input + BOUND_CONSTANT;
        assert!(
            o.peak <= bound,
            "{case}: peak heap {} bytes, above {BOUND_FACTOR} x {input} input bytes + {BOUND_CONSTANT} \
             (the run claims a world of {} ranks)",
            o.peak,
            o.world
        );
        self.cases += 1;
        self.ok += o.ok as usize;
        self.max_world = self.max_world.max(o.world);
        self.max_peak = self.max_peak.max(o.peak);
        let ratio = o.peak as f64 / input.max(1) as f64;
        if input >= 64 << 10 && ratio > self.worst_ratio {
            self.worst_ratio = ratio;
            self.worst_case = case.to_string();
        }
        if std::env::var_os("TAGMATCH_FUZZ_VERBOSE").is_some() {
            eprintln!("{case}: ok {} peak {} input {input} world {}", o.ok, o.peak, o.world);
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tagmatch-fuzz-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn mutated_runs_stay_within_memory_bound() {
    let _serial = serial();
    let seed = env_usize("TAGMATCH_FUZZ_SEED", 0x5eed_1701) as u64;
    let scale = env_usize("TAGMATCH_FUZZ_CASES", 200);
    let mut rng = Rng(seed);
    let started = Instant::now();
    let mut tally =
        Tally { cases: 0, ok: 0, worst_ratio: 0.0, worst_case: String::new(), max_peak: 0, max_world: 0 };

    // (file, cases per 100 of scale): single rank files, binary then text.
    let singles: [(&str, usize); 7] = [
        ("sst-testtrace/testtrace-0001.bin", 400),
        ("bigfft/BigFFT.bin", 300),
        ("amg-n27/dumpi-2014.03.03.14.55.00-0006.bin", 200),
        ("multigrid/MultiGrid.bin", 150),
        ("sst-testtrace/testtrace-0000.txt", 500),
        ("amg-n27/dumpi-2014.03.03.14.55.00-0000.txt", 60),
        ("multigrid/MultiGrid.txt", 30),
    ];
    let dir = scratch("single");
    for (rel, per100) in singles {
        let original = read(rel);
        let name = Path::new(rel).file_name().unwrap();
        let text = rel.ends_with(".txt");
        for k in 0..per100 * scale / 100 {
            let mut data = original.clone();
            if text {
                mutate_text(&mut rng, &mut data);
            } else {
                mutate_binary(&mut rng, &mut data);
            }
            let path = dir.join(name);
            std::fs::write(&path, &data).unwrap();
            let input = data.len();
            drop(data);
            let o = measured(&path);
            tally.check(&format!("{rel} case {k} (seed {seed:#x})"), input, o);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);

    // Whole runs with a mutated .meta (and sometimes a mutated rank file).
    for (folder, prefix, ranks, per100) in
        [("sst-testtrace", "testtrace", 4, 500), ("amg-n27", "dumpi-2014.03.03.14.55.00", 27, 20)]
    {
        let dir = scratch(folder);
        let mut files: Vec<(String, Vec<u8>)> = (0..ranks)
            .map(|r| {
                let name = format!("{prefix}-{r:04}.bin");
                let data = read(&format!("{folder}/{name}"));
                (name, data)
            })
            .collect();
        let meta_name = format!("{prefix}.meta");
        let meta = read(&format!("{folder}/{meta_name}"));
        for (name, data) in &files {
            std::fs::write(dir.join(name), data).unwrap();
        }
        for k in 0..per100 * scale / 100 {
            let mut m = meta.clone();
            mutate_meta(&mut rng, &mut m);
            std::fs::write(dir.join(&meta_name), &m).unwrap();
            let victim = (rng.below(4) == 0).then(|| rng.below(files.len()));
            if let Some(v) = victim {
                let mut data = files[v].1.clone();
                mutate_binary(&mut rng, &mut data);
                std::fs::write(dir.join(&files[v].0), &data).unwrap();
                std::mem::swap(&mut files[v].1, &mut data);
                let input = m.len() + files.iter().map(|(_, d)| d.len()).sum::<usize>();
                std::mem::swap(&mut files[v].1, &mut data);
                let path = if rng.below(2) == 0 { dir.clone() } else { dir.join(&meta_name) };
                tally.check(&format!("{folder} meta case {k} (seed {seed:#x})"), input, measured(&path));
                std::fs::write(dir.join(&files[v].0), &files[v].1).unwrap();
            } else {
                let input = m.len() + files.iter().map(|(_, d)| d.len()).sum::<usize>();
                let path = if rng.below(2) == 0 { dir.clone() } else { dir.join(&meta_name) };
                tally.check(&format!("{folder} meta case {k} (seed {seed:#x})"), input, measured(&path));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    eprintln!(
        "{} mutated runs in {:.1} s: {} read and replayed, the rest refused cleanly; \
         highest peak heap {:.1} MiB; worst peak over input of 64 KiB or more {:.1} x ({}); \
         largest world claimed {}",
        tally.cases,
        started.elapsed().as_secs_f64(),
        tally.ok,
        tally.max_peak as f64 / (1 << 20) as f64,
        tally.worst_ratio,
        tally.worst_case,
        tally.max_world
    );
    if scale >= 200 {
        assert!(tally.cases >= 4000, "only {} cases", tally.cases);
        assert!(
            tally.ok > 0 && tally.ok < tally.cases,
            "every case ended the same way: the mutations do nothing"
        );
    }
}

/// A claimed world costs nothing per rank: the text form of sst-testtrace rank 0 claiming
/// a world of `MAX_RANKS` ranks replays (its peers are all inside that world) within the
/// input-size bound, since communicators keep tables only for the ranks that use them.
#[test]
fn a_claimed_world_costs_no_per_rank_tables() {
    let _serial = serial();
    let text = String::from_utf8(read("sst-testtrace/testtrace-0000.txt")).unwrap();
    let dir = scratch("world");
    let path = dir.join("testtrace-0000.txt");
    let edited = text.replacen("int size=4\n", &format!("int size={MAX_RANKS}\n"), 1);
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    let o = measured(&path);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(o.ok);
    assert_eq!(o.world, MAX_RANKS);
    let per_rank = o.peak as f64 / MAX_RANKS as f64;
    eprintln!("a claimed world of {MAX_RANKS} ranks: peak heap {} bytes, {per_rank:.0} per rank", o.peak);
    assert!(o.peak <= BOUND_FACTOR * edited.len() + BOUND_CONSTANT, "{} bytes", o.peak);
}
