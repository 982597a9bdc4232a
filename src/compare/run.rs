//! The algorithms of an assessment, each run and checked within the command's deadline
//! ([`crate::deadline::within`]): whether it applies (which, for a collective under a round
//! budget, means routing it), its schedule and the checker's verdict.

use crate::checker::{self, Producer};
use crate::checker::{Checked, Violation};
use crate::claims::ClaimValue;
use crate::claims::ClaimVerdict;
use crate::deadline::{self, Deadline};
use crate::error::Error;
use crate::error::InputError;
use crate::heuristics::Method;
use crate::spec::Instance;
use serde::{Deserialize, Serialize};

/// One algorithm's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AlgorithmRun {
    /// Its registered name.
    #[serde(deserialize_with = "crate::names::name")]
    pub method: crate::names::Name,
    /// The checked length, when its schedule is admissible.
    pub length: Option<u64>,
    /// Every violation, when its schedule is inadmissible (a bug in the algorithm).
    pub violations: Vec<String>,
    /// Why it produced nothing, when it failed.
    pub error: Option<String>,
    /// Length over the strongest lower bound.
    pub ratio: Option<f64>,
    /// What the paper claims for its length here, judged.
    pub claim: Option<ClaimCheck>,
    /// The checked schedule.
    #[serde(skip)]
    pub checked: Option<Checked>,
    /// The input error behind `error`, when a size guard refused the run.
    #[serde(skip)]
    pub refused: Option<InputError>,
}

/// A paper claim set against what was observed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClaimCheck {
    /// The claimed value.
    #[serde(flatten)]
    pub claimed: ClaimValue,
    /// What was observed: a certified optimum, a checked length or a bound.
    pub observed: Option<u64>,
    /// The verdict.
    pub verdict: ClaimVerdict,
}

/// Violations as contract text.
pub(super) fn strings(violations: &[Violation]) -> Vec<String> {
    violations.iter().map(Violation::to_string).collect()
}

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
