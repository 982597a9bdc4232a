//! # Chatting: the trivial lower bounds of paper 000
//!
//! Paper 000 (Bhatt, Bilardi, Pucci, Ranade, Rosenberg, Schwabe),
//! §2.4B Proposition 2.1 (CHAT-2) and §3.2 Proposition 3.1 (CHAT-4).
//!
//! Parameters of a message set M (000 §2.4): ℓ(M) flits, d(M) arcs on the designated path,
//! C(e) = Σ ℓ over the messages whose path uses arc e, C(M) = max_e C(e), L(M) = max ℓ,
//! Q(M) = max (ℓ + d − 1).
//!
//! * **CHAT-2** (chatting schedule, SPEC `Schedule::Bufferless`): T(τ) ≥ max(C(M), Q(M)).
//!   Convention: T(τ) = max τ − min τ + 1 (2.5) is the SPEC length once the first event is in
//!   step 1, so the numbers need no conversion. C: an arc carries one flit per step. Q: the
//!   last flit of M crosses its last arc in step s + ℓ + d − 2 ≥ ℓ + d − 1. (L(M) ≤ Q and
//!   D(M) ≤ Q are implied.) The argument uses only the arc rule, so it holds under both port
//!   rules and for every bufferless problem (scatter and gather messages included).
//! * **CHAT-4** (virtual schedule, SPEC `Schedule::Virtual`): S(σ) ≥ max(C(M), L(M)), S as in
//!   (3.5). A message occupies every arc of its path in steps v..v+ℓ−1, so an arc is occupied
//!   C(e) times and a message for ℓ consecutive steps. The claims catalogue notes the misprinted index
//!   ranges of (3.2); the bound uses the intended h = 0..ℓ−1, k = 0..d−1.

use super::Bound;
use crate::spec::{Instance, Message, Model};

/// C(M): the largest number of flits whose paths share one arc.
pub fn congestion(arcs: usize, messages: &[Message]) -> u64 {
    let mut load = vec![0u64; arcs];
    for m in messages {
        for &a in &m.arcs {
            load[a] += m.len;
        }
    }
    load.into_iter().max().unwrap_or(0)
}

/// Q(M) = max (ℓ + d − 1), the longest transit time.
pub fn longest_transit(messages: &[Message]) -> u64 {
    messages.iter().map(|m| m.len + m.arcs.len() as u64 - 1).max().unwrap_or(0)
}

/// L(M) = max ℓ.
pub fn longest_message(messages: &[Message]) -> u64 {
    messages.iter().map(|m| m.len).max().unwrap_or(0)
}

/// CHAT-2 for bufferless schedules, CHAT-4 for virtual ones.
pub fn bounds(instance: &Instance, messages: &[Message]) -> Vec<Bound> {
    let Model::Bufferless { virtual_schedule, .. } = instance.model else { return Vec::new() };
    let c = congestion(instance.network.arcs().len(), messages);
    if virtual_schedule {
        vec![
            Bound::new(
                "congestion C",
                Some("CHAT-4"),
                c,
                "virtual: each arc is occupied one step per flit (3.1)",
            ),
            Bound::new(
                "longest message L",
                Some("CHAT-4"),
                longest_message(messages),
                "virtual: a message occupies its arcs for ℓ consecutive steps (3.2)",
            ),
        ]
    } else {
        vec![
            Bound::new(
                "congestion C",
                Some("CHAT-2"),
                c,
                "each arc carries one flit per step (2.1); T(τ) = SPEC length",
            ),
            Bound::new(
                "transit Q",
                Some("CHAT-2"),
                longest_transit(messages),
                "the last flit of M crosses its last arc ℓ + d − 2 steps after the start (2.4)",
            ),
        ]
    }
}
