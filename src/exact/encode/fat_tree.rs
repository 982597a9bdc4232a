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
//! **Windows.** v can first hold the value at the end of step 2h(0,v) (the copy from P_0,
//! submitted in step 1, is the fastest), so h(v,τ) = 0 below it and x(a,b,s) exists only for
//! 2h(0,a) < s ≤ T − 2h(a,b) + 1.
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
//! **Left first (symmetry breaking, valid: it keeps an optimal schedule).** Swapping the two
//! children of a tree node whose subtree does not hold P_0 (processor j of the left block ↔
//! processor j of the right block) maps the fat-tree onto itself: LCA heights, channels and
//! their capacities (which depend only on the level) are kept, and so is P_0. Relabelling a
//! broadcast schedule by it gives an admissible schedule of the same length, in rounds too,
//! with no new duplicate. So take an optimal schedule and visit the tree nodes away from P_0
//! from the root down, swapping a node's children whenever some processor of the right child
//! holds the value strictly before every processor of the left child. A swap at a node
//! changes no subtree's first holding time except those of its two children, which it
//! exchanges, and the swaps below only permute processors inside one child. At the end every
//! such node's left child holds the value no later than its right child: `left_first`, for
//! every processor v of a right child and every τ < T, h(v, τ) ≤ Σ_{u in the left child} h(u, τ).
//! Product and prefix have no such rows: their payloads name processors by index. With these
//! rows z3 proves the pipelined fat-tree:32 optima (17, 16, 16 under w = 1, log n + 1 and n)
//! in 1–2 s instead of 179–244 s, and the round model's fat-tree:32 under log n + 1 at 28 in
//! 80 s (open at [24, 30] before).
//!
//! Search guide (not a constraint): minimise Σ (arrival step)·x, deliver early.
//!
//! ## Product and prefix (§5, FT-23; [`FatTreeCombine`])
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
//! message per processor and step each way (the processor rule); `cap` as above; `goal`
//! f(v, goal(v), T) = 1; in rounds the round rules above and `round_receive`: the messages to b
//! submitted in one round's step number at most one (002 §4.2, the checker's one receipt per
//! round). `once` (valid, it keeps an optimal schedule): each range reaches each processor at
//! most once, since a second receipt of a held range changes no holding (so d ≤ 1); deleting
//! it keeps the schedule admissible as for the broadcast above. With first receipts only, a
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
//! never used, so the rest is admissible and meets every goal (in rounds as above). The model
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
//! Deleting every message received late keeps the schedule admissible (in rounds as above)
//! and its goals, so the model has x only for arrivals by `last_use`, and the knowledge
//! relaxation carries a_i to b only by `last_use(b, [i, i])`. With both cuts and the windows
//! one step tighter than before, the prefix model on fat-tree:16 at T = 13 shrinks from 100k
//! to 32k variables.
//!
//! ## Product by reversal (pipelined, and in rounds where no channel binds; FT-23, FT-24)
//!
//! The product model has O(N³·T) variables (312k at N = 16), out of reach from N = 16 on. Two
//! facts about time reversal ([`crate::spec::reversal`]) settle the pipelined product anyway:
//!
//! - **Relaxation ([`Encoder::relaxation`]): the broadcast.** Run a product of length T
//!   backwards: a message a → b submitted in step s becomes b → a submitted in step
//!   T + 2 − s − 2h, crossing the mirror of every channel (an up-channel becomes the same
//!   node's down-channel, of equal capacity) in the mirror step, and swapping submissions with
//!   receipts, so the capacity and processor rules hold. Every a_i reaches P_0 along messages
//!   that each leave after the previous one arrives; backwards, they carry P_0's value to P_i.
//!   Keeping only each processor's first receipt of it is a broadcast of length ≤ T. So the
//!   product at T − 1 is infeasible when the broadcast at T − 1 is. For prefix, P_{N−1} must
//!   form [0, N − 1]: backwards that is a broadcast from P_{N−1}, and the mirror i ↦ N − 1 − i
//!   (a map of the fat-tree onto itself) makes it one from P_0. In rounds both hold where no
//!   channel binds (w(2^k) ≥ 2^k below the root, as under w = n): a reversed round whose
//!   messages all leave in its first step is a round of the same height, the processor rule
//!   is symmetric, and no channel can carry more than its capacity
//!   ([`crate::bounds::fat_tree::channels_never_bind`]). Where channels bind, a reversed
//!   round may not be one (what entered a block in several steps leaves it in one), and
//!   neither model is used.
//! - **Restriction ([`Encoder::restricted`]): broadcasts that run backwards.** Backwards, a
//!   broadcast is a product with a non-commutative ⋆ when every processor's subtree in the
//!   tree of first receipts is an index range: P_v sends its subtree's range once all its
//!   children's ranges have arrived. Forwards again after that, each message carrying the
//!   prefix before its range, it is a prefix of twice its length (the sweeps of
//!   [`crate::spec::reversal::prefix_sweeps`]; the prefix's restricted model at T is the
//!   broadcast's at ⌊T/2⌋). The model is the broadcast model above
//!   without `left_first` (a swap of two children breaks ranges) plus `d_{u}_{v}` ∈ {0,1} for
//!   u, v ≠ 0 (u is a proper ancestor of v; P_0 is everyone's) and
//!   `ancestor_parent`: x(u, v, ·) ⇒ d(u, v); `ancestor_down`/`ancestor_up`: when w ≠ u sends
//!   v its value, d(u, v) = d(u, w) (so d is exactly the ancestry, by induction on the step in
//!   which v gets the value); `range`: d(u, v) ⇒ d(u, w) for the w next to v towards u (every
//!   subtree is a range). Its witnesses decode backwards ([`Shape::ReversedBroadcast`]) and are
//!   checked as products; its infeasibility proves nothing.
//!
//! The search certifies the broadcast first and asks the restricted model for a witness at
//! its optimum: at N = 16 and 32, under w = 1, log n + 1 and n, there is one every time, so the
//! product's optimum is the broadcast's (docs/results.md, "Fat-tree exact optima"). For prefix the sweeps
//! only bound the optimum from above. In rounds under w = n the broadcast's round-model optimum
//! is already a bound of the instance's own (`bounds::fat_tree`), which the product algorithm's
//! 20 meets on fat-tree:16; on fat-tree:32 (26) the restricted model found nothing shorter
//! than 28 in 12 minutes.
//!
//! ## Knowledge relaxations (product and prefix, pipelined and in rounds; ours)
//!
//! Read ⋆ as commutative and idempotent (a set union): a message then carries values its
//! sender knows, and P_v's goal is to know every a_i of its goal range. Every schedule maps to
//! it with its own messages: a payload [lo, hi] that chains from ranges the sender holds names
//! only values that have reached the sender, and holding ranges that chain into the goal means
//! knowing each of its a_i. So this model's infeasibility at T is the instance's
//! ([`Encoder::relaxed_model`]). It keeps the model's messages and rules but drops the O(N²)
//! range variables per message:
//!
//! - `x_{a}_{b}_t{s}` ∈ {0,1}: a sends to b in step s, for s + 2h(a, b) − 1 ≤ T;
//! - `k_v{v}_i{i}_t{τ}` ∈ {0,1} for i ≠ v: v knows a_i at the end of step τ, only for
//!   τ ≥ 2h(i, v) (a copy from P_i leaves in step 1 at the earliest); P_v knows a_v throughout;
//! - `c_{a}_{b}_i{i}_t{s}` ∈ {0,1} for i ≠ b: the message carries a_i, with `sent` c ≤ x and
//!   `known` c ≤ k(a, i, s − 1);
//! - `learn`: k(b, i, τ) − k(b, i, τ − 1) ≤ Σ of the c bringing a_i to b at the end of step τ;
//!   `keep`: k(b, i, τ − 1) ≤ k(b, i, τ); `goal`: k(v, i, T) = 1 for every a_i of v's goal;
//! - the processor, capacity and round rules as in the model above.
//!
//! **Range payloads**, the second relaxed model ([`KNOWLEDGE`]), keep one more fact of every
//! schedule: a payload is an index range, so the values a message carries are one run in
//! index order once b's own index is skipped (a payload may span a_b, which b needs from
//! nobody). `range`: `q_{a}_{b}_i{i}_t{s}` ∈ {0,1}, "the run has ended", from the first value
//! the message may carry to the last; `gap` q_i ≥ c_j − c_i (j the index before i, b skipped),
//! `ended` q_i ≥ q_j, `after` c_i + q_i ≤ 1: binary and ternary clauses that propagate along the
//! payload. A value the cuts below forbid is a gap no run crosses, and rightly so: a range
//! holding it is late, or has no way back, as a whole, and its message is deleted.
//!
//! Both have O(N³·T) variables as the product model does, but no range index: at N = 16 and
//! T = 12 (with the cuts above) 5.3k and 7.1k, where the prefix model has 22k under
//! log n + 1. Both are weaker than the prefix model and stronger than the broadcast. Under
//! log n + 1 on fat-tree:16 the first is infeasible at 12 (CaDiCaL, 7.6 s), so the prefix
//! takes at least 13 there; under w = n it is feasible at 12, where the prefix model is not,
//! and the second is not (`solve`: CaDiCaL 26 s, z3 32 s), so the prefix optimum there, 13,
//! is certified at default settings (`range_payloads_refute_the_broadcast_optimum_under_w_n`).
//! The search walks the first where it is infeasible, which costs less (under log n + 1 at 12
//! the second takes CaDiCaL three times as long and a proof three times as large), and the
//! second where the first is feasible. On fat-tree:8 the first meets the prefix optimum under
//! every capacity measured (docs/results.md, "Fat-tree exact optima").

