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

use super::compressed;
use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{self, BufRead};
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

/// What an accepted proof established, for certificates and manifests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Accepted {
    /// Variables of the CNF.
    pub variables: u32,
    /// Clauses of the CNF.
    pub clauses: usize,
    /// Lines of the proof.
    pub proof_lines: usize,
}

/// Why a proof file is not accepted ([`check_proof_file`]); either way the text names the file.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum FileError {
    /// The file is stored compressed and does not decode ([`compressed::Undecodable`]): the
    /// folder is damaged, which is bad input, not a proof that fails (docs/spec.md §7.1).
    #[error("{file}: {reason}")]
    Undecodable {
        /// The file.
        file: String,
        /// What its decoder found.
        reason: String,
    },
    /// The file cannot be read, or the proof it holds does not check.
    #[error("{0}")]
    Rejected(String),
}

/// Reads a DIMACS file and an ASCII LRAT file and checks the proof ([`check`]). The proof is
/// read as a stream, one line at a time (CaDiCaL's proofs reach gigabytes), plain or compressed
/// ([`compressed::open`]); it must be UTF-8, as the CNF must. The error names the file and
/// what is wrong.
pub fn check_files(cnf_path: &Path, proof_path: &Path) -> Result<Accepted, String> {
    let cnf_error = |e: &dyn std::fmt::Display| format!("{}: {e}", cnf_path.display());
    let text = std::fs::read_to_string(cnf_path).map_err(|e| cnf_error(&e))?;
    let cnf = Cnf::parse(&text).map_err(|e| cnf_error(&e))?;
    drop(text);
    check_proof_file(&cnf, proof_path).map_err(|e| e.to_string())
}

/// Checks the ASCII LRAT file at `proof_path`, plain or compressed ([`compressed::open`]),
/// against a CNF already read ([`check_files`] without reading the CNF again).
pub fn check_proof_file(cnf: &Cnf, proof_path: &Path) -> Result<Accepted, FileError> {
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", proof_path.display());
    let unread = |e: io::Error| {
        if compressed::is_undecodable(&e) {
            FileError::Undecodable { file: proof_path.display().to_string(), reason: e.to_string() }
        } else {
            FileError::Rejected(named(&e))
        }
    };
    let mut reader = compressed::open(proof_path).map_err(unread)?;
    let read_line = |line: &mut Vec<u8>| -> io::Result<bool> {
        line.clear();
        let more = reader.read_until(b'\n', line)? > 0;
        if !line.is_ascii() && std::str::from_utf8(line).is_err() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"));
        }
        Ok(more)
    };
    let outcome = check_lines(cnf, read_line).map_err(unread);
    // A damaged compressed proof shows garbage before its decoder meets the checksum at the end
    // of the block: when the check fails otherwise, the rest is decoded, so that the damage, if
    // there is any, is what the error names.
    let plain = compressed::Compression::of_path(proof_path) == compressed::Compression::Plain;
    if !plain && !matches!(outcome, Ok(Ok(_)) | Err(FileError::Undecodable { .. })) {
        io::copy(&mut reader, &mut io::sink()).map_err(unread)?;
    }
    let proof_lines = outcome?.map_err(|e| FileError::Rejected(named(&e)))?;
    Ok(Accepted { variables: cnf.vars, clauses: cnf.clauses.len(), proof_lines })
}

/// Checks an ASCII LRAT proof of the unsatisfiability of `cnf`.
pub fn check(cnf: &Cnf, proof: &str) -> Result<(), ProofError> {
    let mut rest = proof.as_bytes();
    let read_line = |line: &mut Vec<u8>| -> Result<bool, Infallible> {
        let end = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
        line.clear();
        line.extend_from_slice(&rest[..end]);
        rest = &rest[end..];
        Ok(end > 0)
    };
    let Ok(outcome) = check_lines(cnf, read_line);
    outcome.map(drop)
}

