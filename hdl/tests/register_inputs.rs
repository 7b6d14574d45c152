//! No block reads a register's input back (`.d.val()`). In rust-hdl a `DFF`'s `d` is an
//! `In` signal, whose `val()` is its value from before this update pass, while the Verilog
//! it emits reads the value just assigned. So `x.d.next = x.d.val() & mask` masks the
//! register in Verilog but, in rust-hdl's simulator, keeps re-masking the old value: the
//! register never loads. Collect the next value in a `Local` signal instead (its `val()`
//! is the value just assigned), as the lanes' `w_slot` does.

mod common;

#[test]
fn no_block_reads_a_register_input_back() {
    let found: Vec<String> = common::hdl_sources()
        .iter()
        .flat_map(|(path, text)| {
            text.lines()
                .enumerate()
                .filter(|(_, line)| line.contains(".d.val()"))
                .map(move |(n, _)| format!("{}:{}", path.display(), n + 1))
        })
        .collect();
    assert!(found.is_empty(), "register inputs read back (use a Local signal): {found:?}");
}
