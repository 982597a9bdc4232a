//! # Distributed gather (SPEC §4.1, 001 §3, inequality (5); rule chosen here)
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
//! Figs. 2, 3 and 4 pass these rules (tests/integration/checker_bufferless.rs).
//!

use super::super::{Rule, Violation};
use super::{ResolvedControl, control_name};
use crate::spec::{ControlKind, Message, Node};

/// Rules D0–D3 of the module documentation (paper 001 §3, inequality (5)).
pub(super) fn distributed_rules(
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
