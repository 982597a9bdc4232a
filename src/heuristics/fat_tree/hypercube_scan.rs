//! # Prefix by the hypercube scan, in rounds (ours, not paper 002's)
//!
//! Paper 002's prefix (§5, FT-23, FT-24; [`prefix`](mod@super::prefix)) runs the shortest
//! broadcast backwards and then forwards, twice its length. In the round model (§4.2) a round
//! costs twice the largest LCA height among its messages, so the exchanges of the hypercube
//! scan (recursive doubling), whose heights are 1, 2, …, log N, cost
//! 2 + 4 + … + 2 log N = log N (log N + 1) steps when no channel binds (w = n), against the
//! broadcast's round-model optimum, which bounds prefix there (`round-model optimum, reversed`
//! in `bounds/fat_tree.rs`): 6, 12 and 20 at N = 4, 8 and 16. So the scan is optimal on those
//! trees, where the sweeps take 12, 24 and 40.
//!
//! **Exchange q** (q = 0 … log N − 1). Processor j sends the aligned block of 2^q processors
//! that holds it, [B, B + 2^q − 1] with B = j with bits 0..q cleared, to its partner j ⊕ 2^q
//! (LCA height q + 1). It holds that block as a chain: its own value and the blocks its partners
//! sent in exchanges 0 … q − 1, which tile it. A receiver in the upper half of the 2^(q+1)
//! block appends the block to its prefix: after every exchange P_j holds, for each bit k set in
//! j, its left sibling block of 2^k, which chain with a_j into [0, j] (the Fenwick
//! decomposition). A receiver in the lower half only needs the block to send its own, larger
//! one on, so the message is left out when the receiver has no zero bit above q and never
//! sends again (in the last exchange every message goes rightwards). Induction on q: a
//! processor sends in exchange q only if it has a zero bit at or above q, and then it received
//! in every earlier exchange, so the block it sends is the chain above.
//!
//! **Rounds.** Each exchange is one round where its messages fit the capacities. Otherwise it
//! is split, first fit in processor order, into rounds within w(2^k) at every channel of
//! height k (all the round's messages cross a channel in the same step, §4.2). The processor
//! rule holds: in an exchange every processor sends at most one message and receives at most
//! one. Capacities below n split the late exchanges (under w = 1 the last one into N/2
//! rounds), so the scan is for trees where the channels are wide; the checker verifies every
//! schedule. Round model only: pipelined, [`fenwick_pieces`](mod@super::fenwick_pieces) runs
//! the same exchanges as soon as each is ready (its p = log N) and overlaps them with more.

use super::plan::{Hop, Phase, push, sends};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::applicability::fat_tree_with_valid_capacity;
use crate::spec::{Applicability, FamilyKind, Instance, ModelClass, Node, ProblemKind, Schedule};

/// The largest fat-tree it runs on (the first fit keeps a load per channel and round).
pub const MAX_PROCESSORS: usize = 1024;

/// The exchanges q = 0 … log N − 1 as rounds within the capacities (module documentation).
pub fn hypercube_scan(inst: &Instance) -> Result<Schedule> {
    let n = inst.network.len();
    let caps = super::capacity(inst)?.per_height(n);
    let mut plan = Vec::new();
    for q in 0..n.trailing_zeros() as usize {
        for hops in within_capacities(exchange(n, q), q, &caps, n) {
            push(&mut plan, Phase { hops });
        }
    }
    Ok(Schedule::FatTree(sends(&plan)))
}

/// Exchange q: j sends its aligned block of 2^q to j ⊕ 2^q, unless the receiver is in the
/// lower half and has no zero bit above q (it neither uses nor sends the block).
fn exchange(n: usize, q: usize) -> Vec<Hop> {
    let half = 1usize << q;
    (0..n)
        .filter(|&j| {
            let receiver = j ^ half;
            receiver & half != 0 || receiver >> (q + 1) != (n >> (q + 1)) - 1
        })
        .map(|j| {
            let lo = j & !(half - 1);
            Hop { offset: 0, from: j, to: j ^ half, payload: [lo, lo + half - 1] }
        })
        .collect()
}

/// The hops of one exchange (LCA height q + 1) split first fit into rounds in which every
/// channel of height k carries at most w(2^k) of them.
fn within_capacities(hops: Vec<Hop>, q: usize, caps: &[u64], n: usize) -> Vec<Vec<Hop>> {
    let mut rounds: Vec<(Vec<u64>, Vec<Hop>)> = Vec::new();
    for hop in hops {
        let crossed: Vec<(usize, u64)> = (0..=q)
            .flat_map(|k| {
                [
                    (super::channel(n, k, hop.from, true), caps[k]),
                    (super::channel(n, k, hop.to, false), caps[k]),
                ]
            })
            .collect();
        let fits = |loads: &[u64]| crossed.iter().all(|&(c, cap)| loads[c] < cap);
        let i = rounds.iter().position(|(loads, _)| fits(loads)).unwrap_or_else(|| {
            rounds.push((vec![0; 4 * n], Vec::new()));
            rounds.len() - 1
        });
        let (loads, members) = &mut rounds[i];
        for &(c, _) in &crossed {
            loads[c] += 1;
        }
        members.push(hop);
    }
    rounds.into_iter().map(|(_, hops)| hops).collect()
}

/// Where it applies: prefix in the round model on a valid fat-tree, up to [`MAX_PROCESSORS`].
fn small_fat_tree(inst: &Instance) -> std::result::Result<(), String> {
    fat_tree_with_valid_capacity(inst)?;
    let n: Node = inst.network.len();
    if n > MAX_PROCESSORS {
        return Err(format!("fat-tree:{n} is over the {MAX_PROCESSORS} processors it runs on"));
    }
    Ok(())
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "prefix-hypercube-scan",
    source: "ours (not paper 002's): the hypercube scan (recursive doubling) in rounds; compare FT-23, FT-24",
    summary: "exchange q = 0 .. log N - 1: P_j sends its aligned block of 2^q to j xor 2^q, one round \
              of height q + 1 where the capacities allow, first fit into more otherwise; log N (log N + 1) \
              steps under w = n",
    applicability: Applicability {
        problems: &[ProblemKind::Prefix],
        models: &[ModelClass::FatTree { rounds: true }],
        families: &[FamilyKind::FAT_TREE],
        refine: Some(small_fat_tree),
        model_note: "pipelined, prefix-fenwick-pieces runs the same exchanges as soon as each is ready",
    },
    claim: |_| None,
    run: hypercube_scan,
};
