#!/bin/sh
# A pn-sweep study as one MPI job: mpirun starts a pn-sweep on every task of
# the allocation; rank 0 hands out the runs and writes sweep-mpi.csv, the
# same bytes a single pn-sweep run writes.  pn-sweep must be built with
# Open MPI (pn-sweep --version says "MPI: Open MPI ...").
#   sbatch share/examples/sweep-mpi.sh
# A requeued job goes on where it stopped (--resume).  Outside Slurm:
#   SLURM_NTASKS=4 sh share/examples/sweep-mpi.sh
# (as root, with PN_MPIRUN_FLAGS=--allow-run-as-root).
#SBATCH --job-name=pn-sweep-mpi
#SBATCH --ntasks=16
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
#SBATCH --output=sweep-mpi-%j.log
set -eu
# Open MPI's mpirun takes the nodes from the Slurm allocation; one rank a
# task, one thread a rank
exec mpirun ${PN_MPIRUN_FLAGS:-} -np "${SLURM_NTASKS:-2}" \
    pn-sweep --param warps=8,16,32,64 --param global=4:40:4 \
    --runs "${PN_SWEEP_RUNS:-100}" --count t0 --quiet \
    --resume -o sweep-mpi.csv
