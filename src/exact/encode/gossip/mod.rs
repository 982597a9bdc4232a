//! # Time-expanded gossip (store-and-forward, copy mode)
//!
//! Paper 003 (§1: the model, H\*, p = 1; §2 Lemmas 1 and 2 = GOS-1, GOS-2; §3.5 the 2×2 and
//! 3×3 optima GOS-16, GOS-17; §4.1 the ring optimum of GOS-19) under any port rule of SPEC
//! §4.2 (F\*, H\*, F1, H1), with packets of up to `p` tokens, on any network. Token k is the
//! value born at node k (the checker's copy-mode tokens); a sender keeps what it sends.
//!
//! ## Formulation for a horizon T
//!
//! For every token k, node v and step t (1 ≤ t ≤ T), time point τ = 0..=T (the end of step τ):
//!
//! - `x_k{k}_a{u}_{v}_t{t}` ∈ {0,1}: k crosses arc (u,v) in step t and v **first** holds k at
//!   the end of step t;
//! - `h_k{k}_v{v}_t{τ}` ∈ {0,1}: v holds k at the end of step τ (a [`Held`]: h(k,v,0) = [v = k],
//!   monotone, h(k,v,T) = 1: every node ends with every token).
//!
//! Constraints:
//!
//! - `got`: h(k,v,τ) − h(k,v,τ−1) = Σ_{arcs (u,v)} x(k,(u,v),τ) for v ≠ k, τ = 1..=T: v gets k
//!   exactly once, in the step its holding rises ([`Held::record`]);
//! - `hold`: x(k,(u,v),t) + Σ_{t' < t} x(k,(v,u),t') ≤ h(k,u,t−1) for u ≠ k: a node sends only
//!   what it held at the end of the previous step (SPEC §4.2; the origin always holds its
//!   token), and never to the node it got it from (that node holds it already: see "No
//!   duplicates"). The second term is 0 in every integer point of the plain `x ≤ h` form; it
//!   cuts the fractional points in which u and v lend each other halves of k;
//! - per step, the port rule of [`PortRules`] over the x variables of each arc (shared with every
//!   store-and-forward encoder, [`super::time_expanded`]).
//!
//! **No duplicates (valid: it keeps an optimal schedule).** Every port rule only caps what is
//! sent, so deleting a token from a packet (and an empty packet) keeps a schedule admissible.
//! Deleting every receipt of k at v but the first (one of them, if several arrive in that step)
//! leaves the step at which v first holds k unchanged, so every later send of k by v is still
//! allowed and every node still ends with every token: some optimal schedule delivers each
//! token to each node exactly once and never sends a token back to its origin. The model
//! encodes only such schedules: `got` is an equality and no x carries k into node k.
//!
//! Search guide (not a constraint): minimise Σ t·x = Σ over (k, v) of the step v gets k, i.e.
//! deliver early; any feasible point still answers the question. When every channel is busy in
//! every step (`busy` below) the guide is the same constant on every point and is left out (the
//! ILP backend then finds the 3×3 mesh's 6-step schedule about ten times sooner).
//!
//! ## Pruning (valid: it keeps every no-duplicate schedule)
//!
//! - **Distance.** v cannot hold k before step dist(k,v): h(k,v,τ) = 0 for τ < dist(k,v), and
//!   x(k,(u,v),t) exists only for t ≥ dist(k,u) + 1.
//! - **Separated tails.** If every path from k to w passes through v ≠ k (w is unreachable
//!   from k in G − v), the copy of k that reaches w passed v, so v held k at least dist(v,w)
//!   steps before w does, at the latest T − dist(v,w). With tail(k,v) = the largest such
//!   dist(v,w) (0 if v separates nothing from k), h(k,v,τ) = 1 for τ ≥ T − tail(k,v) and
//!   x(k,(u,v),t) exists only for t ≤ T − tail(k,v). On a path this leaves each token a
//!   window of dist + tail ≤ T steps per node; on a mesh or torus (no cut vertex) the tails
//!   are 0.
//!
//! Outside these windows the variable is the constant 0 (x) or 0/1 (h). A pair (k, v) whose
//! window does not fit (dist(k,v) + tail(k,v) > T) makes the model a contradiction.
//!
//! ## Completing a prefix (a restriction: witnesses only)
//!
//! With `solve --steps S --complete SCHEDULE --keep K` ([`Encoding::keep`]) the model is built
//! from the state the first K steps leave ([`Encoder::start_after`]): a pair (k, v) those steps
//! deliver has its holding fixed from the step of its first delivery, and a single hop
//! variable, that delivery's, which `keep` fixes to 1; every other pair (k, v) is held from
//! step K + 1 at the earliest, and its hops start after step K. So besides one variable per
//! delivery of the prefix the model has variables only for the pairs still missing and the
//! steps left: keeping urgent-orbits' first 88 steps of the 13×13 mesh at T = 91 takes 40k
//! variables, where the full model has 11M. The pairs a prefix delivers a second time, or to their own origin, get no variable,
//! and `keep` refuses such a prefix. The separation tails still apply to the pairs left.
//!
//! ## Strengthening (sound cuts, implied by the integer model; they tighten search and
//! propagation)
//!
//! - **`recv` (counting cut per node).** Every node v gets each of the other n − 1 tokens
//!   exactly once (`got` telescoped from h(k,v,0) = 0 to h(k,v,T) = 1), so Σ_{k ≠ v, arcs into
//!   v, t} x(k,(u,v),t) = n − 1. After a kept prefix the sum runs over the steps after K and
//!   counts the pairs still missing at v (the prefix's hops are fixed, and a cardinality
//!   constraint over them would only grow the CNF).
//! - **`count`, `idle` and `busy` (counting cuts per step).** Under F\* and H\* a channel of
//!   [`PortRules::channels`] (an arc under F\*, a link under H\*) carries one packet, at most p
//!   tokens, per step, so the network carries at most C·p tokens per step, C = the number of
//!   channels. The no-duplicate schedules make exactly n(n − 1) receipts, one token on one
//!   channel in one step each, so s = C·p·T − n(n − 1) token slots stay unused. If s < 0 the
//!   model is a contradiction (`count`: the total-load bound, GOS-1 and GOS-2 under H\*,
//!   p = 1); otherwise every step carries at least C·p − s tokens (`idle`, written when
//!   C·p > s), and when the horizon meets the counting bound exactly (s = 0, as for the 2×2
//!   mesh, the even tori under H\* and the rings under H\*) every channel carries p tokens in
//!   every step (`busy`). Under F1 and H1 a step's limit is a matching, not a channel count: no
//!   such cut is written.
//!
//! ## Symmetric witnesses (a restriction: witnesses only)
//!
//! On a mesh or torus, the restricted model ([`Variant::Restricted`]) keeps the schedules that
//! send every token along shortest paths and that the grid's rotations map to themselves:
//! [`symmetric`] says why its answers are schedules of the instance and what it gains.

