//! # Virtual schedules via network cuts on bidirectional trees (paper 000 §6.1, §6.3)
//!
//! A bidirectional tree (BT) is not an FL-network, but the designated paths through one arc
//! (u,v) are (CHAT-32): node x on u's side has level −dist(x,u), on v's side dist(x,v) + 1.
//! Theorem 6.1's strategy (CHAT-30 … CHAT-33):
//!
//! 1. Cut every current subtree at its most balanced edge (Proposition 6.1, after Valiant: for
//!    maximum degree δ > 1 both parts have between ⌊n/δ⌋ and ⌈(δ−1)n/δ⌉ nodes, CHAT-30); the
//!    parts are cut again, level by level, until single nodes remain, at most ⌈δ log n⌉ levels
//!    (CHAT-31). [`cut_levels`].
//! 2. The messages a level's cut edge is the first to meet, per arc of the edge, all share that
//!    arc: stacked one after another (in id order) they form a virtual schedule of duration
//!    C(arc) ≤ C(M), which VO turns, in that arc's leveling, into a chatting schedule shorter
//!    than C + Q (Theorem 3.2).
//! 3. As in the paper, the two arcs of a cut edge are sequenced (≤ 2(C + Q) per level, although
//!    their messages use disjoint arcs, CHAT-32 notes); cuts of different subtrees of one level
//!    run at once; levels are concatenated: T(τ) ≤ 2(C(M) + Q(M))·⌈δ log n⌉ (Theorem 6.1,
//!    CHAT-33).
//!
//! On a virtual instance the stacked virtual schedules are assembled the same way. Registered
//! as `bt-cut-decomposition`, for trees and (a tree of degree 2) bidirectional linear arrays.

use super::{
    Group, Leveled, MODEL_NOTE, MODELS, assemble, atlas_paths, claimed, is_virtual, parameters, refuse,
};
use crate::claims::Relation;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Applicability, FamilyKind, Instance, Network, Node, ProblemKind, Schedule};

/// One cut: the edge, as the arc (u, v) from the side nearer the subtree's first node, and the
/// node counts of u's side and v's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// The cut edge as an arc (u, v).
    pub arc: (Node, Node),
    /// Nodes on u's side and on v's side after the cut.
    pub sizes: (usize, usize),
}

/// The recursive decomposition of a tree network: for each level, the most balanced edge of
/// every subtree (of two or more nodes) that the previous levels left.
pub fn cut_levels(network: &Network) -> Vec<Vec<Cut>> {
    let adjacency = network.out_neighbours();
    let mut component = vec![0usize; network.len()];
    let mut components = 1;
    let mut levels = Vec::new();
    loop {
        let mut level = Vec::new();
        let existing = components;
        for id in 0..existing {
            let Some(root) = component.iter().position(|&c| c == id) else { continue };
            // Depth-first order and parents inside the subtree.
            let mut order = vec![root];
            let mut parent = vec![usize::MAX; network.len()];
            parent[root] = root;
            let mut i = 0;
            while i < order.len() {
                let x = order[i];
                for &y in &adjacency[x] {
                    if component[y] == id && parent[y] == usize::MAX {
                        parent[y] = x;
                        order.push(y);
                    }
                }
                i += 1;
            }
            let total = order.len();
            if total < 2 {
                continue;
            }
            let mut size = vec![1usize; network.len()];
            for &x in order.iter().skip(1).rev() {
                size[parent[x]] += size[x];
            }
            let child = *order
                .iter()
                .skip(1)
                .max_by_key(|&&c| (size[c].min(total - size[c]), std::cmp::Reverse(c)))
                .expect("two nodes");
            level.push(Cut { arc: (parent[child], child), sizes: (total - size[child], size[child]) });
            // The child's side (its descendants; parents precede children in `order`) becomes a
            // new subtree.
            let mut side = vec![false; network.len()];
            side[child] = true;
            for &x in &order[1..] {
                side[x] = side[x] || side[parent[x]];
            }
            for &x in &order {
                if side[x] {
                    component[x] = components;
                }
            }
            components += 1;
        }
        if level.is_empty() {
            return levels;
        }
        levels.push(level);
    }
}

