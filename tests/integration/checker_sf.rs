//! Store-and-forward checker (SPEC §4.2): paper 004's worked examples (TE-24 … TE-26), the
//! half-duplex split (TE-23), furthest-first on linear arrays against T_opt(LA) (TE-1, TE-13),
//! every violation kind under the four port rules of paper 003 §1, gossip in copy mode, and a
//! mutation property checked against an independent oracle.

use commsched::checker::{self, Rule, Verdict};
use commsched::spec::io::{load_instance, load_schedule};
use commsched::spec::{Instance, Mode, Model, Network, PortRule, Problem, RingTie, Schedule, Transmission};
use proptest::prelude::*;
use std::collections::{BTreeSet, BinaryHeap, HashMap, HashSet};
use std::path::Path;

fn instance(network: &str, problem: Problem, rule: PortRule, mode: Mode, packet: usize) -> Instance {
    let net = Network::parse(network).unwrap();
    Instance::new(
        "test",
        net,
        problem,
        Model::StoreForward { rule, mode, packet },
        RingTie::Clockwise,
        "<test>",
    )
    .unwrap()
}

fn exchange(network: &str, rule: PortRule) -> Instance {
    instance(network, Problem::TotalExchange(None), rule, Mode::Move, 1)
}

fn gossip(network: &str, rule: PortRule, packet: usize) -> Instance {
    instance(network, Problem::Gossip, rule, Mode::Copy, packet)
}

fn tx(from: usize, to: usize, tokens: &[usize]) -> Transmission {
    Transmission { from, to, tokens: tokens.to_vec() }
}

/// Total-exchange token `m_src(dst)` on an n-node network.
fn m(n: usize, src: usize, dst: usize) -> usize {
    src * n + dst
}

fn check(inst: &Instance, steps: &[Vec<Transmission>]) -> Verdict {
    checker::check(inst, &Schedule::StoreForward(steps.to_vec()))
}

fn length(inst: &Instance, steps: &[Vec<Transmission>]) -> u64 {
    match check(inst, steps) {
        Verdict::Admissible(c) => c.length(),
        Verdict::Inadmissible(v) => {
            panic!("inadmissible: {:#?}", v.iter().map(|x| x.to_string()).collect::<Vec<_>>())
        }
    }
}

fn rules(v: &Verdict) -> BTreeSet<Rule> {
    v.violations().iter().map(|x| x.rule).collect()
}

fn messages(v: &Verdict) -> Vec<String> {
    v.violations().iter().map(|x| x.to_string()).collect()
}

/// The rule a second packet on the same arc in the same step breaks under each model.
fn collision(rule: PortRule) -> Rule {
    match rule {
        PortRule::FStar => Rule::ArcRule,
        PortRule::HStar => Rule::LinkRule,
        PortRule::F1 => Rule::PortRule,
        PortRule::H1 => Rule::DuplexRule,
    }
}

fn with_rule(inst: &Instance, rule: PortRule) -> Instance {
    let mut i = inst.clone();
    if let Model::StoreForward { rule: r, .. } = &mut i.model {
        *r = rule;
    }
    i
}

/// Loads a paper-004 figure: its instance and its schedule.
fn figure(stem: &str) -> (Instance, Vec<Vec<Transmission>>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/004");
    let inst = load_instance(&dir.join(format!("{stem}.toml"))).unwrap();
    let Schedule::StoreForward(steps) =
        load_schedule(&dir.join(format!("{stem}.schedule.json")), &inst).unwrap()
    else {
        panic!("not a store-and-forward schedule")
    };
    (inst, steps)
}

/// Total hop distance of all packets: the events of any shortest-path schedule.
fn total_distance(inst: &Instance) -> u64 {
    inst.packets().iter().map(|p| inst.network.distance(p.src, p.dst).unwrap() as u64).sum()
}

fn t_opt_la(n: u64) -> u64 {
    (n * n - 1).div_ceil(4)
}

fn t_opt_ring(n: u64) -> u64 {
    (n * n - 1).div_ceil(8)
}

// ---------------------------------------------------------------------------------------------
// Paper 004 worked examples.

#[test]
fn te_24_fig2_path6_is_admissible_in_9_steps() {
    let (inst, steps) = figure("path6-fig2");
    let c = check(&inst, &steps);
    let c = c.admissible().unwrap_or_else(|| panic!("{:#?}", messages(&c)));
    assert_eq!(c.length(), 9);
    assert_eq!(c.length(), t_opt_la(6));
    assert_eq!(Some(c.length()), inst.paper.length);
    assert_eq!(c.metrics().events, total_distance(&inst));
    assert_eq!(c.metrics().link_use, Some(c.metrics().events));
}

