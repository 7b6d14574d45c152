//! Makes rust-hdl's combinational blocks safe for event-driven simulators (Icarus
//! Verilog, Questa, xsim), without changing what they compute.
//!
//! rust-hdl writes a module's combinational logic as one `always @(*)` block in which a
//! signal first takes a default and is then overridden (`search = 1'b0; ... if (go)
//! search = 1'b1;`). Each blocking assignment that changes a value is an event, so one
//! pass of the block can toggle a signal 1, 0, 1 and wake every block that reads it,
//! though its value ends where it started. A parent and a child that read each other's
//! signals (the engine reads a queue's `done`, the queue reads the engine's `search`)
//! then wake each other for ever within one time step: the simulation hangs at the first
//! clock edge where such a toggle happens. Verilator, which evaluates the design as a
//! whole each cycle, never sees the toggles.
//!
//! The cure: every signal a block assigns is computed in a shadow register private to
//! the block (`name__settle`), and copied to the real signal once, at the end. A signal
//! then changes at most once per pass, and only when its value does; blocks that read it
//! wake only for real changes, and a loop of blocks that is not a combinational loop
//! settles. rust-hdl's blocks assign every signal before reading it (it refuses latches),
//! so a shadow needs no starting value. Shadows of outputs Verilator isolates keep the
//! attribute (`trees::isolate_outputs`), so Verilator still sees no false loop.

use std::collections::{HashMap, HashSet};

/// The suffix of a shadow register.
const SHADOW: &str = "__settle";

/// A `reg` declaration: (name, the type between `reg` and the name, isolated).
fn reg_declaration(line: &str) -> Option<(&str, &str, bool)> {
    let t = line.trim();
    let rest = t.strip_prefix("output reg ").or_else(|| t.strip_prefix("reg "))?.trim_start();
    let (ty, rest) = match rest.strip_prefix('[') {
        Some(r) => {
            let close = r.find(']')?;
            (&rest[..close + 2], r[close + 1..].trim_start())
        }
        None => ("", rest),
    };
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let name = &rest[..end];
    let tail = &rest[end..];
    if name.is_empty() || !tail.trim_end().ends_with(';') {
        return None;
    }
    Some((name, ty, tail.contains("isolate_assignments")))
}

/// The signal a statement assigns (`name = ...;`), if it is an assignment.
fn assigned(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, rest) = t.split_at(end);
    let first = name.chars().next()?;
    (first.is_ascii_alphabetic() || first == '_')
        .then_some(())
        .filter(|_| rest.starts_with(" = ") || (rest.starts_with(" =") && !rest.starts_with(" ==")))
        .map(|_| name)
}

/// The identifiers of `line` as byte ranges, leaving out those inside a sized literal
/// (the `h0` of `32'h0`).
fn identifier_spans(line: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = line.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if !(start > 0 && (bytes[start - 1] == b'\'' || bytes[start - 1].is_ascii_digit())) {
                    return Some((start, i));
                }
            } else {
                i += 1;
            }
        }
        None
    })
}

/// `line` with every identifier in `names` renamed to its shadow.
fn rename(line: &str, names: &HashSet<&str>) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut copied = 0;
    for (start, end) in identifier_spans(line) {
        if names.contains(&line[start..end]) {
            out.push_str(&line[copied..end]);
            out.push_str(SHADOW);
            copied = end;
        }
    }
    out.push_str(&line[copied..]);
    out
}

/// `verilog` (rust-hdl's output) with every module-level `always @(*)` block rewritten
/// to assign each of its signals once; see the module docs. A signal that nothing outside
/// its block reads (a rust-hdl `Local` used only there) wakes nobody and keeps its name.
pub fn settle_once(verilog: &str) -> String {
    let lines: Vec<&str> = verilog.lines().collect();
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 4);
    let mut start = 0;
    while start < lines.len() {
        let end =
            (start..lines.len()).find(|&k| lines[k].starts_with("endmodule")).unwrap_or(lines.len() - 1);
        settle_module(&lines[start..=end], &mut out);
        start = end + 1;
    }
    out
}

