//! # Broadcast on the ideal fat-tree, pipelined and in rounds
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
//! ## Formulation for a horizon T
//!
//! For every pair of processors a ≠ b with b ≠ 0 (P_0 holds the value from the start), every
//! step s and every time point τ = 0..=T:
//!
//! - `x_{a}_{b}_t{s}` ∈ {0,1}: a submits the value to b in step s, and b **first** holds it at
//!   the end of step s + 2h(a,b) − 1;
//! - `h_v{v}_t{τ}` ∈ {0,1}: v holds the value at the end of step τ (a [`Held`]: monotone,
//!   h(v, T) = 1 for every v, the constant 1 at P_0).
//!
//! Constraints:
//!
//! - `got`: h(v,τ) − h(v,τ−1) = Σ of the x arriving at v in step τ ([`Held::record`]); with
//!   h ∈ {0,1} this is also the receive half of the processor rule;
//! - `send`: Σ_b x(a,b,s) ≤ h(a, s−1) (≤ 1 at P_0): the send half of the processor rule and
//!   "only what it holds" in one row;
//! - `cap`: per channel and step, the messages crossing it number at most its capacity;
//! - `count`: Σ x = N − 1 (every processor but P_0 receives exactly once).
//!
//! **No duplicates (valid: it keeps an optimal schedule).** Every rule of the model only caps
//! what is sent, so deleting a message keeps a pipelined schedule admissible. Deleting every
//! receipt at a processor but its first (and every message to P_0) leaves the step from which
//! each processor holds the value unchanged, so every remaining send is still allowed. In the
//! round model deleting a message can lower a round's height; the rounds after it then move
//! earlier by the difference, which keeps every round intact (rounds never overlap in time)
//! and every processor's holding before each round, and an emptied round is dropped. So some
//! optimal schedule of either model delivers the value to each processor exactly once.
//!
//! **Windows.** v can first hold the value at the end of step 2h(0,v) − 1 (the copy from P_0
//! is the fastest), so h(v,τ) = 0 below it and x(a,b,s) exists only for
//! 2h(0,a) − 1 < s ≤ T − 2h(a,b) + 1.
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
//!
//! Search guide (not a constraint): minimise Σ (arrival step)·x, deliver early.

use super::time_expanded::{Held, Window, span};
use super::{Encoder, EncoderEntry, Encoding, Event, Shape};
use crate::exact::BackendKind;
use crate::exact::ir::{Linear, Model, Sense, VarId};
use crate::spec::applicability::fat_tree_with_valid_capacity;
use crate::spec::network::fat_tree_lca_height;
use crate::spec::{
    Applicability, FamilyKind, FatTreeSend, Instance, Model as CommModel, ModelClass, ProblemKind,
};
use std::collections::BTreeMap;

/// The registry entry: broadcast on the ideal fat-tree, pipelined or in rounds.
pub const BROADCAST: EncoderEntry = EncoderEntry {
    name: "fat-tree-broadcast",
    source: "002 §2 (FT-1), §4.2 (rounds); optima for FT-2, FT-3, FT-8, FT-10, FT-11, FT-17",
    applicability: Applicability {
        problems: &[ProblemKind::Broadcast],
        models: &[ModelClass::FatTree { rounds: false }, ModelClass::FatTree { rounds: true }],
        families: &[FamilyKind::FatTree],
        refine: Some(fat_tree_with_valid_capacity),
        model_note: "",
    },
    build: |instance| Box::new(FatTreeBroadcast::new(instance)),
    // `bench --exact`, fattree16-fig1-rounds (T* = 20): certified by smt in 3.73 s, by sat in 5.15 s
    // (with its LRAT proof); ilp stops at [16, -] after 20 s. Pipelined N = 16: 0.14 / 0.23 / 0.31 s.
    backends: &[BackendKind::Smt, BackendKind::Sat, BackendKind::Ilp],
};

/// The fat-tree broadcast encoder (see the module documentation).
pub struct FatTreeBroadcast {
    n: usize,
    /// log N: the root's height.
    levels: usize,
    /// w(2^k) for k = 0..log N − 1: the capacity of the channels above a height-k node.
    caps: Vec<u64>,
    rounds: bool,
    description: String,
}

impl FatTreeBroadcast {
    /// The encoder for a broadcast instance on a valid fat-tree.
    pub fn new(instance: &Instance) -> Self {
        let n = instance.network.len();
        let levels = n.trailing_zeros() as usize;
        let (caps, rounds) = match &instance.model {
            CommModel::FatTree { capacity, rounds } => {
                ((0..levels).map(|k| capacity.w(1 << k)).collect(), *rounds)
            }
            _ => (vec![1; levels], false), // the applicability admits fat-tree models only
        };
        let description = format!("broadcast on {} under {}", instance.network, instance.model.class());
        Self { n, levels, caps, rounds, description }
    }

    /// The end of the first step at which v can hold the value.
    fn ready(&self, v: usize) -> u64 {
        if v == 0 { 0 } else { 2 * fat_tree_lca_height(0, v) as u64 - 1 }
    }

    /// The steps in which a may submit to b at `horizon`: after a can hold the value, early
    /// enough to be received by T.
    fn send_steps(&self, a: usize, b: usize, horizon: u64) -> std::ops::RangeInclusive<u64> {
        let flight = 2 * fat_tree_lca_height(a, b) as u64 - 1;
        self.ready(a) + 1..=horizon.saturating_sub(flight)
    }

    /// The pairs (a, b) a message can join: b ≠ a, b ≠ 0.
    fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |a| (1..self.n).filter(move |&b| b != a).map(move |b| (a, b)))
    }

    /// Round starts (s, H) with s + 2H − 1 ≤ T.
    fn round_starts(&self, horizon: u64) -> impl Iterator<Item = (u64, usize)> + '_ {
        (1..=horizon).flat_map(move |s| {
            (1..=self.levels).filter(move |&h| s + 2 * h as u64 - 1 <= horizon).map(move |h| (s, h))
        })
    }
}

