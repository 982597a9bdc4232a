//! The SAT backend: CaDiCaL (through `rustsat-cadical`) on the model's CNF
//! ([`CnfModel`]: order-encoded integers, rustsat's cardinality and pseudo-boolean encodings).
//!
//! - A feasibility question (no objective, or a search guide, which SAT ignores) is one solve.
//! - An objective to minimise is solved by descent: after each model of value v the clauses of
//!   `objective ≤ v − 1` are added to the same (incremental) solver, until it answers
//!   unsatisfiable (the last model is optimal) or the time runs out (the last model is
//!   returned, not optimal).
//! - Across horizons ([`Incremental`]): `descend` decides the last few horizons of a search in
//!   one solver, on the model at the largest with makespan literals ([`CnfModel::makespan`]).
//! - Time limit: a terminator callback that CaDiCaL polls; an interrupted solve is
//!   [`Unknown::Timeout`].
//! - Proofs ([`ProofTracing`]): [`ProofTracing::refute`] decides a model afresh with a proof
//!   tracer connected to CaDiCaL, writes the DIMACS CNF and the ASCII LRAT proof, and accepts
//!   the answer "infeasible" only once [`lrat::check`] (which shares nothing with CaDiCaL) has
//!   verified the proof against the CNF (docs/spec.md §7). The tracer (`LratWriter`) renumbers CaDiCaL's clause ids: CaDiCaL
//!   gives ids to clauses it derives while the input is still being added, so its own ids of
//!   input clauses are not their positions in the file, as LRAT requires.

use super::{
    Backend, BackendAnswer, BackendKind, Descent, Incremental, Limits, ProofTrace, ProofTracing, Unknown,
    accept, satisfying,
};
use crate::error::{Error, Result};
use crate::exact::cnf::{CnfModel, DESCENT_MARKER};
use crate::exact::ir::{Goal, Program, Sense, VarId};
use crate::proof::lrat;
use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
use rustsat::types::{Clause, Lit, TernaryVal};
use rustsat_cadical::{CaDiCaL, Config};
use rustsat_cadical::{CaDiCaLClause, ClauseId, TraceProof};
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// The CaDiCaL backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sat;

fn backend_error(reason: impl std::fmt::Display) -> Error {
    Error::Backend { backend: BackendKind::Sat.name(), reason: reason.to_string() }
}

/// A CaDiCaL instance that stops at the deadline of `limits`.
fn solver(limits: &Limits) -> CaDiCaL<'static, 'static> {
    let mut solver = CaDiCaL::default();
    if let Some(time) = limits.time {
        let deadline = Instant::now() + time;
        solver.attach_terminator(move || {
            if Instant::now() >= deadline { ControlSignal::Terminate } else { ControlSignal::Continue }
        });
    }
    solver
}

fn add(solver: &mut CaDiCaL<'_, '_>, clauses: &[Vec<i32>]) -> Result<()> {
    for clause in clauses {
        let clause: Clause =
            clause.iter().map(|&l| Lit::from_ipasir(l).map_err(backend_error)).collect::<Result<_>>()?;
        solver.add_clause(clause).map_err(backend_error)?;
    }
    Ok(())
}

/// The model values of CaDiCaL's satisfying assignment.
fn values(solver: &CaDiCaL<'_, '_>, enc: &CnfModel) -> Result<Vec<i64>> {
    let mut failure = None;
    let values = enc.decode(|v| match Lit::from_ipasir(v).map(|l| solver.lit_val(l)) {
        Ok(Ok(TernaryVal::True)) => true,
        Ok(Ok(_)) => false,
        Ok(Err(e)) => {
            failure = Some(e.to_string());
            false
        }
        Err(e) => {
            failure = Some(e.to_string());
            false
        }
    });
    match failure {
        Some(e) => Err(backend_error(e)),
        None => Ok(values),
    }
}

impl Backend for Sat {
    fn kind(&self) -> BackendKind {
        BackendKind::Sat
    }

