//! Compact schedules (docs/spec.md §5.4): total exchange held as per-packet itineraries.
//!
//! * Producers: the closed form (5) of furthest-first on the linear array (TE-10) and the
//!   node-invariant window simulation on rings (Lemma 3, TE-15) emit exactly the hops of the
//!   full queue simulation.
//! * Checker: on random itineraries, valid and broken, the itinerary checker and the explicit
//!   store-and-forward checker (run on the expanded steps) agree on admissibility and, when
//!   admissible, on length, events and link use, under every port rule.
//! * CLI: beyond `--max-events` the registered algorithms switch to itineraries with the same
//!   checked lengths, and what cannot be held that way is refused with the flag to raise.

use super::common::checked;
use commsched::checker::{Rule, Verdict, check};
use commsched::heuristics::total_exchange::furthest_first::furthest_first_closed_form;
use commsched::heuristics::total_exchange::queue_sim::{run, run_node_invariant};
use commsched::heuristics::total_exchange::{
    ClosestFirst, Fifo, FurthestFirst, InitialOrder, Tie, furthest_first, split_itineraries,
};
use commsched::rng::SplitMix64;
use commsched::spec::{
    Direction, Instance, Itineraries, Mode, Model, Network, PortRule, Problem, RingTie, Schedule,
    Transmission,
};
use proptest::prelude::*;
use std::process::Command;

fn te(network: &str, rule: PortRule) -> Instance {
    Instance::new(
        network,
        Network::parse(network).unwrap(),
        Problem::TotalExchange(None),
        Model::StoreForward { rule, mode: Mode::Move, packet: 1 },
        RingTie::Clockwise,
        "<test>",
    )
    .unwrap()
}

/// Every hop of an explicit schedule as (step, from, to, token), sorted.
fn hops(steps: &[Vec<Transmission>]) -> Vec<(usize, usize, usize, usize)> {
    let mut out: Vec<_> = steps
        .iter()
        .enumerate()
        .flat_map(|(t, s)| {
            s.iter().flat_map(move |tr| tr.tokens.iter().map(move |&k| (t + 1, tr.from, tr.to, k)))
        })
        .collect();
    out.sort_unstable();
    out
}

fn explicit(schedule: Schedule) -> Vec<Vec<Transmission>> {
    match schedule {
        Schedule::StoreForward(steps) => steps,
        other => panic!("expected explicit steps, got a {} schedule", other.model_name()),
    }
}

/// TE-10: the closed form (5) is the furthest-first simulation with smallest-source ties, hop
/// for hop, and the checker certifies it at ⌈(n²−1)/4⌉ (TE-13).
#[test]
fn closed_form_five_is_the_furthest_first_simulation() {
    for n in 2..=40 {
        let inst = te(&format!("path:{n}"), PortRule::FStar);
        let closed = furthest_first_closed_form(n);
        let simulated = explicit(furthest_first(&inst, Tie::SmallestSource).unwrap());
        assert_eq!(hops(&closed.to_steps()), hops(&simulated), "path({n})");
        let length = checked(&inst, &Schedule::Itineraries(closed));
        assert_eq!(length, ((n * n - 1) as u64).div_ceil(4), "path({n})");
    }
}

/// Lemma 3 (TE-15): simulating the window of `period` nodes gives every ring algorithm's full
/// simulation, hop for hop, on odd and even rings.
#[test]
fn the_node_invariant_window_is_the_full_simulation() {
    for n in 3..=24 {
        let inst = te(&format!("ring:{n}"), PortRule::FStar);
        let mut cases: Vec<(&str, RingTie, InitialOrder, usize)> = vec![
            ("fifo", RingTie::Clockwise, InitialOrder::FurthestFirst, 1),
            ("furthest", RingTie::Clockwise, InitialOrder::FurthestFirst, 1),
            ("closest", RingTie::Clockwise, InitialOrder::ClosestFirst, 1),
        ];
        if n % 2 == 0 {
            cases.push(("fifo", RingTie::Alternating, InitialOrder::FurthestFirst, 2));
        }
        for (discipline, tie, order, period) in cases {
            let pick = |d: &str| -> Box<dyn commsched::heuristics::total_exchange::Discipline> {
                match d {
                    "fifo" => Box::new(Fifo),
                    "furthest" => Box::new(FurthestFirst::new(Tie::SmallestSource)),
                    _ => Box::new(ClosestFirst::new(Tie::SmallestSource)),
                }
            };
            let full = explicit(run(&inst, tie, order, pick(discipline).as_mut()).unwrap());
            let window = run_node_invariant(&inst, tie, order, pick(discipline).as_mut(), period).unwrap();
            assert_eq!(
                hops(&window.to_steps()),
                hops(&full),
                "ring({n}) {discipline} {tie:?} period {period}"
            );
        }
    }
}

