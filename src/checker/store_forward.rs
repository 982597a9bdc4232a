//! Store-and-forward checker (SPEC §4.2; papers 003 §1 and 004 §2).
//!
//! A schedule is a list of steps; step t (index t−1) lists transmissions, each a packet of up
//! to p tokens crossing one arc. The checker replays it step by step:
//!
//! * **Holding.** In step t a node may send only tokens it held at the end of step t−1 (held
//!   initially or received in a step ≤ t−1). Every step is checked in two phases: first all
//!   sends against the state at the end of step t−1, then all receipts; so a token received in
//!   step t can never leave in step t, whatever the order of the transmissions in the list.
//! * **Move mode** (total exchange, 004 §2): a token leaves its sender at the start of the step,
//!   cannot be sent twice in one step, and is consumed when it reaches its destination. Tokens
//!   are the packets `m_src(dst)`, id `src·n + dst` ([`crate::spec::Instance::packets`]).
//! * **Copy mode** (gossip, 003 §1): the sender keeps its copy. Tokens are the origin nodes; every
//!   node must end with all n. Receiving a token already held, or twice in one step, is not a
//!   violation but counts in [`Metrics::duplicates`] (003 §2: an optimal schedule uses every
//!   edge without duplicates).
//! * **Port and duplex rules** (003 §1, SPEC §4.2 table): F\* one packet per arc, H\* one packet
//!   per link (either direction), F1 one send and one receive per node, H1 one transmission
//!   (sending or receiving) per node, all per step.
//!
//! Every violation is collected (the checker does not stop at the first), each naming the rule,
//! the step, the place and both colliding items. A transmission over a pair that is not an arc,
//! or naming an unknown node, is reported and otherwise ignored (its tokens do not move); a send
//! of a token that is not held is reported and ignored; a packet of the wrong size still moves
//! its tokens.
//!
//! **Length** is last non-empty step − first non-empty step + 1 (docs/spec.md §1.2): leading and
//! trailing empty steps do not count, so a schedule and its copy shifted by empty steps have the
//! same length (the metrics then carry `first step`). Every token is held from the start, so
//! nothing depends on absolute step numbers. An empty schedule has length 0, admissible when
//! there is nothing to deliver.
//!
//! **Metrics.** `events`: transmissions (packet hops) over arcs. `link_use`: distinct
//! (arc, step) pairs used. `peak_buffer`: the auxiliary buffer occupancy of 003 §1 (the
//! "buffers for at most three packets" of its reference \[25\]): the largest number of tokens that
//! one node holds at the end of a step having *received* them (not originated them) and that it
//! still sends on in a later step. In move mode these are the tokens sitting at a node after
//! arriving there by a transmission and not yet sent on; tokens reaching their destination are
//! consumed and never count. In copy mode a received token occupies the buffer from the end of
//! the step it first arrives until the last step in which the node forwards it; a token the
//! node never forwards is only delivered and never counts. `duplicates` (copy mode only): see
//! above. Checking is linear in the number of token hops plus the state size (n² for both
//! modes), with per-step stamp arrays for the arc, link and port rules.

use super::{Metrics, Rule, Verdict, Violation};
use crate::spec::{Instance, Mode, Model, ModelKind, Network, Node, PortRule, Transmission};
use std::fmt::Write as _;

/// A step or a token position that never happened.
const NEVER: u32 = u32::MAX;
/// How many items an incomplete-delivery message lists before summarising.
const LISTED: usize = 5;

/// Checks a store-and-forward schedule (SPEC §4.2) against `instance`: total exchange in move
/// mode or gossip in copy mode, under the instance's port rule and packet size.
pub fn check(instance: &Instance, steps: &[Vec<Transmission>]) -> Verdict {
    let Model::StoreForward { rule, mode, packet } = instance.model else {
        return bad_entry(format!(
            "is store-and-forward but the instance's model is {}",
            instance.model.name()
        ));
    };
    if steps.len() >= NEVER as usize {
        return bad_entry(format!("has {} steps, more than the checker counts", steps.len()));
    }
    // The problem fixes the mode (`ProblemKind::model`): total exchange moves, gossip copies.
    if instance.problem.kind().model() != ModelKind::StoreForward(mode) {
        let p = &instance.problem;
        return bad_entry(format!(
            "cannot be checked: problem `{p}` is not a store-and-forward problem in {mode:?} mode"
        ));
    }
    match mode {
        Mode::Move => replay(instance, rule, packet, steps, Moved::new(instance)),
        Mode::Copy => {
            let n = instance.network.len();
            replay(instance, rule, packet, steps, Copied::new(n, steps))
        }
    }
}

