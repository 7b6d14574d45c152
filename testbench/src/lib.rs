//! tagmatch-testbench: the project's Verilator binding and the co-simulation of emitted
//! RTL against the models in `tagmatch-sim`. It lands with the two-level engine; this crate
//! holds the workspace slot the layout promises.
