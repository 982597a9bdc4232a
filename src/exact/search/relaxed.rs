//! The walk of the relaxed models (module [`crate::exact`], "Relaxed model"): models of the
//! instance itself, weaker than its own, whose infeasibility at a horizon is the instance's.

use super::{Progress, Search};
use crate::error::Result;
use crate::exact::encode::Variant;
use crate::exact::{Decision, StopReason};

impl Search<'_> {
    /// The relaxed models walked up from L: at each horizon the cheapest model not yet found
    /// feasible (or over the size guard) is asked first, and the next where it is not found
    /// infeasible: a model feasible at T is feasible above it, and larger there. Each
    /// infeasible horizon raises L past it and becomes the infeasibility on record, until no
    /// model is left, time runs out, or L meets the best schedule. Whether it raised L.
    pub(super) fn walk_relaxed(&self, progress: &mut Progress) -> Result<bool> {
        let names = self.variants.relaxed;
        let (start, mut which) = (progress.lo, 0);
        while which < names.len() && progress.upper().is_none_or(|u| u > progress.lo) {
            match self.probe(progress.lo, Variant::Relaxed(which))? {
                Decision::Infeasible => {}
                Decision::Unknown(StopReason::Timeout) => break,
                _ => {
                    which += 1;
                    continue;
                }
            }
            self.refuted(progress, progress.lo, Some(names[which]));
        }
        Ok(progress.lo > start)
    }
}
