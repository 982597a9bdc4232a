"""Shared fixtures: the repository's paths and the `commsched` binary the Python answers are
compared with (target/release/commsched, or $COMMSCHED_BIN)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli():
    """Runs the binary: (exit code, stdout, stderr)."""
    binary = Path(os.environ.get("COMMSCHED_BIN", ROOT / "target" / "release" / "commsched"))
    if not binary.is_file():
        pytest.fail(f"no commsched binary at {binary}: run `cargo build --release` (or set COMMSCHED_BIN)")

    def run(*args):
        p = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """Runs the binary with --format json: (exit code, the JSON object or None, stderr)."""

    def run(*args):
        code, out, err = cli(*args, "--format", "json")
        return code, (json.loads(out) if out.strip() else None), err

    return run
