//! # A bandwidth-model packing as a schedule of the collective model (docs/spec.md §3.2)
//!
//! What a runtime runs of a tree packing (the certified optimum of `solve --model bandwidth`, or a
//! registered algorithm's): each root's shard cut into C chunks, tree T of weight w carrying w·C
//! of them, each chunk pipelined along its tree by [`pipeline`] (one hop per step, the
//! farthest-reaching first). A tree edge is a path through switches between two ranks; the
//! runtime sees the connection between the ranks, so the schedule lives on
//! `fully-connected:N`, the network `check FILE.xml` judges a file on by default, with the
//! ranks numbered in the order of the fabric's compute nodes. The file keeps the packing's trees
//! and chunk shares, not its timing on the fabric: its steps are those of unit links.
//!
//! An allgather's out-trees route its chunks as they are. A reduce-scatter's in-trees, reversed,
//! are the out-trees of its non-combining dual, run backwards (`compose`); an allreduce is the
//! two phases composed. C must give every tree a whole number of chunks: a multiple of the least
//! common denominator of the weights, which is the default.

use super::{RouteTree, compose, pipeline};
use crate::checker::symmetry::expanded;
use crate::error::{InputError, Result};
use crate::spec::fabric::Fabric;
use crate::spec::io::parse_instance;
use crate::spec::packing::{BandwidthCollective, Packing, Phase};
use crate::spec::{Instance, Schedule};
use num_integer::Integer;
use num_traits::ToPrimitive;

/// The most (chunk, tree edge) pairs a packing's schedule is built from: N · C · (N − 1).
pub const MAX_ROUTED: usize = 1_000_000;

/// The least C that gives every tree of a plain (expanded) packing a whole number of chunks.
fn least_chunks(explicit: &Packing) -> Option<usize> {
    explicit.trees.iter().try_fold(1usize, |lcm, t| t.weight.denom().to_usize().map(|d| lcm.lcm(&d)))
}

/// The collective instance on `fully-connected:N` with C chunks, and the packing's schedule of
/// it (module documentation); `chunks` defaults to the least C that gives every tree a whole
/// number of chunks. Errors name `--chunks` when
/// C splits a tree's share, and the size when N · C · (N − 1) is over [`MAX_ROUTED`].
pub fn packed_schedule(
    fabric: &Fabric,
    packing: &Packing,
    chunks: Option<usize>,
) -> Result<(Instance, Schedule)> {
    let flag = |reason: String| InputError::new("<flags>", "--chunks", reason);
    let explicit = expanded(packing);
    let least =
        least_chunks(&explicit).ok_or_else(|| flag("a tree's weight has a huge denominator".into()))?;
    let c = chunks.unwrap_or(least);
    if c == 0 || !c.is_multiple_of(least) {
        return Err(flag(format!(
            "{c} chunks split some tree's share: C must be a multiple of {least}, the least common denominator of the weights"
        ))
        .into());
    }
    let compute = fabric.compute();
    let n = compute.len();
    if n.saturating_mul(c).saturating_mul(n.saturating_sub(1)) > MAX_ROUTED {
        return Err(flag(format!(
            "{n} ranks with {c} chunks each route {} chunk hops, over the limit of {MAX_ROUTED} for a runtime file",
            n * c * (n - 1)
        ))
        .into());
    }
    let mut rank = vec![None; fabric.len()];
    for (r, &v) in compute.iter().enumerate() {
        rank[v] = Some(r);
    }
    let kind = match packing.collective {
        BandwidthCollective::Allgather => "allgather",
        BandwidthCollective::ReduceScatter => "reduce-scatter",
        BandwidthCollective::Allreduce => "allreduce",
    };
    let text = format!(
        "problem = \"{kind}\"\nnetwork = \"fully-connected:{n}\"\nchunks = {c}\n[model]\nkind = \"collective\"\n"
    );
    let inst = parse_instance(&text, "<packing>", &format!("{kind}-{}-c{c}", fabric.name()))?;
    // The route tree of every chunk of a phase, chunk r·C + k of root r.
    let trees_of = |phase: Phase| -> Result<Vec<RouteTree>> {
        let mut trees: Vec<RouteTree> = vec![vec![None; n]; n * c];
        let mut next = vec![0usize; n];
        for t in explicit.trees.iter().filter(|t| t.phase == phase) {
            let root =
                rank[t.root].ok_or_else(|| flag(format!("tree root {} is not a compute node", t.root)))?;
            let mut parent: RouteTree = vec![None; n];
            for p in &t.paths {
                let ends = (rank[p[0]], rank[p[p.len() - 1]]);
                let (Some(from), Some(to)) = ends else {
                    return Err(flag(format!(
                        "a path of root {root}'s tree does not join two compute nodes"
                    ))
                    .into());
                };
                // Data flows from → to: an out-tree's parent is `from`; an in-tree, reversed into
                // its dual's out-tree, has `to` as the parent.
                match phase {
                    Phase::Allgather => parent[to] = Some(from),
                    Phase::ReduceScatter => parent[from] = Some(to),
                }
            }
            let share = (&t.weight * num_rational::BigRational::from_integer(c.into()))
                .to_integer()
                .to_usize()
                .unwrap_or(0);
            for _ in 0..share {
                if next[root] < c {
                    trees[root * c + next[root]] = parent.clone();
                    next[root] += 1;
                }
            }
        }
        Ok(trees)
    };
    let schedule = compose(&inst, &|part, backwards| {
        pipeline(part, &trees_of(if backwards { Phase::ReduceScatter } else { Phase::Allgather })?)
    })?;
    Ok((inst, schedule))
}
