//! One file per subcommand: what it does once its arguments are parsed.

pub mod cosim;
pub mod trace;
