//! # Bufferless checker (SPEC §4.1)
//!
//! Papers: paper 000 §2.3 (chatting schedules (2.1)–(2.5), CHAT-1,
//! CHAT-2) and §3.1–3.2 (virtual schedules (3.1)–(3.5), CHAT-4, CHAT-5);
//! paper 001 §1.2A (single-port rule) and §3 (distributed gather:
//! inequality (5), Shoulder-Tap, Transmission-Certification; SG-8 … SG-11, SG-14, SG-21).
//!
//! ## Occupancy intervals
//!
//! A message with designated path `e_0..e_{d-1}`, length ℓ and start s sends flit h over arc
//! `e_k` in step `s + h + k` (000 (2.4), SPEC §4.1). So on `e_k` the message is one contiguous
//! interval of steps `[s + k, s + k + ℓ − 1]` carrying flits 0..ℓ−1 in order; the tail node of
//! `e_k` sends, and its head node receives, over the same interval. The checker never expands
//! flits: it sorts these intervals (`Span`) by their first step and sweeps them once, keeping
//! for each arc (and, under `port = single`, for each node's sending and receiving side) the
//! intervals still active. Two intervals that overlap on one resource are one violation, named
//! at the first shared step with the two flits involved (SPEC §6); a longer overlap says how long.
//! Work is O(I log I) for I = Σ d(M) intervals (at most the number of flit-arc events), plus the
//! violations found. Control messages (wake-up calls, tokens, certificates, orders) are one-flit
//! messages on the atlas path `from → to` and take part exactly like data.
//!
//! A virtual schedule (000 §3) is the same sweep with the interval `[v, v + ℓ − 1]` on *every*
//! arc of the path ((3.2): "instantaneous transmission"), arc rule only (SPEC §4.1), length
//! S(σ) = max − min + 1 (3.5).
//!
//! ## Distributed gather
//!
//! Under `gather = distributed` the rules D0–D3 of [`distributed`] apply as well.
//!
//! ## Normalisation and length
//!
//! Starts below step 1 are bad entries. A schedule whose first event is after step 1 is
//! accepted and measured as its normalised copy: length = last step − first step + 1 (docs/spec.md
//! §1.2), the same for every shift; the metrics carry `first step`. Every rule here, including
//! the distributed-gather rules D0–D3, compares steps only with each other (a start against the
//! receipt of a control message), so a shifted copy of an admissible schedule is admissible.

pub mod distributed;

use super::{MAX_STEP, Metrics, Rule, Verdict, Violation};
use crate::spec::{
    Control, ControlKind, GatherMode, Instance, Message, Model, Network, Node, Port, Problem, RingTie,
    Schedule, Start,
};
use distributed::distributed_rules;

/// Checks a bufferless schedule (starts plus control messages) against SPEC §4.1: arc rule,
/// port rule under `port = single`, completeness, and the distributed-gather rules D0–D3 of
/// the module documentation under `gather = distributed`. Collects every violation.
pub fn check(instance: &Instance, schedule: &Schedule) -> Verdict {
    let Schedule::Bufferless { starts, control } = schedule else {
        return wrong_kind(schedule);
    };
    let messages = match instance.messages() {
        Ok(m) => m,
        Err(e) => return bad_instance(e),
    };
    let mut violations = Vec::new();
    let data_starts = resolve_starts(instance, &messages, starts, &mut violations);
    let controls = resolve_controls(&instance.network, instance.ring_tie, control, &mut violations);

    let mut items = data_items(&messages, &data_starts);
    items.extend(controls.iter().map(|c| Item {
        what: What::Control(c.control),
        len: 1,
        start: c.control.start,
        arcs: &c.arcs,
    }));
    let single = matches!(instance.model, Model::Bufferless { port: Port::Single, .. });
    let spans = spans(&items, |item, k| item.start + k as i64);
    report_collisions(&instance.network, &items, spans, single, &mut violations);

    if let (Problem::Gather(_), Model::Bufferless { gather: GatherMode::Distributed, .. }) =
        (&instance.problem, &instance.model)
    {
        distributed_rules(instance.network.len(), &messages, &data_starts, &controls, &mut violations);
    }

    // Only items that put a flit on an arc hold an event (a message of length 0 holds none).
    let busy = || items.iter().filter(|i| i.len > 0 && !i.arcs.is_empty());
    let first = busy().map(|i| i.start).min();
    let last = busy().map(|i| i.start + i.len as i64 - 1 + i.arcs.len() as i64 - 1).max();
    let mut metrics = metrics(&instance.network, &messages, &items, |m| m.len + m.arcs.len() as u64 - 1, "Q");
    if let Some(first) = first.filter(|&f| f > 1) {
        metrics.extra.push(("first step".into(), first.to_string()));
    }
    if let Problem::Gather(_) = instance.problem {
        metrics.extra.extend(root_gaps(&messages, &data_starts));
    }
    finish(violations, super::span_length(first, last), metrics)
}

