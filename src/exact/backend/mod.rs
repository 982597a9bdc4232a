//! Solver backends (small trait impls, in the manner of good_lp's solvers): each reads an
//! [`ir::Program`](super::ir::Program) and answers feasible (with an assignment), infeasible, or
//! unknown (with the reason, as data). The default is [`BackendKind::Ilp`]
//! ([`super::default_backend`]).
//!
//! Every backend takes a wall-clock limit ([`Limits::time`]: interruption at a deadline) and
//! minimises an objective (the SAT backend by descent over objective bounds): that is
//! [`Backend`] itself. What only some backends can do is a capability trait, which a backend
//! implements and hands out through [`Backend`] (as rustsat's solvers implement `Solve`,
//! `SolveIncremental` and `Terminate`): [`ProofTracing`] (a proof of infeasibility that
//! commsched checks itself) and [`Incremental`] (one solver across horizons). The search asks
//! for them ([`Backend::as_proof_tracing`], [`Backend::as_incremental`]) and never names a
//! backend.

pub mod ilp;
#[cfg(feature = "sat")]
pub mod sat;
#[cfg(feature = "smt")]
pub mod smt;

use super::ir::{Program, VarId};
use crate::error::Result;
use std::fmt;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The backends known to the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendKind {
    /// Integer programming: good_lp with the embedded pure-Rust microlp solver.
    Ilp,
    /// Satisfiability modulo theories: z3 (the system libz3). Its models can always be exported
    /// as `.smt2`; solving needs the `smt` cargo feature (on by default).
    Smt,
    /// Satisfiability: CaDiCaL on the model's CNF ([`crate::exact::cnf`]), with LRAT proofs of
    /// infeasibility that commsched checks itself. Its models can always be exported as `.cnf`;
    /// solving needs the `sat` cargo feature (opt-in: `--features sat`).
    Sat,
}

impl BackendKind {
    /// Every backend the tool knows, whether or not this build can solve with it.
    pub const ALL: [BackendKind; 3] = [BackendKind::Ilp, BackendKind::Smt, BackendKind::Sat];

    /// The backends this build can solve with (`smt` and `sat` need their cargo features).
    pub fn available() -> Vec<BackendKind> {
        Self::ALL.into_iter().filter(|b| b.backend().is_ok()).collect()
    }

    /// `ilp`, `smt` or `sat`.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Ilp => "ilp",
            BackendKind::Smt => "smt",
            BackendKind::Sat => "sat",
        }
    }

    /// Parses `ilp`, `smt` or `sat`.
    pub fn parse(s: &str) -> std::result::Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| format!("unknown backend `{s}` (known: ilp, smt, sat)"))
    }

    /// The backend itself, or [`crate::Error::Backend`] when this build does not include it.
    pub fn backend(self) -> Result<&'static dyn Backend> {
        match self {
            BackendKind::Ilp => Ok(&ilp::Ilp),
            #[cfg(feature = "smt")]
            BackendKind::Smt => Ok(&smt::Smt),
            #[cfg(not(feature = "smt"))]
            BackendKind::Smt => Err(crate::Error::Backend {
                backend: "smt",
                reason: "this build of commsched has no z3: rebuild with the `smt` feature (on by default)"
                    .into(),
            }),
            #[cfg(feature = "sat")]
            BackendKind::Sat => Ok(&sat::Sat),
            #[cfg(not(feature = "sat"))]
            BackendKind::Sat => Err(crate::Error::Backend {
                backend: "sat",
                reason:
                    "this build of commsched has no CaDiCaL: rebuild with the `sat` feature (on by default)"
                        .into(),
            }),
        }
    }

    /// The suffix of its exported model files (`models/<instance>.<backend>.lp|smt2|cnf`):
    /// `ilp.lp` (CPLEX LP), `smt.smt2` (SMT-LIB2) or `sat.cnf` (DIMACS CNF).
    pub fn file_extension(self) -> &'static str {
        match self {
            BackendKind::Ilp => "ilp.lp",
            BackendKind::Smt => "smt.smt2",
            BackendKind::Sat => "sat.cnf",
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Limits of one backend call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget; `None` = unlimited.
    pub time: Option<Duration>,
    /// What the call is for: a backend may pick its engine by it (the answer means the same).
    pub aim: Aim,
}

