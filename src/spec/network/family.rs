//! Network families as a registry (SPEC §2): each family is one file implementing
//! [`NetworkFamily`] (its string, fixed node numbering and arcs, atlas paths, diameter and the
//! node partitions the cut bounds try) and one line in [`FAMILIES`]; [`register`] adds one at
//! run time. The [`Family`] value names the families the papers' algorithms recognise by their
//! parameters; every other family is [`Family::Other`].

use super::{Network, Node, RingTie};
use crate::spec::limits::Resource;
use std::cell::RefCell;
use std::fmt;

/// A network family of SPEC §2. Methods taking a [`Family`] are called with one the family
/// itself parsed ([`Family::definition`] dispatches them); on another family's value they refuse.
pub trait NetworkFamily: Sync {
    /// The prefix of its network strings (`mesh`, `fat-tree`).
    fn name(&self) -> &'static str;

    /// The family with its parameters, from the text after `name:` (`4x4`) of the network
    /// string `text` (which errors quote).
    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String>;

    /// The parameters as the text after `name:`, which [`NetworkFamily::parse`] reads back.
    fn params(&self, family: &Family) -> String;

    /// The node count and the arcs in the family's fixed numbering, or why the parameters are
    /// refused. Check the node and arc counts with [`guard_size`] before allocating.
    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String>;

    /// The atlas's designated path from `u` to `v` (SPEC §2), `u != v` both in range; `None`
    /// when `v` cannot be reached. Unless the family overrides it: a BFS shortest path, as on
    /// explicit graphs.
    fn default_path(&self, network: &Network, u: Node, v: Node, tie: RingTie) -> Option<Vec<Node>> {
        let _ = tie;
        network.bfs_path(u, v)
    }

    /// The hop distance from `u` to `v`; unless overridden, the length of the designated path.
    fn distance(&self, network: &Network, u: Node, v: Node) -> Option<usize> {
        network.default_path(u, v, RingTie::Clockwise).map(|p| p.len() - 1)
    }

    /// Why the family's nodes have no forward levels whatever its arcs (paper 000 §3.4);
    /// `None` (unless overridden): the arcs decide.
    fn levels_refusal(&self) -> Option<&'static str> {
        None
    }

    /// The network's [`Network::diameter`] in closed form, when the family has one; `None`
    /// (unless overridden): a search computes it.
    fn diameter(&self, network: &Network) -> Option<(usize, bool)> {
        let _ = network;
        None
    }

    /// An upper bound on the hop distance between two nodes that reach each other, in closed
    /// form (the event guard reads it before any schedule exists, SPEC limits).
    fn diameter_bound(&self, network: &Network) -> usize;

    /// The partitions of the nodes into consecutive blocks whose intervals the generic cut
    /// bounds try (lines, row and column bands), and every tree edge's subtree when the
    /// network is a rooted tree. Unless overridden: none.
    fn cuts(&self, network: &Network) -> Cuts {
        let _ = network;
        Cuts::default()
    }
}

/// What the generic cut bounds try on a family's network.
#[derive(Debug, Default)]
pub struct Cuts {
    /// Partitions into consecutive blocks whose intervals are cuts.
    pub blocks: Vec<Blocks>,
    /// The parent list of a rooted tree (parents numbered below their children, root 0):
    /// each edge cuts off a subtree.
    pub tree: Option<Vec<Node>>,
}

/// A partition of the nodes into consecutive blocks (nodes of a line, rows or columns), whose
/// intervals (cyclic when `cyclic`) are the cuts tried.
#[derive(Debug)]
pub struct Blocks {
    /// The block of every node.
    pub of: Vec<usize>,
    /// The number of blocks.
    pub count: usize,
    /// Whether intervals wrap around.
    pub cyclic: bool,
    /// What the intervals are, for the bound's note.
    pub what: &'static str,
}

/// Refuses a node count beyond the resource guard before a family allocates its arcs.
pub fn guard_nodes(nodes: Option<u64>) -> Result<(), String> {
    Resource::Nodes.guard(nodes, "the network")
}

/// Refuses a network whose node count or arc count (from the family's formula; None: beyond
/// u64) is beyond its guard, before anything of that size is allocated (docs/spec.md §5.3).
pub fn guard_size(nodes: Option<u64>, arcs: Option<u64>) -> Result<(), String> {
    guard_nodes(nodes)?;
    Resource::Arcs.guard(arcs, "the network")
}

/// A non-negative integer of the network string `text`.
pub fn number(t: &str, text: &str) -> Result<usize, String> {
    t.trim().parse::<usize>().map_err(|_| format!("`{t}` is not a non-negative integer in `{text}`"))
}

/// The refusal of a family asked about another family's value.
pub fn not_mine(family: &dyn NetworkFamily, value: &Family) -> String {
    format!("{value:?} is not a `{}` network", family.name())
}

/// The built-in families, in the order errors list them.
pub const FAMILIES: &[&dyn NetworkFamily] = &[
    &super::line::ULA,
    &super::line::PATH,
    &super::ring::RING,
    &super::ring::URING,
    &super::grid::MESH,
    &super::grid::TORUS,
    &super::esm::ESM,
    &super::tree::TREE,
    &super::fat_tree::FAT_TREE,
];

thread_local! {
    /// Families added at run time by [`register`], after [`FAMILIES`].
    static REGISTERED: RefCell<Vec<&'static dyn NetworkFamily>> = const { RefCell::new(Vec::new()) };
}

