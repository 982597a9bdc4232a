//! # Torus gossip by offset growth (ours, not paper 003's)
//!
//! On a torus every node can do the same thing relative to itself. Say a node *knows offset*
//! d when it holds the token born d away from it (node v holds the token of v + d, coordinates
//! modulo the torus). In a schedule invariant under every translation all nodes know the same
//! set K of offsets, K = {0} at the start. In a round:
//!
//! - every node sends, on its horizontal link in the same direction e_h, the token at offset
//!   a_h ∈ K: node v + e_h gets the token born at v + a_h = (v + e_h) + (a_h − e_h), so K gains
//!   b_h = a_h − e_h, a cell whose horizontal neighbour b_h + e_h is known;
//! - every node does the same on its vertical link: K gains b_v, a cell whose vertical
//!   neighbour b_v + e_v is known.
//!
//! Each link carries one token one way: the schedule is H\* (paper 003 §1), and K grows by two
//! offsets a round, every link busy. Gossip is done when K is the whole torus, so a growth
//! order that gains two new offsets in every round but the last takes ⌈(rc − 1)/2⌉ rounds on
//! the r×c torus: the total-load bound, which on the n×n torus is Lemma 2's ⌈(n² − 1)/2⌉
//! (GOS-2). This is optimal on every torus, odd ones included, where Theorem 3's algorithm
//! takes (n² + 1)/2 + 1 (GOS-23), two rounds more.
//!
//! **The growth order** ([`growth`]) on r ≤ c (for r > c the transposed order, h and v
//! swapped), cells (row, column) of the offset torus:
//!
//! 1. rounds t = 1 … c − 1: b_h = (0, t) along row 0 (its left neighbour (0, t − 1) is known);
//!    b_v walks down column 0, (1, 0) … (r − 1, 0), then along row 1, (1, 1) … (1, c − r) (the
//!    cell above is known: (i − 1, 0) since the round before, (0, j) since round j < t);
//! 2. then the remaining cells of rows 1 … r − 1 in row-major order, two a round: the first is
//!    b_h (its left neighbour comes earlier in that order or lies in column 0, so it is known
//!    before the round), the second b_v (the cell above lies in row 0, or at least c − 2 ≥ 2
//!    places earlier when r < c and c − 1 ≥ 2 when r = c: an earlier round); the last cell alone
//!    when rc is even.
//!
//! Checked for every r, c = 3..=30 by the checker (tests/integration/gossip.rs). Registered as
//! `torus-offset-growth`.

use super::grid;
use crate::error::{Error, Result};
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule, Transmission};

/// A cell (row, column) of the offset torus.
pub type Cell = (usize, usize);

/// The offsets gained in each round on the r×c torus: (by the horizontal links, by the
/// vertical links), in the order of the module documentation.
pub fn growth(rows: usize, cols: usize) -> Vec<(Option<Cell>, Option<Cell>)> {
    if rows > cols {
        let swap = |(i, j): Cell| (j, i);
        return growth(cols, rows).into_iter().map(|(h, v)| (v.map(swap), h.map(swap))).collect();
    }
    let down: Vec<Cell> = (1..rows).map(|i| (i, 0)).chain((1..=cols - rows).map(|j| (1, j))).collect();
    let mut rounds: Vec<(Option<Cell>, Option<Cell>)> =
        (1..cols).map(|t| (Some((0, t)), Some(down[t - 1]))).collect();
    let rest: Vec<Cell> = (1..rows)
        .flat_map(|i| (1..cols).map(move |j| (i, j)))
        .filter(|&(i, j)| i > 1 || j > cols - rows)
        .collect();
    rounds.extend(rest.chunks(2).map(|pair| (Some(pair[0]), pair.get(1).copied())));
    rounds
}

/// The schedule of [`growth`] on the r×c torus of `inst`: in each round, for each gained
/// offset b, every node v sends the token of v + b + e to v + e, e the unit step from b to a
/// known neighbour.
pub fn torus_offset_growth(inst: &Instance) -> Result<Schedule> {
    let (rows, cols) = grid(inst);
    let node = |(i, j): Cell| i * cols + j;
    let add = |(i, j): Cell, (di, dj): Cell| ((i + di) % rows, (j + dj) % cols);
    // The unit steps ±e as additions modulo the torus: horizontal, then vertical.
    let units = [[(0, 1), (0, cols - 1)], [(1, 0), (rows - 1, 0)]];
    let mut known = vec![false; rows * cols];
    known[0] = true;
    let mut steps = Vec::new();
    for (h, v) in growth(rows, cols) {
        let mut step = Vec::new();
        for (gained, units) in [h, v].into_iter().zip(units) {
            let Some(b) = gained else { continue };
            let e =
                units.into_iter().find(|&e| known[node(add(b, e))]).ok_or_else(|| Error::NotApplicable {
                    method: METHOD.name.into(),
                    reason: format!(
                        "offset {b:?} has no known neighbour when it is gained (a growth-order bug)"
                    ),
                })?;
            let a = add(b, e);
            let cells = (0..rows).flat_map(|i| (0..cols).map(move |j| (i, j)));
            step.extend(cells.map(|at| Transmission {
                from: node(at),
                to: node(add(at, e)),
                tokens: vec![node(add(at, a))],
            }));
        }
        for b in [h, v].into_iter().flatten() {
            known[node(b)] = true;
        }
        step.sort_by_key(|tr| (tr.from, tr.to));
        steps.push(step);
    }
    Ok(Schedule::StoreForward(steps))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "torus-offset-growth",
    source: "ours (not paper 003's): a translation-invariant schedule growing the known offsets two a round; \
             meets GOS-2",
    summary: "every node sends the same relative token on its horizontal and its vertical link each round, \
              so all know the same offsets, two more a round: ⌈(rc − 1)/2⌉ rounds = Lemma 2's bound on \
              every torus, odd ones included",
    applicability: super::TORUS,
    claim: |_| None,
    run: torus_offset_growth,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3×4 order of the module documentation: row 0 by h, column 0 then (1, 1) by v, then
    /// the rest of rows 1 and 2 in pairs, the last alone (12 cells, ⌈11/2⌉ = 6 rounds); the 4×3
    /// order is its transpose with h and v swapped.
    #[test]
    fn growth_order_on_three_by_four() {
        let order = growth(3, 4);
        let expected = [
            (Some((0, 1)), Some((1, 0))),
            (Some((0, 2)), Some((2, 0))),
            (Some((0, 3)), Some((1, 1))),
            (Some((1, 2)), Some((1, 3))),
            (Some((2, 1)), Some((2, 2))),
            (Some((2, 3)), None),
        ];
        assert_eq!(order, expected);
        let transposed: Vec<_> =
            expected.iter().map(|&(h, v)| (v.map(|(i, j)| (j, i)), h.map(|(i, j)| (j, i)))).collect();
        assert_eq!(growth(4, 3), transposed);
    }
}
