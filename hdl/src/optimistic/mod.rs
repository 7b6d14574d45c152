//! Optimistic tag matching in hardware: the thread array ([`thread_array`]) and the
//! single-cycle CAM that keeps its unexpected messages ([`single_cycle_cam`]).

pub mod single_cycle_cam;
pub mod thread_array;
