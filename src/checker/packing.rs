//! The checker of the bandwidth model (docs/spec.md §6.1), in exact rational arithmetic: a
//! packing is admissible when, in every phase, every compute node is the root of trees whose
//! weights are positive and sum to 1, every tree reaches every compute node from its root (an
//! allgather out-tree) or from every compute node reaches its root (a reduce-scatter in-tree),
//! and every tree edge is a path along links of the fabric between two compute nodes. Its time
//! per shard is, summed over phases, the largest load over bandwidth of any link; a cut's bound
//! is the shards that must leave the cut over the bandwidth leaving it. A packing whose time
//! equals the bound of a cut of every phase is optimal: the two are its certificate. A symmetric
//! packing holds the trees of one root and the generators of a group that gives every other
//! root theirs ([`super::symmetry`]); the same rules judge its trees, and its loads are counted
//! per orbit of links.

use super::symmetry::{Orbits, judge};
use crate::spec::fabric::{Fabric, ratio_text};
use crate::spec::packing::{Cut, Cuts, Packing, Phase, Tree};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::HashMap;

/// What an admissible packing measures.
#[derive(Debug, Clone, PartialEq)]
pub struct PackingMeasure {
    /// Time per shard byte of every phase, in the collective's order (s/GB, the shard being M/N).
    pub phases: Vec<(Phase, BigRational)>,
    /// The sum over phases: T(M) = (M/N) · time.
    pub time: BigRational,
    /// The trees written: `packing.json`'s `trees`.
    pub trees: usize,
    /// The most trees one root has in one phase.
    pub trees_per_root: usize,
    /// The trees of the schedule, every root and phase: with a symmetry, each written tree
    /// stands for one per root (N × the trees written).
    pub trees_in_all: usize,
    /// The generators of the packing's symmetry; 0 without one.
    pub generators: usize,
}

/// Judges a packing; every violation is one line naming the tree, the path and the rule.
pub fn check_packing(fabric: &Fabric, packing: &Packing) -> Result<PackingMeasure, Vec<String>> {
    let mut violations = Vec::new();
    // The roots whose trees must weigh 1, and how loads spread over the links.
    let (weighed, orbits) = match &packing.symmetry {
        None => (fabric.compute(), Some(Orbits::plain(fabric))),
        Some(generators) => {
            let root = representative_root(fabric, packing, &mut violations);
            match root.map(|r| judge(fabric, generators, r)) {
                Some(Ok(orbits)) => (root.into_iter().collect(), Some(orbits)),
                Some(Err(v)) => {
                    violations.extend(v);
                    (root.into_iter().collect(), None)
                }
                None => (Vec::new(), None),
            }
        }
    };
    let mut phases = Vec::new();
    let mut trees_per_root = 0;
    for &phase in packing.collective.phases() {
        let trees: Vec<(usize, &Tree)> =
            packing.trees.iter().enumerate().filter(|(_, t)| t.phase == phase).collect();
        match check_phase(fabric, phase, &trees, &weighed) {
            Ok(loads) => {
                trees_per_root = trees_per_root.max(loads.most_trees);
                if let Some(orbits) = &orbits {
                    phases.push((phase, loads.time(fabric, orbits)));
                }
            }
            Err(v) => violations.extend(v),
        }
    }
    for (i, t) in packing.trees.iter().enumerate() {
        if !packing.collective.phases().contains(&t.phase) {
            violations.push(format!(
                "tree {i}: phase {} is not a phase of {}",
                t.phase.name(),
                packing.collective.name()
            ));
        }
    }
    let Some(orbits) = orbits.filter(|_| violations.is_empty()) else { return Err(violations) };
    let time = phases.iter().fold(BigRational::zero(), |s, (_, t)| s + t);
    Ok(PackingMeasure {
        phases,
        time,
        trees: packing.trees.len(),
        trees_per_root,
        trees_in_all: packing.trees.len() * orbits.copies,
        generators: packing.symmetry.as_ref().map_or(0, Vec::len),
    })
}

/// A symmetric packing's representative root, the root of its first tree, which every tree
/// must have; `None` when it has no tree.
fn representative_root(fabric: &Fabric, packing: &Packing, violations: &mut Vec<String>) -> Option<usize> {
    let Some(root) = packing.trees.first().map(|t| t.root) else {
        violations.push("symmetry: a symmetric packing holds the trees of its representative root, and this one has no tree".into());
        return None;
    };
    for (i, t) in packing.trees.iter().enumerate().filter(|(_, t)| t.root != root) {
        violations.push(format!(
            "tree {i} (root {}, {}): a symmetric packing's trees all have the representative root, tree 0's `{}`",
            fabric.node_name(t.root),
            t.phase.name(),
            fabric.node_name(root)
        ));
    }
    Some(root)
}

