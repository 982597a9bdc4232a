"""commsched from Python: networks (named machines, files, networkx graphs), instances, and the
command line's solves, frontiers, bounds, checks and certificates, each answered by an object
with the fields of the command's JSON output (docs/json.md).

Every call runs the same library code as the ``commsched`` command, in this process, with the
interpreter's lock released; Ctrl-C interrupts it. ``timeout=`` is the command line's
``--timeout`` (seconds, in (0, 1e7]). Errors are :class:`commsched.errors.CommschedError`.

>>> import commsched
>>> frontier = commsched.pareto("allgather", network="dgx1", max_chunks=2, method="sat")
>>> [(p.chunks, p.rounds, p.steps) for p in frontier.points]
[(1, 2, 2), (2, 3, 3)]
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import weakref
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _native, errors
from ._results import (
    BandwidthAnswer,
    Decision,
    Frontier,
    Point,
    Refutation,
    Report,
    Result,
    Summary,
    Verdict,
    Verification,
)
from .errors import (
    BackendError,
    CommschedError,
    FileError,
    InputError,
    InternalError,
    NotApplicableError,
    RejectedError,
)

__version__: str = _native.version()

PathLike = Union[str, "os.PathLike[str]"]

#: The command line's default ``--timeout`` of a solve, ``pareto``, ``bounds`` and ``report``.
DEFAULT_TIMEOUT = 60
#: The command line's default ``--max-vars``.
DEFAULT_MAX_VARS = 200_000


# Arguments: a wrong type is a TypeError naming the argument; a wrong value is the command
# line's own InputError (the same code judges it).


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return value


def _str(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def _path(name: str, value: Any) -> str:
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), not {type(value).__name__}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"{name} must be a text path, not bytes")
    return path


def _seconds(name: str, value: Any) -> str:
    """A number of seconds as the command line reads it (it judges the value)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    return str(value)


def _run(argv: Sequence[str], codes: Iterable[int] = (0,)) -> tuple:
    """Runs a command; an exit code outside `codes` is an error here."""
    code, out = _native.run(list(argv))
    if code not in codes:
        raise CommschedError(f"`commsched {' '.join(argv)}` exited {code}: {out.strip()}")
    return code, out


def _json(argv: Sequence[str], codes: Iterable[int] = (0,)) -> tuple:
    code, out = _run(list(argv) + ["--format", "json"], codes)
    return code, json.loads(out)


class _Scratch:
    """A temporary folder that lives as long as the object holding it."""

    def __init__(self) -> None:
        self.path = tempfile.mkdtemp(prefix="commsched-")
        self._cleanup = weakref.finalize(self, shutil.rmtree, self.path, True)

    def file(self, name: str, text: Optional[str] = None) -> str:
        path = os.path.join(self.path, name)
        if text is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return path


