//! The ideal fat-tree `fat-tree:N` (paper 002, SPEC §4.3): N a power of two ≥ 2 processors at
//! the leaves of a complete binary tree; only processors are nodes, so the network has no arcs
//! and distances are twice the height of the lowest common ancestor.

use super::family::{Family, NetworkFamily, guard_size, not_mine, number};
use super::{Network, Node};

/// `fat-tree:N`.
pub struct FatTree;

/// `fat-tree:N`.
pub static FAT_TREE: FatTree = FatTree;

fn processors(family: &Family) -> Option<usize> {
    match *family {
        Family::FatTree(n) => Some(n),
        _ => None,
    }
}

impl NetworkFamily for FatTree {
    fn name(&self) -> &'static str {
        "fat-tree"
    }

    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String> {
        Ok(Family::FatTree(number(params, text)?))
    }

    fn params(&self, family: &Family) -> String {
        processors(family).map_or_else(|| not_mine(self, family), |n| n.to_string())
    }

    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        let n = processors(family).ok_or_else(|| not_mine(self, family))?;
        guard_size(Some(n as u64), Some(0))?;
        if n < 2 || !n.is_power_of_two() {
            return Err(format!("a fat-tree needs a power of two >= 2 processors, got {n}"));
        }
        Ok((n, Vec::new()))
    }

    /// Processors are not joined by arcs: no designated paths.
    fn default_path(&self, _: &Network, _: Node, _: Node, _: super::RingTie) -> Option<Vec<Node>> {
        None
    }

    /// 2 × the height of the lowest common ancestor (SPEC §4.3).
    fn distance(&self, _: &Network, u: Node, v: Node) -> Option<usize> {
        Some(2 * fat_tree_lca_height(u, v))
    }

    fn levels_refusal(&self) -> Option<&'static str> {
        Some("an ideal fat-tree has channels, not arcs between processors")
    }

    /// No arcs join the processors.
    fn diameter(&self, network: &Network) -> Option<(usize, bool)> {
        processors(network.family()).map(|_| (0, false))
    }

    fn diameter_bound(&self, network: &Network) -> usize {
        2 * network.len().ilog2() as usize
    }
}

/// Height of the lowest common ancestor of leaves `a` and `b` in a complete binary tree
/// (0 when a == b) (paper 002 §2).
pub fn fat_tree_lca_height(a: Node, b: Node) -> usize {
    (usize::BITS - (a ^ b).leading_zeros()) as usize
}

/// The step at whose end a fat-tree message from `a` to `b` submitted in `step` is received:
/// step + 2h − 1 with h their LCA height (SPEC §4.3).
pub fn fat_tree_arrival(a: Node, b: Node, step: i64) -> i64 {
    step + 2 * fat_tree_lca_height(a, b) as i64 - 1
}
