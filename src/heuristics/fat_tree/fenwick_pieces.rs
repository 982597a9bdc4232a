//! # Prefix by Fenwick pieces (ours, not paper 002's)
//!
//! Paper 002's prefix (§5, FT-23, FT-24; [`prefix`](mod@super::prefix)) runs a broadcast
//! backwards and then forwards, twice its length. This one overlaps everything: no processor
//! waits for a sweep, every one gathers its own chain.
//!
//! **The chain.** Processor j's goal [0, j] is, for every bit k set in j from the highest
//! down, the block of 2^k processors just left of j's ancestor at height k (its left sibling
//! block: [j', j' + 2^k − 1] with j' = j with bits 0..k cleared), then a_j itself, the Fenwick
//! decomposition of [0, j]. Every block is aligned, so each splits into aligned *pieces* of
//! 2^p processors for any p ≤ k.
//!
//! **Phase 1, recursive doubling up to 2^p.** For q = 1..=p every processor i sends the
//! aligned block of 2^(q−1) that holds it to i ⊕ 2^(q−1) (the hypercube scan's exchange), as
//! soon as it holds that block and the model lets it: afterwards every processor holds the
//! aligned piece of 2^p around it, and the left sibling blocks below height p, which it
//! received from its partners on the way.
//!
//! **Phase 2, pieces gathered.** For every bit k ≥ p set in j, j needs the 2^(k−p) pieces of
//! its left sibling block of height k. Any processor holding a piece may send it: its members
//! after phase 1, and every processor that has received it. Steps are scheduled in order; in
//! step s, for each height H from the root down (the longest messages first), the receivers
//! still missing a piece whose receive slot at the arrival step s + 2H − 1 is free are
//! matched, by a maximum bipartite matching, with the senders at LCA height H that have a free
//! submit slot and hold one of their missing pieces; a matched sender sends the piece with
//! fewest holders, and receivers that the capacities turn away try their other senders.
//!
//! **Runs.** A second pass for each p lets a message carry more than one piece. A *unit* is
//! what one message delivered (a piece, or a run of adjacent pieces); a processor's units never
//! overlap (it only receives pieces it misses), so adjacent ones chain, and it may send any
//! chain of its units that the receiver misses entirely. In this pass every receiver takes,
//! among the offers of its senders at that height, the longest (ties: the sender of lowest
//! index), instead of the matched sender's rarest piece: fewer, longer messages, which pays
//! where channels bind.
//!
//! **Orders.** Which receivers a height serves first decides who gets the channels that bind.
//! Three orders are tried: the most missing pieces first (ties: the lowest index), the fewest
//! first (ties: the highest index), and the highest index first. Serving the nearly complete
//! processors first finishes them and makes them holders early; it shortens w = 1 most
//! (fat-tree:64: 48 steps against 73 with the first order alone).
//!
//! Every message carries an aligned block its sender holds, or a chain of them, so the payload
//! rule holds, and each processor ends holding its chain. The capacity and processor rules are kept by a
//! timetable of every channel, submission and receipt; the checker verifies the result. The
//! method keeps the shortest of p = 0..=log N, each with and without runs and in each order
//! (p = log N is the plain hypercube scan, with no pieces). Pipelined only: messages leave in any step, which the round model forbids.
//!
//! **Measured** (tests `fenwick_pieces_prefix*` in `tests/integration/`): on fat-tree:8 under
//! w = n it meets the certified optimum 9; on fat-tree:16 it takes 13, 16 and 22 steps under
//! w = n, log n + 1 and 1, against the certified prefix optima 13, 13 and 17 and the two
//! sweeps' 24. It is not optimal in general: capacities below n force many pieces through the root.
//! The greedy costs about N³ / 2^p bit operations per step, so it runs up to
//! [`MAX_PROCESSORS`].

use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::applicability::fat_tree_with_valid_capacity;
use crate::spec::network::{fat_tree_arrival, fat_tree_lca_height};
use crate::spec::{FatTreeSend, Instance, ModelClass, Node, ProblemKind, Schedule};
use std::collections::BTreeMap;

