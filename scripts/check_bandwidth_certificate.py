#!/usr/bin/env python3
"""Independent checker for commsched bandwidth certificates
(format `commsched-bandwidth-certificate-1`), written from the format's
documentation only (§2.5 fabrics, §3.2 bandwidth model, §6.1 checker,
§7.3 certificates).

Usage: python3 check_bandwidth_certificate.py DIR

Prints `valid` and exits 0, or prints one line per failure and exits 1.
Exits 2 when the folder cannot be read at all (not a directory, cannot be
listed, or has no readable manifest.json).

A packing with a `symmetry` (§6.1, §7.3) holds the trees of one
representative root and the generators of a group of the fabric's
automorphisms; the loads are counted per orbit of links.

Only the standard library is used; every bandwidth, weight and time is an
exact fractions.Fraction read from the decimal text of the JSON file (JSON
numbers are never turned into binary floats, except the manifest's
`algbw`/`busbw`, which are floats by definition and are compared with a
relative tolerance).
"""

import hashlib
import json
import os
import re
import sys
from fractions import Fraction

FORMAT = "commsched-bandwidth-certificate-1"
DATA_FILES = ("network.json", "packing.json", "cut.json")
PHASES = {
    "allgather": ("allgather",),
    "reduce-scatter": ("reduce-scatter",),
    # allreduce = a reduce-scatter phase, then an allgather phase (§3.2)
    "allreduce": ("reduce-scatter", "allgather"),
}
FLOAT_REL_TOL = 1e-9
MAX_DECIMAL_EXPONENT = 1000  # guards Fraction against "1e999999999"
ARROW = " \u2192 "


class Bad(Exception):
    """A problem that stops the reading of one file (reported, not raised)."""


# ---------------------------------------------------------------- JSON input

