//! tagmatch-testbench: the RTL in Verilator, driven by the same operations as the models.
//!
//! - [`verilator`]: the project's Verilator binding (build, cache, step, waveforms);
//! - [`two_level`]: the receive engine's driver ([`two_level::engine`]), its co-simulation
//!   against the golden and cycle-accurate models ([`two_level::cosim`]) and the host driver
//!   over the RTL ([`two_level::host`]);
//! - [`optimistic`]: the same for the optimistic thread array;
//! - [`onesided`]: the one-sided offload unit against its model;
//! - [`power_up`]: power-up garbage for the reset's tests.
//!
//! The benchmark drivers and the random operation streams live in `tagmatch-sim`
//! (`cycle::bench`, `workload::streams`), shared with the model.

pub mod onesided;
pub mod optimistic;
pub mod power_up;
pub mod two_level;
pub mod verilator;
