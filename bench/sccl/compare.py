#!/usr/bin/env python3
"""SCCL (msccl-tools) against commsched on the same (S, R, C) rows, in one run.

Run through run.sh beside this file, which makes the venv (z3-solver only) and a copy of the
msccl-tools source whose msccl/__init__.py is emptied, and passes it as --sccl-path. Every SCCL
measurement runs in a child process of this script (the same Python, `--worker SPEC`), so a row
that outlasts --timeout is killed and recorded as a timeout.

What is timed:
  SCCL       the call itself, inside the child: solve_instance(topology, collective,
             Instance(steps=S, extra_rounds=R-S, chunks=C)) (encoding, z3, decoding and SCCL's
             own check of the algorithm), or the whole solve_all_latency_bandwidth_tradeoffs walk
             (its rounds-per-chunk bound included). Python start-up and imports are not counted.
  commsched  the wall-clock time of the `commsched solve FILE --method sat --steps S --rounds R
             --format json` process (or of `commsched pareto ...`), start-up and loading
             included; the instance file is written by `commsched gen` beforehand, untimed.
The ratio is SCCL seconds / commsched seconds.

Exit status: 0 when every row both tools decided agrees (timeouts are not disagreements), 1 on
a disagreement (between the tools, or with the answer SCCL's own example publishes), 2 when a
tool failed on a row.
"""

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time


# ----------------------------------------------------------------------------------------------
# The rows
# ----------------------------------------------------------------------------------------------

SAT, UNSAT = "sat", "unsat"

# SCCL's DGX-1 Allgather example, examples/dgx1_allgather.ipynb at msccl-tools 030a750: the single
# solve_instance calls of the notebook, then the tries of solve_all_latency_bandwidth_tradeoffs
# (C = 1..6; the walk stops at (3, 7, 6), whose R/C = 7/6 meets the rounds-per-chunk bound). A row
# that is both a notebook call and a walk try is listed once. (S, R, C, published answer, where)
DGX1_ALLGATHER = [
    (1, 1, 1, UNSAT, "notebook"),
    (2, 2, 1, SAT, "notebook; walk point C=1"),
    (2, 2, 2, UNSAT, "notebook"),
    (3, 3, 2, SAT, "notebook"),
    (2, 3, 2, SAT, "notebook; walk point C=2"),
    (2, 4, 3, UNSAT, "walk try"),
    (3, 4, 3, SAT, "walk point C=3"),
    (2, 5, 4, UNSAT, "walk try"),
    (3, 5, 4, SAT, "walk point C=4"),
    (2, 6, 5, UNSAT, "walk try"),
    (3, 6, 5, SAT, "walk point C=5"),
    (2, 7, 6, UNSAT, "walk try"),
    (3, 7, 6, SAT, "walk point C=6"),
]
# The points the notebook's walk prints, and the two prune_pareto_optimal keeps.
DGX1_ALLGATHER_WALK_POINTS = [(2, 2, 1), (2, 3, 2), (3, 4, 3), (3, 5, 4), (3, 6, 5), (3, 7, 6)]
DGX1_ALLGATHER_WALK_FRONTIER = [(2, 3, 2), (3, 7, 6)]

# DGX-1 Alltoall (8 x 8 chunks per unit of C; S >= 2, R/C >= 5/3). C = 1: the least steps with
# R = S (3) and one step fewer, and the walk's point at C = 1 (2 steps need R = 3). C = 2: R = S at
# 3 steps (unsat) and 4, and 2 steps in R = 4 (unsat). Measured on the development machine, SCCL
# takes about 2 s, 5 s, 4 s at C = 1, and 10 s, 5 min and more than 15 min at C = 2.
DGX1_ALLTOALL = [
    ("dgx1-alltoall", 2, 2, 1, "least steps - 1 (R = S); walk try C=1"),
    ("dgx1-alltoall", 3, 3, 1, "least steps (R = S)"),
    ("dgx1-alltoall", 2, 3, 1, "walk point C=1"),
    ("dgx1-alltoall-c2", 2, 4, 2, "2 steps at R/C = 2"),
    ("dgx1-alltoall-c2", 3, 3, 2, "3 steps (R = S)"),
    ("dgx1-alltoall-c2", 4, 4, 2, "4 steps (R = S)"),
]

