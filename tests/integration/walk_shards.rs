//! A Pareto walk in shards by C, from the binary (docs/spec.md §4.5, "Walks in shards"):
//! `pareto --shard I/N --certificate DIR` leaves folders that `verify` re-checks alone and a
//! summary, and `merge` of the shards is the unsharded walk, every folder re-checked; a
//! tampered folder, shards of another instance, a missing C and bad `--shard` flags are
//! refused with exit 2 on one line.

use crate::cli::error_line;
#[cfg(feature = "sat")]
use crate::cli::{json, run};
#[cfg(feature = "sat")]
use serde_json::Value;
use std::path::Path;

/// The DGX-1 allgather walk up to C = 3, as its flags.
const WALK: [&str; 8] = ["pareto", "allgather", "--network", "dgx1", "--max-chunks", "3", "--method", "sat"];

/// Runs shard `shard` of the walk into `dir`; its JSON.
#[cfg(feature = "sat")]
fn shard(shard: &str, dir: &Path) -> Value {
    let d = dir.to_str().unwrap();
    let (code, v) = json(&[&WALK[..], &["--shard", shard, "--certificate", d]].concat());
    assert_eq!(code, 0, "{v}");
    v
}

/// The walk without what sharding changes: the times and the folders.
#[cfg(feature = "sat")]
fn unplaced(mut v: Value) -> Value {
    v["seconds"] = 0.into();
    for list in ["points", "refuted"] {
        for entry in v[list].as_array_mut().unwrap() {
            entry["folder"] = Value::Null;
        }
    }
    v
}

/// (C, R, S, pareto) of every point.
#[cfg(feature = "sat")]
fn points(v: &Value) -> Vec<(u64, u64, u64, Value)> {
    let points = v["points"].as_array().unwrap();
    points
        .iter()
        .map(|p| {
            let n = |k: &str| p[k].as_u64().unwrap();
            (n("chunks"), n("rounds"), n("steps"), p["pareto"].clone())
        })
        .collect()
}

/// `merge DIR...` of shards' folders, as JSON.
#[cfg(feature = "sat")]
fn merge(dirs: &[&Path]) -> (i32, Value) {
    let dirs: Vec<&str> = dirs.iter().map(|d| d.to_str().unwrap()).collect();
    json(&[&["merge"][..], &dirs].concat())
}

/// Shards 0/2 (C = 1, 3) and 1/2 (C = 2) of the DGX-1 allgather walk: each shard's folders
/// verify alone, its own marks leave open what another shard's C could dominate, and their
/// merge is the unsharded walk, field for field but the folders and times: (C, R, S) = (1, 2,
/// 2) off the frontier, (2, 3, 2) and (3, 4, 3) on it. A shard 1/3 (C = 2 again) overlaps
/// shard 1/2 consistently and changes nothing; shard 0/2 alone misses C = 2.
#[cfg(feature = "sat")]
#[test]
fn a_walk_merged_from_shards_is_the_unsharded_walk() {
    let scratch = tempfile::tempdir().unwrap();
    let dirs: Vec<_> =
        ["shard-0", "shard-1", "shard-1-of-3"].iter().map(|d| scratch.path().join(d)).collect();
    let first = shard("0/2", &dirs[0]);
    assert_eq!(first["shard"], serde_json::json!({"index": 0, "count": 2, "max_chunks": 3}));
    // C = 2 (least R 3, S ≥ 2) is another shard's: it could dominate (1, 2, 2), not (3, 4, 3).
    assert_eq!(points(&first), [(1, 2, 2, Value::Null), (3, 4, 3, true.into())]);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dirs[0].join("walk.json")).unwrap()).unwrap();
    assert_eq!(summary, first, "the summary is what the shard prints");
    shard("1/2", &dirs[1]);
    shard("1/3", &dirs[2]);
    for dir in &dirs {
        let (code, stdout, _) = run(&["verify", dir.to_str().unwrap()]);
        assert_eq!(code, 0, "{stdout}");
        assert!(!stdout.contains("invalid"), "{stdout}");
    }
    let (code, whole) = json(&WALK);
    assert_eq!(code, 0, "{whole}");
    let (code, merged) = merge(&[&dirs[0], &dirs[1]]);
    assert_eq!(code, 0, "{merged}");
    let expected = [(1, 2, 2, false.into()), (2, 3, 2, true.into()), (3, 4, 3, true.into())];
    assert_eq!(points(&merged), expected);
    assert_eq!(merged["shard"], Value::Null);
    assert_eq!(merged["points"][1]["folder"], dirs[1].join("c2-r3").display().to_string());
    assert_eq!(unplaced(merged), unplaced(whole.clone()));
    let (code, overlapping) = merge(&[&dirs[1], &dirs[2], &dirs[0]]);
    assert_eq!(code, 0, "{overlapping}");
    assert_eq!(unplaced(overlapping), unplaced(whole));
    let missing = error_line(&["merge", dirs[0].to_str().unwrap()]);
    assert!(missing.ends_with("no shard holds C = 2: shard 1/2 is missing"), "{missing}");
}

