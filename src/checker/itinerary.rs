//! Checker for itineraries (docs/spec.md §5.4): the store-and-forward rules of
//! [`super::store_forward`] in move mode, read per packet instead of per step.
//!
//! The explicit checker replays a schedule step by step. An itinerary fixes a packet's walk and
//! the step of each hop, so the same rules split into three passes, none of which builds a hop:
//!
//! 1. **Per packet.** The token is a packet of the instance, with one itinerary. The packet
//!    leaves a node only in a step after the one it arrived in: departures strictly increase,
//!    from step 1. It is consumed at its destination: its walk takes exactly the lane distance
//!    from source to destination in its direction, and no hop leaves the array. A packet whose
//!    itinerary passes all of this is delivered; every other demanded packet is incomplete.
//! 2. **Per arc.** One occupancy bitmap per direction, indexed by (tail node, step): a hop that
//!    finds its bit set shares its arc and step with another. Forward and backward hops use
//!    disjoint arcs, so the two directions are marked by two threads.
//! 3. **Port rule.** Every rule forbids two packets on one arc in one step (pass 2). The rest
//!    are pairs of arcs that may not carry packets in the same step: the two arcs of a link
//!    (H\*), the two out-arcs and the two in-arcs of a node (F1), any two arcs at a node (H1).
//!    Each pair is an AND of two bitmap rows, 64 steps a word.
//!
//! A second scan names the packets of every collision. On every schedule the two forms can
//! express, this accepts exactly what the explicit checker accepts, with the same length (last
//! step − first step + 1), events (hops over arcs) and link use (distinct arc-steps): a property
//! test compares them on random itineraries. The peak buffer is not measured here, as it needs
//! a sweep over every node's time line.

use super::store_forward::undelivered;
use super::{Metrics, Rule, Verdict, Violation, span_length};
use crate::spec::itinerary::lane_distance;
use crate::spec::{Direction, Family, Instance, Itineraries, Mode, Model, Node, PortRule, Problem};
use std::collections::HashMap;

/// Collisions recorded with their packets; beyond this they are counted.
const RECORDED: usize = 1000;

/// Checks itineraries against a total-exchange instance in move mode on `path:n` or `ring:n`.
pub fn check(instance: &Instance, it: &Itineraries) -> Verdict {
    let n = instance.network.len();
    let geometry = match *instance.network.family() {
        Family::Path(k) => Some((k, false)),
        Family::Ring(k) => Some((k, true)),
        _ => None,
    };
    let rule = match instance.model {
        Model::StoreForward { rule, mode: Mode::Move, .. }
            if matches!(instance.problem, Problem::TotalExchange(_))
                && geometry == Some((it.nodes(), it.is_ring())) =>
        {
            rule
        }
        _ => {
            return Verdict::Inadmissible(vec![Violation {
                rule: Rule::BadEntry,
                step: None,
                place: "schedule".into(),
                detail: format!(
                    "holds itineraries on {} {} nodes, which fit only a total exchange in move mode on that network, not {} on {} under {}",
                    if it.is_ring() { "a ring of" } else { "a linear array of" },
                    it.nodes(),
                    instance.problem,
                    instance.network.spec_string(),
                    instance.model.name()
                ),
            }]);
        }
    };
    let name = |token: usize| format!("m{}({})", token / n, token % n);
    let mut violations = Vec::new();
    let mut demanded = vec![false; n * n];
    for p in instance.packets() {
        demanded[p.id] = true;
    }
    let (delivered, arcs, span) = per_packet(it, &demanded, &name, &mut violations);
    let (first, last) = span.unwrap_or((0, 0));
    let [forward, backward] = mark_arcs(it, &arcs, last as usize + 1);
    let events = arcs.iter().sum::<usize>() as u64 - forward.zeros - backward.zeros;
    let mut collisions: Vec<Collision> = Vec::new();
    let mut uncounted = 0u64;
    for (lane, d) in [(&forward, Direction::Forward), (&backward, Direction::Backward)] {
        for &(x, t) in &lane.repeats {
            collisions.push(Collision { arcs: [(d, x), (d, x)], t });
        }
        uncounted += lane.unrecorded;
    }
    for (a, b) in conflicting_arcs(rule, n, it.is_ring()) {
        let rows = [a, b].map(|(d, x)| if d == Direction::Forward { &forward } else { &backward }.row(x));
        for (w, (&p, &q)) in rows[0].iter().zip(rows[1]).enumerate() {
            let mut both = p & q;
            while both != 0 {
                let t = (w * 64) as u32 + both.trailing_zeros();
                both &= both - 1;
                if collisions.len() < RECORDED {
                    collisions.push(Collision { arcs: [a, b], t });
                } else {
                    uncounted += 1;
                }
            }
        }
    }
    if !collisions.is_empty() {
        explain(it, &arcs, rule, n, &collisions, &name, &mut violations);
    }
    if uncounted > 0 {
        violations.push(Violation {
            rule: rule_of(rule),
            step: None,
            place: "schedule".into(),
            detail: format!("has {uncounted} more collisions than the {RECORDED} listed"),
        });
    }
    for dst in 0..n {
        let missing: Vec<usize> =
            (0..n).map(|src| src * n + dst).filter(|&k| demanded[k] && !delivered[k]).collect();
        if !missing.is_empty() {
            violations.push(undelivered(dst, missing.iter().map(|&k| name(k)), missing.len()));
        }
    }
    let link_use = forward.count() + backward.count();
    let mut metrics = Metrics { events, link_use: Some(link_use), ..Metrics::default() };
    if first > 1 {
        metrics.extra.push(("first step".into(), first.to_string()));
    }
    let (first, last) = span.map_or((None, None), |(f, l)| (Some(f as i64), Some(l as i64)));
    Verdict::from_parts(violations, span_length(first, last), metrics)
}