/// How often each identifier is used in `lines`, declarations aside.
fn uses<'a>(lines: &[&'a str]) -> HashMap<&'a str, usize> {
    let mut n: HashMap<&str, usize> = HashMap::new();
    for l in lines.iter().filter(|l| reg_declaration(l).is_none()) {
        for id in identifier_spans(l).map(|(a, b)| &l[a..b]) {
            *n.entry(id).or_default() += 1;
        }
    }
    n
}

/// One module's lines (through `endmodule`), rewritten into `out`.
fn settle_module(lines: &[&str], out: &mut String) {
    let mut declared: HashMap<&str, (&str, bool, bool)> = HashMap::new();
    for l in lines {
        if let Some((name, ty, isolated)) = reg_declaration(l) {
            declared.insert(name, (ty, isolated, l.trim_start().starts_with("output ")));
        }
    }
    // The module's combinational blocks: (first line, closing line).
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] == "    always @(*) begin" {
            if let Some(end) = (i + 1..lines.len()).find(|&k| lines[k] == "    end") {
                blocks.push((i, end));
                i = end;
            }
        }
        i += 1;
    }
    let total = uses(lines);
    let mut next = 0;
    for &(first, end) in &blocks {
        for l in &lines[next..first] {
            out.push_str(l);
            out.push('\n');
        }
        let body = &lines[first + 1..end];
        let inside = uses(body);
        let mut order: Vec<&str> = Vec::new();
        let mut names: HashSet<&str> = HashSet::new();
        for name in body.iter().filter_map(|l| assigned(l)) {
            let Some(&(_, _, output)) = declared.get(name) else { continue };
            let read_elsewhere = total.get(name) > inside.get(name);
            if (output || read_elsewhere) && names.insert(name) {
                order.push(name);
            }
        }
        for name in &order {
            let (ty, isolated, _) = declared[name];
            let attribute = if isolated { " /*verilator isolate_assignments*/" } else { "" };
            let ty = if ty.is_empty() { String::new() } else { format!("{ty} ") };
            out.push_str(&format!("    reg {ty}{name}{SHADOW}{attribute};\n"));
        }
        out.push_str(lines[first]);
        out.push('\n');
        for l in body {
            out.push_str(&rename(l, &names));
            out.push('\n');
        }
        for name in &order {
            out.push_str(&format!("        {name} = {name}{SHADOW};\n"));
        }
        out.push_str(lines[end]);
        out.push('\n');
        next = end + 1;
    }
    for l in &lines[next..] {
        out.push_str(l);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_assigns_each_signal_once_at_its_end() {
        let v = "module m(a, y);\n    input wire a;\n    output reg [3:0] y /*verilator isolate_assignments*/;\n    \
                 reg  go;\n    reg  only_here;\n    always @(*) begin\n        go = 1'b0;\n        only_here = a;\n        \
                 if (only_here) begin\n            go = 1'b1;\n        end\n        y = go ? 4'h1 : 4'h0;\n    end\n    \
                 child c(.go(go));\nendmodule\n";
        let s = settle_once(v);
        assert!(s.contains("    reg go__settle;\n"), "{s}");
        assert!(s.contains("    reg [3:0] y__settle /*verilator isolate_assignments*/;\n"), "{s}");
        assert!(s.contains("            go__settle = 1'b1;\n"), "{s}");
        assert!(s.contains("        y__settle = go__settle ? 4'h1 : 4'h0;\n"), "{s}");
        assert!(s.contains("        go = go__settle;\n        y = y__settle;\n    end\n"), "{s}");
        // Read by nothing outside the block: no shadow, so no unused signal.
        assert!(s.contains("        only_here = a;\n") && !s.contains("only_here__settle"), "{s}");
        // Literals keep their digits and radix letters.
        assert_eq!(rename("x = 32'h0 + h0;", &HashSet::from(["h0", "x"])), "x__settle = 32'h0 + h0__settle;");
    }

    #[test]
    fn comparisons_are_not_assignments() {
        assert_eq!(assigned("        if (a == b) begin"), None);
        assert_eq!(assigned("        state_d = state_q;"), Some("state_d"));
        assert_eq!(assigned("        end"), None);
    }
}