/// docs/spec.md §1.2: leading and trailing empty steps are idle time, not length.
#[test]
fn a_schedule_padded_with_empty_steps_has_the_length_of_the_figure() {
    let (inst, steps) = figure("path6-fig2");
    let padded: Vec<Vec<Transmission>> =
        [vec![Vec::new(); 3], steps.clone(), vec![Vec::new(); 2]].into_iter().flatten().collect();
    let c = check(&inst, &padded);
    let c = c.admissible().unwrap_or_else(|| panic!("{:#?}", messages(&c)));
    assert_eq!(c.length(), length(&inst, &steps));
    assert_eq!(c.length(), 9);
    assert!(c.metrics().extra.contains(&("first step".to_string(), "4".to_string())));
}

#[test]
fn te_25_fig3a_ring7_is_admissible_in_6_steps() {
    let (inst, steps) = figure("ring7-fig3a");
    let c = check(&inst, &steps);
    let c = c.admissible().unwrap_or_else(|| panic!("{:#?}", messages(&c)));
    assert_eq!(c.length(), 6);
    assert_eq!(c.length(), t_opt_ring(7));
    assert_eq!(Some(c.length()), inst.paper.length);
    assert_eq!(c.metrics().events, total_distance(&inst));
    // TE-14: optimal on the odd ring iff every node sends both ways in every step.
    assert_eq!(c.metrics().events, 2 * 7 * 6);
}

#[test]
fn te_26_fig3b_ring6_is_admissible_in_5_steps() {
    let (inst, steps) = figure("ring6-fig3b");
    let c = check(&inst, &steps);
    let c = c.admissible().unwrap_or_else(|| panic!("{:#?}", messages(&c)));
    assert_eq!(c.length(), 5);
    assert_eq!(c.length(), t_opt_ring(6));
    assert_eq!(Some(c.length()), inst.paper.length);
    assert_eq!(c.metrics().events, total_distance(&inst));
}

/// TE-26's counter-clockwise half is the mirror i -> (1-i) mod 6 of the clockwise table: it maps
/// even sources (antipodal packet clockwise) to odd ones (antipodal packet counter-clockwise),
/// which is the alternating split of 004 §4.2. Every packet travels in its atlas direction.
#[test]
fn te_26_mirror_routes_every_packet_by_the_alternating_split() {
    let (inst, steps) = figure("ring6-fig3b");
    assert_eq!(inst.ring_tie, RingTie::Alternating);
    let mut hops: HashMap<usize, Vec<(usize, usize)>> = HashMap::new();
    for tr in steps.iter().flatten() {
        hops.entry(tr.tokens[0]).or_default().push((tr.from, tr.to));
    }
    for p in inst.packets() {
        let path = inst.network.default_path(p.src, p.dst, inst.ring_tie).unwrap();
        let atlas: Vec<(usize, usize)> = path.windows(2).map(|w| (w[0], w[1])).collect();
        assert_eq!(hops[&p.id], atlas, "packet m{}({})", p.src, p.dst);
    }
}

