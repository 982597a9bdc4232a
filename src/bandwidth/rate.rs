//! The optimal rate (docs/spec.md §3.2): the cut S, holding some but not all compute nodes, with
//! the least ratio B⁺(S) / |S ∩ C| of leaving bandwidth to shards inside. Its inverse is the least
//! time per shard of allgather (Zhao & Krishnamurthy, arXiv 2305.18461; ForestColl, arXiv
//! 2402.06787, §4), reached here by Dinkelbach's method: for the ratio λ = B/s of the best cut so
//! far, a max-flow from a source joined to every compute node by capacity B, over links of
//! capacity s·b, reaches a compute node v with less than B·N exactly when some cut without v has
//! s·B⁺(X) < B·|X ∩ C|; the smallest such cut over all v is the next, strictly better ratio. No
//! cut left means λ is the optimum, and the last cut is its certificate.

use super::flow::{FlowNetwork, INFINITE};
use super::{Graph, Halt, out_of_time};
use std::time::Instant;

/// A cut and its ratio's two integers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatioCut {
    /// Membership of S, by node.
    pub inside: Vec<bool>,
    /// B⁺(S), in the graph's integer bandwidth units.
    pub leaving: u64,
    /// |S ∩ C|.
    pub shards: u64,
}

impl RatioCut {
    fn of(g: &Graph, inside: Vec<bool>) -> Self {
        let leaving = g.arcs.iter().filter(|a| inside[a.0] && !inside[a.1]).map(|a| a.2).sum();
        let shards = (0..g.n).filter(|&v| inside[v] && g.compute[v]).count() as u64;
        Self { inside, leaving, shards }
    }

    /// Whether this cut's ratio is below the other's.
    fn below(&self, other: &RatioCut) -> bool {
        u128::from(self.leaving) * u128::from(other.shards)
            < u128::from(other.leaving) * u128::from(self.shards)
    }
}

/// The best of the cuts V \\ {v} for a compute node v: what v receives bounds the rate.
pub fn single_node_cut(g: &Graph) -> RatioCut {
    (0..g.n)
        .filter(|&v| g.compute[v])
        .map(|v| RatioCut::of(g, (0..g.n).map(|u| u != v).collect()))
        .reduce(|a, b| if b.below(&a) { b } else { a })
        .expect("a fabric has compute nodes")
}

/// The cut of least ratio, by Dinkelbach's iteration from the best single-node cut V \ {v}.
pub fn optimal_cut(g: &Graph, deadline: Option<Instant>) -> Result<RatioCut, Halt> {
    let compute: Vec<usize> = (0..g.n).filter(|&v| g.compute[v]).collect();
    let n = compute.len() as u64;
    let mut best = single_node_cut(g);
    loop {
        let (b, s) = (best.leaving, best.shards);
        let mut base = FlowNetwork::new(g.n + 1);
        let source = g.n;
        for &v in &compute {
            base.add_arc(source, v, b);
        }
        for &(u, v, c) in &g.arcs {
            base.add_arc(u, v, c.saturating_mul(s).min(INFINITE));
        }
        let target = b * n;
        let mut next: Option<(u64, RatioCut)> = None;
        for &v in &compute {
            if out_of_time(deadline) {
                return Err(Halt::Deadline(Some(best)));
            }
            let mut net = base.clone();
            let flow = net.max_flow(source, v, target);
            if flow < target && next.as_ref().is_none_or(|(f, _)| flow < *f) {
                let side = net.source_side(source);
                next = Some((flow, RatioCut::of(g, side[..g.n].to_vec())));
            }
        }
        match next {
            Some((_, cut)) if cut.below(&best) => best = cut,
            _ => return Ok(best),
        }
    }
}
