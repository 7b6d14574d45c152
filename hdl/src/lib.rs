//! tagmatch-hdl: rust-hdl modules of the matching engine. Landed so far: the level-1 CAM
//! ([`cam`]) and the true dual-port block RAM ([`dual_port_ram`]) the level-2 lists are
//! built on. The linked lists, parallel lists, data mover and receive engine follow with
//! the rest of the two-level engine.

pub mod cam;
pub mod dual_port_ram;