# AMD4 (a ring of four single links; allgather needs 2 steps and R/C >= 3/2) and AMD8 (all pairs
# linked with bandwidth 5 or 6: one step, until C > 5 overflows the bandwidth-5 links).
AMD_ALLGATHER = [
    ("amd4", 1, 1, 1, "least steps - 1"),
    ("amd4", 2, 2, 1, "least steps; walk point C=1"),
    ("amd4", 2, 2, 2, "least rounds - 1 at C=2"),
    ("amd4", 2, 3, 2, "walk point C=2 (meets 3/2)"),
    ("amd8", 1, 1, 1, "least steps"),
    ("amd8", 1, 1, 5, "one step, C=5"),
    ("amd8", 1, 1, 6, "least steps - 1 at C=6"),
    ("amd8", 2, 2, 6, "least steps at C=6 (R = S)"),
]

NETWORK_NAMES = {"dgx1": "DGX-1", "amd4": "AMD4", "amd8": "AMD8"}
GROUPS = ["dgx1-allgather", "dgx1-pareto", "dgx1-alltoall", "dgx1-alltoall-c2", "amd-allgather",
          "amd4-pareto"]


def build_rows(groups, max_chunks):
    rows = []

    def decide(group, network, collective, s, r, c, note, expected=None):
        rows.append({
            "id": f"{network}-{collective}-s{s}-r{r}-c{c}",
            "group": group, "kind": "decide", "network": network, "collective": collective,
            "steps": s, "rounds": r, "chunks": c, "note": note, "expected": expected,
        })

    def walk(group, network, collective, note, expected_points=None, expected_frontier=None):
        rows.append({
            "id": f"{network}-{collective}-pareto-c1-{max_chunks}",
            "group": group, "kind": "walk", "network": network, "collective": collective,
            "min_chunks": 1, "max_chunks": max_chunks, "note": note,
            "expected_points": expected_points, "expected_frontier": expected_frontier,
        })

    if "dgx1-allgather" in groups:
        for s, r, c, ans, note in DGX1_ALLGATHER:
            if c <= max_chunks:
                decide("dgx1-allgather", "dgx1", "allgather", s, r, c, note, ans)
    if "dgx1-pareto" in groups:
        full = max_chunks >= 6
        walk("dgx1-pareto", "dgx1", "allgather", "SCCL's example walk",
             DGX1_ALLGATHER_WALK_POINTS if full else None,
             DGX1_ALLGATHER_WALK_FRONTIER if full else None)
    for group, s, r, c, note in DGX1_ALLTOALL:
        if group in groups:
            decide(group, "dgx1", "alltoall", s, r, c, note)
    if "amd-allgather" in groups:
        for net, s, r, c, note in AMD_ALLGATHER:
            decide("amd-allgather", net, "allgather", s, r, c, note)
    if "amd4-pareto" in groups:
        walk("amd4-pareto", "amd4", "allgather", "stops at C=2")
    return rows


def row_label(row):
    net = NETWORK_NAMES.get(row["network"], row["network"])
    coll = row["collective"].capitalize()
    if row["kind"] == "walk":
        return f"{net} {coll} Pareto walk C={row['min_chunks']}..{row['max_chunks']}"
    return f"{net} {coll} ({row['steps']},{row['rounds']},{row['chunks']})"


# ----------------------------------------------------------------------------------------------
# The SCCL child process
# ----------------------------------------------------------------------------------------------

