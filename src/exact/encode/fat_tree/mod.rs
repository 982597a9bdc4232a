//! # Broadcast, product and prefix on the ideal fat-tree, pipelined and in rounds
//!
//! Paper 002 §2 (the ideal fat-tree and its routing, FT-1), §4.2 (the round model), with the
//! rules of docs/spec.md §4.3 that the checker enforces: a message from a to b whose lowest
//! common ancestor has height h, submitted in step s, crosses `up(k, a >> k)` in step s + k and
//! `down(k, b >> k)` in step s + 2h − 1 − k (k < h), of capacity w(2^k) each, and is received at
//! the end of step s + 2h − 1; a processor submits at most one message and receives at most one
//! per step, and sends the value only from the step after it got it. The optima it certifies
//! are the ones the bounds of FT-2, FT-11 and FT-17 and the algorithms of FT-3, FT-8 and FT-10
//! are measured against.
//!
//! One model to a module, each with its formulation and why it is valid:
//!
//! - [`broadcast`]: the broadcast ([`FatTreeBroadcast`]), with `left_first` symmetry breaking;
//! - [`combine`]: product and prefix with index-range payloads ([`FatTreeCombine`]), and the
//!   cuts that delete the messages no schedule needs;
//! - [`reversal`]: the product and prefix by time reversal: the broadcast as their
//!   relaxation, and reversible broadcasts as the product's restricted model;
//! - [`aligned`]: the prefix's restricted model, whose payloads are aligned blocks and
//!   prefixes, with the sender and the payload of each receipt as separate variables;
//! - [`knowledge`]: the knowledge relaxations, the relaxed models of product and prefix.
//!
//! This module holds what they share: the fat-tree (`Tree`) and its messages (`Traffic`), with
//! the capacity, processor and round rules that read them.
//!
//! ## The round model (§4.2)
//!
//! `z_s{s}_H{H}` ∈ {0,1}: a round of height H (2H steps) starts in step s, for s + 2H − 1 ≤ T.
//! `round_one`: one round starts in step 1; `one_round`: at most one round starts per step;
//! `in_round`: a's messages of height h in step s need a round of height ≥ h starting in s (so
//! every message is submitted at a round's first step); `tallest`: a round of height H has a
//! message of height H (the checker's round height is the largest in it, so a decoded round
//! has exactly the modelled length); `back_to_back`: a round starting in s > 1 follows one of
//! height H that started in s − 2H; `no_overlap`: no round starts inside another. The receive
//! half of the round rule (one receipt per processor and round) holds already: each processor
//! receives once.

pub mod aligned;
pub mod broadcast;
pub mod combine;
pub mod knowledge;
pub mod reversal;

pub use broadcast::FatTreeBroadcast;
pub use combine::FatTreeCombine;

use super::{EncoderEntry, Encoding, Event, Shape};
use crate::exact::BackendKind;
use crate::exact::ir::{Linear, Program, Sense, VarId};
use crate::spec::applicability::fat_tree_with_valid_capacity;
use crate::spec::network::fat_tree_lca_height;
use crate::spec::{Applicability, FamilyKind, FatTreeSend, Instance, Model, ModelClass, ProblemKind};
use std::collections::BTreeMap;

/// The model classes of both fat-tree encoders: pipelined and in rounds.
const FAT_TREE_MODELS: &[ModelClass] =
    &[ModelClass::FatTree { rounds: false }, ModelClass::FatTree { rounds: true }];

/// The registry entry: broadcast on the ideal fat-tree, pipelined or in rounds.
pub const BROADCAST: EncoderEntry = EncoderEntry {
    name: "fat-tree-broadcast",
    source: "002 §2 (FT-1), §4.2 (rounds); optima for FT-2, FT-3, FT-8, FT-10, FT-11, FT-17",
    applicability: Applicability {
        problems: &[ProblemKind::Broadcast],
        models: FAT_TREE_MODELS,
        families: &[FamilyKind::FAT_TREE],
        refine: Some(fat_tree_with_valid_capacity),
        model_note: "",
    },
    build: |instance| Box::new(FatTreeBroadcast::new(instance)),
    // With the left_first rows, `solve --method smt|sat`, fat-tree:32 pipelined (T* = 17, 16, 16
    // under w = 1, log+1, n): smt 1.1, 1.5, 1.8 s, sat 9.0, 8.8, 7.5 s (proofs checked); in rounds
    // under log+1 (T* = 28): smt 79 s, sat 321 s; fat-tree:16 in rounds: smt 1.0-2.3 s, sat 1.1 s.
    backends: &[BackendKind::Smt, BackendKind::Sat, BackendKind::Ilp],
};

