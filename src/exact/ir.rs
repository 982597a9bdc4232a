//! The neutral model every encoder writes and every backend reads ("encodings write into a neutral
//! sink; backends are small trait impls", as rustsat and good_lp do): bounded integer and boolean
//! variables with names, linear constraints `Σ coeff·var {≤, =, ≥} constant` with integer
//! coefficients, and an optional linear objective: one to minimise, or a search guide for a
//! feasibility question ([`Goal`]).
//!
//! An encoder never sees a solver; [`super::backend`] solves a [`Program`] and [`mod@super::export`]
//! writes it as CPLEX LP or SMT-LIB2 text. Every integer variable has finite bounds (microlp
//! keeps integer bounds as `i32`).

use std::fmt;

/// A variable of a [`Program`], by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(usize);

impl VarId {
    /// The index into [`Program::variables`].
    pub fn index(self) -> usize {
        self.0
    }
}

/// The domain of a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// 0 or 1 (a boolean; `true` is 1).
    Bool,
    /// An integer in `lo..=hi`.
    Int {
        /// Lower bound.
        lo: i64,
        /// Upper bound.
        hi: i64,
    },
}

impl Domain {
    /// The bounds as a pair `(lo, hi)`.
    pub fn bounds(self) -> (i64, i64) {
        match self {
            Domain::Bool => (0, 1),
            Domain::Int { lo, hi } => (lo, hi),
        }
    }
}

/// A named variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Unique name, made of ASCII letters, digits and `_` (valid in LP and SMT-LIB2 files).
    pub name: String,
    /// Its domain.
    pub domain: Domain,
}

/// The relation of a constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sense {
    /// `≤`
    Le,
    /// `=`
    Eq,
    /// `≥`
    Ge,
}

impl Sense {
    /// Whether `lhs sense rhs` holds.
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            Sense::Le => lhs <= rhs,
            Sense::Eq => lhs == rhs,
            Sense::Ge => lhs >= rhs,
        }
    }

    /// `<=`, `=` or `>=`.
    pub fn symbol(self) -> &'static str {
        match self {
            Sense::Le => "<=",
            Sense::Eq => "=",
            Sense::Ge => ">=",
        }
    }
}

/// A linear expression `Σ coeff·var + constant` being built by an encoder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Linear {
    terms: Vec<(i64, VarId)>,
    constant: i64,
}

impl Linear {
    /// The empty expression (0).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `coeff·var`.
    pub fn add(&mut self, coeff: i64, var: VarId) -> &mut Self {
        self.terms.push((coeff, var));
        self
    }

    /// Adds a constant.
    pub fn add_constant(&mut self, c: i64) -> &mut Self {
        self.constant += c;
        self
    }

    /// Adds another expression.
    pub fn add_all(&mut self, other: &Linear) -> &mut Self {
        self.terms.extend_from_slice(&other.terms);
        self.constant += other.constant;
        self
    }

    /// Adds `k` times another expression.
    pub fn add_scaled(&mut self, k: i64, other: &Linear) -> &mut Self {
        self.terms.extend(other.terms.iter().map(|&(c, v)| (k * c, v)));
        self.constant += k * other.constant;
        self
    }

    /// Its value when it has no variables (`None` otherwise).
    pub fn constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// `Σ var` over `vars`.
    pub fn sum(vars: &[VarId]) -> Self {
        Self { terms: vars.iter().map(|&v| (1, v)).collect(), constant: 0 }
    }
}

/// A linear constraint `Σ coeff·var sense rhs`. Terms name each variable once, with a nonzero
/// coefficient, in increasing variable order; a constraint may have no terms (then it is a
/// constant fact, see [`Program::contradiction`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// Unique name (same alphabet as variable names).
    pub name: String,
    /// The terms.
    pub terms: Vec<(i64, VarId)>,
    /// The relation.
    pub sense: Sense,
    /// The constant right-hand side.
    pub rhs: i64,
}

