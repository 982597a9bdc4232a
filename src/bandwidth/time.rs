//! The α–β time of a certified packing for one message size (docs/spec.md §3.2): the packing
//! pipelined in C chunks. A phase whose trees are at most D links deep and whose links have a
//! latency of at most α takes D + C − 1 stages, each α plus a chunk's share of the bandwidth
//! term, (M/N)·τ / C:
//!
//! T(M, C) = (D + C − 1) · (α + (M/N) · τ / C),
//!
//! the usual pipeline of the α–β model, which tends to the fluid optimum (M/N)·τ as C grows while
//! its latency term grows with C. The best C is the integer next to √((D − 1)·(M/N)·τ / α); with
//! α = 0 it is the largest count allowed, [`MAX_CHUNKS`]. An allreduce adds its two phases.

use crate::checker::packing::PackingMeasure;
use crate::checker::symmetry::Orbits;
use crate::spec::fabric::{Fabric, to_f64};
use crate::spec::packing::{Packing, Phase, Tree};
use std::collections::HashMap;

/// The most chunks a pipeline is cut into.
pub const MAX_CHUNKS: u64 = 1 << 16;

/// One phase at one size.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PhaseTime {
    /// The phase.
    pub phase: &'static str,
    /// D: the most links from a root to a node of one of its trees (an automorphism's image of
    /// a tree is as deep as the tree).
    pub depth: usize,
    /// α: the largest latency of a link the phase's trees use, µs.
    pub alpha_us: f64,
    /// C, the best chunk count.
    pub chunks: u64,
    /// T(M, C) in µs.
    pub time_us: f64,
}

/// The α–β time of a message of `bytes` (the allgather output per rank).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SizedTime {
    /// M, bytes.
    pub bytes: u64,
    /// Each phase, in order.
    pub phases: Vec<PhaseTime>,
    /// The total, µs.
    pub time_us: f64,
    /// The bandwidth term alone, (M/N) · Σ τ, µs: what no pipeline beats.
    pub bandwidth_us: f64,
    /// M / T in GB/s.
    pub algbw: f64,
}

/// The pipelined time of a checked packing (a certified optimum's, or a registered algorithm's)
/// for a message of `bytes`.
pub fn sized_time(fabric: &Fabric, packing: &Packing, measure: &PackingMeasure, bytes: u64) -> SizedTime {
    let n = fabric.compute().len() as f64;
    let shard_gb = bytes as f64 / n / 1e9;
    let orbits = Orbits::of_packing(fabric, packing);
    let mut phases = Vec::new();
    for (phase, tau) in &measure.phases {
        let trees: Vec<&Tree> = packing.trees.iter().filter(|t| t.phase == *phase).collect();
        let depth = trees.iter().map(|t| tree_depth(t, *phase)).max().unwrap_or(0);
        // The links the trees use, and with a symmetry every link of their orbits: the images'.
        let mut used = vec![false; orbits.size.len()];
        for w in trees.iter().flat_map(|t| t.paths.iter().flat_map(|p| p.windows(2))) {
            if let Some(l) = fabric.link_index(w[0], w[1]) {
                used[orbits.of_link[l]] = true;
            }
        }
        let alpha_us = fabric
            .links()
            .iter()
            .zip(&orbits.of_link)
            .filter(|&(_, &o)| used[o])
            .map(|(l, _)| l.latency)
            .fold(0.0, f64::max);
        let beta_us = shard_gb * to_f64(tau) * 1e6;
        let stage = |c: u64| (depth as f64 + c as f64 - 1.0) * (alpha_us + beta_us / c as f64);
        let best = if alpha_us > 0.0 {
            let x = ((depth.saturating_sub(1)) as f64 * beta_us / alpha_us).sqrt();
            [x.floor().max(1.0) as u64, x.ceil().max(1.0) as u64]
                .into_iter()
                .map(|c| c.min(MAX_CHUNKS))
                .min_by(|a, b| stage(*a).total_cmp(&stage(*b)))
                .unwrap_or(1)
        } else {
            MAX_CHUNKS
        };
        phases.push(PhaseTime { phase: phase.name(), depth, alpha_us, chunks: best, time_us: stage(best) });
    }
    let time_us: f64 = phases.iter().map(|p| p.time_us).sum();
    let bandwidth_us = shard_gb * to_f64(&measure.time) * 1e6;
    SizedTime { bytes, phases, time_us, bandwidth_us, algbw: bytes as f64 / 1e9 / (time_us / 1e6) }
}

/// The most links from the root to a node of the tree, along its paths.
fn tree_depth(tree: &Tree, phase: Phase) -> usize {
    // child → (parent, links of the path between them)
    let up: HashMap<usize, (usize, usize)> = tree
        .paths
        .iter()
        .map(|p| {
            let (first, last) = (p[0], p[p.len() - 1]);
            match phase {
                Phase::Allgather => (last, (first, p.len() - 1)),
                Phase::ReduceScatter => (first, (last, p.len() - 1)),
            }
        })
        .collect();
    let mut depth: HashMap<usize, usize> = HashMap::from([(tree.root, 0)]);
    let mut deepest = 0;
    for &start in up.keys() {
        let mut walk = Vec::new();
        let mut v = start;
        while !depth.contains_key(&v) {
            let Some(&(parent, links)) = up.get(&v) else { break };
            walk.push((v, links));
            v = parent;
        }
        let mut d = depth.get(&v).copied().unwrap_or(0);
        for &(node, links) in walk.iter().rev() {
            d += links;
            depth.insert(node, d);
        }
        deepest = deepest.max(d);
    }
    deepest
}

/// A size as `--size` takes it: bytes, or a number with K, M, G or T (powers of 1024, as
/// nccl-tests reads them).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit.trim_end_matches(['B', 'b']).trim_end_matches("i") {
        "" => 0,
        "K" | "k" => 10,
        "M" | "m" => 20,
        "G" | "g" => 30,
        "T" | "t" => 40,
        _ => return None,
    };
    digits.parse::<u64>().ok().filter(|&b| b > 0)?.checked_mul(1u64 << shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_nccl_tests_reads_them() {
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("256M"), Some(256 << 20));
        assert_eq!(parse_size("4KiB"), Some(4096));
        assert_eq!(parse_size("1000"), Some(1000));
        for bad in ["", "0", "1X", "G", "-1", "99999999999T"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }
}
