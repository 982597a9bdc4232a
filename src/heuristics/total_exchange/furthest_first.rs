//! # Furthest-first (paper 004 §3 and §4.1)
//!
//! Paper 004, §3: "if node i has any messages in its queue, it selects the
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

use super::queue_sim::{Discipline, InitialOrder, Lane, Msg, Tie, TieBreak, run, run_node_invariant};
use super::{LINEAR_ARRAY_OR_ODD_RING, claimed, produce, te_16};
use crate::bounds::total_exchange::linear_array as t_opt_linear_array;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Direction, Family, Instance, Itineraries, Node, Schedule};

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

/// Furthest-first on the linear array `path(n)` with smallest-source ties, written down from
/// the closed form (5) instead of simulated (TE-10): paper message m_k(i), 1 ≤ k < i ≤ n − 1,
/// leaves paper node j (k ≤ j < i) in step j·n − j·i + k, and m_k(n), never delayed (TE-6),
/// in step j − k + 1. Leftward traffic is the mirror image. One itinerary per packet,
/// destination by destination, so each arc's steps fill in order. Tests compare it with the
/// simulation [`furthest_first`] hop by hop.
pub fn furthest_first_closed_form(n: usize) -> Itineraries {
    // Paper label ℓ is node ℓ − 1 rightward and its mirror n − ℓ leftward.
    let forward = |direction: Direction| direction == Direction::Forward;
    let node = |direction, label: usize| if forward(direction) { label - 1 } else { n - label };
    let label = |direction, node: usize| if forward(direction) { node + 1 } else { n - node };
    let mut legs = Vec::with_capacity(n * (n - 1));
    for direction in [Direction::Forward, Direction::Backward] {
        for i in (2..=n).rev() {
            for k in 1..i {
                legs.push((node(direction, k) * n + node(direction, i), direction, i - k));
            }
        }
    }
    Itineraries::fill(n, false, &legs, |leg, out| {
        let (token, direction, _) = legs[leg];
        let (k, i) = (label(direction, token / n), label(direction, token % n));
        for (t, j) in out.iter_mut().zip(k..i) {
            *t = if i < n { j * (n - i) + k } else { j - k + 1 } as u32;
        }
    })
}

/// The compact form of the registered method on a full exchange: the closed form on a linear
/// array, the node-invariant simulation on an odd ring.
fn compact(inst: &Instance) -> Result<Itineraries> {
    match inst.network.family() {
        Family::Path(n) => Ok(furthest_first_closed_form(*n)),
        _ => {
            let discipline = &mut FurthestFirst::new(Tie::SmallestSource);
            run_node_invariant(inst, inst.ring_tie, InitialOrder::FurthestFirst, discipline, 1)
        }
    }
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
    run: |inst| produce(inst, |inst| furthest_first(inst, Tie::SmallestSource), Some(compact)),
};
