//! Which placer and router `gen --timing` gives nextpnr when the user names neither, so
//! that a configuration nobody tuned by hand still finishes: chosen by the netlist's size
//! after synthesis (the LUT4 count is known before place and route starts), and changed
//! once more if router1 stalls on a design below the threshold
//! ([`crate::flow::router_progress`]). `--router` and `--placer` override the choice. The choice
//! and its reason are printed and kept in the manifest and the record (`"choice"`).

use crate::flow::settings::{Placer, Router};
use crate::output::progress::thousands;

/// Above this many LUT4s (nextpnr's count, after synthesis) the flow routes with router2
/// after the static placer; at or below it, with router1 (nextpnr-ecp5's default) after
/// the design's placer ([`Placer::default_for`]). 40,000 is 48 % of the LFE5U-85F's
/// 83,640 LUT4s. Every record at or below it routed with router1 (the 4-lane thread array
/// at 21,243 LUT4s, the two-level engine at 16,398). Above it router1 crawled: on the
/// two-level engine with 16 CAM entries and 16 lists of 512 (46,964 LUT4s), 220,000 of
/// 238,603 arcs were still queued after 10 minutes of routing, falling by about 300 per
/// 1,000 iterations; router2 after static routed every thread-array record between
/// 50,123 and 55,604 LUT4s in 9 to 14 minutes. One record above it is router1's: the CAM
/// of 128 entries (55,721 LUT4s, regular enough that router1 after heap routed it in 6
/// minutes); it names its router and placer, and `--router router1 --placer heap`
/// measures it the same way again.
pub const ROUTER2_ABOVE_LUT4S: u64 = 40_000;

/// The placer and router of a run, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub router: Router,
    pub placer: Placer,
    /// `--router` named the router: a stalled router1 is not replaced, it is stopped.
    pub router_given: bool,
    pub placer_given: bool,
    /// `router2 and the static placer: 46,964 LUT4s is above 40,000`.
    pub reason: String,
}

/// The placer and router for a netlist of `lut4s` LUT4s: `router` and `placer` when given
/// (`--router`, `--placer`), else by [`ROUTER2_ABOVE_LUT4S`]; `design_placer` is the
/// design's own placer at or below it.
pub fn choose(lut4s: u64, router: Option<Router>, placer: Option<Placer>, design_placer: Placer) -> Choice {
    let large = lut4s > ROUTER2_ABOVE_LUT4S;
    let size = format!(
        "{} LUT4s is {} {}",
        thousands(lut4s),
        if large { "above" } else { "at most" },
        thousands(ROUTER2_ABOVE_LUT4S)
    );
    let chosen_router = router.unwrap_or(if large { Router::Router2 } else { Router::Router1 });
    let chosen_placer = placer.unwrap_or(if large { Placer::Static } else { design_placer });
    let why = match (router.is_some(), placer.is_some()) {
        (true, true) => "--router and --placer given".to_string(),
        (true, false) => format!("--router given; the placer by size: {size}"),
        (false, true) => format!("--placer given; the router by size: {size}"),
        (false, false) => size,
    };
    Choice {
        router: chosen_router,
        placer: chosen_placer,
        router_given: router.is_some(),
        placer_given: placer.is_some(),
        reason: format!("{} and the {} placer: {why}", chosen_router.name(), chosen_placer.name()),
    }
}

