//! Networks (SPEC §2): the built-in families with their fixed node numbering, the atlas of
//! designated paths (paper 000 §2.1) and forward levels (paper 000 §3.4).

use super::limits::Resource;
use crate::error::InputError;
use std::collections::HashMap;
use std::fmt;

/// A node id, `0..network.len()`.
pub type Node = usize;

/// The built-in network families of SPEC §2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Family {
    /// Unidirectional linear array: arcs (x, x+1).
    Ula(usize),
    /// Bidirectional linear array.
    Path(usize),
    /// Bidirectional ring.
    Ring(usize),
    /// Unidirectional ring: arcs (x, x+1 mod n).
    URing(usize),
    /// `rows x cols` mesh, node (i, j) -> i*cols + j.
    Mesh(usize, usize),
    /// `rows x cols` torus.
    Torus(usize, usize),
    /// Eastward-Southward mesh `n x n` (paper 000 §5.2).
    Esm(usize),
    /// Rooted bidirectional tree given by its parent list; `parent[0]` is the root's own entry
    /// and is ignored (root 0).
    Tree(Vec<Node>),
    /// Ideal fat-tree with N processors at the leaves (paper 002); only processors are nodes.
    FatTree(usize),
    /// Explicit graph with `n` nodes.
    Graph(usize),
}

impl Family {
    /// The family without its size.
    pub fn kind(&self) -> FamilyKind {
        match self {
            Family::Ula(_) => FamilyKind::Ula,
            Family::Path(_) => FamilyKind::Path,
            Family::Ring(_) => FamilyKind::Ring,
            Family::URing(_) => FamilyKind::URing,
            Family::Mesh(..) => FamilyKind::Mesh,
            Family::Torus(..) => FamilyKind::Torus,
            Family::Esm(_) => FamilyKind::Esm,
            Family::Tree(_) => FamilyKind::Tree,
            Family::FatTree(_) => FamilyKind::FatTree,
            Family::Graph(_) => FamilyKind::Graph,
        }
    }
}

/// The network families of SPEC §2 without their sizes, as applicability descriptions name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FamilyKind {
    /// `ula:N`.
    Ula,
    /// `path:N`.
    Path,
    /// `ring:N`.
    Ring,
    /// `uring:N`.
    URing,
    /// `mesh:RxC`.
    Mesh,
    /// `torus:RxC`.
    Torus,
    /// `esm:N`.
    Esm,
    /// `tree:...`.
    Tree,
    /// `fat-tree:N`.
    FatTree,
    /// An explicit graph.
    Graph,
}

impl FamilyKind {
    /// The prefix of the family's network strings (`mesh`, `fat-tree`).
    pub fn name(self) -> &'static str {
        match self {
            FamilyKind::Ula => "ula",
            FamilyKind::Path => "path",
            FamilyKind::Ring => "ring",
            FamilyKind::URing => "uring",
            FamilyKind::Mesh => "mesh",
            FamilyKind::Torus => "torus",
            FamilyKind::Esm => "esm",
            FamilyKind::Tree => "tree",
            FamilyKind::FatTree => "fat-tree",
            FamilyKind::Graph => "graph",
        }
    }
}

impl fmt::Display for FamilyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a ring's antipodal ties are routed (SPEC §2 atlas).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RingTie {
    /// Antipodal messages go clockwise (increasing ids).
    #[default]
    Clockwise,
    /// Antipodal messages go counter-clockwise.
    Counterclockwise,
    /// Paper 004 §4.2: clockwise from even sources, counter-clockwise from odd sources.
    Alternating,
}

/// A switch group (SCCL's `switches`, docs/spec.md §2.4): in every step, the chunks sent from
/// its sources to its destinations, counted once per (source, destination) pair, are at most
/// `bandwidth` times the step's rounds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Switch {
    /// The sending nodes.
    pub sources: Vec<Node>,
    /// The receiving nodes.
    pub destinations: Vec<Node>,
    /// Chunks per round, ≥ 1.
    pub bandwidth: u64,
    /// Its name (`node_0_out`), for diagnostics.
    pub name: String,
}