/// The order in which each height's receivers are served (module documentation, "Orders").
#[derive(Debug, Clone, Copy)]
enum Order {
    /// The most missing pieces first (ties: the lowest index).
    MostMissing,
    /// The fewest missing pieces first (ties: the highest index).
    FewestMissing,
    /// The highest index first.
    Rightmost,
}

impl Order {
    const ALL: [Order; 3] = [Order::MostMissing, Order::FewestMissing, Order::Rightmost];
}

/// A run of adjacent pieces, its first and its last.
type Unit = (usize, usize);

/// The largest fat-tree the list scheduler runs on.
pub const MAX_PROCESSORS: usize = 128;

/// The shortest of the schedules for p = 0..=log N, without and with runs, in each order
/// (module documentation).
pub fn fenwick_pieces(inst: &Instance) -> Result<Schedule> {
    let n = inst.network.len();
    let caps = super::capacity(inst)?.per_height(n);
    let passes = (0..=n.trailing_zeros() as usize)
        .flat_map(|p| [false, true].map(move |runs| (p, runs)))
        .flat_map(|(p, runs)| Order::ALL.map(move |order| (p, runs, order)));
    let sends = passes
        .map(|(p, runs, order)| Gathering::new(n, &caps, p, runs, order).run())
        .min_by_key(|sends| length(sends))
        .unwrap_or_default();
    Ok(Schedule::FatTree(sends))
}

/// The step at whose end the last message is received.
fn length(sends: &[FatTreeSend]) -> i64 {
    sends.iter().map(FatTreeSend::arrival).max().unwrap_or(0)
}

/// Every channel, submission and receipt reserved so far.
struct Timetable {
    n: usize,
    /// w(2^k) per height k.
    caps: Vec<u64>,
    /// Per step, per processor: it submits a message.
    submits: Steps<bool>,
    /// Per step, per processor: it receives a message.
    receipts: Steps<bool>,
    /// Per step, per channel: the messages crossing it; a channel is `(heap index of its tree
    /// node) * 2 + (1 if up)`.
    loads: Steps<u64>,
    sends: Vec<FatTreeSend>,
}

/// A table indexed by step (from 1) and then by a processor or channel, grown on demand.
struct Steps<T> {
    width: usize,
    rows: Vec<Vec<T>>,
}

impl<T: Copy + Default> Steps<T> {
    fn new(width: usize) -> Self {
        Steps { width, rows: Vec::new() }
    }

    fn get(&self, step: i64, i: usize) -> T {
        self.rows.get(step as usize).map_or_else(T::default, |row| row[i])
    }

    fn entry(&mut self, step: i64, i: usize) -> &mut T {
        let step = step as usize;
        if self.rows.len() <= step {
            self.rows.resize_with(step + 1, || vec![T::default(); self.width]);
        }
        &mut self.rows[step][i]
    }
}

impl Timetable {
    /// The channel above processor v's ancestor at height k: `(heap index) * 2 + (1 if up)`.
    fn channel(&self, k: usize, v: Node, up: bool) -> usize {
        super::channel(self.n, k, v, up)
    }

