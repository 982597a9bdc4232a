//! DIMACS CNF and ASCII LRAT, and the LRAT check.
//!
//! A CNF's clauses carry the ids 1..=m in file order. An LRAT line is either an addition
//! `ID LIT* 0 HINT* 0`, where every hint is the id of a clause already present, or a deletion
//! `ID d ID* 0`. An addition is accepted when assuming the negation of its literals and
//! visiting its hints in order, each hint clause is unit (one literal left, which is then
//! assigned) until one is falsified outright: reverse unit propagation restricted to the listed
//! antecedents. As in the reference checkers (drat-trim's `lrat-check`, CaDiCaL's own), a
//! clause is a set: a literal written twice counts once, and a unit whose literal already holds
//! is accepted, which assigns nothing new (a redundant hint costs nothing in soundness: every
//! assignment made is still implied by the negated clause and the hints before it). Negative
//! hints (RAT steps) are not accepted: the proof must be RUP only. The proof is valid when every
//! line checks and one of them adds the empty clause, or when the CNF itself contains the empty
//! clause (then any proof, even an empty one, is valid).

use std::collections::HashMap;
use std::path::Path;
use thiserror::Error;

/// Why a CNF or a proof is rejected; `line` counts from 1 in the file named.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProofError {
    /// The DIMACS text is malformed.
    #[error("cnf line {line}: {reason}")]
    Cnf {
        /// The line.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The LRAT text is malformed or a step does not check.
    #[error("proof line {line}: {reason}")]
    Step {
        /// The line.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Every step checks, but none derives the empty clause (e.g. a truncated proof).
    #[error("proof never derives the empty clause")]
    NoEmptyClause,
}

/// A DIMACS CNF: its declared variable count and its clauses (ids 1..=len in order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cnf {
    /// Variables 1..=vars.
    pub vars: u32,
    /// The clauses, as non-zero DIMACS literals.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    /// Parses DIMACS text (`c` comments, one `p cnf V C` header, clauses ending in 0).
    pub fn parse(text: &str) -> Result<Cnf, ProofError> {
        let mut header: Option<(u32, usize)> = None;
        let mut clauses = Vec::new();
        let mut current = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let err = |reason: String| ProofError::Cnf { line: line_no, reason };
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('c') {
                continue;
            }
            if let Some(rest) = trimmed.strip_prefix("p cnf") {
                let nums: Vec<&str> = rest.split_whitespace().collect();
                let [v, c] = nums[..] else { return Err(err("header is not 'p cnf V C'".into())) };
                let v = v.parse().map_err(|_| err(format!("variable count '{v}'")))?;
                let c = c.parse().map_err(|_| err(format!("clause count '{c}'")))?;
                header = Some((v, c));
                continue;
            }
            let Some((vars, _)) = header else { return Err(err("clause before the 'p cnf' header".into())) };
            for token in trimmed.split_whitespace() {
                let lit: i32 = token.parse().map_err(|_| err(format!("literal '{token}'")))?;
                if lit == 0 {
                    clauses.push(std::mem::take(&mut current));
                } else if lit.unsigned_abs() > vars {
                    return Err(err(format!("literal {lit} beyond {vars} variables")));
                } else {
                    current.push(lit);
                }
            }
        }
        let (vars, count) = header.ok_or(ProofError::Cnf { line: 0, reason: "no 'p cnf' header".into() })?;
        if !current.is_empty() || clauses.len() != count {
            let reason = format!(
                "header says {count} clauses, found {} (last unterminated: {})",
                clauses.len(),
                !current.is_empty()
            );
            return Err(ProofError::Cnf { line: text.lines().count(), reason });
        }
        Ok(Cnf { vars, clauses })
    }
}

/// What a checked proof established, for certificates and manifests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    /// Variables of the CNF.
    pub variables: u32,
    /// Clauses of the CNF.
    pub clauses: usize,
    /// Lines of the proof.
    pub proof_lines: usize,
}

/// Reads a DIMACS file and an ASCII LRAT file and checks the proof ([`check`]). The error names
/// the file and what is wrong.
pub fn check_files(cnf_path: &Path, proof_path: &Path) -> Result<Verdict, String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let cnf = Cnf::parse(&read(cnf_path)?).map_err(|e| format!("{}: {e}", cnf_path.display()))?;
    let proof = read(proof_path)?;
    check(&cnf, &proof).map_err(|e| format!("{}: {e}", proof_path.display()))?;
    Ok(Verdict { variables: cnf.vars, clauses: cnf.clauses.len(), proof_lines: proof.lines().count() })
}

/// One line of an ASCII LRAT proof.
enum Line {
    /// Empty, or a comment.
    Blank,
    /// `ID d ID* 0`: the ids it deletes.
    Delete(Vec<i64>),
    /// `ID LIT* 0 HINT* 0`: an added clause and its hints.
    Add { id: i64, lits: Vec<i64>, hints: Vec<i64> },
}

