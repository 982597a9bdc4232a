//! Relaxation first (module [`crate::exact`], "Relaxation first"): when the encoder knows a
//! relaxation, another instance that every schedule maps into with no greater length, its own
//! exact search runs first, and its infeasibility at T′ − 1 is the instance's.

use super::{Progress, Search};
use crate::bounds;
use crate::certify::{Certificate, Infeasibility};
use crate::error::{Error, Result};
use crate::exact::{Outcome, SolveOptions};

impl Search<'_> {
    /// The relaxation's search, its infeasibility taken as the instance's: L = T′.
    pub(super) fn relaxation_first(&self, progress: &mut Progress) -> Result<()> {
        let Some(at) = self.relax()? else { return Ok(()) };
        progress.lo = progress.lo.max(at.horizon + 1);
        progress.infeasible = Some(at);
        match progress.upper().filter(|&u| u < progress.lo) {
            Some(inc) => Err(Error::Backend {
                backend: self.backend.name(),
                reason: format!(
                    "the relaxation's bound {} is above the incumbent's checked length {inc}",
                    progress.lo
                ),
            }),
            None => Ok(()),
        }
    }

    /// The relaxation's exact search, when the encoder has a relaxation, within the time left:
    /// its infeasibility at T′ − 1 when it found its optimum T′ that way. Nothing when there is
    /// no relaxation, when its optimum meets its lower bounds (which the instance has too), or
    /// when its search stopped (time, size guard): no evidence.
    fn relax(&self) -> Result<Option<Infeasibility>> {
        let Some(relaxation) = self.encoder.relaxation() else { return Ok(None) };
        let Ok(timeout) = self.time_left() else { return Ok(None) };
        let options = SolveOptions {
            timeout,
            max_variables: self.max_variables,
            proof_dir: self.proof_dir.clone(),
            symmetric: self.symmetric,
        };
        let relaxed = &relaxation.instance;
        let outcome =
            Search::new(relaxed, self.backend, &options)?.run(&bounds::lower_bounds(relaxed), None)?;
        Ok(match outcome {
            Outcome::Optimal {
                certificate: Certificate::InfeasibleAtTMinus1 { t, backend, evidence, .. },
                ..
            } => Some(Infeasibility {
                horizon: t,
                backend,
                evidence,
                relaxation: Some(relaxation.name.into()),
            }),
            Outcome::Optimal { certificate: Certificate::LowerBound { .. }, .. } | Outcome::Bounds { .. } => {
                None
            }
        })
    }
}
