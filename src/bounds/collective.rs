//! # Collective model: steps and rounds (docs/spec.md §4.4, §8)
//!
//! SCCL's own bounds (PPoPP'21 §5), read in commsched's terms:
//!
//! * **distance**: a chunk moves one hop per step, so S ≥ the largest hop distance from a
//!   chunk's nearest source to one of its targets.
//! * **receive bandwidth**: node v must receive k_v distinct chunks (targets it does not start
//!   with), each once. In a step of r rounds it receives at most `cap_v · r`, where `cap_v` is
//!   the smallest of Σ_u b(u, v) over its in-arcs and the bandwidth of any switch group whose
//!   destinations are {v} and whose sources cover every in-neighbour of v. So the rounds used
//!   satisfy R ≥ ⌈k_v / cap_v⌉ ([`rounds_needed`]). With one round per step (no budget), that
//!   is a bound on the steps; with a budget R below it, no schedule exists at any length.
//!
//! The multicommodity-flow bound on R/C that SCCL's Pareto walk starts from is not
//! implemented yet.

use super::Bound;
use crate::spec::{Instance, Model, Node, Problem};

/// The largest hop distance some chunk must travel, if the instance is a collective.
pub fn distance(inst: &Instance) -> Option<u64> {
    let Problem::Collective(c) = &inst.problem else { return None };
    let n = inst.network.len();
    let dist: Vec<Vec<usize>> = (0..n).map(|s| inst.network.distances_from(s)).collect();
    c.chunk_table(n)
        .iter()
        .flat_map(|chunk| {
            let dist = &dist;
            chunk.targets.iter().map(move |&t| chunk.sources.iter().map(|&s| dist[s][t]).min().unwrap_or(0))
        })
        .filter(|&d| d != usize::MAX)
        .max()
        .map(|d| d as u64)
}

/// The node whose receiving needs the most rounds: `(node, chunks it must receive, chunks it
/// can receive per round, ⌈chunks / per round⌉)`, if the instance is a collective.
pub fn rounds_needed(inst: &Instance) -> Option<(Node, u64, u64, u64)> {
    let Problem::Collective(c) = &inst.problem else { return None };
    let net = &inst.network;
    let n = net.len();
    let mut need = vec![0u64; n];
    for chunk in c.chunk_table(n) {
        for &t in chunk.targets.iter().filter(|t| !chunk.sources.contains(t)) {
            need[t] += 1;
        }
    }
    let mut in_bw = vec![0u64; n];
    let mut in_nbrs: Vec<Vec<Node>> = vec![Vec::new(); n];
    for (a, &(u, v)) in net.arcs().iter().enumerate() {
        in_bw[v] += net.bandwidth(a);
        in_nbrs[v].push(u);
    }
    for sw in net.switches() {
        if let [v] = sw.destinations[..]
            && in_nbrs[v].iter().all(|u| sw.sources.contains(u))
        {
            in_bw[v] = in_bw[v].min(sw.bandwidth);
        }
    }
    (0..n)
        .filter(|&v| need[v] > 0 && in_bw[v] > 0)
        .map(|v| (v, need[v], in_bw[v], need[v].div_ceil(in_bw[v])))
        .max_by_key(|&(v, .., r)| (r, std::cmp::Reverse(v)))
}

/// The bounds of a collective instance on its steps.
pub fn bounds(inst: &Instance) -> Vec<Bound> {
    let Model::Collective { rounds: budget } = inst.model else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(d) = distance(inst) {
        out.push(Bound::new("distance", None, d, "a chunk moves one hop per step: its farthest target"));
    }
    if budget.is_none()
        && let Some((v, k, cap, r)) = rounds_needed(inst)
    {
        out.push(Bound::new(
            "receive bandwidth",
            None,
            r,
            format!("node {v} receives {k} chunks, at most {cap} per step (one round each): ⌈{k}/{cap}⌉"),
        ));
    }
    out
}
