//! When the flow's time budget runs out: the one-line error that names the step, the
//! tool's last progress, nextpnr's estimate after placement where there is one, and what
//! to try.

use super::settings::{Flow, Placer, Router, Step};
use super::timing_report::parse_placement;
use super::timing_tools::clock_time;
use std::path::Path;
use std::time::Duration;

/// What to try when the time budget runs out in `step`.
pub(super) fn advice(step: Step) -> String {
    let rest = "a smaller configuration, or a larger --max-minutes";
    let estimate = "--place-only for placement's estimate alone";
    match step {
        Step::Routing(Router::Router1, _) => format!("--router router2 --placer static, {estimate}, {rest}"),
        Step::Routing(Router::Router2, Placer::Heap) => format!("--placer static, {estimate}, {rest}"),
        Step::Routing(Router::Router2, Placer::Static) => format!("{estimate}, {rest}"),
        Step::Synthesis | Step::Placement => rest.to_string(),
        Step::Xilinx => "a larger --max-minutes, or --estimate alone for the UltraScale+ depth".to_string(),
    }
}

/// `45`, `0.5`: a budget's minutes.
fn minutes(budget: Duration) -> String {
    let m = budget.as_secs_f64() / 60.0;
    if m.fract() == 0.0 {
        format!("{m:.0}")
    } else {
        format!("{m:.1}")
    }
}

/// nextpnr's estimate after placement and what the design fills, for an error: `;
/// nextpnr's estimate after placement: 37.9 MHz, with 46,964 LUT4s (56 %)`, or nothing when
/// the log has none yet. A run that does not route is reported with both.
pub(super) fn estimate_note(log_so_far: &str) -> String {
    parse_placement(log_so_far)
        .map(|p| {
            format!(
                "; nextpnr's estimate after placement: {:.1} MHz, with {} LUT4s ({:.0} %)",
                p.fmax_mhz,
                crate::output::progress::thousands(p.luts),
                p.luts as f64 * 100.0 / super::settings::DEVICE_LUT4S as f64
            )
        })
        .unwrap_or_default()
}

/// The one-line error of a flow whose time budget ran out `at_s` seconds in, in `step`
/// (named by `what`), with the tool's last progress and nextpnr's estimate after placement
/// where its log so far (`log_so_far`) has one.
pub(super) fn out_of_time(
    budget: Duration,
    at_s: f64,
    what: &str,
    step: Step,
    progress: Option<&str>,
    log_so_far: &str,
    log: &Path,
) -> String {
    format!(
        "timing stopped: its {}-minute budget (--max-minutes) ran out {} into the flow, in {what}{}{}; try {} \
         (log: {})",
        minutes(budget),
        clock_time(at_s),
        progress.map(|p| format!(" ({p})")).unwrap_or_default(),
        estimate_note(log_so_far),
        advice(step),
        log.display()
    )
}

impl Flow<'_> {
    /// The error of a budget that ran out ([`out_of_time`]).
    pub(super) fn out_of_time(
        &self,
        what: &str,
        step: Step,
        progress: Option<&str>,
        log_so_far: &str,
        log: &Path,
    ) -> String {
        let budget = self.budget.unwrap_or_default();
        let at = self.started.elapsed().as_secs_f64();
        out_of_time(budget, at, what, step, progress, log_so_far, log)
    }
}
