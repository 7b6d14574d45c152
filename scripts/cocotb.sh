#!/usr/bin/env bash
# The cocotb tests of the IP shells (testbench/cocotb/test_shell.py): writes both shells
# around a small engine (CAM 8, 2 lists of 7 entries, 22 entries a queue, so the queues
# overflow) with `tagmatch gen --testbench --testbench-vectors`, and the vectors of a second
# seed for the stream after the reset; then runs the tests for each shell in Icarus
# Verilog and in Verilator, as many runs at once as there are cores. Verilator runs the
# whole long stream (--ops, 50,000 operations by default); Icarus, at about a quarter of
# Verilator's speed under cocotb, runs its first --icarus-ops (2,000). The pauses are
# seeded, so both simulators must give each response of that common start in the same
# cycle. Prints one line a run, one a shell for that comparison, and a total; exits 1 if
# anything fails. A failed run is run again with WAVES=1 and its waveform is written to
# OUT/SIM-SHELL/waves.fst.
#
#   scripts/cocotb.sh [--out DIR] [--ops N] [--icarus-ops N] [--jobs N]
#                     [--sims "icarus verilator"] [--shells "xilinx intel"]
#
# OUT (--out, default target/cocotb-run) holds gen/ (the Verilog and vectors) and a folder
# a run (SIM-SHELL: log, results.xml, sim_build/). TAGMATCH names the tagmatch binary
# (default target/release/tagmatch, built when missing). Needs what scripts/setup.sh installs: iverilog, verilator, and
# cocotb with cocotbext-axi in target/cocotb.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

out=target/cocotb-run
ops=50000
icarus_ops=2000
jobs=$(nproc)
sims="icarus verilator"
shells="xilinx intel"
while (($#)); do
    case $1 in
    --out) out=$2 ;;
    --ops) ops=$2 ;;
    --icarus-ops) icarus_ops=$2 ;;
    --jobs) jobs=$2 ;;
    --sims) sims=$2 ;;
    --shells) shells=$2 ;;
    *)
        echo "cocotb: unknown argument $1 (see the head of $0)" >&2
        exit 2
        ;;
    esac
    shift 2
