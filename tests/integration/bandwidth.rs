//! The bandwidth model (docs/spec.md §3.2, §6.1, §7.3): optima against published figures
//! (TE-CCL's DGX-2×2 129.03 GB/s, SCCL's DGX-1 allgather R/C = 7/6, NDv2×4's 50/3 GB/s of
//! which TE-CCL reached 90.6 %), certificates that `verify` accepts and tampered ones it
//! rejects, and properties on random capacitated digraphs with switches: the packing's time
//! equals the largest cut ratio found by enumerating every cut, and equals an LP solve of the
//! fluid problem; reduce-scatter on a fabric is allgather on the reversed fabric. Symmetric
//! packings (one root's trees and a group's generators) measure what the plain packings they
//! stand for measure, and a broken symmetry is rejected by `verify` and the outside checker.

use super::cli::run;
use commsched::bandwidth::{Answer, Optimum, optimise};
use commsched::checker::packing::{check_packing, cuts_bound};
use commsched::checker::{Producer, accept};
use commsched::folder;
use commsched::heuristics::collective::packed::packed_schedule;
use commsched::msccl::{self, Reading};
use commsched::spec::Schedule;
use commsched::spec::fabric::{Fabric, FabricBuilder, NodeKind, load, machines::parse_machine};
use commsched::spec::packing::{BandwidthCollective, Packing, Phase, Tree};
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, default_solver, variable};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use proptest::prelude::*;
use std::process::Command;

fn q(p: i64, d: i64) -> BigRational {
    BigRational::new(p.into(), d.into())
}

fn optimum(fabric: &Fabric, c: BandwidthCollective) -> Optimum {
    match optimise(fabric, c, None).unwrap() {
        Answer::Optimal(o) => o,
        Answer::Bounds { .. } => panic!("no deadline was given"),
    }
}

fn machine(s: &str) -> Fabric {
    parse_machine(s).unwrap().unwrap()
}

/// Time per shard, checked afresh from the packing, and the cuts' bound, computed afresh.
fn checked_time(fabric: &Fabric, o: &Optimum) -> BigRational {
    let measured = check_packing(fabric, &o.packing).unwrap().time;
    assert_eq!(measured, cuts_bound(fabric, &o.cuts).unwrap());
    measured
}

#[test]
fn ndv2x4_allgather_is_fifty_thirds_gb_per_s() {
    // 32 GPUs; the cut of three chassis and the switch has 24 shards and one 12.5 GB/s link
    // out: 24 / 12.5 s/GB per shard, algbw 32 / 1.92 = 16.67 GB/s. TE-CCL: 15.09 GB/s.
    let f = machine("ndv2x4");
    let o = optimum(&f, BandwidthCollective::Allgather);
    assert_eq!(checked_time(&f, &o), q(48, 25));
    assert_eq!(o.cuts.cuts[0].nodes.iter().filter(|&&v| f.is_compute(v)).count(), 24);
}

#[test]
fn dgx2x2_meets_te_ccl_and_dgx1_meets_scclss_bound() {
    // Every GPU receives 31 shards through 125 GB/s: algbw 32 · 125 / 31 = 129.03 GB/s, the
    // figure TE-CCL reports for DGX-2×2.
    let f = machine("dgx2x2");
    let t = checked_time(&f, &optimum(&f, BandwidthCollective::Allgather));
    assert_eq!(t, q(31, 125));
    assert!((32.0 / t.to_f64().unwrap() - 129.03).abs() < 0.01);
    // SCCL's DGX-1 allgather: R/C = 7/6 at its bandwidth optimum (3, 7, 6).
    let dgx1 = load("dgx1", None).unwrap();
    assert_eq!(checked_time(&dgx1, &optimum(&dgx1, BandwidthCollective::Allgather)), q(7, 6));
}

#[test]
fn allreduce_is_reduce_scatter_then_allgather() {
    let f = machine("ndv2x2");
    let ag = checked_time(&f, &optimum(&f, BandwidthCollective::Allgather));
    let rs = checked_time(&f, &optimum(&f, BandwidthCollective::ReduceScatter));
    let ar = optimum(&f, BandwidthCollective::Allreduce);
    assert_eq!(checked_time(&f, &ar), ag + rs);
    assert_eq!(
        ar.measure.phases.iter().map(|p| p.0).collect::<Vec<_>>(),
        [Phase::ReduceScatter, Phase::Allgather]
    );
}

#[test]
fn the_machines_at_scale_are_certified() {
    for (name, time) in [
        ("a100x2", q(3, 65)),
        ("mi250x2", q(15, 166)),
        ("torus3d:4x4x4", q(21, 100)),
        ("mesh2d:4x4", q(3, 20)),
        ("rail:4x8", q(31, 500)),
    ] {
        let f = machine(name);
        assert_eq!(checked_time(&f, &optimum(&f, BandwidthCollective::Allgather)), time, "{name}");
    }
}

