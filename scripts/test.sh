#!/usr/bin/env bash
# Every test: set up, formatting and lint gates, then the whole workspace's tests
# (unit, property, real-MPI oracle). Release mode: the property tests run many streams.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --release 2>&1 | tee "$log"
# One closing line for the whole workspace (cargo prints one per test binary).
awk '/^test result:/ { p += $4; f += $6 } END { printf "workspace: %d passed, %d failed\n", p, f }' "$log"
