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
//! | `parallel-fdf` | [`parallel_transmission`](mod@parallel_transmission) | scatter (multi-port) | one FDF stream down every arc of P_0, all at once (§4) | optimal for its routes: max over P_0's arcs of FDF | SG-4, SG-25 |
//! | `reversed-parallel-fdf` | [`parallel_transmission`](mod@parallel_transmission) | gather (centralized, multi-port) | `parallel-fdf` run backwards in time | the same | SG-4, SG-25 |
//!
//! Off a tree, scatter and gather take the instance's `routes`; the scattering-schedules apply
//! when the routes form trees hanging from P_0 ([`Routes`]). For the multi-port extension of §4,
//! [`tree_cover`] finds the edge-disjoint trees rooted at P_0 that Fig. 5 draws (SG-25) and
//! turns them into routes.
//!
//! Every scatter is a *scattering-schedule* σ, a dispatch order expanded back to back by
//! [`scattering_schedule::dispatch`] (paper 001 (1)), or one such stream per arc of P_0
//! ([`scattering_schedule::dispatch_streams`]); the orders differ only by how they sort
//! depths and break ties ([`Tie`]). The fixed child order of §3.2 is increasing node id.

pub mod farthest_destination_first;
pub mod nearest_first;
pub mod parallel_transmission;
pub mod reversed_fdf;
pub mod scattering_schedule;
pub mod shoulder_tap;
pub mod transmission_certification;
pub mod tree_cover;

pub use farthest_destination_first::farthest_destination_first;
pub use nearest_first::nearest_first;
pub use parallel_transmission::{parallel_fdf, reversed_parallel_fdf};
pub use reversed_fdf::{reversed_fdf, time_reversal};
pub use scattering_schedule::{Routes, Tie, dispatch, dispatch_streams};
pub use shoulder_tap::{Variant, shoulder_tap};
pub use transmission_certification::{Lag, Orders, transmission_certification};

use super::Method;
use crate::bounds::scatter_gather::fdf_length;
use crate::claims::{ClaimValue, Relation, Subject};
use crate::error::{Error, Result};
use crate::spec::{
    Applicability, FamilyKind, GatherMode, Instance, ModelClass, Node, Port, Problem, ProblemKind,
};

/// The registered scatter and gather algorithms.
pub static METHODS: &[Method] = &[
    farthest_destination_first::METHOD,
    nearest_first::METHOD,
    reversed_fdf::METHOD,
    parallel_transmission::METHOD,
    parallel_transmission::METHOD_GATHER,
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

/// The bufferless models of paper 001 (single-port, §1.2A) and the multi-port model in which
/// the same schedules stay admissible, with the gather mode `gather`.
const fn bufferless(gather: GatherMode) -> [ModelClass; 2] {
    [
        ModelClass::Bufferless { port: Port::Single, gather },
        ModelClass::Bufferless { port: Port::Multi, gather },
    ]
}

const CENTRALIZED: [ModelClass; 2] = bufferless(GatherMode::Centralized);
const DISTRIBUTED: [ModelClass; 2] = bufferless(GatherMode::Distributed);
const ANY_GATHER_MODE: [ModelClass; 4] = [CENTRALIZED[0], CENTRALIZED[1], DISTRIBUTED[0], DISTRIBUTED[1]];

/// A scatter (the gather mode does not matter: a scatter has no control messages) whose routes
/// are trees hanging from P_0.
const SCATTER: Applicability = on_routes(&[ProblemKind::Scatter], &ANY_GATHER_MODE, "");
/// A gather checked centralized (any starts) whose routes are trees hanging from P_0.
const CENTRALIZED_GATHER: Applicability = on_routes(
    &[ProblemKind::Gather],
    &CENTRALIZED,
    "it emits no control messages, so it applies only to gathers checked `gather = \"centralized\"`",
);
/// A gather checked distributed on a tree (or a path): starts must follow from control messages.
const DISTRIBUTED_GATHER: Applicability = Applicability {
    problems: &[ProblemKind::Gather],
    models: &DISTRIBUTED,
    families: &[FamilyKind::TREE, FamilyKind::PATH],
    refine: None,
    model_note: "it is a distributed protocol (paper 001 §3): it applies to gathers checked `gather = \"distributed\"`",
};
/// A distributed gather on a path rooted at one end (Shoulder-Tap, paper 001 §3.1).
const DISTRIBUTED_GATHER_ON_PATH: Applicability =
    Applicability { refine: Some(rooted_path), ..DISTRIBUTED_GATHER };

/// The tree must be a path rooted at one end.
fn rooted_path(inst: &Instance) -> std::result::Result<(), String> {
    let tree = Tree::of(inst).map_err(|e| e.to_string())?;
    if tree.children.iter().any(|c| c.len() > 1) {
        return Err(format!(
            "it runs on a path rooted at one end (paper 001 §3.1), not on {}",
            inst.network.spec_string()
        ));
    }
    Ok(())
}

/// Where a scattering-schedule applies: `problem` in `models`, on any network whose routes are
/// trees hanging from P_0 ([`Routes`]; always so on a tree).
const fn on_routes(
    problem: &'static [ProblemKind],
    models: &'static [ModelClass],
    model_note: &'static str,
) -> Applicability {
    Applicability { problems: problem, models, families: &[], refine: Some(route_trees), model_note }
}

/// The routes must be trees hanging from P_0.
fn route_trees(inst: &Instance) -> std::result::Result<(), String> {
    Routes::of(inst).map(|_| ())
}

/// The routes of `inst`, refused as [`Error::NotApplicable`] naming `method` when the instance is
/// outside `applicability`.
fn routes(inst: &Instance, applicability: &Applicability, method: &str) -> Result<Routes> {
    // The refinement is `route_trees`: read the routes once, here.
    require(inst, &Applicability { refine: None, ..*applicability }, method)?;
    Routes::of(inst).map_err(|reason| Error::NotApplicable { method: method.into(), reason })
}

/// Refuses, as [`Error::NotApplicable`] naming `method`, an instance outside `applicability`.
fn require(inst: &Instance, applicability: &Applicability, method: &str) -> Result<()> {
    applicability.check(inst).map_err(|reason| Error::NotApplicable { method: method.into(), reason })
}

/// Theorem 1 (SG-4): every farthest-destination-first order takes exactly FDF(M), the single-port
/// optimum; reversed in time, so does the centralized gather. (Multi-port, the optimum is
/// `parallel-fdf`'s.)
fn fdf_claim(inst: &Instance) -> Option<ClaimValue> {
    if !matches!(inst.model.class(), ModelClass::Bufferless { port: Port::Single, .. }) {
        return None;
    }
    let routes = Routes::of(inst).ok()?;
    let value = fdf_length(routes.nonnull().into_iter().map(|i| (routes.depth[i], routes.lengths[i])));
    Some(ClaimValue {
        claim: "SG-4".into(),
        subject: Subject::Algorithm,
        about: "farthest-destination-first is optimal (Theorem 1)".into(),
        value,
        relation: Relation::Equal,
        convention: "FDF(M) = max over depths of (Σ_{δ≥Δ} L + Δ − 1) steps; the paper's α is one more".into(),
    })
}
