//! Ideal fat-tree checker (SPEC §4.3; paper 002 §2, §4.2, §5;
//! FT-1, FT-5 and FT-23 of the claims catalogue).
//!
//! N processors sit at the leaves of a complete binary tree. Tree node (k, i) is the i-th node
//! of height k (leaves have height 0; it spans processors i·2^k .. (i+1)·2^k − 1). Every non-root
//! node has two channels to its parent, named `up(k,i)` (towards the root) and `down(k,i)` (into
//! the node), both of capacity w(2^k). A message from a to b whose lowest common ancestor has
//! height h, submitted in step s, crosses `up(k, a >> k)` in step s + k and `down(k, b >> k)` in
//! step s + 2h − 1 − k (k = 0..h−1), and is received at the end of step s + 2h − 1 (FT-1).
//!
//! Rules, all collected rather than stopping at the first:
//! * **capacity rule** (002 §2, read per step as SPEC §4.3 does): no channel carries more than
//!   its capacity in one step;
//! * **processor rule**: per step a processor submits at most one message and receives at most
//!   one;
//! * **payload rule** (SPEC §4.3, 002 §5): a payload `[lo, hi]` stands for a_lo ⋆ … ⋆ a_hi. A
//!   processor holds its initial value (broadcast: processor 0 holds `[0,0]`; product and
//!   prefix: processor i holds `[i,i]`) and every payload it has received, from the end of the
//!   receiving step on. It may send `[lo, hi]` in step s iff the ranges it holds at the end of
//!   step s − 1 chain into it: `[lo, m1], [m1+1, m2], …, [mk+1, hi]` (combining adjacent ranges
//!   is free local work; ⋆ need not be commutative, so nothing else can be formed, in particular
//!   no combination of non-adjacent ranges and no sub-range of a product). A message whose
//!   payload is not held still occupies its channels but delivers nothing;
//! * **round rule** (only when the model says `rounds = true`, 002 §4.2): the sends form rounds
//!   back to back, the first starting with the first submission (in the normalised schedule,
//!   step 1; leading idle steps are not a round, docs/spec.md §1.2); all messages of a round are submitted in its
//!   first step, the round lasts 2·(largest LCA height in it) steps, and the next round starts
//!   in the step after. In a round each processor sends at most one message (the processor rule)
//!   and receives at most one. The paper is silent on whether one processor may send one *and*
//!   receive one in the same round; this checker allows it;
//! * **incomplete delivery**: broadcast: every processor ends holding `[0,0]`; product:
//!   processor 0 ends holding (a chain making) `[0, N−1]`; prefix: processor i ends with
//!   `[0, i]`;
//! * **bad entries**: a step below 1 or beyond 2^40, a self-send (a = b: local work needs no message; 002's
//!   Algorithm 2 skips these, FT-6), an unknown processor, a payload that is not a range of
//!   0..N−1. Such sends are reported and otherwise ignored.
//!
//! **Length** is last receipt − first submission + 1 (docs/spec.md §1.2), the same for every
//! shifted copy: processors hold their values from the start, so no rule depends on absolute
//! step numbers (the metrics carry `first step` when it is not 1). **Metrics:** `events` counts
//! channel hops (2h per message); `extra` reports the largest number of messages one channel
//! carries in one step (`max channel load`), the FT-5 load factor of the messages submitted in
//! one step (`batch load factor (FT-5)`: the maximum over submission steps and channels of the
//! number of that step's messages whose route uses the channel, divided by its capacity; FT-5
//! notes it can exceed 1 under the per-step rule), and under the round model the number of
//! `rounds`.

use super::{Metrics, Rule, Verdict, Violation};
use crate::spec::{FatTreeSend, Instance, Model, Node, Problem, network::fat_tree_lca_height};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashSet};

/// How many messages or ranges a message lists before summarising.
const LISTED: usize = 5;

/// An index range `[lo, hi]`: the product a_lo ⋆ … ⋆ a_hi.
type Range = (usize, usize);

