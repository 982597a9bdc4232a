//! # Edge-disjoint trees for a multi-port P_0 (paper 001 §4, Fig. 5; SG-25)
//!
//! §4, "Parallelizing Message Transmission": when P_0 can use several ports at once, messages
//! travel over several edge-disjoint trees rooted at P_0, one port each. Fig. 5 says that the
//! 4×4 mesh "is covered by two edge-disjoint trees rooted at P_0 that jointly, though not
//! necessarily individually, span it" and that the 4×4 torus has two edge-disjoint *spanning*
//! trees; its arrays are garbled (SG-25), so the trees are found here:
//!
//! * [`spanning_trees`]: k edge-disjoint spanning trees, by seeded random Kruskal with
//!   restarts, each tree taken from the edges the earlier ones left. None exist when the
//!   network has fewer than k(n − 1) edges: the 4×4 mesh has 24 < 30 (SG-25(a)); the 4×4
//!   torus has 32 and is 4-edge-connected, so two exist (Nash-Williams).
//! * [`covering_trees`]: one tree per edge of P_0, grown breadth-first, the smallest first, so
//!   that every other node joins exactly one tree over an edge no tree uses: edge-disjoint trees
//!   that span jointly, as Fig. 5 draws the mesh.
//! * [`bfs_tree`]: one breadth-first spanning tree, the tree §1.2 ("Porting to General
//!   Networks") advises for scattering, so that every message takes a shortest path.
//!
//! A tree is its edges, each `(parent, child)`, oriented away from P_0. [`Routing`] names
//! these three constructions and [`routes`] turns trees into the routes of a scatter or gather
//! instance, every PE preallocated to one tree (§4).

use crate::rng::SplitMix64;
use crate::spec::{Network, Node};
use std::collections::VecDeque;

/// A tree rooted at P_0: `(parent, child)` edges.
pub type Tree = Vec<(Node, Node)>;

/// The undirected edges {u, v}, u < v, of a network whose arcs come in pairs.
fn edges(net: &Network) -> Vec<(Node, Node)> {
    net.arcs().iter().copied().filter(|&(u, v)| u < v && net.arc(v, u).is_some()).collect()
}

/// The edges of an undirected tree oriented away from `root` (breadth-first); `None` unless
/// they connect every node.
fn orient(n: usize, root: Node, tree: &[(Node, Node)]) -> Option<Tree> {
    let mut adjacent = vec![Vec::new(); n];
    for &(u, v) in tree {
        adjacent[u].push(v);
        adjacent[v].push(u);
    }
    let mut seen = vec![false; n];
    seen[root] = true;
    let (mut queue, mut out) = (VecDeque::from([root]), Vec::new());
    while let Some(x) = queue.pop_front() {
        for &y in &adjacent[x] {
            if !std::mem::replace(&mut seen[y], true) {
                out.push((x, y));
                queue.push_back(y);
            }
        }
    }
    (out.len() + 1 == n).then_some(out)
}

/// The representative of `x`'s component (union-find with path compression).
fn find(parent: &mut [Node], x: Node) -> Node {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    let mut y = x;
    while parent[y] != r {
        (y, parent[y]) = (parent[y], r);
    }
    r
}

