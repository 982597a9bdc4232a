//! The collective model (docs/spec.md §2.4, §3.6, §4.4): networks with bandwidths and switch
//! groups, the checker's diagnoses, SCCL's own test rows decided by every backend in the build,
//! the algorithms, and properties over random weighted graphs.

use crate::common::{checked, verdict_text};
use commsched::bounds;
use commsched::checker::{Producer, Rule, accept, check};
use commsched::exact::{self, BackendKind, Decision, SolveOptions};
use commsched::heuristics;
use commsched::spec::io::parse_instance;
use commsched::spec::{Instance, Network, Schedule, Transmission};
use proptest::prelude::*;

fn instance(problem: &str, network: &str, chunks: usize, rounds: Option<u64>) -> Instance {
    let budget = rounds.map_or(String::new(), |r| format!("rounds = {r}\n"));
    let text = format!(
        "problem = \"{problem}\"\nnetwork = \"{network}\"\nchunks = {chunks}\n[model]\nkind = \"collective\"\n{budget}"
    );
    parse_instance(&text, "<test>", &format!("{problem}-{network}")).unwrap()
}

fn tr(from: usize, to: usize, tokens: &[usize]) -> Transmission {
    Transmission { from, to, tokens: tokens.to_vec() }
}

/// Decides (S, R) = (steps, rounds) with every backend of the build; a feasible answer carries
/// a witness the checker accepts within S steps.
fn decide_everywhere(inst: &Instance, steps: u64) -> bool {
    let mut answers = Vec::new();
    for backend in BackendKind::available() {
        let answer = match exact::decide(inst, backend, steps, &SolveOptions::default()).unwrap() {
            Decision::Feasible(witness) => {
                assert!(checked(inst, witness.schedule()) <= steps, "{} with {backend}", inst.name);
                true
            }
            Decision::Infeasible => false,
            Decision::Unknown(stop) => panic!("{} with {backend}: undecided ({stop:?})", inst.name),
        };
        answers.push((backend, answer));
    }
    assert!(answers.windows(2).all(|w| w[0].1 == w[1].1), "{}: backends disagree: {answers:?}", inst.name);
    answers[0].1
}

/// SCCL's `tests/test_path_encoding.py` rows (msccl-tools, MIT licence), `Instance(S, chunks=C)`
/// meaning R = S: FullyConnected(2) allgather with C = 2 needs 2 steps; the DGX-1 allgather and
/// reduce-scatter need 2; and Line(3) alltoall and Ring(4) allgather fit their distance bound 2.
#[test]
fn sccls_own_rows_agree() {
    let fc2 = |s| instance("allgather", "fully-connected:2", 2, Some(s));
    assert!(!decide_everywhere(&fc2(1), 1));
    assert!(decide_everywhere(&fc2(2), 2));
    let dgx1 = |s| instance("allgather", "dgx1", 1, Some(s));
    assert!(!decide_everywhere(&dgx1(1), 1));
    assert!(decide_everywhere(&dgx1(2), 2));
    let line3 = |s| instance("alltoall", "path:3", 1, Some(s));
    assert!(!decide_everywhere(&line3(1), 1));
    assert!(decide_everywhere(&line3(2), 2));
    assert!(decide_everywhere(&instance("allgather", "ring:4", 1, Some(2)), 2));
    // DGX-1 ReduceScatter, solved as its non-combining dual (an allgather on the reversed
    // network), its witness run backwards and checked as a combining schedule.
    let reduce_scatter = |s| instance("reduce-scatter", "dgx1", 1, Some(s));
    assert!(!decide_everywhere(&reduce_scatter(1), 1));
    assert!(decide_everywhere(&reduce_scatter(2), 2));
}

/// HubAndSpoke(6) allgather fits one step with 5 rounds and not with 4 (every node receives 5
/// chunks through its one-per-round switch): the bound refuses R = 4 before any solver runs.
#[test]
fn hub_and_spoke_needs_one_round_per_received_chunk() {
    let five = instance("allgather", "hub-and-spoke:6", 1, Some(5));
    assert!(decide_everywhere(&five, 1));
    let four = instance("allgather", "hub-and-spoke:6", 1, Some(4));
    let err =
        exact::solve(&four, BackendKind::Ilp, &SolveOptions::default(), &bounds::lower_bounds(&four), None)
            .unwrap_err()
            .to_string();
    assert!(err.contains("node 0 receives 5 chunks, at most 1 per round, so it needs 5 rounds"), "{err}");
}

