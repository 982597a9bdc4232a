//! The SMT backend: z3 (the system libz3) through the `z3` crate's thread-local context.
//!
//! - Boolean variables become `Bool` constants, integer variables `Int` constants with their
//!   bounds asserted.
//! - A constraint over booleans only (with coefficients and right-hand side in `i32`) becomes a
//!   native pseudo-boolean constraint (`Z3_mk_pble` / `pbge` / `pbeq`), which z3 handles far
//!   better than the same sum written with `ite`; any other constraint is linear integer
//!   arithmetic with `(ite b c 0)` for a boolean term. [`mod@crate::exact::export`] writes the
//!   arithmetic form for every constraint, so that a `.smt2` file is plain SMT-LIB2.
//! - A model with an objective to minimise is given to z3's `Optimize`, otherwise to a plain
//!   `Solver` (a search guide is ignored: z3's `Optimize` would prove it minimal).
//! - A refutation ([`Aim::Refutation`]: a relaxed model, built to be infeasible) over booleans
//!   only goes to z3's solver for the finite-domain logic `QF_FD` (`refute`): its SAT core
//!   with native cardinality and pseudo-boolean constraints, which refutes the fat-tree
//!   knowledge relaxations far sooner than the SMT core (fat-tree:16 prefix under w = 1: up to
//!   horizon 16 in 44 s, where the SMT core reaches 14–15 in 60 s; docs/results.md,
//!   "Fat-tree exact optima"). Its parallel portfolio (z3's global `sat.threads`, one thread per
//!   core, set once per process and read by no other engine) halves or better the hard
//!   refutations on two cores: the same prefix under log n + 1 at horizon 12 in 45–55 s instead
//!   of about 200 s (measured before the fat-tree cuts); `report --jobs` above 1 then
//!   shares the cores. A relaxation that turns out feasible costs it more (the same prefix under
//!   w = n at horizon 12: 28–41 s against 13 s), and witness searches stay on the SMT core,
//!   which finds the gossip witnesses far sooner (mesh 6×6: 6 s against 243 s in `QF_FD`).
//! - Time limit: z3's `timeout` parameter (milliseconds); z3 stops by itself and answers
//!   `unknown` with reason `timeout` or `canceled`, reported as [`Unknown::Timeout`].

use super::{Aim, Backend, BackendAnswer, BackendKind, Limits, Unknown, accept};
use crate::error::{Error, Result};
use crate::exact::ir::{Constraint, Domain, Goal, Program, Sense, VarId};
use std::time::Duration;
use z3::ast::{Bool, Int};
use z3::{Optimize, Params, SatResult, Solver};

/// The z3 backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Smt;

/// A model variable as a z3 constant.
enum Const {
    Bool(Bool),
    Int(Int),
}

impl Const {
    /// The variable as an integer term (`(ite b 1 0)` for a boolean), times `coeff`.
    fn times(&self, coeff: i64) -> Int {
        let c = Int::from_i64(coeff);
        match self {
            Const::Bool(b) => b.ite(&c, &Int::from_i64(0)),
            Const::Int(x) => Int::mul(&[x.clone(), c]),
        }
    }
}

/// The z3 formula of one constraint.
fn formula(c: &Constraint, consts: &[Const]) -> Bool {
    let small = |x: i64| i32::try_from(x).ok();
    let pb: Option<Vec<(&Bool, i32)>> = c
        .terms
        .iter()
        .map(|&(k, v)| match (&consts[v.index()], small(k)) {
            (Const::Bool(b), Some(k)) => Some((b, k)),
            _ => None,
        })
        .collect();
    if let (Some(pb), Some(rhs)) = (pb, small(c.rhs))
        && !pb.is_empty()
    {
        return match c.sense {
            Sense::Le => Bool::pb_le(&pb, rhs),
            Sense::Eq => Bool::pb_eq(&pb, rhs),
            Sense::Ge => Bool::pb_ge(&pb, rhs),
        };
    }
    let lhs = linear(&c.terms, consts);
    let rhs = Int::from_i64(c.rhs);
    match c.sense {
        Sense::Le => lhs.le(&rhs),
        Sense::Eq => lhs.eq(&rhs),
        Sense::Ge => lhs.ge(&rhs),
    }
}

fn linear(terms: &[(i64, VarId)], consts: &[Const]) -> Int {
    let parts: Vec<Int> = terms.iter().map(|&(k, v)| consts[v.index()].times(k)).collect();
    if parts.is_empty() { Int::from_i64(0) } else { Int::add(&parts) }
}

