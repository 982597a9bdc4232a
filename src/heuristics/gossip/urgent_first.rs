//! # Urgent-first gossip (ours, not paper 003's)
//!
//! A list schedule for gossip in copy mode on any strongly connected network, under every port
//! rule of SPEC §4.2 and any packet size p. Step by step, it hands the step's transmissions to
//! the most *urgent* (token, receiver) pairs first. The urgency of sending token t from u to v
//! adds up estimates, in steps, read off the state at the end of the previous step:
//!
//! - the token's **reach**: the hop distance from the nodes that hold t to the farthest node
//!   that does not (t cannot be everywhere sooner);
//! - the receiver's **load**: the tokens v still lacks over the tokens it can receive in one
//!   step (its in-arcs under the all-port rules, one under the one-port rules, times p), a
//!   lower bound on the steps v still needs;
//! - minus the sender's load under the half-duplex rules (H\*, H1), where a send takes a port
//!   that u could have received on (under F\* and F1 sending costs u nothing);
//! - plus half the **relay** value: the largest excess load, over v's own, of another
//!   neighbour of v that lacks t, which v can pass t on to. Without it a node whose neighbours
//!   hold nothing new for it (a mesh corner late in the schedule) starves;
//! - plus half the token's **backlog**: the fraction of the nodes that still lack t times the
//!   largest load (a lower bound on the steps left). Without it a token that few nodes hold,
//!   a mesh corner's own above all (its neighbours always have something for the corner, whose
//!   load is the largest), waits until the end and then jams it.
//!
//! The step is filled greedily: the arc whose best pair is the most urgent goes first, then
//! the next arc that the port rule still allows, and so on; a receiver never gets a token it
//! holds, or one that another arc brings it in the same step (no duplicates). With p > 1 an
//! arc's packet takes its receiver's next most urgent tokens. Ties go to the lower arc index,
//! then to the token of larger reach and lower index, so the schedule is deterministic. A step
//! takes O(n² + arcs · n · Δ) time (Δ the largest degree) and delivers at least one new token,
//! so there are at most n(n − 1) steps: polynomial (4 s on the 30×30 mesh, 900 nodes).
//!
//! On the n×n mesh under H\* it lies between Lemma 1's n(n + 1)/2 (GOS-1) and Theorem 1's
//! n²/2 + n − 1 (even n) or n²/2 + n − 1/2 (odd n) (GOS-14): one round above Lemma 1 for
//! n = 3..=15 and 17, two at 16 and 18..=23, three at n = 30 where Theorem 1 is 14 above. On the r×c meshes 2 ≤ r < c ≤ 12 it
//! meets the strongest lower bound on 20 of the 55, 6×8 (28), 8×9 (41) and 10×11 (61) among
//! them (every length is in the snapshot of the test
//! `urgent_first_against_lemma_1_and_theorem_1`).
//! The exact witnesses attain Lemma 1 for n ≤ 9, which needs every link busy with a new token
//! in every step; the greedy steps fall short of that in the last few. Registered as
//! `urgent-first`.

use crate::error::{Error, Result};
use crate::heuristics::Method;
use crate::spec::{
    Applicability, Instance, Mode, Model, ModelClass, Network, Node, PortRule, ProblemKind, Schedule,
    Transmission,
};
use std::collections::{BinaryHeap, VecDeque};

/// Gossip in copy mode under any port rule and packet size, on a strongly connected network.
const ANYWHERE: Applicability = Applicability {
    problems: &[ProblemKind::Gossip],
    models: &[
        ModelClass::StoreForward { rule: PortRule::HStar, mode: Mode::Copy },
        ModelClass::StoreForward { rule: PortRule::FStar, mode: Mode::Copy },
        ModelClass::StoreForward { rule: PortRule::H1, mode: Mode::Copy },
        ModelClass::StoreForward { rule: PortRule::F1, mode: Mode::Copy },
    ],
    families: &[],
    refine: Some(strongly_connected),
    model_note: "it is a store-and-forward list schedule",
};

/// Every node must reach every other over the arcs, or some token can never get there.
pub(super) fn strongly_connected(inst: &Instance) -> std::result::Result<(), String> {
    let net = &inst.network;
    for u in 0..net.len() {
        if let Some(v) = net.distances_from(u).iter().position(|&d| d == usize::MAX) {
            return Err(format!(
                "gossip needs a strongly connected network, and node {u} cannot reach node {v} in {}",
                net.spec_string()
            ));
        }
    }
    Ok(())
}