pub mod symmetric;

use super::time_expanded::{Held, PortRules, UNREACHABLE, Window, bfs, every_port_rule, span};
use super::{Encoder, EncoderEntry, Encoding, Event, Prefix, Shape, Variant, Variants};
use crate::exact::BackendKind;
use crate::exact::ir::{Linear, Program, Sense, VarId};
use crate::spec::network::grid::Rotations;
use crate::spec::{Applicability, Family, Instance, Mode, Model, PortRule, ProblemKind};
use std::cell::OnceCell;
use std::collections::HashMap;

/// The registry entry: gossip under every port rule, any packet size, any network.
pub const ENTRY: EncoderEntry = EncoderEntry {
    name: "gossip",
    source: "003 §1 (H*, p = 1; GOS-1, GOS-2, GOS-16, GOS-17, GOS-19), any port rule of 003 §1, any p",
    applicability: Applicability {
        problems: &[ProblemKind::Gossip],
        models: &every_port_rule(Mode::Copy),
        families: &[],
        refine: None,
        model_note: "",
    },
    build: |instance| Box::new(Gossip::new(instance)),
    // `bench --exact`, mesh4 under H* (T* = 10): certified by smt in 1.04 s, by sat in 1.55 s; ilp
    // stops at [10, -] after 20 s (its witness at T* times out; torus4: smt 1.05 s, sat 6.39 s).
    backends: &[BackendKind::Smt, BackendKind::Sat, BackendKind::Ilp],
};

