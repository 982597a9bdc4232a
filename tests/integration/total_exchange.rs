//! Paper 004 (Dimakopoulos, Dimopoulos), total exchange on linear arrays and rings:
//! every algorithm's schedule goes through `checker::check` (F*, move) and every lemma is read
//! back from the CHECKED schedule with `Trace`, never from the simulation's state.
//!
//! Conventions: paper linear-array label ℓ is SPEC node ℓ − 1; ring labels are SPEC nodes; the
//! token of m_k(i) is k·n + i in SPEC numbering (the claims catalogue, "Definitions and conventions (004)").

use super::common::checked;
use commsched::checker::check;
use commsched::error::Error;
use commsched::heuristics::total_exchange::{
    InitialOrder, METHODS, Tie, Trace, all_clockwise, closest_first, consecutive_scatter, furthest_first,
    message_shift, modified_message_shift, scatter, split_half_duplex,
};
use commsched::heuristics::{find, for_instance};
use commsched::spec::io::{load_instance, load_schedule};
use commsched::spec::{Instance, Mode, Model, Network, PortRule, Problem, RingTie, Schedule, Transmission};
use proptest::prelude::*;
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------------
// Instances, checking, closed forms

fn instance_with(network: &str, rule: PortRule, demand: Option<Vec<Vec<bool>>>) -> Instance {
    Instance::new(
        network,
        Network::parse(network).unwrap(),
        Problem::TotalExchange(demand),
        Model::StoreForward { rule, mode: Mode::Move, packet: 1 },
        RingTie::Clockwise,
        "<test>",
    )
    .unwrap()
}

fn instance(network: &str) -> Instance {
    instance_with(network, PortRule::FStar, None)
}

fn path(n: usize) -> Instance {
    instance(&format!("path:{n}"))
}

fn ring(n: usize) -> Instance {
    instance(&format!("ring:{n}"))
}

/// The same instance under another port rule.
fn under(inst: &Instance, rule: PortRule) -> Instance {
    Instance { model: Model::StoreForward { rule, mode: Mode::Move, packet: 1 }, ..inst.clone() }
}

/// The checker's length and the trace of the schedule it accepted.
fn checked_trace(inst: &Instance, schedule: &Schedule) -> (u64, Trace) {
    (checked(inst, schedule), Trace::new(schedule).unwrap())
}

/// TE-22: T_opt(LA) = ⌈(n²−1)/4⌉ and T_opt(R) = ⌈(n²−1)/8⌉.
fn t_opt_la(n: usize) -> u64 {
    (n as u64 * n as u64 - 1).div_ceil(4)
}

fn t_opt_r(n: usize) -> u64 {
    (n as u64 * n as u64 - 1).div_ceil(8)
}

/// TE-1 / TE-2 computed independently of the closed forms: the ⌊n/2⌋⌈n/2⌉ messages from one half
/// to the other share one arc of the linear array, two arcs of the ring.
fn bisection(inst: &Instance) -> u64 {
    let n = inst.network.len() as u64;
    let crossing = (n / 2) * (n - n / 2);
    match inst.network.spec_string().split(':').next().unwrap() {
        "path" => crossing,
        "ring" => crossing.div_ceil(2),
        other => panic!("no bisection bound for {other}"),
    }
}

/// Checks a schedule, asserts it respects the TE-1/TE-2 bound and returns its length.
fn checked_above_bound(inst: &Instance, schedule: &Schedule) -> u64 {
    let len = checked(inst, schedule);
    assert!(
        len >= bisection(inst),
        "{}: length {len} below the bisection bound {}",
        inst.name,
        bisection(inst)
    );
    len
}

/// Paper 004 notation "m1(6)" → (source, destination) in the paper's labels.
fn parse_m(s: &str) -> (usize, usize) {
    let (k, i) = s.trim().strip_prefix('m').unwrap().trim_end_matches(')').split_once('(').unwrap();
    (k.parse().unwrap(), i.parse().unwrap())
}

/// The explicit steps of a store-and-forward schedule (itineraries expanded).
fn steps(schedule: &Schedule) -> Vec<Vec<Transmission>> {
    match schedule.explicit().unwrap().into_owned() {
        Schedule::StoreForward(s) => s,
        _ => panic!("not a store-and-forward schedule"),
    }
}

// ---------------------------------------------------------------------------------------------
// Linear array (004 §2, §3)

#[test]
fn te13_te5_furthest_first_is_optimal_on_the_linear_array_whatever_the_ties() {
    let ties = [Tie::SmallestSource, Tie::LargestSource, Tie::Random(1), Tie::Random(2), Tie::Random(3)];
    for n in 2..=40 {
        let inst = path(n);
        let lengths: Vec<u64> = ties
            .iter()
            .map(|&tie| checked_above_bound(&inst, &furthest_first(&inst, tie).unwrap()))
            .collect();
        assert!(lengths.iter().all(|&l| l == t_opt_la(n)), "n = {n}: {lengths:?} vs T_opt {}", t_opt_la(n));
    }
}

