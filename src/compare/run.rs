//! The algorithms of an assessment, each run and checked within the command's deadline
//! ([`crate::deadline::within`]): whether it applies (which, for a collective under a round
//! budget, means routing it), its schedule and the checker's verdict.

use super::assess::{AlgorithmRun, ClaimCheck, strings};
use crate::checker::{self, Producer};
use crate::claims::ClaimVerdict;
use crate::deadline::{self, Deadline};
use crate::error::Error;
use crate::heuristics::Method;
use crate::spec::Instance;

/// Runs each of `methods` that applies, in turn, within `deadline`: the one running when it
/// passes is abandoned (listed as stopped) and none starts after it. Returns the runs and
/// whether one was abandoned.
pub(super) fn run_algorithms(
    instance: &Instance,
    methods: Vec<&'static Method>,
    deadline: Deadline,
) -> (Vec<AlgorithmRun>, bool) {
    let mut runs = Vec::new();
    for m in methods {
        match on_clone(deadline, instance, move |i| m.applies(i).is_ok().then(|| run_algorithm(i, m))) {
            Some(run) => runs.extend(run),
            None => {
                runs.push(AlgorithmRun::stopped(m));
                return (runs, true);
            }
        }
    }
    (runs, false)
}

/// Runs `work` on a clone of `instance` within `deadline` ([`deadline::within`]).
pub(super) fn on_clone<T: Send + 'static>(
    deadline: Deadline,
    instance: &Instance,
    work: impl FnOnce(&Instance) -> T + Send + 'static,
) -> Option<T> {
    let instance = instance.clone();
    deadline::within(deadline, move || work(&instance))
}

impl AlgorithmRun {
    /// The run of `m` abandoned at the deadline.
    fn stopped(m: &'static Method) -> Self {
        Self {
            method: m.name,
            length: None,
            violations: Vec::new(),
            error: Some("stopped at the time limit (timeout)".into()),
            ratio: None,
            claim: None,
            checked: None,
            refused: None,
        }
    }
}

/// One algorithm's run and the checker's verdict (its ratio to the bound is set by the caller).
fn run_algorithm(instance: &Instance, m: &'static Method) -> AlgorithmRun {
    let mut run = AlgorithmRun {
        method: m.name,
        length: None,
        violations: Vec::new(),
        error: None,
        ratio: None,
        claim: None,
        checked: None,
        refused: None,
    };
    match m.produce(instance) {
        Ok(schedule) => match checker::judge(instance, schedule, Producer::Algorithm(m.name)) {
            Ok(c) => {
                run.length = Some(c.length());
                run.checked = Some(c);
            }
            Err((_, v)) => run.violations = strings(&v),
        },
        Err(e) => {
            run.error = Some(e.to_string());
            if let Error::Input(refused) = e {
                run.refused = Some(refused);
            }
        }
    }
    run.claim = (m.claim)(instance).map(|claimed| ClaimCheck {
        verdict: run.length.map_or(ClaimVerdict::Unsettled, |l| claimed.judge(l)),
        observed: run.length,
        claimed,
    });
    run
}
