//! The collective an MSCCL file implements, read from its header (docs/msccl.md, "Runtime
//! semantics"): the buffer layout (where each rank's chunks start and where they must end,
//! which buffers alias in place) and what a buffer slot holds, a chunk with the ranks whose
//! data it combines.

use super::xml::{Algo, Buffer};
use crate::error::InputError;
use crate::spec::{CollectiveKind, Node};

/// The contributors of a partial reduction: one bit per rank.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ranks(Box<[u64]>);

impl Ranks {
    pub(super) fn one(n: usize, rank: Node) -> Self {
        let mut bits = vec![0u64; n.div_ceil(64)].into_boxed_slice();
        bits[rank / 64] |= 1 << (rank % 64);
        Ranks(bits)
    }

    pub(super) fn all(n: usize) -> Self {
        let mut r = Ranks(vec![0u64; n.div_ceil(64)].into_boxed_slice());
        (0..n).for_each(|v| r.0[v / 64] |= 1 << (v % 64));
        r
    }

    fn has(&self, v: Node) -> bool {
        self.0[v / 64] >> (v % 64) & 1 == 1
    }

    /// The ranks in both.
    pub(super) fn common(&self, other: &Ranks) -> Vec<Node> {
        self.iter().filter(|&v| other.has(v)).collect()
    }

    /// The ranks in `self` and not in `other`.
    pub(super) fn without(&self, other: &Ranks) -> Vec<Node> {
        self.iter().filter(|&v| !other.has(v)).collect()
    }

    pub(super) fn union(&self, other: &Ranks) -> Ranks {
        Ranks(self.0.iter().zip(other.0.iter()).map(|(a, b)| a | b).collect())
    }

    /// The ranks, ascending.
    pub fn iter(&self) -> impl Iterator<Item = Node> + '_ {
        (0..self.0.len() * 64).filter(|&v| self.has(v))
    }
}

/// What a buffer slot holds: a chunk (numbered as [`Semantics`] says) with the contributions
/// of some ranks (one rank for a collective that does not combine).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Value {
    /// The chunk.
    pub chunk: usize,
    /// Whose data it combines.
    pub ranks: Ranks,
}

/// The collective a file implements, with its buffer layout: where each rank's chunks start,
/// where they must end, and which buffers alias in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Semantics {
    /// The collective; `None` for `coll="custom"` (no postcondition).
    pub kind: Option<CollectiveKind>,
    /// `ngpus`.
    pub ranks: usize,
    /// `nchunksperloop`: the chunks a buffer is cut into.
    pub chunks: usize,
    /// `inplace`: the input is (part of) the output.
    pub inplace: bool,
    /// The root of a broadcast or reduce (the file's `root`), 0 otherwise.
    pub root: Node,
}

impl Semantics {
    /// Reads the collective from the header (`coll`, or `collective` when given instead), and
    /// checks that `nchunksperloop` fits it. Errors name the attribute.
    pub fn of(algo: &Algo, collective: Option<&str>, file: &str) -> Result<Self, InputError> {
        let err = |field: &str, reason: String| InputError::new(file, field, reason);
        let name = collective.or(algo.coll.as_deref()).ok_or_else(|| {
            err("algo.coll", "absent: name the collective the file implements (--collective)".into())
        })?;
        let kind = match name.trim() {
            "custom" => None,
            other => match CollectiveKind::parse(other) {
                Some(k @ (CollectiveKind::Scatter | CollectiveKind::Gather)) => {
                    return Err(err(
                        "algo.coll",
                        format!("`{other}`: commsched reads no {} from MSCCL XML", k.name()),
                    ));
                }
                Some(k) if k.rooted() && algo.root.is_none() => {
                    return Err(err(
                        "algo.coll",
                        format!(
                            "`{other}` without a `root` attribute: MSCCL's header names no root, so the file cannot be judged"
                        ),
                    ));
                }
                Some(k) => Some(k),
                None => return Err(err("algo.coll", format!("`{other}` is not a collective"))),
            },
        };
        let chunks = algo.nchunksperloop.ok_or_else(|| err("algo.nchunksperloop", "absent".into()))?;
        let n = algo.ngpus;
        if n == 0 || chunks == 0 {
            return Err(err("algo", "ngpus and nchunksperloop are at least 1".into()));
        }
        let per_rank = matches!(
            kind,
            Some(CollectiveKind::Allgather | CollectiveKind::Alltoall | CollectiveKind::ReduceScatter)
        );
        if per_rank && chunks % n != 0 {
            return Err(err(
                "algo.nchunksperloop",
                format!("{chunks} is not a multiple of ngpus = {n}, as {name} needs"),
            ));
        }
        let root = algo.root.unwrap_or(0);
        if root >= n {
            return Err(err("algo.root", format!("rank {root} is outside ngpus = {n}")));
        }
        Ok(Self { kind, ranks: n, chunks, inplace: algo.inplace, root })
    }

