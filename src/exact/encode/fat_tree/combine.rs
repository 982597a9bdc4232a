//! # Product and prefix on the ideal fat-tree (§5, FT-23; [`FatTreeCombine`])
//!
//! The same messages, each carrying an index range r = [lo, hi] (the product a_lo ⋆ … ⋆ a_hi,
//! docs/spec.md §4.3): P_i starts with [i, i]; it may send r in step s iff the ranges it holds
//! at the end of step s − 1 chain into r (adjacent ranges only: ⋆ need not commute); product
//! ends with P_0 able to form [0, N − 1], prefix with every P_i able to form [0, i].
//!
//! - `x_{a}_{b}_r{lo}_{hi}_t{s}` ∈ {0,1}: a submits r to b in step s, for
//!   s > max_{i ∈ r, i ≠ a} 2h(i, a) (every a_i of r must have reached a) and
//!   s + 2h(a, b) − 1 ≤ T; never r = [b, b], which b holds;
//! - d(v, r, τ) = [r = [v, v]] + Σ of the x bringing r to v by the end of step τ (an
//!   expression, no variable): v holds r itself;
//! - `f_v{v}_r{lo}_{hi}_t{τ}` ∈ {0,1}: v can form r at the end of step τ, with
//!   `form`: f(v, [lo, hi], τ) ≤ d(v, [lo, hi], τ) + Σ_{lo ≤ m < hi} p(v, lo, m, hi, τ), and
//!   `p_v{v}_r{lo}_{m}_{hi}_t{τ}` ≤ f(v, [lo, m], τ) (`first`), ≤ d(v, [m+1, hi], τ) (`last`):
//!   a chain of held ranges ending in one v holds itself. Only the f that a rule reads are
//!   built (recursively, on demand), a constant where d or a side is one.
//!
//! Constraints: `send` Σ_b x(a, b, r, s) ≤ f(a, r, s − 1); `submit` and `receive`: at most one
//! message per processor and step each way (the processor rule); `cap` as for the broadcast; `goal`
//! f(v, goal(v), T) = 1; in rounds the round rules ([`super`]) and `round_receive`: the messages to b
//! submitted in one round's step number at most one (002 §4.2, the checker's one receipt per
//! round). `once` (valid, it keeps an optimal schedule): each range reaches each processor at
//! most once, since a second receipt of a held range changes no holding (so d ≤ 1); deleting
//! it keeps the schedule admissible as for the broadcast ([`super::broadcast`]). With first receipts only, a
//! schedule's true holdings satisfy every row, and every f = 1 of a solution is a real chain,
//! so the models at T are feasible exactly when the checker accepts a schedule of length ≤ T.
//!
//! **No way back (prefix below 4 log N; valid: it keeps a schedule of every length).** In a
//! prefix of length T < 4 log N, delete every message that crosses the root leftwards (from
//! P_{N/2} … P_{N−1} to P_0 … P_{N/2−1}) and every message of the left half whose range holds
//! an index ≥ N/2. Every route from one half to the other crosses the root, a crossing takes
//! 2 log N steps, and a range only ever grows into ranges that contain it. So a leftward
//! message received by T carries right-half indices only (a left index in it would have
//! crossed the root twice, arriving at the end of step 4 log N or later), and so does every
//! range a left processor forms from it; none of them chains into a left goal [0, i],
//! i < N/2, and none reaches a right processor by T (a second crossing). What is deleted was
//! never used, so the rest is admissible and meets every goal (in rounds as for the broadcast). The model
//! at such a T has neither kind of message, and no `f` at a left processor for a range
//! reaching N/2 (`FatTreeCombine::no_way_back`); the knowledge relaxation below has no
//! leftward message and no k(v, i, τ) with v < N/2 ≤ i.
//!
//! **Late receipts (valid: it keeps a schedule of every length).** Call a receipt of r at v at
//! the end of step τ *late* when v's goal does not contain r and no copy sent on from step
//! τ + 1 can reach a processor whose goal contains r by T: τ > T − 1 − min flight(v, c) over
//! those c (`FatTreeCombine::last_use`). A late range never chains into v's goal, since every
//! range formed from it contains it; a message that carries such a range arrives late too (a
//! detour is never faster: flight(b, d) ≤ flight(b, c) + flight(c, d), LCA heights being an
//! ultrametric), so by induction on time nothing formed from a late receipt reaches a goal.
//! Deleting every message received late keeps the schedule admissible (in rounds as for the broadcast)
//! and its goals, so the model has x only for arrivals by `last_use`, and the knowledge
//! relaxation carries a_i to b only by `last_use(b, [i, i])`. With both cuts and the windows
//! one step tighter than before, the prefix model on fat-tree:16 at T = 13 shrinks from 100k
//! to 32k variables.
//!

