//! Producers of the event model (docs/spec.md §3.3): explicit per-link orders of pieces for an
//! allgather of M bytes, which [`crate::checker::events`] replays and times. Two producers share
//! one event simulation, which starts a link's next transfer as soon as the link is free and a
//! piece for it is ready, and differ in which piece a free link takes:
//! - [`Rule::LinkChunkMatching`], TACOS's greedy (Won et al., arXiv 2304.05301, §4): a link
//!   takes a piece its tail holds and its head neither holds nor is already being sent; among
//!   those, the piece held by the fewest nodes (rarest first), ties broken by a seeded order
//!   where TACOS draws at random. Fabrics without switches only: a switch holds nothing to
//!   choose from;
//! - [`Rule::TreePieces`]: the certified optimum's trees, each root's C pieces dealt to its
//!   trees in proportion to their weights and forwarded along them, each link taking its ready
//!   pieces lowest piece index first, so pieces pipeline down the trees.
//!
//! [`best`] tries both over a range of C and returns the checked schedule of least time.
//! TACOS itself also relabels a finished transfer whose piece already arrived by another link
//! with a piece the tail holds when the transfer ends; no rule here does, since a transfer
//! carries what its tail held when it began.

use crate::checker::events::{EventMeasure, check_events, durations, guard_holdings};
use crate::checker::symmetry::expanded;
use crate::rng::splitmix64;
use crate::spec::events::{EventSchedule, Piece};
use crate::spec::fabric::Fabric;
use crate::spec::packing::{Packing, Phase};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The most transfers one candidate schedule may make.
pub const MAX_TRANSFERS: u64 = 8_000_000;

/// The most piece comparisons one link-chunk matching run may make (N³ · C²).
const MAX_SCANS: u64 = 300_000_000;

/// The tie orders link-chunk matching tries, each in both orders (0: index order).
const SEEDS: [u64; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The most transfers of the trees' pieces at one chunk count.
const MAX_TREE_TRANSFERS: u64 = 2_000_000;

/// Which piece a free link takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// TACOS's greedy matching, rarest piece first, ties in the order of the seed (0: piece
    /// order).
    LinkChunkMatching {
        /// Which (piece, head) pairs it serves first.
        order: Order,
        /// The tie order's seed.
        seed: u64,
    },
    /// The optimum's trees, pieces pipelined along them.
    TreePieces,
}

impl Rule {
    /// Its name in the output.
    pub fn name(self) -> String {
        match self {
            Rule::LinkChunkMatching { order: Order::Rarest, seed } => {
                format!("link-chunk-matching (rarest first, tie seed {seed})")
            }
            Rule::LinkChunkMatching { order: Order::Conditions, seed } => {
                format!("link-chunk-matching (TACOS's condition order, seed {seed})")
            }
            Rule::TreePieces => "tree-pieces".into(),
        }
    }
}

/// A checked schedule of the event model and what produced it.
#[derive(Debug, Clone)]
pub struct EventAnswer {
    /// The schedule.
    pub schedule: EventSchedule,
    /// The checker's measure.
    pub measure: EventMeasure,
    /// The rule that produced it.
    pub rule: Rule,
    /// The runs simulated, one per rule and C.
    pub candidates: usize,
}

/// The state both rules read: which rank holds which piece (ranks are the compute nodes in
/// index order, piece `r·C + k` the k-th of rank r's shard).
struct Holdings {
    rank: Vec<usize>,
    pieces: usize,
    held: Vec<bool>,
}

impl Holdings {
    fn holds(&self, v: usize, p: usize) -> bool {
        self.held[self.rank[v] * self.pieces + p]
    }
}

/// How a rule chooses: `assign` pieces (each with a tag it gets back on arrival) to free
/// links at one event time, as `(link, piece, tag)`; a free link left out stays idle until its
/// tail receives something. `arrived` is told of every arrival, with the tag.
trait Choice {
    fn assign(&mut self, free: &[usize], ticks: &[u64], state: &Holdings) -> Vec<(usize, usize, u64)>;
    fn arrived(&mut self, v: usize, p: usize, tag: u64, state: &Holdings);
    /// The route (from, to) of the copy a tag stands for, on a link into or out of a switch.
    fn route(&self, _tag: u64) -> Option<(usize, usize)> {
        None
    }
}

