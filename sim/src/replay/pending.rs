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
//! Blocking receives never wait in a queue here, as in the analyzer. The bin hash is our
//! own, so only the one-bin figures are directly comparable with the analyzer's.

use super::events::{Event, Timed};
use crate::matcher::{mix3, reduce};
use std::collections::HashMap;

/// Depth statistics of one rank (or of several, merged).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DepthStats {
    pub max_depth: u64,
    pub depth_sum: f64,
    pub empty_share_sum: f64,
    /// Data points taken.
    pub points: u64,
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
    }
}

/// Index of a pending receive: (table, bin); table 3 is the both-wildcards list.
type Slot = (usize, usize);

/// Runs the pending-receive model over one rank's events with `bins` bins per table.
pub fn pending_recv(events: &[Timed], bins: usize) -> DepthStats {
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
            Event::Post { request: Some(request), comm, src, tag } => {
                remove(&mut pending, &mut counts, *request); // a reused handle replaces a stale entry
                let slot = match (src, tag) {
                    (Some(s), Some(t)) => (0, reduce(mix3(*comm, *s as u32, *t as u32), bins) as usize),
                    (None, Some(t)) => (1, reduce(mix3(*comm, u32::MAX, *t as u32), bins) as usize),
                    (Some(s), None) => (2, reduce(mix3(*comm, *s as u32, u32::MAX), bins) as usize),
                    (None, None) => (3, 0),
                };
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
            event: Event::Post { request: Some(request), comm: 0, src: Some(src), tag: Some(tag) },
        }
    }

    fn complete(requests: Vec<i64>) -> Timed {
        Timed { time: 0.0, end: 0.0, event: Event::Complete { requests } }
    }

    #[test]
    fn one_bin_depth_is_pending_count_minus_one() {
        let mut ev: Vec<Timed> = (0..5).map(|r| post(r, r, 0)).collect();
        ev.push(complete(vec![0, 1, 2, 3, 4]));
        ev.push(post(7, 1, 1));
        ev.push(complete(vec![7]));
        let s = pending_recv(&ev, 1);
        assert_eq!(s.max_depth, 4);
        assert_eq!(s.points, 2);
        assert_eq!(s.mean_depth(), 2.0);
        assert_eq!(s.empty_share(), 0.0);
        // With many bins, five distinct envelopes rarely share one.
        assert!(pending_recv(&ev, 256).max_depth <= 1);
    }
}
