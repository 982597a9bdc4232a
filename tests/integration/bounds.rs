//! Lower bounds (src/bounds): the papers' closed forms against the values of the claims catalogue, two
//! independent derivations against each other (closed form vs generic cut, FDF formula vs
//! release/tail vs brute force over dispatch orders), and every bound against schedules that
//! are valid by construction (greedy list scheduling and the papers' simple algorithms).

use commsched::bounds::{self, fat_tree, gossip, scatter_gather, total_exchange};
use commsched::checker;
use commsched::spec::io::parse_instance;
use commsched::spec::{
    Capacity, Control, ControlKind, Family, FatTreeSend, GatherMode, Instance, Message, MessageSpec, Mode,
    Model, Network, Node, Port, PortRule, Problem, RingTie, Schedule, Start, Transmission,
};
use proptest::prelude::*;
use std::collections::HashSet;

fn instance(text: &str) -> Instance {
    parse_instance(text, "<test>", "test").expect("valid instance")
}

/// The value of the bound named `name`; panics (test failure) if it is not reported.
fn value(inst: &Instance, name: &str) -> u64 {
    let all = bounds::lower_bounds(inst);
    all.iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no bound `{name}` for {}: {all:?}", inst.name))
        .value
}

fn claims(inst: &Instance) -> Vec<&'static str> {
    bounds::lower_bounds(inst).iter().filter_map(|b| b.claim).collect()
}

/// Every bound is at most the length of a valid schedule.
fn assert_all_at_most(inst: &Instance, length: u64) -> Result<(), TestCaseError> {
    for b in bounds::lower_bounds(inst) {
        prop_assert!(b.value <= length, "{} exceeds a valid schedule of length {length}: {b:?}", inst.name);
    }
    Ok(())
}

fn store_forward(network: &str, problem: &str, rule: &str, mode: &str, packet: u64) -> Instance {
    instance(&format!(
        "problem = \"{problem}\"\nnetwork = \"{network}\"\n[model]\nkind = \"store-forward\"\nrule = \"{rule}\"\n\
         mode = \"{mode}\"\npacket = {packet}\n"
    ))
}

// ---------------------------------------------------------------------------------------------
// Paper 004: TE-1, TE-2, TE-22, TE-23

/// TE-22: LA values for n = 2..12 and ring values for n = 3..12.
const TE_22_LA: [u64; 11] = [1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36];
const TE_22_RING: [u64; 10] = [1, 2, 3, 5, 6, 8, 10, 13, 15, 18];

#[test]
fn te_1_linear_array_values_of_te_22() {
    for (n, &expect) in (2..=12).zip(&TE_22_LA) {
        assert_eq!(total_exchange::linear_array(n), expect, "n = {n}");
        assert_eq!((n * n - 1).div_ceil(4), expect, "⌈(n²−1)/4⌉, n = {n}");
        let inst = store_forward(&format!("path:{n}"), "total-exchange", "F*", "move", 1);
        assert_eq!(value(&inst, "bisection"), expect, "n = {n}");
        assert!(claims(&inst).contains(&"TE-1"));
    }
}

#[test]
fn te_2_ring_values_of_te_22() {
    for (n, &expect) in (3..=12).zip(&TE_22_RING) {
        assert_eq!(total_exchange::ring(n), expect, "n = {n}");
        assert_eq!((n * n - 1).div_ceil(8), expect, "⌈(n²−1)/8⌉, n = {n}");
        let inst = store_forward(&format!("ring:{n}"), "total-exchange", "F*", "move", 1);
        assert_eq!(value(&inst, "ring bisection"), expect, "n = {n}");
    }
}

#[test]
fn te_23_half_duplex_bisections() {
    for n in 3..=12u64 {
        let la = store_forward(&format!("path:{n}"), "total-exchange", "H*", "move", 1);
        assert_eq!(value(&la, "bisection half-duplex"), 2 * TE_22_LA[n as usize - 2]);
        let ring = store_forward(&format!("ring:{n}"), "total-exchange", "H1", "move", 1);
        let half = (n / 2) * n.div_ceil(2);
        assert_eq!(value(&ring, "ring bisection half-duplex"), half);
        // the claims catalogue TE-23: 2·T_opt(R) except one less when n ≡ 2 (mod 4).
        let twice = 2 * TE_22_RING[n as usize - 3];
        assert_eq!(half + u64::from(n % 4 == 2), twice, "n = {n}");
        // F* and F1 instances get no half-duplex bound.
        let f1 = store_forward(&format!("ring:{n}"), "total-exchange", "F1", "move", 1);
        assert!(!claims(&f1).contains(&"TE-23"));
    }
}