#[test]
fn the_checker_names_rule_step_place_and_chunks() {
    let inst = instance("allgather", "fully-connected:3", 1, Some(2));
    let ok = Schedule::Collective {
        steps: vec![vec![
            tr(0, 1, &[0]),
            tr(0, 2, &[0]),
            tr(1, 0, &[1]),
            tr(1, 2, &[1]),
            tr(2, 0, &[2]),
            tr(2, 1, &[2]),
        ]],
        rounds: vec![1],
    };
    assert_eq!(checked(&inst, &ok), 1);
    let bad = Schedule::Collective {
        steps: vec![
            vec![tr(0, 1, &[0, 1]), tr(1, 2, &[1])],
            vec![tr(1, 2, &[1])],
            vec![tr(1, 2, &[0]), tr(0, 2, &[7])],
        ],
        rounds: vec![1, 1, 1],
    };
    let verdict = check(&inst, &bad);
    let rules: Vec<Rule> = verdict.violations().iter().map(|v| v.rule).collect();
    assert_eq!(
        rules,
        [
            Rule::BandwidthRule,
            Rule::NotHeld,
            Rule::ReceiveOnce,
            Rule::ReceiveOnce,
            Rule::UnknownItem,
            Rule::RoundBudget,
            Rule::Incomplete,
            Rule::Incomplete
        ],
        "{}",
        verdict_text(&verdict)
    );
    let text = verdict_text(&verdict);
    assert!(
        text.contains(
            "bandwidth rule: step 1, arc (0,1) carries 2 chunks, more than bandwidth 1 x 1 round = 1"
        )
    );
    assert!(text.contains("receive once: step 2, node 2 receives chunk 1 a second time (from node 1)"));
    assert!(
        text.contains("round budget: schedule uses 3 rounds over its 3 steps, more than the budget R = 2")
    );
}

/// A switch group caps what its sources send to its destinations, counted per pair.
#[test]
fn switch_groups_share_one_budget() {
    let inst = instance("broadcast", "hub-and-spoke:3", 1, Some(1));
    let multicast =
        Schedule::Collective { steps: vec![vec![tr(0, 1, &[0]), tr(0, 2, &[0])]], rounds: vec![1] };
    let text = verdict_text(&check(&inst, &multicast));
    assert!(text.contains("bandwidth rule: step 1, switch `node_0_out` carries 2 chunks, more than bandwidth 1 x 1 round = 1"), "{text}");
    let two_rounds = instance("broadcast", "hub-and-spoke:3", 1, Some(2));
    let multicast =
        Schedule::Collective { steps: vec![vec![tr(0, 1, &[0]), tr(0, 2, &[0])]], rounds: vec![2] };
    assert_eq!(checked(&two_rounds, &multicast), 1);
}

/// The algorithms on SCCL's machines: every schedule checked, none below a bound, and the
/// lengths the checker measures (one round per step; the DGX-1 optimum is 2, `sccls_own_rows_agree`).
#[test]
fn the_algorithms_on_sccls_machines() {
    let expect = [
        ("dgx1", "ring", 7),
        ("dgx1", "recursive-doubling", 4),
        ("dgx1", "shortest-path-trees", 3),
        ("fully-connected:4", "direct", 1),
        ("hub-and-spoke:6", "ring", 5),
        ("amd4", "recursive-doubling", 2),
    ];
    for (net, method, length) in expect {
        let inst = instance("allgather", net, 1, None);
        let m = heuristics::find(method).unwrap();
        let c = accept(&inst, m.produce(&inst).unwrap(), Producer::Algorithm(m.name)).unwrap();
        assert_eq!(c.length(), length, "{method} on {net}");
        assert!(bounds::lower_bounds(&inst).iter().all(|b| b.value <= length), "{method} on {net}");
    }
}

