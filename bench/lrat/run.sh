#!/usr/bin/env bash
# commsched's LRAT checker, before and after its rewrite, against drat-trim's lrat-check (C), on
# one CNF and one proof, in one run: see docs/benchmarks.md ("LRAT checking").
#
#   bench/lrat/run.sh [--drat-trim-src DIR] [--old-rev REV] CNF PROOF
#
# The three checkers, each run once on the same two files under /usr/bin/time:
# - lrat-check: lrat-check.c of drat-trim, <https://github.com/marijnheule/drat-trim> (Marijn
#   Heule; MIT licence), pinned at DRAT_TRIM_COMMIT below, built with gcc -O2 into a temporary
#   directory. --drat-trim-src DIR (or $DRAT_TRIM_SRC) names a checkout or a copy of its files;
#   without it the repository is cloned into the temporary directory at the pinned commit.
# - old: commsched's checker at REV (default OLD_REV below, the last revision with the checker
#   that read the whole proof), built alone from that revision's src/proof/lrat.rs with
#   bench/lrat/check.rs as its main, in the temporary directory.
# - new: bench/lrat/check.rs against this working tree (`cargo bench --bench lrat --no-run`).
# Nothing here is a dependency of commsched; the temporary directory is removed at the end.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
DRAT_TRIM_URL=https://github.com/marijnheule/drat-trim
DRAT_TRIM_COMMIT=effa1dcce85c878236f8313133dff1a2b766cd7c
OLD_REV=d6ab54e

# All in a function, so that bash has read the whole file before running any of it.
main() {
    local src=${DRAT_TRIM_SRC:-} old_rev=$OLD_REV
    need_arg() { [[ $# -ge 2 && -n $2 ]] || { echo "run.sh: $1 needs a value" >&2; exit 2; }; }
    while [[ $# -gt 2 ]]; do
        case $1 in
            --drat-trim-src) need_arg "$@"; src=$2; shift 2 ;;
            --old-rev) need_arg "$@"; old_rev=$2; shift 2 ;;
            *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        esac
    done
    [[ $# -eq 2 && -f $1 && -f $2 ]] || { sed -n '2,5p' "$0" >&2; exit 2; }
    local cnf proof
    cnf=$(realpath "$1")
    proof=$(realpath "$2")
    log() { echo "run.sh: $*" >&2; }

    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT

    # --- lrat-check ------------------------------------------------------------------------------
    if [[ -z $src ]]; then
        log "cloning $DRAT_TRIM_URL"
        git clone -q "$DRAT_TRIM_URL" "$TMP/drat-trim"
        git -C "$TMP/drat-trim" checkout -q "$DRAT_TRIM_COMMIT"
        src=$TMP/drat-trim
    elif [[ -d $src/.git ]] && [[ $(git -C "$src" rev-parse HEAD) != "$DRAT_TRIM_COMMIT" ]]; then
        log "warning: $src is not at the pinned commit $DRAT_TRIM_COMMIT"
    fi
    gcc -O2 -o "$TMP/lrat-check" "$src/lrat-check.c"

    # --- the old checker, alone ------------------------------------------------------------------
    mkdir -p "$TMP/old/src/proof" "$TMP/old/src/bin"
    git -C "$REPO" show "$old_rev:src/proof/lrat.rs" > "$TMP/old/src/proof/lrat.rs"
    echo 'pub mod proof { pub mod lrat; }' > "$TMP/old/src/lib.rs"
    cp "$HERE/check.rs" "$TMP/old/src/bin/lrat.rs"
    cp "$REPO/Cargo.lock" "$TMP/old/Cargo.lock"
    cat > "$TMP/old/Cargo.toml" <<'TOML'
[package]
name = "commsched"
version = "0.0.0"
edition = "2024"

[dependencies]
serde = { version = "1", features = ["derive"] }
thiserror = "2"
TOML
    log "building the checker of $old_rev"
    cargo build -q --release --manifest-path "$TMP/old/Cargo.toml" --target-dir "$TMP/old/target"

    # --- the new checker -------------------------------------------------------------------------
    log "building the checker of the working tree"
    local new
    new=$(cd "$REPO" && cargo bench --locked --bench lrat --no-run --message-format=json 2>/dev/null \
        | grep '"kind":\["bench"\]' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')

    # --- one run each ----------------------------------------------------------------------------
    echo "CNF: $cnf ($(stat -c %s "$cnf") bytes); proof: $proof ($(stat -c %s "$proof") bytes)"
    echo
    echo "| checker | verdict | seconds | peak RSS (MiB) |"
    echo "| --- | --- | ---: | ---: |"
    row() {
        local name=$1 verdict=VERIFIED
        shift
        /usr/bin/time -f '%e %M' -o "$TMP/time" "$@" "$cnf" "$proof" > "$TMP/out" || verdict="NOT VERIFIED"
        # A failing command's first line says so; the figures are on the last.
        read -r seconds kib < <(tail -n 1 "$TMP/time")
        printf '| %s | %s | %s | %d |\n' "$name" "$verdict" "$seconds" $((kib / 1024))
    }
    row "lrat-check (drat-trim ${DRAT_TRIM_COMMIT:0:7}, gcc -O2)" "$TMP/lrat-check"
    row "commsched $old_rev (before)" "$TMP/old/target/release/lrat"
    row "commsched (this tree)" "$new"
}

main "$@"
