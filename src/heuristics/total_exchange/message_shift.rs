//! # Message-shift (paper 004 §4.1, after Saad & Schultz \[9\])
//!
//! Paper 004, §4.1: "the *message-shift* algorithm where at every node
//! messages join and leave the queue in a FIFO manner. In effect this algorithm rotates the
//! messages around the ring". FIFO is node-invariant for any rotation-consistent initial order
//! (TE-17), hence optimal on odd rings, (n²−1)/8 (Theorem 2, TE-14 … TE-16). The paper leaves the
//! initial order open; the registered method uses furthest-first, which reproduces the
//! reconstruction of Fig. 3(a) (TE-25).
//!
//! The same FIFO discipline drives `modified-message-shift` and `all-clockwise` on even rings.

use super::queue_sim::{Discipline, InitialOrder, Lane, Msg, TieBreak, run, run_node_invariant};
use super::{ODD_RING, produce, te_16};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Node, Schedule};

/// The FIFO discipline: the head of the queue leaves; arrivals join at the back.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fifo;

impl Discipline for Fifo {
    fn priority(&self, _: &Lane, _: Node, _: &Msg) -> i64 {
        0
    }

    fn tie(&mut self) -> Option<&mut TieBreak> {
        None
    }
}

/// Message-shift total exchange in both directions at once: FIFO queues, each node's own
/// messages first in `order` (ring antipodal messages routed by the instance's `ring_tie`).
pub fn message_shift(inst: &Instance, order: InitialOrder) -> Result<Schedule> {
    run(inst, inst.ring_tie, order, &mut Fifo)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "message-shift",
    source: "004 §4.1 Theorem 2, Fig. 3(a); TE-14..TE-17, TE-25",
    summary: "messages rotate around the ring through FIFO queues, own messages furthest first, each \
              dropped at its destination; node-invariant, optimal (n²−1)/8 on odd rings",
    applicability: ODD_RING,
    claim: te_16,
    run: |inst| {
        produce(
            inst,
            |inst| message_shift(inst, InitialOrder::FurthestFirst),
            Some(|inst| run_node_invariant(inst, inst.ring_tie, InitialOrder::FurthestFirst, &mut Fifo, 1)),
        )
    },
};
