//! Scenario scripts shared with the real-MPI oracle (`sim/oracle/oracle.c`).
//!
//! A script is a list of scenarios, each a sequence of receiver-side commands (see the
//! header of `sim/oracle/scenarios.txt`). Both the oracle and [`Scenario::golden_record`]
//! reduce a run to the same set of facts — which receive got which message, what each
//! probe saw, whether each cancel succeeded, what was left over — so a real MPI library and
//! the golden model can be compared line for line.

use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};
use crate::model::golden::Golden;
use crate::model::matcher::Matcher;
use crate::model::ops::{Op, Outcome};
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Post { recv: u32, spec: RecvSpec },
    Send { msg: u32, env: Envelope },
    Cancel { recv: u32 },
    Probe { probe: u32, spec: RecvSpec },
    MatchedProbe { probe: u32, spec: RecvSpec },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub name: String,
    pub steps: Vec<Step>,
}

/// The facts of one scenario's run, in a canonical order.
pub type Record = BTreeSet<String>;

fn number(word: &str, line: usize) -> Result<u32, String> {
    word.parse::<u32>().map_err(|_| format!("line {line}: '{word}' is not a number"))
}

fn wildcard(word: &str, line: usize) -> Result<Option<u32>, String> {
    if word == "*" {
        Ok(None)
    } else {
        number(word, line).map(Some)
    }
}

fn spec(w: &[&str], line: usize) -> Result<RecvSpec, String> {
    Ok(RecvSpec::new(number(w[0], line)?, wildcard(w[1], line)?, wildcard(w[2], line)?))
}

/// Parses a scenario script. Errors name the line.
pub fn parse_scenarios(text: &str) -> Result<Vec<Scenario>, String> {
    let mut out = Vec::new();
    let mut current: Option<Scenario> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let words: Vec<&str> = raw.split('#').next().unwrap_or("").split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else { continue };
        if cmd == "scenario" {
            if current.is_some() || args.len() != 1 {
                return Err(format!("line {line}: 'scenario NAME' must follow 'end'"));
            }
            current = Some(Scenario { name: args[0].to_string(), steps: Vec::new() });
            continue;
        }
        let Some(sc) = current.as_mut() else {
            return Err(format!("line {line}: '{cmd}' outside a scenario"));
        };
        let step = match (cmd, args.len()) {
            ("end", 0) => {
                out.push(current.take().expect("inside a scenario"));
                continue;
            }
            ("post", 4) => Step::Post { recv: number(args[0], line)?, spec: spec(&args[1..], line)? },
            ("send", 4) => Step::Send {
                msg: number(args[0], line)?,
                env: Envelope::new(number(args[2], line)?, number(args[1], line)?, number(args[3], line)?),
            },
            ("cancel", 1) => Step::Cancel { recv: number(args[0], line)? },
            ("probe", 4) => Step::Probe { probe: number(args[0], line)?, spec: spec(&args[1..], line)? },
            ("mprobe", 4) => {
                Step::MatchedProbe { probe: number(args[0], line)?, spec: spec(&args[1..], line)? }
            }
            _ => return Err(format!("line {line}: unknown command or wrong field count: '{}'", raw.trim())),
        };
        sc.steps.push(step);
    }
    if let Some(sc) = current {
        return Err(format!("scenario '{}' has no 'end'", sc.name));
    }
    Ok(out)
}

impl Scenario {
    /// The scenario as the operation stream a matcher sees.
    pub fn ops(&self) -> Vec<Op> {
        self.steps
            .iter()
            .map(|s| match *s {
                Step::Post { recv, spec } => Op::PostRecv { recv: RecvId(recv as u64), spec },
                Step::Send { msg, env } => Op::Arrive { msg: MsgId(msg as u64), env },
                Step::Cancel { recv } => Op::Cancel { recv: RecvId(recv as u64) },
                Step::Probe { spec, .. } => Op::Probe { spec },
                Step::MatchedProbe { spec, .. } => Op::MatchedProbe { spec },
            })
            .collect()
    }

