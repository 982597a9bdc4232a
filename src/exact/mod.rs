//! # Exact optima with certificates
//!
//! Encoders ([`encode`], one registry [`encode::ENCODERS`]) write a neutral linear integer model
//! ([`ir`]) for an instance and a horizon T and decode its answers into schedules; backends
//! ([`backend`]: `ilp` = good_lp + microlp, the default; `smt` = z3, behind the `smt` cargo
//! feature; `sat` = CaDiCaL on the CNF of [`cnf`], behind the `sat` cargo feature) decide it;
//! [`mod@export`] writes the same model as `.lp`, `.smt2` or `.cnf` text. The search
//! ([`solve`]) finds the least feasible T and reports it only with a checked witness and a
//! [`Certificate`] from [`crate::certify`]; otherwise it says why it stopped, as data
//! ([`Outcome::Bounds`] with a [`StopReason`]).
//!
//! Heuristics and exact never call each other: the caller brings the lower bounds and the
//! incumbent, the best checked schedule it has (in commsched, the comparator hands in the
//! shortest schedule of the registered algorithms).
//!
//! ## Search
//!
//! L = the strongest lower bound, U = the incumbent's checked length. If U = L the incumbent is
//! optimal already. Otherwise horizons are probed: with an incumbent, by bisection of [L, U − 1];
//! without one, galloping upward from L (L, L + 2, L + 6, L + 14, ...: the stride doubles) until
//! a probe is feasible, then by bisection. A feasible probe at T gives a checked witness of
//! length ≤ T and lowers U, an infeasible one raises L to T + 1. At L = U the best schedule is
//! optimal, certified by the lower bound when it meets it, else by the backend's infeasibility
//! at U − 1. Each probe gets what is left of the time budget; the size guard is checked before a
//! model is built.
//!
//! **Restricted witness first.** When the encoder offers a restricted model
//! ([`encode::Encoder::restricted`]: gossip on a mesh or torus, restricted to schedules that
//! send every token along shortest paths and that its rotations, if any, map to themselves;
//! product, pipelined or in rounds where no channel binds, restricted to broadcasts that run
//! backwards with index ranges) and the incumbent is above L, that model is asked for a
//! witness at L first, with half of the time left. A witness there is an optimum certified by
//! the bound; an infeasible or undecided answer is no evidence and the search goes on as above
//! (`--no-symmetry` skips it). Mesh 6×6 under H\* is settled this way at GOS-1's 21 in seconds.
//! When the search then stops at the size guard, the restricted model is bisected between L + 1
//! and the best length for a shorter witness: a better upper bound, never a certificate
//! (prefix on fat-tree:16 and :32, whose own model is too large: the sweeps of a reversible
//! broadcast).
//!
//! **Relaxation first.** When the encoder knows a relaxation ([`encode::Encoder::relaxation`]:
//! product and prefix reverse into a broadcast, pipelined, and in rounds where no channel
//! binds) and the incumbent is above L, the relaxed instance is searched first, by the same
//! backend within the same time budget. If it is certified by infeasibility at T′ − 1, so is
//! the instance: L = T′ and the certificate names the relaxation (`infeasible-at-T-1 (T-1 = 11
//! for the broadcast it reverses into (FT-24), ...)`); with the SAT backend its CNF and checked
//! proof are the relaxation's. Then a
//! restricted model that matches it (the product's reversible broadcasts) settles the
//! instance at once. Once the relaxation is settled, a first model over the size guard gives
//! bounds instead of an error.
//!
//! **Relaxed model.** When the encoder has relaxed models of the instance itself
//! ([`encode::Encoder::relaxed_model`]: product and prefix on the fat-tree, with each message
//! carrying any values its sender knows, then only a range of them) and the incumbent is above
//! L, the search walks them upward from L once the restricted witness at L is not found: at
//! each horizon the cheapest model not yet found feasible first, the next where it is feasible
//! (a model feasible at T stays feasible above). Each horizon at which one is infeasible raises
//! L past it and becomes the certificate's infeasibility, named after that model (`T-1 = 12
//! for its knowledge relaxation ...`; with the SAT backend its CNF and checked proof are the
//! relaxed model's, and `verify` re-encodes that model). A model not found infeasible hands
//! over to the next, a timeout ends the walk, and so does the last model found feasible: a
//! solution of a relaxed model is no schedule. When the instance's own model is over the size
//! guard at L, the restricted model's witnesses are bisected first (they need little time)
//! and the walk gets what is left; a raised L is then reported as bounds, never as an error
//! (prefix on fat-tree:16 under w = 1: [17, 24]). They come first too when the own model fits
//! at L but not one step below the incumbent.
//!
//! **Proofs (SAT backend).** Every probe of the SAT backend traces its LRAT proof into a
//! temporary directory; the trace of the last infeasible probe is kept, and checked only if
//! that horizon ends up as U − 1, so an infeasibility is never decided twice. Tracing slows the
//! feasible probes down and spares a second solve of the hardest one (`fat-tree:32` under
//! w = 1: 33 s instead of 64 s; docs/guide.md, "Exact backends compared").
//!
//! **Incremental across horizons (SAT backend).** Once U − L ≤ [`DESCENT_WINDOW`] and the
//! encoder is horizon-monotone ([`encode::Encoder::last_step`]: total exchange, bufferless
//! starts, the fat-tree models, gossip under F1 and H1), the remaining horizons are decided in
//! one CaDiCaL (`backend::sat::descend`): the model at U − 1 with makespan literals, each
//! witness of makespan m followed by the unit clause "length ≤ m − 1", the learnt clauses
//! kept, until unsatisfiable (L = the last makespan) or L is met. Every witness is checked
//! here as it arrives. The session traces its proof too (with CaDiCaL's clause-eliminating
//! techniques off, whose clauses an incremental session would restore outside the proof): its
//! CNF is the model at U − 1, its makespan clauses and those units, marked with the model's
//! horizon, and `verify` re-encodes exactly that (docs/spec.md §7). A session proof that fails
//! the LRAT check (it happens: the checker has rejected two) is dropped, and T − 1 is proved by
//! a fresh solve with a proof. Gossip under F\* and H\* keeps fresh probes: its counting
//! cuts (`idle`, `busy`) hold at one horizon only.

//! Building a model and a backend's own setup are not interruptible, and a backend checks its
//! time limit only now and then, so under a deadline a probe (encoding and solving) runs on its
//! own thread and is abandoned when the deadline passes: the search answers `timeout` at once
//! and the abandoned thread ends at its backend's time limit, its answer unused.

pub mod backend;
pub mod cnf;
pub mod decision;
pub mod encode;
pub mod export;
pub mod ir;
pub mod pareto;

