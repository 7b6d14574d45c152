//! tagmatch-hdl: rust-hdl modules of the matching engine. Landed so far: the level-1 CAM
//! ([`cam`]), one level-2 linked list in block RAM ([`bram_list`]) and a true dual-port
//! block RAM ([`dual_port_ram`]). The parallel lists, data mover and receive engine follow
//! with the rest of the two-level engine.

pub mod bram_list;
pub mod cam;
pub mod dual_port_ram;
