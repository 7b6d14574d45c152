#!/usr/bin/env bash
# The main job: set up, then the preposted-latency and unload comparisons.
# (Verilog generation and co-simulation join here as their issues land.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
echo "== preposted latency: entries inspected and ns for the matching message =="
./target/release/tagmatch bench preposted "$@"
echo
echo "== unload: entries inspected and ns to drain the queue newest-first =="
./target/release/tagmatch bench unload "$@"