use super::reversal::Reversal;
use super::{ALIGNED, KNOWLEDGE, RANGE_PAYLOADS, Range, Traffic, Tree, add_chain, form_var};
use crate::exact::encode::time_expanded::span;
use crate::exact::encode::{Encoder, Encoding, Event, Relaxation, Variant, Variants};
use crate::exact::ir::{Linear, Program, Sense, VarId};
use crate::spec::{Instance, Problem};
use std::collections::BTreeMap;

/// The product and prefix encoder (module documentation, "Product and prefix").
pub struct FatTreeCombine {
    pub(super) tree: Tree,
    /// The range each processor must be able to form at the end: product `[0, N−1]` at P_0,
    /// prefix `[0, i]` at P_i.
    pub(super) goals: Vec<Option<Range>>,
    /// The restricted model and the relaxation by time reversal, pipelined or in rounds where
    /// no channel binds ([`super::reversal`]).
    reversal: Option<Reversal>,
    /// Whether the models leave out the messages that no schedule needs (always, except in the
    /// test that compares the two; module documentation, "No way back" and "Late receipts").
    cuts: bool,
}

impl FatTreeCombine {
    /// The encoder for a product or prefix instance on a valid fat-tree.
    pub fn new(instance: &Instance) -> Self {
        let tree = Tree::new(instance);
        let n = tree.n;
        let goals = match instance.problem {
            Problem::Prefix => (0..n).map(|i| Some((0, i))).collect(),
            _ => (0..n).map(|i| (i == 0).then_some((0, n - 1))).collect(),
        };
        let reversal = Reversal::of(instance, &tree);
        Self { tree, goals, reversal, cuts: true }
    }

    /// Whether the goal is a prefix (else a product).
    fn prefix(&self) -> bool {
        self.goals.iter().filter(|g| g.is_some()).count() > 1
    }

