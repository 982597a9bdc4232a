//! Exact optima of paper 004's total exchange (CLAIMS.md "Exact-optimiser targets": TE-1,
//! TE-2, TE-3, TE-13, TE-16, TE-21, TE-22; TE-23 for the half-duplex and one-port rules).
//!
//! Every witness is re-checked here with `checker::check` and the assertions are on the
//! checked length. Each backend runs the same suite (`backend_suite!`), and independently of
//! the search, each backend must find a schedule at the paper's value and prove the model one
//! step shorter infeasible.

use commsched::checker::{self, Verdict};
use commsched::exact::{self, BackendKind, Certificate, Decision, Outcome, SolveOptions, StopReason};
use commsched::spec::{Instance, Mode, Model, Network, PortRule, Problem, RingTie, Schedule};
use commsched::{Error, InputError};
use std::time::Duration;

/// A total-exchange instance (store-and-forward, move mode) with an optional 0/1 demand.
fn total_exchange(net: &str, rule: PortRule, packet: usize, demand: Option<Vec<Vec<bool>>>) -> Instance {
    Instance::new(
        net,
        Network::parse(net).unwrap(),
        Problem::TotalExchange(demand),
        Model::StoreForward { rule, mode: Mode::Move, packet },
        RingTie::Alternating,
        "<test>",
    )
    .unwrap()
}

fn fstar(net: &str) -> Instance {
    total_exchange(net, PortRule::FStar, 1, None)
}

/// The checker's length of a schedule, which must be admissible.
fn checked_length(inst: &Instance, schedule: &Schedule) -> u64 {
    match checker::check(inst, schedule) {
        Verdict::Admissible(c) => c.length(),
        Verdict::Inadmissible(v) => panic!("{}: witness rejected: {:?}", inst.name, v),
    }
}

/// Solves to optimality and returns (optimum, certificate); the witness is re-checked.
fn optimum(inst: &Instance, backend: BackendKind) -> (u64, Certificate) {
    match exact::solve(inst, backend, &SolveOptions::default()).unwrap() {
        Outcome::Optimal { witness, checked, certificate } => {
            assert_eq!(checked_length(inst, &witness), checked.length(), "{}", inst.name);
            (checked.length(), certificate)
        }
        other => panic!("{} with {backend}: no optimum: {other:?}", inst.name),
    }
}

/// Asserts, with `backend` alone, that `t` is the optimum: a checked schedule fits in `t`
/// steps and the model at `t − 1` is infeasible.
fn assert_backend_optimum(inst: &Instance, backend: BackendKind, t: u64) {
    let options = SolveOptions::default();
    match exact::decide(inst, backend, t, &options).unwrap() {
        Decision::Feasible { witness, checked } => {
            assert!(checked.length() <= t);
            assert_eq!(checked_length(inst, &witness), checked.length());
        }
        other => panic!("{} with {backend}: expected a schedule of length {t}, got {other:?}", inst.name),
    }
    assert_eq!(
        exact::decide(inst, backend, t - 1, &options).unwrap(),
        Decision::Infeasible,
        "{} with {backend}: length {} should be infeasible",
        inst.name,
        t - 1
    );
}

/// TE-22: T_opt(LA) = ⌈(n² − 1)/4⌉.
fn t_opt_la(n: u64) -> u64 {
    (n * n - 1).div_ceil(4)
}

/// TE-22: T_opt(R) = ⌈(n² − 1)/8⌉.
fn t_opt_ring(n: u64) -> u64 {
    (n * n - 1).div_ceil(8)
}

