#!/bin/sh
# A pn-sweep study as a Slurm job array: each array task runs one shard of
# the grid (pn-sweep --shard K/N), resumable if the task is requeued.
#   sbatch share/examples/sweep-slurm.sh
# and once every task is done, the shards as one file (the same bytes a
# single pn-sweep run writes):
#   pn-sweep --merge sweep-shard-*.csv -o sweep.csv
#SBATCH --job-name=pn-sweep
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=sweep-%A_%a.log
set -eu
N=${SLURM_ARRAY_TASK_COUNT:-8}
K=${SLURM_ARRAY_TASK_ID:-0}
pn-sweep --param warps=8,16,32,64 --param global=4:40:4 \
    --runs "${PN_SWEEP_RUNS:-100}" --count t0 --quiet \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$K/$N" \
    --resume -o "sweep-shard-$K.csv"
