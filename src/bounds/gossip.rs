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
//!
//! ## Ladder cut (new; the 2×c mesh under H\* or H1, p = 1)
//!
//! The 2×c mesh (c ≥ 2) has no bridge, but the two links between columns ⌊c/2⌋ − 1 and ⌊c/2⌋
//! cut it into sides of ⌊c/2⌋ and ⌈c/2⌉ columns. Every token must reach the other side. Its
//! *first crossing* is the first step in which a copy of it crosses the cut, over k ∈ {1, 2}
//! of the two links. A link carries one token per step, so these first crossings of the 2c
//! tokens take distinct slots (link, step), 2 per step: with t* the last first-crossing step,
//! Σ k ≤ 2t*. Take a token τ whose first crossing is at t*, into a side of w columns; at the
//! end of step t* its copies on that side are the arrival nodes of those k crossings.
//!
//! - If k = 1 for some such τ: t* ≥ c (Σ k ≥ 2c), and the far corner of the other row is
//!   w − 1 + 1 = w hops from τ's arrival node, so T ≥ c + w.
//! - Otherwise every such τ has k = 2: Σ k ≥ 2c + 1 gives t* ≥ c + 1, and the far column is
//!   w − 1 hops from both arrival nodes, so T ≥ c + 1 + w − 1 = c + w.
//!
//! With w ≥ ⌊c/2⌋, T ≥ c + ⌊c/2⌋ ([`ladder`]): 3, 4, 6, 7, 9, 10, 12 for c = 2 … 8, where the
//! certified optima are 3, 5, 6, 7, 9, 10 and, with this bound, 12 (the total-load bound gives
//! 11 at c = 8). It is the path's n + ⌊n/2⌋ − 1 (bridge release/tail) with one more hop for
//! the change of row. H1 admits fewer schedules than H\*, so it holds there too; under F\* a
//! link carries a token each way, and with p > 1 a slot carries several tokens, so it does not
//! apply.
//!
//! ## Dimension-ordered schedules (ours): why Theorem 1 stops n/2 above Lemma 1
//!
//! This is a bound on a *class* of schedules, not on the problem, and no certificate uses it.
//! On an r×c mesh (r, c ≥ 2; H\* or H1, p = 1) call token τ of node (k, l) **row-first** when
//! every other node of row k first receives τ over a horizontal link and every node outside
//! row k over a vertical link (τ spreads along its row, then down and up every column), and
//! **column-first** symmetrically; a schedule is *dimension-ordered* when every token is one
//! of the two ([`dimension_orders`] reads this off a schedule). Paper 003's two-phase and
//! combined algorithms are: Phase 1 spreads even tokens along rows and odd ones along columns,
//! Phase 2 spreads every line's collected tokens along the crossing lines.
//!
//! Let a_i be the row-first tokens of row i, a = Σ a_i, b_j the column-first tokens of column j,
//! b = Σ b_j (a + b = rc). Every node of row i other than the entry point of a token it
//! receives along the row gets it over a horizontal link from a neighbour that had it
//! strictly earlier; following those neighbours, the token crosses each link {j, j + 1} of
//! row i away from its entry point, and the row's far end gets it at least
//! min(j, c − 2 − j) steps after that crossing. The tokens row i carries this way are its own
//! row-first ones and every column-first token: a_i + b distinct tokens over the middle link
//! j = ⌊(c − 2)/2⌋, one per step, so T ≥ a_i + b + ⌊(c − 2)/2⌋, and likewise
//! T ≥ b_j + a + ⌊(r − 2)/2⌋ from column j. With max a_i ≥ ⌈a/r⌉ and max b_j ≥ ⌈b/c⌉:
//!
//! ```text
//! T ≥ min over a = 0..rc of max(⌈a/r⌉ + rc − a + ⌊(c − 2)/2⌋, ⌈(rc − a)/c⌉ + a + ⌊(r − 2)/2⌋)
//! ```
//!
//! ([`dimension_ordered`]). On the n×n mesh this is Theorem 1's n²/2 + n − 1 (even n) and
//! n²/2 + n − 1/2 (odd n) for every n the tests sweep (2..=30): the combined algorithm is
//! optimal among dimension-ordered schedules, and Lemma 1's n(n + 1)/2, which the certified
//! witnesses for n = 6, 7, 8 meet, needs tokens whose first receipts change dimension more
//! than once.

use super::Bound;
use super::generic::{Job, release_tail};
use crate::spec::{Family, Instance, Model, PortRule, Problem, Schedule};

/// The line a token of a dimension-ordered schedule spreads along first (module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DimensionOrder {
    /// Along its row, then along every column.
    RowFirst,
    /// Along its column, then along every row.
    ColumnFirst,
}

