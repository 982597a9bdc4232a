//! Networks (SPEC §2): directed graphs with their family, the atlas of designated paths
//! (paper 000 §2.1) and forward levels (paper 000 §3.4). Each family is one file of this
//! module registered in [`family::FAMILIES`].

pub mod diameter;
pub mod esm;
pub mod family;
pub mod fat_tree;
pub mod graph;
pub mod grid;
pub mod line;
pub mod ring;
pub mod tree;

pub use family::{Family, FamilyKind, NetworkFamily};
pub use fat_tree::{fat_tree_arrival, fat_tree_lca_height};

use super::limits::Resource;
use crate::error::InputError;
use std::collections::HashMap;
use std::fmt;

/// A node id, `0..network.len()`.
pub type Node = usize;

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
    /// The diameter of a named topology whose closed form gives it (strongly connected).
    known_diameter: Option<usize>,
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
        let (n, arcs) = family.definition().build(&family)?;
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
        if n < 2 {
            return Err(super::topology::one_node(n));
        }
        Resource::Nodes.guard(Some(n as u64), "the network")?;
        let members: usize = switches.iter().map(|s| s.sources.len() + s.destinations.len()).sum();
        Resource::Arcs.guard(
            (arcs.len() as u64).checked_add(members as u64),
            "the network (its arcs and switch-group members)",
        )?;
        for &(u, v, b) in &arcs {
            if u >= n || v >= n {
                return Err(format!("arc ({u},{v}) names a node outside 0..{}", n - 1));
            }
            if u == v {
                return Err(format!("arc ({u},{v}) is a self-link"));
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
        // The index has one entry per distinct arc: fewer means an arc is listed twice.
        if net.index.len() < net.arcs.len() {
            // A repeated arc's index is its last place, so its first place is found.
            let twice = net.arcs.iter().enumerate().find(|&(a, arc)| net.index.get(arc) != Some(&a));
            return Err(twice.map_or("an arc is listed twice".into(), |(_, (u, v))| {
                format!("arc ({u},{v}) is listed twice")
            }));
        }
        net.bandwidth = bandwidth;
        net.switches = switches;
        Ok(net)
    }

    fn from_arcs(family: Family, n: usize, arcs: Vec<(Node, Node)>) -> Self {
        let index = arcs.iter().enumerate().map(|(i, &a)| (a, i)).collect();
        let bandwidth = vec![1; arcs.len()];
        Self { family, n, arcs, index, bandwidth, switches: Vec::new(), name: None, known_diameter: None }
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

    /// The same network with the diameter its closed form gives (a strongly connected named
    /// topology), which [`Network::diameter`] then answers without a search.
    pub fn with_diameter(mut self, diameter: Option<usize>) -> Self {
        self.known_diameter = diameter;
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
    /// every other: the closed form of a named topology or of the family
    /// ([`NetworkFamily::diameter`]) when there is one, else a breadth-first search from every
    /// node, over bitsets when the network is dense ([`diameter::search`]).
    pub fn diameter(&self) -> (usize, bool) {
        self.closed_form_diameter().unwrap_or_else(|| diameter::search(self.n, &self.arcs))
    }

    /// [`Network::diameter`] when a closed form gives it (a named topology's or the
    /// family's), without a search.
    pub fn closed_form_diameter(&self) -> Option<(usize, bool)> {
        match self.known_diameter {
            Some(d) => Some((d, true)),
            None => self.family.definition().diameter(self),
        }
    }

    /// Whether every node reaches every other: one search each way from node 0, linear in the
    /// arcs.
    pub fn strongly_connected(&self) -> bool {
        let mut ways = [vec![Vec::new(); self.n], vec![Vec::new(); self.n]];
        for &(u, v) in &self.arcs {
            ways[0][u].push(v);
            ways[1][v].push(u);
        }
        ways.iter().all(|adjacency| hops(adjacency, &[0]).into_iter().all(|d| d != usize::MAX))
    }

    /// Parses a network string `FAMILY:PARAMS` of a registered family ([`family::lookup`]):
    /// `path:6`, `ring:7`, `uring:5`, `ula:8`, `mesh:4x4`, `torus:5x5`, `esm:4`, `fat-tree:16`,
    /// `tree:0,0,1,1` (parent of nodes 1.., root 0), or a name of the topology registry ([`super::topology::TOPOLOGIES`]: `dgx1`, `star:5`, …).
    pub fn parse(s: &str) -> Result<Self, String> {
        if let Some(net) = super::topology::parse_named(s)? {
            return Ok(net);
        }
        let (kind, arg) = s
            .split_once(':')
            .ok_or_else(|| format!("`{s}` is not FAMILY:SIZE (e.g. path:6, ring:7, mesh:4x4)"))?;
        let Some(definition) = family::lookup(kind) else {
            return Err(format!(
                "unknown network family `{kind}` (known: {}, {})",
                family::names(),
                super::topology::names()
            ));
        };
        Self::new(definition.parse(arg, s)?)
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
        let definition = self.family.definition();
        format!("{}:{}", definition.name(), definition.params(&self.family))
    }

    /// Breadth-first hop distances from `s` (usize::MAX where unreachable).
    pub fn distances_from(&self, s: Node) -> Vec<usize> {
        hops(&self.out_neighbours(), &[s])
    }

    /// Hop distance from u to v in this network (for a fat-tree: 2 x LCA height, SPEC §4.3).
    pub fn distance(&self, u: Node, v: Node) -> Option<usize> {
        self.family.definition().distance(self, u, v)
    }

    /// The atlas's default designated path from `u` to `v` as a node sequence (SPEC §2), as
    /// the family defines it ([`NetworkFamily::default_path`]): unique path on ula/path/tree,
    /// shorter direction on rings (ties by `tie`), one-turn east-then-south on esm, dimension
    /// order on mesh/torus, a BFS shortest path on explicit graphs. `None` when `v` cannot be
    /// reached from `u`.
    pub fn default_path(&self, u: Node, v: Node, tie: RingTie) -> Option<Vec<Node>> {
        if u >= self.n || v >= self.n {
            return None;
        }
        if u == v {
            return Some(vec![u]);
        }
        self.family.definition().default_path(self, u, v, tie)
    }

    /// A breadth-first shortest path from `u` to `v` (the atlas of explicit graphs).
    pub fn bfs_path(&self, u: Node, v: Node) -> Option<Vec<Node>> {
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
        if let Some(reason) = self.family.definition().levels_refusal() {
            return Err(reason.into());
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

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spec_string())
    }
}

/// Breadth-first hop distances over `adjacency` from the nearest node of `from` (usize::MAX
/// where unreachable).
pub fn hops(adjacency: &[Vec<Node>], from: &[Node]) -> Vec<usize> {
    let mut dist = vec![usize::MAX; adjacency.len()];
    let mut queue = std::collections::VecDeque::with_capacity(from.len());
    for &s in from {
        if dist[s] == usize::MAX {
            dist[s] = 0;
            queue.push_back(s);
        }
    }
    while let Some(u) = queue.pop_front() {
        for &v in &adjacency[u] {
            if dist[v] == usize::MAX {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    dist
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
