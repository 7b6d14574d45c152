//! tagmatch-hdl: rust-hdl modules of the matching engine (CAM, dual-ported block RAM
//! linked lists, parallel lists, data mover, receive engine). The modules land with the
//! two-level engine; this crate holds the workspace slot the layout promises.