/// A random-tie discipline is not rotation-consistent (TE-17): the window refuses it rather
/// than emit another algorithm's schedule, or its schedule differs and the checker judges it.
#[test]
fn a_partial_exchange_is_not_node_invariant() {
    let mut inst = te("ring:6", PortRule::FStar);
    let mut demand = vec![vec![true; 6]; 6];
    demand[0][3] = false;
    for (i, row) in demand.iter_mut().enumerate() {
        row[i] = false;
    }
    inst.problem = Problem::TotalExchange(Some(demand));
    let err =
        run_node_invariant(&inst, RingTie::Clockwise, InitialOrder::FurthestFirst, &mut Fifo, 1).unwrap_err();
    assert!(err.to_string().contains("not invariant under rotation by 1"), "{err}");
}

/// Random itineraries on `path:n` or `ring:n` under `rule`: a furthest-first or message-shift
/// base made admissible for the rule (F\* as it is, H\* and F1 through the half-duplex split,
/// H1 serialised to one hop per step), sometimes shifted later, then up to three random
/// packets changed: delayed from a random hop on (which may collide or not), a departure moved
/// back, a hop dropped or added, the packet dropped, repeated or reversed.
fn random_itineraries(n: usize, ring: bool, rule: PortRule, seed: u64) -> Itineraries {
    let mut rng = SplitMix64::new(seed);
    let network = format!("{}:{n}", if ring { "ring" } else { "path" });
    let inst = te(&network, PortRule::FStar);
    let mut base = if ring {
        run_node_invariant(&inst, RingTie::Clockwise, InitialOrder::FurthestFirst, &mut Fifo, 1).unwrap()
    } else {
        furthest_first_closed_form(n)
    };
    match rule {
        PortRule::FStar => {}
        PortRule::HStar | PortRule::F1 => split_itineraries(&mut base),
        PortRule::H1 => {
            // Hop j of the F* schedule, in step order, moves to step j + 1.
            let mut order: Vec<(u32, usize, usize)> = base
                .iter()
                .enumerate()
                .flat_map(|(i, leg)| leg.departures.iter().enumerate().map(move |(h, &t)| (t, i, h)))
                .collect();
            order.sort_unstable();
            let mut serial: Vec<Vec<u32>> = base.iter().map(|leg| vec![0; leg.departures.len()]).collect();
            for (j, &(_, i, h)) in order.iter().enumerate() {
                serial[i][h] = j as u32 + 1;
            }
            let mut out = Itineraries::with_capacity(n, ring, base.len(), base.hops());
            for (leg, d) in base.iter().zip(serial) {
                out.push(leg.token, leg.direction, d);
            }
            base = out;
        }
    }
    let shift = if rng.range(0, 3) == 0 { rng.range(1, 5) as u32 } else { 0 };
    let changed: Vec<usize> = (0..rng.range(0, 3)).map(|_| rng.range(0, base.len() - 1)).collect();
    let mut out = Itineraries::with_capacity(n, ring, base.len() + 3, base.hops() + 3);
    for (i, leg) in base.iter().enumerate() {
        let mut d: Vec<u32> = leg.departures.iter().map(|t| t + shift).collect();
        let mut direction = leg.direction;
        if changed.contains(&i) {
            match rng.range(0, 7) {
                0 => continue,
                1 => {
                    d.pop();
                }
                2 => d.push(d.last().copied().unwrap_or(0) + 1),
                3 => {
                    let h = rng.range(0, d.len() - 1);
                    d[h] = d[h].saturating_sub(rng.range(1, 3) as u32);
                }
                4 => {
                    direction =
                        if direction == Direction::Forward { Direction::Backward } else { Direction::Forward }
                }
                5 => out.push(leg.token, direction, d.clone()),
                _ => {
                    let (from, delay) = (rng.range(0, d.len() - 1), rng.range(1, 3) as u32);
                    for t in &mut d[from..] {
                        *t += delay;
                    }
                }
            }
        }
        out.push(leg.token, direction, d);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The itinerary checker and the explicit checker agree (module docs).
    #[test]
    fn itinerary_and_explicit_checkers_agree(
        n in 2usize..=9,
        ring in any::<bool>(),
        rule in prop_oneof![Just(PortRule::FStar), Just(PortRule::HStar), Just(PortRule::F1), Just(PortRule::H1)],
        seed in any::<u64>(),
    ) {
        let n = if ring { n.max(3) } else { n };
        let network = format!("{}:{n}", if ring { "ring" } else { "path" });
        let inst = te(&network, rule);
        let it = random_itineraries(n, ring, rule, seed);
        let compact = check(&inst, &Schedule::Itineraries(it.clone()));
        let expanded = check(&inst, &Schedule::StoreForward(it.to_steps()));
        match (&compact, &expanded) {
            (Verdict::Admissible(a), Verdict::Admissible(b)) => {
                prop_assert_eq!(a.length(), b.length());
                prop_assert_eq!(a.metrics().events, b.metrics().events);
                prop_assert_eq!(a.metrics().link_use, b.metrics().link_use);
            }
            (Verdict::Inadmissible(_), Verdict::Inadmissible(_)) => {}
            _ => prop_assert!(false, "{network} {rule:?}: itineraries {compact:?}, explicit {expanded:?}"),
        }
    }
}

/// Collisions name both packets, under each rule's own reading of a conflict.
#[test]
fn collisions_name_both_packets() {
    let verdict = |rule, legs: &[(usize, Direction, &[u32])]| {
        let mut it = Itineraries::with_capacity(3, false, legs.len(), 8);
        for &(k, d, t) in legs {
            it.push(k, d, t.iter().copied());
        }
        check(&te("path:3", rule), &Schedule::Itineraries(it)).violations().to_vec()
    };
    // m0(1) and m0(2) both cross (0,1) in step 1.
    let same_arc: &[(usize, Direction, &[u32])] =
        &[(1, Direction::Forward, &[1]), (2, Direction::Forward, &[1, 2])];
    let v = verdict(PortRule::FStar, same_arc);
    let arc = v.iter().find(|v| v.rule == Rule::ArcRule).expect("an arc collision");
    assert_eq!((arc.step, arc.place.as_str()), (Some(1), "arc (0,1)"));
    assert!(arc.detail.contains("m0(1)") && arc.detail.contains("m0(2)"), "{}", arc.detail);
    // m0(1) right and m1(0) left share link {0,1} in step 1: fine under F*, not under H*.
    let link: &[(usize, Direction, &[u32])] =
        &[(1, Direction::Forward, &[1]), (3, Direction::Backward, &[1])];
    assert!(verdict(PortRule::FStar, link).iter().all(|v| v.rule == Rule::Incomplete));
    let v = verdict(PortRule::HStar, link);
    let l = v.iter().find(|v| v.rule == Rule::LinkRule).expect("a link collision");
    assert_eq!((l.step, l.place.as_str()), (Some(1), "link {0,1}"));
    // Node 1 receives m0(1) from 0 and sends m0(2) to 2 in step 2: fine under F1, not under H1.
    let relay: &[(usize, Direction, &[u32])] =
        &[(2, Direction::Forward, &[1, 2]), (1, Direction::Forward, &[2])];
    assert!(verdict(PortRule::F1, relay).iter().all(|v| v.rule == Rule::Incomplete));
    let v = verdict(PortRule::H1, relay);
    assert!(
        v.iter().any(|v| v.rule == Rule::DuplexRule && v.place == "node 1" && v.step == Some(2)),
        "{v:?}"
    );
}

/// Broken itineraries get the explicit checker's diagnoses: a departure before the arrival,
/// a walk past the destination or off the array, step 0, an unknown or repeated packet.
#[test]
fn broken_itineraries_are_diagnosed() {
    let rules = |legs: &[(usize, Direction, &[u32])]| {
        let mut it = Itineraries::with_capacity(3, false, legs.len(), 8);
        for &(k, d, t) in legs {
            it.push(k, d, t.iter().copied());
        }
        let mut r: Vec<Rule> = check(&te("path:3", PortRule::FStar), &Schedule::Itineraries(it))
            .violations()
            .iter()
            .map(|v| v.rule)
            .collect();
        r.sort_unstable();
        r.dedup();
        r
    };
    use Direction::{Backward as B, Forward as F};
    assert_eq!(rules(&[(2, F, &[2, 2])]), vec![Rule::NotHeld, Rule::Incomplete]);
    assert_eq!(rules(&[(1, F, &[1, 2])]), vec![Rule::NotHeld, Rule::Incomplete]);
    assert_eq!(rules(&[(1, B, &[1])]), vec![Rule::NotAnArc, Rule::Incomplete]);
    assert_eq!(rules(&[(1, F, &[0])]), vec![Rule::Incomplete, Rule::BadEntry]);
    assert_eq!(rules(&[(0, F, &[1])]), vec![Rule::Incomplete, Rule::UnknownItem]);
    assert_eq!(rules(&[(1, F, &[1]), (1, F, &[2])]), vec![Rule::Incomplete, Rule::BadEntry]);
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_commsched")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// On a full exchange the paper-004 algorithms hold itineraries and reach the papers' lengths
/// through `solve`, under F* and through the half-duplex split; an explicit-only algorithm and
/// explicit output beyond `--max-events`, and any schedule beyond `--max-compact-events`, are
/// refused with the flag that raises the limit.
#[test]
fn solve_runs_itineraries_and_guards_both_forms() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("itineraries");
    std::fs::create_dir_all(&dir).unwrap();
    // Optimal where a bound meets it (TE-13, TE-16, TE-21, TE-23 on the ring); all-clockwise
    // takes ⌈n(n+2)/8⌉ (TE-18), and the F1 split 2·T_opt, one above the F1 bound on path(40).
    for (network, rule, method, verdict, length) in [
        ("path:40", "F*", "furthest-first", "optimal", 400),
        ("ring:21", "F*", "furthest-first", "optimal", 55),
        ("ring:21", "F*", "message-shift", "optimal", 55),
        ("ring:21", "F*", "closest-first", "optimal", 55),
        ("ring:20", "F*", "modified-message-shift", "optimal", 50),
        ("ring:20", "F*", "all-clockwise", "heuristic", 55),
        ("ring:20", "H*", "modified-message-shift", "optimal", 100),
        ("path:40", "F1", "furthest-first", "heuristic", 800),
    ] {
        let file = dir.join(format!("{}-{}.toml", network.replace(':', ""), rule.replace('*', "s")));
        let (code, toml, _) = cli(&["gen", "total-exchange", "--network", network, "--rule", rule]);
        assert_eq!(code, 0);
        std::fs::write(&file, toml).unwrap();
        let (code, stdout, stderr) = cli(&["solve", file.to_str().unwrap(), "--method", method]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(&format!("{method} {verdict}, length {length},")),
            "{network} {rule}: {stdout}"
        );
    }
    let file = dir.join("path40-Fs.toml");
    let file = file.to_str().unwrap();
    let (code, _, err) = cli(&["solve", file, "--method", "consecutive-scatter", "--max-events", "100"]);
    assert_eq!(code, 2);
    assert!(err.contains("path40-Fs.toml") && err.contains("--max-events"), "{err}");
    let out = dir.join("s.json");
    let (code, _, err) = cli(&[
        "solve",
        file,
        "--method",
        "furthest-first",
        "--max-events",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("explicit form") && err.contains("--max-events"), "{err}");
    let (code, _, err) = cli(&["solve", file, "--method", "furthest-first", "--max-compact-events", "100"]);
    assert_eq!(code, 2);
    assert!(err.contains("--max-compact-events"), "{err}");
}