impl Constraint {
    /// The left-hand side under an assignment (one value per model variable).
    pub fn lhs(&self, values: &[i64]) -> i64 {
        self.terms.iter().map(|&(c, v)| c * values[v.0]).sum()
    }
}

/// What a model's objective is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// Minimise it: an answer is complete only when its value is proven minimal.
    Minimise,
    /// A feasibility question with a hint: any feasible assignment answers it, and a backend
    /// that can steer its search by minimising the terms (the ILP backend stops at its first
    /// integer point) may use them; others ignore them.
    Guide,
}

/// A linear objective and what it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Objective {
    /// The terms `Σ coeff·var`.
    pub terms: Vec<(i64, VarId)>,
    /// Minimise, or only guide the search.
    pub goal: Goal,
}

/// A bounded linear integer model: an integer program, named so beside the communication
/// models of [`crate::spec::Model`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Program {
    /// One line saying what the model encodes (written as a comment by the exporters).
    pub description: String,
    /// The variables, indexed by [`VarId`].
    pub variables: Vec<Variable>,
    /// The constraints.
    pub constraints: Vec<Constraint>,
    /// The objective, if any (a plain feasibility model has none).
    pub objective: Option<Objective>,
}

impl Program {
    /// An empty model.
    pub fn new(description: impl Into<String>) -> Self {
        Self { description: description.into(), ..Self::default() }
    }

    /// Adds a boolean variable.
    pub fn bool_var(&mut self, name: impl Into<String>) -> VarId {
        self.push(name.into(), Domain::Bool)
    }

    /// Adds an integer variable in `lo..=hi` (the caller guarantees `lo <= hi`).
    pub fn int_var(&mut self, name: impl Into<String>, lo: i64, hi: i64) -> VarId {
        debug_assert!(lo <= hi, "empty integer domain");
        self.push(name.into(), Domain::Int { lo, hi })
    }

    fn push(&mut self, name: String, domain: Domain) -> VarId {
        self.variables.push(Variable { name, domain });
        VarId(self.variables.len() - 1)
    }

    /// Adds `lhs sense rhs`, merging repeated variables and moving the constant to the right.
    /// A constraint that every assignment within the variables' domains satisfies is dropped
    /// (e.g. `x ≤ 1` for a boolean); one whose terms all cancel and which fails is kept (see
    /// [`Program::contradiction`]).
    pub fn constrain(&mut self, name: impl Into<String>, lhs: &Linear, sense: Sense, rhs: i64) {
        let merged = merge(lhs.terms.clone());
        let rhs = rhs - lhs.constant;
        // The range of the left-hand side over the variables' domains.
        let (mut min, mut max) = (0, 0);
        for &(c, v) in &merged {
            let (lo, hi) = self.variables[v.0].domain.bounds();
            min += (c * lo).min(c * hi);
            max += (c * lo).max(c * hi);
        }
        let implied = match sense {
            Sense::Le => max <= rhs,
            Sense::Eq => min == rhs && max == rhs,
            Sense::Ge => min >= rhs,
        };
        if implied {
            return;
        }
        self.constraints.push(Constraint { name: name.into(), terms: merged, sense, rhs });
    }