#[test]
fn topology_files_and_explicit_tables_load() {
    let table = "problem = \"allgather\"\n[network]\nnodes = 3\nlinks = [[0, 1, 2], [1, 2]]\narcs = [[2, 0]]\n\
                 [[network.switches]]\nsources = [0]\ndestinations = [1, 2]\nbandwidth = 1\n";
    let inst = parse_instance(table, "t.toml", "t").unwrap();
    let net = &inst.network;
    assert_eq!(net.arcs().len(), 5);
    assert_eq!(net.bandwidth(net.arc(1, 0).unwrap()), 2);
    assert!(net.arc(0, 2).is_none());
    assert_eq!(net.switches()[0].name, "switch 0");
    let round_trip = commsched::spec::io::instance_to_toml(&inst);
    assert_eq!(parse_instance(&round_trip, "rt.toml", "t").unwrap().network, inst.network);
    let err = |text: &str| parse_instance(text, "t.toml", "t").unwrap_err().to_string();
    assert!(
        err("problem = \"allgather\"\n[network]\nnodes = 2\nlinks = [[0, 2]]\n")
            .contains("t.toml: field `network.links[0]`: node 2 is unknown")
    );
    assert!(
        err("problem = \"allgather\"\n[network]\nnodes = 2\nlinks = [[0, 1, -1]]\n").contains("bandwidth -1")
    );
    assert!(err("problem = \"allgather\"\n[network]\nnodes = 2\nlinks = [[1, 1]]\n").contains("self-link"));
    assert!(
        err("problem = \"allgather\"\n[network]\nnodes = 3\nlinks = [[0, 1]]\n")
            .contains("chunk 0 of the allgather cannot reach rank 2")
    );
    assert!(err("problem = \"gossip\"\nnetwork = \"dgx1\"\n").contains("only the collective model reads"));
}

