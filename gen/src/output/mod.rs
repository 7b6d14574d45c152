//! What a person or a script reads: tables and CSV/JSON ([`table`]), SVG plots ([`plot`]),
//! progress on a terminal ([`progress`]).

pub mod plot;
pub mod progress;
pub mod table;
