//! # Scattering and gathering on trees (paper 001)
//!
//! Bhatt, Pucci, Ranade, Rosenberg, "Scattering and Gathering Messages in Networks of
//! Processors". Bufferless model, single-port (§1.2A, SPEC §4.1); a tree rooted at P_0 = node 0
//! (a path P_0..P_n is `path:n+1`); message M_i has L_i ≥ 0 flits and travels the unique path
//! between P_0 and P_i, of length δ(i) = depth of P_i.
//!
//! | method | file | problem | what | claimed (SPEC steps) | claims |
//! |---|---|---|---|---|---|
//! | `farthest-destination-first` | [`farthest_destination_first`](mod@farthest_destination_first) | scatter | nonnull messages by non-increasing δ, back to back (1) | optimal: max_Δ (Σ_{δ≥Δ} L + Δ − 1) | SG-1 … SG-7 |
//! | `nearest-first` | [`nearest_first`](mod@nearest_first) | scatter | baseline: by non-decreasing δ (Fig. 1(b)'s order) | never shorter than FDF | SG-4, SG-28 |
//! | `reversed-fdf` | [`reversed_fdf`](mod@reversed_fdf) | gather (centralized) | an FDF scatter run backwards in time (§3) | the FDF optimum | SG-4 |
//! | `shoulder-tap` | [`shoulder_tap`](mod@shoulder_tap) | gather (distributed, path) | wake-up calls, P_n corrected | recursion (7) with equality | SG-9 … SG-13 |
//! | `shoulder-tap-printed` | [`shoulder_tap`](mod@shoulder_tap) | gather (distributed, path) | as printed (P_n waits `max(2, s_n)`) | (7), violated | SG-11 |
//! | `transmission-certification` | [`transmission_certification`](mod@transmission_certification) | gather (distributed, tree) | token, certificates (SG-17 formula), orders (Fig. 4 rule), gap-free stream | ≤ 2B + C + M, violated | SG-16 … SG-22 |
//! | `transmission-certification-exact` | [`transmission_certification`](mod@transmission_certification) | gather (distributed, tree) | the same with the segment optimum for the lags (Remark 5) | ≤ the formula's length | SG-17, SG-18 |
//!
//! Every scatter is a *scattering-schedule* σ, a dispatch order expanded back to back by
//! [`scattering_schedule::dispatch`] (paper 001 (1)); the orders differ only by how they sort
//! depths and break ties ([`Tie`]). The fixed child order of §3.2 is increasing node id.

pub mod farthest_destination_first;
pub mod nearest_first;
pub mod reversed_fdf;
pub mod scattering_schedule;
pub mod shoulder_tap;
pub mod transmission_certification;

pub use farthest_destination_first::farthest_destination_first;
pub use nearest_first::nearest_first;
pub use reversed_fdf::{reversed_fdf, time_reversal};
pub use scattering_schedule::{Tie, dispatch};
pub use shoulder_tap::{Variant, shoulder_tap};
pub use transmission_certification::{Lag, Orders, transmission_certification};

use super::Method;
use crate::error::{Error, Result};
use crate::spec::{GatherMode, Instance, Model, Node, Problem};

/// The registered scatter and gather algorithms.
pub static METHODS: &[Method] = &[
    farthest_destination_first::METHOD,
    nearest_first::METHOD,
    reversed_fdf::METHOD,
    shoulder_tap::METHOD,
    shoulder_tap::METHOD_PRINTED,
    transmission_certification::METHOD,
    transmission_certification::METHOD_EXACT,
];

/// The rooted tree of a scatter or gather instance (root P_0 = node 0) with its lengths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// The parent of every node (`None` for the root).
    pub parent: Vec<Option<Node>>,
    /// The children of every node in the fixed order of §3.2: increasing node id.
    pub children: Vec<Vec<Node>>,
    /// δ(i): the depth of every node.
    pub depth: Vec<u64>,
    /// L_i for every node (L_0 = 0).
    pub lengths: Vec<u64>,
}

impl Tree {
    /// The tree and lengths of a scatter or gather instance (its network is a tree or a path
    /// by instance validation).
    pub fn of(inst: &Instance) -> Result<Self> {
        let (Problem::Scatter(lengths) | Problem::Gather(lengths)) = &inst.problem else {
            return Err(Error::NotApplicable {
                method: "paper 001 algorithms".into(),
                reason: format!("they scatter or gather, and the problem is {}", inst.problem),
            });
        };
        let depth: Vec<u64> = inst.network.distances_from(0).into_iter().map(|d| d as u64).collect();
        let n = depth.len();
        let mut parent = vec![None; n];
        let mut children = vec![Vec::new(); n];
        for &(u, v) in inst.network.arcs() {
            if depth[v] == depth[u] + 1 {
                parent[v] = Some(u);
                children[u].push(v);
            }
        }
        children.iter_mut().for_each(|c| c.sort_unstable());
        Ok(Self { parent, children, depth, lengths: lengths.clone() })
    }

    /// Number of nodes, root included.
    pub fn len(&self) -> usize {
        self.depth.len()
    }

    /// Whether the tree has no nodes (never true for a built instance).
    pub fn is_empty(&self) -> bool {
        self.depth.is_empty()
    }

    /// The nodes in breadth-first order (every parent before its children).
    pub fn top_down(&self) -> Vec<Node> {
        let mut order: Vec<Node> = (0..self.len()).collect();
        order.sort_by_key(|&v| self.depth[v]);
        order
    }
}

/// What an algorithm of paper 001 needs from an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Needs {
    /// A bufferless scatter on a tree.
    Scatter,
    /// A bufferless gather checked centralized (any starts).
    CentralizedGather,
    /// A bufferless gather checked distributed, on a path rooted at one end.
    DistributedGatherOnPath,
    /// A bufferless gather checked distributed, on a tree.
    DistributedGather,
}

/// `Ok(())` when `inst` is what `needs` asks for, else the reason.
fn fits(inst: &Instance, needs: Needs) -> std::result::Result<(), String> {
    let problem = match needs {
        Needs::Scatter => "scatter",
        _ => "gather",
    };
    if inst.problem.name() != problem {
        return Err(format!("it solves {problem}, not {}", inst.problem));
    }
    let Model::Bufferless { virtual_schedule: false, gather, .. } = inst.model else {
        return Err(format!("it needs the bufferless model (paper 001 §1.2), not {}", inst.model.name()));
    };
    let mode = match needs {
        Needs::Scatter => return Ok(()),
        Needs::CentralizedGather => GatherMode::Centralized,
        Needs::DistributedGather | Needs::DistributedGatherOnPath => GatherMode::Distributed,
    };
    if gather != mode {
        return Err(match mode {
            GatherMode::Centralized => "it emits no control messages, so it applies only to gathers checked \
                                        `gather = \"centralized\"`"
                .into(),
            GatherMode::Distributed => "it is a distributed protocol (paper 001 §3): it applies to gathers \
                                        checked `gather = \"distributed\"`"
                .into(),
        });
    }
    if needs == Needs::DistributedGatherOnPath {
        let tree = Tree::of(inst).map_err(|e| e.to_string())?;
        if tree.children.iter().any(|c| c.len() > 1) {
            return Err(format!(
                "it runs on a path rooted at one end (paper 001 §3.1), not on {}",
                inst.network.spec_string()
            ));
        }
    }
    Ok(())
}

/// Refuses, as [`Error::NotApplicable`] naming `method`, an instance that `needs` refuses.
fn require(inst: &Instance, needs: Needs, method: &str) -> Result<()> {
    fits(inst, needs).map_err(|reason| Error::NotApplicable { method: method.into(), reason })
}
