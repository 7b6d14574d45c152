//! The open ECP5 timing flow: synthesis and place and route ([`timing`], run from there in
//! `timing_*`: the tools, synthesis, place and route, the report), its records
//! ([`record`]), the pre-flow estimate, the netlist's depth and cost, and nextpnr's router:
//! which one, its progress, and what congests it.

pub mod budget;
pub mod estimate;
pub mod netlist_cost;
pub mod netlist_depth;
pub mod record;
pub mod router_choice;
pub mod router_congestion;
pub mod router_progress;
pub mod settings;
pub mod timing;
pub mod timing_place_route;
pub mod timing_report;
pub mod timing_synthesis;
pub mod timing_tools;
