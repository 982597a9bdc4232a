//! # Product by reversing a broadcast (paper 002 §5, relation 3)
//!
//! Claims FT-23 (relation 3: a broadcast's computation graph, visited from the leaves, is a
//! product computation) and FT-24 (Theorem 6: product is no harder than broadcast). The paper
//! notes that the reversed product "requires, in general, commutativity"; the checker's ⋆ is
//! not commutative, so the reversal here gives every broadcast message a *responsibility*, an
//! index range it carries back:
//!
//! * the parent of a message from P_u is the last message P_u received in an earlier phase (P_0
//!   starts as the root and never needs one);
//! * P_x's own index belongs to the last message P_x receives (P_0's to the root);
//! * a message's range is its own index (if any) together with the ranges of its children; they
//!   must form one contiguous range, else the reversal is refused. Messages with nothing to
//!   carry (duplicate copies) are dropped.
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
        let refuse = |reason: String| Error::NotApplicable { method: "broadcast reversal".into(), reason };
        // Events in order; `parent[e]` is None for children of the root.
        let mut events: Vec<(usize, usize)> = Vec::new();
        let mut parent: Vec<Option<usize>> = Vec::new();
        let mut last: Vec<Option<usize>> = vec![None; n];
        for (p, phase) in plan.iter().enumerate() {
            let first = events.len();
            for (k, hop) in phase.hops.iter().enumerate() {
                if hop.from.max(hop.to) >= n {
                    return Err(refuse(format!(
                        "P{} -> P{} names a processor beyond P{}",
                        hop.from,
                        hop.to,
                        n - 1
                    )));
                }
                if hop.from != 0 && last[hop.from].is_none() {
                    return Err(refuse(format!("P{} sends before it holds the value", hop.from)));
                }
                events.push((p, k));
                parent.push(if hop.from == 0 && last[0].is_none() { None } else { last[hop.from] });
            }
            for (e, &(p, k)) in events.iter().enumerate().skip(first) {
                last[plan[p].hops[k].to] = Some(e);
            }
        }
        // Pieces of each event (index events.len() is the root), filled children-first.
        let root = events.len();
        let mut pieces: Vec<Vec<[usize; 2]>> = vec![Vec::new(); root + 1];
        for (x, l) in last.iter().enumerate() {
            match (x, l) {
                (0, _) => pieces[root].push([0, 0]),
                (_, Some(e)) => pieces[*e].push([x, x]),
                (_, None) => return Err(refuse(format!("P{x} never receives the value"))),
            }
        }
        let mut range = vec![None; root + 1];
        for e in (0..root).rev().chain([root]) {
            let mut own = std::mem::take(&mut pieces[e]);
            own.sort_unstable();
            if own.windows(2).any(|w| w[1][0] != w[0][1] + 1) {
                let shown: Vec<String> = own.iter().map(|[a, b]| format!("[{a},{b}]")).collect();
                return Err(refuse(format!(
                    "the ranges gathered at one message are not contiguous ({}): the reversal would need a \
                     commutative operation",
                    shown.join(", ")
                )));
            }
            range[e] = own.first().map(|f| [f[0], own[own.len() - 1][1]]);
            if let (Some(r), true) = (range[e], e < root) {
                pieces[parent[e].unwrap_or(root)].push(r);
            }
        }
        if range[root] != Some([0, n - 1]) {
            return Err(refuse("the broadcast does not reach every processor".into()));
        }
        let mut ranges: Vec<Vec<Option<[usize; 2]>>> =
            plan.iter().map(|ph| vec![None; ph.hops.len()]).collect();
        for (e, &(p, k)) in events.iter().enumerate() {
            ranges[p][k] = range[e];
        }
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