/// The gossip encoder (see the module documentation).
pub struct Gossip<'a> {
    instance: &'a Instance,
    rule: PortRule,
    packet: usize,
    /// dist[k][v]: hops from k to v.
    dist: Vec<Vec<u64>>,
    /// What each node separates from each token, on first use.
    tables: OnceCell<Separation>,
    /// Whether a grid without [`Rotations`] still gets the restricted model, shortest routes
    /// only: on a mesh or torus under F\* or H\* (module documentation, "Without rotations").
    shortest_only: bool,
    /// The grid's rotations, for symmetric witnesses (none with packet variables, which stand
    /// for no token).
    rotations: Option<Rotations>,
    /// The state after a kept prefix, once [`Encoder::start_after`] is called.
    start: Option<Start>,
}

/// What a node v separates from a token k: the nodes w ≠ v that k reaches only through v
/// (unreachable from k in G − v), and the tail of (k, v), the largest dist(v, w) over them
/// (module documentation, "Pruning").
#[derive(Debug, Clone)]
struct Separation {
    /// tail[k][v], 0 for v = k.
    tail: Vec<Vec<u64>>,
    /// behind[k][v]: the nodes v separates from k, increasing (empty for v = k).
    behind: Vec<Vec<Vec<usize>>>,
}

impl<'a> Gossip<'a> {
    /// Prepares the encoder: all-pairs distances now, the separation tables on first use.
    pub fn new(instance: &'a Instance) -> Self {
        let (rule, packet) = match instance.model {
            Model::StoreForward { rule, packet, .. } => (rule, packet),
            // Instance validation pairs gossip with store-and-forward copy mode.
            _ => (PortRule::FStar, 1),
        };
        let out = instance.network.out_neighbours();
        let dist = (0..instance.network.len()).map(|k| bfs(&out, k, &[])).collect();
        let ports = PortRules::new(&instance.network, rule, packet);
        let rotations = if ports.needs_use_variables() { None } else { Rotations::of(&instance.network) };
        let shortest_only = matches!(instance.network.family(), Family::Mesh(..) | Family::Torus(..))
            && ports.channels().is_some();
        Self { instance, rule, packet, dist, tables: OnceCell::new(), shortest_only, rotations, start: None }
    }

    fn n(&self) -> usize {
        self.instance.network.len()
    }

    fn ports(&self) -> PortRules<'_> {
        PortRules::new(&self.instance.network, self.rule, self.packet)
    }

    fn tables(&self) -> &Separation {
        self.tables.get_or_init(|| {
            let n = self.n();
            let out = self.instance.network.out_neighbours();
            let mut tail = vec![vec![0; n]; n];
            let mut behind = vec![vec![Vec::new(); n]; n];
            for k in 0..n {
                for v in (0..n).filter(|&v| v != k) {
                    let reach = bfs(&out, k, &[v]);
                    let cut: Vec<usize> = (0..n)
                        .filter(|&w| w != v && reach[w] == UNREACHABLE && self.dist[k][w] != UNREACHABLE)
                        .collect();
                    tail[k][v] = cut.iter().map(|&w| self.dist[v][w]).max().unwrap_or(0);
                    behind[k][v] = cut;
                }
            }
            Separation { tail, behind }
        })
    }

    fn tails(&self) -> &[Vec<u64>] {
        &self.tables().tail
    }

    /// When node v ≠ k can first hold k at `horizon`: `None` if never. After a kept prefix
    /// (module documentation, "Completing a prefix") a pair it delivers is held from the step
    /// of that delivery on, and any other pair not before step K + 1.
    fn receive_window(&self, k: usize, v: usize, horizon: u64) -> Option<Window> {
        let after = self.dist[k][v];
        match &self.start {
            None => Window::new(after, self.tails()[k][v]),
            Some(start) => match start.got.get(&(k, v)) {
                Some(&(step, _)) => Some(Window { after: step, before: horizon.saturating_sub(step) }),
                None => Window::new(after.max(start.keep + 1), self.tails()[k][v]),
            },
        }
    }

    /// When k can cross arc (u,v) (v ≠ k) as v's first copy at `horizon`: `None` if never, or
    /// if `routes` keeps shortest paths only and the arc does not lead away from k. After a
    /// kept prefix a pair it delivers crosses only its own arc in its own step, and any other
    /// pair crosses after step K.
    fn arc_window(&self, k: usize, (u, v): (usize, usize), routes: Routes, horizon: u64) -> Option<Window> {
        if v == k || self.tables().behind[k][v].binary_search(&u).is_ok() {
            return None;
        }
        if routes == Routes::Shortest && self.dist[k][v] != self.dist[k][u] + 1 {
            return None;
        }
        let after = self.dist[k][u];
        match &self.start {
            None => Window::new(after, self.tails()[k][v]),
            Some(start) => match start.got.get(&(k, v)) {
                Some(&(step, from)) => {
                    (from == u).then_some(Window { after: step - 1, before: horizon.saturating_sub(step) })
                }
                None => Window::new(after.max(start.keep), self.tails()[k][v]),
            },
        }
    }
}

