//! Problems (SPEC §3) and instances: a network, a problem and a model, validated together.

use super::collective::{Collective, CollectiveKind};
use super::limits::Resource;
use super::model::{GatherMode, Model};
use super::network::{Family, Network, Node, RingTie, hops};
use crate::error::InputError;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// A chatting message as written in an instance (paper 000 §2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MessageSpec {
    /// Source node.
    pub src: Node,
    /// Destination node.
    pub dst: Node,
    /// Number of flits, ≥ 1.
    pub length: i64,
    /// Explicit designated path (node sequence); the atlas default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<Node>>,
}

/// The problems of SPEC §3.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Paper 000: deliver every message.
    Chatting(Vec<MessageSpec>),
    /// Paper 001: root 0 sends `lengths[i]` flits to node i (index 0 is the root, always 0).
    Scatter(Vec<u64>),
    /// Paper 001: node i sends `lengths[i]` flits to root 0.
    Gather(Vec<u64>),
    /// Paper 004: one unit packet for every ordered pair (u, v) with `demand[u][v]`
    /// (all pairs u ≠ v when `None`).
    TotalExchange(Option<Vec<Vec<bool>>>),
    /// Paper 003: every token at every node.
    Gossip,
    /// Paper 002: processor 0's value reaches every processor.
    Broadcast,
    /// Paper 002: processor 0 ends with a_0 * ... * a_{N-1}.
    Product,
    /// Paper 002: processor i ends with a_0 * ... * a_i.
    Prefix,
    /// SCCL's collectives on chunks (docs/spec.md §3.1).
    Collective(Collective),
}

impl Problem {
    /// The problem's name as written in files and on the command line (a collective's own
    /// name: `allgather`).
    pub fn name(&self) -> &'static str {
        match self {
            Problem::Collective(c) => c.kind.name(),
            _ => self.kind().name(),
        }
    }

    /// The problem without its data.
    pub fn kind(&self) -> ProblemKind {
        match self {
            Problem::Chatting(_) => ProblemKind::Chatting,
            Problem::Scatter(_) => ProblemKind::Scatter,
            Problem::Gather(_) => ProblemKind::Gather,
            Problem::TotalExchange(_) => ProblemKind::TotalExchange,
            Problem::Gossip => ProblemKind::Gossip,
            Problem::Broadcast => ProblemKind::Broadcast,
            Problem::Product => ProblemKind::Product,
            Problem::Prefix => ProblemKind::Prefix,
            Problem::Collective(_) => ProblemKind::Collective,
        }
    }
}

/// The problems of SPEC §3 without their data: what registries, applicability descriptions and
/// reports name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// Paper 000.
    Chatting,
    /// Paper 001.
    Scatter,
    /// Paper 001.
    Gather,
    /// Paper 004.
    TotalExchange,
    /// Paper 003.
    Gossip,
    /// Paper 002.
    Broadcast,
    /// Paper 002.
    Product,
    /// Paper 002.
    Prefix,
    /// SCCL's collectives on chunks (allgather, alltoall, broadcast, scatter, gather).
    Collective,
}

impl ProblemKind {
    /// Every problem, in the order of the papers' sections in reports and listings.
    pub const ALL: [ProblemKind; 9] = [
        ProblemKind::Chatting,
        ProblemKind::Scatter,
        ProblemKind::Gather,
        ProblemKind::TotalExchange,
        ProblemKind::Gossip,
        ProblemKind::Broadcast,
        ProblemKind::Product,
        ProblemKind::Prefix,
        ProblemKind::Collective,
    ];

