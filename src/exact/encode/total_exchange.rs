//! # Time-expanded total exchange (store-and-forward, move mode)
//!
//! Paper 004 (§2 model; claims TE-1, TE-2, TE-3, TE-13, TE-16, TE-21, TE-22 are the
//! optima this encoding certifies) under any port rule of SPEC §4.2 (paper 003 §1: F\*, H\*,
//! F1, H1), with packets of up to `p` tokens. Packets may take **any** route, not only the
//! atlas's shortest one.
//!
//! ## Formulation for a horizon T
//!
//! For every token m = m_s(d) (paper 004's notation; token id s·n + d), a unit flow in the
//! time-expanded network:
//!
//! - `x_m{s}_{d}_a{u}_{v}_t{t}` ∈ {0,1}: m crosses arc (u,v) in step t (1 ≤ t ≤ T);
//! - `w_m{s}_{d}_v{v}_t{t}` ∈ {0,1}: m waits at node v ≠ d during step t (it is at v at the
//!   end of steps t − 1 and t). m is consumed on reaching d, so d has no waits and no out-arcs.
//!
//! Constraints, for every m, node v ≠ d and time point τ = 0..=T (the end of step τ):
//!
//! - `at`: Σ_{(v,u)} x(v,u,τ+1) + w(v,τ+1) − Σ_{(u,v)} x(u,v,τ) − w(v,τ) = [v = s, τ = 0]:
//!   what is at v at the end of step τ either waits or leaves in step τ + 1 (terms of steps 0
//!   and T + 1 are absent). So a node sends only what it held at the end of the previous step
//!   (SPEC §4.2), and at τ = T nothing is left anywhere but at d. Summing the rows shows m
//!   crosses exactly one arc into d.
//!
//! Search guide (not a constraint, [`Goal::Guide`](crate::exact::ir::Goal::Guide)): minimise
//! the total waiting Σ w; any feasible point still answers the question.
//!
//! Per step, the port rule of [`PortRules`] over the x variables of each arc (shared with every
//! store-and-forward encoder, [`super::time_expanded`]).
//!
//! ## Pruning (valid: it keeps an optimal schedule)
//!
//! Every port rule only caps transmissions, so deleting transmissions keeps a schedule
//! admissible. If m visits a node twice, deleting the moves between the visits (m waits there
//! instead) keeps it admissible and delivers m no later. So some optimal schedule moves every
//! token along a **simple** path from s to d, and only such moves are encoded:
//!
//! - x(u,v,t) exists only if v ≠ s, u ≠ d, t ≥ 1 + dist_{G−{d,v}}(s,u) (the part of the path
//!   before the arc avoids d and v) and t ≤ T − dist_{G−{s,u}}(v,d) (the part after avoids s
//!   and u);
//! - m can be at v ≠ d at the end of step τ only if dist_{G−{d}}(s,v) ≤ τ ≤ T − dist_{G−{s}}(v,d)
//!   (v = s: τ ≤ T − dist(s,d)); w(v,t) exists only if that holds for τ = t − 1 and τ = t.
//!
//! Outside these windows the variable is the constant 0. On a linear array this leaves each
//! token its unique route; on a ring, the two directions.

use super::time_expanded::{PortRules, UNREACHABLE, Window, bfs, every_port_rule, span};
use super::{Encoder, EncoderEntry, Encoding, Event, Shape, Variant};
use crate::exact::BackendKind;
use crate::exact::ir::{Linear, Program, Sense, VarId};
use crate::spec::{Applicability, Instance, Mode, Model, Packet, PortRule, ProblemKind};
use std::cell::OnceCell;
use std::collections::HashMap;

/// The registry entry: total exchange under every port rule, any packet size, any network.
pub const ENTRY: EncoderEntry = EncoderEntry {
    name: "total-exchange",
    source: "004 §2 (TE-1, TE-2, TE-3, TE-13, TE-16, TE-21, TE-22), any port rule of 003 §1 (TE-23)",
    applicability: Applicability {
        problems: &[ProblemKind::TotalExchange],
        models: &every_port_rule(Mode::Move),
        families: &[],
        refine: None,
        model_note: "",
    },
    build: |instance| Box::new(TotalExchange::new(instance)),
    // `bench --exact`, ring:5 under H1 (T* = 15): certified by smt in 1.75 s, by sat in 5.49 s; ilp
    // stops at [15, -] after 20 s. The paper instances are settled by their bounds in < 0.01 s.
    backends: &[BackendKind::Smt, BackendKind::Sat, BackendKind::Ilp],
};

/// The pruning tables of one token: a window per arc (`None`: never used) and per node
/// (`None`: never held; always `None` at the destination).
#[derive(Debug, Clone)]
struct Windows {
    arcs: Vec<Option<Window>>,
    nodes: Vec<Option<Window>>,
}

