//! One point decided with its evidence (docs/spec.md §4.5): does a schedule of length ≤ H
//! exist? A yes carries a checked witness; a no carries what it rests on: a lower bound over
//! H, a proof that commsched checked (SAT backend), or the solver's word (ILP, SMT). This is
//! `solve --steps S` (with `--rounds R`, SCCL's (S, R, C) question) and each probe of the
//! Pareto walk ([`super::pareto`]).

use super::encode::{Prefix, Variant};
use super::search::Search;
use super::{Decision, SolveOptions, StopReason};
use crate::bounds::{self, Bound};
use crate::certify::{Evidence, Infeasibility};
use crate::checker::Checked;
use crate::deadline::Deadline;
use crate::error::Result;
use crate::exact::BackendKind;
use crate::spec::Instance;
use std::fmt;

/// Why no schedule of length ≤ H exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refutation {
    /// A lower bound of the instance exceeds H, or the encoder knows no horizon admits a
    /// schedule (an item that cannot reach its target, a round budget below the receive
    /// bandwidth's rounds): the argument in words.
    Bound(String),
    /// The backend decided the model at H infeasible.
    Solver(Infeasibility),
}

impl fmt::Display for Refutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refutation::Bound(argument) => write!(f, "lower bound: {argument}"),
            Refutation::Solver(Infeasibility { evidence: Evidence::ProofChecked, .. }) => {
                write!(f, "proof checked")
            }
            Refutation::Solver(i) => write!(f, "{} solver's word", i.backend),
        }
    }
}

/// The answer at one horizon.
#[derive(Debug)]
pub enum Point {
    /// A checked schedule of length ≤ H.
    Feasible(Checked),
    /// No schedule of length ≤ H, and why.
    Infeasible(Refutation),
    /// Undecided (time, size guard, or the proof could not be completed in time).
    Unknown(StopReason),
}

/// Decides whether `instance` has a schedule of length ≤ `horizon` (module documentation).
/// The lower bounds are tried first: one above `horizon` answers without a solve. With the SAT
/// backend an infeasible answer is proved: the LRAT proof of the model at `horizon` is checked,
/// and with [`SolveOptions::proof_dir`] the CNF and the proof are left there.
///
/// With a `prefix`, the model keeps its first K steps ([`super::encode::Encoding::keep`]) and the solver only
/// completes them: a witness is still a schedule of the instance, but an infeasible answer
/// refutes the completion, not the instance ([`StopReason::NoCompletion`]).
pub fn decide_point(
    instance: &Instance,
    backend: BackendKind,
    horizon: u64,
    options: &SolveOptions,
    prefix: Option<Prefix>,
) -> Result<Point> {
    // The witness is searched for without a proof tracer (and with CaDiCaL's options for
    // satisfiable instances); an infeasible answer is proved afresh, which costs little where
    // refutations are quick and witnesses slow, as on SCCL's rows (docs/bench-sccl.md).
    let keep = prefix.as_ref().map(|p| p.keep);
    let search = Search::new(instance, backend, options)?.untraced().keeping(prefix);
    if let Some(reason) = search.encoder.impossible() {
        return Ok(Point::Infeasible(Refutation::Bound(reason)));
    }
    // The cheap bounds first, then those that take time (the flow LP) within the deadline.
    let refuted = |lower: &[Bound]| {
        let b = bounds::strongest(lower).filter(|b| b.value > horizon)?;
        Some(Point::Infeasible(Refutation::Bound(bound_argument(b))))
    };
    let cheap = bounds::cheap_lower_bounds(instance);
    if let Some(point) = refuted(&cheap) {
        return Ok(point);
    }
    if let Some(point) =
        refuted(&bounds::costly_lower_bounds(instance, Deadline::after(options.timeout), &cheap))
    {
        return Ok(point);
    }
    Ok(match (search.probe(horizon, Variant::Full)?, keep) {
        (Decision::Feasible(checked), _) => Point::Feasible(checked),
        (Decision::Unknown(stop), _) => Point::Unknown(stop),
        (Decision::Infeasible, Some(keep)) => Point::Unknown(StopReason::NoCompletion { keep, horizon }),
        (Decision::Infeasible, None) => match search.evidence(horizon)? {
            Ok(evidence) => Point::Infeasible(Refutation::Solver(Infeasibility {
                horizon,
                backend: backend.name(),
                evidence,
                relaxation: None,
            })),
            Err(stop) => Point::Unknown(stop),
        },
    })
}

/// A bound as an argument: its name, claim, value and note.
fn bound_argument(b: &Bound) -> String {
    let claim = b.claim.map_or(String::new(), |c| format!(" ({c})"));
    let note = if b.note.is_empty() { String::new() } else { format!(": {}", b.note) };
    format!("{} = {}{claim}{note}", b.name, b.value)
}