    fn solve(&self, model: &Program, limits: &Limits) -> Result<BackendAnswer> {
        if model.contradiction().is_some() {
            return Ok(BackendAnswer::Infeasible);
        }
        let mut enc = CnfModel::encode(model)?;
        let mut solver = solver(limits);
        // An untraced solve looks for a witness (a traced one, for a proof): CaDiCaL's options
        // for satisfiable instances. With untraced probes first (`decision::decide_point`),
        // `solve --steps 3 --rounds 7` on the DGX-1 allgather with C = 6 takes 0.76 of the time
        // it took traced with the default options, and the DGX-1 Pareto walk 0.81 (medians of 5
        // runs each, one machine, docs/bench-sccl.md).
        solver.set_configuration(Config::Sat).map_err(backend_error)?;
        add(&mut solver, &enc.cnf.clauses)?;
        let objective = model.objective.as_ref().filter(|o| o.goal == Goal::Minimise);
        let mut best: Option<Vec<i64>> = None;
        loop {
            match solver.solve().map_err(backend_error)? {
                SolverResult::Sat => {
                    let values = values(&solver, &enc)?;
                    let Some(objective) = objective else {
                        return accept(BackendKind::Sat, model, values, true);
                    };
                    let value = model.objective_value(&values);
                    best = Some(values);
                    let clauses = enc.bound(&objective.terms, Sense::Le, value - 1)?;
                    add(&mut solver, &clauses)?;
                }
                SolverResult::Unsat => {
                    return match best {
                        Some(values) => accept(BackendKind::Sat, model, values, true),
                        None => Ok(BackendAnswer::Infeasible),
                    };
                }
                SolverResult::Interrupted => {
                    return match best {
                        Some(values) => accept(BackendKind::Sat, model, values, false),
                        None => Ok(BackendAnswer::Unknown(Unknown::Timeout)),
                    };
                }
            }
        }
    }

    fn as_proof_tracing(&self) -> Option<&dyn ProofTracing> {
        Some(self)
    }

    fn as_incremental(&self) -> Option<&dyn Incremental> {
        Some(self)
    }
}

impl ProofTracing for Sat {
    /// A fresh CaDiCaL that traces an ASCII LRAT proof.
    fn trace(&self, model: &Program, limits: &Limits, trace: &ProofTrace) -> Result<BackendAnswer> {
        let enc = CnfModel::encode(model)?;
        std::fs::write(&trace.cnf, enc.dimacs(&trace.comment))
            .map_err(|e| backend_error(format!("cannot write {}: {e}", trace.cnf.display())))?;
        let mut solver = solver(limits);
        let tracer = LratWriter::create(&trace.proof, enc.cnf.clauses.len() as i64 + 1)?;
        let handle = solver.connect_proof_tracer(tracer, true);
        add(&mut solver, &enc.cnf.clauses)?;
        let answer = solver.solve().map_err(backend_error)?;
        solver.disconnect_proof_tracer(handle).map_err(backend_error)?.finish(&trace.proof)?;
        match answer {
            SolverResult::Sat => accept(BackendKind::Sat, model, values(&solver, &enc)?, true),
            SolverResult::Interrupted => Ok(BackendAnswer::Unknown(Unknown::Timeout)),
            SolverResult::Unsat => Ok(BackendAnswer::Infeasible),
        }
    }

    /// [`lrat::check_files`].
    fn check(&self, cnf: &Path, proof: &Path) -> Result<()> {
        lrat::check_files(cnf, proof)
            .map(|_| ())
            .map_err(|e| backend_error(format!("its proof fails the LRAT check: {e}")))
    }
}

impl Incremental for Sat {
    fn descend(
        &self,
        model: &Program,
        ends: &[(VarId, u64)],
        horizons: std::ops::RangeInclusive<u64>,
        limits: &Limits,
        trace: Option<&ProofTrace>,
        found: &mut dyn FnMut(Vec<i64>, u64),
    ) -> Result<Descent> {
        descend(model, ends, (*horizons.end(), *horizons.start()), limits, trace, found)
    }
}

/// CaDiCaL's techniques that move clauses to its extension stack (eliminated, to be restored if
/// later clauses need them): off in a traced descent, whose added units would restore them
/// under clause ids the LRAT proof has deleted or renumbered.
const EXTENSION_STACK_TECHNIQUES: [&str; 7] =
    ["elim", "fastelim", "block", "cover", "condition", "decompose", "sweep"];

