//! The ILP backend: good_lp with the embedded pure-Rust microlp solver (branch and bound over
//! a dual simplex). The default backend ([`crate::exact::default_backend`]).
//!
//! - Every variable is integer with finite bounds (microlp keeps integer bounds as `i32`; a
//!   bound outside that range is a backend error, not a silent clamp).
//! - A model without objective is given the zero objective: the first integer point found is
//!   then proven optimal, which is all a feasibility question needs. A search guide
//!   ([`Goal::Guide`]) is minimised with an unbounded relative MIP gap, so the search stops at
//!   its first integer point too, but the LP relaxations it dives through follow the guide
//!   (for total exchange, "wait as little as possible" finds schedules about ten times faster
//!   than the zero objective on path(10) and ring(9)). Infeasibility proofs are unaffected:
//!   the relaxations have the same feasible region.
//! - Time limit: microlp checks a wall-clock deadline inside its simplex and branch-and-bound
//!   loops (`SolveOptions::time_limit`, passed through good_lp's `WithTimeLimit`), so the call
//!   returns close to the limit (on models of ~10⁴ variables up to a few seconds late, between
//!   two deadline checks); no thread is left running. A limit that expires before any
//!   integer point is found comes back from good_lp as `ResolutionError::Other` and is reported
//!   as [`Unknown::Timeout`]; one that expires with an incumbent is a feasible answer whose
//!   objective is not proven optimal ([`Assignment::optimal`](super::Assignment::optimal) false).
//! - A good_lp solution counts as optimal only when its status is `Optimal`.

use super::{Backend, BackendAnswer, BackendKind, Limits, Unknown, accept};
use crate::error::{Error, Result};
use crate::exact::ir::{Domain, Goal, Program, Sense};

use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel, Variable,
    WithMipGap, WithTimeLimit, microlp, variable,
};

/// The relative MIP gap for a search guide: large enough that any integer point stops.
const GUIDE_GAP: f32 = 1e9;

/// The good_lp + microlp backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ilp;

fn backend_error(reason: impl Into<String>) -> Error {
    Error::Backend { backend: BackendKind::Ilp.name(), reason: reason.into() }
}

fn expression(terms: &[(i64, crate::exact::ir::VarId)], vars: &[Variable]) -> Expression {
    let mut e = Expression::with_capacity(terms.len());
    for &(c, v) in terms {
        e.add_mul(c as f64, vars[v.index()]);
    }
    e
}

impl Backend for Ilp {
    fn kind(&self) -> BackendKind {
        BackendKind::Ilp
    }

    fn solve(&self, model: &Program, limits: &Limits) -> Result<BackendAnswer> {
        if model.contradiction().is_some() {
            return Ok(BackendAnswer::Infeasible);
        }
        let fits = |x: i64| i32::try_from(x).is_ok();
        let mut problem = ProblemVariables::new();
        let mut vars = Vec::with_capacity(model.variables.len());
        for var in &model.variables {
            let def = match var.domain {
                Domain::Bool => variable().binary(),
                Domain::Int { lo, hi } => {
                    if !fits(lo) || !fits(hi) {
                        return Err(backend_error(format!(
                            "variable {} has bounds {lo}..={hi} outside microlp's i32 range",
                            var.name
                        )));
                    }
                    variable().integer().clamp(lo as f64, hi as f64)
                }
            };
            vars.push(problem.add(def));
        }
        let objective = model.objective.as_ref().map(|o| expression(&o.terms, &vars)).unwrap_or_default();
        let mut solver = problem.minimise(objective).using(microlp);
        if model.objective.as_ref().is_some_and(|o| o.goal == Goal::Guide) {
            solver = solver.with_mip_gap(GUIDE_GAP).map_err(|e| backend_error(e.to_string()))?;
        }
        if let Some(t) = limits.time {
            solver = solver.with_time_limit(t.as_secs_f64());
        }
        for c in &model.constraints {
            let lhs = expression(&c.terms, &vars);
            let rhs = c.rhs as f64;
            solver.add_constraint(match c.sense {
                Sense::Le => lhs.leq(rhs),
                Sense::Eq => lhs.eq(rhs),
                Sense::Ge => lhs.geq(rhs),
            });
        }
        match solver.solve() {
            Ok(solution) => {
                let optimal = model.is_feasibility() || matches!(solution.status(), SolutionStatus::Optimal);
                let values = vars.iter().map(|&v| solution.value(v).round() as i64).collect();
                accept(BackendKind::Ilp, model, values, optimal)
            }
            Err(ResolutionError::Infeasible) => Ok(BackendAnswer::Infeasible),
            // The only `Other` the microlp wrapper produces: the time limit expired before an
            // integer point was found.
            Err(ResolutionError::Other(_)) if limits.time.is_some() => {
                Ok(BackendAnswer::Unknown(Unknown::Timeout))
            }
            Err(e) => Err(backend_error(e.to_string())),
        }
    }
}