/// Lowers `hops` breadth-first from `from`, whose own hops were just lowered.
fn relax(next: &[Vec<Node>], hops: &mut [usize], from: Node) {
    let mut queue = VecDeque::from([from]);
    while let Some(x) = queue.pop_front() {
        for &y in &next[x] {
            if hops[y] > hops[x] + 1 {
                hops[y] = hops[x] + 1;
                queue.push_back(y);
            }
        }
    }
}

/// A set of tokens as bits.
#[derive(Clone)]
struct Tokens(Vec<u64>);

impl Tokens {
    fn new(n: usize) -> Self {
        Tokens(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, t: usize) {
        self.0[t / 64] |= 1 << (t % 64);
    }
    fn contains(&self, t: usize) -> bool {
        self.0[t / 64] >> (t % 64) & 1 == 1
    }
}

/// Which transmissions the port rule still allows in the current step.
struct Ports {
    rule: PortRule,
    /// Per arc (F\*) or per link (H\*): used.
    channel: Vec<bool>,
    sending: Vec<bool>,
    receiving: Vec<bool>,
}

impl Ports {
    fn allows(&self, channel: usize, u: Node, v: Node) -> bool {
        match self.rule {
            PortRule::FStar | PortRule::HStar => !self.channel[channel],
            PortRule::F1 => !self.sending[u] && !self.receiving[v],
            PortRule::H1 => !(self.sending[u] || self.receiving[u] || self.sending[v] || self.receiving[v]),
        }
    }
    fn take(&mut self, channel: usize, u: Node, v: Node) {
        self.channel[channel] = true;
        self.sending[u] = true;
        self.receiving[v] = true;
    }
    fn clear(&mut self) {
        self.channel.fill(false);
        self.sending.fill(false);
        self.receiving.fill(false);
    }
}

/// An arc's most urgent pair, for the step's heap: larger `urgency` first, then the lower arc.
#[derive(PartialEq)]
struct Offer {
    urgency: f64,
    arc: usize,
    token: usize,
}

impl Eq for Offer {}

impl Ord for Offer {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.urgency.total_cmp(&other.urgency).then(other.arc.cmp(&self.arc))
    }
}

impl PartialOrd for Offer {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The weights of the relay and backlog terms of the urgency (module documentation).
#[derive(Debug, Clone, Copy)]
pub(super) struct Weights {
    /// The relay term's.
    pub relay: f64,
    /// The backlog term's.
    pub backlog: f64,
}

/// urgent-first's weights, tuned constants: over the n×n meshes n = 4..=10, 12, 15, 20 and six
/// rectangles up to 7×8, weights from 0.4 to 1 give totals within a few rounds of each other.
/// Without the relay term that total is 5 rounds more (the 30×30 mesh: 471 instead of 468),
/// without the backlog term 7 more (473).
pub(super) const TUNED: Weights = Weights { relay: 0.5, backlog: 0.5 };

/// The urgent-first schedule of the module documentation.
pub fn urgent_first(inst: &Instance) -> Result<Schedule> {
    list_schedule(inst, METHOD.name, TUNED, Pass::Greedy(None)).map(Schedule::StoreForward)
}

/// What a list schedule does with a step once the greedy pass has filled it: `step`, the
/// transmissions of the pass, rewritten in place; `channel[a]`, the channel of arc a (itself
/// under F\*, its link under H\*); `holds(v, t)`, whether node v held token t at the start of
/// the step. [`super::urgent_matching`] fills the channels the pass left idle.
pub(super) type Refill = fn(&Network, &[usize], &dyn Fn(Node, usize) -> bool, &mut Vec<Transmission>);

/// The state a step is chosen from, as [`urgent_orbits`](mod@super::urgent_orbits) reads it: the network, the
/// channel of each arc, whether node v holds token t, and the urgency of sending token t on arc a.
pub(super) struct StepView<'a> {
    /// The network.
    pub network: &'a Network,
    /// The channel of each arc (itself under F\*, its link under H\*).
    pub channel: &'a [usize],
    /// Whether node v held token t at the start of the step.
    pub holds: &'a dyn Fn(Node, usize) -> bool,
    /// How many tokens node v lacked at the start of the step.
    pub missing: &'a [usize],
    /// The urgency of sending token t on arc a (module documentation).
    pub urgency: &'a dyn Fn(usize, usize) -> f64,
}