/// Descends over horizons in one incremental CaDiCaL: the model at horizon H, of a
/// horizon-monotone encoder ([`crate::exact::encode::Encoder::last_step`]; `ends` = each event
/// variable and its last step), gets the makespan literals g of [`CnfModel::makespan`]. Each
/// model found, of makespan m, is handed to `found` (its values checked against the model), and
/// the unit ¬g_m then asks for a schedule of length ≤ m − 1; the clauses CaDiCaL learnt so far
/// stay. It ends when a model's makespan meets `floor` (a proven lower bound), when CaDiCaL
/// answers unsatisfiable, or at the time limit.
///
/// With `trace`, the session traces an LRAT proof; on
/// [`Descent::Infeasible`] the CNF written is the model at H, its makespan clauses and the
/// units added (ids in that order; derived clauses are numbered from (the model's clauses) +
/// H + 1 on, as at most H units are ever added), with its comment and the line
/// [`DESCENT_MARKER`]`H` on top, and the proof refutes it. The proof is not checked here.
fn descend(
    model: &Program,
    ends: &[(VarId, u64)],
    (horizon, floor): (u64, u64),
    limits: &Limits,
    trace: Option<&ProofTrace>,
    found: &mut dyn FnMut(Vec<i64>, u64),
) -> Result<Descent> {
    if model.contradiction().is_some() {
        return Ok(Descent::Infeasible { below: horizon + 1 });
    }
    let mut enc = CnfModel::encode(model)?;
    let (g, _) = enc.makespan(ends, horizon)?;
    let mut solver = solver(limits);
    let handle = match trace {
        Some(ProofTrace { proof, .. }) => {
            // CaDiCaL's LRAT does not survive clauses restored from its extension stack, which
            // only these techniques fill and which an incremental session would restore.
            for option in EXTENSION_STACK_TECHNIQUES {
                solver.set_option(option, 0).map_err(backend_error)?;
            }
            let first_derived = enc.cnf.clauses.len() as i64 + horizon as i64 + 1;
            Some(solver.connect_proof_tracer(LratWriter::create(proof, first_derived)?, true))
        }
        None => None,
    };
    add(&mut solver, &enc.cnf.clauses)?;
    let mut below = horizon + 1;
    let answer = loop {
        match solver.solve().map_err(backend_error)? {
            SolverResult::Sat => {
                let values = satisfying(BackendKind::Sat, model, values(&solver, &enc)?)?;
                let makespan = ends.iter().filter(|(x, _)| values[x.index()] == 1).map(|&(_, s)| s).max();
                below = makespan.unwrap_or(0);
                found(values, below);
                if below <= floor {
                    break Descent::Floor;
                }
                let unit = vec![-g[below as usize - 1]];
                add(&mut solver, std::slice::from_ref(&unit))?;
                enc.cnf.clauses.push(unit);
            }
            SolverResult::Unsat => break Descent::Infeasible { below },
            SolverResult::Interrupted => break Descent::Unknown(Unknown::Timeout),
        }
    };
    if let (Some(handle), Some(ProofTrace { comment, cnf, proof })) = (handle, trace) {
        solver.disconnect_proof_tracer(handle).map_err(backend_error)?.finish(proof)?;
        if let Descent::Infeasible { .. } = answer {
            let text = enc.dimacs(&format!("{comment}\n{DESCENT_MARKER}{horizon}"));
            std::fs::write(cnf, text)
                .map_err(|e| backend_error(format!("cannot write {}: {e}", cnf.display())))?;
        }
    }
    Ok(answer)
}

/// A CaDiCaL proof tracer that writes ASCII LRAT with the input clauses numbered 1..=m in the
/// order they were added, and derived clauses numbered from m + 1 on.
struct LratWriter {
    out: BufWriter<std::fs::File>,
    /// CaDiCaL's id → the id in the written proof.
    ids: HashMap<i64, i64>,
    /// Input clauses seen so far.
    inputs: i64,
    /// The id of the next derived clause.
    next: i64,
    /// The first failure (an I/O error or an antecedent CaDiCaL never announced).
    failure: Option<String>,
}

impl LratWriter {
    /// A tracer writing to `path`, numbering derived clauses from `first_derived` on.
    fn create(path: &Path, first_derived: i64) -> Result<Self> {
        let file = std::fs::File::create(path)
            .map_err(|e| backend_error(format!("cannot write {}: {e}", path.display())))?;
        Ok(Self {
            out: BufWriter::new(file),
            ids: HashMap::new(),
            inputs: 0,
            next: first_derived,
            failure: None,
        })
    }

    /// Flushes the proof; the first failure while writing it is the error.
    fn finish(mut self, path: &Path) -> Result<()> {
        if let Err(e) = self.out.flush() {
            self.failure.get_or_insert(e.to_string());
        }
        match self.failure {
            Some(f) => Err(backend_error(format!("writing the proof {}: {f}", path.display()))),
            None => Ok(()),
        }
    }

    fn write(&mut self, line: std::fmt::Arguments<'_>) {
        if self.failure.is_none()
            && let Err(e) = self.out.write_fmt(line)
        {
            self.failure = Some(e.to_string());
        }
    }

    fn lits(clause: &CaDiCaLClause) -> String {
        clause.iter().map(|l| format!("{} ", l.to_ipasir())).collect()
    }
}

