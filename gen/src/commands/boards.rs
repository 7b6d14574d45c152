//! `tagmatch boards`: the boards `gen --board` knows, as a table.

use crate::board;
use crate::output::table::{render, Format};

pub fn run(format: Format) -> Result<(), String> {
    print!("{}", render(&board::catalog::records()?, format));
    Ok(())
}
