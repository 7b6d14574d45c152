//! Optimistic tag matching in hardware: the thread array ([`thread_array`]), its blocks
//! ([`unlink`]), and the fixed-slot CAM that keeps its unexpected messages
//! ([`unexpected_cam`]).

pub mod command_width;
pub mod fast_run;
pub mod list_hash;
pub mod thread_array;
pub mod umq_placement;
pub mod unexpected_cam;
pub mod unlink;
mod vectors;
