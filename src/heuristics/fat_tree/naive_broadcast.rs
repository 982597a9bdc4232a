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
use crate::claims::{ClaimValue, Relation, Subject};
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
    source: "002 §3 (first paragraph); FT-3",
    summary: "recursive halving with one unit of capacity per channel; log N (log N + 1) steps, in rounds",
    applicability: super::BROADCAST,
    claim: ft_3,
    run: naive_broadcast,
};

/// FT-3: log N·(log N + 1) steps.
fn ft_3(inst: &Instance) -> Option<ClaimValue> {
    let log = u64::from(inst.network.len().trailing_zeros());
    Some(ClaimValue {
        claim: "FT-3".into(),
        subject: Subject::Algorithm,
        about: "naive broadcast with one unit of capacity".into(),
        value: log * (log + 1),
        relation: Relation::Equal,
        convention: "Σ_{h=1}^{log N} 2h = log N (log N + 1); paper steps are commsched steps".into(),
    })
}