/// Adds a family to the registry of the calling thread, so that [`Network::parse`] there reads
/// its strings (networks built from it work on any thread); refused when its name is already
/// taken by a family or a named topology. A program registers its families at start-up, before
/// it reads instances; tests running side by side do not see each other's families.
pub fn register(family: &'static dyn NetworkFamily) -> Result<(), String> {
    let name = family.name();
    let taken = lookup(name).is_some()
        || name == super::graph::GRAPH.name()
        || crate::spec::topology::TOPOLOGIES.iter().any(|t| t.name == name);
    if taken {
        return Err(format!("a network family or topology is already named `{name}`"));
    }
    REGISTERED.with_borrow_mut(|registered| registered.push(family));
    Ok(())
}

/// Every family: [`FAMILIES`], then those [`register`]ed on this thread.
fn all() -> Vec<&'static dyn NetworkFamily> {
    REGISTERED.with_borrow(|registered| FAMILIES.iter().chain(registered).copied().collect())
}

/// The family whose strings start `name:`.
pub fn lookup(name: &str) -> Option<&'static dyn NetworkFamily> {
    all().into_iter().find(|f| f.name() == name)
}

/// The names of every family, comma-separated, for errors.
pub fn names() -> String {
    let names: Vec<&str> = all().iter().map(|f| f.name()).collect();
    names.join(", ")
}

/// A network family with its parameters (SPEC §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Family {
    /// Unidirectional linear array: arcs (x, x+1).
    Ula(usize),
    /// Bidirectional linear array.
    Path(usize),
    /// Bidirectional ring.
    Ring(usize),
    /// Unidirectional ring: arcs (x, x+1 mod n).
    URing(usize),
    /// `rows x cols` mesh, node (i, j) -> i*cols + j.
    Mesh(usize, usize),
    /// `rows x cols` torus.
    Torus(usize, usize),
    /// Eastward-Southward mesh `n x n` (paper 000 §5.2).
    Esm(usize),
    /// Rooted bidirectional tree given by its parent list; `parent[0]` is the root's own entry
    /// and is ignored (root 0).
    Tree(Vec<Node>),
    /// Ideal fat-tree with N processors at the leaves (paper 002); only processors are nodes.
    FatTree(usize),
    /// Explicit graph with `n` nodes.
    Graph(usize),
    /// A family no paper's algorithm names, with the parameters it parsed.
    Other(Registered),
}

/// A family of the registry with its parameters, as [`Family::Other`] holds it.
#[derive(Clone)]
pub struct Registered {
    /// The family.
    pub family: &'static dyn NetworkFamily,
    /// Its parameters, as its [`NetworkFamily::parse`] read them.
    pub params: Vec<usize>,
}

impl PartialEq for Registered {
    fn eq(&self, other: &Self) -> bool {
        self.family.name() == other.family.name() && self.params == other.params
    }
}

impl Eq for Registered {}

impl fmt::Debug for Registered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:?}", self.family.name(), self.params)
    }
}

impl Family {
    /// The family's definition, which answers for it.
    pub fn definition(&self) -> &'static dyn NetworkFamily {
        match self {
            Family::Ula(_) => &super::line::ULA,
            Family::Path(_) => &super::line::PATH,
            Family::Ring(_) => &super::ring::RING,
            Family::URing(_) => &super::ring::URING,
            Family::Mesh(..) => &super::grid::MESH,
            Family::Torus(..) => &super::grid::TORUS,
            Family::Esm(_) => &super::esm::ESM,
            Family::Tree(_) => &super::tree::TREE,
            Family::FatTree(_) => &super::fat_tree::FAT_TREE,
            Family::Graph(_) => &super::graph::GRAPH,
            Family::Other(r) => r.family,
        }
    }

    /// The family without its parameters.
    pub fn kind(&self) -> FamilyKind {
        FamilyKind(self.definition())
    }
}

/// A network family without its parameters, as applicability descriptions name them.
#[derive(Clone, Copy)]
pub struct FamilyKind(pub &'static dyn NetworkFamily);

impl FamilyKind {
    /// `ula:N`.
    pub const ULA: FamilyKind = FamilyKind(&super::line::ULA);
    /// `path:N`.
    pub const PATH: FamilyKind = FamilyKind(&super::line::PATH);
    /// `ring:N`.
    pub const RING: FamilyKind = FamilyKind(&super::ring::RING);
    /// `uring:N`.
    pub const URING: FamilyKind = FamilyKind(&super::ring::URING);
    /// `mesh:RxC`.
    pub const MESH: FamilyKind = FamilyKind(&super::grid::MESH);
    /// `torus:RxC`.
    pub const TORUS: FamilyKind = FamilyKind(&super::grid::TORUS);
    /// `esm:N`.
    pub const ESM: FamilyKind = FamilyKind(&super::esm::ESM);
    /// `tree:...`.
    pub const TREE: FamilyKind = FamilyKind(&super::tree::TREE);
    /// `fat-tree:N`.
    pub const FAT_TREE: FamilyKind = FamilyKind(&super::fat_tree::FAT_TREE);
    /// An explicit graph.
    pub const GRAPH: FamilyKind = FamilyKind(&super::graph::GRAPH);

    /// The prefix of the family's network strings (`mesh`, `fat-tree`).
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

impl PartialEq for FamilyKind {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for FamilyKind {}

impl std::hash::Hash for FamilyKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for FamilyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for FamilyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for FamilyKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}
