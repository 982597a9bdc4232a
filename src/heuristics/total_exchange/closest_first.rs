//! # Closest-first (paper 004 §4.1)
//!
//! Paper 004, §4.1, paragraph after Theorem 2: "the simple furthest-first
//! and closest-first types of scheduling with any consistent (across the ring) tie-breaking
//! protocol" are node-invariant (TE-17), hence optimal on odd rings, (n²−1)/8 (Theorem 2,
//! TE-14 … TE-16).

use super::queue_sim::{Discipline, InitialOrder, Lane, Msg, Tie, TieBreak, run, run_node_invariant};
use super::{ODD_RING, produce, te_16};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Node, Schedule};

/// The closest-first discipline: the queued message with the smallest remaining distance.
#[derive(Debug, Clone)]
pub struct ClosestFirst(TieBreak);

impl ClosestFirst {
    /// Closest-first with the given tie rule.
    pub fn new(tie: Tie) -> Self {
        Self(TieBreak::new(tie))
    }
}

impl Discipline for ClosestFirst {
    fn priority(&self, lane: &Lane, at: Node, m: &Msg) -> i64 {
        -(lane.distance(at, m.dst) as i64)
    }

    fn tie(&mut self) -> Option<&mut TieBreak> {
        Some(&mut self.0)
    }
}

/// Closest-first total exchange in both directions at once (ring antipodal messages routed by
/// the instance's `ring_tie`), ties by `tie`.
pub fn closest_first(inst: &Instance, tie: Tie) -> Result<Schedule> {
    run(inst, inst.ring_tie, InitialOrder::ClosestFirst, &mut ClosestFirst::new(tie))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "closest-first",
    source: "004 §4.1 Theorem 2; TE-14..TE-17",
    summary: "every node sends, in each direction, the queued message with the closest destination \
              (ties: smallest source); node-invariant, optimal (n²−1)/8 on odd rings",
    applicability: ODD_RING,
    claim: te_16,
    run: |inst| {
        produce(
            inst,
            |inst| closest_first(inst, Tie::SmallestSource),
            Some(|inst| {
                let discipline = &mut ClosestFirst::new(Tie::SmallestSource);
                run_node_invariant(inst, inst.ring_tie, InitialOrder::ClosestFirst, discipline, 1)
            }),
        )
    },
};
