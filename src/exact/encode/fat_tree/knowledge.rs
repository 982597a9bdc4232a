//! # Knowledge relaxations (product and prefix, pipelined and in rounds; ours)
//!
//! Read ⋆ as commutative and idempotent (a set union): a message then carries values its
//! sender knows, and P_v's goal is to know every a_i of its goal range. Every schedule maps to
//! it with its own messages: a payload [lo, hi] that chains from ranges the sender holds names
//! only values that have reached the sender, and holding ranges that chain into the goal means
//! knowing each of its a_i. So this model's infeasibility at T is the instance's
//! ([`Variant::Relaxed`](crate::exact::encode::Variant::Relaxed)). It keeps the model's
//! messages and rules but drops the O(N²) range variables per message:
//!
//! - `x_{a}_{b}_t{s}` ∈ {0,1}: a sends to b in step s, for s + 2h(a, b) − 1 ≤ T;
//! - `k_v{v}_i{i}_t{τ}` ∈ {0,1} for i ≠ v: v knows a_i at the end of step τ, only for
//!   τ ≥ 2h(i, v) (a copy from P_i leaves in step 1 at the earliest); P_v knows a_v throughout;
//! - `c_{a}_{b}_i{i}_t{s}` ∈ {0,1} for i ≠ b: the message carries a_i, with `sent` c ≤ x and
//!   `known` c ≤ k(a, i, s − 1);
//! - `learn`: k(b, i, τ) − k(b, i, τ − 1) ≤ Σ of the c bringing a_i to b at the end of step τ;
//!   `keep`: k(b, i, τ − 1) ≤ k(b, i, τ); `goal`: k(v, i, T) = 1 for every a_i of v's goal;
//! - the processor, capacity and round rules of the product and prefix model ([`super::combine`]).
//!
//! **Range payloads**, the second relaxed model ([`super::KNOWLEDGE`]), keep one more fact of every
//! schedule: a payload is an index range, so the values a message carries are one run in
//! index order once b's own index is skipped (a payload may span a_b, which b needs from
//! nobody). `range`: `q_{a}_{b}_i{i}_t{s}` ∈ {0,1}, "the run has ended", from the first value
//! the message may carry to the last; `gap` q_i ≥ c_j − c_i (j the index before i, b skipped),
//! `ended` q_i ≥ q_j, `after` c_i + q_i ≤ 1: binary and ternary clauses that propagate along the
//! payload. A value the cuts of [`super::combine`] forbid is a gap no run crosses, and rightly
//! so: a range holding it is late, or has no way back, as a whole, and its message is deleted.
//!
//! Both have O(N³·T) variables as the product model does, but no range index: at N = 16 and
//! T = 12 (with the cuts) 5.3k and 7.1k, where the prefix model has 22k under
//! log n + 1. Both are weaker than the prefix model and stronger than the broadcast. Under
//! log n + 1 on fat-tree:16 the first is infeasible at 12 (CaDiCaL, 7.6 s), so the prefix
//! takes at least 13 there; under w = n it is feasible at 12, where the prefix model is not,
//! and the second is not (`solve`: CaDiCaL 26 s, z3 32 s), so the prefix optimum there, 13,
//! is certified at default settings (`range_payloads_refute_the_broadcast_optimum_under_w_n`).
//! The search walks the first where it is infeasible, which costs less (under log n + 1 at 12
//! the second takes CaDiCaL three times as long and a proof three times as large), and the
//! second where the first is feasible. On fat-tree:8 the first meets the prefix optimum under
//! every capacity measured (docs/results.md, "Fat-tree exact optima").

use super::{FatTreeCombine, Traffic, Tree};
use crate::exact::encode::Encoding;
use crate::exact::encode::time_expanded::span;
use crate::exact::ir::{Linear, Program, Sense, VarId};
use std::collections::BTreeMap;

impl FatTreeCombine {
    /// Whether v may know a_i at the end of step τ of the model at `horizon`: from its start
    /// (i = v), or once a copy from P_i could have arrived (submitted in step 1, it arrives at
    /// the end of step 2h), if it can arrive at all ([`super::combine`], "No way back").
    fn may_know(&self, v: usize, i: usize, tau: u64, horizon: u64) -> bool {
        i == v || (tau >= Tree::arrival_from_start(i, v) && self.formable(v, (i, i), horizon))
    }

