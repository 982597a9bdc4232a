//! `--timeout` as one limit for a whole command, and the cheap bounds that answer first: the
//! reproducers of the two-box alltoall (`tests/data/cli/two-boxes-8.json`: two fully connected
//! 8-GPU boxes, GPU i of one joined to GPU i of the other, every link of bandwidth 1) and of
//! the DGX-1 Pareto walk. No test asserts a duration: they assert what a stopped or refused run
//! reports and its exit status.

use super::cli::{data, json, run};
use std::path::{Path, PathBuf};

/// An items guard above the 4,096,000 holdings of the two boxes' alltoall with C = 1000.
const ITEMS: &str = "8000000";

/// Writes the alltoall on the two boxes (`gen` with `extra` flags) into `dir`.
fn two_boxes(dir: &Path, extra: &[&str]) -> PathBuf {
    let topology = data("two-boxes-8.json");
    let mut args = vec!["gen", "alltoall", "--network", topology.as_str()];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let path = dir.join(format!("two-boxes{}.toml", extra.join("")));
    std::fs::write(&path, stdout).unwrap();
    path
}

#[test]
fn the_cut_between_the_boxes_bounds_alltoall_at_eight_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let inst = two_boxes(dir.path(), &[]);
    let (code, v) = json(&["bounds", inst.to_str().unwrap(), "--timeout", "5"]);
    assert_eq!(code, 0);
    let cut = v["bounds"].as_array().unwrap().iter().find(|b| b["name"] == "cut").expect("a cut bound");
    assert_eq!(cut["value"], 8, "64 chunks enter a box through 8 unit links: {cut}");
    assert_eq!(v["lower_bound"], 8);
    let names: Vec<&str> =
        v["bounds"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert!(
        names.contains(&"multicommodity flow") || names.contains(&"flow LP not solved"),
        "the flow LP is solved or named as missing: {names:?}"
    );
}

#[test]
fn ring_under_a_timeout_answers_with_its_checked_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let inst = two_boxes(dir.path(), &[]);
    let out = dir.path().join("ring.json");
    let (code, v) = json(&[
        "solve",
        inst.to_str().unwrap(),
        "--method",
        "ring",
        "--timeout",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"], "heuristic", "{v}");
    assert_eq!(v["length"], 120, "{v}");
    assert_eq!(v["lower_bound"], 8, "{v}");
    let (code, stdout, stderr) = run(&["check", inst.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn an_algorithm_that_does_not_apply_is_refused_before_the_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let inst = two_boxes(dir.path(), &[]);
    let (code, _, stderr) = run(&["solve", inst.to_str().unwrap(), "--method", "direct", "--timeout", "600"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("direct does not apply: node 9 has no link to node 0"), "{stderr}");
}

#[test]
fn a_budget_below_a_cheap_count_is_refuted_at_once_with_the_bound_named() {
    let dir = tempfile::tempdir().unwrap();
    // C = 1000, R = 10: every rank receives 15,000 chunks through 8 unit in-links. Its
    // 16 · 16 · 16 · 1000 holdings are over the default items guard, which is raised.
    let big = two_boxes(dir.path(), &["--chunks", "1000", "--rounds", "10", "--max-items", ITEMS]);
    let (code, v) = json(&["bounds", big.to_str().unwrap(), "--max-items", ITEMS]);
    assert_eq!(code, 0);
    let why = v["no_schedule"].as_str().expect("bounds say no schedule exists");
    assert!(why.starts_with("receive bandwidth: node 0 receives 15000 chunks"), "{why}");
    for method in ["exact", "ring"] {
        let (code, stdout, stderr) = run(&[
            "solve",
            big.to_str().unwrap(),
            "--method",
            method,
            "--timeout",
            "600",
            "--max-items",
            ITEMS,
        ]);
        assert_eq!(code, 2, "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("field `network`: receive bandwidth") && stderr.contains("no schedule exists")
        );
    }
    // C = 1, R = 5: each rank's 15 chunks fit its in-links in 2 rounds, but 64 chunks must
    // enter each box through 8 links: the cut refutes it.
    let cut = two_boxes(dir.path(), &["--rounds", "5"]);
    let (code, _, stderr) = run(&["solve", cut.to_str().unwrap(), "--method", "exact", "--timeout", "600"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cut: 64 chunks enter {0, 1, 2, 3, 4, 5, 6, 7}"), "{stderr}");
    assert!(stderr.contains("need 8 rounds; the budget is R = 5: no schedule exists"), "{stderr}");
}

#[test]
fn a_stopped_pareto_walk_settles_no_point_it_did_not_and_exits_with_4() {
    let (code, v) =
        json(&["pareto", "allgather", "--network", "dgx1", "--max-chunks", "6", "--timeout", "2"]);
    let points = v["points"].as_array().unwrap();
    match code {
        4 => {
            assert_eq!(v["stop"], "timeout", "{v}");
            assert_eq!(v["complete"], false);
            // Every point below C = 6 has R/C above 7/6, which (C, R) = (6, 7) could reach.
            for p in points {
                assert_ne!(p["pareto"], true, "a stopped walk settled {p}");
            }
        }
        // A machine fast enough to walk it all in time: the complete frontier.
        0 => {
            assert_eq!(v["complete"], true, "{v}");
            assert!(points.iter().any(|p| p["chunks"] == 2 && p["pareto"] == true), "{v}");
        }
        other => panic!("exit {other}: {v}"),
    }
}

#[test]
fn an_algorithm_still_running_at_the_deadline_is_abandoned_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    // C = 1000 without a budget: 256,000 chunks for the ring to route, far more than 3 s.
    let inst = two_boxes(dir.path(), &["--chunks", "1000", "--max-items", ITEMS]);
    let out = dir.path().join("none.json");
    let (code, stdout, stderr) = run(&[
        "--max-items",
        ITEMS,
        "solve",
        inst.to_str().unwrap(),
        "--method",
        "ring",
        "--timeout",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "alltoall-two-boxes-8: ring bounds [8000, -] (timeout)");
    assert!(!out.exists(), "no schedule was found, none is written");
}

#[test]
fn report_answers_within_its_timeout_with_what_it_proved() {
    let dir = tempfile::tempdir().unwrap();
    let inst = two_boxes(dir.path(), &[]);
    let (code, v) = json(&["report", inst.to_str().unwrap(), "--timeout", "5"]);
    assert_eq!(code, 0, "{v}");
    let row = &v["instances"][0];
    assert_eq!(row["lower_bound"]["value"], 8, "{row}");
    assert!(row["answer"]["length"].as_u64().or(row["answer"]["upper_bound"].as_u64()).is_some(), "{row}");
}
