//! Packing spanning out-trees (docs/spec.md §3.2): k out-trees per compute node, disjoint within
//! the capacities of the compute-only graph, grown by breadth-first search (Edmonds' branching
//! theorem in Lovász's constructive form, with multiplicities as in ForestColl's
//! `BranchingGenerator`, arXiv 2402.06787, §5). Identical trees travel together as a *group* of
//! some multiplicity; an arc x → y joins a group with the largest multiplicity μ that keeps the
//! remaining groups completable, which one max-flow tells: from x to y, with an arc of the other
//! groups' multiplicities from x to a node of each that reaches all its tree's nodes, μ is the
//! flow beyond those multiplicities (the least slack of the cuts holding y but not x). When μ is
//! less than the group's multiplicity the group divides, and the rest grows on its own later.
//!
//! Each group's arcs hold intervals of the arcs' tapes, so the last step turns the groups into
//! weighted trees whose edges are physical paths.

use super::flow::{FlowNetwork, INFINITE};
use super::split::{Split, Starts};
use super::{Halt, out_of_time};
use num_rational::BigRational;
use std::collections::{HashMap, VecDeque};
use std::time::Instant;

/// A group of identical trees in the making.
#[derive(Debug, Clone)]
struct Group {
    root: usize,
    multiplicity: u64,
    in_tree: Vec<bool>,
    nodes: Vec<usize>,
    /// Arcs with the start of the group's interval on the arc's tape.
    arcs: Vec<(usize, usize, u64)>,
}

/// A physical tree: its root, its weight and one fabric path per edge.
pub type PhysicalTree = (usize, BigRational, Vec<Vec<usize>>);

/// Packs `k` out-trees per compute node (compute nodes are the graph's nodes `compute`) into the
/// split graph; returns physical trees of weight multiplicity / k.
pub fn pack_trees(
    split: &Split,
    compute: &[usize],
    k: u64,
    deadline: Option<Instant>,
) -> Result<Vec<PhysicalTree>, Halt> {
    let n = compute.len();
    let dense: HashMap<usize, usize> = compute.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    // Residual capacity and the next free tape position of every arc, by dense ends.
    let mut residual: HashMap<(usize, usize), (u64, u64)> =
        split.capacity.iter().map(|(&(u, v), &c)| ((dense[&u], dense[&v]), (c, 0))).collect();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(u, v) in residual.keys() {
        out[u].push(v);
    }
    for list in &mut out {
        list.sort_unstable();
    }
    let mut groups: Vec<Group> = (0..n)
        .map(|r| {
            let mut in_tree = vec![false; n];
            in_tree[r] = true;
            Group { root: r, multiplicity: k, in_tree, nodes: vec![r], arcs: Vec::new() }
        })
        .collect();
    let mut active: VecDeque<usize> = (0..n).collect();
    let mut done = Vec::new();
    while let Some(g) = active.pop_front() {
        let mut queue: VecDeque<usize> = groups[g].nodes.iter().copied().collect();
        while let Some(x) = queue.pop_front() {
            for &y in &out[x] {
                if groups[g].in_tree[y] || residual[&(x, y)].0 == 0 {
                    continue;
                }
                if out_of_time(deadline) {
                    return Err(Halt::Deadline(None));
                }
                let mu = admissible(&groups, &active, g, x, y, &residual, n);
                if mu == 0 {
                    continue;
                }
                if mu < groups[g].multiplicity {
                    let mut rest = groups[g].clone();
                    rest.multiplicity -= mu;
                    for arc in &mut rest.arcs {
                        arc.2 += mu;
                    }
                    groups[g].multiplicity = mu;
                    groups.push(rest);
                    active.push_back(groups.len() - 1);
                }
                let entry = residual.get_mut(&(x, y)).expect("an arc of out[x]");
                groups[g].arcs.push((x, y, entry.1));
                entry.0 -= mu;
                entry.1 += mu;
                groups[g].in_tree[y] = true;
                groups[g].nodes.push(y);
                queue.push_back(y);
            }
        }
        // Lovász's lemma: while the groups stay completable, a group grows until it spans.
        if groups[g].nodes.len() < n {
            return Err(Halt::Stalled(format!(
                "a tree rooted at {} stopped growing at {} of {n} compute nodes",
                compute[groups[g].root],
                groups[g].nodes.len()
            )));
        }
        done.push(g);
    }
    Ok(done.into_iter().flat_map(|g| physical(&groups[g], split, compute, k)).collect())
}

/// The largest multiplicity up to the group's with which x → y can join group `g`.
fn admissible(
    groups: &[Group],
    active: &VecDeque<usize>,
    g: usize,
    x: usize,
    y: usize,
    residual: &HashMap<(usize, usize), (u64, u64)>,
    n: usize,
) -> u64 {
    let mut net = FlowNetwork::new(n);
    for (&(u, v), &(c, _)) in residual {
        if c > 0 {
            net.add_arc(u, v, c);
        }
    }
    let mut others = 0;
    for &h in active.iter().filter(|&&h| h != g) {
        let s = net.add_node();
        for &v in &groups[h].nodes {
            net.add_arc(s, v, INFINITE);
        }
        net.add_arc(x, s, groups[h].multiplicity);
        others += groups[h].multiplicity;
    }
    let want = groups[g].multiplicity.min(residual[&(x, y)].0);
    net.max_flow(x, y, others + want).saturating_sub(others)
}

/// A group as physical trees: its multiplicity cut wherever one of its arcs' intervals crosses a
/// segment boundary, each piece one tree whose edges follow the segments it lies in.
fn physical(group: &Group, split: &Split, compute: &[usize], k: u64) -> Vec<PhysicalTree> {
    let tapes: Vec<(&Starts, u64)> =
        group.arcs.iter().map(|&(x, y, start)| (&split.starts[&(compute[x], compute[y])], start)).collect();
    let mut cuts = vec![0, group.multiplicity];
    for &(tape, start) in &tapes {
        let end = start + group.multiplicity;
        let first = tape.partition_point(|s| s.0 <= start);
        cuts.extend(tape[first..].iter().take_while(|s| s.0 < end).map(|s| s.0 - start));
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2)
        .map(|w| {
            let paths = tapes
                .iter()
                .map(|&(tape, start)| {
                    let at = start + w[0];
                    tape[tape.partition_point(|s| s.0 <= at) - 1].1.to_vec()
                })
                .collect();
            (compute[group.root], BigRational::new((w[1] - w[0]).into(), k.into()), paths)
        })
        .collect()
}
