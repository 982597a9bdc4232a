//! # Farthest-destination-first scattering (paper 001 §2, Theorem 1)
//!
//! "Nonnull messages are dispatched in decreasing order of the distances to their
//! destinations" (§2), back to back from P_0 (1). Theorem 1: on any tree every FDF
//! scattering-schedule is optimal, whatever the order among equidistant destinations
//! (Claim 2, SG-6); its length is T^scat(σ) − 1 = max over depths Δ of
//! (Σ_{δ(i)≥Δ} L_i + Δ − 1) SPEC steps (SG-1, SG-4; `bounds::scatter_gather::fdf_length`).
//! Claims SG-1 … SG-7, SG-27 (Fig. 1(a): order (5, 4), 10 steps, the paper's α = 11).

use super::scattering_schedule::{Depths, dispatch};
use super::{SCATTER, Tie, fdf_claim, routes};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// The FDF scattering-schedule of `inst`, equidistant destinations ordered by `tie`.
pub fn farthest_destination_first(inst: &Instance, tie: Tie) -> Result<Schedule> {
    let routes = routes(inst, &SCATTER, METHOD.name)?;
    dispatch(inst, &routes.order_by_depth(&routes.nonnull(), Depths::Farthest, tie))
}

/// Registry entry: ties by the smaller node first.
pub const METHOD: Method = Method {
    name: "farthest-destination-first",
    source: "001 §2 Theorem 1; SG-1..SG-7, SG-27",
    summary: "P_0 dispatches the nonnull messages back to back by non-increasing depth (ties: smaller node \
              first); optimal on every tree: max over depths Δ of (Σ_{δ≥Δ} L + Δ − 1) steps",
    applicability: SCATTER,
    claim: fdf_claim,
    run: |inst| farthest_destination_first(inst, Tie::SmallerNode),
};