pub use backend::{Aim, Backend, BackendAnswer, BackendKind, Limits};
pub use export::{export, model_file};

use crate::bounds::{self, Bound};
use crate::certify::{Certificate, Evidence, Infeasibility, certify};
use crate::checker::{Checked, Producer, accept};
use crate::error::{Error, InputError, Result};
use crate::spec::Instance;
use encode::{Encoder, Encoding};
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The default backend: ILP (good_lp + microlp), embedded and dependency-free. It decides an
/// instance no encoder claims (to report why) and any instance whose encoder lists no backend
/// this build has.
pub fn default_backend() -> BackendKind {
    BackendKind::Ilp
}

/// Which backend decides an instance: one the user named, or the measured choice of the
/// instance's encoder ([`encode::EncoderEntry::backends`]), which `--method exact` and `report`
/// use by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendChoice {
    /// The first backend of the encoder's measured order that this build includes.
    Measured,
    /// This backend, whatever the problem.
    Fixed(BackendKind),
}

impl BackendChoice {
    /// The backend that decides `instance`.
    pub fn resolve(self, instance: &Instance) -> BackendKind {
        match self {
            BackendChoice::Fixed(kind) => kind,
            BackendChoice::Measured => encode::encoder_for(instance)
                .ok()
                .and_then(|(entry, _)| {
                    entry.backends.iter().copied().find(|b| BackendKind::available().contains(b))
                })
                .unwrap_or_else(default_backend),
        }
    }

    /// `per-encoder` for the measured choice, else the backend's name.
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Measured => "per-encoder",
            BackendChoice::Fixed(kind) => kind.name(),
        }
    }
}

impl From<BackendKind> for BackendChoice {
    fn from(kind: BackendKind) -> Self {
        BackendChoice::Fixed(kind)
    }
}

/// The default size guard: models with more variables are not built.
pub const DEFAULT_MAX_VARIABLES: usize = 200_000;

/// The SAT backend descends in one incremental solver once at most this many horizons are
/// left undecided (module documentation, "Search"). Measured with `--method sat` before the
/// descent turned CaDiCaL's clause elimination off (one run each,
/// against never descending and descending from the first incumbent however far): fat-tree:32
/// under w = 1 32.3 s (41.8 s, 37.9 s), under log+1 23.9 s (29.7 s, 47.7 s), fat-tree:16 in
/// rounds under log+1 2.4 s (4.9 s, 2.5 s); `fattree8-fig2-prefix` and gossip on path(7) under
/// H1 within noise; `fattree8-fig2-product` 0.73 s (0.20 s, 0.72 s), where the model at the
/// incumbent's horizon costs more than the bisection's two small probes.
pub const DESCENT_WINDOW: u64 = 4;

/// Options of [`solve`] and [`decide`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveOptions {
    /// Wall-clock budget for the whole search (`None`: unlimited). Running out can only give
    /// [`Outcome::Bounds`].
    pub timeout: Option<Duration>,
    /// Size guard: the largest model (in variables) that may be built.
    pub max_variables: usize,
    /// Where the SAT backend keeps the proof behind an `infeasible-at-T-1 (proof checked)`
    /// certificate: [`PROOF_CNF`] and [`PROOF_LRAT`] in this directory (it must exist). `None`:
    /// a temporary directory, removed once the proof is checked.
    pub proof_dir: Option<PathBuf>,
    /// Ask the encoder's restricted model ([`encode::Encoder::restricted`]) for a witness at
    /// the lower bound before anything else (module documentation, "Search").
    pub symmetric: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self { timeout: None, max_variables: DEFAULT_MAX_VARIABLES, proof_dir: None, symmetric: true }
    }
}

/// What the search of a relaxation gave ([`Search::relax`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Relaxed {
    /// No relaxation, or its search stopped or was refused by the size guard: no evidence.
    Unsettled,
    /// Its optimum meets its lower bounds, which the instance has too: nothing new.
    Bound,
    /// Its optimum T′, by infeasibility at T′ − 1: the instance's bound.
    Infeasible(Infeasibility),
}

/// Which model of a horizon a probe decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Restriction {
    /// The encoder's model: its infeasibility is evidence.
    Full,
    /// The encoder's restricted model: witnesses only.
    Restricted,
    /// The encoder's relaxed model of that index ([`Encoder::relaxed`]): infeasibility only
    /// (a feasible answer is no evidence).
    Relaxed(usize),
}

impl Restriction {
    /// The backend call's limits: only a relaxed model is asked for a refutation.
    fn limits(self, time: Option<Duration>) -> Limits {
        let aim = if matches!(self, Restriction::Relaxed(_)) { Aim::Refutation } else { Aim::Witness };
        Limits { time, aim }
    }
}

/// The model of `horizon` that `restriction` names.
fn model_at(encoder: &dyn Encoder, horizon: u64, restriction: Restriction) -> Result<Encoding> {
    match restriction {
        Restriction::Full => Ok(encoder.encode(horizon)),
        Restriction::Restricted => encoder.restricted(horizon).ok_or_else(|| Error::Backend {
            backend: "encoder",
            reason: "it declared a restriction but built no restricted model".into(),
        }),
        Restriction::Relaxed(which) => encoder.relaxed_model(horizon, which).ok_or_else(|| Error::Backend {
            backend: "encoder",
            reason: "it declared a relaxed model but built none".into(),
        }),
    }
}

/// The file name of the CNF (DIMACS) of the model at T − 1 in a proof directory.
pub const PROOF_CNF: &str = "infeasible.cnf";
/// The file name of the LRAT proof that [`PROOF_CNF`] is unsatisfiable.
pub const PROOF_LRAT: &str = "infeasible.lrat";

/// The comment line on top of a proof CNF: the tool, the instance and the horizon.
pub fn proof_comment(instance: &Instance, horizon: u64) -> String {
    model_comment(instance, "the exact model", horizon)
}

/// The comment line on top of the CNF of `model` (the exact model, or a relaxed one by name).
fn model_comment(instance: &Instance, model: &str, horizon: u64) -> String {
    format!(
        "commsched {}: {model} of instance `{}` at horizon T = {horizon}",
        env!("CARGO_PKG_VERSION"),
        instance.name
    )
}

/// Why a search stopped without an optimum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
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
    /// The backend could not decide for another reason (its words). A struct variant, as the
    /// enum is tagged inside the object.
    BackendUnknown {
        /// The backend's words.
        reason: String,
    },
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Timeout => f.write_str("timeout"),
            StopReason::SizeGuard { variables, limit } => {
                write!(f, "size guard: the next model needs {variables} variables, over {limit}")
            }
            StopReason::BackendUnknown { reason } => write!(f, "backend undecided: {reason}"),
        }
    }
}

