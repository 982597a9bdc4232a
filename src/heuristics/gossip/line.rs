//! # Lines and dot-wire diagrams (paper 003 §2, §3.1)
//!
//! Every gossip algorithm of Lau & Zhang works line by line: a row or a column of the mesh
//! (an open [`Line`]), a row or a column of the torus (a closed one, its "linear view", §4.1
//! footnote 2), or the whole path or cycle. A line's nodes are v_0 … v_{n−1}; edge e joins v_e
//! and v_{e+1} (v_0 on a closed line's last edge). Rows and columns use disjoint links, so a
//! mesh or torus schedule is the union of its lines' schedules, step by step ([`assemble`]).
//!
//! A line's traffic is its **dot-wire diagram** ([`DotWire`], §2): one row of dots per round,
//! one dot per edge; a black dot is an edge carrying a token in that round, a white dot an
//! idle edge instance. A token's consecutive black dots form its wire; "no two wires may
//! cross at a black dot", which the diagram enforces: an edge holds at most one token per round
//! in one direction, the H\* link rule. Idle instances and the first white dot (GOS-5, GOS-18)
//! are read off the diagram.

use crate::error::{Error, Result};
use crate::spec::{Node, Schedule, Transmission};
use std::collections::HashMap;

/// The way a token crosses edge e of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// From v_e to v_{e+1} ("right" in the paper's figures, increasing position).
    Right,
    /// From v_{e+1} to v_e.
    Left,
}

/// A black dot: `token` crossing an edge in direction `dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dot {
    /// The token, named by its origin node (SPEC §4.2 copy mode).
    pub token: usize,
    /// Its direction.
    pub dir: Dir,
}

/// A row, column, path or cycle: its nodes v_0 … v_{n−1} in order, and whether v_{n−1} and v_0
/// are joined (a torus ring).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    nodes: Vec<Node>,
    closed: bool,
}

impl Line {
    /// An open line (mesh row or column, path).
    pub fn open(nodes: Vec<Node>) -> Self {
        Self { nodes, closed: false }
    }

    /// A closed line (torus row or column, cycle); needs at least 3 nodes to have distinct edges.
    pub fn closed(nodes: Vec<Node>) -> Self {
        Self { closed: nodes.len() >= 3, nodes }
    }

    /// Row `i` of an r×c mesh or torus: nodes i·c + j, j = 0..c.
    pub fn row(i: usize, cols: usize, closed: bool) -> Self {
        Self::new((0..cols).map(|j| i * cols + j).collect(), closed)
    }

    /// Column `j` of an r×c mesh or torus: nodes i·c + j, i = 0..r.
    pub fn column(j: usize, rows: usize, cols: usize, closed: bool) -> Self {
        Self::new((0..rows).map(|i| i * cols + j).collect(), closed)
    }

    fn new(nodes: Vec<Node>, closed: bool) -> Self {
        if closed { Self::closed(nodes) } else { Self::open(nodes) }
    }

    /// Number of nodes n.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the line has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether v_{n−1} and v_0 are joined.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Number of edges: n on a closed line, n − 1 on an open one.
    pub fn edges(&self) -> usize {
        if self.closed { self.len() } else { self.len().saturating_sub(1) }
    }

    /// The node v_pos.
    pub fn node(&self, pos: usize) -> Node {
        self.nodes[pos]
    }

    /// The nodes v_0 … v_{n−1}.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The positions edge `e` joins, (e, e + 1 mod n).
    pub fn ends(&self, e: usize) -> (usize, usize) {
        (e, (e + 1) % self.len())
    }

    /// The edge and direction of a hop from position `from` to the adjacent position `to`.
    pub fn hop(&self, from: usize, to: usize) -> (usize, Dir) {
        if self.ends(from).1 == to { (from, Dir::Right) } else { (to, Dir::Left) }
    }

    /// The position a token crossing edge `e` in direction `dir` arrives at.
    pub fn head(&self, e: usize, dir: Dir) -> usize {
        let (a, b) = self.ends(e);
        if dir == Dir::Right { b } else { a }
    }
}

/// A dot-wire diagram: for every round (from 1) and every edge of a line, a black dot (a token
/// crossing it) or a white one (idle).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DotWire {
    edges: usize,
    rounds: Vec<Vec<Option<Dot>>>,
}

impl DotWire {
    /// An empty diagram over `edges` edges.
    pub fn new(edges: usize) -> Self {
        Self { edges, rounds: Vec::new() }
    }

    /// Number of edges.
    pub fn edges(&self) -> usize {
        self.edges
    }

