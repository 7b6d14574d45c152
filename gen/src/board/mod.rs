//! Boards: the catalog of boards `gen --board` knows ([`catalog`]) and what a board or IP
//! shell build writes beside the engine ([`build`]).

pub mod build;
pub mod catalog;