/// Checks a virtual schedule (paper 000 §3, SPEC §4.1): message M occupies every arc of its
/// path in steps `v(M)..v(M)+ℓ−1`; admissible when no arc is occupied twice in one step (3.1).
/// The length is S(σ) = max − min + 1 (3.5), also reported as `virtual duration S`.
pub fn check_virtual(instance: &Instance, starts: &[Start]) -> Verdict {
    let messages = match instance.messages() {
        Ok(m) => m,
        Err(e) => return bad_instance(e),
    };
    let mut violations = Vec::new();
    let virtual_starts = resolve_starts(instance, &messages, starts, &mut violations);
    let items = data_items(&messages, &virtual_starts);
    let spans = spans(&items, |item, _| item.start);
    report_collisions(&instance.network, &items, spans, false, &mut violations);

    let busy = || items.iter().filter(|i| i.len > 0);
    let min = busy().map(|i| i.start).min();
    let max = busy().map(|i| i.start + i.len as i64 - 1).max();
    let s = super::span_length(min, max);
    let mut metrics = metrics(&instance.network, &messages, &items, |m| m.len, "L");
    metrics.extra.insert(0, ("virtual duration S".into(), s.to_string()));
    finish(violations, s, metrics)
}

fn finish(mut violations: Vec<Violation>, length: u64, metrics: Metrics) -> Verdict {
    violations.sort_by_key(|v| (v.rule, v.step));
    Verdict::from_parts(violations, length, metrics)
}

fn wrong_kind(schedule: &Schedule) -> Verdict {
    Verdict::Inadmissible(vec![Violation {
        rule: Rule::BadEntry,
        step: None,
        place: "schedule".into(),
        detail: format!("is a {} schedule, not a bufferless one", schedule.model_name()),
    }])
}

fn bad_instance(e: crate::InputError) -> Verdict {
    Verdict::Inadmissible(vec![Violation {
        rule: Rule::BadEntry,
        step: None,
        place: "instance".into(),
        detail: format!("has a message without a designated path: {e}"),
    }])
}