/// The check of [`check`] and [`check_files`] over the lines that `read_line` reads one at a
/// time into its buffer (false at the end): the number of lines of a valid proof, counted as
/// `str::lines` counts them, or the first failing step; a failure to read is the outer error.
fn check_lines<E>(
    cnf: &Cnf,
    mut read_line: impl FnMut(&mut Vec<u8>) -> Result<bool, E>,
) -> Result<Result<usize, ProofError>, E> {
    let mut checker = Checker::new(cnf);
    let mut line = Vec::new();
    let mut lines = 0;
    // A CNF with the empty clause refutes itself; the lines after a refutation are only counted.
    let mut refuted = cnf.clauses.iter().any(Vec::is_empty);
    while read_line(&mut line)? {
        lines += 1;
        if !refuted {
            match checker.step(&line) {
                Ok(empty) => refuted = empty,
                Err(reason) => return Ok(Err(ProofError::Step { line: lines, reason })),
            }
        }
    }
    Ok(if refuted { Ok(lines) } else { Err(ProofError::NoEmptyClause) })
}

/// One line of an ASCII LRAT proof; [`parse`] leaves its numbers in a buffer.
enum Line {
    /// Empty, or a comment.
    Blank,
    /// `ID d ID* 0`: the buffer holds the ids it deletes (its zeros dropped).
    Delete,
    /// `ID LIT* 0 HINT* 0`: an added clause, its literals the buffer's first `split` numbers
    /// and its hints those after `split + 1`.
    Add { id: i64, split: usize },
}

/// White space as `str::split_whitespace` reads it, in ASCII: tokens are separated by these.
fn is_space(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A decimal number as `i64::from_str` reads it: short runs of digits after an optional `-`
/// directly, anything else through `from_str`.
fn number(token: &[u8]) -> Option<i64> {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return std::str::from_utf8(token).ok()?.parse().ok();
    }
    let n = digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0'));
    Some(if digits.len() < token.len() { -n } else { n })
}

/// Reads one proof line into `numbers` ([`check`] and [`trim`] alike), allocating nothing once
/// `numbers` has grown to the longest line; the error says what is malformed.
fn parse(line: &[u8], numbers: &mut Vec<i64>) -> Result<Line, String> {
    numbers.clear();
    let mut tokens = line.split(is_space).filter(|t| !t.is_empty()).peekable();
    let Some(first) = tokens.next().filter(|t| t[0] != b'c') else { return Ok(Line::Blank) };
    let id = number(first).ok_or("no clause id")?;
    let text = String::from_utf8_lossy;
    if tokens.next_if(|t| *t == b"d").is_some() {
        for t in tokens {
            let d = number(t).ok_or_else(|| format!("deleted id '{}'", text(t)))?;
            if d != 0 {
                numbers.push(d);
            }
        }
        return Ok(Line::Delete);
    }
    for t in tokens {
        numbers.push(number(t).ok_or_else(|| format!("number '{}'", text(t)))?);
    }
    let split = numbers.iter().position(|&n| n == 0).ok_or("clause not terminated by 0")?;
    if numbers.len() == split + 1 || numbers.pop() != Some(0) {
        return Err("hints not terminated by 0".into());
    }
    Ok(Line::Add { id, split })
}

/// The clauses present, by id. Their literals lie in one arena, each clause ended by 0; LRAT
/// ids grow by one per clause, so where each clause starts is kept in a `Vec` indexed by id.
/// Ids that would stretch it beyond twice the clauses ever added (a zero or negative id, or a
/// jump) are kept in a map instead, so that no proof makes the index larger than the proof.
struct Clauses {
    /// The literals of the clauses, each clause followed by 0. A deleted clause stays until
    /// [`Clauses::collect_garbage`] copies the present ones into a fresh arena.
    arena: Vec<i32>,
    /// Where the clause with id `i` starts in `arena`, or [`ABSENT`].
    dense: Vec<usize>,
    /// Where the clauses with ids outside `dense` start.
    sparse: HashMap<i64, usize>,
    /// Clauses ever added.
    added: usize,
    /// Arena entries of deleted clauses.
    garbage: usize,
}

/// The start of an id that names no clause.
const ABSENT: usize = usize::MAX;

impl Clauses {
    /// Where the clause `id` starts in the arena, if it is present.
    fn start(&self, id: i64) -> Option<usize> {
        let dense = usize::try_from(id).ok().and_then(|i| self.dense.get(i)).filter(|&&s| s != ABSENT);
        dense.or_else(|| self.sparse.get(&id)).copied()
    }

