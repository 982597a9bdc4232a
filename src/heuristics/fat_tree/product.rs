//! # Product by reversing a broadcast (paper 002 §5, relation 3)
//!
//! Claims FT-23 (relation 3: a broadcast's computation graph, visited from the leaves, is a
//! product computation) and FT-24 (Theorem 6: product is no harder than broadcast). The paper
//! notes that the reversed product "requires, in general, commutativity"; the checker's ⋆ is
//! not commutative, so every broadcast message carries back its *responsibility*, an index
//! range ([`crate::spec::reversal`], shared with the exact layer's product witnesses), where a
//! message is fed by its sender's last receipt in an earlier phase. A range that does not chain
//! refuses the reversal; duplicate copies carry nothing and are dropped.
//!
//! The registered method reverses the shortest broadcast the model allows (Algorithm 1, the
//! naive broadcast or, outside the round model, the pipelined one). For Algorithm 1 the ranges
//! close because Sparse-Broadcast's copies are spread in index order
//! and line 10 is kept for i = 0 (its copies, not line 6's, feed lines 11–13). The product runs
//! the phases backwards, each message from receiver to sender with its range: a message
//! submitted at offset o with height h in a phase of L steps is submitted at offset L − o − 2h,
//! which mirrors every channel crossing (an up-channel becomes the down-channel of the same
//! node, of equal capacity) and swaps submissions with receipts. Under the round model a
//! reversed round is not a round (its messages would leave at different steps), so there all of
//! a round's reversed messages leave at its first step: a round of height H stays 2H long, each
//! processor still receives at most one message per round, and a channel carries, in one step,
//! at most the messages the broadcast round routed over its mirror (its per-round load, FT-5).
//! The checker verifies the result.

use super::plan::{Hop, Phase, sends};
use crate::error::{Error, Result};
use crate::heuristics::Method;
use crate::spec::reversal::{Timed, responsibilities};
use crate::spec::{Instance, Model, Schedule};

/// A broadcast plan with the range each of its messages carries back.
pub struct Reversal<'a> {
    plan: &'a [Phase],
    /// Per phase, per hop: the responsibility range, `None` when there is nothing to carry.
    ranges: Vec<Vec<Option<[usize; 2]>>>,
}

impl<'a> Reversal<'a> {
    /// The responsibilities of a broadcast from P_0 to processors 0..n−1; an error when the
    /// plan is not such a broadcast or a range is not contiguous.
    pub fn new(plan: &'a [Phase], n: usize) -> Result<Self> {
        // A receipt feeds the phases after its own: phase p sends at key 2p + 1, receives at 2p + 2.
        let timed: Vec<Timed> = (0i64..)
            .zip(plan)
            .flat_map(|(p, phase)| {
                phase.hops.iter().map(move |h| Timed {
                    sent: 2 * p + 1,
                    arrived: 2 * p + 2,
                    from: h.from,
                    to: h.to,
                })
            })
            .collect();
        let mut flat = responsibilities(&timed, n)
            .map_err(|reason| Error::NotApplicable { method: "broadcast reversal".into(), reason })?
            .into_iter();
        let ranges = plan.iter().map(|ph| flat.by_ref().take(ph.hops.len()).collect()).collect();
        Ok(Reversal { plan, ranges })
    }

    /// The product: the phases backwards, each message reversed with its range; `rounds` makes
    /// every reversed phase a round.
    pub fn product(&self, rounds: bool) -> Vec<Phase> {
        self.plan
            .iter()
            .zip(&self.ranges)
            .rev()
            .map(|(phase, ranges)| {
                let length = phase.length();
                let mut hops: Vec<Hop> = phase
                    .hops
                    .iter()
                    .zip(ranges)
                    .filter_map(|(h, r)| {
                        let offset = if rounds { 0 } else { length - 1 - h.arrival() };
                        r.map(|payload| Hop { offset, from: h.to, to: h.from, payload })
                    })
                    .collect();
                let shift = hops.iter().map(|h| h.offset).min().unwrap_or(0);
                hops.iter_mut().for_each(|h| h.offset -= shift);
                Phase { hops }
            })
            .filter(|p| !p.hops.is_empty())
            .collect()
    }

    /// The broadcast again, forwards, each message carrying the prefix `[0, lo − 1]` that
    /// precedes its range (the down-sweep of [`prefix`](mod@super::prefix)).
    pub fn prefixes(&self) -> Vec<Phase> {
        self.plan
            .iter()
            .zip(&self.ranges)
            .map(|(phase, ranges)| Phase {
                hops: phase
                    .hops
                    .iter()
                    .zip(ranges)
                    .filter_map(|(h, r)| r.map(|[lo, _]| Hop { payload: [0, lo - 1], ..*h }))
                    .collect(),
            })
            .filter(|p| !p.hops.is_empty())
            .collect()
    }
}

/// Whether the instance is in the round model.
pub(super) fn in_rounds(inst: &Instance) -> bool {
    matches!(inst.model, Model::FatTree { rounds: true, .. })
}

/// The shortest broadcast the model allows, reversed: P_0 ends with a_0 ⋆ … ⋆ a_{N−1}.
pub fn product(inst: &Instance) -> Result<Schedule> {
    let n = inst.network.len();
    let plan = super::shortest_broadcast(inst)?;
    Ok(Schedule::FatTree(sends(&Reversal::new(&plan, n)?.product(in_rounds(inst)))))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "product",
    source: "002 §5 relation 3, Theorem 6; FT-23, FT-24",
    summary: "the shortest paper-002 broadcast run backwards with contiguous responsibility \
              ranges (no commutativity needed); same length as that broadcast",
    applicability: super::PRODUCT,
    claim: |_| None,
    run: product,
};
