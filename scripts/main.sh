#!/usr/bin/env bash
# The main job: set up, generate the default engine's Verilog and its IP core (the AXI4-Stream
# shell and Vivado packaging), co-simulate the engine's RTL against the golden model and the
# cycle model (also with flushes and 6-bit labels that wrap; and, in Icarus Verilog, the small
# engine's self-checking testbench), then the preposted-latency and unload
# benchmarks: on the cycle model (lists 1, 4, 64 to depth 30,000, with the baselines), on
# the RTL (Verilator; lists 1, 4, 64 to depth 2,000) and on the software matchers; the
# sustained throughput with commands streamed back to back (model, and the RTL); then the
# optimistic thread array: its Verilog, a co-simulation, and the message-rate benchmark;
# the host driver, the completion unit, the one-sided unit; and two real MPI programs
# (LAMMPS, HPCC) recorded by `tagmatch record` and replayed through the engine.
# Tables go to stdout, SVG plots to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
tm=./target/release/tagmatch
mkdir -p out
echo "== the default engine (256-entry CAM, 4 lists, 32,768 list entries) =="
$tm gen --out out/engine
echo
echo "== the default engine as an IP core: AXI4-Stream shell, out-of-context XDC, Vivado packaging script =="
$tm gen --shell xilinx --out out/ip-axis
echo
echo "== co-simulation: 20,000 random operations, RTL against the golden and cycle models =="
$tm cosim --lists 4 --ops 20000 --seed 1
echo
echo "== the same with a flush every ~2,000 operations and 6-bit posting labels that wrap =="
$tm cosim --lists 4 --ops 20000 --seed 2 --flush-every 2000 --label-bits 6
echo
echo "== a second simulator: the small engine's self-checking testbench in Icarus Verilog =="
$tm gen --cam-depth 8 --lists 4 --list-capacity 256 --testbench --out out/small
(cd out/small && iverilog -g2005 -o tb.vvp tagmatch_engine_tb.v tagmatch_engine.v && vvp tb.vvp | tee tb.log)
grep -q '^PASS' out/small/tb.log
for bench in preposted unload; do
    echo
    echo "== $bench on the cycle model, beside the baselines' cost models: cycles =="
    $tm bench "$bench" --backend model --plot "out/$bench-model.svg"
    echo
    echo "== $bench on the RTL in Verilator: cycles (first run builds three engines, minutes) =="
    $tm bench "$bench" --backend rtl --plot "out/$bench-rtl.svg"
    echo
    echo "== $bench on the software matchers: entries inspected and ns =="
    $tm bench "$bench"
done
echo
echo "== sustained throughput, commands streamed back to back: cycles and ns per operation =="
$tm bench throughput --backend model
$tm bench throughput --backend rtl --lists 4
echo
echo "== the optimistic thread array (16 lanes, 128 receive descriptors) =="
$tm gen --engine optimistic --threads 16 --out out/thread-array
echo
echo "== co-simulation: the 4-lane thread array (small tables) against the golden and cycle models =="
$tm cosim --engine optimistic --threads 4 --ops 20000 --seed 1
echo
echo "== message rate (optimistic tag matching): thread array model, beside the two-level engine =="
$tm bench rate --plot out/rate.svg
echo
echo "== unbounded matching: the host driver over a 16-entry engine's RTL, 20,000 operations, both modes =="
$tm cosim --host fallback --cam-depth 4 --lists 4 --list-capacity 16 --ops 20000 --seed 1
$tm cosim --host split --delay 4 --cam-depth 4 --lists 4 --list-capacity 16 --ops 20000 --seed 1
echo
echo "== past the default engine's 33,020 entries: preposted and unload through the host driver (cycle model) =="
$tm bench preposted --backend model --host fallback --depths 1000,33020,40000
$tm bench unload --backend model --host fallback --depths 1000,33020,40000
echo
echo "== the completion unit: preposted with a wait, to the match and to the wait's answer =="
$tm bench preposted --backend model --wait --lists 4 --depths 1,257,1000
echo
echo "== one-sided offload: the unit against its model, then overlap against a host-progressed baseline =="
$tm gen --engine onesided --out out/onesided
$tm cosim --engine onesided --ops 20000 --seed 1
$tm bench onesided --backend model --plot out/onesided-overlap.svg
echo
echo "== recording real MPI programs (LAMMPS, HPCC) with tagmatch record, replayed through the engine =="
bash scripts/record-apps.sh
echo
echo "plots: out/{preposted,unload}-{model,rtl}.svg, out/rate.svg, out/onesided-overlap.svg (add --format csv|json for scripts)"
