"""The commsched named machine for a TACOS grid, or nothing: `torus3d:AxBxC:b,b,b` and
`mesh2d:AxB:bx,by` (docs/spec.md §2.5) have TACOS's 0.5 µs links, so only grids with that
latency have one. TACOS's GiB/s become GB/s exactly (× 1.073741824).

Usage: python3 named.py KIND SIZE GiB_PER_S LATENCY_US
"""

import sys
from decimal import Decimal

kind, size, bw, alpha = sys.argv[1:5]
gib = [Decimal(b) for b in bw.split(",")]
if Decimal(alpha) == Decimal("0.5") and kind in ("mesh2d", "mesh2d-hetero", "torus3d"):
    dims = len(size.split("x"))
    per_dim = gib * dims if len(gib) == 1 else gib
    text = ",".join(format((b * Decimal(1073741824) / Decimal(10**9)).normalize(), "f") for b in per_dim)
    print(f"{'torus3d' if kind == 'torus3d' else 'mesh2d'}:{size}:{text}")