/// The registry entry: product and prefix on the ideal fat-tree with contiguous payloads,
/// pipelined or in rounds ([`FatTreeCombine`]).
pub const PRODUCT_PREFIX: EncoderEntry = EncoderEntry {
    name: "fat-tree-product-prefix",
    source: "002 §5 (FT-23, Fig. 2), §2, §4.2; optima for the product and prefix of FT-24",
    applicability: Applicability {
        problems: &[ProblemKind::Product, ProblemKind::Prefix],
        models: FAT_TREE_MODELS,
        families: &[FamilyKind::FAT_TREE],
        refine: Some(fat_tree_with_valid_capacity),
        model_note: "",
    },
    build: |instance| Box::new(FatTreeCombine::new(instance)),
    // CaDiCaL first for the knowledge relaxation: `solve`, prefix on fat-tree:16 under log+1, sat
    // [13, 14] at 60 s (the relaxed model with the cuts infeasible at 12 in 7.6 s), smt [12, 17]
    // (z3's QF_FD core took 115 s on it); prefix on fat-tree:8, certified by the relaxed model: w = 1
    // sat 5.4 s, smt 3.4 s; in rounds w = 1 sat 20 s, smt 102 s; fattree8-fig2-prefix sat 0.40 s,
    // smt 0.55 s. Product is certified through the broadcast and its reversal: fattree8-fig2-product
    // ilp 0.20 s, smt 0.26 s, sat 0.70 s; fat-tree:32 smt 5.0-7.8 s, sat 9.6-21.9 s.
    backends: &[BackendKind::Sat, BackendKind::Smt, BackendKind::Ilp],
};

/// The fat-tree both encoders share: its size, capacities and model.
#[derive(Clone)]
struct Tree {
    n: usize,
    /// log N: the root's height.
    levels: usize,
    /// w(2^k) for k = 0..log N − 1: the capacity of the channels above a height-k node.
    caps: Vec<u64>,
    /// Whether no channel can bind ([`crate::bounds::fat_tree::channels_never_bind`]).
    unbound: bool,
    rounds: bool,
    description: String,
}

impl Tree {
    fn new(instance: &Instance) -> Self {
        let n = instance.network.len();
        let levels = n.trailing_zeros() as usize;
        let (caps, unbound, rounds) = match &instance.model {
            Model::FatTree { capacity, rounds } => (
                capacity.per_height(n),
                crate::bounds::fat_tree::channels_never_bind(n as u64, capacity),
                *rounds,
            ),
            _ => (vec![1; levels], false, false), // the applicability admits fat-tree models only
        };
        let description =
            format!("{} on {} under {}", instance.problem, instance.network, instance.model.class());
        Self { n, levels, caps, unbound, rounds, description }
    }

    /// The steps a message from a to b takes: 2h(a, b) − 1.
    fn flight(a: usize, b: usize) -> u64 {
        2 * fat_tree_lca_height(a, b) as u64 - 1
    }

    /// The end of the first step at which a value that starts at a can be held at b: a copy
    /// submitted in step 1 is received at the end of step 2h(a, b).
    fn arrival_from_start(a: usize, b: usize) -> u64 {
        1 + Self::flight(a, b)
    }

    /// The step at whose end a send is received, or `None` for another event.
    fn arrival(event: &Event) -> Option<u64> {
        match *event {
            Event::Send(s) => Some(s.step as u64 + Self::flight(s.from, s.to)),
            Event::Carries { arrival, .. } => Some(arrival),
            _ => None,
        }
    }

    /// Whether a message from a to b crosses the root leftwards: from the right half of the
    /// processors to the left half.
    fn leftward(&self, a: usize, b: usize) -> bool {
        a >= self.n / 2 && b < self.n / 2
    }

    /// The pairs (a, b) a message can join: b ≠ a, b ≠ `skip`.
    fn pairs(&self, skip: Option<usize>) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n)
            .flat_map(move |a| (0..self.n).filter(move |&b| b != a && Some(b) != skip).map(move |b| (a, b)))
    }

    /// Round starts (s, H) with s + 2H − 1 ≤ T.
    fn round_starts(&self, horizon: u64) -> impl Iterator<Item = (u64, usize)> + '_ {
        (1..=horizon).flat_map(move |s| {
            (1..=self.levels).filter(move |&h| s + 2 * h as u64 - 1 <= horizon).map(move |h| (s, h))
        })
    }
}

