//! A user's own operation sequence: JSON lines, one [`Op`] per line in serde's form, e.g.
//!
//! ```text
//! {"PostRecv":{"recv":1,"spec":{"comm":0,"src":null,"tag":7}}}
//! {"Arrive":{"msg":100,"env":{"comm":0,"src":3,"tag":7}}}
//! {"Cancel":{"recv":1}}
//! {"Probe":{"spec":{"comm":0,"src":3,"tag":null}}}
//! {"MatchedProbe":{"spec":{"comm":0,"src":null,"tag":null}}}
//! "Flush"
//! ```
//!
//! (`null` is `MPI_ANY_SOURCE` / `MPI_ANY_TAG`.) Blank lines and lines starting with `#`
//! are skipped. `"Flush"` empties both queues. The sequence must name live receives and
//! messages by distinct handles, as every engine assumes; [`check_handles`] says where it
//! does not.

use crate::model::golden::Golden;
use crate::model::matcher::Matcher;
use crate::model::ops::{Op, Outcome};
use std::collections::HashSet;
use std::io::BufRead;
use std::path::Path;

/// Reads a JSON-lines operation file.
pub fn read_ops(path: &Path) -> Result<Vec<Op>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut ops = Vec::new();
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: line {}: {e}", path.display(), n + 1))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let op = serde_json::from_str::<Op>(text).map_err(|e| {
            format!("{}: line {}: not an operation ({e}); expected e.g. {}", path.display(), n + 1, EXAMPLE)
        })?;
        ops.push(op);
    }
    if ops.is_empty() {
        return Err(format!("{}: no operations", path.display()));
    }
    check_handles(&ops).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(ops)
}

const EXAMPLE: &str = r#"{"PostRecv":{"recv":1,"spec":{"comm":0,"src":null,"tag":7}}}"#;

/// Checks that no receive is posted while another live receive has its handle, and no
/// message arrives while a queued message has its handle.
pub fn check_handles(ops: &[Op]) -> Result<(), String> {
    let mut golden = Golden::new();
    let (mut recvs, mut msgs) = (HashSet::new(), HashSet::new());
    for (i, op) in ops.iter().enumerate() {
        match *op {
            Op::PostRecv { recv, .. } if recvs.contains(&recv) => {
                return Err(format!("operation {} posts receive {} while it is still posted", i + 1, recv.0));
            }
            Op::Arrive { msg, .. } if msgs.contains(&msg) => {
                return Err(format!(
                    "operation {} delivers message {} while it is still queued",
                    i + 1,
                    msg.0
                ));
            }
            _ => {}
        }
        match (golden.apply(op), *op) {
            (Outcome::Queued, Op::PostRecv { recv, .. }) => {
                recvs.insert(recv);
            }
            (Outcome::Queued, Op::Arrive { msg, .. }) => {
                msgs.insert(msg);
            }
            (Outcome::Matched { recv, msg }, _) => {
                recvs.remove(&recv);
                msgs.remove(&msg);
            }
            (Outcome::Cancelled { recv }, _) => {
                recvs.remove(&recv);
            }
            (Outcome::MatchedProbed(Some(msg)), _) => {
                msgs.remove(&msg);
            }
            (Outcome::Flushed, _) => {
                recvs.clear();
                msgs.clear();
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::envelope::{Envelope, MsgId, RecvId, RecvSpec};

    /// A file holding `text`, unique to this process and call.
    fn file(text: &str) -> std::path::PathBuf {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("tagmatch-ops-{}-{n}.jsonl", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn reads_the_documented_form() {
        let f = file(
            "# a receive, a message, a probe\n\n\
             {\"PostRecv\":{\"recv\":1,\"spec\":{\"comm\":0,\"src\":null,\"tag\":7}}}\n\
             {\"Arrive\":{\"msg\":100,\"env\":{\"comm\":0,\"src\":3,\"tag\":7}}}\n\
             {\"Probe\":{\"spec\":{\"comm\":0,\"src\":3,\"tag\":null}}}\n",
        );
        assert_eq!(
            read_ops(&f).unwrap(),
            vec![
                Op::PostRecv { recv: RecvId(1), spec: RecvSpec::new(0, None, Some(7)) },
                Op::Arrive { msg: MsgId(100), env: Envelope::new(0, 3, 7) },
                Op::Probe { spec: RecvSpec::new(0, Some(3), None) },
            ]
        );
    }

    #[test]
    fn bad_lines_and_reused_handles_are_named() {
        let e = read_ops(&file("{\"Cancel\":{\"recv\":1}}\n{\"Post\":1}\n")).unwrap_err();
        assert!(e.contains("line 2: not an operation"), "{e}");
        let twice = "{\"PostRecv\":{\"recv\":4,\"spec\":{\"comm\":0,\"src\":1,\"tag\":1}}}\n";
        let e = read_ops(&file(&format!("{twice}{twice}"))).unwrap_err();
        assert!(e.contains("operation 2 posts receive 4 while it is still posted"), "{e}");
        // After a flush the handle is free again.
        let ops = read_ops(&file(&format!("{twice}\"Flush\"\n{twice}"))).unwrap();
        assert_eq!(ops[1], Op::Flush);
        assert!(read_ops(&file("\n# nothing\n")).unwrap_err().contains("no operations"));
    }
}
