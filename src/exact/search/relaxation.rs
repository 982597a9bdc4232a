//! Relaxation first (module [`crate::exact`], "Relaxation first"): when the encoder knows a
//! relaxation, another instance that every schedule maps into with no greater length, its own
//! exact search runs first, and its infeasibility at T′ − 1 is the instance's.

use super::{Progress, Search};
use crate::bounds;
use crate::certify::{Certificate, Infeasibility};
use crate::error::{Error, Result};
use crate::exact::{Outcome, SolveOptions};

/// What the search of a relaxation gave ([`Search::relax`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Relaxed {
    /// No relaxation, or its search stopped or was refused by the size guard: no evidence.
    Unsettled,
    /// Its optimum meets its lower bounds, which the instance has too: nothing new.
    Bound,
    /// Its optimum T′, by infeasibility at T′ − 1: the instance's bound.
    Infeasible(Infeasibility),
}

impl Search<'_> {
    /// The relaxation's search, its infeasibility taken as the instance's: L = T′.
    pub(super) fn relaxation_first(&self, progress: &mut Progress) -> Result<Relaxed> {
        let relaxed = self.relax()?;
        if let Relaxed::Infeasible(at) = &relaxed {
            progress.lo = progress.lo.max(at.horizon + 1);
            progress.infeasible = Some(at.clone());
            if let Some(inc) = progress.upper().filter(|&u| u < progress.lo) {
                return Err(Error::Backend {
                    backend: self.backend.name(),
                    reason: format!(
                        "the relaxation's bound {} is above the incumbent's checked length {inc}",
                        progress.lo
                    ),
                });
            }
        }
        Ok(relaxed)
    }

    /// The relaxation's exact search, when the encoder has a relaxation, within the time left.
    fn relax(&self) -> Result<Relaxed> {
        let Some(relaxation) = self.encoder.relaxation() else { return Ok(Relaxed::Unsettled) };
        let Ok(timeout) = self.time_left() else { return Ok(Relaxed::Unsettled) };
        let options = SolveOptions {
            timeout,
            max_variables: self.max_variables,
            proof_dir: self.proof_dir.clone(),
            symmetric: self.symmetric,
        };
        let relaxed = &relaxation.instance;
        let outcome =
            match Search::new(relaxed, self.backend, &options)?.run(&bounds::lower_bounds(relaxed), None) {
                Err(Error::Input(_)) => return Ok(Relaxed::Unsettled),
                other => other?,
            };
        Ok(match outcome {
            Outcome::Optimal {
                certificate: Certificate::InfeasibleAtTMinus1 { t, backend, evidence, .. },
                ..
            } => Relaxed::Infeasible(Infeasibility {
                horizon: t,
                backend,
                evidence,
                relaxation: Some(relaxation.name.into()),
            }),
            Outcome::Optimal { certificate: Certificate::LowerBound { .. }, .. } => Relaxed::Bound,
            Outcome::Bounds { .. } => Relaxed::Unsettled,
        })
    }
}