/// Pass 1: every itinerary on its own. Returns which packets are delivered, how many hops of
/// each itinerary cross arcs (the rest would leave the array), and the first and last step used.
fn per_packet(
    it: &Itineraries,
    demanded: &[bool],
    name: &dyn Fn(usize) -> String,
    violations: &mut Vec<Violation>,
) -> (Vec<bool>, Vec<usize>, Option<(u32, u32)>) {
    let n = it.nodes();
    let mut seen = vec![false; n * n];
    let mut delivered = vec![false; n * n];
    let mut arcs = vec![0usize; it.len()];
    let (mut first, mut last) = (u32::MAX, 0u32);
    for (i, leg) in it.iter().enumerate() {
        let k = leg.token;
        if k >= n * n || !demanded[k] {
            violations.push(Violation {
                rule: Rule::UnknownItem,
                step: None,
                place: format!("itinerary {i}"),
                detail: format!(
                    "carries token {k}, which is not a packet of this total exchange (packet ids are src*{n}+dst for the demanded pairs src != dst)"
                ),
            });
            continue;
        }
        if std::mem::replace(&mut seen[k], true) {
            violations.push(Violation {
                rule: Rule::BadEntry,
                step: None,
                place: format!("packet {}", name(k)),
                detail: format!("has a second itinerary (itinerary {i})"),
            });
            continue;
        }
        let (src, dst, d) = (k / n, k % n, leg.departures);
        let room = match (it.is_ring(), leg.direction) {
            (true, _) => d.len(),
            (false, Direction::Forward) => d.len().min(n - 1 - src),
            (false, Direction::Backward) => d.len().min(src),
        };
        arcs[i] = room;
        let Some((&head, &tail)) = d.first().zip(d.last()) else { continue };
        // Strictly increasing from step 1: one pass without early exit, so it vectorises.
        let ordered = head > 0 && d.windows(2).fold(true, |ok, w| ok & (w[0] < w[1]));
        let mut fine = ordered;
        if ordered {
            first = first.min(head);
            last = last.max(tail);
        } else {
            for (h, &t) in d[..room].iter().enumerate() {
                if t > 0 {
                    first = first.min(t);
                    last = last.max(t);
                }
                let x = node_after(it, src, leg.direction, h);
                let y = node_after(it, src, leg.direction, h + 1);
                if t == 0 {
                    violations.push(Violation {
                        rule: Rule::BadEntry,
                        step: None,
                        place: format!("packet {}", name(k)),
                        detail: format!("departs in step 0 over ({x},{y}): steps are numbered from 1"),
                    });
                } else if h > 0 && t <= d[h - 1] {
                    violations.push(Violation {
                        rule: Rule::NotHeld,
                        step: Some(t as i64),
                        place: format!("node {x}"),
                        detail: format!(
                            "sends {} over ({x},{y}) in step {t}, but it arrives at node {x} only at the end of step {} and can leave from step {}",
                            name(k),
                            d[h - 1],
                            d[h - 1] as u64 + 1
                        ),
                    });
                }
            }
        }
        let distance = lane_distance(n, it.is_ring(), src, dst, leg.direction);
        if let Some(h) = distance.filter(|&h| h < room) {
            violations.push(Violation {
                rule: Rule::NotHeld,
                step: Some(d[h] as i64),
                place: format!("node {dst}"),
                detail: format!(
                    "sends {} on, but it was delivered to node {dst} at the end of step {}",
                    name(k),
                    d[h - 1]
                ),
            });
            fine = false;
        }
        if room < d.len() {
            violations.push(Violation {
                rule: Rule::NotAnArc,
                step: Some(d[room] as i64),
                place: format!("node {}", node_after(it, src, leg.direction, room)),
                detail: format!(
                    "sends {} past the end of the linear array (hop {room} of its itinerary)",
                    name(k)
                ),
            });
            fine = false;
        }
        delivered[k] = fine && distance == Some(d.len());
    }
    (delivered, arcs, (last > 0).then_some((first, last)))
}

