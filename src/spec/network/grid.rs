//! Meshes and tori (SPEC §2): `mesh:RxC` and `torus:RxC`, node (i, j) numbered i·C + j, both
//! directions on every link; the atlas routes in dimension order (along the row to the target
//! column, then along the column), the shorter way round on a torus with ties forward.

use super::family::{Blocks, Cuts, Family, NetworkFamily, guard_size, not_mine, number};
use super::{Network, Node, RingTie};

/// A mesh, wrapped around or not.
pub struct Grid {
    torus: bool,
}

/// `mesh:RxC`.
pub static MESH: Grid = Grid { torus: false };
/// `torus:RxC`.
pub static TORUS: Grid = Grid { torus: true };

impl Grid {
    fn dims(&self, family: &Family) -> Option<(usize, usize)> {
        match *family {
            Family::Mesh(r, c) if !self.torus => Some((r, c)),
            Family::Torus(r, c) if self.torus => Some((r, c)),
            _ => None,
        }
    }
}

/// The `rows x cols` blocks of a grid's nodes: row bands and column bands.
pub(super) fn bands(n: usize, r: usize, c: usize, cyclic: bool) -> Vec<Blocks> {
    vec![
        Blocks { of: (0..n).map(|x| x / c).collect(), count: r, cyclic, what: "row bands" },
        Blocks { of: (0..n).map(|x| x % c).collect(), count: c, cyclic, what: "column bands" },
    ]
}

impl NetworkFamily for Grid {
    fn name(&self) -> &'static str {
        if self.torus { "torus" } else { "mesh" }
    }

    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String> {
        let (a, b) =
            params.split_once('x').ok_or_else(|| format!("`{params}` is not ROWSxCOLS in `{text}`"))?;
        let (r, c) = (number(a, text)?, number(b, text)?);
        Ok(if self.torus { Family::Torus(r, c) } else { Family::Mesh(r, c) })
    }

    fn params(&self, family: &Family) -> String {
        self.dims(family).map_or_else(|| not_mine(self, family), |(r, c)| format!("{r}x{c}"))
    }

    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        let (r, c) = self.dims(family).ok_or_else(|| not_mine(self, family))?;
        let (rows, cols) = (r as u64, c as u64);
        // Four arcs a node on a torus; on a mesh two per link, r(c−1) + c(r−1) links.
        let arcs = if self.torus {
            rows.checked_mul(cols).and_then(|x| x.checked_mul(4))
        } else {
            rows.checked_mul(cols.saturating_sub(1))
                .and_then(|a| cols.checked_mul(rows.saturating_sub(1)).and_then(|b| a.checked_add(b)))
                .and_then(|x| x.checked_mul(2))
        };
        guard_size(rows.checked_mul(cols), arcs)?;
        if r < 1 || c < 1 || r * c < 2 {
            return Err(format!("a mesh needs at least 2 nodes, got {r}x{c}"));
        }
        if self.torus && (r < 3 || c < 3) {
            return Err(format!(
                "a torus needs at least 3 rows and 3 columns (smaller ones duplicate links), got {r}x{c}"
            ));
        }
        let mut arcs = Vec::new();
        let mut both = |u, v| arcs.extend([(u, v), (v, u)]);
        for i in 0..r {
            for j in 0..c {
                let id = i * c + j;
                if j + 1 < c {
                    both(id, id + 1);
                } else if self.torus {
                    both(id, i * c);
                }
                if i + 1 < r {
                    both(id, id + c);
                } else if self.torus {
                    both(id, j);
                }
            }
        }
        Ok((r * c, arcs))
    }

    fn default_path(&self, network: &Network, u: Node, v: Node, _: RingTie) -> Option<Vec<Node>> {
        let (_, c) = self.dims(network.family())?;
        let rows = network.len() / c;
        let (ui, uj) = (u / c, u % c);
        let (vi, vj) = (v / c, v % c);
        let mut path = vec![u];
        let mut j = uj;
        for next in line_walk(uj, vj, c, self.torus) {
            j = next;
            path.push(ui * c + j);
        }
        for next in line_walk(ui, vi, rows, self.torus) {
            path.push(next * c + j);
        }
        Some(path)
    }

    /// Corner to corner on a mesh, half of each dimension on a torus.
    fn diameter(&self, network: &Network) -> Option<(usize, bool)> {
        let (r, c) = self.dims(network.family())?;
        Some((if self.torus { r / 2 + c / 2 } else { r + c - 2 }, true))
    }

    fn diameter_bound(&self, network: &Network) -> usize {
        // Another family's network: the longest simple path bounds any.
        self.dims(network.family())
            .map_or(network.len() - 1, |(r, c)| if self.torus { r / 2 + c / 2 } else { r + c - 2 })
    }

    fn cuts(&self, network: &Network) -> Cuts {
        let blocks = match self.dims(network.family()) {
            Some((r, c)) => bands(network.len(), r, c, self.torus),
            None => Vec::new(),
        };
        Cuts { blocks, tree: None }
    }
}

