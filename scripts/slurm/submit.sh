#!/bin/bash
# Submits a sharded Pareto walk: SHARDS tasks of pareto-array.sbatch, then pareto-merge.sbatch,
# which Slurm starts once every task has succeeded (afterok). The walk's settings are the
# environment's, as pareto-array.sbatch lists them; for example
#   SHARDS=8 MAX_CHUNKS=16 NETWORK=amd8 WALK=/scratch/$USER/amd8 scripts/slurm/submit.sh
set -euo pipefail

here=$(dirname "$0")
: "${SHARDS:=6}"
job=$(sbatch --parsable --export=ALL --array=0-$((SHARDS - 1)) "$here/pareto-array.sbatch")
sbatch --export=ALL --dependency=afterok:"${job%%;*}" "$here/pareto-merge.sbatch"