#[test]
fn certificates_verify_and_tampering_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert");
    let cert = cert.to_str().unwrap();
    let (code, stdout, _) = run(&[
        "--format",
        "json",
        "solve",
        "allgather",
        "--network",
        "ndv2x2",
        "--model",
        "bandwidth",
        "--certificate",
        cert,
    ]);
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(answer["status"], "optimal");
    assert_eq!(answer["time_per_shard"], "16/25");
    assert_eq!(answer["algbw"], 25.0);
    assert_eq!(run(&["verify", cert]).0, 0);
    assert!(folder::verify(std::path::Path::new(cert)).unwrap().is_empty());

    // Each tampering, with the manifest's hashes brought in line so that only the meaning is
    // wrong, is caught by what it breaks.
    let cert = std::path::Path::new(cert);
    let rejected = |file: &str, edit: &dyn Fn(serde_json::Value) -> serde_json::Value, expect: &str| {
        let (_, code, out) = tampered(cert, dir.path(), file, edit);
        assert_eq!(code, 1, "{file} {expect}: {out}");
        assert!(out.contains(expect), "{file}: expected `{expect}` in {out}");
    };
    rejected(
        "packing.json",
        &|mut d| {
            let w = d["trees"][0]["weight"].as_str().unwrap().to_string();
            d["trees"][0]["weight"] = if w == "1" { "1/2".into() } else { "1".into() };
            d
        },
        "weigh",
    );
    rejected(
        "packing.json",
        &|mut d| {
            let path = d["trees"][0]["paths"][0].as_array().unwrap().clone();
            let (first, last) = (path[0].clone(), path[path.len() - 1].clone());
            d["trees"][0]["paths"][0] = serde_json::json!([first, "n1.gpu7", last]);
            d
        },
        "is not a link",
    );
    rejected(
        "cut.json",
        &|mut d| {
            d["cuts"][0]["nodes"] = serde_json::json!(["n0.gpu0"]);
            d
        },
        "is not the cuts' bound",
    );
    rejected(
        "manifest.json",
        &|mut d| {
            d["algbw"] = 30.0.into();
            d
        },
        "algbw",
    );
}

/// A copy of the certificate folder `cert` in `scratch` with `file` edited and the manifest's
/// hash and size of it brought in line, so that only its meaning changed: the copy, and
/// `verify`'s exit code and output on it.
fn tampered(
    cert: &std::path::Path,
    scratch: &std::path::Path,
    file: &str,
    edit: &dyn Fn(serde_json::Value) -> serde_json::Value,
) -> (std::path::PathBuf, i32, String) {
    let copy = tempfile::tempdir_in(scratch).unwrap().keep();
    for f in ["network.json", "packing.json", "cut.json", "manifest.json"] {
        std::fs::copy(cert.join(f), copy.join(f)).unwrap();
    }
    let path = copy.join(file);
    let doc = edit(serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap());
    std::fs::write(&path, serde_json::to_string(&doc).unwrap()).unwrap();
    let manifest_path = copy.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    for entry in manifest["files"].as_array_mut().unwrap() {
        if entry["name"] == file {
            entry["sha256"] = commsched::proof::sha256::hex_digest(&bytes).into();
            entry["bytes"] = bytes.len().into();
        }
    }
    std::fs::write(&manifest_path, serde_json::to_string(&manifest).unwrap()).unwrap();
    let (code, out, _) = run(&["verify", copy.to_str().unwrap()]);
    (copy, code, out)
}

#[test]
fn bad_requests_are_refused_with_exit_2() {
    for (args, expect) in [
        (
            &["solve", "gossip", "--network", "ndv2x2", "--model", "bandwidth"][..],
            "not a collective of the bandwidth model",
        ),
        (&["solve", "allgather", "--model", "bandwidth"][..], "--network"),
        (
            &["solve", "allgather", "--network", "ndv2x2", "--model", "bandwidth", "--method", "sat"][..],
            "--method",
        ),
        (
            &["solve", "allgather", "--network", "ndv2x2", "--model", "bandwidth", "--steps", "3"][..],
            "--steps",
        ),
        (&["solve", "allgather", "--network", "rail:100000x8", "--model", "bandwidth"][..], "limit"),
        (&["solve", "allgather", "--network", "hub-and-spoke:4", "--model", "bandwidth"][..], "switch group"),
        (&["solve", "instances/004/ring5.toml", "--network", "ndv2x2"][..], "--model bandwidth"),
    ] {
        let (code, _, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(expect) && stderr.trim().lines().count() == 1, "{args:?}: {stderr}");
    }
}

