//! No block reads a register's input back (`.d.val()`). In rust-hdl a `DFF`'s `d` is an
//! `In` signal, whose `val()` is its value from before this update pass, while the Verilog
//! it emits reads the value just assigned. So `x.d.next = x.d.val() & mask` masks the
//! register in Verilog but, in rust-hdl's simulator, keeps re-masking the old value: the
//! register never loads. Collect the next value in a `Local` signal instead (its `val()`
//! is the value just assigned), as the lanes' `w_slot` does.

use std::path::Path;

/// Every line under `dir` that reads a register's input back, as "file:line".
fn read_backs(dir: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("hdl/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_backs(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file is readable");
            for (n, line) in text.lines().enumerate() {
                if line.contains(".d.val()") {
                    found.push(format!("{}:{}", path.display(), n + 1));
                }
            }
        }
    }
}

#[test]
fn no_block_reads_a_register_input_back() {
    let mut found = Vec::new();
    read_backs(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(found.is_empty(), "register inputs read back (use a Local signal): {found:?}");
}