/// A directed graph with its family. Arcs are indexed `0..arcs.len()`; each has an integer
/// bandwidth (1 unless the network says otherwise), and switch groups may share budgets.
#[derive(Debug, Clone)]
pub struct Network {
    family: Family,
    n: usize,
    arcs: Vec<(Node, Node)>,
    index: HashMap<(Node, Node), usize>,
    bandwidth: Vec<u64>,
    switches: Vec<Switch>,
    /// The registry string of a named topology (`dgx1`, `star:5`), which `spec_string` prints.
    name: Option<String>,
}

impl PartialEq for Network {
    fn eq(&self, other: &Self) -> bool {
        self.family == other.family
            && self.arcs == other.arcs
            && self.bandwidth == other.bandwidth
            && self.switches == other.switches
    }
}

impl Network {
    /// Builds a network of a family. Errors name the reason (the caller adds file and field).
    pub fn new(family: Family) -> Result<Self, String> {
        let nodes = match &family {
            Family::Ula(n) | Family::Path(n) | Family::Ring(n) | Family::URing(n) => Some(*n as u64),
            Family::Mesh(r, c) | Family::Torus(r, c) => (*r as u64).checked_mul(*c as u64),
            Family::Esm(n) => (*n as u64).checked_mul(*n as u64),
            Family::Tree(parent) => Some(parent.len() as u64),
            Family::FatTree(n) | Family::Graph(n) => Some(*n as u64),
        };
        Resource::Nodes.guard(nodes, "the network")?;
        let mut arcs = Vec::new();
        let both = |arcs: &mut Vec<(Node, Node)>, u, v| {
            arcs.push((u, v));
            arcs.push((v, u));
        };
        let n = match &family {
            Family::Ula(n) | Family::Path(n) => {
                if *n < 2 {
                    return Err(format!("a linear array needs at least 2 nodes, got {n}"));
                }
                for x in 0..n - 1 {
                    if matches!(family, Family::Ula(_)) {
                        arcs.push((x, x + 1));
                    } else {
                        both(&mut arcs, x, x + 1);
                    }
                }
                *n
            }
            Family::Ring(n) | Family::URing(n) => {
                if *n < 3 {
                    return Err(format!("a ring needs at least 3 nodes, got {n}"));
                }
                for x in 0..*n {
                    if matches!(family, Family::URing(_)) {
                        arcs.push((x, (x + 1) % n));
                    } else {
                        both(&mut arcs, x, (x + 1) % n);
                    }
                }
                *n
            }
            Family::Mesh(r, c) | Family::Torus(r, c) => {
                let torus = matches!(family, Family::Torus(..));
                if *r < 1 || *c < 1 || r * c < 2 {
                    return Err(format!("a mesh needs at least 2 nodes, got {r}x{c}"));
                }
                if torus && (*r < 3 || *c < 3) {
                    return Err(format!(
                        "a torus needs at least 3 rows and 3 columns (smaller ones duplicate links), got {r}x{c}"
                    ));
                }
                for i in 0..*r {
                    for j in 0..*c {
                        let id = i * c + j;
                        if j + 1 < *c {
                            both(&mut arcs, id, id + 1);
                        } else if torus {
                            both(&mut arcs, id, i * c);
                        }
                        if i + 1 < *r {
                            both(&mut arcs, id, id + c);
                        } else if torus {
                            both(&mut arcs, id, j);
                        }
                    }
                }
                r * c
            }
            Family::Esm(n) => {
                if *n < 2 {
                    return Err(format!("an ESM needs n >= 2, got {n}"));
                }
                for i in 0..*n {
                    for j in 0..*n {
                        let id = i * n + j;
                        if j + 1 < *n {
                            arcs.push((id, id + 1));
                        }
                        if i + 1 < *n {
                            arcs.push((id, id + n));
                        }
                    }
                }
                n * n
            }
            Family::Tree(parent) => {
                let n = parent.len();
                if n < 2 {
                    return Err(format!("a tree needs at least 2 nodes, got {n}"));
                }
                for (v, &p) in parent.iter().enumerate().skip(1) {
                    if p >= v {
                        return Err(format!(
                            "tree node {v} has parent {p}: parents must be numbered below their children"
                        ));
                    }
                    both(&mut arcs, p, v);
                }
                n
            }
            Family::FatTree(n) => {
                if *n < 2 || !n.is_power_of_two() {
                    return Err(format!("a fat-tree needs a power of two >= 2 processors, got {n}"));
                }
                *n
            }
            Family::Graph(_) => return Err("use Network::graph for explicit graphs".into()),
        };
        Ok(Self::from_arcs(family, n, arcs))
    }