/// One admissible phase's link loads, as integers over a common denominator.
struct Loads {
    /// Per link, by position in [`Fabric::links`]: Σ weight × uses over the written trees,
    /// times `common`.
    per_link: Vec<BigInt>,
    /// The lcm of the weights' denominators.
    common: BigInt,
    /// The most trees of one root.
    most_trees: usize,
}

impl Loads {
    /// The phase's time per shard: the largest load over bandwidth. A link carries its orbit's
    /// load from the written trees, times the roots each stands for, shared by the orbit's links
    /// (docs/spec.md §6.1).
    fn time(&self, fabric: &Fabric, orbits: &Orbits) -> BigRational {
        let mut per_orbit = vec![BigInt::zero(); orbits.size.len()];
        for (l, load) in self.per_link.iter().enumerate() {
            per_orbit[orbits.of_link[l]] += load;
        }
        per_orbit
            .into_iter()
            .enumerate()
            .filter(|(_, load)| !load.is_zero())
            .map(|(o, load)| {
                let share = &self.common * BigInt::from(orbits.size[o]);
                BigRational::new(load * BigInt::from(orbits.copies), share)
                    / &fabric.links()[orbits.first[o]].bandwidth
            })
            .max()
            .unwrap_or_else(BigRational::zero)
    }
}

/// One phase's trees: their rules, the weights of the roots in `weighed`, and their loads.
fn check_phase(
    fabric: &Fabric,
    phase: Phase,
    trees: &[(usize, &Tree)],
    weighed: &[usize],
) -> Result<Loads, Vec<String>> {
    let mut violations = Vec::new();
    let compute = fabric.compute();
    // Loads per link as integers over one common denominator: the lcm of the weights'.
    let common =
        trees.iter().fold(BigInt::one(), |l, (_, t)| num_integer::Integer::lcm(&l, t.weight.denom()));
    let mut per_link = vec![BigInt::zero(); fabric.links().len()];
    let mut weight_sum: HashMap<usize, BigRational> = HashMap::new();
    let mut count: HashMap<usize, usize> = HashMap::new();
    for &(i, tree) in trees {
        let at = |what: String| {
            format!("tree {i} (root {}, {}): {what}", fabric.node_name(tree.root), phase.name())
        };
        let before = violations.len();
        if !fabric.is_compute(tree.root) {
            violations.push(at(format!("the root `{}` is a switch", fabric.node_name(tree.root))));
        }
        if !tree.weight.is_positive() || tree.weight > BigRational::one() {
            violations.push(at(format!("weight {} is not in (0, 1]", ratio_text(&tree.weight))));
        }
        let mut uses: HashMap<usize, u64> = HashMap::new();
        let mut parent: HashMap<usize, usize> = HashMap::new();
        for (j, path) in tree.paths.iter().enumerate() {
            let shown = || path.iter().map(|&v| fabric.node_name(v)).collect::<Vec<_>>().join(" → ");
            if path.len() < 2 {
                violations.push(at(format!("path {j} [{}] has fewer than two nodes", shown())));
                continue;
            }
            let (first, last) = (path[0], path[path.len() - 1]);
            if !fabric.is_compute(first) || !fabric.is_compute(last) {
                violations.push(at(format!("path {j} [{}] does not join two compute nodes", shown())));
                continue;
            }
            let mut seen = std::collections::HashSet::new();
            if let Some(&v) = path.iter().find(|&&v| !seen.insert(v)) {
                violations.push(at(format!("path {j} [{}] passes `{}` twice", shown(), fabric.node_name(v))));
                continue;
            }
            let links: Option<Vec<usize>> = path.windows(2).map(|w| fabric.link_index(w[0], w[1])).collect();
            let Some(links) = links else {
                let w =
                    path.windows(2).find(|w| fabric.link(w[0], w[1]).is_none()).expect("a hop is not a link");
                violations.push(at(format!(
                    "path {j} [{}]: `{}` → `{}` is not a link",
                    shown(),
                    fabric.node_name(w[0]),
                    fabric.node_name(w[1])
                )));
                continue;
            };
            for l in links {
                *uses.entry(l).or_default() += 1;
            }
            // The edge's child and parent: an out-tree's path runs parent to child, an
            // in-tree's child to parent.
            let (child, up) = match phase {
                Phase::Allgather => (last, first),
                Phase::ReduceScatter => (first, last),
            };
            if parent.insert(child, up).is_some() {
                violations.push(at(format!("`{}` has two parents", fabric.node_name(child))));
            }
        }
        if violations.len() == before
            && let Some(reason) = spanning(fabric, &compute, tree.root, &parent)
        {
            violations.push(at(reason));
        }
        let scale = tree.weight.numer() * (&common / tree.weight.denom());
        for (link, count) in uses {
            per_link[link] += &scale * BigInt::from(count);
        }
        *weight_sum.entry(tree.root).or_insert_with(BigRational::zero) += &tree.weight;
        *count.entry(tree.root).or_default() += 1;
    }
    for &v in weighed {
        let sum = weight_sum.get(&v).cloned().unwrap_or_else(BigRational::zero);
        if !sum.is_one() {
            violations.push(format!(
                "{}: the trees rooted at `{}` weigh {} in all, not 1",
                phase.name(),
                fabric.node_name(v),
                ratio_text(&sum)
            ));
        }
    }
    if !violations.is_empty() {
        return Err(violations);
    }
    Ok(Loads { per_link, common, most_trees: count.into_values().max().unwrap_or(0) })
}