    /// Every range of the indices 0..N−1.
    pub(super) fn ranges(&self) -> impl Iterator<Item = Range> + '_ {
        let n = self.tree.n;
        (0..n).flat_map(move |lo| (lo..n).map(move |hi| (lo, hi)))
    }

    /// The end of the first step at which v can form r: every a_i of r must have reached v.
    pub(super) fn ready(v: usize, (lo, hi): Range) -> u64 {
        (lo..=hi).filter(|&i| i != v).map(|i| Tree::arrival_from_start(i, v)).max().unwrap_or(0)
    }

    /// The steps in which a may submit r to b at `horizon`: none for a message that has no
    /// way back, and only those received while b can still use r (module documentation, "No
    /// way back", "Late receipts").
    fn send_steps(&self, a: usize, b: usize, r: Range, horizon: u64) -> std::ops::RangeInclusive<u64> {
        let useless =
            self.no_way_back(horizon) && (self.tree.leftward(a, b) || !self.formable(a, r, horizon));
        let last = if useless { 0 } else { self.last_use(b, r, horizon).saturating_sub(Tree::flight(a, b)) };
        Self::ready(a, r) + 1..=last
    }

    /// Whether v's goal contains r (so v can use a receipt of r itself).
    fn serves(&self, v: usize, (lo, hi): Range) -> bool {
        self.goals[v].is_some_and(|(first, last)| first <= lo && hi <= last)
    }

    /// The end of the last step at which a receipt of r at v is of use in the model at
    /// `horizon` (module documentation, "Late receipts"): T when v's goal contains r, else the
    /// last from which a copy can reach some processor whose goal contains r by the end of
    /// step T (0 when there is none).
    pub(super) fn last_use(&self, v: usize, r: Range, horizon: u64) -> u64 {
        if !self.cuts || self.serves(v, r) {
            return horizon;
        }
        (0..self.tree.n)
            .filter(|&c| self.serves(c, r))
            .map(|c| horizon.saturating_sub(1 + Tree::flight(v, c)))
            .max()
            .unwrap_or(0)
    }

    /// Whether nothing crosses the root leftwards in the model at `horizon`: a prefix of fewer
    /// than 4 log N steps (module documentation, "No way back").
    pub(super) fn no_way_back(&self, horizon: u64) -> bool {
        self.cuts && self.prefix() && horizon < 4 * self.tree.levels as u64
    }

    /// Whether every a_i of r can reach v in the model at `horizon`.
    pub(super) fn formable(&self, v: usize, (_, hi): Range, horizon: u64) -> bool {
        !(self.no_way_back(horizon) && self.tree.leftward(hi, v))
    }

    /// The messages (a, b, r) in the order of their variables; never r = [b, b], which b holds.
    fn messages(&self) -> impl Iterator<Item = (usize, usize, Range)> + '_ {
        self.tree
            .pairs(None)
            .flat_map(move |(a, b)| self.ranges().filter(move |&r| r != (b, b)).map(move |r| (a, b, r)))
    }
}

impl Encoder for FatTreeCombine {
    fn impossible(&self) -> Option<String> {
        None // every capacity is at least 1: the reversed naive broadcast exists (FT-23)
    }

    /// The restricted models: aligned payloads for prefix ([`super::aligned`]), broadcasts
    /// that run backwards for product ([`super::reversal`]); the knowledge relaxations
    /// ([`super::knowledge`]).
    fn variants(&self) -> Variants {
        let restricted = if self.prefix() {
            Some(ALIGNED.into())
        } else {
            self.reversal.as_ref().map(|_| super::reversal::RESTRICTION.into())
        };
        Variants { restricted, relaxed: &KNOWLEDGE }
    }

    /// The model's sends alone.
    fn min_variables(&self, horizon: u64, variant: Variant) -> usize {
        match variant {
            Variant::Full => self.sends(horizon),
            _ => self.variables(horizon, variant),
        }
    }

    fn variables(&self, horizon: u64, variant: Variant) -> usize {
        match variant {
            Variant::Full => self.model_variables(horizon),
            Variant::Restricted if self.prefix() => self.aligned_variables(horizon),
            Variant::Restricted => self.reversal.as_ref().map_or(0, |r| r.variables(horizon)),
            Variant::Relaxed(which) => self.knowledge_variables(horizon, which == RANGE_PAYLOADS),
        }
    }

    fn encode(&self, horizon: u64, variant: Variant) -> Option<Encoding> {
        match variant {
            Variant::Full => Some(self.model(horizon)),
            Variant::Restricted if self.prefix() => Some(self.aligned(horizon)),
            Variant::Restricted => self.reversal.as_ref()?.encode(horizon),
            Variant::Relaxed(which) => {
                (which < KNOWLEDGE.len()).then(|| self.knowledge(horizon, which == RANGE_PAYLOADS))
            }
        }
    }

    /// Horizon-monotone: only the windows grow with T (module documentation).
    fn last_step(&self, event: &Event) -> Option<u64> {
        Tree::arrival(event)
    }

