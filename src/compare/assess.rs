//! The one pipeline behind `solve`, `check` and `report`, under one deadline (`--timeout`): an
//! instance's lower bounds (computed once: the cheap ones first, the flow LP only when no
//! algorithm meets them), the registered algorithms' checked schedules, the paper's own
//! schedule, the exact layer (handed the bounds and the best checked schedule as its
//! incumbent), and the verdict on every claim. [`certify`] decides every certificate, so a command never disagrees with another.

use super::paper_claims;
pub use super::run::{AlgorithmRun, ClaimCheck};
use super::run::{on_clone, run_algorithms, strings};
use crate::bounds::{self, Bound};
use crate::certify::{Certificate, certify};
use crate::checker::{self, Checked, Producer};
use crate::claims::{ClaimValue, ClaimVerdict, Relation, Subject};
use crate::deadline::Deadline;
use crate::error::{Error, InputError};
use crate::exact::{self, BackendChoice, BackendKind, Outcome, SolveOptions, StopReason};
use crate::folder;
use crate::heuristics::{self, Method};
use crate::spec::{Instance, ProblemKind, Schedule};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// What a result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A checked schedule with a certificate of optimality.
    Optimal,
    /// Only bounds are known (an exact search stopped; or nothing produced a schedule).
    Bounds,
    /// A checked schedule without a proof of optimality.
    Heuristic,
    /// The schedule breaks the model.
    Inadmissible,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Optimal => "optimal",
            Status::Bounds => "bounds",
            Status::Heuristic => "heuristic",
            Status::Inadmissible => "inadmissible",
        })
    }
}

/// Which algorithms a run uses.
#[derive(Clone, Copy)]
pub enum Algorithms {
    /// Every registered algorithm that applies.
    Applicable,
    /// One algorithm (it must apply).
    Only(&'static Method),
}

/// Options of [`assess`].
#[derive(Clone)]
pub struct AssessOptions {
    /// The algorithms to run.
    pub algorithms: Algorithms,
    /// The exact backend (a fixed one, or the measured choice per problem), or `None` to skip
    /// the exact layer.
    pub exact: Option<BackendChoice>,
    /// Limits of the exact search.
    pub solve: SolveOptions,
    /// Whether an exact layer that cannot run (no encoder, bad input, backend fault) fails the
    /// whole assessment with its error (`solve`), rather than being reported in it (`report`).
    pub fail_fast: bool,
}

/// What the exact layer answered.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum ExactAnswer {
    /// A certified optimum.
    Optimal {
        /// The optimum.
        optimum: u64,
        /// Why nothing shorter exists.
        certificate: Certificate,
    },
    /// The search stopped with bounds.
    Bounds {
        /// Proven lower bound.
        lower: u64,
        /// Best checked length, if any.
        upper: Option<u64>,
        /// Why it stopped.
        stop: StopReason,
    },
    /// No encoder applies to the instance.
    NotApplicable {
        /// Why.
        reason: String,
    },
    /// The search failed (bad input for an exact solve, or a backend fault).
    Error {
        /// What went wrong.
        reason: String,
    },
}

/// The exact layer's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExactRun {
    /// The backend.
    pub backend: BackendKind,
    /// Its answer.
    #[serde(flatten)]
    pub answer: ExactAnswer,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

/// The paper's own schedule for the instance (a figure's trace, transcribed), checked.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaperRun {
    /// Its file.
    pub file: String,
    /// The checked length, when admissible.
    pub length: Option<u64>,
    /// Every violation, when not.
    pub violations: Vec<String>,
}

/// The certificate folder attached to an instance (`X.certificate/` beside `X.toml`,
/// docs/spec.md §7.1), re-checked from scratch by [`folder::attest`]: an optimum found once,
/// with more time or another backend than this run has, and proven by evidence that needs no
/// solver (a lower bound, or a clausal proof that commsched's own checker verifies).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredRun {
    /// The folder.
    pub folder: String,
    /// The witness's checked length, when the folder is valid.
    pub length: Option<u64>,
    /// Why the witness is optimal, when the folder is valid.
    pub certificate: Option<Certificate>,
    /// What failed, one line each, when it is not.
    pub failures: Vec<String>,
    /// Wall-clock seconds the re-check took.
    pub seconds: f64,
}

