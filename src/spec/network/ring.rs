//! Rings (SPEC §2): `ring:N`, both directions, and `uring:N`, arcs (x, x+1 mod n); the atlas
//! takes the shorter direction, antipodal ties by the instance's [`RingTie`].

use super::family::{Blocks, Cuts, Family, NetworkFamily, guard_size, not_mine, number};
use super::{Network, Node, RingTie};

/// A ring, unidirectional or not.
pub struct Ring {
    directed: bool,
}

/// `ring:N`.
pub static RING: Ring = Ring { directed: false };
/// `uring:N`.
pub static URING: Ring = Ring { directed: true };

impl Ring {
    fn length(&self, family: &Family) -> Option<usize> {
        match *family {
            Family::URing(n) if self.directed => Some(n),
            Family::Ring(n) if !self.directed => Some(n),
            _ => None,
        }
    }
}

impl NetworkFamily for Ring {
    fn name(&self) -> &'static str {
        if self.directed { "uring" } else { "ring" }
    }

    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String> {
        let n = number(params, text)?;
        Ok(if self.directed { Family::URing(n) } else { Family::Ring(n) })
    }

    fn params(&self, family: &Family) -> String {
        self.length(family).map_or_else(|| not_mine(self, family), |n| n.to_string())
    }

    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        let n = self.length(family).ok_or_else(|| not_mine(self, family))?;
        guard_size(Some(n as u64), (n as u64).checked_mul(if self.directed { 1 } else { 2 }))?;
        if n < 3 {
            return Err(format!("a ring needs at least 3 nodes, got {n}"));
        }
        let mut arcs = Vec::new();
        for x in 0..n {
            arcs.push((x, (x + 1) % n));
            if !self.directed {
                arcs.push(((x + 1) % n, x));
            }
        }
        Ok((n, arcs))
    }

    fn default_path(&self, network: &Network, u: Node, v: Node, tie: RingTie) -> Option<Vec<Node>> {
        let n = network.len();
        let cw = (v + n - u) % n;
        let ccw = n - cw;
        let clockwise = if self.directed || cw != ccw {
            self.directed || cw < ccw
        } else {
            match tie {
                RingTie::Clockwise => true,
                RingTie::Counterclockwise => false,
                RingTie::Alternating => u.is_multiple_of(2),
            }
        };
        let (steps, dir) = if clockwise { (cw, 1) } else { (ccw, n - 1) };
        Some((0..=steps).map(|k| (u + k * dir) % n).collect())
    }

    /// Half the ring both ways, all of it one way.
    fn diameter(&self, network: &Network) -> Option<(usize, bool)> {
        self.length(network.family()).map(|n| (if self.directed { n - 1 } else { n / 2 }, true))
    }

    fn diameter_bound(&self, network: &Network) -> usize {
        if self.directed { network.len() - 1 } else { network.len() / 2 }
    }

    fn cuts(&self, network: &Network) -> Cuts {
        let n = network.len();
        let ring =
            Blocks { of: (0..n).collect(), count: n, cyclic: true, what: "cyclic intervals of the ring" };
        Cuts { blocks: vec![ring], tree: None }
    }
}
