"""The commsched named machine for a TACOS grid, or nothing: `torus3d:AxBxC:b,b,b:α` and
`mesh2d:AxB:bx,by:α` (docs/spec.md §2.5), with the grid's bandwidths and latency. TACOS's
GiB/s become GB/s exactly (× 1.073741824). TACOS's other grids (torus2d, hypercube3d) have no
named machine.

Usage: python3 named.py KIND SIZE GiB_PER_S LATENCY_US
"""

import sys
from decimal import Decimal

kind, size, bw, alpha = sys.argv[1:5]
gib = [Decimal(b) for b in bw.split(",")]
if kind in ("mesh2d", "mesh2d-hetero", "torus3d"):
    dims = len(size.split("x"))
    per_dim = gib * dims if len(gib) == 1 else gib
    text = ",".join(format((b * Decimal(1073741824) / Decimal(10**9)).normalize(), "f") for b in per_dim)
    print(f"{'torus3d' if kind == 'torus3d' else 'mesh2d'}:{size}:{text}:{alpha}")
