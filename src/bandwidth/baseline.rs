//! The algorithms users compare the optimum against (docs/spec.md §3.2), written as packings of
//! the bandwidth model so that the checker measures them like any other packing: nothing here
//! states its own time. Every tree has weight 1 (the whole shard follows one route), and a tree
//! edge between two ranks is the route between them: a shortest path in links, taking the
//! widest link first where shortest paths tie.
//!
//! - [`ring`](Baseline::Ring), NCCL's ring: the ranks in a ring order, every shard passed N − 1
//!   times around it. NCCL searches its rings on the topology; here the order is the greedy walk
//!   [`ring_order`], each rank followed by the nearest rank not yet in the ring.
//! - [`hierarchical-ring`](Baseline::HierarchicalRing), NCCL's two-level ring: the shard of
//!   GPU g of a box goes around the ring of the boxes' GPUs g, then around every box's own
//!   ring. Boxes are read from the compute nodes' names, `BOX.GPU` (as the named machines name
//!   them, `n3.gpu5`), all of one size.
//! - [`direct`](Baseline::Direct): every root sends its shard to every rank itself.
//! - [`bruck`](Baseline::Bruck), Bruck et al.'s allgather in ⌈log₂ N⌉ steps (the shape of
//!   NCCL's PAT for one GPU per node): in step k every rank forwards all it holds to the rank
//!   2^k before it in the ring order, so the shard of rank p reaches rank p + j from rank
//!   p + j − 2^⌊log₂ j⌋.
//!
//! A reduce-scatter is the allgather of the reversed fabric with every path reversed, as in the
//! optimiser; an allreduce runs both. NCCL's double binary tree is not among them: it reduces
//! and broadcasts whole buffers through one root per tree, which no packing of per-root shards
//! expresses.

use super::guard_hops;
use crate::error::Result;
use crate::spec::fabric::Fabric;
use crate::spec::packing::{BandwidthCollective, Packing, Phase, Tree};
use num_rational::BigRational;
use std::collections::{HashMap, VecDeque};

/// A root and the paths of its tree's edges.
type RootedPaths = (usize, Vec<Vec<usize>>);

/// A registered algorithm of the bandwidth model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Baseline {
    /// NCCL's ring.
    Ring,
    /// NCCL's hierarchical (two-level) ring.
    HierarchicalRing,
    /// Every root to every rank.
    Direct,
    /// Bruck's doubling allgather.
    Bruck,
}

impl Baseline {
    /// Every algorithm, in the order tables list them.
    pub const ALL: [Baseline; 4] = [Self::Ring, Self::HierarchicalRing, Self::Direct, Self::Bruck];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ring => "ring",
            Self::HierarchicalRing => "hierarchical-ring",
            Self::Direct => "direct",
            Self::Bruck => "bruck",
        }
    }

    /// The algorithm with this name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == s)
    }

    /// Its packing of `collective` on `fabric`; `Ok(Err(reason))` where it does not apply.
    pub fn packing(
        self,
        fabric: &Fabric,
        collective: BandwidthCollective,
    ) -> Result<std::result::Result<Packing, String>> {
        let n = fabric.compute().len() as u128;
        guard_hops(n * (n - 1) * collective.phases().len() as u128, "the algorithm's packing")?;
        if !reaches_all(fabric) || !reaches_all(&fabric.reversed()) {
            return Ok(Err("a compute node cannot reach another".into()));
        }
        let mut trees = Vec::new();
        for &phase in collective.phases() {
            let oriented = match phase {
                Phase::Allgather => fabric.clone(),
                Phase::ReduceScatter => fabric.reversed(),
            };
            let mut routes = Routes::new(&oriented);
            let edges = match self.tree_edges(&oriented, &mut routes) {
                Ok(edges) => edges,
                Err(reason) => return Ok(Err(reason)),
            };
            let hops: usize = edges.iter().map(|(_, paths)| paths.iter().map(Vec::len).sum::<usize>()).sum();
            guard_hops(hops as u128, "the algorithm's packing")?;
            trees.extend(edges.into_iter().map(|(root, mut paths)| {
                if phase == Phase::ReduceScatter {
                    paths.iter_mut().for_each(|p| p.reverse());
                }
                Tree { phase, root, weight: BigRational::from_integer(1.into()), paths }
            }));
        }
        Ok(Ok(Packing { collective, trees, symmetry: None }))
    }

    /// Every root's allgather tree on `fabric`, as its edges' paths.
    fn tree_edges(
        self,
        fabric: &Fabric,
        routes: &mut Routes,
    ) -> std::result::Result<Vec<RootedPaths>, String> {
        let compute = fabric.compute();
        let n = compute.len();
        Ok(match self {
            Self::Direct => compute
                .iter()
                .map(|&root| {
                    (root, compute.iter().filter(|&&v| v != root).map(|&v| routes.path(root, v)).collect())
                })
                .collect(),
            Self::Ring => {
                let order = ring_order(routes, &compute);
                (0..n)
                    .map(|p| {
                        let hop = |j: usize| routes.path(order[(p + j) % n], order[(p + j + 1) % n]);
                        (order[p], (0..n - 1).map(hop).collect())
                    })
                    .collect()
            }
            Self::Bruck => {
                let order = ring_order(routes, &compute);
                (0..n)
                    .map(|p| {
                        let edge = |j: usize| {
                            let from = (p + j - (1 << j.ilog2())) % n;
                            routes.path(order[from], order[(p + j) % n])
                        };
                        (order[p], (1..n).map(edge).collect())
                    })
                    .collect()
            }
            Self::HierarchicalRing => {
                let boxes = boxes(fabric, &compute)?;
                let rings: Vec<Vec<usize>> = boxes.iter().map(|b| ring_order(routes, b)).collect();
                let mut trees = Vec::with_capacity(n);
                for (i, local) in boxes.iter().enumerate() {
                    for (g, &root) in local.iter().enumerate() {
                        let mut paths = Vec::with_capacity(n - 1);
                        for step in 0..boxes.len() {
                            let j = (i + step) % boxes.len();
                            if step + 1 < boxes.len() {
                                paths.push(routes.path(boxes[j][g], boxes[(j + 1) % boxes.len()][g]));
                            }
                            let ring = &rings[j];
                            let at = ring.iter().position(|&v| v == boxes[j][g]).expect("in its box's ring");
                            for s in 0..ring.len() - 1 {
                                paths.push(
                                    routes.path(ring[(at + s) % ring.len()], ring[(at + s + 1) % ring.len()]),
                                );
                            }
                        }
                        trees.push((root, paths));
                    }
                }
                trees
            }
        })
    }
}

