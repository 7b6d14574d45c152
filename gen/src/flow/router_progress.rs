//! What nextpnr's router is doing, line by line of its log: for the person watching (the
//! progress line says how much is left and which way it is going) and for the flow, which
//! stops a router that has stalled instead of letting it run for hours.
//!
//! router1 reports every 1,000 iterations; an iteration routes one arc, ripping up the
//! arcs in its way, which go back in the queue (`common/route/router1.cc`):
//!
//! ```text
//! Info:      10000 |     1523       8477 |  211   789 |    228603|       4.20      41.50|
//! ```
//!
//! iterations; arcs routed with and without ripping others up, in all and since the last
//! line; the arcs still queued; seconds since the last line and in all. On a design it
//! routes the queue falls by nearly 1,000 a line. On the two-level engine with 16 CAM
//! entries and 16 lists of 512 (46,964 LUT4s) it crawled: 220,000 of 238,603 arcs left
//! after 10 minutes, falling about 300 a line. [`Router1Watch`] calls router1 stalled when
//! - its queue has not fallen 2 % below its lowest for [`STALL_ITERATIONS`] iterations
//!   ([`ENDGAME_ITERATIONS`] once the lowest is [`ENDGAME_ARCS`] or fewer, where 2 % is a
//!   handful of arcs), or
//! - after [`WARMUP_SECONDS`] of routing, at its pace over the last [`TREND_SECONDS`] it
//!   would need longer than the flow's time budget has left. router1's pace falls as the
//!   easy arcs are done, so the projection, if anything, hopes too much.
//!
//! router2's pass lines and its plateau are [`crate::flow::router_congestion`]'s; [`Router2Watch`]
//! adds the trend for the progress line.

use crate::flow::router_congestion::{Plateau, GAIN};
use crate::output::progress::thousands;

/// Iterations without a 2 % fall in router1's queue after which it is stalled.
pub const STALL_ITERATIONS: u64 = 50_000;
/// At or below this many queued arcs router1 is in its endgame...
pub const ENDGAME_ARCS: u64 = 1_000;
/// ... and stalled only after this many iterations without a 2 % fall.
pub const ENDGAME_ITERATIONS: u64 = 200_000;
/// The pace is router1's over this many seconds of routing (its own clock).
pub const TREND_SECONDS: f64 = 60.0;
/// router1's pace is weighed against the time budget only after this many seconds of
/// routing: a design it routes is often done by then.
pub const WARMUP_SECONDS: f64 = 120.0;

/// What a watcher makes of a line of a tool's log.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// How the router is doing, for the progress line.
    Progress(String),
    /// Stop the tool, for this reason.
    Stop(String),
}

/// One of router1's lines of figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Router1Line {
    pub iterations: u64,
    /// Arcs still queued.
    pub remaining: u64,
    /// Seconds of routing so far.
    pub seconds: f64,
}

/// router1's line of figures (module docs); `None` for any other line, its table's
/// header included.
pub fn parse_router1(line: &str) -> Option<Router1Line> {
    let cols: Vec<&str> = line.trim_start().strip_prefix("Info:")?.split('|').map(str::trim).collect();
    if cols.len() != 6 || !cols[5].is_empty() {
        return None;
    }
    Some(Router1Line {
        iterations: cols[0].parse().ok()?,
        remaining: cols[3].parse().ok()?,
        seconds: cols[4].split_whitespace().nth(1)?.parse().ok()?,
    })
}

/// `Info: Routing 238603 arcs.`, router1's count before it starts → 238603.
fn parse_arcs(line: &str) -> Option<u64> {
    line.trim_start()
        .strip_prefix("Info:")?
        .trim()
        .strip_prefix("Routing ")?
        .strip_suffix(" arcs.")?
        .parse()
        .ok()
}

/// How fast router1's queue falls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// Arcs fewer per 1,000 iterations (below zero: the queue grew).
    pub per_1000: f64,
    /// Arcs fewer per minute of routing.
    pub per_minute: f64,
}

impl Trend {
    /// `falling 300 a 1,000 iterations (1,800 a minute): crawling`.
    pub fn text(&self) -> String {
        let pace = if self.per_1000 >= 500.0 {
            "falling"
        } else if self.per_1000 > 0.0 {
            // Fewer than half of the arcs it routes stay routed.
            "crawling"
        } else {
            "not falling"
        };
        if self.per_1000 > 0.0 {
            format!(
                "{} fewer per 1,000 iterations ({} a minute): {pace}",
                thousands(self.per_1000.round() as u64),
                thousands(self.per_minute.round() as u64)
            )
        } else {
            format!("{} more per 1,000 iterations: {pace}", thousands((-self.per_1000).round() as u64))
        }
    }
}