/// Checks a fat-tree schedule (SPEC §4.3) of a broadcast, product or prefix instance.
pub fn check(instance: &Instance, sends: &[FatTreeSend]) -> Verdict {
    let Model::FatTree { capacity, rounds } = &instance.model else {
        return bad_entry("model", format!("is {}, not the ideal fat-tree", instance.model.name()));
    };
    let n = instance.network.len();
    if n < 2 || !n.is_power_of_two() {
        return bad_entry(
            "network",
            format!("{} is not a fat-tree of a power of two >= 2 processors", instance.network),
        );
    }
    if let Err(reason) = capacity.validate(n as u64) {
        return bad_entry("model.capacity", reason);
    }
    // Per processor: the range it starts with and the range it must end with (SPEC §4.3).
    let (initial, goal): (Vec<Option<Range>>, Vec<Option<Range>>) = match instance.problem {
        Problem::Broadcast => ((0..n).map(|i| (i == 0).then_some((0, 0))).collect(), vec![Some((0, 0)); n]),
        Problem::Product => {
            ((0..n).map(|i| Some((i, i))).collect(), (0..n).map(|i| (i == 0).then_some((0, n - 1))).collect())
        }
        Problem::Prefix => ((0..n).map(|i| Some((i, i))).collect(), (0..n).map(|i| Some((0, i))).collect()),
        ref p => return bad_entry("problem", format!("`{p}` is not a fat-tree problem")),
    };
    let tree = Tree { n, levels: n.trailing_zeros() as usize, caps: capacity.per_height(n) };
    let mut violations = Vec::new();
    let flights = well_formed(sends, n, &mut violations);

    let max_load = tree.capacity_rule(&flights, &mut violations);
    processor_rule(&flights, &mut violations);
    let round_count = rounds.then(|| round_rule(&flights, &mut violations));
    payload_rule(&flights, initial, &goal, &mut violations);
    let (num, den) = tree.batch_load_factor(&flights);
    let mut metrics = Metrics { events: flights.iter().map(|f| 2 * f.h as u64).sum(), ..Metrics::default() };
    metrics.extra.push(("max channel load".into(), max_load.to_string()));
    metrics.extra.push(("batch load factor (FT-5)".into(), fraction(num, den)));
    if let Some(count) = round_count {
        metrics.extra.push(("rounds".into(), count.to_string()));
    }
    let first = flights.iter().map(|f| f.step).min();
    if let Some(first) = first.filter(|&f| f > 1) {
        metrics.extra.push(("first step".into(), first.to_string()));
    }
    let last = flights.iter().map(|f| f.arrival).max();
    Verdict::from_parts(violations, super::span_length(first, last), metrics)
}

fn bad_entry(place: &str, detail: String) -> Verdict {
    Verdict::Inadmissible(vec![Violation { rule: Rule::BadEntry, step: None, place: place.into(), detail }])
}

/// A well-formed send: its index in the schedule and its route timing.
#[derive(Debug, Clone, Copy)]
struct Flight {
    id: usize,
    step: i64,
    from: Node,
    to: Node,
    lo: usize,
    hi: usize,
    /// LCA height, ≥ 1.
    h: usize,
    /// The step at whose end it is received: step + 2h − 1.
    arrival: i64,
}

impl Flight {
    /// `message 3 (P1->P6 [0,1] sent in step 2)`.
    fn name(&self) -> String {
        format!(
            "message {} (P{}->P{} [{},{}] sent in step {})",
            self.id, self.from, self.to, self.lo, self.hi, self.step
        )
    }

    /// Its channel hops as (channel, step); a channel is `(heap index of the tree node) * 2 +
    /// direction` (1 = up), heap index `N/2^k + i` for node (k, i).
    fn hops(&self, n: usize) -> impl Iterator<Item = (usize, i64)> + '_ {
        (0..self.h).flat_map(move |k| {
            let up = (((n >> k) + (self.from >> k)) * 2 + 1, self.step + k as i64);
            let down = (((n >> k) + (self.to >> k)) * 2, self.arrival - k as i64);
            [up, down]
        })
    }
}

