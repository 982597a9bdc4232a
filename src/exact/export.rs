//! Writes an [`ir::Program`](super::ir::Program) as text for external solvers: CPLEX LP (`.lp`,
//! for the ILP backend's family of solvers) and SMT-LIB2 (`.smt2`, QF_LIA, for z3 and other
//! SMT solvers). The output is deterministic: variables and constraints in model order.
//!
//! [`export`] writes the model of an instance at a given horizon. The CLI's default horizon is
//! the checked length of the best registered algorithm's schedule, so the file is a satisfiable
//! model whose solutions are schedules of that length or shorter; a smaller horizon (e.g.
//! T* − 1) gives the model whose infeasibility certifies an optimum. The caller applies the
//! size guard ([`super::SolveOptions::max_variables`]) before anything is built.

use super::backend::BackendKind;
use super::cnf::CnfModel;
use super::encode::{self, Variant};
use super::ir::{Domain, Goal, Program, Sense, VarId};
use crate::error::{Error, InputError, Result};
use crate::spec::Instance;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The model of `instance` at `horizon` as text for `backend`: CPLEX LP for
/// [`BackendKind::Ilp`], SMT-LIB2 for [`BackendKind::Smt`], DIMACS CNF for [`BackendKind::Sat`]. A model over the size guard
/// `max_variables` is refused ([`Error::Input`], field `--horizon`) before it is built.
pub fn export(
    instance: &Instance,
    backend: BackendKind,
    horizon: u64,
    max_variables: usize,
) -> Result<String> {
    let (_, encoder) = encode::encoder_for(instance)?;
    if let Some(reason) = encoder.impossible() {
        return Err(Error::NotApplicable { method: "exact export".into(), reason });
    }
    let at_least = encoder.min_variables(horizon, Variant::Full);
    let variables =
        if at_least > max_variables { at_least } else { encoder.variables(horizon, Variant::Full) };
    if variables > max_variables {
        return Err(Error::Input(InputError::new(
            "",
            "--horizon",
            format!(
                "the model at horizon T = {horizon} needs {}{variables} variables, over the size guard {max_variables} (raise --max-vars)",
                if at_least > max_variables { "at least " } else { "" }
            ),
        )));
    }
    model_text(&encoder.model(horizon, Variant::Full)?.model, backend)
}

/// Where `export` writes the model of `instance` (found under `root`): the instance's path
/// relative to `root`, in `dir`, with the backend's extension (`004/path6-fig2.ilp.lp`).
pub fn model_file(dir: &Path, root: &Path, instance: &Path, kind: BackendKind) -> PathBuf {
    let rel = instance.strip_prefix(root).unwrap_or(instance).with_extension("");
    dir.join(format!("{}.{}", rel.display(), kind.file_extension()))
}

/// The model as text for `backend`: LP, SMT-LIB2, or DIMACS CNF ([`CnfModel`], with the
/// model's description as a comment).
pub fn model_text(model: &Program, backend: BackendKind) -> Result<String> {
    Ok(match backend {
        BackendKind::Ilp => lp(model),
        BackendKind::Smt => smt2(model),
        BackendKind::Sat => CnfModel::encode(model)?.dimacs(&model.description),
    })
}

/// Terms per line in LP files (CPLEX limits a line to 510 characters).
const LP_TERMS_PER_LINE: usize = 8;

/// CPLEX LP text. A model without objective gets `0 x` on its first variable, a search guide
/// is written as the objective (minimising it keeps every solution a feasible point); a
/// constraint whose terms all cancelled (a contradiction) is written with a zero coefficient
/// on the first variable.
pub fn lp(model: &Program) -> String {
    let mut s = String::new();
    header(&mut s, model, "\\", "CPLEX LP");
    let name = |v: VarId| model.variables[v.index()].name.as_str();
    // The variable that carries zero coefficients, declared `zero = 0` if the model has none.
    let anchor = model.variables.first().map_or("zero", |v| v.name.as_str());
    let terms = |s: &mut String, terms: &[(i64, VarId)]| {
        if terms.is_empty() {
            let _ = write!(s, " 0 {anchor}");
        }
        for (i, &(c, v)) in terms.iter().enumerate() {
            if i > 0 && i % LP_TERMS_PER_LINE == 0 {
                s.push_str("\n  ");
            }
            let sign = if c < 0 {
                "-"
            } else if i > 0 {
                "+"
            } else {
                ""
            };
            let sep = if sign.is_empty() { "" } else { " " };
            match c.unsigned_abs() {
                1 => {
                    let _ = write!(s, " {sign}{sep}{}", name(v));
                }
                k => {
                    let _ = write!(s, " {sign}{sep}{k} {}", name(v));
                }
            }
        }
    };
    s.push_str("Minimize\n obj:");
    match &model.objective {
        Some(obj) => terms(&mut s, &obj.terms),
        None => terms(&mut s, &[]),
    }
    s.push_str("\nSubject To\n");
    for c in &model.constraints {
        let _ = write!(s, " {}:", c.name);
        terms(&mut s, &c.terms);
        let _ = writeln!(s, " {} {}", c.sense.symbol(), c.rhs);
    }
    let mut bounds: Vec<String> = model
        .variables
        .iter()
        .filter_map(|v| match v.domain {
            Domain::Int { lo, hi } => Some(format!(" {lo} <= {} <= {hi}", v.name)),
            Domain::Bool => None,
        })
        .collect();
    if model.variables.is_empty() {
        bounds.push(" zero = 0".into());
    }
    if !bounds.is_empty() {
        let _ = writeln!(s, "Bounds\n{}", bounds.join("\n"));
    }
    for (section, want_bool) in [("Binary", true), ("General", false)] {
        let names: Vec<&str> = model
            .variables
            .iter()
            .filter(|v| (v.domain == Domain::Bool) == want_bool)
            .map(|v| v.name.as_str())
            .collect();
        if !names.is_empty() {
            let _ = writeln!(s, "{section}");
            for chunk in names.chunks(LP_TERMS_PER_LINE) {
                let _ = writeln!(s, " {}", chunk.join(" "));
            }
        }
    }
    s.push_str("End\n");
    s
}

