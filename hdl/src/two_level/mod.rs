//! The two-level receive engine (FPL 2018): a level-1 CAM ([`cam`]) in front of linked lists
//! in dual-ported block RAM ([`bram_list`]), `n` of them searched at once with the oldest
//! candidate winning ([`parallel_lists`]), joined by a data mover into one queue
//! ([`queue`]), and the engine ([`receive_engine`]): the PRQ and the UMQ behind valid/ready
//! command and response streams, with the completion unit.

pub mod bram_list;
pub mod cam;
pub mod cam_match;
pub mod cam_rtl;
pub mod parallel_lists;
pub mod queue;
pub mod receive_engine;
