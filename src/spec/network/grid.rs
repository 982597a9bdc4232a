//! Meshes and tori (SPEC §2): `mesh:RxC` and `torus:RxC`, node (i, j) numbered i·C + j, both
//! directions on every link; the atlas routes in dimension order (along the row to the target
//! column, then along the column), the shorter way round on a torus with ties forward.

use super::family::{Blocks, Cuts, Family, NetworkFamily, guard_nodes, not_mine, number};
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
        guard_nodes((r as u64).checked_mul(c as u64))?;
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
