//! What drives the models: random operation streams, the preposted and unload benchmarks,
//! and the scenario scripts shared with the real-MPI oracle.

pub mod benchmarks;
pub mod oracle;
pub mod streams;
