//! Linear arrays (SPEC §2): `ula:N`, arcs (x, x+1), and `path:N`, both directions; nodes
//! numbered along the line, the unique path as the atlas's.

use super::family::{Blocks, Cuts, Family, NetworkFamily, guard_size, not_mine, number};
use super::{Network, Node, RingTie};

/// A linear array, unidirectional or not.
pub struct Line {
    directed: bool,
}

/// `ula:N`.
pub static ULA: Line = Line { directed: true };
/// `path:N`.
pub static PATH: Line = Line { directed: false };

impl Line {
    fn length(&self, family: &Family) -> Option<usize> {
        match *family {
            Family::Ula(n) if self.directed => Some(n),
            Family::Path(n) if !self.directed => Some(n),
            _ => None,
        }
    }
}

impl NetworkFamily for Line {
    fn name(&self) -> &'static str {
        if self.directed { "ula" } else { "path" }
    }

    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String> {
        let n = number(params, text)?;
        Ok(if self.directed { Family::Ula(n) } else { Family::Path(n) })
    }

    fn params(&self, family: &Family) -> String {
        self.length(family).map_or_else(|| not_mine(self, family), |n| n.to_string())
    }

    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        let n = self.length(family).ok_or_else(|| not_mine(self, family))?;
        let links = (n as u64).saturating_sub(1);
        guard_size(Some(n as u64), links.checked_mul(if self.directed { 1 } else { 2 }))?;
        if n < 2 {
            return Err(format!("a linear array needs at least 2 nodes, got {n}"));
        }
        let mut arcs = Vec::new();
        for x in 0..n - 1 {
            arcs.push((x, x + 1));
            if !self.directed {
                arcs.push((x + 1, x));
            }
        }
        Ok((n, arcs))
    }

    fn default_path(&self, _: &Network, u: Node, v: Node, _: RingTie) -> Option<Vec<Node>> {
        match (u < v, self.directed) {
            (true, _) => Some((u..=v).collect()),
            (false, true) => None,
            (false, false) => Some((v..=u).rev().collect()),
        }
    }

    /// n − 1 from one end to the other; only the `path` returns.
    fn diameter(&self, network: &Network) -> Option<(usize, bool)> {
        self.length(network.family()).map(|n| (n - 1, !self.directed))
    }

    fn diameter_bound(&self, network: &Network) -> usize {
        network.len() - 1
    }

    fn cuts(&self, network: &Network) -> Cuts {
        let n = network.len();
        let line = Blocks { of: (0..n).collect(), count: n, cyclic: false, what: "intervals of the line" };
        Cuts { blocks: vec![line], tree: None }
    }
}