/// What comes with an instance besides the instance: from its file, the paper's own schedule
/// (`X.schedule.json`) and a certificate folder (`X.certificate/`); from a user, a schedule to
/// start the exact search from (`solve --incumbent`).
#[derive(Default, Clone)]
pub struct Attached<'a> {
    /// The paper's schedule, transcribed: its file and the schedule.
    pub paper: Option<(&'a str, Schedule)>,
    /// A certificate folder.
    pub certificate: Option<&'a Path>,
    /// A user's schedule, its file and the schedule: checked, then the exact search's
    /// incumbent when it is shorter than every algorithm's.
    pub incumbent: Option<(&'a str, Schedule)>,
}

/// The answer to "how long is the best schedule, and is it optimal?".
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Answer {
    /// What kind of answer it is.
    pub status: Status,
    /// The checked length of the best schedule, if any.
    pub length: Option<u64>,
    /// Proven lower bound (the strongest bound, or what an exact search proved).
    pub lower_bound: Option<u64>,
    /// Best checked length when the answer is bounds.
    pub upper_bound: Option<u64>,
    /// Why the best schedule is optimal.
    pub certificate: Option<Certificate>,
    /// Who produced the best schedule.
    pub producer: Option<Producer>,
    /// Why an exact search stopped without an optimum.
    pub stop: Option<StopReason>,
    /// Every violation, for an inadmissible schedule.
    pub violations: Vec<String>,
}

/// Everything known about one instance.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Assessment {
    /// Instance name.
    pub instance: String,
    /// Where it comes from.
    pub source: String,
    /// Problem.
    pub problem: ProblemKind,
    /// Network string.
    pub network: String,
    /// Model description.
    pub model: String,
    /// Every lower bound.
    pub lower_bounds: Vec<Bound>,
    /// The strongest lower bound.
    pub lower_bound: Option<Bound>,
    /// The paper's own schedule, checked.
    pub paper_schedule: Option<PaperRun>,
    /// Every algorithm run.
    pub algorithms: Vec<AlgorithmRun>,
    /// The exact layer, if run.
    pub exact: Option<ExactRun>,
    /// The attached certificate folder, re-checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored: Option<StoredRun>,
    /// The best answer.
    pub answer: Answer,
    /// The papers' claims, judged.
    pub claims: Vec<ClaimCheck>,
    /// Wall-clock seconds the whole assessment took (a field, so tests can zero it).
    pub seconds: f64,
    /// The best checked schedule.
    #[serde(skip)]
    pub best: Option<Checked>,
}