    /// The literals of the clause that starts at `start`.
    fn literals(&self, start: usize) -> impl Iterator<Item = i32> + '_ {
        self.arena[start..].iter().copied().take_while(|&l| l != 0)
    }

    /// Adds a clause under an id that is not present.
    fn insert(&mut self, id: i64, literals: &[i32]) {
        let start = self.arena.len();
        self.arena.extend_from_slice(literals);
        self.arena.push(0);
        self.added += 1;
        match usize::try_from(id) {
            Ok(i) if i < self.dense.len() => self.dense[i] = start,
            Ok(i) if i <= 2 * self.added => {
                self.dense.resize(i, ABSENT);
                self.dense.push(start);
            }
            _ => drop(self.sparse.insert(id, start)),
        }
    }

    /// Deletes the clause `id`; false if it is not present.
    fn remove(&mut self, id: i64) -> bool {
        let dense = usize::try_from(id).ok().and_then(|i| self.dense.get_mut(i)).filter(|s| **s != ABSENT);
        let Some(start) = dense.map(|s| std::mem::replace(s, ABSENT)).or_else(|| self.sparse.remove(&id))
        else {
            return false;
        };
        self.garbage += self.literals(start).count() + 1;
        true
    }

    /// Copies the present clauses into a fresh arena once deleted ones fill half of it (and
    /// outweigh the index, which the copy walks), so the arena stays within twice the present
    /// clauses and each deleted literal is copied at most once.
    fn collect_garbage(&mut self) {
        if 2 * self.garbage < self.arena.len() || self.garbage < self.dense.len() {
            return;
        }
        let old = std::mem::take(&mut self.arena);
        self.arena.reserve(old.len() - self.garbage);
        for start in self.dense.iter_mut().chain(self.sparse.values_mut()).filter(|s| **s != ABSENT) {
            let moved = self.arena.len();
            self.arena.extend(old[*start..].iter().take_while(|&&l| l != 0));
            self.arena.push(0);
            *start = moved;
        }
        self.garbage = 0;
    }
}

/// A partial assignment and the trail of the variables it assigned, so that undoing a step
/// costs what the step assigned, not the number of variables.
struct Assignment {
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    /// The variables assigned since the last [`Assignment::undo`].
    trail: Vec<usize>,
}

impl Assignment {
    /// Makes `lit` true.
    fn assign(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        self.value[var] = if lit > 0 { 1 } else { -1 };
        self.trail.push(var);
    }

    /// Whether `lit` is false.
    fn falsifies(&self, lit: i32) -> bool {
        i32::from(self.value[lit.unsigned_abs() as usize]) * lit.signum() < 0
    }

    /// Unassigns what was assigned.
    fn undo(&mut self) {
        for var in self.trail.drain(..) {
            self.value[var] = 0;
        }
    }
}

/// The state of a check: the clauses present, the assignment, and buffers reused by every line.
struct Checker {
    clauses: Clauses,
    assignment: Assignment,
    /// Variables of the CNF: proof literals beyond them are out of range.
    vars: u32,
    /// The numbers of the current line ([`parse`]).
    numbers: Vec<i64>,
    /// The literals of the current addition.
    literals: Vec<i32>,
}

impl Checker {
    /// The CNF's clauses under ids 1..=m, nothing assigned.
    fn new(cnf: &Cnf) -> Self {
        let mut clauses =
            Clauses { arena: Vec::new(), dense: vec![ABSENT], sparse: HashMap::new(), added: 0, garbage: 0 };
        for (id, clause) in (1..).zip(&cnf.clauses) {
            clauses.insert(id, clause);
        }
        let assignment = Assignment { value: vec![0; cnf.vars as usize + 1], trail: Vec::new() };
        Checker { clauses, assignment, vars: cnf.vars, numbers: Vec::new(), literals: Vec::new() }
    }

