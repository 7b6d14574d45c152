#!/usr/bin/env bash
# What recording costs: a ping-pong and a one-way message-rate loop of 100,000 messages
# between 2 ranks (recorder/bench/overhead.c), each run 5 times alone, under
# `tagmatch record`, and under `tagmatch record --no-cpu-times`. Prints the median
# microseconds per message (per round trip for the ping-pong) and the ratio to the run
# alone, as CSV.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
tm=$PWD/target/release/tagmatch
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=target/record/overhead
mkdir -p "$work"
mpicc.openmpi -O2 -Wall -Wextra -Werror -o "$work/overhead" recorder/bench/overhead.c
messages=100000
runs=5

# The median of the fourth field (microseconds per message) of `runs` runs of a command.
median() {
    for _ in $(seq $runs); do "$@" 2>/dev/null | awk '$1 == "pingpong" || $1 == "rate" { print $4 }'; done |
        sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "loop,messages,alone_us,recorded_us,recorded_no_cpu_times_us,recorded_ratio,no_cpu_times_ratio"
for loop in pingpong rate; do
    run=(mpirun.openmpi -np 2 "$work/overhead" "$loop" "$messages")
    alone=$(median "${run[@]}")
    recorded=$(median "$tm" record --out "$work/trace" --format json -- "${run[@]}")
    no_cpu=$(median "$tm" record --out "$work/trace" --format json --no-cpu-times -- "${run[@]}")
    awk -v l="$loop" -v m="$messages" -v a="$alone" -v r="$recorded" -v n="$no_cpu" \
        'BEGIN { printf "%s,%d,%.3f,%.3f,%.3f,%.1f,%.1f\n", l, m, a, r, n, r / a, n / a }'
done