/// What a kept prefix leaves (module documentation, "Completing a prefix"): K, and for each
/// pair (token, node) the prefix delivers, the step and the sender of its first delivery.
#[derive(Debug, Clone)]
struct Start {
    keep: u64,
    got: HashMap<(usize, usize), (u64, usize)>,
}

impl Encoder for Gossip<'_> {
    fn impossible(&self) -> Option<String> {
        let n = self.n();
        (0..n).flat_map(|k| (0..n).map(move |v| (k, v))).find(|&(k, v)| self.dist[k][v] == UNREACHABLE).map(
            |(k, v)| format!("token {k} cannot reach node {v} from node {k} in {}", self.instance.network),
        )
    }

    /// One variable per orbit of the rotations in the restricted model.
    fn min_variables(&self, horizon: u64, variant: Variant) -> usize {
        if self.start.is_some() {
            return self.variables(horizon, variant);
        }
        // Every pair (k, v ≠ k) keeps the arc into v on a shortest path from k, in steps
        // dist(k,v) ..= T − tail(k,v), and tail(k,v) is at most v's eccentricity.
        let n = self.n();
        let reachable = |d: &u64| *d != UNREACHABLE;
        let ecc: Vec<u64> =
            self.dist.iter().map(|row| row.iter().copied().filter(reachable).max().unwrap_or(0)).collect();
        let full: usize = (0..n)
            .flat_map(|k| (0..n).filter(move |&v| v != k).map(move |v| (k, v)))
            .map(|(k, v)| {
                let d = self.dist[k][v];
                if d == UNREACHABLE { 0 } else { span(d, horizon.saturating_sub(ecc[v])) }
            })
            .sum();
        full / self.orbit(variant)
    }

    /// One variable per orbit of the rotations, shortest routes only, in the restricted model.
    fn variables(&self, horizon: u64, variant: Variant) -> usize {
        let routes = if variant == Variant::Restricted { Routes::Shortest } else { Routes::Any };
        self.count_variables(horizon, routes) / self.orbit(variant)
    }

    /// The full model, or the restricted one: shortest routes only, and each variable
    /// identified with its images under the grid's rotations if it has any (module
    /// documentation, "Symmetric witnesses").
    fn encode(&self, horizon: u64, variant: Variant) -> Option<Encoding> {
        match variant {
            Variant::Full => Some(self.build(horizon, Routes::Any).0),
            Variant::Restricted => self.restricted(horizon),
            Variant::Relaxed(_) => None,
        }
    }

    /// Horizon-monotone only without the per-step counting cuts (under F1 and H1): `idle` and
    /// `busy` ask every step up to T to carry tokens, which a shorter schedule does not.
    fn last_step(&self, event: &Event) -> Option<u64> {
        match *event {
            Event::Hop { step, .. } if self.ports().channels().is_none() => Some(step),
            _ => None,
        }
    }

    fn variants(&self) -> Variants {
        Variants { restricted: self.restriction(), relaxed: &[] }
    }

    /// Records each pair's first delivery in the prefix's first K steps (module documentation,
    /// "Completing a prefix"); a second delivery gets no variable, so `keep` refuses it.
    fn start_after(&mut self, prefix: &Prefix) {
        let mut got = HashMap::new();
        for (step, transmissions) in (1..=prefix.keep).zip(&prefix.steps) {
            for tr in transmissions {
                for &token in tr.tokens.iter().filter(|&&t| t != tr.to) {
                    got.entry((token, tr.to)).or_insert((step, tr.from));
                }
            }
        }
        self.start = Some(Start { keep: prefix.keep, got });
    }
}