/// What a backend call is for. Either way the answer is a decision of the same model; the aim
/// only lets a backend with several engines choose the one that suits it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Aim {
    /// A witness is wanted, or the answer is open (an exact model at a horizon).
    #[default]
    Witness,
    /// The model is built to be infeasible: a relaxation whose refutation raises a lower bound
    /// (its feasible answers are no evidence and are never decoded).
    Refutation,
}

/// A satisfying assignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// One value per model variable (booleans as 0/1), already checked against the model with
    /// [`Program::first_violation`].
    pub values: Vec<i64>,
    /// Whether the answer is complete: the objective is proven minimal, or the model is a
    /// feasibility question ([`Program::is_feasibility`]).
    pub optimal: bool,
}

/// Why a backend could not decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unknown {
    /// The time limit ran out.
    Timeout,
    /// The backend gave up for another reason (its own words).
    Other(String),
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unknown::Timeout => f.write_str("time limit reached"),
            Unknown::Other(r) => f.write_str(r),
        }
    }
}

/// A backend's answer on one model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackendAnswer {
    /// The model is satisfiable; here is an assignment.
    Feasible(Assignment),
    /// The backend proved the model unsatisfiable.
    Infeasible,
    /// Undecided.
    Unknown(Unknown),
}

/// A solver backend.
pub trait Backend: Sync {
    /// Which backend this is.
    fn kind(&self) -> BackendKind;

    /// Decides the model within the limits. A model with a [`Program::contradiction`] is
    /// infeasible without a search. An `Err` means the backend misbehaved (e.g. returned an
    /// assignment that breaks the model).
    fn solve(&self, model: &Program, limits: &Limits) -> Result<BackendAnswer>;

    /// Its proofs of infeasibility, if it traces any (`None`, the default: its word only).
    fn as_proof_tracing(&self) -> Option<&dyn ProofTracing> {
        None
    }

    /// Its incremental solving across horizons, if it has any (`None`, the default).
    fn as_incremental(&self) -> Option<&dyn Incremental> {
        None
    }
}

/// Where a traced solve writes the model's CNF (DIMACS, `comment` on top) and its proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofTrace {
    /// The comment line on top of the CNF: the tool, the instance, the model and its horizon.
    pub comment: String,
    /// The CNF file.
    pub cnf: PathBuf,
    /// The proof file.
    pub proof: PathBuf,
}

/// A backend that proves infeasibility with a proof that commsched checks itself (the SAT
/// backend: CaDiCaL's LRAT, checked by [`crate::proof::lrat`]; docs/spec.md §7).
pub trait ProofTracing: Sync {
    /// Decides the feasibility of `model` (its objective ignored) with a proof tracer: writes
    /// the CNF and, whatever the answer, the proof to `trace`. The proof is not checked here.
    fn trace(&self, model: &Program, limits: &Limits, trace: &ProofTrace) -> Result<BackendAnswer>;

    /// Checks the proof that [`ProofTracing::trace`] wrote against its CNF; a proof that fails
    /// the check is [`crate::Error::Backend`].
    fn check(&self, cnf: &Path, proof: &Path) -> Result<()>;

    /// [`ProofTracing::trace`], then [`ProofTracing::check`] when the answer is infeasible: an
    /// infeasible answer has a checked proof.
    fn refute(&self, model: &Program, limits: &Limits, trace: &ProofTrace) -> Result<BackendAnswer> {
        let answer = self.trace(model, limits, trace)?;
        if answer == BackendAnswer::Infeasible {
            self.check(&trace.cnf, &trace.proof)?;
        }
        Ok(answer)
    }
}

/// How a [`Incremental::descend`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Descent {
    /// No assignment has a makespan below `below` (the solver's word): no schedule has length
    /// ≤ `below` − 1.
    Infeasible {
        /// The least makespan left.
        below: u64,
    },
    /// A model's makespan met the floor (a proven lower bound): nothing shorter to look for.
    Floor,
    /// Undecided.
    Unknown(Unknown),
}

