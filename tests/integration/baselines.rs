//! The registered algorithms of the bandwidth model (docs/spec.md §3.2): NCCL's ring and
//! hierarchical ring, direct and Bruck, as packings the checker measures. On one switch every
//! one of them meets the optimum; on a bidirectional ring the one-way ring reaches half of it;
//! no algorithm beats the certified optimum on random fabrics; `solve --method` and `algbw`
//! report the checked values.

use super::bandwidth::fabric_strategy;
use super::cli::run;
use commsched::bandwidth::baseline::Baseline;
use commsched::bandwidth::{Answer, optimise};
use commsched::checker::packing::check_packing;
use commsched::spec::fabric::{Fabric, load};
use commsched::spec::packing::BandwidthCollective;
use num_rational::BigRational;
use proptest::prelude::*;

fn q(p: i64, d: i64) -> BigRational {
    BigRational::new(p.into(), d.into())
}

/// The algorithm's checked time per shard.
fn time(fabric: &Fabric, algorithm: Baseline, c: BandwidthCollective) -> BigRational {
    let packing = algorithm.packing(fabric, c).unwrap().unwrap();
    check_packing(fabric, &packing).unwrap().time
}

fn optimum(fabric: &Fabric, c: BandwidthCollective) -> BigRational {
    match optimise(fabric, c, None).unwrap() {
        Answer::Optimal(o) => o.measure.time,
        Answer::Bounds { .. } => panic!("no deadline was given"),
    }
}

/// dgx2x1: 16 GPUs on one NVSwitch at 125 GB/s each way. Each GPU sends and receives N − 1 = 15
/// shards in every algorithm, so all four meet the optimum 15/125 s/GB per shard (ring, direct
/// and Bruck; the hierarchical ring needs two boxes).
#[test]
fn on_one_switch_every_algorithm_meets_the_optimum() {
    let f = load("dgx2x1", None).unwrap();
    assert_eq!(optimum(&f, BandwidthCollective::Allgather), q(15, 125));
    for a in [Baseline::Ring, Baseline::Direct, Baseline::Bruck] {
        assert_eq!(time(&f, a, BandwidthCollective::Allgather), q(15, 125), "{}", a.name());
        assert_eq!(time(&f, a, BandwidthCollective::Allreduce), q(30, 125), "{}", a.name());
    }
    let err = Baseline::HierarchicalRing.packing(&f, BandwidthCollective::Allgather).unwrap().unwrap_err();
    assert!(err.contains("at least two boxes"), "{err}");
}

/// ring:8 with unit links both ways: the optimum uses both directions, (N − 1)/2 = 7/2; the ring
/// sends one way, 7, half of it. Direct routes every shard the short way round, so each link
/// carries the shards of the 1 + 2 + 3 paths of length 1, 2 and 3 that cross it, and some of
/// the ties at distance 4: 6 or more.
#[test]
fn on_a_ring_the_one_way_ring_reaches_half_the_optimum() {
    let f = load("ring:8", None).unwrap();
    let best = optimum(&f, BandwidthCollective::Allgather);
    assert_eq!(best, q(7, 2));
    assert_eq!(time(&f, Baseline::Ring, BandwidthCollective::Allgather), q(7, 1));
    assert!(time(&f, Baseline::Direct, BandwidthCollective::Allgather) >= q(6, 1));
    let err = Baseline::HierarchicalRing.packing(&f, BandwidthCollective::Allgather).unwrap().unwrap_err();
    assert!(err.contains("not named BOX.GPU"), "{err}");
}

/// NDv2×2: two DGX-1 boxes behind one InfiniBand switch, GPU 0 of each box sending and GPU 1
/// receiving. Every algorithm applies, none beats the certified 50/3·… optimum, and the
/// hierarchical ring, crossing the 12.5 GB/s NIC once per shard, is the best of them.
#[test]
fn on_ndv2x2_no_algorithm_beats_the_optimum() {
    let f = load("ndv2x2", None).unwrap();
    let best = optimum(&f, BandwidthCollective::Allgather);
    let times: Vec<BigRational> =
        Baseline::ALL.iter().map(|&a| time(&f, a, BandwidthCollective::Allgather)).collect();
    assert!(times.iter().all(|t| t >= &best), "{times:?} vs {best}");
    let hierarchical = &times[1];
    assert!(times.iter().all(|t| t >= hierarchical), "{times:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every algorithm that applies is admissible to the checker and no faster than the
    /// certified optimum, in every collective.
    #[test]
    fn no_algorithm_beats_the_certified_optimum(f in fabric_strategy()) {
        for c in BandwidthCollective::ALL {
            let best = optimum(&f, c);
            for a in Baseline::ALL {
                if let Ok(packing) = a.packing(&f, c).unwrap() {
                    let measure = check_packing(&f, &packing);
                    prop_assert!(measure.is_ok(), "{} {}: {:?}", a.name(), c.name(), measure);
                    prop_assert!(measure.unwrap().time >= best, "{} {}", a.name(), c.name());
                }
            }
        }
    }
}

/// `solve --model bandwidth --method ring` prints the checked algbw and its share of the
/// certified optimum; `algbw` tabulates every algorithm per machine; an unknown method and
/// `--certificate` with an algorithm are refused with exit 2.
#[test]
fn solve_method_and_algbw_report_checked_values() {
    let (code, stdout, stderr) = run(&[
        "--format",
        "json",
        "solve",
        "allgather",
        "--network",
        "ring:8",
        "--model",
        "bandwidth",
        "--method",
        "ring",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let d: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!((d["status"].as_str(), d["time_per_shard"].as_str()), (Some("checked"), Some("7")));
    assert_eq!(d["optimum"]["certified"], true);
    assert_eq!(d["share_of_optimum"], 0.5);
    let (code, stdout, stderr) = run(&["algbw", "allgather", "--network", "dgx2x1,ring:8"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().any(|l| l.starts_with("ring:8") && l.contains("(50.0 %)")), "{stdout}");
    assert!(stdout.contains("ring:8: hierarchical-ring does not apply"), "{stdout}");
    let (code, stdout, _) = run(&["--format", "json", "algbw", "allreduce", "--network", "dgx2x1"]);
    assert_eq!(code, 0);
    let d: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let ring = &d["machines"][0]["algorithms"][0];
    assert_eq!((ring["name"].as_str(), ring["share_of_optimum"].as_f64()), (Some("ring"), Some(1.0)));
    for (args, field) in [
        (
            &["solve", "allgather", "--network", "ring:8", "--model", "bandwidth", "--method", "tree"][..],
            "--method",
        ),
        (
            &[
                "solve",
                "allgather",
                "--network",
                "ring:8",
                "--model",
                "bandwidth",
                "--method",
                "ring",
                "--certificate",
                "x",
            ],
            "--certificate",
        ),
    ] {
        let (code, _, stderr) = run(args);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(field), "{stderr}");
    }
}
