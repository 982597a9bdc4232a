//! The search of [`super::solve`] (module [`crate::exact`], "Search"), one phase to a module:
//!
//! - [`relaxation`]: relaxation first, the relaxed instance's own search;
//! - [`guard`]: the size guard on the first model;
//! - [`restricted`]: the restricted model's witnesses;
//! - [`relaxed`]: the walk of the relaxed models up from the lower bound;
//! - [`bisect`]: galloping and bisection over the horizons of the encoder's own model;
//! - [`descent`]: the last horizons in one incremental solver;
//! - [`probe`]: one horizon decided by one model, on an abandonable thread;
//! - [`proofs`]: the probes' proof traces, and the proof behind a certificate;
//! - [`temp`]: the temporary directories that hold the traces;
//! - [`outcome`]: the optimum with its certificate.
//!
//! A backend's capabilities beyond deciding a model are asked for
//! ([`Backend::as_proof_tracing`], [`Backend::as_incremental`]), never assumed by its name.

mod bisect;
mod descent;
mod guard;
mod outcome;
mod probe;
mod proofs;
mod relaxation;
mod relaxed;
mod restricted;
mod temp;

pub use temp::remove_temporary_proofs;

use super::backend::{Backend, BackendKind};
use super::encode::{self, Encoder, Prefix, Variant, Variants};
use super::{Outcome, SolveOptions, StopReason};
use crate::bounds::{self, Bound};
use crate::certify::{Evidence, Infeasibility, certify};
use crate::checker::Checked;
use crate::error::{Error, Result};
use crate::spec::Instance;
use bisect::Left;
use std::cell::Cell;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use temp::TempDir;

/// One search: an instance, its encoder, a backend and the limits.
pub(super) struct Search<'a> {
    instance: &'a Instance,
    pub(super) encoder: Box<dyn Encoder + 'a>,
    /// What the encoder offers besides its own model.
    variants: Variants,
    backend: BackendKind,
    /// The backend itself.
    solver: &'static dyn Backend,
    deadline: Option<Instant>,
    max_variables: usize,
    /// Whether to ask for a symmetric witness first ([`SolveOptions::symmetric`]).
    symmetric: bool,
    proof_dir: Option<PathBuf>,
    /// A backend that traces proofs traces its probes' proofs here (module [`crate::exact`],
    /// "Search").
    traces: Option<TempDir>,
    /// The horizon a descent decided infeasible, its proof in the trace of that horizon.
    descended: Cell<Option<u64>>,
    /// Probes run without the proof tracer (which slows CaDiCaL down): a probe that is likely
    /// feasible wastes no proof, and an infeasible one is proved afresh by `prove`
    /// ([`super::decision::decide_point`]).
    untraced_probes: bool,
    /// The prefix every model of the instance's own keeps ([`Search::keeping`]).
    prefix: Option<Prefix>,
}

/// What the search has established so far.
struct Progress {
    /// The proven lower bound L: every schedule has length ≥ `lo`.
    lo: u64,
    /// The best checked schedule known: the incumbent or a witness.
    best: Option<Checked>,
    /// The infeasibility that proves `lo`, if a backend decided one.
    infeasible: Option<Infeasibility>,
}

impl Progress {
    /// The length of the best schedule, U.
    fn upper(&self) -> Option<u64> {
        self.best.as_ref().map(Checked::length)
    }

    /// The bounds, with why the search stopped.
    fn stopped(self, stop: StopReason) -> Outcome {
        Outcome::Bounds { lower: self.lo, upper: self.best, stop }
    }
}

impl<'a> Search<'a> {
    pub(super) fn new(instance: &'a Instance, backend: BackendKind, options: &SolveOptions) -> Result<Self> {
        let solver = backend.backend()?;
        let (_, encoder) = encode::encoder_for(instance)?;
        let traces = match solver.as_proof_tracing() {
            Some(_) => Some(TempDir::new()?),
            None => None,
        };
        Ok(Self {
            instance,
            variants: encoder.variants(),
            encoder,
            backend,
            solver,
            deadline: options.timeout.map(|t| Instant::now() + t),
            max_variables: options.max_variables,
            symmetric: options.symmetric,
            proof_dir: options.proof_dir.clone(),
            traces,
            descended: Cell::new(None),
            untraced_probes: false,
            prefix: None,
        })
    }

    /// The search with its probes untraced (`untraced_probes`).
    pub(super) fn untraced(self) -> Self {
        Self { untraced_probes: true, ..self }
    }