/// The node `h` hops after `x` in direction `d` (within the array: `h` at most the room).
fn node_after(it: &Itineraries, x: Node, d: Direction, h: usize) -> Node {
    let n = it.nodes();
    match d {
        Direction::Forward => (x + h) % n,
        Direction::Backward => (x + n * h - h) % n,
    }
}

/// One direction's arcs, marked: bit (x, t) says that the arc leaving node x in this direction
/// carries a packet in step t.
struct Lane {
    words: usize,
    bits: Vec<u64>,
    /// (tail, step) of hops that found their bit set, up to [`RECORDED`].
    repeats: Vec<(Node, u32)>,
    unrecorded: u64,
    /// Hops in step 0 (reported in pass 1, not marked).
    zeros: u64,
}

impl Lane {
    fn row(&self, x: Node) -> &[u64] {
        &self.bits[x * self.words..(x + 1) * self.words]
    }

    fn count(&self) -> u64 {
        self.bits.iter().map(|w| w.count_ones() as u64).sum()
    }
}

/// Pass 2: both directions' arc bitmaps, one thread each.
fn mark_arcs(it: &Itineraries, arcs: &[usize], steps: usize) -> [Lane; 2] {
    let n = it.nodes();
    let mark = |direction: Direction| {
        let words = steps.div_ceil(64);
        let mut lane = Lane { words, bits: vec![0; n * words], repeats: Vec::new(), unrecorded: 0, zeros: 0 };
        for (i, leg) in it.iter().enumerate().filter(|(_, leg)| leg.direction == direction) {
            let mut x = leg.token / n;
            for &t in &leg.departures[..arcs[i]] {
                if t == 0 {
                    lane.zeros += 1;
                } else {
                    let word = &mut lane.bits[x * words + (t as usize >> 6)];
                    let bit = 1u64 << (t & 63);
                    if *word & bit != 0 {
                        if lane.repeats.len() < RECORDED {
                            lane.repeats.push((x, t));
                        } else {
                            lane.unrecorded += 1;
                        }
                    }
                    *word |= bit;
                }
                x = match direction {
                    Direction::Forward if x + 1 == n => 0,
                    Direction::Forward => x + 1,
                    Direction::Backward if x == 0 => n - 1,
                    Direction::Backward => x - 1,
                };
            }
        }
        lane
    };
    std::thread::scope(|scope| {
        let backward = scope.spawn(|| mark(Direction::Backward));
        let forward = mark(Direction::Forward);
        [forward, backward.join().expect("the marking thread does not panic")]
    })
}

/// An arc: its direction and tail node.
type Arc = (Direction, Node);

/// Two hops that may not share step `t`: on one arc (pass 2) or on a conflicting pair (pass 3).
struct Collision {
    arcs: [Arc; 2],
    t: u32,
}

