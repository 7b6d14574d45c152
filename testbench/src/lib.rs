//! tagmatch-testbench: the project's Verilator binding ([`verilator`]), the driver that
//! feeds matching operations to the receive engine's RTL ([`engine`]), random operation
//! streams ([`streams`]), co-simulation against the golden model ([`cosim`]) and the
//! preposted/unload benchmark drivers ([`bench`]).

pub mod bench;
pub mod cosim;
pub mod engine;
pub mod streams;
pub mod verilator;