macro_rules! backend_suite {
    ($name:ident, $backend:expr) => {
        mod $name {
            use super::*;

            /// TE-1 / TE-13: the F* linear-array optimum is ⌈(n²−1)/4⌉ for n ≤ 6.
            #[test]
            fn te_1_te_13_path_optimum() {
                for n in 2..=6 {
                    assert_backend_optimum(&fstar(&format!("path:{n}")), $backend, t_opt_la(n));
                }
            }

            /// TE-2 / TE-16 (odd n) / TE-21 (even n): the F* ring optimum is ⌈(n²−1)/8⌉ for
            /// n ≤ 7.
            #[test]
            fn te_2_te_16_te_21_ring_optimum() {
                for n in 3..=7 {
                    assert_backend_optimum(&fstar(&format!("ring:{n}")), $backend, t_opt_ring(n));
                }
            }

            /// TE-3: a single scatter from node i (1-based) of the F* linear array takes
            /// max(i − 1, n − i) steps, for n ≤ 6 and every i.
            #[test]
            fn te_3_single_scatter() {
                for n in 2..=6usize {
                    for i in 1..=n {
                        let demand = (0..n).map(|u| (0..n).map(|v| u == i - 1 && v != u).collect()).collect();
                        let inst = total_exchange(&format!("path:{n}"), PortRule::FStar, 1, Some(demand));
                        let (t, _) = optimum(&inst, $backend);
                        assert_eq!(t, (i - 1).max(n - i) as u64, "n = {n}, i = {i}");
                    }
                }
            }

            /// TE-23 notes: under H* the linear-array bisection bound is 2·⌊n/2⌋⌈n/2⌉
            /// = 2·T_opt(LA), and the optimum meets it (the factor two is necessary).
            #[test]
            fn te_23_path_half_duplex_needs_the_factor_two() {
                for n in [3u64, 4] {
                    let inst = total_exchange(&format!("path:{n}"), PortRule::HStar, 1, None);
                    let (t, _) = optimum(&inst, $backend);
                    assert_eq!(t, 2 * (n / 2) * n.div_ceil(2));
                    assert_eq!(t, 2 * t_opt_la(n));
                }
            }

            /// H1 on path(3): the middle node takes part in the 4 one-hop exchanges with its
            /// neighbours and in both hops of m_0(2) and m_2(0), 8 transmissions, one per step.
            #[test]
            fn h1_path_3_is_eight_steps() {
                assert_eq!(optimum(&total_exchange("path:3", PortRule::H1, 1, None), $backend).0, 8);
            }

            /// Packets of two tokens (SPEC §4.2, p = 2) never lengthen the optimum.
            #[test]
            fn bigger_packets_never_hurt() {
                for rule in [PortRule::FStar, PortRule::F1] {
                    let one = optimum(&total_exchange("path:4", rule, 1, None), $backend).0;
                    let two = optimum(&total_exchange("path:4", rule, 2, None), $backend).0;
                    assert!(two <= one, "{rule}: p = 2 gives {two}, p = 1 gives {one}");
                }
            }
        }
    };
}

backend_suite!(ilp, BackendKind::Ilp);
backend_suite!(smt, BackendKind::Smt);

/// The search's certified optima equal the paper formulas, and both backends agree.
#[test]
fn te_22_search_optima_agree_across_backends() {
    let cases: Vec<(String, u64)> = (2..=6)
        .map(|n| (format!("path:{n}"), t_opt_la(n)))
        .chain((3..=7).map(|n| (format!("ring:{n}"), t_opt_ring(n))))
        .collect();
    for (net, expected) in cases {
        let inst = fstar(&net);
        let (ilp, cert) = optimum(&inst, BackendKind::Ilp);
        let (smt, _) = optimum(&inst, BackendKind::Smt);
        assert_eq!((ilp, smt), (expected, expected), "{net} ({cert})");
    }
}

/// The optima of `net` under F*, H*, F1, H1 (in that order) with one backend.
fn optima_by_rule(net: &str, backend: BackendKind) -> [u64; 4] {
    PortRule::ALL.map(|rule| optimum(&total_exchange(net, rule, 1, None), backend).0)
}

/// Stricter port rules never shorten the optimum: F* ≤ H* ≤ H1 and F* ≤ F1 ≤ H1.
fn assert_monotone(net: &str, [f, h, f1, h1]: [u64; 4]) {
    assert!(f <= h && h <= h1 && f <= f1 && f1 <= h1, "{net}: F* {f}, H* {h}, F1 {f1}, H1 {h1}");
}

/// All four port rules on the smallest array and ring: both backends agree, and the optima
/// are monotone in the strictness of the rule.
#[test]
fn port_rules_agree_across_backends_and_are_monotone() {
    for net in ["path:3", "ring:4"] {
        let ilp = optima_by_rule(net, BackendKind::Ilp);
        assert_eq!(ilp, optima_by_rule(net, BackendKind::Smt), "{net}");
        assert_monotone(net, ilp);
    }
}

