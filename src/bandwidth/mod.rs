//! The bandwidth model's optimiser (docs/spec.md §3.2, §7.3): the least time per shard of
//! allgather, reduce-scatter and allreduce on a fabric, with the pair that proves it, a packing
//! of weighted trees and a cut of every phase whose bound the packing's time meets. Polynomial:
//! max-flows only (Zhao & Krishnamurthy, arXiv 2305.18461; ForestColl, arXiv 2402.06787).
//!
//! Per phase (an allgather's out-trees on the fabric; a reduce-scatter's in-trees as out-trees on
//! the reversed fabric): bandwidths become integers over their common denominator; the optimal
//! cut, of ratio B/s in lowest terms, gives k = B / gcd(B, s) trees per root and scales every
//! capacity by U = s / gcd(B, s) ([`rate`]); switches are split off ([`split`]); k out-trees per
//! root are packed ([`branching`]). The packing goes through the checker, and only when its time
//! equals the cuts' bound is it an optimum: nothing here is trusted.

pub mod baseline;
pub mod branching;
pub mod compare;
pub mod construct;
pub mod depth;
pub mod events;
pub mod flow;
pub mod rate;
pub mod split;
pub mod time;

use crate::checker::packing::{PackingMeasure, check_packing, cuts_bound};
use crate::error::{Error, Result};
use crate::spec::fabric::{Fabric, ratio_text};
use crate::spec::limits::Resource;
use crate::spec::packing::{BandwidthCollective, Cut, Cuts, Packing, Phase, Tree};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::time::Instant;

/// A fabric with integer capacities, as the max-flows see it.
#[derive(Debug, Clone)]
pub struct Graph {
    /// Nodes `0..n`, the fabric's.
    pub n: usize,
    /// Which nodes are compute nodes.
    pub compute: Vec<bool>,
    /// Arcs `(u, v, capacity)`.
    pub arcs: Vec<(usize, usize, u64)>,
}

/// Why a phase of the general algorithm did not finish.
#[derive(Debug)]
pub enum Halt {
    /// The deadline passed; the best cut found so far, if any.
    Deadline(Option<rate::RatioCut>),
    /// A group of trees could not grow to span: the rooted connectivity was lost, a bug of the
    /// optimiser, never an answer.
    Stalled(String),
}

/// Whether the deadline has passed.
pub fn out_of_time(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The fabric's bandwidths as integers: over their common denominator, divided by their gcd.
/// Refused when the flows could overflow (sums beyond 2^60).
fn integer_graph(fabric: &Fabric) -> Result<Graph> {
    let links = fabric.links();
    let den = links.iter().fold(BigInt::one(), |l, link| l.lcm(link.bandwidth.denom()));
    let ints: Vec<BigInt> =
        links.iter().map(|l| l.bandwidth.numer() * (&den / l.bandwidth.denom())).collect();
    let gcd = ints.iter().fold(BigInt::zero(), |g, b| g.gcd(b));
    let ints: Vec<BigInt> = ints.into_iter().map(|b| b / &gcd).collect();
    let total: BigInt = ints.iter().sum();
    let n = fabric.compute().len() as u64;
    if total * BigInt::from(n) * BigInt::from(n) >= BigInt::from(1u64 << 60) {
        return Err(Error::NotApplicable {
            method: "the bandwidth model".into(),
            reason: format!(
                "the bandwidths of `{}` in their common unit are too large for exact 64-bit flows: round them to fewer digits",
                fabric.name()
            ),
        });
    }
    let arcs = links.iter().zip(ints).map(|(l, b)| (l.from, l.to, b.to_u64().expect("below 2^60"))).collect();
    Ok(Graph { n: fabric.len(), compute: (0..fabric.len()).map(|v| fabric.is_compute(v)).collect(), arcs })
}

/// A certified optimum: the packing, checked, and the cuts whose bound its time meets.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// The collective.
    pub collective: BandwidthCollective,
    /// The packing.
    pub packing: Packing,
    /// One cut per phase.
    pub cuts: Cuts,
    /// The checker's measure of the packing.
    pub measure: PackingMeasure,
}

/// What the optimiser answers.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The optimum with its certificate.
    Optimal(Optimum),
    /// Stopped by the deadline: the best lower bound known (time per shard) and its cuts.
    Bounds {
        /// The cuts of the bound.
        cuts: Cuts,
        /// Their bound.
        lower: BigRational,
    },
}

