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
//! model is built. A model over the guard, the first one at L included, ends the search as the
//! budget running out does, with the bounds [L, U] and [`StopReason::SizeGuard`] (when the
//! first model is over it, the relaxed walk below runs first, and may still raise L to U).
//!
//! **Restricted witness first.** When the encoder offers a restricted model
//! ([`encode::Variant::Restricted`]: gossip on a mesh or torus, restricted to schedules that
//! send every token along shortest paths and that its rotations, if any, map to themselves;
//! product, pipelined or in rounds where no channel binds, restricted to broadcasts that run
//! backwards with index ranges; prefix, restricted to payloads that are aligned blocks or
//! prefixes [0, x]) and the incumbent is above L, that model is asked for a
//! witness at L first, with half of the time left. A witness there is an optimum certified by
//! the bound; an infeasible or undecided answer is no evidence and the search goes on as above
//! (`--no-symmetry` skips it). Mesh 6×6 under H\* is settled this way at GOS-1's 21 in seconds.
//! When the search then stops at the size guard, the restricted model is bisected between L + 1
//! and the best length for a shorter witness: a better upper bound, never a certificate
//! (prefix on fat-tree:16 and :32, whose own model is too large: 17 steps on fat-tree:32 under
//! w = n, where the best algorithm takes 19).
//!
//! **Relaxation first.** When the encoder knows a relaxation ([`encode::Encoder::relaxation`]:
//! product and prefix reverse into a broadcast, pipelined, and in rounds where no channel
//! binds) and the incumbent is above L, the relaxed instance is searched first, by the same
//! backend within the same time budget. If it is certified by infeasibility at T′ − 1, so is
//! the instance: L = T′ and the certificate names the relaxation (`infeasible-at-T-1 (T-1 = 11
//! for the broadcast it reverses into (FT-24), ...)`); with the SAT backend its CNF and checked
//! proof are the relaxation's. Then a
//! restricted model that matches it (the product's reversible broadcasts) settles the
//! instance at once.
//!
//! **Relaxed model.** When the encoder has relaxed models of the instance itself
//! ([`encode::Variant::Relaxed`]: product and prefix on the fat-tree, with each message
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
//! and the walk gets what is left; the bounds then report the L it raised
//! (prefix on fat-tree:16 under w = 1: [17, 24]). They come first too when the own model fits
//! at L but not one step below the incumbent.
//!
//! **Proofs ([`backend::ProofTracing`]: the SAT backend).** Every probe of a backend that
//! traces proofs writes its proof (CaDiCaL's LRAT) into a temporary directory; the trace of the
//! last infeasible probe is kept, and checked only if that horizon ends up as U − 1, so an
//! infeasibility is never decided twice. Tracing slows the feasible probes down and spares a
//! second solve of the hardest one (`fat-tree:32` under w = 1: 33 s instead of 64 s;
//! docs/guide.md, "Exact backends compared").
//!
//! **Incremental across horizons ([`backend::Incremental`]: the SAT backend).** Once
//! U − L ≤ [`DESCENT_WINDOW`] and the encoder is horizon-monotone
//! ([`encode::Encoder::last_step`]: total exchange, bufferless starts, the fat-tree models,
//! gossip under F1 and H1), the remaining horizons are decided in one CaDiCaL
//! ([`backend::Incremental::descend`]): the model at U − 1 with makespan literals, each
//! witness of makespan m followed by the unit clause "length ≤ m − 1", the learnt clauses
//! kept, until unsatisfiable (L = the last makespan) or L is met. Every witness is checked
//! here as it arrives. The session traces its proof too (with CaDiCaL's clause-eliminating
//! techniques off, whose clauses an incremental session would restore outside the proof): its
//! CNF is the model at U − 1, its makespan clauses and those units, marked with the model's
//! horizon, and `verify` re-encodes exactly that (docs/spec.md §7). A session proof that fails
//! the LRAT check (it happens: the checker has rejected two) is dropped, and T − 1 is proved by
//! a fresh solve with a proof. Gossip under F\* and H\* keeps fresh probes: its counting
//! cuts (`idle`, `busy`) hold at one horizon only.
//!
//! Building a model and a backend's own setup are not interruptible, and a backend checks its
//! time limit only now and then, so under a deadline a probe (encoding and solving) runs on its
//! own thread and is abandoned when the deadline passes: the search answers `timeout` at once
//! and the abandoned thread ends at its backend's time limit, its answer unused.
//!
//! The search is one module per phase (bisection, descent, the restricted and relaxed walks,
//! the relaxation, the size guard, proofs, temporary directories, the outcome); it asks a
//! backend for its capabilities ([`Backend::as_proof_tracing`], [`Backend::as_incremental`])
//! and never names one.