    /// Runs the scenario through `matcher` and reduces it to the oracle's facts.
    pub fn record_with(&self, matcher: &mut dyn Matcher) -> Record {
        let mut facts = Record::new();
        let envelopes: HashMap<MsgId, Envelope> = self
            .steps
            .iter()
            .filter_map(|s| match *s {
                Step::Send { msg, env } => Some((MsgId(msg as u64), env)),
                _ => None,
            })
            .collect();
        let mut posted = BTreeSet::new();
        let mut left = BTreeSet::new();
        for (step, op) in self.steps.iter().zip(self.ops()) {
            let outcome = matcher.apply(&op);
            if let Outcome::Matched { recv, msg } = outcome {
                facts.insert(format!("recv {} {}", recv.0, msg.0));
                left.remove(&msg);
                posted.remove(&recv);
            }
            match (step, outcome) {
                (Step::Post { recv, .. }, Outcome::Queued) => {
                    posted.insert(RecvId(*recv as u64));
                }
                (Step::Send { msg, .. }, Outcome::Queued) => {
                    left.insert(MsgId(*msg as u64));
                }
                (Step::Cancel { recv }, Outcome::Cancelled { .. }) => {
                    facts.insert(format!("cancel {recv} ok"));
                    posted.remove(&RecvId(*recv as u64));
                }
                (Step::Cancel { recv }, _) => {
                    facts.insert(format!("cancel {recv} failed"));
                }
                (Step::Probe { probe, .. }, Outcome::Probed(found)) => {
                    facts.insert(match found {
                        Some(m) => format!("probe {probe} {} {}", envelopes[&m].src, envelopes[&m].tag),
                        None => format!("probe {probe} none"),
                    });
                }
                (Step::MatchedProbe { probe, .. }, Outcome::MatchedProbed(found)) => {
                    if let Some(m) = found {
                        left.remove(&m);
                    }
                    facts.insert(match found {
                        Some(m) => format!("mprobe {probe} {}", m.0),
                        None => format!("mprobe {probe} none"),
                    });
                }
                _ => {}
            }
        }
        facts.extend(posted.iter().map(|r| format!("recv {} none", r.0)));
        facts.extend(left.iter().map(|m| format!("left {}", m.0)));
        facts
    }

    /// The golden model's facts for this scenario.
    pub fn golden_record(&self) -> Record {
        self.record_with(&mut Golden::new())
    }
}

/// Parses the oracle's output into facts per scenario, in the order the scenarios ran.
pub fn parse_oracle_output(text: &str) -> Result<BTreeMap<String, Record>, String> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, Record)> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix("scenario ") {
            if current.is_some() {
                return Err(format!("oracle output line {}: scenario without end", i + 1));
            }
            current = Some((name.to_string(), Record::new()));
        } else if let Some(name) = line.strip_prefix("end ") {
            match current.take() {
                Some((n, facts)) if n == name => {
                    out.insert(n, facts);
                }
                _ => return Err(format!("oracle output line {}: unexpected '{line}'", i + 1)),
            }
        } else if let Some((_, facts)) = current.as_mut() {
            facts.insert(line.to_string());
        } else {
            return Err(format!("oracle output line {}: fact outside a scenario: '{line}'", i + 1));
        }
    }
    if let Some((n, _)) = current {
        return Err(format!("oracle output ends inside scenario '{n}'"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_records_a_scenario() {
        let text =
            "# demo\nscenario s\npost 1 0 * 5\npost 2 0 2 *\nsend 1 2 0 5 # from rank 2\nsend 2 3 0 6\n\
                    probe 1 0 * *\ncancel 2\nend\n";
        let sc = parse_scenarios(text).unwrap();
        assert_eq!(sc.len(), 1);
        let facts: Vec<_> = sc[0].golden_record().into_iter().collect();
        assert_eq!(facts, vec!["cancel 2 ok", "left 2", "probe 1 3 6", "recv 1 1"]);
    }

    #[test]
    fn rejects_malformed_scripts_with_the_line() {
        assert!(parse_scenarios("post 1 0 1 1\n").unwrap_err().contains("line 1"));
        assert!(parse_scenarios("scenario a\npost 1 0 x 1\nend\n").unwrap_err().contains("line 2"));
        assert!(parse_scenarios("scenario a\nsend 1 2 3\nend\n").unwrap_err().contains("line 2"));
        assert!(parse_scenarios("scenario a\n").unwrap_err().contains("no 'end'"));
    }

    #[test]
    fn parses_oracle_output() {
        let out = parse_oracle_output("scenario a\nrecv 1 2\nend a\nscenario b\nend b\n").unwrap();
        assert_eq!(out["a"].iter().collect::<Vec<_>>(), vec!["recv 1 2"]);
        assert!(out["b"].is_empty());
        assert!(parse_oracle_output("scenario a\nrecv 1 2\n").is_err());
        assert!(parse_oracle_output("recv 1 2\n").is_err());
    }
}
