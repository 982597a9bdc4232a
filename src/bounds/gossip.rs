//! # Gossip in square meshes and tori: bounds of paper 003
//!
//! Paper 003 (Lau, Zhang), §2, Lemma 1 (GOS-1, cited from
//! Fujita–Yamashita, reference \[11\]) and Lemma 2 (GOS-2).
//!
//! Model: H\*, p = 1, copy mode (SPEC §4.2). Rounds are numbered from 1, so g(N) is the SPEC
//! length and no conversion is needed. Both lemmas are the edge-count argument: every node
//! must receive the other N − 1 tokens, N(N − 1) deliveries in all, and a link carries at most
//! one packet of one token per round. An n×n mesh has 2n(n − 1) links, an n×n torus 2n².
//! H1 admits fewer schedules than H\*, so the lemmas hold for H1 too; under F\* and F1 a link
//! carries two packets per round and the lemmas do not apply (the generic total-load bound
//! of [`super::generic`] covers every rule and packet size).
//!
//! ## Bridge release/tail (new; any network, rule and packet size)
//!
//! Let {a, b} be a *bridge*: a link whose removal splits the network into A ∋ a and B ∋ b. Every
//! token k born in A must reach every node w of B, and every walk from k to w crosses the arc
//! (a, b). Take the w farthest from b, at distance q_A = max_{w ∈ B} dist(b, w): the copy of k
//! that reaches w crossed (a, b) in some step t with
//!
//! - t ≥ dist(k, a) + 1 (k first has to reach a), and
//! - t + q_A ≤ T (after the crossing it still needs dist(b, w) = q_A hops).
//!
//! So each token of A is a unit job on arc (a, b) with release dist(k, a) + 1 and tail q_A, and
//! symmetrically each token of B a unit job on (b, a) with release dist(k, b) + 1 and tail
//! q_B = max_{w ∈ A} dist(a, w). Distinct tokens are distinct jobs, and a packet carries at
//! most p tokens: under H\* and H1 the link carries one packet per step in either direction (one
//! resource of capacity p for the jobs of both directions), under F\* and F1 one per arc (two
//! resources). The release/tail bound of [`super::generic::release_tail`] over these jobs is a
//! lower bound, and the bound is the largest over all bridges.
//!
//! On path(n) under H\* (every link is a bridge) the middle link gives the reference
//! algorithm's length (paper 003 §3.2, GOS-8): with n = 2m and the link {m − 1, m}, 2m jobs,
//! releases from 1, tails m − 1: 1 + 2m − 1 + (m − 1) = 3m − 1; with n = 2m + 1 and the link
//! {m, m + 1}, 2m + 1 jobs, releases from 1, tails m − 1 and m: 1 + (2m + 1) − 1 + (m − 1) = 3m.
//! Both are n + ⌊n/2⌋ − 1 ([`path_hstar`]), so the path algorithm is optimal (the paper's word)
//! and, with the registered `path-gossip`, g(path(n)) = n + ⌊n/2⌋ − 1 under H\*, p = 1; the
//! previous best bound was n (the end links' n tokens). Under F\* the two directions are
//! separate and the bound is the diameter n − 1, also optimal.

use super::Bound;
use super::generic::{Job, release_tail};
use crate::spec::{Family, Instance, Model, PortRule, Problem};

/// GOS-1: g(n×n mesh) ≥ n²(n²−1) / (2n(n−1)) = n(n+1)/2 for n > 1 (0 for n = 1).
pub fn mesh(n: u64) -> u64 {
    if n < 2 { 0 } else { n * (n + 1) / 2 }
}

/// GOS-2: g(n×n torus) ≥ ⌈n²(n²−1) / (2n²)⌉ = ⌈(n² − 1)/2⌉: (n² − 1)/2 for odd n, n²/2 for even n.
pub fn torus(n: u64) -> u64 {
    (n * n - 1).div_ceil(2)
}

/// The bridge release/tail bound on path(n) under H\*, p = 1 (module documentation): n + ⌊n/2⌋ − 1
/// for n ≥ 2 (0 for n = 1).
pub fn path_hstar(n: u64) -> u64 {
    if n < 2 { 0 } else { n + n / 2 - 1 }
}

