//! # Furthest-first (paper 004 §3 and §4.1)
//!
//! Seed `004_d5b71cb5fff24442.txt`, §3: "if node i has any messages in its queue, it selects the
//! message that has to travel the largest distance and sends it"; ties broken in favour of the
//! message that has already travelled furthest (smallest source, Lemma 1).
//!
//! * Linear array: Theorem 1, length T_opt(LA) = ⌈(n²−1)/4⌉ whatever the ties (TE-5 … TE-13,
//!   Fig. 2 reconstructed as TE-24).
//! * Odd ring: with a rotation-consistent tie rule it is node-invariant (Definition 1, TE-17),
//!   hence optimal, (n²−1)/8 (Theorem 2, TE-14 … TE-16).
//!
//! One registered method, `furthest-first`, serves both networks; on an even ring it does not
//! apply (the paper's even-ring algorithm is `modified-message-shift`, Theorem 3).

use super::queue_sim::{Discipline, InitialOrder, Lane, Msg, Tie, TieBreak, run};
use super::{LINEAR_ARRAY_OR_ODD_RING, claimed, produce, te_16};
use crate::bounds::total_exchange::linear_array as t_opt_linear_array;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Node, Schedule};

/// The furthest-first discipline: the queued message with the largest remaining distance.
#[derive(Debug, Clone)]
pub struct FurthestFirst(TieBreak);

impl FurthestFirst {
    /// Furthest-first with the given tie rule.
    pub fn new(tie: Tie) -> Self {
        Self(TieBreak::new(tie))
    }
}

impl Discipline for FurthestFirst {
    fn priority(&self, lane: &Lane, at: Node, m: &Msg) -> i64 {
        lane.distance(at, m.dst) as i64
    }

    fn tie(&mut self) -> Option<&mut TieBreak> {
        Some(&mut self.0)
    }
}

/// Furthest-first total exchange in both directions at once on a linear array or ring (ring
/// antipodal messages routed by the instance's `ring_tie`), ties by `tie`.
pub fn furthest_first(inst: &Instance, tie: Tie) -> Result<Schedule> {
    run(inst, inst.ring_tie, InitialOrder::FurthestFirst, &mut FurthestFirst::new(tie))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "furthest-first",
    source: "004 §3 Theorem 1 (linear array), §4.1 Theorem 2 (odd ring); TE-5..TE-17, TE-24",
    summary: "every node sends, in each direction, the queued message with the furthest destination \
              (ties: smallest source); optimal: ⌈(n²−1)/4⌉ on a linear array, (n²−1)/8 on an odd ring",
    applicability: LINEAR_ARRAY_OR_ODD_RING,
    claim: |inst| match inst.network.family() {
        crate::spec::Family::Path(n) => {
            claimed(inst, "TE-13", "furthest-first (Theorem 1)", "⌈(n²−1)/4⌉", t_opt_linear_array(*n as u64))
        }
        crate::spec::Family::Ring(_) => te_16(inst),
        _ => None,
    },
    run: |inst| produce(inst, |inst| furthest_first(inst, Tie::SmallestSource)),
};