#[test]
fn demand_matrix_gets_the_generic_cut_not_te_1() {
    // Every node sends one packet to node 4 of path(5): 4 packets cross arc (3,4).
    let inst = instance(
        "problem = \"total-exchange\"\nnetwork = \"path:5\"\n\
         demand = [[0,0,0,0,1],[0,0,0,0,1],[0,0,0,0,1],[0,0,0,0,1],[0,0,0,0,0]]\n",
    );
    assert!(!claims(&inst).contains(&"TE-1"));
    assert_eq!(value(&inst, "cut"), 4);
    assert_eq!(value(&inst, "distance"), 4);
    assert_eq!(bounds::best(&inst).unwrap().value, 4);
    // The greedy pipeline meets it.
    assert_eq!(greedy_store_forward(&inst).len(), 4);
}

proptest! {
    /// TE-1 and TE-2 (closed forms of (1), (2)) equal the generic cut bound computed from the
    /// instance's packets over every interval of the line or ring; likewise TE-23 under H*.
    #[test]
    fn closed_forms_equal_the_generic_cut(n in 3u64..48, half_duplex in any::<bool>()) {
        let rule = if half_duplex { "H*" } else { "F*" };
        let la = store_forward(&format!("path:{n}"), "total-exchange", rule, "move", 1);
        let ring = store_forward(&format!("ring:{n}"), "total-exchange", rule, "move", 1);
        let factor = if half_duplex { 2 } else { 1 };
        prop_assert_eq!(value(&la, "cut"), factor * total_exchange::linear_array(n));
        prop_assert_eq!(value(&ring, "cut"), if half_duplex { total_exchange::linear_array(n) } else { total_exchange::ring(n) });
    }

    /// With p tokens per packet the generic cut divides the bisection traffic by p.
    #[test]
    fn packets_divide_the_cut(n in 2u64..30, p in 1u64..5) {
        let la = store_forward(&format!("path:{n}"), "total-exchange", "F*", "move", p);
        prop_assert_eq!(value(&la, "cut"), total_exchange::linear_array(n).div_ceil(p));
        prop_assert!(p == 1 || !claims(&la).contains(&"TE-1"));
    }
}

// ---------------------------------------------------------------------------------------------
// Paper 003: GOS-1, GOS-2 (GOS-24 table)

#[test]
fn gos_24_lower_bounds() {
    let mesh = [3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78];
    for (n, &expect) in (2..=12u64).zip(&mesh) {
        assert_eq!(gossip::mesh(n), expect);
        let inst = store_forward(&format!("mesh:{n}x{n}"), "gossip", "H*", "copy", 1);
        assert_eq!(value(&inst, "mesh edge count"), expect);
        // Lemma 1 is the edge-count argument: the generic total load agrees.
        assert_eq!(value(&inst, "total load"), expect);
    }
    let torus = [4, 8, 12, 18, 24, 32, 40, 50, 60, 72];
    for (n, &expect) in (3..=12u64).zip(&torus) {
        assert_eq!(gossip::torus(n), expect);
        let inst = store_forward(&format!("torus:{n}x{n}"), "gossip", "H*", "copy", 1);
        assert_eq!(value(&inst, "torus edge count"), expect);
        assert_eq!(value(&inst, "total load"), expect);
    }
    // Full duplex carries two packets per link: no GOS bound, and the generic load halves.
    let f = store_forward("mesh:4x4", "gossip", "F*", "copy", 1);
    assert!(!claims(&f).contains(&"GOS-1"));
    assert_eq!(value(&f, "total load"), 5);
}

