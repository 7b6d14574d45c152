//! tagmatch-testbench: the project's Verilator binding ([`verilator`]) and, as the engine
//! lands, co-simulation of the emitted RTL against the models in `tagmatch-sim`.

pub mod verilator;
