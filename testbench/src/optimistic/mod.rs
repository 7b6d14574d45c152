//! The optimistic thread array's RTL: its driver ([`thread_array`]) and its co-simulation
//! against the golden and cycle-accurate models ([`cosim`]).

pub mod cosim;
pub mod thread_array;
