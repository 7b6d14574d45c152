//! tagmatch-testbench: the project's Verilator binding ([`verilator`]), the driver that
//! feeds matching operations to the receive engine's RTL ([`engine`]) and co-simulation
//! against the golden model and the cycle-accurate model ([`cosim`]), the host driver over
//! the RTL ([`host_cosim`]), the one-sided offload unit against its model ([`onesided`]); the same for the
//! optimistic thread array ([`thread_array`], [`thread_array_cosim`]), and power-up garbage
//! for the reset's tests ([`power_up`]). The benchmark
//! drivers and the random operation streams live in `tagmatch-sim` (`cycle::bench`,
//! `streams`), shared with the model.

pub mod cosim;
pub mod engine;
pub mod host_cosim;
pub mod onesided;
pub mod power_up;
pub mod thread_array;
pub mod thread_array_cosim;
pub mod verilator;