/// `bt-cut-decomposition` on a tree (or bidirectional linear array) instance.
pub fn bt_cut_decomposition(inst: &Instance) -> Result<Schedule> {
    refuse(inst, &METHOD)?;
    let messages = inst.messages()?;
    let levels = cut_levels(&inst.network);
    // The first level whose cut edge lies on the message's path, and the arc it crosses.
    let mut assigned: Vec<Vec<(usize, bool)>> = vec![Vec::new(); levels.len()];
    for (x, m) in messages.iter().enumerate() {
        let hop = |a: Node, b: Node| m.nodes.windows(2).any(|w| w[0] == a && w[1] == b);
        let (k, forward) = levels
            .iter()
            .enumerate()
            .find_map(|(k, cuts)| {
                cuts.iter().find_map(|c| {
                    let (u, v) = c.arc;
                    if hop(u, v) {
                        Some((k, true))
                    } else if hop(v, u) {
                        Some((k, false))
                    } else {
                        None
                    }
                })
            })
            .expect("every path of two or more nodes crosses some cut edge");
        assigned[k].push((x, forward));
    }
    let mut phases = Vec::new();
    for (k, cuts) in levels.iter().enumerate() {
        for forward in [true, false] {
            let groups = cuts
                .iter()
                .map(|c| {
                    let (u, v) = if forward { c.arc } else { (c.arc.1, c.arc.0) };
                    let dist = inst.network.distances_from(u);
                    let members: Vec<&crate::spec::Message> = assigned[k]
                        .iter()
                        .filter(|&&(x, f)| f == forward && messages[x].nodes.windows(2).any(|w| w == [u, v]))
                        .map(|&(x, _)| &messages[x])
                        .collect();
                    let leveled: Vec<Leveled> = members
                        .iter()
                        .map(|m| Leveled {
                            id: m.id,
                            len: m.len as i64,
                            hops: m.arcs.len() as i64,
                            level: -(dist[m.src] as i64),
                        })
                        .collect();
                    // All of them share (u, v): stacked, S = C(u, v).
                    let sigma = leveled
                        .iter()
                        .scan(1i64, |next, m| {
                            let v = *next;
                            *next += m.len;
                            Some(v)
                        })
                        .collect();
                    Group { messages: leveled, sigma }
                })
                .filter(|g| !g.messages.is_empty())
                .collect::<Vec<_>>();
            if !groups.is_empty() {
                phases.push(groups);
            }
        }
    }
    Ok(assemble(inst, phases))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "bt-cut-decomposition",
    source: "000 §6.1, §6.3 Proposition 6.1, Theorem 6.1; CHAT-30, CHAT-31, CHAT-32, CHAT-33",
    summary: "bidirectional tree: cut the most balanced edge of every subtree level by level; per cut \
              arc stack its messages and VO them in the arc's leveling; T ≤ 2(C + Q)⌈δ log n⌉",
    applicability: Applicability {
        problems: &[ProblemKind::Chatting],
        models: MODELS,
        families: &[FamilyKind::TREE, FamilyKind::PATH],
        refine: Some(atlas_paths),
        model_note: MODEL_NOTE,
    },
    claim: |inst| {
        let (c, _, q) = parameters(inst)?;
        let delta = inst.network.out_neighbours().iter().map(Vec::len).max()? as f64;
        let depth = (delta * (inst.network.len() as f64).log2()).ceil() as u64;
        (!is_virtual(inst)).then(|| {
            claimed(
                "CHAT-33",
                "BT cut decomposition (Theorem 6.1)",
                "T ≤ 2(C + Q)⌈δ log n⌉",
                Relation::AtMost,
                2 * (c + q) * depth,
            )
        })?
    },
    run: bt_cut_decomposition,
};
