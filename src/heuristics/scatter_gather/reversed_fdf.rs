//! # Gathering as an FDF scatter run backwards (paper 001 §3)
//!
//! "In an ideal world, we would implement the gathering operation by running an FDF scattering
//! algorithm 'backwards'; by reasoning analogous to that in the proof of Theorem 1, an algorithm
//! that accomplished this would be optimal" (§3, introduction). It cannot run distributed (the
//! PEs would have to know when to start), so it applies to gathers checked centralized.
//!
//! Time reversal: a scatter of length T sends flit h of M_i over the k-th arc of ρ_i in step
//! s + h + k. Mapping step t to T + 1 − t, flit h to L_i − 1 − h and the k-th arc (u, v) to the
//! (δ − 1 − k)-th arc (v, u) of the gather path gives the gather start s' = T + 3 − s − L_i − δ(i).
//! Every arc-step is used at most once iff it was before, and a node's sends become its
//! receives, so single-port admissibility and the length T are preserved: the reversed FDF
//! scatter is a gather of the FDF optimum's length (the bound "gather reversed FDF", SG-4).

use super::scattering_schedule::{Depths, dispatch};
use super::{CENTRALIZED_GATHER, Tie, fdf_claim, routes};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Problem, Schedule, Start};

/// The time reversal of a scatter `schedule` (its starts; message i goes P_0 → P_i) into a gather
/// of `inst` (message i goes P_i → P_0 along the same path), of the same length.
pub fn time_reversal(inst: &Instance, schedule: &Schedule) -> Result<Schedule> {
    let Schedule::Bufferless { starts, .. } = schedule else {
        return Err(crate::error::Error::NotApplicable {
            method: "time reversal".into(),
            reason: format!("it reverses bufferless schedules, not {} ones", schedule.model_name()),
        });
    };
    let (Problem::Scatter(lengths) | Problem::Gather(lengths)) = &inst.problem else {
        return Err(crate::error::Error::NotApplicable {
            method: "time reversal".into(),
            reason: format!("it reverses scatters into gathers, and the problem is {}", inst.problem),
        });
    };
    let n = lengths.len();
    let mut depth = vec![0i64; n];
    for m in inst.messages()? {
        depth[m.id] = m.arcs.len() as i64;
    }
    if let Some(s) = starts.iter().find(|s| s.msg == 0 || s.msg >= n) {
        return Err(crate::error::InputError::new(
            "<schedule>",
            "starts",
            format!("message {} is unknown: messages are 1..{}", s.msg, n - 1),
        )
        .into());
    }
    // The step of a message's last event: start + L + δ − 2.
    let last = |s: &Start| s.start + lengths[s.msg] as i64 + depth[s.msg] - 2;
    let length = starts.iter().map(last).max().unwrap_or(0);
    let starts = starts.iter().map(|s| Start { msg: s.msg, start: length + 1 - last(s) }).collect();
    Ok(Schedule::Bufferless { starts, control: Vec::new() })
}

/// The FDF scatter of `inst`'s lengths (ties by `tie`) run backwards: a centralized gather.
pub fn reversed_fdf(inst: &Instance, tie: Tie) -> Result<Schedule> {
    let routes = routes(inst, &CENTRALIZED_GATHER, METHOD.name)?;
    let scatter = dispatch(inst, &routes.order_by_depth(&routes.nonnull(), Depths::Farthest, tie))?;
    time_reversal(inst, &scatter)
}

/// Registry entry: ties by the smaller node first.
pub const METHOD: Method = Method {
    name: "reversed-fdf",
    source: "001 §3 (introduction), Theorem 1 reversed; SG-4",
    summary: "centralized gather: the farthest-destination-first scatter run backwards in time (ties: \
              smaller node first); the single-port optimum, FDF's length",
    applicability: CENTRALIZED_GATHER,
    claim: fdf_claim,
    run: |inst| reversed_fdf(inst, Tie::SmallerNode),
};
