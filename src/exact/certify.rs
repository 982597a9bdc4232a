//! Certification of exact results (ARCHITECTURE.md example 4, "Say why you stopped, as
//! data"). An optimum at T* is reported only with
//!
//! 1. a witness of length T* that passes [`crate::checker::check_produced`] (mandatory: a backend whose
//!    witness the checker rejects has a bug, reported as [`crate::Error::Backend`]), and
//! 2. a [`Certificate`] that nothing shorter exists: T* equals a lower bound, or the backend
//!    proved the model at horizon T* − 1 infeasible.

use serde::Serialize;
use std::fmt;

/// Why no schedule shorter than the witness exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Certificate {
    /// The witness's length equals a lower bound.
    MatchingLowerBound {
        /// The bound's name (`distance`, `bisection`, ...).
        name: String,
        /// Its claim id in CLAIMS.md, if it is a paper's.
        claim: Option<&'static str>,
        /// Its value, equal to the witness's length.
        value: u64,
    },
    /// The backend proved that no schedule fits in `t` = T* − 1 steps.
    InfeasibleAtTMinus1 {
        /// T* − 1.
        t: u64,
    },
}

impl fmt::Display for Certificate {
    /// `lower-bound NAME = V` (with the claim in parentheses when there is one) or
    /// `infeasible-at-T-1 (T-1 = t)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Certificate::MatchingLowerBound { name, claim: Some(c), value } => {
                write!(f, "lower-bound {name} = {value} ({c})")
            }
            Certificate::MatchingLowerBound { name, claim: None, value } => {
                write!(f, "lower-bound {name} = {value}")
            }
            Certificate::InfeasibleAtTMinus1 { t } => write!(f, "infeasible-at-T-1 (T-1 = {t})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificates_display_as_documented() {
        let lb = Certificate::MatchingLowerBound { name: "bisection".into(), claim: Some("TE-1"), value: 9 };
        assert_eq!(lb.to_string(), "lower-bound bisection = 9 (TE-1)");
        let d = Certificate::MatchingLowerBound { name: "distance".into(), claim: None, value: 2 };
        assert_eq!(d.to_string(), "lower-bound distance = 2");
        assert_eq!(Certificate::InfeasibleAtTMinus1 { t: 8 }.to_string(), "infeasible-at-T-1 (T-1 = 8)");
    }
}
