//! The choice by message size (docs/spec.md §4.6), from the binary: `pareto --xml` writes every
//! certified point of the DGX-1 allgather frontier, each checking back with its own (S, R, C);
//! `tune allgather --network dgx1` picks SCCL's latency optimum (2, 3, 2) below the crossover
//! its formula gives and the bandwidth optimum (3, 7, 6) above, never below the lower bound,
//! and writes an algorithm set whose byte ranges tile every size and whose files all check.

use crate::cli::{json, run};

/// An attribute of the `<algo>` element of an MSCCL file.
fn algo_attribute(xml: &str, key: &str) -> String {
    let doc = roxmltree::Document::parse(xml).expect("the exported file is XML");
    doc.root_element().attribute(key).unwrap_or_else(|| panic!("no {key}")).to_string()
}

#[test]
fn every_point_of_the_dgx1_allgather_frontier_exports_and_checks_back_with_its_own_s_r_c() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().to_str().unwrap();
    let (code, walk) = json(&[
        "pareto",
        "allgather",
        "--network",
        "dgx1",
        "--max-chunks",
        "6",
        "--method",
        "sat",
        "--xml",
        xml,
    ]);
    assert_eq!(code, 0, "{walk}");
    let points = walk["points"].as_array().unwrap();
    assert_eq!(points.len(), 6, "{walk}");
    for p in points {
        let file = p["xml"].as_str().expect("a file per point");
        let (code, back) = json(&["check", file, "--network", "dgx1"]);
        assert_eq!(code, 0, "{file}: {back}");
        assert_eq!((&back["length"], &back["rounds"]), (&p["steps"], &p["rounds"]), "{file}");
        let text = std::fs::read_to_string(file).unwrap();
        let chunks = p["chunks"].as_u64().unwrap();
        assert_eq!(algo_attribute(&text, "nchunksperloop"), (8 * chunks).to_string(), "{file}");
    }
}