/// How a list schedule fills a step from the urgencies.
#[derive(Clone, Copy)]
pub(super) enum Pass<'a> {
    /// Most urgent pair first (urgent-first), then `refill`, if any.
    Greedy(Option<Refill>),
    /// The whole step at once ([`urgent_orbits`](mod@super::urgent_orbits)).
    Whole(&'a dyn Fn(&StepView<'_>) -> Vec<Transmission>),
}

/// The shortest of the list schedules under each of the `weightings` (the first on a tie),
/// each step filled by `pass`.
pub(super) fn shortest_list_schedule(
    inst: &Instance,
    method: &str,
    weightings: &[Weights],
    pass: Pass<'_>,
) -> Result<Schedule> {
    let mut best: Option<Vec<Vec<Transmission>>> = None;
    for &weights in weightings {
        let steps = list_schedule(inst, method, weights, pass)?;
        if best.as_ref().is_none_or(|b| steps.len() < b.len()) {
            best = Some(steps);
        }
    }
    Ok(Schedule::StoreForward(best.unwrap_or_default()))
}

/// The steps of the urgent-first list schedule under the `weights`, each step filled by `pass`;
/// `method` names the method in errors.
fn list_schedule(
    inst: &Instance,
    method: &str,
    weights: Weights,
    pass: Pass<'_>,
) -> Result<Vec<Vec<Transmission>>> {
    let Model::StoreForward { rule, packet, .. } = inst.model else {
        return Err(Error::NotApplicable { method: method.into(), reason: "not store-and-forward".into() });
    };
    let n = inst.network.len();
    let arcs = inst.network.arcs();
    let out = inst.network.out_neighbours();
    // The channel of an arc: itself under F*, its link (the lower arc of the pair) under H*.
    let channel: Vec<usize> = arcs
        .iter()
        .enumerate()
        .map(|(a, &(u, v))| match rule {
            PortRule::HStar => inst.network.arc(v, u).map_or(a, |b| a.min(b)),
            _ => a,
        })
        .collect();
    let mut in_degree = vec![0usize; n];
    for &(_, v) in arcs {
        in_degree[v] += 1;
    }
    let per_step: Vec<f64> = (0..n)
        .map(|v| match rule {
            PortRule::FStar | PortRule::HStar => (in_degree[v] * packet) as f64,
            PortRule::F1 | PortRule::H1 => packet as f64,
        })
        .collect();
    let half_duplex = matches!(rule, PortRule::HStar | PortRule::H1);

    let mut held: Vec<Tokens> = (0..n)
        .map(|v| {
            let mut s = Tokens::new(n);
            s.insert(v);
            s
        })
        .collect();
    let mut missing = vec![n - 1; n];
    let mut holders = vec![1usize; n];
    // reach[t][x]: hops from the holders of t to x.
    let mut reach: Vec<Vec<usize>> = (0..n).map(|t| inst.network.distances_from(t)).collect();
    let mut ports =
        Ports { rule, channel: vec![false; arcs.len()], sending: vec![false; n], receiving: vec![false; n] };
    let mut steps: Vec<Vec<Transmission>> = Vec::new();
    while missing.iter().any(|&m| m > 0) {
        let eccentricity: Vec<f64> =
            reach.iter().map(|r| r.iter().copied().max().unwrap_or(0) as f64).collect();
        let load: Vec<f64> = (0..n).map(|v| missing[v] as f64 / per_step[v]).collect();
        // What v gains as a relay of t when it gets t from u: half the excess load of its
        // neediest other neighbour that lacks t; at most `relay_bound[v]`.
        let excess = |v: Node, w: Node| (load[w] - load[v]).max(0.0);
        let relay = |t: usize, u: Node, v: Node| {
            out[v]
                .iter()
                .filter(|&&w| w != u && !held[w].contains(t))
                .map(|&w| excess(v, w))
                .fold(0.0, f64::max)
        };
        let relay_bound: Vec<f64> =
            (0..n).map(|v| out[v].iter().map(|&w| excess(v, w)).fold(0.0, f64::max)).collect();
        // The token's own part of the urgency: reach plus backlog.
        let steps_left = load.iter().copied().fold(0.0, f64::max);
        let own: Vec<f64> = (0..n)
            .map(|t| eccentricity[t] + weights.backlog * (n - holders[t]) as f64 / n as f64 * steps_left)
            .collect();
        let mut by_own: Vec<usize> = (0..n).collect();
        by_own.sort_by(|&a, &b| {
            own[b].total_cmp(&own[a]).then(eccentricity[b].total_cmp(&eccentricity[a])).then(a.cmp(&b))
        });
        let sender = |u: Node| if half_duplex { load[u] } else { 0.0 };
        // The arc's most urgent pair: the token part (own plus relay) is scanned by falling own
        // part, and the scan stops once no later token can beat the best one found.
        let best = |arc: usize, incoming: &[Tokens]| {
            let (u, v) = arcs[arc];
            let mut found: Option<(f64, usize)> = None;
            for &t in &by_own {
                if found.is_some_and(|(part, _)| own[t] + weights.relay * relay_bound[v] <= part) {
                    break;
                }
                if held[u].contains(t) && !held[v].contains(t) && !incoming[v].contains(t) {
                    let part = own[t] + weights.relay * relay(t, u, v);
                    if found.is_none_or(|(best, _)| part > best) {
                        found = Some((part, t));
                    }
                }
            }
            found.map(|(part, token)| Offer { urgency: part + load[v] - sender(u), arc, token })
        };
        let mut step = match pass {
            Pass::Greedy(refill) => {
                let mut incoming: Vec<Tokens> = vec![Tokens::new(n); n];
                let mut heap: BinaryHeap<Offer> =
                    (0..arcs.len()).filter_map(|a| best(a, &incoming)).collect();
                ports.clear();
                let mut step = Vec::new();
                while let Some(offer) = heap.pop() {
                    let (u, v) = arcs[offer.arc];
                    if !ports.allows(channel[offer.arc], u, v) {
                        continue;
                    }
                    if incoming[v].contains(offer.token) {
                        heap.extend(best(offer.arc, &incoming));
                        continue;
                    }
                    ports.take(channel[offer.arc], u, v);
                    let mut tokens = vec![offer.token];
                    incoming[v].insert(offer.token);
                    while tokens.len() < packet {
                        let Some(more) = best(offer.arc, &incoming) else { break };
                        tokens.push(more.token);
                        incoming[v].insert(more.token);
                    }
                    step.push(Transmission { from: u, to: v, tokens });
                }
                if let Some(refill) = refill {
                    refill(&inst.network, &channel, &|v, t| held[v].contains(t), &mut step);
                }
                step
            }
            Pass::Whole(fill) => {
                let urgency = |a: usize, t: usize| {
                    let (u, v) = arcs[a];
                    own[t] + weights.relay * relay(t, u, v) + load[v] - sender(u)
                };
                let holds = |v: Node, t: usize| held[v].contains(t);
                fill(&StepView {
                    network: &inst.network,
                    channel: &channel,
                    holds: &holds,
                    missing: &missing,
                    urgency: &urgency,
                })
            }
        };
        if step.is_empty() {
            return Err(Error::NotApplicable {
                method: method.into(),
                reason: "no arc can carry a missing token (the network is not strongly connected)".into(),
            });
        }
        for tr in &step {
            for &t in &tr.tokens {
                held[tr.to].insert(t);
                missing[tr.to] -= 1;
                holders[t] += 1;
                reach[t][tr.to] = 0;
                relax(&out, &mut reach[t], tr.to);
            }
        }
        step.sort_by_key(|tr| (tr.from, tr.to));
        steps.push(step);
    }
    Ok(steps)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "urgent-first",
    source: "ours (not paper 003's): a list schedule, most urgent (token, receiver) pair first; \
             between GOS-1 and GOS-14 on square meshes",
    summary: "each step, arcs go first to the pairs whose token's remaining reach plus receiver's remaining \
              load (minus the sender's, half-duplex) is largest; any network, rule and packet size",
    applicability: ANYWHERE,
    claim: |_| None,
    run: urgent_first,
};