/// Sends that name real processors, a step ≥ 1, distinct endpoints and a range of 0..N−1; the
/// others are reported.
fn well_formed(sends: &[FatTreeSend], n: usize, out: &mut Vec<Violation>) -> Vec<Flight> {
    let mut flights = Vec::with_capacity(sends.len());
    for (id, s) in sends.iter().enumerate() {
        let [lo, hi] = s.payload;
        let place = format!("message {id}");
        let mut bad =
            |rule, detail: String| out.push(Violation { rule, step: None, place: place.clone(), detail });
        if s.from >= n || s.to >= n {
            bad(
                Rule::UnknownItem,
                format!("names processor {}: the fat-tree has processors 0..{}", s.from.max(s.to), n - 1),
            );
        } else if s.step < 1 {
            bad(Rule::BadEntry, format!("is submitted in step {}: steps are numbered from 1", s.step));
        } else if s.step > super::MAX_STEP {
            bad(
                Rule::BadEntry,
                format!("is submitted in step {}, beyond 2^40; it is not checked further", s.step),
            );
        } else if s.from == s.to {
            bad(
                Rule::BadEntry,
                format!(
                    "is a self-send of P{}: local work needs no message (002 Algorithm 2 skips these, FT-6)",
                    s.from
                ),
            );
        } else if lo > hi || hi >= n {
            bad(
                Rule::PayloadRule,
                format!("carries [{lo},{hi}], which is not a range of the indices 0..{}", n - 1),
            );
        } else {
            let h = fat_tree_lca_height(s.from, s.to);
            flights.push(Flight {
                id,
                step: s.step,
                from: s.from,
                to: s.to,
                lo,
                hi,
                h,
                arrival: s.step + 2 * h as i64 - 1,
            });
        }
    }
    flights
}

/// The first [`LISTED`] items, then `and N more`.
fn listing(items: impl Iterator<Item = String>, total: usize) -> String {
    let mut parts: Vec<String> = items.take(LISTED).collect();
    if total > LISTED {
        parts.push(format!("and {} more", total - LISTED));
    }
    parts.join(", ")
}

fn names(flights: &[Flight], ids: &[usize]) -> String {
    listing(ids.iter().map(|&i| flights[i].name()), ids.len())
}

/// Sorts `(key, flight index)` pairs and calls `report` for each key shared by more than
/// `limit(key)` flights; returns the largest group.
fn crowds<K: Ord + Copy>(
    mut items: Vec<(K, usize)>,
    limit: impl Fn(K) -> u64,
    mut report: impl FnMut(K, &[usize]),
) -> usize {
    items.sort_unstable();
    let mut largest = 0;
    let mut ids = Vec::new();
    for group in items.chunk_by(|a, b| a.0 == b.0) {
        largest = largest.max(group.len());
        if group.len() as u64 > limit(group[0].0) {
            ids.clear();
            ids.extend(group.iter().map(|&(_, i)| i));
            report(group[0].0, &ids);
        }
    }
    largest
}

/// The tree's shape and capacities.
struct Tree {
    n: usize,
    levels: usize,
    /// w(2^k) for k = 0..log N − 1.
    caps: Vec<u64>,
}

impl Tree {
    /// (height, index, is up) of a channel id.
    fn channel(&self, c: usize) -> (usize, usize, bool) {
        let heap = c / 2;
        let k = self.levels - heap.ilog2() as usize;
        (k, heap - (self.n >> k), c % 2 == 1)
    }

    fn channel_name(&self, c: usize) -> String {
        let (k, i, up) = self.channel(c);
        format!("channel {}({k},{i})", if up { "up" } else { "down" })
    }

    fn cap(&self, c: usize) -> u64 {
        self.caps[self.channel(c).0]
    }

    /// Capacity rule per channel and step; returns the largest load of a channel in a step.
    fn capacity_rule(&self, flights: &[Flight], out: &mut Vec<Violation>) -> usize {
        let items = flights
            .iter()
            .enumerate()
            .flat_map(|(i, f)| f.hops(self.n).map(move |(c, t)| ((t, c), i)))
            .collect();
        crowds(
            items,
            |(_, c)| self.cap(c),
            |(t, c), ids| {
                let (k, _, _) = self.channel(c);
                out.push(Violation {
                    rule: Rule::CapacityRule,
                    step: Some(t),
                    place: self.channel_name(c),
                    detail: format!(
                        "carries {} messages, more than its capacity w({}) = {}: {}",
                        ids.len(),
                        1u64 << k,
                        self.caps[k],
                        names(flights, ids)
                    ),
                })
            },
        )
    }