/// Which routes the model lets a token take (module documentation, "Symmetric witnesses").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Routes {
    /// Any walk: the instance's own model.
    Any,
    /// Shortest paths only: every hop takes the token one step farther from its origin.
    Shortest,
}

impl Gossip<'_> {
    /// The variables of the model at `horizon` whose tokens take `routes`.
    fn count_variables(&self, horizon: u64, routes: Routes) -> usize {
        let n = self.n();
        let arcs = self.instance.network.arcs();
        let mut used = vec![vec![false; horizon as usize + 1]; arcs.len()];
        let mut count = 0;
        for k in 0..n {
            count += (0..n)
                .filter(|&v| v != k)
                .filter_map(|v| self.receive_window(k, v, horizon))
                .map(|w| w.held_count(horizon))
                .sum::<usize>();
            for (a, &arc) in arcs.iter().enumerate() {
                if let Some(w) = self.arc_window(k, arc, routes, horizon) {
                    count += w.move_count(horizon);
                    for t in w.moves(horizon) {
                        used[a][t as usize] = true;
                    }
                }
            }
        }
        if self.ports().needs_use_variables() {
            count += used.iter().flatten().filter(|&&u| u).count();
        }
        count
    }

    /// The model at `horizon`, its tokens taking `routes`, and its holding variables
    /// `(var, token, node, τ)`.
    fn build(&self, horizon: u64, routes: Routes) -> (Encoding, Vec<(VarId, usize, usize, u64)>) {
        let net = &self.instance.network;
        let (n, arcs, t_max) = (self.n(), net.arcs(), horizon as usize);
        let mut model = Program::new(format!(
            "gossip on {net} under {}, store-and-forward copy mode, p = {}, horizon T = {horizon}",
            self.rule, self.packet
        ));
        let mut events = Vec::new();
        let mut held_vars = Vec::new();
        let mut guide = Linear::new();
        // on_arc[a][t]: the x variables of arc a in step t (index t = 1..=T).
        let mut on_arc: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); t_max + 1]; arcs.len()];
        // received[v]: every x variable into v after a kept prefix (all of them without one),
        // and kept[v]: the pairs the prefix delivers to v.
        let mut received: Vec<Vec<VarId>> = vec![Vec::new(); n];
        let mut kept = vec![0i64; n];
        let first = self.start.as_ref().map_or(1, |start| start.keep + 1);
        for k in 0..n {
            let held: Vec<Held> = (0..n)
                .map(|v| {
                    if v == k {
                        return Held::always(horizon);
                    }
                    let window = self.receive_window(k, v, horizon).filter(|w| w.fits(horizon));
                    let window = window.unwrap_or_else(|| {
                        // k cannot be at v by T: the model is a contradiction.
                        model.constrain(format!("reach_k{k}_v{v}"), &Linear::new(), Sense::Eq, 1);
                        Window { after: horizon + 1, before: 0 }
                    });
                    Held::new(&mut model, window, horizon, |tau| format!("h_k{k}_v{v}_t{tau}"))
                })
                .collect();
            for (v, h) in held.iter().enumerate() {
                held_vars.extend((0..=horizon).filter_map(|tau| h.var(tau).map(|var| (var, k, v, tau))));
            }
            // arrivals[v][t]: the x variables bringing k to v in step t; xs[a][t]: k on arc a.
            let mut arrivals: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); t_max + 1]; n];
            let mut xs: Vec<Vec<Option<VarId>>> = vec![vec![None; t_max + 1]; arcs.len()];
            for (a, &(u, v)) in arcs.iter().enumerate() {
                let Some(window) = self.arc_window(k, (u, v), routes, horizon) else { continue };
                for t in window.moves(horizon) {
                    let x = model.bool_var(format!("x_k{k}_a{u}_{v}_t{t}"));
                    xs[a][t as usize] = Some(x);
                    on_arc[a][t as usize].push(x);
                    arrivals[v][t as usize].push(x);
                    if t >= first {
                        received[v].push(x);
                    } else {
                        kept[v] += 1;
                    }
                    events.push((x, Event::Hop { token: k, from: u, to: v, step: t }));
                    guide.add(t as i64, x);
                }
            }
            for (a, &(u, v)) in arcs.iter().enumerate().filter(|&(_, &(u, _))| u != k) {
                let back = net.arc(v, u);
                for t in 1..=t_max {
                    let Some(x) = xs[a][t] else { continue };
                    // x + Σ_{t' < t} x(k,(v,u),t') ≤ h(k,u,t−1): u holds k, got it not from v.
                    let mut hold = Linear::sum(&[x]);
                    if let Some(b) = back {
                        for y in xs[b][..t].iter().flatten() {
                            hold.add(1, *y);
                        }
                    }
                    hold.add_scaled(-1, &held[u].at(t as u64 - 1));
                    model.constrain(format!("hold_k{k}_a{u}_{v}_t{t}"), &hold, Sense::Le, 0);
                }
            }
            for v in (0..n).filter(|&v| v != k) {
                for tau in 1..=horizon {
                    held[v].record(
                        &mut model,
                        format!("got_k{k}_v{v}_t{tau}"),
                        tau,
                        &arrivals[v][tau as usize],
                    );
                }
            }
        }
        for (v, xs) in received.iter().enumerate() {
            model.constrain(format!("recv_v{v}"), &Linear::sum(xs), Sense::Eq, n as i64 - 1 - kept[v]);
        }
        let ports = self.ports();
        for t in 1..=t_max {
            ports.constrain(&mut model, &on_arc, t);
        }
        // Whether every channel is busy in every step (then the guide is constant: left out).
        let mut busy = false;
        if let Some(channels) = self.ports().channels() {
            // Tokens per step: p per channel; s = the idle token slots of the whole schedule.
            let p = self.packet as i64;
            let per_step = channels.len() as i64 * p;
            let slack = per_step * horizon as i64 - (n * n.saturating_sub(1)) as i64;
            if slack < 0 {
                model.constrain("count", &Linear::new(), Sense::Eq, 1);
            }
            for t in 1..=horizon {
                let carried = |group: &[usize]| -> Vec<VarId> {
                    group.iter().flat_map(|&a| on_arc[a][t as usize].iter().copied()).collect()
                };
                if slack == 0 {
                    busy = true;
                    for group in &channels {
                        let (u, v) = arcs[group[0]];
                        let tokens = Linear::sum(&carried(group));
                        model.constrain(format!("busy_{u}_{v}_t{t}"), &tokens, Sense::Ge, p);
                    }
                } else if slack > 0 && per_step > slack {
                    let all: Vec<VarId> = channels.iter().flat_map(|g| carried(g)).collect();
                    model.constrain(format!("idle_t{t}"), &Linear::sum(&all), Sense::Ge, per_step - slack);
                }
            }
        }
        if !busy {
            model.guide(&guide);
        }
        (Encoding { horizon, model, shape: Shape::StoreForward, events }, held_vars)
    }
}