def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def worker(spec):
    t0 = time.perf_counter()
    import msccl.collectives as collectives
    import msccl.strategies as strategies
    import msccl.topologies as topologies
    from msccl.instance import Instance
    import z3
    emit({"event": "imported", "seconds": time.perf_counter() - t0,
          "z3": z3.get_version_string()})

    topology = getattr(topologies, spec["network"])()
    collective = getattr(collectives, spec["collective"])(topology.num_nodes())

    if spec["kind"] == "decide":
        s, r, c = spec["steps"], spec["rounds"], spec["chunks"]
        instance = Instance(steps=s, extra_rounds=r - s, chunks=c)
        t = time.perf_counter()
        algo = strategies.solve_instance(topology, collective, instance)
        seconds = time.perf_counter() - t
        out = {"event": "done", "answer": SAT if algo is not None else UNSAT, "seconds": seconds}
        if algo is not None:
            out["algorithm"] = {"name": algo.name, "steps": len(algo.steps),
                                "rounds": sum(step.rounds for step in algo.steps)}
        emit(out)
        return

    # The walk: record every solver call and the rounds-per-chunk bound, as they happen.
    solve_and_log = strategies._solve_and_log
    bound_rounds = strategies.lower_bound_rounds

    def traced_solve(encoding, instance, logging):
        t = time.perf_counter()
        result = solve_and_log(encoding, instance, logging)
        emit({"event": "try", "steps": instance.steps, "rounds": instance.rounds(),
              "chunks": instance.chunks, "answer": SAT if result is not None else UNSAT,
              "seconds": time.perf_counter() - t})
        return result

    def traced_bound(topology, collective, *args, **kwargs):
        t = time.perf_counter()
        bound = bound_rounds(topology, collective, *args, **kwargs)
        emit({"event": "bound", "rounds_per_chunk": str(bound), "seconds": time.perf_counter() - t})
        return bound

    strategies._solve_and_log = traced_solve
    strategies.lower_bound_rounds = traced_bound
    t = time.perf_counter()
    algos = list(strategies.solve_all_latency_bandwidth_tradeoffs(
        topology, collective, min_chunks=spec["min_chunks"], max_chunks=spec["max_chunks"]))
    seconds = time.perf_counter() - t

    def key(a):
        return [len(a.steps), a.instance.steps + a.instance.extra_rounds, a.instance.chunks]

    emit({"event": "done", "seconds": seconds, "points": [key(a) for a in algos],
          "frontier": [key(a) for a in strategies.prune_pareto_optimal(algos)]})


# ----------------------------------------------------------------------------------------------
# Running things with a timeout
# ----------------------------------------------------------------------------------------------

def run_timed(cmd, timeout, env=None, stdout_path=None):
    """Run cmd; returns (rc or None on timeout, stdout, stderr, wall seconds). On a timeout the
    process gets SIGTERM (commsched then removes its temporary proofs), then SIGKILL."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        stop(proc)
        out, err = proc.communicate()
        rc = None
    except BaseException:
        # Ctrl-C reaches only this process (the child has its own session): stop the child too.
        stop(proc)
        raise
    wall = time.perf_counter() - t
    return rc, out.decode(errors="replace"), err.decode(errors="replace"), wall


def stop(proc):
    """SIGTERM to the child's process group, SIGKILL 15 s later if it is still there."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=15)
            return
        except subprocess.TimeoutExpired:
            pass


def json_lines(text):
    events = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                events.append(json.loads(line))
            except ValueError:
                pass
    return events


def tail(text, n=800):
    text = text.strip()
    return text if len(text) <= n else "..." + text[-n:]