/// path(4) with the ILP backend (z3 does not prove H1's infeasibility at 13 within minutes:
/// see the report). Under H1 node 1 takes part in 14 transmissions (one hop of each of
/// m_0(1), m_1(0), m_1(2), m_2(1), m_1(3), m_3(1); two of m_0(2), m_2(0), m_0(3), m_3(0)),
/// at most one per step, and the optimum meets that count.
#[test]
fn port_rules_on_path_4() {
    let optima = optima_by_rule("path:4", BackendKind::Ilp);
    assert_monotone("path:4", optima);
    assert_eq!(optima[3], 14);
}

/// TE-23 notes: on a ring with n ≡ 2 (mod 4) the H* bisection bound ⌊n/2⌋⌈n/2⌉ is one less
/// than 2·T_opt(R), so the factor-two split may be one step from optimal. For n = 6 it is:
/// the H* optimum is 9 = ⌊6/2⌋⌈6/2⌉ < 10 = 2·T_opt(R). (ILP only: z3 does not prove length 8
/// infeasible within minutes.)
#[test]
fn te_23_ring_6_half_duplex_beats_the_factor_two_split() {
    let inst = total_exchange("ring:6", PortRule::HStar, 1, None);
    assert_backend_optimum(&inst, BackendKind::Ilp, 9);
    assert_eq!(9 + 1, 2 * t_opt_ring(6));
}

/// path(4) under F*: the distance bound is 3, the optimum 4, so the certificate is the
/// backend's infeasibility proof at 3.
#[test]
fn certificate_is_infeasibility_when_the_bound_is_not_tight() {
    let (t, cert) = optimum(&fstar("path:4"), exact::default_backend());
    assert_eq!(t, 4);
    assert_eq!(cert, Certificate::InfeasibleAtTMinus1 { t: 3 });
    assert_eq!(cert.to_string(), "infeasible-at-T-1 (T-1 = 3)");
}

/// path(3) under F*: the optimum 2 equals the distance bound.
#[test]
fn certificate_is_the_bound_when_it_is_tight() {
    let (t, cert) = optimum(&fstar("path:3"), exact::default_backend());
    assert_eq!(t, 2);
    assert_eq!(cert.to_string(), "lower-bound distance = 2");
}

#[test]
fn size_guard_is_a_one_line_input_error() {
    let options = SolveOptions { max_variables: 10, ..SolveOptions::default() };
    match exact::solve(&fstar("path:4"), exact::default_backend(), &options) {
        Err(Error::Input(InputError { file, field, reason })) => {
            assert_eq!((file.as_str(), field.as_str()), ("", "network"));
            assert!(reason.contains("over the size guard 10 (raise --max-vars)"), "{reason}");
        }
        other => panic!("expected the size-guard error, got {other:?}"),
    }
    assert!(matches!(
        exact::decide(&fstar("path:4"), BackendKind::Smt, 4, &options).unwrap(),
        Decision::Unknown(StopReason::SizeGuard { limit: 10, .. })
    ));
}

/// A zero budget cannot give an optimum: path(4) needs a probe (bound 3 < greedy 4), so the
/// search stops with the proven bounds. No timing is involved: the budget is spent before the
/// first backend call.
#[test]
fn timeout_only_gives_bounds() {
    let inst = fstar("path:4");
    let options = SolveOptions { timeout: Some(Duration::ZERO), ..SolveOptions::default() };
    match exact::solve(&inst, exact::default_backend(), &options).unwrap() {
        Outcome::Bounds { lower, upper: Some((witness, checked)), stop: StopReason::Timeout } => {
            assert_eq!(lower, 3);
            assert_eq!(checked_length(&inst, &witness), checked.length());
            assert!(checked.length() >= t_opt_la(4));
        }
        other => panic!("expected bounds after a timeout, got {other:?}"),
    }
}

/// On the unidirectional array no packet travels leftwards: no horizon admits a schedule.
#[test]
fn unreachable_destinations_are_infeasible_at_every_horizon() {
    let inst = fstar("ula:3");
    match exact::solve(&inst, BackendKind::Smt, &SolveOptions::default()).unwrap() {
        Outcome::Infeasible { reason } => assert!(reason.contains("m_1(0)"), "{reason}"),
        other => panic!("expected infeasible, got {other:?}"),
    }
    assert_eq!(
        exact::decide(&inst, BackendKind::Ilp, 50, &SolveOptions::default()).unwrap(),
        Decision::Infeasible
    );
}

