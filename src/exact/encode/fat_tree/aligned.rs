//! # Aligned payloads: the prefix's restricted model (ours)
//!
//! A prefix whose every message carries an *aligned block* [i·2^k, (i + 1)·2^k − 1] or a
//! *prefix* [0, x]: 3N − log N − 2 payloads instead of N(N + 1)/2 (89 against 528 at N = 32).
//! The Fenwick chain of [0, v] is made of aligned blocks, so the model keeps the hypercube
//! scan's schedules and those of `prefix-fenwick-pieces` without runs (a run of pieces need not
//! be aligned). Its witnesses are schedules of the instance, checked as such; its
//! infeasibility proves nothing.
//!
//! The instance's own model ([`super::combine`]) has a variable per message *and* payload,
//! O(N²·|payloads|·T). This one names the sender and the payload of each receipt apart, so
//! its variables grow as O(N·T·(N + |payloads|)) and the pair is tied by ternary rows:
//!
//! - `y_{b}_t{τ}_from{a}` ∈ {0,1}: b receives, at the end of step τ, a message that a
//!   submitted in step s = τ − 2h(a, b) + 1 ≥ 1 (its event: that send, with the placeholder
//!   payload [a, a] until [`Event::Carries`] names it);
//! - `z_{b}_t{τ}_r{lo}_{hi}` ∈ {0,1}: that message carries [lo, hi], only while b can still
//!   use it ([`super::combine`], "Late receipts");
//! - `f_v{v}_r{lo}_{hi}_t{τ}` ∈ {0,1}: v can form the carried range [lo, hi] at the end of
//!   step τ, from the end of the first step at which every a_i of it can have reached v; P_v's
//!   own [v, v] is a constant 1;
//! - `p_v{v}_r{lo}_{m}_{hi}_t{τ}` ∈ {0,1}: v forms [lo, hi] as [lo, m] then [m + 1, hi], both
//!   carried. That loses no chain: a prefix [0, x] forms left to right through prefixes, and an
//!   aligned block that no piece of its chain crosses the middle of forms from its halves (a
//!   piece crossing it is the block itself, or a prefix, when the block starts at 0).
//!
//! Rows: `payload` Σ_r z(b, τ, r) ≤ 1; `carried` z ≤ Σ_a y(b, τ, a) and `loaded`
//! Σ_a y(b, τ, a) ≤ Σ_r z (each message carries exactly one payload, b receives at most one);
//! `held` y(b, τ, a) + z(b, τ, r) − f(a, r, s − 1) ≤ 1 (the sender can form what it sends);
//! `form` f(v, r, τ) ≤ f(v, r, τ − 1) + z(v, τ, r) + Σ_m p(v, r, m, τ) with `first`
//! p ≤ f(v, [lo, m], τ) and `last` p ≤ f(v, [m + 1, hi], τ) (ranges only grow, and strictly
//! shorter parts end the recursion; a p whose part is a constant 1 is that part's f, as in
//! [`super::combine`]); `goal` f(v, [0, v], T) = 1; the processor, capacity and
//! round rules of the product and prefix model, and the cuts of [`super::combine`] (no
//! message leftwards across the root, no range beyond N/2 at a left processor, below 4 log N).
//!
//! Every f = 1 of a solution is a real chain of received blocks, so a solution decodes into
//! an admissible prefix of length ≤ T; a prefix of this kind gives a solution with its own
//! messages. On fat-tree:32 under w = n it gives the shortest known prefix, 17 steps, where
//! `prefix-fenwick-pieces` takes 19 (docs/results.md).

use super::combine::FatTreeCombine;
use super::{Range, Traffic, Tree, add_chain, form_var};
use crate::exact::encode::{Encoding, Event};
use crate::exact::ir::{Linear, Program, Sense, VarId};
use std::collections::BTreeMap;