done
[[ $out = /* ]] || out=$repo/$out
((icarus_ops <= ops)) || icarus_ops=$ops

venv=$repo/target/cocotb
missing=()
[[ -x $venv/bin/cocotb-config ]] || missing+=("cocotb in $venv")
command -v iverilog >/dev/null || missing+=(iverilog)
command -v verilator >/dev/null || missing+=(verilator)
command -v make >/dev/null || missing+=(make)
if ((${#missing[@]})); then
    echo "cocotb: missing ${missing[*]}: run scripts/setup.sh" >&2
    exit 1
fi
export VIRTUAL_ENV=$venv
export PATH=$venv/bin:$PATH

tm=${TAGMATCH:-$repo/target/release/tagmatch}
if [[ ! -x $tm ]]; then
    echo "cocotb: building $tm" >&2
    cargo build --release --quiet -p tagmatch
fi

# The Verilog and the vectors. Written into gen.new/ and copied into gen/ only where a file
# changed, so a second run reuses the simulators' builds.
engine=(--cam-depth 8 --lists 2 --list-capacity 16 --testbench --testbench-vectors)
rm -rf "$out/gen.new"
for shell in $shells; do
    "$tm" gen --shell "$shell" "${engine[@]}" --testbench-ops "$ops" --testbench-seed 1 \
        --out "$out/gen.new/$shell" 2>/dev/null
done
"$tm" gen "${engine[@]}" --testbench-ops 1000 --testbench-seed 2 --out "$out/gen.new/seed2" 2>/dev/null
for dir in "$out"/gen.new/*; do
    dest=$out/gen/$(basename "$dir")
    mkdir -p "$dest"
    for f in "$dir"/*; do
        cmp -s "$f" "$dest/$(basename "$f")" || cp "$f" "$dest/"
    done
done
rm -rf "$out/gen.new"

# Operations of the long stream SIM runs.
ops_of() {
    if [[ $1 = icarus ]]; then echo "$icarus_ops"; else echo "$ops"; fi
}

# One run: SIM SHELL [make arguments]; its log, results.xml and build in OUT/SIM-SHELL.
run() {
    local sim=$1 shell=$2 dir=$out/$1-$2
    shift 2
    mkdir -p "$dir"
    (cd "$dir" && TAGMATCH_OPS=$(ops_of "$sim") make -f "$repo/testbench/cocotb/Makefile" SIM="$sim" SHELL_KIND="$shell" \
        TAGMATCH_GEN="$out/gen/$shell" TAGMATCH_RESET_VECTORS="$out/gen/seed2/tagmatch_engine_vectors.jsonl" "$@")
}

# "passed failed" from a run's results.xml, or nothing without one.
results() {
    python3 - "$1" <<'EOF'
import sys
import xml.etree.ElementTree as ET
try:
    cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
except (OSError, ET.ParseError):
    sys.exit(0)
cases = list(cases)
failed = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
print(len(cases) - failed, failed)
EOF
}

runs=()
for shell in $shells; do
    for sim in $sims; do
        runs+=("$sim $shell")
    done
done
for r in "${runs[@]}"; do
    read -r sim shell <<<"$r"
    while (($(jobs -rp | wc -l) >= jobs)); do
        wait -n || true
    done
    (
        start=$SECONDS
        rm -f "$out/$sim-$shell/results.xml" "$out/$sim-$shell"/*.cycles
        run "$sim" "$shell" >"$out/$sim-$shell.log" 2>&1 || true
        echo $((SECONDS - start)) >"$out/$sim-$shell.seconds"
    ) &
done
wait

passed=0
failed=0
for r in "${runs[@]}"; do
    read -r sim shell <<<"$r"
    dir=$out/$sim-$shell
    mv "$out/$sim-$shell.log" "$dir/log"
    seconds=$(cat "$out/$sim-$shell.seconds")
    rm -f "$out/$sim-$shell.seconds"
    p='' f=''
    read -r p f <<<"$(results "$dir/results.xml")" || true
    if [[ -z $p ]]; then
        echo "$sim $shell: no results (the build or the simulator failed) in ${seconds} s; log: $dir/log"
        tail -n 15 "$dir/log" | sed 's/^/    /'
        failed=$((failed + 1))
        continue
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if ((f == 0)); then
        # The operations the long stream really ran, as the test logged them.
        ran=$(grep -o 'cycles for [0-9]* operations' "$dir/log" | awk '{ print $3 }' | tail -n 1)
        echo "$sim $shell: $p tests passed in ${seconds} s (${ran:-no} operations in the long stream)"
        continue
    fi
    echo "$sim $shell: $f of $((p + f)) tests failed in ${seconds} s; log: $dir/log"
    grep -E " ERROR |AssertionError: | failed$" "$dir/log" | head -n 12 | sed 's/^ */    /'
    # The same run again (the stream and the pauses are seeded) with a waveform.
    mv "$dir/results.xml" "$dir/results-failed.xml"
    rm -f "$dir/dump.fst"
    run "$sim" "$shell" WAVES=1 SIM_BUILD=sim_build_waves >"$dir/log-waves" 2>&1 || true
    wave=$(ls "$dir"/dump.fst "$dir"/sim_build_waves/*.fst 2>/dev/null | head -n 1 || true)
    if [[ -n $wave ]]; then
        mv "$wave" "$dir/waves.fst"
        echo "    waveform: $dir/waves.fst"
    else
        echo "    no waveform written; log: $dir/log-waves"
    fi
    mv "$dir/results-failed.xml" "$dir/results.xml"
done
# The same stream, pauses and RTL: both simulators must see each response of the stream's
# common start (and of the reset test, the same in both) in the same cycle.
for shell in $shells; do
    a=$out/icarus-$shell b=$out/verilator-$shell
    [[ -f $a/random_stream_in_order.cycles && -f $b/random_stream_in_order.cycles ]] || continue
    same=yes
    for f in random_stream_in_order reset_mid_stream; do
        n=$(wc -l <"$a/$f.cycles")
        head -n "$n" "$b/$f.cycles" | cmp -s "$a/$f.cycles" - || same=no
    done
    if [[ $same = yes ]]; then
        echo "$shell: icarus and verilator give every response in the same cycle"
    else
        echo "$shell: icarus and verilator give responses in different cycles; compare $a/*.cycles with $b/*.cycles"
        failed=$((failed + 1))
    fi
done
echo "cocotb: $passed passed, $failed failed"
((failed == 0))