/// The start of each message (same order as `messages`), after reporting unknown or null ids
/// (UnknownItem), repeated starts and starts below step 1 (BadEntry) and messages without a
/// start (Incomplete). A repeated start is reported and only the first one is checked.
fn resolve_starts(
    instance: &Instance,
    messages: &[Message],
    starts: &[Start],
    violations: &mut Vec<Violation>,
) -> Vec<Option<i64>> {
    let max_id = messages.iter().map(|m| m.id).max().unwrap_or(0);
    let mut index = vec![usize::MAX; max_id + 1];
    for (i, m) in messages.iter().enumerate() {
        index[m.id] = i;
    }
    let mut resolved: Vec<Option<i64>> = vec![None; messages.len()];
    for s in starts {
        let Some(&i) = index.get(s.msg).filter(|&&i| i != usize::MAX) else {
            let why = match &instance.problem {
                Problem::Scatter(l) | Problem::Gather(l) if s.msg > 0 && s.msg < l.len() => {
                    "is null (L = 0): a null message takes no time and needs no start".to_string()
                }
                _ => format!("is not a message of this instance (start {})", s.start),
            };
            violations.push(Violation {
                rule: Rule::UnknownItem,
                step: None,
                place: format!("message {}", s.msg),
                detail: why,
            });
            continue;
        };
        if let Some(first) = resolved[i] {
            violations.push(Violation {
                rule: Rule::BadEntry,
                step: None,
                place: format!("message {}", s.msg),
                detail: format!(
                    "is started twice (steps {first} and {}); the first start is checked",
                    s.start
                ),
            });
            continue;
        }
        if !(-MAX_STEP..=MAX_STEP).contains(&s.start) {
            violations.push(Violation {
                rule: Rule::BadEntry,
                step: None,
                place: format!("message {}", s.msg),
                detail: format!("starts in step {}, outside -2^40..2^40; it is not checked further", s.start),
            });
            continue;
        }
        if s.start < 1 {
            violations.push(Violation {
                rule: Rule::BadEntry,
                step: Some(s.start),
                place: format!("message {}", s.msg),
                detail: "starts before step 1 (steps are numbered 1, 2, ...)".into(),
            });
        }
        resolved[i] = Some(s.start);
    }
    for (m, s) in messages.iter().zip(&resolved) {
        if s.is_none() {
            violations.push(Violation {
                rule: Rule::Incomplete,
                step: None,
                place: format!("message {}", m.id),
                detail: format!(
                    "has no start: its {} flits never leave node {} for node {}",
                    m.len, m.src, m.dst
                ),
            });
        }
    }
    resolved
}

/// A control message resolved to its atlas path.
struct ResolvedControl<'a> {
    control: &'a Control,
    nodes: Vec<Node>,
    arcs: Vec<usize>,
}

impl ResolvedControl<'_> {
    /// The step at whose end `to` receives it (SPEC §1).
    fn received(&self) -> i64 {
        self.control.start + self.arcs.len() as i64 - 1
    }
}

/// Resolves control messages to atlas paths, reporting unknown nodes (UnknownItem),
/// self-addressed messages, starts below 1 and impossible values (BadEntry) and unreachable
/// receivers (NotAnArc). Only messages with a path are returned.
fn resolve_controls<'a>(
    network: &Network,
    tie: RingTie,
    control: &'a [Control],
    violations: &mut Vec<Violation>,
) -> Vec<ResolvedControl<'a>> {
    let n = network.len();
    let mut resolved = Vec::with_capacity(control.len());
    for c in control {
        let mut bad = |rule, step, detail: String| {
            violations.push(Violation { rule, step, place: control_name(c), detail });
        };
        if c.from >= n || c.to >= n {
            bad(Rule::UnknownItem, None, format!("names a node outside 0..{}", n - 1));
            continue;
        }
        if c.from == c.to {
            bad(Rule::BadEntry, None, "is addressed to its own sender".into());
            continue;
        }
        if !(-MAX_STEP..=MAX_STEP).contains(&c.start) {
            bad(Rule::BadEntry, None, format!("starts in step {}, outside -2^40..2^40", c.start));
            continue;
        }
        if c.start < 1 {
            bad(Rule::BadEntry, Some(c.start), "starts before step 1 (steps are numbered 1, 2, ...)".into());
        }
        let within = |value: Option<i64>, min| value.is_none_or(|v| (min..=MAX_STEP).contains(&v));
        let possible = match c.kind {
            ControlKind::WakeUp | ControlKind::Order => within(c.value, 1),
            ControlKind::Certificate => within(c.value, 1) && within(c.value2, 0),
            ControlKind::Token => true,
        };
        if !possible {
            bad(
                Rule::BadEntry,
                None,
                "carries an impossible value (orders and lags are >= 1, stream lengths >= 0, paper 001 §3)"
                    .into(),
            );
        }
        let Some(nodes) = network.default_path(c.from, c.to, tie) else {
            bad(Rule::NotAnArc, None, format!("has no path from {} to {} in {network}", c.from, c.to));
            continue;
        };
        let arcs = network.walk_arcs(&nodes, c.from, c.to).expect("atlas paths are walks");
        resolved.push(ResolvedControl { control: c, nodes, arcs });
    }
    resolved
}

