//! # Shortest-path trees: one breadth-first tree per chunk
//!
//! Each chunk follows a breadth-first tree from its source, pruned to its targets, each node
//! taking the widest arc from the previous level (ties: the lowest node): every chunk reaches
//! each target along a shortest path, so with enough bandwidth the schedule meets the distance
//! bound. On any network; the tree broadcast of the comparisons.

use super::{RouteTree, chunks, prune, route};
use crate::heuristics::Method;
use crate::spec::{Instance, Network, Node};

/// The breadth-first tree from `s`: each node's parent at the previous level, widest arc first.
pub fn widest_bfs(net: &Network, s: Node) -> Vec<Option<Node>> {
    let dist = net.distances_from(s);
    let mut best: Vec<Option<(u64, Node)>> = vec![None; net.len()];
    for (a, &(u, v)) in net.arcs().iter().enumerate() {
        if v != s && dist[u] != usize::MAX && dist[v] == dist[u] + 1 {
            let b = net.bandwidth(a);
            if best[v].is_none_or(|(bb, bu)| b > bb || (b == bb && u < bu)) {
                best[v] = Some((b, u));
            }
        }
    }
    best.into_iter().map(|p| p.map(|(_, u)| u)).collect()
}

/// The pruned breadth-first tree of every chunk.
pub fn shortest_path_trees(inst: &Instance) -> Vec<RouteTree> {
    chunks(inst).iter().map(|chunk| prune(&widest_bfs(&inst.network, chunk.sources[0]), chunk)).collect()
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "shortest-path-trees",
    source: "ours (the tree broadcast of the comparisons, for every collective)",
    summary: "each chunk along a breadth-first tree from its source, widest arcs first, pipelined by the farthest-reaching chunk",
    applicability: super::applicability(Some(|inst| super::fits(inst, shortest_path_trees))),
    claim: |_| None,
    run: |inst| route(inst, shortest_path_trees),
};