    /// The model in which every variable is replaced by its class representative `class[i]`
    /// (a variable of the same domain whose own class is itself): the representatives keep
    /// their names and domains, the others go, and constraints that become identical are kept
    /// once. Its assignments are exactly this model's assignments that give every variable its
    /// representative's value. Returns the quotient, described as this model `restricted`, and
    /// each variable's variable in it.
    pub fn quotient(&self, class: &[VarId], restricted: &str) -> (Program, Vec<VarId>) {
        debug_assert_eq!(class.len(), self.variables.len(), "one class per variable");
        let mut quotient = Program::new(format!("{}, {restricted}", self.description));
        let mut image = vec![VarId(usize::MAX); self.variables.len()];
        for (i, var) in self.variables.iter().enumerate().filter(|&(i, _)| class[i].0 == i) {
            image[i] = quotient.push(var.name.clone(), var.domain);
        }
        for (i, rep) in class.iter().enumerate() {
            debug_assert_eq!(self.variables[i].domain, self.variables[rep.0].domain, "a class mixes domains");
            image[i] = image[rep.0];
        }
        let substitute = |terms: &[(i64, VarId)]| {
            let mut lin = Linear::new();
            for &(c, v) in terms {
                lin.add(c, image[v.0]);
            }
            lin
        };
        let mut seen = std::collections::HashSet::new();
        for c in &self.constraints {
            let before = quotient.constraints.len();
            quotient.constrain(c.name.clone(), &substitute(&c.terms), c.sense, c.rhs);
            if quotient.constraints.len() > before {
                let added = quotient.constraints.last().expect("just added");
                if !seen.insert((added.terms.clone(), added.sense, added.rhs)) {
                    quotient.constraints.pop();
                }
            }
        }
        quotient.objective = self
            .objective
            .as_ref()
            .map(|o| Objective { terms: merge(substitute(&o.terms).terms), goal: o.goal });
        (quotient, image)
    }

    /// Sets the objective `min Σ coeff·var` (its constant is irrelevant and dropped).
    pub fn minimise(&mut self, objective: &Linear) {
        self.objective = Some(Objective { terms: objective.terms.clone(), goal: Goal::Minimise });
    }

    /// Sets a search guide ([`Goal::Guide`]): the model stays a feasibility question.
    pub fn guide(&mut self, hint: &Linear) {
        self.objective = Some(Objective { terms: hint.terms.clone(), goal: Goal::Guide });
    }

    /// Whether any feasible assignment is a complete answer (no objective, or only a guide).
    pub fn is_feasibility(&self) -> bool {
        self.objective.as_ref().is_none_or(|o| o.goal == Goal::Guide)
    }

    /// A constraint without variables that fails (`0 ≤ -1`): the model is infeasible before any
    /// search. Encoders produce one when the horizon is too short for some item to arrive.
    pub fn contradiction(&self) -> Option<&Constraint> {
        self.constraints.iter().find(|c| c.terms.is_empty())
    }

    /// The first thing an assignment breaks: a value outside its variable's domain, or a
    /// constraint. `None` when the assignment satisfies the model. Backends' answers are
    /// checked with this before they are decoded.
    pub fn first_violation(&self, values: &[i64]) -> Option<String> {
        if values.len() != self.variables.len() {
            return Some(format!("{} values for {} variables", values.len(), self.variables.len()));
        }
        for (var, &x) in self.variables.iter().zip(values) {
            let (lo, hi) = var.domain.bounds();
            if x < lo || x > hi {
                return Some(format!("variable {} = {x} is outside {lo}..={hi}", var.name));
            }
        }
        self.constraints
            .iter()
            .find(|c| !c.sense.holds(c.lhs(values), c.rhs))
            .map(|c| format!("constraint {}: {} {} {} fails", c.name, c.lhs(values), c.sense.symbol(), c.rhs))
    }

    /// The objective value of an assignment (0 without objective).
    pub fn objective_value(&self, values: &[i64]) -> i64 {
        self.objective.iter().flat_map(|o| &o.terms).map(|&(c, v)| c * values[v.0]).sum()
    }
}

/// Terms with each variable once, in increasing variable order, zero coefficients dropped.
fn merge(mut terms: Vec<(i64, VarId)>) -> Vec<(i64, VarId)> {
    terms.sort_by_key(|&(_, v)| v);
    let mut merged: Vec<(i64, VarId)> = Vec::with_capacity(terms.len());
    for (c, v) in terms {
        match merged.last_mut() {
            Some(last) if last.1 == v => last.0 += c,
            _ => merged.push((c, v)),
        }
    }
    merged.retain(|&(c, _)| c != 0);
    merged
}