impl Encoder for FatTreeBroadcast {
    fn impossible(&self) -> Option<String> {
        None // every capacity is at least 1 on a valid fat-tree: the naive broadcast exists
    }

    fn min_variables(&self, horizon: u64) -> usize {
        self.variables(horizon)
    }

    fn variables(&self, horizon: u64) -> usize {
        let held: usize =
            (1..self.n).map(|v| Window { after: self.ready(v), before: 0 }.held_count(horizon)).sum();
        let sends: usize = self
            .pairs()
            .map(|(a, b)| {
                let steps = self.send_steps(a, b, horizon);
                span(*steps.start(), *steps.end())
            })
            .sum();
        let rounds = if self.rounds { self.round_starts(horizon).count() } else { 0 };
        held + sends + rounds
    }

    fn encode(&self, horizon: u64) -> Encoding {
        let (n, t_max) = (self.n, horizon as usize);
        let mut model = Model::new(format!("{}, horizon T = {horizon}", self.description));
        let held: Vec<Held> = (0..n)
            .map(|v| {
                if v == 0 {
                    return Held::always(horizon);
                }
                let window = Window { after: self.ready(v), before: 0 };
                if !window.fits(horizon) {
                    // The value cannot reach v by T: the model is a contradiction.
                    model.constrain(format!("reach_v{v}"), &Linear::new(), Sense::Eq, 1);
                }
                Held::new(&mut model, window, horizon, |tau| format!("h_v{v}_t{tau}"))
            })
            .collect();
        let mut events = Vec::new();
        let mut guide = Linear::new();
        let mut all = Vec::new();
        // arrivals[v][τ], submitted[a][s]; by_height[s][h][a]: a's messages of height h in s.
        let mut arrivals: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); t_max + 1]; n];
        let mut submitted: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); t_max + 1]; n];
        let mut by_height: Vec<Vec<BTreeMap<usize, Vec<VarId>>>> =
            vec![vec![BTreeMap::new(); self.levels + 1]; t_max + 1];
        // (level k, channel id, step) -> messages crossing it; id = 2·(tree node) + (1 if up).
        let mut load: BTreeMap<(usize, usize, u64), Vec<VarId>> = BTreeMap::new();
        for (a, b) in self.pairs() {
            let h = fat_tree_lca_height(a, b);
            for s in self.send_steps(a, b, horizon) {
                let x = model.bool_var(format!("x_{a}_{b}_t{s}"));
                let arrival = s + 2 * h as u64 - 1;
                events
                    .push((x, Event::Send(FatTreeSend { step: s as i64, from: a, to: b, payload: [0, 0] })));
                arrivals[b][arrival as usize].push(x);
                submitted[a][s as usize].push(x);
                by_height[s as usize][h].entry(a).or_default().push(x);
                for k in 0..h {
                    load.entry((k, 2 * (a >> k) + 1, s + k as u64)).or_default().push(x);
                    load.entry((k, 2 * (b >> k), arrival - k as u64)).or_default().push(x);
                }
                guide.add(arrival as i64, x);
                all.push(x);
            }
        }
        for v in 1..n {
            for tau in 1..=horizon {
                held[v].record(&mut model, format!("got_v{v}_t{tau}"), tau, &arrivals[v][tau as usize]);
            }
        }
        for a in 0..n {
            for s in 1..=horizon {
                let sends = &submitted[a][s as usize];
                if sends.is_empty() {
                    continue;
                }
                let mut row = Linear::sum(sends);
                row.add_scaled(-1, &held[a].at(s - 1));
                model.constrain(format!("send_v{a}_t{s}"), &row, Sense::Le, 0);
            }
        }
        for ((k, c, t), xs) in &load {
            if xs.len() as u64 > self.caps[*k] {
                let dir = if c % 2 == 1 { "up" } else { "down" };
                let name = format!("cap_{dir}_{k}_{}_t{t}", c / 2);
                model.constrain(name, &Linear::sum(xs), Sense::Le, self.caps[*k] as i64);
            }
        }
        model.constrain("count", &Linear::sum(&all), Sense::Eq, n as i64 - 1);
        if self.rounds {
            self.constrain_rounds(&mut model, horizon, &by_height);
        }
        model.guide(&guide);
        Encoding { horizon, model, shape: Shape::FatTree, events }
    }
}

impl FatTreeBroadcast {
    /// The round variables and rules of the module documentation ("The round model").
    fn constrain_rounds(
        &self,
        model: &mut Model,
        horizon: u64,
        by_height: &[Vec<BTreeMap<usize, Vec<VarId>>>],
    ) {
        let mut z: BTreeMap<(u64, usize), VarId> = BTreeMap::new();
        for (s, h) in self.round_starts(horizon) {
            z.insert((s, h), model.bool_var(format!("z_s{s}_H{h}")));
        }
        let starting =
            |s: u64| -> Vec<VarId> { z.range((s, 0)..=(s, self.levels)).map(|(_, &v)| v).collect() };
        model.constrain("round_one", &Linear::sum(&starting(1)), Sense::Eq, 1);
        for s in 1..=horizon {
            let here = Linear::sum(&starting(s));
            model.constrain(format!("one_round_s{s}"), &here, Sense::Le, 1);
            for (h, senders) in by_height[s as usize].iter().enumerate().skip(1) {
                // Rounds in s tall enough for height h.
                let tall: Vec<VarId> = z.range((s, h)..=(s, self.levels)).map(|(_, &v)| v).collect();
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
                let before: Vec<VarId> = (1..=self.levels)
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
}