/// The bridge release/tail bound (new, `bounds::gossip::bridge`): on path(n) under H\* it is
/// n + ⌊n/2⌋ − 1, the length of the registered `path-gossip` (GOS-8), so the path algorithm is
/// certified optimal by it; under F\* it is the diameter; networks without a bridge get none.
#[test]
fn bridge_release_tail_settles_the_path() {
    for n in 2..=40u64 {
        let inst = store_forward(&format!("path:{n}"), "gossip", "H*", "copy", 1);
        assert_eq!(gossip::path_hstar(n), n + n / 2 - 1);
        assert_eq!(value(&inst, "bridge release/tail"), gossip::path_hstar(n), "path({n}) H*");
        assert_eq!(bounds::best(&inst).unwrap().value, gossip::path_hstar(n), "path({n}) H*: the strongest");
        let h1 = store_forward(&format!("path:{n}"), "gossip", "H1", "copy", 1);
        assert!(value(&h1, "bridge release/tail") >= gossip::path_hstar(n), "path({n}) H1");
        let f = store_forward(&format!("path:{n}"), "gossip", "F*", "copy", 1);
        assert_eq!(value(&f, "bridge release/tail"), n - 1, "path({n}) F*");
    }
    // Two tokens per packet halve the middle link's work: path(6) under H*, p = 2:
    // 1 + ⌈6/2⌉ − 1 + 2 = 5.
    let p2 = store_forward("path:6", "gossip", "H*", "copy", 2);
    assert_eq!(value(&p2, "bridge release/tail"), 5);
    for net in ["ring:6", "mesh:3x3", "torus:3x3"] {
        let inst = store_forward(net, "gossip", "H*", "copy", 1);
        assert!(bounds::lower_bounds(&inst).iter().all(|b| b.name != "bridge release/tail"), "{net}");
    }
    // Total exchange never gets it.
    let te = store_forward("path:6", "total-exchange", "H*", "move", 1);
    assert!(bounds::lower_bounds(&te).iter().all(|b| b.name != "bridge release/tail"));
}

#[test]
fn one_port_gossip_needs_n_minus_1_over_p_receptions() {
    for p in 1..4 {
        let inst = store_forward("torus:3x3", "gossip", "F1", "copy", p);
        assert!(value(&inst, "port") >= 8u64.div_ceil(p));
    }
}

// ---------------------------------------------------------------------------------------------
// Paper 002: FT-2, FT-11, FT-17, FT-18

fn capacities() -> Vec<Capacity> {
    let mut c = vec![
        Capacity::Constant { value: 1 },
        Capacity::Constant { value: 2 },
        Capacity::LogPlusOne,
        Capacity::Power { beta: 0.5 },
        Capacity::Power { beta: 1.0 },
        Capacity::ExpLogPower { beta: 0.5 },
        Capacity::RootLogLog,
    ];
    c.push(Capacity::Table { values: vec![1, 2, 2, 4, 4, 8, 8, 16, 16, 32, 32] });
    c
}

fn fat_tree_instance(problem: &str, n: u64, capacity: &Capacity, rounds: bool) -> Instance {
    instance(&format!(
        "problem = \"{problem}\"\nnetwork = \"fat-tree:{n}\"\n[model]\nkind = \"fat-tree\"\ncapacity = \"{}\"\n\
         rounds = {rounds}\n",
        capacity.spec_string()
    ))
}

#[test]
fn ft_2_is_2_log_n() {
    for lg in 1..=10u32 {
        let n = 1u64 << lg;
        for cap in capacities().iter().filter(|c| c.validate(n).is_ok()) {
            for problem in ["broadcast", "product", "prefix"] {
                let inst = fat_tree_instance(problem, n, cap, false);
                assert_eq!(value(&inst, "diameter 2 log N"), 2 * u64::from(lg));
                // The exact form of Theorem 2 contains the diameter bound.
                assert!(value(&inst, "empty subtree recurrence") >= 2 * u64::from(lg));
            }
        }
    }
}

#[test]
fn ft_18_example_and_the_tall_round_bound_dominates_it() {
    let one = Capacity::Constant { value: 1 };
    // FT-18 in the claims catalogue: N = 2^16, w ≡ 1: 120; Algorithm 1 (= naive) takes 272 = 16·17.
    assert_eq!(fat_tree::theorem_3(1 << 16, &one), 120);
    assert_eq!(fat_tree::round_model_broadcast(1 << 16, &one), 272);
    for lg in 2..=24u32 {
        let n = 1u64 << lg;
        for cap in capacities().iter().filter(|c| c.validate(n).is_ok()) {
            let exact = fat_tree::round_model_broadcast(n, cap);
            assert!(exact >= fat_tree::theorem_3(n, cap), "N = 2^{lg}, {cap:?}");
            assert!(exact >= fat_tree::diameter(n));
        }
    }
}