/// Runs a rule: at every event time, the arrivals first, then the rule assigns pieces to the
/// free links. Returns each link's order and the simulated time in ticks.
fn simulate(fabric: &Fabric, ticks: &[u64], c: usize, choice: &mut dyn Choice) -> (EventSchedule, u64) {
    let compute = fabric.compute();
    let mut rank = vec![usize::MAX; fabric.len()];
    for (r, &v) in compute.iter().enumerate() {
        rank[v] = r;
    }
    let pieces = compute.len() * c;
    let mut state = Holdings { rank, pieces, held: vec![false; compute.len() * pieces] };
    for r in 0..compute.len() {
        state.held[r * pieces + r * c..r * pieces + (r + 1) * c].fill(true);
    }
    let links = fabric.links();
    let mut order: Vec<Vec<Piece>> = vec![Vec::new(); links.len()];
    let mut parked: Vec<Vec<usize>> = vec![Vec::new(); fabric.len()];
    let mut events: BinaryHeap<Reverse<(u64, usize, usize, u64)>> = BinaryHeap::new();
    let mut busy = vec![false; links.len()];
    let (mut now, mut last) = (0, 0);
    let mut free: Vec<usize> = (0..links.len()).collect();
    loop {
        for (l, p, tag) in choice.assign(&free, ticks, &state) {
            busy[l] = true;
            let switched = !fabric.is_compute(links[l].from) || !fabric.is_compute(links[l].to);
            let route = if switched { choice.route(tag) } else { None };
            order[l].push(Piece { root: compute[p / c], index: (p % c) as u64, route });
            events.push(Reverse((now + ticks[l], l, p, tag)));
        }
        for &l in free.iter().filter(|&&l| !busy[l]) {
            parked[links[l].from].push(l);
        }
        let Some(&Reverse((next, ..))) = events.peek() else { break };
        now = next;
        free.clear();
        while let Some(Reverse((_, l, p, tag))) =
            events.peek().is_some_and(|e| e.0.0 == now).then(|| events.pop()).flatten()
        {
            let head = links[l].to;
            if fabric.is_compute(head) && !state.holds(head, p) {
                state.held[state.rank[head] * pieces + p] = true;
                last = now;
            }
            choice.arrived(head, p, tag, &state);
            busy[l] = false;
            free.push(l);
            free.append(&mut parked[head]);
        }
        free.sort_unstable();
        free.dedup();
    }
    let links = order.into_iter().enumerate().filter(|(_, o)| !o.is_empty()).collect();
    (EventSchedule { bytes: 0, pieces_per_rank: c as u64, links }, last)
}

/// The order in which link-chunk matching serves (piece, head) pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Link by link, each free link taking the piece held by the fewest nodes.
    Rarest,
    /// TACOS's: the unmet (piece, destination) conditions in a shuffled order, each to the free
    /// link into the destination that delivers it first.
    Conditions,
}

/// TACOS's link-chunk matching on switchless fabrics: a link takes a piece its tail holds and
/// its head neither holds nor is already being sent.
struct Matching<'a> {
    fabric: &'a Fabric,
    order: Order,
    seed: u64,
    /// Event times served so far: a new shuffle at each, as TACOS draws one.
    round: u64,
    /// Pieces each node holds, in arrival order.
    have: Vec<Vec<usize>>,
    /// How many nodes hold each piece.
    holders: Vec<u32>,
    /// Pieces on their way to each rank (rank · pieces + piece).
    in_flight: Vec<bool>,
}

impl Matching<'_> {
    /// The seeded tie order of a piece or a (piece, destination) pair; seed 0 is index order.
    fn key(&self, x: u64) -> u64 {
        if self.seed == 0 {
            x
        } else {
            splitmix64(self.seed ^ x.wrapping_mul(0x9e37_79b9) ^ self.round << 40)
        }
    }

    /// The pieces link l may carry: its tail holds them, its head neither holds nor awaits them.
    fn wanted<'s>(&'s self, l: usize, state: &'s Holdings) -> impl Iterator<Item = usize> + 's {
        let link = &self.fabric.links()[l];
        let at = state.rank[link.to] * state.pieces;
        self.have[link.from].iter().copied().filter(move |&p| !state.held[at + p] && !self.in_flight[at + p])
    }
}