#[test]
fn te4_consecutive_scatter_takes_3_t_opt_minus_half_n() {
    for n in 2..=40 {
        let inst = path(n);
        let len = checked_above_bound(&inst, &consecutive_scatter(&inst).unwrap());
        let sum: u64 = (1..=n as u64).map(|i| (i - 1).max(n as u64 - i)).sum();
        assert_eq!(len, sum, "n = {n}: Σ max(i−1, n−i)");
        assert_eq!(len, 3 * t_opt_la(n) - n as u64 / 2, "n = {n}: 3·T_opt − ⌊n/2⌋");
    }
}

#[test]
fn te3_one_scatter_from_node_i_takes_max_of_its_distances() {
    for n in 2..=12 {
        for i in 1..=n {
            let demand = (0..n).map(|s| (0..n).map(|d| s == i - 1 && d != s).collect()).collect();
            let inst = instance_with(&format!("path:{n}"), PortRule::FStar, Some(demand));
            let len = checked(&inst, &scatter(&inst, i - 1).unwrap());
            assert_eq!(len as usize, (i - 1).max(n - i), "n = {n}, node {i}");
        }
    }
}

/// The rightward traffic in the paper's frame, or the leftward traffic mirrored into it
/// (label ℓ ↦ n + 1 − ℓ): departure times t^{(j)}(m_k(i)) with 1-based labels.
struct Frame<'a> {
    n: usize,
    trace: &'a Trace,
    mirrored: bool,
}

impl Frame<'_> {
    fn node(&self, label: usize) -> usize {
        if self.mirrored { self.n - label } else { label - 1 }
    }

    fn token(&self, k: usize, i: usize) -> usize {
        self.node(k) * self.n + self.node(i)
    }

    /// t^{(j)}(m_k(i)).
    fn t(&self, j: usize, k: usize, i: usize) -> u64 {
        self.trace
            .departure(self.token(k, i), self.node(j))
            .unwrap_or_else(|| panic!("m{k}({i}) never leaves {j}"))
    }

    /// The (step, token) pairs node j sends towards j + 1.
    fn sends(&self, j: usize) -> Vec<(u64, usize)> {
        self.trace.sends(self.node(j), self.node(j + 1))
    }

    /// The step m_k(i) reaches i.
    fn arrival(&self, k: usize, i: usize) -> u64 {
        self.trace.arrival(self.token(k, i)).unwrap()
    }
}

