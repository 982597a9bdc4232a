//! The comparator: the only place where lower bounds, heuristics, exact optima and the papers'
//! claims meet. Reports are data ([`report::InstanceReport`]) first, formatters second.

pub mod claims;
pub mod report;

use crate::checker::{self, Checked, Verdict};
use crate::error::{Error, Result};
use crate::spec::{Instance, Schedule};

/// Runs a producer's schedule through the checker. Every schedule a command emits goes
/// through here (or straight through [`checker::check`]) before it is reported.
pub fn checked(instance: &Instance, schedule: &Schedule, producer: &str) -> Result<Checked> {
    match checker::check(instance, schedule) {
        Verdict::Admissible(c) => Ok(c),
        Verdict::Inadmissible(v) => Err(Error::Backend {
            backend: "checker",
            reason: format!(
                "{producer} produced an inadmissible schedule ({} violations; first: {})",
                v.len(),
                v[0]
            ),
        }),
    }
}