/// A time to come in words: `40 seconds`, `37 minutes`, `never`.
pub fn duration_text(seconds: f64) -> String {
    if !seconds.is_finite() {
        "never".to_string()
    } else if seconds < 90.0 {
        format!("{:.0} seconds", seconds.max(0.0))
    } else {
        format!("{} minutes", thousands((seconds / 60.0).round() as u64))
    }
}

/// Watches router1's log (module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Router1Watch {
    /// The arcs it set out to route.
    pub arcs: Option<u64>,
    lines: Vec<Router1Line>,
    /// The fewest queued arcs (the last 2 % fall) and the iteration that had them.
    fewest: Option<(u64, u64)>,
}

impl Router1Watch {
    /// Reads a line of the log, with the seconds left of the flow's time budget (`None`:
    /// no budget): how router1 is doing, or why to stop it.
    pub fn observe(&mut self, line: &str, budget_left_s: Option<f64>) -> Option<Heard> {
        if let Some(arcs) = parse_arcs(line) {
            *self = Router1Watch {
                arcs: Some(arcs),
                lines: vec![Router1Line { iterations: 0, remaining: arcs, seconds: 0.0 }],
                fewest: Some((arcs, 0)),
            };
            return Some(Heard::Progress(format!("router1: {} arcs to route", thousands(arcs))));
        }
        let now = parse_router1(line)?;
        if self.lines.last().is_some_and(|l| now.iterations < l.iterations) {
            // A timing-driven rip-up (`--router1-timing-driven`) counts from 0 again.
            self.lines.clear();
            self.fewest = None;
        }
        self.lines.push(now);
        match self.fewest {
            Some((fewest, _)) if now.remaining as f64 >= fewest as f64 * GAIN => {}
            _ => self.fewest = Some((now.remaining, now.iterations)),
        }
        Some(match self.stall(budget_left_s) {
            Some(why) => Heard::Stop(why),
            None => Heard::Progress(self.progress()?),
        })
    }

    /// The last line of figures.
    pub fn last(&self) -> Option<Router1Line> {
        self.lines.last().copied()
    }

    /// The queue's pace over the last [`TREND_SECONDS`] (all of the routing before then).
    pub fn trend(&self) -> Option<Trend> {
        let now = self.lines.last()?;
        let from = self
            .lines
            .iter()
            .rev()
            .skip(1)
            .find(|l| now.seconds - l.seconds >= TREND_SECONDS)
            .or_else(|| self.lines.first())
            .filter(|l| l.iterations < now.iterations)?;
        let fewer = from.remaining as f64 - now.remaining as f64;
        Some(Trend {
            per_1000: fewer * 1000.0 / (now.iterations - from.iterations) as f64,
            per_minute: fewer * 60.0 / (now.seconds - from.seconds).max(0.01),
        })
    }

    /// Seconds router1 would need for the rest at its pace ([`Router1Watch::trend`]).
    fn needs(&self) -> Option<f64> {
        let (now, trend) = (self.lines.last()?, self.trend()?);
        Some(if trend.per_minute > 0.0 {
            now.remaining as f64 * 60.0 / trend.per_minute
        } else {
            f64::INFINITY
        })
    }

    /// `router1: 220,000 of 238,603 arcs left, 300 fewer per 1,000 iterations (1,800 a
    /// minute): crawling; about 122 minutes more at this pace`.
    pub fn progress(&self) -> Option<String> {
        let now = self.lines.last()?;
        let of = self.arcs.map_or(String::new(), |a| format!(" of {}", thousands(a)));
        if now.remaining == 0 {
            return Some(format!("router1: all{of} arcs routed ({} iterations)", thousands(now.iterations)));
        }
        let mut text = format!("router1: {}{of} arcs left", thousands(now.remaining));
        if let Some(trend) = self.trend() {
            text.push_str(&format!(", {}", trend.text()));
            if let Some(needs) = self.needs().filter(|s| s.is_finite()) {
                text.push_str(&format!("; about {} more at this pace", duration_text(needs)));
            }
        }
        Some(text)
    }

    /// `router1 stalled with 220,000 of 238,603 arcs left after 3:10 of routing`, for the
    /// record of why the flow went on with router2.
    pub fn summary(&self) -> String {
        let Some(now) = self.last() else { return "router1 stalled".to_string() };
        let of = self.arcs.map_or(String::new(), |a| format!(" of {}", thousands(a)));
        let s = now.seconds as u64;
        format!(
            "router1 stalled with {}{of} arcs left after {}:{:02} of routing",
            thousands(now.remaining),
            s / 60,
            s % 60
        )
    }

