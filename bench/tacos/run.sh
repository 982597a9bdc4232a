#!/usr/bin/env bash
# commsched against TACOS (astra-sim/tacos, MIT, C++17) on TACOS's own test grids, allgather, in
# one run on one machine: TACOS's estimated collective time, commsched's best checked schedule
# of the same event model at the same size (and the α–β pipeline formula of its certified
# optimum), and the lower bound beside both; and the time each tool took. TACOS is not a dependency: give the path of a checkout of it; it is compiled here with
# plain g++ into a directory of this run only, together with bench/tacos/driver.cpp.
#
#   bench/tacos/run.sh TACOS_CHECKOUT [REPEATS] [SECONDS_PER_TACOS_RUN] [SECONDS_PER_FILE_SOLVE]
#
# Each row is one of TACOS's tests (tests/*.cpp, src/main.cpp) or a larger grid of the same
# kind: KIND SIZE GiB/s LATENCY_us CHUNKS_PER_NPU BUFFER_BYTES [REPEATS]; rows given after the
# four arguments replace the list. The driver builds the grid with
# TACOS's class and writes it as network.json; commsched solves that file, so both tools see the
# same links, bandwidths (GiB/s read as GB/s × 1.073741824) and latencies. TACOS's figure is the
# least of REPEATS solves (20, as in its tests); its time is the mean of one solve. commsched's
# time is its whole process (start-up, the optimum, the checker, the sized time).
set -euo pipefail
cd "$(dirname "$0")/../.."
tacos=$(cd "$1" && pwd)
repeats=${2:-20}
limit=${3:-600}
file_limit=${4:-30}
shift $(( $# >= 4 ? 4 : $# ))
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(
  "mesh2d 4x3 50 0.5 3 12582912"
  "mesh2d 5x5 50 0.5 1 1073741824"
  "mesh2d 10x10 100 1 2 1073741824"
  "mesh2d 7x12 100 1 3 4294967296"
  "mesh2d-hetero 5x5 50,75 0.5 1 1073741824"
  "mesh2d-hetero 8x5 80,35 1 2 1073741824"
  "mesh2d-hetero 7x10 16,73 1.5 3 4294967296"
  "torus3d 3x3x3 50 0.5 1 1073741824"
  "torus3d 3x4x5 50 0.5 2 2147483648"
  "torus3d 4x2x3 50 0.5 3 3221225472"
  "hypercube3d 3x3x3 50 0.5 1 1073741824"
  "hypercube3d 3x4x5 50 0.5 2 2147483648"
  "hypercube3d 4x2x3 50 0.5 3 3221225472"
  "torus2d 8x8 50 0.5 1 1073741824"
  "torus3d 4x4x4 50 0.5 1 1073741824"
  "torus3d 8x8x8 50 0.5 1 1073741824 3"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s.%N)
g++ -std=c++17 -O3 -DNDEBUG -I"$tacos/include" \
  $(find "$tacos/src" -name '*.cpp' ! -name main.cpp) bench/tacos/driver.cpp -o "$work/tacos"
printf 'TACOS compiled (g++ -O3 -DNDEBUG, as its CMake Release build) in %.1f s\n\n' \
  "$(echo "$(date +%s.%N) - $start" | bc)"
cargo build --release --locked -q
printf '| grid | NPUs | α µs | GiB/s | chunks/NPU | M bytes | TACOS µs | commsched µs (C, rule), named | commsched µs (C, rule), file | pipeline formula µs (C) | bound µs | TACOS / ours | TACOS s | commsched s | ratio |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
total_ours=0; total_theirs=0; worse=0
for row in "${rows[@]}"; do
  read -r kind size bw alpha per buffer reps <<<"$row"
  reps=${reps:-$repeats}
  net="$work/network.json"
  status=0
  theirs_json=$(timeout "$limit" "$work/tacos" "$kind" "$size" "$bw" "$alpha" "$per" "$buffer" "$reps" "$net") || status=$?
  if [ "$status" != 0 ]; then
    printf '| %s %s | - | %s | %s | %s | - | did not finish in %s s (exit %s) | - | - | - | - | - | - | - | - | - |\n' \
      "$kind" "$size" "$alpha" "$bw" "$per" "$limit" "$status"
    continue
  fi
  bytes=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["bytes"])' "$theirs_json")
  t0=$(date +%s.%N)
  target/release/commsched --format json solve allgather --network "$net" --model bandwidth \
    --size "$bytes" --events --timeout "$file_limit" >"$work/file.json"
  file_s=$(echo "$(date +%s.%N) - $t0" | bc)
  named=$(python3 bench/tacos/named.py "$kind" "$size" "$bw" "$alpha")
  named_json=-; named_s=0; named_topology=-
  if [ -n "$named" ]; then
    target/release/commsched --format json topology "$named" >"$work/topology.json"
    t0=$(date +%s.%N)
    target/release/commsched --format json solve allgather --network "$named" --model bandwidth \
      --size "$bytes" --events >"$work/named.json"
    named_s=$(echo "$(date +%s.%N) - $t0" | bc)
    named_json="$work/named.json"; named_topology="$work/topology.json"
  fi
  { read -r cells; read -r theirs_s ours_s ours_us tacos_us; } < <(python3 bench/tacos/row.py \
    "$theirs_json" "$net" "$work/file.json" "$file_s" "$named_json" "$named_s" "$named_topology" \
    "$kind" "$size" "$bw" "$alpha" "$per")
  total_ours=$(echo "$total_ours + $ours_s" | bc); total_theirs=$(echo "$total_theirs + $theirs_s" | bc)
  if [ "$(echo "$ours_us > $tacos_us" | bc)" = 1 ]; then worse=$((worse + 1)); fi
  printf '%s\n' "$cells"
done
printf '\nOver all rows: commsched %.2f s, TACOS %.2f s for one solve each (the least of %s solves per row is TACOS'"'"'s figure, fewer where a row says so), ratio %.2f; rows where commsched'"'"'s estimate is above TACOS'"'"'s: %s\n' \
  "$total_ours" "$total_theirs" "$repeats" "$(echo "scale=4; $total_theirs / $total_ours" | bc)" "$worse"
