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
//! ## Distributed gather (SPEC §4.1, 001 §3, inequality (5); rule chosen here)
//!
//! Under `gather = distributed` the schedule must be one that the PEs could run knowing only
//! what control messages told them. A control message `c` is *received* by `c.to` at the end
//! of step `c.start + d(c) − 1` (SPEC §1); node u is *woken* at the end of step `w(u)`, its
//! first reception. The checker enforces, for every non-root node u (the root P_0 initiates and
//! is exempt):
//!
//! * **D0 (woken):** u receives at least one control message — every PE, null or not, because
//!   the initiator cannot know which messages are null; (5) "hold\[s\] for *all* PE indices".
//! * **D1 (causality):** every control message u originates is sent in a step `> w(u)`, and so
//!   is M_u's first flit: `s(M_u) ≥ w(u) + 1`.
//! * **D2 (orders):** every received wake-up call or order carrying a value s ("TRANSMIT AFTER
//!   (≥) s STEPS", received at the end of step t) is honoured: `s(M_u) ≥ t + s`. This is the
//!   reading of the figures (paper 001's time conventions in the claims catalogue): in Fig. 4 the order received at the
//!   end of step t puts the first flit on the first arc in step t + s exactly; Shoulder-Tap
//!   starts in step `t + max(2, s)` (Figs. 2, 3; SG-9), P_n in `t + max(1, s)` under the SG-11
//!   correction — all ≥ t + s. A wake-up or order without a value only wakes (D1).
//! * **D3 (synchronise, then transmit):** u dispatches M_u only after every control flit it
//!   sends *or relays*: `s(M_u) > ` each such step. Shoulder-Tap's phases are serial (Phase 1
//!   wake-up, then Phase 2 transmission, then passive relaying of data) and
//!   Transmission-Certification "will begin this message transmission only after it has relayed
//!   to its children versions of the order". This is SG-8's "after it has sent its own
//!   wake-up".
//!
//! On a path these rules imply (5) for every control routing: some control flit must wake
//! P_{i+1} (D0); by D1 no control flit is at node x before the end of step x, so P_i sends or
//! relays one over (P_i, P_{i+1}) in a step ≥ i + 1, and D3 gives `s(M_i) ≥ i + 2` for i < n;
//! D1 gives `s(M_n) ≥ w(n) + 1 ≥ n + 1`. Relays count in D3 because otherwise the root could
//! wake P_{i+1} over P_i's head while P_i transmits, which (5) excludes; D1 counts only what a
//! node originates, since a bufferless relay involves no decision. Exactly *when* an order says
//! to start is the protocol's business: the checker demands only that no node starts earlier
//! than it was told (a late start that collides is caught by the arc and port rules).
//! Figs. 2, 3 and 4 pass these rules (tests/checker_bufferless.rs).
//!
//! ## Normalisation and length
//!
//! Starts below step 1 are bad entries. A schedule whose first event is after step 1 is
//! accepted and measured as its normalised copy: length = last step − first step + 1 (docs/spec.md
//! §1.2), the same for every shift; the metrics carry `first step`. Every rule here, including
//! the distributed-gather rules D0–D3, compares steps only with each other (a start against the
//! receipt of a control message), so a shifted copy of an admissible schedule is admissible.

use super::{MAX_STEP, Metrics, Rule, Verdict, Violation};
use crate::spec::{
    Control, ControlKind, GatherMode, Instance, Message, Model, Network, Node, Port, Problem, RingTie,
    Schedule, Start,
};

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

