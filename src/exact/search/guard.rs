//! The size guard on the first model (module [`crate::exact`], "Search"): a first model over
//! the guard ends the search as the time budget running out does, with the bounds, once the
//! relaxed walk has had its turn (it may still raise the bound to the best schedule).

use super::{Progress, Search};
use crate::bounds::Bound;
use crate::error::Result;
use crate::exact::Outcome;
use crate::exact::encode::Variant;

impl Search<'_> {
    /// The search's end when the `first` model at L (the restricted one, or the encoder's own)
    /// is over the size guard: the incumbent certified by the relaxed walk (which runs when the
    /// incumbent is not certified already, `open`), else the bounds [L, U] with
    /// [`crate::exact::StopReason::SizeGuard`]. `None`: it fits.
    pub(super) fn guard(
        &self,
        bounds: &[Bound],
        progress: &mut Progress,
        first: Variant,
        open: bool,
    ) -> Result<Option<Outcome>> {
        let Some(stop) = self.over_guard(progress.lo, first) else { return Ok(None) };
        if open {
            self.walk_relaxed(progress)?;
        }
        if let Some(inc) = progress.best.clone().filter(|inc| inc.length() == progress.lo) {
            return self.finish(bounds, inc, progress.infeasible.take()).map(Some);
        }
        Ok(Some(Outcome::Bounds { lower: progress.lo, upper: progress.best.take(), stop }))
    }
}
