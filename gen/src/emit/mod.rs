//! The Verilog of each design and its manifest: the receive engine, its CAM alone, the
//! one-sided unit, the thread array, and the engine's self-checking Icarus testbench with
//! its operations as JSON lines for other testbenches.

pub mod cam;
pub mod engine;
pub mod engine_shape;
pub mod onesided;
pub mod testbench;
pub mod thread_array;
pub mod vectors;