    /// Whether a's message to b in step s of the knowledge model at `horizon` may carry a_i:
    /// b lacks it, a may know it, and b gets it while it is of use ([`super::combine`], "Late receipts").
    fn carries(&self, a: usize, b: usize, i: usize, s: u64, horizon: u64) -> bool {
        i != b
            && self.may_know(a, i, s - 1, horizon)
            && s + Tree::flight(a, b) <= self.last_use(b, (i, i), horizon)
    }

    /// The messages of the knowledge model at `horizon`: (a, b, s) with a ≠ b, received by T,
    /// none leftwards across the root when there is no way back.
    fn knowledge_sends(&self, horizon: u64) -> impl Iterator<Item = (usize, usize, u64)> + '_ {
        let cut = self.no_way_back(horizon);
        self.tree
            .pairs(None)
            .filter(move |&(a, b)| !(cut && self.tree.leftward(a, b)))
            .flat_map(move |(a, b)| (1..=horizon.saturating_sub(Tree::flight(a, b))).map(move |s| (a, b, s)))
    }

    /// The variables of [`FatTreeCombine::knowledge`] at `horizon`, counted without building it.
    pub(super) fn knowledge_variables(&self, horizon: u64, ranges: bool) -> usize {
        let n = self.tree.n;
        let knows: usize = (0..n)
            .flat_map(|v| (0..n).filter(move |&i| i != v).map(move |i| (v, i)))
            .filter(|&(v, i)| self.formable(v, (i, i), horizon))
            .map(|(v, i)| span(Tree::arrival_from_start(i, v), horizon))
            .sum();
        let carried: usize = self
            .knowledge_sends(horizon)
            .map(|(a, b, s)| {
                let carries: Vec<bool> =
                    (0..n).filter(|&i| i != b).map(|i| self.carries(a, b, i, s, horizon)).collect();
                // c per value, with range payloads q from the first value carried to the last,
                // and x.
                let ends = match (carries.iter().position(|&c| c), carries.iter().rposition(|&c| c)) {
                    (Some(first), Some(last)) if ranges => last - first,
                    _ => 0,
                };
                carries.iter().filter(|&&c| c).count() + ends + 1
            })
            .sum();
        let rounds = if self.tree.rounds { self.tree.round_starts(horizon).count() } else { 0 };
        knows + carried + rounds
    }

    /// The knowledge relaxation at `horizon` (module documentation, "Knowledge relaxations"),
    /// with range payloads or payloads of any known values: its events are the messages, each
    /// with its sender's own index as a placeholder payload.
    pub(super) fn knowledge(&self, horizon: u64, ranges: bool) -> Encoding {
        let tree = &self.tree;
        let n = tree.n;
        let mut model =
            Program::new(format!("{} relaxed to knowledge sets, horizon T = {horizon}", tree.description));
        // knows[v][i][τ]: a constant or one variable, for τ = 0..=T.
        let mut knows: Vec<Vec<Vec<Linear>>> = vec![vec![Vec::new(); n]; n];
        for (v, row) in knows.iter_mut().enumerate() {
            for (i, k) in row.iter_mut().enumerate() {
                for tau in 0..=horizon {
                    let mut lin = Linear::new();
                    if i == v {
                        lin.add_constant(1);
                    } else if self.may_know(v, i, tau, horizon) {
                        lin.add(1, model.bool_var(format!("k_v{v}_i{i}_t{tau}")));
                    }
                    k.push(lin);
                }
            }
        }
        let mut traffic = Traffic::new(tree, horizon);
        // learnt[(b, i, τ)]: the c of the messages that bring a_i to b at the end of step τ.
        let mut learnt: BTreeMap<(usize, usize, u64), Vec<VarId>> = BTreeMap::new();
        for (a, b, s) in self.knowledge_sends(horizon) {
            let x = model.bool_var(format!("x_{a}_{b}_t{s}"));
            let arrival = traffic.add(x, a, b, s, [a, a]);
            // The payload's values in index order without b's own: c, or None where it is 0.
            let mut payload: Vec<(usize, Option<VarId>)> = Vec::with_capacity(n);
            for i in (0..n).filter(|&i| i != b) {
                let c =
                    self.carries(a, b, i, s, horizon).then(|| model.bool_var(format!("c_{a}_{b}_i{i}_t{s}")));
                payload.push((i, c));
                let Some(c) = c else { continue };
                for (side, lin) in
                    [("sent", Linear::sum(&[x])), ("known", knows[a][i][s as usize - 1].clone())]
                {
                    let mut row = Linear::sum(&[c]);
                    row.add_scaled(-1, &lin);
                    model.constrain(format!("{side}_{a}_{b}_i{i}_t{s}"), &row, Sense::Le, 0);
                }
                learnt.entry((b, i, arrival)).or_default().push(c);
            }
            if ranges {
                Self::constrain_range(&mut model, &payload, (a, b, s));
            }
        }
        for (v, row) in knows.iter().enumerate() {
            for (i, k) in row.iter().enumerate().filter(|&(i, _)| i != v) {
                for tau in 1..=horizon {
                    if k[tau as usize].constant().is_some() {
                        continue;
                    }
                    let mut keep = k[tau as usize - 1].clone();
                    keep.add_scaled(-1, &k[tau as usize]);
                    model.constrain(format!("keep_v{v}_i{i}_t{tau}"), &keep, Sense::Le, 0);
                    let mut learn = k[tau as usize].clone();
                    learn.add_scaled(-1, &k[tau as usize - 1]);
                    for &c in learnt.get(&(v, i, tau)).into_iter().flatten() {
                        learn.add(-1, c);
                    }
                    model.constrain(format!("learn_v{v}_i{i}_t{tau}"), &learn, Sense::Le, 0);
                }
            }
        }
        traffic.constrain_processors(&mut model, tree);
        traffic.constrain_capacities(&mut model, tree);
        for (v, goal) in self.goals.iter().enumerate() {
            for i in goal.iter().flat_map(|&(lo, hi)| lo..=hi) {
                model.constrain(format!("goal_v{v}_i{i}"), &knows[v][i][horizon as usize], Sense::Eq, 1);
            }
        }
        if tree.rounds {
            traffic.constrain_rounds(&mut model, tree, horizon);
        }
        traffic.into_encoding(model, horizon)
    }

    /// `range`: the values that a's message to b in step s carries form one run of `payload`
    /// (index order without b's own; None where a value cannot be carried). `q` = "the run has
    /// ended": it follows a carried value that is not followed by one (`gap`), stays set
    /// (`ended`), and nothing is carried where it is set (`after`): binary and ternary clauses
    /// that propagate along the payload (module documentation, "Knowledge relaxations").
    fn constrain_range(
        model: &mut Program,
        payload: &[(usize, Option<VarId>)],
        (a, b, s): (usize, usize, u64),
    ) {
        let Some(first) = payload.iter().position(|(_, c)| c.is_some()) else { return };
        let last = payload.iter().rposition(|(_, c)| c.is_some()).unwrap_or(first);
        let mut ended: Option<VarId> = None;
        for j in first + 1..=last {
            let (i, c) = payload[j];
            let q = model.bool_var(format!("q_{a}_{b}_i{i}_t{s}"));
            if let Some(before) = ended {
                let mut row = Linear::sum(&[before]);
                row.add(-1, q);
                model.constrain(format!("ended_{a}_{b}_i{i}_t{s}"), &row, Sense::Le, 0);
            }
            if let Some(before) = payload[j - 1].1 {
                let mut row = Linear::sum(&[before]);
                if let Some(c) = c {
                    row.add(-1, c);
                }
                row.add(-1, q);
                model.constrain(format!("gap_{a}_{b}_i{i}_t{s}"), &row, Sense::Le, 0);
            }
            if let Some(c) = c {
                model.constrain(format!("after_{a}_{b}_i{i}_t{s}"), &Linear::sum(&[c, q]), Sense::Le, 1);
            }
            ended = Some(q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(any(feature = "smt", feature = "sat"))]
    use crate::exact::backend::Aim;
    use crate::exact::encode::fat_tree::tests::fat_tree;
    #[cfg(any(feature = "smt", feature = "sat"))]
    use crate::exact::encode::fat_tree::tests::feasible_by;
    use crate::spec::network::fat_tree_lca_height;

    /// The knowledge relaxation is one (module documentation): every schedule the registered
    /// algorithms give for product and prefix on fat-tree:4, 8 and 16, under four capacities,
    /// pipelined and in rounds, once checked, is a solution of the relaxed model at its length
    /// once what the cuts delete is deleted ([`super::combine`]), with `c` = 1 for
    /// the values of each payload but the receiver's own, `q` = 1 past its end, each
    /// processor knowing what it received (`k`), and in rounds a round
    /// of the tallest height at each submission step. Read off the schedule by name, so no
    /// solver is involved.
    #[test]
    fn every_checked_product_and_prefix_solves_the_knowledge_relaxation() {
        use crate::checker::{Producer, accept};
        let mut solutions = 0;
        for n in [4, 8, 16] {
            for capacity in ["const:1", "log+1", "pow:0.5", "pow:1"] {
                for (problem, rounds) in
                    [("product", false), ("prefix", false), ("product", true), ("prefix", true)]
                {
                    let inst = fat_tree(problem, n, capacity, rounds);
                    let methods = crate::heuristics::for_instance(&inst);
                    for (method, ranges) in methods.iter().flat_map(|m| [(m, false), (m, true)]) {
                        let schedule = method.produce(&inst).unwrap();
                        let checked = accept(&inst, schedule, Producer::Algorithm(method.name)).unwrap();
                        let length = checked.length();
                        let crate::spec::Schedule::FatTree(sends) = checked.schedule() else {
                            unreachable!()
                        };
                        let encoder = FatTreeCombine::new(&inst);
                        let model = encoder.knowledge(length, ranges).model;
                        assert_eq!(encoder.knowledge_variables(length, ranges), model.variables.len());
                        let at = |name: String| model.variables.iter().position(|v| v.name == name);
                        let mut values = vec![0; model.variables.len()];
                        // knows[v][i] from the step v first knows a_i on.
                        let mut first = vec![vec![u64::MAX; n]; n];
                        (0..n).for_each(|v| first[v][v] = 0);
                        let mut by_arrival: Vec<_> = sends.iter().collect();
                        by_arrival.sort_by_key(|m| m.step as u64 + Tree::flight(m.from, m.to));
                        for m in by_arrival {
                            let s = m.step as u64;
                            let [lo, hi] = m.payload;
                            let carried: Option<Vec<(usize, usize)>> = (lo..=hi)
                                .filter(|&i| i != m.to)
                                .map(|i| at(format!("c_{}_{}_i{i}_t{s}", m.from, m.to)).map(|c| (i, c)))
                                .collect();
                            // The cuts delete leftward messages with no way back and ranges
                            // received late: the model has no variable for them, or for a value
                            // of theirs, and nothing sent on uses them.
                            let (Some(x), Some(carried)) =
                                (at(format!("x_{}_{}_t{s}", m.from, m.to)), carried)
                            else {
                                continue;
                            };
                            values[x] = 1;
                            let arrival = s + Tree::flight(m.from, m.to);
                            for (i, c) in carried {
                                values[c] = 1;
                                first[m.to][i] = first[m.to][i].min(arrival);
                            }
                            // The run has ended past hi.
                            for i in hi + 1..n {
                                if let Some(q) = at(format!("q_{}_{}_i{i}_t{s}", m.from, m.to)) {
                                    values[q] = 1;
                                }
                            }
                        }
                        for v in 0..n {
                            for i in (0..n).filter(|&i| i != v) {
                                for tau in first[v][i]..=length {
                                    values[at(format!("k_v{v}_i{i}_t{tau}")).expect("k within its window")] =
                                        1;
                                }
                            }
                        }
                        if rounds {
                            let mut tallest: BTreeMap<u64, usize> = BTreeMap::new();
                            for m in sends {
                                let h = fat_tree_lca_height(m.from, m.to);
                                let t = tallest.entry(m.step as u64).or_default();
                                *t = (*t).max(h);
                            }
                            for (s, h) in tallest {
                                values[at(format!("z_s{s}_H{h}")).unwrap()] = 1;
                            }
                        }
                        assert_eq!(
                            model.first_violation(&values),
                            None,
                            "{} on {problem} fat-tree:{n} {capacity} rounds {rounds}",
                            method.name
                        );
                        solutions += 1;
                    }
                }
            }
        }
        assert!(solutions >= 3 * 4 * 4, "only {solutions} schedules");
    }

    /// Range payloads are what refute the broadcast's optimum under w = n (module
    /// documentation, "Knowledge relaxations"): for prefix on fat-tree:16 at T = 12, the
    /// relaxation whose payloads are any known values is feasible, the one with range payloads
    /// is not. So the prefix there takes 13 steps, what `prefix-fenwick-pieces` takes.
    #[cfg(any(feature = "smt", feature = "sat"))]
    #[test]
    fn range_payloads_refute_the_broadcast_optimum_under_w_n() {
        let inst = fat_tree("prefix", 16, "pow:1", false);
        // The encoder's first backend in this build (CaDiCaL, else z3): ILP would take hours.
        let backend = crate::exact::BackendChoice::Measured.resolve(&inst);
        let encoder = FatTreeCombine::new(&inst);
        assert!(feasible_by(backend, &encoder.knowledge(12, false).model, Aim::Refutation));
        assert!(!feasible_by(backend, &encoder.knowledge(12, true).model, Aim::Refutation));
    }
}
