//! The receive engine's RTL: its driver ([`engine`]), its co-simulation against the golden
//! and cycle-accurate models ([`cosim`]), and the host driver over it ([`host`]).

pub mod cosim;
pub mod engine;
pub mod host;