#[test]
fn other_problems_are_not_applicable() {
    let inst = Instance::new(
        "gossip",
        Network::parse("path:3").unwrap(),
        Problem::Gossip,
        Model::StoreForward { rule: PortRule::HStar, mode: Mode::Copy, packet: 1 },
        RingTie::Clockwise,
        "<test>",
    )
    .unwrap();
    assert!(matches!(
        exact::solve(&inst, BackendKind::Ilp, &SolveOptions::default()),
        Err(Error::NotApplicable { .. })
    ));
}

/// Exports of path(3) at the default horizon (the greedy schedule's length, 2 = T_opt(LA)).
mod export {
    use super::*;
    use commsched::exact::encode;

    #[test]
    fn lp_export_is_deterministic_with_one_row_per_constraint() {
        let inst = fstar("path:3");
        let text = exact::export(&inst, BackendKind::Ilp, None).unwrap();
        assert_eq!(text, exact::export(&inst, BackendKind::Ilp, None).unwrap());
        let model = encode::encoder(&inst).unwrap().encode(2).model;
        let body = text.split("Subject To\n").nth(1).unwrap().lines().take_while(|l| l.starts_with(' '));
        let rows = body.filter(|l| !l.starts_with("  ")).count();
        assert_eq!(rows, model.constraints.len());
        assert!(text.contains("horizon T = 2"), "{text}");
        insta::with_settings!({snapshot_path => "../snapshots"}, {
            insta::assert_snapshot!("exact_path3_fstar_lp", text);
        });
    }

    #[test]
    fn smt2_export_is_deterministic_and_z3_finds_it_satisfiable() {
        let inst = fstar("path:3");
        let text = exact::export(&inst, BackendKind::Smt, None).unwrap();
        assert_eq!(text, exact::export(&inst, BackendKind::Smt, None).unwrap());
        let model = encode::encoder(&inst).unwrap().encode(2).model;
        let solver = z3::Solver::new();
        solver.from_string(text.as_str());
        assert_eq!(solver.get_assertions().len(), model.constraints.len());
        assert_eq!(solver.check(), z3::SatResult::Sat);
    }

    /// The model one step below the optimum is what certifies it: z3 reads it back unsat.
    #[test]
    fn smt2_export_below_the_optimum_is_unsat() {
        let inst = fstar("path:4");
        let text = exact::export(&inst, BackendKind::Smt, Some(t_opt_la(4) - 1)).unwrap();
        let solver = z3::Solver::new();
        solver.from_string(text.as_str());
        assert_eq!(solver.check(), z3::SatResult::Unsat);
    }
}

/// Reach of each backend within 60 s per instance (release build):
/// `cargo test --release --test exact -- --ignored --nocapture measure_reach`.
/// Measures, never asserts; ignored because it runs for minutes.
#[test]
#[ignore = "measurement: runs for minutes"]
fn measure_reach() {
    let options = SolveOptions { timeout: Some(Duration::from_secs(60)), ..SolveOptions::default() };
    for backend in BackendKind::ALL {
        for (family, formula) in [("path", t_opt_la as fn(u64) -> u64), ("ring", t_opt_ring)] {
            for n in if family == "path" { 2.. } else { 3.. } {
                let inst = fstar(&format!("{family}:{n}"));
                let start = std::time::Instant::now();
                let outcome = exact::solve(&inst, backend, &options);
                let secs = start.elapsed().as_secs_f64();
                match outcome {
                    Ok(Outcome::Optimal { checked, certificate, .. }) => println!(
                        "{backend} {family}({n}): optimum {} (formula {}) in {secs:.2} s, {certificate}",
                        checked.length(),
                        formula(n)
                    ),
                    Ok(Outcome::Bounds { lower, upper, stop }) => {
                        let upper = upper.map(|(_, c)| c.length());
                        println!(
                            "{backend} {family}({n}): {stop} after {secs:.2} s, bounds {lower}..{upper:?}"
                        );
                        break;
                    }
                    other => {
                        println!("{backend} {family}({n}): {other:?} after {secs:.2} s");
                        break;
                    }
                }
            }
        }
    }
}
