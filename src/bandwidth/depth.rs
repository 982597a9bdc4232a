//! The least depth of any tree of a packing (docs/spec.md §4.6): a tree rooted at r reaches
//! every compute node v along a path of at least dist(r, v) links, so some tree of every packing
//! that serves every root is at least as deep as the largest distance between two compute
//! nodes. With α_min the least link latency, each phase of a pipelined packing then takes at
//! least α_min · that depth + its bandwidth term ([`super::time`]), which bounds every candidate
//! of `tune` on a fabric from below.

use crate::spec::fabric::Fabric;
use std::collections::VecDeque;

/// The largest hop distance from one compute node to another along the fabric's links (through
/// switches); `None` when some compute node cannot reach another.
pub fn compute_diameter(fabric: &Fabric) -> Option<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); fabric.len()];
    for l in fabric.links() {
        out[l.from].push(l.to);
    }
    let compute = fabric.compute();
    let mut diameter = 0;
    for &r in &compute {
        let mut dist = vec![usize::MAX; fabric.len()];
        dist[r] = 0;
        let mut queue = VecDeque::from([r]);
        while let Some(u) = queue.pop_front() {
            for &v in &out[u] {
                if dist[v] == usize::MAX {
                    dist[v] = dist[u] + 1;
                    queue.push_back(v);
                }
            }
        }
        for &v in &compute {
            if dist[v] == usize::MAX {
                return None;
            }
            diameter = diameter.max(dist[v]);
        }
    }
    Some(diameter)
}

/// The least latency of a link, µs (0 without links).
pub fn least_latency(fabric: &Fabric) -> f64 {
    fabric.links().iter().map(|l| l.latency).reduce(f64::min).unwrap_or(0.0)
}
