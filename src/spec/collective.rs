//! SCCL's collectives (docs/spec.md §3.1): which collective, its chunks and the ranks that hold
//! each before and after.

use super::network::Node;
use serde::{Deserialize, Serialize};

/// The collectives of SCCL's model (docs/spec.md §3.1), each on `n` ranks before the C-fold
/// split of its chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CollectiveKind {
    /// n chunks; chunk c starts at rank c and ends at every rank.
    Allgather,
    /// n² chunks; chunk c starts at rank c mod n and ends at rank ⌊c/n⌋.
    Alltoall,
    /// 1 chunk from the root to every rank.
    Broadcast,
    /// n chunks from the root; chunk c ends at rank c.
    Scatter,
    /// n chunks; chunk c starts at rank c and ends at the root.
    Gather,
    /// 1 chunk, combining: every rank contributes, the root ends with the reduction of all.
    Reduce,
    /// n chunks, combining: every rank contributes to each, rank c ends with the reduction of
    /// chunk c.
    ReduceScatter,
    /// n chunks, combining: every rank contributes to each and ends with every reduction.
    Allreduce,
}

impl CollectiveKind {
    /// Every collective.
    pub const ALL: [CollectiveKind; 8] = [
        CollectiveKind::Allgather,
        CollectiveKind::Alltoall,
        CollectiveKind::Broadcast,
        CollectiveKind::Scatter,
        CollectiveKind::Gather,
        CollectiveKind::Reduce,
        CollectiveKind::ReduceScatter,
        CollectiveKind::Allreduce,
    ];

    /// The name in files, on the command line and in MSCCL's `coll`.
    pub fn name(self) -> &'static str {
        match self {
            CollectiveKind::Allgather => "allgather",
            CollectiveKind::Alltoall => "alltoall",
            CollectiveKind::Broadcast => "broadcast",
            CollectiveKind::Scatter => "scatter",
            CollectiveKind::Gather => "gather",
            CollectiveKind::Reduce => "reduce",
            CollectiveKind::ReduceScatter => "reduce-scatter",
            CollectiveKind::Allreduce => "allreduce",
        }
    }

    /// Parses a collective's name (`reduce_scatter`, msccl-tools' spelling, and
    /// `reducescatter`, the MSCCL runtime's, too).
    pub fn parse(s: &str) -> Option<Self> {
        let s = if matches!(s, "reduce_scatter" | "reducescatter") { "reduce-scatter" } else { s };
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    /// Whether a root rank takes part (broadcast, scatter, gather, reduce).
    pub fn rooted(self) -> bool {
        matches!(
            self,
            CollectiveKind::Broadcast
                | CollectiveKind::Scatter
                | CollectiveKind::Gather
                | CollectiveKind::Reduce
        )
    }

    /// Whether chunks combine on arrival (reduce, reduce-scatter, allreduce): a chunk's sources
    /// are its contributors, and a target must end with the reduction of all of them.
    pub fn combining(self) -> bool {
        matches!(self, CollectiveKind::Reduce | CollectiveKind::ReduceScatter | CollectiveKind::Allreduce)
    }

    /// The non-combining dual of a reduction (SCCL's `non_combining_dual`): reduce ↔ broadcast,
    /// reduce-scatter ↔ allgather, run on the reversed network and backwards in time
    /// (docs/spec.md §3.1). `None` for allreduce, which has none, and for the others.
    pub fn non_combining_dual(self) -> Option<Self> {
        match self {
            CollectiveKind::Reduce => Some(CollectiveKind::Broadcast),
            CollectiveKind::ReduceScatter => Some(CollectiveKind::Allgather),
            _ => None,
        }
    }
}

/// A collective instance's data: which collective, the chunks each unit of data is cut into
/// (SCCL's C) and the root of a rooted collective (0 otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Collective {
    /// The collective.
    pub kind: CollectiveKind,
    /// C ≥ 1.
    pub chunks: usize,
    /// The root (broadcast, scatter, gather).
    pub root: Node,
}

/// One chunk of a collective: the ranks that hold it before the first step (SCCL's
/// precondition) and those that must hold it after the last (its postcondition).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The ranks that start with it.
    pub sources: Vec<Node>,
    /// The ranks that must end with it (sources included where the collective says so).
    pub targets: Vec<Node>,
}

impl Collective {
    /// The chunks on `n` ranks, numbered as SCCL's `chunk_up` does: piece i of the
    /// collective's chunk c is chunk c·C + i.
    pub fn chunk_table(&self, n: usize) -> Vec<Chunk> {
        let root = self.root;
        let all: Vec<Node> = (0..n).collect();
        let units: Vec<Chunk> = match self.kind {
            CollectiveKind::Allgather => {
                (0..n).map(|c| Chunk { sources: vec![c], targets: all.clone() }).collect()
            }
            CollectiveKind::Alltoall => {
                (0..n * n).map(|c| Chunk { sources: vec![c % n], targets: vec![c / n] }).collect()
            }
            CollectiveKind::Broadcast => vec![Chunk { sources: vec![root], targets: all }],
            CollectiveKind::Scatter => {
                (0..n).map(|c| Chunk { sources: vec![root], targets: vec![c] }).collect()
            }
            CollectiveKind::Gather => {
                (0..n).map(|c| Chunk { sources: vec![c], targets: vec![root] }).collect()
            }
            CollectiveKind::Reduce => vec![Chunk { sources: all.clone(), targets: vec![root] }],
            CollectiveKind::ReduceScatter => {
                (0..n).map(|c| Chunk { sources: all.clone(), targets: vec![c] }).collect()
            }
            CollectiveKind::Allreduce => {
                (0..n).map(|_| Chunk { sources: all.clone(), targets: all.clone() }).collect()
            }
        };
        units.into_iter().flat_map(|u| std::iter::repeat_n(u, self.chunks)).collect()
    }
}
