//! No block's `update` is over 300 lines: a longer one is split into child blocks (the
//! thread array's `hdl/src/optimistic/` shows how), so each can be read, linted and
//! synthesized alone. One is still over and may not grow: the receive engine's, 327 lines.

mod common;

const MOST_LINES: usize = 300;
/// Updates still over the limit, each with the length it may not pass.
const STILL_OVER: [(&str, usize); 1] = [("two_level/receive_engine.rs", 327)];

/// Every `fn update` body in the HDL's sources, as (file, first line, lines).
fn updates() -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    for (path, text) in common::hdl_sources() {
        let lines: Vec<&str> = text.lines().collect();
        for (start, line) in lines.iter().enumerate() {
            let Some(indent) = line.find("fn update(&mut self)") else { continue };
            // The body ends at the first closing brace at the signature's indentation.
            let close = format!("{}}}", &line[..indent]);
            let end = lines[start..].iter().position(|l| *l == close).expect("update's closing brace");
            found.push((path.display().to_string(), start + 1, end + 1));
        }
    }
    found
}

#[test]
fn no_update_is_over_300_lines() {
    let found = updates();
    assert!(found.len() > 10, "the scan found the blocks' updates: {found:?}");
    let limit = |file: &str| {
        STILL_OVER.iter().find(|(name, _)| file.ends_with(name)).map_or(MOST_LINES, |(_, most)| *most)
    };
    let long: Vec<_> = found.iter().filter(|(file, _, lines)| *lines > limit(file)).collect();
    assert!(long.is_empty(), "updates over {MOST_LINES} lines: {long:?}");
}