    /// The last round holding a black dot (0 when there is none).
    pub fn len(&self) -> usize {
        self.rounds.iter().rposition(|r| r.iter().any(Option::is_some)).map_or(0, |t| t + 1)
    }

    /// Whether the diagram has no black dot.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The dot on `edge` in `round` (rounds from 1), `None` when white.
    pub fn dot(&self, round: usize, edge: usize) -> Option<Dot> {
        self.rounds.get(round.wrapping_sub(1)).and_then(|r| r[edge])
    }

    /// Whether `edge` carries a token in `round`.
    pub fn is_busy(&self, round: usize, edge: usize) -> bool {
        self.dot(round, edge).is_some()
    }

    /// Draws a black dot; a wire crossing another at a black dot is refused with the dot
    /// already there.
    pub fn put(&mut self, round: usize, edge: usize, dot: Dot) -> std::result::Result<(), Dot> {
        assert!(round >= 1 && edge < self.edges, "dot outside the diagram");
        if self.rounds.len() < round {
            self.rounds.resize(round, vec![None; self.edges]);
        }
        match self.rounds[round - 1][edge] {
            Some(other) => Err(other),
            None => {
                self.rounds[round - 1][edge] = Some(dot);
                Ok(())
            }
        }
    }

    /// Draws every black dot of `other` into this diagram; wires crossing at a black dot are an
    /// error of the algorithm named `method`.
    pub fn overlay(&mut self, other: &DotWire, method: &str) -> Result<()> {
        for (t, round) in other.rounds.iter().enumerate() {
            for (e, dot) in round.iter().enumerate() {
                if let Some(dot) = *dot {
                    self.put(t + 1, e, dot).map_err(|was| crossing(method, t + 1, e, dot, was))?;
                }
            }
        }
        Ok(())
    }

    /// The white dots (idle edge instances) in rounds 1 … [`len`](Self::len).
    pub fn idle(&self) -> usize {
        self.edges * self.len() - self.black()
    }

    /// The black dots.
    pub fn black(&self) -> usize {
        self.rounds.iter().flatten().filter(|d| d.is_some()).count()
    }

    /// The first round holding a white dot within rounds 1 … [`len`](Self::len).
    pub fn first_idle(&self) -> Option<usize> {
        (1..=self.len()).find(|&t| (0..self.edges).any(|e| !self.is_busy(t, e)))
    }

    /// The round at the end of which `token` first reaches position `pos` of `line` along this
    /// diagram, if it does.
    pub fn arrival(&self, line: &Line, pos: usize, token: usize) -> Option<usize> {
        self.arrivals(line).get(&(pos, token)).copied()
    }

    /// For every (position, token) the diagram brings a token to on `line`, the round at the end
    /// of which it first gets there.
    pub fn arrivals(&self, line: &Line) -> HashMap<(usize, usize), usize> {
        let mut first = HashMap::new();
        for (t, round) in self.rounds.iter().enumerate() {
            for (e, dot) in round.iter().enumerate() {
                if let Some(d) = dot {
                    first.entry((line.head(e, d.dir), d.token)).or_insert(t + 1);
                }
            }
        }
        first
    }

    /// The diagram's transmissions on `line`, one list per round.
    pub fn transmissions(&self, line: &Line) -> Vec<Vec<Transmission>> {
        self.rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .enumerate()
                    .filter_map(|(e, dot)| {
                        let dot = (*dot)?;
                        let (a, b) = line.ends(e);
                        let (from, to) = if dot.dir == Dir::Right { (a, b) } else { (b, a) };
                        Some(Transmission {
                            from: line.node(from),
                            to: line.node(to),
                            tokens: vec![dot.token],
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

/// The error of two wires crossing at a black dot.
pub(crate) fn crossing(method: &str, round: usize, edge: usize, dot: Dot, was: Dot) -> Error {
    Error::NotApplicable {
        method: method.to_string(),
        reason: format!(
            "wires cross at a black dot: round {round}, edge {edge} carries token {} and token {}",
            was.token, dot.token
        ),
    }
}

/// The store-and-forward schedule of lines using pairwise disjoint links: step t holds every
/// line's round-t transmissions.
pub fn assemble<'a>(parts: impl IntoIterator<Item = (&'a Line, &'a DotWire)>) -> Schedule {
    let mut steps: Vec<Vec<Transmission>> = Vec::new();
    for (line, diagram) in parts {
        for (t, round) in diagram.transmissions(line).into_iter().enumerate() {
            if steps.len() <= t {
                steps.resize(t + 1, Vec::new());
            }
            steps[t].extend(round);
        }
    }
    while steps.last().is_some_and(Vec::is_empty) {
        steps.pop();
    }
    Schedule::StoreForward(steps)
}