/// Rules D0–D3 of the module documentation (paper 001 §3, inequality (5)).
fn distributed_rules(
    n: usize,
    messages: &[Message],
    starts: &[Option<i64>],
    controls: &[ResolvedControl],
    violations: &mut Vec<Violation>,
) {
    // Each node's message start (gather: message i originates at node i).
    let mut start_at: Vec<Option<(usize, i64)>> = vec![None; n];
    for (m, s) in messages.iter().zip(starts) {
        if let Some(s) = *s {
            start_at[m.src] = Some((m.id, s));
        }
    }
    // w(u): the end of the step in which u first receives a control message, and which one.
    let mut woken: Vec<Option<(i64, &ResolvedControl)>> = vec![None; n];
    for c in controls {
        let w = &mut woken[c.control.to];
        if w.is_none_or(|(t, _)| c.received() < t) {
            *w = Some((c.received(), c));
        }
    }
    let mut push = |step, node: Node, detail: String| {
        violations.push(Violation { rule: Rule::Distributed, step, place: format!("node {node}"), detail });
    };
    // D0.
    for (u, w) in woken.iter().enumerate().skip(1) {
        if w.is_none() {
            push(None, u, "is never woken: no control message reaches it (paper 001 (5))".into());
        }
    }
    for c in controls {
        let (from, sent) = (c.control.from, c.control.start);
        // D1 for control messages.
        if from != 0 {
            match woken[from] {
                None => {
                    push(Some(sent), from, format!("sends {} but is never woken", control_name(c.control)))
                }
                Some((t, first)) if sent <= t => push(
                    Some(sent),
                    from,
                    format!(
                        "sends {} before it is woken ({} is received at the end of step {t})",
                        control_name(c.control),
                        control_name(first.control)
                    ),
                ),
                Some(_) => {}
            }
        }
        // D3: every control flit a node sends or relays precedes its own dispatch.
        for (k, &u) in c.nodes[..c.arcs.len()].iter().enumerate() {
            let step = sent + k as i64;
            if let Some((id, s)) = start_at[u].filter(|&(_, s)| s <= step) {
                let verb = if k == 0 { "sends" } else { "relays" };
                push(
                    Some(step),
                    u,
                    format!(
                        "{verb} {} in step {step} but already started message {id} in step {s} \
                         (a PE synchronises before it transmits, paper 001 (5))",
                        control_name(c.control)
                    ),
                );
            }
        }
    }
    // D1 and D2 for data: the latest earliest-start over the wake-up and every order received.
    for (u, start) in start_at.iter().enumerate() {
        let (Some((id, s)), Some((t, first))) = (*start, woken[u]) else { continue };
        let mut earliest = (t + 1, first, false);
        for c in controls.iter().filter(|c| c.control.to == u) {
            if let (ControlKind::WakeUp | ControlKind::Order, Some(v)) = (c.control.kind, c.control.value)
                && c.received().saturating_add(v) > earliest.0
            {
                earliest = (c.received().saturating_add(v), c, true);
            }
        }
        let (allowed, c, order) = earliest;
        if s < allowed {
            let why = if order {
                format!("{}, received at the end of step {}, allows", control_name(c.control), c.received())
            } else {
                format!("it is woken only at the end of step {t} (by {}):", control_name(c.control))
            };
            push(
                Some(s),
                u,
                format!("starts message {id} in step {s}, but {why} step {allowed} at the earliest"),
            );
        }
    }
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
mod tests {
    use super::*;
    use crate::checker;
    use crate::spec::io::parse_instance;

    fn instance(toml: &str) -> Instance {
        parse_instance(toml, "test.toml", "test").expect("valid instance")
    }

    /// A chatting instance on `network` with `(src, dst, length)` messages.
    fn chatting(network: &str, port: &str, messages: &[(usize, usize, u64)]) -> Instance {
        let mut toml =
            format!("problem = \"chatting\"\nnetwork = \"{network}\"\n[model]\nport = \"{port}\"\n");
        for (s, d, l) in messages {
            toml.push_str(&format!("[[messages]]\nsrc = {s}\ndst = {d}\nlength = {l}\n"));
        }
        instance(&toml)
    }

    fn starts(s: &[(usize, i64)]) -> Vec<Start> {
        s.iter().map(|&(msg, start)| Start { msg, start }).collect()
    }

    fn bufferless(s: &[(usize, i64)], control: Vec<Control>) -> Schedule {
        Schedule::Bufferless { starts: starts(s), control }
    }

    fn control(kind: ControlKind, from: Node, to: Node, start: i64, value: Option<i64>) -> Control {
        Control { kind, from, to, start, value, value2: None }
    }

    fn texts(v: &Verdict) -> Vec<String> {
        v.violations().iter().map(|v| v.to_string()).collect()
    }

    fn length(v: &Verdict) -> u64 {
        v.admissible().unwrap_or_else(|| panic!("rejected: {:?}", texts(v))).length()
    }

    fn extra<'a>(v: &'a Verdict, name: &str) -> Option<&'a str> {
        let m = v.admissible().expect("admissible").metrics();
        m.extra.iter().find(|(k, _)| k == name).map(|(_, x)| x.as_str())
    }

    /// SPEC §6's example verbatim: messages 5 (0 -> 4, 3 flits, start 2) and 9 (3 -> 4, start 7)
    /// meet on arc (3,4) in step 7; the other eight messages use arc (5,4) from step 20 on.
    fn spec_example(port: &str) -> Verdict {
        let mut msgs = vec![(5, 4, 1); 10];
        msgs[5] = (0, 4, 3);
        msgs[9] = (3, 4, 1);
        let inst = chatting("path:6", port, &msgs);
        let s: Vec<(usize, i64)> = (0..10).map(|i| (i, 20 + i as i64)).collect();
        let mut s = s;
        s[5].1 = 2;
        s[9].1 = 7;
        check(&inst, &bufferless(&s, vec![]))
    }

    #[test]
    fn arc_rule_names_both_flits_exactly_as_spec_section_6() {
        assert_eq!(
            texts(&spec_example("multi")),
            ["arc rule: step 7, arc (3,4) carries flit 2 of message 5 and flit 0 of message 9"]
        );
        assert_eq!(
            texts(&spec_example("single")),
            [
                "arc rule: step 7, arc (3,4) carries flit 2 of message 5 and flit 0 of message 9",
                "port rule: step 7, node 3 sends flit 2 of message 5 and flit 0 of message 9",
                "port rule: step 7, node 4 receives flit 2 of message 5 and flit 0 of message 9",
            ]
        );
    }

    #[test]
    fn a_long_overlap_is_one_violation_that_says_how_long() {
        let inst = chatting("path:2", "multi", &[(0, 1, 4), (0, 1, 3)]);
        assert_eq!(
            texts(&check(&inst, &bufferless(&[(0, 1), (1, 2)], vec![]))),
            [
                "arc rule: step 2, arc (0,1) carries flit 1 of message 0 and flit 0 of message 1 (overlap in steps 2..4)"
            ]
        );
        // Back to back: flit 3 in step 4, the next message from step 5.
        assert_eq!(length(&check(&inst, &bufferless(&[(0, 1), (1, 5)], vec![]))), 7);
    }

    #[test]
    fn port_rule_applies_only_under_single_port() {
        for (msgs, verb) in [([(1, 0, 1), (1, 2, 1)], "sends"), ([(0, 1, 1), (2, 1, 1)], "receives")] {
            let sched = bufferless(&[(0, 1), (1, 1)], vec![]);
            assert_eq!(length(&check(&chatting("path:3", "multi", &msgs), &sched)), 1);
            assert_eq!(
                texts(&check(&chatting("path:3", "single", &msgs), &sched)),
                [format!("port rule: step 1, node 1 {verb} flit 0 of message 0 and flit 0 of message 1")]
            );
        }
    }

    #[test]
    fn unknown_duplicate_early_and_missing_starts_under_both_port_rules() {
        for port in ["multi", "single"] {
            let inst = chatting("path:4", port, &[(0, 3, 2), (3, 2, 1), (1, 2, 1)]);
            let v = check(&inst, &bufferless(&[(0, 1), (7, 3), (0, 5), (1, 0)], vec![]));
            assert_eq!(
                texts(&v),
                [
                    "incomplete delivery: message 2 has no start: its 1 flits never leave node 1 for node 2",
                    "unknown item: message 7 is not a message of this instance (start 3)",
                    "bad entry: message 0 is started twice (steps 1 and 5); the first start is checked",
                    "bad entry: step 0, message 1 starts before step 1 (steps are numbered 1, 2, ...)",
                ],
                "{port}"
            );
        }
    }

    #[test]
    fn absurd_steps_are_bad_entries_not_overflows() {
        let inst = chatting("path:3", "single", &[(0, 2, 3), (2, 0, 1)]);
        let v = check(
            &inst,
            &bufferless(
                &[(0, i64::MAX), (1, i64::MIN)],
                vec![control(ControlKind::Token, 0, 2, i64::MAX, None)],
            ),
        );
        assert_eq!(
            texts(&v),
            [
                "incomplete delivery: message 0 has no start: its 3 flits never leave node 0 for node 2",
                "incomplete delivery: message 1 has no start: its 1 flits never leave node 2 for node 0",
                format!(
                    "bad entry: message 0 starts in step {}, outside -2^40..2^40; it is not checked further",
                    i64::MAX
                )
                .as_str(),
                format!(
                    "bad entry: message 1 starts in step {}, outside -2^40..2^40; it is not checked further",
                    i64::MIN
                )
                .as_str(),
                format!("bad entry: token 0->2 starts in step {}, outside -2^40..2^40", i64::MAX).as_str(),
            ]
        );
    }

    #[test]
    fn a_null_message_needs_no_start() {
        let inst = instance("problem = \"gather\"\nnetwork = \"path:3\"\nlengths = [0, 2]\n");
        assert_eq!(
            texts(&check(&inst, &bufferless(&[(2, 1), (1, 1)], vec![]))),
            ["unknown item: message 1 is null (L = 0): a null message takes no time and needs no start"]
        );
        assert_eq!(length(&check(&inst, &bufferless(&[(2, 1)], vec![]))), 3);
    }

    #[test]
    fn control_messages_are_one_flit_messages_named_by_kind_and_value() {
        // Gather on path:3: M_2 crosses (1,0) in step 2, as does P_1's certificate.
        let inst = instance("problem = \"gather\"\nnetwork = \"path:3\"\nlengths = [0, 1]\n");
        let cert = Control { value2: Some(1), ..control(ControlKind::Certificate, 1, 0, 2, Some(3)) };
        assert_eq!(
            texts(&check(&inst, &bufferless(&[(2, 1)], vec![cert.clone()]))),
            [
                "arc rule: step 2, arc (1,0) carries flit 0 of message 2 and certificate (3, 1) 1->0",
                "port rule: step 2, node 1 sends flit 0 of message 2 and certificate (3, 1) 1->0",
                "port rule: step 2, node 0 receives flit 0 of message 2 and certificate (3, 1) 1->0",
            ]
        );
        let later = Control { start: 3, ..cert };
        let v = check(&inst, &bufferless(&[(2, 1)], vec![later]));
        assert_eq!(length(&v), 3);
        assert_eq!(v.admissible().unwrap().metrics().events, 3);
    }

    #[test]
    fn malformed_control_messages() {
        let inst = chatting("ula:3", "multi", &[(0, 2, 1)]);
        let v = check(
            &inst,
            &bufferless(
                &[(0, 5)],
                vec![
                    control(ControlKind::WakeUp, 0, 9, 1, Some(1)),
                    control(ControlKind::Token, 1, 1, 1, None),
                    control(ControlKind::Order, 0, 1, 0, Some(0)),
                    control(ControlKind::Token, 2, 0, 1, None),
                ],
            ),
        );
        assert_eq!(
            texts(&v),
            [
                "not an arc: token 2->0 has no path from 2 to 0 in ula:3",
                "unknown item: wake-up (1) 0->9 names a node outside 0..2",
                "bad entry: token 1->1 is addressed to its own sender",
                "bad entry: order (0) 0->1 carries an impossible value (orders and lags are >= 1, stream lengths \
                 >= 0, paper 001 §3)",
                "bad entry: step 0, order (0) 0->1 starts before step 1 (steps are numbered 1, 2, ...)",
            ]
        );
    }

    /// Gather on path:4 with L = (1, 0, 1), Shoulder-Tap with the SG-11 correction: wake-ups
    /// (1) in steps 1, 2, 3; M_1 starts in step 3, M_3 in step 4; the last flit reaches P_0 in
    /// step 6.
    fn tap(mode: &str, port: &str) -> Instance {
        instance(&format!(
            "problem = \"gather\"\nnetwork = \"path:4\"\nlengths = [1, 0, 1]\n[model]\nport = \"{port}\"\ngather = \"{mode}\"\n"
        ))
    }

    fn wake_ups(steps: [i64; 3], values: [i64; 3]) -> Vec<Control> {
        (0..3).map(|k| control(ControlKind::WakeUp, k, k + 1, steps[k], Some(values[k]))).collect()
    }

    fn distributed(starts: &[(usize, i64)], control: Vec<Control>, port: &str) -> Vec<String> {
        let sched = bufferless(starts, control);
        let central = check(&tap("centralized", port), &sched);
        let distributed = check(&tap("distributed", port), &sched);
        // The distributed rules only add violations.
        let rest: Vec<String> =
            texts(&distributed).into_iter().filter(|t| !t.starts_with("distributed")).collect();
        assert_eq!(rest, texts(&central));
        texts(&distributed)
    }

    #[test]
    fn distributed_gather_accepts_shoulder_tap_and_reports_its_metrics() {
        let v = check(
            &tap("distributed", "single"),
            &bufferless(&[(1, 3), (3, 4)], wake_ups([1, 2, 3], [1, 1, 1])),
        );
        assert_eq!(length(&v), 6);
        let m = v.admissible().unwrap().metrics();
        assert_eq!((m.events, m.link_use), (7, Some(7)));
        assert_eq!(extra(&v, "congestion C"), Some("2"));
        assert_eq!(extra(&v, "lower bound parameter Q"), Some("3"));
        assert_eq!(extra(&v, "root idle steps"), Some("2"));
        assert_eq!(extra(&v, "root gaps"), Some("4..5"));
        assert_eq!(extra(&v, "first step"), None);
    }

    #[test]
    fn d0_every_node_must_be_woken() {
        let mut c = wake_ups([1, 2, 3], [1, 1, 1]);
        c.pop();
        assert_eq!(
            distributed(&[(1, 3), (3, 4)], c, "single"),
            ["distributed start: node 3 is never woken: no control message reaches it (paper 001 (5))"]
        );
    }

    #[test]
    fn d1_nothing_is_sent_before_the_node_is_woken() {
        assert_eq!(
            distributed(&[(1, 3), (3, 4)], wake_ups([1, 1, 3], [1, 1, 1]), "single"),
            [
                "distributed start: step 1, node 1 sends wake-up (1) 1->2 before it is woken (wake-up (1) 0->1 is \
                 received at the end of step 1)"
            ]
        );
        assert_eq!(
            distributed(&[(1, 3), (3, 3)], wake_ups([1, 2, 3], [1, 1, 1]), "single"),
            [
                "distributed start: step 3, node 3 starts message 3 in step 3, but it is woken only at the end of \
                 step 3 (by wake-up (1) 2->3): step 4 at the earliest"
            ]
        );
    }

    #[test]
    fn d2_transmit_after_s_steps_is_honoured() {
        assert_eq!(
            distributed(&[(1, 3), (3, 4)], wake_ups([1, 2, 3], [1, 1, 3]), "single"),
            [
                "distributed start: step 4, node 3 starts message 3 in step 4, but wake-up (3) 2->3, received at \
                 the end of step 3, allows step 6 at the earliest"
            ]
        );
        let v = check(
            &tap("distributed", "single"),
            &bufferless(&[(1, 3), (3, 6)], wake_ups([1, 2, 3], [1, 1, 3])),
        );
        assert_eq!(length(&v), 8);
    }

    #[test]
    fn d3_a_node_synchronises_before_it_transmits() {
        // P_1 dispatches in step 2, the step it sends P_2's wake-up (a port violation too when
        // single-port).
        assert_eq!(
            distributed(&[(1, 2), (3, 4)], wake_ups([1, 2, 3], [1, 1, 1]), "multi"),
            [
                "distributed start: step 2, node 1 sends wake-up (1) 1->2 in step 2 but already started message 1 \
                 in step 2 (a PE synchronises before it transmits, paper 001 (5))"
            ]
        );
        // The root wakes P_2 itself, over P_1, which relays the call in the step it dispatches
        // (different arcs, so multi-port allows it).
        let mut c = wake_ups([1, 2, 4], [1, 1, 1]);
        c[1] = control(ControlKind::WakeUp, 0, 2, 2, Some(1));
        assert_eq!(
            distributed(&[(1, 3), (3, 5)], c, "multi"),
            [
                "distributed start: step 3, node 1 relays wake-up (1) 0->2 in step 3 but already started message 1 \
                 in step 3 (a PE synchronises before it transmits, paper 001 (5))"
            ]
        );
    }

    #[test]
    fn a_late_first_event_is_accepted_reported_and_normalised() {
        let inst = instance("problem = \"scatter\"\nnetwork = \"path:3\"\nlengths = [1, 1]\n");
        let v = check(&inst, &bufferless(&[(2, 3), (1, 4)], vec![]));
        // Events in steps 3..4: length 2, the same as the copy shifted to step 1.
        assert_eq!(length(&v), 2);
        assert_eq!(length(&check(&inst, &bufferless(&[(2, 1), (1, 2)], vec![]))), 2);
        assert_eq!(extra(&v, "first step"), Some("3"));
    }

    #[test]
    fn a_schedule_of_another_model_is_a_bad_entry() {
        let inst = chatting("path:2", "multi", &[(0, 1, 1)]);
        assert_eq!(
            texts(&check(&inst, &Schedule::Virtual(starts(&[(0, 1)])))),
            ["bad entry: schedule is a virtual schedule, not a bufferless one"]
        );
    }

    /// CHAT-5: on ula:5, messages 0 -> 3 and 1 -> 4 (2 flits each) and 3 -> 4 (1 flit) are
    /// rectangles [0,2] x [v, v+1], [1,3] x [v, v+1] and [3,3] x [v, v].
    fn ula_virtual() -> Instance {
        instance(
            "problem = \"chatting\"\nnetwork = \"ula:5\"\n[model]\nvirtual = true\n\
             [[messages]]\nsrc = 0\ndst = 3\nlength = 2\n[[messages]]\nsrc = 1\ndst = 4\nlength = 2\n\
             [[messages]]\nsrc = 3\ndst = 4\nlength = 1\n",
        )
    }

    #[test]
    fn chat5_overlapping_rectangles_are_rejected() {
        let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&[(0, 1), (1, 2), (2, 1)])));
        assert_eq!(
            texts(&v),
            [
                "arc rule: step 2, arc (1,2) carries flit 1 of message 0 and flit 0 of message 1",
                "arc rule: step 2, arc (2,3) carries flit 1 of message 0 and flit 0 of message 1",
            ]
        );
        // Message 2 shares arc (3,4) with message 1 in steps 2..3.
        let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&[(0, 1), (1, 3), (2, 4)])));
        assert_eq!(
            texts(&v),
            ["arc rule: step 4, arc (3,4) carries flit 1 of message 1 and flit 0 of message 2"]
        );
    }

    #[test]
    fn chat4_chat5_disjoint_rectangles_are_admissible_with_duration_s() {
        for (s, expected) in
            [([(0, 1), (1, 3), (2, 1)], 4), ([(0, 5), (1, 7), (2, 6)], 4), ([(0, 1), (1, 3), (2, 9)], 9)]
        {
            let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&s)));
            assert_eq!(length(&v), expected, "{s:?}");
            assert_eq!(extra(&v, "virtual duration S"), Some(expected.to_string().as_str()));
            // (3.5) is shift-invariant, and S >= max(C, L) = max(4, 2) (Proposition 3.1).
            assert_eq!(extra(&v, "congestion C"), Some("4"));
            assert_eq!(extra(&v, "lower bound parameter L"), Some("2"));
            assert_eq!(v.admissible().unwrap().metrics().events, 2 * 3 + 2 * 3 + 1);
        }
    }

    #[test]
    fn virtual_starts_are_resolved_like_ordinary_starts() {
        let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&[(0, 1), (0, 9), (5, 1), (2, 0)])));
        assert_eq!(
            texts(&v),
            [
                "incomplete delivery: message 1 has no start: its 2 flits never leave node 1 for node 4",
                "unknown item: message 5 is not a message of this instance (start 1)",
                "bad entry: message 0 is started twice (steps 1 and 9); the first start is checked",
                "bad entry: step 0, message 2 starts before step 1 (steps are numbered 1, 2, ...)",
            ]
        );
    }
}
