//! The benchmarks of `tagmatch bench`: preposted latency and unload on software matchers,
//! the cycle model and the RTL; the host driver; sustained throughput; the thread array's
//! message rate; the one-sided unit.

pub mod hardware;
pub mod host;
pub mod model;
pub mod onesided;
pub mod rate;
pub mod software;
pub mod throughput;