    /// The name written in files and on the command line (`total-exchange`).
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::Chatting => "chatting",
            ProblemKind::Scatter => "scatter",
            ProblemKind::Gather => "gather",
            ProblemKind::TotalExchange => "total-exchange",
            ProblemKind::Gossip => "gossip",
            ProblemKind::Broadcast => "broadcast",
            ProblemKind::Product => "product",
            ProblemKind::Prefix => "prefix",
            ProblemKind::Collective => "collective",
        }
    }

    /// The paper that defines the problem (`000` … `004`).
    pub fn paper(self) -> &'static str {
        match self {
            ProblemKind::Chatting => "000",
            ProblemKind::Scatter | ProblemKind::Gather => "001",
            ProblemKind::Broadcast | ProblemKind::Product | ProblemKind::Prefix => "002",
            ProblemKind::Gossip => "003",
            ProblemKind::TotalExchange => "004",
            ProblemKind::Collective => "sccl",
        }
    }

    /// Parses a problem name; a collective is named by its own name (`allgather`), and the
    /// error lists those.
    pub fn parse(s: &str) -> Result<Self, String> {
        if CollectiveKind::parse(s).is_some() {
            return Ok(ProblemKind::Collective);
        }
        Self::ALL.into_iter().filter(|&p| p != ProblemKind::Collective).find(|p| p.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL
                .iter()
                .filter(|&&p| p != ProblemKind::Collective)
                .map(|p| p.name())
                .chain(["allgather", "alltoall"])
                .collect();
            format!(
                "unknown problem `{s}` (known: {}; broadcast, scatter and gather also in the collective model)",
                names.join(", ")
            )
        })
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Collective(c) if c.chunks > 1 => write!(f, "{} (C = {})", c.kind.name(), c.chunks),
            _ => f.write_str(self.name()),
        }
    }
}

/// A bufferless message resolved against the network: id, endpoints, length and path arcs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Message id: index in the chatting list, or the tree node for scatter/gather.
    pub id: usize,
    /// Source node.
    pub src: Node,
    /// Destination node.
    pub dst: Node,
    /// Flits, ≥ 1 (null messages are not listed).
    pub len: u64,
    /// The designated path as nodes.
    pub nodes: Vec<Node>,
    /// The designated path as arc indices.
    pub arcs: Vec<usize>,
}

/// A unit packet of total exchange: `id = src * n + dst` (paper 004's m_src(dst)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet {
    /// Token id.
    pub id: usize,
    /// Source node.
    pub src: Node,
    /// Destination node.
    pub dst: Node,
}

/// What the paper says about an instance (optional, for reports).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperNote {
    /// Claim ids of the claims catalogue this instance illustrates.
    #[serde(default)]
    pub claims: Vec<String>,
    /// The length the paper states, in SPEC steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u64>,
    /// Free text: the figure, the convention of the paper's own number.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A validated instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// Short name (file stem by default).
    pub name: String,
    /// Where it comes from (paper, figure).
    pub source: String,
    /// The network.
    pub network: Network,
    /// The problem.
    pub problem: Problem,
    /// The model.
    pub model: Model,
    /// Tie rule for antipodal ring messages.
    pub ring_tie: RingTie,
    /// Scatter and gather off a tree: the designated path of every message, read from P_0
    /// (`routes[i − 1]` runs from node 0 to node i; a gather's message takes it backwards).
    /// `None` on a tree or a path, where every message takes the tree's path.
    pub routes: Option<Vec<Vec<Node>>>,
    /// What the paper says.
    pub paper: PaperNote,
}

impl Instance {
    /// Builds and validates an instance; errors name `file` and the offending field.
    pub fn new(
        name: impl Into<String>,
        network: Network,
        problem: Problem,
        model: Model,
        ring_tie: RingTie,
        file: &str,
    ) -> Result<Self, InputError> {
        Self::routed(name, network, problem, model, ring_tie, None, file)
    }

    /// [`Instance::new`] with the designated paths of a scatter or gather off a tree
    /// ([`Instance::routes`]).
    pub fn routed(
        name: impl Into<String>,
        network: Network,
        problem: Problem,
        model: Model,
        ring_tie: RingTie,
        routes: Option<Vec<Vec<Node>>>,
        file: &str,
    ) -> Result<Self, InputError> {
        let inst = Self {
            name: name.into(),
            source: String::new(),
            network,
            problem,
            model,
            ring_tie,
            routes,
            paper: PaperNote::default(),
        };
        inst.validate(file)?;
        Ok(inst)
    }

