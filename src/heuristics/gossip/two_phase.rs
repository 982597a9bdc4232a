//! # The two-phase mesh algorithm (paper 003 §2 Fig. 1, §3.1–§3.3)
//!
//! Fujita and Yamashita's two-phase strategy (Fig. 1) with Lau and Zhang's optimal path gossip
//! as Phase 2, the phases one after the other (no overlap):
//!
//! * **Phase 1** ([`phase1`](super::phase1)): even nodes ((i + j) even) broadcast along their
//!   row, odd nodes along their column; n − 1 rounds on the n×n mesh (GOS-4).
//! * **Phase 2** ([`phase2`](super::phase2)): every row gossips the odd tokens its nodes got from
//!   their columns, every column the even tokens its nodes got from their rows (GOS-6), with the
//!   path algorithm of Fig. 3; S′_odd = (n² + n − 2)/2 rounds on the odd-n columns (GOS-7),
//!   S″_odd = (n² + n − 4)/2 on the rows (GOS-10), S_even = (n² + n − 2)/2 for even n (GOS-11).
//!
//! Length (n − 1) + (n² + n − 2)/2 for every n ≥ 2; "instead of starting Phase 2 after Phase 1
//! is completely over", the combined algorithm of Theorem 1 ([`combined`](mod@super::combined)) lets
//! Phase 2 cut into Phase 1. Both run on r×c meshes too (rows of c nodes, columns of r).
//!
//! [`TwoPhase`] is the structure every grid algorithm of the paper shares (mesh §3, torus §4):
//! the lines, their Phase-1 diagrams and, derived from the *orthogonal* lines' Phase-1 diagrams,
//! the round each Phase-2 token reaches its node (reference semantics D3 of the claim catalogue). Registered as
//! `mesh-two-phase`.

use super::grid;
use super::line::{DotWire, Line, assemble};
use super::phase1::{Reach, broadcasters, half_gossip};
use super::phase2::{Release, path_gossip};
use crate::error::{Error, Result};
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// A line algorithm for Phase 2: line length, releases, priority traffic → Phase-2 diagram.
pub type Phase2 = fn(usize, &[Release], &DotWire) -> DotWire;

/// The two phases on every line of an r×c mesh or torus.
#[derive(Debug, Clone)]
pub struct TwoPhase {
    /// Rows 0 … r − 1, then columns 0 … c − 1.
    pub lines: Vec<Line>,
    /// Each line's Phase-1 diagram.
    pub phase1: Vec<DotWire>,
    /// Each line's Phase-2 tokens: at every position, the tokens the orthogonal line's Phase 1
    /// brings there (the node's own token at round 0), in order of arrival.
    pub releases: Vec<Vec<Release>>,
    /// Traffic with priority over Phase 2 besides Phase 1 (empty unless an algorithm adds some,
    /// §3.5).
    pub extra: Vec<DotWire>,
}

impl TwoPhase {
    /// Phase 1 on every line of an r×c grid (closed lines on a torus), drawn by `phase1` from
    /// the line and its broadcasters (rows: even nodes, columns: odd nodes), and the Phase-2
    /// releases it implies.
    pub fn new(
        rows: usize,
        cols: usize,
        closed: bool,
        phase1: impl Fn(&Line, &[(usize, usize)]) -> Result<DotWire>,
    ) -> Result<Self> {
        let row_lines = (0..rows).map(|i| (Line::row(i, cols, closed), true));
        let col_lines = (0..cols).map(|j| (Line::column(j, rows, cols, closed), false));
        let mut lines = Vec::new();
        let mut sources = Vec::new();
        let mut phase1_diagrams = Vec::new();
        for (line, even) in row_lines.chain(col_lines) {
            let b = broadcasters(&line, cols, even);
            phase1_diagrams.push(phase1(&line, &b)?);
            sources.push(b);
            lines.push(line);
        }
        let mut plan = Self {
            extra: lines.iter().map(|l| DotWire::new(l.edges())).collect(),
            releases: vec![Vec::new(); lines.len()],
            lines,
            phase1: phase1_diagrams,
        };
        // Row i position j is column j's position i, and the other way round.
        let arrivals: Vec<_> = plan.lines.iter().zip(&plan.phase1).map(|(l, d)| d.arrivals(l)).collect();
        for k in 0..plan.lines.len() {
            let (is_row, index) = if k < rows { (true, k) } else { (false, k - rows) };
            let mut releases = Vec::new();
            for pos in 0..plan.lines[k].len() {
                let other = if is_row { rows + pos } else { pos };
                for &(p, token) in &sources[other] {
                    let round = if p == index {
                        0
                    } else {
                        *arrivals[other].get(&(index, token)).ok_or_else(|| Error::NotApplicable {
                            method: "phase 1".into(),
                            reason: format!("token {token} never reaches node {}", plan.lines[k].node(pos)),
                        })?
                    };
                    releases.push((round, p, Release { pos, round, token }));
                }
            }
            releases.sort_by_key(|&(round, p, _)| (round, p));
            plan.releases[k] = releases.into_iter().map(|(_, _, r)| r).collect();
        }
        Ok(plan)
    }

