//! The optimum with its certificate (module [`crate::exact`], "Search"): the lower bounds it
//! meets, or the infeasibility at its length − 1, proved first by a backend that traces proofs.

use super::Search;
use crate::bounds::Bound;
use crate::certify::{Evidence, Infeasibility, certify};
use crate::checker::Checked;
use crate::error::{Error, Result};
use crate::exact::Outcome;
use crate::exact::encode::Variant;

impl Search<'_> {
    /// The optimum `checked`, with its certificate: the bounds, or the infeasibility at its
    /// length − 1.
    pub(super) fn finish(
        &self,
        bounds: &[Bound],
        checked: Checked,
        mut infeasible: Option<Infeasibility>,
    ) -> Result<Outcome> {
        // The word of a backend that traces proofs is not evidence: the infeasibility at T − 1
        // that certifies the optimum is proved again with a proof, which must check. One that
        // names a relaxation in the solver's word is the relaxed model's (an instance's
        // relaxation proves its own).
        if self.solver.as_proof_tracing().is_some()
            && certify(bounds, &checked, None).is_none()
            && let Some(i) = infeasible
                .as_mut()
                .filter(|i| i.horizon + 1 == checked.length() && i.evidence == Evidence::SolverWord)
        {
            let model = i
                .relaxation
                .as_deref()
                .and_then(|name| self.variants.relaxed_named(name))
                .unwrap_or(Variant::Full);
            match self.prove(i.horizon, model)? {
                Ok(()) => i.evidence = Evidence::ProofChecked,
                Err(stop) => return Ok(Outcome::Bounds { lower: i.horizon, upper: Some(checked), stop }),
            }
        }
        let certificate = certify(bounds, &checked, infeasible.as_ref()).ok_or_else(|| Error::Backend {
            backend: self.backend.name(),
            reason: format!("the search ended at {} without a certificate", checked.length()),
        })?;
        Ok(Outcome::Optimal { checked, certificate })
    }
}
