//! tagmatch-hdl: rust-hdl modules of the matching engine. Landed so far: the level-1 CAM
//! ([`cam`]), one level-2 linked list in block RAM ([`bram_list`]), `n` such lists
//! searched at once with the oldest candidate winning ([`parallel_lists`]), the two-level
//! queue with its data mover ([`two_level_queue`]), the receive engine — PRQ and UMQ
//! behind valid/ready command and response streams ([`receive_engine`]) — a true
//! dual-port block RAM ([`dual_port_ram`]), the optimistic matcher's thread array
//! ([`thread_array`]) with its tables banked by list ([`banked_table`]) and its UMQ insert packed onto a ring ([`pack_rotate`]), and the one-sided offload unit: put/get progress, per-window
//! counters, flush and FIN ([`onesided`]). Every emitted design passes through
//! [`trees::isolate_outputs`] (no false loops for Verilator); [`event_safe`] rewrites a
//! design for event-driven simulators (`gen --testbench`).

pub mod banked_table;
pub mod bram_list;
pub mod cam;
pub mod dual_port_ram;
pub mod event_safe;
pub mod field_ram;
pub mod fields;
pub mod onesided;
pub mod pack_rotate;
pub mod parallel_lists;
pub mod receive_engine;
pub mod select;
pub mod single_cycle_cam;
pub mod table_ram;
pub mod thread_array;
pub mod trees;
pub mod two_level_queue;