/// Runs the pipeline on one instance, with what comes with it ([`Attached`]: the paper's
/// schedule, a certificate folder, a user's incumbent). Every length in the result comes from
/// the checker. Errors: an algorithm that does not apply under [`Algorithms::Only`]
/// ([`Error::NotApplicable`]), an inadmissible user incumbent, and with
/// [`AssessOptions::fail_fast`] whatever stops the exact layer.
pub fn assess(
    instance: &Instance,
    attached: Attached<'_>,
    options: &AssessOptions,
) -> crate::Result<Assessment> {
    instance.guard_events()?;
    // The timeout bounds the whole pipeline: bounds, algorithms and the exact search share it.
    let start = Instant::now();
    let deadline = Deadline::after(options.solve.timeout);
    // A round budget that a cheap count refutes: no schedule at all, before anything runs.
    if let Some(reason) = bounds::collective::no_schedule(instance) {
        return Err(exact::no_schedule(reason));
    }
    // The one algorithm asked for is refused before the bounds are computed.
    if let Algorithms::Only(m) = options.algorithms
        && let Some(Err(reason)) = on_clone(deadline, instance, move |i| m.applies(i))
    {
        return Err(Error::NotApplicable { method: m.name.into(), reason });
    }
    // The cheap bounds first; the costly ones (the flow LP) only when no algorithm meets them.
    let mut lower_bounds = bounds::cheap_lower_bounds(instance);
    let paper_schedule = attached.paper.map(|(file, schedule)| {
        match checker::judge(instance, schedule, Producer::Paper(file.into())) {
            Ok(c) => PaperRun { file: file.into(), length: Some(c.length()), violations: Vec::new() },
            Err((_, v)) => PaperRun { file: file.into(), length: None, violations: strings(&v) },
        }
    });
    let methods = match options.algorithms {
        Algorithms::Applicable => heuristics::all(),
        Algorithms::Only(m) => vec![m],
    };
    let (mut algorithms, stopped) = run_algorithms(instance, methods, deadline);
    let shortest = algorithms.iter().filter_map(|a| a.length).min();
    if bounds::strongest(&lower_bounds).is_none_or(|b| shortest.is_none_or(|l| l > b.value)) {
        let costly = bounds::costly_lower_bounds(instance, deadline, &lower_bounds);
        lower_bounds.extend(costly);
    }
    let lower_bound = bounds::strongest(&lower_bounds).cloned();
    for run in &mut algorithms {
        run.ratio = run
            .length
            .zip(lower_bound.as_ref().filter(|b| b.value > 0))
            .map(|(l, b)| l as f64 / b.value as f64);
    }
    // The one algorithm asked for, refused by a size guard: the answer is that refusal.
    if let (Algorithms::Only(_), Some(refused)) =
        (&options.algorithms, algorithms.first().and_then(|a| a.refused.clone()))
    {
        return Err(refused.into());
    }
    let given = match attached.incumbent {
        Some((file, schedule)) => {
            Some(checker::judge(instance, schedule, Producer::User(file.into())).map_err(|(_, v)| {
                let first = v.first().map(ToString::to_string).unwrap_or_default();
                InputError::new(
                    file,
                    "",
                    format!("the incumbent is inadmissible ({} violations), the first: {first}", v.len()),
                )
            })?)
        }
        None => None,
    };
    // On a tie the algorithm's schedule stays the incumbent.
    let incumbent = algorithms
        .iter()
        .filter_map(|a| a.checked.as_ref())
        .chain(&given)
        .min_by_key(|c| c.length())
        .cloned();
    let (exact, exact_best) = match options.exact.map(|choice| choice.resolve(instance)) {
        Some(backend) => {
            let solve = SolveOptions { timeout: deadline.left(), ..options.solve.clone() };
            let start = Instant::now();
            // Past the deadline the search is not even built (its encoder's tables take time).
            let result = match lower_bound.as_ref().filter(|_| deadline.passed()) {
                Some(b) => Ok(Outcome::Bounds {
                    lower: b.value,
                    upper: incumbent.clone(),
                    stop: StopReason::Timeout,
                }),
                None => exact::solve(instance, backend, &solve, &lower_bounds, incumbent.clone()),
            };
            let (answer, best) = match result {
                Ok(Outcome::Optimal { checked, certificate }) => {
                    (ExactAnswer::Optimal { optimum: checked.length(), certificate }, Some(checked))
                }
                Ok(Outcome::Bounds { lower, upper, stop }) => {
                    (ExactAnswer::Bounds { lower, upper: upper.as_ref().map(Checked::length), stop }, upper)
                }
                Err(e) if options.fail_fast => return Err(e),
                Err(Error::NotApplicable { reason, .. }) => (ExactAnswer::NotApplicable { reason }, None),
                Err(e) => (ExactAnswer::Error { reason: e.to_string() }, None),
            };
            (Some(ExactRun { backend, answer, seconds: start.elapsed().as_secs_f64() }), best)
        }
        None => (None, None),
    };
    let (stored, stored_best) = match attached.certificate {
        Some(dir) => {
            let shortest = exact_best.iter().chain(&incumbent).min_by_key(|c| c.length());
            stored_run(instance, dir, &lower_bounds, exact.as_ref(), shortest)
        }
        None => (None, None),
    };
    // The exact layer's witness when it settled the instance, else a valid folder's.
    let best = match exact.as_ref().map(|e| &e.answer) {
        Some(ExactAnswer::Optimal { .. }) => exact_best.or(stored_best),
        _ => stored_best.or(exact_best).or(incumbent),
    };
    let mut answer = answer(&lower_bounds, &algorithms, exact.as_ref(), stored.as_ref(), best.as_ref());
    // Without an exact search to say so, an algorithm stopped at the deadline marks the answer.
    if stopped && answer.stop.is_none() && answer.status != Status::Optimal {
        answer.stop = Some(StopReason::Timeout);
    }
    let claims = judge_claims(instance, &algorithms, paper_schedule.as_ref(), &answer);
    Ok(Assessment {
        instance: instance.name.clone(),
        source: instance.source.clone(),
        problem: instance.problem.kind(),
        network: instance.network.spec_string(),
        model: instance.model.to_string(),
        lower_bounds,
        lower_bound,
        paper_schedule,
        algorithms,
        exact,
        stored,
        answer,
        claims,
        seconds: start.elapsed().as_secs_f64(),
        best,
    })
}