/// A backend that decides several horizons in one incremental solver, the clauses it learnt
/// kept (module [`crate::exact`], "Incremental across horizons").
pub trait Incremental: Sync {
    /// Descends over `horizons` from the model at the last, H, of a horizon-monotone encoder
    /// ([`crate::exact::encode::Encoder::last_step`]; `ends` = each event variable and its
    /// last step): each assignment found, of makespan m, is handed to `found` (its values
    /// checked against the model), and then a schedule of length ≤ m − 1 is asked for. It ends
    /// when a makespan meets the first of `horizons` (a proven lower bound), when no shorter
    /// schedule exists, or at the time limit. With `trace`, the session traces a proof of its
    /// last answer (unchecked), whose CNF is the model at H with what the descent added,
    /// marked with H ([`crate::exact::cnf::DESCENT_MARKER`]).
    fn descend(
        &self,
        model: &Program,
        ends: &[(VarId, u64)],
        horizons: RangeInclusive<u64>,
        limits: &Limits,
        trace: Option<&ProofTrace>,
        found: &mut dyn FnMut(Vec<i64>, u64),
    ) -> Result<Descent>;
}

/// Shared by the backends: checks a raw assignment against the model and wraps it, or reports
/// the backend's fault.
fn accept(kind: BackendKind, model: &Program, values: Vec<i64>, optimal: bool) -> Result<BackendAnswer> {
    Ok(BackendAnswer::Feasible(Assignment { values: satisfying(kind, model, values)?, optimal }))
}

/// The raw assignment if it satisfies the model, else the backend's fault.
fn satisfying(kind: BackendKind, model: &Program, values: Vec<i64>) -> Result<Vec<i64>> {
    match model.first_violation(&values) {
        None => Ok(values),
        Some(v) => Err(crate::Error::Backend {
            backend: kind.name(),
            reason: format!("returned an assignment that breaks the model: {v}"),
        }),
    }
}

/// Pigeonhole: booleans p_ij, each pigeon in some hole, at most one pigeon per hole;
/// unsatisfiable exactly when there are more pigeons than holes (a test model of every backend).
#[cfg(test)]
pub(crate) fn pigeonhole(pigeons: usize, holes: usize) -> Program {
    use crate::exact::ir::{Linear, Sense};
    let mut m = Program::new(format!("pigeonhole {pigeons} into {holes}"));
    let p: Vec<Vec<_>> =
        (0..pigeons).map(|i| (0..holes).map(|j| m.bool_var(format!("p_{i}_{j}"))).collect()).collect();
    for (i, row) in p.iter().enumerate() {
        m.constrain(format!("pigeon_{i}"), &Linear::sum(row), Sense::Ge, 1);
    }
    for j in 0..holes {
        let col: Vec<_> = p.iter().map(|r| r[j]).collect();
        m.constrain(format!("hole_{j}"), &Linear::sum(&col), Sense::Le, 1);
    }
    m
}

#[cfg(test)]
mod tests {
    //! One suite for both backends (as rustsat tests its solvers).
    use super::*;
    use crate::exact::ir::{Linear, Sense, VarId};

    /// min 3a + 4b s.t. a + 2b ≥ 5, 3a + b ≥ 4, a, b ∈ 0..=10. By b: b = 0 needs a = 5 (15),
    /// b = 1 needs a = 3 (13), b = 2 needs a = 1 (11), b = 3 needs a = 1 (15), b = 4 (16):
    /// the optimum is 11 at (1, 2).
    fn knapsack() -> Program {
        let mut m = Program::new("small integer program");
        let a = m.int_var("a", 0, 10);
        let b = m.int_var("b", 0, 10);
        let mut c1 = Linear::new();
        c1.add(1, a).add(2, b);
        m.constrain("c1", &c1, Sense::Ge, 5);
        let mut c2 = Linear::new();
        c2.add(3, a).add(1, b);
        m.constrain("c2", &c2, Sense::Ge, 4);
        let mut obj = Linear::new();
        obj.add(3, a).add(4, b);
        m.minimise(&obj);
        m
    }

    /// x + y + z = 2 over booleans with x + y ≤ 1 and y = z: y = z = 0 would need x = 2, so
    /// the only answer is x = 0, y = z = 1.
    fn booleans() -> (Program, [VarId; 3]) {
        let mut m = Program::new("booleans");
        let x = m.bool_var("x");
        let y = m.bool_var("y");
        let z = m.bool_var("z");
        let mut sum = Linear::new();
        sum.add(1, x).add(1, y).add(1, z);
        m.constrain("sum", &sum, Sense::Eq, 2);
        let mut xy = Linear::new();
        xy.add(1, x).add(1, y);
        m.constrain("xy", &xy, Sense::Le, 1);
        let mut yz = Linear::new();
        yz.add(1, y).add(-1, z);
        m.constrain("yz", &yz, Sense::Eq, 0);
        (m, [x, y, z])
    }

