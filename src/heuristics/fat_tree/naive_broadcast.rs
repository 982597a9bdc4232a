//! # The naive broadcast (paper 002 §3, first paragraph)
//!
//! "An obvious algorithm using only one unit of capacity per channel easily achieves time
//! O(log² N)": recursive halving. In round k every holder P_f of a block of n = N/2^(k−1)
//! processors sends to P_{f+n/2}; the round has height log n, so the length is
//! Σ_{h=1}^{log N} 2h = log N·(log N + 1) (FT-3; 20 for N = 16), on any capacity function. It is
//! Algorithm 1 with r = 2 on every subtree ([`Spread::Halving`]), hence a round-model algorithm
//! (FT-18's example: 272 for N = 2^16).

use super::broadcast::broadcast_plan;
use super::plan::sends;
use super::sparse_broadcast::Spread;
use super::{Task, produce};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Recursive halving from P_0.
pub fn naive_broadcast(inst: &Instance) -> Result<Schedule> {
    Ok(Schedule::FatTree(sends(&broadcast_plan(inst.network.len(), Spread::Halving)?)))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "naive-broadcast",
    problem: "broadcast",
    source: "002 §3 (first paragraph); FT-3",
    summary: "recursive halving with one unit of capacity per channel; log N (log N + 1) steps, in rounds",
    applies: |inst| super::fits(inst, Task::Broadcast),
    run: |inst| produce(inst, &METHOD, Task::Broadcast, naive_broadcast),
};
