//! The papers' claimed values, keyed by the claim ids of CLAIMS.md, each with the convention
//! of its number. The comparator sets them against checked lengths, bounds and exact optima.

// The papers' optima are their own lower bounds (TE-1, TE-2): one formula serves both.
use crate::bounds::total_exchange::{linear_array as t_opt_linear_array, ring as t_opt_ring};
use crate::spec::{Family, Instance, Model, PortRule, Problem};
use serde::Serialize;

/// A value a paper claims for an instance (in SPEC steps) and what it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClaimValue {
    /// CLAIMS.md id.
    pub claim: String,
    /// What the number is: `optimum`, `length of furthest-first`, `figure length`, ...
    pub about: String,
    /// The claimed value in SPEC steps.
    pub value: u64,
    /// `=` for an exact value, `<=` for an upper bound (TE-23's "factor two").
    pub relation: &'static str,
    /// The paper's formula and how it was converted to SPEC steps.
    pub convention: String,
}

/// The `about` of the number an instance's `[paper] length` states.
pub const STATED: &str = "length stated by the paper";

/// Every claimed value that applies to the instance: the paper's formula for its family and
/// model, and the number its figure states (`[paper] length`).
pub fn claimed_values(instance: &Instance) -> Vec<ClaimValue> {
    let mut out = Vec::new();
    let n = instance.network.len() as u64;
    let full_exchange = matches!(instance.problem, Problem::TotalExchange(None));
    if full_exchange && matches!(instance.model, Model::StoreForward { rule: PortRule::FStar, .. }) {
        match instance.network.family() {
            Family::Path(_) => out.push(ClaimValue {
                claim: "TE-13".into(),
                about: "optimum (furthest-first, Theorem 1)".into(),
                value: t_opt_linear_array(n),
                relation: "=",
                convention: "⌈(n²−1)/4⌉; paper 004 time 1 is SPEC step 1".into(),
            }),
            Family::Ring(_) => out.push(ClaimValue {
                claim: if n % 2 == 1 { "TE-16" } else { "TE-21" }.into(),
                about: if n % 2 == 1 {
                    "optimum (node-invariant algorithms, Theorem 2)"
                } else {
                    "optimum (modified message-shift, Theorem 3)"
                }
                .into(),
                value: t_opt_ring(n),
                relation: "=",
                convention: "⌈(n²−1)/8⌉; paper 004 time 1 is SPEC step 1".into(),
            }),
            _ => {}
        }
    }
    if let Some(len) = instance.paper.length {
        out.push(ClaimValue {
            claim: instance.paper.claims.first().cloned().unwrap_or_else(|| "paper".into()),
            about: STATED.into(),
            value: len,
            relation: "=",
            convention: if instance.paper.note.is_empty() {
                "SPEC steps".into()
            } else {
                instance.paper.note.clone()
            },
        });
    }
    out
}

/// What the paper claims for the length of algorithm `method` on the instance, in SPEC steps
/// (paper 004 §2–§4). Under H\* and F1 the registered algorithms run through the half-duplex
/// split, for which TE-23 claims at most twice the F\* length.
pub fn claimed_for_method(method: &str, instance: &Instance) -> Option<ClaimValue> {
    if !matches!(instance.problem, Problem::TotalExchange(None)) {
        return None;
    }
    let n = instance.network.len() as u64;
    let ring = matches!(instance.network.family(), Family::Ring(_));
    let (claim, about, value, formula) = match (method, ring) {
        ("furthest-first", false) => {
            ("TE-13", "furthest-first (Theorem 1)", t_opt_linear_array(n), "⌈(n²−1)/4⌉")
        }
        ("consecutive-scatter", false) => (
            "TE-4",
            "n consecutive optimal scatters",
            3 * t_opt_linear_array(n) - n / 2,
            "Σ max(i−1, n−i) = 3T_opt(LA) − ⌊n/2⌋",
        ),
        ("furthest-first" | "message-shift" | "closest-first", true) => {
            ("TE-16", "node-invariant algorithm on an odd ring (Theorem 2)", t_opt_ring(n), "(n²−1)/8")
        }
        ("modified-message-shift", true) => {
            ("TE-21", "modified message-shift (Theorem 3)", t_opt_ring(n), "⌈(n²−1)/8⌉")
        }
        ("all-clockwise", true) => {
            ("TE-18", "all antipodal messages clockwise", (n * (n + 2)).div_ceil(8), "⌈n(n+2)/8⌉")
        }
        _ => return None,
    };
    let split = !matches!(instance.model, Model::StoreForward { rule: PortRule::FStar, .. });
    Some(ClaimValue {
        claim: if split { format!("TE-23 ({claim})") } else { claim.into() },
        about: about.into(),
        value: if split { 2 * value } else { value },
        relation: if split { "<=" } else { "=" },
        convention: if split {
            format!("2 x {formula}: the F* schedule split into two half-duplex steps per step")
        } else {
            format!("{formula}; paper 004 time 1 is SPEC step 1")
        },
    })
}

/// Whether an observed value satisfies a claim.
pub fn holds(claim: &ClaimValue, observed: u64) -> bool {
    match claim.relation {
        "<=" => observed <= claim.value,
        _ => observed == claim.value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TE-22: the collected values for n = 2..12.
    #[test]
    fn te_22_values() {
        let la: Vec<u64> = (2..=12).map(t_opt_linear_array).collect();
        assert_eq!(la, [1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36]);
        let ring: Vec<u64> = (3..=12).map(t_opt_ring).collect();
        assert_eq!(ring, [1, 2, 3, 5, 6, 8, 10, 13, 15, 18]);
    }
}