/// The optimum of a collective on a fabric, certified, or the bounds known at the deadline: by
/// the fabric's construction when it has one and it meets its cut, else by the general
/// algorithm.
pub fn optimise(
    fabric: &Fabric,
    collective: BandwidthCollective,
    deadline: Option<Instant>,
) -> Result<Answer> {
    for &phase in collective.phases() {
        match phase {
            Phase::Allgather => balanced_switches(fabric)?,
            Phase::ReduceScatter => balanced_switches(&fabric.reversed())?,
        }
    }
    if let Some(optimum) = constructed(fabric, collective)? {
        return Ok(Answer::Optimal(optimum));
    }
    general(fabric, collective, deadline)
}

/// Refuses a fabric with a switch that can send more than it receives. A switch cannot
/// replicate, so what leaves it is at most what enters it, and the cut bound is met by a
/// packing only where every switch receives at least as much bandwidth as it sends (the
/// condition under which its out-links split off completely, Bang-Jensen, Frank and Jackson):
/// every full-duplex switch. A reduce-scatter, an allgather on the reversed fabric, needs the
/// converse.
fn balanced_switches(fabric: &Fabric) -> Result<()> {
    let mut net = vec![BigRational::zero(); fabric.len()];
    for l in fabric.links() {
        net[l.to] += &l.bandwidth;
        net[l.from] -= &l.bandwidth;
    }
    match (0..fabric.len()).find(|&w| !fabric.is_compute(w) && net[w] < BigRational::zero()) {
        None => Ok(()),
        Some(w) => Err(Error::NotApplicable {
            method: "the bandwidth model".into(),
            reason: format!(
                "switch `{}` can send {} GB/s more than it receives; a switch cannot replicate, so give it at least as much bandwidth in as out (a full-duplex switch has both equal)",
                fabric.node_name(w),
                crate::spec::fabric::to_f64(&-net[w].clone())
            ),
        }),
    }
}

/// Refuses a packing of more than the `--max-events` guard's path hops before it is built: the
/// hops written, a symmetric packing's one root's.
fn guard_hops(hops: u128, what: &str) -> Result<()> {
    Resource::Events.guard(u64::try_from(hops).ok(), what).map_err(|reason| Error::NotApplicable {
        method: "the bandwidth model".into(),
        reason: format!("{reason}; the packing is written out tree by tree"),
    })
}

/// The construction's packing for every phase (a reduce-scatter's, on a fabric whose links
/// have equal reverses, the allgather's paths reversed and the complement of its cut), with its
/// symmetry, when it meets its cuts; `None` sends the optimiser to the general algorithm.
fn constructed(fabric: &Fabric, collective: BandwidthCollective) -> Result<Option<Optimum>> {
    if collective.phases().contains(&Phase::ReduceScatter) && !fabric.is_symmetric() {
        return Ok(None);
    }
    if let Some(hops) = construct::hops(fabric) {
        guard_hops(hops * collective.phases().len() as u128, "the constructed packing")?;
    }
    let Some(construction) = construct::construct(fabric) else { return Ok(None) };
    let mut all = Vec::new();
    let mut cuts = Vec::new();
    for &phase in collective.phases() {
        let cut = &construction.cut;
        match phase {
            Phase::Allgather => {
                all.extend(construction.trees.iter().cloned());
                cuts.push(cut.clone());
            }
            Phase::ReduceScatter => {
                all.extend(construction.trees.iter().map(|t| Tree {
                    phase,
                    paths: t.paths.iter().map(|p| p.iter().rev().copied().collect()).collect(),
                    ..t.clone()
                }));
                let inside: Vec<bool> =
                    (0..fabric.len()).map(|v| cut.nodes.binary_search(&v).is_ok()).collect();
                cuts.push(Cut { phase, nodes: (0..fabric.len()).filter(|&v| !inside[v]).collect() });
            }
        }
    }
    let packing = Packing { collective, trees: all, symmetry: Some(construction.symmetry) };
    let cuts = Cuts { collective, cuts };
    let measure = checked(fabric, &packing)?;
    let bound = bound(fabric, &cuts)?;
    Ok((measure.time == bound).then_some(Optimum { collective, packing, cuts, measure }))
}

