//! Ideal fat-tree checker (SPEC §4.3, paper 002): the naive broadcasts (FT-3), capacities
//! (FT-1, FT-25), the per-step rule against the per-batch load factor (FT-5), payload ranges and
//! time reversal (FT-23), the round model (002 §4.2), and channel timing against a step-by-step
//! walk of the tree.

use commsched::checker::{self, Rule, Verdict};
use commsched::spec::{Capacity, FatTreeSend, Instance, Model, Network, Problem, RingTie, Schedule};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

fn instance(problem: Problem, n: usize, capacity: &str, rounds: bool) -> Instance {
    let model = Model::FatTree { capacity: Capacity::parse(capacity).unwrap(), rounds };
    let net = Network::parse(&format!("fat-tree:{n}")).unwrap();
    Instance::new("test", net, problem, model, RingTie::Clockwise, "<test>").unwrap()
}

fn send(step: i64, from: usize, to: usize, lo: usize, hi: usize) -> FatTreeSend {
    FatTreeSend { step, from, to, payload: [lo, hi] }
}

fn check(inst: &Instance, sends: &[FatTreeSend]) -> Verdict {
    checker::check(inst, &Schedule::FatTree(sends.to_vec()))
}

fn messages(v: &Verdict) -> Vec<String> {
    v.violations().iter().map(|x| x.to_string()).collect()
}

fn rules(v: &Verdict) -> BTreeSet<Rule> {
    v.violations().iter().map(|x| x.rule).collect()
}

fn admissible(inst: &Instance, sends: &[FatTreeSend]) -> (u64, HashMap<String, String>) {
    let v = check(inst, sends);
    let c = v.admissible().unwrap_or_else(|| panic!("{:#?}", messages(&v)));
    (c.length(), c.metrics().extra.iter().cloned().collect())
}

fn log2(n: usize) -> usize {
    n.trailing_zeros() as usize
}

/// FT-3 recursive halving, one round per height from the top: in round k every holder P_f of a
/// block of n = N/2^k processors sends to P_{f+n/2} (height log n). Round-model starts.
fn halving(n: usize) -> Vec<FatTreeSend> {
    let mut sends = Vec::new();
    let mut start = 1;
    let mut block = n;
    while block > 1 {
        for f in (0..n).step_by(block) {
            sends.push(send(start, f, f + block / 2, 0, 0));
        }
        start += 2 * log2(block) as i64;
        block /= 2;
    }
    sends
}

/// The binomial doubling tree: in round r the processors i < 2^r send to i + 2^r (height r+1).
fn doubling(n: usize) -> Vec<FatTreeSend> {
    let mut sends = Vec::new();
    let mut start = 1;
    for r in 0..log2(n) {
        for i in 0..1 << r {
            sends.push(send(start, i, i + (1 << r), 0, 0));
        }
        start += 2 * (r as i64 + 1);
    }
    sends
}

