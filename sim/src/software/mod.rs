//! The software matchers the hardware is measured against, and building one by name.

/// The [`crate::Matcher`] methods every software matcher writes alike, inside its `impl
/// Matcher`: probes through its own `take_unexpected(&spec, remove)`, a flush that keeps
/// the work counters (`stats`) and starts over from `$empty(&self)` (a new matcher with the
/// same configuration), and the counters.
macro_rules! probe_flush_and_stats {
    ($empty:expr) => {
        fn probe(&mut self, spec: RecvSpec) -> Outcome {
            Outcome::Probed(self.take_unexpected(&spec, false))
        }

        fn matched_probe(&mut self, spec: RecvSpec) -> Outcome {
            Outcome::MatchedProbed(self.take_unexpected(&spec, true))
        }

        fn flush(&mut self) {
            let mut stats = self.stats;
            stats.flushed();
            let empty: fn(&Self) -> Self = $empty;
            *self = Self { stats, ..empty(self) };
        }

        fn stats(&self) -> WorkStats {
            self.stats
        }
    };
}

pub mod arena_list;
pub mod four_index;
pub mod hash_bins;
pub mod linked_list;
pub mod matchers;
pub mod partner;
pub mod rank_based;
