//! Optimistic tag matching in hardware: the thread array ([`thread_array`]) and the
//! fixed-slot CAM that keeps its unexpected messages ([`unexpected_cam`]).

pub mod thread_array;
pub mod unexpected_cam;
