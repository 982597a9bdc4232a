//! # Time-expanded store-and-forward machinery
//!
//! What every store-and-forward encoder shares (docs/spec.md §4.2; paper 003 §1 for the four port
//! rules, paper 004 §2 for F\*): the network unrolled over steps 1..=T, hop distances that avoid
//! given nodes (for the time windows that prune variables), and the per-step port rules over the
//! token-on-arc variables, with packets of up to p tokens.
//!
//! ## Time windows
//!
//! A [`Window`] says how many steps must pass before something can happen (`after`) and after it
//! (`before`): at horizon T a move may happen in steps `after + 1 ..= T − before`, and a token may
//! be held at the end of steps `after ..= T − before`. Encoders derive them from [`bfs`] distances.
//!
//! ## Holdings
//!
//! A [`Held`] is whether an item is at a node at the end of each step, as a 0/1 quantity over
//! the time points 0..=T that never decreases (copy mode: a node keeps what it receives). It is
//! the constant 0 before its window opens (`after`), the constant 1 from T − `before` on (the
//! item must be there by then), and a boolean `h…` variable in between; [`Held::record`]
//! ties its rises to the arrivals of each step.
//!
//! ## Port rules, per step t ([`PortRules::constrain`])
//!
//! With use(a) the number of packets on arc a (p = 1: the sum of its token variables; p > 1: a
//! boolean `z_a{u}_{v}_t{t}` with Σ tokens ≤ p·z, constraint `pack`):
//!
//! - F\*: `arc` Σ tokens(a) ≤ p for every arc (one packet of up to p tokens);
//! - H\*: `link` use(u,v) + use(v,u) ≤ 1 for every link (an arc without reverse: use ≤ 1);
//! - F1: `send` Σ_{out of v} use ≤ 1 and `recv` Σ_{into v} use ≤ 1 for every node;
//! - H1: `duplex` Σ_{out of v} use + Σ_{into v} use ≤ 1 for every node.
//!
//! ## Rotations of a grid
//!
//! [`Rotations`](crate::spec::network::grid::Rotations) is the group of rotations about the centre of a mesh or torus that map the
//! network onto itself: by 90° on a square grid, by 180° otherwise. An encoder may restrict a
//! model to the schedules these rotations map to themselves (gossip does, for witnesses: its
//! module documentation says why that is sound). A rotation that maps a link onto itself,
//! reversed, would forbid that link under H\* and H1 (both directions at once or neither) and
//! make a busy-every-step model infeasible at once, so such a group is not offered.

use crate::exact::ir::{Linear, Program, Sense, VarId};
use crate::spec::{Mode, ModelClass, Network, Node, PortRule};
use std::collections::VecDeque;

/// The model classes a store-and-forward encoder accepts: every port rule of paper 003 §1
/// (F*, H*, F1, H1, all handled by [`PortRules`]) in `mode`.
pub const fn every_port_rule(mode: Mode) -> [ModelClass; 4] {
    [
        ModelClass::StoreForward { rule: PortRule::FStar, mode },
        ModelClass::StoreForward { rule: PortRule::HStar, mode },
        ModelClass::StoreForward { rule: PortRule::F1, mode },
        ModelClass::StoreForward { rule: PortRule::H1, mode },
    ]
}

/// The distance of a node [`bfs`] cannot reach.
pub const UNREACHABLE: u64 = u64::MAX;

