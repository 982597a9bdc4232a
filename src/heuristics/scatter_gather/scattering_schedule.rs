//! # Scattering-schedules (paper 001 §1.2D, (1)–(3))
//!
//! A scattering-schedule σ is a permutation of the nonnull messages N(M); P_0 sends
//! M_σ(1), M_σ(2), … "in a steady stream, with no intervening gaps", so M_i is dispatched at
//! τ_σ(i) = Σ L_j over the messages before it (1), i.e. SPEC start τ + 1. On a tree such a stream
//! never collides (SG-2) and M_i's last flit arrives in SPEC step α_σ(i) − 1 = τ + L_i + δ(i) − 1
//! (SG-1). This is the one mechanism behind every scatter here; the algorithms only choose σ,
//! sorting by depth with a [`Tie`] rule among equal depths.
//!
//! Off a tree the messages take the instance's routes: a spanning tree rooted at P_0 (§1.2,
//! "Porting to General Networks") or edge-disjoint trees rooted at P_0 (§4, "Parallelizing
//! Message Transmission"). [`Routes`] reads them as trees hanging from P_0's neighbours and
//! refuses routes that are not, on which a back-to-back stream could collide. Under the
//! multi-port rule every neighbour's tree gets a stream of its own ([`Routes::branches`],
//! [`dispatch_streams`]).

use super::Tree;
use crate::error::{InputError, Result};
use crate::rng::splitmix64;
use crate::spec::io::scatter_order_starts;
use crate::spec::{Family, Instance, Model, Node, Port, Problem, Schedule};
use std::collections::HashMap;

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

/// The routes of a scatter or gather as trees rooted at P_0, one per neighbour of P_0 (its
/// *branch*): the paths through a branch enter every node from one node, two branches share no
/// arc, and under the single-port rule no node lies in two branches. On a tree this always
/// holds. Then messages sent back to back along one branch never meet (SG-2), messages of
/// different branches meet on no arc, and single-port, every node forwards one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routes {
    /// L_i for every node (L_0 = 0).
    pub lengths: Vec<u64>,
    /// δ(i): the arcs on M_i's path (0 for a null message).
    pub depth: Vec<u64>,
    /// The neighbour of P_0 on M_i's path (`None` for a null message).
    pub branch: Vec<Option<Node>>,
}

impl Routes {
    /// The routes of `inst`'s nonnull messages, or `Err(reason)` when they are not trees
    /// hanging from P_0's neighbours.
    pub fn of(inst: &Instance) -> std::result::Result<Self, String> {
        let (Problem::Scatter(lengths) | Problem::Gather(lengths)) = &inst.problem else {
            return Err(format!("it scatters or gathers, and the problem is {}", inst.problem));
        };
        let n = lengths.len();
        let (mut depth, mut branch) = (vec![0; n], vec![None; n]);
        if matches!(inst.network.family(), Family::Tree(_) | Family::Path(_)) {
            // A tree's paths are its own: no check, and no path to resolve.
            let tree = Tree::of(inst).map_err(|e| e.to_string())?;
            let mut below: Vec<Option<Node>> = vec![None; n];
            for v in tree.top_down() {
                below[v] = match tree.parent[v] {
                    Some(0) => Some(v),
                    Some(p) => below[p],
                    None => None,
                };
                if lengths[v] > 0 {
                    (depth[v], branch[v]) = (tree.depth[v], below[v]);
                }
            }
            return Ok(Self { lengths: lengths.clone(), depth, branch });
        }
        let messages = inst.messages().map_err(|e| e.to_string())?;
        let single = matches!(inst.model, Model::Bufferless { port: Port::Single, .. });
        // The branch of every arc used (oriented away from P_0), and the node every node is
        // entered from per branch (one branch for all under the single-port rule).
        let mut arc_branch: HashMap<(Node, Node), Node> = HashMap::new();
        let mut entered: HashMap<(Node, Node), Node> = HashMap::new();
        for m in &messages {
            let mut path = m.nodes.clone();
            if m.dst == 0 {
                path.reverse();
            }
            let b = path[1];
            for w in path.windows(2) {
                let owner = *arc_branch.entry((w[0], w[1])).or_insert(b);
                if owner != b {
                    return Err(format!(
                        "the routes through P_0's neighbours {owner} and {b} share the arc ({}, {}), so \
                         they are not edge-disjoint trees rooted at P_0",
                        w[0], w[1]
                    ));
                }
                let from = *entered.entry((if single { 0 } else { b }, w[1])).or_insert(w[0]);
                if from != w[0] {
                    return Err(format!(
                        "the routes enter node {} from {from} and from {}{}, so they do not form a tree",
                        w[1],
                        w[0],
                        if single { "" } else { " within one branch" }
                    ));
                }
            }
            depth[m.id] = m.arcs.len() as u64;
            branch[m.id] = Some(b);
        }
        Ok(Self { lengths: lengths.clone(), depth, branch })
    }

    /// The nonnull messages.
    pub fn nonnull(&self) -> Vec<Node> {
        (1..self.lengths.len()).filter(|&i| self.lengths[i] > 0).collect()
    }

    /// The nonnull messages grouped by branch, branches by increasing neighbour.
    pub fn branches(&self) -> Vec<Vec<Node>> {
        let mut by: std::collections::BTreeMap<Node, Vec<Node>> = std::collections::BTreeMap::new();
        for i in self.nonnull() {
            by.entry(self.branch[i].expect("a nonnull message has a route")).or_default().push(i);
        }
        by.into_values().collect()
    }

    /// `messages` sorted by depth (`depths`), equal depths by `tie`.
    pub(super) fn order_by_depth(&self, messages: &[Node], depths: Depths, tie: Tie) -> Vec<Node> {
        let mut order = messages.to_vec();
        order.sort_by_key(|&i| {
            let d = match depths {
                Depths::Farthest => u64::MAX - self.depth[i],
                Depths::Nearest => self.depth[i],
            };
            (d, tie.key(i))
        });
        order
    }
}

/// The scattering-schedule σ = `order` (message ids = destination nodes) dispatched back to
/// back from P_0 (paper 001 (1)); null messages in `order` are skipped. Errors name an unknown
/// message.
pub fn dispatch(inst: &Instance, order: &[Node]) -> Result<Schedule> {
    dispatch_streams(inst, &[order.to_vec()])
}

/// Every stream of `streams` dispatched back to back from step 1 on, all at once: one
/// scattering-schedule per arc out of P_0 under the multi-port rule (§4). Errors name an unknown
/// message.
pub fn dispatch_streams(inst: &Instance, streams: &[Vec<Node>]) -> Result<Schedule> {
    let (Problem::Scatter(lengths) | Problem::Gather(lengths)) = &inst.problem else {
        return Err(
            InputError::new("<order>", "", format!("{} has no scattering-schedule", inst.problem)).into()
        );
    };
    let mut starts = Vec::new();
    for order in streams {
        starts.extend(scatter_order_starts(order, lengths, "<order>")?);
    }
    Ok(Schedule::Bufferless { starts, control: Vec::new() })
}