/// A shard's folder whose witness was changed, a summary whose S is not its folder's, and a
/// shard of another instance are each refused at merge, naming the file.
#[cfg(feature = "sat")]
#[test]
fn merge_refuses_a_tampered_shard_and_shards_of_another_walk() {
    let scratch = tempfile::tempdir().unwrap();
    let (zero, one) = (scratch.path().join("shard-0"), scratch.path().join("shard-1"));
    shard("0/2", &zero);
    shard("1/2", &one);
    let (z, o) = (zero.to_str().unwrap(), one.to_str().unwrap());
    let witness = one.join("c2-r3").join("schedule.json");
    let honest = std::fs::read_to_string(&witness).unwrap();
    std::fs::write(&witness, honest.replacen("1", "0", 1)).unwrap();
    let tampered = error_line(&["merge", z, o]);
    assert!(tampered.contains("c2-r3: refused: schedule.json: sha256"), "{tampered}");
    std::fs::write(&witness, &honest).unwrap();
    let summary = one.join("walk.json");
    let text = std::fs::read_to_string(&summary).unwrap();
    std::fs::write(&summary, text.replacen("\"steps\": 2", "\"steps\": 1", 1)).unwrap();
    let lying = error_line(&["merge", z, o]);
    assert!(lying.contains("walk.json: field `points`: C = 2: S = 1, and the witness"), "{lying}");
    std::fs::write(&summary, &text).unwrap();
    let ring = scratch.path().join("ring");
    let args = ["pareto", "allgather", "--network", "ring:4", "--max-chunks", "3", "--method", "sat"];
    let (code, _, stderr) =
        run(&[&args[..], &["--shard", "1/2", "--certificate", ring.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{stderr}");
    let other = error_line(&["merge", z, ring.to_str().unwrap()]);
    assert!(other.contains("ring/walk.json: field `instance`: made for another instance than"), "{other}");
    let (code, merged) = merge(&[&zero, &one]);
    assert_eq!(code, 0, "restored shards merge: {merged}");
}

/// `--shard` that is not I/N with I < N, one that holds no C of 1..=--max-chunks, one without
/// --certificate, and a merge of a report with a walk's shard exit with 2 on one line naming
/// the flag or file.
#[test]
fn bad_shards_are_refused_on_one_line() {
    let scratch = tempfile::tempdir().unwrap();
    let d = scratch.path().join("walk");
    let d = d.to_str().unwrap();
    for (flag, expected) in [
        ("2/2", "`2/2` is not I/N with 0 ≤ I < N"),
        ("1/0", "`1/0` is not I/N with 0 ≤ I < N"),
        ("one/2", "`one/2` is not I/N with 0 ≤ I < N"),
        ("3/4", "`3/4` holds no C of 1..=3: I is at least --max-chunks"),
    ] {
        let line = error_line(&[&WALK[..], &["--shard", flag, "--certificate", d]].concat());
        assert_eq!(line, format!("commsched: error: <flags>: field `--shard`: {expected}"));
    }
    let line = error_line(&[&WALK[..], &["--shard", "0/2"]].concat());
    assert!(line.contains("`0/2` needs --certificate DIR"), "{line}");
    assert!(!Path::new(d).exists(), "a refused shard writes nothing");
    let report = scratch.path().join("report.json");
    std::fs::write(&report, "{\"run\": {}, \"instances\": []}").unwrap();
    std::fs::create_dir_all(d).unwrap();
    let mixed = error_line(&["merge", report.to_str().unwrap(), d]);
    assert!(mixed.contains("report.json: field `shard`: absent: not a shard's summary"), "{mixed}");
}

/// Broadcast on ring:4 refutes R = 1 for C = 1 and 2 by a bound and R = 2 for C = 3 by a checked
/// proof: the merge re-checks each refutation folder and keeps its evidence, as the unsharded
/// walk reports it. A summary that drops a refuted R (claiming the least R without its
/// evidence) and a cut proof are refused.
#[cfg(feature = "sat")]
#[test]
fn refuted_budgets_are_rechecked_and_kept_by_the_merge() {
    let scratch = tempfile::tempdir().unwrap();
    let (zero, one) = (scratch.path().join("shard-0"), scratch.path().join("shard-1"));
    let args = ["pareto", "broadcast", "--network", "ring:4", "--max-chunks", "3", "--method", "sat"];
    for (shard, dir) in [("0/2", &zero), ("1/2", &one)] {
        let (code, _, stderr) =
            run(&[&args[..], &["--shard", shard, "--certificate", dir.to_str().unwrap()]].concat());
        assert_eq!(code, 0, "{stderr}");
    }
    let (code, whole) = json(&args);
    assert_eq!(code, 0, "{whole}");
    let (code, merged) = merge(&[&zero, &one]);
    assert_eq!(code, 0, "{merged}");
    let refuted: Vec<(u64, u64, &str)> = merged["refuted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["chunks"].as_u64().unwrap(), r["rounds"].as_u64().unwrap(), r["certificate"].as_str().unwrap())
        })
        .collect();
    let bound = "lower bound: the steps need more than R = 1 rounds";
    assert_eq!(refuted, [(1, 1, bound), (2, 1, bound), (3, 2, "proof checked")]);
    let expected = [(1, 2, 2, false.into()), (2, 2, 2, true.into()), (3, 3, 3, false.into())];
    assert_eq!(points(&merged), expected);
    assert_eq!(unplaced(merged), unplaced(whole));
    let (z, o) = (zero.to_str().unwrap(), one.to_str().unwrap());
    let summary = zero.join("walk.json");
    let text = std::fs::read_to_string(&summary).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["refuted"].as_array_mut().unwrap().retain(|r| r["chunks"] != 3);
    std::fs::write(&summary, v.to_string()).unwrap();
    let unproved = error_line(&["merge", z, o]);
    assert!(
        unproved.contains("field `refuted`: C = 3: R = [] refuted, then the point (S, R) = (3, 3)"),
        "{unproved}"
    );
    std::fs::write(&summary, &text).unwrap();
    let proof = zero.join("c3-r2").join(commsched::exact::PROOF_LRAT);
    let lrat = std::fs::read_to_string(&proof).unwrap();
    std::fs::write(&proof, &lrat[..lrat.len() / 2]).unwrap();
    let cut = error_line(&["merge", z, o]);
    assert!(cut.contains("c3-r2: refused: infeasible.lrat: sha256"), "{cut}");
}
