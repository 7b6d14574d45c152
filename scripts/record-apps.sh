#!/usr/bin/env bash
# Records two MPI programs nobody here wrote, from Debian, with `tagmatch record`, and prints
# each trace's queues and its replay through the small engine (CAM 8, 4 lists of 63, whose
# clock is recorded, so the replay has nanoseconds) and then the default engine (cycles):
#   - LAMMPS, its bundled 3-d Lennard-Jones melt (examples/melt/in.melt), 4 ranks;
#   - HPCC, the HPC Challenge suite, its example input shrunk to N = 400, 4 ranks.
# Traces and their JSON reports go to target/record/{lammps,hpcc}/. About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
tm=$PWD/target/release/tagmatch
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun.openmpi -np 4 --oversubscribe)
small=(--cam-depth 8 --lists 4 --list-capacity 256)

work=target/record/work
mkdir -p "$work/lammps" "$work/hpcc"
cp /usr/share/lammps/examples/melt/in.melt "$work/lammps/"
# HPCC reads hpccinf.txt from its working folder: the example, with N = 400 (line 6).
sed '6s/^[0-9]* /400 /' /usr/share/doc/hpcc/examples/_hpccinf.txt > "$work/hpcc/hpccinf.txt"

echo "== LAMMPS: Lennard-Jones melt, 4 ranks, 250 steps =="
(cd "$work/lammps" && $tm record --out ../../lammps --prefix melt "${small[@]}" -- \
    "${mpirun[@]}" lmp -in in.melt -log none -screen none)
$tm trace replay target/record/lammps --matcher engine
echo
echo "== HPCC: HPC Challenge, N = 400, 4 ranks (its results go to $work/hpcc/hpccoutf.txt) =="
(cd "$work/hpcc" && $tm record --out ../../hpcc --prefix hpcc "${small[@]}" -- "${mpirun[@]}" hpcc)
$tm trace replay target/record/hpcc --matcher engine