    /// The search with every model of [`Variant::Full`] restricted to the schedules that keep
    /// `prefix` ([`encode::Encoding::keep`]): its infeasible answers are then no evidence, so
    /// only one point is ever decided with it ([`super::decision::decide_point`]).
    pub(super) fn keeping(mut self, prefix: Option<Prefix>) -> Self {
        if let Some(prefix) = &prefix {
            self.encoder.start_after(prefix);
        }
        Self { prefix, ..self }
    }

    /// What is left of the time budget (`None`: unlimited), or [`StopReason::Timeout`].
    fn time_left(&self) -> std::result::Result<Option<Duration>, StopReason> {
        match self.deadline {
            Some(d) => match d.checked_duration_since(Instant::now()).filter(|r| !r.is_zero()) {
                Some(r) => Ok(Some(r)),
                None => Err(StopReason::Timeout),
            },
            None => Ok(None),
        }
    }

    /// Whether the model of `variant` at `horizon` fits the size guard.
    fn fits(&self, horizon: u64, variant: Variant) -> bool {
        self.over_guard(horizon, variant).is_none()
    }

    /// [`StopReason::SizeGuard`] when the model of `variant` at `horizon` is over the size
    /// guard: the encoder's cheap lower estimate of its variables when that is over already (a
    /// huge model is refused before its pruning tables are built), else their count.
    fn over_guard(&self, horizon: u64, variant: Variant) -> Option<StopReason> {
        let estimate = self.encoder.min_variables(horizon, variant);
        let at_least = estimate > self.max_variables;
        let variables = if at_least { estimate } else { self.encoder.variables(horizon, variant) };
        (variables > self.max_variables).then(|| StopReason::SizeGuard {
            variables,
            at_least,
            horizon,
            restricted: self.variants.restricted.clone().filter(|_| variant == Variant::Restricted),
            limit: self.max_variables,
        })
    }

    /// A witness, unless it is shorter than the proven bound `lo` (a backend or encoder bug).
    fn at_least(&self, checked: Checked, lo: u64) -> Result<Checked> {
        if checked.length() < lo {
            return Err(Error::Backend {
                backend: self.backend.name(),
                reason: format!("it found length {} below the proven bound {lo}", checked.length()),
            });
        }
        Ok(checked)
    }

    /// Records that no schedule has length ≤ `horizon` (the backend's word, on the encoder's
    /// model or, by name, a relaxed one): the infeasibility on record, L = `horizon` + 1. The
    /// older one's trace is deleted.
    fn refuted(&self, progress: &mut Progress, horizon: u64, relaxation: Option<&str>) {
        if let Some(older) = &progress.infeasible {
            self.discard(older.horizon);
        }
        progress.infeasible = Some(Infeasibility {
            horizon,
            backend: self.backend.name(),
            evidence: Evidence::SolverWord,
            relaxation: relaxation.map(Into::into),
        });
        progress.lo = horizon + 1;
    }

    /// The search from the strongest of `bounds` and the incumbent (module [`crate::exact`],
    /// "Search"): the relaxation, the size guard on the first model, the restricted witness at
    /// L, the relaxed walk, then bisection with the descent.
    pub(super) fn run(&self, bounds: &[Bound], incumbent: Option<Checked>) -> Result<Outcome> {
        let bound = bounds::strongest(bounds).map_or(0, |b| b.value);
        if let Some(inc) = &incumbent {
            if inc.length() < bound {
                return Err(Error::Backend {
                    backend: "incumbent",
                    reason: format!("its checked length {} is below the lower bound {bound}", inc.length()),
                });
            }
            if let Some(certificate) = certify(bounds, inc, None) {
                return Ok(Outcome::Optimal { checked: incumbent.expect("checked above"), certificate });
            }
        }
        let mut progress = Progress { lo: bound, best: incumbent, infeasible: None };
        // The incumbent is not certified: it is above the bound, or there is none.
        let open = progress.upper().is_none_or(|u| u > bound);
        if open {
            self.relaxation_first(&mut progress)?;
        }
        // The first model is the restricted one when the search asks it for a witness.
        let restricted = self.symmetric && open && self.variants.restricted.is_some();
        let first = if restricted { Variant::Restricted } else { Variant::Full };
        if let Some(end) = self.guard(bounds, &mut progress, first, open)? {
            return Ok(end);
        }
        let own_fits = self.fits(progress.lo, Variant::Full);
        let witnesses_first = self.restricted_first(&mut progress, first, own_fits)?;
        if open && own_fits {
            self.walk_relaxed(&mut progress)?;
        }
        // What has not run yet gets its turn when the bisection stops undecided.
        let left =
            Left { witnesses: first == Variant::Restricted && !witnesses_first, walk: open && !own_fits };
        self.bisect(bounds, progress, left)
    }
}
