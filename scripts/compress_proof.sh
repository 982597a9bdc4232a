#!/usr/bin/env bash
# Stores the LRAT proof of a certificate folder compressed (docs/spec.md §7.1): writes
# infeasible.lrat.xz or infeasible.lrat.zst, lists it in manifest.json in place of the plain
# proof (its SHA-256 and size as stored), and removes the plain proof. `commsched verify DIR`
# then reads the compressed proof as a stream.
#
#   scripts/compress_proof.sh DIR xz    # xz -9e: a 64 MiB dictionary, one block
#   scripts/compress_proof.sh DIR zst   # zstd --ultra -22 --long=27: a 128 MiB window, the
#                                       # largest that verify reads (ZSTD_MAX_WINDOW)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 DIR xz|zst" >&2; exit 2; }
dir=$1
form=$2
proof="$dir/infeasible.lrat"
case "$form" in
  xz) xz -9e -T1 -k -f "$proof" ;;
  zst) zstd -q -f --ultra -22 --long=27 "$proof" -o "$proof.zst" ;;
  *) echo "usage: $0 DIR xz|zst" >&2; exit 2 ;;
esac
python3 - "$dir" "infeasible.lrat" "infeasible.lrat.$form" <<'PY'
import hashlib, json, os, sys

folder, plain, packed = sys.argv[1:]
path = os.path.join(folder, "manifest.json")
with open(path, encoding="utf-8") as f:
    manifest = json.load(f)
digest = hashlib.sha256()
with open(os.path.join(folder, packed), "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        digest.update(block)
entry = next(e for e in manifest["files"] if e["name"] == plain)
entry.update(name=packed, sha256=digest.hexdigest(), bytes=os.path.getsize(os.path.join(folder, packed)))
with open(path, "w", encoding="utf-8") as f:
    f.write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
PY
rm "$proof"
