//! The golden rules of the one-sided unit, checked on a run's log:
//!
//! - the network gets one request per put or get naming a real window, in command order,
//!   with the command's fields;
//! - a FIN of window `w` answers the oldest unanswered flush of `w`, and comes only after
//!   every request of `w` accepted before that flush has completed (completions in earlier
//!   cycles);
//! - a FIN_ALL answers the oldest unanswered flush_all, after every request of every window
//!   accepted before it completed;
//! - an error answers the oldest unanswered command naming a window the unit lacks;
//! - nothing else is answered, nothing twice, and by the end everything owed is answered.
//!
//! The rules say when an answer may come, not how soon: that a flush waits for nothing
//! accepted after it is held by the co-simulation against the model's timing and by the
//! flush timing test, not here.

use super::harness::{Event, Log};
use super::{Command, RESP_ERROR, RESP_FIN, RESP_FIN_ALL};
use std::collections::VecDeque;

/// What a run that kept the rules did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub commands: usize,
    pub requests: usize,
    pub fins: usize,
    pub fin_alls: usize,
    pub errors: usize,
    /// The most requests one window had outstanding.
    pub max_outstanding: u64,
}

/// Checks `log` of a unit with `windows` windows against the rules.
pub fn check(log: &Log, windows: usize) -> Result<Summary, String> {
    let mut s = Summary::default();
    let mut to_request = VecDeque::new();
    let mut accepted = vec![0u64; windows];
    let mut requested = vec![0u64; windows];
    let mut completed = vec![0u64; windows];
    let mut flushes: Vec<VecDeque<u64>> = vec![VecDeque::new(); windows];
    let mut flush_alls: VecDeque<Vec<u64>> = VecDeque::new();
    let mut errors: VecDeque<u8> = VecDeque::new();
    let events = &log.events;
    let mut i = 0;
    while i < events.len() {
        let cycle = events[i].0;
        let end = i + events[i..].iter().take_while(|(c, _)| *c == cycle).count();
        let this_cycle = &events[i..end];
        let fail = |what: String| Err(format!("cycle {cycle}: {what}"));
        // Responses first: they were decided before this cycle's completions.
        for (_, e) in this_cycle {
            let Event::Response { kind, window } = *e else { continue };
            match kind {
                RESP_FIN => {
                    let w = window as usize;
                    let Some(snapshot) = flushes.get_mut(w).and_then(|q| q.pop_front()) else {
                        return fail(format!("FIN of window {window} with no flush of it waiting"));
                    };
                    if completed[w] < snapshot {
                        return fail(format!(
                            "FIN of window {window} with {} of the {snapshot} requests before its flush complete",
                            completed[w]
                        ));
                    }
                    s.fins += 1;
                }
                RESP_FIN_ALL => {
                    let Some(snapshot) = flush_alls.pop_front() else {
                        return fail("FIN_ALL with no flush_all waiting".into());
                    };
                    if let Some(w) = (0..windows).find(|&w| completed[w] < snapshot[w]) {
                        return fail(format!("FIN_ALL before the requests of window {w} completed"));
                    }
                    s.fin_alls += 1;
                }
                RESP_ERROR => {
                    if errors.pop_front() != Some(window) {
                        return fail(format!("an error for window {window}, which no waiting command named"));
                    }
                    s.errors += 1;
                }
                other => return fail(format!("unknown response kind {other}")),
            }
        }
        for (_, e) in this_cycle {
            match *e {
                Event::Completed { window } => {
                    let w = window as usize;
                    if w >= windows || completed[w] >= requested[w] {
                        return fail(format!(
                            "a completion of window {window}, which has nothing outstanding"
                        ));
                    }
                    completed[w] += 1;
                }
                Event::Accepted { command, .. } => {
                    s.commands += 1;
                    match command {
                        Command::Put { window, .. } | Command::Get { window, .. }
                            if (window as usize) < windows =>
                        {
                            accepted[window as usize] += 1;
                            to_request.push_back(command);
                        }
                        Command::Flush { window } if (window as usize) < windows => {
                            flushes[window as usize].push_back(accepted[window as usize]);
                        }
                        Command::FlushAll => flush_alls.push_back(accepted.clone()),
                        Command::Put { window, .. }
                        | Command::Get { window, .. }
                        | Command::Flush { window } => errors.push_back(window),
                    }
                }
                Event::Request { get, window, target, bytes } => {
                    let want = to_request.pop_front();
                    let got = if get {
                        Command::Get { window, target, bytes }
                    } else {
                        Command::Put { window, target, bytes }
                    };
                    if want != Some(got) {
                        return fail(format!("the network got {got:?}; the next put or get was {want:?}"));
                    }
                    requested[window as usize] += 1;
                    s.requests += 1;
                    let w = window as usize;
                    s.max_outstanding = s.max_outstanding.max(requested[w] - completed[w]);
                }
                Event::Response { .. } => {}
            }
        }
        i = end;
    }
    let owed = flushes.iter().map(VecDeque::len).sum::<usize>() + flush_alls.len() + errors.len();
    if owed > 0 || !to_request.is_empty() {
        return Err(format!(
            "the run ended owing {owed} responses and {} requests to the network",
            to_request.len()
        ));
    }
    Ok(s)
}