impl Choice for Matching<'_> {
    fn assign(&mut self, free: &[usize], ticks: &[u64], state: &Holdings) -> Vec<(usize, usize, u64)> {
        self.round += 1;
        let links = self.fabric.links();
        let mut starts = Vec::new();
        match self.order {
            Order::Rarest => {
                let mut fastest_first = free.to_vec();
                fastest_first.sort_by_key(|&l| ticks[l]);
                for l in fastest_first {
                    let Some(p) =
                        self.wanted(l, state).min_by_key(|&p| (self.holders[p], self.key(p as u64)))
                    else {
                        continue;
                    };
                    self.in_flight[state.rank[links[l].to] * state.pieces + p] = true;
                    starts.push((l, p, 0));
                }
            }
            Order::Conditions => {
                let mut conditions: Vec<(u64, usize, usize)> = free
                    .iter()
                    .flat_map(|&l| {
                        let d = links[l].to;
                        self.wanted(l, state).map(move |p| (d, p))
                    })
                    .map(|(d, p)| (self.key((p * self.fabric.len() + d) as u64), p, d))
                    .collect();
                conditions.sort_unstable();
                conditions.dedup();
                let mut open: Vec<bool> = vec![false; links.len()];
                free.iter().for_each(|&l| open[l] = true);
                let mut into: Vec<Vec<usize>> = vec![Vec::new(); self.fabric.len()];
                free.iter().for_each(|&l| into[links[l].to].push(l));
                for (_, p, d) in conditions {
                    let at = state.rank[d] * state.pieces + p;
                    if self.in_flight[at] {
                        continue;
                    }
                    let first = into[d]
                        .iter()
                        .copied()
                        .filter(|&l| open[l] && state.holds(links[l].from, p))
                        .min_by_key(|&l| (ticks[l], self.key((l * state.pieces + p) as u64)));
                    if let Some(l) = first {
                        open[l] = false;
                        self.in_flight[at] = true;
                        starts.push((l, p, 0));
                    }
                }
            }
        }
        starts
    }

    fn arrived(&mut self, v: usize, p: usize, _: u64, state: &Holdings) {
        let at = state.rank[v] * state.pieces + p;
        if self.in_flight[at] {
            self.in_flight[at] = false;
            self.have[v].push(p);
            self.holders[p] += 1;
        }
    }
}

fn link_chunk_matching(
    fabric: &Fabric,
    ticks: &[u64],
    c: usize,
    order: Order,
    seed: u64,
) -> (EventSchedule, u64) {
    let compute = fabric.compute();
    let pieces = compute.len() * c;
    let mut have = vec![Vec::new(); fabric.len()];
    for (r, &v) in compute.iter().enumerate() {
        have[v] = (r * c..(r + 1) * c).collect();
    }
    let mut matching = Matching {
        fabric,
        order,
        seed,
        round: 0,
        have,
        holders: vec![1; pieces],
        in_flight: vec![false; compute.len() * pieces],
    };
    simulate(fabric, ticks, c, &mut matching)
}

/// A piece ready for a link: (its index within its shard, arrival order, piece, tag).
type Ready = (usize, u64, usize, u64);

/// The optimum's trees with pieces dealt to them. A tag is a path and the position of the link
/// along it.
struct TreePieces<'a> {
    fabric: &'a Fabric,
    /// Every tree edge's path.
    paths: Vec<&'a [usize]>,
    /// Per tree, per node: the paths leaving it.
    children: Vec<Vec<Vec<u32>>>,
    /// The tree of each piece.
    tree_of: Vec<u32>,
    c: usize,
    /// Per link, its ready pieces: (piece index, arrival order, piece, tag).
    ready: Vec<BinaryHeap<Reverse<Ready>>>,
    seq: u64,
}

impl TreePieces<'_> {
    fn push(&mut self, path: u32, at: usize, p: usize) {
        let nodes = self.paths[path as usize];
        let l =
            self.fabric.link_index(nodes[at], nodes[at + 1]).expect("a checked packing's paths are links");
        self.seq += 1;
        self.ready[l].push(Reverse((p % self.c, self.seq, p, (u64::from(path) << 32) | at as u64)));
    }

    /// Piece p is at tree node v: on to every child.
    fn fan_out(&mut self, v: usize, p: usize) {
        let tree = self.tree_of[p] as usize;
        for k in 0..self.children[tree][v].len() {
            let path = self.children[tree][v][k];
            self.push(path, 0, p);
        }
    }
}

