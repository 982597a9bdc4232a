//! # Parallelizing message transmission (paper 001 §4; SG-25)
//!
//! "Covering the network with mutually edge-disjoint trees rooted at P_0 … These disjoint trees
//! are then used just as described in previous sections" (§4): when P_0 can use all its ports at
//! once, every tree hanging from one of P_0's arcs runs its own farthest-destination-first
//! scattering-schedule (Theorem 1), all starting in step 1. Each PE is preallocated to one tree,
//! which is the tree its message's route runs through; in the others it is only a conduit.
//!
//! The streams never meet: the routes of one branch form a tree, on which a back-to-back FDF
//! stream is collision-free (SG-2), and two branches share no arc ([`Routes`]). The multi-port
//! rule bounds nothing but arcs, so the length is the largest branch's FDF length. That is
//! optimal for the routes: every flit of a branch crosses its arc out of P_0, one per step from
//! step 1, and the last of those bound for depth ≥ Δ still has Δ − 1 arcs to go (the
//! release/tail bound at that arc, [`crate::bounds::generic`]).
//!
//! The gather runs the same scatter backwards in time ([`time_reversal`]), as `reversed-fdf`
//! does for Theorem 1.

use super::scattering_schedule::{Depths, dispatch_streams};
use super::{Routes, Tie, routes, time_reversal};
use crate::bounds::scatter_gather::fdf_length;
use crate::claims::{ClaimValue, Relation, Subject};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Applicability, GatherMode, Instance, ModelClass, Port, ProblemKind, Schedule};

/// Scatter under the multi-port rule (the gather mode does not matter).
const MULTI_PORT_SCATTER: Applicability = Applicability {
    problems: &[ProblemKind::Scatter],
    models: &[
        ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Centralized },
        ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Distributed },
    ],
    model_note: "under the single-port rule P_0 sends one stream: farthest-destination-first",
    ..super::SCATTER
};

/// Centralized gather under the multi-port rule.
const MULTI_PORT_GATHER: Applicability = Applicability {
    problems: &[ProblemKind::Gather],
    models: &[ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Centralized }],
    model_note: "it is centralized and multi-port (§4); single-port, use reversed-fdf",
    ..super::CENTRALIZED_GATHER
};

/// One FDF stream per branch of `routes`, equidistant destinations ordered by `tie`.
fn streams(routes: &Routes, tie: Tie) -> Vec<Vec<usize>> {
    routes.branches().iter().map(|b| routes.order_by_depth(b, Depths::Farthest, tie)).collect()
}

/// The multi-port scatter of `inst`: an FDF scattering-schedule down every arc of P_0 at once.
pub fn parallel_fdf(inst: &Instance, tie: Tie) -> Result<Schedule> {
    let routes = routes(inst, &MULTI_PORT_SCATTER, METHOD.name)?;
    dispatch_streams(inst, &streams(&routes, tie))
}

/// The multi-port centralized gather of `inst`: [`parallel_fdf`] run backwards in time.
pub fn reversed_parallel_fdf(inst: &Instance, tie: Tie) -> Result<Schedule> {
    let routes = routes(inst, &MULTI_PORT_GATHER, METHOD_GATHER.name)?;
    time_reversal(inst, &dispatch_streams(inst, &streams(&routes, tie))?)
}

/// Theorem 1 on every branch at once: the largest branch's FDF length, optimal for the routes.
fn parallel_claim(inst: &Instance) -> Option<ClaimValue> {
    let routes = Routes::of(inst).ok()?;
    let value = routes
        .branches()
        .iter()
        .map(|b| fdf_length(b.iter().map(|&i| (routes.depth[i], routes.lengths[i]))))
        .max()
        .unwrap_or(0);
    Some(ClaimValue {
        claim: "SG-4".into(),
        subject: Subject::Algorithm,
        about: "farthest-destination-first on every tree out of P_0 at once is optimal for the routes (§4)"
            .into(),
        value,
        relation: Relation::Equal,
        convention: "max over P_0's arcs of FDF(the messages through it); the paper's α is one more".into(),
    })
}

/// Registry entry (scatter): ties by the smaller node first.
pub const METHOD: Method = Method {
    name: "parallel-fdf",
    source: "001 §4 (Parallelizing Message Transmission), Theorem 1 per tree; SG-4, SG-25",
    summary: "multi-port scatter: every arc of P_0 carries a farthest-destination-first stream of the \
              messages routed through it, all from step 1; optimal for the routes",
    applicability: MULTI_PORT_SCATTER,
    claim: parallel_claim,
    run: |inst| parallel_fdf(inst, Tie::SmallerNode),
};

/// Registry entry (gather): ties by the smaller node first.
pub const METHOD_GATHER: Method = Method {
    name: "reversed-parallel-fdf",
    source: "001 §4 (Parallelizing Message Transmission), §3 reversal; SG-4, SG-25",
    summary: "multi-port centralized gather: the parallel-fdf scatter run backwards in time; optimal for \
              the routes",
    applicability: MULTI_PORT_GATHER,
    claim: parallel_claim,
    run: |inst| reversed_parallel_fdf(inst, Tie::SmallerNode),
};