/// A random fabric: compute nodes on a ring (so that every shard can reach everyone), switches,
/// and random links of bandwidth 1/2 to 2, one way between compute nodes, both ways at a switch.
/// Compute node i is named `b{i mod 2}.g{i}`, two boxes for the hierarchical ring of the
/// registered algorithms (baselines.rs).
pub(super) fn fabric_strategy() -> impl Strategy<Value = Fabric> {
    (2usize..5, 0usize..3)
        .prop_flat_map(|(c, s)| {
            let n = c + s;
            (
                Just((c, s)),
                proptest::collection::vec((0..n, 0..n, 1u32..5), 0..3 * n),
                proptest::collection::vec(1u32..4, c),
            )
        })
        .prop_map(|((c, s), extra, ring)| {
            let mut b = FabricBuilder::default();
            for i in 0..c {
                b.node(format!("b{}.g{i}", i % 2), NodeKind::Compute);
            }
            for i in 0..s {
                b.node(format!("s{i}"), NodeKind::Switch);
            }
            for (i, bw) in ring.into_iter().enumerate() {
                b.link(i, (i + 1) % c, q(bw.into(), 1), 0.0).ok();
            }
            // A link at a switch goes both ways, so that no switch sends more than it receives.
            for (u, v, bw) in extra {
                if u < c && v < c {
                    b.link(u, v, q(bw.into(), 2), 0.0).ok();
                } else if u != v {
                    b.duplex(u, v, &q(bw.into(), 2), 0.0).ok();
                }
            }
            b.build("random").unwrap()
        })
}

/// The largest ratio |S ∩ C| / B⁺(S) over every cut S, by enumeration.
fn largest_cut_ratio(f: &Fabric) -> f64 {
    let n = f.len();
    (1u32..(1 << n) - 1)
        .filter_map(|mask| {
            let inside: Vec<bool> = (0..n).map(|v| mask >> v & 1 == 1).collect();
            let shards = f.compute().iter().filter(|&&v| inside[v]).count();
            (shards > 0 && shards < f.compute().len())
                .then(|| shards as f64 / f.bandwidth_leaving(&inside).to_f64().unwrap())
        })
        .fold(0.0, f64::max)
}

/// The fluid problem as an LP: every root sends its unit shard to every other compute node as a
/// flow inside a per-root capacity x_r, and the x_r of all roots fit in τ times the bandwidths;
/// minimise τ. It lets switches replicate, so it is a relaxation, which the cut bound meets.
fn fluid_lp(f: &Fabric) -> f64 {
    let compute = f.compute();
    let links = f.links();
    let mut vars = ProblemVariables::new();
    let tau = vars.add(variable().min(0));
    let mut constraints = Vec::new();
    let mut per_link: Vec<Expression> = vec![Expression::from(0); links.len()];
    for &r in &compute {
        let x: Vec<_> = links.iter().map(|_| vars.add(variable().min(0))).collect();
        for (l, &xv) in x.iter().enumerate() {
            per_link[l] += xv;
        }
        for &d in compute.iter().filter(|&&d| d != r) {
            let flow: Vec<_> = links.iter().map(|_| vars.add(variable().min(0))).collect();
            for (l, &fv) in flow.iter().enumerate() {
                constraints.push((Expression::from(fv) - x[l]).leq(0));
            }
            for v in 0..f.len() {
                let mut net = Expression::from(0);
                for (l, link) in links.iter().enumerate() {
                    if link.from == v {
                        net += flow[l];
                    }
                    if link.to == v {
                        net -= flow[l];
                    }
                }
                let supply = if v == r {
                    1.0
                } else if v == d {
                    -1.0
                } else {
                    0.0
                };
                constraints.push(net.eq(supply));
            }
        }
    }
    for (l, link) in links.iter().enumerate() {
        constraints.push((per_link[l].clone() - link.bandwidth.to_f64().unwrap() * tau).leq(0));
    }
    let mut problem = vars.minimise(tau).using(default_solver);
    for c in constraints {
        problem = problem.with(c);
    }
    problem.solve().unwrap().value(tau)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_packing_meets_the_largest_cut_and_the_fluid_lp(f in fabric_strategy()) {
        let o = optimum(&f, BandwidthCollective::Allgather);
        let time = checked_time(&f, &o).to_f64().unwrap();
        prop_assert!((time - largest_cut_ratio(&f)).abs() < 1e-9, "{time} vs cuts");
        prop_assert!((time - fluid_lp(&f)).abs() < 1e-6, "{time} vs LP");
        let rs = checked_time(&f, &optimum(&f, BandwidthCollective::ReduceScatter));
        let reversed = f.reversed();
        prop_assert_eq!(rs, checked_time(&reversed, &optimum(&reversed, BandwidthCollective::Allgather)));
    }
}