impl Assessment {
    /// The gap between the best checked length (the answer's length, else its upper bound) and
    /// the proven lower bound, when both exist.
    pub fn gap(&self) -> Option<u64> {
        let best = self.answer.length.or(self.answer.upper_bound)?;
        Some(best.saturating_sub(self.answer.lower_bound?))
    }

    /// Every claim judged on this instance, the instance's and the algorithms', each once (an
    /// algorithm's claim that repeats an instance claim with the same value and verdict is not
    /// listed again).
    pub fn all_claims(&self) -> Vec<&ClaimCheck> {
        let mut seen: Vec<&ClaimCheck> = Vec::new();
        for c in self.claims.iter().chain(self.algorithms.iter().filter_map(|a| a.claim.as_ref())) {
            let same = |d: &&ClaimCheck| {
                d.claimed.claim == c.claimed.claim
                    && d.claimed.value == c.claimed.value
                    && d.claimed.relation == c.claimed.relation
                    && d.verdict == c.verdict
            };
            if !seen.iter().any(same) {
                seen.push(c);
            }
        }
        seen
    }
}

/// Re-checks the certificate folder `dir` of `instance` ([`StoredRun`]). A valid folder gives
/// the witness, certified. One whose optimum contradicts what this run established, a lower
/// bound or an exact optimum above it or a `shortest` checked schedule below it, is refused:
/// that means a defect in one of them.
fn stored_run(
    instance: &Instance,
    dir: &Path,
    bounds: &[Bound],
    exact: Option<&ExactRun>,
    shortest: Option<&Checked>,
) -> (Option<StoredRun>, Option<Checked>) {
    let start = Instant::now();
    let mut run = StoredRun {
        folder: dir.display().to_string(),
        length: None,
        certificate: None,
        failures: Vec::new(),
        seconds: 0.0,
    };
    let mut witness = None;
    match folder::attest(dir, instance, bounds) {
        Ok((checked, certificate)) => {
            let length = checked.length();
            let contradiction = match exact.map(|e| &e.answer) {
                Some(ExactAnswer::Optimal { optimum, .. }) if *optimum != length => {
                    Some(format!("the exact layer certified {optimum}"))
                }
                Some(ExactAnswer::Bounds { lower, .. }) if *lower > length => {
                    Some(format!("the exact layer proved the lower bound {lower}"))
                }
                _ => None,
            }
            .or_else(|| {
                let b = bounds::strongest(bounds).filter(|b| b.value > length)?;
                Some(format!("the lower bound {} is {}", b.name, b.value))
            })
            .or_else(|| {
                let s = shortest.filter(|s| s.length() < length)?;
                Some(format!("{} has length {}", s.producer(), s.length()))
            });
            match contradiction {
                Some(why) => run.failures.push(format!("certifies the optimum {length}, but {why}")),
                None => {
                    run.length = Some(length);
                    run.certificate = Some(certificate);
                    witness = Some(checked);
                }
            }
        }
        Err(failures) => run.failures = failures,
    }
    run.seconds = start.elapsed().as_secs_f64();
    (Some(run), witness)
}