/// The messages of a model, indexed the ways the rules read them.
struct Traffic {
    /// arrivals[v][τ]: the messages v receives at the end of step τ.
    arrivals: Vec<Vec<Vec<VarId>>>,
    /// submitted[a][s]: the messages a submits in step s.
    submitted: Vec<Vec<Vec<VarId>>>,
    /// by_height[s][h][a]: a's messages of height h submitted in step s.
    by_height: Vec<Vec<BTreeMap<usize, Vec<VarId>>>>,
    /// to_in_step[(b, s)]: the messages to b submitted in step s (the round model's receive rule).
    to_in_step: BTreeMap<(usize, u64), Vec<VarId>>,
    /// (level k, channel id, step) -> messages crossing it; id = 2·(tree node) + (1 if up).
    load: BTreeMap<(usize, usize, u64), Vec<VarId>>,
    events: Vec<(VarId, Event)>,
    /// Σ (arrival step)·x: deliver early.
    guide: Linear,
    all: Vec<VarId>,
}

impl Traffic {
    fn new(tree: &Tree, horizon: u64) -> Self {
        let steps = horizon as usize + 1;
        Self {
            arrivals: vec![vec![Vec::new(); steps]; tree.n],
            submitted: vec![vec![Vec::new(); steps]; tree.n],
            by_height: vec![vec![BTreeMap::new(); tree.levels + 1]; steps],
            to_in_step: BTreeMap::new(),
            load: BTreeMap::new(),
            events: Vec::new(),
            guide: Linear::new(),
            all: Vec::new(),
        }
    }

    /// Records x: a submits `payload` to b in step s; returns the step of its arrival.
    fn add(&mut self, x: VarId, a: usize, b: usize, s: u64, payload: [usize; 2]) -> u64 {
        let h = fat_tree_lca_height(a, b);
        let arrival = s + 2 * h as u64 - 1;
        self.events.push((x, Event::Send(FatTreeSend { step: s as i64, from: a, to: b, payload })));
        self.arrivals[b][arrival as usize].push(x);
        self.submitted[a][s as usize].push(x);
        self.by_height[s as usize][h].entry(a).or_default().push(x);
        self.to_in_step.entry((b, s)).or_default().push(x);
        for k in 0..h {
            self.load.entry((k, 2 * (a >> k) + 1, s + k as u64)).or_default().push(x);
            self.load.entry((k, 2 * (b >> k), arrival - k as u64)).or_default().push(x);
        }
        self.guide.add(arrival as i64, x);
        self.all.push(x);
        arrival
    }

    /// `cap`: per channel and step, the messages crossing it number at most its capacity.
    /// None where no channel can bind (`Tree::unbound`): the processor rule keeps every channel
    /// within 2^k ≤ w(2^k) then, and a totalizer over every message that might cross a channel
    /// only slows the solver.
    fn constrain_capacities(&self, model: &mut Program, tree: &Tree) {
        if tree.unbound {
            return;
        }
        for ((k, c, t), xs) in &self.load {
            if xs.len() as u64 > tree.caps[*k] {
                let dir = if c % 2 == 1 { "up" } else { "down" };
                let name = format!("cap_{dir}_{k}_{}_t{t}", c / 2);
                model.constrain(name, &Linear::sum(xs), Sense::Le, tree.caps[*k] as i64);
            }
        }
    }

    /// `submit` and `receive`: at most one message per processor and step each way (the
    /// processor rule); in rounds `round_receive`: the messages to b submitted in one round's
    /// step number at most one (002 §4.2). The broadcast model needs none of them: its holdings
    /// admit one receipt per processor, and its `send` rows one submission per step.
    fn constrain_processors(&self, model: &mut Program, tree: &Tree) {
        for v in 0..tree.n {
            for (t, (submitted, arrivals)) in self.submitted[v].iter().zip(&self.arrivals[v]).enumerate() {
                for (rule, xs) in [("submit", submitted), ("receive", arrivals)] {
                    if xs.len() > 1 {
                        model.constrain(format!("{rule}_v{v}_t{t}"), &Linear::sum(xs), Sense::Le, 1);
                    }
                }
            }
        }
        if tree.rounds {
            for ((b, s), xs) in &self.to_in_step {
                if xs.len() > 1 {
                    model.constrain(format!("round_receive_v{b}_s{s}"), &Linear::sum(xs), Sense::Le, 1);
                }
            }
        }
    }