    /// The (channel, step, height) of each crossing of a message a → b submitted in step s.
    fn crossings(&self, a: Node, b: Node, s: i64) -> impl Iterator<Item = ((usize, i64), usize)> + '_ {
        let h = fat_tree_lca_height(a, b);
        (0..h).flat_map(move |k| {
            let up = ((self.channel(k, a, true), s + k as i64), k);
            let down = ((self.channel(k, b, false), s + (2 * h - 1 - k) as i64), k);
            [up, down]
        })
    }

    /// Whether the channel has room in `step`.
    fn room(&self, channel: usize, step: i64, k: usize) -> bool {
        self.loads.get(step, channel) < self.caps[k]
    }

    /// Whether a → b may be submitted in step s.
    fn fits(&self, a: Node, b: Node, s: i64) -> bool {
        !self.submits.get(s, a)
            && !self.receipts.get(fat_tree_arrival(a, b, s), b)
            && self.crossings(a, b, s).all(|((channel, step), k)| self.room(channel, step, k))
    }

    /// Books a → b in step s carrying `payload`; returns the first step b may send it on.
    fn book(&mut self, a: Node, b: Node, s: i64, payload: [usize; 2]) -> i64 {
        let arrival = fat_tree_arrival(a, b, s);
        *self.submits.entry(s, a) = true;
        *self.receipts.entry(arrival, b) = true;
        let keys: Vec<(usize, i64)> = self.crossings(a, b, s).map(|(key, _)| key).collect();
        for (channel, step) in keys {
            *self.loads.entry(step, channel) += 1;
        }
        self.sends.push(FatTreeSend { step: s, from: a, to: b, payload });
        arrival + 1
    }
}

/// One run of the two phases for pieces of 2^p processors.
struct Gathering {
    table: Timetable,
    levels: usize,
    p: usize,
    /// Per processor, a bitset over pieces: the pieces it still needs.
    missing: Vec<Vec<u64>>,
    /// Per processor, how many pieces it still needs.
    count: Vec<usize>,
    /// Per processor, a bitset over pieces: the pieces it may send in the current step.
    held: Vec<Vec<u64>>,
    /// Processors holding each piece (sent or due), for the rarest-first choice.
    holders: Vec<usize>,
    /// Units (runs of pieces received in one message) that become sendable at a step.
    due: BTreeMap<i64, Vec<(Node, Unit)>>,
    /// Per processor, the units it may send, sorted.
    units: Vec<Vec<Unit>>,
    /// Whether a message carries a chain of units (module documentation, "Runs").
    runs: bool,
    order: Order,
}

impl Gathering {
    fn new(n: usize, caps: &[u64], p: usize, runs: bool, order: Order) -> Self {
        let table = Timetable {
            n,
            caps: caps.to_vec(),
            submits: Steps::new(n),
            receipts: Steps::new(n),
            loads: Steps::new(4 * n),
            sends: Vec::new(),
        };
        let pieces = n >> p;
        let words = pieces.div_ceil(64);
        let levels = n.trailing_zeros() as usize;
        let missing: Vec<Vec<u64>> = (0..n)
            .map(|j| {
                let mut need = vec![0u64; words];
                for k in (p..levels).filter(|&k| j >> k & 1 == 1) {
                    let base = (j >> (k + 1)) << (k + 1);
                    for piece in (base >> p)..((base + (1 << k)) >> p) {
                        need[piece / 64] |= 1 << (piece % 64);
                    }
                }
                need
            })
            .collect();
        let count = missing.iter().map(|need| need.iter().map(|w| w.count_ones() as usize).sum()).collect();
        Gathering {
            table,
            levels,
            p,
            missing,
            count,
            held: vec![vec![0; words]; n],
            holders: vec![0; pieces],
            due: BTreeMap::new(),
            units: vec![Vec::new(); n],
            runs,
            order,
        }
    }

    /// Phase 1 then phase 2; the sends.
    fn run(mut self) -> Vec<FatTreeSend> {
        self.doubling();
        self.gather();
        self.table.sends
    }

    /// Phase 1: the exchanges of recursive doubling up to blocks of 2^p; each processor's piece
    /// becomes sendable when it holds it.
    fn doubling(&mut self) {
        let n = self.table.n;
        let mut ready = vec![1i64; n];
        for q in 1..=self.p {
            let half = 1usize << (q - 1);
            let mut order: Vec<Node> = (0..n).collect();
            order.sort_by_key(|&i| (ready[i], i));
            let mut got = vec![0i64; n];
            for i in order {
                let (j, lo) = (i ^ half, i & !(half - 1));
                let mut s = ready[i];
                while !self.table.fits(i, j, s) {
                    s += 1;
                }
                got[j] = self.table.book(i, j, s, [lo, lo + half - 1]);
            }
            for i in 0..n {
                ready[i] = ready[i].max(got[i]);
            }
        }
        for (i, &step) in ready.iter().enumerate() {
            self.receive(i, (i >> self.p, i >> self.p), step);
        }
    }

