//! Power-up garbage for a co-simulation: the design's Verilog rewritten so that every
//! register and every RAM word starts at a pseudo-random value (Verilog's `$random`,
//! deterministic per build) instead of zero. FPGA flip-flops and block RAM usually start
//! cleared, but the hardware rules say nothing may depend on it: after a reset the design
//! must behave as if it had started clean, which a co-simulation of the rewritten design
//! (reset first) checks.
//!
//! The rewrite knows the two shapes of state rust-hdl and our custom blocks emit: a
//! register's `initial begin q = <width>'h<value>; end` (the value becomes `$random`
//! repeated to any width), and a memory `reg [..] name[0:N];` (an `initial` loop fills it).

/// `verilog` with every register's initial value and every memory word made pseudo-random;
/// an error when the text holds neither (the rewrite would test nothing).
pub fn with_power_up_garbage(verilog: &str) -> Result<String, String> {
    let (mut registers, mut memories) = (0, 0);
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 8);
    let mut in_initial = false;
    for line in verilog.lines() {
        let code = line.trim();
        if code == "initial begin" {
            in_initial = true;
        } else if code == "end" {
            in_initial = false;
        } else if in_initial && is_constant_assignment(code) {
            let target = code.split('=').next().expect("split yields one part").trim();
            out.push_str(&format!("       {target} = {{8{{$random}}}};\n"));
            registers += 1;
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if let Some((name, last)) = memory_declaration(code) {
            memories += 1;
            out.push_str(&format!(
                "    integer power_up_{memories};\n    initial for (power_up_{memories} = 0; \
                 power_up_{memories} <= {last}; power_up_{memories} = power_up_{memories} + 1) \
                 {name}[power_up_{memories}] = {{8{{$random}}}};\n"
            ));
        }
    }
    if registers == 0 && memories == 0 {
        return Err("no register initial values and no memories to make random".into());
    }
    Ok(out)
}

/// `q = 16'h0;` and the like: a sized hex constant assigned in an `initial` block.
fn is_constant_assignment(code: &str) -> bool {
    let Some((target, value)) = code.split_once(" = ") else { return false };
    let Some((width, digits)) = value.trim_end_matches(';').split_once("'h") else { return false };
    code.ends_with(';')
        && !target.is_empty()
        && target.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !width.is_empty()
        && width.chars().all(|c| c.is_ascii_digit())
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_hexdigit())
}

/// The name and last word's index of a memory declaration ending `reg [..] name[0:N];`.
fn memory_declaration(code: &str) -> Option<(&str, usize)> {
    let rest = code.strip_suffix("];")?;
    let (head, last) = rest.rsplit_once("[0:")?;
    let (declared, name) = head.rsplit_once(' ')?;
    let is_name = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (is_name && declared.contains("reg ") && declared.ends_with(']')).then_some(())?;
    Some((name, last.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_and_memories_start_random() {
        let verilog = "module m;\n    reg [15:0] q;\n    initial begin\n       q = 16'h0;\n    end\n    \
                       (* ram_style = \"distributed\" *) reg [31:0] mem[0:63];\n    \
                       reg [15:0] bank_1_3[0:7];\n    reg [15:0] x = y[0:3];\nendmodule\n";
        let out = with_power_up_garbage(verilog).unwrap();
        assert!(out.contains("q = {8{$random}};") && !out.contains("16'h0"), "{out}");
        assert!(out.contains("power_up_1 <= 63;") && out.contains("mem[power_up_1] = {8{$random}}"), "{out}");
        assert!(
            out.contains("power_up_2 <= 7;") && out.contains("bank_1_3[power_up_2] = {8{$random}}"),
            "{out}"
        );
        assert!(!out.contains("power_up_3"), "{out}");
        assert!(with_power_up_garbage("module m;\nendmodule\n").is_err());
    }
}
