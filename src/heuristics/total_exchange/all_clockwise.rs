//! # All-clockwise rotation on an even ring (paper 004 §4.2, first paragraph)
//!
//! Paper 004, §4.2: "If all nodes send n/2 messages in the clockwise
//! direction, then it can be shown that any node-invariant algorithm is suboptimal by an
//! additive factor of O(n)", and §2: rotation "is optimal only for odd n". The paper gives this
//! baseline no name; here every antipodal message goes clockwise ([`RingTie::Clockwise`]) and
//! the queues are FIFO message-shift with own messages furthest-first. Each node's clockwise
//! messages travel Σ_{k=1}^{n/2} k = n(n+2)/8 hops over the n clockwise arcs, so no schedule with
//! this routing beats ⌈n(n+2)/8⌉ (TE-18); this one meets it.

use super::message_shift::Fifo;
use super::queue_sim::{InitialOrder, run, run_node_invariant};
use super::{EVEN_RING, claimed, produce};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, RingTie, Schedule};

/// FIFO message-shift with every antipodal message routed clockwise, both directions at once.
pub fn all_clockwise(inst: &Instance) -> Result<Schedule> {
    run(inst, RingTie::Clockwise, InitialOrder::FurthestFirst, &mut Fifo)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "all-clockwise",
    source: "004 §4.2 (first paragraph), §2; TE-18",
    summary: "even-ring baseline: every antipodal message clockwise, FIFO message-shift; \
              ⌈n(n+2)/8⌉ steps, Θ(n) above the optimum",
    applicability: EVEN_RING,
    claim: |inst| {
        let n = inst.network.len() as u64;
        claimed(inst, "TE-18", "all antipodal messages clockwise", "⌈n(n+2)/8⌉", (n * (n + 2)).div_ceil(8))
    },
    run: |inst| {
        produce(
            inst,
            all_clockwise,
            Some(|inst| {
                run_node_invariant(inst, RingTie::Clockwise, InitialOrder::FurthestFirst, &mut Fifo, 1)
            }),
        )
    },
};