/// The best answer: the exact layer's when it settled the instance, else a valid certificate
/// folder's, else the exact layer's bounds, else the shortest checked schedule, certified when
/// [`certify`] says so.
fn answer(
    lower_bounds: &[Bound],
    algorithms: &[AlgorithmRun],
    exact: Option<&ExactRun>,
    stored: Option<&StoredRun>,
    best: Option<&Checked>,
) -> Answer {
    let bound = bounds::strongest(lower_bounds).map(|b| b.value);
    let mut a = Answer {
        status: Status::Bounds,
        length: None,
        lower_bound: bound,
        upper_bound: None,
        certificate: None,
        producer: best.map(|c| c.producer().clone()),
        stop: None,
        violations: Vec::new(),
    };
    // An optimum the exact layer proved, or a valid certificate folder's, is also the strongest
    // lower bound: the gap is settled even when no closed-form bound reaches it.
    let settled = match exact.map(|e| &e.answer) {
        Some(ExactAnswer::Optimal { optimum, certificate }) => Some((*optimum, certificate.clone())),
        _ => stored.and_then(|s| Some((s.length?, s.certificate.clone()?))),
    };
    if let Some((optimum, certificate)) = settled {
        a.status = Status::Optimal;
        a.length = Some(optimum);
        a.lower_bound = Some(optimum);
        a.certificate = Some(certificate);
        return a;
    }
    match exact.map(|e| &e.answer) {
        Some(ExactAnswer::Bounds { lower, upper, stop }) => {
            a.lower_bound = Some(bound.map_or(*lower, |b| b.max(*lower)));
            a.upper_bound = *upper;
            a.stop = Some(stop.clone());
        }
        _ => match best {
            Some(c) => {
                a.length = Some(c.length());
                a.certificate = certify(lower_bounds, c, None);
                a.status = if a.certificate.is_some() { Status::Optimal } else { Status::Heuristic };
            }
            None => {
                if let Some(bad) = algorithms.iter().find(|r| !r.violations.is_empty()) {
                    a.status = Status::Inadmissible;
                    a.violations = bad.violations.clone();
                }
            }
        },
    }
    a
}

/// Judges the instance-level claims ([`paper_claims::claimed_values`]; an algorithm's own claim is
/// judged on its [`AlgorithmRun`]): a figure's stated length by the checked paper schedule, or
/// without one, when a paper's algorithm (not one of ours) takes exactly that length here, by
/// that algorithm's checked schedule (the figure shows it running: `torus9-fig10`'s 42 is
/// Theorem 3's length, not a claimed optimum); a claim about the optimum, and a figure's
/// length that no paper algorithm reproduces, by a certified optimum, else by the interval
/// [lower bound, shortest checked length] the optimum lies in: it holds when every value of
/// the interval satisfies it, is violated when none does (the bound or the schedule is the
/// counterexample).
fn judge_claims(
    instance: &Instance,
    algorithms: &[AlgorithmRun],
    paper: Option<&PaperRun>,
    answer: &Answer,
) -> Vec<ClaimCheck> {
    let shortest = algorithms.iter().filter_map(|a| a.length).chain(answer.length).min();
    let optimum = (answer.status == Status::Optimal).then_some(answer.length).flatten();
    paper_claims::claimed_values(instance)
        .into_iter()
        .map(|claimed| {
            let figure = paper.filter(|_| claimed.subject == Subject::PaperSchedule);
            let papers_algorithm = (claimed.subject == Subject::PaperSchedule)
                .then(|| {
                    algorithms
                        .iter()
                        .filter(|a| !heuristics::find(a.method).is_some_and(|m| m.is_ours()))
                        .filter_map(|a| a.length)
                        .find(|&len| len == claimed.value)
                })
                .flatten();
            let (observed, verdict) = match (figure, papers_algorithm, optimum) {
                (Some(p), _, _) => match p.length {
                    Some(len) => (Some(len), claimed.judge(len)),
                    None => (None, ClaimVerdict::Violated),
                },
                (None, Some(len), _) => (Some(len), claimed.judge(len)),
                (None, None, Some(opt)) => (Some(opt), claimed.judge(opt)),
                (None, None, None) => judge_interval(&claimed, answer.lower_bound, shortest),
            };
            ClaimCheck { claimed, observed, verdict }
        })
        .collect()
}

