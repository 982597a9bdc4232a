//! Certification: the one place that decides whether a checked schedule is a certified optimum,
//! and how the certificate reads. `solve` with an algorithm, `solve` with an exact backend and
//! `report` all call [`certify`], so the same schedule gets the same certificate whichever
//! command asks (docs/spec.md §7).
//!
//! A schedule of length T is optimal when nothing shorter exists. There are two ways to know:
//!
//! 1. T equals a lower bound ([`Certificate::LowerBound`]): the bound's argument is the proof,
//!    and it does not depend on any solver. This is preferred whenever it applies.
//! 2. The exact model at horizon T − 1 is infeasible ([`Certificate::InfeasibleAtTMinus1`]),
//!    or that of a relaxation, an instance every schedule of this one maps to with its length
//!    (the broadcast a product reverses into, `exact::encode::Relaxation`), and the
//!    certificate says which and what the evidence is ([`Evidence`]):
//!    - [`Evidence::ProofChecked`]: the SAT backend wrote a clausal (LRAT) proof and commsched's
//!      own checker ([`crate::proof::lrat`]) verified it against the CNF;
//!    - [`Evidence::SolverWord`]: the ILP or SMT backend said so, and nothing re-checked it.
//!
//! A timeout or a size guard never certifies anything: the caller reports bounds.

use crate::bounds::{self, Bound};
use crate::checker::Checked;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What an infeasibility rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Evidence {
    /// A clausal proof that commsched's proof checker accepted (SAT backend).
    ProofChecked,
    /// The backend's answer alone (ILP, SMT).
    SolverWord,
}

/// Evidence that the exact model at some horizon has no solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Infeasibility {
    /// The horizon decided infeasible: no schedule of length ≤ `horizon` exists.
    pub horizon: u64,
    /// The backend that decided it (`ilp`, `smt`, `sat`).
    #[serde(deserialize_with = "crate::names::name")]
    pub backend: crate::names::Name,
    /// What the answer rests on.
    pub evidence: Evidence,
    /// The relaxation whose model it is, if not the instance's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relaxation: Option<String>,
}

/// Why no schedule shorter than a checked one exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Certificate {
    /// The length equals a lower bound.
    LowerBound {
        /// The bound's name (`bisection`, `distance`, ...).
        name: String,
        /// Its claim id when it is a paper's bound.
        #[serde(deserialize_with = "crate::names::optional")]
        claim: Option<crate::names::Name>,
        /// Its value, equal to the length.
        value: u64,
    },
    /// No schedule fits in `t` = T − 1 steps.
    InfeasibleAtTMinus1 {
        /// T − 1.
        t: u64,
        /// The backend that decided it.
        #[serde(deserialize_with = "crate::names::name")]
        backend: crate::names::Name,
        /// A checked proof, or the backend's word.
        evidence: Evidence,
        /// The relaxation whose model is infeasible, if not the instance's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        relaxation: Option<String>,
    },
}

impl fmt::Display for Certificate {
    /// `lower-bound NAME = V (CLAIM)`, `infeasible-at-T-1 (T-1 = t, proof checked)` or
    /// `infeasible-at-T-1 (T-1 = t, BACKEND solver's word)`; a relaxation's infeasibility adds
    /// `, for RELAXATION` after t.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Certificate::LowerBound { name, claim: Some(c), value } => {
                write!(f, "lower-bound {name} = {value} ({c})")
            }
            Certificate::LowerBound { name, claim: None, value } => write!(f, "lower-bound {name} = {value}"),
            Certificate::InfeasibleAtTMinus1 { t, backend, evidence, relaxation } => {
                let of = relaxation.as_ref().map_or(String::new(), |r| format!(" for {r}"));
                match evidence {
                    Evidence::ProofChecked => write!(f, "infeasible-at-T-1 (T-1 = {t}{of}, proof checked)"),
                    Evidence::SolverWord => {
                        write!(f, "infeasible-at-T-1 (T-1 = {t}{of}, {backend} solver's word)")
                    }
                }
            }
        }
    }
}

impl Certificate {
    /// The certificate of a length that meets `bound`.
    fn lower_bound(bound: &Bound) -> Self {
        Certificate::LowerBound { name: bound.name.clone(), claim: bound.claim, value: bound.value }
    }
}

/// The certificate that `checked` is optimal, if there is one: its length meets the strongest
/// of `bounds` ([`bounds::strongest`]), or `infeasible` says that one step less is infeasible.
pub fn certify(
    bounds: &[Bound],
    checked: &Checked,
    infeasible: Option<&Infeasibility>,
) -> Option<Certificate> {
    let length = checked.length();
    if let Some(bound) = bounds::strongest(bounds).filter(|b| b.value == length) {
        return Some(Certificate::lower_bound(bound));
    }
    infeasible.filter(|i| i.horizon + 1 == length).map(|i| Certificate::InfeasibleAtTMinus1 {
        t: i.horizon,
        backend: i.backend,
        evidence: i.evidence,
        relaxation: i.relaxation.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::{Producer, accept};
    use crate::heuristics;
    use crate::spec::io::parse_instance;

    fn path6() -> (crate::spec::Instance, Checked) {
        let inst =
            parse_instance("problem = \"total-exchange\"\nnetwork = \"path:6\"", "<test>", "p6").unwrap();
        let schedule = (heuristics::find("furthest-first").unwrap().run)(&inst).unwrap();
        let checked = accept(&inst, schedule, Producer::Algorithm("furthest-first")).unwrap();
        (inst, checked)
    }

    /// On path(6) the cut bound and TE-1's bisection bound are both 9: the certificate names the
    /// paper's bound, whichever order a caller found them in.
    #[test]
    fn a_tie_names_the_papers_bound() {
        let (inst, checked) = path6();
        let all = bounds::lower_bounds(&inst);
        assert!(all.iter().filter(|b| b.value == 9).count() >= 2, "{all:?}");
        let c = certify(&all, &checked, None).unwrap();
        assert_eq!(c.to_string(), "lower-bound bisection = 9 (TE-1)");
    }

    #[test]
    fn infeasibility_certifies_only_one_step_below() {
        let (_, checked) = path6();
        let weak = [Bound::new("distance", None, 5, "")];
        assert_eq!(certify(&weak, &checked, None), None);
        let below =
            Infeasibility { horizon: 8, backend: "ilp", evidence: Evidence::SolverWord, relaxation: None };
        assert_eq!(
            certify(&weak, &checked, Some(&below)).unwrap().to_string(),
            "infeasible-at-T-1 (T-1 = 8, ilp solver's word)"
        );
        let proved =
            Infeasibility { horizon: 8, backend: "sat", evidence: Evidence::ProofChecked, relaxation: None };
        assert_eq!(
            certify(&weak, &checked, Some(&proved)).unwrap().to_string(),
            "infeasible-at-T-1 (T-1 = 8, proof checked)"
        );
        let too_low =
            Infeasibility { horizon: 7, backend: "ilp", evidence: Evidence::SolverWord, relaxation: None };
        assert_eq!(certify(&weak, &checked, Some(&too_low)), None);
    }
}
