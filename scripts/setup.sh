#!/usr/bin/env bash
# Installs what tagmatch needs on a Debian machine, skipping what is already there:
# Verilator and yosys (hardware checks), Open MPI (the real-MPI oracle), and a Rust
# toolchain check. Safe to run repeatedly.
set -euo pipefail

need=()
command -v verilator >/dev/null || need+=(verilator)
command -v yosys >/dev/null || need+=(yosys)
command -v mpicc.openmpi >/dev/null || need+=(openmpi-bin libopenmpi-dev)
command -v mpirun.openmpi >/dev/null || need+=(openmpi-bin)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)

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