    fn relaxation(&self) -> Option<&Relaxation> {
        self.reversal.as_ref()?.relaxation()
    }
}

impl FatTreeCombine {
    /// The sends of the model at `horizon`: a lower estimate of its variables.
    fn sends(&self, horizon: u64) -> usize {
        self.messages()
            .map(|(a, b, r)| {
                let steps = self.send_steps(a, b, r, horizon);
                span(*steps.start(), *steps.end())
            })
            .sum()
    }

    /// The variables of the model at `horizon`, at most.
    fn model_variables(&self, horizon: u64) -> usize {
        // Sends, plus at most one `f` and one `p` per split for each range a processor can form
        // and each time point from the end of the step at which it can first form it (the forms
        // are built on demand, so this is an upper estimate).
        let forms: usize = (0..self.tree.n)
            .flat_map(|v| self.ranges().map(move |r| (v, r)))
            .filter(|&(v, r)| self.formable(v, r, horizon))
            .map(|(v, (lo, hi))| span(Self::ready(v, (lo, hi)), horizon) * (1 + hi - lo))
            .sum();
        let rounds = if self.tree.rounds { self.tree.round_starts(horizon).count() } else { 0 };
        self.sends(horizon) + forms + rounds
    }

    /// The model at `horizon` (module documentation, "Product and prefix").
    fn model(&self, horizon: u64) -> Encoding {
        let tree = &self.tree;
        let mut model = Program::new(format!("{}, horizon T = {horizon}", tree.description));
        let mut traffic = Traffic::new(tree, horizon);
        // received[(b, r)]: (arrival, x) of every message bringing r to b.
        let mut received: BTreeMap<(usize, Range), Vec<(u64, VarId)>> = BTreeMap::new();
        // offers[(a, r, s)]: a's messages carrying r in step s.
        let mut offers: BTreeMap<(usize, Range, u64), Vec<VarId>> = BTreeMap::new();
        for (a, b, r) in self.messages() {
            for s in self.send_steps(a, b, r, horizon) {
                let x = model.bool_var(format!("x_{a}_{b}_r{}_{}_t{s}", r.0, r.1));
                let arrival = traffic.add(x, a, b, s, [r.0, r.1]);
                received.entry((b, r)).or_default().push((arrival, x));
                offers.entry((a, r, s)).or_default().push(x);
            }
        }
        let mut forms = Forms { received: &received, memo: BTreeMap::new() };
        for ((b, r), xs) in &received {
            let all: Vec<VarId> = xs.iter().map(|&(_, x)| x).collect();
            model.constrain(format!("once_v{b}_r{}_{}", r.0, r.1), &Linear::sum(&all), Sense::Le, 1);
        }
        for ((a, r, s), xs) in &offers {
            let mut row = Linear::sum(xs);
            row.add_scaled(-1, &forms.form(&mut model, *a, *r, s - 1));
            model.constrain(format!("send_v{a}_r{}_{}_t{s}", r.0, r.1), &row, Sense::Le, 0);
        }
        traffic.constrain_processors(&mut model, tree);
        traffic.constrain_capacities(&mut model, tree);
        for (v, goal) in self.goals.iter().enumerate() {
            if let Some(r) = *goal {
                let form = forms.form(&mut model, v, r, horizon);
                model.constrain(format!("goal_v{v}"), &form, Sense::Eq, 1);
            }
        }
        if tree.rounds {
            traffic.constrain_rounds(&mut model, tree, horizon);
        }
        traffic.into_encoding(model, horizon)
    }
}

/// The `f` and `p` variables of [`FatTreeCombine`], built on demand (module documentation).
struct Forms<'a> {
    received: &'a BTreeMap<(usize, Range), Vec<(u64, VarId)>>,
    memo: BTreeMap<(usize, Range, u64), Linear>,
}