/// The bridge release/tail bound of a gossip instance (module documentation), `None` when the
/// network has no bridge, has a one-way arc, or is disconnected.
pub fn bridge(instance: &Instance) -> Option<Bound> {
    let Model::StoreForward { rule, packet, .. } = instance.model else { return None };
    if instance.problem != Problem::Gossip {
        return None;
    }
    let net = &instance.network;
    let n = net.len();
    if net.arcs().iter().any(|&(u, v)| net.arc(v, u).is_none()) {
        return None;
    }
    let dist: Vec<Vec<usize>> = (0..n).map(|s| net.distances_from(s)).collect();
    if dist.iter().flatten().any(|&d| d == usize::MAX) {
        return None;
    }
    let out = net.out_neighbours();
    let p = packet.max(1) as u64;
    let mut best: Option<u64> = None;
    for &(a, b) in net.arcs().iter().filter(|&&(a, b)| a < b) {
        // side[x]: x is reachable from a without the link {a, b}.
        let mut side = vec![false; n];
        side[a] = true;
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            for &y in &out[x] {
                if !(side[y] || (x, y) == (a, b)) {
                    side[y] = true;
                    stack.push(y);
                }
            }
        }
        if side[b] {
            continue;
        }
        let far = |from: usize, in_a: bool| {
            (0..n).filter(|&w| side[w] == in_a).map(|w| dist[from][w] as u64).max().unwrap_or(0)
        };
        let jobs = |from_a: bool| -> Vec<Job> {
            let (near, tail) = if from_a { (a, far(b, false)) } else { (b, far(a, true)) };
            (0..n)
                .filter(|&k| side[k] == from_a)
                .map(|k| Job { release: dist[k][near] as u64 + 1, work: 1, tail })
                .collect()
        };
        let (ab, ba) = (jobs(true), jobs(false));
        let value = match rule {
            PortRule::HStar | PortRule::H1 => release_tail(&[ab, ba].concat(), p),
            PortRule::FStar | PortRule::F1 => release_tail(&ab, p).max(release_tail(&ba, p)),
        };
        best = Some(best.map_or(value, |b: u64| b.max(value)));
    }
    best.map(|value| {
        Bound::new(
            "bridge release/tail",
            None,
            value,
            format!(
                "per bridge {{a,b}}: each token of one side crosses it no earlier than its distance \
                 to the link + 1 and no later than T − the other side's depth from the link; one \
                 packet of p = {p} per step {}; release/tail bound (n + ⌊n/2⌋ − 1 on a path under H*)",
                if matches!(rule, PortRule::HStar | PortRule::H1) { "over the link" } else { "per arc" }
            ),
        )
    })
}

/// GOS-1 / GOS-2 when the instance is a square mesh or torus gossip under H\* or H1 with p = 1,
/// and the bridge release/tail bound of any gossip instance whose network has a bridge.
pub fn bounds(instance: &Instance) -> Vec<Bound> {
    let mut out = papers(instance);
    out.extend(bridge(instance));
    out
}

/// GOS-1 / GOS-2.
fn papers(instance: &Instance) -> Vec<Bound> {
    let Model::StoreForward { rule: PortRule::HStar | PortRule::H1, packet: 1, .. } = instance.model else {
        return Vec::new();
    };
    if instance.problem != Problem::Gossip {
        return Vec::new();
    }
    match *instance.network.family() {
        Family::Mesh(r, c) if r == c => vec![Bound::new(
            "mesh edge count",
            Some("GOS-1"),
            mesh(r as u64),
            "n²(n²−1) deliveries over 2n(n−1) links, one packet per link per round (Lemma 1)",
        )],
        Family::Torus(r, c) if r == c => vec![Bound::new(
            "torus edge count",
            Some("GOS-2"),
            torus(r as u64),
            "n²(n²−1) deliveries over 2n² links, one packet per link per round (Lemma 2)",
        )],
        _ => Vec::new(),
    }
}
