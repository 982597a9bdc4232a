//! The restricted model's witnesses (module [`crate::exact`], "Restricted witness first"): its
//! answers are schedules of the instance, its infeasibility is no evidence, so it is only ever
//! asked for witnesses: at the lower bound first, and by bisection for a shorter one where the
//! instance's own model is too large.

use super::{Progress, Search};
use crate::checker::Checked;
use crate::error::Result;
use crate::exact::Decision;
use crate::exact::encode::Variant;

impl Search<'_> {
    /// When the `first` model is the restricted one, its witness at L; then, when the own model
    /// fits at L (`own_fits`) but not just below the incumbent, where only the restricted model
    /// can lower it (prefix on fat-tree:16 under w = 1: L = 12, U = 27), the restricted
    /// witnesses. Whether they ran.
    pub(super) fn restricted_first(
        &self,
        progress: &mut Progress,
        first: Variant,
        own_fits: bool,
    ) -> Result<bool> {
        if first != Variant::Restricted {
            return Ok(false);
        }
        let lo = progress.lo;
        if let Decision::Feasible(checked) = self.probe(lo, first)? {
            progress.best = Some(self.at_least(checked, lo)?);
        }
        let below_incumbent_fits =
            progress.upper().is_none_or(|u| u <= lo || self.fits(u - 1, Variant::Full));
        let witnesses_first = own_fits && !below_incumbent_fits;
        if witnesses_first {
            progress.best = self.restricted_witnesses(lo, progress.best.take())?;
        }
        Ok(witnesses_first)
    }

    /// The shortest witness the restricted model gives between the proven bound `lo` (already
    /// asked) and the length of `best` (bisection from `lo + 1`), for when the instance's own
    /// model is over the size guard. Its infeasible answers bound only the restricted model, so
    /// they raise where it looks, never the instance's lower bound. An undecided probe (it had
    /// half of the time left) raises it too, as witnesses are easier above; the search ends
    /// when the time is up.
    pub(super) fn restricted_witnesses(&self, lo: u64, mut best: Option<Checked>) -> Result<Option<Checked>> {
        let mut from = lo + 1;
        while let Some(upper) = best.as_ref().map(Checked::length).filter(|&u| u > from) {
            let next = from + (upper - from - 1) / 2;
            match self.probe(next, Variant::Restricted)? {
                Decision::Feasible(checked) => best = Some(self.at_least(checked, lo)?),
                Decision::Unknown(_) if self.time_left().is_err() => break,
                Decision::Infeasible | Decision::Unknown(_) => from = next + 1,
            }
        }
        Ok(best)
    }
}
