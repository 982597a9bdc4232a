//! Exact optima of bufferless start-time schedules (docs/spec.md §4.1): chatting (paper 000,
//! real and virtual) and scatter / centralized gather (paper 001), from the `*-starts` encoders.
//!
//! Each optimum is certified by the encoder alone: every available backend finds a checked
//! schedule at the value (`exact::decide`) and proves the model one step shorter infeasible, so no
//! lower bound of `bounds` takes part. The values are the papers': CHAT-14 (unit-length ULA:
//! S_opt = C), SG-4 (the FDF scatter optimum) and its time reversal for centralized gather.

use super::common::{assert_backend_optimum, checked as checked_length};
use commsched::bounds::scatter_gather::fdf_length;
use commsched::exact::{self, BackendKind, SolveOptions};
use commsched::spec::io::{load_instance, parse_instance};
use commsched::spec::{Instance, Message};
use proptest::prelude::*;
use std::path::PathBuf;

fn paper_instance(file: &str) -> Instance {
    load_instance(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("instances").join(file)).unwrap()
}

/// (depth, length) of every message: its path's arcs and its flits, for [`fdf_length`].
fn depths_and_lengths(messages: &[Message]) -> Vec<(u64, u64)> {
    messages.iter().map(|m| (m.arcs.len() as u64, m.len)).collect()
}

/// A scatter or gather instance on `network` with lengths L_1..L_n, single-port, centralized.
fn tree_instance(problem: &str, network: &str, lengths: &[u64]) -> Instance {
    let text = format!(
        "problem = \"{problem}\"\nnetwork = \"{network}\"\nlengths = {lengths:?}\n[model]\nkind = \"bufferless\"\nport = \"single\"\ngather = \"centralized\""
    );
    parse_instance(&text, "<test>", &format!("{problem}-{network}")).unwrap()
}

/// CHAT-14 (paper 000 §4.1, Theorem 4.4): on a unit-length ULA the virtual optimum S_opt equals
/// the congestion C, the most messages over one arc; `ula8-sec41` has C = 4.
#[test]
fn chat_14_unit_ula_virtual_optimum_is_the_congestion() {
    let inst = paper_instance("000/ula8-sec41.toml");
    let messages = inst.messages().unwrap();
    let congestion = (0..inst.network.arcs().len())
        .map(|a| messages.iter().filter(|m| m.arcs.contains(&a)).map(|m| m.len).sum::<u64>())
        .max()
        .unwrap();
    assert_eq!(congestion, 4);
    for backend in BackendKind::available() {
        assert_backend_optimum(&inst, backend, congestion);
    }
}

/// SG-4 (paper 001 §2, Theorem 1): Fig. 1(a)'s scatter optimum is the FDF length, 10.
#[test]
fn sg_4_fig_1a_scatter_optimum_is_fdf() {
    let inst = paper_instance("001/scatter-fig1a.toml");
    let fdf = fdf_length(depths_and_lengths(&inst.messages().unwrap()));
    assert_eq!(fdf, 10);
    for backend in BackendKind::available() {
        assert_backend_optimum(&inst, backend, fdf);
    }
}

/// Centralized gather with Fig. 2's lengths (paper 001 §3; L = 2, 3, 0, 2, 1 on P_1..P_5): any
/// start times, so the optimum is the time reversal of the FDF scatter, 8 = ΣL (the root
/// receives one flit per step), three steps below the distributed Fig. 2 schedule's 11.
#[test]
fn centralized_gather_on_fig_2_lengths_is_the_reversed_fdf() {
    let inst = tree_instance("gather", "path:6", &[2, 3, 0, 2, 1]);
    let fdf = fdf_length(depths_and_lengths(&inst.messages().unwrap()));
    assert_eq!(fdf, 8);
    for backend in BackendKind::available() {
        assert_backend_optimum(&inst, backend, fdf);
    }
}

/// SG-8 (paper 001 §3, inequality (5)): with the wake-up calls as real messages, the
/// distributed-gather optimum of Figs. 2 and 4 (L = 2, 3, 0, 2, 1) is 11 and of Fig. 3
/// (L = 9, 0, 1, 0, 1) is 13: the dispatch bound of (5) (SG-8), so Shoulder-Tap (Figs. 2, 3,
/// SG-29, SG-30) is optimal there and Fig. 4's 21 steps are 10 over the optimum. Certified by
/// the encoder alone.
#[test]
fn sg_8_distributed_gather_optima_of_figs_2_to_4() {
    for (file, optimum) in
        [("001/gather-fig2.toml", 11), ("001/gather-fig3.toml", 13), ("001/gather-fig4.toml", 11)]
    {
        let inst = paper_instance(file);
        let dispatch = commsched::bounds::lower_bounds(&inst)
            .into_iter()
            .find(|b| b.name == "gather dispatch (5)")
            .expect("the SG-8 bound applies");
        assert_eq!(dispatch.value, optimum, "{file}");
        for backend in BackendKind::available() {
            assert_backend_optimum(&inst, backend, optimum);
        }
    }
}