/// The packing's trees as a runtime runs them: the schedule `packed_schedule` pipelines along
/// them, checked, exported as MSCCL XML and read back under the runtime reading, admissible with
/// its steps; every connection it sends on is a tree edge of the packing (between the ranks of
/// the path's ends).
fn exports_and_runs(f: &Fabric, collective: BandwidthCollective) -> Result<(), TestCaseError> {
    let o = optimum(f, collective);
    let (inst, schedule) = packed_schedule(f, &o.packing, None).unwrap();
    let checked = accept(&inst, schedule, Producer::Algorithm("packing pipeline")).unwrap();
    let xml = msccl::to_xml(&inst, checked.schedule(), Default::default()).unwrap();
    let read = msccl::import(&xml, "<export>", &inst, Reading::Runtime, None).unwrap();
    prop_assert!(read.violations.is_empty(), "{:?}", read.violations);
    let rank: std::collections::HashMap<usize, usize> =
        f.compute().into_iter().enumerate().map(|(r, v)| (v, r)).collect();
    let edges: std::collections::HashSet<(usize, usize)> = o
        .packing
        .trees
        .iter()
        .flat_map(|t| t.paths.iter().map(|p| (rank[&p[0]], rank[&p[p.len() - 1]])))
        .collect();
    let Schedule::Collective { steps, .. } = checked.schedule() else { panic!("a collective schedule") };
    for t in steps.iter().flatten() {
        prop_assert!(edges.contains(&(t.from, t.to)), "{} -> {} is no tree edge", t.from, t.to);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every exported XML passes the runtime reading's check (issue: "every exported XML passes
    /// `check`"), for the three collectives.
    #[test]
    fn every_packing_exports_as_msccl_xml_that_the_runtime_reading_accepts(f in fabric_strategy()) {
        for c in BandwidthCollective::ALL {
            exports_and_runs(&f, c)?;
        }
    }
}

/// From the binary: the NDv2×4 allgather, reduce-scatter and allreduce optima as MSCCL files that
/// `check FILE.xml` accepts as their collective on 32 ranks; `--chunks` must keep every tree's
/// share whole.
#[test]
fn ndv2x4_optima_export_as_msccl_xml_that_check_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for (collective, coll) in
        [("allgather", "allgather"), ("reduce-scatter", "reduce-scatter"), ("allreduce", "allreduce")]
    {
        let file = dir.path().join(format!("{collective}.xml"));
        let file = file.to_str().unwrap();
        let args = [
            "solve",
            collective,
            "--network",
            "ndv2x4",
            "--model",
            "bandwidth",
            "--out",
            file,
            "--chunks",
            "2",
        ];
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{collective}: {err}");
        let (code, out, err) = run(&["check", file]);
        assert_eq!(code, 0, "{collective}: {out}{err}");
        assert!(
            out.contains(&format!("check ({coll} (C = 2)")) && out.contains("on fully-connected:32"),
            "{out}"
        );
    }
    // dgx1's optimum has weights 1/6, …: C = 4 splits them.
    let file = dir.path().join("x.xml");
    let (code, _, err) = run(&[
        "solve",
        "allgather",
        "--network",
        "dgx1",
        "--model",
        "bandwidth",
        "--out",
        file.to_str().unwrap(),
        "--chunks",
        "4",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--chunks") && err.contains("multiple of 6"), "{err}");
}

/// A circulant fabric on n compute nodes, a link v → v + d (mod n) of bandwidth b_d for every
/// offset d (1 always), both ways when `duplex`, and random spanning out-trees of node 0 of random
/// weights summing to 1, symmetric under v ↦ v + 1 and, when duplex, v ↦ −v: then a dihedral
/// group, which does not commute and fixes node 0 two ways.
fn circulant_strategy() -> impl Strategy<Value = (Fabric, Packing)> {
    let offsets = proptest::collection::vec((1usize..9, 1i64..4), 0..3);
    (3usize..9, offsets, any::<bool>(), 1usize..4, any::<u64>()).prop_map(
        |(n, extra, duplex, trees, seed)| {
            let mut offsets = std::collections::BTreeMap::from([(1, 1)]);
            offsets.extend(extra.into_iter().filter(|&(d, _)| d % n != 0).map(|(d, bw)| (d % n, bw)));
            let mut b = FabricBuilder::default();
            for v in 0..n {
                b.node(format!("g{v}"), NodeKind::Compute);
            }
            for (&d, &bw) in &offsets {
                for v in 0..n {
                    b.link(v, (v + d) % n, q(bw, 1), 0.0).unwrap();
                    if duplex {
                        b.link((v + d) % n, v, q(bw, 1), 0.0).unwrap();
                    }
                }
            }
            let f = b.build("circulant").unwrap();
            let mut rng = commsched::rng::SplitMix64::new(seed);
            let shares: Vec<i64> = (0..trees).map(|_| rng.range(1, 3) as i64).collect();
            let total: i64 = shares.iter().sum();
            let trees = shares
                .iter()
                .map(|&share| {
                    let mut reached = vec![false; n];
                    reached[0] = true;
                    let mut paths = Vec::new();
                    while paths.len() + 1 < n {
                        let out: Vec<_> =
                            f.links().iter().filter(|l| reached[l.from] && !reached[l.to]).collect();
                        let l = out[rng.range(0, out.len() - 1)];
                        reached[l.to] = true;
                        paths.push(vec![l.from, l.to]);
                    }
                    Tree { phase: Phase::Allgather, root: 0, weight: q(share, total), paths }
                })
                .collect();
            let mut symmetry = vec![(0..n).map(|v| (v + 1) % n).collect::<Vec<_>>()];
            if duplex {
                symmetry.push((0..n).map(|v| (n - v) % n).collect());
            }
            (f, Packing { collective: BandwidthCollective::Allgather, trees, symmetry: Some(symmetry) })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The orbit count of a symmetric packing's loads is the plain count of the packing it
    /// stands for, the whole group enumerated.
    #[test]
    fn symmetric_loads_are_the_expanded_packings_loads((f, packing) in circulant_strategy()) {
        let symmetric = check_packing(&f, &packing).unwrap();
        let plain = check_packing(&f, &commsched::checker::symmetry::expanded(&packing)).unwrap();
        prop_assert_eq!(symmetric.phases, plain.phases);
        prop_assert_eq!(symmetric.trees_in_all, f.compute().len() * packing.trees.len());
    }
}

/// The node-link files others wrote (tests/data/nodelink/README.md gives their sources and
/// licences), read as the reader's contract says.
#[test]
fn node_link_files_written_by_others_read() {
    let path = |f: &str| format!("{}/tests/data/nodelink/{f}", env!("CARGO_MANIFEST_DIR"));
    let unit = q(1, 1);
    let read = |f: &str, default: Option<&BigRational>| load(&path(f), default);
    // Teal's US carrier WAN: directed, `capacity` on every edge, integer ids listed out of order.
    let teal = read("teal-uscarrier-directed-capacity.json", None).unwrap();
    assert_eq!((teal.len(), teal.links().len()), (158, 378));
    assert_eq!(teal.compute().len(), 158);
    assert_eq!(checked_time(&teal, &optimum(&teal, BandwidthCollective::Allgather)), q(157, 50));
    // topohub's Gabriel graph, written twice: `links` with string ids (2023), `edges` with
    // integer ids (2025); undirected, no bandwidth, so the default applies.
    let older = read("topohub-gabriel-25-0-2023-links.json", Some(&unit)).unwrap();
    let newer = read("topohub-gabriel-25-0-2025-edges.json", Some(&unit)).unwrap();
    assert_eq!((older.len(), older.links().len()), (25, 80));
    assert_eq!((newer.len(), newer.links().len()), (25, 80));
    let err = read("topohub-gabriel-25-0-2023-links.json", None).unwrap_err().to_string();
    assert!(err.contains("links[0].bandwidth"), "{err}");
    let file = path("topohub-gabriel-25-0-2023-links.json");
    let bare = ["solve", "allgather", "--network", &file, "--model", "bandwidth"];
    let (code, _, stderr) = run(&bare);
    assert_eq!(code, 2);
    assert!(stderr.contains("field `links[0].bandwidth`"), "{stderr}");
    let (code, stdout, stderr) = run(&[&bare[..], &["--bandwidth", "25", "--format", "json"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"status\":\"optimal\""), "{stdout}");
    let t_old = checked_time(&older, &optimum(&older, BandwidthCollective::Allgather));
    assert_eq!(t_old, checked_time(&newer, &optimum(&newer, BandwidthCollective::Allgather)));
    // ignnition's radio network: directed, every ordered pair of 10 nodes.
    let radio = read("ignnition-radio-network-0-directed.json", Some(&unit)).unwrap();
    assert_eq!((radio.len(), radio.links().len()), (10, 90));
    // AutoNetkit's files from networkx 1.x: edge ends are positions in `nodes`; the multigraph's
    // parallel edges add their bandwidth.
    let multi = read("autonetkit-multi-nx1-multigraph.json", Some(&unit)).unwrap();
    let node = |name: &str| multi.node_named(name).unwrap();
    assert_eq!(multi.link(node("r2"), node("r1")).unwrap().bandwidth, q(5, 1));
    assert_eq!(multi.link(node("r3"), node("r2")).unwrap().bandwidth, q(2, 1));
    assert_eq!(multi.links().len(), 6);
    let phy = read("autonetkit-expected-phy-nx1.json", Some(&unit)).unwrap();
    assert_eq!((phy.len(), phy.links().len()), (14, 34));
}

#[test]
fn topology_describes_a_fabric_and_refuses_a_huge_one_before_building_it() {
    let (code, stdout, _) = run(&["--format", "json", "topology", "ndv2x4"]);
    assert_eq!(code, 0);
    let d: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (d["nodes"].as_u64(), d["compute"].as_u64(), d["switches"].as_u64()),
        (Some(33), Some(32), Some(1))
    );
    assert_eq!(d["links"].as_array().unwrap().len(), 136);
    let (code, stdout, _) = run(&["topology", "torus3d:16x16x16"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("torus3d:16x16x16: 4096 nodes (4096 compute, 0 switches), 24576 links"),
        "{stdout}"
    );
    let (code, _, stderr) = run(&["topology", "rail:100000x8"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("more than the limit"), "{stderr}");
}

/// The constructions (rail two-level, the cubic torus's point group) give what the general
/// algorithm gives on the same fabric read back without its structure, and certify the machines
/// the general algorithm is too slow for, up to torus3d:16x16x16's 4096 GPUs.
#[test]
fn constructions_agree_with_the_general_algorithm_and_reach_four_thousand_gpus() {
    use commsched::spec::fabric::node_link::{parse_node_link, to_node_link};
    for name in ["rail:5x4", "torus3d:3x3x3", "torus3d:4x4x4"] {
        let f = machine(name);
        assert!(f.structure().is_some());
        let plain = parse_node_link(&to_node_link(&f), "plain.json", name, None).unwrap();
        assert!(plain.structure().is_none());
        for c in BandwidthCollective::ALL {
            let constructed = optimum(&f, c);
            let general = optimum(&plain, c);
            assert_eq!(checked_time(&f, &constructed), checked_time(&plain, &general), "{name} {}", c.name());
        }
    }
    // rail:128x8: the cut around one node, 127 · 8 shards through 8 × 50 GB/s; torus3d:8x8x8:
    // every node receives 511 shards through 6 × 50 GB/s.
    for (name, time) in [("rail:128x8", q(127, 50)), ("torus3d:8x8x8", q(511, 300))] {
        let f = machine(name);
        assert_eq!(checked_time(&f, &optimum(&f, BandwidthCollective::Allgather)), time, "{name}");
    }
    // torus3d:16x16x16: every node receives 4095 shards through 6 × 50 GB/s; the certificate
    // holds root 0's 6 trees and the 3 translations, not 6 · 4096 trees.
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("torus16");
    let (code, stdout, stderr) = run(&[
        "--format",
        "json",
        "solve",
        "allgather",
        "--network",
        "torus3d:16x16x16",
        "--model",
        "bandwidth",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (answer["time_per_shard"].as_str(), answer["trees_in_all"].as_u64()),
        (Some("273/20"), Some(6 * 4096))
    );
    assert_eq!(run(&["verify", cert.to_str().unwrap()]).0, 0);
    // The guard counts the hops written, root 0's: 6 · 511 on torus3d:8x8x8, not 6 · 512 · 511.
    let solve = |limit: &str| {
        let (code, _, stderr) = run(&[
            "--max-events",
            limit,
            "solve",
            "allgather",
            "--network",
            "torus3d:8x8x8",
            "--model",
            "bandwidth",
        ]);
        (code, stderr)
    };
    assert_eq!(solve("3066").0, 0);
    let (code, stderr) = solve("3065");
    assert_eq!(code, 2);
    assert!(stderr.contains("--max-events"), "{stderr}");
}

/// The constructions' symmetric packings (docs/spec.md §6.1), one root's trees and the
/// generators that take them to every root, measure what the plain packing they stand for
/// measures, expanded over the whole group, every collective; also with a generator that does
/// not commute with the others and fixes the root.
#[test]
fn symmetric_packings_measure_what_their_expansion_measures() {
    use commsched::checker::symmetry::expanded;
    for name in ["torus3d:4x4x4", "torus3d:6x6x6", "rail:5x4", "rail:16x8"] {
        let f = machine(name);
        for c in BandwidthCollective::ALL {
            let o = optimum(&f, c);
            assert!(o.packing.symmetry.is_some(), "{name}");
            let plain = expanded(&o.packing);
            assert_eq!(plain.trees.len(), o.packing.trees.len() * f.compute().len());
            let m = check_packing(&f, &plain).unwrap();
            assert_eq!(m.phases, o.measure.phases, "{name} {}", c.name());
            assert_eq!(m.time, checked_time(&f, &o), "{name} {}", c.name());
            assert_eq!(m.trees, o.measure.trees_in_all);
        }
    }
    // Every node receives 215 shards through 6 × 50 GB/s.
    let f = machine("torus3d:6x6x6");
    assert_eq!(checked_time(&f, &optimum(&f, BandwidthCollective::Allgather)), q(215, 300));
    // (x, y, z) ↦ (y, z, x) added: the group is no longer commutative and fixes node 0 three
    // ways, so every root's images split three ways; the loads are the same.
    let f = machine("torus3d:4x4x4");
    let mut o = optimum(&f, BandwidthCollective::Allgather);
    let rotation = (0..64).map(|v| v / 4 % 4 + 4 * (v / 16) + 16 * (v % 4)).collect();
    o.packing.symmetry.as_mut().unwrap().push(rotation);
    assert_eq!(check_packing(&f, &o.packing).unwrap().time, o.measure.time);
    let plain = expanded(&o.packing);
    assert_eq!(plain.trees.len(), 3 * 64 * 6);
    assert_eq!(check_packing(&f, &plain).unwrap().time, o.measure.time);
}

/// A symmetric certificate verifies, by `verify` and by the outside checker, and every way of
/// breaking its symmetry or its weights is caught, by both.
#[test]
fn symmetric_certificates_verify_and_broken_symmetries_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("torus");
    let args = ["solve", "allgather", "--network", "torus3d:4x4x4", "--model", "bandwidth", "--certificate"];
    let (code, stdout, stderr) = run(&[&["--format", "json"][..], &args, &[cert.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{stderr}");
    let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(answer["time_per_shard"], "21/100");
    let counts = ["trees", "trees_per_root", "trees_in_all", "symmetry"].map(|k| answer[k].as_u64());
    assert_eq!(counts, [Some(6), Some(6), Some(384), Some(3)]);
    let (_, text, _) = run(&args[..6]);
    assert!(
        text.contains("384 trees, 6 per root (written: root `0.0.0`'s 6 and 3 symmetry generators)"),
        "{text}"
    );
    assert_eq!(run(&["verify", cert.to_str().unwrap()]).0, 0);
    assert_eq!(outside(&cert), (Some(0), "valid\n".to_string()));

    fn symmetry(
        edit: impl Fn(&mut Vec<serde_json::Value>),
    ) -> impl Fn(serde_json::Value) -> serde_json::Value {
        move |mut d| {
            edit(d["symmetry"].as_array_mut().unwrap());
            d
        }
    }
    let cases: [(&dyn Fn(serde_json::Value) -> serde_json::Value, &str); 8] = [
        // Two images swapped: a permutation, but the links of 0.0.0 do not map to links.
        (&symmetry(|s| s[0].as_array_mut().unwrap().swap(0, 1)), "packing.json: symmetry[0]: maps the link"),
        (
            &symmetry(|s| drop(s[1].as_array_mut().unwrap().pop())),
            "packing.json: symmetry[1]: lists 63 nodes",
        ),
        (
            &symmetry(|s| s[2][1] = s[2][0].clone()),
            "packing.json: symmetry[2]: `0.0.1` is the image of two nodes",
        ),
        (
            &symmetry(|s| drop(s.pop())),
            "packing.json: symmetry: the generators take the representative root `0.0.0` to 16 of the 64",
        ),
        (
            &|mut d| {
                d["trees"][0]["weight"] = "1/3".into();
                d
            },
            "the trees rooted at `0.0.0` weigh 7/6 in all, not 1",
        ),
        // Weight moved between two trees keeps the sum and shows as a time above the bound.
        (
            &|mut d| {
                d["trees"][0]["weight"] = "1/4".into();
                d["trees"][1]["weight"] = "1/12".into();
                d
            },
            "is not the cuts' bound",
        ),
        (
            &|mut d| {
                d["trees"][1]["root"] = "1.0.0".into();
                d
            },
            "all have the representative root",
        ),
        (
            &|mut d| {
                d.as_object_mut().unwrap().remove("symmetry");
                d
            },
            "the trees rooted at `1.0.0` weigh 0 in all, not 1",
        ),
    ];
    for (edit, expect) in cases {
        let (copy, code, out) = tampered(&cert, dir.path(), "packing.json", edit);
        assert_eq!(code, 1, "{expect}: {out}");
        assert!(out.contains(expect), "expected `{expect}` in {out}");
        assert_eq!(outside(&copy).0, Some(1), "{expect}");
    }
    // A rotation added as a fourth generator commutes with no translation and is accepted.
    let (copy, code, out) = tampered(
        &cert,
        dir.path(),
        "packing.json",
        &symmetry(|s| {
            // Node (x, y, z), at x + 4y + 16z, to (y, z, x).
            let rotation: Vec<serde_json::Value> =
                (0..64).map(|v| format!("{}.{}.{}", v / 4 % 4, v / 16, v % 4).into()).collect();
            s.push(rotation.into());
        }),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(outside(&copy), (Some(0), "valid\n".to_string()));
}

/// `scripts/check_bandwidth_certificate.py` on a folder: its exit code and what it prints.
fn outside(folder: &std::path::Path) -> (Option<i32>, String) {
    let script = format!("{}/scripts/check_bandwidth_certificate.py", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3").arg(&script).arg(folder).output().expect("python3 runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `scripts/check_bandwidth_certificate.py` was written from docs/spec.md (§2.5, §3.2, §6.1,
/// §7.3) alone, by someone who read no code of commsched (its symmetric part later, from §6.1
/// and §7.3): it accepts the folders `solve` writes, with and without switches, every
/// collective, construction (symmetric) and general algorithm (plain) alike, and rejects a
/// tampered one.
#[test]
fn an_outside_checker_written_from_the_docs_accepts_our_certificates() {
    let dir = tempfile::tempdir().unwrap();
    for (collective, network) in [
        ("allgather", "ndv2x2"),
        ("reduce-scatter", "dgx2x2"),
        ("allreduce", "rail:5x4"),
        ("allreduce", "torus3d:4x4x4"),
        ("allgather", "mi250x2"),
        ("allreduce", "a100x2"),
    ] {
        let folder = dir.path().join(format!("{collective}-{network}").replace(':', "_"));
        let path = folder.to_str().unwrap();
        let (code, _, stderr) =
            run(&["solve", collective, "--network", network, "--model", "bandwidth", "--certificate", path]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(outside(&folder), (Some(0), "valid\n".to_string()), "{collective} on {network}");
    }
    let folder = dir.path().join("allgather-ndv2x2");
    let packing = folder.join("packing.json");
    let text = std::fs::read_to_string(&packing).unwrap();
    std::fs::write(&packing, text.replacen("\"weight\": \"1\"", "\"weight\": \"1/2\"", 1)).unwrap();
    let (code, report) = outside(&folder);
    assert_eq!(code, Some(1));
    assert!(report.contains("weigh 1/2 in all, not 1"), "{report}");
}

/// The α–β time of a certified optimum: never below its bandwidth term, within a few percent of
/// it for a large message, latency-bound for a small one, and the best chunk count grows with
/// the size; with no latency the pipeline is cut as finely as allowed.
#[test]
fn sized_times_pipeline_the_optimum() {
    use commsched::bandwidth::time::{MAX_CHUNKS, sized_time};
    let f = machine("ndv2x4");
    let o = optimum(&f, BandwidthCollective::Allreduce);
    let (small, large) =
        (sized_time(&f, &o.packing, &o.measure, 1 << 10), sized_time(&f, &o.packing, &o.measure, 4 << 30));
    for t in [&small, &large] {
        assert!(t.time_us >= t.bandwidth_us);
        assert_eq!(t.phases.len(), 2);
        assert!(t.phases.iter().all(|p| p.alpha_us == 1.3 && p.depth >= 2));
    }
    assert!(large.time_us < 1.05 * large.bandwidth_us, "{large:?}");
    assert!(small.time_us > 2.0 * small.bandwidth_us, "{small:?}");
    assert!(small.phases[0].chunks < large.phases[0].chunks);
    let dgx1 = load("dgx1", None).unwrap();
    let o = optimum(&dgx1, BandwidthCollective::Allgather);
    let t = sized_time(&dgx1, &o.packing, &o.measure, 1 << 30);
    assert_eq!(t.phases[0].chunks, MAX_CHUNKS);
    let (code, stdout, _) = run(&[
        "--format",
        "json",
        "solve",
        "allgather",
        "--network",
        "ndv2x2",
        "--model",
        "bandwidth",
        "--size",
        "1G",
    ]);
    assert_eq!(code, 0);
    let d: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(d["size"]["bytes"], 1u64 << 30);
    let (code, _, stderr) =
        run(&["solve", "allgather", "--network", "ndv2x2", "--model", "bandwidth", "--size", "1X"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--size"));
}