/// An SMT-LIB2 integer literal (negative numbers are `(- k)`).
fn smt_int(k: i64) -> String {
    if k < 0 { format!("(- {})", k.unsigned_abs()) } else { k.to_string() }
}

/// SMT-LIB2 text (logic QF_LIA): booleans are `Bool` constants counted as `(ite b 1 0)`,
/// integers `Int` constants with asserted bounds, each constraint a named assertion; an
/// objective to minimise is written as z3's `(minimize ...)` extension, a search guide is left
/// out (any model answers a feasibility question). Ends with `(check-sat)`.
pub fn smt2(model: &Program) -> String {
    let mut s = String::new();
    header(&mut s, model, ";", "SMT-LIB2");
    let sum = |terms: &[(i64, VarId)]| -> String {
        let parts: Vec<String> = terms
            .iter()
            .map(|&(c, v)| {
                let var = &model.variables[v.index()];
                let x = match var.domain {
                    Domain::Bool => format!("(ite {} 1 0)", var.name),
                    Domain::Int { .. } => var.name.clone(),
                };
                if c == 1 { x } else { format!("(* {} {x})", smt_int(c)) }
            })
            .collect();
        match parts.len() {
            0 => "0".into(),
            1 => parts[0].clone(),
            _ => format!("(+ {})", parts.join(" ")),
        }
    };
    s.push_str("(set-logic QF_LIA)\n");
    for v in &model.variables {
        let sort = if v.domain == Domain::Bool { "Bool" } else { "Int" };
        let _ = writeln!(s, "(declare-const {} {sort})", v.name);
    }
    for v in &model.variables {
        if let Domain::Int { lo, hi } = v.domain {
            let _ =
                writeln!(s, "(assert (and (<= {} {}) (<= {} {})))", smt_int(lo), v.name, v.name, smt_int(hi));
        }
    }
    for c in &model.constraints {
        let op = match c.sense {
            Sense::Le => "<=",
            Sense::Eq => "=",
            Sense::Ge => ">=",
        };
        let _ = writeln!(s, "(assert (! ({op} {} {}) :named {}))", sum(&c.terms), smt_int(c.rhs), c.name);
    }
    if let Some(obj) = model.objective.as_ref().filter(|o| o.goal == Goal::Minimise) {
        let _ = writeln!(s, "(minimize {})", sum(&obj.terms));
    }
    s.push_str("(check-sat)\n");
    s
}

fn header(s: &mut String, model: &Program, comment: &str, format: &str) {
    let _ = writeln!(s, "{comment} commsched exact model ({format})");
    let _ = writeln!(s, "{comment} {}", model.description);
    let _ = writeln!(s, "{comment} {model}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::ir::Linear;

    fn small() -> Program {
        let mut m = Program::new("small");
        let x = m.bool_var("x");
        let a = m.int_var("a", -2, 3);
        let mut c = Linear::new();
        c.add(1, x).add(-2, a);
        m.constrain("c1", &c, Sense::Ge, -1);
        let mut obj = Linear::new();
        obj.add(3, a);
        m.minimise(&obj);
        m
    }

    #[test]
    fn lp_text_has_every_section() {
        let text = lp(&small());
        assert!(text.contains("Minimize\n obj: 3 a\n"), "{text}");
        assert!(text.contains(" c1: x - 2 a >= -1\n"), "{text}");
        assert!(text.contains("Bounds\n -2 <= a <= 3\nBinary\n x\nGeneral\n a\nEnd\n"), "{text}");
    }

    #[test]
    fn smt2_text_uses_ite_for_booleans_and_negative_literals() {
        let text = smt2(&small());
        assert!(text.contains("(declare-const x Bool)\n(declare-const a Int)\n"), "{text}");
        assert!(text.contains("(assert (and (<= (- 2) a) (<= a 3)))"), "{text}");
        assert!(text.contains("(assert (! (>= (+ (ite x 1 0) (* (- 2) a)) (- 1)) :named c1))"), "{text}");
        assert!(text.contains("(minimize (* 3 a))\n(check-sat)\n"), "{text}");
    }

    #[test]
    fn a_guide_is_the_lp_objective_and_no_smt_objective() {
        let mut m = small();
        let mut hint = Linear::new();
        hint.add(1, m.constraints[0].terms[0].1);
        m.guide(&hint);
        assert!(lp(&m).contains("Minimize\n obj: x\n"));
        assert!(!smt2(&m).contains("minimize"));
    }

    #[test]
    fn contradictions_keep_a_term_in_lp() {
        let mut m = Program::new("empty");
        m.constrain("never", &Linear::new(), Sense::Ge, 1);
        let text = lp(&m);
        assert!(text.contains(" never: 0 zero >= 1\n") && text.contains(" zero = 0\n"), "{text}");
        assert!(smt2(&m).contains("(assert (! (>= 0 1) :named never))"));
    }
}
