//! Progress bars for the long runs (benchmark sweeps, RTL benchmarks and their Verilator
//! builds, trace reading, co-simulation), drawn with `indicatif` on stderr.
//!
//! A bar is drawn only for a person watching: when stderr is a terminal and `CI` is not
//! set. Otherwise it is hidden and draws nothing, so CSV and JSON on stdout, redirected
//! stderr and CI logs stay as they were. Lines a run prints while a bar is up go through
//! `note`, which lifts the bar out of the way (and prints them when it is hidden, too).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Whether bars are drawn: stderr is a terminal and this is not a CI run.
fn shown() -> bool {
    drawn(std::io::stderr().is_terminal(), std::env::var("CI").ok().as_deref())
}

/// Whether bars are drawn, given whether stderr is a terminal and the value of `CI`.
fn drawn(terminal: bool, ci: Option<&str>) -> bool {
    terminal && matches!(ci, None | Some("" | "0" | "false"))
}

fn make(bar: ProgressBar, template: &str, what: &str) -> ProgressBar {
    let style =
        ProgressStyle::with_template(template).expect("the templates are valid").progress_chars("=> ");
    let bar = bar.with_style(style).with_prefix(what.to_string()).with_finish(ProgressFinish::AndClear);
    if shown() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        // Ticks keep the clock moving through a long step, such as a Verilator build.
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

/// A bar over `total` steps, headed `what`; its message names the step under way. Cleared
/// when finished or dropped (an early return on an error included).
pub fn bar(what: &str, total: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
    make(bar, "{prefix} [{bar:20}] {pos}/{len} {elapsed} (~{eta} left) {wide_msg}", what)
}

/// A spinner with the time elapsed, for one long step of unknown length.
pub fn spinner(what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    make(bar, "{spinner} {prefix} {elapsed} {wide_msg}", what)
}

/// Prints `line` on stderr above `bar`, or alone when the bar is hidden.
pub fn note(bar: &ProgressBar, line: &str) {
    bar.suspend(|| eprintln!("{line}"));
}

/// A count with thousands separators, as the progress lines and the timing flow's
/// messages write counts: 238603 → `238,603`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_counts_steps_and_stays_hidden_off_a_terminal() {
        // Tests run with stderr captured or redirected: nothing is drawn.
        let b = bar("bench rate", 3);
        assert!(b.is_hidden() || std::io::stderr().is_terminal());
        b.set_message("nc, 4 lanes");
        b.inc(2);
        assert_eq!((b.position(), b.length()), (2, Some(3)));
        note(&b, "tagmatch: a note still reaches stderr");
        b.finish();
        assert!(spinner("building").length().is_none());
    }

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(238_603), "238,603");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn bars_are_for_a_terminal_outside_ci() {
        assert!(drawn(true, None) && drawn(true, Some("false")));
        assert!(!drawn(true, Some("true")) && !drawn(true, Some("1")));
        assert!(!drawn(false, None));
    }
}