fn random_network() -> impl Strategy<Value = Network> {
    (3usize..5).prop_flat_map(|n| {
        proptest::collection::vec((0..n, 0..n, 1u64..3), n..3 * n).prop_map(move |extra| {
            // A ring keeps it strongly connected; extra arcs with bandwidths 1..2.
            let mut arcs: Vec<(usize, usize, u64)> = (0..n).map(|u| (u, (u + 1) % n, 1)).collect();
            for (u, v, b) in extra {
                if u != v && !arcs.iter().any(|a| (a.0, a.1) == (u, v)) {
                    arcs.push((u, v, b));
                }
            }
            Network::weighted(n, arcs, Vec::new()).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// On random weighted graphs, for every collective including the reductions: every
    /// algorithm's schedule passes the checker, no bound exceeds the certified optimum (the
    /// reductions' from their duals), and the backends agree on it.
    #[test]
    fn random_weighted_graphs(net in random_network(), kind in 0usize..6, pieces in 1usize..3) {
        let problem = ["allgather", "alltoall", "broadcast", "reduce-scatter", "reduce", "allreduce"][kind];
        let chunks = if problem == "alltoall" { 1 } else { pieces };
        let inst = Instance::new(
            "random",
            net,
            commsched::spec::Problem::Collective(commsched::spec::Collective {
                kind: commsched::spec::CollectiveKind::parse(problem).unwrap(),
                chunks,
                root: 0,
            }),
            commsched::spec::Model::Collective { rounds: None },
            Default::default(),
            "<random>",
        ).unwrap();
        let mut best = u64::MAX;
        for m in heuristics::for_instance(&inst) {
            let c = accept(&inst, m.produce(&inst).unwrap(), Producer::Algorithm(m.name)).unwrap();
            best = best.min(c.length());
        }
        let bound = bounds::best(&inst).map_or(0, |b| b.value);
        let mut optima = Vec::new();
        // Allreduce has no encoder: its algorithms' schedules are checked above.
        let backends = if problem == "allreduce" { Vec::new() } else { BackendKind::available() };
        for backend in backends {
            let outcome = exact::solve(&inst, backend, &SolveOptions::default(), &bounds::lower_bounds(&inst), None).unwrap();
            let exact::Outcome::Optimal { checked, .. } = outcome else { panic!("{backend}: {outcome:?}") };
            optima.push(checked.length());
        }
        prop_assert!(optima.windows(2).all(|w| w[0] == w[1]), "backends disagree: {optima:?}");
        let optimum = optima.first().copied().unwrap_or(best);
        prop_assert!(bound <= optimum && optimum <= best, "bound {bound}, optimum {optimum}, best algorithm {best}");
    }
}

/// Topology JSON written by msccl-tools itself (tests/data/topologies/README.md) loads
/// unchanged, `links[dst][src]`, and equals the registry's machine where there is one.
#[test]
fn msccl_tools_topology_files_load_unchanged() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/topologies");
    let load = |file: &str| commsched::spec::topology::load_topology(&dir.join(file)).unwrap();
    for (file, name) in [
        ("dgx1.json", "dgx1"),
        ("amd4.json", "amd4"),
        ("amd8.json", "amd8"),
        ("hub_and_spoke_4.json", "hub-and-spoke:4"),
    ] {
        assert_eq!(load(file), Network::parse(name).unwrap(), "{file}");
    }
    let star = load("star_4_blocking.json");
    assert_eq!((star.arcs().len(), star.switches().len()), (6, 2));
    assert_eq!(star.switches()[0].name, "to_points");
    let two_dgx1 = load("dgx1_x2_fully_connected.json");
    assert_eq!((two_dgx1.len(), two_dgx1.arcs().len()), (16, 192));
    assert_eq!(two_dgx1.bandwidth(two_dgx1.arc(0, 1).unwrap()), 2);
    assert_eq!(two_dgx1.diameter(), (2, true));
}

/// TACOS's link-chunk matching (`tacos-greedy`, MICRO 2024 §4) against the ingress bound
/// ⌈C·(N − 1)/in-degree⌉, the receive-bandwidth bound: met on every square mesh n = 3..8 with
/// C = 1..4 (the corner, in-degree 2, decides it), within one step on the square tori, and
/// measured further off on elongated tori (docs/results.md). Every schedule is checked.
#[test]
fn tacos_greedy_meets_the_ingress_bound_on_square_meshes_and_one_above_it_on_square_tori() {
    let tacos = heuristics::find("tacos-greedy").unwrap();
    for n in 3..=8 {
        for chunks in 1..=4 {
            for (family, slack) in [("mesh", 0), ("torus", 1)] {
                let inst = instance("allgather", &format!("{family}:{n}x{n}"), chunks, None);
                let (_, need, per_round, ingress) = bounds::collective::rounds_needed(&inst).unwrap();
                assert_eq!(need, (chunks * (n * n - 1)) as u64);
                assert_eq!(per_round, if family == "mesh" { 2 } else { 4 });
                let length = checked(&inst, &tacos.produce(&inst).unwrap());
                assert!(
                    (ingress..=ingress + slack).contains(&length),
                    "{family}:{n}x{n} C={chunks}: {length} against the ingress bound {ingress}"
                );
            }
        }
    }
    // The torus 4x4 at C = 2 and 4 meets it (8, 15); the elongated 3x7 at C = 4 does not (29 > 20).
    for (net, chunks, expect) in [("torus:4x4", 2, 8), ("torus:4x4", 4, 15), ("torus:3x7", 4, 29)] {
        let inst = instance("allgather", net, chunks, None);
        assert_eq!(checked(&inst, &tacos.produce(&inst).unwrap()), expect, "{net} C={chunks}");
    }
}

/// The matching never relays, so it applies only where every chunk is for every node; the
/// reductions run as their duals backwards, and an allreduce composes the two.
#[test]
fn tacos_greedy_runs_reductions_as_duals_and_refuses_an_alltoall() {
    let tacos = heuristics::find("tacos-greedy").unwrap();
    // The reduce-scatter meets its receive bound 8 as the allgather does; the allreduce is the
    // two halves, 8 + 8; the broadcast and reduce of 2 chunks take one step above the distance 4.
    for (problem, expect) in [("reduce-scatter", 8), ("allreduce", 16), ("broadcast", 5), ("reduce", 5)] {
        let inst = instance(problem, "torus:4x4", 2, None);
        assert_eq!(checked(&inst, &tacos.produce(&inst).unwrap()), expect, "{problem}");
    }
    let reason = tacos.applies(&instance("alltoall", "torus:4x4", 1, None)).unwrap_err();
    assert!(reason.contains("never relays"), "{reason}");
}