/// Reads one proof line ([`check`] and [`trim`] alike); the error says what is malformed.
fn parse_line(line: &str) -> Result<Line, String> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('c') {
        return Ok(Line::Blank);
    }
    let mut tokens = trimmed.split_whitespace();
    let id: i64 = tokens.next().and_then(|t| t.parse().ok()).ok_or("no clause id")?;
    let rest: Vec<&str> = tokens.collect();
    if rest.first() == Some(&"d") {
        let ids = rest[1..].iter().map(|t| t.parse::<i64>().map_err(|_| format!("deleted id '{t}'")));
        return Ok(Line::Delete(ids.filter(|d| *d != Ok(0)).collect::<Result<_, _>>()?));
    }
    let numbers: Vec<i64> =
        rest.iter().map(|t| t.parse().map_err(|_| format!("number '{t}'"))).collect::<Result<_, _>>()?;
    let split = numbers.iter().position(|&n| n == 0).ok_or("clause not terminated by 0")?;
    let (lits, hints) = (&numbers[..split], &numbers[split + 1..]);
    let Some((&0, hints)) = hints.split_last() else {
        return Err("hints not terminated by 0".into());
    };
    Ok(Line::Add { id, lits: lits.to_vec(), hints: hints.to_vec() })
}

/// Checks an ASCII LRAT proof of the unsatisfiability of `cnf`.
pub fn check(cnf: &Cnf, proof: &str) -> Result<(), ProofError> {
    if cnf.clauses.iter().any(Vec::is_empty) {
        return Ok(());
    }
    let mut db: HashMap<i64, Vec<i32>> =
        cnf.clauses.iter().cloned().enumerate().map(|(i, c)| (i as i64 + 1, c)).collect();
    // Assignment per variable: 0 unassigned, 1 true, -1 false; reset after each step.
    let mut value = vec![0i8; cnf.vars as usize + 1];
    for (i, line) in proof.lines().enumerate() {
        let err = |reason: String| ProofError::Step { line: i + 1, reason };
        let (id, lits, hints) = match parse_line(line).map_err(err)? {
            Line::Blank => continue,
            Line::Delete(ids) => {
                for d in ids {
                    if db.remove(&d).is_none() {
                        return Err(err(format!("deletes clause {d}, which is not present")));
                    }
                }
                continue;
            }
            Line::Add { id, lits, hints } => (id, lits, hints),
        };
        if db.contains_key(&id) {
            return Err(err(format!("clause id {id} is already present")));
        }
        let clause: Vec<i32> = lits
            .iter()
            .map(|&l| {
                i32::try_from(l)
                    .ok()
                    .filter(|l| l.unsigned_abs() <= cnf.vars)
                    .ok_or_else(|| err(format!("literal {l} out of range")))
            })
            .collect::<Result<_, _>>()?;
        let outcome = rup(&db, &clause, &hints, &mut value);
        value.iter_mut().for_each(|v| *v = 0);
        outcome.map_err(err)?;
        if clause.is_empty() {
            return Ok(());
        }
        db.insert(id, clause);
    }
    Err(ProofError::NoEmptyClause)
}

/// The part of a proof that its empty clause depends on: the additions reachable from the first
/// one that derives the empty clause through their hints, in file order, and no deletions (a
/// clause kept longer changes no step's check). The lines are copied as they are, so every kept
/// step checks as before and the trimmed proof refutes the same CNF; certificate folders store
/// it (their writer checks it again, docs/spec.md §7.1). CaDiCaL's proofs keep every
/// learnt clause, most of which the refutation never uses: the knowledge relaxation of
/// fat-tree:16's prefix at 12 steps shrinks from 172,592 additions (44 MB) to 41,135 (8.9 MB).
/// Malformed lines, and a proof with no empty clause, are errors as in [`check`].
pub fn trim(proof: &str) -> Result<String, ProofError> {
    // Per addition: its id, its line and its hints.
    let mut steps: Vec<(i64, &str, Vec<i64>)> = Vec::new();
    let mut empty = None;
    for (i, line) in proof.lines().enumerate() {
        let err = |reason: String| ProofError::Step { line: i + 1, reason };
        if let Line::Add { id, lits, hints } = parse_line(line).map_err(err)? {
            steps.push((id, line.trim(), hints.into_iter().map(i64::abs).collect()));
            if lits.is_empty() {
                empty = Some(steps.len() - 1);
                break;
            }
        }
    }
    let last = empty.ok_or(ProofError::NoEmptyClause)?;
    let index: HashMap<i64, usize> = steps.iter().enumerate().map(|(k, s)| (s.0, k)).collect();
    let mut needed = vec![false; steps.len()];
    needed[last] = true;
    // Hints point to earlier steps only, so one backward sweep closes the cone.
    for k in (0..=last).rev() {
        if needed[k] {
            for h in &steps[k].2 {
                if let Some(&j) = index.get(h).filter(|&&j| j < k) {
                    needed[j] = true;
                }
            }
        }
    }
    Ok(steps.iter().zip(needed).filter(|(_, keep)| *keep).map(|(s, _)| format!("{}\n", s.1)).collect())
}