class Network:
    """A network as ``commsched gen --network`` and ``--model bandwidth`` take it: a name
    (``"dgx1"``, ``"ring:8"``, ``"ndv2x4"``), a topology file (msccl-tools JSON), or a networkx
    node-link JSON file. The spec is checked when the Network is made."""

    spec: str

    def __init__(self, spec: PathLike) -> None:
        self.spec = _path("spec", spec)
        self._scratch: Optional[_Scratch] = None
        self.describe()

    def describe(self) -> Result:
        """``commsched topology``'s JSON: nodes, links and their bandwidths."""
        return Result(_json(["topology", self.spec])[1])

    @classmethod
    def from_networkx(cls, graph: Any, name: str = "networkx") -> "Network":
        """A network from a networkx graph (any object with ``nodes(data=True)``,
        ``edges(data=True)`` and ``is_directed()``): a node's ``kind`` is ``compute`` (the
        default) or ``switch``, an edge's ``bandwidth`` (GB/s, or ``capacity``) and ``latency``
        (µs) are read as node-link JSON has them (docs/spec.md §2.5). An undirected graph has
        every edge both ways."""
        for method in ("nodes", "edges", "is_directed"):
            if not callable(getattr(graph, method, None)):
                raise TypeError(f"from_networkx needs a graph with {method}(), not {type(graph).__name__}")
        _str("name", name)
        keep_node = ("kind",)
        keep_edge = ("bandwidth", "capacity", "latency")
        document = {
            "directed": bool(graph.is_directed()),
            "multigraph": False,
            "graph": {},
            "nodes": [
                {"id": n, **{k: v for k, v in attrs.items() if k in keep_node}}
                for n, attrs in graph.nodes(data=True)
            ],
            "edges": [
                {"source": u, "target": v, **{k: w for k, w in attrs.items() if k in keep_edge}}
                for u, v, attrs in graph.edges(data=True)
            ],
        }
        try:
            text = json.dumps(document)
        except TypeError as e:
            raise TypeError(f"a node id or attribute of the graph is not a JSON value: {e}") from None
        scratch = _Scratch()
        spec = scratch.file(f"{os.path.basename(name)}.json", text)
        network = cls.__new__(cls)
        network.spec = spec
        network._scratch = scratch
        network.describe()
        return network

    def node_link(self) -> Dict[str, Any]:
        """The network as directed node-link JSON (ids are node names, bandwidths GB/s)."""
        return json.loads(_native.node_link_json(self.spec))

    def to_networkx(self) -> Any:
        """The network as a ``networkx.DiGraph`` with node attribute ``kind`` and edge
        attributes ``bandwidth`` (GB/s, a float) and ``latency`` (µs). Needs networkx."""
        import networkx

        data = self.node_link()
        graph = networkx.DiGraph(name=self.spec)
        for node in data["nodes"]:
            graph.add_node(node["id"], kind=node.get("kind", "compute"))
        for edge in data["edges"]:
            graph.add_edge(
                edge["source"],
                edge["target"],
                bandwidth=float(edge.get("bandwidth", 0)),
                latency=float(edge.get("latency", 0)),
            )
        return graph

    def __repr__(self) -> str:
        return f"Network({self.spec!r})"


def _network(value: Any) -> str:
    if isinstance(value, Network):
        return value.spec
    return _path("network", value)


