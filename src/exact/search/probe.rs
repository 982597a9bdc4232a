//! One horizon decided by one model (module [`crate::exact`], "Search"): the size guard first,
//! then the model built and decided on a thread of its own under a deadline, and a feasible
//! answer's witness checked.

use super::Search;
use crate::checker::{Producer, accept};
use crate::deadline::Deadline;
use crate::error::InputError;
use crate::error::{Error, Result};
use crate::exact::backend::{Aim, Backend, BackendAnswer, Limits, ProofTrace, Unknown};
use crate::exact::encode::{self, Encoder, Encoding, Prefix, Variant};
use crate::exact::{Decision, StopReason};
use std::time::Duration;

/// The backend call's limits for a model of `variant`: only a relaxed model is asked for a
/// refutation.
pub(super) fn limits(variant: Variant, time: Option<Duration>) -> Limits {
    let aim = if matches!(variant, Variant::Relaxed(_)) { Aim::Refutation } else { Aim::Witness };
    Limits { time, aim }
}

/// The backend's answer on a probe's model. With a trace (a backend that traces proofs), the
/// CNF and its proof are written there, unchecked until the horizon turns out to be the
/// certificate's.
fn answer(
    solver: &dyn Backend,
    model: &crate::exact::ir::Program,
    limits: &Limits,
    trace: Option<&ProofTrace>,
) -> Result<BackendAnswer> {
    match (solver.as_proof_tracing(), trace) {
        (Some(tracing), Some(trace)) => tracing.trace(model, limits, trace),
        _ => solver.solve(model, limits),
    }
}

/// The model of `variant` at `horizon`, keeping the `prefix` if it is the instance's own.
fn built(encoder: &dyn Encoder, horizon: u64, variant: Variant, prefix: Option<&Prefix>) -> Result<Encoding> {
    let mut encoding = encoder.model(horizon, variant)?;
    if let Some(prefix) = prefix.filter(|_| variant == Variant::Full) {
        encoding.keep(prefix).map_err(|reason| InputError::new(&prefix.source, "--keep", reason))?;
    }
    Ok(encoding)
}

impl Search<'_> {
    /// Decides horizon T in the model of `variant`; the witness of a feasible answer is checked
    /// here. A restricted probe gets half of the time left, and traces no proof (its
    /// infeasibility is no evidence).
    pub(in crate::exact) fn probe(&self, horizon: u64, variant: Variant) -> Result<Decision> {
        if let Some(stop) = self.over_guard(horizon, variant) {
            return Ok(Decision::Unknown(stop));
        }
        let time = match self.time_left() {
            Ok(t) if variant == Variant::Restricted => t.map(|t| t / 2),
            Ok(t) => t,
            Err(stop) => return Ok(Decision::Unknown(stop)),
        };
        let trace = self.traced(horizon, variant).filter(|_| !self.untraced_probes);
        let traces = trace.is_some();
        let (encoding, answer) = match time {
            None => {
                let encoding = built(self.encoder.as_ref(), horizon, variant, self.prefix.as_ref())?;
                let answer = answer(self.solver, &encoding.model, &limits(variant, time), trace.as_ref())?;
                (encoding, answer)
            }
            Some(budget) => match self.abandonable_probe(horizon, variant, budget, trace) {
                Some(result) => result?,
                None => return Ok(Decision::Unknown(StopReason::Timeout)),
            },
        };
        if answer != BackendAnswer::Infeasible && traces {
            self.discard(horizon);
        }
        Ok(match answer {
            // A relaxed model's solution is no schedule, and no evidence either way.
            BackendAnswer::Feasible(_) if matches!(variant, Variant::Relaxed(_)) => {
                Decision::Unknown(StopReason::BackendUnknown {
                    reason: "the relaxed model is feasible".into(),
                })
            }
            BackendAnswer::Feasible(assignment) => {
                let witness = encoding.decode(&assignment.values);
                let checked = accept(self.instance, witness, Producer::Exact(self.backend.name()))?;
                if checked.length() > horizon {
                    return Err(Error::Backend {
                        backend: self.backend.name(),
                        reason: format!("its witness has length {} at horizon {horizon}", checked.length()),
                    });
                }
                Decision::Feasible(checked)
            }
            BackendAnswer::Infeasible => Decision::Infeasible,
            BackendAnswer::Unknown(Unknown::Timeout) => Decision::Unknown(StopReason::Timeout),
            BackendAnswer::Unknown(Unknown::Other(r)) => {
                Decision::Unknown(StopReason::BackendUnknown { reason: r })
            }
        })
    }

    /// Encodes and solves horizon T on a thread of its own, waiting at most `budget` (module
    /// [`crate::exact`], "Search"); `None` when the budget runs out first.
    fn abandonable_probe(
        &self,
        horizon: u64,
        variant: Variant,
        budget: Duration,
        trace: Option<ProofTrace>,
    ) -> Option<Result<(Encoding, BackendAnswer)>> {
        let (instance, solver, prefix) = (self.instance.clone(), self.solver, self.prefix.clone());
        crate::deadline::within(Deadline::after(Some(budget)), move || {
            encode::encoder_for(&instance).and_then(|(_, mut encoder)| {
                if let Some(prefix) = &prefix {
                    encoder.start_after(prefix);
                }
                let encoding = built(encoder.as_ref(), horizon, variant, prefix.as_ref())?;
                let answer = answer(solver, &encoding.model, &limits(variant, Some(budget)), trace.as_ref())?;
                Ok((encoding, answer))
            })
        })
    }
}
