//! # Exact optima with certificates
//!
//! The exact layer (ARCHITECTURE.md): encoders ([`encode`]) write a neutral linear integer
//! model ([`ir`]) for an instance and a horizon T; backends ([`backend`]: `ilp` = good_lp +
//! microlp, the default, and `smt` = z3) decide it; [`mod@export`] writes the same model as `.lp`
//! or `.smt2` text. The search ([`solve`]) finds the least feasible T and reports it only with
//! a checked witness and a [`Certificate`] ([`certify`]); otherwise it says why it stopped, as
//! data ([`Outcome::Bounds`] with a [`StopReason`]). Heuristics and exact never call each
//! other: the search's ceiling comes from its own small greedy schedule.
//!
//! Targets (CLAIMS.md "Exact-optimiser targets"): the paper 004 total-exchange optima on
//! linear arrays (TE-1, TE-3, TE-13: ⌈(n²−1)/4⌉ under F\*) and rings (TE-2, TE-16, TE-21:
//! ⌈(n²−1)/8⌉), and the other port rules of SPEC §4.2 (TE-23). Only total exchange is encoded
//! so far; other problems are [`Error::NotApplicable`].
//!
//! ## Search
//!
//! L = the best lower bound ([`crate::bounds`], e.g. TE-1 and TE-2, or the distance bound), U =
//! the checked length of the greedy schedule. If U = L the greedy schedule is optimal. Otherwise
//! horizons are probed (first L, then bisection of [lo, U − 1]): a feasible probe at T gives a
//! checked witness of length ≤ T and lowers U, an infeasible probe raises lo to T + 1. At lo = U
//! the best schedule (the backend's, or the greedy one) is optimal, certified by `lower-bound`
//! when the optimum is L, else by `infeasible-at-T-1` (the backend's proof at U − 1). Each probe
//! gets what is left of the time budget; the size guard is checked before a model is built.

pub mod backend;
pub mod certify;
pub mod encode;
pub mod export;
mod greedy;
pub mod ir;

pub use backend::{Backend, BackendAnswer, BackendKind, Limits};
pub use certify::Certificate;
pub use export::export;

use crate::bounds::{self, Bound};
use crate::checker::Checked;
use crate::error::{Error, InputError, Result};
use crate::spec::{Instance, Problem, Schedule};
use encode::Encoder;
use serde::Serialize;
use std::fmt;
use std::time::{Duration, Instant};

/// The default backend: ILP (good_lp + microlp), embedded and dependency-free.
pub fn default_backend() -> BackendKind {
    BackendKind::Ilp
}

/// Whether the exact layer encodes the problem named `problem` (SPEC §3 names).
pub fn supports(problem: &str) -> bool {
    encode::ENCODED.contains(&problem)
}

/// The default size guard: models with more variables are not built.
pub const DEFAULT_MAX_VARIABLES: usize = 200_000;

/// Options of [`solve`] and [`decide`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveOptions {
    /// Wall-clock budget for the whole search (`None`: unlimited). Running out can only give
    /// [`Outcome::Bounds`].
    pub timeout: Option<Duration>,
    /// Size guard: the largest model (in variables) that may be built.
    pub max_variables: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self { timeout: None, max_variables: DEFAULT_MAX_VARIABLES }
    }
}

/// Why a search stopped without an optimum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StopReason {
    /// The time budget ran out.
    Timeout,
    /// The next model would have `variables` variables, over the guard `limit`.
    SizeGuard {
        /// Variables the model needs.
        variables: usize,
        /// The guard.
        limit: usize,
    },
    /// The backend could not decide for another reason (its words).
    BackendUnknown(String),
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Timeout => f.write_str("timeout"),
            StopReason::SizeGuard { variables, limit } => {
                write!(f, "size guard: the next model needs {variables} variables, over {limit}")
            }
            StopReason::BackendUnknown(r) => write!(f, "backend undecided: {r}"),
        }
    }
}

/// The result of an exact search.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// An optimum: a checked witness and why nothing shorter exists.
    Optimal {
        /// The optimal schedule.
        witness: Schedule,
        /// The checker's verdict on it (its length is the optimum).
        checked: Checked,
        /// Why no shorter schedule exists.
        certificate: Certificate,
    },
    /// No optimum: the proven bounds and why the search stopped.
    Bounds {
        /// Every schedule has length ≥ `lower`.
        lower: u64,
        /// The best checked schedule found, if any.
        upper: Option<(Schedule, Checked)>,
        /// Why the search stopped.
        stop: StopReason,
    },
}

