//! Galloping and bisection over the horizons of the encoder's own model (module
//! [`crate::exact`], "Search"), handing the last few to the descent where a backend has one.

use super::descent::Descended;
use super::{Progress, Search};
use crate::bounds::Bound;
use crate::error::Result;
use crate::exact::encode::Variant;
use crate::exact::{DESCENT_WINDOW, Decision, Outcome, StopReason};

/// The phases that have not run before the bisection, which get their turn when it stops
/// undecided.
pub(super) struct Left {
    /// The restricted witnesses (module [`super::restricted`]), at the size guard.
    pub(super) witnesses: bool,
    /// The relaxed walk (module [`super::relaxed`]).
    pub(super) walk: bool,
}

impl Search<'_> {
    /// With a best schedule, bisection of [L, U − 1]; without one, galloping upward from L
    /// (L, L + 2, L + 6, …) until a probe is feasible. A feasible probe at T lowers U, an
    /// infeasible one raises L to T + 1; at L = U the best schedule is the optimum.
    pub(super) fn bisect(&self, bounds: &[Bound], mut progress: Progress, left: Left) -> Result<Outcome> {
        let mut gap = 0;
        let mut descends = self.solver.as_incremental().is_some();
        loop {
            let upper = progress.upper();
            let lo = progress.lo;
            if let Some(u) = upper.filter(|&u| descends && u > lo && u - lo <= DESCENT_WINDOW) {
                match self.descend(u - 1, &mut progress)? {
                    Descended::Declined => descends = false,
                    Descended::Settled => continue,
                    Descended::Stopped(stop) => return Ok(progress.stopped(stop)),
                }
            }
            let next = match upper {
                Some(u) if u <= lo => break,
                Some(u) => lo + (u - lo - 1) / 2,
                None => lo + gap,
            };
            match self.probe(next, Variant::Full)? {
                Decision::Feasible(checked) => progress.best = Some(self.at_least(checked, lo)?),
                Decision::Infeasible => {
                    self.refuted(&mut progress, next, None);
                    gap = 2 * gap + 1;
                }
                Decision::Unknown(stop) => return self.undecided(bounds, progress, &left, stop),
            }
        }
        let checked = progress.best.expect("the loop ends only with a schedule at the lower bound");
        self.finish(bounds, checked, progress.infeasible)
    }

    /// Where a probe stopped undecided: at the size guard the restricted witnesses, and the
    /// relaxed walk, if they have not run; the bounds, or the optimum the walk certified.
    fn undecided(
        &self,
        bounds: &[Bound],
        mut progress: Progress,
        left: &Left,
        stop: StopReason,
    ) -> Result<Outcome> {
        if matches!(stop, StopReason::SizeGuard { .. }) && left.witnesses {
            progress.best = self.restricted_witnesses(progress.lo, progress.best.take())?;
        }
        if left.walk
            && self.walk_relaxed(&mut progress)?
            && let Some(checked) = progress.best.clone().filter(|b| b.length() == progress.lo)
        {
            return self.finish(bounds, checked, progress.infeasible);
        }
        Ok(progress.stopped(stop))
    }
}
