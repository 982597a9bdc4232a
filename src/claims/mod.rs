//! The papers' claims: the [`catalogue`] of every checkable claim (ids, statements, formulas,
//! conventions, errata; data in `claims/*.toml`), and what a claim says about one instance as
//! data: a value in commsched steps, the relation an observed length must have to it, and the
//! verdict once something has been observed.
//!
//! Registry entries carry their own claims (`heuristics::Method::claim`); the comparator
//! (`compare`) judges them against checked lengths and certified optima.

pub mod catalogue;

use serde::{Deserialize, Serialize};
use std::fmt;

/// How an observed length must relate to a claimed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Relation {
    /// The claim is an exact value.
    #[serde(rename = "=")]
    Equal,
    /// The claim is an upper bound (an algorithm's guarantee, TE-23's "factor two").
    #[serde(rename = "<=")]
    AtMost,
    /// The claim is a lower bound.
    #[serde(rename = ">=")]
    AtLeast,
}

impl Relation {
    /// Whether `observed` satisfies `observed RELATION claimed`.
    pub fn holds(self, observed: u64, claimed: u64) -> bool {
        match self {
            Relation::Equal => observed == claimed,
            Relation::AtMost => observed <= claimed,
            Relation::AtLeast => observed >= claimed,
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Equal => "=",
            Relation::AtMost => "<=",
            Relation::AtLeast => ">=",
        })
    }
}

/// What became of a claim on an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimVerdict {
    /// The observation satisfies the claim.
    Holds,
    /// The observation refutes the claim (a counterexample).
    Violated,
    /// Nothing decisive was observed (no certified optimum, bounds not tight enough).
    Unsettled,
}

impl fmt::Display for ClaimVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClaimVerdict::Holds => "holds",
            ClaimVerdict::Violated => "violated",
            ClaimVerdict::Unsettled => "unsettled",
        })
    }
}

/// What the claim is about: the number the comparator must observe to judge it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Subject {
    /// The optimum of the instance (judged by a certified optimum, or refuted by a shorter
    /// checked schedule or a higher lower bound).
    Optimum,
    /// The length of one algorithm's schedule (judged by its checked length).
    Algorithm,
    /// The length of the paper's own schedule for the instance (judged by checking it).
    PaperSchedule,
}

/// A value a paper claims for an instance, in commsched steps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimValue {
    /// The claim id of the catalogue (`TE-13`).
    pub claim: String,
    /// What the number is about.
    pub subject: Subject,
    /// In words: `furthest-first (Theorem 1)`, `length stated by the paper`.
    pub about: String,
    /// The claimed value in commsched steps.
    pub value: u64,
    /// How an observation must relate to it.
    pub relation: Relation,
    /// The paper's formula and how it was converted to commsched steps.
    pub convention: String,
}

impl ClaimValue {
    /// A claim that the instance's optimum equals `value`.
    pub fn optimum_equals(claim: &str, about: &str, value: u64, convention: String) -> Self {
        ClaimValue {
            claim: claim.into(),
            subject: Subject::Optimum,
            about: about.into(),
            value,
            relation: Relation::Equal,
            convention,
        }
    }

    /// The verdict on an observed value.
    pub fn judge(&self, observed: u64) -> ClaimVerdict {
        if self.relation.holds(observed, self.value) { ClaimVerdict::Holds } else { ClaimVerdict::Violated }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relations_judge_as_written() {
        let claim = |relation| ClaimValue {
            claim: "TE-23".into(),
            subject: Subject::Algorithm,
            about: String::new(),
            value: 10,
            relation,
            convention: String::new(),
        };
        assert_eq!(claim(Relation::Equal).judge(10), ClaimVerdict::Holds);
        assert_eq!(claim(Relation::Equal).judge(9), ClaimVerdict::Violated);
        assert_eq!(claim(Relation::AtMost).judge(9), ClaimVerdict::Holds);
        assert_eq!(claim(Relation::AtMost).judge(11), ClaimVerdict::Violated);
        assert_eq!(claim(Relation::AtLeast).judge(11), ClaimVerdict::Holds);
        assert_eq!(claim(Relation::AtLeast).judge(9), ClaimVerdict::Violated);
        assert_eq!(Relation::AtMost.to_string(), "<=");
    }
}