    /// An explicit graph; arcs must name nodes `0..n` and not repeat.
    pub fn graph(n: usize, arcs: Vec<(Node, Node)>) -> Result<Self, String> {
        let weighted = arcs.into_iter().map(|(u, v)| (u, v, 1)).collect();
        Self::weighted(n, weighted, Vec::new())
    }

    /// An explicit graph with a bandwidth on every arc `(u, v, b)` and switch groups
    /// (docs/spec.md §2.4). Errors name the arc or switch and the reason.
    pub fn weighted(n: usize, arcs: Vec<(Node, Node, u64)>, switches: Vec<Switch>) -> Result<Self, String> {
        if n < 1 {
            return Err("a graph needs at least 1 node".into());
        }
        Resource::Nodes.guard(Some(n as u64), "the network")?;
        let mut seen = std::collections::HashSet::new();
        for &(u, v, b) in &arcs {
            if u >= n || v >= n {
                return Err(format!("arc ({u},{v}) names a node outside 0..{}", n - 1));
            }
            if u == v {
                return Err(format!("arc ({u},{v}) is a self-link"));
            }
            if !seen.insert((u, v)) {
                return Err(format!("arc ({u},{v}) is listed twice"));
            }
            if b == 0 {
                return Err(format!("arc ({u},{v}) has bandwidth 0: leave the arc out instead"));
            }
        }
        for sw in &switches {
            if sw.bandwidth == 0 {
                return Err(format!("switch `{}` has bandwidth 0: a switch needs at least 1", sw.name));
            }
            if let Some(v) = sw.sources.iter().chain(&sw.destinations).find(|&&v| v >= n) {
                return Err(format!("switch `{}` names node {v}, outside 0..{}", sw.name, n - 1));
            }
            if sw.sources.is_empty() || sw.destinations.is_empty() {
                return Err(format!("switch `{}` needs at least one source and one destination", sw.name));
            }
        }
        let bandwidth = arcs.iter().map(|a| a.2).collect();
        let arcs = arcs.into_iter().map(|(u, v, _)| (u, v)).collect();
        let mut net = Self::from_arcs(Family::Graph(n), n, arcs);
        net.bandwidth = bandwidth;
        net.switches = switches;
        Ok(net)
    }

    fn from_arcs(family: Family, n: usize, arcs: Vec<(Node, Node)>) -> Self {
        let index = arcs.iter().enumerate().map(|(i, &a)| (a, i)).collect();
        let bandwidth = vec![1; arcs.len()];
        Self { family, n, arcs, index, bandwidth, switches: Vec::new(), name: None }
    }

    /// Every arc turned around, with its bandwidth, and every switch group's sources and
    /// destinations swapped (SCCL's `reverse_topology`): where a reduction's non-combining dual
    /// runs (docs/spec.md §3.1).
    pub fn reversed(&self) -> Self {
        let arcs = self.arcs.iter().enumerate().map(|(a, &(u, v))| (v, u, self.bandwidth(a))).collect();
        let switches = self
            .switches
            .iter()
            .map(|s| Switch {
                sources: s.destinations.clone(),
                destinations: s.sources.clone(),
                bandwidth: s.bandwidth,
                name: s.name.clone(),
            })
            .collect();
        let reversed =
            Network::weighted(self.len(), arcs, switches).expect("the reverse of a network is one");
        reversed.named(format!("{} reversed", self.spec_string()))
    }