/// TE-23: step t becomes steps 2t−1 (rightward/clockwise arcs) and 2t (the rest). The split is
/// admissible under H* and F1 with length 2T (the last step of each figure uses both
/// directions); H1 still rejects it, and the unsplit schedules break H*, F1 and H1.
#[test]
fn te_23_half_duplex_split_of_the_figures() {
    for (stem, t) in [("path6-fig2", 9), ("ring7-fig3a", 6), ("ring6-fig3b", 5)] {
        let (inst, steps) = figure(stem);
        let n = inst.network.len();
        let forward = |tr: &Transmission| tr.to == (tr.from + 1) % n;
        let split: Vec<Vec<Transmission>> = steps
            .iter()
            .flat_map(|s| {
                let (f, b): (Vec<Transmission>, Vec<Transmission>) = s.iter().cloned().partition(forward);
                [f, b]
            })
            .collect();
        for rule in [PortRule::HStar, PortRule::F1] {
            assert_eq!(length(&with_rule(&inst, rule), &split), 2 * t, "{stem} split under {rule}");
            assert_eq!(rules(&check(&with_rule(&inst, rule), &steps)), BTreeSet::from([collision(rule)]));
        }
        assert_eq!(
            rules(&check(&with_rule(&inst, PortRule::H1), &split)),
            BTreeSet::from([Rule::DuplexRule])
        );
        assert_eq!(
            rules(&check(&with_rule(&inst, PortRule::H1), &steps)),
            BTreeSet::from([Rule::DuplexRule])
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Furthest-first on the linear array (TE-13) as a generator of large valid schedules.

/// Furthest-first (004 §3), ties to the smallest source, rightward; the leftward traffic is
/// its mirror j -> n−1−j in the same steps. Independent of the library's heuristics.
fn furthest_first_path(n: usize) -> Vec<Vec<Transmission>> {
    let mut queue: Vec<BinaryHeap<(usize, std::cmp::Reverse<usize>)>> =
        (0..n).map(|j| (j + 1..n).map(|d| (d, std::cmp::Reverse(j))).collect()).collect();
    let mirror = |x: usize| n - 1 - x;
    let mut steps = Vec::new();
    while queue.iter().any(|q| !q.is_empty()) {
        let mut step = Vec::new();
        let mut arrivals = Vec::new();
        for (j, q) in queue.iter_mut().enumerate() {
            if let Some((d, std::cmp::Reverse(s))) = q.pop() {
                step.push(tx(j, j + 1, &[m(n, s, d)]));
                step.push(tx(mirror(j), mirror(j + 1), &[m(n, mirror(s), mirror(d))]));
                if d != j + 1 {
                    arrivals.push((j + 1, (d, std::cmp::Reverse(s))));
                }
            }
        }
        for (j, msg) in arrivals {
            queue[j].push(msg);
        }
        steps.push(step);
    }
    steps
}

#[test]
fn te_13_furthest_first_meets_t_opt_la() {
    for n in 2..=12 {
        let inst = exchange(&format!("path:{n}"), PortRule::FStar);
        let steps = furthest_first_path(n);
        assert_eq!(length(&inst, &steps), t_opt_la(n as u64), "n = {n}");
        assert_eq!(check(&inst, &steps).admissible().unwrap().metrics().events, total_distance(&inst));
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-made schedules.

/// A complete F* total exchange on path(3): length 2 = T_opt(LA), node 1 buffers two packets.
fn path3_exchange() -> Vec<Vec<Transmission>> {
    let n = 3;
    vec![
        vec![
            tx(0, 1, &[m(n, 0, 2)]),
            tx(1, 2, &[m(n, 1, 2)]),
            tx(2, 1, &[m(n, 2, 0)]),
            tx(1, 0, &[m(n, 1, 0)]),
        ],
        vec![
            tx(0, 1, &[m(n, 0, 1)]),
            tx(1, 2, &[m(n, 0, 2)]),
            tx(2, 1, &[m(n, 2, 1)]),
            tx(1, 0, &[m(n, 2, 0)]),
        ],
    ]
}

#[test]
fn path3_exchange_by_hand() {
    let inst = exchange("path:3", PortRule::FStar);
    let c = check(&inst, &path3_exchange());
    let c = c.admissible().unwrap();
    assert_eq!(c.length(), 2);
    assert_eq!(c.metrics().events, 8);
    assert_eq!(c.metrics().link_use, Some(8));
    assert_eq!(c.metrics().peak_buffer, Some(2));
    assert_eq!(c.metrics().duplicates, None);
    // Trailing empty steps do not count; an empty step in the middle shifts everything after it.
    let mut padded = path3_exchange();
    padded.extend([vec![], vec![]]);
    assert_eq!(length(&inst, &padded), 2);
    let mut delayed = path3_exchange();
    delayed.insert(1, vec![]);
    assert_eq!(length(&inst, &delayed), 3);
}

#[test]
fn path3_exchange_under_the_four_rules() {
    let expected = [
        (PortRule::FStar, vec![]),
        (PortRule::HStar, vec![Rule::LinkRule]),
        (PortRule::F1, vec![Rule::PortRule]),
        (PortRule::H1, vec![Rule::DuplexRule]),
    ];
    for (rule, want) in expected {
        let v = check(&exchange("path:3", rule), &path3_exchange());
        assert_eq!(rules(&v), want.into_iter().collect(), "{rule}: {:#?}", messages(&v));
    }
}

#[test]
fn empty_schedule_with_nothing_to_deliver_has_length_0() {
    let net = Network::parse("path:3").unwrap();
    let demand = Some(vec![vec![false; 3]; 3]);
    let model = Model::StoreForward { rule: PortRule::FStar, mode: Mode::Move, packet: 1 };
    let inst =
        Instance::new("none", net, Problem::TotalExchange(demand), model, RingTie::Clockwise, "<test>")
            .unwrap();
    assert_eq!(length(&inst, &[]), 0);
    assert_eq!(length(&inst, &[vec![], vec![]]), 0);
    // With every pair demanded, the empty schedule leaves every packet at its source.
    let v = check(&exchange("path:3", PortRule::FStar), &[]);
    assert_eq!(rules(&v), BTreeSet::from([Rule::Incomplete]));
    assert_eq!(
        messages(&v)[0],
        "incomplete delivery: node 0 does not receive 2 packets: m1(0) (never sent), m2(0) (never sent)"
    );
}

#[test]
fn demand_matrix_restricts_the_packets() {
    let net = Network::parse("path:3").unwrap();
    let mut demand = vec![vec![false; 3]; 3];
    demand[0][2] = true;
    let model = Model::StoreForward { rule: PortRule::FStar, mode: Mode::Move, packet: 1 };
    let inst =
        Instance::new("one", net, Problem::TotalExchange(Some(demand)), model, RingTie::Clockwise, "<test>")
            .unwrap();
    assert_eq!(length(&inst, &[vec![tx(0, 1, &[2])], vec![tx(1, 2, &[2])]]), 2);
    let v = check(&inst, &[vec![tx(0, 1, &[2]), tx(1, 0, &[m(3, 1, 0)])], vec![tx(1, 2, &[2])]]);
    assert_eq!(
        messages(&v),
        [
            "unknown item: step 1, arc (1,0) carries m1(0), which is not a packet of this total exchange (packet ids are src*3+dst for the demanded pairs src != dst)"
        ]
    );
}

/// The brief's example message, on path(6): m1(4) reaches node 2 in step 1 and leaves it in
/// step 3 together with node 2's own m2(4).
#[test]
fn arc_rule_names_both_packets() {
    let inst = exchange("path:6", PortRule::FStar);
    let n = 6;
    let steps =
        vec![vec![tx(1, 2, &[m(n, 1, 4)])], vec![], vec![tx(2, 3, &[m(n, 1, 4)]), tx(2, 3, &[m(n, 2, 4)])]];
    let v = check(&inst, &steps);
    assert_eq!(messages(&v)[0], "arc rule: step 3, arc (2,3) carries packet [m1(4)] and packet [m2(4)]");
}

/// One schedule fragment per collision, with the rule it breaks under F*, H*, F1, H1 (SPEC §4.2
/// table). All on path(3) in step 1; the packets are valid so only the collision is reported
/// besides incomplete delivery.
#[test]
fn collisions_under_the_four_rules() {
    let n = 3;
    let none = BTreeSet::new();
    /// What collides, the step, and the rules broken under F*, H*, F1, H1.
    type Case = (&'static str, Vec<Transmission>, [BTreeSet<Rule>; 4]);
    let cases: Vec<Case> = vec![
        (
            "same arc twice",
            vec![tx(0, 1, &[m(n, 0, 1)]), tx(0, 1, &[m(n, 0, 2)])],
            [
                BTreeSet::from([Rule::ArcRule]),
                BTreeSet::from([Rule::LinkRule]),
                BTreeSet::from([Rule::PortRule]),
                BTreeSet::from([Rule::DuplexRule]),
            ],
        ),
        (
            "both directions of one link",
            vec![tx(0, 1, &[m(n, 0, 1)]), tx(1, 0, &[m(n, 1, 0)])],
            [
                none.clone(),
                BTreeSet::from([Rule::LinkRule]),
                none.clone(),
                BTreeSet::from([Rule::DuplexRule]),
            ],
        ),
        (
            "one node sends on two links",
            vec![tx(1, 0, &[m(n, 1, 0)]), tx(1, 2, &[m(n, 1, 2)])],
            [
                none.clone(),
                none.clone(),
                BTreeSet::from([Rule::PortRule]),
                BTreeSet::from([Rule::DuplexRule]),
            ],
        ),
        (
            "one node receives on two links",
            vec![tx(0, 1, &[m(n, 0, 1)]), tx(2, 1, &[m(n, 2, 1)])],
            [
                none.clone(),
                none.clone(),
                BTreeSet::from([Rule::PortRule]),
                BTreeSet::from([Rule::DuplexRule]),
            ],
        ),
        (
            "one node receives and sends on different links",
            vec![tx(0, 1, &[m(n, 0, 1)]), tx(1, 2, &[m(n, 1, 2)])],
            [none.clone(), none.clone(), none.clone(), BTreeSet::from([Rule::DuplexRule])],
        ),
    ];
    for (what, step, expected) in cases {
        for (rule, want) in PortRule::ALL.into_iter().zip(expected) {
            let v = check(&exchange("path:3", rule), std::slice::from_ref(&step));
            let mut got = rules(&v);
            got.remove(&Rule::Incomplete);
            assert_eq!(got, want, "{what} under {rule}: {:#?}", messages(&v));
        }
    }
}

#[test]
fn collision_messages_name_place_and_both_packets() {
    let n = 3;
    let v = check(
        &exchange("path:3", PortRule::HStar),
        &[vec![tx(0, 1, &[m(n, 0, 1)]), tx(1, 0, &[m(n, 1, 0)])]],
    );
    assert_eq!(
        messages(&v)[0],
        "link rule: step 1, link {0,1} carries packet [m0(1)] over (0,1) and packet [m1(0)] over (1,0)"
    );
    let v =
        check(&exchange("path:3", PortRule::F1), &[vec![tx(0, 1, &[m(n, 0, 1)]), tx(2, 1, &[m(n, 2, 1)])]]);
    assert_eq!(
        messages(&v)[0],
        "port rule: step 1, node 1 receives packet [m0(1)] from 0 and packet [m2(1)] from 2"
    );
    let v =
        check(&exchange("path:3", PortRule::F1), &[vec![tx(1, 0, &[m(n, 1, 0)]), tx(1, 2, &[m(n, 1, 2)])]]);
    assert_eq!(
        messages(&v)[0],
        "port rule: step 1, node 1 sends packet [m1(0)] to 0 and packet [m1(2)] to 2"
    );
    let v =
        check(&exchange("path:3", PortRule::H1), &[vec![tx(0, 1, &[m(n, 0, 1)]), tx(1, 2, &[m(n, 1, 2)])]]);
    assert_eq!(
        messages(&v)[0],
        "duplex rule: step 1, node 1 takes part in two transmissions: packet [m0(1)] over (0,1) and packet [m1(2)] over (1,2)"
    );
}

/// Rule-independent violations: reported the same way under all four rules.
#[test]
fn entry_violations_under_every_rule() {
    let n = 3;
    for rule in PortRule::ALL {
        let inst = exchange("path:3", rule);
        let one = |steps: Vec<Vec<Transmission>>| {
            let v = check(&inst, &steps);
            let mut got = rules(&v);
            got.remove(&Rule::Incomplete);
            (got, messages(&v))
        };
        let (got, msg) = one(vec![vec![tx(0, 2, &[m(n, 0, 2)])]]);
        assert_eq!(got, BTreeSet::from([Rule::NotAnArc]), "{rule}");
        assert_eq!(msg[0], "not an arc: step 1, (0,2) is not an arc of path:3 (packet [m0(2)])");
        let (got, msg) = one(vec![vec![tx(0, 7, &[m(n, 0, 2)])]]);
        assert_eq!(got, BTreeSet::from([Rule::UnknownItem]), "{rule}");
        assert_eq!(
            msg[0],
            "unknown item: step 1, transmission (0,7) names node 7: the network has nodes 0..2"
        );
        let (got, msg) = one(vec![vec![tx(0, 1, &[])]]);
        assert_eq!(got, BTreeSet::from([Rule::PacketSize]), "{rule}");
        assert_eq!(msg[0], "packet size: step 1, arc (0,1) carries an empty packet");
        let (got, msg) = one(vec![vec![tx(0, 1, &[m(n, 0, 1), m(n, 0, 2)])]]);
        assert_eq!(got, BTreeSet::from([Rule::PacketSize]), "{rule}");
        assert_eq!(
            msg[0],
            "packet size: step 1, arc (0,1) carries packet [m0(1), m0(2)] of 2 tokens, more than p = 1"
        );
        let (got, msg) = one(vec![vec![tx(0, 1, &[m(n, 0, 0)])], vec![tx(0, 1, &[99])]]);
        assert_eq!(got, BTreeSet::from([Rule::UnknownItem]), "{rule}");
        assert!(
            msg[0].starts_with("unknown item: step 1, arc (0,1) carries m0(0), which is not a packet"),
            "{}",
            msg[0]
        );
        assert!(
            msg[1].starts_with("unknown item: step 2, arc (0,1) carries token 99, which is not a packet"),
            "{}",
            msg[1]
        );
    }
}

#[test]
fn packets_of_p_tokens() {
    let n = 3;
    let inst = instance("path:3", Problem::TotalExchange(None), PortRule::FStar, Mode::Move, 2);
    let steps = vec![
        vec![tx(0, 1, &[m(n, 0, 1), m(n, 0, 2)]), tx(2, 1, &[m(n, 2, 1), m(n, 2, 0)])],
        vec![tx(1, 2, &[m(n, 0, 2), m(n, 1, 2)]), tx(1, 0, &[m(n, 2, 0), m(n, 1, 0)])],
    ];
    let c = check(&inst, &steps);
    let c = c.admissible().unwrap();
    assert_eq!((c.length(), c.metrics().events, c.metrics().peak_buffer), (2, 4, Some(2)));
}

#[test]
fn not_held_cases() {
    let n = 3;
    let inst = exchange("path:3", PortRule::FStar);
    let not_held = |steps: Vec<Vec<Transmission>>| -> Vec<String> {
        let v = check(&inst, &steps);
        v.violations().iter().filter(|x| x.rule == Rule::NotHeld).map(|x| x.to_string()).collect()
    };
    // Forwarded in the step it arrives, listed before or after its arrival: same verdict.
    let early = not_held(vec![vec![tx(1, 2, &[m(n, 0, 2)]), tx(0, 1, &[m(n, 0, 2)])]]);
    let late = not_held(vec![vec![tx(0, 1, &[m(n, 0, 2)]), tx(1, 2, &[m(n, 0, 2)])]]);
    assert_eq!(early, late);
    assert_eq!(
        early,
        [
            "not held: step 1, node 1 sends m0(2) over (1,2), but it is at node 0 initially; it arrives only at the end of step 1 and can leave from step 2"
        ]
    );
    // Sent twice in one step.
    assert_eq!(
        not_held(vec![vec![tx(1, 0, &[m(n, 1, 0)]), tx(1, 2, &[m(n, 1, 0)])]]),
        [
            "not held: step 1, node 1 sends m1(0) over (1,2), but it already left node 1 over (1,0) in this step"
        ]
    );
    // Sent from a node that never had it.
    assert_eq!(
        not_held(vec![vec![], vec![tx(2, 1, &[m(n, 0, 1)])]]),
        ["not held: step 2, node 2 sends m0(1) over (2,1), but it is at node 0 at the end of step 1"]
    );
    // Sent after delivery (it was consumed at its destination).
    assert_eq!(
        not_held(vec![vec![tx(0, 1, &[m(n, 0, 1)])], vec![tx(1, 2, &[m(n, 0, 1)])]]),
        [
            "not held: step 2, node 1 sends m0(1) over (1,2), but it was delivered to node 1 at the end of step 1"
        ]
    );
    // Sent by a node while it leaves another one in the same step.
    assert_eq!(
        not_held(vec![vec![tx(0, 1, &[m(n, 0, 2)]), tx(2, 1, &[m(n, 0, 2)])]]),
        [
            "not held: step 1, node 2 sends m0(2) over (2,1), but it is at node 0 initially (and leaves it over (0,1) in this step)"
        ]
    );
}

#[test]
fn incomplete_delivery_says_where_packets_are() {
    let inst = exchange("path:6", PortRule::FStar);
    let n = 6;
    let v = check(&inst, &[vec![tx(0, 1, &[m(n, 0, 5)])], vec![tx(1, 2, &[m(n, 0, 5)])]]);
    let msgs = messages(&v);
    assert_eq!(msgs.len(), 6);
    assert_eq!(
        msgs[5],
        "incomplete delivery: node 5 does not receive 5 packets: m0(5) (at node 2 since step 2), m1(5) (never sent), m2(5) (never sent), m3(5) (never sent), m4(5) (never sent)"
    );
    let v = check(&exchange("path:8", PortRule::FStar), &[]);
    assert!(messages(&v)[0].ends_with("m5(0) (never sent), and 2 more"), "{}", messages(&v)[0]);
}

// ---------------------------------------------------------------------------------------------
// Gossip (copy mode, paper 003).

/// Gossip on path(3) under H* with p = 1 by hand: node 1 collects both ends' tokens in step 1 and
/// forwards one per step to each side.
fn path3_gossip() -> Vec<Vec<Transmission>> {
    vec![
        vec![tx(0, 1, &[0]), tx(2, 1, &[2])],
        vec![tx(1, 0, &[1]), tx(1, 2, &[1])],
        vec![tx(1, 0, &[2]), tx(1, 2, &[0])],
    ]
}

#[test]
fn gossip_on_path3_by_hand() {
    let inst = gossip("path:3", PortRule::HStar, 1);
    let c = check(&inst, &path3_gossip());
    let c = c.admissible().unwrap_or_else(|| panic!("{:#?}", messages(&c)));
    assert_eq!(c.length(), 3);
    assert_eq!(c.metrics().events, 6);
    assert_eq!(c.metrics().duplicates, Some(0));
    // Node 1 holds tokens 0 and 2 from the end of step 1 until it forwards them in step 3.
    assert_eq!(c.metrics().peak_buffer, Some(2));
    // Under F1 node 1 receives twice in step 1 and sends twice in steps 2 and 3.
    let v = check(&gossip("path:3", PortRule::F1, 1), &path3_gossip());
    assert_eq!(v.violations().iter().filter(|x| x.rule == Rule::PortRule).count(), 3);
}

#[test]
fn gossip_with_two_token_packets() {
    let inst = gossip("path:3", PortRule::HStar, 2);
    let steps = vec![vec![tx(0, 1, &[0]), tx(2, 1, &[2])], vec![tx(1, 0, &[1, 2]), tx(1, 2, &[0, 1])]];
    let c = check(&inst, &steps);
    assert_eq!(c.admissible().unwrap().length(), 2);
}

#[test]
fn gossip_duplicates_are_counted_not_rejected() {
    let inst = gossip("path:3", PortRule::HStar, 2);
    // Node 0 gets its own token back, and node 1 gets token 2 twice in step 2 (and already had it).
    let steps = vec![
        vec![tx(0, 1, &[0]), tx(2, 1, &[2])],
        vec![tx(1, 0, &[1, 2]), tx(1, 2, &[0, 1])],
        vec![tx(1, 0, &[0]), tx(2, 1, &[2, 2])],
    ];
    let c = check(&inst, &steps);
    let c = c.admissible().unwrap();
    assert_eq!((c.length(), c.metrics().duplicates), (3, Some(3)));
}

#[test]
fn gossip_violations() {
    let inst = gossip("path:3", PortRule::HStar, 1);
    let v = check(&inst, &[vec![tx(0, 1, &[0]), tx(1, 2, &[0])], vec![tx(1, 2, &[3])]]);
    assert_eq!(
        messages(&v),
        [
            "not held: step 1, node 1 sends token 0 over (1,2), but does not hold it initially; it arrives only at the end of step 1 and can leave from step 2",
            "unknown item: step 2, arc (1,2) carries token 3, which is not a token of this gossip (tokens are the origin nodes 0..2)",
            "incomplete delivery: node 0 is missing 2 of 3 tokens: token 1, token 2",
            "incomplete delivery: node 1 is missing 1 of 3 tokens: token 2",
            "incomplete delivery: node 2 is missing 2 of 3 tokens: token 0, token 1",
        ]
    );
    let v = check(&gossip("ring:9", PortRule::HStar, 1), &[]);
    assert_eq!(
        messages(&v)[0],
        "incomplete delivery: node 0 is missing 8 of 9 tokens: token 1, token 2, token 3, token 4, token 5, and 3 more"
    );
}

// ---------------------------------------------------------------------------------------------
// Mutations against an independent oracle.

/// A deliberately plain re-implementation of SPEC §4.2 for move mode: hash maps, one pass per
/// rule, the state snapshotted at the start of each step. `Some(length)` iff admissible.
fn oracle(inst: &Instance, steps: &[Vec<Transmission>]) -> Option<u64> {
    let Model::StoreForward { rule, packet, .. } = inst.model else { unreachable!() };
    let net = &inst.network;
    let dst: HashMap<usize, usize> = inst.packets().iter().map(|p| (p.id, p.dst)).collect();
    let mut at: HashMap<usize, usize> = inst.packets().iter().map(|p| (p.id, p.src)).collect();
    let mut last = 0;
    for (i, step) in steps.iter().enumerate() {
        if !step.is_empty() {
            last = i as u64 + 1;
        }
        let mut count: HashMap<(char, usize, usize), usize> = HashMap::new();
        for tr in step {
            if net.arc(tr.from, tr.to).is_none() || tr.tokens.is_empty() || tr.tokens.len() > packet {
                return None;
            }
            let keys = match rule {
                PortRule::FStar => vec![('a', tr.from, tr.to)],
                PortRule::HStar => vec![('l', tr.from.min(tr.to), tr.from.max(tr.to))],
                PortRule::F1 => vec![('s', tr.from, 0), ('r', tr.to, 0)],
                PortRule::H1 => vec![('n', tr.from, 0), ('n', tr.to, 0)],
            };
            for k in keys {
                *count.entry(k).or_default() += 1;
            }
        }
        if count.values().any(|&c| c > 1) {
            return None;
        }
        let before = at.clone();
        let mut sent = HashSet::new();
        for tr in step {
            for &k in &tr.tokens {
                if before.get(&k) != Some(&tr.from) || !sent.insert(k) {
                    return None;
                }
            }
        }
        for tr in step {
            for &k in &tr.tokens {
                if dst[&k] == tr.to {
                    at.remove(&k);
                } else {
                    at.insert(k, tr.to);
                }
            }
        }
    }
    at.is_empty().then_some(last)
}

/// Valid F* schedules whose packets all follow shortest (hence simple) paths.
fn bases() -> Vec<(Instance, Vec<Vec<Transmission>>)> {
    let mut b: Vec<_> = ["path6-fig2", "ring7-fig3a", "ring6-fig3b"].into_iter().map(figure).collect();
    b.push((exchange("path:3", PortRule::FStar), path3_exchange()));
    for n in [2, 4, 5, 7] {
        b.push((exchange(&format!("path:{n}"), PortRule::FStar), furthest_first_path(n)));
    }
    b
}

#[derive(Debug, Clone, Copy)]
enum Mutation {
    Delete,
    Duplicate,
    MoveStep,
    Retarget,
    SwapToken,
}

/// Position of the `k`-th transmission (mod their number) as (step, index).
fn nth(steps: &[Vec<Transmission>], k: usize) -> (usize, usize) {
    let total: usize = steps.iter().map(Vec::len).sum();
    let mut k = k % total;
    for (s, step) in steps.iter().enumerate() {
        if k < step.len() {
            return (s, k);
        }
        k -= step.len();
    }
    unreachable!()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// One mutation of a valid schedule, under a random port rule. The checker agrees with the
    /// oracle on admissibility and length; when it rejects, it names the rule the mutation class
    /// forces and no rule the class cannot cause:
    /// * delete a hop: the packet stops short of its destination on a simple path, so delivery
    ///   is incomplete (later hops of it are not held);
    /// * duplicate a transmission in its step: the arc carries two packets (a collision under
    ///   every rule) and the token is sent twice (not held);
    /// * move a transmission to another step: only collisions, holding and delivery can break;
    /// * retarget a transmission to another node: not an arc iff the new pair is no arc;
    /// * swap its token for another id: unknown item iff the id is not a packet.
    #[test]
    fn mutations_are_judged_like_the_oracle(
        base in 0..8usize,
        kind in prop_oneof![
            Just(Mutation::Delete), Just(Mutation::Duplicate), Just(Mutation::MoveStep),
            Just(Mutation::Retarget), Just(Mutation::SwapToken)
        ],
        rule in prop::sample::select(PortRule::ALL.to_vec()),
        a in any::<usize>(), b in any::<usize>(),
    ) {
        let (inst, mut steps) = bases().swap_remove(base);
        let inst = with_rule(&inst, rule);
        let n = inst.network.len();
        let base_rules = rules(&check(&inst, &steps));
        let (s, i) = nth(&steps, a);
        let coll = collision(rule);
        let (required, mut allowed): (Vec<Rule>, BTreeSet<Rule>) = match kind {
            Mutation::Delete => {
                steps[s].remove(i);
                (vec![Rule::Incomplete], [Rule::NotHeld, Rule::Incomplete].into())
            }
            Mutation::Duplicate => {
                let t = steps[s][i].clone();
                steps[s].insert(i + 1, t);
                (vec![coll, Rule::NotHeld], [coll, Rule::NotHeld].into())
            }
            Mutation::MoveStep => {
                let t = steps[s].remove(i);
                let target = (s + 1 + b % steps.len()) % (steps.len() + 1);
                if target == steps.len() {
                    steps.push(vec![t]);
                } else {
                    steps[target].push(t);
                }
                (vec![], [coll, Rule::NotHeld, Rule::Incomplete].into())
            }
            Mutation::Retarget => {
                let from = steps[s][i].from;
                let to = (steps[s][i].to + 1 + b % (n - 1)) % n;
                steps[s][i].to = to;
                let required = if inst.network.arc(from, to).is_none() { vec![Rule::NotAnArc] } else { vec![] };
                (required, [Rule::NotAnArc, coll, Rule::NotHeld, Rule::Incomplete].into())
            }
            Mutation::SwapToken => {
                let old = steps[s][i].tokens[0];
                let new = (old + 1 + b % (n * n + 1)) % (n * n + 2);
                steps[s][i].tokens[0] = new;
                let packet = inst.packets().iter().any(|p| p.id == new);
                let required = if packet { vec![] } else { vec![Rule::UnknownItem] };
                (required, [Rule::UnknownItem, Rule::NotHeld, Rule::Incomplete].into())
            }
        };
        allowed.extend(base_rules);
        let v = check(&inst, &steps);
        prop_assert_eq!(v.admissible().map(|c| c.length()), oracle(&inst, &steps), "{:?}: {:#?}", kind, messages(&v));
        let got = rules(&v);
        for r in &required {
            prop_assert!(got.contains(r), "{:?} under {}: missing {:?} in {:#?}", kind, rule, r, messages(&v));
        }
        prop_assert!(got.is_subset(&allowed), "{:?} under {}: {:?} not within {:?}", kind, rule, got, allowed);
    }

    /// The oracle and the checker agree on the unmutated bases under every rule (F* accepts all).
    #[test]
    fn bases_are_judged_like_the_oracle(base in 0..8usize, rule in prop::sample::select(PortRule::ALL.to_vec())) {
        let (inst, steps) = bases().swap_remove(base);
        let inst = with_rule(&inst, rule);
        let v = check(&inst, &steps);
        prop_assert_eq!(v.admissible().map(|c| c.length()), oracle(&inst, &steps));
        if rule == PortRule::FStar {
            prop_assert!(v.admissible().is_some());
        }
    }
}

/// A model whose mode does not fit the problem (planted past `Instance::new`'s validation) is a
/// bad entry, not a panic.
#[test]
fn mode_must_fit_the_problem() {
    let mut inst = exchange("path:3", PortRule::FStar);
    inst.model = Model::StoreForward { rule: PortRule::FStar, mode: Mode::Copy, packet: 1 };
    let v = check(&inst, &path3_exchange());
    assert_eq!(rules(&v), BTreeSet::from([Rule::BadEntry]));
}