def run_sccl(row, args):
    spec = {k: row[k] for k in ("kind", "network", "collective", "steps", "rounds", "chunks",
                                "min_chunks", "max_chunks") if k in row}
    env = dict(os.environ)
    env["PYTHONPATH"] = args.sccl_path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    timeout = args.walk_timeout if row["kind"] == "walk" else args.timeout
    rc, out, err, wall = run_timed([sys.executable, os.path.abspath(__file__), "--worker",
                                    json.dumps(spec)], timeout, env=env)
    events = json_lines(out)
    done = next((e for e in events if e.get("event") == "done"), None)
    res = {"wall_seconds": wall}
    imported = next((e for e in events if e.get("event") == "imported"), None)
    if imported:
        res["import_seconds"] = imported["seconds"]
        res["z3"] = imported["z3"]
    if row["kind"] == "walk":
        res["tries"] = [{k: e[k] for k in ("steps", "rounds", "chunks", "answer", "seconds")}
                        for e in events if e.get("event") == "try"]
        bound = next((e for e in events if e.get("event") == "bound"), None)
        if bound:
            res["rounds_per_chunk_bound"] = bound["rounds_per_chunk"]
            res["bound_seconds"] = bound["seconds"]
    if rc is None:
        res.update(answer="timeout", seconds=None, timeout=timeout)
    elif rc != 0 or done is None:
        res.update(answer="error", seconds=None, error=f"exit {rc}: {tail(err)}")
    else:
        res["seconds"] = done["seconds"]
        if row["kind"] == "decide":
            res["answer"] = done["answer"]
            if "algorithm" in done:
                res["algorithm"] = done["algorithm"]
        else:
            res["answer"] = "walk"
            res["points"] = done["points"]
            res["frontier"] = done["frontier"]
    return res


# ----------------------------------------------------------------------------------------------
# commsched
# ----------------------------------------------------------------------------------------------

def cert_kind(status, certificate):
    c = (certificate or "").strip()
    low = c.lower()
    if status == "feasible":
        return "checked witness" if not c or "witness" in low else c
    if "proof checked" in low:
        return "proof checked"
    if "solver's word" in low:
        return "solver's word"
    if low.startswith("lower bound") or low.startswith("lower-bound"):
        return "lower bound"
    return c or "none"