    /// The same network under a registry name, which [`Network::spec_string`] then prints.
    pub fn named(mut self, name: String) -> Self {
        self.name = Some(name);
        self
    }

    /// The bandwidth of arc `a` (chunks per round; 1 on the papers' families).
    pub fn bandwidth(&self, a: usize) -> u64 {
        self.bandwidth[a]
    }

    /// The switch groups (empty on the papers' families).
    pub fn switches(&self) -> &[Switch] {
        &self.switches
    }

    /// Whether every arc has bandwidth 1 and no switch shares a budget: the networks the
    /// papers' models (SPEC §4.1–§4.3) are stated for.
    pub fn is_unit(&self) -> bool {
        self.bandwidth.iter().all(|&b| b == 1) && self.switches.is_empty()
    }

    /// Whether the network is an explicit graph (from a file or the topology registry).
    pub fn is_explicit(&self) -> bool {
        matches!(self.family, Family::Graph(_))
    }

    /// The largest finite hop distance between two nodes, and whether every node reaches
    /// every other.
    pub fn diameter(&self) -> (usize, bool) {
        let mut diameter = 0;
        let mut strong = true;
        for s in 0..self.n {
            for d in self.distances_from(s) {
                if d == usize::MAX {
                    strong = false;
                } else {
                    diameter = diameter.max(d);
                }
            }
        }
        (diameter, strong)
    }

    /// Parses a network string: `path:6`, `ring:7`, `uring:5`, `ula:8`, `mesh:4x4`,
    /// `torus:5x5`, `esm:4`, `fat-tree:16`, `tree:0,0,1,1` (parent of nodes 1.., root 0), or a
    /// name of the topology registry ([`super::topology::TOPOLOGIES`]: `dgx1`, `star:5`, …).
    pub fn parse(s: &str) -> Result<Self, String> {
        if let Some(net) = super::topology::parse_named(s)? {
            return Ok(net);
        }
        let (kind, arg) = s
            .split_once(':')
            .ok_or_else(|| format!("`{s}` is not FAMILY:SIZE (e.g. path:6, ring:7, mesh:4x4)"))?;
        let num = |t: &str| -> Result<usize, String> {
            t.trim().parse::<usize>().map_err(|_| format!("`{t}` is not a non-negative integer in `{s}`"))
        };
        let dims = |t: &str| -> Result<(usize, usize), String> {
            let (a, b) = t.split_once('x').ok_or_else(|| format!("`{t}` is not ROWSxCOLS in `{s}`"))?;
            Ok((num(a)?, num(b)?))
        };
        let family = match kind {
            "ula" => Family::Ula(num(arg)?),
            "path" => Family::Path(num(arg)?),
            "ring" => Family::Ring(num(arg)?),
            "uring" => Family::URing(num(arg)?),
            "mesh" => {
                let (r, c) = dims(arg)?;
                Family::Mesh(r, c)
            }
            "torus" => {
                let (r, c) = dims(arg)?;
                Family::Torus(r, c)
            }
            "esm" => Family::Esm(num(arg)?),
            "fat-tree" => Family::FatTree(num(arg)?),
            "tree" => {
                let mut parent = vec![0];
                for t in arg.split(',') {
                    parent.push(num(t)?);
                }
                Family::Tree(parent)
            }
            _ => {
                return Err(format!(
                    "unknown network family `{kind}` (known: ula, path, ring, uring, mesh, torus, esm, tree, \
                     fat-tree, {})",
                    super::topology::names()
                ));
            }
        };
        Self::new(family)
    }

    /// The family.
    pub fn family(&self) -> &Family {
        &self.family
    }

    /// Number of nodes (processors, for a fat-tree).
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the network has no nodes (never true for a built network).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// All arcs, indexed.
    pub fn arcs(&self) -> &[(Node, Node)] {
        &self.arcs
    }

    /// The index of arc (u, v), if present.
    pub fn arc(&self, u: Node, v: Node) -> Option<usize> {
        self.index.get(&(u, v)).copied()
    }

