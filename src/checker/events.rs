//! The checker of the event model (docs/spec.md §3.3, §6.1), in exact arithmetic: an allgather
//! whose shards are cut into C pieces, each link carrying its written pieces one at a time. A
//! transfer of a piece over link l takes α_l + (M/(N·C)) / b_l and starts as soon as the link
//! is free and its tail holds the piece; a compute node holds a piece from its first arrival
//! on, a switch holds one copy per arrival and spends one per transfer out (it relays, it does
//! not replicate): a copy in the switches carries its route, the compute nodes it goes from and
//! to, and is spent only by a transfer out that names that route. The checker replays the orders event by event and derives every time itself:
//! a schedule names no time, so it cannot claim a wrong one. The collective's time is when the
//! last compute node receives its last piece. This is TACOS's link-chunk model (Won et al.,
//! arXiv 2304.05301, §3): an indivisible chunk per transfer, every transfer paying the link's
//! latency.

use crate::spec::events::{EventSchedule, Piece};
use crate::spec::fabric::{Fabric, decimal};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The route of a piece a compute node holds: it holds the piece, not a copy to relay.
const HELD: (usize, usize) = (usize::MAX, usize::MAX);

/// The most (compute node, piece) pairs the checker and the producers track: N² · C.
pub const MAX_HOLDINGS: u64 = 100_000_000;

/// Every link's transfer time in a common unit: `ticks[l]` · `tick_us` µs, exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Durations {
    /// Ticks per transfer, per link in the fabric's order.
    pub ticks: Vec<u64>,
    /// One tick in µs.
    pub tick_us: BigRational,
}

impl Durations {
    /// A number of ticks in µs, exactly.
    pub fn us(&self, ticks: u64) -> BigRational {
        BigRational::from_integer(ticks.into()) * &self.tick_us
    }
}

/// The transfer time of one piece on every link: α_l + s / b_l with s = M/(N·C) bytes, the
/// latency read as the decimal it prints as and the bandwidth in GB/s (s/b in µs is s/(1000·b)).
pub fn durations(fabric: &Fabric, bytes: u64, pieces_per_rank: u64) -> Result<Durations, String> {
    let ranks = fabric.compute().len() as u64;
    let piece = BigRational::new(bytes.into(), BigInt::from(ranks) * BigInt::from(pieces_per_rank));
    let thousand = BigRational::from_integer(1000.into());
    let exact: Vec<BigRational> = fabric
        .links()
        .iter()
        .map(|l| {
            let alpha = decimal(&l.latency.to_string()).expect("a finite latency prints as a decimal");
            alpha + &piece / (&l.bandwidth * &thousand)
        })
        .collect();
    let den = exact.iter().fold(BigInt::one(), |d, t| d.lcm(t.denom()));
    let ticks = exact
        .iter()
        .map(|t| (t.numer() * (&den / t.denom())).to_u64().filter(|&k| k < 1 << 62))
        .collect::<Option<Vec<u64>>>()
        .ok_or_else(|| {
            "the links' transfer times have no common unit within 62 bits: round the bandwidths and latencies to fewer digits".to_string()
        })?;
    Ok(Durations { ticks, tick_us: BigRational::new(BigInt::one(), den) })
}

/// What an admissible event schedule measures.
#[derive(Debug, Clone, PartialEq)]
pub struct EventMeasure {
    /// When the last compute node receives its last piece, µs.
    pub time_us: BigRational,
    /// The transfers made.
    pub transfers: usize,
    /// C.
    pub pieces_per_rank: u64,
}

/// Refuses a schedule whose holdings table would pass [`MAX_HOLDINGS`].
pub fn guard_holdings(ranks: u64, pieces_per_rank: u64) -> Result<(), String> {
    match ranks.checked_mul(ranks).and_then(|r| r.checked_mul(pieces_per_rank)) {
        Some(h) if h <= MAX_HOLDINGS => Ok(()),
        _ => Err(format!(
            "{ranks} ranks × {ranks} × {pieces_per_rank} pieces is over the {MAX_HOLDINGS} pieces held the event model tracks: fewer pieces per rank"
        )),
    }
}

/// The replay's state: per link its written pieces and the next to go; first arrivals per
/// (rank, piece); copies held per (switch, piece, route); idle links by what they wait for
/// (node, piece, route), the route [`HELD`] at a compute node.
struct Replay<'a> {
    fabric: &'a Fabric,
    ticks: &'a [u64],
    rank: Vec<usize>,
    c: usize,
    pieces: usize,
    queue: Vec<&'a [Piece]>,
    next: Vec<usize>,
    arrival: Vec<u64>,
    copies: HashMap<(usize, usize, (usize, usize)), u64>,
    waiting: HashMap<(usize, usize, (usize, usize)), Vec<usize>>,
    events: BinaryHeap<Reverse<(u64, usize)>>,
}

