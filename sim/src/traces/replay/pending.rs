//! `pending-recv` statistics: the published trace analyzer's view of queue depth, for
//! comparison with the optimistic-matching paper.
//!
//! Each rank's pending `MPI_Irecv`s are indexed as the optimistic matcher would keep them:
//! no wildcard by hash(source, tag, communicator), `ANY_SOURCE` by hash(tag, communicator),
//! `ANY_TAG` by hash(source, communicator), each in its own table of `bins` bins, and
//! both wildcards in one list. A receive leaves when a Wait or Test call completes it (or
//! it is cancelled). A bin's depth is its length minus one (entries a match might have to
//! pass). Like the analyzer, a data point is taken at each completing call, before the
//! completion: the deepest bin of any table. `max_depth` and `mean_depth` are over data
//! points; `empty_share` is the mean share of empty bins in the no-wildcard table.
//! Blocking receives never wait in a queue here, as in the analyzer; `blocking` counts
//! them so a report can say what the definition leaves out.
//!
//! Two bin hashes: [`BinHash::Own`], the hash the software matchers use (over global
//! communicator ids), and [`BinHash::Analyzer`], the analyzer's Pearson hash over the
//! trace's own handles ([`super::analyzer_hash`]), which reproduces its figures.

use super::analyzer_hash::analyzer_bin;
use super::events::{Event, Timed};
use crate::model::matcher::{mix3, reduce};
use std::collections::HashMap;

/// Depth statistics of one rank (or of several, merged).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DepthStats {
    pub max_depth: u64,
    pub depth_sum: f64,
    pub empty_share_sum: f64,
    /// Data points taken.
    pub points: u64,
    /// Blocking receives, which this definition does not count.
    pub blocking: u64,
}

/// Which hash puts a receive in a bin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinHash {
    Own,
    Analyzer,
}

impl DepthStats {
    pub fn mean_depth(&self) -> f64 {
        if self.points == 0 {
            0.0
        } else {
            self.depth_sum / self.points as f64
        }
    }

    pub fn empty_share(&self) -> f64 {
        if self.points == 0 {
            1.0
        } else {
            self.empty_share_sum / self.points as f64
        }
    }

    pub fn merge(&mut self, other: &DepthStats) {
        self.max_depth = self.max_depth.max(other.max_depth);
        self.depth_sum += other.depth_sum;
        self.empty_share_sum += other.empty_share_sum;
        self.points += other.points;
        self.blocking += other.blocking;
    }
}

/// Index of a pending receive: (table, bin); table 3 is the both-wildcards list.
type Slot = (usize, usize);

/// Runs the pending-receive model over one rank's events with `bins` bins per table.
pub fn pending_recv(events: &[Timed], bins: usize, hash: BinHash) -> DepthStats {
    let bins = bins.max(1);
    let mut counts: [Vec<u32>; 4] = [vec![0; bins], vec![0; bins], vec![0; bins], vec![0; 1]];
    let mut pending: HashMap<i64, Slot> = HashMap::new();
    let mut stats = DepthStats::default();
    let remove = |pending: &mut HashMap<i64, Slot>, counts: &mut [Vec<u32>; 4], request: i64| {
        if let Some((t, b)) = pending.remove(&request) {
            counts[t][b] -= 1;
        }
    };
    for e in events {
        match &e.event {
            Event::Post { request: None, .. } => stats.blocking += 1,
            Event::Post { request: Some(request), comm, handle, src, tag } => {
                remove(&mut pending, &mut counts, *request); // a reused handle replaces a stale entry
                                                             // The analyzer reads a negative source or tag (PROC_NULL too) as a wildcard.
                let src = src.and_then(|s| u32::try_from(s).ok());
                let tag = tag.and_then(|t| u32::try_from(t).ok());
                let table = match (src, tag) {
                    (Some(_), Some(_)) => 0,
                    (None, Some(_)) => 1,
                    (Some(_), None) => 2,
                    (None, None) => 3,
                };
                let bin = match hash {
                    _ if table == 3 => 0,
                    BinHash::Own => {
                        reduce(mix3(*comm, src.unwrap_or(u32::MAX), tag.unwrap_or(u32::MAX)), bins) as usize
                    }
                    BinHash::Analyzer => analyzer_bin(src, tag, u32::try_from(*handle).unwrap_or(0), bins),
                };
                let slot = (table, bin);
                counts[slot.0][slot.1] += 1;
                pending.insert(*request, slot);
            }
            Event::Complete { requests } => {
                let depth = counts.iter().flatten().map(|&c| c.saturating_sub(1) as u64).max().unwrap_or(0);
                let empty = counts[0].iter().filter(|&&c| c == 0).count();
                stats.max_depth = stats.max_depth.max(depth);
                stats.depth_sum += depth as f64;
                stats.empty_share_sum += empty as f64 / bins as f64;
                stats.points += 1;
                for r in requests {
                    remove(&mut pending, &mut counts, *r);
                }
            }
            Event::Cancel { request } => remove(&mut pending, &mut counts, *request),
            _ => {}
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(request: i64, src: i64, tag: i64) -> Timed {
        Timed {
            time: 0.0,
            end: 0.0,
            event: Event::Post { request: Some(request), comm: 0, handle: 2, src: Some(src), tag: Some(tag) },
            call: "MPI_Irecv",
            record: 0,
        }
    }

    fn complete(requests: Vec<i64>) -> Timed {
        Timed { time: 0.0, end: 0.0, event: Event::Complete { requests }, call: "MPI_Waitall", record: 0 }
    }

    #[test]
    fn one_bin_depth_is_pending_count_minus_one() {
        let mut ev: Vec<Timed> = (0..5).map(|r| post(r, r, 0)).collect();
        ev.push(complete(vec![0, 1, 2, 3, 4]));
        ev.push(post(7, 1, 1));
        ev.push(complete(vec![7]));
        let s = pending_recv(&ev, 1, BinHash::Own);
        assert_eq!(s.max_depth, 4);
        assert_eq!(s.points, 2);
        assert_eq!(s.mean_depth(), 2.0);
        assert_eq!(s.empty_share(), 0.0);
        // With many bins, five distinct envelopes rarely share one.
        assert!(pending_recv(&ev, 256, BinHash::Own).max_depth <= 1);
        assert!(pending_recv(&ev, 256, BinHash::Analyzer).max_depth <= 1);
    }
}