/// A claim about an optimum known only to lie in [`lower`, `upper`] (either end may be
/// unknown): the verdict and the end that decides it.
fn judge_interval(
    claimed: &ClaimValue,
    lower: Option<u64>,
    upper: Option<u64>,
) -> (Option<u64>, ClaimVerdict) {
    let v = claimed.value;
    let decided = match claimed.relation {
        Relation::Equal => match (lower, upper) {
            (_, Some(h)) if h < v => Some((h, ClaimVerdict::Violated)),
            (Some(lb), _) if lb > v => Some((lb, ClaimVerdict::Violated)),
            (Some(lb), Some(h)) if lb == v && h == v => Some((h, ClaimVerdict::Holds)),
            _ => None,
        },
        Relation::AtLeast => match (lower, upper) {
            (Some(lb), _) if lb >= v => Some((lb, ClaimVerdict::Holds)),
            (_, Some(h)) if h < v => Some((h, ClaimVerdict::Violated)),
            _ => None,
        },
        Relation::AtMost => match (lower, upper) {
            (_, Some(h)) if h <= v => Some((h, ClaimVerdict::Holds)),
            (Some(lb), _) if lb > v => Some((lb, ClaimVerdict::Violated)),
            _ => None,
        },
    };
    match decided {
        Some((observed, verdict)) => (Some(observed), verdict),
        None => (upper, ClaimVerdict::Unsettled),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::io::parse_instance;

    /// A valid folder is refused when this run established something it contradicts: the
    /// folder of path(3)'s total exchange at the TE-1 bound, against an exact optimum or a
    /// proven lower bound above it.
    #[test]
    fn a_folder_that_contradicts_the_run_is_refused() {
        let inst =
            parse_instance("problem = \"total-exchange\"\nnetwork = \"path:3\"", "<test>", "p3").unwrap();
        let bounds = bounds::lower_bounds(&inst);
        let m = heuristics::find("furthest-first").unwrap();
        let checked = checker::accept(&inst, m.produce(&inst).unwrap(), Producer::Algorithm(m.name)).unwrap();
        let certificate = certify(&bounds, &checked, None).expect("furthest-first meets TE-1 on path(3)");
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("stored-run");
        folder::write(&dir, &inst, &checked, &certificate, &bounds, 0.0).unwrap();
        let length = checked.length();
        let exact = |answer| ExactRun { backend: BackendKind::Ilp, answer, seconds: 0.0 };

        let (run, witness) = stored_run(&inst, &dir, &bounds, None, Some(&checked));
        let run = run.unwrap();
        assert_eq!((run.length, witness.map(|w| w.length())), (Some(length), Some(length)), "{run:?}");
        assert_eq!(run.certificate, Some(certificate.clone()));

        let above = exact(ExactAnswer::Optimal { optimum: length + 1, certificate });
        let (run, witness) = stored_run(&inst, &dir, &bounds, Some(&above), None);
        assert!(witness.is_none());
        assert_eq!(
            run.unwrap().failures,
            [format!("certifies the optimum {length}, but the exact layer certified {}", length + 1)]
        );
        let lower = exact(ExactAnswer::Bounds { lower: length + 1, upper: None, stop: StopReason::Timeout });
        let (run, _) = stored_run(&inst, &dir, &bounds, Some(&lower), None);
        assert_eq!(
            run.unwrap().failures,
            [format!(
                "certifies the optimum {length}, but the exact layer proved the lower bound {}",
                length + 1
            )]
        );
    }
}