    /// The round variables and rules of the module documentation ("The round model").
    fn constrain_rounds(&self, model: &mut Program, tree: &Tree, horizon: u64) {
        let mut z: BTreeMap<(u64, usize), VarId> = BTreeMap::new();
        for (s, h) in tree.round_starts(horizon) {
            z.insert((s, h), model.bool_var(format!("z_s{s}_H{h}")));
        }
        let starting =
            |s: u64| -> Vec<VarId> { z.range((s, 0)..=(s, tree.levels)).map(|(_, &v)| v).collect() };
        model.constrain("round_one", &Linear::sum(&starting(1)), Sense::Eq, 1);
        for s in 1..=horizon {
            let here = Linear::sum(&starting(s));
            model.constrain(format!("one_round_s{s}"), &here, Sense::Le, 1);
            for (h, senders) in self.by_height[s as usize].iter().enumerate().skip(1) {
                // Rounds in s tall enough for height h.
                let tall: Vec<VarId> = z.range((s, h)..=(s, tree.levels)).map(|(_, &v)| v).collect();
                for (a, xs) in senders {
                    let mut row = Linear::sum(xs);
                    row.add_scaled(-1, &Linear::sum(&tall));
                    model.constrain(format!("in_round_v{a}_s{s}_h{h}"), &row, Sense::Le, 0);
                }
                if let Some(&zv) = z.get(&(s, h)) {
                    let tallest: Vec<VarId> = senders.values().flatten().copied().collect();
                    let mut row = Linear::sum(&[zv]);
                    row.add_scaled(-1, &Linear::sum(&tallest));
                    model.constrain(format!("tallest_s{s}_H{h}"), &row, Sense::Le, 0);
                    for j in 1..2 * h as u64 {
                        if s + j > horizon {
                            break;
                        }
                        let mut row = Linear::sum(&starting(s + j));
                        row.add(1, zv);
                        model.constrain(format!("no_overlap_s{s}_H{h}_j{j}"), &row, Sense::Le, 1);
                    }
                }
            }
            if s > 1 {
                let before: Vec<VarId> = (1..=tree.levels)
                    .filter_map(|h| {
                        s.checked_sub(2 * h as u64).filter(|&p| p >= 1).and_then(|p| z.get(&(p, h)))
                    })
                    .copied()
                    .collect();
                let mut row = here;
                row.add_scaled(-1, &Linear::sum(&before));
                model.constrain(format!("back_to_back_s{s}"), &row, Sense::Le, 0);
            }
        }
    }

    fn into_encoding(self, mut model: Program, horizon: u64) -> Encoding {
        model.guide(&self.guide);
        Encoding { horizon, model, shape: Shape::FatTree, events: self.events }
    }
}

// What several models of this module share, here so that no two of their files import each other.

/// An index range `[lo, hi]`: the product a_lo ⋆ … ⋆ a_hi.
type Range = (usize, usize);

/// The schedules of the prefix's restricted model ([`aligned`]), in words.
const ALIGNED: &str = "payloads that are aligned blocks [i·2^k, (i+1)·2^k − 1] or prefixes [0, x]";

/// How certificates name the knowledge relaxations, sets then ranges ([`knowledge`]):
/// [`Variants::relaxed`](crate::exact::encode::Variants::relaxed).
pub const KNOWLEDGE: [&str; 2] = [
    "its knowledge relaxation (a commutative, idempotent ⋆)",
    "its knowledge relaxation with range payloads (a commutative, idempotent ⋆)",
];

/// The index of the range-payload model in [`KNOWLEDGE`].
const RANGE_PAYLOADS: usize = 1;

/// Adds to `ways` the chain of [lo, m] then [m + 1, hi] at v and τ, given what forms each
/// part (neither a constant 0): the other part where one is a constant 1, else
/// `p_v{v}_r{lo}_{m}_{hi}_t{τ}` with its `first` and `last` rows ([`combine`]'s module documentation).
fn add_chain(
    model: &mut Program,
    ways: &mut Linear,
    (v, tau): (usize, u64),
    (lo, m, hi): (usize, usize, usize),
    first: &Linear,
    last: &Linear,
) {
    if first.constant() == Some(1) {
        ways.add_all(last);
    } else if last.constant() == Some(1) {
        ways.add_all(first);
    } else {
        let p = model.bool_var(format!("p_v{v}_r{lo}_{m}_{hi}_t{tau}"));
        for (side, lin) in [("first", first), ("last", last)] {
            let mut row = Linear::sum(&[p]);
            row.add_scaled(-1, lin);
            model.constrain(format!("{side}_v{v}_r{lo}_{m}_{hi}_t{tau}"), &row, Sense::Le, 0);
        }
        ways.add(1, p);
    }
}