    /// FT-5: max over submission steps and channels of (that step's messages routed over the
    /// channel) / capacity, as a fraction.
    fn batch_load_factor(&self, flights: &[Flight]) -> (u64, u64) {
        let mut uses: Vec<(i64, usize)> =
            flights.iter().flat_map(|f| f.hops(self.n).map(move |(c, _)| (f.step, c))).collect();
        uses.sort_unstable();
        let mut best = (0, 1);
        for group in uses.chunk_by(|a, b| a == b) {
            let (load, cap) = (group.len() as u64, self.cap(group[0].1));
            if load * best.1 > best.0 * cap {
                best = (load, cap);
            }
        }
        best
    }
}

/// `3/2`, or `2` when the fraction is whole.
fn fraction(num: u64, den: u64) -> String {
    let g = gcd(num, den).max(1);
    let (a, b) = (num / g, den / g);
    if b == 1 { a.to_string() } else { format!("{a}/{b}") }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// At most one submission and one receipt per processor and step.
fn processor_rule(flights: &[Flight], out: &mut Vec<Violation>) {
    let submits = flights.iter().enumerate().map(|(i, f)| ((f.from, f.step), i)).collect();
    let receives = flights.iter().enumerate().map(|(i, f)| ((f.to, f.arrival), i)).collect();
    for (verb, items) in [("submits", submits), ("receives", receives)] {
        crowds(
            items,
            |_| 1,
            |(p, t), ids| {
                out.push(Violation {
                    rule: Rule::ProcessorRule,
                    step: Some(t),
                    place: format!("processor {p}"),
                    detail: format!("{verb} {} messages: {}", ids.len(), names(flights, ids)),
                })
            },
        );
    }
}

/// 002 §4.2: rounds back to back from step 1, every message submitted at its round's start, at
/// most one receipt per processor and round. Returns the number of rounds.
fn round_rule(flights: &[Flight], out: &mut Vec<Violation>) -> usize {
    let mut order: Vec<usize> = (0..flights.len()).collect();
    order.sort_unstable_by_key(|&i| (flights[i].step, i));
    let mut rounds = 0;
    // Rounds are counted from the first submission: leading idle steps are not a round.
    let mut end = order.first().map_or(0, |&i| flights[i].step - 1); // last step of the previous round
    let mut start = 0i64;
    for group in order.chunk_by(|&a, &b| flights[a].step == flights[b].step) {
        let s = flights[group[0]].step;
        let at = |detail: String| Violation {
            rule: Rule::RoundRule,
            step: Some(s),
            place: format!("round {rounds}"),
            detail,
        };
        if s <= end {
            out.push(at(format!(
                "(steps {start}..{end}) has {} submitted after its first step: {}",
                if group.len() == 1 { "a message" } else { "messages" },
                names(flights, group)
            )));
            continue;
        }
        rounds += 1;
        let height = group.iter().map(|&i| flights[i].h).max().unwrap_or(0) as i64;
        if s != end + 1 {
            out.push(Violation {
                rule: Rule::RoundRule,
                step: Some(s),
                place: format!("round {rounds}"),
                detail: format!(
                    "starts in step {s}, but round {} ends in step {end}: rounds follow each other without gaps",
                    rounds - 1
                ),
            });
        }
        (start, end) = (s, s + 2 * height - 1);
        let receipts = group.iter().map(|&i| (flights[i].to, i)).collect();
        crowds(
            receipts,
            |_| 1,
            |p, ids| {
                out.push(Violation {
                    rule: Rule::RoundRule,
                    step: Some(s),
                    place: format!("round {rounds}"),
                    detail: format!(
                        "(steps {s}..{end}): processor {p} receives {} messages: {}",
                        ids.len(),
                        names(flights, ids)
                    ),
                })
            },
        );
    }
    rounds
}

/// The ranges one processor holds; a range is available iff held ranges chain into it.
#[derive(Default)]
struct Holding(BTreeSet<Range>);

impl Holding {
    /// Whether held ranges `[lo, m1], [m1+1, m2], …, [mk+1, hi]` exist (reachability from lo to
    /// hi + 1 over the edges start -> end + 1; every edge points forward, so no path overshoots
    /// without being cut off).
    fn makes(&self, lo: usize, hi: usize) -> bool {
        let mut seen = HashSet::from([lo]);
        let mut stack = vec![lo];
        while let Some(p) = stack.pop() {
            for &(_, e) in self.0.range((p, p)..=(p, hi)) {
                if e == hi {
                    return true;
                }
                if seen.insert(e + 1) {
                    stack.push(e + 1);
                }
            }
        }
        false
    }

    fn describe(&self) -> String {
        if self.0.is_empty() {
            "none".into()
        } else {
            listing(self.0.iter().map(|(a, b)| format!("[{a},{b}]")), self.0.len())
        }
    }
}

/// Replays payloads in submission order; receipts become available after their arrival step.
fn payload_rule(
    flights: &[Flight],
    initial: Vec<Option<Range>>,
    goal: &[Option<Range>],
    out: &mut Vec<Violation>,
) {
    let mut held: Vec<Holding> = initial.into_iter().map(|r| Holding(r.into_iter().collect())).collect();
    let mut order: Vec<usize> = (0..flights.len()).collect();
    order.sort_unstable_by_key(|&i| (flights[i].step, i));
    let mut pending: BinaryHeap<Reverse<(i64, usize)>> = BinaryHeap::new();
    let deliver = |held: &mut Vec<Holding>, f: &Flight| {
        held[f.to].0.insert((f.lo, f.hi));
    };
    for &i in &order {
        let f = &flights[i];
        while let Some(&Reverse((t, j))) = pending.peek() {
            if t >= f.step {
                break;
            }
            pending.pop();
            deliver(&mut held, &flights[j]);
        }
        if held[f.from].makes(f.lo, f.hi) {
            pending.push(Reverse((f.arrival, i)));
        } else {
            let when = if f.step == 1 {
                "initially".to_string()
            } else {
                format!("at the end of step {}", f.step - 1)
            };
            out.push(Violation {
                rule: Rule::PayloadRule,
                step: Some(f.step),
                place: format!("processor {}", f.from),
                detail: format!(
                    "sends {}, but [{},{}] is not a chain of the ranges it holds {when}: {}",
                    f.name(),
                    f.lo,
                    f.hi,
                    held[f.from].describe()
                ),
            });
        }
    }
    for Reverse((_, j)) in pending {
        deliver(&mut held, &flights[j]);
    }
    for (p, g) in goal.iter().enumerate() {
        if let Some((lo, hi)) = *g
            && !held[p].makes(lo, hi)
        {
            out.push(Violation {
                rule: Rule::Incomplete,
                step: None,
                place: format!("processor {p}"),
                detail: format!("ends without [{lo},{hi}]; the ranges it holds: {}", held[p].describe()),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_of_adjacent_ranges() {
        let h = Holding([(0, 0), (1, 2), (3, 3), (1, 1), (5, 6)].into_iter().collect());
        assert!(h.makes(0, 3));
        assert!(h.makes(1, 1));
        assert!(h.makes(0, 2));
        assert!(!h.makes(0, 4), "4 is missing");
        assert!(!h.makes(2, 3), "[1,2] cannot be split");
        assert!(!h.makes(0, 6));
        assert!(h.makes(5, 6));
    }

    #[test]
    fn channel_ids_round_trip() {
        let tree = Tree { n: 8, levels: 3, caps: vec![1, 1, 1] };
        let f = Flight { id: 0, step: 1, from: 1, to: 6, lo: 1, hi: 1, h: 3, arrival: 6 };
        let hops: Vec<(String, i64)> = f.hops(8).map(|(c, t)| (tree.channel_name(c), t)).collect();
        assert_eq!(
            hops,
            [
                ("channel up(0,1)".to_string(), 1),
                ("channel down(0,6)".to_string(), 6),
                ("channel up(1,0)".to_string(), 2),
                ("channel down(1,3)".to_string(), 5),
                ("channel up(2,0)".to_string(), 3),
                ("channel down(2,1)".to_string(), 4),
            ]
        );
    }

    #[test]
    fn fractions_are_reduced() {
        assert_eq!(fraction(2, 1), "2");
        assert_eq!(fraction(3, 2), "3/2");
        assert_eq!(fraction(4, 4), "1");
        assert_eq!(fraction(0, 1), "0");
    }
}
