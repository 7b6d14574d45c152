//! tagmatch-hdl: rust-hdl modules of the matching engine. Landed so far: the level-1 CAM
//! ([`cam`]), one level-2 linked list in block RAM ([`bram_list`]), `n` such lists
//! searched at once with the oldest candidate winning ([`parallel_lists`]), and a true
//! dual-port block RAM ([`dual_port_ram`]). The data mover and the receive engine (PRQ
//! and UMQ behind command and response streams) follow with the rest of the engine.

pub mod bram_list;
pub mod cam;
pub mod dual_port_ram;
pub mod parallel_lists;
