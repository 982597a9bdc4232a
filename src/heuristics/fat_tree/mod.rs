//! # Broadcast, product and prefix on the ideal fat-tree (paper 002)
//!
//! Seed 002: Bilardi, Codenotti, Del Corso, Pinotti, Resta, "Broadcast and Associative
//! Operations on Fat-Trees". Model: the ideal fat-tree of SPEC §4.3, pipelined or in rounds
//! (§4.2). Every algorithm builds [`plan::Phase`]s (one per parallel step) and emits them back to
//! back; the checker verifies the schedule.
//!
//! | method | file | problem | model | claimed length | claims |
//! |---|---|---|---|---|---|
//! | `broadcast` | [`broadcast`](mod@broadcast) (+ [`sparse_broadcast`](mod@sparse_broadcast)) | broadcast | both | T(N) = S(N) + T(N/r), S(N) ≤ 2S(m) + 4 log N | FT-6 … FT-8, FT-14 |
//! | `naive-broadcast` | [`naive_broadcast`](mod@naive_broadcast) | broadcast | both | log N (log N + 1) | FT-3 |
//! | `pipelined-broadcast` | [`pipelined_broadcast`](mod@pipelined_broadcast) | broadcast | pipelined | T'(N) = S(N) + T'(N/(r p)) + γ log N | FT-9, FT-10 |
//! | `product` | [`product`](mod@product) | product | both | the shortest broadcast's length | FT-23, FT-24 |
//! | `prefix` | [`prefix`](mod@prefix) | prefix | both | ≤ twice the shortest broadcast's | FT-23, FT-24 |
//! | `prefix-fenwick-pieces` (ours) | [`fenwick_pieces`](mod@fenwick_pieces) | prefix | pipelined, N ≤ 128 | none | compare FT-23, FT-24 |
//! | `prefix-hypercube-scan` (ours) | [`hypercube_scan`](mod@hypercube_scan) | prefix | rounds, N ≤ 1024 | log N (log N + 1) under w = n | compare FT-23, FT-24 |

pub mod broadcast;
pub mod fenwick_pieces;
pub mod hypercube_scan;
pub mod naive_broadcast;
pub mod pipelined_broadcast;
pub mod plan;
pub mod prefix;
pub mod product;
pub mod sparse_broadcast;

pub use broadcast::{broadcast, broadcast_plan};
pub use fenwick_pieces::fenwick_pieces;
pub use hypercube_scan::hypercube_scan;
pub use naive_broadcast::naive_broadcast;
pub use pipelined_broadcast::{pipelined_broadcast, pipelined_plan};
pub use plan::{Hop, Phase};
pub use prefix::prefix;
pub use product::{Reversal, product};
pub use sparse_broadcast::{Spread, sparse_broadcast};

use super::Method;
use crate::error::{Error, Result};
use crate::spec::applicability::fat_tree_with_valid_capacity;
use crate::spec::{Applicability, Capacity, FamilyKind, Instance, Model, ModelClass, Node, ProblemKind};

/// The registered paper-002 algorithms.
pub static METHODS: &[Method] = &[
    broadcast::METHOD,
    naive_broadcast::METHOD,
    pipelined_broadcast::METHOD,
    product::METHOD,
    prefix::METHOD,
    fenwick_pieces::METHOD,
    hypercube_scan::METHOD,
];

/// Where a paper-002 algorithm applies: `problem` on an ideal fat-tree, in `models`.
const fn on_fat_trees(
    problem: &'static [ProblemKind],
    models: &'static [ModelClass],
    model_note: &'static str,
) -> Applicability {
    Applicability {
        problems: problem,
        models,
        families: &[FamilyKind::FAT_TREE],
        refine: Some(fat_tree_with_valid_capacity),
        model_note,
    }
}

const BOTH_MODELS: &[ModelClass] =
    &[ModelClass::FatTree { rounds: false }, ModelClass::FatTree { rounds: true }];

/// Broadcast, pipelined or in rounds.
const BROADCAST: Applicability = on_fat_trees(&[ProblemKind::Broadcast], BOTH_MODELS, "");
/// Broadcast outside the round model.
const PIPELINED: Applicability = on_fat_trees(
    &[ProblemKind::Broadcast],
    &[ModelClass::FatTree { rounds: false }],
    "it submits copies in consecutive steps (002 §3.3), which the round model forbids",
);
/// Product.
const PRODUCT: Applicability = on_fat_trees(&[ProblemKind::Product], BOTH_MODELS, "");
/// Prefix.
const PREFIX: Applicability = on_fat_trees(&[ProblemKind::Prefix], BOTH_MODELS, "");

/// The channel above processor v's ancestor at height k on a fat-tree of n processors, as an
/// index: `(heap index of that tree node) * 2 + (1 if up)`, below 4n.
fn channel(n: usize, k: usize, v: Node, up: bool) -> usize {
    ((n >> k) + (v >> k)) * 2 + usize::from(up)
}

/// The instance's capacity function, validated on its tree.
fn capacity(inst: &Instance) -> Result<&Capacity> {
    let Model::FatTree { capacity, .. } = &inst.model else {
        return Err(Error::NotApplicable {
            method: "fat-tree algorithm".into(),
            reason: format!("the model is {}, not the ideal fat-tree", inst.model.name()),
        });
    };
    Ok(capacity)
}

/// The shortest broadcast plan the instance's model allows, the base of product and prefix:
/// Algorithm 1, the naive broadcast and, outside the round model, the pipelined broadcast (the
/// first of equal lengths). Theorem 6 ties product and prefix to the best broadcast.
fn shortest_broadcast(inst: &Instance) -> Result<Vec<Phase>> {
    let (n, capacity) = (inst.network.len(), capacity(inst)?);
    let mut plans = vec![broadcast_plan(n, Spread::Rounded(capacity))?, broadcast_plan(n, Spread::Halving)?];
    if !product::in_rounds(inst) {
        plans.push(pipelined_plan(n, capacity)?);
    }
    let length = |plan: &Vec<Phase>| plan.iter().map(Phase::length).sum::<i64>();
    let shortest = plans.iter().map(length).min().unwrap_or(0);
    Ok(plans.into_iter().find(|p| length(p) == shortest).unwrap_or_default())
}