    /// Processor v may send the unit from `step` on.
    fn receive(&mut self, v: Node, unit: Unit, step: i64) {
        for piece in unit.0..=unit.1 {
            self.holders[piece] += 1;
        }
        self.due.entry(step).or_default().push((v, unit));
    }

    /// Phase 2: steps in order, heights from the root down, a maximum matching per height.
    fn gather(&mut self) {
        let n = self.table.n;
        let mut left: usize = self.count.iter().sum();
        let mut step = 1i64;
        while left > 0 {
            while let Some(entry) = self.due.first_entry().filter(|e| *e.key() <= step) {
                for (v, unit) in entry.remove() {
                    for piece in unit.0..=unit.1 {
                        self.held[v][piece / 64] |= 1 << (piece % 64);
                    }
                    let at = self.units[v].partition_point(|u| *u < unit);
                    self.units[v].insert(at, unit);
                }
            }
            for height in (1..=self.levels).rev() {
                let arrival = step + 2 * height as i64 - 1;
                let mut receivers: Vec<Node> = (0..n)
                    .filter(|&j| !self.table.receipts.get(arrival, j))
                    .filter(|&j| self.count[j] > 0)
                    .collect();
                match self.order {
                    Order::MostMissing => receivers.sort_by_key(|&j| (std::cmp::Reverse(self.count[j]), j)),
                    Order::FewestMissing => receivers.sort_by_key(|&j| (self.count[j], std::cmp::Reverse(j))),
                    Order::Rightmost => receivers.sort_by_key(|&j| std::cmp::Reverse(j)),
                }
                let senders: Vec<Vec<Node>> =
                    receivers.iter().map(|&j| self.senders(j, height, step)).collect();
                // With runs a receiver takes the longest offer; without, the matched sender first.
                let matched =
                    if self.runs { vec![None; receivers.len()] } else { maximum_matching(&senders, n) };
                for (r, &j) in receivers.iter().enumerate() {
                    let tried = matched[r].into_iter().chain(senders[r].iter().copied());
                    let mut offers = tried
                        .filter(|&s| self.table.fits(s, j, step))
                        .filter_map(|s| Some((s, self.useful(s, j)?)));
                    let chosen = if self.runs {
                        offers.max_by_key(|&(s, unit)| (unit.1 - unit.0, std::cmp::Reverse(s)))
                    } else {
                        offers.next()
                    };
                    if let Some((s, unit)) = chosen {
                        self.send(s, j, unit, step);
                        left -= unit.1 - unit.0 + 1;
                    }
                }
            }
            step += 1;
        }
    }

    /// The processors at LCA height `height` from j that may send it a missing piece in `step`:
    /// none when the two channels at height − 1 every such message crosses are full.
    fn senders(&self, j: Node, height: usize, step: i64) -> Vec<Node> {
        let k = height - 1;
        let first = ((j >> k) ^ 1) << k;
        let table = &self.table;
        if !table.room(table.channel(k, first, true), step + k as i64, k)
            || !table.room(table.channel(k, j, false), step + height as i64, k)
        {
            return Vec::new();
        }
        (first..first + (1 << k))
            .filter(|&s| !table.submits.get(step, s))
            .filter(|&s| self.missing[j].iter().zip(&self.held[s]).any(|(m, h)| m & h != 0))
            .collect()
    }

    /// Whether j still misses `piece`.
    fn misses(&self, j: Node, piece: usize) -> bool {
        self.missing[j][piece / 64] >> (piece % 64) & 1 == 1
    }

