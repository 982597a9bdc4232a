#!/bin/bash
# The Slurm walk without Slurm: runs the tasks of pareto-array.sbatch one after another with
# the variables Slurm gives an array task, checks that each shard's folders verify on their
# own, runs pareto-merge.sbatch, and compares the joined walk with `pareto` unsharded on the
# same instance: the same points (C, R, S), certificates, frontier marks, refuted (C, R) and
# ends, all but the folders and the times. CI runs it as it is: the DGX-1 allgather, C = 1..3
# in 2 shards.
#
#   scripts/slurm/local.sh          # SHARDS=2 MAX_CHUNKS=3; the other settings as in
#                                   # pareto-array.sbatch (COMMSCHED, COLLECTIVE, NETWORK, METHOD)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${SHARDS:=2}" "${COMMSCHED:=commsched}" "${COLLECTIVE:=allgather}" "${MAX_CHUNKS:=3}"
: "${METHOD:=sat}" "${TIMEOUT:=600}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
WALK="$scratch/walk"
export COMMSCHED COLLECTIVE MAX_CHUNKS METHOD TIMEOUT WALK
network=()
if [ -n "${NETWORK-dgx1}" ]; then network=(--network "${NETWORK-dgx1}"); fi

for ((i = 0; i < SHARDS; i++)); do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$SHARDS bash "$here/pareto-array.sbatch"
  "$COMMSCHED" verify "$WALK/shard-$i" > /dev/null   # exit 1 if any folder of the shard fails
done
bash "$here/pareto-merge.sbatch"
"$COMMSCHED" --format json pareto "$COLLECTIVE" "${network[@]}" --max-chunks "$MAX_CHUNKS" \
  --method "$METHOD" --timeout "$TIMEOUT" > "$scratch/unsharded.json"

python3 - "$WALK/frontier.json" "$scratch/unsharded.json" <<'PY'
import json, sys

def untimed(walk):
    """The walk without its times and folders, the two things sharding changes."""
    walk.pop("seconds")
    for entry in walk["points"] + walk["refuted"]:
        entry.pop("folder")
    return walk

joined, whole = (untimed(json.load(open(f))) for f in sys.argv[1:])
if joined != whole:
    sys.exit(f"the joined walk differs from the unsharded one:\n{joined}\n{whole}")
points = ", ".join(f"({p['chunks']}, {p['rounds']}, {p['steps']})" for p in joined["points"])
print(f"joined walk = unsharded walk: (C, R, S) = {points}")
PY
