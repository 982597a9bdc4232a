//! # Recursive doubling: binomial trees on 2^k nodes
//!
//! In round j = 0, 1, …, every node exchanges what it holds with node i xor 2^j (the
//! allgather of MPICH's recursive doubling; the broadcast's binomial tree). So the chunk of
//! source s reaches v from v xor 2^j, where 2^j is the highest bit in which v and s differ:
//! log₂ n steps where bandwidth allows. It needs the arcs i → i xor 2^j.

use super::{RouteTree, chunks, route};
use crate::heuristics::Method;
use crate::spec::{CollectiveKind, Instance, Problem};

/// The binomial route trees.
pub fn recursive_doubling(inst: &Instance) -> Vec<RouteTree> {
    let n = inst.network.len();
    chunks(inst)
        .iter()
        .map(|chunk| {
            let s = chunk.sources[0];
            let mut tree = vec![None; n];
            for v in (0..n).filter(|&v| v != s) {
                let high = usize::BITS - 1 - (v ^ s).leading_zeros();
                tree[v] = Some(v ^ (1 << high));
            }
            super::prune(&tree, chunk)
        })
        .collect()
}

/// 2^k nodes, every arc i → i xor 2^j present, and a collective that reaches every node.
fn applies(inst: &Instance) -> Result<(), String> {
    let n = inst.network.len();
    if !n.is_power_of_two() {
        return Err(format!("{} has {n} nodes, not a power of two", inst.network));
    }
    if !matches!(&inst.problem, Problem::Collective(c) if matches!(c.kind, CollectiveKind::Allgather | CollectiveKind::Broadcast))
    {
        return Err("it solves allgather and broadcast".into());
    }
    for i in 0..n {
        let mut bit = 1;
        while bit < n {
            if inst.network.arc(i, i ^ bit).is_none() {
                return Err(format!("{} has no arc ({i},{})", inst.network, i ^ bit));
            }
            bit <<= 1;
        }
    }
    Ok(())
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "recursive-doubling",
    source: "ours (MPICH's recursive-doubling allgather, the binomial broadcast)",
    summary: "exchange with i xor 2^j in round j: log₂ n steps for an allgather or broadcast where bandwidth allows",
    applicability: super::applicability(Some(|inst| {
        super::each_part(inst, applies).and_then(|()| super::fits(inst, recursive_doubling))
    })),
    claim: |_| None,
    run: |inst| route(inst, recursive_doubling),
};
