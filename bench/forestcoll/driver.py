"""Runs ForestColl's own optimiser on a fabric that commsched wrote (a certificate folder's
network.json): prints one JSON line with its algbw, its tree count and the seconds its
`optimal_pipeline_spanning_trees` took (imports and file reading excluded).

Usage: python driver.py FORESTCOLL_CHECKOUT NETWORK_JSON
"""

import json
import sys
import time

sys.path.insert(0, sys.argv[1])
import networkx as nx  # noqa: E402
from pipeline_allgather import optimal_pipeline_spanning_trees  # noqa: E402

with open(sys.argv[2]) as f:
    doc = json.load(f)
graph = nx.DiGraph()
compute = []
for node in doc["nodes"]:
    graph.add_node(node["id"])
    if node.get("kind", "compute") == "compute":
        compute.append(node["id"])
for edge in doc["edges"]:
    bandwidth = edge["bandwidth"]
    if isinstance(bandwidth, str):
        p, _, q = bandwidth.partition("/")
        bandwidth = int(p) / int(q or 1)
    graph.add_edge(edge["source"], edge["target"], capacity=bandwidth)

start = time.perf_counter()
(U, k), (Ts, Cs) = optimal_pipeline_spanning_trees(graph, compute_nodes=compute)
seconds = time.perf_counter() - start
print(json.dumps({"algbw": len(compute) * k / U, "trees": len(Ts), "seconds": seconds}))
