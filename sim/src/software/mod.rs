//! The software matchers the hardware is measured against, and building one by name.

pub mod arena_list;
pub mod four_index;
pub mod hash_bins;
pub mod linked_list;
pub mod matchers;
pub mod partner;
pub mod rank_based;
