//! Verilog text for the logarithmic structures the custom blocks share: a parallel-prefix
//! OR (oldest/lowest set bit in `log2 n` levels instead of a chain of `n` ifs), a
//! one-hot to binary encoder (one balanced OR reduction per index bit), and a balanced
//! expression over any associative operator.

/// Bits of the binary number `largest` (0 for 0): the width a value up to it needs.
pub fn bits_to_hold(largest: usize) -> usize {
    (usize::BITS - largest.leading_zeros()) as usize
}

/// Levels of a tree over `n` leaves: the smallest `l` with `2^l >= n`.
pub fn levels(n: usize) -> usize {
    n.next_power_of_two().trailing_zeros() as usize
}

/// `terms` joined by the associative operator `op` as a balanced tree, `((a op b) op (c
/// op d))` (synthesis keeps the shape it is given); `empty` when there are none.
pub fn balanced(terms: &[String], op: &str, empty: &str) -> String {
    match terms.len() {
        0 => empty.to_string(),
        1 => terms[0].clone(),
        n => format!(
            "({} {op} {})",
            balanced(&terms[..n / 2], op, empty),
            balanced(&terms[n / 2..], op, empty)
        ),
    }
}

/// Declares `wire [n-1:0] {out}` with `out[i] = |{input}[i:0]`: a Kogge–Stone prefix OR
/// of `log2 n` levels, each level one whole-vector shift and OR (one wire per level, so
/// no net feeds itself and a simulator works on words, not bits).
pub fn prefix_or(out: &str, input: &str, n: usize) -> String {
    let l = levels(n);
    let msb = n - 1;
    let mut text = format!("// {out}[i] = |{input}[i:0]: a Kogge-Stone prefix OR of {l} levels.\n");
    text += &format!("wire [{msb}:0] {out}_l0 = {input};\n");
    for k in 0..l {
        let step = 1usize << k;
        text += &format!(
            "wire [{msb}:0] {out}_l{} = {out}_l{k} | {{{out}_l{k}[{}:0], {step}'d0}};\n",
            k + 1,
            n - 1 - step
        );
    }
    text += &format!("wire [{msb}:0] {out} = {out}_l{l};\n");
    text
}

/// Declares `wire [width-1:0] {out}`, the binary index of the set bit of the `n`-bit
/// one-hot `{input}` (0 when none is set); `width` must hold `n - 1`.
pub fn encode_one_hot(out: &str, input: &str, n: usize, width: usize) -> String {
    encode_one_hot_from(out, input, n, width, 0)
}

/// [`encode_one_hot`] with bit `i` standing for `first + i` (0 still when none is set):
/// `first = 1` gives the thread array's pointers, slot + 1.
pub fn encode_one_hot_from(out: &str, input: &str, n: usize, width: usize, first: usize) -> String {
    let largest = n - 1 + first;
    let used = bits_to_hold(largest).max(1).min(width);
    let mut text = format!("wire [{}:0] {out};\n", width - 1);
    for b in 0..used {
        let mask: String =
            (0..n).rev().map(|i| if ((first + i) >> b) & 1 == 1 { '1' } else { '0' }).collect();
        text += &format!("assign {out}[{b}] = |({input} & {n}'b{mask});\n");
    }
    if width > used {
        text += &format!("assign {out}[{}:{used}] = {}'d0;\n", width - 1, width - used);
    }
    text
}

/// Marks every `output reg` of rust-hdl's generated modules `isolate_assignments`.
///
/// rust-hdl writes a module's combinational logic as one `always @(*)` block, so a parent
/// that reads a child's status (`busy`, `done`) and drives its commands (`search`) forms
/// a loop of blocks in Verilator's eyes even where every status comes from registers
/// (UNOPTFLAT: a false loop that costs settle passes every cycle). The attribute gives
/// each output's assignments a block of its own, which reads only what that output
/// depends on; synthesis tools read it as a comment.
pub fn isolate_outputs(verilog: &str) -> String {
    verilog
        .lines()
        .map(|line| match line.trim_start().strip_prefix("output reg ") {
            Some(decl) if decl.ends_with(';') => {
                let indent = &line[..line.len() - line.trim_start().len()];
                format!(
                    "{indent}output reg {} /*verilator isolate_assignments*/;\n",
                    decl.trim_end_matches(';')
                )
            }
            _ => format!("{line}\n"),
        })
        .collect()
}

/// Marks every `reg` of module `top` (a design's own combinational values, not its
/// children's) `isolate_assignments`: the thread array's one `always @(*)` block both
/// drives its read ports' pointers and reads their values, a false loop in Verilator's
/// eyes unless each value gets a block of its own.
pub fn isolate_top_locals(verilog: &str) -> String {
    let mut in_top = false;
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 8);
    for line in verilog.lines() {
        if line.starts_with("module top(") {
            in_top = true;
        } else if line.starts_with("endmodule") {
            in_top = false;
        }
        match line.strip_prefix("    reg ") {
            Some(decl) if in_top && decl.ends_with(';') => {
                out += &format!("    reg {} /*verilator isolate_assignments*/;\n", decl.trim_end_matches(';'))
            }
            _ => {
                out += line;
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_cover_every_leaf() {
        assert_eq!((levels(1), levels(2), levels(3), levels(8), levels(9), levels(256)), (0, 1, 2, 3, 4, 8));
    }

    #[test]
    fn the_prefix_doubles_its_reach_each_level() {
        let text = prefix_or("upto", "mv", 8);
        assert!(text.contains("wire [7:0] upto_l1 = upto_l0 | {upto_l0[6:0], 1'd0};"), "{text}");
        assert!(text.contains("wire [7:0] upto_l3 = upto_l2 | {upto_l2[3:0], 4'd0};"), "{text}");
        assert!(text.contains("wire [7:0] upto = upto_l3;"), "{text}");
        assert!(prefix_or("p", "x", 1).contains("wire [0:0] p = p_l0;"));
    }

    #[test]
    fn only_the_top_modules_regs_are_isolated() {
        let text = "module top(a);\n    reg  [1:0] x;\nendmodule\nmodule top_c(b);\n    reg  y;\nendmodule\n";
        let out = isolate_top_locals(text);
        assert!(out.contains("reg  [1:0] x /*verilator isolate_assignments*/;"), "{out}");
        assert!(out.contains("    reg  y;\n"), "{out}");
    }

    #[test]
    fn the_encoder_masks_select_the_index_bits() {
        let text = encode_one_hot("idx", "first", 4, 3);
        assert!(text.contains("assign idx[0] = |(first & 4'b1010);"), "{text}");
        assert!(text.contains("assign idx[1] = |(first & 4'b1100);"), "{text}");
        assert!(text.contains("assign idx[2:2] = 1'd0;"), "{text}");
    }
}
