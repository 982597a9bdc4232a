//! The cut bound of the store-and-forward generic bounds (module documentation of
//! [`super::generic`]): the cuts the network's family names ([`NetworkFamily::cuts`]: every
//! tree edge, intervals of a line or ring, row and column bands), each against the tokens that
//! must cross it, and what a cut carries per step under a port rule ([`cut_capacity`]).
//!
//! [`NetworkFamily::cuts`]: crate::spec::network::NetworkFamily::cuts

use crate::spec::{Instance, Mode, Network, Node, PortRule};

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

/// What crosses a cut (or a node's port) per step under a port rule, in packets: out of the
/// set, into it, and both directions together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutCapacity {
    /// Packets per step leaving the set.
    pub out: u64,
    /// Packets per step entering the set.
    pub inn: u64,
    /// Packets per step crossing in either direction.
    pub both: u64,
}

/// The capacity of the cut between `inside` and the other nodes under `rule`: F* counts arcs;
/// H* links plus one-way arcs, shared by both directions; F1 at most one packet per sending
/// and per receiving node; H1 a matching, at most min(boundary nodes on either side).
pub fn cut_capacity(network: &Network, inside: &[bool], rule: PortRule) -> CutCapacity {
    let n = network.len();
    let (mut a_out, mut a_in, mut links) = (0u64, 0u64, 0u64);
    let mut tail_out = vec![false; n];
    let mut head_out = vec![false; n];
    let mut tail_in = vec![false; n];
    let mut head_in = vec![false; n];
    for &(u, v) in network.arcs() {
        match (inside[u], inside[v]) {
            (true, false) => {
                a_out += 1;
                if network.arc(v, u).is_some() {
                    links += 1;
                }
                tail_out[u] = true;
                head_out[v] = true;
            }
            (false, true) => {
                a_in += 1;
                tail_in[u] = true;
                head_in[v] = true;
            }
            _ => {}
        }
    }
    let count = |f: &[bool]| f.iter().filter(|&&x| x).count() as u64;
    let one_port = |arcs: u64, tails: &[bool], heads: &[bool]| arcs.min(count(tails)).min(count(heads));
    let channels = a_out + a_in - links;
    match rule {
        PortRule::FStar => CutCapacity { out: a_out, inn: a_in, both: a_out + a_in },
        PortRule::HStar => CutCapacity { out: a_out, inn: a_in, both: channels },
        PortRule::F1 | PortRule::H1 => {
            let out = one_port(a_out, &tail_out, &head_out);
            let inn = one_port(a_in, &tail_in, &head_in);
            let both = if rule == PortRule::H1 {
                let side =
                    |a: &[bool], b: &[bool]| a.iter().zip(b).filter(|(x, y)| **x || **y).count() as u64;
                channels.min(side(&tail_out, &head_in)).min(side(&head_out, &tail_in))
            } else {
                out + inn
            };
            CutCapacity { out, inn, both }
        }
    }
}

/// Steps needed to move `out` tokens out of and `inn` tokens into a set with capacity `cap`,
/// p tokens per packet; `None` when tokens must cross where nothing can (infeasible instance).
pub(super) fn crossing_steps(out: u64, inn: u64, cap: CutCapacity, p: u64) -> Option<u64> {
    let (po, pi) = (out.div_ceil(p), inn.div_ceil(p));
    let ratio = |x: u64, c: u64| {
        if x == 0 {
            Some(0)
        } else if c == 0 {
            None
        } else {
            Some(x.div_ceil(c))
        }
    };
    Some(ratio(po, cap.out)?.max(ratio(pi, cap.inn)?).max(ratio(po + pi, cap.both)?))
}