#[cfg(test)]
mod tests {
    use super::super::time_expanded::shared_tests;
    use super::*;
    use crate::spec::Problem;

    fn instance(net: &str, rule: PortRule, packet: usize) -> Instance {
        shared_tests::instance(net, Problem::Gossip, Mode::Copy, rule, packet)
    }

    /// The size guard's counts are the built model's.
    #[test]
    fn variable_counts_match_the_model() {
        let nets = ["path:4", "ring:5", "mesh:2x3", "tree:0,0,1", "uring:4"];
        shared_tests::variable_counts_match_the_model(
            &ENTRY,
            (Problem::Gossip, Mode::Copy),
            &nets,
            &[0, 2, 3, 7],
        );
    }

    /// The events of a model, in order.
    fn hops(e: &Encoding) -> Vec<Event> {
        e.events.iter().map(|&(_, event)| event).collect()
    }

    /// Whether `event` is a hop that takes its token one step farther from its origin.
    fn leads_away(enc: &Gossip, event: &Event) -> bool {
        let Event::Hop { token, from, to, .. } = *event else { return false };
        enc.dist[token][to] == enc.dist[token][from] + 1
    }

    /// The symmetric model of the 4×4 mesh (90° rotations) has one variable per orbit of the
    /// shortest-route model: a quarter of its variables (no variable is its own image, as no
    /// node is), and fewer constraints than the full model. Every hop it keeps leads away from
    /// the token's origin, and it keeps every such hop of the full model. Off grids, and with
    /// packet variables, there is none.
    #[test]
    fn the_symmetric_model_has_a_variable_per_orbit() {
        let inst = instance("mesh:4x4", PortRule::HStar, 1);
        let enc = Gossip::new(&inst);
        assert_eq!(
            enc.variants().restricted.unwrap(),
            "schedules invariant under the 4 rotations by 90° of mesh:4x4 that send every token along \
             shortest paths"
        );
        let (full, restricted) =
            (enc.encode(10, Variant::Full).unwrap(), enc.encode(10, Variant::Restricted).unwrap());
        let (shortest, _) = enc.build(10, Routes::Shortest);
        assert_eq!(enc.variables(10, Variant::Restricted), restricted.model.variables.len());
        assert_eq!(enc.count_variables(10, Routes::Shortest), shortest.model.variables.len());
        assert_eq!(shortest.model.variables.len(), 4 * restricted.model.variables.len());
        assert!(shortest.model.variables.len() < full.model.variables.len());
        assert!(restricted.model.constraints.len() < full.model.constraints.len());
        let away = |event: &Event| leads_away(&enc, event);
        assert!(hops(&restricted).iter().all(away), "only hops away from the origin");
        assert_eq!(hops(&restricted), hops(&full).into_iter().filter(away).collect::<Vec<_>>());
        assert!(
            restricted.model.description.ends_with("of mesh:4x4 that send every token along shortest paths")
        );
        for (net, rule, packet) in [("path:4", PortRule::HStar, 1), ("mesh:3x3", PortRule::H1, 2)] {
            let inst = instance(net, rule, packet);
            assert_eq!(
                Gossip::new(&inst).encode(5, Variant::Restricted).map(|e| e.horizon),
                None,
                "{net} {rule} p = {packet}"
            );
        }
    }