#[test]
fn tune_picks_the_latency_optimum_below_sccls_crossover_and_the_bandwidth_optimum_above() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    let plot = dir.path().join("tune.svg");
    let (alpha, b) = (10.0, 25.0);
    let (code, tuned) = json(&[
        "tune",
        "allgather",
        "--network",
        "dgx1",
        "--method",
        "sat",
        "--alpha",
        "10",
        "--bandwidth",
        "25",
        "--sizes",
        "1K..4G",
        "--xml",
        set.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{tuned}");
    // NCCL's Simple ring constants: 8.4 µs once, and α replaced by --alpha.
    assert_eq!(tuned["model"]["base_us"], 8.4);
    assert_eq!(tuned["bound"]["steps"], 2);
    // SCCL's formula: α·2 + (u/2)·3/b = α·3 + (u/6)·7/b at u = 3αb per rank's input, M = 8u.
    let crossover = 8.0 * 3.0 * alpha * b * 1e3;
    let sizes = tuned["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 23);
    for s in sizes {
        let (m, algorithm) = (s["bytes"].as_f64().unwrap(), s["algorithm"].as_str().unwrap());
        let expected = if m <= crossover { "pareto (2, 3, 2)" } else { "pareto (3, 7, 6)" };
        assert_eq!(algorithm, expected, "at {m} bytes");
        assert_eq!(s["certified"], true);
        let (time, bound) = (s["time_us"].as_f64().unwrap(), s["lower_bound_us"].as_f64().unwrap());
        assert!(bound <= time * (1.0 + 1e-12), "the bound {bound} is above the time {time} at {m}");
        // The time is SCCL's cost of the point, recomputed here.
        let (steps, rounds, chunks) =
            (s["steps"].as_f64().unwrap(), s["rounds"].as_f64().unwrap(), s["chunks"].as_f64().unwrap());
        let sccl = 8.4 + alpha * steps + (m / 8.0 / chunks) * rounds / (b * 1e3);
        assert!((time - sccl).abs() < 1e-9 * sccl, "{time} vs {sccl}");
        assert!((s["algbw"].as_f64().unwrap() - m / (time * 1e3)).abs() < 1e-9);
        assert!((s["busbw"].as_f64().unwrap() - s["algbw"].as_f64().unwrap() * 7.0 / 8.0).abs() < 1e-9);
    }
    // The set: two files, ranges [0, crossover] and [crossover + 1, ∞) (within a byte of the
    // formula, which floating point places), each checking back with its own S and R.
    let ranges = tuned["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 2, "{tuned}");
    let mut next = 0u64;
    for (i, r) in ranges.iter().enumerate() {
        let file = r["file"].as_str().unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        assert_eq!(algo_attribute(&text, "minBytes"), next.to_string(), "{file}");
        let max: u64 = algo_attribute(&text, "maxBytes").parse().unwrap();
        if i + 1 == ranges.len() {
            assert_eq!(max, 0, "the last file takes every larger size");
        } else {
            assert!((max as f64 - crossover).abs() <= 1.0, "{max} vs {crossover}");
            assert_eq!(r["max_bytes"].as_u64(), Some(max));
            next = max + 1;
        }
        let (code, back) = json(&["check", file, "--network", "dgx1"]);
        assert_eq!(code, 0, "{file}: {back}");
        let algorithm = r["algorithm"].as_str().unwrap();
        let expected = format!("pareto ({}, {}, ", back["length"], back["rounds"]);
        assert!(algorithm.starts_with(&expected), "{algorithm} vs {back}");
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("lower bound") && svg.contains("pareto (3, 7, 6)"), "{svg}");
}

#[test]
fn tune_output_as_csv_has_a_row_per_size() {
    let (code, out, err) =
        run(&["tune", "allgather", "--network", "ring:4", "--sizes", "1K,1M", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(
        rows[0],
        "bytes,algorithm,certified,steps,rounds,chunks,time_us,lower_bound_us,gap,algbw,busbw"
    );
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[1].starts_with("1024,") && rows[2].starts_with("1048576,"), "{out}");
}

#[test]
fn tune_refuses_bad_flags_in_one_line_naming_the_flag() {
    for (flags, name) in [
        (&["--preset", "fast"][..], "--preset"),
        (&["--preset", "none"][..], "--alpha"),
        (&["--alpha=-1"][..], "--alpha"),
        (&["--bandwidth", "0"][..], "--bandwidth"),
        (&["--sizes", "4K..1K"][..], "--sizes"),
        (&["--sizes", "1Q"][..], "--sizes"),
        (&["--max-chunks", "0"][..], "--max-chunks"),
    ] {
        let mut args = vec!["tune", "allgather", "--network", "ring:4"];
        args.extend_from_slice(flags);
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{flags:?}: {out}{err}");
        assert_eq!(err.trim().lines().count(), 1, "{flags:?}: {err}");
        assert!(err.contains(name), "{flags:?}: {err}");
    }
    let (code, _, err) = run(&["tune", "allgather"]);
    assert_eq!(code, 2);
    assert!(err.contains("--network"), "{err}");
}

/// On a machine at scale, `tune` prices the certified optimum and every registered algorithm as
/// pipelines (docs/spec.md §4.6, "At scale"): on NDv2×4 the one-hop direct packing is the
/// fastest at 1 KiB, the optimum from 64 KiB on, its algbw tending to the certified 50/3 GB/s;
/// the bound is below every chosen time on every machine tried.
#[test]
fn tune_at_scale_prices_packings_as_pipelines_under_the_depth_bound() {
    let (code, v) = json(&["tune", "allgather", "--network", "ndv2x4", "--sizes", "1K..4G"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["candidates"][0], "optimum");
    assert_eq!(v["optimum_certified"], true);
    let sizes = v["sizes"].as_array().unwrap();
    assert_eq!(sizes[0]["algorithm"], "direct");
    assert!(sizes.iter().skip(6).all(|s| s["algorithm"] == "optimum" && s["certified"] == true), "{v}");
    let last = sizes.last().unwrap()["algbw"].as_f64().unwrap();
    // 4 GiB: 16.42 GB/s, 98.5 % of the fluid optimum (a pipeline of depth 12 in 1477 chunks).
    assert!(last < 50.0 / 3.0 && last > 0.98 * 50.0 / 3.0, "{last}");
    for net in ["ndv2x4", "dgx2x2", "a100x2", "torus3d:4x4x4", "rail:2x8"] {
        for collective in ["allgather", "reduce-scatter", "allreduce"] {
            let (code, v) = json(&["tune", collective, "--network", net, "--sizes", "1K..1G"]);
            assert_eq!(code, 0, "{net} {collective}: {v}");
            for s in v["sizes"].as_array().unwrap() {
                let (t, b) = (s["time_us"].as_f64().unwrap(), s["lower_bound_us"].as_f64().unwrap());
                assert!(b <= t * (1.0 + 1e-12), "{net} {collective} at {}: bound {b} above {t}", s["bytes"]);
            }
        }
    }
    let (code, _, err) = run(&["tune", "allgather", "--network", "ndv2x4", "--xml", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("--model bandwidth --out"), "{err}");
}
