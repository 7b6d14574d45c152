//! tagmatch-testbench: the project's Verilator binding ([`verilator`]) and the driver that
//! feeds matching operations to the receive engine's RTL ([`engine`]).

pub mod engine;
pub mod verilator;