/// How a control message is named in violations: `wake-up (2) 1->2`, `token 0->1`,
/// `certificate (3, 8) 2->1`.
fn control_name(c: &Control) -> String {
    let kind = match c.kind {
        ControlKind::WakeUp => "wake-up",
        ControlKind::Token => "token",
        ControlKind::Certificate => "certificate",
        ControlKind::Order => "order",
    };
    let value = match (c.value, c.value2) {
        (Some(v), Some(w)) => format!(" ({v}, {w})"),
        (Some(v), None) => format!(" ({v})"),
        (None, Some(w)) => format!(" (?, {w})"),
        (None, None) => String::new(),
    };
    format!("{kind}{value} {}->{}", c.from, c.to)
}

/// The started data messages as items.
fn data_items<'a>(messages: &'a [Message], starts: &[Option<i64>]) -> Vec<Item<'a>> {
    messages
        .iter()
        .zip(starts)
        .filter_map(|(m, s)| s.map(|start| Item { what: What::Data(m.id), len: m.len, start, arcs: &m.arcs }))
        .collect()
}

/// What occupies arcs.
#[derive(Clone, Copy)]
enum What<'a> {
    /// A data message, by id.
    Data(usize),
    /// A control message.
    Control(&'a Control),
}

/// A scheduled message (data or control) with its path.
struct Item<'a> {
    what: What<'a>,
    len: u64,
    start: i64,
    arcs: &'a [usize],
}

impl Item<'_> {
    /// `flit 2 of message 5`, or the control message's name (it has one flit).
    fn flit_name(&self, flit: i64) -> String {
        match self.what {
            What::Data(id) => format!("flit {flit} of message {id}"),
            What::Control(c) => control_name(c),
        }
    }
}

/// One occupancy interval: `item` holds `arc` in steps `from ..= from + len − 1`, flit h in
/// step `from + h`.
#[derive(Clone, Copy)]
struct Span {
    from: i64,
    item: u32,
    arc: u32,
}

/// The intervals of all items, sorted by first step; `first_step(item, k)` is when flit 0 is on
/// the k-th arc of the path.
fn spans(items: &[Item], first_step: impl Fn(&Item, usize) -> i64) -> Vec<Span> {
    let mut spans: Vec<Span> = items
        .iter()
        .enumerate()
        .flat_map(|(i, item)| {
            let first_step = &first_step;
            item.arcs.iter().enumerate().map(move |(k, &arc)| Span {
                from: first_step(item, k),
                item: i as u32,
                arc: arc as u32,
            })
        })
        .collect();
    spans.sort_unstable_by_key(|s| (s.from, s.item, s.arc));
    spans
}

/// The three kinds of resource a flit uses in one step.
#[derive(Clone, Copy)]
enum Resource {
    /// The arc (arc rule).
    Arc(usize),
    /// The sending side of a node (port rule).
    Sends(Node),
    /// The receiving side of a node (port rule).
    Receives(Node),
}

/// Sweeps the sorted intervals once and reports every pair that shares a resource: arcs
/// always, and nodes' sending and receiving sides when `single_port`.
fn report_collisions(
    network: &Network,
    items: &[Item],
    spans: Vec<Span>,
    single_port: bool,
    violations: &mut Vec<Violation>,
) {
    let arcs = network.arcs();
    let (n_arcs, n_nodes) = (arcs.len(), network.len());
    // Active intervals per resource: arcs 0..A, senders A..A+N, receivers A+N..A+2N.
    let mut active: Vec<Vec<usize>> = vec![Vec::new(); n_arcs + if single_port { 2 * n_nodes } else { 0 }];
    let end = |s: &Span| s.from + items[s.item as usize].len as i64 - 1;
    for (j, span) in spans.iter().enumerate() {
        let arc = span.arc as usize;
        let (tail, head) = arcs[arc];
        let resources = [
            Some((arc, Resource::Arc(arc))),
            single_port.then(|| (n_arcs + tail, Resource::Sends(tail))),
            single_port.then(|| (n_arcs + n_nodes + head, Resource::Receives(head))),
        ];
        for (slot, resource) in resources.into_iter().flatten() {
            let list = &mut active[slot];
            list.retain(|&i| end(&spans[i]) >= span.from);
            for &i in list.iter() {
                let earlier = &spans[i];
                let last = end(earlier).min(end(span));
                violations.push(collision(network, items, resource, earlier, span, last));
            }
            list.push(j);
        }
    }
}

