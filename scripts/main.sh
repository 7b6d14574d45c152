#!/usr/bin/env bash
# The main job: set up, generate the default engine's Verilog, then the preposted-latency
# and unload comparisons of the software matchers. (Co-simulation and the RTL/model
# benchmarks join here as they land.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
echo "== the default engine (256-entry CAM, 4 lists, 32,768 list entries) =="
./target/release/tagmatch gen --out target/engine
echo
echo "== preposted latency: entries inspected and ns for the matching message =="
./target/release/tagmatch bench preposted "$@"
echo
echo "== unload: entries inspected and ns to drain the queue newest-first =="
./target/release/tagmatch bench unload "$@"