use super::time_expanded::{Held, Window, span};
use super::{Encoder, EncoderEntry, Encoding, Event, Relaxation, Shape};
use crate::exact::BackendKind;
use crate::exact::ir::{Linear, Model, Sense, VarId};
use crate::spec::applicability::fat_tree_with_valid_capacity;
use crate::spec::network::fat_tree_lca_height;
use crate::spec::{
    Applicability, FamilyKind, FatTreeSend, Instance, Model as CommModel, ModelClass, Problem, ProblemKind,
};
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
    rounds: bool,
    description: String,
}

impl Tree {
    fn new(instance: &Instance) -> Self {
        let n = instance.network.len();
        let levels = n.trailing_zeros() as usize;
        let (caps, rounds) = match &instance.model {
            CommModel::FatTree { capacity, rounds } => (capacity.per_height(n), *rounds),
            _ => (vec![1; levels], false), // the applicability admits fat-tree models only
        };
        let description =
            format!("{} on {} under {}", instance.problem, instance.network, instance.model.class());
        Self { n, levels, caps, rounds, description }
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
    fn constrain_capacities(&self, model: &mut Model, tree: &Tree) {
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
    fn constrain_processors(&self, model: &mut Model, tree: &Tree) {
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
    fn constrain_rounds(&self, model: &mut Model, tree: &Tree, horizon: u64) {
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

    fn into_encoding(self, mut model: Model, horizon: u64) -> Encoding {
        model.guide(&self.guide);
        Encoding { horizon, model, shape: Shape::FatTree, events: self.events }
    }
}

/// The fat-tree broadcast encoder (see the module documentation).
pub struct FatTreeBroadcast {
    tree: Tree,
    /// Whether the model keeps only left-first schedules (`left_first` rows; always in the
    /// broadcast's own model, except in the test that compares the two).
    left_first: bool,
    /// Whether the model keeps only broadcasts whose every subtree is an index range (`range`
    /// rows: the product's restricted model, module documentation, "Product by reversal").
    ranges: bool,
}

impl FatTreeBroadcast {
    /// The encoder for a broadcast instance on a valid fat-tree.
    pub fn new(instance: &Instance) -> Self {
        Self { tree: Tree::new(instance), left_first: true, ranges: false }
    }

    /// The broadcasts on `tree` that run backwards into products: every subtree an index
    /// range, no `left_first` rows (a swap of two children breaks ranges).
    fn reversible(tree: Tree) -> Self {
        Self { tree, left_first: false, ranges: true }
    }

    /// `ancestor` and `range` rows (module documentation, "Product by reversal"): d(u, v) is
    /// whether u is a proper ancestor of v in the tree of first receipts (the messages of
    /// `traffic`), and every subtree is an index range.
    fn constrain_ranges(&self, model: &mut Model, traffic: &Traffic) {
        let n = self.tree.n;
        // The x of every message from a to b, by (a, b).
        let mut parents: BTreeMap<(usize, usize), Vec<VarId>> = BTreeMap::new();
        for &(x, event) in &traffic.events {
            if let Event::Send(s) = event {
                parents.entry((s.from, s.to)).or_default().push(x);
            }
        }
        let parent = |a: usize, b: usize| parents.get(&(a, b)).map_or_else(Linear::new, |xs| Linear::sum(xs));
        let mut d = vec![vec![None; n]; n];
        for (u, v) in self.tree.pairs(Some(0)).filter(|&(u, _)| u != 0) {
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
        for (u, v) in self.tree.pairs(Some(0)).filter(|&(u, _)| u != 0) {
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

    /// The end of the first step at which v can hold the value.
    fn ready(&self, v: usize) -> u64 {
        if v == 0 { 0 } else { Tree::arrival_from_start(0, v) }
    }

    /// `left_first` (symmetry breaking, module documentation): under every tree node away from
    /// P_0, some processor of the left child holds the value as soon as any of the right child
    /// does.
    fn constrain_left_first(&self, model: &mut Model, held: &[Held], horizon: u64) {
        for k in 1..=self.tree.levels {
            let half = 1usize << (k - 1);
            for i in 1..self.tree.n >> k {
                let left = 2 * i * half..(2 * i + 1) * half;
                for v in left.end..left.end + half {
                    for tau in 1..horizon {
                        let mut row = held[v].at(tau);
                        for u in left.clone() {
                            row.add_scaled(-1, &held[u].at(tau));
                        }
                        model.constrain(format!("left_first_v{v}_t{tau}"), &row, Sense::Le, 0);
                    }
                }
            }
        }
    }

    /// The steps in which a may submit to b at `horizon`: after a can hold the value, early
    /// enough to be received by T.
    fn send_steps(&self, a: usize, b: usize, horizon: u64) -> std::ops::RangeInclusive<u64> {
        self.ready(a) + 1..=horizon.saturating_sub(Tree::flight(a, b))
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
        let tree = &self.tree;
        let held: usize =
            (1..tree.n).map(|v| Window { after: self.ready(v), before: 0 }.held_count(horizon)).sum();
        let sends: usize = tree
            .pairs(Some(0))
            .map(|(a, b)| {
                let steps = self.send_steps(a, b, horizon);
                span(*steps.start(), *steps.end())
            })
            .sum();
        let rounds = if tree.rounds { tree.round_starts(horizon).count() } else { 0 };
        let ancestors = if self.ranges { (tree.n - 1) * (tree.n - 2) } else { 0 };
        held + sends + rounds + ancestors
    }

    fn encode(&self, horizon: u64) -> Encoding {
        let tree = &self.tree;
        let mut model = Model::new(format!("{}, horizon T = {horizon}", tree.description));
        let held: Vec<Held> = (0..tree.n)
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
        let mut traffic = Traffic::new(tree, horizon);
        for (a, b) in tree.pairs(Some(0)) {
            for s in self.send_steps(a, b, horizon) {
                let x = model.bool_var(format!("x_{a}_{b}_t{s}"));
                traffic.add(x, a, b, s, [0, 0]);
            }
        }
        for (v, (held_v, arrivals)) in held.iter().zip(&traffic.arrivals).enumerate().skip(1) {
            for tau in 1..=horizon {
                held_v.record(&mut model, format!("got_v{v}_t{tau}"), tau, &arrivals[tau as usize]);
            }
        }
        for (a, (held_a, submitted)) in held.iter().zip(&traffic.submitted).enumerate() {
            for s in 1..=horizon {
                let sends = &submitted[s as usize];
                if sends.is_empty() {
                    continue;
                }
                let mut row = Linear::sum(sends);
                row.add_scaled(-1, &held_a.at(s - 1));
                model.constrain(format!("send_v{a}_t{s}"), &row, Sense::Le, 0);
            }
        }
        traffic.constrain_capacities(&mut model, tree);
        model.constrain("count", &Linear::sum(&traffic.all), Sense::Eq, tree.n as i64 - 1);
        if tree.rounds {
            traffic.constrain_rounds(&mut model, tree, horizon);
        }
        if self.left_first {
            self.constrain_left_first(&mut model, &held, horizon);
        }
        if self.ranges {
            self.constrain_ranges(&mut model, &traffic);
        }
        traffic.into_encoding(model, horizon)
    }

    /// Horizon-monotone: only the windows grow with T (module documentation).
    fn last_step(&self, event: &Event) -> Option<u64> {
        Tree::arrival(event)
    }
}

/// How certificates name the knowledge relaxations, sets then ranges (module documentation):
/// [`Encoder::relaxed`].
pub const KNOWLEDGE: [&str; 2] = [
    "its knowledge relaxation (a commutative, idempotent ⋆)",
    "its knowledge relaxation with range payloads (a commutative, idempotent ⋆)",
];

/// The index of the range-payload model in [`KNOWLEDGE`].
const RANGE_PAYLOADS: usize = 1;

/// An index range `[lo, hi]`: the product a_lo ⋆ … ⋆ a_hi.
type Range = (usize, usize);

/// The product and prefix encoder (module documentation, "Product and prefix").
pub struct FatTreeCombine {
    tree: Tree,
    /// The range each processor must be able to form at the end: product `[0, N−1]` at P_0,
    /// prefix `[0, i]` at P_i.
    goals: Vec<Option<Range>>,
    /// The product's restricted model, pipelined or in rounds where no channel binds:
    /// broadcasts that run backwards (module documentation, "Product by reversal").
    reversible: Option<FatTreeBroadcast>,
    /// The broadcast on the same fat-tree, where the restricted model is (module
    /// documentation, "Product by reversal").
    relaxation: Option<Relaxation>,
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
        // In rounds, reversal keeps the rules only where no channel binds (module
        // documentation, "Product by reversal").
        let reverses = !tree.rounds
            || matches!(&instance.model, CommModel::FatTree { capacity, .. }
                if crate::bounds::fat_tree::channels_never_bind(n as u64, capacity));
        let reversible = reverses.then(|| FatTreeBroadcast::reversible(tree.clone()));
        let relaxation = if !reverses {
            None
        } else {
            Instance::new(
                format!("{}~broadcast", instance.name),
                instance.network.clone(),
                Problem::Broadcast,
                instance.model.clone(),
                instance.ring_tie,
                "<relaxation>",
            )
            .ok()
            .map(|instance| Relaxation { name: "the broadcast it reverses into (FT-24)", instance })
        };
        Self { tree, goals, reversible, relaxation, cuts: true }
    }

    /// Whether the goal is a prefix (else a product).
    fn prefix(&self) -> bool {
        self.goals.iter().filter(|g| g.is_some()).count() > 1
    }

    /// The horizon of the reversible broadcast behind a restricted witness of length ≤ `horizon`:
    /// the product is the broadcast backwards, the prefix that and the broadcast again.
    fn broadcast_horizon(&self, horizon: u64) -> u64 {
        if self.prefix() { horizon / 2 } else { horizon }
    }

    /// Every range of the indices 0..N−1.
    fn ranges(&self) -> impl Iterator<Item = Range> + '_ {
        let n = self.tree.n;
        (0..n).flat_map(move |lo| (lo..n).map(move |hi| (lo, hi)))
    }

    /// The end of the first step at which v can form r: every a_i of r must have reached v.
    fn ready(v: usize, (lo, hi): Range) -> u64 {
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
    fn last_use(&self, v: usize, r: Range, horizon: u64) -> u64 {
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
    fn no_way_back(&self, horizon: u64) -> bool {
        self.cuts && self.prefix() && horizon < 4 * self.tree.levels as u64
    }

    /// Whether every a_i of r can reach v in the model at `horizon`.
    fn formable(&self, v: usize, (_, hi): Range, horizon: u64) -> bool {
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

    fn min_variables(&self, horizon: u64) -> usize {
        self.messages()
            .map(|(a, b, r)| {
                let steps = self.send_steps(a, b, r, horizon);
                span(*steps.start(), *steps.end())
            })
            .sum()
    }

    fn variables(&self, horizon: u64) -> usize {
        // Sends, plus at most one `f` and one `p` per split for each range a processor can form
        // and each time point from the end of the step at which it can first form it (the forms
        // are built on demand, so this is an upper estimate).
        let forms: usize = (0..self.tree.n)
            .flat_map(|v| self.ranges().map(move |r| (v, r)))
            .filter(|&(v, r)| self.formable(v, r, horizon))
            .map(|(v, (lo, hi))| span(Self::ready(v, (lo, hi)), horizon) * (1 + hi - lo))
            .sum();
        let rounds = if self.tree.rounds { self.tree.round_starts(horizon).count() } else { 0 };
        self.min_variables(horizon) + forms + rounds
    }

    fn encode(&self, horizon: u64) -> Encoding {
        let tree = &self.tree;
        let mut model = Model::new(format!("{}, horizon T = {horizon}", tree.description));
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

    /// Horizon-monotone: only the windows grow with T (module documentation).
    fn last_step(&self, event: &Event) -> Option<u64> {
        Tree::arrival(event)
    }

    fn relaxation(&self) -> Option<&Relaxation> {
        self.relaxation.as_ref()
    }

    fn restriction(&self) -> Option<String> {
        self.reversible.as_ref().map(|_| {
            if self.prefix() {
                "the up- and down-sweeps of a broadcast whose every subtree is an index range".into()
            } else {
                "broadcasts run backwards, each subtree an index range".into()
            }
        })
    }

    fn restricted_min_variables(&self, horizon: u64) -> usize {
        self.restricted_variables(horizon)
    }

    fn restricted_variables(&self, horizon: u64) -> usize {
        self.reversible.as_ref().map_or(0, |b| b.variables(self.broadcast_horizon(horizon)))
    }

    /// The reversible broadcasts at `horizon` decoded backwards into products; for prefix,
    /// those at ⌊horizon / 2⌋ decoded into their two sweeps.
    fn restricted(&self, horizon: u64) -> Option<Encoding> {
        let encoding = self.reversible.as_ref()?.encode(self.broadcast_horizon(horizon));
        let shape = Shape::ReversedBroadcast {
            processors: self.tree.n,
            prefix: self.prefix(),
            rounds: self.tree.rounds,
        };
        Some(Encoding { shape, horizon, ..encoding })
    }
    fn relaxed(&self) -> &'static [&'static str] {
        &KNOWLEDGE
    }

    fn relaxed_variables(&self, horizon: u64, which: usize) -> usize {
        self.knowledge_variables(horizon, which == RANGE_PAYLOADS)
    }

    fn relaxed_model(&self, horizon: u64, which: usize) -> Option<Encoding> {
        Some(self.knowledge(horizon, which == RANGE_PAYLOADS))
    }
}

impl FatTreeCombine {
    /// Whether v may know a_i at the end of step τ of the model at `horizon`: from its start
    /// (i = v), or once a copy from P_i could have arrived (submitted in step 1, it arrives at
    /// the end of step 2h), if it can arrive at all ("No way back").
    fn may_know(&self, v: usize, i: usize, tau: u64, horizon: u64) -> bool {
        i == v || (tau >= Tree::arrival_from_start(i, v) && self.formable(v, (i, i), horizon))
    }

    /// Whether a's message to b in step s of the knowledge model at `horizon` may carry a_i:
    /// b lacks it, a may know it, and b gets it while it is of use ("Late receipts").
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
    fn knowledge_variables(&self, horizon: u64, ranges: bool) -> usize {
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
    fn knowledge(&self, horizon: u64, ranges: bool) -> Encoding {
        let tree = &self.tree;
        let n = tree.n;
        let mut model =
            Model::new(format!("{} relaxed to knowledge sets, horizon T = {horizon}", tree.description));
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
        model: &mut Model,
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
    fn form(&mut self, model: &mut Model, v: usize, r: Range, tau: u64) -> Linear {
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
                if first.constant() == Some(1) {
                    ways.add_all(&last);
                } else if last.constant() == Some(1) {
                    ways.add_all(&first);
                } else {
                    let p = model.bool_var(format!("p_v{v}_r{lo}_{m}_{hi}_t{tau}"));
                    for (side, lin) in [("first", &first), ("last", &last)] {
                        let mut row = Linear::sum(&[p]);
                        row.add_scaled(-1, lin);
                        model.constrain(format!("{side}_v{v}_r{lo}_{m}_{hi}_t{tau}"), &row, Sense::Le, 0);
                    }
                    ways.add(1, p);
                }
            }
            if ways.constant() == Some(0) {
                ways
            } else {
                let f = model.bool_var(format!("f_v{v}_r{lo}_{hi}_t{tau}"));
                let mut row = Linear::sum(&[f]);
                row.add_scaled(-1, &ways);
                model.constrain(format!("form_v{v}_r{lo}_{hi}_t{tau}"), &row, Sense::Le, 0);
                Linear::sum(&[f])
            }
        };
        self.memo.insert((v, r, tau), lin.clone());
        lin
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(any(feature = "smt", feature = "sat"))]
    use crate::exact::backend::Aim;
    use crate::spec::io::parse_instance;

    /// The knowledge relaxation is one (module documentation): every schedule the registered
    /// algorithms give for product and prefix on fat-tree:4, 8 and 16, under four capacities,
    /// pipelined and in rounds, once checked, is a solution of the relaxed model at its length
    /// once what the cuts delete is deleted ("No way back", "Late receipts"), with `c` = 1 for
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

    /// `problem` on fat-tree:`n` under `capacity`, pipelined or in rounds.
    fn fat_tree(problem: &str, n: usize, capacity: &str, rounds: bool) -> Instance {
        let text = format!(
            "problem = \"{problem}\"\nnetwork = \"fat-tree:{n}\"\n[model]\nkind = \"fat-tree\"\n\
             capacity = \"{capacity}\"\nrounds = {rounds}\n"
        );
        parse_instance(&text, "<test>", "t").unwrap()
    }

    /// Whether the default backend finds `model` feasible, asked with `aim` and no time limit.
    #[cfg(any(feature = "smt", feature = "sat"))]
    fn feasible(model: &Model, aim: crate::exact::backend::Aim) -> bool {
        feasible_by(crate::exact::default_backend(), model, aim)
    }

    /// Whether `model` has a solution, decided by `backend` without a time limit.
    #[cfg(any(feature = "smt", feature = "sat"))]
    fn feasible_by(backend: BackendKind, model: &Model, aim: crate::exact::backend::Aim) -> bool {
        use crate::exact::backend::{BackendAnswer, Limits};
        match backend.backend().unwrap().solve(model, &Limits { time: None, aim }).unwrap() {
            BackendAnswer::Feasible(_) => true,
            BackendAnswer::Infeasible => false,
            BackendAnswer::Unknown(u) => panic!("undecided: {u:?}"),
        }
    }

    /// The left-first rows keep an optimal schedule (module documentation): on fat-tree:4 and
    /// fat-tree:8, under w = 1, log n + 1 and n, pipelined and in rounds, the model with them and
    /// the model without them are feasible at the same horizons around the optimum.
    #[cfg(any(feature = "smt", feature = "sat"))]
    #[test]
    fn left_first_keeps_every_optimum() {
        let witness = |enc: &FatTreeBroadcast, t: u64| feasible(&enc.encode(t).model, Aim::Witness);
        for n in [4, 8] {
            for capacity in ["const:1", "log+1", "pow:1"] {
                for rounds in [false, true] {
                    let inst = fat_tree("broadcast", n, capacity, rounds);
                    let restricted = FatTreeBroadcast::new(&inst);
                    let full = FatTreeBroadcast { left_first: false, ..FatTreeBroadcast::new(&inst) };
                    let optimum = (1..).find(|&t| witness(&full, t)).unwrap();
                    // The optima of docs/results.md: 5 and 8 pipelined, 6 and 12 in rounds.
                    let expected = match (n, rounds) {
                        (4, false) => 5,
                        (8, false) => 8,
                        (4, true) => 6,
                        _ => 12,
                    };
                    assert_eq!(optimum, expected, "{n} {capacity} {rounds}");
                    let rows = restricted.encode(optimum).model.constraints;
                    assert!(rows.iter().any(|c| c.name.starts_with("left_first_")));
                    for t in optimum - 2..=optimum {
                        assert_eq!(witness(&restricted, t), t == optimum, "{n} {capacity} {rounds}: T = {t}");
                    }
                }
            }
        }
    }

    /// The cuts keep a schedule of every length (module documentation, "No way back", "Late
    /// receipts"). On fat-tree:4 (4 log N = 8), under w = 1, log n + 1 and n, pipelined and in
    /// rounds, the prefix models with and without them are feasible at the same horizons from
    /// the lower bound up to the optimum, and the knowledge relaxation with them is feasible at
    /// the optimum. On fat-tree:8 (4 log N = 12) the optimum 9 certified without them under
    /// log n + 1 and n, pipelined (docs/results.md), is met: the relaxation with them is infeasible at 8
    /// and feasible at 9 (the models take z3 minutes there, and w = 1 half a minute).
    #[cfg(any(feature = "smt", feature = "sat"))]
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
                let (with, without) = (cut.encode(t), whole.encode(t));
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

    /// The product's restricted model (module documentation, "Product by reversal") on
    /// fat-tree:4 and fat-tree:8 under w = 1, log n + 1 and n, and in rounds under w = n: it is
    /// feasible at the broadcast's optimum (5 and 8; in rounds 6 and 12), every `d` of its
    /// solution is the ancestry of the decoded broadcast's tree, and the decoded product is
    /// accepted by the checker with that length; the prefix's restricted model at twice it
    /// decodes into a checked prefix of twice it. In rounds where channels bind there is none.
    #[cfg(any(feature = "smt", feature = "sat"))]
    #[test]
    fn reversible_broadcasts_reach_the_broadcast_optimum_and_decode_to_products() {
        use crate::checker::{Producer, accept};
        use crate::exact::backend::{BackendAnswer, Limits};
        let backend = crate::exact::default_backend().backend().unwrap();
        let pipelined = [(4, 5), (8, 8)].into_iter().flat_map(|(n, optimum)| {
            ["const:1", "log+1", "pow:1"].map(|capacity| (n, capacity, false, optimum))
        });
        // In rounds where no channel binds: the round-model optima 6 and 12.
        let in_rounds = [(4, "pow:1", true, 6), (8, "pow:1", true, 12)];
        for (n, capacity, rounds, optimum) in pipelined.chain(in_rounds) {
            let product = fat_tree("product", n, capacity, rounds);
            let encoder = FatTreeCombine::new(&product);
            let encoding = encoder.restricted(optimum).unwrap();
            assert_eq!(encoder.restricted_variables(optimum), encoding.model.variables.len());
            let BackendAnswer::Feasible(assignment) =
                backend.solve(&encoding.model, &Limits::default()).unwrap()
            else {
                panic!("N = {n}, {capacity}: no reversible broadcast of length {optimum}");
            };
            let values = &assignment.values;
            // The broadcast's tree from the x set to 1, and its ancestry.
            let mut parent = vec![None; n];
            for &(var, event) in &encoding.events {
                if let (1, Event::Send(s)) = (values[var.index()], event) {
                    parent[s.to] = Some(s.from);
                }
            }
            for (var, v) in encoding.model.variables.iter().zip(values) {
                if let Some(rest) = var.name.strip_prefix("d_") {
                    let (u, w) = rest.split_once('_').unwrap();
                    let (u, w): (usize, usize) = (u.parse().unwrap(), w.parse().unwrap());
                    let ancestors: Vec<usize> = std::iter::successors(parent[w], |&p| parent[p]).collect();
                    assert_eq!(*v == 1, ancestors.contains(&u), "N = {n}, {capacity}: {}", var.name);
                }
            }
            let checked = accept(&product, encoding.decode(values), Producer::Exact("test")).unwrap();
            assert_eq!(checked.length(), optimum, "N = {n}, {capacity}");
            // The prefix's restricted model at 2T is the same broadcast model at T, and its
            // witness decodes into the two sweeps.
            let prefix = Instance { problem: Problem::Prefix, ..product.clone() };
            let encoder = FatTreeCombine::new(&prefix);
            let encoding = encoder.restricted(2 * optimum).unwrap();
            assert_eq!(encoding.model.variables.len(), encoder.restricted_variables(2 * optimum));
            let BackendAnswer::Feasible(assignment) =
                backend.solve(&encoding.model, &Limits::default()).unwrap()
            else {
                panic!("N = {n}, {capacity}: no reversible broadcast of length {optimum}");
            };
            let checked =
                accept(&prefix, encoding.decode(&assignment.values), Producer::Exact("test")).unwrap();
            assert_eq!(checked.length(), 2 * optimum, "prefix, N = {n}, {capacity}");
        }
        // Where channels bind, a reversed round need not be a round: no restricted model.
        for capacity in ["const:1", "log+1"] {
            let product = FatTreeCombine::new(&fat_tree("product", 8, capacity, true));
            assert!(product.restriction().is_none() && product.relaxation().is_none(), "{capacity}");
        }
    }
}
