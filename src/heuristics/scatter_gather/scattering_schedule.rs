//! # Scattering-schedules (paper 001 §1.2D, (1)–(3))
//!
//! A scattering-schedule σ is a permutation of the nonnull messages N(M); P_0 sends
//! M_σ(1), M_σ(2), … "in a steady stream, with no intervening gaps", so M_i is dispatched at
//! τ_σ(i) = Σ L_j over the messages before it (1), i.e. SPEC start τ + 1. On a tree such a stream
//! never collides (SG-2) and M_i's last flit arrives in SPEC step α_σ(i) − 1 = τ + L_i + δ(i) − 1
//! (SG-1). This is the one mechanism behind every scatter here; the algorithms only choose σ,
//! sorting by depth with a [`Tie`] rule among equal depths.

use super::Tree;
use crate::error::Result;
use crate::rng::splitmix64;
use crate::spec::io::scatter_order_starts;
use crate::spec::{Instance, Node, Schedule};

/// How messages to equidistant nodes are ordered (Theorem 1, Claim 2: it does not matter for
/// FDF, SG-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// The smaller node first.
    SmallerNode,
    /// The larger node first.
    LargerNode,
    /// A pseudo-random order fixed by the seed (SplitMix64 keys).
    Seeded(u64),
}

impl Tie {
    /// The sort key of `node` among equal depths.
    fn key(self, node: Node) -> u64 {
        match self {
            Tie::SmallerNode => node as u64,
            Tie::LargerNode => u64::MAX - node as u64,
            Tie::Seeded(seed) => splitmix64(seed ^ splitmix64(node as u64)),
        }
    }
}

/// Which way depths are sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Depths {
    /// Non-increasing δ: farthest destination first (§2).
    Farthest,
    /// Non-decreasing δ: nearest destination first.
    Nearest,
}

/// The nonnull messages of `tree` sorted by depth (`depths`), equal depths by `tie`.
pub(super) fn order_by_depth(tree: &Tree, depths: Depths, tie: Tie) -> Vec<Node> {
    let mut order: Vec<Node> = (1..tree.len()).filter(|&i| tree.lengths[i] > 0).collect();
    order.sort_by_key(|&i| {
        let d = match depths {
            Depths::Farthest => u64::MAX - tree.depth[i],
            Depths::Nearest => tree.depth[i],
        };
        (d, tie.key(i))
    });
    order
}

/// The scattering-schedule σ = `order` (message ids = destination nodes) dispatched back to
/// back from P_0 (paper 001 (1)); null messages in `order` are skipped. Errors name an unknown
/// message.
pub fn dispatch(inst: &Instance, order: &[Node]) -> Result<Schedule> {
    let tree = Tree::of(inst)?;
    let starts = scatter_order_starts(order, &tree.lengths, "<order>")?;
    Ok(Schedule::Bufferless { starts, control: Vec::new() })
}