    fn validate(&self, file: &str) -> Result<(), InputError> {
        let err = |field: &str, reason: String| Err(InputError::new(file, field, reason));
        let n = self.network.len();
        Resource::Items
            .guard(self.item_count(), "the instance")
            .map_err(|r| InputError::new(file, "network", r))?;
        let fat = matches!(self.network.family(), Family::FatTree(_));
        if self.problem.kind().model() != self.model.kind() {
            return err(
                "model",
                format!(
                    "problem `{}` cannot be scheduled in model `{}` (SPEC §3-§4)",
                    self.problem,
                    self.model.name()
                ),
            );
        }
        if fat != matches!(self.model, Model::FatTree { .. }) {
            let net = self.network.spec_string();
            return err(
                "network",
                if fat {
                    format!("`{net}` runs only the fat-tree model, not `{}`", self.model.name())
                } else {
                    format!("the fat-tree model needs a `fat-tree:N` network, not `{net}`")
                },
            );
        }
        if !self.network.is_unit() && !matches!(self.model, Model::Collective { .. }) {
            return err(
                "network",
                format!(
                    "`{}` has link bandwidths or switch groups, which only the collective model reads; \
                     the `{}` model counts one item per arc and step",
                    self.network.spec_string(),
                    self.model.name()
                ),
            );
        }
        if let Model::FatTree { capacity, .. } = &self.model {
            capacity.validate(n as u64).map_err(|r| InputError::new(file, "model.capacity", r))?;
        }
        if let Model::StoreForward { packet, .. } = self.model
            && packet == 0
        {
            return err("model.packet", "a packet carries at least one token (p >= 1)".into());
        }
        match &self.problem {
            Problem::Chatting(msgs) => {
                if msgs.is_empty() {
                    return err("messages", "chatting needs at least one message".into());
                }
                for (i, m) in msgs.iter().enumerate() {
                    let f = format!("messages[{i}]");
                    if m.src >= n || m.dst >= n {
                        return err(
                            &f,
                            format!(
                                "node {} is unknown: the network has nodes 0..{}",
                                m.src.max(m.dst),
                                n - 1
                            ),
                        );
                    }
                    if m.src == m.dst {
                        return err(&f, format!("source and destination are both {}", m.src));
                    }
                    if m.length < 1 {
                        return err(&format!("{f}.length"), format!("length {} is not >= 1", m.length));
                    }
                }
                self.messages().map_err(|e| e.in_file(file))?;
            }
            Problem::Scatter(l) | Problem::Gather(l) => {
                let tree = matches!(self.network.family(), Family::Tree(_) | Family::Path(_));
                let net = self.network.spec_string();
                match &self.routes {
                    Some(_) if tree => {
                        return err(
                            "routes",
                            format!("`{net}` is a tree: every message takes its one path from P_0"),
                        );
                    }
                    None if !tree => {
                        return err(
                            "routes",
                            format!(
                                "scatter and gather on `{net}` need `routes`, one path from P_0 to every \
                                 other node (on a tree or a path they are the tree's)"
                            ),
                        );
                    }
                    Some(r) if r.len() + 1 != n => {
                        return err(
                            "routes",
                            format!("{} routes given for the {} non-root nodes", r.len(), n - 1),
                        );
                    }
                    _ => {}
                }
                if !tree && matches!(self.model, Model::Bufferless { gather: GatherMode::Distributed, .. }) {
                    return err(
                        "model.gather",
                        format!(
                            "distributed gather (paper 001 §3) wakes the PEs along a tree; `{net}` is not one"
                        ),
                    );
                }
                if l.len() != n {
                    return err(
                        "lengths",
                        format!(
                            "{} lengths given for the {} non-root nodes",
                            l.len().saturating_sub(1),
                            n - 1
                        ),
                    );
                }
                if let Some(routes) = &self.routes {
                    // seen[v] = 1 + the last route that visited v.
                    let mut seen = vec![0usize; n];
                    for (k, route) in routes.iter().enumerate() {
                        let field = format!("routes[{k}]");
                        if let Some(&v) = route.iter().find(|&&v| v >= n) {
                            return err(
                                &field,
                                format!("node {v} is unknown: the network has nodes 0..{}", n - 1),
                            );
                        }
                        if let Some(&v) =
                            route.iter().find(|&&v| std::mem::replace(&mut seen[v], k + 1) == k + 1)
                        {
                            return err(&field, format!("path {route:?} visits node {v} twice"));
                        }
                        let mut walk = route.clone();
                        let (src, dst) = match &self.problem {
                            Problem::Gather(_) => {
                                walk.reverse();
                                (k + 1, 0)
                            }
                            _ => (0, k + 1),
                        };
                        self.network
                            .walk_arcs(&walk, src, dst)
                            .map_err(|r| InputError::new(file, &field, r))?;
                    }
                }
            }
            Problem::Collective(c) => {
                if c.chunks < 1 {
                    return err("chunks", "a collective cuts each unit of data into at least 1 chunk".into());
                }
                if c.root >= n {
                    return err(
                        "root",
                        format!("node {} is unknown: the network has nodes 0..{}", c.root, n - 1),
                    );
                }
                if let Some((chunk, target)) = self.collective_unreachable() {
                    return err(
                        "network",
                        format!(
                            "chunk {chunk} of the {} cannot reach rank {target} on `{}`: the network is \
                             not connected enough for it",
                            c.kind.name(),
                            self.network.spec_string()
                        ),
                    );
                }
            }
            Problem::TotalExchange(Some(d)) => {
                if d.len() != n || d.iter().any(|row| row.len() != n) {
                    return err("demand", format!("the demand matrix must be {n} x {n}"));
                }
                if let Some(u) = (0..n).find(|&u| d[u][u]) {
                    return err("demand", format!("node {u} demands a packet to itself"));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A chunk of a collective and a target it cannot reach from any of its sources (from one
    /// of its contributors, for a combining collective), if any: none on a strongly connected
    /// network, which one pass over its arcs tells.
    fn collective_unreachable(&self) -> Option<(usize, Node)> {
        if self.network.strongly_connected() {
            return None;
        }
        self.collective_distances()?
            .iter()
            .enumerate()
            .find_map(|(id, targets)| targets.iter().find(|&&(_, d)| d == usize::MAX).map(|&(t, _)| (id, t)))
    }

    /// Every target of every chunk of a collective (chunks in [`Collective::chunk_table`]
    /// order) with its hop distance: from the chunk's nearest source, or for a combining
    /// collective from its farthest contributor (usize::MAX where there is no path). One
    /// search per distinct source set (per target and backwards, for a combining collective),
    /// each as large as the network, so never more than the instance's items, which the guard
    /// has checked (docs/spec.md §5.3); `None` for other problems.
    pub fn collective_distances(&self) -> Option<Vec<Vec<(Node, usize)>>> {
        let Problem::Collective(c) = &self.problem else { return None };
        let n = self.network.len();
        let out = self.network.out_neighbours();
        let mut into = vec![Vec::new(); n];
        for &(u, v) in self.network.arcs() {
            into[v].push(u);
        }
        let table = c.chunk_table(n);
        // Chunks share source sets (every chunk of a reduction has all ranks): each set is
        // searched, or each (set, target) maximised, once.
        let mut sets: HashMap<&[Node], usize> = HashMap::new();
        let mut forward: Vec<Vec<usize>> = Vec::new();
        let mut backward: HashMap<Node, Vec<usize>> = HashMap::new();
        let mut farthest: HashMap<(usize, Node), usize> = HashMap::new();
        let mut distances = Vec::with_capacity(table.len());
        // On a complete network (diameter 1) every other node is one hop away: no search.
        if self.network.closed_form_diameter() == Some((1, true)) {
            let hop = |s: &[Node], t: Node| usize::from(!s.contains(&t));
            for chunk in &table {
                let row = if c.kind.combining() {
                    chunk
                        .targets
                        .iter()
                        .map(|&t| (t, usize::from(chunk.sources.iter().any(|&s| s != t))))
                        .collect()
                } else {
                    chunk.targets.iter().map(|&t| (t, hop(&chunk.sources, t))).collect()
                };
                distances.push(row);
            }
            return Some(distances);
        }
        for chunk in &table {
            let next = sets.len();
            let set = *sets.entry(&chunk.sources).or_insert(next);
            let row = if c.kind.combining() {
                (chunk.targets.iter())
                    .map(|&t| {
                        let d = *farthest.entry((set, t)).or_insert_with(|| {
                            let back = backward.entry(t).or_insert_with(|| hops(&into, &[t]));
                            chunk.sources.iter().map(|&s| back[s]).max().unwrap_or(0)
                        });
                        (t, d)
                    })
                    .collect()
            } else {
                if set == forward.len() {
                    forward.push(hops(&out, &chunk.sources));
                }
                chunk.targets.iter().map(|&t| (t, forward[set][t])).collect()
            };
            distances.push(row);
        }
        Some(distances)
    }

    /// The non-combining dual of a reduce or reduce-scatter instance (docs/spec.md §3.1): the
    /// broadcast or allgather with the same C, root and budget on the reversed network, whose
    /// schedules run backwards are exactly this instance's (up to useless sends).
    pub fn non_combining_dual(&self) -> Option<Instance> {
        let Problem::Collective(c) = &self.problem else { return None };
        let kind = c.kind.non_combining_dual()?;
        Some(Instance {
            name: format!("{} (non-combining dual)", self.name),
            network: self.network.reversed(),
            problem: Problem::Collective(Collective { kind, ..*c }),
            ..self.clone()
        })
    }

    /// The items the instance moves (total-exchange packets, gossip pieces, messages, scatter
    /// and gather destinations, fat-tree processors, a collective's chunks at every rank: N²·C
    /// for an allgather on N ranks, docs/spec.md §5.3); None beyond u64.
    fn item_count(&self) -> Option<u64> {
        let n = self.network.len() as u64;
        match &self.problem {
            Problem::TotalExchange(None) | Problem::Gossip => n.checked_mul(n.saturating_sub(1)),
            Problem::TotalExchange(Some(d)) => Some(d.iter().flatten().filter(|&&x| x).count() as u64),
            Problem::Chatting(m) => Some(m.len() as u64),
            // Every chunk at every rank: what the checker and the chunk table hold.
            Problem::Collective(c) => {
                let units = match c.kind {
                    CollectiveKind::Alltoall => n.checked_mul(n),
                    CollectiveKind::Broadcast | CollectiveKind::Reduce => Some(1),
                    _ => Some(n),
                };
                units.and_then(|u| u.checked_mul(c.chunks as u64)).and_then(|chunks| chunks.checked_mul(n))
            }
            Problem::Scatter(_)
            | Problem::Gather(_)
            | Problem::Broadcast
            | Problem::Product
            | Problem::Prefix => Some(n),
        }
    }

    /// The packet hops of a total exchange on a linear array or ring whose packets take shortest
    /// routes, as every paper-004 algorithm's do; `None` for other instances.
    pub fn lane_hops(&self) -> Option<u64> {
        let (n, ring) = match *self.network.family() {
            Family::Path(n) => (n, false),
            Family::Ring(n) => (n, true),
            _ => return None,
        };
        let Problem::TotalExchange(demand) = &self.problem else { return None };
        let hops = |s: usize, d: usize| {
            let k = s.abs_diff(d);
            (if ring { k.min(n - k) } else { k }) as u64
        };
        Some(match demand {
            // n pairs (s, s + k mod n) on a ring, 2(n − k) pairs at distance k on an array.
            None => (1..n).map(|k| hops(0, k) * if ring { n } else { 2 * (n - k) } as u64).sum(),
            Some(m) => (0..n)
                .flat_map(|s| (0..n).map(move |d| (s, d)))
                .filter(|&(s, d)| m[s][d])
                .map(|(s, d)| hops(s, d))
                .sum(),
        })
    }

    /// Refuses an instance whose schedules could need more packet hops than the guards allow,
    /// before any algorithm or model allocates them. A total exchange on a linear array or ring
    /// counts its shortest-route hops ([`Instance::lane_hops`]) against
    /// [`Resource::CompactEvents`], as its algorithms hold large schedules as itineraries (and
    /// refuse explicit ones over [`Resource::Events`] themselves). Elsewhere: items × the
    /// network's diameter for a total exchange, items otherwise (gossip copies each piece once
    /// per node), against [`Resource::Events`].
    pub fn guard_events(&self) -> Result<(), InputError> {
        if let Some(hops) = self.lane_hops() {
            return Resource::CompactEvents
                .guard(Some(hops), "a schedule of this instance")
                .map_err(|r| InputError::new("", "", r));
        }
        let diameter = self.network.family().definition().diameter_bound(&self.network) as u64;
        let events = match self.problem {
            Problem::TotalExchange(_) => self.item_count().and_then(|i| i.checked_mul(diameter)),
            _ => self.item_count(),
        };
        Resource::Events.guard(events, "a schedule of this instance").map_err(|r| InputError::new("", "", r))
    }

    /// Bufferless messages resolved to paths (null messages omitted). Errors (field
    /// `messages[i].path`) when an explicit path is not a walk from source to destination.
    pub fn messages(&self) -> Result<Vec<Message>, InputError> {
        let resolve = |id: usize, src: Node, dst: Node, len: u64, path: Option<&Vec<Node>>, field: String| {
            let nodes = match path {
                Some(p) => p.clone(),
                None => self.network.default_path(src, dst, self.ring_tie).ok_or_else(|| {
                    InputError::new(
                        "",
                        field.clone(),
                        format!("no path from {src} to {dst} in {}", self.network),
                    )
                })?,
            };
            let arcs = self.network.walk_arcs(&nodes, src, dst).map_err(|r| InputError::new("", field, r))?;
            Ok(Message { id, src, dst, len, nodes, arcs })
        };
        match &self.problem {
            Problem::Chatting(msgs) => msgs
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    resolve(i, m.src, m.dst, m.length as u64, m.path.as_ref(), format!("messages[{i}].path"))
                })
                .collect(),
            Problem::Scatter(l) | Problem::Gather(l) => {
                let gather = matches!(self.problem, Problem::Gather(_));
                (1..l.len())
                    .filter(|&i| l[i] > 0)
                    .map(|i| {
                        let path = self.routes.as_ref().map(|r| {
                            let mut p = r[i - 1].clone();
                            if gather {
                                p.reverse();
                            }
                            p
                        });
                        let (src, dst) = if gather { (i, 0) } else { (0, i) };
                        let field = if path.is_some() {
                            format!("routes[{}]", i - 1)
                        } else {
                            format!("lengths[{i}]")
                        };
                        resolve(i, src, dst, l[i], path.as_ref(), field)
                    })
                    .collect()
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Total-exchange packets, ordered by (src, dst); empty for other problems.
    pub fn packets(&self) -> Vec<Packet> {
        let n = self.network.len();
        match &self.problem {
            Problem::TotalExchange(demand) => (0..n)
                .flat_map(|src| (0..n).map(move |dst| (src, dst)))
                .filter(|&(s, d)| s != d && demand.as_ref().is_none_or(|m| m[s][d]))
                .map(|(src, dst)| Packet { id: src * n + dst, src, dst })
                .collect(),
            _ => Vec::new(),
        }
    }
}