/// A backend's answer at one horizon, with the witness checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// A schedule of length ≤ the horizon exists; here it is, checked.
    Feasible {
        /// The schedule.
        witness: Schedule,
        /// The checker's verdict on it.
        checked: Checked,
    },
    /// The backend proved that no schedule fits in the horizon.
    Infeasible,
    /// Undecided.
    Unknown(StopReason),
}

/// One search: an instance, its encoder, a backend and the limits.
struct Search<'a> {
    instance: &'a Instance,
    encoder: Box<dyn Encoder + 'a>,
    backend: BackendKind,
    deadline: Option<Instant>,
    max_variables: usize,
}

impl Search<'_> {
    /// Decides horizon T; the witness of a feasible answer is checked here.
    fn probe(&self, horizon: u64) -> Result<Decision> {
        let variables = self.encoder.variables(horizon);
        if variables > self.max_variables {
            return Ok(Decision::Unknown(StopReason::SizeGuard { variables, limit: self.max_variables }));
        }
        let time = match self.deadline {
            Some(d) => match d.checked_duration_since(Instant::now()).filter(|r| !r.is_zero()) {
                Some(r) => Some(r),
                None => return Ok(Decision::Unknown(StopReason::Timeout)),
            },
            None => None,
        };
        let encoding = self.encoder.encode(horizon);
        Ok(match self.backend.backend().solve(&encoding.model, &Limits { time })? {
            BackendAnswer::Feasible(assignment) => {
                let witness = encoding.decode(&assignment.values);
                let checked = crate::checker::check_produced(self.instance, &witness, self.backend.name())?;
                if checked.length() > horizon {
                    return Err(Error::Backend {
                        backend: self.backend.name(),
                        reason: format!("its witness has length {} at horizon {horizon}", checked.length()),
                    });
                }
                Decision::Feasible { witness, checked }
            }
            BackendAnswer::Infeasible => Decision::Infeasible,
            BackendAnswer::Unknown(backend::Unknown::Timeout) => Decision::Unknown(StopReason::Timeout),
            BackendAnswer::Unknown(backend::Unknown::Other(r)) => {
                Decision::Unknown(StopReason::BackendUnknown(r))
            }
        })
    }
}

impl<'a> Search<'a> {
    fn new(instance: &'a Instance, backend: BackendKind, options: &SolveOptions) -> Result<Self> {
        Ok(Self {
            instance,
            encoder: encode::encoder(instance)?,
            backend,
            deadline: options.timeout.map(|t| Instant::now() + t),
            max_variables: options.max_variables,
        })
    }
}

/// The lower bound the search starts from: the strongest of [`bounds::lower_bounds`] and the
/// encoder's distance bound; on a tie the first of the bounds module's list (a paper's bound
/// before the generic ones), so that a certificate names the claim when it can.
fn lower_bound(instance: &Instance, encoder: &dyn Encoder) -> Bound {
    let distance = Bound::new(
        "distance",
        None,
        encoder.distance_bound(),
        "every packet needs its hop distance in steps",
    );
    bounds::lower_bounds(instance)
        .into_iter()
        .chain([distance])
        .reduce(|best, b| if b.value > best.value { b } else { best })
        .expect("the distance bound is always there")
}

/// The exact layer's own greedy schedule, checked (the search's ceiling U).
pub(crate) fn greedy_upper_bound(instance: &Instance) -> Result<(Schedule, Checked)> {
    let schedule = match &instance.problem {
        Problem::TotalExchange(_) => greedy::total_exchange(instance)?,
        p => {
            return Err(Error::NotApplicable {
                method: "exact".into(),
                reason: format!("no greedy ceiling for `{p}` yet"),
            });
        }
    };
    let checked = crate::checker::check_produced(instance, &schedule, "greedy")?;
    Ok((schedule, checked))
}

/// Decides whether a schedule of length ≤ `horizon` exists, with `backend`. A feasible answer
/// carries a checked witness. Over the size guard: [`Decision::Unknown`] with
/// [`StopReason::SizeGuard`].
pub fn decide(
    instance: &Instance,
    backend: BackendKind,
    horizon: u64,
    options: &SolveOptions,
) -> Result<Decision> {
    let search = Search::new(instance, backend, options)?;
    if search.encoder.impossible().is_some() {
        return Ok(Decision::Infeasible);
    }
    search.probe(horizon)
}

