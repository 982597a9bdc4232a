//! # Gossip on the even torus (paper 003 §4.1, Fig. 9, Theorem 2)
//!
//! The two-phase strategy on the rings of the torus, "Phase 1 followed by Phase 2 with no
//! overlapping":
//!
//! * **Phase 1** ([`half_gossip`] with [`Reach::Ring`]): on every ring each broadcaster's token
//!   goes n/2 hops right and n/2 − 1 left, n/2 rounds, no conflicts, n/2 idle edge instances per
//!   ring, all in the last round (GOS-18, Fig. 9a);
//! * **Phase 2** ([`ring_gossip`]): every node sends its FIFO queue (its n/2 Phase-1 tokens,
//!   then what it receives) to its right-hand neighbour, each token travelling n − 1 hops:
//!   (n/2)(n − 1) rounds with every link busy (GOS-19, Fig. 9b).
//!
//! Theorem 2: n/2 + n²/2 − n/2 = n²/2 rounds, Lemma 2's bound, hence optimal (GOS-20; the proof
//! cites "Lemma 3" for Lemma 2). The n² idle edge instances are Phase 1's (GOS-3). Runs on r×c
//! tori with r and c even (the rings of each dimension on their own). Odd rings use the
//! delayer of [`torus_odd`](mod@super::torus_odd), through the same `torus` function. Registered
//! as `torus-even`.

use super::cycle_gossip::ring_gossip;
use super::grid;
use super::phase1::{Reach, delayed_half_gossip, half_gossip};
use super::two_phase::TwoPhase;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Phase 1 on every ring of an r×c torus: the even-ring half-gossip on rings of even length,
/// the delayer's on rings of odd length (§4.2).
pub fn torus_phase1(rows: usize, cols: usize) -> Result<TwoPhase> {
    TwoPhase::new(rows, cols, true, |line, b| {
        if line.len().is_multiple_of(2) {
            half_gossip(line, b, Reach::Ring)
        } else {
            delayed_half_gossip(line, b)
        }
    })
}

/// The torus algorithm of §4: Phase 1 on every ring, then the FIFO ring gossip, no overlap.
pub(crate) fn torus(inst: &Instance, method: &str) -> Result<Schedule> {
    let (rows, cols) = grid(inst);
    let mut plan = torus_phase1(rows, cols)?;
    plan.defer_phase2();
    let phase2 = plan.run_all(ring_gossip)?;
    plan.schedule(&phase2, method)
}

/// Theorem 2 on an r×c torus with r and c even: n²/2 rounds on the n×n torus.
pub fn torus_even(inst: &Instance) -> Result<Schedule> {
    torus(inst, METHOD.name)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "torus-even",
    source: "003 §4.1 Fig. 9, Theorem 2, Lemma 2; GOS-18, GOS-19, GOS-20, GOS-32",
    summary: "Phase 1 (tokens n/2 right, n/2 − 1 left on every ring), then unidirectional FIFO ring \
              gossip of the collected tokens: n²/2 rounds = Lemma 2, optimal",
    applicability: super::TORUS_EVEN,
    claim: |inst| {
        let n = super::square(inst)?;
        super::claimed("GOS-20", "even-torus algorithm (Theorem 2)", "n²/2", n * n / 2)
    },
    run: torus_even,
};
