//! Helpers the integration modules share.

use commsched::checker::{Verdict, check};
use commsched::spec::{Instance, Schedule};

/// Every violation of a verdict on one line.
pub fn verdict_text(v: &Verdict) -> String {
    v.violations().iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// The checker's length; panics with the violations when inadmissible.
pub fn checked(inst: &Instance, schedule: &Schedule) -> u64 {
    let v = check(inst, schedule);
    match v.admissible() {
        Some(c) => c.length(),
        None => panic!("{} ({}): inadmissible: {}", inst.name, inst.model, verdict_text(&v)),
    }
}
