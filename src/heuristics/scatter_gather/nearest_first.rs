//! # Nearest-destination-first scattering (baseline; paper 001 §2, Fig. 1(b))
//!
//! The opposite of FDF: nonnull messages dispatched back to back by non-decreasing distance.
//! §2 and Fig. 1 use it to illustrate Theorem 1: on Fig. 1's path (L_4 = 4, L_5 = 3) the order
//! (4, 5) takes 11 SPEC steps (the paper's T^scat = 12, SG-28) against FDF's 10 (SG-27). By
//! Theorem 1 it is never shorter than FDF (SG-4); as the exchange lemma shows (SG-5), each swap
//! of an adjacent nearer-first pair can only help.

use super::scattering_schedule::{Depths, dispatch};
use super::{SCATTER, Tie, routes};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// The nearest-first scattering-schedule of `inst`, equidistant destinations ordered by `tie`.
pub fn nearest_first(inst: &Instance, tie: Tie) -> Result<Schedule> {
    let routes = routes(inst, &SCATTER, METHOD.name)?;
    dispatch(inst, &routes.order_by_depth(&routes.nonnull(), Depths::Nearest, tie))
}

/// Registry entry: ties by the smaller node first.
pub const METHOD: Method = Method {
    name: "nearest-first",
    source: "001 §2, Fig. 1(b) (baseline); SG-4, SG-28",
    summary: "baseline: P_0 dispatches the nonnull messages back to back by non-decreasing depth (ties: \
              smaller node first); never shorter than farthest-destination-first (Theorem 1)",
    applicability: SCATTER,
    claim: |_| None,
    run: |inst| nearest_first(inst, Tie::SmallerNode),
};
