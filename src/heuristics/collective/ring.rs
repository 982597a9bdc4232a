//! # Ring: chunks travel along a directed Hamiltonian cycle
//!
//! The ring algorithm of NCCL and of every synthesis paper's baseline: the nodes are ordered
//! along a directed Hamiltonian cycle of the network (found by depth-first search, widest arcs
//! first; node order on `ring:N`), and each chunk moves along it from its source until it has
//! passed its last target. An allgather of C chunks per rank takes n − 1 steps when every ring
//! arc carries C chunks a step.

use super::{RouteTree, chunks, route};
use crate::heuristics::Method;
use crate::spec::{Instance, Network, Node};

/// Networks above this size are not searched for a Hamiltonian cycle.
const SEARCHED: usize = 24;

/// A directed Hamiltonian cycle from node 0, widest arcs first, if the search finds one.
pub fn hamiltonian_cycle(net: &Network) -> Option<Vec<Node>> {
    let n = net.len();
    if n > SEARCHED {
        return None;
    }
    let mut out: Vec<Vec<(u64, Node)>> = vec![Vec::new(); n];
    for (a, &(u, v)) in net.arcs().iter().enumerate() {
        out[u].push((net.bandwidth(a), v));
    }
    for list in &mut out {
        // Widest first, then the next node in numbering order (node order on a ring).
        list.sort_by_key(|&(b, v)| (std::cmp::Reverse(b), v));
    }
    let mut path = vec![0];
    let mut used = vec![false; n];
    used[0] = true;
    let mut budget = 1_000_000u64;
    extend(&out, &mut path, &mut used, &mut budget).then_some(path)
}

fn extend(out: &[Vec<(u64, Node)>], path: &mut Vec<Node>, used: &mut [bool], budget: &mut u64) -> bool {
    let u = *path.last().expect("starts at 0");
    if path.len() == out.len() {
        return out[u].iter().any(|&(_, v)| v == 0);
    }
    for &(_, v) in &out[u] {
        if used[v] || *budget == 0 {
            continue;
        }
        *budget -= 1;
        used[v] = true;
        path.push(v);
        if extend(out, path, used, budget) {
            return true;
        }
        path.pop();
        used[v] = false;
    }
    false
}

/// The route trees along the cycle.
pub fn ring(inst: &Instance) -> Vec<RouteTree> {
    let n = inst.network.len();
    let cycle = hamiltonian_cycle(&inst.network).unwrap_or_default();
    let mut position = vec![0; n];
    for (i, &v) in cycle.iter().enumerate() {
        position[v] = i;
    }
    chunks(inst)
        .iter()
        .map(|chunk| {
            let s = chunk.sources[0];
            let reach = chunk.targets.iter().map(|&t| (position[t] + n - position[s]) % n).max().unwrap_or(0);
            let mut tree = vec![None; n];
            for k in 1..=reach {
                let (u, v) = (cycle[(position[s] + k - 1) % n], cycle[(position[s] + k) % n]);
                tree[v] = Some(u);
            }
            tree
        })
        .collect()
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "ring",
    source: "ours (the ring algorithm of NCCL, SCCL's and TACCL's baseline)",
    summary: "each chunk along one directed Hamiltonian cycle, widest arcs first: n − 1 steps for an allgather",
    applicability: super::applicability(Some(|inst| {
        super::each_part(inst, |part| {
            hamiltonian_cycle(&part.network)
                .map(|_| ())
                .ok_or_else(|| format!("{} has no directed Hamiltonian cycle the search finds", part.network))
        })
        .and_then(|()| super::fits(inst, ring))
    })),
    claim: |_| None,
    run: |inst| route(inst, ring),
};
