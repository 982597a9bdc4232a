//! # n consecutive scatterings (paper 004 §2, after Bertsekas & Tsitsiklis \[2\])
//!
//! Paper 004, §2: "a simple total exchange algorithm was suggested in \[2\]
//! consisting of n consecutive scatterings. An optimal scattering from node i can be completed
//! in max{i − 1, n − i} steps" (TE-3); the whole takes Σ_i max{i−1, n−i} = 3T_opt − ⌊n/2⌋
//! steps, "about three times slower than the optimum" (TE-4).
//!
//! A scattering is the queue simulation with only the source's messages, furthest-first in
//! both directions: the source sends one message per step and relays forward each at once.
//! Scattering k+1 (paper label k+1 = SPEC node k) starts in the step after scattering k ends.

use super::furthest_first::FurthestFirst;
use super::queue_sim::{InitialOrder, Lane, Msg, Tie, lanes, merge, simulate};
use super::{LINEAR_ARRAY, claimed, produce};
use crate::bounds::total_exchange::linear_array as t_opt_linear_array;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Node, Schedule, Transmission};

/// The scattering from `source`, given the instance's [`lanes`] (computed once: routing every
/// packet costs O(n) per packet).
fn scatter_steps(lanes: &[(Lane, Vec<Msg>)], source: Node) -> Vec<Vec<Transmission>> {
    let parts = lanes
        .iter()
        .map(|(lane, msgs)| {
            let own: Vec<Msg> = msgs.iter().copied().filter(|m| m.src == source).collect();
            simulate(lane, &own, InitialOrder::FurthestFirst, &mut FurthestFirst::new(Tie::SmallestSource))
        })
        .collect();
    merge(parts)
}

/// The optimal scattering from `source` of \[2\] (TE-3): `source`'s packets of the instance,
/// furthest-first in both directions; the other nodes' packets are not sent.
pub fn scatter(inst: &Instance, source: Node) -> Result<Schedule> {
    Ok(Schedule::StoreForward(scatter_steps(&lanes(inst, inst.ring_tie)?, source)))
}

/// The n scatterings of nodes 0, 1, …, n−1 one after the other (TE-4).
pub fn consecutive_scatter(inst: &Instance) -> Result<Schedule> {
    let lanes = lanes(inst, inst.ring_tie)?;
    let mut steps = Vec::new();
    for source in 0..inst.network.len() {
        steps.extend(scatter_steps(&lanes, source));
    }
    Ok(Schedule::StoreForward(steps))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "consecutive-scatter",
    source: "004 §2 (after [2]); TE-3, TE-4",
    summary: "baseline: nodes 1..n scatter one after another, each furthest-first in both directions in \
              max(i−1, n−i) steps; 3·T_opt − ⌊n/2⌋ in total",
    applicability: LINEAR_ARRAY,
    claim: |inst| {
        let n = inst.network.len() as u64;
        claimed(
            inst,
            "TE-4",
            "n consecutive optimal scatters",
            "Σ max(i−1, n−i) = 3T_opt(LA) − ⌊n/2⌋",
            3 * t_opt_linear_array(n) - n / 2,
        )
    },
    run: |inst| produce(inst, consecutive_scatter, None),
};