/// The general algorithm: per phase, the optimal cut, the switches split off, the trees packed.
fn general(fabric: &Fabric, collective: BandwidthCollective, deadline: Option<Instant>) -> Result<Answer> {
    let mut trees = Vec::new();
    let mut cuts = Vec::new();
    let mut stopped = false;
    for &phase in collective.phases() {
        let oriented = match phase {
            Phase::Allgather => fabric.clone(),
            Phase::ReduceScatter => fabric.reversed(),
        };
        let graph = integer_graph(&oriented)?;
        let compute: Vec<usize> = (0..graph.n).filter(|&v| graph.compute[v]).collect();
        let found = if stopped { Err(Halt::Deadline(None)) } else { rate::optimal_cut(&graph, deadline) };
        let cut = match found {
            Ok(cut) => cut,
            Err(Halt::Stalled(reason)) => return Err(rejected(reason)),
            Err(Halt::Deadline(lower)) => {
                stopped = true;
                let best = lower.unwrap_or_else(|| rate::single_node_cut(&graph));
                cuts.push(phase_cut(phase, &best.inside));
                continue;
            }
        };
        cuts.push(phase_cut(phase, &cut.inside));
        let d = cut.leaving.gcd(&cut.shards);
        let (k, u) = (cut.leaving / d, cut.shards / d);
        let n = compute.len() as u128;
        guard_hops(n * (n - 1) * u128::from(k), "the packing (N·(N − 1)·k tree edges at least)")?;
        let scaled = Graph { arcs: graph.arcs.iter().map(|&(a, b, c)| (a, b, c * u)).collect(), ..graph };
        let packed = split::split_switches(&scaled, k, deadline)
            .and_then(|split| branching::pack_trees(&split, &compute, k, deadline));
        match packed {
            Ok(packed) => trees.extend(packed.into_iter().map(|(root, weight, mut paths)| {
                if phase == Phase::ReduceScatter {
                    paths.iter_mut().for_each(|p| p.reverse());
                }
                Tree { phase, root, weight, paths }
            })),
            Err(Halt::Deadline(_)) => stopped = true,
            Err(Halt::Stalled(reason)) => return Err(rejected(reason)),
        }
    }
    let cuts = Cuts { collective, cuts };
    let bound = bound(fabric, &cuts)?;
    if stopped {
        return Ok(Answer::Bounds { cuts, lower: bound });
    }
    let packing = Packing { collective, trees, symmetry: None };
    let measure = checked(fabric, &packing)?;
    if measure.time != bound {
        return Err(rejected(format!(
            "its time per shard {} is not its cuts' bound {}",
            ratio_text(&measure.time),
            ratio_text(&bound)
        )));
    }
    Ok(Answer::Optimal(Optimum { collective, packing, cuts, measure }))
}

/// The cut of a phase from the set found on its oriented fabric: an allgather's as it is; a
/// reduce-scatter's, found on the reversed fabric, is its complement (docs/spec.md §6.1).
fn phase_cut(phase: Phase, inside: &[bool]) -> Cut {
    let keep = |&v: &usize| inside[v] == (phase == Phase::Allgather);
    Cut { phase, nodes: (0..inside.len()).filter(keep).collect() }
}

/// The checker's measure of a packing the optimiser built; a rejection is the optimiser's bug.
fn checked(fabric: &Fabric, packing: &Packing) -> Result<PackingMeasure> {
    check_packing(fabric, packing).map_err(|v| rejected(v.into_iter().take(3).collect::<Vec<_>>().join("; ")))
}

/// The bound of the cuts the optimiser found.
fn bound(fabric: &Fabric, cuts: &Cuts) -> Result<BigRational> {
    cuts_bound(fabric, cuts).map_err(|v| rejected(v.join("; ")))
}

fn rejected(reason: String) -> Error {
    Error::Rejected { producer: "the bandwidth optimiser".into(), reason }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::fabric::{FabricBuilder, NodeKind};

    /// Found by the random-fabric property: a switch fed by 1/2 GB/s that sends 2 GB/s to two
    /// nodes, each of which needs its whole input. No packing without replication meets the
    /// cut bound there, so such a fabric is refused, not answered.
    #[test]
    fn a_switch_that_sends_more_than_it_receives_is_refused() {
        let q = |p: i64, d: i64| BigRational::new(p.into(), d.into());
        let mut b = FabricBuilder::default();
        for name in ["g0", "g1", "g2"] {
            b.node(name, NodeKind::Compute);
        }
        b.node("s0", NodeKind::Switch);
        for (u, v, bw) in [
            (1, 0, q(2, 1)),
            (2, 1, q(3, 1)),
            (0, 2, q(2, 1)),
            (3, 0, q(1, 1)),
            (3, 2, q(1, 1)),
            (1, 3, q(1, 2)),
        ] {
            b.link(u, v, bw, 0.0).unwrap();
        }
        let f = b.build("t").unwrap();
        let err = optimise(&f, BandwidthCollective::Allgather, None).unwrap_err().to_string();
        assert!(err.contains("switch `s0` can send 1.5 GB/s more than it receives"), "{err}");
        // Its reverse receives more than it sends: split off completely, certified.
        assert!(matches!(
            optimise(&f.reversed(), BandwidthCollective::Allgather, None),
            Ok(Answer::Optimal(_))
        ));
    }
}