/// Why the tree edges (`parent` of every non-root) are not a spanning arborescence of the
/// compute nodes rooted at `root`, or `None`.
fn spanning(
    fabric: &Fabric,
    compute: &[usize],
    root: usize,
    parent: &HashMap<usize, usize>,
) -> Option<String> {
    if parent.contains_key(&root) {
        return Some(format!("the root `{}` has a parent", fabric.node_name(root)));
    }
    // 0 unvisited, 1 on the current walk, 2 reaches the root.
    let mut state: HashMap<usize, u8> = HashMap::from([(root, 2)]);
    for &v in compute {
        let mut walk = Vec::new();
        let mut x = v;
        while state.get(&x).copied().unwrap_or(0) == 0 {
            state.insert(x, 1);
            walk.push(x);
            match parent.get(&x) {
                Some(&p) => x = p,
                None => return Some(format!("`{}` is not reached", fabric.node_name(x))),
            }
        }
        if state[&x] == 1 {
            return Some(format!("the tree edges close a cycle through `{}`", fabric.node_name(x)));
        }
        for w in walk {
            state.insert(w, 2);
        }
    }
    None
}

/// A cut's lower bound on its phase's time per shard: an allgather must send the shards of the
/// compute nodes in S out of S, |S ∩ C| / B⁺(S); a reduce-scatter must send, for every compute
/// node outside S, the part of its shard reduced in S, |C \ S| / B⁺(S) (docs/spec.md §6.1).
pub fn cut_bound(fabric: &Fabric, cut: &Cut) -> Result<BigRational, String> {
    let mut inside = vec![false; fabric.len()];
    for &v in &cut.nodes {
        inside[v] = true;
    }
    let compute = fabric.compute();
    let inner = compute.iter().filter(|&&v| inside[v]).count();
    if inner == 0 || inner == compute.len() {
        return Err(format!(
            "the {} cut holds {inner} of the {} compute nodes: a cut separates some from the others",
            cut.phase.name(),
            compute.len()
        ));
    }
    let leaving = fabric.bandwidth_leaving(&inside);
    if leaving.is_zero() {
        return Err(format!("no link leaves the {} cut: the collective cannot complete", cut.phase.name()));
    }
    let shards = match cut.phase {
        Phase::Allgather => inner,
        Phase::ReduceScatter => compute.len() - inner,
    };
    Ok(BigRational::from_integer(shards.into()) / leaving)
}

/// The bound of a collective's cuts: one cut per phase, their bounds summed.
pub fn cuts_bound(fabric: &Fabric, cuts: &Cuts) -> Result<BigRational, Vec<String>> {
    let mut violations = Vec::new();
    let mut sum = BigRational::zero();
    for &phase in cuts.collective.phases() {
        match cuts.cuts.iter().filter(|c| c.phase == phase).collect::<Vec<_>>()[..] {
            [cut] => match cut_bound(fabric, cut) {
                Ok(b) => sum += b,
                Err(e) => violations.push(e),
            },
            ref other => violations.push(format!(
                "{} needs one {} cut, found {}",
                cuts.collective.name(),
                phase.name(),
                other.len()
            )),
        }
    }
    if cuts.cuts.len() != cuts.collective.phases().len() {
        violations.push(format!("{} cuts for {} phases", cuts.cuts.len(), cuts.collective.phases().len()));
    }
    if violations.is_empty() { Ok(sum) } else { Err(violations) }
}
