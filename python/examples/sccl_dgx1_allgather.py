"""SCCL's DGX-1 allgather notebook in a few lines: the latency-bandwidth frontier of
(steps, rounds, chunks) points, each certified with the SAT backend; what the bandwidth model
says of message sizes; then a frontier point as MSCCL XML.

    python python/examples/sccl_dgx1_allgather.py [OUT_DIR]
"""

import sys
import tempfile
from pathlib import Path

import commsched

out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="sccl-dgx1-"))

# 1. The frontier: for C = 1..6 chunks the least rounds R, then the least steps S within R,
#    each with a certificate folder that `verify` re-checks from its files alone.
frontier = commsched.pareto("allgather", network="dgx1", max_chunks=6, method="sat", certificate=out / "frontier")
print(f"R/C >= {frontier.bound} ({frontier.bound_name}), {frontier.seconds:.1f} s")
print("   C   R   S  R/C  frontier  certificate")
for p in frontier.points:
    print(f"{p.chunks:4}{p.rounds:4}{p.steps:4}  {p.rounds_per_chunk:<4} {str(p.pareto):<9} {p.certificate}")
print("certificates:", "valid" if commsched.verify(out / "frontier") else "INVALID")

# 2. Time per size. There is no tuner for the (S, R, C) points yet; what exists is the bandwidth
#    model's alpha-beta time of its certified optimum, pipelined in its best chunk count (the
#    DGX-1's links carry no latency, so that is the bandwidth term alone).
for size in ["1M", "64M", "1G"]:
    a = commsched.solve("allgather", model="bandwidth", network="dgx1", size=size)
    print(f"{size:>4}: {a.size['time_us']:10.1f} us, algbw {a.size['algbw']:.2f} GB/s (bandwidth-optimal packing)")

# 3. The XML of the last frontier point: decide its (S, R, C) and export the checked witness.
last = frontier.points[-1]
instance = commsched.Instance.allgather("dgx1", chunks=last.chunks)
witness = commsched.solve(instance, "sat", steps=last.steps, rounds=last.rounds).schedule
xml = out / f"allgather-dgx1-c{last.chunks}.xml"
witness.save(xml, proto="Simple")
print(f"{xml}: {'admissible' if commsched.check_xml(xml, network='dgx1') else 'REJECTED'}")