impl TraceProof for LratWriter {
    fn add_original_clause(&mut self, id: ClauseId, _: bool, _: &CaDiCaLClause, restored: bool) {
        if restored {
            // Never in one solve, and a traced descent turns the techniques that would off.
            self.failure.get_or_insert_with(|| format!("CaDiCaL restored clause {}: no LRAT for it", id.0));
            return;
        }
        self.inputs += 1;
        self.ids.insert(id.0, self.inputs);
    }

    fn add_derived_clause(
        &mut self,
        id: ClauseId,
        _: bool,
        clause: &CaDiCaLClause,
        antecedents: &[ClauseId],
    ) {
        let mut hints = String::new();
        for a in antecedents {
            match self.ids.get(&a.0) {
                Some(h) => hints += &format!("{h} "),
                None => {
                    self.failure.get_or_insert_with(|| format!("antecedent {} was never announced", a.0));
                }
            }
        }
        let new = self.next;
        self.next += 1;
        self.ids.insert(id.0, new);
        let lits = Self::lits(clause);
        self.write(format_args!("{new} {lits}0 {hints}0\n"));
    }

    fn delete_clause(&mut self, id: ClauseId, _: bool, _: &CaDiCaLClause) {
        if let Some(old) = self.ids.remove(&id.0) {
            let last = self.next - 1;
            self.write(format_args!("{last} d {old} 0\n"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::backend::pigeonhole;

    /// The checked refutation of `model`: its CNF and LRAT proof as text.
    fn refuted(model: &Program, name: &str) -> (String, String) {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let (cnf, proof) = (dir.join("m.cnf"), dir.join("m.lrat"));
        let trace = ProofTrace { comment: name.into(), cnf: cnf.clone(), proof: proof.clone() };
        let r = Sat.refute(model, &Limits::default(), &trace).unwrap();
        assert_eq!(r, BackendAnswer::Infeasible, "{r:?}");
        (std::fs::read_to_string(&cnf).unwrap(), std::fs::read_to_string(&proof).unwrap())
    }

    fn verdict(cnf: &str, proof: &str) -> std::result::Result<(), lrat::ProofError> {
        lrat::check(&lrat::Cnf::parse(cnf).unwrap(), proof)
    }

    fn additions(proof: &str) -> Vec<(usize, Vec<i64>)> {
        proof
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.contains(" d "))
            .map(|(i, l)| (i, l.split_whitespace().map(|t| t.parse().unwrap()).collect()))
            .collect()
    }

    /// CaDiCaL's proof of pigeonhole 5 → 4 checks; each corruption of it is rejected: a step
    /// dropped that a later step cites, a wrong antecedent in the final step, the proof cut
    /// before the empty clause, and the proof against another instance's CNF.
    #[test]
    fn real_proofs_check_and_corrupted_ones_do_not() {
        let (cnf, proof) = refuted(&pigeonhole(5, 4), "php54");
        assert_eq!(verdict(&cnf, &proof), Ok(()));
        let lines: Vec<&str> = proof.lines().collect();
        let steps = additions(&proof);
        let join = |skip: usize| -> String {
            lines.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, l)| format!("{l}\n")).collect()
        };
        // A step whose clause a later step cites as a hint.
        let cited = steps
            .iter()
            .find(|(i, nums)| {
                steps.iter().any(|(j, later)| j > i && later.iter().skip(1).any(|&h| h == nums[0]))
            })
            .expect("some derived clause is used");
        assert!(verdict(&cnf, &join(cited.0)).is_err(), "dropped step accepted");
        // The final step (the empty clause `ID 0 HINTS 0`) with its first hint replaced by
        // input clause 1, which is not unit.
        let (last, nums) = steps.last().unwrap();
        assert_eq!(nums[1], 0, "the last step adds the empty clause");
        let mut wrong: Vec<String> = nums.iter().map(i64::to_string).collect();
        wrong[2] = "1".into();
        let mut corrupted: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        corrupted[*last] = wrong.join(" ");
        assert!(verdict(&cnf, &(corrupted.join("\n") + "\n")).is_err(), "wrong antecedent accepted");
        assert_eq!(verdict(&cnf, &join(*last)), Err(lrat::ProofError::NoEmptyClause));
        let (other, _) = refuted(&pigeonhole(4, 3), "php43");
        assert!(verdict(&other, &proof).is_err(), "a proof for another instance accepted");
        let satisfiable = CnfModel::encode(&pigeonhole(4, 4)).unwrap().dimacs("4 into 4");
        assert!(verdict(&satisfiable, &proof).is_err(), "a satisfiable CNF refuted");
    }
}