impl Replay<'_> {
    fn id(&self, p: &Piece) -> usize {
        self.rank[p.root] * self.c + p.index as usize
    }

    /// Starts link l's next transfer at `now` if its tail holds the piece, else parks it.
    fn start(&mut self, l: usize, now: u64) {
        let Some(&piece) = self.queue[l].get(self.next[l]) else { return };
        let (tail, p) = (self.fabric.links()[l].from, self.id(&piece));
        let held = if self.fabric.is_compute(tail) {
            self.arrival[self.rank[tail] * self.pieces + p] <= now
        } else {
            match self.copies.get_mut(&(tail, p, piece.route.unwrap_or(HELD))) {
                Some(k) if *k > 0 => {
                    *k -= 1;
                    true
                }
                _ => false,
            }
        };
        if held {
            self.events.push(Reverse((now + self.ticks[l], l)));
        } else {
            // A compute node waits for the piece itself; a switch for a copy on this route.
            let route = if self.fabric.is_compute(tail) { HELD } else { piece.route.unwrap_or(HELD) };
            self.waiting.entry((tail, p, route)).or_default().push(l);
        }
    }

    /// Ends link l's transfer at `now`: the piece arrives at its head, which wakes the links
    /// waiting for it there, and the link starts its next.
    fn end(&mut self, l: usize, now: u64) {
        let piece = self.queue[l][self.next[l]];
        self.next[l] += 1;
        let (head, p) = (self.fabric.links()[l].to, self.id(&piece));
        let woken = if self.fabric.is_compute(head) {
            let at = &mut self.arrival[self.rank[head] * self.pieces + p];
            if *at == u64::MAX {
                *at = now;
                self.waiting.remove(&(head, p, HELD)).unwrap_or_default()
            } else {
                Vec::new()
            }
        } else {
            let route = piece.route.unwrap_or(HELD);
            *self.copies.entry((head, p, route)).or_default() += 1;
            // One waiting link per copy, in the order they began to wait.
            match self.waiting.get_mut(&(head, p, route)) {
                Some(w) if !w.is_empty() => vec![w.remove(0)],
                _ => Vec::new(),
            }
        };
        for w in woken {
            self.start(w, now);
        }
        self.start(l, now);
    }
}

/// Judges an event schedule by replaying it; every violation is one line naming the link, the
/// piece and the rule.
pub fn check_events(fabric: &Fabric, schedule: &EventSchedule) -> Result<EventMeasure, Vec<String>> {
    let c = schedule.pieces_per_rank;
    let compute = fabric.compute();
    guard_holdings(compute.len() as u64, c).map_err(|e| vec![e])?;
    let durations = durations(fabric, schedule.bytes, c).map_err(|e| vec![e])?;
    let unrouted: Vec<String> = schedule
        .links
        .iter()
        .filter_map(|(l, pieces)| {
            let link = &fabric.links()[*l];
            let (tail, head) = (fabric.is_compute(link.from), fabric.is_compute(link.to));
            let wrong = pieces.iter().position(|p| match p.route {
                None => !(tail && head),
                Some((from, to)) => {
                    tail && (head || from != link.from) || head && to != link.to
                }
            })?;
            Some(format!(
                "link `{}` → `{}`: transfer {}: {}",
                fabric.node_name(link.from),
                fabric.node_name(link.to),
                wrong + 1,
                if tail && head {
                    "a link between compute nodes carries no route".to_string()
                } else {
                    "a copy into or out of the switches has the route (from, to) of its ends: from the link's tail if it is a compute node, to its head if it is one".to_string()
                }
            ))
        })
        .collect();
    if !unrouted.is_empty() {
        return Err(unrouted);
    }
    let mut rank = vec![usize::MAX; fabric.len()];
    for (r, &v) in compute.iter().enumerate() {
        rank[v] = r;
    }
    let pieces = compute.len() * c as usize;
    let mut queue: Vec<&[Piece]> = vec![&[]; fabric.links().len()];
    for (l, list) in &schedule.links {
        queue[*l] = list;
    }
    let mut arrival = vec![u64::MAX; compute.len() * pieces];
    for r in 0..compute.len() {
        arrival[r * pieces + r * c as usize..r * pieces + (r + 1) * c as usize].fill(0);
    }
    let mut replay = Replay {
        fabric,
        ticks: &durations.ticks,
        rank,
        c: c as usize,
        pieces,
        next: vec![0; queue.len()],
        queue,
        arrival,
        copies: HashMap::new(),
        waiting: HashMap::new(),
        events: BinaryHeap::new(),
    };
    for l in 0..replay.queue.len() {
        replay.start(l, 0);
    }
    while let Some(Reverse((now, l))) = replay.events.pop() {
        replay.end(l, now);
    }
    let Replay { queue, next, arrival, .. } = replay;
    let links = fabric.links();
    let name = |p: &Piece| format!("({}, {})", fabric.node_name(p.root), p.index);
    let mut violations: Vec<String> = (0..queue.len())
        .filter(|&l| next[l] < queue[l].len())
        .map(|l| {
            let (link, piece) = (&links[l], &queue[l][next[l]]);
            format!(
                "link `{}` → `{}`: transfer {} of {}, piece {}, never starts: `{}` {}",
                fabric.node_name(link.from),
                fabric.node_name(link.to),
                next[l] + 1,
                queue[l].len(),
                name(piece),
                fabric.node_name(link.from),
                if fabric.is_compute(link.from) {
                    "never receives it"
                } else {
                    "has no copy of it left to relay"
                }
            )
        })
        .collect();
    let missing = arrival.iter().filter(|&&t| t == u64::MAX).count();
    if let Some(first) = arrival.iter().position(|&t| t == u64::MAX) {
        let piece = Piece {
            root: compute[first % pieces / c as usize],
            index: (first % pieces) as u64 % c,
            route: None,
        };
        violations.push(format!(
            "incomplete: `{}` never receives piece {}{}",
            fabric.node_name(compute[first / pieces]),
            name(&piece),
            if missing > 1 {
                format!(", nor {} other (node, piece) pairs", missing - 1)
            } else {
                String::new()
            }
        ));
    }
    if !violations.is_empty() {
        return Err(violations);
    }
    let last = arrival.iter().copied().max().unwrap_or(0);
    Ok(EventMeasure { time_us: durations.us(last), transfers: schedule.transfers(), pieces_per_rank: c })
}
