"""One row of bench/tacos/run.sh: TACOS's answer (the driver's JSON line), commsched's (its
`solve --model bandwidth --size --events` JSON, on the grid file the driver wrote and, where
commsched names the grid, on the named machine) and the lower bound. commsched's figure is its
best checked schedule of the event model, TACOS's own model (docs/spec.md §3.3); the pipeline
formula of the optimum's trees (§3.2) is shown beside it.

Usage: python3 row.py TACOS_JSON NETWORK_JSON FILE_OURS FILE_SECONDS NAMED_OURS NAMED_SECONDS
                      NAMED_TOPOLOGY KIND SIZE BW ALPHA PER
(NAMED_* are "-" where commsched has no named machine for the grid.)

Prints two lines: the Markdown row, then "TACOS_SECONDS OURS_US TACOS_US" for the totals.
commsched's answer is the named machine's where there is one (after checking that its links,
bandwidths and latencies are exactly the file's), else the file's.

The bound is max((M/N)·τ* + α, α·diameter): τ* is the certified bandwidth optimum (the fluid
allgather time per shard), α the least link latency and the diameter in links. Both tools'
models pay at least one link's α after the fluid term (a link that carries a cut's load is busy
α longer than the load needs), and the farthest pair at least α per link between them.
"""

import json
import sys
from collections import deque
from fractions import Fraction

theirs = json.loads(sys.argv[1])
with open(sys.argv[2]) as f:
    net = json.load(f)
kind, size, bw, alpha_text, per = sys.argv[8:13]


def load(path):
    if path == "-":
        return None
    with open(path) as f:
        return json.load(f)


file_ours, named_ours = load(sys.argv[3]), load(sys.argv[5])
file_s = float(sys.argv[4])
named_s = float(sys.argv[6]) if named_ours else None
topology = load(sys.argv[7])

if topology is not None:
    # The named machine must be the driver's grid: node x.y[.z] is TACOS's NPU x + X·y + X·Y·z.
    dims = [int(d) for d in size.split("x")]

    def index(name):
        v, stride = 0, 1
        for c, d in zip(name.split("."), dims):
            v, stride = v + int(c) * stride, stride * d
        return str(v)

    def frac(text):
        p, _, q = str(text).partition("/")
        return Fraction(p) / Fraction(q or 1)

    named_links = {
        (index(l["from"]), index(l["to"])): (frac(l["bandwidth"]), l["latency"])
        for l in topology["links"]
    }
    file_links = {(e["source"], e["target"]): (frac(e["bandwidth"]), e["latency"]) for e in net["edges"]}
    assert named_links == file_links, "the named machine is not the driver's grid"


def estimate(answer):
    if answer is None:
        return "-"
    if answer["status"] != "optimal":
        return answer["status"]
    events = answer["events"]
    assert events["checked"] and answer["size"]["bytes"] == theirs["bytes"]
    rule = "trees" if events["rule"] == "tree-pieces" else (
        "rarest" if "rarest" in events["rule"] else "conditions")
    return f"{events['time_us']:.1f} ({events['pieces_per_rank']}, {rule})"


ours = named_ours if named_ours is not None else file_ours
ours_s = named_s if named_ours is not None else file_s
assert ours["status"] == "optimal", ours["status"]
sized = ours["size"]
ours_us = ours["events"]["time_us"]

out = {}
for e in net["edges"]:
    out.setdefault(e["source"], []).append(e["target"])
alpha = min(e["latency"] for e in net["edges"])


def eccentricity(root):
    dist = {root: 0}
    queue = deque([root])
    while queue:
        u = queue.popleft()
        for v in out.get(u, []):
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    assert len(dist) == len(net["nodes"])
    return max(dist.values())


diameter = max(eccentricity(n["id"]) for n in net["nodes"])
bound = max(sized["bandwidth_us"] + alpha, alpha * diameter)
assert abs(bound - ours["events"]["bound_us"]) <= 1e-6 * bound, "commsched's bound differs"
formula = f"{sized['time_us']:.1f} ({','.join(str(p['chunks']) for p in sized['phases'])})"
tacos_us = theirs["best_us"]
tacos_s = sum(theirs["seconds"]) / len(theirs["seconds"])
print(
    f"| {kind} {size} | {theirs['npus']} | {alpha_text} | {bw} | {per} | {theirs['bytes']} "
    f"| {tacos_us:.1f} | {estimate(named_ours)} | {estimate(file_ours)} | {formula} | {bound:.1f} "
    f"| {tacos_us / ours_us:.3f} | {tacos_s:.4f} | {ours_s:.2f} | {tacos_s / ours_s:.2f} |"
)
print(f"{tacos_s:.6f} {ours_s:.6f} {ours_us:.2f} {tacos_us:.2f}")