class Commsched:
    def __init__(self, path, method, workdir):
        self.path = path
        self.method = method
        self.workdir = workdir
        self.instances = {}

    def version(self):
        try:
            out = subprocess.run([self.path, "--version"], capture_output=True, text=True, timeout=60)
            return out.stdout.strip() or out.stderr.strip()
        except (OSError, subprocess.SubprocessError) as e:
            return f"unknown ({e})"

    def instance(self, collective, network, chunks):
        key = (collective, network, chunks)
        if key not in self.instances:
            path = os.path.join(self.workdir, f"{collective}-{network}-c{chunks}.toml")
            cmd = [self.path, "gen", collective, "--network", network, "--chunks", str(chunks)]
            rc, out, err, wall = run_timed(cmd, 300)
            if rc != 0:
                raise RuntimeError(f"{shlex.join(cmd)}: exit {rc}: {tail(err)}")
            with open(path, "w") as f:
                f.write(out)
            self.instances[key] = (path, wall)
        return self.instances[key]

    def decide(self, row, timeout):
        try:
            path, gen_wall = self.instance(row["collective"], row["network"], row["chunks"])
        except RuntimeError as e:
            return {"answer": "error", "seconds": None, "error": str(e)}
        # commsched's own time limit is the row's (its default, 60 s, would end it earlier).
        cmd = [self.path, "solve", path, "--method", self.method, "--steps", str(row["steps"]),
               "--rounds", str(row["rounds"]), "--timeout", f"{timeout:g}", "--format", "json"]
        rc, out, err, wall = run_timed(cmd, timeout)
        res = {"command": shlex.join(cmd), "gen_seconds": gen_wall, "wall_seconds": wall}
        if rc is None:
            res.update(answer="timeout", seconds=None, timeout=timeout)
            return res
        try:
            doc = json.loads(out)
        except ValueError:
            doc = None
        if rc != 0 or not isinstance(doc, dict):
            res.update(answer="error", seconds=None, error=f"exit {rc}: {tail(err or out)}")
            return res
        status = doc.get("status")
        res["status"] = status
        res["certificate"] = doc.get("certificate")
        res["internal_seconds"] = doc.get("seconds")
        res["length"] = doc.get("length")
        res["stop"] = doc.get("stop")
        res["seconds"] = wall
        if status == "feasible":
            res["answer"] = SAT
        elif status == "infeasible":
            res["answer"] = UNSAT
        elif status == "unknown":
            res["answer"] = "unknown"
        else:
            res.update(answer="error", error=f"unexpected status {status!r}")
        res["certificate_kind"] = cert_kind(status, res["certificate"])
        return res

    def walk(self, row, timeout):
        cmd = [self.path, "pareto", row["collective"], "--network", row["network"],
               "--max-chunks", str(row["max_chunks"]), "--method", self.method,
               "--timeout", f"{timeout:g}", "--format", "json"]
        rc, out, err, wall = run_timed(cmd, timeout)
        res = {"command": shlex.join(cmd), "wall_seconds": wall}
        if rc is None:
            res.update(answer="timeout", seconds=None, timeout=timeout)
            return res
        try:
            doc = json.loads(out)
        except ValueError:
            doc = None
        if rc != 0 or not isinstance(doc, dict) or "points" not in doc:
            res.update(answer="error", seconds=None, error=f"exit {rc}: {tail(err or out)}")
            return res
        pts = doc.get("points") or []
        ref = doc.get("refuted") or []
        res.update(
            answer="walk", seconds=wall, internal_seconds=doc.get("seconds"),
            points=[[p["steps"], p["rounds"], p["chunks"]] for p in pts],
            frontier=[[p["steps"], p["rounds"], p["chunks"]] for p in pts if p.get("pareto")],
            refuted=[[p["steps"], p["rounds"], p["chunks"]] for p in ref],
            certificates=[p.get("certificate") for p in pts] + [p.get("certificate") for p in ref],
            bound=doc.get("bound"), complete=doc.get("complete"), stop=doc.get("stop"),
            has_pareto_flag=any("pareto" in p for p in pts),
        )
        kinds = sorted({cert_kind("infeasible", c) for c in res["certificates"] if c})
        res["certificate_kind"] = ", ".join(kinds) if kinds else "none"
        return res


# ----------------------------------------------------------------------------------------------
# Agreement
# ----------------------------------------------------------------------------------------------

def check_decide(row, sccl, cs):
    problems = []
    a, b = sccl.get("answer"), cs.get("answer") if cs else None
    if row.get("expected") and a in (SAT, UNSAT) and a != row["expected"]:
        problems.append(f"SCCL answers {a}, its example publishes {row['expected']}")
    if row.get("expected") and b in (SAT, UNSAT) and b != row["expected"]:
        problems.append(f"commsched answers {b}, SCCL's example publishes {row['expected']}")
    if a in (SAT, UNSAT) and b in (SAT, UNSAT) and a != b:
        problems.append(f"SCCL answers {a}, commsched answers {b}")
    return problems


def as_set(points):
    return {tuple(p) for p in points or []}