#[test]
fn te6_to_te12_lemmas_1_and_2_hold_on_the_checked_schedule() {
    for n in 2..=40 {
        let inst = path(n);
        let (len, trace) = checked_trace(&inst, &furthest_first(&inst, Tie::SmallestSource).unwrap());
        for mirrored in [false, true] {
            let f = Frame { n, trace: &trace, mirrored };
            let side = if mirrored { "leftward, mirrored" } else { "rightward" };
            // TE-10, (5): t^{(j)}(m_k(i)) = jn − ji + k, and t^{(j)}(m_k(n)) = j − k + 1.
            for i in 2..n {
                for j in 1..i {
                    for k in 1..=j {
                        assert_eq!(
                            f.t(j, k, i),
                            (j * n - j * i + k) as u64,
                            "n={n} {side}: t^({j})(m{k}({i}))"
                        );
                    }
                }
            }
            for j in 1..n {
                for k in 1..=j {
                    assert_eq!(f.t(j, k, n), (j - k + 1) as u64, "n={n} {side}: t^({j})(m{k}({n}))");
                }
            }
            // TE-7, (3), and TE-8, (4), as stated.
            for i in 2..n {
                for j in 1..i {
                    let expected = if i < n - 1 { f.t(j, j, i + 1) + 1 } else { j as u64 + 1 };
                    assert_eq!(f.t(j, 1, i), expected, "n={n} {side}: (3) at j={j}, i={i}");
                    for k in 1..j {
                        assert_eq!(
                            f.t(j, k + 1, i),
                            f.t(j, k, i) + 1,
                            "n={n} {side}: (4) at j={j}, i={i}, k={k}"
                        );
                    }
                }
            }
            // TE-6: m_j(n) is never delayed; node n receives its last message, m_1(n), at n − 1.
            let last_at_n = (1..n).map(|k| (f.arrival(k, n), k)).max().unwrap();
            assert_eq!(last_at_n, ((n - 1) as u64, 1), "n={n} {side}: last arrival at node n");
            // TE-9: node j sends in every step 1..j(n−j), j(n−j) messages, m_j(j+1) last, and
            // messages for i leave only after all messages for i+1 have left.
            for j in 1..n {
                let sends = f.sends(j);
                let send_steps: Vec<u64> = sends.iter().map(|s| s.0).collect();
                assert_eq!(
                    send_steps,
                    (1..=(j * (n - j)) as u64).collect::<Vec<_>>(),
                    "n={n} {side}: node {j}"
                );
                // Lemma 1 covers destinations up to n − 1: for j = n − 1 the last is m_1(n).
                let last = if j + 1 < n { f.token(j, j + 1) } else { f.token(1, n) };
                assert_eq!(sends.last().unwrap().1, last, "n={n} {side}: last of node {j}");
                let dsts: Vec<usize> = sends.iter().map(|&(_, tok)| tok % n).collect();
                let mut sorted = dsts.clone();
                sorted.sort_by_key(|&d| std::cmp::Reverse(f.node(1).abs_diff(d)));
                assert_eq!(dsts, sorted, "n={n} {side}: node {j} sends destinations furthest first");
            }
            // TE-11 (Lemma 2) and TE-12 (phases): at T_j = jn − j², nodes 1..j are empty, node
            // n−j+1 has just received its last message, and nothing more enters nodes n−j+1..n.
            for j in 1..=n / 2 {
                let t_j = (j * n - j * j) as u64;
                assert_eq!(f.sends(j).last().unwrap().0, t_j, "n={n} {side}: node {j} empties at T_j");
                for l in 1..=j {
                    assert!(
                        trace.queue(f.node(l), t_j, f.node(l + 1)).is_empty(),
                        "n={n} {side}: node {l} at T_{j}"
                    );
                }
                let target = n - j + 1;
                let (last, from) = (1..target).map(|k| (f.arrival(k, target), k)).max().unwrap();
                assert_eq!(last, t_j, "n={n} {side}: node {target} receives its last message at T_{j}");
                assert_eq!(from, if j == 1 { 1 } else { n - j }, "n={n} {side}: last message for {target}");
                let later = (target - 1..n).flat_map(|l| f.sends(l)).filter(|s| s.0 > t_j).count();
                assert_eq!(later, 0, "n={n} {side}: nodes {target}..{n} are retired after T_{j}");
            }
            assert_eq!(len, ((n / 2) * (n - n / 2)) as u64, "n={n}: Theorem 1 ends with phase ⌊n/2⌋");
        }
    }
}

/// TE-24: Fig. 2 reconstructed (rightward traffic, n = 6, smallest-source ties).
const FIG2: &str = "
    1 | m1(6) | m2(6) | m3(6) | m4(6) | m5(6)
    2 | m1(5) | m1(6) | m2(6) | m3(6) | m4(6)
    3 | m1(4) | m1(5) | m1(6) | m2(6) | m3(6)
    4 | m1(3) | m2(5) | m1(5) | m1(6) | m2(6)
    5 | m1(2) | m1(4) | m2(5) | m1(5) | m1(6)
    6 | –     | m2(4) | m3(5) | m2(5) | –
    7 | –     | m1(3) | m1(4) | m3(5) | –
    8 | –     | m2(3) | m2(4) | m4(5) | –
    9 | –     | –     | m3(4) | –     | –";

#[test]
fn te24_fig2_is_reproduced_exactly() {
    let n = 6;
    let inst = path(n);
    let (len, trace) = checked_trace(&inst, &furthest_first(&inst, Tie::SmallestSource).unwrap());
    assert_eq!(len, 9);
    let expected: Vec<Vec<Option<(usize, usize)>>> = FIG2
        .trim()
        .lines()
        .map(|row| row.split('|').skip(1).map(|e| (e.trim() != "–").then(|| parse_m(e))).collect())
        .collect();
    let actual: Vec<Vec<Option<(usize, usize)>>> = (1..=9u64)
        .map(|t| {
            (1..n)
                .map(|j| {
                    let sent = trace.sends(j - 1, j).into_iter().find(|s| s.0 == t);
                    sent.map(|(_, tok)| (tok / n + 1, tok % n + 1))
                })
                .collect()
        })
        .collect();
    assert_eq!(actual, expected);
}

// ---------------------------------------------------------------------------------------------
// Rings (004 §4)

/// m_a(b) ⊕ r.
fn rotate(token: usize, r: usize, n: usize) -> usize {
    (token / n + r) % n * n + (token % n + r) % n
}

type RingRun = fn(&Instance) -> Schedule;