/// FT-23 (3): the broadcast's computation tree reversed in time. A send a -> b submitted in step s
/// with LCA height h becomes b -> a submitted in step T − (s + 2h − 1) + 1, carrying the product
/// of everything b's subtree of the broadcast tree holds, written as the hull [min, max] of that
/// subtree (exact when the subtree is contiguous).
fn reversed(broadcast: &[FatTreeSend], length: i64) -> Vec<FatTreeSend> {
    let children = |v: usize| broadcast.iter().filter(move |s| s.from == v).map(|s| s.to);
    fn hull(v: usize, children: &dyn Fn(usize) -> Vec<usize>) -> (usize, usize) {
        children(v).into_iter().map(|c| hull(c, children)).fold((v, v), |(a, b), (c, d)| (a.min(c), b.max(d)))
    }
    let kids = |v: usize| children(v).collect::<Vec<_>>();
    broadcast
        .iter()
        .map(|s| {
            let h = (usize::BITS - (s.from ^ s.to).leading_zeros()) as i64;
            let (lo, hi) = hull(s.to, &kids);
            send(length - (s.step + 2 * h - 1) + 1, s.to, s.from, lo, hi)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Broadcast.

/// FT-3: recursive halving needs one unit of capacity and takes Σ_{h=1}^{log N} 2h =
/// log N (log N + 1) steps (20 for N = 16), in the round model and pipelined alike.
#[test]
fn ft_3_naive_halving_broadcast_with_unit_capacity() {
    for l in 1..=7 {
        let n = 1 << l;
        for rounds in [false, true] {
            let (length, extra) =
                admissible(&instance(Problem::Broadcast, n, "const:1", rounds), &halving(n));
            assert_eq!(length, (l * (l + 1)) as u64, "N = {n}");
            assert_eq!(extra["max channel load"], "1");
            assert_eq!(extra["batch load factor (FT-5)"], "1");
            assert_eq!(extra.get("rounds").cloned(), rounds.then(|| l.to_string()));
        }
    }
    let (length, _) = admissible(&instance(Problem::Broadcast, 16, "const:1", true), &halving(16));
    assert_eq!(length, 20);
}

/// The binomial doubling tree (round r: i < 2^r sends to i + 2^r) pushes all 2^r messages of
/// round r through the channels of the height-k nodes of [0, 2^r) together: 2^(r−k) channels up
/// and as many down, each loaded 2^k in one step. With w ≡ 1 every channel with k ≥ 1 overflows:
/// Σ_r Σ_{k=1..r} 2·2^(r−k) = 2(N − 1 − log N) violations. With w(n) = n it fits exactly, and
/// its length is Σ_{r} 2(r+1) = log N (log N + 1) as for halving.
#[test]
fn doubling_tree_broadcast_needs_w_n_equal_n() {
    for l in 2..=6 {
        let n = 1usize << l;
        let v = check(&instance(Problem::Broadcast, n, "const:1", true), &doubling(n));
        assert_eq!(rules(&v), BTreeSet::from([Rule::CapacityRule]), "N = {n}");
        assert_eq!(v.violations().len(), 2 * (n - 1 - l), "N = {n}");
        let (length, extra) = admissible(&instance(Problem::Broadcast, n, "pow:1", true), &doubling(n));
        assert_eq!(length, (l * (l + 1)) as u64);
        assert_eq!(extra["max channel load"], (n / 2).to_string());
        assert_eq!(extra["batch load factor (FT-5)"], "1");
    }
    // N = 8: round 1 starts in step 3; P0->P2 and P1->P3 share up(1,0) in step 4.
    let v = check(&instance(Problem::Broadcast, 8, "const:1", true), &doubling(8));
    assert_eq!(
        messages(&v)[0],
        "capacity rule: step 4, channel up(1,0) carries 2 messages, more than its capacity w(2) = 1: \
         message 1 (P0->P2 [0,0] sent in step 3), message 2 (P1->P3 [0,0] sent in step 3)"
    );
    // Round 2 (steps 7..12) loads up(2,0) with all four messages in step 9.
    assert!(
        messages(&v)
            .iter()
            .any(|m| m.starts_with("capacity rule: step 9, channel up(2,0) carries 4 messages"))
    );
}

#[test]
fn broadcast_sender_must_hold_the_value() {
    let inst = instance(Problem::Broadcast, 4, "const:1", false);
    // P0 -> P1 (h = 1) crosses two channels: P1 holds [0,0] from the end of step 2 and cannot
    // forward it in step 2.
    let v = check(&inst, &[send(1, 0, 1, 0, 0), send(2, 1, 3, 0, 0), send(3, 0, 2, 0, 0)]);
    assert_eq!(
        messages(&v),
        [
            "payload rule: step 2, processor 1 sends message 1 (P1->P3 [0,0] sent in step 2), but [0,0] is not a chain of the ranges it holds at the end of step 1: none",
            "incomplete delivery: processor 3 ends without [0,0]; the ranges it holds: none",
        ]
    );
    // One step later it is fine: P3 receives at the end of step 3 + 2·2 − 1 = 6.
    let (length, _) = admissible(&inst, &[send(1, 0, 1, 0, 0), send(3, 1, 3, 0, 0), send(2, 0, 2, 0, 0)]);
    assert_eq!(length, 6);
    // Nobody but P0 holds anything initially.
    let v = check(&inst, &[send(1, 1, 0, 0, 0)]);
    assert!(messages(&v)[0].ends_with("[0,0] is not a chain of the ranges it holds initially: none"));
}

/// FT-25: w(n) = log n + 1 on N = 16 gives channels of capacity 1, 2, 3, 4 at heights 0..3. Four
/// messages from P0..P3 to P8..P11 overflow the height-2 channels (w(4) = 3) up and down and fit
/// everywhere else; three fit everywhere.
#[test]
fn ft_25_log_plus_one_capacities() {
    let inst = instance(Problem::Product, 16, "log+1", false);
    let four: Vec<FatTreeSend> = (0..4).map(|i| send(1, i, 8 + i, i, i)).collect();
    let v = check(&inst, &four);
    let capacity: Vec<String> =
        v.violations().iter().filter(|x| x.rule == Rule::CapacityRule).map(|x| x.to_string()).collect();
    assert_eq!(capacity.len(), 2);
    assert!(capacity[0].starts_with(
        "capacity rule: step 3, channel up(2,0) carries 4 messages, more than its capacity w(4) = 3"
    ));
    assert!(capacity[1].starts_with(
        "capacity rule: step 6, channel down(2,2) carries 4 messages, more than its capacity w(4) = 3"
    ));
    let v = check(&inst, &four[..3]);
    assert!(v.violations().iter().all(|x| x.rule == Rule::Incomplete), "{:#?}", messages(&v));
}

// ---------------------------------------------------------------------------------------------
// Capacity and processor rules.

#[test]
fn capacity_overflow_names_channel_step_and_messages() {
    let sends = [send(1, 0, 2, 0, 0), send(1, 1, 3, 1, 1)];
    let v = check(&instance(Problem::Product, 4, "const:1", false), &sends);
    assert_eq!(rules(&v), BTreeSet::from([Rule::CapacityRule, Rule::Incomplete]));
    assert_eq!(
        messages(&v)[..2],
        [
            "capacity rule: step 2, channel up(1,0) carries 2 messages, more than its capacity w(2) = 1: message 0 (P0->P2 [0,0] sent in step 1), message 1 (P1->P3 [1,1] sent in step 1)",
            "capacity rule: step 3, channel down(1,1) carries 2 messages, more than its capacity w(2) = 1: message 0 (P0->P2 [0,0] sent in step 1), message 1 (P1->P3 [1,1] sent in step 1)",
        ]
    );
    let v = check(&instance(Problem::Product, 4, "const:2", false), &sends);
    assert_eq!(rules(&v), BTreeSet::from([Rule::Incomplete]));
}

#[test]
fn processor_submits_or_receives_twice() {
    let v = check(
        &instance(Problem::Broadcast, 4, "const:2", false),
        &[send(1, 0, 1, 0, 0), send(1, 0, 2, 0, 0)],
    );
    assert_eq!(
        messages(&v)[0],
        "processor rule: step 1, processor 0 submits 2 messages: message 0 (P0->P1 [0,0] sent in step 1), message 1 (P0->P2 [0,0] sent in step 1)"
    );
    // P2 -> P0 (h = 2) from step 1 and P1 -> P0 (h = 1) from step 3 both arrive at the end of
    // step 4 (with w(1) = 1 they would also share the channel into P0).
    let v =
        check(&instance(Problem::Product, 4, "const:2", false), &[send(1, 2, 0, 2, 2), send(3, 1, 0, 1, 1)]);
    assert_eq!(
        messages(&v)[0],
        "processor rule: step 4, processor 0 receives 2 messages: message 0 (P2->P0 [2,2] sent in step 1), message 1 (P1->P0 [1,1] sent in step 3)"
    );
}

/// FT-5's counterexample (CLAIMS notes): with w(1) = 1, P1 (h = 1) and P2 (h = 2) both send to P0
/// in the same step; they cross the down-channel into P0 in different steps (4 and 6), so the
/// per-step rule holds, but that step's batch loads the channel twice: load factor 2. Here as a
/// product on N = 4, after P3 -> P2 (received at the end of step 2).
#[test]
fn ft_5_batch_load_factor_can_exceed_one() {
    let inst = instance(Problem::Product, 4, "const:1", false);
    let sends = [send(1, 3, 2, 3, 3), send(3, 1, 0, 1, 1), send(3, 2, 0, 2, 3)];
    let (length, extra) = admissible(&inst, &sends);
    assert_eq!(length, 3 + 2 * 2 - 1);
    assert_eq!(extra["batch load factor (FT-5)"], "2");
    assert_eq!(extra["max channel load"], "1");
}

// ---------------------------------------------------------------------------------------------
// Payloads: prefix and product.

/// Prefix on N = 4 by hand: P0 -> P1 and P2 -> P3 in step 1 (h = 1, received at the end of step
/// 2); P1 then holds [0,0], [1,1] and sends [0,1] to P3 in step 3 and to P2 in step 4 (h = 2),
/// received at the end of steps 6 and 7.
#[test]
fn prefix_on_4_processors() {
    let inst = instance(Problem::Prefix, 4, "const:1", false);
    let sends = [send(1, 0, 1, 0, 0), send(1, 2, 3, 2, 2), send(3, 1, 3, 0, 1), send(4, 1, 2, 0, 1)];
    let (length, _) = admissible(&inst, &sends);
    assert_eq!(length, 4 + 2 * 2 - 1);
    // Without the last message P2 never gets [0,2].
    let v = check(&inst, &sends[..3]);
    assert_eq!(
        messages(&v),
        ["incomplete delivery: processor 2 ends without [0,2]; the ranges it holds: [2,2]"]
    );
}

#[test]
fn prefix_rejects_non_adjacent_ranges() {
    let inst = instance(Problem::Prefix, 4, "const:1", false);
    // P0 -> P2 (h = 2) arrives at the end of step 4; P2 then holds [0,0] and [2,2] and cannot
    // send [0,2] without a_1.
    let v = check(&inst, &[send(1, 0, 2, 0, 0), send(5, 2, 3, 0, 2)]);
    assert!(rules(&v).contains(&Rule::PayloadRule));
    assert_eq!(
        messages(&v)[0],
        "payload rule: step 5, processor 2 sends message 1 (P2->P3 [0,2] sent in step 5), but [0,2] is not a chain of the ranges it holds at the end of step 4: [0,0], [2,2]"
    );
    // Nor a sub-range of a product it holds.
    let v = check(&inst, &[send(1, 0, 1, 0, 0), send(3, 1, 3, 0, 1), send(7, 3, 2, 1, 1)]);
    assert_eq!(v.violations()[0].rule, Rule::PayloadRule);
    assert!(
        messages(&v)[0]
            .ends_with("[1,1] is not a chain of the ranges it holds at the end of step 6: [0,1], [3,3]"),
        "{}",
        messages(&v)[0]
    );
}

/// FT-23 (3): reversing the halving broadcast gives a product schedule of the same length whose
/// payloads are contiguous blocks, so it needs no commutativity. The doubling tree reverses into
/// sends of non-contiguous sets: rejected.
#[test]
fn ft_23_time_reversal_of_broadcasts() {
    for l in 1..=6 {
        let n = 1usize << l;
        let t = (l * (l + 1)) as i64;
        let (length, extra) =
            admissible(&instance(Problem::Product, n, "const:1", true), &reversed(&halving(n), t));
        assert_eq!(length, t as u64, "N = {n}");
        assert_eq!(extra["rounds"], l.to_string());
    }
    let v = check(&instance(Problem::Product, 8, "pow:1", true), &reversed(&doubling(8), 12));
    assert!(rules(&v).contains(&Rule::PayloadRule), "{:#?}", messages(&v));
    assert!(rules(&v).is_subset(&BTreeSet::from([Rule::PayloadRule, Rule::Incomplete])));
}

// ---------------------------------------------------------------------------------------------
// Round model.

#[test]
fn round_model_violations() {
    let pipelined = instance(Problem::Broadcast, 4, "const:1", false);
    let rounds = instance(Problem::Broadcast, 4, "const:1", true);
    // A message submitted inside round 1 (steps 1..4): fine pipelined, not in rounds.
    let inside = [send(1, 0, 2, 0, 0), send(2, 0, 1, 0, 0), send(5, 2, 3, 0, 0)];
    assert_eq!(admissible(&pipelined, &inside).0, 6);
    assert_eq!(
        messages(&check(&rounds, &inside)),
        [
            "round rule: step 2, round 1 (steps 1..4) has a message submitted after its first step: message 1 (P0->P1 [0,0] sent in step 2)"
        ]
    );
    // A gap between rounds, and a first round that does not start in step 1.
    let gap = [send(1, 0, 2, 0, 0), send(6, 0, 1, 0, 0), send(6, 2, 3, 0, 0)];
    assert_eq!(
        messages(&check(&rounds, &gap)),
        [
            "round rule: step 6, round 2 starts in step 6, but round 1 ends in step 4: rounds follow each other without gaps"
        ]
    );
    // A first round after idle steps is the normalised schedule shifted: same rounds, same length.
    let late: Vec<FatTreeSend> = halving(4).iter().map(|s| FatTreeSend { step: s.step + 1, ..*s }).collect();
    let (length, extra) = admissible(&rounds, &late);
    let (normalised, normalised_extra) = admissible(&rounds, &halving(4));
    assert_eq!(
        (length, &extra["rounds"], &extra["first step"][..]),
        (normalised, &normalised_extra["rounds"], "2")
    );
    // Two receipts at one processor in one round (in different steps, so the per-step rule holds).
    let product = instance(Problem::Product, 4, "const:1", true);
    let twice = [send(1, 1, 0, 1, 1), send(1, 2, 0, 2, 2), send(5, 3, 0, 3, 3)];
    assert_eq!(
        messages(&check(&product, &twice)),
        [
            "round rule: step 1, round 1 (steps 1..4): processor 0 receives 2 messages: message 0 (P1->P0 [1,1] sent in step 1), message 1 (P2->P0 [2,2] sent in step 1)"
        ]
    );
    // Sending and receiving in the same round is allowed: in round 2 (steps 3..6) P1 sends [1,1]
    // to P0 while P2 sends [2,3] to P1; round 3 (steps 7..8) brings [1,3] to P0.
    let both = [send(1, 3, 2, 3, 3), send(3, 1, 0, 1, 1), send(3, 2, 1, 2, 3), send(7, 1, 0, 1, 3)];
    let (length, extra) = admissible(&product, &both);
    assert_eq!((length, extra["rounds"].as_str()), (8, "3"));
}

// ---------------------------------------------------------------------------------------------
// Bad entries.

#[test]
fn bad_entries_are_reported_and_skipped() {
    let inst = instance(Problem::Broadcast, 4, "const:1", false);
    let v = check(
        &inst,
        &[
            send(1, 0, 0, 0, 0),
            send(0, 0, 1, 0, 0),
            send(1, 0, 9, 0, 0),
            send(1, 0, 1, 2, 1),
            send(i64::MAX, 0, 1, 0, 0),
        ],
    );
    assert_eq!(
        messages(&v)[..5],
        [
            "bad entry: message 0 is a self-send of P0: local work needs no message (002 Algorithm 2 skips these, FT-6)",
            "bad entry: message 1 is submitted in step 0: steps are numbered from 1",
            "unknown item: message 2 names processor 9: the fat-tree has processors 0..3",
            "payload rule: message 3 carries [2,1], which is not a range of the indices 0..3",
            "bad entry: message 4 is submitted in step 9223372036854775807, beyond 2^40; it is not checked further",
        ]
    );
    assert_eq!(v.violations()[5..].iter().filter(|x| x.rule == Rule::Incomplete).count(), 3);
}

#[test]
fn empty_schedules_are_incomplete_except_where_nothing_moves() {
    let v = check(&instance(Problem::Prefix, 4, "const:1", false), &[]);
    // P0 already holds [0,0]; the others miss their prefixes.
    assert_eq!(v.violations().len(), 3);
    let v = check(&instance(Problem::Product, 4, "const:1", false), &[]);
    assert_eq!(
        messages(&v),
        ["incomplete delivery: processor 0 ends without [0,3]; the ranges it holds: [0,0]"]
    );
}

// ---------------------------------------------------------------------------------------------
// Channel timing against a step-by-step walk.

/// Walks a message through the heap-numbered tree (leaves N..2N−1) one channel per step and
/// records (channel, step): `up(k,i)` leaving node (k, i), `down(k,i)` entering it.
fn walk(n: usize, s: &FatTreeSend) -> (Vec<(String, i64)>, i64) {
    let name = |dir: &str, node: usize| {
        let k = log2(n) - node.ilog2() as usize;
        format!("channel {dir}({k},{})", node - (n >> k))
    };
    let (mut a, b) = (n + s.from, n + s.to);
    let mut up = Vec::new();
    while (b >> up.len()) != a {
        up.push(a);
        a /= 2;
    }
    let down: Vec<usize> = (0..up.len()).rev().map(|k| b >> k).collect();
    let mut hops = Vec::new();
    let mut t = s.step;
    for node in up {
        hops.push((name("up", node), t));
        t += 1;
    }
    for node in down {
        hops.push((name("down", node), t));
        t += 1;
    }
    (hops, t - 1)
}

proptest! {
    /// Random well-formed sends on N = 8 with w ≡ 1 (pipelined product, payloads [i,i] of the
    /// sender so only timing rules matter): the checker's capacity violations are exactly the
    /// (channel, step) pairs the walk loads twice, and its receive conflicts exactly the
    /// (processor, step) pairs with two arrivals.
    #[test]
    fn channel_timing_matches_a_tree_walk(raw in prop::collection::vec((1i64..6, 0usize..8, 1usize..8), 1..8)) {
        let n = 8;
        let sends: Vec<FatTreeSend> = raw.iter().map(|&(t, a, d)| send(t, a, (a + d) % n, a, a)).collect();
        let v = check(&instance(Problem::Product, n, "const:1", false), &sends);
        let mut load: HashMap<(String, i64), usize> = HashMap::new();
        let mut arrivals: HashMap<(usize, i64), usize> = HashMap::new();
        for s in &sends {
            let (hops, arrival) = walk(n, s);
            for hop in hops {
                *load.entry(hop).or_default() += 1;
            }
            *arrivals.entry((s.to, arrival)).or_default() += 1;
        }
        let expected: BTreeSet<(String, i64)> = load.into_iter().filter(|&(_, c)| c > 1).map(|(k, _)| k).collect();
        let got: BTreeSet<(String, i64)> = v.violations().iter()
            .filter(|x| x.rule == Rule::CapacityRule)
            .map(|x| (x.place.clone(), x.step.unwrap()))
            .collect();
        prop_assert_eq!(got, expected);
        let expected: BTreeSet<(String, i64)> =
            arrivals.into_iter().filter(|&(_, c)| c > 1).map(|((p, t), _)| (format!("processor {p}"), t)).collect();
        let got: BTreeSet<(String, i64)> = v.violations().iter()
            .filter(|x| x.rule == Rule::ProcessorRule && x.detail.starts_with("receives"))
            .map(|x| (x.place.clone(), x.step.unwrap()))
            .collect();
        prop_assert_eq!(got, expected);
    }
}

/// The checker never trusts the instance either: a capacity breaking w(n) <= w(2n) <= 2w(n),
/// planted past `Instance::new`'s validation, is rejected.
#[test]
fn invalid_capacity_is_rejected() {
    let mut inst = instance(Problem::Broadcast, 4, "const:1", false);
    inst.model = Model::FatTree { capacity: Capacity::Table { values: vec![1, 3, 3] }, rounds: false };
    let v = check(&inst, &halving(4));
    assert_eq!(rules(&v), BTreeSet::from([Rule::BadEntry]));
    assert_eq!(v.violations()[0].place, "model.capacity");
}
