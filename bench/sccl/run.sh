#!/usr/bin/env bash
# SCCL (msccl-tools) against commsched on the same rows, in one run: see README.md beside this file.
#
#   bench/sccl/run.sh [--sccl-src DIR] [--cache-dir DIR] [--python PY] [--z3-version V]
#                     [--no-build] [compare.py options: --commsched PATH --sccl-only --timeout S
#                      --walk-timeout S --groups G,.. --repeat N --json OUT ...]
#
# Everything SCCL needs lives outside the crate: a Python venv under the cache directory
# (default ${XDG_CACHE_HOME:-~/.cache}/commsched-bench-sccl) and a throw-away copy of the
# msccl-tools source in a temporary directory. Nothing here is a dependency of commsched.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

# MSCCL_TOOLS_URL may name another copy of the repository (a local clone); the commit is the same.
SCCL_URL=${MSCCL_TOOLS_URL:-https://github.com/microsoft/msccl-tools}
SCCL_COMMIT=030a750fc56e03fb863ffe48268672d84d4cdc7b
# sha256 over `sha256sum` of every file of msccl/ at SCCL_COMMIT (see sccl_digest below): lets a
# source without .git (an archive) be recognised as the pinned commit.
SCCL_DIGEST=f1d385a800ed6b58c23593d0f87eea1279e7f4c6c660f76977727556e7dae3c8
# The only package the imported modules need (msccl.path_encoding and msccl.rounds_bound import
# z3); 4.8.12 is the z3 of the SCCL era and of Debian 12's libz3.
Z3_VERSION=4.8.12.0

# All in a function, so that bash has read the whole file before running any of it.
main() {
    SCCL_SRC=
    CACHE=${COMMSCHED_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/commsched-bench-sccl}
    PYTHON=${PYTHON:-python3}
    BUILD=1
    SCCL_ONLY=0
    COMMSCHED=
    PASS=()

    need_arg() { [[ $# -ge 2 && -n $2 ]] || { echo "run.sh: $1 needs a value" >&2; exit 2; }; }
    while [[ $# -gt 0 ]]; do
        case $1 in
            --sccl-src) need_arg "$@"; SCCL_SRC=$2; shift 2 ;;
            --cache-dir) need_arg "$@"; CACHE=$2; shift 2 ;;
            --python) need_arg "$@"; PYTHON=$2; shift 2 ;;
            --z3-version) need_arg "$@"; Z3_VERSION=$2; shift 2 ;;
            --no-build) BUILD=0; shift ;;
            --commsched) need_arg "$@"; COMMSCHED=$2; shift 2 ;;
            --sccl-only) SCCL_ONLY=1; PASS+=("$1"); shift ;;
            -h|--help) sed -n '2,10p' "$0"; echo; exec "$PYTHON" "$HERE/compare.py" --help ;;
            *) PASS+=("$1"); shift ;;
        esac
    done

    log() { echo "run.sh: $*" >&2; }

    sccl_digest() {
        (cd "$1" && find msccl -type f ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 \
            | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
    }

    # --- the msccl-tools source -------------------------------------------------------------------
    if [[ -z $SCCL_SRC ]]; then
        SCCL_SRC=$CACHE/msccl-tools
        if [[ ! -d $SCCL_SRC/.git ]]; then
            log "cloning $SCCL_URL into $SCCL_SRC (pass --sccl-src DIR to use a checkout you have)"
            rm -rf "$SCCL_SRC"
            if ! git clone --quiet "$SCCL_URL" "$SCCL_SRC"; then
                log "cannot clone $SCCL_URL: pass --sccl-src DIR (a checkout of msccl-tools at ${SCCL_COMMIT:0:7})"
                rm -rf "$SCCL_SRC"
                exit 2
            fi
        fi
        git -C "$SCCL_SRC" checkout --quiet --detach "$SCCL_COMMIT"
    fi
    SCCL_SRC=$(cd "$SCCL_SRC" && pwd)
    [[ -f $SCCL_SRC/msccl/strategies.py && -f $SCCL_SRC/msccl/path_encoding.py ]] || {
        log "$SCCL_SRC is not an msccl-tools checkout (no msccl/strategies.py)"; exit 2; }
    SCCL_REV=$(git -C "$SCCL_SRC" rev-parse HEAD 2>/dev/null || echo unknown)
    DIGEST=$(sccl_digest "$SCCL_SRC")
    if [[ $DIGEST == "$SCCL_DIGEST" ]]; then
        SCCL_PINNED=yes
    else
        SCCL_PINNED=no
        log "WARNING: msccl/ in $SCCL_SRC differs from msccl-tools ${SCCL_COMMIT:0:7} (revision $SCCL_REV)"
    fi

    # --- the venv (z3-solver only) ----------------------------------------------------------------
    PYVER=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    VENV=$CACHE/venv-py$PYVER-z3-$Z3_VERSION
    if [[ ! -f $VENV/.ready ]]; then
        log "creating $VENV"
        rm -rf "$VENV"
        mkdir -p "$CACHE"
        "$PYTHON" -m venv "$VENV"
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "z3-solver==$Z3_VERSION"
        touch "$VENV/.ready"
    fi

    # --- a throw-away copy of the source, with msccl/__init__.py emptied --------------------------
    # The package's __init__ imports msccl.autosynth (and through it the runtime and its extra
    # requirements); the synthesiser modules we use (topologies, collectives, instance, strategies,
    # path_encoding) need none of it. Only the copy is changed, never --sccl-src.
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/commsched-bench-sccl.XXXXXX")
    trap 'rm -rf "$WORK"' EXIT
    cp -R "$SCCL_SRC/msccl" "$WORK/msccl"
    find "$WORK/msccl" -name __pycache__ -type d -prune -exec rm -rf {} +
    printf '# emptied by commsched bench/sccl/run.sh: the synthesiser modules are imported directly\n' \
        > "$WORK/msccl/__init__.py"

    # --- the commsched binary ---------------------------------------------------------------------
    if [[ $SCCL_ONLY == 0 ]]; then
        if [[ -z $COMMSCHED ]]; then
            COMMSCHED=$REPO/target/release/commsched
            if [[ ! -x $COMMSCHED ]]; then
                if [[ $BUILD == 1 ]]; then
                    log "building $COMMSCHED (cargo build --release)"
                    (cd "$REPO" && cargo build --release)
                else
                    log "no $COMMSCHED and --no-build: pass --commsched PATH or --sccl-only"; exit 2
                fi
            fi
        fi
        [[ -x $COMMSCHED ]] || { log "$COMMSCHED is not an executable"; exit 2; }
        PASS+=(--commsched "$COMMSCHED")
    fi

    "$VENV/bin/python" "$HERE/compare.py" --sccl-path "$WORK" \
        --sccl-meta "url=$SCCL_URL" --sccl-meta "pinned_commit=$SCCL_COMMIT" \
        --sccl-meta "source=$SCCL_SRC" --sccl-meta "source_revision=$SCCL_REV" \
        --sccl-meta "msccl_digest=$DIGEST" --sccl-meta "matches_pinned=$SCCL_PINNED" \
        --sccl-meta "z3_solver=$Z3_VERSION" \
        "${PASS[@]}"
}

main "$@"
exit