/// The node-invariant algorithms of 004 §4.1 with rotation-consistent ties and initial orders.
fn node_invariant() -> Vec<(&'static str, RingRun)> {
    vec![
        ("message-shift, furthest-first order", |i| message_shift(i, InitialOrder::FurthestFirst).unwrap()),
        ("message-shift, closest-first order", |i| message_shift(i, InitialOrder::ClosestFirst).unwrap()),
        ("furthest-first, smallest source", |i| furthest_first(i, Tie::SmallestSource).unwrap()),
        ("furthest-first, largest source", |i| furthest_first(i, Tie::LargestSource).unwrap()),
        ("closest-first, smallest source", |i| closest_first(i, Tie::SmallestSource).unwrap()),
        ("closest-first, largest source", |i| closest_first(i, Tie::LargestSource).unwrap()),
    ]
}

#[test]
fn te16_te14_node_invariant_algorithms_are_optimal_and_never_idle_on_odd_rings() {
    for n in (3..=39).step_by(2) {
        let inst = ring(n);
        for (name, run) in node_invariant() {
            let (len, trace) = checked_trace(&inst, &run(&inst));
            assert!(len >= bisection(&inst));
            assert_eq!(len, t_opt_r(n), "n = {n}, {name}");
            assert_eq!(len, ((n * n - 1) / 8) as u64, "n = {n}: (n²−1)/8 is exact for odd n");
            // TE-14: every node sends in both directions in every step; the clockwise hops add
            // up to D = n(n²−1)/8.
            for x in 0..n {
                for next in [(x + 1) % n, (x + n - 1) % n] {
                    let send_steps: Vec<u64> = trace.sends(x, next).iter().map(|s| s.0).collect();
                    assert_eq!(
                        send_steps,
                        (1..=len).collect::<Vec<_>>(),
                        "n = {n}, {name}: arc ({x},{next})"
                    );
                }
            }
            let clockwise: usize = (0..n).map(|x| trace.sends(x, (x + 1) % n).len()).sum();
            assert_eq!(clockwise, n * (n * n - 1) / 8, "n = {n}, {name}: D");
        }
    }
}

/// Lemma 3 on a checked schedule: for every t and i, Q_i(t) = Q_0(t) ⊕ i in both directions,
/// queues taken in the order their messages leave (for FIFO, the queue order).
fn queues_are_rotations(trace: &Trace, n: usize, len: u64) -> bool {
    (0..=len).all(|t| {
        [1, n - 1].into_iter().all(|dir| {
            let q0: Vec<usize> = trace.queue(0, t, dir);
            (1..n).all(|i| {
                let expected: Vec<usize> = q0.iter().map(|&m| rotate(m, i, n)).collect();
                trace.queue(i, t, (i + dir) % n) == expected
            })
        })
    })
}

#[test]
fn te15_lemma3_queues_stay_rotations_of_one_another() {
    for n in (3..=25).step_by(2) {
        let inst = ring(n);
        for (name, run) in node_invariant() {
            let (len, trace) = checked_trace(&inst, &run(&inst));
            assert!(queues_are_rotations(&trace, n, len), "n = {n}, {name}");
        }
    }
}

#[test]
fn te17_random_ties_are_not_rotation_consistent() {
    // The check above has teeth: furthest-first with random ties is not node-invariant, and its
    // queues stop being rotations of one another.
    let n = 9;
    let inst = ring(n);
    let (len, trace) = checked_trace(&inst, &furthest_first(&inst, Tie::Random(4)).unwrap());
    assert!(!queues_are_rotations(&trace, n, len));
}

/// Parses "t: a->b:mS(D) ..." lines (TE-25, TE-26) into per-step sets of (from, to, token).
fn parse_ring_table(table: &str, n: usize) -> Vec<BTreeSet<(usize, usize, usize)>> {
    table
        .trim()
        .lines()
        .map(|line| {
            let (_, entries) = line.split_once(':').unwrap();
            entries
                .split_whitespace()
                .map(|e| {
                    let (arc, m) = e.split_once(':').unwrap();
                    let (a, b) = arc.split_once("->").unwrap();
                    let (s, d) = parse_m(m);
                    (a.parse().unwrap(), b.parse().unwrap(), s * n + d)
                })
                .collect()
        })
        .collect()
}

/// The clockwise transmissions of a schedule, per step.
fn clockwise_steps(schedule: &Schedule, n: usize) -> Vec<BTreeSet<(usize, usize, usize)>> {
    steps(schedule)
        .iter()
        .map(|step| {
            step.iter()
                .filter(|tr| tr.to == (tr.from + 1) % n)
                .flat_map(|tr| tr.tokens.iter().map(move |&k| (tr.from, tr.to, k)))
                .collect()
        })
        .collect()
}