    /// The chunks of one rank's share (SCCL's C): `nchunksperloop / ngpus` where the buffer
    /// holds one share per rank.
    pub(super) fn share(&self) -> usize {
        (self.chunks / self.ranks).max(1)
    }

    /// Where a named slot lives: in place, the input is a window of the output (allgather),
    /// the output a window of the input (reduce-scatter), or both are one buffer (alltoall,
    /// allreduce, broadcast, reduce).
    pub(super) fn canonical(&self, rank: Node, buffer: Buffer, offset: usize) -> (Buffer, usize) {
        if !self.inplace {
            return (buffer, offset);
        }
        match (self.kind, buffer) {
            (Some(CollectiveKind::Allgather), Buffer::Input) => {
                (Buffer::Output, rank * self.share() + offset)
            }
            (Some(CollectiveKind::ReduceScatter), Buffer::Output) => {
                (Buffer::Input, rank * self.share() + offset)
            }
            (
                Some(
                    CollectiveKind::Alltoall
                    | CollectiveKind::Allreduce
                    | CollectiveKind::Broadcast
                    | CollectiveKind::Reduce,
                ),
                Buffer::Output,
            ) => (Buffer::Input, offset),
            // A custom collective does not say how its buffers alias: they are kept apart.
            _ => (buffer, offset),
        }
    }

    /// The chunks a buffer needs for the collective (where the file declares none).
    pub(super) fn needed(&self, buffer: Buffer) -> usize {
        let (p, c) = (self.chunks, self.share());
        match (self.kind, buffer) {
            (_, Buffer::Scratch) => 0,
            (Some(CollectiveKind::Allgather), Buffer::Input) => c,
            (Some(CollectiveKind::ReduceScatter), Buffer::Output) => c,
            _ => p,
        }
    }

    /// What a canonical slot holds before the first step.
    pub(super) fn initial(&self, rank: Node, buffer: Buffer, offset: usize) -> Option<Value> {
        let (n, p, c) = (self.ranks, self.chunks, self.share());
        let value = |chunk: usize| Some(Value { chunk, ranks: Ranks::one(n, rank) });
        match (self.kind, buffer) {
            (Some(CollectiveKind::Allgather), Buffer::Output) if self.inplace => {
                (offset / c == rank && offset < p).then(|| value(offset)).flatten()
            }
            (Some(CollectiveKind::Allgather), Buffer::Input) => {
                (offset < c).then(|| value(rank * c + offset)).flatten()
            }
            (Some(CollectiveKind::Alltoall), Buffer::Input) if offset < p => {
                value((offset / c * n + rank) * c + offset % c)
            }
            (
                Some(CollectiveKind::Allreduce | CollectiveKind::ReduceScatter | CollectiveKind::Reduce),
                Buffer::Input,
            ) if offset < p => value(offset),
            (Some(CollectiveKind::Broadcast), Buffer::Input) if offset < p && rank == self.root => {
                value(offset)
            }
            (None, Buffer::Input) if offset < p => value(rank * p + offset),
            _ => None,
        }
    }

    /// What the collective requires at the end: (output offset, chunk, all contributors?).
    pub(super) fn expected(&self, rank: Node) -> Vec<(usize, usize)> {
        let (n, p, c) = (self.ranks, self.chunks, self.share());
        match self.kind {
            Some(CollectiveKind::Allgather | CollectiveKind::Allreduce | CollectiveKind::Broadcast) => {
                (0..p).map(|j| (j, j)).collect()
            }
            Some(CollectiveKind::Reduce) if rank == self.root => (0..p).map(|j| (j, j)).collect(),
            Some(CollectiveKind::Alltoall) => (0..p).map(|j| (j, (rank * n + j / c) * c + j % c)).collect(),
            Some(CollectiveKind::ReduceScatter) => (0..c).map(|j| (j, rank * c + j)).collect(),
            _ => Vec::new(),
        }
    }

    /// The ranks whose data a finished chunk holds.
    pub(super) fn contributors(&self, chunk: usize) -> Ranks {
        let (n, c) = (self.ranks, self.share());
        match self.kind {
            Some(CollectiveKind::Allgather) => Ranks::one(n, chunk / c),
            Some(CollectiveKind::Alltoall) => Ranks::one(n, chunk / c % n),
            Some(CollectiveKind::Broadcast) => Ranks::one(n, self.root),
            _ => Ranks::all(n),
        }
    }

    /// Whether reductions combine chunks (allreduce, reduce-scatter).
    pub fn combining(&self) -> bool {
        self.kind.is_some_and(CollectiveKind::combining)
    }
}