/// The ranks of `members` in a ring: from the first, each followed by the nearest member not yet
/// in the ring (fewest links, the widest first among equals).
pub fn ring_order(routes: &Routes, members: &[usize]) -> Vec<usize> {
    let mut wanted = vec![false; routes.out.len()];
    members.iter().for_each(|&v| wanted[v] = true);
    let mut order = Vec::with_capacity(members.len());
    let Some(&first) = members.first() else { return order };
    let mut at = first;
    wanted[at] = false;
    order.push(at);
    while order.len() < members.len() {
        let next = routes.nearest(at, &wanted).expect("every member reachable: `packing` checked it");
        wanted[next] = false;
        order.push(next);
        at = next;
    }
    order
}

/// Whether the first compute node reaches every other.
fn reaches_all(fabric: &Fabric) -> bool {
    let compute = fabric.compute();
    let pred = search(&Routes::new(fabric).out, compute[0], |_| false).1;
    compute.iter().all(|&v| pred[v] != usize::MAX)
}

/// The boxes of a fabric whose compute nodes are named `BOX.GPU`, in the fabric's order, each
/// box's GPUs in the fabric's order; at least two boxes of one size, at least two GPUs each.
fn boxes(fabric: &Fabric, compute: &[usize]) -> std::result::Result<Vec<Vec<usize>>, String> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut boxes: Vec<Vec<usize>> = Vec::new();
    for &v in compute {
        let name = fabric.node_name(v);
        let Some((prefix, _)) = name.rsplit_once('.') else {
            return Err(format!("compute node `{name}` is not named BOX.GPU, so there are no boxes to ring"));
        };
        let i = *index.entry(prefix).or_insert_with(|| {
            boxes.push(Vec::new());
            boxes.len() - 1
        });
        boxes[i].push(v);
    }
    let size = boxes[0].len();
    if boxes.len() < 2 || size < 2 || boxes.iter().any(|b| b.len() != size) {
        return Err(format!(
            "needs at least two boxes of one size with at least two GPUs each; the names give boxes of {} GPUs",
            boxes.iter().map(|b| b.len().to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(boxes)
}

/// Shortest routes in links, the widest link first among equals, remembered per source.
pub struct Routes {
    /// Out-neighbours, the widest first.
    out: Vec<Vec<usize>>,
    /// The breadth-first tree of every source asked so far: each node's predecessor.
    trees: HashMap<usize, Vec<usize>>,
}

impl Routes {
    /// The routes of a fabric.
    pub fn new(fabric: &Fabric) -> Self {
        let mut out: Vec<Vec<(usize, &BigRational)>> = vec![Vec::new(); fabric.len()];
        for l in fabric.links() {
            out[l.from].push((l.to, &l.bandwidth));
        }
        let out = out
            .into_iter()
            .map(|mut a| {
                a.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(&y.0)));
                a.into_iter().map(|(v, _)| v).collect()
            })
            .collect();
        Routes { out, trees: HashMap::new() }
    }

    /// The route from `u` to `v`, both ends included.
    pub fn path(&mut self, u: usize, v: usize) -> Vec<usize> {
        let out = &self.out;
        let pred = self.trees.entry(u).or_insert_with(|| search(out, u, |_| false).1);
        let mut path = vec![v];
        let mut at = v;
        while at != u {
            at = pred[at];
            assert!(at != usize::MAX, "every compute node reachable: `packing` checked it");
            path.push(at);
        }
        path.reverse();
        path
    }

    /// The nearest node from `u` that `wanted` marks.
    fn nearest(&self, u: usize, wanted: &[bool]) -> Option<usize> {
        search(&self.out, u, |v| wanted[v]).0
    }
}

/// The breadth-first search from `source` over out-neighbour lists, visiting them in their
/// order; it stops at the first node `stop` accepts, and returns that node and the predecessors
/// found.
fn search(out: &[Vec<usize>], source: usize, stop: impl Fn(usize) -> bool) -> (Option<usize>, Vec<usize>) {
    let mut pred = vec![usize::MAX; out.len()];
    pred[source] = source;
    let mut queue = VecDeque::from([source]);
    while let Some(u) = queue.pop_front() {
        for &v in &out[u] {
            if pred[v] == usize::MAX {
                pred[v] = u;
                if stop(v) {
                    return (Some(v), pred);
                }
                queue.push_back(v);
            }
        }
    }
    (None, pred)
}