    /// Phase 1 on an r×c mesh (§3.1): broadcasts to both ends of every row and column.
    pub fn mesh(rows: usize, cols: usize) -> Result<Self> {
        Self::new(rows, cols, false, |line, b| half_gossip(line, b, Reach::Ends))
    }

    /// The length of Phase 1: its longest line.
    pub fn phase1_length(&self) -> usize {
        self.phase1.iter().map(DotWire::len).max().unwrap_or(0)
    }

    /// Phase 2 only after Phase 1 is over everywhere: every token joins the queues at the end
    /// of Phase 1 at the earliest.
    pub fn defer_phase2(&mut self) {
        let start = self.phase1_length();
        for r in self.releases.iter_mut().flatten() {
            r.round = r.round.max(start);
        }
    }

    /// Line `k`'s Phase-2 diagram by `phase2`, Phase-1 and extra traffic having priority.
    pub fn run_phase2(&self, k: usize, phase2: Phase2) -> Result<DotWire> {
        let mut priority = self.phase1[k].clone();
        priority.overlay(&self.extra[k], "phase 2 priority traffic")?;
        Ok(phase2(self.lines[k].len(), &self.releases[k], &priority))
    }

    /// Every line's Phase-2 diagram by `phase2`.
    pub fn run_all(&self, phase2: Phase2) -> Result<Vec<DotWire>> {
        (0..self.lines.len()).map(|k| self.run_phase2(k, phase2)).collect()
    }

    /// Every line's complete diagram: Phase 1, the extra traffic and `phase2[k]`.
    pub fn diagrams(&self, phase2: &[DotWire], method: &str) -> Result<Vec<DotWire>> {
        (0..self.lines.len())
            .map(|k| {
                let mut d = self.phase1[k].clone();
                d.overlay(&self.extra[k], method)?;
                d.overlay(&phase2[k], method)?;
                Ok(d)
            })
            .collect()
    }

    /// The schedule of every line's complete diagram.
    pub fn schedule(&self, phase2: &[DotWire], method: &str) -> Result<Schedule> {
        let diagrams = self.diagrams(phase2, method)?;
        Ok(assemble(self.lines.iter().zip(&diagrams)))
    }
}

/// The two-phase algorithm on an r×c mesh, Phase 2 after Phase 1 (`overlap = false`) or cutting
/// into it (`overlap = true`, Theorem 1).
pub(crate) fn mesh(inst: &Instance, overlap: bool, method: &str) -> Result<Schedule> {
    let (rows, cols) = grid(inst);
    let mut plan = TwoPhase::mesh(rows, cols)?;
    if !overlap {
        plan.defer_phase2();
    }
    let phase2 = plan.run_all(path_gossip)?;
    plan.schedule(&phase2, method)
}

/// The two-phase algorithm on an r×c mesh, Phase 2 after Phase 1.
pub fn mesh_two_phase(inst: &Instance) -> Result<Schedule> {
    mesh(inst, false, METHOD.name)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "mesh-two-phase",
    source: "003 §2 Fig. 1, §3.1-§3.3 (Phase 1 of Fujita-Yamashita, Phase 2 Fig. 3); GOS-4..GOS-12",
    summary: "Phase 1: even nodes broadcast along rows, odd along columns; then every line gossips its \
              collected tokens with the path algorithm: (n − 1) + (n² + n − 2)/2 rounds on n×n",
    applicability: super::MESH,
    claim: |_| None,
    run: mesh_two_phase,
};
