//! Choosing partners: the edge point over per-process element counts.
//!
//! A process is a partner when it put more elements into a queue than the edge point,
//! computed over the element counts of all `N` processes of the job (processes that put
//! nothing there count as zero, as in the paper's `Num-of-QE_0..P`; without them a lone
//! busy sender could never stand out). The published
//! upper-fence formula prints `Q3 - a(Q3 - Q1)`; we use Tukey's `Q3 + a(Q3 - Q1)`, which
//! is what an outlier fence means. The two agree at a = 0, the setting evaluated in the
//! paper, and a = 0 is our default.

use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum EdgeMetric {
    #[default]
    Average,
    Median,
    UpperFence {
        alpha: f64,
    },
}

impl FromStr for EdgeMetric {
    type Err = String;

    /// `average`, `median`, `upper-fence` (a = 0) or `upper-fence:A`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "average" => Ok(EdgeMetric::Average),
            "median" => Ok(EdgeMetric::Median),
            "upper-fence" => Ok(EdgeMetric::UpperFence { alpha: 0.0 }),
            _ => match s.strip_prefix("upper-fence:").map(str::parse::<f64>) {
                Some(Ok(alpha)) if alpha.is_finite() && alpha >= 0.0 => Ok(EdgeMetric::UpperFence { alpha }),
                _ => Err(format!(
                    "unknown edge metric '{s}': expected average, median, upper-fence or upper-fence:ALPHA"
                )),
            },
        }
    }
}

/// Quantile `q` of sorted `v` by linear interpolation between closest ranks.
fn quantile(v: &[u64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    v[lo] as f64 + (v[hi] as f64 - v[lo] as f64) * (pos - lo as f64)
}

/// The edge point of `counts` (any order). Empty input has no edge point.
pub fn edge_point(counts: &[u64], metric: EdgeMetric) -> Option<f64> {
    if counts.is_empty() {
        return None;
    }
    Some(match metric {
        EdgeMetric::Average => counts.iter().sum::<u64>() as f64 / counts.len() as f64,
        EdgeMetric::Median | EdgeMetric::UpperFence { .. } => {
            let mut v = counts.to_vec();
            v.sort_unstable();
            if let EdgeMetric::UpperFence { alpha } = metric {
                let (q1, q3) = (quantile(&v, 0.25), quantile(&v, 0.75));
                q3 + alpha * (q3 - q1)
            } else {
                quantile(&v, 0.5)
            }
        }
    })
}

/// The keys whose count exceeds the edge point over a population of `population`
/// processes (those missing from `counts` count zero), most elements first (ties by key, so
/// the choice is deterministic), at most `room` of them.
pub fn select_partners<K: Copy + Ord>(
    counts: &[(K, u64)],
    metric: EdgeMetric,
    population: usize,
    room: usize,
) -> Vec<K> {
    let mut values: Vec<u64> = counts.iter().map(|&(_, c)| c).collect();
    values.resize(population.max(counts.len()), 0);
    let Some(edge) = edge_point(&values, metric) else {
        return Vec::new();
    };
    let mut chosen: Vec<(K, u64)> = counts.iter().copied().filter(|&(_, c)| c as f64 > edge).collect();
    chosen.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    chosen.into_iter().take(room).map(|(k, _)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_on_a_skewed_profile() {
        let c = [1, 1, 2, 2, 3, 100];
        assert_eq!(edge_point(&c, EdgeMetric::Average), Some(109.0 / 6.0));
        assert_eq!(edge_point(&c, EdgeMetric::Median), Some(2.0));
        // Q1 = 1.25, Q3 = 2.75
        assert_eq!(edge_point(&c, EdgeMetric::UpperFence { alpha: 0.0 }), Some(2.75));
        assert_eq!(edge_point(&c, EdgeMetric::UpperFence { alpha: 2.0 }), Some(5.75));
        assert_eq!(edge_point(&[], EdgeMetric::Average), None);
    }

    #[test]
    fn selection_is_strictly_above_edge_and_capped() {
        let counts = [(1u32, 1u64), (2, 9), (3, 2), (4, 9), (5, 30)];
        assert_eq!(select_partners(&counts, EdgeMetric::Median, 5, 10), vec![5]);
        // Five idle processes pull the median to 0.5: everyone who sent is a partner.
        assert_eq!(select_partners(&counts, EdgeMetric::Median, 10, 10), vec![5, 2, 4, 3, 1]);
        assert_eq!(select_partners(&counts, EdgeMetric::Median, 10, 2), vec![5, 2]);
        assert_eq!(select_partners(&counts, EdgeMetric::Average, 5, 10), vec![5]);
        // All equal: nobody stands out, unless idle processes pull the edge down.
        assert!(select_partners(&[(1u32, 4u64), (2, 4)], EdgeMetric::Average, 2, 10).is_empty());
        assert_eq!(select_partners(&[(1u32, 4u64), (2, 4)], EdgeMetric::Average, 8, 10), vec![1, 2]);
    }

    #[test]
    fn parses_metric_names() {
        assert_eq!("median".parse::<EdgeMetric>(), Ok(EdgeMetric::Median));
        assert_eq!("upper-fence:1.5".parse::<EdgeMetric>(), Ok(EdgeMetric::UpperFence { alpha: 1.5 }));
        assert!("upper-fence:-1".parse::<EdgeMetric>().is_err());
        assert!("mode".parse::<EdgeMetric>().unwrap_err().contains("mode"));
    }
}
