//! Where an exported MSCCL file keeps each chunk (docs/msccl.md, "The mapping"): SCCL's chunk
//! numbering (docs/spec.md §3.1) on n ranks with C chunks per unit, in the buffers the MSCCL
//! runtime gives each collective.

use crate::spec::{CollectiveKind, Instance, Mode, ModelKind, Node, Problem};

/// A chunk of a rank's buffers: `i`nput, `o`utput or `s`cratch, and an offset.
pub(super) type Chunk = (char, usize);

/// The collective an instance exports as (module documentation): gossip (copy mode) is an
/// allgather and total exchange (move mode) an alltoall with C = 1, whose token `s·n + d` is
/// chunk `d·n + s`; a collective instance is its own collective.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    pub kind: CollectiveKind,
    /// Total exchange's token numbering.
    tokens_by_source: bool,
    pub n: usize,
    pub c: usize,
    /// The root of a broadcast or reduce.
    pub root: Node,
}

impl Layout {
    /// The layout of an instance, or why it has none.
    pub fn of(inst: &Instance) -> Result<Self, String> {
        let n = inst.network.len();
        let layout = |kind, tokens_by_source, c, root| Layout { kind, tokens_by_source, n, c, root };
        match (&inst.problem, inst.problem.kind().model()) {
            (_, ModelKind::StoreForward(Mode::Move)) => Ok(layout(CollectiveKind::Alltoall, true, 1, 0)),
            (_, ModelKind::StoreForward(Mode::Copy)) => Ok(layout(CollectiveKind::Allgather, false, 1, 0)),
            (Problem::Collective(c), _)
                if !matches!(c.kind, CollectiveKind::Scatter | CollectiveKind::Gather) =>
            {
                Ok(layout(c.kind, false, c.chunks, c.root))
            }
            _ => Err(format!(
                "{} in model {} has no MSCCL collective: export takes allgather, alltoall, broadcast, reduce, reduce-scatter and allreduce (gossip in copy mode, total exchange in move mode)",
                inst.problem,
                inst.model.name()
            )),
        }
    }

    /// The `coll` the MSCCL runtime reads.
    pub fn coll(&self) -> &'static str {
        match self.kind {
            CollectiveKind::ReduceScatter => "reducescatter",
            other => other.name(),
        }
    }

    /// Whether the ranks' partial reductions combine (docs/spec.md §3.1).
    pub fn combining(&self) -> bool {
        self.kind.combining()
    }

    /// A schedule token as a chunk id, and back.
    pub fn id(&self, token: usize) -> usize {
        if self.tokens_by_source { token % self.n * self.n + token / self.n } else { token }
    }

    pub fn token(&self, id: usize) -> usize {
        self.id(id)
    }

    /// `nchunksperloop`: the chunks of one rank's whole buffer (C for broadcast and reduce,
    /// n·C for the others).
    pub fn per_loop(&self) -> usize {
        match self.kind {
            CollectiveKind::Broadcast | CollectiveKind::Reduce => self.c,
            _ => self.n * self.c,
        }
    }

    /// `i_chunks`, `o_chunks`, `s_chunks`.
    pub fn buffers(&self) -> [usize; 3] {
        let (n, c, p) = (self.n, self.c, self.per_loop());
        match self.kind {
            CollectiveKind::Allgather => [c, p, 0],
            CollectiveKind::Alltoall => [p, p, n * n * c],
            CollectiveKind::ReduceScatter => [p, c, 0],
            _ => [p, p, 0],
        }
    }

    /// In place: everything but alltoall, which waits in scratch on the way.
    pub fn inplace(&self) -> bool {
        self.kind != CollectiveKind::Alltoall
    }

    /// Where chunk `id` sits on `rank`: an allgather's in its output, an alltoall's in the
    /// sender's input, the receiver's output and scratch between, the others' in the input
    /// (which in place is the output).
    pub fn chunk(&self, rank: Node, id: usize) -> Chunk {
        let (n, c) = (self.n, self.c);
        match self.kind {
            CollectiveKind::Allgather => ('o', id),
            CollectiveKind::Alltoall => {
                let (unit, j) = (id / c, id % c);
                let (source, target) = (unit % n, unit / n);
                if rank == source {
                    ('i', target * c + j)
                } else if rank == target {
                    ('o', source * c + j)
                } else {
                    ('s', id)
                }
            }
            _ => ('i', id),
        }
    }

    /// The chunk an input or output chunk of `rank` holds by the convention (scratch is
    /// whatever was received there).
    pub fn held(&self, rank: Node, (buffer, offset): Chunk) -> Option<usize> {
        let (n, c, p) = (self.n, self.c, self.per_loop());
        match (self.kind, buffer) {
            (_, 's') => None,
            (CollectiveKind::Allgather, 'o') | (CollectiveKind::Alltoall, _) if offset >= p => None,
            (CollectiveKind::Allgather, 'o') => Some(offset),
            (CollectiveKind::Allgather, _) => (offset < c).then_some(rank * c + offset),
            (CollectiveKind::Alltoall, 'i') => Some((offset / c * n + rank) * c + offset % c),
            (CollectiveKind::Alltoall, _) => Some((rank * n + offset / c) * c + offset % c),
            (CollectiveKind::ReduceScatter, 'o') => (offset < c).then_some(rank * c + offset),
            _ => (offset < p).then_some(offset),
        }
    }
}