    /// Checks one line and applies it; true when it adds the empty clause.
    fn step(&mut self, line: &[u8]) -> Result<bool, String> {
        let Checker { clauses, assignment, vars, numbers, literals } = self;
        let (id, split) = match parse(line, numbers)? {
            Line::Blank => return Ok(false),
            Line::Delete => {
                if let Some(d) = numbers.iter().find(|&&d| !clauses.remove(d)) {
                    return Err(format!("deletes clause {d}, which is not present"));
                }
                clauses.collect_garbage();
                return Ok(false);
            }
            Line::Add { id, split } => (id, split),
        };
        if clauses.start(id).is_some() {
            return Err(format!("clause id {id} is already present"));
        }
        literals.clear();
        for &l in &numbers[..split] {
            let lit = i32::try_from(l).ok().filter(|l| l.unsigned_abs() <= *vars);
            literals.push(lit.ok_or_else(|| format!("literal {l} out of range"))?);
        }
        let outcome = rup(clauses, literals, &numbers[split + 1..], assignment);
        assignment.undo();
        outcome?;
        if literals.is_empty() {
            return Ok(true);
        }
        clauses.insert(id, literals);
        Ok(false)
    }
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
    // Per addition: its id, its line, and where its hints start in `hints`.
    let mut steps: Vec<(i64, &str, usize)> = Vec::new();
    let mut hints: Vec<i64> = Vec::new();
    let mut numbers = Vec::new();
    let mut empty = None;
    for (i, line) in proof.lines().enumerate() {
        let err = |reason: String| ProofError::Step { line: i + 1, reason };
        if let Line::Add { id, split } = parse(line.as_bytes(), &mut numbers).map_err(err)? {
            steps.push((id, line.trim(), hints.len()));
            hints.extend(numbers[split + 1..].iter().map(|h| h.abs()));
            if split == 0 {
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
            let end = steps.get(k + 1).map_or(hints.len(), |s| s.2);
            for h in &hints[steps[k].2..end] {
                if let Some(&j) = index.get(h).filter(|&&j| j < k) {
                    needed[j] = true;
                }
            }
        }
    }
    Ok(steps.iter().zip(needed).filter(|(_, keep)| *keep).map(|(s, _)| format!("{}\n", s.1)).collect())
}

/// Reverse unit propagation of `clause` over exactly the hint clauses, in order: `clause` is
/// assumed false, and each hint must be unit (its one literal not false is then made true)
/// until one is false outright.
fn rup(clauses: &Clauses, clause: &[i32], hints: &[i64], assignment: &mut Assignment) -> Result<(), String> {
    for &lit in clause {
        assignment.assign(-lit);
    }
    for &hint in hints {
        if hint < 0 {
            return Err(format!("RAT hint {hint}: only RUP steps are accepted"));
        }
        let start = clauses.start(hint).ok_or_else(|| format!("hint {hint} is not a present clause"))?;
        let mut unit = 0;
        for lit in clauses.literals(start).filter(|&l| !assignment.falsifies(l)) {
            if unit != 0 && lit != unit {
                return Err(format!("hint {hint} is neither unit nor falsified"));
            }
            unit = lit;
        }
        if unit == 0 {
            return Ok(());
        }
        assignment.assign(unit);
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

    /// Every way a line can be malformed, with the message each gives.
    #[test]
    fn names_what_is_malformed() {
        let reason = |proof: &str| match verdict(CNF, proof) {
            Err(ProofError::Step { line: 1, reason }) => reason,
            other => panic!("{proof:?}: {other:?}"),
        };
        assert_eq!(reason("x 1 0 1 2 0\n"), "no clause id");
        assert_eq!(reason("5 1 x 0 1 2 0\n"), "number 'x'");
        assert_eq!(reason("5 d 1 x 0\n"), "deleted id 'x'");
        assert_eq!(reason("5 1 2\n"), "clause not terminated by 0");
        assert_eq!(reason("5 1 0\n"), "hints not terminated by 0");
        assert_eq!(reason("5 1 0 1 2\n"), "hints not terminated by 0");
        assert_eq!(reason("4 1 0 1 2 0\n"), "clause id 4 is already present");
        assert_eq!(reason("5 3 0 1 2 0\n"), "literal 3 out of range");
        assert_eq!(reason("5 1 0 -1 2 0\n"), "RAT hint -1: only RUP steps are accepted");
        assert_eq!(reason("5 1 0 1 0\n"), "hints end without a conflict");
        assert_eq!(reason("5 d 1 9 0\n"), "deletes clause 9, which is not present");
    }

    /// A deleted clause is no longer a hint, and its id can be used again.
    #[test]
    fn deletion_removes_a_clause() {
        let e = verdict(CNF, "1 d 1 0\n5 1 0 1 2 0\n").unwrap_err();
        assert_eq!(e, ProofError::Step { line: 2, reason: "hint 1 is not a present clause".into() });
        assert_eq!(verdict(CNF, "5 1 0 1 2 0\n5 d 1 0\n1 1 0 5 0\n6 0 1 3 4 0\n"), Ok(()));
        // Zeros are not needed to end a deletion, and a comment or blank line is skipped.
        assert_eq!(verdict(CNF, "c derive a\n\n5 1 0 1 2 0\n5 d 1 0 2\n6 0 5 3 4 0\n"), Ok(()));
    }

    /// Ids far beyond the others, and zero or negative ones, are kept and found again (a
    /// negative hint is a RAT hint, so a negative id can be added but never used).
    #[test]
    fn reads_ids_of_any_size() {
        let far = "1000000000000 -1 0 3 4 0\n";
        assert_eq!(verdict(CNF, &format!("0 1 0 1 2 0\n-7 1 0 1 2 0\n{far}9 0 0 1000000000000 0\n")), Ok(()));
        let e = verdict(CNF, "-7 1 0 1 2 0\n-7 1 0 1 2 0\n").unwrap_err();
        assert_eq!(e, ProofError::Step { line: 2, reason: "clause id -7 is already present".into() });
        let e = verdict(CNF, &format!("5 1 0 1 2 0\n{far}5 d 1000000000000 0\n6 0 5 1000000000000 0\n"))
            .unwrap_err();
        assert_eq!(
            e,
            ProofError::Step { line: 4, reason: "hint 1000000000000 is not a present clause".into() }
        );
    }

    /// Many clauses added and deleted make the arena collect its garbage again and again; the
    /// clauses present are still read right afterwards, under ids of both kinds.
    #[test]
    fn collecting_garbage_keeps_the_present_clauses() {
        let mut proof = String::from("3000000 1 0 1 2 0\n");
        for id in 5..1005 {
            proof += &format!("{id} 1 0 1 2 0\n{id} d {id} 0\n");
        }
        proof += "2000 -1 0 3 4 0\n2001 0 3000000 2000 0\n";
        assert_eq!(verdict(CNF, &proof), Ok(()));
    }

    /// A file is read line by line: its lines are all counted, those after the empty clause
    /// too, and a proof that is not UTF-8 is refused as reading it whole refused it.
    #[test]
    fn checks_files_as_streams() {
        let dir = tempfile::tempdir().unwrap();
        let (cnf, proof) = (dir.path().join("f.cnf"), dir.path().join("f.lrat"));
        std::fs::write(&cnf, CNF).unwrap();
        std::fs::write(&proof, format!("{PROOF}c after\n\n7 1 0")).unwrap();
        let v = check_files(&cnf, &proof).unwrap();
        assert_eq!(v, Accepted { variables: 2, clauses: 4, proof_lines: 6 });
        std::fs::write(&proof, b"5 1 0 1 2 0\n6 0 5 3 4 0\nc \xff\n").unwrap();
        let e = check_files(&cnf, &proof).unwrap_err();
        assert_eq!(e, format!("{}: stream did not contain valid UTF-8", proof.display()));
        std::fs::write(&proof, "5 1 0 1 2 0\n").unwrap();
        let e = check_files(&cnf, &proof).unwrap_err();
        assert_eq!(e, format!("{}: proof never derives the empty clause", proof.display()));
        std::fs::write(&cnf, "p cnf 1 2\n1 0\n0\n").unwrap();
        assert_eq!(check_files(&cnf, &proof).unwrap().proof_lines, 1);
        assert!(check_files(&cnf, &dir.path().join("missing")).unwrap_err().contains("missing: "));
    }

    #[test]
    fn rejects_malformed_cnf() {
        assert!(matches!(Cnf::parse("p cnf 2 1\n1 3 0\n"), Err(ProofError::Cnf { line: 2, .. })));
        assert!(matches!(Cnf::parse("p cnf 2 2\n1 2 0\n"), Err(ProofError::Cnf { .. })));
    }
}
