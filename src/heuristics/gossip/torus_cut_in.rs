//! # The torus with Phase 2 cutting into Phase 1 (ours, not paper 003's)
//!
//! Paper 003 runs the torus phases one after the other (§4.1: "Phase 1 followed by Phase 2 with
//! no overlapping", Theorems 2 and 3), while on the mesh it lets Phase 2 "cut into" Phase 1
//! (§3.4, Theorem 1). This is the torus algorithm with the mesh's overlap: Phase 1 on every ring
//! (the delayer's on odd rings, §4.2), and the unidirectional FIFO ring gossip of §4.1 starting
//! at round 1 on the edge instances Phase 1 leaves idle, Phase-1 tokens first; a Phase-2 token
//! joins its node's queue at the end of the round Phase 1 brings it there. Phase-1 and Phase-2
//! tokens of one ring are distinct (a ring's Phase-1 tokens are its own broadcasters', its
//! Phase-2 tokens the orthogonal rings'), so the overlap delivers no duplicate.
//!
//! Measured with the checker (tests/integration/gossip.rs), against Lemma 2's ⌈(n² − 1)/2⌉
//! (GOS-2) and Theorem 3's (n² + 1)/2 + 1 (GOS-23). Registered as `torus-cut-in`.

use super::cycle_gossip::ring_gossip;
use super::grid;
use super::torus_even::torus_phase1;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Phase 1 on every ring of an r×c torus, the FIFO ring gossip cutting into it.
pub fn torus_cut_in(inst: &Instance) -> Result<Schedule> {
    let (rows, cols) = grid(inst);
    let plan = torus_phase1(rows, cols)?;
    let phase2 = plan.run_all(ring_gossip)?;
    plan.schedule(&phase2, METHOD.name)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "torus-cut-in",
    source: "ours (not paper 003's): §4 torus phases overlapped as §3.4 overlaps the mesh's; GOS-2, GOS-23",
    summary: "Phase 1 on every ring (delayer on odd rings), FIFO ring gossip starting at round 1 on the \
              edges Phase 1 leaves idle",
    applicability: super::TORUS,
    claim: |_| None,
    run: torus_cut_in,
};
