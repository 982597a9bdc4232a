"""The answers of commsched's functions: each carries the fields of the command line's JSON
output (docs/json.md) as attributes, and gives them back with :meth:`Result.to_dict`."""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Tuple


class Result:
    """One answer: the fields of the command's JSON object as attributes (a field the command
    leaves out reads as ``None``), ``exit_code`` as the command line would exit."""

    exit_code: int

    def __init__(self, data: Dict[str, Any], exit_code: int = 0) -> None:
        self._data = data
        self.exit_code = exit_code

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._data:
            return self._data[name]
        # A field of the class's contract that this answer leaves out (`rounds` of a schedule
        # outside the collective model) reads as None.
        for cls in type(self).__mro__:
            if name in getattr(cls, "__annotations__", {}):
                return None
        raise AttributeError(f"{type(self).__name__} has no field `{name}`")

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object the command line prints, as a new dict."""
        return copy.deepcopy(self._data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._data!r})"


class Summary(Result):
    """What ``check``, ``bounds`` and ``solve`` answer (docs/json.md, "Summary object")."""

    instance: str
    method: str
    status: str
    length: Optional[int]
    admissible: bool
    violations: List[str]
    violations_omitted: int
    lower_bound: Optional[int]
    upper_bound: Optional[int]
    certified: bool
    certificate: Optional[str]
    stop: Optional[str]
    bounds: List[Dict[str, Any]]
    no_schedule: Optional[str]
    rounds: Optional[int]
    rounds_per_chunk: Optional[str]
    #: The checked schedule a solve found (None for a check, bounds, or no schedule).
    schedule: Any = None


class Verdict(Summary):
    """A check's answer: true when the schedule is admissible (exit code 0)."""

    def __bool__(self) -> bool:
        return bool(self._data.get("admissible"))


class Decision(Result):
    """One decided point, ``solve(..., steps=S)`` (docs/json.md, "One point")."""

    instance: str
    method: str
    steps: int
    rounds: Optional[int]
    chunks: Optional[int]
    status: str
    length: Optional[int]
    certificate: Optional[str]
    stop: Optional[str]
    seconds: float
    #: The checked witness when feasible.
    schedule: Any = None


class Point(Result):
    """A point of the frontier: C, the least R, the least S within R, and why S - 1 fails."""

    chunks: int
    rounds: int
    steps: int
    rounds_per_chunk: str
    certificate: str
    pareto: Optional[bool]
    folder: Optional[str]


class Refutation(Result):
    """A (C, R) of the walk with no schedule, and its evidence."""

    chunks: int
    rounds: int
    steps: int
    certificate: str
    folder: Optional[str]


class Frontier(Result):
    """SCCL's latency-bandwidth frontier (docs/json.md, "The Pareto walk"); ``points`` and
    ``refuted`` are lists of :class:`Point` and :class:`Refutation`."""

    instance: str
    method: str
    bound: str
    bound_name: str
    bound_note: Optional[str]
    complete: bool
    stop: Optional[str]
    seconds: float

    @property
    def points(self) -> List[Point]:
        return [Point(p) for p in self._data["points"]]

    @property
    def refuted(self) -> List[Refutation]:
        return [Refutation(r) for r in self._data["refuted"]]


class BandwidthAnswer(Result):
    """The bandwidth model's answer (docs/json.md, "The bandwidth model")."""

    status: str
    collective: str
    network: str
    compute_nodes: int
    time_per_shard: Optional[str]
    lower_bound: str
    algbw: Optional[float]
    busbw: Optional[float]
    algbw_at_most: Optional[float]
    trees: Optional[int]
    trees_per_root: Optional[int]
    trees_in_all: Optional[int]
    symmetry: Optional[int]
    certificate: Optional[str]
    seconds: float
    size: Optional[Dict[str, Any]]
    method: Optional[str]
    optimum: Optional[Dict[str, Any]]
    share_of_optimum: Optional[float]


class Verification(Result):
    """What ``verify`` found: ``folders`` maps each certificate folder re-checked to what failed
    in it (an empty list: valid); true when every folder is valid."""

    valid: bool
    folders: Dict[str, List[str]]

    def __init__(self, folders: List[Tuple[str, List[str]]]) -> None:
        valid = all(not failures for _, failures in folders)
        super().__init__({"valid": valid, "folders": dict(folders)}, 0 if valid else 1)

    def __bool__(self) -> bool:
        return bool(self._data["valid"])


class Report(Result):
    """``report``'s object (docs/json.md, "Report"): ``run``, ``summary``, ``violated``,
    ``failed`` and one entry per instance file in ``instances``."""

    run: Dict[str, Any]
    summary: Dict[str, Any]
    violated: List[Dict[str, Any]]
    failed: int
    instances: List[Dict[str, Any]]