/// The total-exchange encoder (see the module documentation).
pub struct TotalExchange<'a> {
    instance: &'a Instance,
    rule: PortRule,
    packet: usize,
    packets: Vec<Packet>,
    /// dist[u][v] in the whole network.
    dist: Vec<Vec<u64>>,
    windows: OnceCell<Vec<Windows>>,
}

impl<'a> TotalExchange<'a> {
    /// Prepares the encoder: all-pairs distances now, the pruning tables on first use.
    pub fn new(instance: &'a Instance) -> Self {
        let (rule, packet) = match instance.model {
            Model::StoreForward { rule, packet, .. } => (rule, packet),
            // Instance validation pairs total exchange with store-and-forward move mode.
            _ => (PortRule::FStar, 1),
        };
        let out = instance.network.out_neighbours();
        let dist = (0..instance.network.len()).map(|s| bfs(&out, s, &[])).collect();
        Self { instance, rule, packet, packets: instance.packets(), dist, windows: OnceCell::new() }
    }

    /// The instance's port rule.
    fn ports(&self) -> PortRules<'_> {
        PortRules::new(&self.instance.network, self.rule, self.packet)
    }

    fn windows(&self) -> &[Windows] {
        self.windows.get_or_init(|| {
            let net = &self.instance.network;
            let out = net.out_neighbours();
            let mut inn = vec![Vec::new(); net.len()];
            for &(u, v) in net.arcs() {
                inn[v].push(u);
            }
            self.packets
                .iter()
                .map(|&Packet { src: s, dst: d, .. }| {
                    // dist_{G-{d,v}}(s, ·) per v and dist_{G-{s,u}}(·, d) per u.
                    let from_s: Vec<Vec<u64>> = (0..net.len()).map(|v| bfs(&out, s, &[d, v])).collect();
                    let to_d: Vec<Vec<u64>> = (0..net.len()).map(|u| bfs(&inn, d, &[s, u])).collect();
                    let arcs = net
                        .arcs()
                        .iter()
                        .map(|&(u, v)| {
                            if v == s || u == d {
                                return None;
                            }
                            let after = if u == s { 0 } else { from_s[v][u] };
                            let before = if v == d { 0 } else { to_d[u][v] };
                            Window::new(after, before)
                        })
                        .collect();
                    let avoid_d = bfs(&out, s, &[d]);
                    let avoid_s = bfs(&inn, d, &[s]);
                    let nodes = (0..net.len())
                        .map(|v| match v {
                            _ if v == d => None,
                            _ if v == s => Window::new(0, self.dist[s][d]),
                            _ => Window::new(avoid_d[v], avoid_s[v]),
                        })
                        .collect();
                    Windows { arcs, nodes }
                })
                .collect()
        })
    }
}

