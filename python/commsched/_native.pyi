"""Type stubs of the extension module `commsched._native` (python/src/lib.rs)."""

from typing import List, Optional, Tuple

def run(argv: List[str]) -> Tuple[int, str]:
    """Runs one command of the command line (argv without the program name) in this process,
    off the interpreter's lock; returns its exit code and what it printed."""

def verify(dir: str) -> List[Tuple[str, List[str]]]:
    """Each certificate folder under `dir` with what failed to re-check (empty: valid); a
    compressed proof that does not decode raises InputError."""

def node_link_json(spec: str) -> str:
    """The fabric a network value names, as directed node-link JSON."""

def to_xml(
    instance_toml: str, schedule_json: str, proto: str = "Simple", max_thread_blocks: Optional[int] = None
) -> str:
    """A schedule of an instance, checked, as MSCCL XML."""

def with_round_budget(instance_toml: str, rounds: int) -> str:
    """The instance (TOML) of the collective model with the round budget R."""

def version() -> str:
    """The commsched library's version."""

def is_xml(path: str) -> bool:
    """Whether the path names an MSCCL XML file by its extension."""
