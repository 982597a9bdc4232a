//! The Eastward-Southward mesh `esm:N` (paper 000 §5.2): an `N x N` mesh whose arcs go east
//! and south only, node (i, j) numbered i·N + j; the atlas's path turns once, east then south.

use super::family::{Cuts, Family, NetworkFamily, guard_size, not_mine, number};
use super::grid::bands;
use super::{Network, Node, RingTie};

/// `esm:N`.
pub struct Esm;

/// `esm:N`.
pub static ESM: Esm = Esm;

fn side(family: &Family) -> Option<usize> {
    match *family {
        Family::Esm(n) => Some(n),
        _ => None,
    }
}

impl NetworkFamily for Esm {
    fn name(&self) -> &'static str {
        "esm"
    }

    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String> {
        Ok(Family::Esm(number(params, text)?))
    }

    fn params(&self, family: &Family) -> String {
        side(family).map_or_else(|| not_mine(self, family), |n| n.to_string())
    }

    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        let n = side(family).ok_or_else(|| not_mine(self, family))?;
        let side = n as u64;
        // n² nodes; n(n−1) links east and as many south.
        guard_size(
            side.checked_mul(side),
            side.checked_mul(side.saturating_sub(1)).and_then(|a| a.checked_mul(2)),
        )?;
        if n < 2 {
            return Err(format!("an ESM needs n >= 2, got {n}"));
        }
        let mut arcs = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let id = i * n + j;
                if j + 1 < n {
                    arcs.push((id, id + 1));
                }
                if i + 1 < n {
                    arcs.push((id, id + n));
                }
            }
        }
        Ok((n * n, arcs))
    }

    fn default_path(&self, network: &Network, u: Node, v: Node, _: RingTie) -> Option<Vec<Node>> {
        let n = side(network.family())?;
        let (ui, uj) = (u / n, u % n);
        let (vi, vj) = (v / n, v % n);
        if vi < ui || vj < uj {
            return None;
        }
        let mut path: Vec<Node> = (uj..=vj).map(|j| ui * n + j).collect();
        path.extend((ui + 1..=vi).map(|i| i * n + vj));
        Some(path)
    }

    /// Corner to corner; nothing returns west or north.
    fn diameter(&self, network: &Network) -> Option<(usize, bool)> {
        side(network.family()).map(|n| (2 * (n - 1), false))
    }

    fn diameter_bound(&self, network: &Network) -> usize {
        // Another family's network: the longest simple path bounds any.
        side(network.family()).map_or(network.len() - 1, |n| 2 * (n - 1))
    }

    fn cuts(&self, network: &Network) -> Cuts {
        let blocks = side(network.family()).map_or_else(Vec::new, |n| bands(network.len(), n, n, false));
        Cuts { blocks, tree: None }
    }
}