    #[test]
    fn every_backend_minimises_the_small_integer_program() {
        for kind in BackendKind::available() {
            let m = knapsack();
            let BackendAnswer::Feasible(a) = kind.backend().unwrap().solve(&m, &Limits::default()).unwrap()
            else {
                panic!("{kind}: feasible expected");
            };
            assert!(a.optimal, "{kind}");
            assert_eq!(m.objective_value(&a.values), 11, "{kind}");
        }
    }

    #[test]
    fn every_backend_finds_the_unique_boolean_answer() {
        for kind in BackendKind::available() {
            let BackendAnswer::Feasible(a) =
                kind.backend().unwrap().solve(&booleans().0, &Limits::default()).unwrap()
            else {
                panic!("{kind}: feasible expected");
            };
            assert_eq!(a.values, vec![0, 1, 1], "{kind}");
        }
    }

    /// A guide that points away from the only answer (it would prefer y = 0) still leaves a
    /// feasibility question: the answer is the feasible point, complete.
    #[test]
    fn a_guide_keeps_the_feasibility_question() {
        for kind in BackendKind::available() {
            let (mut m, [_, y, _]) = booleans();
            let mut hint = Linear::new();
            hint.add(1, y);
            m.guide(&hint);
            assert!(m.is_feasibility());
            let BackendAnswer::Feasible(a) = kind.backend().unwrap().solve(&m, &Limits::default()).unwrap()
            else {
                panic!("{kind}: feasible expected");
            };
            assert_eq!((a.values, a.optimal), (vec![0, 1, 1], true), "{kind}");
        }
    }

    /// The aim picks an engine (z3's `QF_FD` solver for a boolean refutation), never the answer:
    /// every backend decides the same models the same way under both aims, and a feasible
    /// answer under either is checked against the model.
    #[test]
    fn the_aim_never_changes_an_answer() {
        for kind in BackendKind::available() {
            for aim in [Aim::Witness, Aim::Refutation] {
                let limits = Limits { aim, ..Limits::default() };
                let solve = |m: &Program| kind.backend().unwrap().solve(m, &limits).unwrap();
                assert_eq!(solve(&pigeonhole(6, 5)), BackendAnswer::Infeasible, "{kind} {aim:?}");
                let BackendAnswer::Feasible(a) = solve(&pigeonhole(5, 5)) else {
                    panic!("{kind} {aim:?}: five pigeons fit five holes");
                };
                assert_eq!(a.values.iter().sum::<i64>(), 5, "{kind} {aim:?}");
                let BackendAnswer::Feasible(a) = solve(&booleans().0) else {
                    panic!("{kind} {aim:?}: feasible expected");
                };
                assert_eq!(a.values, vec![0, 1, 1], "{kind} {aim:?}");
                let BackendAnswer::Feasible(a) = solve(&knapsack()) else {
                    panic!("{kind} {aim:?}: feasible expected");
                };
                assert_eq!(knapsack().objective_value(&a.values), 11, "{kind} {aim:?}");
            }
        }
    }

    #[test]
    fn every_backend_proves_infeasibility_and_reads_contradictions() {
        for kind in BackendKind::available() {
            let (mut m, [x_var, ..]) = booleans();
            let mut x = Linear::new();
            x.add(1, x_var);
            m.constrain("x_one", &x, Sense::Ge, 1);
            assert_eq!(
                kind.backend().unwrap().solve(&m, &Limits::default()).unwrap(),
                BackendAnswer::Infeasible,
                "{kind}"
            );
            let (mut c, _) = booleans();
            c.constrain("never", &Linear::new(), Sense::Ge, 1);
            assert_eq!(
                kind.backend().unwrap().solve(&c, &Limits::default()).unwrap(),
                BackendAnswer::Infeasible,
                "{kind}"
            );
        }
    }

    #[test]
    fn backend_names_parse_back() {
        for kind in BackendKind::ALL {
            assert_eq!(BackendKind::parse(kind.name()), Ok(kind));
        }
        for kind in BackendKind::available() {
            assert_eq!(kind.backend().unwrap().kind(), kind);
        }
        assert!(BackendKind::parse("cbc").unwrap_err().contains("known: ilp, smt, sat"));
    }
}