impl Forms<'_> {
    /// d(v, r, τ): v holds r itself at the end of step τ (its own value, or a receipt).
    fn direct(&self, v: usize, r: Range, tau: u64) -> Linear {
        let mut lin = Linear::new();
        if r == (v, v) {
            lin.add_constant(1);
        }
        for &(arrival, x) in self.received.get(&(v, r)).into_iter().flatten() {
            if arrival <= tau {
                lin.add(1, x);
            }
        }
        lin
    }

    /// f(v, r, τ): v can form r at the end of step τ, as a constant or one variable.
    fn form(&mut self, model: &mut Program, v: usize, r: Range, tau: u64) -> Linear {
        if let Some(lin) = self.memo.get(&(v, r, tau)) {
            return lin.clone();
        }
        let (lo, hi) = r;
        let mut ways = self.direct(v, r, tau);
        let lin = if ways.constant() == Some(1) {
            ways
        } else {
            for m in lo..hi {
                let last = self.direct(v, (m + 1, hi), tau);
                if last.constant() == Some(0) {
                    continue;
                }
                let first = self.form(model, v, (lo, m), tau);
                if first.constant() == Some(0) {
                    continue;
                }
                add_chain(model, &mut ways, (v, tau), (lo, m, hi), &first, &last);
            }
            form_var(model, (v, tau), r, ways)
        };
        self.memo.insert((v, r, tau), lin.clone());
        lin
    }
}

#[cfg(all(test, any(feature = "smt", feature = "sat")))]
mod tests {
    use super::*;
    use crate::exact::backend::Aim;
    use crate::exact::encode::fat_tree::tests::{fat_tree, feasible};

    /// The cuts keep a schedule of every length (module documentation, "No way back", "Late
    /// receipts"). On fat-tree:4 (4 log N = 8), under w = 1, log n + 1 and n, pipelined and in
    /// rounds, the prefix models with and without them are feasible at the same horizons from
    /// the lower bound up to the optimum, and the knowledge relaxation with them is feasible at
    /// the optimum. On fat-tree:8 (4 log N = 12) the optimum 9 certified without them under
    /// log n + 1 and n, pipelined (docs/results.md), is met: the relaxation with them is infeasible at 8
    /// and feasible at 9 (the models take z3 minutes there, and w = 1 half a minute).
    #[test]
    fn the_cuts_keep_every_optimum() {
        let witness = |encoding: Encoding| feasible(&encoding.model, Aim::Witness);
        let mut cut_models = 0;
        for (capacity, rounds) in
            ["const:1", "log+1", "pow:1"].into_iter().flat_map(|c| [(c, false), (c, true)])
        {
            let inst = fat_tree("prefix", 4, capacity, rounds);
            let cut = FatTreeCombine::new(&inst);
            let whole = FatTreeCombine { cuts: false, ..FatTreeCombine::new(&inst) };
            let mut t = crate::bounds::lower_bounds(&inst).iter().map(|b| b.value).max().unwrap();
            loop {
                let case = format!("{capacity} {rounds}: T = {t}");
                let (with, without) = (cut.model(t), whole.model(t));
                assert!(with.model.variables.len() < without.model.variables.len(), "{case}");
                cut_models += usize::from(cut.no_way_back(t));
                let answer = witness(with);
                assert_eq!(answer, witness(without), "{case}");
                if answer {
                    assert!(witness(cut.knowledge(t, true)), "relaxed, {case}");
                    break;
                }
                t += 1;
            }
        }
        assert!(cut_models >= 6, "{cut_models} models cut");
        for capacity in ["log+1", "pow:1"] {
            let cut = FatTreeCombine::new(&fat_tree("prefix", 8, capacity, false));
            assert!(cut.no_way_back(9));
            assert!(!feasible(&cut.knowledge(8, false).model, Aim::Refutation), "{capacity}");
            assert!(witness(cut.knowledge(9, true)), "{capacity}");
        }
    }
}