    /// Whether {u, v} is a link (both arcs present).
    pub fn is_link(&self, u: Node, v: Node) -> bool {
        self.arc(u, v).is_some() && self.arc(v, u).is_some()
    }

    /// Out-neighbours of every node.
    pub fn out_neighbours(&self) -> Vec<Vec<Node>> {
        let mut out = vec![Vec::new(); self.n];
        for &(u, v) in &self.arcs {
            out[u].push(v);
        }
        out
    }

    /// The canonical string of a built-in family (`ring:7`) or a named topology (`dgx1`), used
    /// in reports and `gen`; `graph:N` for an explicit graph, which files write as a table.
    pub fn spec_string(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        match &self.family {
            Family::Ula(n) => format!("ula:{n}"),
            Family::Path(n) => format!("path:{n}"),
            Family::Ring(n) => format!("ring:{n}"),
            Family::URing(n) => format!("uring:{n}"),
            Family::Mesh(r, c) => format!("mesh:{r}x{c}"),
            Family::Torus(r, c) => format!("torus:{r}x{c}"),
            Family::Esm(n) => format!("esm:{n}"),
            Family::FatTree(n) => format!("fat-tree:{n}"),
            Family::Tree(p) => {
                let parents: Vec<String> = p[1..].iter().map(|x| x.to_string()).collect();
                format!("tree:{}", parents.join(","))
            }
            Family::Graph(n) => format!("graph:{n}"),
        }
    }

    /// Breadth-first hop distances from `s` (usize::MAX where unreachable).
    pub fn distances_from(&self, s: Node) -> Vec<usize> {
        let out = self.out_neighbours();
        let mut dist = vec![usize::MAX; self.n];
        let mut queue = std::collections::VecDeque::from([s]);
        dist[s] = 0;
        while let Some(u) = queue.pop_front() {
            for &v in &out[u] {
                if dist[v] == usize::MAX {
                    dist[v] = dist[u] + 1;
                    queue.push_back(v);
                }
            }
        }
        dist
    }

    /// Hop distance from u to v in this network (for a fat-tree: 2 x LCA height, SPEC §4.3).
    pub fn distance(&self, u: Node, v: Node) -> Option<usize> {
        if let Family::FatTree(_) = self.family {
            return Some(2 * fat_tree_lca_height(u, v));
        }
        self.default_path(u, v, RingTie::Clockwise).map(|p| p.len() - 1)
    }

    /// The atlas's default designated path from `u` to `v` as a node sequence (SPEC §2):
    /// unique path on ula/path/tree, shorter direction on rings (ties by `tie`), one-turn
    /// east-then-south on esm, dimension order (row first, i.e. along the row to the target
    /// column, then along the column) on mesh/torus, a BFS shortest path on explicit graphs.
    /// `None` when `v` cannot be reached from `u`.
    pub fn default_path(&self, u: Node, v: Node, tie: RingTie) -> Option<Vec<Node>> {
        if u >= self.n || v >= self.n {
            return None;
        }
        if u == v {
            return Some(vec![u]);
        }
        match &self.family {
            Family::Ula(_) => (u < v).then(|| (u..=v).collect()),
            Family::Path(_) => Some(if u < v { (u..=v).collect() } else { (v..=u).rev().collect() }),
            Family::Ring(n) | Family::URing(n) => {
                let n = *n;
                let cw = (v + n - u) % n;
                let ccw = n - cw;
                let clockwise = match self.family {
                    Family::URing(_) => true,
                    _ if cw != ccw => cw < ccw,
                    _ => match tie {
                        RingTie::Clockwise => true,
                        RingTie::Counterclockwise => false,
                        RingTie::Alternating => u.is_multiple_of(2),
                    },
                };
                let (steps, dir) = if clockwise { (cw, 1) } else { (ccw, n - 1) };
                Some((0..=steps).map(|k| (u + k * dir) % n).collect())
            }
            Family::Mesh(_, c) | Family::Torus(_, c) => {
                let torus = matches!(self.family, Family::Torus(..));
                let rows = self.n / c;
                let (ui, uj) = (u / c, u % c);
                let (vi, vj) = (v / c, v % c);
                let mut path = vec![u];
                let mut j = uj;
                for next in line_walk(uj, vj, *c, torus) {
                    j = next;
                    path.push(ui * c + j);
                }
                for next in line_walk(ui, vi, rows, torus) {
                    path.push(next * c + j);
                }
                Some(path)
            }
            Family::Esm(n) => {
                let (ui, uj) = (u / n, u % n);
                let (vi, vj) = (v / n, v % n);
                if vi < ui || vj < uj {
                    return None;
                }
                let mut path: Vec<Node> = (uj..=vj).map(|j| ui * n + j).collect();
                path.extend((ui + 1..=vi).map(|i| i * n + vj));
                Some(path)
            }
            Family::Tree(parent) => {
                let ancestors = |mut x: Node| {
                    let mut a = vec![x];
                    while x != 0 {
                        x = parent[x];
                        a.push(x);
                    }
                    a
                };
                let au = ancestors(u);
                let av = ancestors(v);
                let lca = *au.iter().find(|x| av.contains(x))?;
                let mut path: Vec<Node> = au.iter().copied().take_while(|&x| x != lca).collect();
                path.push(lca);
                let down: Vec<Node> = av.iter().copied().take_while(|&x| x != lca).collect();
                path.extend(down.into_iter().rev());
                Some(path)
            }
            Family::FatTree(_) => None,
            Family::Graph(_) => self.bfs_path(u, v),
        }
    }