#[test]
fn fat_tree_bounds_never_exceed_the_naive_broadcast() {
    // FT-3: recursive halving takes log N (log N + 1) in both models, any capacity; its time
    // reversal is a product schedule of the same length; the sequential prefix chain P_i → P_{i+1}
    // takes Σ 2·h(i, i+1).
    for lg in 1..=10u32 {
        let n = 1u64 << lg;
        let naive = u64::from(lg * (lg + 1));
        let chain: u64 = (0..n - 1).map(|i| 2 * u64::from(64 - (i ^ (i + 1)).leading_zeros())).sum();
        for cap in capacities().iter().filter(|c| c.validate(n).is_ok()) {
            for rounds in [false, true] {
                for (problem, length) in [("broadcast", naive), ("product", naive), ("prefix", chain)] {
                    let inst = fat_tree_instance(problem, n, cap, rounds);
                    for b in bounds::lower_bounds(&inst) {
                        assert!(
                            b.value <= length,
                            "{problem} N = {n} {cap:?} rounds {rounds}: {b:?} > {length}"
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Paper 001: SG-3, SG-4, SG-8, SG-23 on the figures

fn scatter_gather(problem: &str, network: &str, lengths: &[u64], extra: &str) -> Instance {
    let l: Vec<String> = lengths.iter().map(u64::to_string).collect();
    instance(&format!(
        "problem = \"{problem}\"\nnetwork = \"{network}\"\nlengths = [{}]\n[model]\nkind = \"bufferless\"\n{extra}",
        l.join(", ")
    ))
}

#[test]
fn sg_27_fig_1_fdf_optimum_is_10() {
    let inst = scatter_gather("scatter", "path:6", &[0, 0, 0, 4, 3], "");
    assert_eq!(value(&inst, "scatter FDF optimum"), 10);
    assert_eq!(value(&inst, "scatter range"), 7);
    // Fig. 1(a) (FDF) has length 10 and Fig. 1(b) 11: both at least every bound.
    assert_eq!(bounds::best(&inst).unwrap().value, 10);
    assert_eq!(brute_force_scatter(&inst.messages().unwrap()), 10);
}

#[test]
fn sg_29_sg_30_shoulder_tap_figures_meet_the_dispatch_bound() {
    let distributed = "gather = \"distributed\"\n";
    // Fig. 2: length 11; Fig. 4 (transmission certification, same lengths): 21.
    let fig2 = scatter_gather("gather", "path:6", &[2, 3, 0, 2, 1], distributed);
    assert_eq!(value(&fig2, "gather dispatch (5)"), 11);
    assert_eq!(value(&fig2, "gather sync max(B, M)"), 8);
    assert_eq!(value(&fig2, "gather reversed FDF"), 8);
    assert_eq!(bounds::best(&fig2).unwrap().value, 11);
    // Fig. 3: length 13 = 2 + ΣL.
    let fig3 = scatter_gather("gather", "path:6", &[9, 0, 1, 0, 1], distributed);
    assert_eq!(value(&fig3, "gather dispatch (5)"), 13);
    assert_eq!(bounds::best(&fig3).unwrap().value, 13);
    // Centralized (no wake-ups) the same lengths only need the reversed FDF time.
    let central = scatter_gather("gather", "path:6", &[2, 3, 0, 2, 1], "");
    assert!(!claims(&central).contains(&"SG-8"));
    assert_eq!(bounds::best(&central).unwrap().value, 8);
}

#[test]
fn sg_11_sg_14_counterexamples_meet_the_dispatch_bound() {
    let distributed = "gather = \"distributed\"\n";
    // SG-11: n = 2, L = (1, 1): the optimum under (5) is 4 (Shoulder-Tap as written: 5).
    assert_eq!(value(&scatter_gather("gather", "path:3", &[1, 1], distributed), "gather dispatch (5)"), 4);
    // SG-14: n = 3, L = (1, 1, 1): the optimum under (5) ends at step 6 > 2 + ΣL = 5.
    assert_eq!(value(&scatter_gather("gather", "path:4", &[1, 1, 1], distributed), "gather dispatch (5)"), 6);
}

/// SG-1: the best dispatch order over all permutations, in SPEC steps (T^scat − 1).
fn brute_force_scatter(messages: &[Message]) -> u64 {
    fn go(rest: &mut Vec<(u64, u64)>, sent: u64, worst: u64, best: &mut u64) {
        if rest.is_empty() {
            *best = (*best).min(worst);
            return;
        }
        for i in 0..rest.len() {
            let (depth, len) = rest.remove(i);
            go(rest, sent + len, worst.max(sent + len + depth - 1), best);
            rest.insert(i, (depth, len));
        }
    }
    let mut items: Vec<(u64, u64)> = messages.iter().map(|m| (m.arcs.len() as u64, m.len)).collect();
    let mut best = u64::MAX;
    go(&mut items, 0, 0, &mut best);
    if best == u64::MAX { 0 } else { best }
}

fn tree_strategy(max: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<prop::sample::Index>(), 1..max)
        .prop_map(|ix| std::iter::once(0).chain(ix.iter().enumerate().map(|(i, x)| x.index(i + 1))).collect())
}

proptest! {
    /// SG-4: the FDF formula is the optimum over all dispatch orders, and equals the generic
    /// release/tail bound (the root's sending side) — three derivations agree. By time
    /// reversal the same value is the centralized gather bound.
    #[test]
    fn sg_4_fdf_is_the_exact_scatter_optimum(parents in tree_strategy(8), seed in prop::collection::vec(0u64..4, 8)) {
        let network = Network::new(Family::Tree(parents.clone())).unwrap();
        let mut lengths = vec![0];
        lengths.extend((1..parents.len()).map(|i| seed[i % seed.len()]));
        let scatter = Instance::new("s", network.clone(), Problem::Scatter(lengths.clone()), single_port(GatherMode::Centralized), RingTie::Clockwise, "<t>").unwrap();
        let messages = scatter.messages().unwrap();
        let fdf = scatter_gather::fdf_length(messages.iter().map(|m| (m.arcs.len() as u64, m.len)));
        prop_assert_eq!(fdf, brute_force_scatter(&messages));
        if fdf > 0 {
            prop_assert_eq!(value(&scatter, "scatter FDF optimum"), fdf);
            prop_assert_eq!(value(&scatter, "port release/tail"), fdf);
            let gather = Instance::new("g", network, Problem::Gather(lengths), single_port(GatherMode::Centralized), RingTie::Clockwise, "<t>").unwrap();
            prop_assert_eq!(value(&gather, "gather reversed FDF"), fdf);
            prop_assert_eq!(value(&gather, "port release/tail"), fdf);
        }
    }
}

fn single_port(gather: GatherMode) -> Model {
    Model::Bufferless { port: Port::Single, virtual_schedule: false, gather }
}

// ---------------------------------------------------------------------------------------------
// Every bound against schedules valid by construction

/// Greedy store-and-forward schedule: each step, arcs are taken in order of how many useful
/// tokens they can carry, under the port rule; a move-mode packet goes to a next hop on a
/// shortest path (furthest destination first), a copy-mode token to a neighbour that lacks it.
/// Only what a node held at the end of the previous step is sent.
fn greedy_store_forward(inst: &Instance) -> Vec<Vec<Transmission>> {
    let Model::StoreForward { rule, mode, packet } = inst.model else { panic!("store-and-forward only") };
    let net = &inst.network;
    let n = net.len();
    let dist: Vec<Vec<usize>> = (0..n).map(|s| net.distances_from(s)).collect();
    let packets = inst.packets();
    // Move: position of each packet (by index); copy: has[node][token].
    let mut at: Vec<Node> = packets.iter().map(|p| p.src).collect();
    let mut has: Vec<Vec<bool>> = (0..n).map(|v| (0..n).map(|u| u == v).collect()).collect();
    let mut steps = Vec::new();
    loop {
        let done = match mode {
            Mode::Move => packets.iter().zip(&at).all(|(p, &x)| x == p.dst),
            Mode::Copy => has.iter().all(|row| row.iter().all(|&x| x)),
        };
        if done {
            return steps;
        }
        let useful = |a: usize, taken: &HashSet<usize>| -> Vec<usize> {
            let (u, v) = net.arcs()[a];
            match mode {
                Mode::Move => {
                    let mut t: Vec<usize> = (0..packets.len())
                        .filter(|&i| at[i] == u && !taken.contains(&i))
                        .filter(|&i| dist[v][packets[i].dst] + 1 == dist[u][packets[i].dst])
                        .collect();
                    t.sort_by_key(|&i| std::cmp::Reverse(dist[u][packets[i].dst]));
                    t
                }
                Mode::Copy => (0..n).filter(|&k| has[u][k] && !has[v][k]).collect(),
            }
        };
        let none = HashSet::new();
        let mut order: Vec<usize> = (0..net.arcs().len()).collect();
        order.sort_by_key(|&a| std::cmp::Reverse(useful(a, &none).len()));
        let (mut sending, mut receiving, mut busy) = (vec![false; n], vec![false; n], vec![false; n]);
        let mut links = HashSet::new();
        let mut taken = HashSet::new();
        let mut step = Vec::new();
        for a in order {
            let (u, v) = net.arcs()[a];
            let ok = match rule {
                PortRule::FStar => true,
                PortRule::HStar => !links.contains(&(u.min(v), u.max(v))),
                PortRule::F1 => !sending[u] && !receiving[v],
                PortRule::H1 => !busy[u] && !busy[v],
            };
            let tokens: Vec<usize> = useful(a, &taken).into_iter().take(packet).collect();
            if !ok || tokens.is_empty() {
                continue;
            }
            links.insert((u.min(v), u.max(v)));
            sending[u] = true;
            receiving[v] = true;
            busy[u] = true;
            busy[v] = true;
            if mode == Mode::Move {
                taken.extend(tokens.iter().copied());
            }
            let ids = match mode {
                Mode::Move => tokens.iter().map(|&i| packets[i].id).collect(),
                Mode::Copy => tokens.clone(),
            };
            step.push((a, tokens, Transmission { from: u, to: v, tokens: ids }));
        }
        for (a, tokens, _) in &step {
            let (_, v) = net.arcs()[*a];
            for &t in tokens {
                match mode {
                    Mode::Move => at[t] = v,
                    Mode::Copy => has[v][t] = true,
                }
            }
        }
        steps.push(step.into_iter().map(|(_, _, t)| t).collect());
    }
}

/// Greedy bufferless schedule: messages in order, each at its earliest start that collides
/// with nothing placed (arc rule; port rule under single-port; virtual: whole path occupied).
/// Returns the starts and the SPEC length.
fn greedy_bufferless(inst: &Instance, messages: &[Message]) -> (Vec<Start>, u64) {
    let Model::Bufferless { port, virtual_schedule, .. } = inst.model else { panic!("bufferless only") };
    let arcs = inst.network.arcs();
    let mut used: HashSet<(u8, usize, i64)> = HashSet::new();
    let mut starts = Vec::new();
    let mut length = 0;
    for m in messages {
        let len = m.len as i64;
        let cells = |s: i64| -> Vec<(u8, usize, i64)> {
            let mut c = Vec::new();
            for (k, &a) in m.arcs.iter().enumerate() {
                let first = if virtual_schedule { s } else { s + k as i64 };
                for t in first..first + len {
                    c.push((0, a, t));
                    if port == Port::Single && !virtual_schedule {
                        c.push((1, arcs[a].0, t));
                        c.push((2, arcs[a].1, t));
                    }
                }
            }
            c
        };
        let s = (1..).find(|&s| cells(s).iter().all(|c| !used.contains(c))).unwrap();
        used.extend(cells(s));
        starts.push(Start { msg: m.id, start: s });
        let end = if virtual_schedule { s + len - 1 } else { s + len + m.arcs.len() as i64 - 2 };
        length = length.max(end as u64);
    }
    (starts, length)
}

/// Distributed gather, sequentially: the root wakes every PE in turn (one-flit wake-ups along
/// the tree), then each message is sent alone. Valid under the distributed rules (every PE is
/// woken, only the root originates control messages, every PE dispatches after all control
/// flits). Returns the schedule and its length Σ δ + Σ (L + δ − 1).
fn sequential_distributed_gather(inst: &Instance, messages: &[Message]) -> (Schedule, u64) {
    let depth = inst.network.distances_from(0);
    let mut t = 1i64;
    let mut control = Vec::new();
    for (v, &d) in depth.iter().enumerate().skip(1) {
        control.push(Control {
            kind: ControlKind::WakeUp,
            from: 0,
            to: v,
            start: t,
            value: None,
            value2: None,
        });
        t += d as i64;
    }
    let mut starts = Vec::new();
    for m in messages {
        starts.push(Start { msg: m.id, start: t });
        t += (m.len + m.arcs.len() as u64 - 1) as i64;
    }
    (Schedule::Bufferless { starts, control }, (t - 1) as u64)
}

/// A schedule that is valid by construction for the instance, and its length.
fn valid_schedule(inst: &Instance) -> (Schedule, u64) {
    match (&inst.model, &inst.problem) {
        (Model::StoreForward { .. }, _) => {
            let steps = greedy_store_forward(inst);
            let length = steps.len() as u64;
            (Schedule::StoreForward(steps), length)
        }
        (Model::Bufferless { gather: GatherMode::Distributed, .. }, Problem::Gather(_)) => {
            sequential_distributed_gather(inst, &inst.messages().unwrap())
        }
        (Model::Bufferless { virtual_schedule, .. }, _) => {
            let (starts, length) = greedy_bufferless(inst, &inst.messages().unwrap());
            let sched = if *virtual_schedule {
                Schedule::Virtual(starts)
            } else {
                Schedule::Bufferless { starts, control: Vec::new() }
            };
            (sched, length)
        }
        (Model::FatTree { .. }, _) => panic!("fat-tree schedules are built in their own tests"),
        (Model::Collective { .. }, _) => panic!("collective schedules are built in their own tests"),
    }
}

/// Every bound is at most the length of the instance's valid schedule; with `check`, the
/// checker must also admit that schedule with that length.
fn bounds_below_a_valid_schedule(inst: &Instance, check: bool) -> Result<(), TestCaseError> {
    let (sched, length) = valid_schedule(inst);
    if check {
        let verdict = checker::check(inst, &sched);
        prop_assert_eq!(verdict.admissible().map(|c| c.length()), Some(length), "{:?}", verdict.violations());
    }
    assert_all_at_most(inst, length)
}

fn strongly_connected() -> impl Strategy<Value = Network> {
    prop_oneof![
        (2usize..8).prop_map(|n| Network::new(Family::Path(n)).unwrap()),
        (3usize..8).prop_map(|n| Network::new(Family::Ring(n)).unwrap()),
        (3usize..6).prop_map(|n| Network::new(Family::URing(n)).unwrap()),
        (1usize..4, 2usize..4).prop_map(|(r, c)| Network::new(Family::Mesh(r, c)).unwrap()),
        (3usize..5, 3usize..4).prop_map(|(r, c)| Network::new(Family::Torus(r, c)).unwrap()),
        tree_strategy(8).prop_map(|p| Network::new(Family::Tree(p)).unwrap()),
    ]
}

fn any_network() -> impl Strategy<Value = Network> {
    prop_oneof![
        strongly_connected(),
        (2usize..7).prop_map(|n| Network::new(Family::Ula(n)).unwrap()),
        (2usize..4).prop_map(|n| Network::new(Family::Esm(n)).unwrap()),
    ]
}

fn rule() -> impl Strategy<Value = PortRule> {
    prop::sample::select(PortRule::ALL.to_vec())
}

/// Total exchange (full or a random demand matrix), any rule and packet size.
fn total_exchange_case() -> impl Strategy<Value = Instance> {
    (strongly_connected(), rule(), 1usize..4, any::<bool>(), prop::collection::vec(any::<bool>(), 64))
        .prop_map(|(network, rule, p, full, bits)| {
            let n = network.len();
            let demand = (!full).then(|| {
                (0..n).map(|u| (0..n).map(|v| u != v && bits[(u * n + v) % 64]).collect()).collect()
            });
            let model = Model::StoreForward { rule, mode: Mode::Move, packet: p };
            Instance::new("te", network, Problem::TotalExchange(demand), model, RingTie::Clockwise, "<t>")
                .unwrap()
        })
}

/// Gossip, any rule and packet size.
fn gossip_case() -> impl Strategy<Value = Instance> {
    (strongly_connected(), rule(), 1usize..4).prop_map(|(network, rule, p)| {
        let model = Model::StoreForward { rule, mode: Mode::Copy, packet: p };
        Instance::new("gossip", network, Problem::Gossip, model, RingTie::Clockwise, "<t>").unwrap()
    })
}

/// Chatting on any network (messages whose atlas path exists), both port rules, bufferless
/// and virtual.
fn chatting_case() -> impl Strategy<Value = Option<Instance>> {
    let raw =
        prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 1i64..5), 1..7);
    (any_network(), any::<bool>(), any::<bool>(), raw).prop_map(|(network, single, virt, raw)| {
        let n = network.len();
        let msgs: Vec<MessageSpec> = raw
            .iter()
            .map(|(a, b, l)| (a.index(n), b.index(n), *l))
            .filter(|&(s, d, _)| s != d && network.default_path(s, d, RingTie::Clockwise).is_some())
            .map(|(src, dst, length)| MessageSpec { src, dst, length, path: None })
            .collect();
        let port = if single { Port::Single } else { Port::Multi };
        let model = Model::Bufferless { port, virtual_schedule: virt, gather: GatherMode::Centralized };
        (!msgs.is_empty()).then(|| {
            Instance::new("chat", network, Problem::Chatting(msgs), model, RingTie::Clockwise, "<t>").unwrap()
        })
    })
}

/// Scatter and gather on trees, both port rules, centralized and distributed.
fn scatter_gather_case() -> impl Strategy<Value = Instance> {
    let flags = (any::<bool>(), any::<bool>(), any::<bool>());
    (tree_strategy(8), prop::collection::vec(0u64..4, 8), flags).prop_map(
        |(parents, seed, (single, scatter, distributed))| {
            let network = Network::new(Family::Tree(parents.clone())).unwrap();
            let mut lengths = vec![0];
            lengths.extend((1..parents.len()).map(|i| seed[i % seed.len()]));
            let problem = if scatter { Problem::Scatter(lengths) } else { Problem::Gather(lengths) };
            let port = if single { Port::Single } else { Port::Multi };
            let gather = if distributed { GatherMode::Distributed } else { GatherMode::Centralized };
            let model = Model::Bufferless { port, virtual_schedule: false, gather };
            Instance::new("sg", network, problem, model, RingTie::Clockwise, "<t>").unwrap()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn total_exchange_bounds_below_greedy(inst in total_exchange_case()) {
        bounds_below_a_valid_schedule(&inst, false)?;
    }

    #[test]
    fn gossip_bounds_below_greedy(inst in gossip_case()) {
        bounds_below_a_valid_schedule(&inst, false)?;
    }

    #[test]
    fn chatting_bounds_below_greedy(inst in chatting_case()) {
        prop_assume!(inst.is_some());
        bounds_below_a_valid_schedule(&inst.unwrap(), false)?;
    }

    #[test]
    fn scatter_gather_bounds_below_valid_schedules(inst in scatter_gather_case()) {
        bounds_below_a_valid_schedule(&inst, false)?;
    }

    // The same, with the checker confirming each schedule and its length.

    #[test]
    fn total_exchange_greedy_passes_the_checker(inst in total_exchange_case()) {
        bounds_below_a_valid_schedule(&inst, true)?;
    }

    #[test]
    fn gossip_greedy_passes_the_checker(inst in gossip_case()) {
        bounds_below_a_valid_schedule(&inst, true)?;
    }

    #[test]
    fn chatting_greedy_passes_the_checker(inst in chatting_case()) {
        prop_assume!(inst.is_some());
        bounds_below_a_valid_schedule(&inst.unwrap(), true)?;
    }

    #[test]
    fn scatter_gather_schedules_pass_the_checker(inst in scatter_gather_case()) {
        bounds_below_a_valid_schedule(&inst, true)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Fat-tree schedules through the checker

#[test]
fn naive_fat_tree_broadcast_passes_the_checker() {
    // FT-3: in round h (h = log N .. 1) every holder P_f, f a multiple of 2^h, sends to
    // P_{f + 2^(h−1)}; the round lasts 2h steps.
    for lg in 1..=6u32 {
        let n = 1usize << lg;
        let mut sends = Vec::new();
        let mut step = 1i64;
        for h in (1..=lg).rev() {
            for f in (0..n).step_by(1 << h) {
                sends.push(FatTreeSend { step, from: f, to: f + (1 << (h - 1)), payload: [0, 0] });
            }
            step += 2 * i64::from(h);
        }
        let inst = fat_tree_instance("broadcast", n as u64, &Capacity::Constant { value: 1 }, true);
        let verdict = checker::check(&inst, &Schedule::FatTree(sends));
        let length = verdict.admissible().expect("admissible").length();
        assert_eq!(length, u64::from(lg * (lg + 1)));
        assert!(bounds::lower_bounds(&inst).iter().all(|b| b.value <= length));
    }
}
