#!/usr/bin/env bash
# commsched against ForestColl's own code (liangyuRain/ForestColl, Apache-2.0, Python and
# networkx), allgather on the same fabrics, in one run on one machine: both optima, whether
# they agree, and the time of each. ForestColl is not a dependency: give the path of a checkout
# of it; networkx is installed into a virtual environment of this run only.
#
#   bench/forestcoll/run.sh FORESTCOLL_CHECKOUT [SECONDS_PER_RUN] [MACHINE ...]
#
# commsched's time is its whole process (start-up, the optimum, the checker, writing the
# certificate folder); ForestColl's is its `optimal_pipeline_spanning_trees` call alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
forestcoll=$(cd "$1" && pwd)
limit=${2:-600}
shift $(( $# >= 2 ? 2 : $# ))
machines=("$@")
if [ ${#machines[@]} -eq 0 ]; then
  machines=(ndv2x2 ndv2x4 dgx2x2 a100x2 a100x4 mi250x2 mesh2d:4x4 torus3d:4x4x4 rail:4x8 rail:16x8 torus3d:6x6x6)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q networkx
cargo build --release --locked -q
printf '| machine | GPUs | commsched algbw | ForestColl algbw | equal | commsched s | ForestColl s | ratio |\n'
printf '|---|---|---|---|---|---|---|---|\n'
total_ours=0; total_theirs=0
for m in "${machines[@]}"; do
  cert="$work/$(echo "$m" | tr ':' '_')"
  start=$(date +%s.%N)
  target/release/commsched --format json solve allgather --network "$m" --model bandwidth --certificate "$cert" >"$work/ours.json"
  ours_s=$(echo "$(date +%s.%N) - $start" | bc)
  read -r ours n < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["algbw"], d["compute_nodes"])' "$work/ours.json")
  status=0
  theirs_json=$(timeout "$limit" "$work/venv/bin/python" bench/forestcoll/driver.py "$forestcoll" "$cert/network.json") || status=$?
  if [ "$status" = 0 ]; then
    read -r theirs theirs_s < <(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["algbw"], d["seconds"])' "$theirs_json")
    equal=$(python3 -c 'import sys; a,b=map(float,sys.argv[1:]); print("yes" if abs(a-b) <= 1e-6*a else "NO")' "$ours" "$theirs")
    ratio=$(echo "scale=1; $theirs_s / $ours_s" | bc)
    total_ours=$(echo "$total_ours + $ours_s" | bc); total_theirs=$(echo "$total_theirs + $theirs_s" | bc)
    printf '| %s | %s | %.3f | %.3f | %s | %.2f | %.2f | %s |\n' "$m" "$n" "$ours" "$theirs" "$equal" "$ours_s" "$theirs_s" "$ratio"
  elif [ "$status" = 124 ]; then
    printf '| %s | %s | %.3f | did not finish in %s s | - | %.2f | > %s | - |\n' "$m" "$n" "$ours" "$limit" "$ours_s" "$limit"
  else
    printf '| %s | %s | %.3f | failed (exit %s) | - | %.2f | - | - |\n' "$m" "$n" "$ours" "$status" "$ours_s"
  fi
done
if [ "$(echo "$total_ours > 0" | bc)" = 1 ]; then
  printf '\nOver the rows both finished: commsched %.2f s, ForestColl %.2f s, ratio %s\n' \
    "$total_ours" "$total_theirs" "$(echo "scale=1; $total_theirs / $total_ours" | bc)"
fi