    fn bfs_path(&self, u: Node, v: Node) -> Option<Vec<Node>> {
        let out = self.out_neighbours();
        let mut prev = vec![usize::MAX; self.n];
        prev[u] = u;
        let mut queue = std::collections::VecDeque::from([u]);
        while let Some(x) = queue.pop_front() {
            for &y in &out[x] {
                if prev[y] == usize::MAX {
                    prev[y] = x;
                    queue.push_back(y);
                }
            }
        }
        if prev[v] == usize::MAX {
            return None;
        }
        let mut path = vec![v];
        let mut x = v;
        while x != u {
            x = prev[x];
            path.push(x);
        }
        path.reverse();
        Some(path)
    }

    /// Checks that `path` is a walk in the network from `u` to `v`; returns its arc indices.
    pub fn walk_arcs(&self, path: &[Node], u: Node, v: Node) -> Result<Vec<usize>, String> {
        if path.first() != Some(&u) || path.last() != Some(&v) {
            return Err(format!("path {path:?} does not run from {u} to {v}"));
        }
        path.windows(2)
            .map(|w| {
                self.arc(w[0], w[1])
                    .ok_or_else(|| format!("path {path:?} uses ({},{}), which is not an arc", w[0], w[1]))
            })
            .collect()
    }

    /// Forward levels (paper 000 §3.4): `Ok(level of each node)` when every arc goes from
    /// level i to level i+1, otherwise `Err(reason)` naming an arc that breaks it.
    pub fn levels(&self) -> Result<Vec<usize>, String> {
        if let Family::FatTree(_) = self.family {
            return Err("an ideal fat-tree has channels, not arcs between processors".into());
        }
        let n = self.n;
        let mut level: Vec<Option<i64>> = vec![None; n];
        let mut adj: Vec<Vec<(Node, i64)>> = vec![Vec::new(); n];
        for &(u, v) in &self.arcs {
            adj[u].push((v, 1));
            adj[v].push((u, -1));
        }
        for s in 0..n {
            if level[s].is_some() {
                continue;
            }
            level[s] = Some(0);
            let mut stack = vec![s];
            let mut component = vec![s];
            while let Some(x) = stack.pop() {
                let lx = level[x].expect("set before push");
                for &(y, d) in &adj[x] {
                    match level[y] {
                        None => {
                            level[y] = Some(lx + d);
                            stack.push(y);
                            component.push(y);
                        }
                        Some(ly) if ly != lx + d => {
                            let (a, b) = if d == 1 { (x, y) } else { (y, x) };
                            return Err(format!(
                                "not forward-leveled: arc ({a},{b}) closes a cycle whose arcs do not all rise by one level"
                            ));
                        }
                        Some(_) => {}
                    }
                }
            }
            let min = component.iter().map(|&x| level[x].expect("set")).min().unwrap_or(0);
            for &x in &component {
                level[x] = Some(level[x].expect("set") - min);
            }
        }
        Ok(level.into_iter().map(|l| l.expect("every node visited") as usize).collect())
    }
}