/// f(v, r, τ) from its `ways`: the constant 0 where there is none, else
/// `f_v{v}_r{lo}_{hi}_t{τ}` with the `form` row f ≤ Σ ways ([`combine`]'s module documentation).
fn form_var(model: &mut Program, (v, tau): (usize, u64), (lo, hi): Range, ways: Linear) -> Linear {
    if ways.constant() == Some(0) {
        return ways;
    }
    let f = model.bool_var(format!("f_v{v}_r{lo}_{hi}_t{tau}"));
    let mut row = Linear::sum(&[f]);
    row.add_scaled(-1, &ways);
    model.constrain(format!("form_v{v}_r{lo}_{hi}_t{tau}"), &row, Sense::Le, 0);
    Linear::sum(&[f])
}

/// `ancestor` and `range` rows ([`reversal`]'s module documentation): d(u, v) is whether u is a proper
/// ancestor of v in the tree of first receipts (the messages of `traffic`), and every
/// subtree is an index range.
fn constrain_ranges(tree: &Tree, model: &mut Program, traffic: &Traffic) {
    let n = tree.n;
    // The x of every message from a to b, by (a, b).
    let mut parents: BTreeMap<(usize, usize), Vec<VarId>> = BTreeMap::new();
    for &(x, event) in &traffic.events {
        if let Event::Send(s) = event {
            parents.entry((s.from, s.to)).or_default().push(x);
        }
    }
    let parent = |a: usize, b: usize| parents.get(&(a, b)).map_or_else(Linear::new, |xs| Linear::sum(xs));
    let mut d = vec![vec![None; n]; n];
    for (u, v) in tree.pairs(Some(0)).filter(|&(u, _)| u != 0) {
        d[u][v] = Some(model.bool_var(format!("d_{u}_{v}")));
    }
    // d(u, w) as a linear term: P_0 is every processor's ancestor and nobody's descendant.
    let anc = |u: usize, w: usize| match d[u][w] {
        Some(var) => Linear::sum(&[var]),
        None => {
            let mut c = Linear::new();
            c.add_constant(i64::from(u == 0 && w != 0));
            c
        }
    };
    for (u, v) in tree.pairs(Some(0)).filter(|&(u, _)| u != 0) {
        let mut row = parent(u, v);
        row.add_scaled(-1, &anc(u, v));
        model.constrain(format!("ancestor_parent_{u}_{v}"), &row, Sense::Le, 0);
        // v's parent w ≠ u: u is an ancestor of v exactly when it is one of w.
        for w in (0..n).filter(|&w| w != u && w != v) {
            for (side, sign) in [("down", 1), ("up", -1)] {
                if w == 0 && sign < 0 {
                    continue; // d(u, 0) = 0: nothing to bring up
                }
                let mut row = parent(w, v);
                row.add_scaled(sign, &anc(u, v));
                row.add_scaled(-sign, &anc(u, w));
                model.constrain(format!("ancestor_{side}_{u}_{w}_{v}"), &row, Sense::Le, 1);
            }
        }
        // A descendant v of u brings every processor between them.
        let between = if v > u { v - 1 } else { v + 1 };
        if between != u {
            let mut row = anc(u, v);
            row.add_scaled(-1, &anc(u, between));
            model.constrain(format!("range_{u}_{v}"), &row, Sense::Le, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::io::parse_instance;

    /// `problem` on fat-tree:`n` under `capacity`, pipelined or in rounds.
    pub(super) fn fat_tree(problem: &str, n: usize, capacity: &str, rounds: bool) -> Instance {
        let text = format!(
            "problem = \"{problem}\"\nnetwork = \"fat-tree:{n}\"\n[model]\nkind = \"fat-tree\"\n\
             capacity = \"{capacity}\"\nrounds = {rounds}\n"
        );
        parse_instance(&text, "<test>", "t").unwrap()
    }

    /// Whether the default backend finds `model` feasible, asked with `aim` and no time limit.
    #[cfg(any(feature = "smt", feature = "sat"))]
    pub(super) fn feasible(model: &Program, aim: crate::exact::backend::Aim) -> bool {
        feasible_by(crate::exact::default_backend(), model, aim)
    }

    /// Whether `model` has a solution, decided by `backend` without a time limit.
    #[cfg(any(feature = "smt", feature = "sat"))]
    pub(super) fn feasible_by(
        backend: BackendKind,
        model: &Program,
        aim: crate::exact::backend::Aim,
    ) -> bool {
        use crate::exact::backend::{BackendAnswer, Limits};
        match backend.backend().unwrap().solve(model, &Limits { time: None, aim }).unwrap() {
            BackendAnswer::Feasible(_) => true,
            BackendAnswer::Infeasible => false,
            BackendAnswer::Unknown(u) => panic!("undecided: {u:?}"),
        }
    }
}
