//! # The combined mesh algorithm: Phase 2 cuts into Phase 1 (paper 003 §3.4, Theorem 1)
//!
//! "Instead of starting Phase 2 after Phase 1 is completely over, we let Phase 2 'cut into'
//! Phase 1" so that its first steps use Phase 1's idle edge instances (the white wires of §3.1,
//! Lemma 4). The modifications of §3.4: "the Phase-2 algorithm starts at the same time as the
//! Phase-1 algorithm" and "would give priority to Phase-1 tokens"; a Phase-2 token joins its
//! node's queues at the end of the round Phase 1 brings it there (reference semantics D3 of the claim catalogue, the
//! [`TwoPhase`](super::two_phase::TwoPhase) releases).
//!
//! Theorem 1 (corrected, GOS-14; the statement misprints "n² + n − 1/2" and "n² + n − 1"):
//! n²/2 + n − 1/2 rounds for odd n, n²/2 + n − 1 for even n; Lemma 1 gives n²/2 + n/2 (GOS-1),
//! so the gap is about n/2 (GOS-15). For n = 3 it takes 7 rounds and §3.5 modifies it to reach 6
//! ([`mesh_3x3`](mod@super::mesh_3x3)). Runs on r×c meshes too. Registered as `mesh-combined`.

use super::two_phase::mesh;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// The combined algorithm on an r×c mesh.
pub fn mesh_combined(inst: &Instance) -> Result<Schedule> {
    mesh(inst, true, METHOD.name)
}

/// Theorem 1's length on the n×n mesh (GOS-14, corrected): n²/2 + n − 1/2 for odd n,
/// n²/2 + n − 1 for even n.
pub fn theorem_1(n: u64) -> u64 {
    if n.is_multiple_of(2) { (n * n + 2 * n - 2) / 2 } else { (n * n + 2 * n - 1) / 2 }
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "mesh-combined",
    source: "003 §3.4 Theorem 1, Lemma 4, Table 1; GOS-13, GOS-14, GOS-15, GOS-24",
    summary: "the two-phase algorithm with Phase 2 starting at round 1 on the edges Phase 1 leaves idle \
              (Phase-1 tokens first): n²/2 + n − 1/2 (odd n), n²/2 + n − 1 (even n) rounds",
    applicability: super::MESH,
    claim: |inst| {
        let n = super::square(inst)?;
        let formula = if n.is_multiple_of(2) { "n²/2 + n − 1" } else { "n²/2 + n − 1/2" };
        super::claimed("GOS-14", "combined algorithm (Theorem 1, corrected)", formula, theorem_1(n))
    },
    run: mesh_combined,
};