/// Breadth-first hop distances from `from` over `adj`, never entering a node of `avoid`.
pub fn bfs(adj: &[Vec<Node>], from: Node, avoid: &[Node]) -> Vec<u64> {
    let mut dist = vec![UNREACHABLE; adj.len()];
    dist[from] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(u) = queue.pop_front() {
        for &v in &adj[u] {
            if dist[v] == UNREACHABLE && !avoid.contains(&v) {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    dist
}

/// The steps in which something may happen (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Steps that must pass before it.
    pub after: u64,
    /// Steps that must remain after it.
    pub before: u64,
}

impl Window {
    /// A window, or `None` when either distance is [`UNREACHABLE`].
    pub fn new(after: u64, before: u64) -> Option<Self> {
        (after != UNREACHABLE && before != UNREACHABLE).then_some(Self { after, before })
    }

    /// The steps in which a move may happen at `horizon`.
    pub fn moves(self, horizon: u64) -> std::ops::RangeInclusive<u64> {
        self.after + 1..=horizon.saturating_sub(self.before)
    }

    /// How many steps [`Window::moves`] holds.
    pub fn move_count(self, horizon: u64) -> usize {
        span(self.after + 1, horizon.saturating_sub(self.before))
    }

    /// Whether something with this window fits in `horizon` steps at all (`after + before ≤ T`).
    pub fn fits(self, horizon: u64) -> bool {
        self.after.saturating_add(self.before) <= horizon
    }

    /// How many variables a [`Held`] with this window has at `horizon`: one per time point
    /// `after ..= T − before − 1`.
    pub fn held_count(self, horizon: u64) -> usize {
        match horizon.checked_sub(self.before + 1) {
            Some(last) => span(self.after, last),
            None => 0,
        }
    }
}

/// Whether an item is held at the end of each step τ = 0..=T, never decreasing (module
/// documentation, "Holdings"): 0 for τ < `after`, 1 for τ ≥ T − `before`, a boolean variable
/// for the time points in between.
#[derive(Debug, Clone)]
pub struct Held {
    window: Window,
    horizon: u64,
    /// The variables of time points `window.after ..`, in order.
    vars: Vec<VarId>,
}

impl Held {
    /// The holding of one item at one node at `horizon`, its variables named `name(τ)`. When the
    /// window does not fit (`after + before > T`) the holding is 0 before `after` and 1 from
    /// `after` on, and the caller must make the model infeasible.
    pub fn new(model: &mut Program, window: Window, horizon: u64, name: impl Fn(u64) -> String) -> Self {
        let count = window.held_count(horizon);
        let vars = (0..count as u64).map(|i| model.bool_var(name(window.after + i))).collect();
        Self { window, horizon, vars }
    }

    /// An item held from time point 0 on (at its origin): the constant 1, no variables.
    pub fn always(horizon: u64) -> Self {
        Self { window: Window { after: 0, before: 0 }, horizon, vars: Vec::new() }
    }

    /// The variable of time point τ, if it is not a constant.
    pub fn var(&self, tau: u64) -> Option<VarId> {
        let i = tau.checked_sub(self.window.after)?;
        self.vars.get(i as usize).copied()
    }

    /// The holding at the end of step τ as a linear expression (a constant or one variable).
    pub fn at(&self, tau: u64) -> Linear {
        let mut lin = Linear::new();
        match self.var(tau) {
            Some(v) => {
                lin.add(1, v);
            }
            None if tau >= self.window.after && tau <= self.horizon => {
                lin.add_constant(1);
            }
            None => {}
        }
        lin
    }

    /// `name`: held(τ) − held(τ − 1) = Σ `arrivals`, for a step τ ≥ 1: the item is held from the
    /// step of its only arrival on (an item that is held arrives no more, and one that is not
    /// held arrives at most once per step).
    pub fn record(&self, model: &mut Program, name: String, tau: u64, arrivals: &[VarId]) {
        let mut rise = self.at(tau);
        rise.add_scaled(-1, &self.at(tau - 1));
        for &v in arrivals {
            rise.add(-1, v);
        }
        model.constrain(name, &rise, Sense::Eq, 0);
    }
}

/// Steps `lo..=hi` as a count (0 when empty).
pub fn span(lo: u64, hi: u64) -> usize {
    if hi >= lo { (hi - lo + 1) as usize } else { 0 }
}

/// The port rule of a store-and-forward instance over its network's arcs.
#[derive(Debug, Clone)]
pub struct PortRules<'a> {
    net: &'a Network,
    rule: PortRule,
    packet: usize,
    /// Arc indices out of each node.
    pub out_of: Vec<Vec<usize>>,
    /// Arc indices into each node.
    pub into: Vec<Vec<usize>>,
}

impl<'a> PortRules<'a> {
    /// The rule `rule` with packets of up to `packet` tokens on `net`.
    pub fn new(net: &'a Network, rule: PortRule, packet: usize) -> Self {
        let n = net.len();
        let (mut out_of, mut into) = (vec![Vec::new(); n], vec![Vec::new(); n]);
        for (a, &(u, v)) in net.arcs().iter().enumerate() {
            out_of[u].push(a);
            into[v].push(a);
        }
        Self { net, rule, packet, out_of, into }
    }

    /// Whether the rule needs a packet-use boolean per arc and step (p > 1 under H\*, F1, H1).
    pub fn needs_use_variables(&self) -> bool {
        self.rule != PortRule::FStar && self.packet > 1
    }

    /// The channels of the rule: groups of arcs that together carry at most one packet per step,
    /// every arc in exactly one group, so that the network carries at most one packet per
    /// channel and step. F\*: every arc alone; H\*: the two arcs of a link, a one-way arc alone.
    /// `None` under F1 and H1, whose limits are per node, not per arc.
    pub fn channels(&self) -> Option<Vec<Vec<usize>>> {
        let arcs = self.net.arcs();
        match self.rule {
            PortRule::FStar => Some((0..arcs.len()).map(|a| vec![a]).collect()),
            PortRule::HStar => Some(
                arcs.iter()
                    .enumerate()
                    .filter_map(|(a, &(u, v))| match self.net.arc(v, u) {
                        Some(r) if r < a => None,
                        Some(r) => Some(vec![a, r]),
                        None => Some(vec![a]),
                    })
                    .collect(),
            ),
            PortRule::F1 | PortRule::H1 => None,
        }
    }

    /// The rule's constraints in step `t`, over `on_arc[a][t]` = the token variables of arc a in
    /// step t (see the module documentation).
    pub fn constrain(&self, model: &mut Program, on_arc: &[Vec<Vec<VarId>>], t: usize) {
        let arcs = self.net.arcs();
        if self.rule == PortRule::FStar {
            for (a, &(u, v)) in arcs.iter().enumerate() {
                let tokens = Linear::sum(&on_arc[a][t]);
                model.constrain(format!("arc_{u}_{v}_t{t}"), &tokens, Sense::Le, self.packet as i64);
            }
            return;
        }
        // uses[a]: the number of packets (0 or 1) on arc a in step t.
        let uses: Vec<Linear> = arcs
            .iter()
            .enumerate()
            .map(|(a, &(u, v))| {
                let tokens = Linear::sum(&on_arc[a][t]);
                if !self.needs_use_variables() || on_arc[a][t].is_empty() {
                    return tokens;
                }
                let z = model.bool_var(format!("z_a{u}_{v}_t{t}"));
                let mut pack = tokens;
                pack.add(-(self.packet as i64), z);
                model.constrain(format!("pack_{u}_{v}_t{t}"), &pack, Sense::Le, 0);
                Linear::sum(&[z])
            })
            .collect();
        let total = |arcs: &[usize]| {
            let mut lin = Linear::new();
            for &a in arcs {
                lin.add_all(&uses[a]);
            }
            lin
        };
        match self.rule {
            PortRule::HStar => {
                for (a, &(u, v)) in arcs.iter().enumerate() {
                    match self.net.arc(v, u) {
                        Some(r) if r < a => {} // the link was written with its first arc
                        Some(r) => {
                            model.constrain(format!("link_{u}_{v}_t{t}"), &total(&[a, r]), Sense::Le, 1)
                        }
                        None => model.constrain(format!("link_{u}_{v}_t{t}"), &total(&[a]), Sense::Le, 1),
                    }
                }
            }
            PortRule::F1 => {
                for v in 0..self.net.len() {
                    model.constrain(format!("send_v{v}_t{t}"), &total(&self.out_of[v]), Sense::Le, 1);
                    model.constrain(format!("recv_v{v}_t{t}"), &total(&self.into[v]), Sense::Le, 1);
                }
            }
            PortRule::H1 => {
                for v in 0..self.net.len() {
                    let both: Vec<usize> = self.out_of[v].iter().chain(&self.into[v]).copied().collect();
                    model.constrain(format!("duplex_v{v}_t{t}"), &total(&both), Sense::Le, 1);
                }
            }
            PortRule::FStar => {} // only the arc rule, written above
        }
    }
}

/// What the tests of the store-and-forward encoders share.
#[cfg(test)]
pub(super) mod shared_tests {
    use super::super::{EncoderEntry, Variant};
    use crate::spec::{Instance, Mode, Model, Network, PortRule, Problem, RingTie};

    /// `problem` on `net` in the store-and-forward model under `rule`, `mode`, packets of
    /// `packet` tokens.
    pub fn instance(net: &str, problem: Problem, mode: Mode, rule: PortRule, packet: usize) -> Instance {
        let model = Model::StoreForward { rule, mode, packet };
        Instance::new(net, Network::parse(net).unwrap(), problem, model, RingTie::Clockwise, "<test>")
            .unwrap()
    }

    /// The size guard's counts are the built model's, exact for `variables` and below for
    /// `min_variables`: for `entry`'s encoder of `problem` on each of `nets`, under every port
    /// rule, with packets of 1 and 2 tokens, at each of `horizons`.
    pub fn variable_counts_match_the_model(
        entry: &EncoderEntry,
        (problem, mode): (Problem, Mode),
        nets: &[&str],
        horizons: &[u64],
    ) {
        for net in nets {
            for rule in PortRule::ALL {
                for packet in [1, 2] {
                    let inst = instance(net, problem.clone(), mode, rule, packet);
                    let enc = (entry.build)(&inst);
                    for &t in horizons {
                        let at = format!("{net} {rule} p = {packet} T = {t}");
                        let built = enc.encode(t, Variant::Full).unwrap().model.variables.len();
                        assert_eq!(enc.variables(t, Variant::Full), built, "{at}");
                        assert!(enc.min_variables(t, Variant::Full) <= built, "{at}");
                    }
                }
            }
        }
    }
}