impl Choice for TreePieces<'_> {
    fn assign(&mut self, free: &[usize], _: &[u64], _: &Holdings) -> Vec<(usize, usize, u64)> {
        free.iter().filter_map(|&l| self.ready[l].pop().map(|Reverse((_, _, p, tag))| (l, p, tag))).collect()
    }

    fn route(&self, tag: u64) -> Option<(usize, usize)> {
        let path = self.paths[(tag >> 32) as usize];
        Some((path[0], path[path.len() - 1]))
    }

    fn arrived(&mut self, v: usize, p: usize, tag: u64, _: &Holdings) {
        let (path, at) = ((tag >> 32) as u32, (tag & 0xffff_ffff) as usize + 1);
        if at + 1 == self.paths[path as usize].len() {
            self.fan_out(v, p);
        } else {
            self.push(path, at, p);
        }
    }
}

/// Deals C pieces to trees of weights w: quotas by largest remainder of C·w, then each piece to
/// the tree furthest behind its quota (stride order), so every tree's pieces spread over the
/// piece indices.
fn deal(weights: &[f64], c: usize) -> Vec<usize> {
    let exact: Vec<f64> = weights.iter().map(|w| w * c as f64).collect();
    let mut quota: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
    let mut by_remainder: Vec<usize> = (0..weights.len()).collect();
    by_remainder.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    for &t in by_remainder.iter().take(c.saturating_sub(quota.iter().sum())) {
        quota[t] += 1;
    }
    let mut dealt = vec![0usize; weights.len()];
    (0..c)
        .map(|_| {
            let t = (0..weights.len())
                .filter(|&t| dealt[t] < quota[t])
                .min_by(|&a, &b| ((dealt[a] + 1) * quota[b]).cmp(&((dealt[b] + 1) * quota[a])))
                .expect("the quotas sum to C");
            dealt[t] += 1;
            t
        })
        .collect()
}

fn tree_pieces(fabric: &Fabric, packing: &Packing, ticks: &[u64], c: usize) -> (EventSchedule, u64) {
    let compute = fabric.compute();
    let trees: Vec<_> = packing.trees.iter().filter(|t| t.phase == Phase::Allgather).collect();
    let mut paths = Vec::new();
    let mut children = vec![vec![Vec::new(); fabric.len()]; trees.len()];
    for (t, tree) in trees.iter().enumerate() {
        for p in &tree.paths {
            children[t][p[0]].push(paths.len() as u32);
            paths.push(p.as_slice());
        }
    }
    let mut tree_of = vec![0u32; compute.len() * c];
    for (r, &root) in compute.iter().enumerate() {
        let own: Vec<usize> = (0..trees.len()).filter(|&t| trees[t].root == root).collect();
        let weights: Vec<f64> = own.iter().map(|&t| trees[t].weight.to_f64().unwrap_or(0.0)).collect();
        for (k, t) in deal(&weights, c).into_iter().enumerate() {
            tree_of[r * c + k] = own[t] as u32;
        }
    }
    let mut choice = TreePieces {
        fabric,
        paths,
        children,
        tree_of,
        c,
        ready: vec![BinaryHeap::new(); fabric.links().len()],
        seq: 0,
    };
    for (r, &root) in compute.iter().enumerate() {
        for p in r * c..(r + 1) * c {
            choice.fan_out(root, p);
        }
    }
    simulate(fabric, ticks, c, &mut choice)
}

