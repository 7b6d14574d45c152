//! Optimistic tag matching in hardware: the thread array ([`thread_array`], its
//! configuration in [`shape`]), its child blocks ([`controller`], [`lane`],
//! [`descriptor_copy`], [`descriptor_table`], [`list_hash`], [`list_ends`],
//! [`list_occupancy`], [`barrier`], [`fast_run`], [`unlink`], [`umq_placement`],
//! [`command_width`], [`walk_order`]), and the fixed-slot CAM that keeps its unexpected
//! messages ([`unexpected_cam`]).

pub mod barrier;
pub mod command_width;
pub mod controller;
pub mod descriptor_copy;
pub mod descriptor_table;
pub mod fast_run;
pub mod lane;
pub mod list_ends;
pub mod list_hash;
pub mod list_occupancy;
pub mod shape;
pub mod thread_array;
pub mod umq_placement;
pub mod unexpected_cam;
pub mod unlink;
mod vectors;
pub mod walk_order;
