//! Lower bounds (CLAIMS.md): closed forms per problem plus generic bounds computed on any
//! network. Each bound carries its name and claim id.

use crate::spec::Instance;
use serde::Serialize;

/// A lower bound on the length (SPEC steps) of every admissible schedule of an instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bound {
    /// Short name, e.g. `bisection`, `distance`, `congestion C`.
    pub name: String,
    /// The claim id of CLAIMS.md, when the bound is a paper's (`TE-1`), else `None`.
    pub claim: Option<&'static str>,
    /// The bound in SPEC steps.
    pub value: u64,
}

/// Every lower bound that applies to the instance. PLACEHOLDER: being implemented.
pub fn lower_bounds(_instance: &Instance) -> Vec<Bound> {
    todo!("bounds")
}

/// The strongest lower bound (largest value), if any applies.
pub fn best(instance: &Instance) -> Option<Bound> {
    lower_bounds(instance).into_iter().max_by_key(|b| b.value)
}