/// Steps along one dimension of a mesh (or torus, shorter way, ties forward) from `a` to `b`,
/// excluding `a`.
fn line_walk(a: usize, b: usize, len: usize, torus: bool) -> Vec<usize> {
    if a == b {
        return Vec::new();
    }
    if !torus {
        return if a < b { (a + 1..=b).collect() } else { (b..a).rev().collect() };
    }
    let fwd = (b + len - a) % len;
    let back = len - fwd;
    if fwd <= back {
        (1..=fwd).map(|k| (a + k) % len).collect()
    } else {
        (1..=back).map(|k| (a + len - k) % len).collect()
    }
}

/// The rotations of a mesh or torus about its centre (used by gossip: the exact layer's symmetric witnesses and `urgent-orbits`), as node permutations, the identity first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rotations {
    /// `"the 4 rotations by 90° of mesh:6x6"`.
    pub name: String,
    /// Node i goes to `perms[g][i]`.
    pub perms: Vec<Vec<Node>>,
}

impl Rotations {
    /// The rotations of `net` by 90° (square) or 180° (otherwise) about the centre of its
    /// grid, node (i, j) = i·c + j going to (j, r − 1 − i) by 90°, to (r − 1 − i, c − 1 − j)
    /// by 180°. `None` for other families, for a 1×1 grid, and when some rotation maps a link
    /// onto itself reversed (on a torus with an odd side, on a mesh with one odd side).
    pub fn of(net: &Network) -> Option<Self> {
        let (r, c) = match *net.family() {
            Family::Mesh(r, c) | Family::Torus(r, c) if r * c > 1 => (r, c),
            _ => return None,
        };
        let (quarter, turns) = if r == c { (true, 4) } else { (false, 2) };
        let turn = |v: Node| {
            let (i, j) = (v / c, v % c);
            if quarter { j * c + (r - 1 - i) } else { (r - 1 - i) * c + (c - 1 - j) }
        };
        let mut perms: Vec<Vec<Node>> = vec![(0..net.len()).collect()];
        for g in 1..turns {
            let next = perms[g - 1].iter().map(|&v| turn(v)).collect();
            perms.push(next);
        }
        let fits = perms.iter().all(|p| {
            net.arcs().iter().all(|&(u, v)| net.arc(p[u], p[v]).is_some() && (p[u], p[v]) != (v, u))
        });
        let angle = if quarter { 90 } else { 180 };
        fits.then(|| Self {
            name: format!("the {turns} rotations by {angle}° of {}", net.spec_string()),
            perms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 90° on square grids and 180° on the others, every rotation an automorphism; none where
    /// a rotation reverses a link: the odd torus (its middle wrap link) and the mesh with one
    /// odd side (its middle row's middle link), and none off grids.
    #[test]
    fn grid_rotations_map_links_onto_links() {
        for (net, order) in
            [("mesh:6x6", 4), ("mesh:5x5", 4), ("torus:4x4", 4), ("mesh:3x5", 2), ("torus:4x6", 2)]
        {
            let net = Network::parse(net).unwrap();
            let rot = Rotations::of(&net).unwrap_or_else(|| panic!("{net}: no rotations"));
            assert_eq!(rot.perms.len(), order, "{net}");
            assert!(rot.perms[0].iter().enumerate().all(|(i, &v)| i == v), "{net}: identity first");
            for p in &rot.perms {
                assert!(net.arcs().iter().all(|&(u, v)| net.is_link(p[u], p[v])), "{net}");
            }
        }
        // (0, 0) turns to (0, 5), then (5, 5), then (5, 0) by 90°.
        let mesh6 = Rotations::of(&Network::parse("mesh:6x6").unwrap()).unwrap();
        assert_eq!([mesh6.perms[1][0], mesh6.perms[2][0], mesh6.perms[3][0]], [5, 35, 30]);
        assert_eq!(mesh6.name, "the 4 rotations by 90° of mesh:6x6");
        for net in ["torus:5x5", "torus:3x4", "mesh:3x4", "mesh:1x6", "path:6", "ring:6"] {
            assert_eq!(Rotations::of(&Network::parse(net).unwrap()), None, "{net}");
        }
    }
}
