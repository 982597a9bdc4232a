//! # TACOS: greedy link-chunk matching, step by step
//!
//! TACOS (Won et al., "TACOS: Topology-Aware Collective Algorithm Synthesizer for Distributed
//! Machine Learning", MICRO 2024, §4) synthesises an allgather on the time-expanded network: in
//! each time span, every link whose source holds a chunk its destination still lacks is matched
//! to one such chunk, and no destination receives the same chunk twice in the span. On its
//! homogeneous grids and tori this meets the ingress bound ⌈C·(N − 1)/in-degree⌉ (every node
//! must receive C·(N − 1) chunks through its in-links), which commsched computes as the receive
//! bandwidth bound.
//!
//! Here each step is one round and each arc carries up to its bandwidth, each switch group up to
//! its budget (`StepBudget`). TACOS picks among the candidate chunks at random; this picks the
//! chunk fewest nodes hold (then the lowest id), so that rare chunks spread first and the run is
//! deterministic. It applies where every chunk must reach every node (allgather, broadcast; a
//! reduce-scatter or reduce as that dual on the reversed network, run backwards; an allreduce
//! as the two composed), since it never relays a chunk through a node that does not need it.

use super::{StepBudget, chunks, compose, send};
use crate::error::{Error, Result};
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule, Transmission};

/// The greedy matching of one part (module documentation).
pub fn tacos_greedy(inst: &Instance) -> Result<Schedule> {
    let net = &inst.network;
    let n = net.len();
    let chunks = chunks(inst);
    let mut held: Vec<Vec<bool>> =
        chunks.iter().map(|chunk| (0..n).map(|v| chunk.sources.contains(&v)).collect()).collect();
    let mut holders: Vec<usize> = held.iter().map(|h| h.iter().filter(|&&x| x).count()).collect();
    let mut missing: usize = holders.iter().map(|&h| n - h).sum();
    let mut steps: Vec<Vec<Transmission>> = Vec::new();
    let mut budget = StepBudget::new(net, 1);
    while missing > 0 {
        budget.start_step();
        let mut step: Vec<Transmission> = Vec::new();
        let mut arriving = vec![vec![false; n]; chunks.len()];
        for (arc, &(u, v)) in net.arcs().iter().enumerate() {
            loop {
                let pick = (0..chunks.len())
                    .filter(|&c| held[c][u] && !held[c][v] && !arriving[c][v])
                    .min_by_key(|&c| (holders[c], c));
                let Some(c) = pick else { break };
                if !budget.take(arc) {
                    break;
                }
                arriving[c][v] = true;
                send(&mut step, u, v, c);
            }
        }
        if step.is_empty() {
            return Err(Error::NotApplicable {
                method: METHOD.name.into(),
                reason: "some chunk cannot reach a node that lacks it".into(),
            });
        }
        for tr in &step {
            for &c in &tr.tokens {
                held[c][tr.to] = true;
                holders[c] += 1;
                missing -= 1;
            }
        }
        step.sort_by_key(|tr| (tr.from, tr.to));
        steps.push(step);
    }
    Ok(Schedule::Collective { rounds: vec![1; steps.len()], steps })
}

/// Every part's chunks must reach every node.
fn to_every_node(inst: &Instance) -> std::result::Result<(), String> {
    let n = inst.network.len();
    match chunks(inst).iter().position(|c| c.targets.len() != n) {
        Some(c) => Err(format!(
            "chunk {c} is not for every node, and TACOS's matching never relays a chunk (allgather, broadcast and their reductions only)"
        )),
        None => Ok(()),
    }
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "tacos-greedy",
    source: "TACOS (Won et al., MICRO 2024 §4: greedy link-chunk matching; meets the ingress bound on its tori)",
    summary: "each step, every arc carries the chunks its source holds and its destination lacks, rarest first, none twice to one node: TACOS's link-chunk matching, deterministic",
    applicability: super::applicability(Some(|inst| {
        super::each_part(inst, to_every_node)
            .and_then(|()| super::fits_with(inst, &|part, _| tacos_greedy(part)))
    })),
    claim: |_| None,
    run: |inst| compose(inst, &|part, _| tacos_greedy(part)),
};
