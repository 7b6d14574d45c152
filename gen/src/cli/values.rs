//! Values several commands take: the limits on sizes ([`MAX_BINS`], [`MAX_DEPTH`],
//! [`MAX_K`], [`MAX_OPS`], [`MAX_REQUESTS`], [`MAX_POINTS`]) and the parsers of `--bins`
//! and `--matchers`.

use crate::output::progress::thousands;
use tagmatch_sim::software::hash_bins::Bins;
use tagmatch_sim::MatcherKind;

/// Limits on sizes given on the command line, the same for every command that takes them,
/// so a typo cannot ask for gigabytes: each one is refused with a one-line error naming it.
///
/// Hash bins (`trace stats --bins`, `trace replay --bins`, `bench --bins`): the deepest
/// queues in the shared traces are a few thousand entries, so more bins than 65,536 only
/// cost memory (one list head per bin, per communicator).
pub const MAX_BINS: usize = 65_536;
/// Queue depth of a benchmark (`bench preposted|unload --depths`): every entry is held at
/// once (a receive or message in each matcher, or in the engine's lists), about a hundred
/// bytes each; 2^20 entries is far past any engine's capacity and keeps a run in memory.
pub const MAX_DEPTH: u32 = 1 << 20;
/// Messages per sequence of `bench rate --k`: a sequence's receives and messages are
/// built up front; 65,536 is far past the thread array's 128 receive descriptors.
pub const MAX_K: u32 = 65_536;
/// Random operations of one co-simulation (`cosim --ops N`): the stream and every model's
/// answers are held for the comparison (about a hundred bytes an operation), and ten
/// million operations take the RTL an hour or more; longer checks run several seeds.
pub const MAX_OPS: usize = 10_000_000;
/// Requests of one one-sided run (`bench onesided --requests`): every request's steps are
/// built up front (tens of bytes each); a million is far past any window's 65,535
/// outstanding requests.
pub const MAX_REQUESTS: u32 = 1 << 20;
/// Points of one benchmark sweep, the product of the lists it crosses (`bench
/// preposted|unload`: depths × designs or matchers; `throughput`: lists × traffic; `rate`:
/// scenarios × thread counts; `onesided`: requests × bytes × compute). Each list is only as
/// long as the command line, but their product is not: every point's record is held until
/// the table is printed (`onesided` reserves them all before the first point runs), and a
/// point took about 4 KB at the peak (its record, the copy the table shows, its row or its
/// JSON), so 2^18 points peak near a gigabyte, and are far more than anyone reads in a
/// table or sees in a plot.
pub const MAX_POINTS: u64 = 1 << 18;
/// Cycles a delay, latency or compute phase may last (`bench onesided --compute --latency`,
/// `cosim --delay`): 2^40 cycles is over a quarter of an hour at 1 GHz, and keeps every sum
/// of them far from wrapping 64 bits, where a larger value gave wrong figures instead of
/// an error.
pub const MAX_CYCLES: u64 = 1 << 40;

/// The points of a sweep crossing `factors` (each an option's name and how many values it
/// gave), or a one-line error naming them when there are more than [`MAX_POINTS`].
pub fn check_points(factors: &[(&str, usize)]) -> Result<(), String> {
    let points = factors.iter().fold(1u64, |p, &(_, n)| p.saturating_mul(n as u64));
    if points <= MAX_POINTS {
        return Ok(());
    }
    let names: Vec<&str> = factors.iter().map(|&(name, _)| name).collect();
    let counts: Vec<String> = factors.iter().map(|&(_, n)| thousands(n as u64)).collect();
    Err(format!(
        "{}: {} = {} points is above the limit of {} points in a sweep",
        names.join(" × "),
        counts.join(" × "),
        thousands(points),
        thousands(MAX_POINTS)
    ))
}

/// `--bins`: a count from 1 to [`MAX_BINS`], or "auto".
pub fn parse_bins(s: &str) -> Result<Bins, String> {
    let bins = s.parse::<Bins>()?;
    match bins {
        Bins::Fixed(n) if n > MAX_BINS => {
            Err(format!("--bins {n} is above the limit of {} bins", thousands(MAX_BINS as u64)))
        }
        _ => Ok(bins),
    }
}

pub fn parse_matchers(names: &[String]) -> Result<Vec<MatcherKind>, String> {
    if names.iter().any(|n| n == "all") {
        return Ok(MatcherKind::ALL.to_vec());
    }
    names.iter().map(|n| n.parse()).collect()
}