/// Pass 3's pairs of distinct arcs that the port rule forbids in one step (003 §1): the two
/// arcs of a link (H\*); the two out-arcs, and the two in-arcs, of a node (F1); any two arcs at
/// a node (H1). F\* forbids only sharing an arc.
fn conflicting_arcs(rule: PortRule, n: usize, ring: bool) -> Vec<(Arc, Arc)> {
    use Direction::{Backward as B, Forward as F};
    // Arcs leaving x and entering x, those that exist.
    let arc = |d: Direction, x: isize| -> Option<Arc> {
        let x = if ring { x.rem_euclid(n as isize) } else { x };
        let exists =
            (0..n as isize).contains(&x) && (ring || if d == F { x + 1 < n as isize } else { x > 0 });
        exists.then_some((d, x as usize))
    };
    let mut pairs = Vec::new();
    for x in 0..n as isize {
        let (out_f, out_b, in_f, in_b) = (arc(F, x), arc(B, x), arc(F, x - 1), arc(B, x + 1));
        let candidates = match rule {
            PortRule::FStar => vec![],
            // Link {x, x + 1}: its forward arc leaves x, its backward arc leaves x + 1.
            PortRule::HStar => vec![(out_f, arc(B, x + 1))],
            PortRule::F1 => vec![(out_f, out_b), (in_f, in_b)],
            PortRule::H1 => {
                vec![(out_f, out_b), (in_f, in_b), (out_f, in_f), (out_f, in_b), (out_b, in_f), (out_b, in_b)]
            }
        };
        for (a, b) in candidates {
            if let (Some(a), Some(b)) = (a, b)
                && a != b
            {
                pairs.push((a.min(b), a.max(b)));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// The violation kind of a collision under each rule.
fn rule_of(rule: PortRule) -> Rule {
    match rule {
        PortRule::FStar => Rule::ArcRule,
        PortRule::HStar => Rule::LinkRule,
        PortRule::F1 => Rule::PortRule,
        PortRule::H1 => Rule::DuplexRule,
    }
}

/// Names the packets of every collision: a second scan finds the hops on the colliding arcs in
/// the colliding steps.
fn explain(
    it: &Itineraries,
    arcs: &[usize],
    rule: PortRule,
    n: usize,
    collisions: &[Collision],
    name: &dyn Fn(usize) -> String,
    out: &mut Vec<Violation>,
) {
    let mut on: HashMap<(Arc, u32), Vec<usize>> = HashMap::new();
    for c in collisions {
        for a in c.arcs {
            on.insert((a, c.t), Vec::new());
        }
    }
    for (i, leg) in it.iter().enumerate() {
        let src = leg.token / n;
        for (h, &t) in leg.departures[..arcs[i]].iter().enumerate() {
            if let Some(v) = on.get_mut(&((leg.direction, node_after(it, src, leg.direction, h)), t)) {
                v.push(i);
            }
        }
    }
    let hop = |i: usize, (d, x): Arc| {
        let y = node_after(it, x, d, 1);
        format!("packet [{}] over ({x},{y})", name(it.get(i).token))
    };
    for c in collisions {
        let (a, b) = (&on[&(c.arcs[0], c.t)], &on[&(c.arcs[1], c.t)]);
        let (first, second) = if c.arcs[0] == c.arcs[1] { (a[0], a[1]) } else { (a[0], b[0]) };
        let (d, x) = c.arcs[0];
        let place = match rule {
            PortRule::FStar => format!("arc ({x},{})", node_after(it, x, d, 1)),
            PortRule::HStar => {
                let y = node_after(it, x, d, 1);
                format!("link {{{},{}}}", x.min(y), x.max(y))
            }
            _ => "node".to_string() + &shared_node(c.arcs, it),
        };
        out.push(Violation {
            rule: rule_of(rule),
            step: Some(c.t as i64),
            place,
            detail: format!("carries {} and {}", hop(first, c.arcs[0]), hop(second, c.arcs[1])),
        });
    }
}

/// ` x`: the node two colliding arcs share (their common tail, or head, or the tail of one and
/// head of the other).
fn shared_node(arcs: [Arc; 2], it: &Itineraries) -> String {
    let ends = |(d, x): Arc| [x, node_after(it, x, d, 1)];
    let (a, b) = (ends(arcs[0]), ends(arcs[1]));
    let x = a.into_iter().find(|v| b.contains(v)).unwrap_or(a[0]);
    format!(" {x}")
}