/// z3's `timeout` parameter (milliseconds) for `time`.
fn timeout(time: Option<Duration>) -> Params {
    let mut params = Params::new();
    if let Some(t) = time {
        params.set_u32("timeout", u32::try_from(t.as_millis()).unwrap_or(u32::MAX).max(1));
    }
    params
}

/// One z3 answer: the result, its model and its reason for an `unknown`.
type Answer = (SatResult, Option<z3::Model>, Option<String>);

/// `solver` on `assertions` within `time`.
fn check(solver: Solver, assertions: &[Bool], time: Option<Duration>) -> Answer {
    solver.set_params(&timeout(time));
    for a in assertions {
        solver.assert(a);
    }
    let r = solver.check();
    (r, solver.get_model(), solver.get_reason_unknown())
}

/// The most threads a refutation's SAT portfolio runs on.
const MAX_REFUTATION_THREADS: usize = 4;

/// A boolean model built to be infeasible, to the `QF_FD` solver (module documentation), whose
/// SAT core runs a portfolio of one thread per core (at most [`MAX_REFUTATION_THREADS`]).
fn refute(assertions: &[Bool], time: Option<Duration>) -> Result<Answer> {
    static PORTFOLIO: std::sync::Once = std::sync::Once::new();
    PORTFOLIO.call_once(|| {
        let threads = std::thread::available_parallelism().map_or(1, usize::from).min(MAX_REFUTATION_THREADS);
        z3::set_global_param("sat.threads", &threads.to_string());
    });
    let solver = Solver::new_for_logic("QF_FD")
        .ok_or_else(|| backend_error("z3 has no solver for the logic QF_FD"))?;
    Ok(check(solver, assertions, time))
}

fn backend_error(reason: impl Into<String>) -> Error {
    Error::Backend { backend: BackendKind::Smt.name(), reason: reason.into() }
}

impl Backend for Smt {
    fn kind(&self) -> BackendKind {
        BackendKind::Smt
    }

    fn solve(&self, model: &Program, limits: &Limits) -> Result<BackendAnswer> {
        if model.contradiction().is_some() {
            return Ok(BackendAnswer::Infeasible);
        }
        let consts: Vec<Const> = model
            .variables
            .iter()
            .map(|v| match v.domain {
                Domain::Bool => Const::Bool(Bool::new_const(v.name.as_str())),
                Domain::Int { .. } => Const::Int(Int::new_const(v.name.as_str())),
            })
            .collect();
        let mut assertions = Vec::with_capacity(model.constraints.len() + consts.len());
        for (v, c) in model.variables.iter().zip(&consts) {
            if let (Domain::Int { lo, hi }, Const::Int(x)) = (v.domain, c) {
                assertions.push(x.ge(Int::from_i64(lo)));
                assertions.push(x.le(Int::from_i64(hi)));
            }
        }
        assertions.extend(model.constraints.iter().map(|c| formula(c, &consts)));
        let minimise = model.objective.as_ref().filter(|o| o.goal == Goal::Minimise);
        let (result, z3_model, reason) = match minimise {
            None => {
                let booleans = model.variables.iter().all(|v| v.domain == Domain::Bool);
                if limits.aim == Aim::Refutation && booleans {
                    refute(&assertions, limits.time)?
                } else {
                    check(Solver::new(), &assertions, limits.time)
                }
            }
            Some(objective) => {
                let opt = Optimize::new();
                opt.set_params(&timeout(limits.time));
                for a in &assertions {
                    opt.assert(a);
                }
                opt.minimize(&linear(&objective.terms, &consts));
                let r = opt.check(&[]);
                (r, opt.get_model(), opt.get_reason_unknown())
            }
        };
        match result {
            SatResult::Unsat => Ok(BackendAnswer::Infeasible),
            SatResult::Unknown => {
                let reason = reason.unwrap_or_else(|| "unknown".into());
                Ok(BackendAnswer::Unknown(if reason.contains("timeout") || reason.contains("canceled") {
                    Unknown::Timeout
                } else {
                    Unknown::Other(format!("z3 answered unknown: {reason}"))
                }))
            }
            SatResult::Sat => {
                let m = z3_model.ok_or_else(|| backend_error("z3 answered sat without a model"))?;
                let values = consts
                    .iter()
                    .map(|c| match c {
                        Const::Bool(b) => m.eval(b, true).and_then(|x| x.as_bool()).map(i64::from),
                        Const::Int(x) => m.eval(x, true).and_then(|x| x.as_i64()),
                    })
                    .collect::<Option<Vec<i64>>>()
                    .ok_or_else(|| backend_error("z3's model leaves a variable without a value"))?;
                accept(BackendKind::Smt, model, values, true)
            }
        }
    }
}