impl Encoder for TotalExchange<'_> {
    fn impossible(&self) -> Option<String> {
        self.packets.iter().find(|p| self.dist[p.src][p.dst] == UNREACHABLE).map(|p| {
            format!(
                "packet m_{}({}) cannot reach node {} from node {} in {}",
                p.src, p.dst, p.dst, p.src, self.instance.network
            )
        })
    }

    fn min_variables(&self, horizon: u64, _: Variant) -> usize {
        // Every arc of one shortest path keeps a window of T − dist + 1 steps.
        self.packets
            .iter()
            .map(|p| {
                let d = self.dist[p.src][p.dst];
                d as usize * span(d, horizon)
            })
            .sum()
    }

    fn variables(&self, horizon: u64, _: Variant) -> usize {
        let windows = self.windows();
        let moves_and_places: usize = windows
            .iter()
            .map(|w| {
                let x: usize = w.arcs.iter().flatten().map(|a| a.move_count(horizon)).sum();
                let waits: usize = w.nodes.iter().flatten().map(|n| n.move_count(horizon)).sum();
                x + waits
            })
            .sum();
        // z variables (p > 1 under H*, F1, H1): one per arc and step that some token may use.
        let arc_use = if self.ports().needs_use_variables() {
            (0..self.instance.network.arcs().len())
                .map(|a| {
                    let mut used = vec![false; horizon as usize + 1];
                    for win in windows.iter().filter_map(|w| w.arcs[a]) {
                        for t in win.moves(horizon) {
                            used[t as usize] = true;
                        }
                    }
                    used.iter().filter(|&&u| u).count()
                })
                .sum()
        } else {
            0
        };
        moves_and_places + arc_use
    }

    /// The one model: no variants.
    fn encode(&self, horizon: u64, variant: Variant) -> Option<Encoding> {
        let Variant::Full = variant else { return None };
        let net = &self.instance.network;
        let arcs = net.arcs();
        let t_max = horizon as usize;
        let mut model = Program::new(format!(
            "total exchange on {} under {}, store-and-forward move mode, p = {}, horizon T = {horizon}",
            net, self.rule, self.packet
        ));
        let mut events = Vec::new();
        // on_arc[a][t]: the x variables of arc a in step t (index t = 1..=T).
        let mut on_arc: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); t_max + 1]; arcs.len()];
        let ports = self.ports();
        let (out_of, into) = (&ports.out_of, &ports.into);
        let mut waits = Vec::new();
        for (p, w) in self.packets.iter().zip(self.windows()) {
            let m = format!("m{}_{}", p.src, p.dst);
            let mut x: HashMap<(usize, usize), VarId> = HashMap::new();
            for (a, win) in w.arcs.iter().enumerate() {
                let Some(win) = win else { continue };
                let (u, v) = arcs[a];
                for t in win.moves(horizon) {
                    let var = model.bool_var(format!("x_{m}_a{u}_{v}_t{t}"));
                    x.insert((a, t as usize), var);
                    on_arc[a][t as usize].push(var);
                    events.push((var, Event::Hop { token: p.id, from: u, to: v, step: t }));
                }
            }
            let mut wait: HashMap<(usize, usize), VarId> = HashMap::new();
            for (v, win) in w.nodes.iter().enumerate() {
                let Some(win) = win else { continue };
                for t in win.moves(horizon) {
                    let var = model.bool_var(format!("w_{m}_v{v}_t{t}"));
                    wait.insert((v, t as usize), var);
                    waits.push(var);
                }
            }
            let moves = |arcs: &[usize], t: usize| -> Vec<VarId> {
                arcs.iter().filter_map(|&a| x.get(&(a, t)).copied()).collect()
            };
            for v in (0..net.len()).filter(|&v| v != p.dst) {
                for tau in 0..=t_max {
                    // What leaves or waits in step τ + 1 ...
                    let mut at = Linear::sum(&moves(&out_of[v], tau + 1));
                    // ... minus what arrived or waited in step τ.
                    for var in moves(&into[v], tau) {
                        at.add(-1, var);
                    }
                    for (t, sign) in [(tau + 1, 1), (tau, -1)] {
                        if let Some(&var) = wait.get(&(v, t)) {
                            at.add(sign, var);
                        }
                    }
                    let initial = i64::from(tau == 0 && v == p.src);
                    model.constrain(format!("at_{m}_v{v}_t{tau}"), &at, Sense::Eq, initial);
                }
            }
        }
        for t in 1..=t_max {
            ports.constrain(&mut model, &on_arc, t);
        }
        model.guide(&Linear::sum(&waits));
        Some(Encoding { horizon, model, shape: Shape::StoreForward, events })
    }

    /// Horizon-monotone: only the windows grow with T, and a shorter schedule keeps its
    /// simple paths (module documentation).
    fn last_step(&self, event: &Event) -> Option<u64> {
        match *event {
            Event::Hop { step, .. } => Some(step),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::time_expanded::shared_tests;
    use super::*;
    use crate::spec::{Mode, Problem};

    fn instance(net: &str, rule: PortRule, packet: usize) -> Instance {
        shared_tests::instance(net, Problem::TotalExchange(None), Mode::Move, rule, packet)
    }

    /// The size guard's counts are the built model's.
    #[test]
    fn variable_counts_match_the_model() {
        let nets = ["path:4", "ring:5", "mesh:2x3", "tree:0,0,1"];
        shared_tests::variable_counts_match_the_model(
            &ENTRY,
            (Problem::TotalExchange(None), Mode::Move),
            &nets,
            &[0, 3, 7],
        );
    }

    /// On a linear array only the unique route survives the pruning: m_0(2) on path(4) can
    /// cross (0,1) in steps 1..=T−1 and (1,2) in steps 2..=T, nothing else.
    #[test]
    fn a_linear_array_keeps_only_the_route() {
        let inst = instance("path:4", PortRule::FStar, 1);
        let enc = TotalExchange::new(&inst);
        let k = inst.packets().iter().position(|p| (p.src, p.dst) == (0, 2)).unwrap();
        let net = &inst.network;
        let alive: Vec<((usize, usize), Window)> = enc.windows()[k]
            .arcs
            .iter()
            .enumerate()
            .filter_map(|(a, w)| w.map(|w| (net.arcs()[a], w)))
            .collect();
        assert_eq!(
            alive,
            vec![((0, 1), Window { after: 0, before: 1 }), ((1, 2), Window { after: 1, before: 0 })]
        );
    }

    /// At a horizon shorter than some distance the model contains its own contradiction.
    #[test]
    fn a_horizon_below_the_distance_is_a_contradiction() {
        let inst = instance("path:4", PortRule::FStar, 1);
        let enc = TotalExchange::new(&inst);
        assert!(enc.encode(2, Variant::Full).unwrap().model.contradiction().is_some());
        assert!(enc.encode(3, Variant::Full).unwrap().model.contradiction().is_none());
    }
}