/// The least length of a dimension-ordered gossip schedule on the r×c mesh under H\* or H1
/// with p = 1 (r, c ≥ 2; module documentation). A bound on that class only, not on gossip.
pub fn dimension_ordered(r: u64, c: u64) -> u64 {
    let (row_tail, column_tail) = ((c.max(2) - 2) / 2, (r.max(2) - 2) / 2);
    (0..=r * c)
        .map(|a| (a.div_ceil(r) + r * c - a + row_tail).max((r * c - a).div_ceil(c) + a + column_tail))
        .min()
        .unwrap_or(0)
}

/// Per token (origin node, row-major on the r×c mesh) of a store-and-forward gossip schedule:
/// the dimension order its first receipts follow, `None` when neither (module documentation).
/// A token some node never receives follows neither; a token both orders describe is row-first.
/// Other schedule shapes give no tokens.
pub fn dimension_orders(r: usize, c: usize, schedule: &Schedule) -> Vec<Option<DimensionOrder>> {
    let Schedule::StoreForward(steps) = schedule else { return Vec::new() };
    let n = r * c;
    // first[τ][v]: (step, over a horizontal link, over a vertical link) of v's first receipts of τ.
    let mut first: Vec<Vec<Option<(usize, bool, bool)>>> = vec![vec![None; n]; n];
    for (t, step) in steps.iter().enumerate() {
        for tr in step {
            let horizontal = tr.from / c == tr.to / c;
            for &tau in tr.tokens.iter().filter(|&&tau| tau < n && tr.to < n) {
                match &mut first[tau][tr.to] {
                    slot @ None => *slot = Some((t, horizontal, !horizontal)),
                    Some((s, h, v)) if *s == t => {
                        *h |= horizontal;
                        *v |= !horizontal;
                    }
                    Some(_) => {}
                }
            }
        }
    }
    (0..n)
        .map(|tau| {
            // Row-first: the origin's row over horizontal links, every other node over vertical
            // ones; column-first: the origin's column over vertical links, the rest horizontal.
            let follows = |along_row: bool| {
                (0..n).filter(|&v| v != tau).all(|v| {
                    let horizontal = if along_row { v / c == tau / c } else { v % c != tau % c };
                    first[tau][v].is_some_and(|(_, h, vert)| if horizontal { h } else { vert })
                })
            };
            if follows(true) {
                Some(DimensionOrder::RowFirst)
            } else if follows(false) {
                Some(DimensionOrder::ColumnFirst)
            } else {
                None
            }
        })
        .collect()
}

/// GOS-1: g(n×n mesh) ≥ n²(n²−1) / (2n(n−1)) = n(n+1)/2 for n > 1 (0 for n = 1).
pub fn mesh(n: u64) -> u64 {
    if n < 2 { 0 } else { n * (n + 1) / 2 }
}

/// GOS-2: g(n×n torus) ≥ ⌈n²(n²−1) / (2n²)⌉ = ⌈(n² − 1)/2⌉: (n² − 1)/2 for odd n, n²/2 for even n.
pub fn torus(n: u64) -> u64 {
    (n * n - 1).div_ceil(2)
}

/// The ladder cut bound on the 2×c mesh under H\* or H1, p = 1 (module documentation):
/// c + ⌊c/2⌋ for c ≥ 2.
pub fn ladder(c: u64) -> u64 {
    c + c / 2
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
/// the bridge release/tail bound of any gossip instance whose network has a bridge, and the
/// ladder cut bound on 2×c meshes.
pub fn bounds(instance: &Instance) -> Vec<Bound> {
    let mut out = papers(instance);
    out.extend(bridge(instance));
    out.extend(ladder_cut(instance));
    out
}

/// Gossip under H\* or H1 with one token per packet: where Lemmas 1 and 2 and the ladder cut
/// hold.
fn one_token_half_duplex_gossip(instance: &Instance) -> bool {
    instance.problem == Problem::Gossip
        && matches!(
            instance.model,
            Model::StoreForward { rule: PortRule::HStar | PortRule::H1, packet: 1, .. }
        )
}

/// GOS-1 / GOS-2.
fn papers(instance: &Instance) -> Vec<Bound> {
    if !one_token_half_duplex_gossip(instance) {
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

/// The ladder cut bound of gossip on a 2×c or c×2 mesh (c ≥ 2) under H\* or H1, p = 1.
fn ladder_cut(instance: &Instance) -> Option<Bound> {
    let Family::Mesh(r, c) = *instance.network.family() else { return None };
    if !one_token_half_duplex_gossip(instance) || r.min(c) != 2 {
        return None;
    }
    Some(Bound::new(
        "ladder cut",
        None,
        ladder(r.max(c) as u64),
        "the 2c tokens first cross the middle two links in distinct slots, 2 per step; the last \
         one still needs the far corner of the other row (or took both links): c + ⌊c/2⌋",
    ))
}