/// `k` edge-disjoint spanning trees rooted at `root`, or `None` if `attempts` seeded random
/// tries (from `seed`) find none; at once `None` when there are fewer than k(n − 1) edges.
pub fn spanning_trees(net: &Network, root: Node, k: usize, seed: u64, attempts: usize) -> Option<Vec<Tree>> {
    let n = net.len();
    let all = edges(net);
    if all.len() < k * (n - 1) {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    'attempt: for _ in 0..attempts {
        let mut left = all.clone();
        let mut trees = Vec::with_capacity(k);
        for _ in 0..k {
            // Fisher-Yates, then Kruskal on the shuffled edges.
            for i in (1..left.len()).rev() {
                left.swap(i, rng.range(0, i));
            }
            let mut parent: Vec<Node> = (0..n).collect();
            let (mut tree, mut rest) = (Vec::new(), Vec::new());
            for &(u, v) in &left {
                let (a, b) = (find(&mut parent, u), find(&mut parent, v));
                if a != b && tree.len() + 1 < n {
                    parent[a] = b;
                    tree.push((u, v));
                } else {
                    rest.push((u, v));
                }
            }
            let Some(tree) = orient(n, root, &tree) else { continue 'attempt };
            trees.push(tree);
            left = rest;
        }
        return Some(trees);
    }
    None
}

/// One tree per edge of `root` (at most `k`), grown breadth-first, the smallest tree first (ties:
/// the first): it takes its next node's neighbours that no tree holds yet, over edges no tree
/// uses. The trees are edge-disjoint, every node reachable from `root` is in exactly one of
/// them, and their sizes stay close (8 and 7 nodes on the 4×4 mesh).
pub fn covering_trees(net: &Network, root: Node, k: usize) -> Vec<Tree> {
    let n = net.len();
    let neighbours = net.out_neighbours();
    let mut owner: Vec<Option<usize>> = vec![None; n];
    let mut trees: Vec<Tree> = Vec::new();
    let mut queues: Vec<VecDeque<Node>> = Vec::new();
    for &r in neighbours[root].iter().take(k) {
        owner[r] = Some(trees.len());
        trees.push(vec![(root, r)]);
        queues.push(VecDeque::from([r]));
    }
    owner[root] = Some(usize::MAX);
    while let Some(i) =
        (0..queues.len()).filter(|&i| !queues[i].is_empty()).min_by_key(|&i| (trees[i].len(), i))
    {
        let x = queues[i].pop_front().expect("a non-empty queue");
        for &y in &neighbours[x] {
            if owner[y].is_none() {
                owner[y] = Some(i);
                trees[i].push((x, y));
                queues[i].push_back(y);
            }
        }
    }
    trees
}

/// One breadth-first spanning tree rooted at `root` (neighbours in increasing order), or `None`
/// when the network's two-way edges do not connect it.
pub fn bfs_tree(net: &Network, root: Node) -> Option<Tree> {
    orient(net.len(), root, &edges(net))
}

/// How `gen` routes a scatter or gather off a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Routing {
    /// [`bfs_tree`]: one breadth-first spanning tree (§1.2).
    Bfs,
    /// [`covering_trees`]: one tree per edge of P_0, jointly spanning (§4, Fig. 5(a)).
    Cover,
    /// [`spanning_trees`]: k edge-disjoint spanning trees (§4, Fig. 5(b)).
    Spanning(usize),
}

impl Routing {
    /// Parses `bfs`, `cover` or `spanning:K`.
    pub fn parse(s: &str) -> std::result::Result<Self, String> {
        match s {
            "bfs" => Ok(Self::Bfs),
            "cover" => Ok(Self::Cover),
            _ => match s.strip_prefix("spanning:").map(str::parse::<usize>) {
                Some(Ok(k)) if k >= 1 => Ok(Self::Spanning(k)),
                _ => Err(format!("`{s}` is not bfs, cover or spanning:K with K >= 1")),
            },
        }
    }

    /// The trees rooted at `root`, or the reason there are none.
    pub fn trees(self, net: &Network, root: Node) -> std::result::Result<Vec<Tree>, String> {
        let trees = match self {
            Self::Bfs => bfs_tree(net, root).map(|t| vec![t]),
            Self::Cover => {
                let trees = covering_trees(net, root, usize::MAX);
                let spanned: usize = trees.iter().map(Vec::len).sum();
                (spanned + 1 == net.len()).then_some(trees)
            }
            Self::Spanning(k) => spanning_trees(net, root, k, 1, 10_000),
        };
        trees.ok_or_else(|| match self {
            Self::Spanning(k) => format!(
                "no {k} edge-disjoint spanning trees rooted at {root} found in {net} (they need {k}(n − 1) \
                 two-way edges)"
            ),
            _ => format!("the two-way edges of {net} do not connect it"),
        })
    }
}

/// The routes of a scatter or gather over `trees` rooted at `root`, `routes[i − 1]` from `root`
/// to node i (`root` = 0). Every PE is preallocated to one tree that holds it (§4): by
/// decreasing length (ties: smaller node), each takes the tree with the fewest flits so far
/// (ties: the shallower, then the first).
pub fn routes(n: usize, trees: &[Tree], lengths: &[u64]) -> Vec<Vec<Node>> {
    let parents: Vec<Vec<Option<Node>>> = trees
        .iter()
        .map(|t| {
            let mut parent = vec![None; n];
            for &(u, v) in t {
                parent[v] = Some(u);
            }
            parent
        })
        .collect();
    let path = |t: usize, v: Node| {
        let mut p = vec![v];
        while let Some(u) = parents[t][*p.last().expect("non-empty")] {
            p.push(u);
        }
        p.reverse();
        p
    };
    let mut order: Vec<Node> = (1..n).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(lengths.get(v).copied().unwrap_or(0)), v));
    let mut load = vec![0u64; trees.len()];
    let mut out = vec![Vec::new(); n];
    for v in order {
        let t = (0..trees.len())
            .filter(|&t| parents[t][v].is_some())
            .min_by_key(|&t| (load[t], path(t, v).len(), t))
            .expect("the trees span every node");
        load[t] += lengths.get(v).copied().unwrap_or(0);
        out[v] = path(t, v);
    }
    out.split_off(1)
}
