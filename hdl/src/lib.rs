//! tagmatch-hdl: rust-hdl modules of the matching engine. Landed so far: the level-1 CAM
//! ([`cam`]). The BRAM linked lists, parallel lists, data mover and receive engine follow
//! with the rest of the two-level engine.

pub mod cam;
