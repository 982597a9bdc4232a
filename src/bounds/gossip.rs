//! # Gossip in square meshes and tori: bounds of paper 003
//!
//! Paper 003 (Lau, Zhang), §2, Lemma 1 (GOS-1, cited from
//! Fujita–Yamashita, reference \[11\]) and Lemma 2 (GOS-2).
//!
//! Model: H\*, p = 1, copy mode (SPEC §4.2). Rounds are numbered from 1, so g(N) is the SPEC
//! length and no conversion is needed. Both lemmas are the edge-count argument: every node
//! must receive the other N − 1 tokens, N(N − 1) deliveries in all, and a link carries at most
//! one packet of one token per round. An n×n mesh has 2n(n − 1) links, an n×n torus 2n².
//! H1 admits fewer schedules than H\*, so the lemmas hold for H1 too; under F\* and F1 a link
//! carries two packets per round and the lemmas do not apply (the generic total-load bound
//! of [`super::generic`] covers every rule and packet size).

use super::Bound;
use crate::spec::{Family, Instance, Model, PortRule, Problem};

/// GOS-1: g(n×n mesh) ≥ n²(n²−1) / (2n(n−1)) = n(n+1)/2 for n > 1 (0 for n = 1).
pub fn mesh(n: u64) -> u64 {
    if n < 2 { 0 } else { n * (n + 1) / 2 }
}

/// GOS-2: g(n×n torus) ≥ ⌈n²(n²−1) / (2n²)⌉ = ⌈(n² − 1)/2⌉: (n² − 1)/2 for odd n, n²/2 for even n.
pub fn torus(n: u64) -> u64 {
    (n * n - 1).div_ceil(2)
}

/// GOS-1 / GOS-2 when the instance is a square mesh or torus gossip under H\* or H1 with p = 1.
pub fn bounds(instance: &Instance) -> Vec<Bound> {
    let Model::StoreForward { rule: PortRule::HStar | PortRule::H1, packet: 1, .. } = instance.model else {
        return Vec::new();
    };
    if instance.problem != Problem::Gossip {
        return Vec::new();
    }
    match *instance.network.family() {
        Family::Mesh(r, c) if r == c => vec![Bound::new(
            "mesh edge count",
            Some("GOS-1"),
            mesh(r as u64),
            "n²(n²−1) deliveries over 2n(n−1) links, one packet per link per round (Lemma 1)",
        )],
        Family::Torus(r, c) if r == c => vec![Bound::new(
            "torus edge count",
            Some("GOS-2"),
            torus(r as u64),
            "n²(n²−1) deliveries over 2n² links, one packet per link per round (Lemma 2)",
        )],
        _ => Vec::new(),
    }
}
