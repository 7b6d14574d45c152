//! Helpers the integration tests share.

use std::collections::BTreeSet;

/// The port names in `module`'s header in `verilog` (one port per line, as the templates
/// write them).
pub fn module_ports(verilog: &str, module: &str) -> BTreeSet<String> {
    let header = &verilog[verilog.find(&format!("module {module}")).unwrap()..];
    let header = &header[..header.find(");").unwrap()];
    header
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("input") || l.starts_with("output"))
        .map(|l| l.trim_end_matches(',').split_whitespace().last().unwrap().to_string())
        .collect()
}