fn bad_entry(detail: String) -> Verdict {
    Verdict::Inadmissible(vec![Violation {
        rule: Rule::BadEntry,
        step: None,
        place: "schedule".into(),
        detail,
    }])
}

/// Why a send of one token is refused in phase 1.
enum Refusal {
    /// The token id is not a token of the instance.
    Unknown(String),
    /// The sender does not hold the token at the end of the previous step.
    NotHeld(String),
}

/// The token state of one mode: phase-1 sends, phase-2 receipts, the final delivery check.
trait Tokens {
    /// Phase 1 of step `t`: may the sender of transmission `tx` of `step` send `token`? On success the
    /// send is recorded (move mode: the token leaves `from`).
    fn send(&mut self, t: u32, step: &[Transmission], tx: usize, token: usize) -> Result<(), Refusal>;
    /// Phase 2 of step `t`: `token` reaches `to`.
    fn receive(&mut self, t: u32, to: Node, token: usize);
    /// After phase 2: whether `node` got `token` only in step `t` (explains a refused send).
    fn arrived_in(&self, t: u32, node: Node, token: usize) -> bool;
    /// The token's readable name.
    fn name(&self, token: usize) -> String;
    /// Incomplete-delivery violations at the end.
    fn incomplete(&self, out: &mut Vec<Violation>);
    /// Fills the mode's metrics.
    fn metrics(&self, m: &mut Metrics);
}

/// Arc lookup without hashing: for each node its out-arcs sorted by head.
struct Arcs {
    start: Vec<usize>,
    heads: Vec<(Node, usize)>,
}

impl Arcs {
    fn new(net: &Network) -> Self {
        let n = net.len();
        let mut heads: Vec<(Node, Node, usize)> =
            net.arcs().iter().enumerate().map(|(a, &(u, v))| (u, v, a)).collect();
        heads.sort_unstable();
        let mut start = vec![0; n + 1];
        for &(u, _, _) in &heads {
            start[u + 1] += 1;
        }
        for u in 0..n {
            start[u + 1] += start[u];
        }
        Self { start, heads: heads.into_iter().map(|(_, v, a)| (v, a)).collect() }
    }

    fn arc(&self, u: Node, v: Node) -> Option<usize> {
        let out = &self.heads[self.start[u]..self.start[u + 1]];
        out.binary_search_by_key(&v, |&(h, _)| h).ok().map(|i| out[i].1)
    }
}

/// Per-step occupancy of arcs, links or nodes, reset by stamping with the step number.
struct Slots {
    stamp: Vec<u32>,
    first: Vec<u32>,
}

impl Slots {
    fn new(len: usize) -> Self {
        Self { stamp: vec![0; len], first: vec![0; len] }
    }

    /// Occupies slot `i` in step `t` by transmission `tx`; returns the earlier occupant, if any.
    fn claim(&mut self, i: usize, t: u32, tx: usize) -> Option<usize> {
        if self.stamp[i] == t {
            Some(self.first[i] as usize)
        } else {
            self.stamp[i] = t;
            self.first[i] = tx as u32;
            None
        }
    }
}

/// The port and duplex rule of the model (003 §1).
enum Ports {
    /// F\*: one packet per arc.
    FStar(Slots),
    /// H\*: one packet per link; `link[arc]` is the link's canonical arc.
    HStar { slots: Slots, link: Vec<usize> },
    /// F1: one send and one receive per node.
    F1 { sends: Slots, receives: Slots },
    /// H1: one transmission per node.
    H1(Slots),
}