    /// Why router1 is stalled (module docs), if it is.
    fn stall(&self, budget_left_s: Option<f64>) -> Option<String> {
        let now = self.lines.last()?;
        if now.remaining == 0 {
            return None;
        }
        let (fewest, at) = self.fewest?;
        let patience = if fewest <= ENDGAME_ARCS { ENDGAME_ITERATIONS } else { STALL_ITERATIONS };
        if now.iterations >= at + patience {
            return Some(format!(
                "router1 stalled: {} arcs left after {} iterations, the fewest {} at iteration {}, \
                 none {:.0} % fewer since",
                thousands(now.remaining),
                thousands(now.iterations),
                thousands(fewest),
                thousands(at),
                (1.0 - GAIN) * 100.0
            ));
        }
        let left = budget_left_s?;
        if now.seconds < WARMUP_SECONDS {
            return None;
        }
        let (trend, needs) = (self.trend()?, self.needs()?);
        (needs > left).then(|| {
            format!(
                "router1 stalled: {} arcs left, {}; it needs {} more at this pace, the time budget \
                 has {} left",
                thousands(now.remaining),
                trend.text(),
                duration_text(needs),
                duration_text(left)
            )
        })
    }
}

/// Watches router2's log: its plateau ([`Plateau`]) and its trend for the progress line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Router2Watch {
    pub plateau: Plateau,
}

