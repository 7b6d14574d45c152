//! Building any matcher by name, for the command line, benchmarks and tests.

use crate::model::golden::Golden;
use crate::model::matcher::Matcher;
use crate::model::ops::Op;
use crate::software::four_index::FourIndexMatcher;
use crate::software::hash_bins::{Bins, HashBinsMatcher};
use crate::software::linked_list::LinkedListMatcher;
use crate::software::partner::edge::EdgeMetric;
use crate::software::partner::{PartnerConfig, PartnerMatcher, PartnerMode, PartnerProfile};
use crate::software::rank_based::RankBasedMatcher;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatcherKind {
    Golden,
    LinkedList,
    RankBased,
    HashBins,
    FourIndex,
    PartnerStatic,
    PartnerDynamic,
}

impl MatcherKind {
    pub const ALL: [MatcherKind; 7] = [
        MatcherKind::Golden,
        MatcherKind::LinkedList,
        MatcherKind::RankBased,
        MatcherKind::HashBins,
        MatcherKind::FourIndex,
        MatcherKind::PartnerStatic,
        MatcherKind::PartnerDynamic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MatcherKind::Golden => "golden",
            MatcherKind::LinkedList => "linked-list",
            MatcherKind::RankBased => "rank-based",
            MatcherKind::HashBins => "hash-bins",
            MatcherKind::FourIndex => "four-index",
            MatcherKind::PartnerStatic => "partner-static",
            MatcherKind::PartnerDynamic => "partner-dynamic",
        }
    }

    /// Builds the matcher. A static partner matcher takes its profile from `profile_run`
    /// (the operations of a previous run); without one it has no partners.
    pub fn build(self, options: &MatcherOptions, profile_run: Option<&[Op]>) -> Box<dyn Matcher> {
        match self {
            MatcherKind::Golden => Box::new(Golden::new()),
            MatcherKind::LinkedList => Box::new(LinkedListMatcher::new()),
            MatcherKind::RankBased => Box::new(RankBasedMatcher::new()),
            MatcherKind::HashBins => Box::new(HashBinsMatcher::new(options.bins)),
            MatcherKind::FourIndex => Box::new(FourIndexMatcher::new(options.index_bins)),
            MatcherKind::PartnerStatic | MatcherKind::PartnerDynamic => {
                Box::new(PartnerMatcher::new(&options.partner_config(self, profile_run)))
            }
        }
    }
}

impl FromStr for MatcherKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        MatcherKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<_> = MatcherKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown matcher '{s}': expected one of {}", names.join(", "))
        })
    }
}

/// Tunables of the configurable matchers.
#[derive(Clone, Debug)]
pub struct MatcherOptions {
    /// Bins per queue of the hash-bin matcher.
    pub bins: Bins,
    /// Bins per hashed index of the four-index matcher.
    pub index_bins: usize,
    /// Queue length that triggers partner extraction (dynamic partner queues).
    pub partner_threshold: usize,
    pub partner_metric: EdgeMetric,
    /// `c` of the `c * sqrt(N)` partner bound; `None` is unbounded.
    pub partner_cap_factor: Option<f64>,
    /// `N`: processes in the job.
    pub world_size: u32,
}

impl Default for MatcherOptions {
    fn default() -> Self {
        MatcherOptions {
            bins: Bins::Growing,
            index_bins: 256,
            partner_threshold: 100,
            partner_metric: EdgeMetric::Average,
            partner_cap_factor: None,
            world_size: 1024,
        }
    }
}

impl MatcherOptions {
    fn partner_config(&self, kind: MatcherKind, profile_run: Option<&[Op]>) -> PartnerConfig {
        let mode = if kind == MatcherKind::PartnerStatic {
            PartnerMode::Static { profile: profile_run.map(PartnerProfile::from_ops).unwrap_or_default() }
        } else {
            PartnerMode::Dynamic { threshold: self.partner_threshold }
        };
        PartnerConfig {
            mode,
            metric: self.partner_metric,
            cap_factor: self.partner_cap_factor,
            world_size: self.world_size,
        }
    }
}
