//! One file per subcommand: what it does once its arguments are parsed.

pub mod bench;
pub mod boards;
pub mod cosim;
pub mod docs;
pub mod gen;
pub mod record;
pub mod trace;
pub mod verify;
pub mod waves;
