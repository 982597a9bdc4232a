//! Rooted trees `tree:P1,P2,…` (SPEC §2): node v ≥ 1 has parent `Pv < v`, root 0, both
//! directions on every edge; the atlas's path is the unique one, through the lowest common
//! ancestor.

use super::family::{Cuts, Family, NetworkFamily, guard_size, not_mine, number};
use super::{Network, Node, RingTie};

/// `tree:P1,P2,…`.
pub struct Tree;

/// `tree:P1,P2,…`.
pub static TREE: Tree = Tree;

fn parents(family: &Family) -> Option<&[Node]> {
    match family {
        Family::Tree(parent) => Some(parent),
        _ => None,
    }
}

impl NetworkFamily for Tree {
    fn name(&self) -> &'static str {
        "tree"
    }

    fn parse(&'static self, params: &str, text: &str) -> Result<Family, String> {
        let mut parent = vec![0];
        for t in params.split(',') {
            parent.push(number(t, text)?);
        }
        Ok(Family::Tree(parent))
    }

    fn params(&self, family: &Family) -> String {
        let Some(parent) = parents(family) else { return not_mine(self, family) };
        let parents: Vec<String> = parent[1..].iter().map(|x| x.to_string()).collect();
        parents.join(",")
    }

    fn build(&self, family: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        let parent = parents(family).ok_or_else(|| not_mine(self, family))?;
        let n = parent.len();
        guard_size(Some(n as u64), (n as u64).saturating_sub(1).checked_mul(2))?;
        if n < 2 {
            return Err(format!("a tree needs at least 2 nodes, got {n}"));
        }
        let mut arcs = Vec::new();
        for (v, &p) in parent.iter().enumerate().skip(1) {
            if p >= v {
                return Err(format!(
                    "tree node {v} has parent {p}: parents must be numbered below their children"
                ));
            }
            arcs.extend([(p, v), (v, p)]);
        }
        Ok((n, arcs))
    }

    fn default_path(&self, network: &Network, u: Node, v: Node, _: RingTie) -> Option<Vec<Node>> {
        let parent = parents(network.family())?;
        let ancestors = |mut x: Node| {
            let mut a = vec![x];
            while x != 0 {
                x = parent[x];
                a.push(x);
            }
            a
        };
        let au = ancestors(u);
        let av = ancestors(v);
        let lca = *au.iter().find(|x| av.contains(x))?;
        let mut path: Vec<Node> = au.iter().copied().take_while(|&x| x != lca).collect();
        path.push(lca);
        let down: Vec<Node> = av.iter().copied().take_while(|&x| x != lca).collect();
        path.extend(down.into_iter().rev());
        Some(path)
    }

    /// The longest path through a node, from the heights of its two highest subtrees (parents
    /// are numbered below their children, so one pass from the leaves up).
    fn diameter(&self, network: &Network) -> Option<(usize, bool)> {
        let parent = parents(network.family())?;
        let mut height = vec![0; parent.len()];
        let mut diameter = 0;
        for v in (1..parent.len()).rev() {
            let (p, h) = (parent[v], height[v] + 1);
            diameter = diameter.max(height[p] + h);
            height[p] = height[p].max(h);
        }
        Some((diameter, true))
    }

    fn diameter_bound(&self, network: &Network) -> usize {
        network.len() - 1
    }

    fn cuts(&self, network: &Network) -> Cuts {
        Cuts { blocks: Vec::new(), tree: parents(network.family()).map(<[Node]>::to_vec) }
    }
}
