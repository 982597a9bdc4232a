//! The cut bound of the store-and-forward generic bounds (module documentation of
//! [`super::generic`]): the cuts the network's family names ([`NetworkFamily::cuts`]: every
//! tree edge, intervals of a line or ring, row and column bands), each against the tokens that
//! must cross it.
//!
//! [`NetworkFamily::cuts`]: crate::spec::network::NetworkFamily::cuts

use super::generic::{crossing_steps, cut_capacity};
use crate::spec::{Instance, Mode, Node, PortRule};

/// Work budget (cut × (arcs + blocks)) for enumerating every interval cut.
const CUT_BUDGET: usize = 50_000_000;

/// The best cut bound over the family cuts of the network, with a description of the cuts.
pub(super) fn cut_bound(
    instance: &Instance,
    pairs: &[(Node, Node)],
    rule: PortRule,
    mode: Mode,
    p: u64,
) -> Option<(u64, String)> {
    let net = &instance.network;
    let n = net.len();
    let mut best: Option<u64> = None;
    let mut families = Vec::new();
    let mut consider = |inside: &[bool], out: u64, inn: u64| {
        if let Some(s) = crossing_steps(out, inn, cut_capacity(net, inside, rule), p) {
            best = Some(best.map_or(s, |b| b.max(s)));
        }
    };
    // The network's family names its cuts (`NetworkFamily::cuts`).
    let cuts = net.family().definition().cuts(net);
    if let Some(parent) = &cuts.tree {
        // Each tree edge {parent(v), v} cuts off the subtree of v (parents are numbered below
        // their children).
        for v in 1..n {
            let mut inside = vec![false; n];
            inside[v] = true;
            for x in v + 1..n {
                inside[x] = inside[parent[x]];
            }
            let (out, inn) = flows(&inside, pairs, mode);
            consider(&inside, out, inn);
        }
        families.push("every tree edge".to_string());
    }
    for blocks in cuts.blocks {
        let b = blocks.count;
        let mut members = vec![Vec::new(); b];
        for x in 0..n {
            members[blocks.of[x]].push(x);
        }
        // a[x][y]: demanded tokens from block x to block y (move mode).
        let mut a = vec![vec![0u64; b]; b];
        if mode == Mode::Move {
            for &(s, d) in pairs {
                a[blocks.of[s]][blocks.of[d]] += 1;
            }
        }
        let row: Vec<u64> = a.iter().map(|r| r.iter().sum()).collect();
        let col: Vec<u64> = (0..b).map(|y| a.iter().map(|r| r[y]).sum()).collect();
        let all = b * b * (net.arcs().len() + b) <= CUT_BUDGET;
        let starts: Vec<usize> = if blocks.cyclic || all { (0..b).collect() } else { vec![0] };
        // Move mode only: copy mode counts nodes, not tokens.
        let inner = (mode == Mode::Move).then(|| IntervalSums::new(&a, blocks.cyclic));
        for start in starts {
            let mut inside = vec![false; n];
            let (mut rows, mut cols, mut size) = (0u64, 0u64, 0u64);
            let longest = if blocks.cyclic { b - 1 } else { b - start };
            for len in 1..=longest {
                let y = (start + len - 1) % b;
                rows += row[y];
                cols += col[y];
                size += members[y].len() as u64;
                for &x in &members[y] {
                    inside[x] = true;
                }
                if size as usize == n {
                    break;
                }
                let wanted = all || !blocks.cyclic || len == b / 2 || len == b.div_ceil(2);
                if !wanted {
                    continue;
                }
                let (out, inn) = match &inner {
                    Some(sums) => {
                        let inner = sums.sum(start, len);
                        (rows - inner, cols - inner)
                    }
                    None => (size, n as u64 - size),
                };
                consider(&inside, out, inn);
            }
        }
        families.push(if all {
            format!("every {}", blocks.what)
        } else if blocks.cyclic {
            format!("halves ({})", blocks.what)
        } else {
            format!("prefixes ({})", blocks.what)
        });
    }
    best.map(|v| (v, families.join(", ")))
}

/// Sums of a block matrix over the square of an interval of blocks, in O(1) each after an
/// O(b²) table of 2D prefix sums; the interval may wrap around when the blocks are cyclic
/// (the table then covers the matrix doubled in both directions).
struct IntervalSums {
    b: usize,
    /// `prefix[i][j]`: the sum of `a[x mod b][y mod b]` over x < i, y < j.
    prefix: Vec<Vec<u64>>,
}

impl IntervalSums {
    fn new(a: &[Vec<u64>], cyclic: bool) -> Self {
        let b = a.len();
        let m = if cyclic { 2 * b } else { b };
        let mut prefix = vec![vec![0u64; m + 1]; m + 1];
        for i in 0..m {
            for j in 0..m {
                prefix[i + 1][j + 1] = a[i % b][j % b] + prefix[i][j + 1] + prefix[i + 1][j] - prefix[i][j];
            }
        }
        Self { b, prefix }
    }

    /// Σ a[x][y] over x, y in the `len` blocks from `start` on (modulo b when cyclic).
    fn sum(&self, start: usize, len: usize) -> u64 {
        let (lo, hi) = (start, start + len);
        debug_assert!(hi < self.prefix.len() && len <= self.b, "the interval fits the table");
        let p = &self.prefix;
        p[hi][hi] + p[lo][lo] - p[lo][hi] - p[hi][lo]
    }
}

/// Tokens that must leave and enter the node set `inside`.
fn flows(inside: &[bool], pairs: &[(Node, Node)], mode: Mode) -> (u64, u64) {
    match mode {
        Mode::Move => pairs.iter().fold((0, 0), |(o, i), &(s, d)| match (inside[s], inside[d]) {
            (true, false) => (o + 1, i),
            (false, true) => (o, i + 1),
            _ => (o, i),
        }),
        Mode::Copy => {
            let size = inside.iter().filter(|&&x| x).count() as u64;
            (size, inside.len() as u64 - size)
        }
    }
}
