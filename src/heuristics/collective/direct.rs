//! # Direct: every source sends to every target over one link
//!
//! The one-step algorithm of a fully connected machine (the "direct" allgather and alltoall that
//! synthesis papers compare against): each chunk goes from its source straight to each target,
//! so S = 1 when bandwidth allows, and the rounds are the heaviest link's or switch's load.

use super::{RouteTree, chunks, route};
use crate::heuristics::Method;
use crate::spec::Instance;

/// The direct route trees: one arc from the source to each target.
pub fn direct(inst: &Instance) -> Vec<RouteTree> {
    chunks(inst)
        .iter()
        .map(|chunk| {
            let mut tree = vec![None; inst.network.len()];
            for &t in chunk.targets.iter().filter(|t| !chunk.sources.contains(t)) {
                tree[t] = Some(chunk.sources[0]);
            }
            tree
        })
        .collect()
}

/// Every source has an arc to each of its chunk's targets.
fn linked(inst: &Instance) -> Result<(), String> {
    for chunk in chunks(inst) {
        let s = chunk.sources[0];
        if let Some(&t) = chunk.targets.iter().find(|&&t| t != s && inst.network.arc(s, t).is_none()) {
            return Err(format!("node {s} has no link to node {t} on {}", inst.network));
        }
    }
    Ok(())
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "direct",
    source: "ours (the direct baseline of SCCL and TACCL's comparisons)",
    summary: "each chunk straight from its source to every target: one step where bandwidth allows",
    applicability: super::applicability(Some(|inst| {
        super::each_part(inst, linked).and_then(|()| super::fits(inst, direct))
    })),
    claim: |_| None,
    run: |inst| route(inst, direct),
};