def check_walk(row, sccl, cs):
    problems = []
    if sccl.get("answer") == "walk":
        if row.get("expected_points") and as_set(sccl["points"]) != as_set(row["expected_points"]):
            problems.append(f"SCCL's walk points {sorted(as_set(sccl['points']))} differ from its "
                            f"example's {sorted(as_set(row['expected_points']))}")
        if row.get("expected_frontier") and as_set(sccl["frontier"]) != as_set(row["expected_frontier"]):
            problems.append(f"SCCL's frontier {sorted(as_set(sccl['frontier']))} differs from its "
                            f"example's {sorted(as_set(row['expected_frontier']))}")
    if not cs or cs.get("answer") != "walk" or sccl.get("answer") != "walk":
        return problems
    sp, cp = as_set(sccl["points"]), as_set(cs["points"])
    if sp != cp:
        problems.append(f"walk points: SCCL {sorted(sp)}, commsched {sorted(cp)}")
    if cs.get("has_pareto_flag") and as_set(sccl["frontier"]) != as_set(cs["frontier"]):
        problems.append(f"frontier: SCCL {sorted(as_set(sccl['frontier']))}, "
                        f"commsched {sorted(as_set(cs['frontier']))}")
    # Every SCCL try must be consistent with commsched's points and refuted (C, R).
    least = {(r, c): s for s, r, c in cp}
    refuted = {(r, c) for _, r, c in as_set(cs["refuted"])}
    for t in sccl.get("tries", []):
        s, r, c = t["steps"], t["rounds"], t["chunks"]
        if t["answer"] == SAT and (r, c) in refuted:
            problems.append(f"SCCL finds ({s},{r},{c}) sat, commsched refutes (C, R) = ({c}, {r})")
        if t["answer"] == UNSAT and (r, c) in least and least[(r, c)] <= s:
            problems.append(f"SCCL finds ({s},{r},{c}) unsat, commsched's point is "
                            f"({least[(r, c)]},{r},{c})")
        if t["answer"] == SAT and (r, c) in least and least[(r, c)] > s:
            problems.append(f"SCCL finds ({s},{r},{c}) sat, commsched's least steps at (R, C) = "
                            f"({r}, {c}) is {least[(r, c)]}")
    return problems


# ----------------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------------