/// The violation for two intervals `a` (started no later) and `b` sharing `resource` from
/// `b.from` through `last`.
fn collision(
    network: &Network,
    items: &[Item],
    resource: Resource,
    a: &Span,
    b: &Span,
    last: i64,
) -> Violation {
    let (rule, place, verb) = match resource {
        Resource::Arc(arc) => {
            let (u, v) = network.arcs()[arc];
            (Rule::ArcRule, format!("arc ({u},{v})"), "carries")
        }
        Resource::Sends(u) => (Rule::PortRule, format!("node {u}"), "sends"),
        Resource::Receives(u) => (Rule::PortRule, format!("node {u}"), "receives"),
    };
    let step = b.from;
    let (x, y) = (&items[a.item as usize], &items[b.item as usize]);
    let mut detail = format!("{verb} {} and {}", x.flit_name(step - a.from), y.flit_name(0));
    if last > step {
        detail.push_str(&format!(" (overlap in steps {step}..{last})"));
    }
    Violation { rule, step: Some(step), place, detail }
}

/// Events (flit-arc crossings; for a virtual schedule, arc-steps occupied), which are also the
/// arc-steps used, and the trivial lower-bound parameters: `congestion C` (000 §2.4: flits of
/// data messages over the busiest arc) and the parameter `name` computed by `second` (Q for
/// chatting schedules, Proposition 2.1; L for virtual ones, Proposition 3.1).
fn metrics(
    network: &Network,
    messages: &[Message],
    items: &[Item],
    second: impl Fn(&Message) -> u64,
    name: &str,
) -> Metrics {
    let events: u64 = items.iter().map(|i| i.len * i.arcs.len() as u64).sum();
    let mut load = vec![0u64; network.arcs().len()];
    for m in messages {
        for &a in &m.arcs {
            load[a] += m.len;
        }
    }
    let c = load.into_iter().max().unwrap_or(0);
    let q = messages.iter().map(second).max().unwrap_or(0);
    let extra = vec![
        ("congestion C".into(), c.to_string()),
        (format!("lower bound parameter {name}"), q.to_string()),
    ];
    Metrics { events, link_use: Some(events), extra, ..Metrics::default() }
}

/// Gather: the steps between the root's first and last reception in which it receives nothing
/// (paper 001 SG-14: "gap at Step 8" of Fig. 2; SG-21: gap-free certification).
fn root_gaps(messages: &[Message], starts: &[Option<i64>]) -> Vec<(String, String)> {
    let mut arrivals: Vec<(i64, i64)> = messages
        .iter()
        .zip(starts)
        .filter_map(|(m, s)| {
            s.map(|s| {
                let first = s + m.arcs.len() as i64 - 1;
                (first, first + m.len as i64 - 1)
            })
        })
        .collect();
    arrivals.sort_unstable();
    let mut gaps = Vec::new();
    let mut idle = 0;
    let mut busy_until: Option<i64> = None;
    for (from, to) in arrivals {
        if let Some(b) = busy_until
            && from > b + 1
        {
            idle += from - b - 1;
            gaps.push(if from - 1 == b + 1 {
                (b + 1).to_string()
            } else {
                format!("{}..{}", b + 1, from - 1)
            });
        }
        busy_until = Some(busy_until.map_or(to, |b| b.max(to)));
    }
    let mut extra = vec![("root idle steps".to_string(), idle.to_string())];
    if !gaps.is_empty() {
        extra.push(("root gaps".into(), gaps.join(", ")));
    }
    extra
}

#[cfg(test)]
mod tests;
