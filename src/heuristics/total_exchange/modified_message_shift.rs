//! # Modified message-shift (paper 004 §4.2, Theorem 3)
//!
//! Paper 004, §4.2. On an even ring:
//!
//! * routing is the alternating split: the antipodal message m_i(i⊕n/2) goes clockwise when i
//!   is even and counter-clockwise when i is odd ([`RingTie::Alternating`]), so even nodes send
//!   n/2 messages clockwise and odd nodes n/2 − 1 (TE-19); the instance's own `ring_tie` is not
//!   consulted, the split is part of the algorithm;
//! * each queue starts with the node's own messages furthest-first, Q_i(0) =
//!   (m_i(i⊕1), …, m_i(i⊕n/2)) leaving from the right; relayed messages join at the left end, so
//!   they leave in FIFO order after all own messages (the [`Fifo`] discipline with
//!   [`InitialOrder::FurthestFirst`]).
//!
//! Claimed: T_opt(R) = ⌈(n²−1)/8⌉ (TE-21) with the queue contents of TE-20 at every
//! t_j = jn − 2j²; Fig. 3(b) reconstructed as TE-26.

use super::message_shift::Fifo;
use super::queue_sim::{InitialOrder, run, run_node_invariant};
use super::{EVEN_RING, claimed, produce};
use crate::bounds::total_exchange::ring as t_opt_ring;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, RingTie, Schedule};

/// The modified message-shift on the instance's ring (alternating split, own messages
/// furthest-first, then relayed FIFO), both directions at once.
pub fn modified_message_shift(inst: &Instance) -> Result<Schedule> {
    run(inst, RingTie::Alternating, InitialOrder::FurthestFirst, &mut Fifo)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "modified-message-shift",
    source: "004 §4.2 Theorem 3, Fig. 3(b); TE-19..TE-21, TE-26",
    summary: "even ring: antipodal messages clockwise from even nodes, counter-clockwise from odd ones; \
              own messages furthest first, then relayed FIFO; optimal ⌈(n²−1)/8⌉",
    applicability: EVEN_RING,
    claim: |inst| {
        let n = inst.network.len() as u64;
        claimed(inst, "TE-21", "modified message-shift (Theorem 3)", "⌈(n²−1)/8⌉", t_opt_ring(n))
    },
    run: |inst| {
        produce(
            inst,
            modified_message_shift,
            Some(|inst| {
                run_node_invariant(inst, RingTie::Alternating, InitialOrder::FurthestFirst, &mut Fifo, 2)
            }),
        )
    },
};