#[test]
fn te25_fig3a_is_reproduced_exactly() {
    let table = "
        1: 0->1:m0(3) 1->2:m1(4) 2->3:m2(5) 3->4:m3(6) 4->5:m4(0) 5->6:m5(1) 6->0:m6(2)
        2: 0->1:m0(2) 1->2:m1(3) 2->3:m2(4) 3->4:m3(5) 4->5:m4(6) 5->6:m5(0) 6->0:m6(1)
        3: 0->1:m0(1) 1->2:m1(2) 2->3:m2(3) 3->4:m3(4) 4->5:m4(5) 5->6:m5(6) 6->0:m6(0)
        4: 0->1:m6(2) 1->2:m0(3) 2->3:m1(4) 3->4:m2(5) 4->5:m3(6) 5->6:m4(0) 6->0:m5(1)
        5: 0->1:m6(1) 1->2:m0(2) 2->3:m1(3) 3->4:m2(4) 4->5:m3(5) 5->6:m4(6) 6->0:m5(0)
        6: 0->1:m5(1) 1->2:m6(2) 2->3:m0(3) 3->4:m1(4) 4->5:m2(5) 5->6:m3(6) 6->0:m4(0)";
    let inst = ring(7);
    let schedule = message_shift(&inst, InitialOrder::FurthestFirst).unwrap();
    assert_eq!(checked(&inst, &schedule), 6);
    assert_eq!(clockwise_steps(&schedule, 7), parse_ring_table(table, 7));
}

#[test]
fn te26_fig3b_is_reproduced_exactly() {
    let table = "
        1: 0->1:m0(3) 1->2:m1(3) 2->3:m2(5) 3->4:m3(5) 4->5:m4(1) 5->0:m5(1)
        2: 0->1:m0(2) 1->2:m1(2) 2->3:m2(4) 3->4:m3(4) 4->5:m4(0) 5->0:m5(0)
        3: 0->1:m0(1) 1->2:m0(3) 2->3:m2(3) 3->4:m2(5) 4->5:m4(5) 5->0:m4(1)
        4: 0->1:m5(1) 1->2:m0(2) 2->3:m1(3) 3->4:m2(4) 4->5:m3(5) 5->0:m4(0)
        5: 0->1:m4(1) 2->3:m0(3) 4->5:m2(5)";
    let inst = ring(6);
    let schedule = modified_message_shift(&inst).unwrap();
    assert_eq!(checked(&inst, &schedule), 5);
    assert_eq!(clockwise_steps(&schedule, 6), parse_ring_table(table, 6));
}

#[test]
fn te21_modified_message_shift_is_optimal_on_even_rings() {
    for n in (4..=40).step_by(2) {
        let inst = ring(n);
        let len = checked_above_bound(&inst, &modified_message_shift(&inst).unwrap());
        assert_eq!(len, t_opt_r(n), "n = {n}");
        // Theorem 3's two cases.
        let theorem = if n.is_multiple_of(4) { n * n / 8 } else { (n * n + 4) / 8 };
        assert_eq!(len, theorem as u64, "n = {n}");
    }
}

#[test]
fn te20_queue_contents_at_every_t_j() {
    for n in (4..=40).step_by(2) {
        let inst = ring(n);
        let (_, trace) = checked_trace(&inst, &modified_message_shift(&inst).unwrap());
        let h = n / 2;
        // m_{i⊖a}(i⊖a⊕k) for k in ks, as a set of tokens.
        let set = |i: usize, a: isize, ks: std::ops::RangeInclusive<usize>| -> BTreeSet<usize> {
            let src = (i as isize - a).rem_euclid(n as isize) as usize;
            ks.map(|k| src * n + (src + k) % n).collect()
        };
        // The counter-clockwise half is the mirror image x ↦ 1 − x (which swaps parities).
        let mirror = |x: usize| (n + 1 - x) % n;
        let mirror_token = |tok: usize| mirror(tok / n) * n + mirror(tok % n);
        for j in 0..=n / 4 {
            let t_j = (j * n - 2 * j * j) as u64;
            for i in (0..n).step_by(2) {
                let i1 = (i + 1) % n;
                let q_i: BTreeSet<usize> = trace.queue(i, t_j, i1).into_iter().collect();
                let q_i1: BTreeSet<usize> = trace.queue(i1, t_j, (i + 2) % n).into_iter().collect();
                assert_eq!(q_i, set(i, 2 * j as isize, 2 * j + 1..=h), "n={n}, j={j}: Q_{i}(t_j)");
                assert_eq!(q_i1, set(i, 2 * j as isize - 1, 2 * j + 1..=h - 1), "n={n}, j={j}: Q_{i1}(t_j)");
                for (x, q) in [(i, &q_i), (i1, &q_i1)] {
                    let ccw: BTreeSet<usize> =
                        trace.queue(mirror(x), t_j, mirror((x + 1) % n)).into_iter().collect();
                    let expected: BTreeSet<usize> = q.iter().map(|&m| mirror_token(m)).collect();
                    assert_eq!(ccw, expected, "n={n}, j={j}: counter-clockwise queue of {}", mirror(x));
                }
            }
        }
    }
}