    /// A mesh with one odd side has no rotation that keeps every link's direction, so under H\*
    /// its restricted model is the full model with shortest routes only: the same hops away
    /// from each origin, nothing identified. Under F1 (no channel count) it has none.
    #[test]
    fn a_grid_without_rotations_keeps_shortest_routes_only() {
        let inst = instance("mesh:3x4", PortRule::HStar, 1);
        let enc = Gossip::new(&inst);
        assert!(enc.rotations.is_none());
        assert_eq!(
            enc.variants().restricted.unwrap(),
            "schedules that send every token along shortest paths"
        );
        let (full, restricted) =
            (enc.encode(8, Variant::Full).unwrap(), enc.encode(8, Variant::Restricted).unwrap());
        assert_eq!(enc.variables(8, Variant::Restricted), restricted.model.variables.len());
        assert!(restricted.model.variables.len() < full.model.variables.len());
        let away = |event: &Event| leads_away(&enc, event);
        assert_eq!(hops(&restricted), hops(&full).into_iter().filter(away).collect::<Vec<_>>());
        assert!(
            restricted
                .model
                .description
                .ends_with(", restricted to schedules that send every token along shortest paths")
        );
        let f1 = instance("mesh:3x4", PortRule::F1, 1);
        assert_eq!(Gossip::new(&f1).variants().restricted, None);
    }

    /// On path(4), node 1 separates nodes 2 and 3 from token 0: it must hold token 0 two steps
    /// before the end, and token 3 only at the end (it separates node 0, one hop away, from it).
    #[test]
    fn separated_tails_on_a_path() {
        let inst = instance("path:4", PortRule::HStar, 1);
        let enc = Gossip::new(&inst);
        assert_eq!(enc.tails()[0], vec![0, 2, 1, 0]);
        assert_eq!(enc.tails()[3], vec![0, 1, 2, 0]);
        assert_eq!(enc.receive_window(0, 1, 5), Some(Window { after: 1, before: 2 }));
        // Token 0 crosses (0,1) in steps 1..=T−2 only.
        assert_eq!(enc.arc_window(0, (0, 1), Routes::Any, 5).unwrap().moves(5), 1..=3);
        assert_eq!(enc.arc_window(0, (1, 0), Routes::Any, 5), None);
        // A ring has no cut vertex: no tails.
        let ring = instance("ring:5", PortRule::HStar, 1);
        assert!(Gossip::new(&ring).tails().iter().flatten().all(|&t| t == 0));
    }