impl fmt::Display for Program {
    /// A one-line size summary: `N variables (B boolean), M constraints`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bools = self.variables.iter().filter(|v| v.domain == Domain::Bool).count();
        write!(
            f,
            "{} variables ({bools} boolean), {} constraints",
            self.variables.len(),
            self.constraints.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constrain_merges_terms_and_moves_the_constant() {
        let mut m = Program::new("t");
        let x = m.bool_var("x");
        let y = m.int_var("y", 0, 3);
        let mut lhs = Linear::new();
        lhs.add(2, y).add(1, x).add(-2, y).add(1, x).add_constant(1);
        m.constrain("c", &lhs, Sense::Le, 2);
        assert_eq!(m.constraints[0].terms, vec![(2, x)]);
        assert_eq!(m.constraints[0].rhs, 1);
    }

    #[test]
    fn constant_constraints_are_dropped_when_true_and_kept_when_false() {
        let mut m = Program::new("t");
        let mut lhs = Linear::new();
        lhs.add_constant(1);
        m.constrain("true", &lhs, Sense::Eq, 1);
        assert!(m.constraints.is_empty() && m.contradiction().is_none());
        m.constrain("false", &lhs, Sense::Le, 0);
        assert_eq!(m.contradiction().map(|c| c.name.as_str()), Some("false"));
    }

    #[test]
    fn constraints_implied_by_the_domains_are_dropped() {
        let mut m = Program::new("t");
        let x = m.bool_var("x");
        let y = m.int_var("y", -1, 2);
        let mut lhs = Linear::new();
        lhs.add(1, x).add(-1, y);
        m.constrain("implied", &lhs, Sense::Le, 2);
        m.constrain("binding", &lhs, Sense::Le, 1);
        m.constrain("implied_too", &lhs, Sense::Ge, -2);
        let names: Vec<&str> = m.constraints.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["binding"]);
    }

    /// Identifying x with z keeps y, merges x + z into 2x, and keeps two constraints that
    /// became identical once; the quotient's assignments are the model's with x = z.
    #[test]
    fn quotient_identifies_variables_and_keeps_repeated_constraints_once() {
        let mut m = Program::new("t");
        let (x, y, z) = (m.bool_var("x"), m.bool_var("y"), m.bool_var("z"));
        m.constrain("xy", Linear::new().add(1, x).add(1, y), Sense::Le, 1);
        m.constrain("zy", Linear::new().add(1, z).add(1, y), Sense::Le, 1);
        m.constrain("xz", Linear::new().add(1, x).add(1, z), Sense::Ge, 1);
        m.guide(Linear::new().add(1, x).add(3, z));
        let (q, image) = m.quotient(&[x, y, x], "x = z");
        assert_eq!(q.description, "t, x = z");
        let names: Vec<&str> = q.variables.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["x", "y"]);
        assert_eq!(image, [image[0], image[1], image[0]]);
        let names: Vec<&str> = q.constraints.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["xy", "xz"]);
        assert_eq!(q.constraints[1].terms, [(2, image[0])]);
        assert_eq!(q.objective.as_ref().map(|o| o.terms.clone()), Some(vec![(4, image[0])]));
        assert_eq!(q.first_violation(&[1, 0]), None);
        assert!(q.first_violation(&[0, 1]).is_some(), "x = z = 0 breaks xz");
    }

    #[test]
    fn first_violation_names_the_domain_or_the_constraint() {
        let mut m = Program::new("t");
        let x = m.bool_var("x");
        let y = m.int_var("y", 0, 3);
        let mut lhs = Linear::new();
        lhs.add(1, x).add(1, y);
        m.constrain("sum", &lhs, Sense::Ge, 2);
        assert_eq!(m.first_violation(&[1, 1]), None);
        assert!(m.first_violation(&[0, 1]).unwrap().contains("constraint sum: 1 >= 2 fails"));
        assert!(m.first_violation(&[2, 0]).unwrap().contains("variable x = 2"));
    }
}