#[test]
fn te18_all_clockwise_loses_order_n() {
    let mut lengths = Vec::new();
    for n in (4..=40).step_by(2) {
        let inst = ring(n);
        let schedule = all_clockwise(&inst).unwrap();
        let (len, trace) = checked_trace(&inst, &schedule);
        assert!(len >= bisection(&inst), "n = {n}: TE-2");
        // The bound of TE-18 from the schedule's own clockwise hops over the n clockwise arcs.
        let hops: usize = (0..n).map(|x| trace.sends(x, (x + 1) % n).len()).sum();
        assert_eq!(hops, n * (1..=n / 2).sum::<usize>(), "n = {n}: each node's clockwise distance");
        assert_eq!(len, hops.div_ceil(n) as u64, "n = {n}: meets the routing bound");
        assert_eq!(len, (n * (n + 2)).div_ceil(8) as u64, "n = {n}: ⌈n(n+2)/8⌉");
        assert!(len > t_opt_r(n), "n = {n}");
        lengths.push(len);
    }
    assert_eq!(lengths[..5], [3, 6, 10, 15, 21], "TE-18's values for n = 4..12");
}

/// Per-step sets of (from, to, token) of a whole schedule, both directions.
fn step_sets(schedule: &Schedule) -> Vec<BTreeSet<(usize, usize, usize)>> {
    steps(schedule)
        .iter()
        .map(|step| step.iter().flat_map(|tr| tr.tokens.iter().map(move |&k| (tr.from, tr.to, k))).collect())
        .collect()
}

#[test]
fn te24_te25_te26_both_directions_match_the_figure_files() {
    // instances/004 holds the figures with their mirror halves, transcribed independently for
    // the checker's tests; the registered methods must emit exactly those schedules.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/004");
    for (stem, method) in [
        ("path6-fig2", "furthest-first"),
        ("ring7-fig3a", "message-shift"),
        ("ring6-fig3b", "modified-message-shift"),
    ] {
        let inst = load_instance(&dir.join(format!("{stem}.toml"))).unwrap();
        let figure = load_schedule(&dir.join(format!("{stem}.schedule.json")), &inst).unwrap();
        let ours = (find(method).unwrap().run)(&inst).unwrap();
        assert_eq!(checked(&inst, &ours), inst.paper.length.unwrap(), "{stem}");
        assert_eq!(step_sets(&ours), step_sets(&figure), "{stem}");
    }
}

// ---------------------------------------------------------------------------------------------
// Half duplex (TE-23)

#[test]
fn te23_split_gives_h_star_and_f1_schedules_of_twice_the_length() {
    // (instance, F* schedule, whether it uses both directions of a link in step 1): all but the
    // consecutive scatters, whose first scatter from node 1 only goes right.
    let mut cases: Vec<(Instance, Schedule, bool)> = Vec::new();
    for n in 2..=12 {
        let inst = path(n);
        cases.push((inst.clone(), furthest_first(&inst, Tie::SmallestSource).unwrap(), true));
        cases.push((inst.clone(), consecutive_scatter(&inst).unwrap(), false));
    }
    for n in 3..=13 {
        let inst = ring(n);
        if !n.is_multiple_of(2) {
            cases.push((inst.clone(), message_shift(&inst, InitialOrder::FurthestFirst).unwrap(), true));
            cases.push((inst.clone(), closest_first(&inst, Tie::SmallestSource).unwrap(), true));
        } else {
            cases.push((inst.clone(), modified_message_shift(&inst).unwrap(), true));
            cases.push((inst.clone(), all_clockwise(&inst).unwrap(), true));
        }
    }
    for (inst, schedule, both_ways) in cases {
        let t = checked(&inst, &schedule);
        let split = split_half_duplex(&inst, &schedule).unwrap();
        let h_star = under(&inst, PortRule::HStar);
        let len = checked(&h_star, &split);
        assert!(len <= 2 * t, "{}: {len} > 2·{t}", inst.name);
        assert_eq!(checked(&under(&inst, PortRule::F1), &split), len, "{}: F1", inst.name);
        // H* bisection: every crossing message uses one of the 1 (array) or 2 (ring) cut links.
        let n = inst.network.len() as u64;
        let links = if inst.network.spec_string().starts_with("ring") { 2 } else { 1 };
        assert!(len >= (2 * (n / 2) * (n - n / 2)).div_ceil(links), "{}: H* bisection", inst.name);
        if both_ways {
            assert!(check(&h_star, &schedule).admissible().is_none(), "{}: F* accepted in H*", inst.name);
        }
        if n >= 3 {
            assert!(
                check(&under(&inst, PortRule::H1), &split).admissible().is_none(),
                "{}: interior nodes send and receive in the same half-step",
                inst.name
            );
        }
    }
}