/// Finds a certified optimum (module documentation, "Search").
///
/// Errors: [`Error::NotApplicable`] for problems without an encoding; [`Error::Input`] (file
/// left empty for the caller to fill, field `network`) when some packet cannot reach its
/// destination at all, or when the first model, at the lower bound, would exceed
/// `options.max_variables`; [`Error::Backend`] when a backend misbehaves
/// (its witness fails the checker or the model). A later model over the guard stops the
/// search with [`Outcome::Bounds`] and [`StopReason::SizeGuard`].
pub fn solve(instance: &Instance, backend: BackendKind, options: &SolveOptions) -> Result<Outcome> {
    let search = Search::new(instance, backend, options)?;
    if let Some(reason) = search.encoder.impossible() {
        return Err(Error::Input(InputError::new("", "network", format!("{reason}: no schedule exists"))));
    }
    let bound = lower_bound(instance, search.encoder.as_ref());
    search.run(bound)
}

impl Search<'_> {
    /// The search from the lower bound `bound` (see [`solve`]).
    fn run(&self, bound: Bound) -> Result<Outcome> {
        let guard = |variables: usize, at_least: &str| {
            Error::Input(InputError::new(
                "",
                "network",
                format!(
                    "an exact model of this instance needs {at_least}{variables} variables at horizon T = {}, over the size guard {} (raise --max-vars)",
                    bound.value, self.max_variables
                ),
            ))
        };
        let at_least = self.encoder.min_variables(bound.value);
        if at_least > self.max_variables {
            return Err(guard(at_least, "at least "));
        }
        let mut best = greedy_upper_bound(self.instance)?;
        let mut upper = best.1.length();
        if upper < bound.value {
            return Err(Error::Backend {
                backend: "greedy",
                reason: format!(
                    "its checked length {upper} is below the {} bound {}",
                    bound.name, bound.value
                ),
            });
        }
        if upper > bound.value {
            let variables = self.encoder.variables(bound.value);
            if variables > self.max_variables {
                return Err(guard(variables, ""));
            }
        }
        let mut lo = bound.value;
        let mut next = lo;
        while lo < upper {
            match self.probe(next)? {
                Decision::Feasible { witness, checked } => {
                    if checked.length() < lo {
                        return Err(Error::Backend {
                            backend: self.backend.name(),
                            reason: format!(
                                "it found length {} below the proven bound {lo}",
                                checked.length()
                            ),
                        });
                    }
                    upper = checked.length();
                    best = (witness, checked);
                }
                Decision::Infeasible => lo = next + 1,
                Decision::Unknown(stop) => return Ok(Outcome::Bounds { lower: lo, upper: Some(best), stop }),
            }
            next = lo + upper.saturating_sub(lo + 1) / 2;
        }
        let certificate = if lo > bound.value {
            Certificate::InfeasibleAtTMinus1 { t: upper - 1 }
        } else {
            Certificate::MatchingLowerBound { name: bound.name, claim: bound.claim, value: bound.value }
        };
        let (witness, checked) = best;
        Ok(Outcome::Optimal { witness, checked, certificate })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Mode, Model, Network, PortRule, RingTie};

    /// From the distance bound alone (3 on path(4)), the search must prove the optimum 4
    /// (TE-1) itself: the certificate is the backend's infeasibility proof at 3.
    #[test]
    fn from_a_loose_bound_the_certificate_is_infeasibility_at_t_minus_1() {
        let inst = Instance::new(
            "path4",
            Network::parse("path:4").unwrap(),
            Problem::TotalExchange(None),
            Model::StoreForward { rule: PortRule::FStar, mode: Mode::Move, packet: 1 },
            RingTie::Clockwise,
            "<test>",
        )
        .unwrap();
        for backend in BackendKind::ALL {
            let options = SolveOptions::default();
            let search = Search::new(&inst, backend, &options).unwrap();
            let distance = Bound::new("distance", None, search.encoder.distance_bound(), "");
            assert_eq!(distance.value, 3);
            match search.run(distance).unwrap() {
                Outcome::Optimal { checked, certificate, .. } => {
                    assert_eq!(checked.length(), 4, "{backend}");
                    assert_eq!(certificate, Certificate::InfeasibleAtTMinus1 { t: 3 }, "{backend}");
                }
                Outcome::Bounds { stop, .. } => panic!("{backend}: stopped: {stop}"),
            }
        }
    }
}