/// Steps along one dimension of a mesh (or torus, shorter way, ties forward) from `a` to `b`,
/// excluding `a`.
fn line_walk(a: usize, b: usize, len: usize, torus: bool) -> Vec<usize> {
    if a == b {
        return Vec::new();
    }
    if !torus {
        return if a < b { (a + 1..=b).collect() } else { (b..a).rev().collect() };
    }
    let fwd = (b + len - a) % len;
    let back = len - fwd;
    if fwd <= back {
        (1..=fwd).map(|k| (a + k) % len).collect()
    } else {
        (1..=back).map(|k| (a + len - k) % len).collect()
    }
}

/// Height of the lowest common ancestor of leaves `a` and `b` in a complete binary tree
/// (0 when a == b) (paper 002 §2).
pub fn fat_tree_lca_height(a: Node, b: Node) -> usize {
    (usize::BITS - (a ^ b).leading_zeros()) as usize
}

/// The step at whose end a fat-tree message from `a` to `b` submitted in `step` is received:
/// step + 2h − 1 with h their LCA height (SPEC §4.3).
pub fn fat_tree_arrival(a: Node, b: Node, step: i64) -> i64 {
    step + 2 * fat_tree_lca_height(a, b) as i64 - 1
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spec_string())
    }
}

/// Parses a network string for a file field, mapping the reason into an [`InputError`].
pub fn parse_network_field(s: &str, file: &str, field: &str) -> Result<Network, InputError> {
    Network::parse(s).map_err(|r| InputError::new(file, field, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_have_the_spec_arc_counts() {
        assert_eq!(Network::parse("ula:5").unwrap().arcs().len(), 4);
        assert_eq!(Network::parse("path:5").unwrap().arcs().len(), 8);
        assert_eq!(Network::parse("ring:5").unwrap().arcs().len(), 10);
        assert_eq!(Network::parse("mesh:3x4").unwrap().arcs().len(), 2 * (3 * 3 + 2 * 4));
        assert_eq!(Network::parse("torus:3x4").unwrap().arcs().len(), 2 * 2 * 12);
        assert_eq!(Network::parse("esm:3").unwrap().arcs().len(), 12);
    }

    #[test]
    fn atlas_defaults() {
        let ring = Network::parse("ring:6").unwrap();
        assert_eq!(ring.default_path(1, 4, RingTie::Alternating).unwrap(), vec![1, 0, 5, 4]);
        assert_eq!(ring.default_path(2, 5, RingTie::Alternating).unwrap(), vec![2, 3, 4, 5]);
        let esm = Network::parse("esm:3").unwrap();
        assert_eq!(esm.default_path(0, 8, RingTie::Clockwise).unwrap(), vec![0, 1, 2, 5, 8]);
        let mesh = Network::parse("mesh:3x3").unwrap();
        assert_eq!(mesh.default_path(8, 0, RingTie::Clockwise).unwrap(), vec![8, 7, 6, 3, 0]);
        let tree = Network::parse("tree:0,0,1,1").unwrap();
        assert_eq!(tree.default_path(3, 2, RingTie::Clockwise).unwrap(), vec![3, 1, 0, 2]);
    }

    #[test]
    fn levels_exist_exactly_on_fl_networks() {
        assert_eq!(Network::parse("ula:4").unwrap().levels().unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(Network::parse("esm:2").unwrap().levels().unwrap(), vec![0, 1, 1, 2]);
        assert!(Network::parse("path:3").unwrap().levels().is_err());
        assert!(Network::parse("uring:3").unwrap().levels().is_err());
    }
}
