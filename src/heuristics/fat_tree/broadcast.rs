//! # Broadcast (paper 002 §3.1, Algorithm 1)
//!
//! Claims FT-8 (recurrence (3), T(N) = S(N) + T(N/r) with the rounded r, T(1) = 0), FT-14 (it
//! fits the round model), FT-21 and FT-22 (Table 1, no pipelining), FT-25 (Fig. 1).
//! Broadcast(first, n): Sparse-Broadcast(first, n) leaves r copies, one at the start of each
//! block of n/r processors; then Broadcast runs on the r blocks in parallel. r is the rounded
//! copy count of [`Spread`] (documented in [`sparse_broadcast`](mod@super::sparse_broadcast)).
//! Every phase is a round, so one schedule serves both the pipelined and the round model.

use super::plan::{Phase, parallel, sends};
use super::sparse_broadcast::{Spread, sparse_broadcast};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Algorithm 1's phases on processors 0..n−1 with copy counts from `spread`.
pub fn broadcast_plan(n: usize, spread: Spread) -> Result<Vec<Phase>> {
    if n <= 1 {
        return Ok(Vec::new());
    }
    let r = spread.copies(n);
    let mut plan = sparse_broadcast(n, spread)?;
    plan.extend(parallel(&broadcast_plan(n / r, spread)?, (0..r).map(|i| i * n / r)));
    Ok(plan)
}

/// Algorithm 1 on a broadcast instance, under its capacity function.
pub fn broadcast(inst: &Instance) -> Result<Schedule> {
    let capacity = super::capacity(inst)?;
    Ok(Schedule::FatTree(sends(&broadcast_plan(inst.network.len(), Spread::Rounded(capacity))?)))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "broadcast",
    source: "002 §3.1 Algorithms 1-2, §3.2 (2)-(3); FT-6, FT-7, FT-8, FT-14",
    summary: "Sparse-Broadcast makes r = max(w(N),2) evenly spaced copies (rounded to 2^(2^k)), \
              then recursion on the r blocks; T(N) = S(N) + T(N/r), in rounds",
    applicability: super::BROADCAST,
    claim: |_| None,
    run: broadcast,
};
