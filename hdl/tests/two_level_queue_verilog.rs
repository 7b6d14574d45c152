//! The two-level queue's Verilog lints clean, with no waiver, at a realistic size (64-entry
//! CAM, 4 lists of 255 entries) and with one list.

mod common;
use common::{lint, write_top};
use tagmatch_hdl::two_level::queue::two_level_queue_verilog;

#[test]
fn two_level_queue_lints_clean() {
    lint(&write_top("tlq", &two_level_queue_verilog::<8>(64, 4)), &[]);
    lint(&write_top("tlq1", &two_level_queue_verilog::<4>(8, 1)), &[]);
}
