//! Helpers the integration modules share.

use commsched::checker::{Verdict, check};
use commsched::exact::{self, BackendKind, Decision, SolveOptions};
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

/// Asserts with `backend` alone (no lower bound involved) that `t` is the optimum: the model at
/// `t` yields a schedule the checker accepts with length ≤ `t`, and the model at `t − 1` is
/// infeasible.
pub fn assert_backend_optimum(inst: &Instance, backend: BackendKind, t: u64) {
    let options = SolveOptions::default();
    match exact::decide(inst, backend, t, &options).unwrap() {
        Decision::Feasible(witness) => {
            assert_eq!(checked(inst, witness.schedule()), witness.length(), "{}", inst.name);
            assert!(witness.length() <= t, "{} with {backend}: {} > {t}", inst.name, witness.length());
        }
        other => panic!("{} with {backend}: expected a schedule of length {t}, got {other:?}", inst.name),
    }
    assert_eq!(
        exact::decide(inst, backend, t - 1, &options).unwrap(),
        Decision::Infeasible,
        "{} with {backend}: length {} should be infeasible",
        inst.name,
        t - 1
    );
}
