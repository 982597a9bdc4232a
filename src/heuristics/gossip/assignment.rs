//! # Maximum-weight maximum matchings (the step of `urgent-orbits`)
//!
//! Among the matchings of a bipartite graph with the most edges, one of the greatest total
//! weight, by successive shortest augmenting paths (the Hungarian method): with every edge
//! costing W − w (W above every weight, so every cost is positive), a matching of k edges
//! costs k·W − Σw, so the cheapest matching of the largest size is the one wanted. Starting
//! empty, each round augments along a cheapest path from a free left vertex to a free right
//! vertex (Dijkstra on costs reduced by vertex potentials, which keep them non-negative); after
//! each round the matching is a cheapest one of its size, and the rounds stop when no
//! augmenting path is left, at the largest size. O(k · E log V) for k augmentations.
//!
//! Weights are floating-point urgencies; a reduced cost that rounding pushes below zero is read
//! as zero. Whatever the rounding, the answer is a matching, and the checker judges the
//! schedule built from it.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// An edge between left vertex `left` and right vertex `right`, of weight `weight`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Edge {
    /// Its left end, below the number of left vertices.
    pub left: usize,
    /// Its right end, below the number of right vertices.
    pub right: usize,
    /// Its weight.
    pub weight: f64,
}

/// A distance in the heap: ordered by `total_cmp`.
#[derive(PartialEq)]
struct Distance(f64);

impl Eq for Distance {}

impl Ord for Distance {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl PartialOrd for Distance {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A vertex of the search: a left one or a right one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    Left(usize),
    Right(usize),
}

/// A maximum matching of greatest weight among the maximum ones (module documentation): the
/// indices of its edges in `edges`, in increasing order.
pub(super) fn max_weight_maximum_matching(lefts: usize, rights: usize, edges: &[Edge]) -> Vec<usize> {
    let top = edges.iter().map(|e| e.weight).fold(f64::MIN, f64::max) + 1.0;
    let cost = |e: usize| top - edges[e].weight;
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); lefts];
    for (i, e) in edges.iter().enumerate() {
        out[e.left].push(i);
    }
    // The edge each vertex is matched by.
    let mut left_edge: Vec<Option<usize>> = vec![None; lefts];
    let mut right_edge: Vec<Option<usize>> = vec![None; rights];
    let (mut left_potential, mut right_potential) = (vec![0.0; lefts], vec![0.0; rights]);
    loop {
        let (mut left_distance, mut right_distance) =
            (vec![f64::INFINITY; lefts], vec![f64::INFINITY; rights]);
        // The edge a right vertex was reached by.
        let mut reached_by: Vec<Option<usize>> = vec![None; rights];
        let mut heap = BinaryHeap::new();
        for l in (0..lefts).filter(|&l| left_edge[l].is_none()) {
            left_distance[l] = 0.0;
            heap.push(Reverse((Distance(0.0), Side::Left(l))));
        }
        let mut end = None;
        while let Some(Reverse((Distance(d), side))) = heap.pop() {
            match side {
                Side::Left(l) if d <= left_distance[l] => {
                    for &e in out[l].iter().filter(|&&e| left_edge[l] != Some(e)) {
                        let r = edges[e].right;
                        let next = d + (cost(e) + left_potential[l] - right_potential[r]).max(0.0);
                        if next < right_distance[r] {
                            right_distance[r] = next;
                            reached_by[r] = Some(e);
                            heap.push(Reverse((Distance(next), Side::Right(r))));
                        }
                    }
                }
                Side::Right(r) if d <= right_distance[r] => match right_edge[r] {
                    None => {
                        end = Some(r);
                        break;
                    }
                    // Back along the matched edge, whose reduced cost the potentials keep at 0.
                    Some(e) => {
                        let l = edges[e].left;
                        if d < left_distance[l] {
                            left_distance[l] = d;
                            heap.push(Reverse((Distance(d), Side::Left(l))));
                        }
                    }
                },
                _ => {}
            }
        }
        let Some(mut r) = end else { break };
        let reach = right_distance[r];
        for (p, d) in left_potential.iter_mut().zip(&left_distance) {
            *p += d.min(reach);
        }
        for (p, d) in right_potential.iter_mut().zip(&right_distance) {
            *p += d.min(reach);
        }
        // Flip the path: each left vertex on it takes the edge that reached the right vertex
        // after it and gives up the one it had, which reached the right vertex before it.
        while let Some(e) = reached_by[r] {
            let l = edges[e].left;
            let before = left_edge[l].replace(e);
            right_edge[r] = Some(e);
            match before {
                Some(b) => r = edges[b].right,
                None => break,
            }
        }
    }
    let mut matched: Vec<usize> = left_edge.into_iter().flatten().collect();
    matched.sort_unstable();
    matched
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(left: usize, right: usize, weight: f64) -> Edge {
        Edge { left, right, weight }
    }

    /// Size first, then weight: the heavy edge 0–0 alone would block 1–0 and leave a smaller
    /// matching, so the answer is 0–1 with 1–0; among the perfect matchings of a 3×3 grid of
    /// weights the heaviest is found (checked against all six).
    #[test]
    fn the_largest_matchings_then_the_heaviest() {
        let edges = [edge(0, 0, 10.0), edge(0, 1, 1.0), edge(1, 0, 1.0)];
        assert_eq!(max_weight_maximum_matching(2, 2, &edges), [1, 2]);
        let w = [[3.0, 1.0, 4.0], [1.0, 5.0, 9.0], [2.0, 6.0, 5.0]];
        let grid: Vec<Edge> = (0..3).flat_map(|l| (0..3).map(move |r| edge(l, r, w[l][r]))).collect();
        let best = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
            .iter()
            .map(|p| (0..3).map(|l| w[l][p[l]]).sum::<f64>())
            .fold(f64::MIN, f64::max);
        let matched = max_weight_maximum_matching(3, 3, &grid);
        assert_eq!(matched.len(), 3);
        assert_eq!(matched.iter().map(|&e| grid[e].weight).sum::<f64>(), best);
    }
}