class JFloat(object):
    """A JSON number with a fraction or exponent part, kept as its text."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _reject_constant(name):
    raise ValueError("non-standard JSON constant %s" % name)


def _pairs_hook(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError("duplicate key %s in one object" % json.dumps(k))
        out[k] = v
    return out


def load_json(raw, fname):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Bad("%s: not UTF-8 (%s)" % (fname, e))
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text, parse_float=JFloat, parse_constant=_reject_constant,
                          object_pairs_hook=_pairs_hook)
    except RecursionError:
        raise Bad("%s: JSON nested too deeply" % fname)
    except ValueError as e:  # includes JSONDecodeError, int digit limits
        raise Bad("%s: not valid JSON (%s)" % (fname, e))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return is_int(v) or isinstance(v, JFloat)


_DEC_RE = re.compile(r"^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$")
_RAT_RE = re.compile(r"^(-?)(\d+)(?:/(\d+))?$")


def decimal_fraction(text):
    """Exact Fraction of a decimal text such as '12.5', '0.1', '1e-3'."""
    m = _DEC_RE.match(text)
    if not m or (not m.group(2) and not m.group(3)):
        raise ValueError("not a decimal number: %r" % text)
    sign, ip, fp, ex = m.group(1), m.group(2) or "", m.group(3) or "", m.group(4)
    exp = int(ex) if ex is not None else 0
    if abs(exp) > MAX_DECIMAL_EXPONENT or len(ip) + len(fp) > 10000:
        raise ValueError("number out of range: %r" % text[:40])
    value = Fraction(int((ip + fp) or "0"), 10 ** len(fp))
    value = value * 10 ** exp if exp >= 0 else value / 10 ** (-exp)
    return -value if sign == "-" else value


def rational_string(v):
    """A '"p/q"' or '"p"' string of the certificate, as an exact Fraction."""
    if not isinstance(v, str):
        raise ValueError("%s is not a rational string \"p/q\"" % describe(v))
    m = _RAT_RE.match(v)
    if not m:
        raise ValueError("%s is not a rational \"p/q\" or \"p\"" % json.dumps(v))
    num, den = int(m.group(2)), int(m.group(3)) if m.group(3) is not None else 1
    if den == 0:
        raise ValueError("%s has a zero denominator" % json.dumps(v))
    f = Fraction(num, den)
    return -f if m.group(1) else f


def number_fraction(v):
    """A bandwidth: a JSON number (read from its decimal text) or a string."""
    if is_int(v):
        return Fraction(v)
    if isinstance(v, JFloat):
        return decimal_fraction(v.text)
    if isinstance(v, str):
        s = v.strip()
        if "/" in s:
            p, _, q = s.partition("/")
            num, den = decimal_fraction(p), decimal_fraction(q)
            if den == 0:
                raise ValueError("%s has a zero denominator" % json.dumps(v))
            return num / den
        return decimal_fraction(s)
    raise ValueError("%s is not a number" % describe(v))


def compact_json(v):
    """Compact JSON text of a parsed value (floats keep their source text)."""
    if isinstance(v, JFloat):
        return v.text
    if isinstance(v, bool) or v is None or is_int(v) or isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(compact_json(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + compact_json(x)
                              for k, x in v.items()) + "}"
    return str(v)


def describe(v):
    try:
        s = compact_json(v)
    except RecursionError:
        s = "(deeply nested value)"
    return s if len(s) <= 60 else s[:57] + "..."


def node_name(v):
    """§2.5: a string names itself, a number its decimal text, anything else
    its compact JSON text."""
    if isinstance(v, str):
        return v
    if is_int(v):
        return str(v)
    if isinstance(v, JFloat):
        return v.text
    return compact_json(v)


def fmt_frac(f):
    return str(f.numerator) if f.denominator == 1 else "%d/%d" % (f.numerator, f.denominator)


# ------------------------------------------------------------------- fabric

class Fabric(object):
    def __init__(self):
        self.nodes = []          # names, in order
        self.kind = {}           # name -> "compute" | "switch"
        self.bw = {}             # (u, v) -> Fraction, parallel links added
        self.out = {}            # u -> set of v

    @property
    def compute(self):
        return [n for n in self.nodes if self.kind[n] == "compute"]


def read_fabric(doc, fails):
    """§2.5 node-link JSON.  Appends failures; returns a Fabric or None."""
    P = "network.json: "
    if not isinstance(doc, dict):
        fails.append(P + "not a JSON object")
        return None
    ok = True
    directed = doc.get("directed", True)
    if not isinstance(directed, bool):
        fails.append(P + "directed: %s is not true or false" % describe(directed))
        ok = False
        directed = True
    nodes = doc.get("nodes")
    if not isinstance(nodes, list):
        fails.append(P + "nodes: missing or not a list")
        return None
    if "edges" in doc and "links" in doc:
        fails.append(P + "both `edges` and `links` are present")
        return None
    key = "edges" if "edges" in doc else "links"
    edges = doc.get(key)
    if not isinstance(edges, list):
        fails.append(P + "edges: missing or not a list")
        return None

    fab = Fabric()
    for i, nd in enumerate(nodes):
        if not isinstance(nd, dict) or "id" not in nd:
            fails.append(P + "nodes[%d].id: missing" % i)
            ok = False
            fab.nodes.append(None)
            continue
        try:
            name = node_name(nd["id"])
        except RecursionError:
            fails.append(P + "nodes[%d].id: nested too deeply" % i)
            ok = False
            fab.nodes.append(None)
            continue
        kind = nd.get("kind", "compute")
        if kind not in ("compute", "switch"):
            fails.append(P + "nodes[%d].kind: %s is not \"compute\" or \"switch\""
                         % (i, describe(kind)))
            ok = False
            kind = "switch"
        if name in fab.kind:
            fails.append(P + "nodes[%d].id: `%s` listed twice" % (i, name))
            ok = False
            fab.nodes.append(None)
            continue
        fab.nodes.append(name)
        fab.kind[name] = kind
    positions = list(fab.nodes)
    fab.nodes = [n for n in fab.nodes if n is not None]
    for n in fab.nodes:
        fab.out[n] = set()

    def end(e, i, field):
        if field not in e:
            fails.append(P + "%s[%d].%s: missing" % (key, i, field))
            return None
        v = e[field]
        try:
            name = node_name(v)
        except RecursionError:
            name = None
        if name is not None and name in fab.kind:
            return name
        # "an edge end that is an integer naming no node id is a position in `nodes`"
        if is_int(v) and 0 <= v < len(positions) and positions[v] is not None:
            return positions[v]
        fails.append(P + "%s[%d].%s: %s is not a node in `nodes`" % (key, i, field, describe(v)))
        return None

    for i, e in enumerate(edges):
        if not isinstance(e, dict):
            fails.append(P + "%s[%d]: not an object" % (key, i))
            ok = False
            continue
        s, t = end(e, i, "source"), end(e, i, "target")
        if "bandwidth" in e:
            bfield, braw = "bandwidth", e["bandwidth"]
        elif "capacity" in e:
            bfield, braw = "capacity", e["capacity"]
        else:
            bfield, braw = "bandwidth", None
        bw = None
        if braw is None:
            fails.append(P + "%s[%d].bandwidth: missing (no default bandwidth in a certificate)"
                         % (key, i))
        else:
            try:
                bw = number_fraction(braw)
                if bw <= 0:
                    fails.append(P + "%s[%d].%s: %s is not positive" % (key, i, bfield, describe(braw)))
                    bw = None
            except ValueError as ex:
                fails.append(P + "%s[%d].%s: %s" % (key, i, bfield, ex))
        if s is None or t is None or bw is None:
            ok = False
            continue
        if s == t:
            fails.append(P + "%s[%d]: a self-link at `%s`" % (key, i, s))
            ok = False
            continue
        pairs = [(s, t)] if directed else [(s, t), (t, s)]
        for (u, v) in pairs:
            fab.bw[(u, v)] = fab.bw.get((u, v), Fraction(0)) + bw
            fab.out[u].add(v)
    if len(fab.compute) < 2:
        fails.append(P + "the fabric has %d compute node(s); at least two are needed"
                     % len(fab.compute))
        ok = False
    return fab if ok else None


# ----------------------------------------------------------------- symmetry

def orbit_labels(elements, generators, image):
    """Orbit id of each element under the generators: what the maps reach
    from it (a permutation's inverse is one of its powers)."""
    label = {}
    for start in elements:
        if start in label:
            continue
        label[start] = start
        stack = [start]
        while stack:
            x = stack.pop()
            for g in generators:
                y = image(g, x)
                if y not in label:
                    label[y] = start
                    stack.append(y)
    return label


def check_symmetry(sym, fab, root, fails):
    """§6.1 symmetric packings.  Returns {link: orbit id} or None."""
    P = "packing.json: "
    if not isinstance(sym, list):
        fails.append(P + "symmetry: not a list of generators")
        return None
    n = len(fab.nodes)
    gens, ok = [], True
    for k, g in enumerate(sym):
        head = P + "symmetry[%d]: " % k
        if not isinstance(g, list) or not all(isinstance(x, str) for x in g):
            fails.append(head + "not a list of node names")
            ok = False
            continue
        unknown = [x for x in g if x not in fab.kind]
        if unknown:
            fails.append(head + "`%s` is not a node of the fabric" % unknown[0])
            ok = False
            continue
        if len(g) != n:
            fails.append(head + "has %d nodes, the fabric %d: not a permutation" % (len(g), n))
            ok = False
            continue
        if len(set(g)) != n:
            fails.append(head + "names a node twice: not a permutation")
            ok = False
            continue
        perm = dict(zip(fab.nodes, g))
        why = None
        for v in fab.nodes:
            if fab.kind[perm[v]] != fab.kind[v]:
                why = "maps %s `%s` to %s `%s`" % (fab.kind[v], v, fab.kind[perm[v]], perm[v])
                break
        if why is None:
            for (u, v), b in fab.bw.items():
                image = (perm[u], perm[v])
                if fab.bw.get(image) != b:
                    why = "maps the link `%s` \u2192 `%s` to `%s` \u2192 `%s`, %s" % (
                        u, v, image[0], image[1],
                        "not a link" if image not in fab.bw else
                        "of bandwidth %s, not %s" % (fmt_frac(fab.bw[image]), fmt_frac(b)))
                    break
        if why is not None:
            fails.append(head + why + ": not an automorphism of the fabric")
            ok = False
            continue
        gens.append(perm)
    if not ok:
        return None
    if root not in fab.kind:
        return None  # reported with the tree
    node_orbit = orbit_labels(fab.nodes, gens, lambda g, v: g[v])
    reached = sum(1 for c in fab.compute if node_orbit[c] == node_orbit[root])
    if reached != len(fab.compute):
        fails.append(P + "symmetry: the generators take the root `%s` to %d of the %d compute "
                     "nodes: not transitive" % (root, reached, len(fab.compute)))
        return None
    return orbit_labels(list(fab.bw), gens, lambda g, e: (g[e[0]], g[e[1]]))


# ------------------------------------------------------------------ packing

def check_packing(doc, fab, collective, fails):
    """§6.1.  Returns (number of trees or None, {phase: tau} or None)."""
    P = "packing.json: "
    if not isinstance(doc, dict):
        fails.append(P + "not a JSON object")
        return None, None
    coll = doc.get("collective")
    if coll not in PHASES:
        fails.append(P + "collective: %s is not allgather, reduce-scatter or allreduce"
                     % describe(coll))
        return None, None
    if collective is not None and coll != collective:
        fails.append(P + "collective `%s` differs from the manifest's `%s`" % (coll, collective))
    trees = doc.get("trees")
    if not isinstance(trees, list):
        fails.append(P + "trees: missing or not a list")
        return None, None
    if fab is None:
        return len(trees), None

    phases = PHASES[coll]
    compute = fab.compute
    cset = set(compute)
    symmetric = "symmetry" in doc
    rep_root = None  # a symmetric packing's representative root: tree 0's
    if symmetric:
        if not trees or not isinstance(trees[0], dict):
            fails.append(P + "symmetry: a symmetric packing needs trees, from tree 0's root")
            return len(trees), None
        rep_root = trees[0].get("root")
        if not isinstance(rep_root, str):
            rep_root = None  # tree 0 reports its root
    admissible = True
    weight_sum = {ph: {r: Fraction(0) for r in compute} for ph in phases}
    load = {ph: {} for ph in phases}

    for ti, tree in enumerate(trees):
        if not isinstance(tree, dict):
            fails.append(P + "tree %d: not an object" % ti)
            admissible = False
            continue
        phase, root = tree.get("phase"), tree.get("root")
        head = "tree %d (root %s, %s)" % (ti, root if isinstance(root, str) else describe(root),
                                         phase if isinstance(phase, str) else describe(phase))
        bad = False
        if phase not in phases:
            fails.append("%s: the phase is not one of %s's (%s)" % (head, coll, ", ".join(phases)))
            bad = True
        if not isinstance(root, str) or root not in fab.kind:
            fails.append("%s: the root is not a node of the fabric" % head)
            bad = True
        elif fab.kind[root] != "compute":
            fails.append("%s: the root `%s` is not a compute node" % (head, root))
            bad = True
        if symmetric and rep_root is not None and root != rep_root:
            fails.append("%s: not the root of tree 0: a symmetric packing's trees share one root"
                         % head)
            bad = True
        weight = None
        try:
            weight = rational_string(tree.get("weight"))
            if not (0 < weight <= 1):
                fails.append("%s: weight %s is not in (0, 1]" % (head, fmt_frac(weight)))
                bad = True
        except ValueError as ex:
            fails.append("%s: weight: %s" % (head, ex))
            bad = True
            weight = None
        paths = tree.get("paths")
        if not isinstance(paths, list):
            fails.append("%s: paths: missing or not a list" % head)
            admissible = False
            continue
        parent = {}
        tree_ok = not bad
        uses = {}
        for pi, path in enumerate(paths):
            if not isinstance(path, list) or not all(isinstance(x, str) for x in path):
                fails.append("%s: path %d: not a list of node names" % (head, pi))
                tree_ok = False
                continue
            ptxt = "path %d [%s]" % (pi, ARROW.join(path))
            pfx = "%s: %s: " % (head, ptxt)
            pok = True
            if len(path) < 2:
                fails.append(pfx + "has fewer than two nodes")
                tree_ok = False
                continue
            unknown = [x for x in path if x not in fab.kind]
            for x in sorted(set(unknown)):
                fails.append(pfx + "`%s` is not a node of the fabric" % x)
                pok = False
            seen = set()
            for x in path:
                if x in seen:
                    fails.append(pfx + "passes `%s` twice" % x)
                    pok = False
                    break
                seen.add(x)
            for x in (path[0], path[-1]):
                if x in fab.kind and fab.kind[x] != "compute":
                    fails.append(pfx + "`%s` at its end is not a compute node" % x)
                    pok = False
            for u, v in zip(path, path[1:]):
                if u in fab.kind and v in fab.kind and (u, v) not in fab.bw:
                    fails.append(pfx + "`%s` \u2192 `%s` is not a link" % (u, v))
                    pok = False
            if not pok:
                tree_ok = False
                continue
            if phase not in phases:
                tree_ok = False
                continue  # no orientation to judge the tree edges by
            for u, v in zip(path, path[1:]):
                uses[(u, v)] = uses.get((u, v), 0) + 1
            # tree edge, oriented parent -> child
            if phase == "reduce-scatter":
                child, par = path[0], path[-1]
            else:
                par, child = path[0], path[-1]
            if child == root:
                fails.append(pfx + "gives the root `%s` a parent" % root)
                tree_ok = False
            elif child in parent:
                fails.append(pfx + "gives `%s` a second parent" % child)
                tree_ok = False
            else:
                parent[child] = par
        if tree_ok and root in cset:
            missing = [c for c in compute if c != root and c not in parent]
            if missing:
                more = "" if len(missing) <= 5 else " and %d more" % (len(missing) - 5)
                fails.append("%s: %s %s no parent: not a spanning arborescence of the compute nodes"
                             % (head, ", ".join("`%s`" % c for c in missing[:5]) + more,
                                "has" if len(missing) == 1 else "have"))
                tree_ok = False
            else:
                # every compute node must lead to the root without a cycle
                reaches = {root: True}
                for c in compute:
                    trail, on_trail, x = [], set(), c
                    while x not in reaches and x not in on_trail:
                        trail.append(x)
                        on_trail.add(x)
                        x = parent.get(x)
                        if x is None:
                            break
                    good = x is not None and reaches.get(x, False)
                    if not good and x is not None and x in on_trail:
                        fails.append("%s: the tree edges form a cycle through `%s`: "
                                     "not an arborescence" % (head, x))
                        tree_ok = False
                    for y in trail:
                        reaches[y] = good
                    if not tree_ok:
                        break
        if not bad:
            # the weight counts towards its root's sum even when a path is bad,
            # so that one bad path is not also reported as a missing weight
            weight_sum[phase][root] += weight
        if not tree_ok or bad:
            admissible = False
            continue
        lp = load[phase]
        for link, n in uses.items():
            lp[link] = lp.get(link, Fraction(0)) + weight * n

    orbit = None
    if symmetric:
        orbit = check_symmetry(doc["symmetry"], fab, rep_root, fails)
        if orbit is None:
            admissible = False
    for ph in phases:
        for r in ([rep_root] if symmetric else compute):
            if r in weight_sum[ph] and weight_sum[ph][r] != 1:
                fails.append("%s: the trees rooted at `%s` weigh %s in all, not 1"
                             % (ph, r, fmt_frac(weight_sum[ph][r])))
                admissible = False
    if not admissible:
        return len(trees), None
    taus = {}
    for ph in phases:
        if symmetric:
            # root r has the images g(T), g(r0) = r: by orbit-stabiliser a link e
            # carries N / |orbit(e)| times the written trees' load on its orbit
            size, orbit_load, some = {}, {}, {}
            for link, o in orbit.items():
                size[o] = size.get(o, 0) + 1
                some[o] = link
            for link, l in load[ph].items():
                orbit_load[orbit[link]] = orbit_load.get(orbit[link], Fraction(0)) + l
            n = len(compute)
            taus[ph] = max([l * n / size[o] / fab.bw[some[o]] for o, l in orbit_load.items()]
                           or [Fraction(0)])
        else:
            taus[ph] = max([l / fab.bw[link] for link, l in load[ph].items()] or [Fraction(0)])
    return len(trees), taus


# --------------------------------------------------------------------- cuts

def check_cuts(doc, fab, collective, fails):
    """§3.2/§6.1 cuts.  Returns {phase: bound} or None."""
    P = "cut.json: "
    if not isinstance(doc, dict):
        fails.append(P + "not a JSON object")
        return None
    coll = doc.get("collective")
    if coll not in PHASES:
        fails.append(P + "collective: %s is not allgather, reduce-scatter or allreduce"
                     % describe(coll))
        return None
    if collective is not None and coll != collective:
        fails.append(P + "collective `%s` differs from the manifest's `%s`" % (coll, collective))
    cuts = doc.get("cuts")
    if not isinstance(cuts, list):
        fails.append(P + "cuts: missing or not a list")
        return None
    if fab is None:
        return None
    phases = PHASES[coll]
    cset = set(fab.compute)
    bounds = {}
    ok = True
    for ci, cut in enumerate(cuts):
        if not isinstance(cut, dict):
            fails.append(P + "cut %d: not an object" % ci)
            ok = False
            continue
        phase, names = cut.get("phase"), cut.get("nodes")
        head = P + "cut %d (%s)" % (ci, phase if isinstance(phase, str) else describe(phase))
        if phase not in phases:
            fails.append(head + ": the phase is not one of %s's (%s)" % (coll, ", ".join(phases)))
            ok = False
            continue
        if phase in bounds:
            fails.append(head + ": a second cut for this phase (one cut per phase)")
            ok = False
            continue
        bounds[phase] = None
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            fails.append(head + ": nodes: not a list of node names")
            ok = False
            continue
        S, cok = set(), True
        for x in names:
            if x not in fab.kind:
                fails.append(head + ": `%s` is not a node of the fabric" % x)
                cok = False
            elif x in S:
                fails.append(head + ": `%s` is listed twice" % x)
                cok = False
            S.add(x)
        inside = len(S & cset)
        outside = len(cset - S)
        if inside == 0 or outside == 0:
            fails.append(head + ": holds %s compute nodes; a cut holds some but not all"
                         % ("no" if inside == 0 else "all"))
            cok = False
        b_out = sum((b for (u, v), b in fab.bw.items() if u in S and v not in S), Fraction(0))
        if b_out == 0:
            fails.append(head + ": no link leaves it")
            cok = False
        if not cok:
            ok = False
            continue
        num = inside if phase == "allgather" else outside
        bounds[phase] = Fraction(num) / b_out
    for ph in phases:
        if ph not in bounds:
            fails.append(P + "no cut for the %s phase" % ph)
            ok = False
    if not ok:
        return None
    return bounds


# ----------------------------------------------------------------- manifest

def close(a, b):
    return abs(a - b) <= FLOAT_REL_TOL * max(abs(a), abs(b), 1e-300)


def check(dirpath):
    """Returns (exit code, failure lines)."""
    if not os.path.isdir(dirpath):
        return 2, ["%s: not a folder" % dirpath]
    try:
        os.listdir(dirpath)
    except OSError as e:
        return 2, ["%s: cannot be listed (%s)" % (dirpath, e.strerror or e)]
    raws = {}
    for name in ("manifest.json",) + DATA_FILES:
        try:
            with open(os.path.join(dirpath, name), "rb") as fh:
                raws[name] = fh.read()
        except OSError as e:
            raws[name] = None
            raws[name + "!err"] = e.strerror or str(e)
    if raws["manifest.json"] is None:
        return 2, ["manifest.json: cannot be read (%s)" % raws["manifest.json!err"]]

    fails = []
    docs = {}
    for name in ("manifest.json",) + DATA_FILES:
        if raws[name] is None:
            fails.append("%s: cannot be read (%s)" % (name, raws[name + "!err"]))
            docs[name] = None
            continue
        try:
            docs[name] = load_json(raws[name], name)
        except Bad as e:
            fails.append(str(e))
            docs[name] = None

    # ---- manifest fields and file hashes
    man = docs["manifest.json"]
    M = "manifest.json: "
    collective = None
    if man is not None and not isinstance(man, dict):
        fails.append(M + "not a JSON object")
        man = None
    if man is not None:
        if man.get("format") != FORMAT:
            fails.append(M + "format: %s is not %s" % (describe(man.get("format")), json.dumps(FORMAT)))
        for k in ("commsched", "network"):
            if not isinstance(man.get(k), str):
                fails.append(M + "%s: missing or not a string" % k)
        if "solve_seconds" in man and not is_number(man["solve_seconds"]):
            fails.append(M + "solve_seconds: not a number")
        collective = man.get("collective")
        if collective not in PHASES:
            fails.append(M + "collective: %s is not allgather, reduce-scatter or allreduce"
                         % describe(collective))
            collective = None
        files = man.get("files")
        if not isinstance(files, list):
            fails.append(M + "files: missing or not a list")
        else:
            listed = set()
            for i, f in enumerate(files):
                if not isinstance(f, dict) or f.get("name") not in DATA_FILES:
                    fails.append(M + "files[%d]: name %s is not one of %s" % (
                        i, describe(f.get("name") if isinstance(f, dict) else f), ", ".join(DATA_FILES)))
                    continue
                name = f["name"]
                if name in listed:
                    fails.append(M + "files[%d]: %s listed twice" % (i, name))
                    continue
                listed.add(name)
                raw = raws[name]
                if raw is None:
                    continue
                if not is_int(f.get("bytes")):
                    fails.append(M + "files[%d].bytes: missing or not an integer" % i)
                elif f["bytes"] != len(raw):
                    fails.append("%s: %d bytes, the manifest says %d" % (name, len(raw), f["bytes"]))
                sha = f.get("sha256")
                if not isinstance(sha, str):
                    fails.append(M + "files[%d].sha256: missing or not a string" % i)
                elif sha.lower() != hashlib.sha256(raw).hexdigest():
                    fails.append("%s: SHA-256 %s, the manifest says %s"
                                 % (name, hashlib.sha256(raw).hexdigest(), sha))
            for name in DATA_FILES:
                if name not in listed:
                    fails.append(M + "files: %s is not listed" % name)

    # ---- fabric, packing, cuts
    fab = None
    if docs["network.json"] is not None:
        fab = read_fabric(docs["network.json"], fails)
    ntrees, taus = (None, None)
    if docs["packing.json"] is not None:
        ntrees, taus = check_packing(docs["packing.json"], fab, collective, fails)
    bounds = None
    if docs["cut.json"] is not None:
        bounds = check_cuts(docs["cut.json"], fab, collective, fails)
    if taus is not None and bounds is not None and set(taus) != set(bounds):
        fails.append("packing.json and cut.json are for different collectives")
        taus_total = bound_total = None
    else:
        taus_total = sum(taus.values(), Fraction(0)) if taus is not None else None
        bound_total = sum(bounds.values(), Fraction(0)) if bounds is not None else None

    # ---- duality
    if taus_total is not None and bound_total is not None:
        if taus_total != bound_total:
            per = "; ".join("%s: packing %s, cut %s" % (ph, fmt_frac(taus[ph]), fmt_frac(bounds[ph]))
                            for ph in taus)
            if bound_total < taus_total:
                fails.append("the cuts' bound %s is below the packing's time %s: the pair proves "
                             "no optimum (%s)" % (fmt_frac(bound_total), fmt_frac(taus_total), per))
            else:
                fails.append("the cuts' bound %s exceeds the packing's time %s, which weak duality "
                             "forbids (%s)" % (fmt_frac(bound_total), fmt_frac(taus_total), per))

    # ---- manifest figures
    if man is not None:
        if fab is not None:
            n = len(fab.compute)
            if not is_int(man.get("compute_nodes")):
                fails.append(M + "compute_nodes: missing or not an integer")
            elif man["compute_nodes"] != n:
                fails.append(M + "compute_nodes is %d, the fabric has %d" % (man["compute_nodes"], n))
        if ntrees is not None:
            if not is_int(man.get("trees")):
                fails.append(M + "trees: missing or not an integer")
            elif man["trees"] != ntrees:
                fails.append(M + "trees is %d, packing.json has %d" % (man["trees"], ntrees))
        # the reference time: the packing's if it could be measured, else the cuts' bound
        ref = taus_total if taus_total is not None else bound_total
        ref_src = "the packing's time" if taus_total is not None else "the cuts' bound"
        tps = None
        try:
            tps = rational_string(man.get("time_per_shard"))
        except ValueError as ex:
            fails.append(M + "time_per_shard: %s" % ex)
        if tps is not None and ref is not None and tps != ref:
            fails.append(M + "time_per_shard is %s, %s is %s" % (fmt_frac(tps), ref_src, fmt_frac(ref)))
        if fab is not None and ref is not None and collective is not None and ref > 0:
            n = len(fab.compute)
            algbw = n / ref
            factor = Fraction(2 * (n - 1), n) if collective == "allreduce" else Fraction(n - 1, n)
            busbw = algbw * factor
            for k, want in (("algbw", algbw), ("busbw", busbw)):
                got = man.get(k)
                if not is_number(got):
                    fails.append(M + "%s: missing or not a number" % k)
                    continue
                try:
                    gotf = float(got.text) if isinstance(got, JFloat) else float(got)
                except (ValueError, OverflowError):
                    fails.append(M + "%s: %s is not a usable number" % (k, describe(got)))
                    continue
                if not close(gotf, float(want)):
                    fails.append(M + "%s is %r, %s gives %r (= %s)"
                                 % (k, gotf, ref_src, float(want), fmt_frac(want)))
        elif ref is None:
            for k in ("algbw", "busbw"):
                if not is_number(man.get(k)):
                    fails.append(M + "%s: missing or not a number" % k)
    return (1 if fails else 0), fails


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: %s DIR\n" % (argv[0] if argv else "check_bandwidth_certificate.py"))
        return 2
    try:
        code, lines = check(argv[1])
    except MemoryError:
        code, lines = 1, ["the certificate is too large to check in memory"]
    except RecursionError:
        code, lines = 1, ["a value is nested too deeply"]
    except Exception as e:  # never a traceback: report and fail
        code, lines = 1, ["checker error (%s: %s); the certificate could not be judged"
                          % (type(e).__name__, e)]
    if code == 0:
        print("valid")
    else:
        for line in lines:
            print(line)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