impl Ports {
    fn new(rule: PortRule, net: &Network) -> Self {
        let (n, arcs) = (net.len(), net.arcs());
        match rule {
            PortRule::FStar => Ports::FStar(Slots::new(arcs.len())),
            PortRule::HStar => Ports::HStar {
                slots: Slots::new(arcs.len()),
                link: arcs
                    .iter()
                    .enumerate()
                    .map(|(a, &(u, v))| net.arc(u.min(v), u.max(v)).unwrap_or(a))
                    .collect(),
            },
            PortRule::F1 => Ports::F1 { sends: Slots::new(n), receives: Slots::new(n) },
            PortRule::H1 => Ports::H1(Slots::new(n)),
        }
    }

    /// Occupies what transmission `tx` (over `arc`) uses in step `t`; reports collisions.
    fn claim<S: Tokens>(
        &mut self,
        t: u32,
        step: &[Transmission],
        tx: usize,
        arc: usize,
        tokens: &S,
        out: &mut Vec<Violation>,
    ) {
        let Transmission { from, to, .. } = step[tx];
        let pkt = |i: usize| packet(tokens, &step[i]);
        let mut push = |rule, place: String, detail: String| {
            out.push(Violation { rule, step: Some(t as i64), place, detail })
        };
        match self {
            Ports::FStar(arcs) => {
                if let Some(j) = arcs.claim(arc, t, tx) {
                    push(
                        Rule::ArcRule,
                        format!("arc ({from},{to})"),
                        format!("carries {} and {}", pkt(j), pkt(tx)),
                    );
                }
            }
            Ports::HStar { slots, link } => {
                if let Some(j) = slots.claim(link[arc], t, tx) {
                    let o = &step[j];
                    push(
                        Rule::LinkRule,
                        format!("link {{{},{}}}", from.min(to), from.max(to)),
                        format!(
                            "carries {} over ({},{}) and {} over ({from},{to})",
                            pkt(j),
                            o.from,
                            o.to,
                            pkt(tx)
                        ),
                    );
                }
            }
            Ports::F1 { sends, receives } => {
                if let Some(j) = sends.claim(from, t, tx) {
                    push(
                        Rule::PortRule,
                        format!("node {from}"),
                        format!("sends {} to {} and {} to {to}", pkt(j), step[j].to, pkt(tx)),
                    );
                }
                if let Some(j) = receives.claim(to, t, tx) {
                    push(
                        Rule::PortRule,
                        format!("node {to}"),
                        format!("receives {} from {} and {} from {from}", pkt(j), step[j].from, pkt(tx)),
                    );
                }
            }
            Ports::H1(nodes) => {
                for x in [from, to] {
                    if let Some(j) = nodes.claim(x, t, tx) {
                        let o = &step[j];
                        push(
                            Rule::DuplexRule,
                            format!("node {x}"),
                            format!(
                                "takes part in two transmissions: {} over ({},{}) and {} over ({from},{to})",
                                pkt(j),
                                o.from,
                                o.to,
                                pkt(tx)
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// `packet [m1(4), m2(4)]`.
fn packet<S: Tokens>(tokens: &S, tr: &Transmission) -> String {
    format!("packet [{}]", listing(tr.tokens.iter().map(|&k| tokens.name(k)), tr.tokens.len()))
}

/// The first [`LISTED`] items, then `and N more`.
fn listing(items: impl Iterator<Item = String>, total: usize) -> String {
    let mut s = String::new();
    for (i, item) in items.take(LISTED).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&item);
    }
    if total > LISTED {
        let _ = write!(s, ", and {} more", total - LISTED);
    }
    s
}

/// Move mode's incomplete delivery at `dst`: the `count` packets it does not receive, named
/// by `items` (the first [`LISTED`] of them).
pub(super) fn undelivered(dst: Node, items: impl Iterator<Item = String>, count: usize) -> Violation {
    Violation {
        rule: Rule::Incomplete,
        step: None,
        place: format!("node {dst}"),
        detail: format!(
            "does not receive {count} packet{}: {}",
            if count == 1 { "" } else { "s" },
            listing(items, count)
        ),
    }
}

/// `initially` or `at the end of step t`.
fn by_end_of(t: u32) -> String {
    if t == 0 { "initially".into() } else { format!("at the end of step {t}") }
}

/// Replays the schedule (the mechanism shared by both modes).
fn replay<S: Tokens>(
    inst: &Instance,
    rule: PortRule,
    p: usize,
    steps: &[Vec<Transmission>],
    mut tokens: S,
) -> Verdict {
    let net = &inst.network;
    let n = net.len();
    let arcs = Arcs::new(net);
    let mut ports = Ports::new(rule, net);
    let mut arc_used = vec![0u32; net.arcs().len()];
    let mut violations = Vec::new();
    let mut metrics = Metrics::default();
    let mut link_use = 0u64;
    let (mut first, mut last) = (None, None);
    let mut moves: Vec<(usize, Node)> = Vec::new();
    let mut refused: Vec<(usize, usize, String)> = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let t = index as u32 + 1;
        if !step.is_empty() {
            first = first.or(Some(t as i64));
            last = Some(t as i64);
        }
        moves.clear();
        for (tx, tr) in step.iter().enumerate() {
            let at =
                |rule, place: String, detail: String| Violation { rule, step: Some(t as i64), place, detail };
            let (from, to) = (tr.from, tr.to);
            if from >= n || to >= n {
                violations.push(at(
                    Rule::UnknownItem,
                    format!("transmission ({from},{to})"),
                    format!("names node {}: the network has nodes 0..{}", from.max(to), n - 1),
                ));
                continue;
            }
            let Some(arc) = arcs.arc(from, to) else {
                violations.push(at(
                    Rule::NotAnArc,
                    format!("({from},{to})"),
                    format!("is not an arc of {net} ({})", packet(&tokens, tr)),
                ));
                continue;
            };
            metrics.events += 1;
            if arc_used[arc] != t {
                arc_used[arc] = t;
                link_use += 1;
            }
            if tr.tokens.is_empty() || tr.tokens.len() > p {
                let what = if tr.tokens.is_empty() {
                    "an empty packet".to_string()
                } else {
                    format!("{} of {} tokens, more than p = {p}", packet(&tokens, tr), tr.tokens.len())
                };
                violations.push(at(
                    Rule::PacketSize,
                    format!("arc ({from},{to})"),
                    format!("carries {what}"),
                ));
            }
            ports.claim(t, step, tx, arc, &tokens, &mut violations);
            for &k in &tr.tokens {
                match tokens.send(t, step, tx, k) {
                    Ok(()) => moves.push((k, to)),
                    Err(Refusal::Unknown(d)) => {
                        violations.push(at(Rule::UnknownItem, format!("arc ({from},{to})"), d))
                    }
                    Err(Refusal::NotHeld(d)) => refused.push((from, k, d)),
                }
            }
        }
        for &(k, to) in &moves {
            tokens.receive(t, to, k);
        }
        for (from, k, mut detail) in refused.drain(..) {
            if tokens.arrived_in(t, from, k) {
                detail.push_str(&format!(
                    "; it arrives only at the end of step {t} and can leave from step {}",
                    t + 1
                ));
            }
            violations.push(Violation {
                rule: Rule::NotHeld,
                step: Some(t as i64),
                place: format!("node {from}"),
                detail,
            });
        }
    }
    tokens.incomplete(&mut violations);
    tokens.metrics(&mut metrics);
    metrics.link_use = Some(link_use);
    if let Some(first) = first.filter(|&f| f > 1) {
        metrics.extra.push(("first step".into(), first.to_string()));
    }
    Verdict::from_parts(violations, super::span_length(first, last), metrics)
}

/// Move mode (total exchange, 004): where each packet is and since when.
struct Moved {
    n: usize,
    /// Node holding the packet, [`Moved::DELIVERED`], or [`Moved::NOT_A_PACKET`] for ids that
    /// are not packets of the instance.
    location: Vec<u32>,
    /// Step at whose end the packet reached its location (0: initially at its source).
    arrived: Vec<u32>,
    /// Step in which the packet last left a node, and the transmission that took it.
    sent_in: Vec<u32>,
    sent_by: Vec<u32>,
    /// Per node: packets that arrived there by a transmission and have not left.
    buffer: Vec<u32>,
    peak: u32,
}

impl Moved {
    const DELIVERED: u32 = u32::MAX;
    const NOT_A_PACKET: u32 = u32::MAX - 1;

    fn new(inst: &Instance) -> Self {
        let n = inst.network.len();
        let mut location = vec![Self::NOT_A_PACKET; n * n];
        for p in inst.packets() {
            location[p.id] = p.src as u32;
        }
        Self {
            n,
            location,
            arrived: vec![0; n * n],
            sent_in: vec![NEVER; n * n],
            sent_by: vec![0; n * n],
            buffer: vec![0; n],
            peak: 0,
        }
    }
}

impl Tokens for Moved {
    fn send(&mut self, t: u32, step: &[Transmission], tx: usize, k: usize) -> Result<(), Refusal> {
        let Transmission { from, to, .. } = step[tx];
        let name = self.name(k);
        let loc = self.location.get(k).copied().unwrap_or(Self::NOT_A_PACKET);
        if loc == Self::NOT_A_PACKET {
            return Err(Refusal::Unknown(format!(
                "carries {name}, which is not a packet of this total exchange (packet ids are src*{n}+dst for the demanded pairs src != dst)",
                n = self.n
            )));
        }
        // The transmission that already took the packet in this step, if any.
        let other = (self.sent_in[k] == t).then(|| &step[self.sent_by[k] as usize]);
        let refuse =
            |why: String| Err(Refusal::NotHeld(format!("sends {name} over ({from},{to}), but {why}")));
        if loc == Self::DELIVERED {
            return refuse(format!("it was delivered to node {} {}", k % self.n, by_end_of(self.arrived[k])));
        }
        match other {
            Some(o) if loc as usize == from => {
                return refuse(format!(
                    "it already left node {from} over ({},{}) in this step",
                    o.from, o.to
                ));
            }
            Some(o) if o.to != from => {
                return refuse(format!(
                    "it is at node {loc} {} (and leaves it over ({},{}) in this step)",
                    by_end_of(t - 1),
                    o.from,
                    o.to
                ));
            }
            _ if loc as usize != from => return refuse(format!("it is at node {loc} {}", by_end_of(t - 1))),
            _ => {}
        }
        self.sent_in[k] = t;
        self.sent_by[k] = tx as u32;
        if self.arrived[k] > 0 {
            self.buffer[from] -= 1;
        }
        Ok(())
    }

    fn receive(&mut self, t: u32, to: Node, k: usize) {
        self.arrived[k] = t;
        if k % self.n == to {
            self.location[k] = Self::DELIVERED;
        } else {
            self.location[k] = to as u32;
            self.buffer[to] += 1;
            self.peak = self.peak.max(self.buffer[to]);
        }
    }

    fn arrived_in(&self, t: u32, node: Node, k: usize) -> bool {
        let here = match self.location[k] {
            Self::DELIVERED => k % self.n,
            loc => loc as usize,
        };
        self.sent_in[k] == t && here == node
    }

    fn name(&self, k: usize) -> String {
        if k < self.n * self.n { format!("m{}({})", k / self.n, k % self.n) } else { format!("token {k}") }
    }

    fn incomplete(&self, out: &mut Vec<Violation>) {
        let n = self.n;
        for dst in 0..n {
            let missing: Vec<usize> = (0..n)
                .map(|src| src * n + dst)
                .filter(|&k| !matches!(self.location[k], Self::DELIVERED | Self::NOT_A_PACKET))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let items = missing.iter().map(|&k| {
                let where_ = if self.arrived[k] == 0 {
                    "never sent".to_string()
                } else {
                    format!("at node {} since step {}", self.location[k], self.arrived[k])
                };
                format!("{} ({where_})", self.name(k))
            });
            out.push(undelivered(dst, items, missing.len()));
        }
    }

    fn metrics(&self, m: &mut Metrics) {
        m.peak_buffer = Some(self.peak as u64);
    }
}

/// Copy mode (gossip, 003): which node holds which token since when.
struct Copied {
    n: usize,
    /// `held_since[node * n + token]`: step at whose end the node first held the token (0:
    /// initially), [`NEVER`] if not (yet).
    held_since: Vec<u32>,
    /// `last_send[node * n + token]`: the last step in which the schedule lists the node sending
    /// the token (0: never), cleared once that send is replayed; drives the buffer metric.
    last_send: Vec<u32>,
    buffer: Vec<u32>,
    peak: u32,
    duplicates: u64,
}

impl Copied {
    fn new(n: usize, steps: &[Vec<Transmission>]) -> Self {
        let mut held_since = vec![NEVER; n * n];
        for v in 0..n {
            held_since[v * n + v] = 0;
        }
        let mut last_send = vec![0; n * n];
        for (index, step) in steps.iter().enumerate() {
            for tr in step.iter().filter(|tr| tr.from < n) {
                for &k in tr.tokens.iter().filter(|&&k| k < n) {
                    last_send[tr.from * n + k] = index as u32 + 1;
                }
            }
        }
        Self { n, held_since, last_send, buffer: vec![0; n], peak: 0, duplicates: 0 }
    }
}

impl Tokens for Copied {
    fn send(&mut self, t: u32, step: &[Transmission], tx: usize, k: usize) -> Result<(), Refusal> {
        let Transmission { from, to, .. } = step[tx];
        if k >= self.n {
            return Err(Refusal::Unknown(format!(
                "carries token {k}, which is not a token of this gossip (tokens are the origin nodes 0..{})",
                self.n - 1
            )));
        }
        let i = from * self.n + k;
        if self.held_since[i] == NEVER {
            return Err(Refusal::NotHeld(format!(
                "sends token {k} over ({from},{to}), but does not hold it {}",
                by_end_of(t - 1)
            )));
        }
        if self.last_send[i] == t {
            self.last_send[i] = 0;
            if self.held_since[i] > 0 {
                self.buffer[from] -= 1;
            }
        }
        Ok(())
    }

    fn receive(&mut self, t: u32, to: Node, k: usize) {
        let i = to * self.n + k;
        if self.held_since[i] != NEVER {
            self.duplicates += 1;
            return;
        }
        self.held_since[i] = t;
        if self.last_send[i] > t {
            self.buffer[to] += 1;
            self.peak = self.peak.max(self.buffer[to]);
        }
    }

    fn arrived_in(&self, t: u32, node: Node, k: usize) -> bool {
        self.held_since[node * self.n + k] == t
    }

    fn name(&self, k: usize) -> String {
        format!("token {k}")
    }

    fn incomplete(&self, out: &mut Vec<Violation>) {
        let n = self.n;
        for v in 0..n {
            let row = &self.held_since[v * n..(v + 1) * n];
            let missing: Vec<usize> = (0..n).filter(|&k| row[k] == NEVER).collect();
            if !missing.is_empty() {
                out.push(Violation {
                    rule: Rule::Incomplete,
                    step: None,
                    place: format!("node {v}"),
                    detail: format!(
                        "is missing {} of {n} tokens: {}",
                        missing.len(),
                        listing(missing.iter().map(|&k| self.name(k)), missing.len())
                    ),
                });
            }
        }
    }

    fn metrics(&self, m: &mut Metrics) {
        m.peak_buffer = Some(self.peak as u64);
        m.duplicates = Some(self.duplicates);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arc_lookup_agrees_with_the_network() {
        for spec in ["path:5", "ring:6", "uring:5", "mesh:3x4", "torus:3x3", "esm:3", "tree:0,0,1,1"] {
            let net = Network::parse(spec).unwrap();
            let arcs = Arcs::new(&net);
            for u in 0..net.len() {
                for v in 0..net.len() {
                    assert_eq!(arcs.arc(u, v), net.arc(u, v), "{spec} ({u},{v})");
                }
            }
        }
    }

    #[test]
    fn listings_summarise_after_five_items() {
        let items = |k: usize| (0..k).map(|i| i.to_string());
        assert_eq!(listing(items(3), 3), "0, 1, 2");
        assert_eq!(listing(items(5), 5), "0, 1, 2, 3, 4");
        assert_eq!(listing(items(8), 8), "0, 1, 2, 3, 4, and 3 more");
    }

    #[test]
    fn slots_report_the_first_occupant_and_reset_by_step() {
        let mut s = Slots::new(2);
        assert_eq!(s.claim(1, 1, 0), None);
        assert_eq!(s.claim(1, 1, 4), Some(0));
        assert_eq!(s.claim(1, 1, 5), Some(0));
        assert_eq!(s.claim(1, 2, 7), None);
        assert_eq!(s.claim(0, 2, 8), None);
    }
}