/// The best checked schedule of the event model for M = `bytes`: link-chunk matching (seeds 0
/// to 4) where the fabric has no switch, and the packing's tree pieces where one is given, each
/// over the chunk counts within the guards; the least simulated time wins, and only that
/// schedule goes through the checker, whose time is the answer.
pub fn best(fabric: &Fabric, packing: Option<&Packing>, bytes: u64) -> Result<EventAnswer, String> {
    let n = fabric.compute().len() as u64;
    let switchless = (0..fabric.len()).all(|v| fabric.is_compute(v));
    let hops = |p: &Packing| -> u64 {
        p.trees
            .iter()
            .filter(|t| t.phase == Phase::Allgather)
            .flat_map(|t| &t.paths)
            .map(|p| p.len() as u64 - 1)
            .sum()
    };
    // A symmetric packing stands for its images: expanded when they fit the guard.
    let plain: Option<Packing> = packing.and_then(|p| match p.symmetry {
        Some(_) => (hops(p).saturating_mul(n) <= MAX_TRANSFERS).then(|| expanded(p)),
        None => Some(p.clone()),
    });
    // Each family: its rules, and its chunk counts in increasing order.
    let mut families: Vec<(Vec<Rule>, Vec<u64>)> = Vec::new();
    if switchless {
        let links = fabric.links().len() as u64;
        let rules = [Order::Rarest, Order::Conditions]
            .into_iter()
            .flat_map(|order| SEEDS.map(|seed| Rule::LinkChunkMatching { order, seed }))
            .collect();
        let counts =
            (1..=8u64).take_while(|&c| n * n * n * c * c <= MAX_SCANS && n * links * c <= MAX_TRANSFERS);
        families.push((rules, counts.collect()));
    }
    if let Some(p) = &plain {
        let (counts, per_piece) = (std::iter::successors(Some(1u64), |c| Some((c * 3).div_ceil(2))), hops(p));
        families.push((
            vec![Rule::TreePieces],
            counts.take_while(|&c| per_piece * c <= MAX_TREE_TRANSFERS).collect(),
        ));
    }
    families.iter_mut().for_each(|(_, counts)| counts.retain(|&c| guard_holdings(n, c).is_ok()));
    if families.iter().all(|(_, counts)| counts.is_empty()) {
        return Err(if !switchless && plain.is_none() {
            "the event model's producers need a fabric without switches (link-chunk matching) or a packing of trees within the guard (tree pieces)".into()
        } else {
            format!(
                "no chunk count fits the event model's guards ({MAX_TRANSFERS} transfers, {} pieces held) on {n} ranks",
                crate::checker::events::MAX_HOLDINGS
            )
        });
    }
    let mut best: Option<(BigRational, Rule, EventSchedule)> = None;
    let mut count = 0;
    for (rules, counts) in &families {
        // A sweep stops after two chunk counts in a row whose best is over 2 % above the best.
        let mut behind = 0;
        for &c in counts {
            let timing = durations(fabric, bytes, c)?;
            let mut here: Option<BigRational> = None;
            for &rule in rules {
                let (schedule, ticks) = match rule {
                    Rule::LinkChunkMatching { order, seed } => {
                        link_chunk_matching(fabric, &timing.ticks, c as usize, order, seed)
                    }
                    Rule::TreePieces => {
                        let p = plain.as_ref().expect("the tree family exists only with a packing");
                        tree_pieces(fabric, p, &timing.ticks, c as usize)
                    }
                };
                count += 1;
                let time = timing.us(ticks);
                if here.as_ref().is_none_or(|h| time < *h) {
                    here = Some(time.clone());
                }
                if best.as_ref().is_none_or(|(t, ..)| time < *t) {
                    best = Some((time, rule, EventSchedule { bytes, ..schedule }));
                }
            }
            let lead = best.as_ref().map(|(t, ..)| t * BigRational::new(51.into(), 50.into()));
            behind = if here > lead { behind + 1 } else { 0 };
            if behind == 2 {
                break;
            }
        }
    }
    let (_, rule, schedule) = best.expect("at least one candidate");
    let measure = check_events(fabric, &schedule).map_err(|v| {
        format!("{}'s schedule failed the checker, a bug of the producer: {}", rule.name(), v.join("; "))
    })?;
    Ok(EventAnswer { schedule, measure, rule, candidates: count })
}

/// A lower bound on every schedule of the event model, µs: max((M/N)·τ* + α_min, α_min · D)
/// for the certified optimum τ* (s/GB per shard byte), the least link latency α_min and the
/// compute diameter D in links. Some link leaving the optimum's cut carries load; it is busy
/// for its latency on top of its bytes, so over the links S sends on, T · B ≥ α_min · B + the
/// bytes that must leave S, with B ≤ B⁺(S); and the farthest pair is D transfers apart.
pub fn lower_bound_us(fabric: &Fabric, tau: &BigRational, bytes: u64) -> f64 {
    let n = fabric.compute().len() as f64;
    let alpha = super::depth::least_latency(fabric);
    let diameter = super::depth::compute_diameter(fabric).unwrap_or(0) as f64;
    let bandwidth_us = bytes as f64 / n / 1e9 * tau.to_f64().unwrap_or(f64::NAN) * 1e6;
    (bandwidth_us + alpha).max(alpha * diameter)
}
