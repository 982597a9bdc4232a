//! # Pipelined broadcast (paper 002 §3.3)
//!
//! Claims FT-9 (k sends from one processor in consecutive steps: the last is received within
//! 2 log N + k − 1 steps) and FT-10 (recurrence (4): T'(N) = S(N) + T'(N/(w(N)·log N)) + γ log N),
//! FT-13, FT-21 (Table 1, unrestricted). After Sparse-Broadcast leaves r copies, one at the start
//! of each block of N/r processors, each holder submits p − 1 further copies in consecutive
//! steps, to the starts of the p sub-blocks of its block (farthest first: larger lowest-common-
//! ancestor heights first), and the algorithm recurses on the r·p sub-blocks of N/(r·p)
//! processors. p is the paper's "log N" rounded: the largest power of two ≤ min(log N, N/r)
//! (w(N)·log N must be a power of two dividing N, FT-10 notes). The burst is one phase; the
//! recursion starts when its last copy has arrived, so the measured
//! γ = (T'(N) − S(N) − T'(N/(r·p))) / log N is the burst's length over log N.
//!
//! Not a round-model algorithm: a burst submits in consecutive steps.

use super::plan::{Hop, Phase, parallel, push, sends};
use super::sparse_broadcast::{Spread, sparse_broadcast};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Capacity, Instance, Schedule, network::fat_tree_lca_height};
use std::cmp::Reverse;

/// p for a subtree of n leaves after Sparse-Broadcast made r copies: the largest power of two
/// ≤ min(log n, n/r), at least 1.
pub fn burst_width(n: usize, r: usize) -> usize {
    let limit = (n.ilog2() as usize).min(n / r).max(1);
    1 << limit.ilog2()
}

/// The pipelined broadcast's phases on processors 0..n−1.
pub fn pipelined_plan(n: usize, capacity: &Capacity) -> Result<Vec<Phase>> {
    if n <= 1 {
        return Ok(Vec::new());
    }
    let spread = Spread::Rounded(capacity);
    let r = spread.copies(n);
    let p = burst_width(n, r);
    let (block, sub) = (n / r, n / r / p);
    let mut plan = sparse_broadcast(n, spread)?;
    let mut targets: Vec<usize> = (1..p).map(|j| j * sub).collect();
    targets.sort_by_key(|&t| Reverse(fat_tree_lca_height(0, t)));
    let burst = Phase {
        hops: targets
            .into_iter()
            .zip(0..)
            .map(|(to, offset)| Hop { offset, from: 0, to, payload: [0, 0] })
            .collect(),
    };
    for phase in parallel(&[burst], (0..r).map(|i| i * block)) {
        push(&mut plan, phase);
    }
    plan.extend(parallel(&pipelined_plan(sub, capacity)?, (0..r * p).map(|k| k * sub)));
    Ok(plan)
}

/// The pipelined broadcast on a broadcast instance outside the round model.
pub fn pipelined_broadcast(inst: &Instance) -> Result<Schedule> {
    Ok(Schedule::FatTree(sends(&pipelined_plan(inst.network.len(), super::capacity(inst)?)?)))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "pipelined-broadcast",
    source: "002 §3.3 (4); FT-9, FT-10, FT-13",
    summary: "Sparse-Broadcast, then each of the r holders pipelines p ≈ log N copies into its \
              block, recursion on blocks of N/(r p); T'(N) = S(N) + T'(N/(r p)) + γ log N",
    applicability: super::PIPELINED,
    claim: |_| None,
    run: pipelined_broadcast,
};