/// The result of an exact search.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// An optimum: a checked schedule and why nothing shorter exists.
    Optimal {
        /// The optimal schedule, checked (its length is the optimum).
        checked: Checked,
        /// Why no shorter schedule exists.
        certificate: Certificate,
    },
    /// No optimum: the proven bounds and why the search stopped.
    Bounds {
        /// Every schedule has length ≥ `lower`.
        lower: u64,
        /// The best checked schedule known (the incumbent or a witness), if any.
        upper: Option<Checked>,
        /// Why the search stopped.
        stop: StopReason,
    },
}

/// A backend's answer at one horizon, with the witness checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// A schedule of length ≤ the horizon exists; here it is, checked.
    Feasible(Checked),
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
    /// Whether to ask for a symmetric witness first ([`SolveOptions::symmetric`]).
    symmetric: bool,
    /// Read only by the SAT backend's proofs.
    #[cfg_attr(not(feature = "sat"), allow(dead_code))]
    proof_dir: Option<PathBuf>,
    /// The SAT backend's probes trace their proofs here (module documentation, "Search").
    #[cfg(feature = "sat")]
    traces: Option<TempDir>,
    /// The horizon a SAT descent decided infeasible, its proof in the trace of that horizon.
    #[cfg(feature = "sat")]
    descended: std::cell::Cell<Option<u64>>,
    /// Probes run without the SAT backend's proof tracer (which slows CaDiCaL down): a probe
    /// that is likely feasible wastes no proof, and an infeasible one is proved afresh by
    /// `prove` ([`decision::decide_point`]).
    untraced_probes: bool,
}

/// Where a probe of the SAT backend writes its CNF (with `comment` on top) and LRAT proof.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "sat"), allow(dead_code))]
struct ProbeTrace {
    comment: String,
    cnf: PathBuf,
    proof: PathBuf,
}

/// A temporary directory, removed when dropped, or by [`remove_temporary_proofs`] when the
/// process is interrupted.
#[cfg(feature = "sat")]
struct TempDir(PathBuf);