#[test]
fn te23_on_the_linear_array_the_factor_two_is_exact() {
    for n in 2..=20 {
        let inst = path(n);
        let split = split_half_duplex(&inst, &furthest_first(&inst, Tie::SmallestSource).unwrap()).unwrap();
        let len = checked(&under(&inst, PortRule::HStar), &split);
        // H* bisection: ⌊n/2⌋⌈n/2⌉ messages each way over one link = 2·T_opt(LA).
        assert_eq!(len, 2 * ((n / 2) * (n - n / 2)) as u64, "n = {n}");
    }
}

#[test]
fn split_rejects_other_schedule_kinds() {
    let err = split_half_duplex(&path(4), &Schedule::Virtual(vec![])).unwrap_err();
    assert!(matches!(err, Error::NotApplicable { .. }), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Registry

#[test]
fn registry_lists_the_papers_methods_with_sources() {
    let names: BTreeSet<&str> = METHODS.iter().map(|m| m.name).collect();
    let expected = [
        "all-clockwise",
        "closest-first",
        "consecutive-scatter",
        "furthest-first",
        "message-shift",
        "modified-message-shift",
    ];
    assert_eq!(names, expected.into_iter().collect());
    for m in METHODS {
        assert_eq!(m.applicability.problems, [commsched::spec::ProblemKind::TotalExchange]);
        assert!(m.source.starts_with("004 §") && m.source.contains("TE-"), "{}: {}", m.name, m.source);
        assert!(find(m.name).is_some());
    }
}

#[test]
fn registry_applies_where_the_paper_says_and_runs_to_the_claimed_length() {
    // (network, method, claimed length) for every method that applies; everything else must
    // refuse with a reason and a NotApplicable error, never a panic.
    let claimed = |net: &str, method: &str| -> Option<u64> {
        let inst = instance(net);
        let n = inst.network.len();
        let is_path = net.starts_with("path");
        let odd = !n.is_multiple_of(2);
        match method {
            "furthest-first" if is_path || odd => Some(if is_path { t_opt_la(n) } else { t_opt_r(n) }),
            "consecutive-scatter" if is_path => Some(3 * t_opt_la(n) - n as u64 / 2),
            "message-shift" | "closest-first" if !is_path && odd => Some(t_opt_r(n)),
            "modified-message-shift" if !is_path && !odd => Some(t_opt_r(n)),
            "all-clockwise" if !is_path && !odd => Some((n * (n + 2)).div_ceil(8) as u64),
            _ => None,
        }
    };
    for net in ["path:2", "path:7", "path:8", "ring:3", "ring:4", "ring:9", "ring:10"] {
        let inst = instance(net);
        let applicable: BTreeSet<&str> = for_instance(&inst).iter().map(|m| m.name).collect();
        for m in METHODS {
            match claimed(net, m.name) {
                Some(len) => {
                    assert!(applicable.contains(m.name), "{} on {net}", m.name);
                    assert_eq!(checked(&inst, &(m.run)(&inst).unwrap()), len, "{} on {net}", m.name);
                }
                None => {
                    let reason = m.applies(&inst).unwrap_err();
                    assert!(reason.contains(net), "{} on {net}: reason `{reason}` names the network", m.name);
                    let err = m.produce(&inst).unwrap_err();
                    assert!(matches!(err, Error::NotApplicable { .. }), "{} on {net}: {err}", m.name);
                }
            }
        }
    }
    let even = find("modified-message-shift").unwrap().applies(&instance("ring:7")).unwrap_err();
    assert!(even.contains("even"), "{even}");
    let odd = find("message-shift").unwrap().applies(&instance("ring:8")).unwrap_err();
    assert!(odd.contains("odd") && odd.contains("modified-message-shift"), "{odd}");
    let mesh = find("furthest-first").unwrap().applies(&instance("mesh:2x3")).unwrap_err();
    assert!(mesh.contains("mesh:2x3"), "{mesh}");
}

#[test]
fn registry_runs_h_star_and_f1_through_the_split_and_refuses_h1() {
    // TE-23: under H* the linear array needs exactly 2·T_opt(LA) (one link carries both
    // directions of the bisection traffic), and the split meets it; F1 accepts the same schedule.
    for n in [2, 5, 8] {
        for rule in [PortRule::HStar, PortRule::F1] {
            let inst = instance_with(&format!("path:{n}"), rule, None);
            let len = checked(&inst, &(find("furthest-first").unwrap().run)(&inst).unwrap());
            assert_eq!(len, 2 * t_opt_la(n), "path:{n} under {rule}");
        }
    }
    for net in ["ring:7", "ring:10"] {
        let inst = instance_with(net, PortRule::HStar, None);
        for m in for_instance(&inst) {
            let len = checked(&inst, &(m.run)(&inst).unwrap());
            let f_star = checked(&instance(net), &(m.run)(&instance(net)).unwrap());
            assert!(len <= 2 * f_star, "{} on {net} under H*: {len} > 2·{f_star}", m.name);
        }
    }
    let h1 = instance_with("path:5", PortRule::H1, None);
    let reason = find("furthest-first").unwrap().applies(&h1).unwrap_err();
    assert!(reason.contains("H1") && reason.contains("TE-23"), "{reason}");
    assert!(matches!(find("furthest-first").unwrap().produce(&h1), Err(Error::NotApplicable { .. })));
}

// ---------------------------------------------------------------------------------------------
// Properties

/// A random 0/1 demand matrix (no self-demand).
fn demand(n: usize, bits: &[bool]) -> Vec<Vec<bool>> {
    (0..n).map(|s| (0..n).map(|d| s != d && bits[s * n + d]).collect()).collect()
}

/// The demand matrix relabelled by node i ↦ i + r.
fn rotate_demand(d: &[Vec<bool>], r: usize) -> Vec<Vec<bool>> {
    let n = d.len();
    (0..n).map(|s| (0..n).map(|t| d[(s + n - r) % n][(t + n - r) % n]).collect()).collect()
}

/// A schedule relabelled by node i ↦ i + r (tokens follow their endpoints).
fn rotate_schedule(schedule: &Schedule, r: usize, n: usize) -> Schedule {
    Schedule::StoreForward(
        steps(schedule)
            .iter()
            .map(|step| {
                step.iter()
                    .map(|tr| Transmission {
                        from: (tr.from + r) % n,
                        to: (tr.to + r) % n,
                        tokens: tr.tokens.iter().map(|&k| rotate(k, r, n)).collect(),
                    })
                    .collect()
            })
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// TE-5, TE-13: any seeded random tie-breaking gives T_opt(LA).
    #[test]
    fn furthest_first_with_random_ties_is_optimal(n in 2usize..=40, seed in any::<u64>()) {
        let inst = path(n);
        prop_assert_eq!(checked(&inst, &furthest_first(&inst, Tie::Random(seed)).unwrap()), t_opt_la(n));
    }

    /// Rotating the ring's labels by r keeps every node-invariant algorithm's length (on any
    /// demand), and the rotated schedule is an admissible schedule of the rotated instance.
    #[test]
    fn rotating_odd_ring_labels_keeps_lengths(
        half in 1usize..=10, r in 0usize..21, bits in proptest::collection::vec(any::<bool>(), 21 * 21)
    ) {
        let n = 2 * half + 1;
        let r = r % n;
        let d = demand(n, &bits);
        let net = format!("ring:{n}");
        let inst = instance_with(&net, PortRule::FStar, Some(d.clone()));
        let turned = instance_with(&net, PortRule::FStar, Some(rotate_demand(&d, r)));
        for (name, run) in node_invariant() {
            let schedule = run(&inst);
            let len = checked(&inst, &schedule);
            prop_assert_eq!(checked(&turned, &run(&turned)), len, "{}", name);
            prop_assert_eq!(checked(&turned, &rotate_schedule(&schedule, r, n)), len, "{}", name);
        }
    }

    /// The same on even rings: the alternating split is invariant under even rotations, the
    /// all-clockwise routing under every rotation; any relabelled schedule stays admissible.
    #[test]
    fn rotating_even_ring_labels_keeps_lengths(
        half in 2usize..=10, r in 0usize..20, bits in proptest::collection::vec(any::<bool>(), 20 * 20)
    ) {
        let n = 2 * half;
        let r = r % n;
        let d = demand(n, &bits);
        let net = format!("ring:{n}");
        let inst = instance_with(&net, PortRule::FStar, Some(d.clone()));
        let turned = instance_with(&net, PortRule::FStar, Some(rotate_demand(&d, r)));
        let runs: [(&str, RingRun, bool); 2] = [
            ("modified-message-shift", |i| modified_message_shift(i).unwrap(), r.is_multiple_of(2)),
            ("all-clockwise", |i| all_clockwise(i).unwrap(), true),
        ];
        for (name, run, invariant) in runs {
            let schedule = run(&inst);
            let len = checked(&inst, &schedule);
            if invariant {
                prop_assert_eq!(checked(&turned, &run(&turned)), len, "{}", name);
            }
            prop_assert_eq!(checked(&turned, &rotate_schedule(&schedule, r, n)), len, "{}", name);
        }
    }
}