pub mod backend;
pub mod cnf;
pub mod decision;
pub mod encode;
pub mod export;
pub mod ir;
pub mod pareto;
mod search;

pub use backend::{Aim, Backend, BackendAnswer, BackendKind, Limits};
pub use export::{export, model_file};
pub use search::remove_temporary_proofs;

use crate::bounds::Bound;
use crate::certify::Certificate;
use crate::checker::Checked;
use crate::error::{Error, InputError, Result};
use crate::spec::Instance;
use encode::Variant;
use search::Search;
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

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
    /// Ask the encoder's restricted model ([`encode::Variant::Restricted`]) for a witness at
    /// the lower bound before anything else (module documentation, "Search").
    pub symmetric: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self { timeout: None, max_variables: DEFAULT_MAX_VARIABLES, proof_dir: None, symmetric: true }
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
pub(crate) fn model_comment(instance: &Instance, model: &str, horizon: u64) -> String {
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
    /// The model at `horizon` would have `variables` variables, over the guard `limit`: the
    /// first model, at the lower bound, or a later one. Reports written before `at_least`,
    /// `horizon` and `restricted` existed still read, with false, 0 and none.
    SizeGuard {
        /// Variables the model needs: its count, or a lower estimate of it when `at_least`.
        variables: usize,
        /// Whether `variables` is the encoder's cheap lower estimate
        /// ([`encode::Encoder::min_variables`]), over the guard already, not the count itself.
        #[serde(default)]
        at_least: bool,
        /// The model's horizon T.
        #[serde(default)]
        horizon: u64,
        /// The schedules the model was restricted to ([`encode::Variants::restricted`]), when
        /// it was the restricted model: even that one is too large.
        #[serde(default)]
        restricted: Option<String>,
        /// The guard.
        limit: usize,
    },
    /// The model that keeps a prefix ([`encode::Encoding::keep`]) is infeasible at `horizon`:
    /// no schedule of that length completes the first `keep` steps given. The restriction
    /// makes this no evidence about the instance.
    NoCompletion {
        /// K: the steps kept.
        keep: u64,
        /// The horizon decided.
        horizon: u64,
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
            StopReason::SizeGuard { variables, at_least, horizon, restricted, limit } => write!(
                f,
                "size guard: the model at horizon T = {horizon} needs {}{variables} variables{}, over {limit} (raise --max-vars)",
                if *at_least { "at least " } else { "" },
                restricted.as_ref().map_or(String::new(), |r| format!(" even restricted to {r}")),
            ),
            StopReason::NoCompletion { keep, horizon } => write!(
                f,
                "no schedule of at most {horizon} steps keeps the first {keep} steps given (a restriction: no evidence about the instance)"
            ),
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
    search.probe(horizon, Variant::Full)
}

/// Finds a certified optimum (module documentation, "Search"), starting from the lower bounds
/// `bounds` (usually [`crate::bounds::lower_bounds`]) and the caller's `incumbent`, if it has one.
///
/// A model over the size guard `options.max_variables`, the first one at the lower bound or a
/// later one, stops the search as running out of time does: [`Outcome::Bounds`] (the proven
/// lower bound, the best checked schedule) with [`StopReason::SizeGuard`].
///
/// Errors: [`Error::NotApplicable`] for instances no encoder supports; [`Error::Input`] (file
/// left empty for the caller to fill, field `network`) when some item cannot reach its target at
/// all; [`Error::Backend`] when a backend misbehaves, [`Error::Rejected`] when its witness fails
/// the checker.
pub fn solve(
    instance: &Instance,
    backend: BackendKind,
    options: &SolveOptions,
    bounds: &[Bound],
    incumbent: Option<Checked>,
) -> Result<Outcome> {
    let search = Search::new(instance, backend, options)?;
    if let Some(reason) = search.encoder.impossible() {
        return Err(no_schedule(reason));
    }
    search.run(bounds, incumbent)
}

/// The error for an instance that has no schedule at all, `reason` being why (an item that
/// cannot reach its target, a round budget below what a bound needs): an input error on its
/// network (file left empty for the caller to fill).
pub fn no_schedule(reason: String) -> Error {
    Error::Input(InputError::new("", "network", format!("{reason}: no schedule exists")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certify::Evidence;
    use crate::checker::{Producer, accept};
    use crate::spec::{Mode, Model, Network, PortRule, Problem, RingTie};

    /// A size-guard stop in a report of an older build, which had only the two counts, reads.
    #[test]
    fn an_older_size_guard_stop_reads() {
        let stop: StopReason =
            serde_json::from_str(r#"{"kind": "size-guard", "variables": 60, "limit": 5}"#).unwrap();
        assert_eq!(
            stop,
            StopReason::SizeGuard { variables: 60, at_least: false, horizon: 0, restricted: None, limit: 5 }
        );
    }

    pub(super) fn path4() -> Instance {
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

    /// The certificate of path(4)'s optimum 4 when `backend` refutes T = 3: a checked proof
    /// from SAT, the solver's word from the others.
    fn refuted_three(backend: BackendKind) -> Certificate {
        let evidence =
            if backend == BackendKind::Sat { Evidence::ProofChecked } else { Evidence::SolverWord };
        Certificate::InfeasibleAtTMinus1 { t: 3, backend: backend.name(), evidence, relaxation: None }
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
        let encoding = encoder.model(6, Variant::Full).unwrap();
        assert!(encoding.ends(encoder.as_ref()).is_some_and(|ends| ends.len() == encoding.events.len()));
        let distance = [Bound::new("distance", None, 3, "")];
        for backend in BackendKind::available() {
            let padded = padded_incumbent(&inst, backend);
            let outcome = solve(&inst, backend, &SolveOptions::default(), &distance, Some(padded)).unwrap();
            let Outcome::Optimal { checked, certificate } = outcome else { panic!("{backend}: {outcome:?}") };
            assert_eq!(checked.length(), 4, "{backend}");
            assert_eq!(certificate, refuted_three(backend));
        }
    }

    /// The certificate folder of a SAT descent: its CNF is the model at H = 6 with makespan
    /// literals and the units the descent added, ending with ¬g_4 (length ≤ 3), and `verify`
    /// accepts it; it rejects the proof truncated, the last unit made ¬g_3 (which would also
    /// exclude length 3, the certificate's own claim being about T − 1 = 3 only), and the CNF
    /// without the line that names the model's horizon.
    #[test]
    fn a_descents_certificate_folder_verifies() {
        if !BackendKind::Sat.backend().is_ok_and(|b| b.as_incremental().is_some()) {
            return; // a build without the SAT backend
        }
        let inst = path4();
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let options = SolveOptions { proof_dir: Some(dir.clone()), ..SolveOptions::default() };
        let distance = [Bound::new("distance", None, 3, "")];
        let padded = padded_incumbent(&inst, BackendKind::Sat);
        let outcome = solve(&inst, BackendKind::Sat, &options, &distance, Some(padded)).unwrap();
        let Outcome::Optimal { checked, certificate } = outcome else { panic!("{outcome:?}") };
        crate::folder::write(&dir, &inst, &checked, &certificate, &distance, 0.0).unwrap();
        let cnf_path = dir.join(PROOF_CNF);
        let cnf = std::fs::read_to_string(&cnf_path).unwrap();
        assert!(cnf.contains(&format!("c {}6\n", cnf::DESCENT_MARKER)), "{}", &cnf[..200]);
        assert_eq!(crate::folder::verify(&dir).unwrap(), Vec::<String>::new());
        let lines: Vec<&str> = cnf.lines().collect();
        let last = lines.last().unwrap().to_string();
        let tamper = |text: String, check: &dyn Fn(&[String])| {
            std::fs::write(&cnf_path, text).unwrap();
            check(&crate::folder::verify(&dir).unwrap());
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
        assert!(!crate::folder::verify(&dir).unwrap().is_empty(), "a truncated proof accepted");
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
                    assert_eq!(certificate, refuted_three(backend), "{backend}");
                }
                Outcome::Bounds { stop, .. } => panic!("{backend}: stopped: {stop}"),
            }
        }
    }
}