class Instance:
    """An instance: a problem on a network under a model, held as its TOML file
    (docs/spec.md §5.1). Made by ``commsched gen`` (:meth:`generate`, or the classmethods named
    after problems), or loaded from a file."""

    def __init__(self, toml: str) -> None:
        self._toml = _str("toml", toml)
        self._scratch: Optional[_Scratch] = None
        self._file: Optional[str] = None

    @classmethod
    def load(cls, path: PathLike) -> "Instance":
        """An instance file (TOML); errors name this file."""
        path = _path("path", path)
        try:
            with open(path, encoding="utf-8") as f:
                inst = cls(f.read())
        except OSError as e:
            raise FileError(f"{path}: cannot read: {e.strerror}") from None
        inst._file = path
        inst._check()
        return inst

    @classmethod
    def from_toml(cls, text: str) -> "Instance":
        """An instance from TOML text, checked as a file is."""
        inst = cls(text)
        inst._check()
        return inst

    def _check(self) -> None:
        # `bounds` with a small limit reads and validates the file, as every command does.
        _run(["bounds", self.path, "--timeout", "0.001"])

    @classmethod
    def generate(cls, problem: str, network: Union[Network, str], **options: Any) -> "Instance":
        """``commsched gen PROBLEM --network NETWORK`` with ``gen``'s flags as keywords: name,
        rule, packet, port, virtual, distributed, capacity, rounds, chunks, root, ring_tie,
        lengths (a list of ints), messages (a list of ``"SRC-DST:LEN"``), routes."""
        argv = ["gen", _str("problem", problem), "--network", _network(network)]
        for key, value in options.items():
            flag = "--" + key.replace("_", "-")
            if key in ("virtual", "distributed"):
                if not isinstance(value, bool):
                    raise TypeError(f"{key} must be a bool")
                if value:
                    argv.append(flag)
            elif key in ("packet", "chunks", "root"):
                argv += [flag, str(_int(key, value))]
            elif key == "rounds":
                if value is True:
                    argv.append(flag)
                else:
                    argv += [flag, str(_int(key, value))]
            elif key in ("lengths", "messages"):
                if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                    raise TypeError(f"{key} must be a list")
                items = [str(_int(key, v)) if key == "lengths" else _str(key, v) for v in value]
                argv += [flag + "=" + ",".join(items)]
            elif key in ("name", "rule", "port", "capacity", "ring_tie", "routes"):
                argv += [flag, _str(key, value)]
            else:
                raise TypeError(f"generate() got an unexpected keyword argument '{key}'")
        return cls(_run(argv)[1])

    @classmethod
    def allgather(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Allgather of the collective model (``chunks=``, ``rounds=``)."""
        return cls.generate("allgather", network, **options)

    @classmethod
    def alltoall(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Alltoall of the collective model."""
        return cls.generate("alltoall", network, **options)

    @classmethod
    def allreduce(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Allreduce of the collective model."""
        return cls.generate("allreduce", network, **options)

    @classmethod
    def reduce_scatter(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Reduce-scatter of the collective model."""
        return cls.generate("reduce-scatter", network, **options)

    @classmethod
    def reduce(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Reduce of the collective model (``root=``)."""
        return cls.generate("reduce", network, **options)

    @classmethod
    def broadcast(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Broadcast (``root=``, ``chunks=``; the fat-tree model's on ``fat-tree:N``)."""
        return cls.generate("broadcast", network, **options)

    @classmethod
    def total_exchange(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Total exchange (store-and-forward, ``rule=``, ``packet=``)."""
        return cls.generate("total-exchange", network, **options)

    @classmethod
    def gossip(cls, network: Union[Network, str], **options: Any) -> "Instance":
        """Gossip (store-and-forward)."""
        return cls.generate("gossip", network, **options)

    def to_toml(self) -> str:
        """The instance file's text."""
        return self._toml

    def save(self, path: PathLike) -> None:
        """Writes the instance file."""
        path = _path("path", path)
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._toml)

    @property
    def path(self) -> str:
        """A file holding the instance: the one it was loaded from, else a temporary one."""
        if self._file is None:
            self._scratch = _Scratch()
            self._file = self._scratch.file("instance.toml", self._toml)
        return self._file

    def __repr__(self) -> str:
        return f"Instance.from_toml({self._toml!r})"


def _instance(value: Any) -> Instance:
    if isinstance(value, Instance):
        return value
    if isinstance(value, (str, os.PathLike)):
        return Instance.load(value)
    raise TypeError(f"instance must be an Instance or a path, not {type(value).__name__}")


class Schedule:
    """A checked schedule of an instance, as the JSON of docs/spec.md §5.2."""

    def __init__(self, instance: Instance, json_text: str) -> None:
        if not isinstance(instance, Instance):
            raise TypeError("instance must be an Instance")
        self.instance = instance
        self._json = _str("json_text", json_text)

    @classmethod
    def load(cls, instance: Union[Instance, PathLike], path: PathLike) -> "Schedule":
        """A schedule file (JSON) of the instance."""
        path = _path("path", path)
        with open(path, encoding="utf-8") as f:
            return cls(_instance(instance), f.read())

    def to_json(self) -> str:
        """The schedule file's text."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        """The schedule as a dict."""
        return json.loads(self._json)

    def to_xml(self, proto: str = "Simple", max_thread_blocks: Optional[int] = None) -> str:
        """The schedule as an MSCCL XML algorithm (docs/msccl.md), checked first: ``proto`` is
        Simple, LL or LL128; ``max_thread_blocks`` refuses a file that needs more on a rank."""
        if max_thread_blocks is not None:
            _int("max_thread_blocks", max_thread_blocks)
        return _native.to_xml(self.instance.to_toml(), self._json, _str("proto", proto), max_thread_blocks)

    def save(self, path: PathLike, proto: str = "Simple", max_thread_blocks: Optional[int] = None) -> None:
        """Writes the schedule as ``solve --out`` does: MSCCL XML when the name ends in .xml,
        JSON otherwise."""
        path = _path("path", path)
        text = self.to_xml(proto, max_thread_blocks) if _native.is_xml(path) else self._json + "\n"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def __repr__(self) -> str:
        return f"Schedule({self._json[:60]!r}...)"


def _schedule_file(value: Any, scratch: _Scratch) -> str:
    if isinstance(value, Schedule):
        return scratch.file("schedule.json", value.to_json())
    return _path("schedule", value)


def _limits(timeout: Any, max_vars: Any, symmetry: Any) -> List[str]:
    argv = ["--timeout", _seconds("timeout", timeout), "--max-vars", str(_int("max_vars", max_vars))]
    if not isinstance(symmetry, bool):
        raise TypeError("symmetry must be a bool")
    return argv if symmetry else argv + ["--no-symmetry"]


def check(
    instance: Union[Instance, PathLike],
    schedule: Union[Schedule, PathLike],
    *,
    max_violations: int = 100,
    reading: str = "runtime",
) -> Verdict:
    """``commsched check INSTANCE SCHEDULE``: the verdict on a schedule (a :class:`Schedule`, a
    JSON file, or an MSCCL XML file read as a runtime runs it, or ``reading="step-index"``)."""
    inst = _instance(instance)
    scratch = _Scratch()
    argv = ["check", inst.path, _schedule_file(schedule, scratch)]
    argv += ["--max-violations", str(_int("max_violations", max_violations)), "--reading", _str("reading", reading)]
    code, data = _json(argv, (0, 1))
    return Verdict(data, code)


def check_xml(
    path_or_text: Union[PathLike, str, bytes],
    *,
    network: Union[Network, str, None] = None,
    collective: Optional[str] = None,
    max_violations: int = 100,
) -> Verdict:
    """``commsched check FILE.xml``: an MSCCL algorithm judged against the collective its header
    names, on ``fully-connected:ngpus`` unless ``network`` names another. Takes a file's path,
    or the XML itself (str or bytes)."""
    scratch = None
    if isinstance(path_or_text, bytes):
        path_or_text = path_or_text.decode("utf-8")
    if isinstance(path_or_text, str) and path_or_text.lstrip().startswith("<"):
        scratch = _Scratch()
        path = scratch.file("algorithm.xml", path_or_text)
    else:
        path = _path("path_or_text", path_or_text)
    argv = ["check", path, "--max-violations", str(_int("max_violations", max_violations))]
    if network is not None:
        argv += ["--network", _network(network)]
    if collective is not None:
        argv += ["--collective", _str("collective", collective)]
    code, data = _json(argv, (0, 1))
    return Verdict(data, code)


def bounds(instance: Union[Instance, PathLike], *, timeout: Union[float, str] = DEFAULT_TIMEOUT) -> Summary:
    """``commsched bounds``: every lower bound of the instance and the strongest."""
    code, data = _json(["bounds", _instance(instance).path, "--timeout", _seconds("timeout", timeout)])
    return Summary(data, code)


def solve(
    instance: Union[Instance, PathLike, str],
    method: Optional[str] = None,
    *,
    model: Optional[str] = None,
    network: Union[Network, str, None] = None,
    steps: Optional[int] = None,
    rounds: Optional[int] = None,
    timeout: Union[float, str] = DEFAULT_TIMEOUT,
    max_vars: int = DEFAULT_MAX_VARS,
    symmetry: bool = True,
    certificate: Optional[PathLike] = None,
    incumbent: Union[Schedule, PathLike, None] = None,
    complete: Union[Schedule, PathLike, None] = None,
    keep: Optional[int] = None,
    size: Union[int, str, None] = None,
    bandwidth: Union[float, str, None] = None,
) -> Any:
    """``commsched solve``. On an instance: ``method`` is an algorithm (``commsched list``) or
    ``exact`` (the default), ``ilp``, ``smt``, ``sat``; the answer is a :class:`Summary` whose
    ``schedule`` is the checked schedule. With ``steps=S`` (and ``rounds=R``): one point
    decided, a :class:`Decision`. With ``model="bandwidth"``: ``instance`` is a collective
    (allgather, reduce-scatter, allreduce) on ``network``, see :func:`bandwidth`.
    ``certificate`` is a folder to write the certificate into."""
    if model is not None:
        if _str("model", model) != "bandwidth":
            raise InputError(f"<flags>: field `--model`: `{model}` is not a model: bandwidth")
        if steps is not None:
            _int("steps", steps)
        return bandwidth_solve(
            _str("instance (the collective, with model=\"bandwidth\")", instance),
            network,
            method=method,
            size=size,
            bandwidth=bandwidth,
            timeout=timeout,
            certificate=certificate,
            steps=steps,
        )
    if network is not None:
        raise InputError("<flags>: field `--network`: goes with model=\"bandwidth\"; an instance names its network")
    inst = _instance(instance)
    scratch = _Scratch()
    out = scratch.file("schedule.json")
    argv = ["solve", inst.path, "--method", _str("method", method if method is not None else "exact")]
    argv += _limits(timeout, max_vars, symmetry) + ["--out", out]
    if certificate is not None:
        argv += ["--certificate", _path("certificate", certificate)]
    if steps is not None:
        argv += ["--steps", str(_int("steps", steps))]
        if rounds is not None:
            argv += ["--rounds", str(_int("rounds", rounds))]
        if complete is not None:
            argv += ["--complete", _schedule_file(complete, scratch)]
        if keep is not None:
            argv += ["--keep", str(_int("keep", keep))]
    elif rounds is not None or complete is not None or keep is not None:
        raise InputError("<flags>: field `--rounds`: rounds, complete and keep go with steps")
    if incumbent is not None:
        argv += ["--incumbent", _schedule_file(incumbent, scratch)]
    code, data = _json(argv, (0, 1))
    result: Any = Decision(data, code) if steps is not None else Summary(data, code)
    if os.path.exists(out):
        # A witness under `rounds=R` is a schedule of the instance with that budget.
        owner = inst if rounds is None else Instance(_native.with_round_budget(inst.to_toml(), rounds))
        with open(out, encoding="utf-8") as f:
            result.schedule = Schedule(owner, f.read())
    return result


def bandwidth_solve(
    collective: str,
    network: Union[Network, str, None],
    *,
    method: Optional[str] = None,
    size: Union[int, str, None] = None,
    bandwidth: Union[float, str, None] = None,
    timeout: Union[float, str] = DEFAULT_TIMEOUT,
    certificate: Optional[PathLike] = None,
    out: Optional[PathLike] = None,
    steps: Optional[int] = None,
) -> BandwidthAnswer:
    """``commsched solve COLLECTIVE --network NET --model bandwidth``: the certified bandwidth
    optimum of allgather, reduce-scatter or allreduce (a tree packing and a tight cut), or with
    ``method`` a registered algorithm's packing set against it. ``size`` (bytes, or "256M")
    adds the α-β time of the optimum pipelined in its best chunk count; ``bandwidth`` (GB/s) is
    that of a node-link edge that gives none; ``out`` receives the packing (JSON)."""
    argv = ["solve", _str("collective", collective), "--model", "bandwidth"]
    if network is not None:
        argv += ["--network", _network(network)]
    if method is not None:
        argv += ["--method", _str("method", method)]
    if size is not None:
        argv += ["--size", str(_int("size", size)) if not isinstance(size, str) else size]
    if bandwidth is not None:
        argv += ["--bandwidth", _seconds("bandwidth", bandwidth)]
    if steps is not None:
        argv += ["--steps", str(_int("steps", steps))]
    argv += ["--timeout", _seconds("timeout", timeout)]
    if certificate is not None:
        argv += ["--certificate", _path("certificate", certificate)]
    if out is not None:
        argv += ["--out", _path("out", out)]
    code, data = _json(argv)
    return BandwidthAnswer(data, code)


def algbw(
    collective: str,
    networks: Union[Sequence[Union[Network, str]], Network, str],
    *,
    bandwidth: Union[float, str, None] = None,
    timeout: Union[float, str] = 600,
) -> Result:
    """``commsched algbw``: per machine, the certified optimum's algbw and each registered
    algorithm's, with the share of the optimum it reaches."""
    if isinstance(networks, (str, Network)):
        networks = [networks]
    argv = ["algbw", _str("collective", collective), "--network", ",".join(_network(n) for n in networks)]
    if bandwidth is not None:
        argv += ["--bandwidth", _seconds("bandwidth", bandwidth)]
    argv += ["--timeout", _seconds("timeout", timeout)]
    code, data = _json(argv)
    return Result(data if isinstance(data, dict) else {"machines": data}, code)


def pareto(
    target: Union[str, Instance],
    network: Union[Network, str, None] = None,
    *,
    root: Optional[int] = None,
    max_chunks: int = 8,
    method: str = "exact",
    timeout: Union[float, str] = DEFAULT_TIMEOUT,
    max_vars: int = DEFAULT_MAX_VARS,
    symmetry: bool = True,
    certificate: Optional[PathLike] = None,
) -> Frontier:
    """``commsched pareto``: SCCL's latency-bandwidth frontier of a collective (a name with
    ``network``, or an :class:`Instance` of the collective model), for C = 1 … ``max_chunks``
    the least rounds R, then the least steps S, each point with its certificate; with
    ``certificate`` a folder, one certificate folder per point and per refuted (C, R) under it
    (:func:`verify` re-checks them). ``timeout`` applies to each decision."""
    if isinstance(target, Instance):
        path = target.path
        if not path.endswith(".toml"):
            target._scratch = _Scratch()
            path = target._scratch.file("instance.toml", target.to_toml())
        argv = ["pareto", path]
    else:
        argv = ["pareto", _str("target", target)]
    if network is not None:
        argv += ["--network", _network(network)]
    if root is not None:
        argv += ["--root", str(_int("root", root))]
    argv += ["--max-chunks", str(_int("max_chunks", max_chunks)), "--method", _str("method", method)]
    argv += _limits(timeout, max_vars, symmetry)
    if certificate is not None:
        argv += ["--certificate", _path("certificate", certificate)]
    code, data = _json(argv, (0, 4))
    return Frontier(data, code)


def verify(folder: PathLike) -> Verification:
    """``commsched verify``: re-checks a certificate folder from its files alone, or each
    certificate folder of a ``pareto`` folder. A compressed proof (``infeasible.lrat.xz`` or
    ``.zst``) that does not decode raises ``InputError``, as the command exits 2."""
    return Verification(_native.verify(_path("folder", folder)))


def report(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    out: Optional[PathLike] = None,
    backend: Optional[str] = None,
    exact: bool = True,
    timeout: Union[float, str] = DEFAULT_TIMEOUT,
    jobs: int = 1,
) -> Report:
    """``commsched report``: lower bounds, algorithms, exact optima and paper claims of the
    instance files under ``paths``; ``out`` is a folder for report.txt/.md/.json/.csv."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    argv = ["report"] + [_path("paths", p) for p in paths]
    if out is not None:
        argv += ["--out", _path("out", out)]
    if backend is not None:
        argv += ["--backend", _str("backend", backend)]
    if not isinstance(exact, bool):
        raise TypeError("exact must be a bool")
    if not exact:
        argv.append("--no-exact")
    argv += ["--timeout", _seconds("timeout", timeout), "--jobs", str(_int("jobs", jobs))]
    code, data = _json(argv, (0, 3))
    return Report(data, code)


def methods() -> List[Dict[str, Any]]:
    """``commsched list``: the algorithms and exact encoders of every problem."""
    return _json(["list"])[1]


__all__ = [
    "Network",
    "Instance",
    "Schedule",
    "check",
    "check_xml",
    "bounds",
    "solve",
    "bandwidth_solve",
    "algbw",
    "pareto",
    "verify",
    "report",
    "methods",
    "Result",
    "Summary",
    "Verdict",
    "Decision",
    "Frontier",
    "Point",
    "Refutation",
    "BandwidthAnswer",
    "Verification",
    "Report",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_VARS",
] + errors.__all__
