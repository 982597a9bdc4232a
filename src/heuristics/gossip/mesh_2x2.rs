//! # The 2×2 mesh in 3 rounds (paper 003 §3.5, Fig. 8a)
//!
//! "For n = 2, the mesh is a cycle with four nodes. All the nodes need to do is simply send
//! their tokens along the same agreed direction; the gossip would finish in three steps, which
//! is optimal" (GOS-16, GOS-30): the cycle gossip ([`cycle_gossip`](mod@super::cycle_gossip)) on
//! the 4-cycle (0,0) → (0,1) → (1,1) → (1,0) → (0,0). Every link is busy in every round and no
//! token arrives twice, as a schedule meeting Lemma 1's n(n + 1)/2 = 3 must (GOS-3). Registered
//! as `mesh-2x2`.

use super::cycle_gossip::cycle_gossip_on;
use super::line::Line;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Gossip on the 2×2 mesh around its 4-cycle: 3 rounds.
pub fn mesh_2x2(_inst: &Instance) -> Result<Schedule> {
    Ok(cycle_gossip_on(&Line::closed(vec![0, 1, 3, 2])))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "mesh-2x2",
    source: "003 §3.5 Fig. 8a; GOS-16, GOS-30, GOS-24c",
    summary: "every node forwards tokens around the 4-cycle in one agreed direction: 3 rounds = Lemma 1, \
              optimal",
    applicability: super::MESH_2X2,
    claim: |_| super::claimed("GOS-16", "2x2 mesh around its 4-cycle (§3.5)", "3", 3),
    run: mesh_2x2,
};