impl Choice {
    /// The choice once router1, chosen by size, has stalled (`stalled`: what it reached,
    /// [`crate::flow::router_progress::Router1Watch::summary`]): router2, after the static
    /// placer unless `--placer` was given. `None` when `--router` named router1 (or the
    /// router is router2 already): the flow stops instead.
    pub fn after_stall(&self, stalled: &str) -> Option<Choice> {
        if self.router_given || self.router != Router::Router1 {
            return None;
        }
        let placer = if self.placer_given { self.placer } else { Placer::Static };
        Some(Choice {
            router: Router::Router2,
            placer,
            router_given: false,
            placer_given: self.placer_given,
            reason: format!(
                "router2 and the {} placer{}: {stalled} (chosen first: {})",
                placer.name(),
                if self.placer_given { " (--placer given)" } else { "" },
                self.reason
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_netlists_get_router2_after_static_and_the_rest_router1() {
        // The engine: 16 CAM entries, 16 lists of 512.
        let c = choose(46_964, None, None, Placer::Heap);
        assert_eq!((c.router, c.placer), (Router::Router2, Placer::Static));
        assert_eq!(c.reason, "router2 and the static placer: 46,964 LUT4s is above 40,000");
        assert!(!c.router_given && !c.placer_given);
        // The recorded two-level engine and thread array: router1 after their own placer.
        let c = choose(16_398, None, None, Placer::Heap);
        assert_eq!((c.router, c.placer), (Router::Router1, Placer::Heap));
        assert_eq!(c.reason, "router1 and the heap placer: 16,398 LUT4s is at most 40,000");
        let c = choose(21_243, None, None, Placer::default_for("optimistic"));
        assert_eq!((c.router, c.placer), (Router::Router1, Placer::Static));
        // The 16-lane thread array, as recorded by hand.
        let c = choose(55_604, None, None, Placer::default_for("optimistic"));
        assert_eq!((c.router, c.placer), (Router::Router2, Placer::Static));
        // The threshold itself is router1's.
        assert_eq!(choose(ROUTER2_ABOVE_LUT4S, None, None, Placer::Heap).router, Router::Router1);
        assert_eq!(choose(ROUTER2_ABOVE_LUT4S + 1, None, None, Placer::Heap).router, Router::Router2);
    }

    #[test]
    fn the_options_override_the_choice() {
        // The CAM's record: router1 after heap, by hand, above the threshold.
        let c = choose(55_721, Some(Router::Router1), Some(Placer::Heap), Placer::Heap);
        assert_eq!((c.router, c.placer), (Router::Router1, Placer::Heap));
        assert_eq!(c.reason, "router1 and the heap placer: --router and --placer given");
        let c = choose(55_721, Some(Router::Router1), None, Placer::Heap);
        assert_eq!((c.router, c.placer), (Router::Router1, Placer::Static));
        assert_eq!(
            c.reason,
            "router1 and the static placer: --router given; the placer by size: 55,721 LUT4s is above 40,000"
        );
        let c = choose(9_000, None, Some(Placer::Static), Placer::Heap);
        assert_eq!((c.router, c.placer), (Router::Router1, Placer::Static));
        assert!(c.reason.ends_with("--placer given; the router by size: 9,000 LUT4s is at most 40,000"));
        assert!(c.placer_given && !c.router_given);
    }

    #[test]
    fn a_stalled_router1_gives_way_to_router2_unless_it_was_asked_for() {
        let stalled = "router1 stalled with 180,000 of 200,000 arcs left after 2:30 of routing";
        let c = choose(30_000, None, None, Placer::Heap).after_stall(stalled).expect("router2");
        assert_eq!((c.router, c.placer), (Router::Router2, Placer::Static));
        assert_eq!(
            c.reason,
            format!(
                "router2 and the static placer: {stalled} (chosen first: router1 and the heap placer: \
                 30,000 LUT4s is at most 40,000)"
            )
        );
        let c = choose(30_000, None, Some(Placer::Heap), Placer::Heap).after_stall(stalled).unwrap();
        assert_eq!((c.router, c.placer), (Router::Router2, Placer::Heap), "the given placer stays");
        assert!(c.reason.starts_with("router2 and the heap placer (--placer given): router1 stalled"));
        assert_eq!(choose(30_000, Some(Router::Router1), None, Placer::Heap).after_stall(stalled), None);
        assert_eq!(choose(50_000, None, None, Placer::Heap).after_stall(stalled), None, "router2 already");
    }
}
