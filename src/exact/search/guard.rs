//! The size guard on the first model (module [`crate::exact`], "Search"): a first model over
//! the guard is an error, unless a relaxation or the relaxed walk raised the bound, which is
//! then reported.

use super::relaxation::Relaxed;
use super::{Progress, Search};
use crate::bounds::Bound;
use crate::error::{Error, InputError, Result};
use crate::exact::encode::Variant;
use crate::exact::{Outcome, StopReason};

impl Search<'_> {
    /// The search's end when the `first` model at L (restricted to the schedules `restricted`
    /// names, if any) is over the size guard: the incumbent certified by the relaxed walk, the
    /// bounds a relaxation raised, or the error that asks for a larger guard. `None`: it fits.
    pub(super) fn guard(
        &self,
        bounds: &[Bound],
        progress: &mut Progress,
        first: Variant,
        restricted: Option<&str>,
        open: bool,
        relaxed: Relaxed,
    ) -> Result<Option<Outcome>> {
        let lo = progress.lo;
        let at_least = self.encoder.min_variables(lo, first);
        let variables =
            if at_least > self.max_variables { at_least } else { self.encoder.variables(lo, first) };
        if variables <= self.max_variables {
            return Ok(None);
        }
        let walked = open && self.walk_relaxed(progress)?;
        if let Some(inc) = progress.best.clone().filter(|inc| inc.length() == progress.lo) {
            return self.finish(bounds, inc, progress.infeasible.take()).map(Some);
        }
        if relaxed != Relaxed::Unsettled || walked {
            // A relaxation raised the bound: report the bounds rather than refuse.
            let stop = StopReason::SizeGuard { variables, limit: self.max_variables };
            return Ok(Some(Outcome::Bounds { lower: progress.lo, upper: progress.best.take(), stop }));
        }
        Err(Error::Input(InputError::new(
            "",
            "network",
            format!(
                "an exact model of this instance needs {}{variables} variables at horizon T = {lo}{}, over the size guard {} (raise --max-vars)",
                if at_least > self.max_variables { "at least " } else { "" },
                restricted.map_or(String::new(), |name| format!(" even restricted to {name}")),
                self.max_variables
            ),
        )))
    }
}