/// Whether a message of the restricted model may carry r: an aligned block or a prefix.
fn carried((lo, hi): Range) -> bool {
    let len = hi - lo + 1;
    lo == 0 || (len.is_power_of_two() && lo % len == 0)
}

impl FatTreeCombine {
    /// The receipts of the restricted model at `horizon`: (b, τ, a), a's message to b
    /// received at the end of step τ, submitted in step 1 or later, none leftwards across the
    /// root when there is no way back.
    fn aligned_receipts(&self, horizon: u64) -> impl Iterator<Item = (usize, u64, usize)> + '_ {
        let cut = self.no_way_back(horizon);
        self.tree
            .pairs(None)
            .filter(move |&(a, b)| !(cut && self.tree.leftward(a, b)))
            .flat_map(move |(a, b)| (Tree::arrival_from_start(a, b)..=horizon).map(move |tau| (b, tau, a)))
    }

    /// The first step at whose end v may form r in the restricted model at `horizon`, or
    /// `None` if it never may (module documentation); 0 for its own [v, v].
    fn aligned_ready(&self, v: usize, r: Range, horizon: u64) -> Option<u64> {
        (carried(r) && self.formable(v, r, horizon)).then(|| Self::ready(v, r))
    }

    /// The payloads a message to b received at the end of step τ may carry at `horizon`:
    /// carried ranges other than [b, b] that b may form and can still use, and that one of
    /// `senders` may hold when it submits.
    fn aligned_payloads(&self, b: usize, tau: u64, senders: &[usize], horizon: u64) -> Vec<Range> {
        self.ranges()
            .filter(|&r| r != (b, b) && carried(r) && tau <= self.last_use(b, r, horizon))
            .filter(|&r| self.aligned_ready(b, r, horizon).is_some())
            .filter(|&r| {
                senders.iter().any(|&a| {
                    self.aligned_ready(a, r, horizon).is_some_and(|t| t + 1 + Tree::flight(a, b) <= tau)
                })
            })
            .collect()
    }

    /// The splits of r in the restricted model: the m with [lo, m] and [m + 1, hi] carried.
    fn aligned_splits((lo, hi): Range) -> impl Iterator<Item = usize> {
        (lo..hi).filter(move |&m| carried((lo, m)) && carried((m + 1, hi)))
    }

    /// The variables of [`FatTreeCombine::aligned`] at `horizon`, at most (the `p` of a split
    /// one of whose parts cannot be formed yet, or is a constant, are not built).
    pub(super) fn aligned_variables(&self, horizon: u64) -> usize {
        let mut senders: BTreeMap<(usize, u64), Vec<usize>> = BTreeMap::new();
        for (b, tau, a) in self.aligned_receipts(horizon) {
            senders.entry((b, tau)).or_default().push(a);
        }
        let receipts: usize = senders
            .iter()
            .map(|(&(b, tau), from)| from.len() + self.aligned_payloads(b, tau, from, horizon).len())
            .sum();
        let forms: usize = (0..self.tree.n)
            .flat_map(|v| self.ranges().map(move |r| (v, r)))
            .filter(|&(v, r)| r != (v, v))
            .filter_map(|(v, r)| {
                let ready = self.aligned_ready(v, r, horizon)?;
                Some(
                    (horizon + 1).saturating_sub(ready.max(1)) as usize
                        * (1 + Self::aligned_splits(r).count()),
                )
            })
            .sum();
        let rounds = if self.tree.rounds { self.tree.round_starts(horizon).count() } else { 0 };
        receipts + forms + rounds
    }

    /// The restricted model at `horizon` (module documentation).
    pub(super) fn aligned(&self, horizon: u64) -> Encoding {
        let tree = &self.tree;
        let mut model =
            Program::new(format!("{} with aligned payloads, horizon T = {horizon}", tree.description));
        let mut traffic = Traffic::new(tree, horizon);
        let mut forms = AlignedForms { encoder: self, horizon, memo: BTreeMap::new() };
        // y by receiver and arrival: (a, y).
        let mut receipts: BTreeMap<(usize, u64), Vec<(usize, VarId)>> = BTreeMap::new();
        for (b, tau, a) in self.aligned_receipts(horizon) {
            let y = model.bool_var(format!("y_{b}_t{tau}_from{a}"));
            traffic.add(y, a, b, tau - Tree::flight(a, b), [a, a]);
            receipts.entry((b, tau)).or_default().push((a, y));
        }
        // z by receiver, arrival and payload, all built before the first form reads them.
        let mut payloads: BTreeMap<(usize, u64, Range), VarId> = BTreeMap::new();
        let mut carries = Vec::new();
        for (&(b, tau), from) in &receipts {
            let senders: Vec<usize> = from.iter().map(|&(a, _)| a).collect();
            let ys: Vec<VarId> = from.iter().map(|&(_, y)| y).collect();
            let mut all = Vec::new();
            for r in self.aligned_payloads(b, tau, &senders, horizon) {
                let z = model.bool_var(format!("z_{b}_t{tau}_r{}_{}", r.0, r.1));
                carries.push((z, Event::Carries { to: b, arrival: tau, payload: [r.0, r.1] }));
                payloads.insert((b, tau, r), z);
                let mut row = Linear::sum(&[z]);
                row.add_scaled(-1, &Linear::sum(&ys));
                model.constrain(format!("carried_{b}_t{tau}_r{}_{}", r.0, r.1), &row, Sense::Le, 0);
                all.push(z);
            }
            if all.len() > 1 {
                model.constrain(format!("payload_{b}_t{tau}"), &Linear::sum(&all), Sense::Le, 1);
            }
            let mut row = Linear::sum(&ys);
            row.add_scaled(-1, &Linear::sum(&all));
            model.constrain(format!("loaded_{b}_t{tau}"), &row, Sense::Le, 0);
        }
        for (&(b, tau, r), &z) in &payloads {
            for &(a, y) in &receipts[&(b, tau)] {
                let held = forms.form(&mut model, &payloads, a, r, tau - Tree::flight(a, b) - 1);
                if held.constant() == Some(1) {
                    continue;
                }
                let mut row = Linear::sum(&[y, z]);
                row.add_scaled(-1, &held);
                model.constrain(format!("held_{b}_t{tau}_from{a}_r{}_{}", r.0, r.1), &row, Sense::Le, 1);
            }
        }
        traffic.constrain_processors(&mut model, tree);
        traffic.constrain_capacities(&mut model, tree);
        for v in 0..tree.n {
            let form = forms.form(&mut model, &payloads, v, (0, v), horizon);
            model.constrain(format!("goal_v{v}"), &form, Sense::Eq, 1);
        }
        if tree.rounds {
            traffic.constrain_rounds(&mut model, tree, horizon);
        }
        let mut encoding = traffic.into_encoding(model, horizon);
        encoding.events.extend(carries);
        encoding
    }
}