    /// What s sends j: without runs, the rarest piece s holds that j misses; with runs, the
    /// longest chain of adjacent units of s that j misses entirely (ties: the rarest piece).
    fn useful(&self, s: Node, j: Node) -> Option<Unit> {
        let rarest = |unit: Unit| (unit.0..=unit.1).map(|piece| self.holders[piece]).min().unwrap_or(0);
        let wanted = self.units[s].iter().copied().filter(|u| (u.0..=u.1).all(|piece| self.misses(j, piece)));
        if !self.runs {
            return wanted.min_by_key(|&u| (rarest(u), u.0));
        }
        let mut chains: Vec<Unit> = Vec::new();
        for unit in wanted {
            match chains.last_mut() {
                Some(last) if last.1 + 1 == unit.0 => last.1 = unit.1,
                _ => chains.push(unit),
            }
        }
        chains.into_iter().min_by_key(|&c| (std::cmp::Reverse(c.1 - c.0), rarest(c), c.0))
    }

    /// s sends j the pieces `unit` in `step`.
    fn send(&mut self, s: Node, j: Node, unit: Unit, step: i64) {
        let usable = self.table.book(s, j, step, [unit.0 << self.p, ((unit.1 + 1) << self.p) - 1]);
        for piece in unit.0..=unit.1 {
            self.missing[j][piece / 64] &= !(1 << (piece % 64));
        }
        self.count[j] -= unit.1 - unit.0 + 1;
        self.receive(j, unit, usable);
    }
}

/// A maximum matching of the rows (left vertices, in priority order) to the columns (nodes
/// below `columns`) listed in `edges[row]` (Kuhn's augmenting paths): per row, its column or
/// `None`.
fn maximum_matching(edges: &[Vec<Node>], columns: usize) -> Vec<Option<Node>> {
    /// Whether an augmenting path starts at `row`; `seen[col] == stamp` marks the columns this
    /// search has visited.
    fn augment(
        row: usize,
        stamp: usize,
        edges: &[Vec<Node>],
        seen: &mut [usize],
        owner: &mut [Option<usize>],
    ) -> bool {
        for &col in &edges[row] {
            if seen[col] != stamp {
                seen[col] = stamp;
                if owner[col].is_none_or(|other| augment(other, stamp, edges, seen, owner)) {
                    owner[col] = Some(row);
                    return true;
                }
            }
        }
        false
    }
    let (mut owner, mut seen) = (vec![None; columns], vec![0; columns]);
    for row in 0..edges.len() {
        augment(row, row + 1, edges, &mut seen, &mut owner);
    }
    let mut matched = vec![None; edges.len()];
    for (col, row) in owner.into_iter().enumerate() {
        if let Some(row) = row {
            matched[row] = Some(col);
        }
    }
    matched
}

/// Where it applies: prefix on the pipelined ideal fat-tree, up to [`MAX_PROCESSORS`].
fn small_fat_tree(inst: &Instance) -> std::result::Result<(), String> {
    fat_tree_with_valid_capacity(inst)?;
    let n = inst.network.len();
    if n > MAX_PROCESSORS {
        return Err(format!(
            "fat-tree:{n} is over the {MAX_PROCESSORS} processors its list scheduler runs on"
        ));
    }
    Ok(())
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "prefix-fenwick-pieces",
    source: "ours (not paper 002's): recursive doubling up to pieces of 2^p, then every processor \
             gathers its Fenwick blocks as pieces from any holder; compare FT-23, FT-24",
    summary: "P_j gathers, for each bit k set in j, its left sibling block of 2^k as pieces of 2^p from \
              any holder, step by step, longest messages first, by maximum matching; the best p",
    applicability: crate::spec::Applicability {
        problems: &[ProblemKind::Prefix],
        models: &[ModelClass::FatTree { rounds: false }],
        families: &[crate::spec::FamilyKind::FAT_TREE],
        refine: Some(small_fat_tree),
        model_note: "it submits messages in any step, which the round model forbids",
    },
    claim: |_| None,
    run: fenwick_pieces,
};