/// The temporary proof directories of this process that are still in use.
#[cfg(feature = "sat")]
static TEMPORARY: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// The temporary directories in use, even after a panic elsewhere.
#[cfg(feature = "sat")]
fn temporary() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARY.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes the temporary directories that hold the SAT probes' CNFs and proofs
/// (`commsched-proof-*` in the system's temporary directory; a long run's proofs take tens of
/// gigabytes), for an interrupt handler to call before the process exits: dropping them is
/// the normal way, which an interrupt skips. Directories kept for `--certificate` are not
/// temporary.
#[cfg(feature = "sat")]
pub fn remove_temporary_proofs() {
    for dir in temporary().drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[cfg(feature = "sat")]
impl TempDir {
    fn new() -> Result<Self> {
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let dir =
            std::env::temp_dir().join(format!("commsched-proof-{}-{}", std::process::id(), stamp.as_nanos()));
        std::fs::create_dir_all(&dir)
            .map_err(|source| Error::Io { path: dir.display().to_string(), source })?;
        temporary().push(dir.clone());
        Ok(Self(dir))
    }

    /// The directory, no longer removed when dropped.
    fn keep(mut self) -> PathBuf {
        temporary().retain(|dir| *dir != self.0);
        std::mem::take(&mut self.0)
    }
}

#[cfg(feature = "sat")]
impl Drop for TempDir {
    fn drop(&mut self) {
        // Best effort: a leftover temporary directory is harmless.
        if !self.0.as_os_str().is_empty() {
            temporary().retain(|dir| *dir != self.0);
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The backend's answer on a probe's model. With a trace (the SAT backend), CaDiCaL writes the
/// CNF and its LRAT proof there, unchecked until the horizon turns out to be the certificate's.
fn answer(
    backend: BackendKind,
    model: &ir::Model,
    limits: &Limits,
    trace: Option<&ProbeTrace>,
) -> Result<BackendAnswer> {
    #[cfg(feature = "sat")]
    if let Some(t) = trace {
        use backend::sat::Traced;
        return Ok(match backend::sat::trace(model, limits, &t.comment, &t.cnf, &t.proof)? {
            Traced::Feasible(values) => {
                BackendAnswer::Feasible(backend::Assignment { values, optimal: true })
            }
            Traced::Infeasible => BackendAnswer::Infeasible,
            Traced::Unknown(u) => BackendAnswer::Unknown(u),
        });
    }
    #[cfg(not(feature = "sat"))]
    let _ = trace;
    backend.backend()?.solve(model, limits)
}

impl<'a> Search<'a> {
    fn new(instance: &'a Instance, backend: BackendKind, options: &SolveOptions) -> Result<Self> {
        backend.backend()?;
        let (_, encoder) = encode::encoder_for(instance)?;
        Ok(Self {
            instance,
            encoder,
            backend,
            deadline: options.timeout.map(|t| Instant::now() + t),
            max_variables: options.max_variables,
            proof_dir: options.proof_dir.clone(),
            symmetric: options.symmetric,
            #[cfg(feature = "sat")]
            traces: if backend == BackendKind::Sat { Some(TempDir::new()?) } else { None },
            #[cfg(feature = "sat")]
            descended: std::cell::Cell::new(None),
            untraced_probes: false,
        })
    }

    /// Where the probe at `horizon` traces its proof: only the SAT backend's probes do.
    fn trace(&self, horizon: u64) -> Option<ProbeTrace> {
        #[cfg(feature = "sat")]
        if let Some(TempDir(dir)) = &self.traces {
            return Some(ProbeTrace {
                comment: proof_comment(self.instance, horizon),
                cnf: dir.join(format!("{horizon}.cnf")),
                proof: dir.join(format!("{horizon}.lrat")),
            });
        }
        let _ = horizon;
        None
    }

    /// Where a probe of the model `restriction` names traces its proof: a restricted probe
    /// traces none (its infeasibility is no evidence), a relaxed one names its model on top.
    fn traced(&self, horizon: u64, restriction: Restriction) -> Option<ProbeTrace> {
        let trace = self.trace(horizon)?;
        match restriction {
            Restriction::Restricted => None,
            Restriction::Relaxed(which) => Some(ProbeTrace {
                comment: model_comment(self.instance, self.encoder.relaxed()[which], horizon),
                ..trace
            }),
            Restriction::Full => Some(trace),
        }
    }

    /// Deletes the trace of the probe at `horizon` (best effort: the directory goes anyway).
    fn discard(&self, horizon: u64) {
        if let Some(t) = self.trace(horizon) {
            let _ = std::fs::remove_file(t.cnf);
            let _ = std::fs::remove_file(t.proof);
        }
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

    /// Proves with a checked LRAT proof that horizon T is infeasible in the model `restriction`
    /// names (the encoder's or its relaxed one). A probe that decided it
    /// left its proof in its trace, which is checked now; otherwise (the descent decided it)
    /// the model is decided once more with a proof. The CNF and the proof go to the proof
    /// directory if there is one.
    #[cfg(feature = "sat")]
    fn prove(&self, horizon: u64, restriction: Restriction) -> Result<std::result::Result<(), StopReason>> {
        use backend::sat::{Refutation, check_proof, refute};
        let trace = self.traced(horizon, restriction).expect("a SAT search traces");
        let checked = match check_proof(&trace.cnf, &trace.proof) {
            _ if !trace.proof.exists() => false,
            Ok(_) => true,
            // CaDiCaL's LRAT across the solves of one incremental session was now and then
            // rejected by the check (seen on a 12-node distributed gather and on fat-tree:32
            // under w = n; re-runs of both kinds did not reproduce it, even under the stricter
            // check that read no redundant unit hint as unit); such a proof is dropped and
            // T − 1 proved afresh below. A single solve's proof that fails is an error.
            Err(_) if self.descended.get() == Some(horizon) => false,
            Err(e) => return Err(self.keep_rejected(e, &trace.cnf, &trace.proof)),
        };
        if checked {
            if let Some(dir) = &self.proof_dir {
                for (from, name) in [(&trace.cnf, PROOF_CNF), (&trace.proof, PROOF_LRAT)] {
                    let to = dir.join(name);
                    let io = |source| Error::Io { path: to.display().to_string(), source };
                    if std::fs::rename(from, &to).is_err() {
                        std::fs::copy(from, &to).map_err(io)?;
                    }
                }
            }
            return Ok(Ok(()));
        }
        let time = match self.time_left() {
            Ok(t) => t,
            Err(stop) => return Ok(Err(stop)),
        };
        let (cnf, proof) = match &self.proof_dir {
            Some(d) => (d.join(PROOF_CNF), d.join(PROOF_LRAT)),
            None => (trace.cnf, trace.proof),
        };
        let model = model_at(self.encoder.as_ref(), horizon, restriction)?.model;
        match refute(&model, &restriction.limits(time), &trace.comment, &cnf, &proof)
            .map_err(|e| self.keep_rejected(e, &cnf, &proof))?
        {
            Refutation::Checked(_) => Ok(Ok(())),
            Refutation::Unknown(_) => Ok(Err(StopReason::Timeout)),
            Refutation::Feasible => Err(Error::Backend {
                backend: self.backend.name(),
                reason: format!("horizon {horizon} was decided infeasible, then feasible with proof logging"),
            }),
        }
    }

    /// A proof that fails the LRAT check is evidence of a fault in CaDiCaL, its tracer or the
    /// checker, so it is not deleted with the temporary directory: the CNF and the proof move
    /// to a directory of their own (they stay put in the proof directory), and the error names
    /// it.
    #[cfg(feature = "sat")]
    fn keep_rejected(&self, error: Error, cnf: &std::path::Path, proof: &std::path::Path) -> Error {
        let Error::Backend { backend, reason } = error else { return error };
        let kept = match &self.proof_dir {
            Some(dir) if cnf.parent() == Some(dir.as_path()) => Ok(dir.clone()),
            _ => TempDir::new().map(TempDir::keep).and_then(|dir| {
                for from in [cnf, proof] {
                    let to = dir.join(from.file_name().unwrap_or_default());
                    std::fs::rename(from, &to)
                        .map_err(|source| Error::Io { path: to.display().to_string(), source })?;
                }
                Ok(dir)
            }),
        };
        let reason = match kept {
            Ok(dir) => format!("{reason}; its CNF and proof are kept in {}", dir.display()),
            Err(e) => format!("{reason}; keeping its CNF and proof failed: {e}"),
        };
        Error::Backend { backend, reason }
    }

    /// Decides horizon T; the witness of a feasible answer is checked here. A restricted probe
    /// gets half of the time left, and traces no proof (its infeasibility is no evidence).
    fn probe(&self, horizon: u64, restriction: Restriction) -> Result<Decision> {
        let variables = self.variables(horizon, restriction);
        if variables > self.max_variables {
            return Ok(Decision::Unknown(StopReason::SizeGuard { variables, limit: self.max_variables }));
        }
        let time = match self.time_left() {
            Ok(t) if restriction == Restriction::Restricted => t.map(|t| t / 2),
            Ok(t) => t,
            Err(stop) => return Ok(Decision::Unknown(stop)),
        };
        let trace = self.traced(horizon, restriction).filter(|_| !self.untraced_probes);
        let traces = trace.is_some();
        let (encoding, answer) = match time {
            None => {
                let encoding = model_at(self.encoder.as_ref(), horizon, restriction)?;
                let answer =
                    answer(self.backend, &encoding.model, &restriction.limits(time), trace.as_ref())?;
                (encoding, answer)
            }
            Some(budget) => match self.abandonable_probe(horizon, restriction, budget, trace) {
                Some(result) => result?,
                None => return Ok(Decision::Unknown(StopReason::Timeout)),
            },
        };
        if answer != BackendAnswer::Infeasible && traces {
            self.discard(horizon);
        }
        Ok(match answer {
            // A relaxed model's solution is no schedule, and no evidence either way.
            BackendAnswer::Feasible(_) if matches!(restriction, Restriction::Relaxed(_)) => {
                Decision::Unknown(StopReason::BackendUnknown {
                    reason: "the relaxed model is feasible".into(),
                })
            }
            BackendAnswer::Feasible(assignment) => {
                let witness = encoding.decode(&assignment.values);
                let checked = accept(self.instance, witness, Producer::Exact(self.backend.name()))?;
                if checked.length() > horizon {
                    return Err(Error::Backend {
                        backend: self.backend.name(),
                        reason: format!("its witness has length {} at horizon {horizon}", checked.length()),
                    });
                }
                Decision::Feasible(checked)
            }
            BackendAnswer::Infeasible => Decision::Infeasible,
            BackendAnswer::Unknown(backend::Unknown::Timeout) => Decision::Unknown(StopReason::Timeout),
            BackendAnswer::Unknown(backend::Unknown::Other(r)) => {
                Decision::Unknown(StopReason::BackendUnknown { reason: r })
            }
        })
    }

    /// Encodes and solves horizon T on a thread of its own, waiting at most `budget` (module
    /// documentation, "Search"); `None` when the budget runs out first.
    fn abandonable_probe(
        &self,
        horizon: u64,
        restriction: Restriction,
        budget: Duration,
        trace: Option<ProbeTrace>,
    ) -> Option<Result<(Encoding, BackendAnswer)>> {
        let (instance, backend) = (self.instance.clone(), self.backend);
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let result = encode::encoder_for(&instance).and_then(|(_, encoder)| {
                let encoding = model_at(encoder.as_ref(), horizon, restriction)?;
                let limits = restriction.limits(Some(budget));
                let answer = answer(backend, &encoding.model, &limits, trace.as_ref())?;
                Ok((encoding, answer))
            });
            // The receiver is gone when the probe was abandoned; its answer is not needed then.
            let _ = send.send(result);
        });
        receive.recv_timeout(budget).ok()
    }

    /// The SAT backend's descent from horizon `horizon` (module documentation, "Search"), on
    /// an abandonable thread like a probe: every model it finds is decoded there and checked
    /// here. Updates `best`, and `lo` with `infeasible` when CaDiCaL ends unsatisfiable. `None`
    /// when the encoder is not horizon-monotone or the model is over the size guard (nothing
    /// was decided: the probes take over, and at the guard the restricted witnesses and the
    /// relaxed models get their turn), else `Some(stop)` with the reason it stopped early, if
    /// it did.
    #[cfg(feature = "sat")]
    fn descend(
        &self,
        horizon: u64,
        lo: &mut u64,
        best: &mut Option<Checked>,
        infeasible: &mut Option<Infeasibility>,
    ) -> Result<Option<Option<StopReason>>> {
        use backend::sat::{Descent, descend};
        enum Report {
            Witness(crate::spec::Schedule, u64),
            End(Result<Descent>),
            NotMonotone,
        }
        if self.encoder.variables(horizon) > self.max_variables {
            return Ok(None);
        }
        let time = match self.time_left() {
            Ok(t) => t,
            Err(stop) => return Ok(Some(Some(stop))),
        };
        let (instance, floor) = (self.instance.clone(), *lo);
        // The session's proof, renamed to the trace of T − 1 if it ends infeasible.
        let session = self.trace(horizon).map(|t| ProbeTrace {
            cnf: t.cnf.with_extension("descent.cnf"),
            proof: t.proof.with_extension("descent.lrat"),
            ..t
        });
        let paths = session.clone();
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let trace = paths.as_ref().map(|t| (t.comment.as_str(), t.cnf.as_path(), t.proof.as_path()));
            let report = match encode::encoder_for(&instance) {
                Err(e) => Report::End(Err(e)),
                Ok((_, encoder)) => {
                    let encoding = encoder.encode(horizon);
                    match encoding.ends(encoder.as_ref()) {
                        None => Report::NotMonotone,
                        Some(ends) => Report::End(descend(
                            &encoding.model,
                            &ends,
                            (horizon, floor),
                            &Limits { time, ..Limits::default() },
                            trace,
                            |values, makespan| {
                                // A closed channel means the search was abandoned.
                                let _ = send.send(Report::Witness(encoding.decode(&values), makespan));
                            },
                        )),
                    }
                }
            };
            let _ = send.send(report);
        });
        loop {
            let report = match self.deadline {
                None => receive.recv().ok(),
                Some(d) => receive.recv_timeout(d.saturating_duration_since(Instant::now())).ok(),
            };
            let fault = |reason: String| Error::Backend { backend: self.backend.name(), reason };
            match report {
                None => return Ok(Some(Some(StopReason::Timeout))),
                Some(Report::NotMonotone) => return Ok(None),
                Some(Report::Witness(schedule, makespan)) => {
                    let checked = accept(self.instance, schedule, Producer::Exact(self.backend.name()))?;
                    if checked.length() > makespan || checked.length() < *lo {
                        return Err(fault(format!(
                            "its witness has length {} at makespan {makespan}, with the bound at {lo}",
                            checked.length()
                        )));
                    }
                    if best.as_ref().is_none_or(|b| checked.length() < b.length()) {
                        *best = Some(checked);
                    }
                }
                Some(Report::End(answer)) => {
                    return Ok(Some(match answer? {
                        Descent::Floor => None,
                        Descent::Infeasible { below } => {
                            let length = best.as_ref().map_or(0, Checked::length);
                            if length != below {
                                return Err(fault(format!(
                                    "it found no schedule of length < {below}, but one of length {length}"
                                )));
                            }
                            if let (Some(from), Some(to)) = (&session, self.trace(below - 1)) {
                                std::fs::rename(&from.cnf, &to.cnf)
                                    .and_then(|()| std::fs::rename(&from.proof, &to.proof))
                                    .map_err(|source| Error::Io {
                                        path: to.cnf.display().to_string(),
                                        source,
                                    })?;
                                self.descended.set(Some(below - 1));
                            }
                            *infeasible = Some(Infeasibility {
                                horizon: below - 1,
                                backend: self.backend.name(),
                                evidence: Evidence::SolverWord,
                                relaxation: None,
                            });
                            *lo = below;
                            None
                        }
                        Descent::Unknown(backend::Unknown::Timeout) => Some(StopReason::Timeout),
                        Descent::Unknown(backend::Unknown::Other(reason)) => {
                            Some(StopReason::BackendUnknown { reason })
                        }
                    }));
                }
            }
        }
    }

    /// The variables of the model `restriction` names at `horizon`.
    fn variables(&self, horizon: u64, restriction: Restriction) -> usize {
        match restriction {
            Restriction::Full => self.encoder.variables(horizon),
            Restriction::Restricted => self.encoder.restricted_variables(horizon),
            Restriction::Relaxed(which) => self.encoder.relaxed_variables(horizon, which),
        }
    }

    /// The relaxation's exact search ("Relaxation first" in the module documentation), when
    /// the encoder has a relaxation, within the time left.
    fn relax(&self) -> Result<Relaxed> {
        let Some(relaxation) = self.encoder.relaxation() else { return Ok(Relaxed::Unsettled) };
        let Ok(timeout) = self.time_left() else { return Ok(Relaxed::Unsettled) };
        let options = SolveOptions {
            timeout,
            max_variables: self.max_variables,
            proof_dir: self.proof_dir.clone(),
            symmetric: self.symmetric,
        };
        let relaxed = &relaxation.instance;
        let outcome =
            match Search::new(relaxed, self.backend, &options)?.run(&bounds::lower_bounds(relaxed), None) {
                Err(Error::Input(_)) => return Ok(Relaxed::Unsettled),
                other => other?,
            };
        Ok(match outcome {
            Outcome::Optimal {
                certificate: Certificate::InfeasibleAtTMinus1 { t, backend, evidence, .. },
                ..
            } => Relaxed::Infeasible(Infeasibility {
                horizon: t,
                backend,
                evidence,
                relaxation: Some(relaxation.name.into()),
            }),
            Outcome::Optimal { certificate: Certificate::LowerBound { .. }, .. } => Relaxed::Bound,
            Outcome::Bounds { .. } => Relaxed::Unsettled,
        })
    }

    /// The shortest witness the restricted model gives between the proven bound `lo` (already
    /// asked) and the length of `best` (bisection from `lo + 1`), for when the instance's own
    /// model is over the size guard. Its infeasible answers bound only the restricted model, so
    /// they raise where it looks, never the instance's lower bound. An undecided probe (it had
    /// half of the time left) raises it too, as witnesses are easier above; the search ends
    /// when the time is up.
    fn restricted_witnesses(&self, lo: u64, mut best: Option<Checked>) -> Result<Option<Checked>> {
        let mut from = lo + 1;
        while let Some(upper) = best.as_ref().map(Checked::length).filter(|&u| u > from) {
            let next = from + (upper - from - 1) / 2;
            match self.probe(next, Restriction::Restricted)? {
                Decision::Feasible(checked) => best = Some(self.at_least(checked, lo)?),
                Decision::Unknown(_) if self.time_left().is_err() => break,
                Decision::Infeasible | Decision::Unknown(_) => from = next + 1,
            }
        }
        Ok(best)
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

    /// The search from the strongest of `bounds` and the incumbent (see the module
    /// documentation).
    fn run(&self, bounds: &[Bound], incumbent: Option<Checked>) -> Result<Outcome> {
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
        let (mut lo, mut infeasible) = (bound, None);
        // The incumbent is not certified: it is above the bound, or there is none.
        let open = incumbent.as_ref().is_none_or(|b| b.length() > bound);
        let relaxed = if open { self.relax()? } else { Relaxed::Unsettled };
        if let Relaxed::Infeasible(at) = &relaxed {
            lo = lo.max(at.horizon + 1);
            infeasible = Some(at.clone());
            if let Some(inc) = incumbent.as_ref().filter(|inc| inc.length() < lo) {
                return Err(Error::Backend {
                    backend: self.backend.name(),
                    reason: format!(
                        "the relaxation's bound {lo} is above the incumbent's checked length {}",
                        inc.length()
                    ),
                });
            }
        }
        // The first model is the restricted one when the search asks it for a witness.
        let restricted = (self.symmetric && open).then(|| self.encoder.restriction()).flatten();
        let first = if restricted.is_some() { Restriction::Restricted } else { Restriction::Full };
        let at_least = match first {
            Restriction::Restricted => self.encoder.restricted_min_variables(lo),
            _ => self.encoder.min_variables(lo),
        };
        let variables = if at_least > self.max_variables { at_least } else { self.variables(lo, first) };
        if variables > self.max_variables {
            let walked = open && self.walk_relaxed(&mut lo, &mut infeasible, incumbent.as_ref())?;
            if let Some(inc) = incumbent.as_ref().filter(|inc| inc.length() == lo) {
                return self.finish(bounds, inc.clone(), infeasible);
            }
            if relaxed != Relaxed::Unsettled || walked {
                // A relaxation raised the bound: report the bounds rather than refuse.
                let stop = StopReason::SizeGuard { variables, limit: self.max_variables };
                return Ok(Outcome::Bounds { lower: lo, upper: incumbent, stop });
            }
            return Err(Error::Input(InputError::new(
                "",
                "network",
                format!(
                    "an exact model of this instance needs {}{variables} variables at horizon T = {lo}{}, over the size guard {} (raise --max-vars)",
                    if at_least > self.max_variables { "at least " } else { "" },
                    restricted.map_or(String::new(), |name| format!(" even restricted to {name}")),
                    self.max_variables
                ),
            )));
        }
        let mut best = incumbent;
        if first == Restriction::Restricted
            && let Decision::Feasible(checked) = self.probe(lo, first)?
        {
            best = Some(self.at_least(checked, lo)?);
        }
        // Over the size guard at L, the instance's own model decides nothing: the restricted
        // model's witnesses come first then, and the relaxed model gets the time that is left.
        // So they do when the own model fits at L but not just below the incumbent, where only
        // they can lower it (prefix on fat-tree:16 under w = 1: L = 12, U = 27).
        let own_fits = self.variables(lo, Restriction::Full) <= self.max_variables;
        let below_incumbent_fits = best.as_ref().is_none_or(|b| {
            b.length() <= lo || self.variables(b.length() - 1, Restriction::Full) <= self.max_variables
        });
        let witnesses_first = first == Restriction::Restricted && own_fits && !below_incumbent_fits;
        if witnesses_first {
            best = self.restricted_witnesses(lo, best)?;
        }
        if open && own_fits {
            self.walk_relaxed(&mut lo, &mut infeasible, best.as_ref())?;
        }
        let mut gap = 0;
        #[cfg(feature = "sat")]
        let mut monotone = self.backend == BackendKind::Sat;
        loop {
            let upper = best.as_ref().map(Checked::length);
            #[cfg(feature = "sat")]
            if let Some(u) = upper.filter(|&u| monotone && u > lo && u - lo <= DESCENT_WINDOW) {
                match self.descend(u - 1, &mut lo, &mut best, &mut infeasible)? {
                    None => monotone = false,
                    Some(None) => continue,
                    Some(Some(stop)) => return Ok(Outcome::Bounds { lower: lo, upper: best, stop }),
                }
            }
            let next = match upper {
                Some(u) if u <= lo => break,
                Some(u) => lo + (u - lo - 1) / 2,
                None => lo + gap,
            };
            match self.probe(next, Restriction::Full)? {
                Decision::Feasible(checked) => best = Some(self.at_least(checked, lo)?),
                Decision::Infeasible => {
                    if let Some(older) = &infeasible {
                        self.discard(older.horizon);
                    }
                    infeasible = Some(Infeasibility {
                        horizon: next,
                        backend: self.backend.name(),
                        evidence: Evidence::SolverWord,
                        relaxation: None,
                    });
                    lo = next + 1;
                    gap = 2 * gap + 1;
                }
                Decision::Unknown(stop) => {
                    if matches!(stop, StopReason::SizeGuard { .. })
                        && first == Restriction::Restricted
                        && !witnesses_first
                    {
                        best = self.restricted_witnesses(lo, best)?;
                    }
                    if open
                        && !own_fits
                        && self.walk_relaxed(&mut lo, &mut infeasible, best.as_ref())?
                        && let Some(checked) = best.clone().filter(|b| b.length() == lo)
                    {
                        return self.finish(bounds, checked, infeasible);
                    }
                    return Ok(Outcome::Bounds { lower: lo, upper: best, stop });
                }
            }
        }
        let checked = best.expect("the loop ends only with a schedule at the lower bound");
        self.finish(bounds, checked, infeasible)
    }

    /// The relaxed models walked up from `lo` ("Relaxed model" in the module documentation):
    /// at each horizon the cheapest model not yet found feasible (or over the size guard) is
    /// asked first, and the next where it is not found infeasible: a model feasible at T is
    /// feasible above it, and larger there. Each infeasible horizon raises `lo` past it and
    /// becomes the infeasibility on record, until no model is left, time runs out, or `lo`
    /// meets the incumbent. Whether it raised `lo`.
    fn walk_relaxed(
        &self,
        lo: &mut u64,
        infeasible: &mut Option<Infeasibility>,
        incumbent: Option<&Checked>,
    ) -> Result<bool> {
        let names = self.encoder.relaxed();
        let (start, mut which) = (*lo, 0);
        while which < names.len() && incumbent.is_none_or(|inc| inc.length() > *lo) {
            match self.probe(*lo, Restriction::Relaxed(which))? {
                Decision::Infeasible => {}
                Decision::Unknown(StopReason::Timeout) => break,
                _ => {
                    which += 1;
                    continue;
                }
            }
            if let Some(older) = infeasible.as_ref() {
                self.discard(older.horizon);
            }
            *infeasible = Some(Infeasibility {
                horizon: *lo,
                backend: self.backend.name(),
                evidence: Evidence::SolverWord,
                relaxation: Some(names[which].into()),
            });
            *lo += 1;
        }
        Ok(*lo > start)
    }

    /// The optimum `checked`, with its certificate: the bounds, or the infeasibility at its
    /// length − 1, which the SAT backend proves first.
    #[cfg_attr(not(feature = "sat"), allow(unused_mut))]
    fn finish(
        &self,
        bounds: &[Bound],
        checked: Checked,
        mut infeasible: Option<Infeasibility>,
    ) -> Result<Outcome> {
        // The SAT backend's word is not evidence: the infeasibility at T − 1 that certifies the
        // optimum is proved again with a proof, which must check. One that names a relaxation
        // in the solver's word is the relaxed model's (an instance's relaxation proves its own).
        #[cfg(feature = "sat")]
        if self.backend == BackendKind::Sat
            && certify(bounds, &checked, None).is_none()
            && let Some(i) = infeasible
                .as_mut()
                .filter(|i| i.horizon + 1 == checked.length() && i.evidence == Evidence::SolverWord)
        {
            let relaxed =
                self.encoder.relaxed().iter().position(|&name| i.relaxation.as_deref() == Some(name));
            let model = relaxed.map_or(Restriction::Full, Restriction::Relaxed);
            match self.prove(i.horizon, model)? {
                Ok(()) => i.evidence = Evidence::ProofChecked,
                Err(stop) => return Ok(Outcome::Bounds { lower: i.horizon, upper: Some(checked), stop }),
            }
        }
        let certificate = certify(bounds, &checked, infeasible.as_ref()).ok_or_else(|| Error::Backend {
            backend: self.backend.name(),
            reason: format!("the search ended at {} without a certificate", checked.length()),
        })?;
        Ok(Outcome::Optimal { checked, certificate })
    }
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
    search.probe(horizon, Restriction::Full)
}

/// Finds a certified optimum (module documentation, "Search"), starting from the lower bounds
/// `bounds` (usually [`bounds::lower_bounds`]) and the caller's `incumbent`, if it has one.
///
/// Errors: [`Error::NotApplicable`] for instances no encoder supports; [`Error::Input`] (file
/// left empty for the caller to fill, field `network`) when some item cannot reach its target at
/// all, or when the first model, at the lower bound, would exceed `options.max_variables`;
/// [`Error::Backend`] when a backend misbehaves, [`Error::Rejected`] when its witness fails the
/// checker. A later model over the guard stops the search with [`Outcome::Bounds`] and
/// [`StopReason::SizeGuard`].
pub fn solve(
    instance: &Instance,
    backend: BackendKind,
    options: &SolveOptions,
    bounds: &[Bound],
    incumbent: Option<Checked>,
) -> Result<Outcome> {
    let search = Search::new(instance, backend, options)?;
    if let Some(reason) = search.encoder.impossible() {
        return Err(Error::Input(InputError::new("", "network", format!("{reason}: no schedule exists"))));
    }
    search.run(bounds, incumbent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Mode, Model, Network, PortRule, Problem, RingTie};

    fn path4() -> Instance {
        Instance::new(
            "path4",
            Network::parse("path:4").unwrap(),
            Problem::TotalExchange(None),
            Model::StoreForward { rule: PortRule::FStar, mode: Mode::Move, packet: 1 },
            RingTie::Clockwise,
            "<test>",
        )
        .unwrap()
    }

    /// An optimal schedule of path(4) (length 4, TE-1) with three idle steps in the middle: a
    /// checked incumbent of length 7.
    fn padded_incumbent(inst: &Instance, backend: BackendKind) -> Checked {
        let Decision::Feasible(optimal) = decide(inst, backend, 4, &SolveOptions::default()).unwrap() else {
            panic!("{backend}: no schedule of length 4");
        };
        let crate::spec::Schedule::StoreForward(mut steps) = optimal.into_schedule() else {
            panic!("{backend}: not a store-and-forward schedule")
        };
        steps.splice(2..2, vec![Vec::new(); 3]);
        let padded =
            accept(inst, crate::spec::Schedule::StoreForward(steps), Producer::User("padded".into()));
        let padded = padded.unwrap();
        assert_eq!(padded.length(), 7);
        padded
    }

    /// The padded incumbent and the distance bound 3 leave 4 horizons: every backend
    /// certifies 4 by infeasibility at 3, and the SAT backend decides them in one descent
    /// (total exchange is horizon-monotone), its witnesses checked, its certificate proved.
    #[test]
    fn an_incumbent_near_the_bound_is_improved_to_the_optimum() {
        let inst = path4();
        let encoder = encode::encoder_for(&inst).unwrap().1;
        let encoding = encoder.encode(6);
        assert!(encoding.ends(encoder.as_ref()).is_some_and(|ends| ends.len() == encoding.events.len()));
        let distance = [Bound::new("distance", None, 3, "")];
        for backend in BackendKind::available() {
            let padded = padded_incumbent(&inst, backend);
            let outcome = solve(&inst, backend, &SolveOptions::default(), &distance, Some(padded)).unwrap();
            let Outcome::Optimal { checked, certificate } = outcome else { panic!("{backend}: {outcome:?}") };
            assert_eq!(checked.length(), 4, "{backend}");
            let evidence =
                if backend == BackendKind::Sat { Evidence::ProofChecked } else { Evidence::SolverWord };
            assert_eq!(
                certificate,
                Certificate::InfeasibleAtTMinus1 {
                    t: 3,
                    backend: backend.name(),
                    evidence,
                    relaxation: None
                }
            );
        }
    }

    /// The certificate folder of a SAT descent: its CNF is the model at H = 6 with makespan
    /// literals and the units the descent added, ending with ¬g_4 (length ≤ 3), and `verify`
    /// accepts it; it rejects the proof truncated, the last unit made ¬g_3 (which would also
    /// exclude length 3, the certificate's own claim being about T − 1 = 3 only), and the CNF
    /// without the line that names the model's horizon.
    #[cfg(feature = "sat")]
    #[test]
    fn a_descents_certificate_folder_verifies() {
        let inst = path4();
        let dir = std::env::temp_dir().join(format!("commsched-descent-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let options = SolveOptions { proof_dir: Some(dir.clone()), ..SolveOptions::default() };
        let distance = [Bound::new("distance", None, 3, "")];
        let padded = padded_incumbent(&inst, BackendKind::Sat);
        let outcome = solve(&inst, BackendKind::Sat, &options, &distance, Some(padded)).unwrap();
        let Outcome::Optimal { checked, certificate } = outcome else { panic!("{outcome:?}") };
        crate::folder::write(&dir, &inst, &checked, &certificate, &distance, 0.0).unwrap();
        let cnf_path = dir.join(PROOF_CNF);
        let cnf = std::fs::read_to_string(&cnf_path).unwrap();
        assert!(cnf.contains(&format!("c {}6\n", cnf::DESCENT_MARKER)), "{}", &cnf[..200]);
        assert_eq!(crate::folder::verify(&dir), Vec::<String>::new());
        let lines: Vec<&str> = cnf.lines().collect();
        let last = lines.last().unwrap().to_string();
        let tamper = |text: String, check: &dyn Fn(&[String])| {
            std::fs::write(&cnf_path, text).unwrap();
            check(&crate::folder::verify(&dir));
            std::fs::write(&cnf_path, &cnf).unwrap();
        };
        let unit: i32 = last.split_whitespace().next().unwrap().parse().unwrap();
        let stronger = cnf.replace(&format!("\n{last}\n"), &format!("\n{} 0\n", unit + 1));
        assert_ne!(stronger, cnf);
        tamper(stronger, &|f| assert!(f.iter().any(|l| l.contains("not a unit ¬g_m")), "{f:?}"));
        let unmarked = cnf.replace(&format!("c {}6\n", cnf::DESCENT_MARKER), "");
        tamper(unmarked, &|f| assert!(f.iter().any(|l| l.contains("not the encoding")), "{f:?}"));
        let proof_path = dir.join(PROOF_LRAT);
        let proof = std::fs::read_to_string(&proof_path).unwrap();
        std::fs::write(&proof_path, &proof[..proof.len() / 2]).unwrap();
        assert!(!crate::folder::verify(&dir).is_empty(), "a truncated proof accepted");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A traced proof that fails the LRAT check is an error that names where its CNF and proof
    /// were kept: out of the temporary directory that the search removes (the probe's trace,
    /// checked by [`Search::prove`]), or left in the proof directory (a fresh refutation).
    #[cfg(feature = "sat")]
    #[test]
    fn a_rejected_proof_is_kept_and_named() {
        /// Unsatisfiable, with a proof whose one step lists too few hints.
        fn write_rejected(cnf: &std::path::Path, proof: &std::path::Path) {
            std::fs::write(cnf, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
            std::fs::write(proof, "3 0 1 0\n").unwrap();
        }
        let kept = |error: Error| {
            let error = error.to_string();
            assert!(error.contains("hints end without a conflict"), "{error}");
            std::path::PathBuf::from(error.rsplit("kept in ").next().unwrap())
        };
        let inst = path4();
        let search = Search::new(&inst, BackendKind::Sat, &SolveOptions::default()).unwrap();
        let trace = search.trace(3).unwrap();
        write_rejected(&trace.cnf, &trace.proof);
        let dir = kept(search.prove(3, Restriction::Full).expect_err("the proof is rejected"));
        drop(search);
        assert!(["3.cnf", "3.lrat"].iter().all(|n| dir.join(n).is_file()), "{}", dir.display());
        std::fs::remove_dir_all(&dir).unwrap();

        let given = std::env::temp_dir().join(format!("commsched-rejected-given-{}", std::process::id()));
        std::fs::create_dir_all(&given).unwrap();
        let options = SolveOptions { proof_dir: Some(given.clone()), ..SolveOptions::default() };
        let search = Search::new(&inst, BackendKind::Sat, &options).unwrap();
        let (cnf, proof) = (given.join(PROOF_CNF), given.join(PROOF_LRAT));
        write_rejected(&cnf, &proof);
        let rejected = backend::sat::check_proof(&cnf, &proof).unwrap_err();
        assert_eq!(kept(search.keep_rejected(rejected, &cnf, &proof)), given);
        assert!(cnf.is_file() && proof.is_file());
        std::fs::remove_dir_all(&given).unwrap();
    }

    /// From the distance bound alone (3 on path(4)) and no incumbent, the search must gallop up
    /// and prove the optimum 4 (TE-1) itself: the certificate is the backend's infeasibility at 3,
    /// with a checked proof for the SAT backend.
    #[test]
    fn from_a_loose_bound_the_certificate_is_infeasibility_at_t_minus_1() {
        let inst = path4();
        for backend in BackendKind::available() {
            let distance = [Bound::new("distance", None, 3, "")];
            match solve(&inst, backend, &SolveOptions::default(), &distance, None).unwrap() {
                Outcome::Optimal { checked, certificate } => {
                    assert_eq!(checked.length(), 4, "{backend}");
                    let evidence = if backend == BackendKind::Sat {
                        Evidence::ProofChecked
                    } else {
                        Evidence::SolverWord
                    };
                    assert_eq!(
                        certificate,
                        Certificate::InfeasibleAtTMinus1 {
                            t: 3,
                            backend: backend.name(),
                            evidence,
                            relaxation: None
                        },
                        "{backend}"
                    );
                }
                Outcome::Bounds { stop, .. } => panic!("{backend}: stopped: {stop}"),
            }
        }
    }
}