/// The `f` and `p` variables of [`FatTreeCombine::aligned`], built on demand.
struct AlignedForms<'a> {
    encoder: &'a FatTreeCombine,
    horizon: u64,
    memo: BTreeMap<(usize, Range, u64), Linear>,
}

impl AlignedForms<'_> {
    /// f(v, r, τ) as a constant or one variable. `payloads` holds every z of the model: the
    /// forms are asked only once all of them are built.
    fn form(
        &mut self,
        model: &mut Program,
        payloads: &BTreeMap<(usize, u64, Range), VarId>,
        v: usize,
        r: Range,
        tau: u64,
    ) -> Linear {
        if let Some(lin) = self.memo.get(&(v, r, tau)) {
            return lin.clone();
        }
        let mut lin = Linear::new();
        if r == (v, v) {
            lin.add_constant(1);
        } else if self.encoder.aligned_ready(v, r, self.horizon).is_some_and(|ready| tau >= ready.max(1)) {
            let (lo, hi) = r;
            let mut ways = self.form(model, payloads, v, r, tau - 1);
            if let Some(&z) = payloads.get(&(v, tau, r)) {
                ways.add(1, z);
            }
            for m in FatTreeCombine::aligned_splits(r) {
                let (first, last) = (
                    self.form(model, payloads, v, (lo, m), tau),
                    self.form(model, payloads, v, (m + 1, hi), tau),
                );
                if first.constant() != Some(0) && last.constant() != Some(0) {
                    add_chain(model, &mut ways, (v, tau), (lo, m, hi), &first, &last);
                }
            }
            lin = form_var(model, (v, tau), r, ways);
        }
        self.memo.insert((v, r, tau), lin.clone());
        lin
    }
}

