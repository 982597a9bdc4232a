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
//! * [`covering_trees`]: one tree per edge of P_0, grown in turn breadth-first so that every
//!   other node joins exactly one tree over an edge no tree uses: edge-disjoint trees that span
//!   jointly, as Fig. 5 draws the mesh.
//!
//! A tree is its edges, each `(parent, child)`, oriented away from P_0.

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

/// One tree per edge of `root` (at most `k`), grown in turn breadth-first: each takes its next
/// node's neighbours that no tree holds yet, over edges no tree uses. The trees are
/// edge-disjoint and every node reachable from `root` is in exactly one of them.
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
    while queues.iter().any(|q| !q.is_empty()) {
        for (i, queue) in queues.iter_mut().enumerate() {
            let Some(x) = queue.pop_front() else { continue };
            for &y in &neighbours[x] {
                if owner[y].is_none() {
                    owner[y] = Some(i);
                    trees[i].push((x, y));
                    queue.push_back(y);
                }
            }
        }
    }
    trees
}