def median_result(results):
    """The run whose seconds are the median (lower median) of the repeats; a timeout or error
    in any repeat wins."""
    for r in results:
        if r.get("seconds") is None:
            return r
    ordered = sorted(results, key=lambda r: r["seconds"])
    return ordered[(len(ordered) - 1) // 2]


def fmt_s(x):
    if x is None:
        return "—"
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def describe(res, kind):
    if res is None:
        return "skipped"
    a = res.get("answer")
    if a == "timeout":
        return f"timeout (> {res['timeout']:.0f} s)"
    if a == "error":
        return "error"
    if kind == "walk":
        pts = " ".join(f"({s},{r},{c})" for s, r, c in res["points"])
        extra = ""
        if "tries" in res:
            n_unsat = sum(1 for t in res["tries"] if t["answer"] == UNSAT)
            extra = f"; {len(res['tries'])} calls, {n_unsat} unsat"
        if "refuted" in res:
            extra = f"; {len(res['refuted'])} refuted (C, R)"
        return f"{len(res['points'])} points {pts}{extra}"
    return a


def markdown(rows, results, args):
    lines = []
    lines.append("| row | note | SCCL | SCCL s | commsched | commsched s | certificate | SCCL / commsched |")
    lines.append("|---|---|---|---:|---|---:|---|---:|")
    total_s = total_c = 0.0
    both = 0
    for row in rows:
        r = results[row["id"]]
        s, c = r["sccl"], r.get("commsched")
        ratio = "—"
        if s.get("seconds") is not None and c and c.get("seconds"):
            ratio = f"{s['seconds'] / c['seconds']:.1f}×"
            if row["kind"] == "decide":
                total_s += s["seconds"]
                total_c += c["seconds"]
                both += 1
        elif s.get("answer") == "timeout" and c and c.get("seconds"):
            ratio = f"> {s['timeout'] / c['seconds']:.1f}×"
        flag = " **MISMATCH**" if r["problems"] else ""
        cert = c.get("certificate_kind", "—") if c and c.get("answer") not in ("error", "timeout") else "—"
        lines.append(f"| {row_label(row)}{flag} | {row['note']} | {describe(s, row['kind'])} | "
                     f"{fmt_s(s.get('seconds'))} | {describe(c, row['kind']) if c else 'skipped'} | "
                     f"{fmt_s(c.get('seconds')) if c else '—'} | {cert} | {ratio} |")
    if both:
        lines.append(f"| **sum of the {both} single rows both decided** | | | {fmt_s(total_s)} | | "
                     f"{fmt_s(total_c)} | | {total_s / total_c:.1f}× |")
    return "\n".join(lines)


def sccl_revision(meta):
    rev = meta.get("source_revision", "unknown")
    pinned = meta.get("pinned_commit", "?")[:7]
    same = meta.get("matches_pinned") == "yes"
    if rev != "unknown":
        return rev[:7] + ("" if same else f" (msccl/ differs from the pinned {pinned})")
    return f"{pinned} (msccl/ identical by content)" if same else f"unknown source (not {pinned})"


def machine_info():
    info = {"platform": platform.platform(), "python": platform.python_version(),
            "cpus": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        info["loadavg"] = list(os.getloadavg())
    except OSError:
        pass
    return info


# ----------------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------------

def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(json.loads(sys.argv[2]))
        return 0

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sccl-path", required=True,
                   help="a directory holding the msccl package (run.sh makes it)")
    p.add_argument("--sccl-meta", action="append", default=[], metavar="KEY=VALUE",
                   help="provenance of the SCCL source, recorded in the JSON (run.sh passes it)")
    p.add_argument("--commsched", help="the commsched binary (built with --features sat)")
    p.add_argument("--method", default="sat", help="commsched's exact method (default sat)")
    p.add_argument("--sccl-only", action="store_true", help="skip commsched")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds per single row and tool (default 600)")
    p.add_argument("--walk-timeout", type=float, default=3600,
                   help="seconds per Pareto walk and tool (default 3600)")
    p.add_argument("--max-chunks", type=int, default=6, help="largest C of the walks and rows (6)")
    p.add_argument("--groups", default=",".join(GROUPS),
                   help=f"comma-separated row groups (default all: {','.join(GROUPS)})")
    p.add_argument("--only", default=None, help="run only rows whose id contains this string")
    p.add_argument("--repeat", type=int, default=1,
                   help="runs of each tool per row; the median is reported (default 1)")
    p.add_argument("--json", dest="json_out", default=None, help="write every measurement here")
    args = p.parse_args()

    groups = [g.strip() for g in args.groups.split(",") if g.strip()]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        p.error(f"unknown group(s) {unknown}; known: {GROUPS}")
    if not args.sccl_only and not args.commsched:
        p.error("--commsched PATH is needed (or --sccl-only)")
    if args.repeat < 1:
        p.error("--repeat is at least 1")
    rows = build_rows(groups, args.max_chunks)
    if args.only:
        rows = [r for r in rows if args.only in r["id"]]
    if not rows:
        p.error("no rows selected")

    meta = dict(kv.split("=", 1) for kv in args.sccl_meta if "=" in kv)
    # SIGTERM as SIGINT: unwind, so that the running child is stopped and the files removed.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    workdir = None if args.sccl_only else tempfile.mkdtemp(prefix="commsched-bench-instances.")
    try:
        return run_rows(args, rows, meta, workdir)
    finally:
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def run_rows(args, rows, meta, workdir):
    cs = None if workdir is None else Commsched(args.commsched, args.method, workdir)
    doc = {
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "sccl": meta,
        "commsched": None if cs is None else {"path": os.path.abspath(args.commsched),
                                               "version": cs.version(), "method": args.method},
        "options": {"timeout": args.timeout, "walk_timeout": args.walk_timeout,
                    "max_chunks": args.max_chunks, "repeat": args.repeat,
                    "groups": [g.strip() for g in args.groups.split(",") if g.strip()],
                    "only": args.only},
        "timing": {"sccl": "seconds inside the child process around solve_instance / the whole "
                           "solve_all_latency_bandwidth_tradeoffs generator (imports excluded)",
                   "commsched": "wall-clock seconds of the commsched process (gen excluded)"},
        "rows": [],
    }
    results = {}
    worst = 0

    def save():
        if args.json_out:
            tmp = args.json_out + ".tmp"
            with open(tmp, "w") as f:
                json.dump(doc, f, indent=2)
                f.write("\n")
            os.replace(tmp, args.json_out)

    print(f"# {len(rows)} rows; SCCL {sccl_revision(meta)} "
          f"(z3-solver {meta.get('z3_solver', '?')}); "
          f"commsched {'skipped' if cs is None else doc['commsched']['version']}", file=sys.stderr)
    for i, row in enumerate(rows, 1):
        timeout = args.walk_timeout if row["kind"] == "walk" else args.timeout
        sccl_runs, cs_runs = [], []
        for _ in range(args.repeat):
            sccl_runs.append(run_sccl(row, args))
            if cs is not None:
                cs_runs.append(cs.walk(row, timeout) if row["kind"] == "walk" else cs.decide(row, timeout))
        sccl = median_result(sccl_runs)
        com = median_result(cs_runs) if cs_runs else None
        problems = (check_walk if row["kind"] == "walk" else check_decide)(row, sccl, com)
        if problems:
            worst = 1
        elif worst == 0 and any(a.get("answer") == "error" for a in [sccl] + ([com] if com else [])):
            worst = 2
        results[row["id"]] = {"sccl": sccl, "commsched": com, "problems": problems}
        doc["rows"].append({**row, "sccl": sccl, "commsched": com, "problems": problems,
                            "sccl_runs": sccl_runs if args.repeat > 1 else None,
                            "commsched_runs": cs_runs if args.repeat > 1 else None})
        save()
        def took(res):
            return "" if res.get("seconds") is None else f" {fmt_s(res['seconds'])} s"

        line = f"[{i}/{len(rows)}] {row_label(row)}: SCCL {describe(sccl, row['kind'])}{took(sccl)}"
        if com is not None:
            line += f"; commsched {describe(com, row['kind'])}{took(com)}"
        print(line, file=sys.stderr, flush=True)
        for a in [sccl] + ([com] if com else []):
            if a.get("answer") == "error":
                print(f"    error: {a.get('error')}", file=sys.stderr)
        for msg in problems:
            print(f"    MISMATCH: {msg}", file=sys.stderr, flush=True)

    doc["finished"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    try:
        doc["machine"]["loadavg_end"] = list(os.getloadavg())
    except OSError:
        pass
    all_problems = [(r["id"], m) for r in doc["rows"] for m in r["problems"]]
    doc["mismatches"] = [{"row": rid, "problem": m} for rid, m in all_problems]
    doc["exit"] = worst
    save()

    print(f"SCCL: msccl-tools {sccl_revision(meta)},"
          f" z3-solver {meta.get('z3_solver', '?')}, Python {platform.python_version()}. "
          f"commsched: {'skipped (--sccl-only)' if cs is None else doc['commsched']['version'] + ', --method ' + args.method}. "
          f"{doc['machine'].get('cpus')} CPUs ({doc['machine'].get('cpu', '?')}), "
          f"load {' '.join(f'{x:.1f}' for x in doc['machine'].get('loadavg', []))} at start. "
          f"Timeout {args.timeout:.0f} s per row, {args.walk_timeout:.0f} s per walk; "
          f"{'median of ' + str(args.repeat) + ' runs' if args.repeat > 1 else 'one run'} per row.\n")
    print(markdown(rows, results, args))
    if all_problems:
        print("\n**MISMATCHES**\n")
        for rid, m in all_problems:
            print(f"- {rid}: {m}")
        bar = "!" * 78
        print(f"\n{bar}\n{len(all_problems)} MISMATCH(ES): the tools disagree (see above)\n{bar}",
              file=sys.stderr)
    return worst


if __name__ == "__main__":
    sys.exit(main())