/// Reverse unit propagation of `clause` over exactly the hint clauses, in order.
fn rup(db: &HashMap<i64, Vec<i32>>, clause: &[i32], hints: &[i64], value: &mut [i8]) -> Result<(), String> {
    let val = |value: &[i8], lit: i32| value[lit.unsigned_abs() as usize] * lit.signum() as i8;
    for &lit in clause {
        value[lit.unsigned_abs() as usize] = -(lit.signum() as i8);
    }
    for &hint in hints {
        if hint < 0 {
            return Err(format!("RAT hint {hint}: only RUP steps are accepted"));
        }
        let antecedent = db.get(&hint).ok_or_else(|| format!("hint {hint} is not a present clause"))?;
        let mut open = antecedent.iter().copied().filter(|&l| val(value, l) >= 0);
        match open.next() {
            None => return Ok(()),
            Some(l) if open.all(|m| m == l) => value[l.unsigned_abs() as usize] = l.signum() as i8,
            Some(_) => return Err(format!("hint {hint} is neither unit nor falsified")),
        }
    }
    Err("hints end without a conflict".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All four clauses over two variables: unsatisfiable.
    const CNF: &str = "c all of a, b\np cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n";
    /// Derives (a) from 1, 2, then the empty clause from (a), 3, 4.
    const PROOF: &str = "5 1 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n";

    fn verdict(cnf: &str, proof: &str) -> Result<(), ProofError> {
        check(&Cnf::parse(cnf).unwrap(), proof)
    }

    #[test]
    fn accepts_a_valid_proof() {
        assert_eq!(verdict(CNF, PROOF), Ok(()));
    }

    /// Hint 6 repeats the unit (a) that hint 5 gave: redundant, not wrong.
    #[test]
    fn accepts_a_unit_hint_that_already_holds() {
        assert_eq!(verdict(CNF, "5 1 0 1 2 0\n6 1 0 1 2 0\n7 0 5 6 3 4 0\n"), Ok(()));
    }

    #[test]
    fn reads_a_repeated_literal_once() {
        assert_eq!(verdict("p cnf 2 3\n1 1 0\n-1 2 0\n-1 -2 0\n", "4 0 1 2 3 0\n"), Ok(()));
    }

    /// (a ∨ b) with a true and b open is satisfied, not unit: no reference checker takes it.
    #[test]
    fn rejects_a_satisfied_hint_with_an_open_literal() {
        let e = verdict(CNF, "5 1 0 1 2 0\n6 0 5 1 3 4 0\n").unwrap_err();
        assert_eq!(e, ProofError::Step { line: 2, reason: "hint 1 is neither unit nor falsified".into() });
    }

    #[test]
    fn rejects_a_dropped_step() {
        let e = verdict(CNF, "6 0 5 3 4 0\n").unwrap_err();
        assert_eq!(e, ProofError::Step { line: 1, reason: "hint 5 is not a present clause".into() });
    }

    #[test]
    fn rejects_a_wrong_antecedent() {
        assert!(matches!(verdict(CNF, "5 1 0 1 3 0\n6 0 5 3 4 0\n"), Err(ProofError::Step { line: 1, .. })));
    }

    #[test]
    fn rejects_a_truncated_proof() {
        assert_eq!(verdict(CNF, "5 1 0 1 2 0\n"), Err(ProofError::NoEmptyClause));
        assert!(matches!(verdict(CNF, "5 1 0 1 2"), Err(ProofError::Step { line: 1, .. })));
    }

    #[test]
    fn rejects_a_proof_for_another_cnf() {
        let other = "p cnf 2 4\n1 2 0\n-1 -2 0\n-1 2 0\n1 -2 0\n";
        assert!(verdict(other, PROOF).is_err());
    }

    /// A step the empty clause never uses is dropped, deletions too, and what is left checks.
    #[test]
    fn trimming_keeps_the_cone_of_the_empty_clause() {
        let proof = "5 1 0 1 2 0\n7 -1 0 3 4 0\n7 d 7 0\n8 0 5 3 4 0\n9 2 0 1 2 0\n";
        assert_eq!(verdict(CNF, proof), Ok(()));
        let trimmed = trim(proof).unwrap();
        assert_eq!(trimmed, "5 1 0 1 2 0\n8 0 5 3 4 0\n");
        assert_eq!(verdict(CNF, &trimmed), Ok(()));
        assert_eq!(trim(&trimmed).unwrap(), trimmed);
        assert_eq!(trim("5 1 0 1 2 0\n"), Err(ProofError::NoEmptyClause));
    }

    #[test]
    fn rejects_malformed_cnf() {
        assert!(matches!(Cnf::parse("p cnf 2 1\n1 3 0\n"), Err(ProofError::Cnf { line: 2, .. })));
        assert!(matches!(Cnf::parse("p cnf 2 2\n1 2 0\n"), Err(ProofError::Cnf { .. })));
    }
}