impl Router2Watch {
    /// Reads a line of the log: after a pass, how router2 is doing, or why to stop it.
    pub fn observe(&mut self, line: &str) -> Option<Heard> {
        let (pass, overused) = crate::flow::router_congestion::parse_pass(line)?;
        let previous = self.plateau.last.map(|(o, _)| o);
        if let Some(why) = self.plateau.observe(line) {
            return Some(Heard::Stop(why));
        }
        if overused == 0 {
            return Some(Heard::Progress(format!("router2 pass {pass}: no overused wires left")));
        }
        let (fewest, at) = self.plateau.fewest?;
        let trend = match previous {
            None => "the first pass".to_string(),
            Some(p) if (overused as f64) < p as f64 * GAIN => {
                format!("falling (pass {}: {})", pass - 1, thousands(p))
            }
            Some(p) if (overused as f64) * GAIN > p as f64 => {
                format!("rising (pass {}: {})", pass - 1, thousands(p))
            }
            Some(p) => format!("flat (pass {}: {})", pass - 1, thousands(p)),
        };
        let mut text = format!("router2 pass {pass}: {} overused wires, {trend}", thousands(overused));
        let without = pass.saturating_sub(at);
        if without > 0 {
            text.push_str(&format!(
                "; stalling: the fewest {} at pass {at}, {without} of {} passes without a {:.0} % gain",
                thousands(fewest),
                crate::flow::router_congestion::patience(fewest),
                (1.0 - GAIN) * 100.0
            ));
        }
        Some(Heard::Progress(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of figures as router1 prints it (`%10d | %8d %10d | %4d %5d | %9d| %10.02f
    /// %10.02f|`), for runs longer than a captured excerpt.
    fn line(iterations: u64, remaining: u64, seconds: f64) -> String {
        let (with, without) = (iterations / 3, iterations - iterations / 3);
        format!(
            "Info: {iterations:10} | {with:8} {without:10} | {:4} {:5} | {remaining:9}| {:10.2} {seconds:10.2}|",
            333, 667, 10.0
        )
    }

    /// The start of router1's log on the two-level engine with 16 CAM entries and 16 lists
    /// of 512 (46,964 LUT4s), as nextpnr-0.10 prints it: the queue falls fast at first.
    const CAPTURED: &str = "\
Info: Routing..
Info: Setting up routing queue.
Info: Routing 238603 arcs.
Info:            |   (re-)routed arcs  |   delta    | remaining|       time spent     |
Info:    IterCnt |  w/ripup   wo/ripup |  w/r  wo/r |      arcs| batch(sec) total(sec)|
Info:       1000 |        0       1000 |    0  1000 |    237603|       1.84       1.84|
Info:       2000 |        3       1997 |    3   997 |    236609|       1.90       3.74|
Info:       3000 |       41       2959 |   38   962 |    235652|       2.31       6.05|
";

    #[test]
    fn reads_router1s_lines_and_nothing_else() {
        let lines: Vec<_> = CAPTURED.lines().filter_map(parse_router1).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[2], Router1Line { iterations: 3000, remaining: 235_652, seconds: 6.05 });
        assert_eq!(CAPTURED.lines().filter_map(parse_arcs).collect::<Vec<_>>(), [238_603]);
        assert_eq!(
            parse_router1("Info:     iter=7 wires=1015693 overused=21538 overuse=22248 archfail=NA"),
            None
        );
        assert_eq!(parse_router1(&line(12_000, 4, 0.5)).map(|l| l.remaining), Some(4));
        // The last line when routing is done: any count of iterations, none left.
        let done = "Info:      40213 |     1212      39001 |   12   201 |         0|       0.11      21.40|";
        assert_eq!(
            parse_router1(done),
            Some(Router1Line { iterations: 40_213, remaining: 0, seconds: 21.4 })
        );
    }

    #[test]
    fn router1s_progress_names_what_is_left_and_its_pace() {
        let mut w = Router1Watch::default();
        let heard: Vec<_> = CAPTURED.lines().filter_map(|l| w.observe(l, Some(2_000.0))).collect();
        assert_eq!(heard[0], Heard::Progress("router1: 238,603 arcs to route".into()));
        let Heard::Progress(p) = &heard[3] else { panic!("{heard:?}") };
        assert!(
            p.starts_with("router1: 235,652 of 238,603 arcs left, 984 fewer per 1,000 iterations"),
            "{p}"
        );
        assert!(p.contains("a minute): falling; about"), "{p}");
        assert_eq!(w.trend().unwrap().per_1000.round(), 984.0);
    }

    /// The issue's run: a fast start, then about 300 fewer a line, a line every 10 s.
    fn crawl() -> Vec<String> {
        let mut out: Vec<String> = CAPTURED.lines().map(str::to_string).collect();
        let mut remaining = 235_652;
        for i in 4..200u64 {
            remaining -= if i < 10 { 900 } else { 300 };
            out.push(line(i * 1000, remaining, 6.05 + (i - 3) as f64 * 10.0));
        }
        out
    }

    #[test]
    fn a_crawl_the_budget_cannot_wait_for_is_a_stall() {
        let mut w = Router1Watch::default();
        let mut stop = None;
        for l in crawl() {
            if let Some(Heard::Stop(why)) = w.observe(&l, Some(37.0 * 60.0)) {
                stop = Some((w.last().unwrap(), why));
                break;
            }
        }
        let (at, why) = stop.expect("stalled");
        assert!(
            at.seconds >= WARMUP_SECONDS && at.seconds < WARMUP_SECONDS + 10.0,
            "after the warm-up: {at:?}"
        );
        assert!(
            why.starts_with("router1 stalled: 228,452 arcs left, 300 fewer per 1,000 iterations (1,800 a minute): crawling"),
            "{why}"
        );
        assert!(
            why.contains("it needs 127 minutes more at this pace, the time budget has 37 minutes left"),
            "{why}"
        );
        assert_eq!(w.summary(), "router1 stalled with 228,452 of 238,603 arcs left after 2:06 of routing");
    }

    #[test]
    fn a_crawl_with_time_for_it_goes_on_until_it_stops_falling() {
        // Three hours of budget left: the crawl would finish, so it is no stall.
        let mut w = Router1Watch::default();
        for l in crawl() {
            assert!(!matches!(w.observe(&l, Some(3.0 * 3600.0)), Some(Heard::Stop(_))), "{l}");
        }
        let p = w.progress().unwrap();
        assert!(p.contains("crawling; about 96 minutes more"), "{p}");
        // No budget at all, and a queue that stops falling: a stall after 50,000
        // iterations without 2 % fewer.
        let mut w = Router1Watch::default();
        w.observe("Info: Routing 20000 arcs.", None);
        for i in 1..=10u64 {
            assert!(matches!(
                w.observe(&line(i * 1000, 20_000 - i * 900, i as f64), None),
                Some(Heard::Progress(_))
            ));
        }
        let mut stop = None;
        for i in 11..100u64 {
            if let Some(Heard::Stop(why)) = w.observe(&line(i * 1000, 11_000 + (i % 3) * 50, i as f64), None)
            {
                stop = Some((i, why));
                break;
            }
        }
        let (i, why) = stop.expect("stalled");
        assert_eq!(i, 60, "50,000 iterations after the last 2 % fall, at 10,000");
        assert!(why.contains("the fewest 11,000 at iteration 10,000, none 2 % fewer since"), "{why}");
    }

    #[test]
    fn router1s_endgame_gets_a_longer_wait_and_a_routed_design_never_stalls() {
        let mut w = Router1Watch::default();
        w.observe("Info: Routing 5000 arcs.", None);
        w.observe(&line(5000, 40, 5.0), None);
        for i in 6..205u64 {
            assert!(!matches!(w.observe(&line(i * 1000, 40, i as f64), None), Some(Heard::Stop(_))), "{i}");
        }
        assert!(matches!(w.observe(&line(205_000, 40, 205.0), None), Some(Heard::Stop(_))));

        // A healthy route: 40,000 arcs, nearly 1,000 fewer a line, four seconds a line,
        // with a tight budget (past the warm-up it needs less than is left). It is never
        // stopped, and ends with all arcs routed.
        let mut w = Router1Watch::default();
        w.observe("Info: Routing 40000 arcs.", Some(300.0));
        let mut remaining = 40_000u64;
        let mut i = 0;
        while remaining > 0 {
            i += 1;
            remaining = remaining.saturating_sub(950);
            let left = 300.0 - 4.0 * i as f64;
            assert!(matches!(
                w.observe(&line(i * 1000, remaining, 4.0 * i as f64), Some(left)),
                Some(Heard::Progress(_))
            ));
        }
        assert!(4.0 * i as f64 > WARMUP_SECONDS, "the budget was weighed");
        assert_eq!(w.progress().unwrap(), "router1: all of 40,000 arcs routed (43,000 iterations)");
    }

    #[test]
    fn a_timing_driven_restart_of_the_count_is_no_stall() {
        let mut w = Router1Watch::default();
        w.observe("Info: Routing 9000 arcs.", None);
        for i in 1..=9u64 {
            w.observe(&line(i * 1000, 9000 - i * 1000, i as f64), None);
        }
        // Arcs ripped up for their slack: the count starts again.
        assert!(w
            .observe("Info:     812 arcs ripped up due to negative slack WNS=-1.20ns TNS=-80.00ns.", None)
            .is_none());
        for i in 1..=40u64 {
            let heard = w.observe(&line(i * 1000, 812 - (i * 20).min(812), 10.0 + i as f64), None);
            assert!(matches!(heard, Some(Heard::Progress(_))), "{i}: {heard:?}");
        }
        // The pace is the new count's, not a comparison with the old one.
        let p = w.progress().unwrap();
        assert!(p.starts_with("router1: 12 of 9,000 arcs left, 20 fewer per 1,000 iterations"), "{p}");
    }

    fn pass(iter: u32, overused: u64) -> String {
        format!(
            "Info:     iter={iter} wires=1015693 overused={overused} overuse={} archfail=NA",
            overused + 7
        )
    }

    #[test]
    fn router2s_progress_gives_each_pass_and_calls_a_plateau_a_stall() {
        let mut w = Router2Watch::default();
        assert_eq!(w.observe("Info: Running router2..."), None);
        let text = |h: Option<Heard>| match h {
            Some(Heard::Progress(p)) => p,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            text(w.observe(&pass(1, 80_433))),
            "router2 pass 1: 80,433 overused wires, the first pass"
        );
        assert_eq!(
            text(w.observe(&pass(2, 20_560))),
            "router2 pass 2: 20,560 overused wires, falling (pass 1: 80,433)"
        );
        assert_eq!(
            text(w.observe(&pass(3, 21_000))),
            "router2 pass 3: 21,000 overused wires, rising (pass 2: 20,560); stalling: the fewest 20,560 at \
             pass 2, 1 of 8 passes without a 2 % gain"
        );
        assert!(text(w.observe(&pass(4, 20_900))).contains("flat (pass 3: 21,000)"));
        for i in 5..10 {
            assert!(text(w.observe(&pass(i, 20_700))).contains(&format!("{} of 8 passes", i - 2)));
        }
        let Some(Heard::Stop(why)) = w.observe(&pass(10, 20_700)) else { panic!("a plateau") };
        assert!(why.contains("router2 is not converging"), "{why}");
        let mut w = Router2Watch::default();
        w.observe(&pass(1, 3));
        assert_eq!(text(w.observe(&pass(2, 0))), "router2 pass 2: no overused wires left");
    }

    #[test]
    fn times_to_come_read_as_words() {
        assert_eq!(duration_text(40.2), "40 seconds");
        assert_eq!(duration_text(37.0 * 60.0), "37 minutes");
        assert_eq!(duration_text(7_560.0), "126 minutes");
        assert_eq!(duration_text(f64::INFINITY), "never");
    }
}