#[cfg(all(test, any(feature = "smt", feature = "sat")))]
mod tests {
    use crate::checker::{Producer, accept};
    use crate::exact::BackendKind;
    use crate::exact::backend::{Aim, BackendAnswer, Limits};
    use crate::exact::encode::fat_tree::FatTreeCombine;
    use crate::exact::encode::fat_tree::tests::{fat_tree, feasible};
    use crate::exact::encode::{Encoder, Variant};

    /// The restricted model's witness at `horizon`, decoded and checked: its length.
    fn restricted_witness(inst: &crate::spec::Instance, horizon: u64) -> Option<u64> {
        let encoder = FatTreeCombine::new(inst);
        let restricted = encoder.encode(horizon, Variant::Restricted).unwrap();
        assert!(restricted.model.variables.len() <= encoder.variables(horizon, Variant::Restricted));
        // The encoder's measured order: CaDiCaL where built, else z3 (microlp takes minutes at N = 8).
        let kind = if cfg!(feature = "sat") { BackendKind::Sat } else { BackendKind::Smt };
        let backend = kind.backend().unwrap();
        let BackendAnswer::Feasible(assignment) =
            backend.solve(&restricted.model, &Limits::default()).unwrap()
        else {
            return None;
        };
        let checked = accept(inst, restricted.decode(&assignment.values), Producer::Exact("test")).unwrap();
        Some(checked.length())
    }

    /// The restricted model keeps the optimum where it is known: on fat-tree:4 under w = 1,
    /// log n + 1 and n, pipelined and in rounds, it is first feasible where the prefix model is;
    /// on fat-tree:8, pipelined, it meets the certified optima 11, 9 and 9 (docs/results.md).
    /// Each witness decodes into a prefix the checker accepts, and the variable count bounds
    /// the model's.
    #[test]
    fn aligned_payloads_keep_the_small_optima_and_decode_to_prefixes() {
        let cases = ["const:1", "log+1", "pow:1"].into_iter().flat_map(|c| [(c, false), (c, true)]);
        for (capacity, rounds) in cases {
            let inst = fat_tree("prefix", 4, capacity, rounds);
            let encoder = FatTreeCombine::new(&inst);
            let mut t = crate::bounds::lower_bounds(&inst).iter().map(|b| b.value).max().unwrap();
            let case = format!("N = 4, {capacity}, rounds {rounds}");
            while restricted_witness(&inst, t).is_none() {
                let own = encoder.encode(t, Variant::Full).unwrap();
                assert!(!feasible(&own.model, Aim::Witness), "{case}: the own model is feasible at {t}");
                t += 1;
            }
            let own = encoder.encode(t, Variant::Full).unwrap();
            assert!(feasible(&own.model, Aim::Witness), "{case}: T = {t}");
            assert_eq!(restricted_witness(&inst, t), Some(t), "{case}");
        }
        for (capacity, optimum) in [("const:1", 11), ("log+1", 9), ("pow:1", 9)] {
            let inst = fat_tree("prefix", 8, capacity, false);
            assert_eq!(restricted_witness(&inst, optimum), Some(optimum), "N = 8, {capacity}");
        }
    }
}