    /// Below the diameter, or when some pair's window does not fit, the model contains its own
    /// contradiction; at the optimum it does not.
    #[test]
    fn a_horizon_below_the_windows_is_a_contradiction() {
        let inst = instance("path:4", PortRule::FStar, 1);
        let enc = Gossip::new(&inst);
        assert!(enc.encode(2, Variant::Full).unwrap().model.contradiction().is_some());
        assert!(enc.encode(3, Variant::Full).unwrap().model.contradiction().is_none());
    }

    /// When the horizon meets the counting bound (2×2 mesh under H*: 4 links, 12 receipts,
    /// T = 3) every link is busy in every step; one step more leaves 4 idle link-steps.
    #[test]
    fn busy_links_at_the_counting_bound() {
        let inst = instance("mesh:2x2", PortRule::HStar, 1);
        let enc = Gossip::new(&inst);
        let names = |t: u64| -> Vec<String> {
            enc.encode(t, Variant::Full)
                .unwrap()
                .model
                .constraints
                .iter()
                .map(|c| c.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(3).iter().filter(|c| c.starts_with("busy_")).count(), 4 * 3);
        let four = names(4);
        assert!(four.iter().all(|c| !c.starts_with("busy_")));
        assert!(four.iter().filter(|c| c.starts_with("idle_")).count() == 0, "4 − 4 idle: no cut");
        // F1 has no channel cut.
        let f1 = instance("mesh:2x2", PortRule::F1, 1);
        let enc = Gossip::new(&f1);
        assert!(
            enc.encode(3, Variant::Full)
                .unwrap()
                .model
                .constraints
                .iter()
                .all(|c| !c.name.starts_with("busy_"))
        );
    }

    /// After a kept prefix (module documentation, "Completing a prefix") the model has one
    /// variable per delivery of the prefix and the rest for the pairs still missing: the size
    /// guard's count is the built model's, far below the full model's, and keeping the whole of
    /// an optimal schedule leaves exactly its n(n − 1) deliveries, no holding variable.
    #[test]
    fn a_kept_prefix_leaves_variables_for_the_missing_pairs_only() {
        let inst = instance("mesh:4x4", PortRule::HStar, 1);
        let crate::spec::Schedule::StoreForward(steps) =
            crate::heuristics::gossip::urgent_orbits::urgent_orbits(&inst).unwrap()
        else {
            panic!("urgent-orbits gives a store-and-forward schedule")
        };
        assert_eq!(steps.len(), 10, "Lemma 1 on the 4×4 mesh");
        let full = Gossip::new(&inst).variables(10, Variant::Full);
        for (keep, at_most) in [(4, full / 2), (7, full / 4), (10, 16 * 15)] {
            let prefix = Prefix { steps: steps.clone(), keep, source: "p.json".into() };
            let mut enc = Gossip::new(&inst);
            enc.start_after(&prefix);
            let mut built = enc.encode(10, Variant::Full).unwrap();
            let count = built.model.variables.len();
            assert_eq!(enc.variables(10, Variant::Full), count, "keep {keep}");
            assert!(count <= at_most, "keep {keep}: {count} variables, the full model {full}");
            built.keep(&prefix).unwrap();
            let late =
                hops(&built).iter().filter(|e| matches!(e, Event::Hop { step, .. } if *step > keep)).count();
            assert_eq!(late > 0, keep < 10, "keep {keep}");
            if keep == 10 {
                assert_eq!(count, 16 * 15);
            }
        }
        assert!(Gossip::new(&inst).variants().restricted.is_some());
        let mut enc = Gossip::new(&inst);
        enc.start_after(&Prefix { steps, keep: 4, source: "p.json".into() });
        assert_eq!(enc.variants().restricted, None, "a kept prefix is not rotation-invariant in general");
    }
}