fn tree_strategy(max: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<prop::sample::Index>(), 1..max)
        .prop_map(|ix| ix.iter().enumerate().map(|(i, x)| x.index(i + 1)).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// SG-4 (paper 001 Theorem 1): on random trees of up to 8 nodes with lengths ≤ 3, the
    /// encoder's certified single-port scatter optimum is the FDF length.
    #[test]
    fn sg_4_certified_scatter_optimum_is_fdf(parents in tree_strategy(8), seed in prop::collection::vec(0u64..4, 7)) {
        let network = format!("tree:{}", parents.iter().map(ToString::to_string).collect::<Vec<_>>().join(","));
        let lengths: Vec<u64> = (0..parents.len()).map(|i| seed[i]).collect();
        prop_assume!(lengths.iter().any(|&l| l > 0));
        let inst = tree_instance("scatter", &network, &lengths);
        let fdf = fdf_length(depths_and_lengths(&inst.messages().unwrap()));
        assert_backend_optimum(&inst, BackendKind::Ilp, fdf);
    }
}

/// Reach of the start-time encoder alone (no lower bound, no incumbent: the search gallops
/// from 0 and must prove T* − 1 infeasible itself), ILP, 30 s per instance, on random ULA
/// chatting instances (8 nodes; 6, 9, 12 messages; lengths 1..=4; real and virtual) and random
/// trees (8, 10, 12 nodes; lengths 0..=4; scatter and centralized gather). Prints a table; asserts
/// only that every answer is checked. Run with
/// `cargo test --release -- --ignored measure_bufferless_reach --nocapture`.
#[test]
#[ignore = "measurement, prints timings"]
fn measure_bufferless_reach() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |bound: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % bound
    };
    let mut cases = Vec::new();
    for m in [6, 9, 12] {
        for virtual_schedule in [false, true] {
            let mut text = format!(
                "problem = \"chatting\"\nnetwork = \"ula:8\"\n[model]\nkind = \"bufferless\"\nvirtual = {virtual_schedule}\n"
            );
            for _ in 0..m {
                let src = next(7);
                let dst = src + 1 + next(7 - src);
                text += &format!("[[messages]]\nsrc = {src}\ndst = {dst}\nlength = {}\n", 1 + next(4));
            }
            let name = format!("ula:8 m={m} {}", if virtual_schedule { "virtual" } else { "real" });
            cases.push(parse_instance(&text, "<measure>", &name).unwrap());
        }
    }
    for n in [8u64, 10, 12] {
        let parents: Vec<String> = (1..n).map(|v| next(v).to_string()).collect();
        let lengths: Vec<u64> = (1..n).map(|_| next(5)).collect();
        for problem in ["scatter", "gather"] {
            let mut inst = tree_instance(problem, &format!("tree:{}", parents.join(",")), &lengths);
            inst.name = format!("tree n={n} {problem}");
            cases.push(inst);
        }
    }
    let options =
        SolveOptions { timeout: Some(std::time::Duration::from_secs(30)), ..SolveOptions::default() };
    println!("{:<24} {:>8} {:>10} {:>9}  outcome", "instance", "messages", "variables", "seconds");
    for inst in &cases {
        let started = std::time::Instant::now();
        let outcome = exact::solve(inst, BackendKind::Ilp, &options, &[], None).unwrap();
        let seconds = started.elapsed().as_secs_f64();
        let (text, horizon) = match &outcome {
            exact::Outcome::Optimal { checked, certificate } => {
                assert_eq!(checked_length(inst, checked.schedule()), checked.length());
                (format!("optimal {} ({certificate})", checked.length()), checked.length())
            }
            exact::Outcome::Bounds { lower, upper, stop } => {
                let upper = upper.as_ref().map(|c| c.length());
                (format!("bounds [{lower}, {upper:?}] ({stop})"), upper.unwrap_or(*lower))
            }
        };
        let (_, encoder) = exact::encode::encoder_for(inst).unwrap();
        let messages = inst.messages().unwrap().len();
        println!(
            "{:<24} {messages:>8} {:>10} {seconds:>9.2}  {text}",
            inst.name,
            encoder.variables(horizon, exact::encode::Variant::Full)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every single-port distributed-gather bound, the wake-up ports bound included, is at most
    /// the optimum the encoder proves with no bound to help it (random trees of 2..=8 nodes,
    /// lengths 0..3); the encoder agrees with exhaustive search on the tiny instances.
    #[test]
    fn distributed_gather_bounds_are_at_most_the_optimum(
        parents in (1usize..8).prop_flat_map(|e| proptest::collection::vec(any::<proptest::sample::Index>(), e)),
        lengths in proptest::collection::vec(0u64..4, 7),
    ) {
        let parents: Vec<String> = parents.iter().enumerate().map(|(k, x)| x.index(k + 1).to_string()).collect();
        let lengths: Vec<String> = lengths[..parents.len()].iter().map(u64::to_string).collect();
        let inst = parse_instance(
            &format!(
                "problem = \"gather\"\nnetwork = \"tree:{}\"\nlengths = [{}]\n[model]\nport = \"single\"\n\
                 gather = \"distributed\"\n",
                parents.join(","),
                lengths.join(", ")
            ),
            "<test>",
            "tree",
        )
        .unwrap();
        // The encoder's measured backend: microlp alone can take minutes on an unlucky tree.
        let backend = exact::BackendChoice::Measured.resolve(&inst);
        let optimum = match exact::solve(&inst, backend, &SolveOptions::default(), &[], None).unwrap() {
            exact::Outcome::Optimal { checked, .. } => checked_length(&inst, checked.schedule()),
            other => panic!("{}: {other:?}", inst.network),
        };
        for b in commsched::bounds::lower_bounds(&inst) {
            prop_assert!(b.value <= optimum, "{} on {}: {} > optimum {optimum}", b.name, inst.network, b.value);
        }
    }
}
