//! The CLI contract: exit codes (0 admissible / solved, 1 inadmissible, 2 bad input), the JSON
//! fields scripts rely on, and one-line error messages naming file, field and reason
//! (snapshot-tested under `snapshots/`).

use std::process::Command;

pub(crate) fn data(name: &str) -> String {
    format!("{}/tests/data/cli/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary from the crate root; returns (exit code, stdout, stderr).
pub(crate) fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_commsched"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().expect("exited normally, not by a signal"),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

/// `bench` on the smallest sizes: path(4) and ring(4), 20 chatting messages, no exact draws.
const SMALL_BENCH: &[&str] =
    &["bench", "--sizes", "4", "--messages", "20", "--exact-draws", "0", "--tree-draws", "0"];

pub(crate) fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(&all);
    let v = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {stdout}\n{stderr}"));
    (code, v)
}

/// Error text with the machine-specific crate path replaced, so snapshots are portable.
pub(crate) fn error_line(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 2, "bad input exits with 2; stdout: {stdout}");
    assert!(stdout.is_empty(), "errors print nothing on stdout: {stdout}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr.replace(env!("CARGO_MANIFEST_DIR"), "$CRATE").trim_end().to_string()
}

#[test]
fn check_accepts_an_optimal_schedule_and_certifies_it_by_the_bisection_bound() {
    let (code, v) = json(&["check", &data("path3.toml"), &data("path3-optimal.json")]);
    assert_eq!(code, 0);
    assert_eq!(v["admissible"], true);
    assert_eq!(v["length"], 2);
    assert_eq!(v["lower_bound"], 2, "TE-1: ⌈(3²−1)/4⌉ = 2");
    assert_eq!(v["certified"], true);
    assert_eq!(v["status"], "optimal");
    assert!(v["certificate"].as_str().unwrap().starts_with("lower-bound"));
    assert_eq!(v["violations"].as_array().unwrap().len(), 0);
}

#[test]
fn check_rejects_a_collision_with_exit_code_1_and_names_the_rule() {
    let (code, v) = json(&["check", &data("path3.toml"), &data("path3-collision.json")]);
    assert_eq!(code, 1);
    assert_eq!(v["admissible"], false);
    assert_eq!(v["status"], "inadmissible");
    assert_eq!(v["certified"], false);
    let violations: Vec<&str> =
        v["violations"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    assert!(violations.iter().any(|s| s.starts_with("arc rule: step 1, arc (0,1)")), "{violations:?}");
    snapshot!(
        "cli_check_collision_text",
        run(&["check", &data("path3.toml"), &data("path3-collision.json")]).1
    );
}

#[test]
fn bad_input_gets_one_line_naming_file_field_and_reason() {
    let cases: [(&str, Vec<String>); 8] = [
        ("cli_error_toml_syntax", vec!["bounds".into(), data("bad-syntax.toml")]),
        ("cli_error_unknown_node", vec!["bounds".into(), data("unknown-node.toml")]),
        ("cli_error_negative_length", vec!["bounds".into(), data("negative-length.toml")]),
        ("cli_error_capacity_rule", vec!["bounds".into(), data("bad-capacity.toml")]),
        ("cli_error_missing_file", vec!["bounds".into(), "no/such/file.toml".into()]),
        ("cli_error_schedule_malformed", vec!["check".into(), data("path3.toml"), data("malformed.json")]),
        (
            "cli_error_schedule_unknown_node",
            vec!["check".into(), data("path3.toml"), data("unknown-node.json")],
        ),
        (
            "cli_error_unknown_method",
            vec!["solve".into(), data("path3.toml"), "--method".into(), "nope".into()],
        ),
    ];
    for (name, args) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        snapshot!(name, error_line(&args));
    }
}

#[test]
fn an_unknown_token_is_a_violation_not_an_input_error() {
    let (code, v) = json(&["check", &data("path3.toml"), &data("unknown-token.json")]);
    assert_eq!(code, 1);
    let violations = v["violations"].as_array().unwrap();
    assert!(violations.iter().any(|x| x.as_str().unwrap().starts_with("unknown item")), "{violations:?}");
}

#[test]
fn gen_writes_an_instance_that_loads_back() {
    let (code, stdout, _) =
        run(&["gen", "total-exchange", "--network", "ring:8", "--ring-tie", "alternating"]);
    assert_eq!(code, 0);
    let inst = commsched::spec::io::parse_instance(&stdout, "<stdout>", "x").expect("gen output parses");
    assert_eq!(inst.network.spec_string(), "ring:8");
    assert_eq!(inst.ring_tie, commsched::spec::RingTie::Alternating);
    snapshot!("cli_gen_ring8", stdout);
    snapshot!("cli_error_gen_torus2", error_line(&["gen", "gossip", "--network", "torus:2x2"]));
}

#[test]
fn solve_with_an_algorithm_reports_a_checked_certified_length() {
    let (code, v) = json(&["solve", &data("path3.toml"), "--method", "furthest-first"]);
    assert_eq!(code, 0);
    assert_eq!(v["admissible"], true);
    assert_eq!(v["length"], 2);
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["certified"], true);
}

#[test]
fn solve_exact_certifies_the_optimum_and_writes_a_checkable_schedule() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("cli.json");
    let out_s = out.display().to_string();
    let (code, v) = json(&["solve", &data("path3.toml"), "--method", "exact", "--out", &out_s]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["length"], 2);
    assert_eq!(v["certified"], true);
    assert!(v["certificate"].is_string());
    // furthest-first meets the bound, so the search returns it without running the backend,
    // and the answer names the algorithm.
    assert!(v["method"].as_str().unwrap().starts_with("furthest-first (incumbent of "), "{}", v["method"]);
    let (code, v) = json(&["check", &data("path3.toml"), &out_s]);
    assert_eq!(code, 0);
    assert_eq!(v["length"], 2);
}

/// The 2×12 mesh under H\*: the ladder cut gives 18 and every registered algorithm takes longer
/// (urgent-orbits 19).
const MESH_2X12: &str = "docs/results/gossip-mesh2x12-hstar/instance.toml";

/// Where no algorithm meets the bound the witness is the backend's, and the answer names it:
/// on the 2×12 mesh the algorithms take 19 or more and z3 finds the optimum 18 (the ladder cut).
#[cfg(feature = "smt")]
#[test]
fn solve_exact_names_the_backend_that_found_the_witness() {
    let (code, v) = json(&["solve", MESH_2X12, "--method", "exact"]);
    assert_eq!(code, 0);
    assert_eq!((v["method"].as_str(), v["length"].as_u64()), (Some("smt"), Some(18)));
    assert_eq!(v["certified"], true);
}

#[test]
fn list_names_the_papers_algorithms() {
    let (code, stdout, _) = run(&["list"]);
    assert_eq!(code, 0);
    for name in ["furthest-first", "message-shift", "modified-message-shift", "consecutive-scatter"] {
        assert!(stdout.contains(name), "{name} missing from:\n{stdout}");
    }
}

#[test]
fn hostile_sizes_and_options_get_exit_2_and_one_line_naming_what_was_typed() {
    let ring5 = format!("{}/instances/004/ring5.toml", env!("CARGO_MANIFEST_DIR"));
    let cases: [(&str, Vec<&str>); 16] = [
        ("cli_error_timeout_1e20", vec!["solve", &ring5, "--method", "exact", "--timeout", "1e20"]),
        (
            "cli_error_timeout_u64_max",
            vec!["solve", &ring5, "--method", "exact", "--timeout", "18446744073709551615"],
        ),
        ("cli_error_report_timeout", vec!["report", "--timeout", "1e20"]),
        ("cli_error_nodes_path", vec!["gen", "total-exchange", "--network", "path:100000000"]),
        ("cli_error_nodes_mesh", vec!["gen", "total-exchange", "--network", "mesh:99999x99999"]),
        ("cli_error_nodes_ring", vec!["gen", "total-exchange", "--network", "ring:99999999"]),
        ("cli_error_nodes_esm", vec!["gen", "chatting", "--network", "esm:100000", "--messages", "0-1:1"]),
        ("cli_error_items", vec!["gen", "total-exchange", "--network", "path:5000"]),
        (
            "cli_error_gen_capacity_on_ring",
            vec!["gen", "total-exchange", "--network", "ring:6", "--capacity", "const:2"],
        ),
        (
            "cli_error_gen_port_on_sf",
            vec!["gen", "total-exchange", "--network", "ring:6", "--port", "single"],
        ),
        (
            "cli_error_gen_ring_tie",
            vec!["gen", "total-exchange", "--network", "ring:6", "--ring-tie", "bogus"],
        ),
        ("cli_error_gen_no_routes", vec!["gen", "scatter", "--network", "mesh:2x2", "--lengths", "1,1,1"]),
        (
            "cli_error_gen_routes_on_tree",
            vec!["gen", "scatter", "--network", "path:4", "--lengths", "1,1,1", "--routes", "bfs"],
        ),
        (
            "cli_error_gen_routes_unknown",
            vec!["gen", "gather", "--network", "mesh:2x2", "--lengths", "1,1,1", "--routes", "star"],
        ),
        (
            "cli_error_gen_spanning_mesh",
            vec!["gen", "scatter", "--network", "mesh:4x4", "--lengths", "1", "--routes", "spanning:2"],
        ),
        (
            "cli_error_events",
            vec!["--max-compact-events", "10", "solve", &ring5, "--method", "furthest-first"],
        ),
    ];
    for (name, args) in cases {
        snapshot!(name, error_line(&args));
    }
    // The limits are overrides, not walls: raised, the same sizes go through.
    let (code, stdout, _) =
        run(&["--max-items", "30000000", "gen", "total-exchange", "--network", "path:5000"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("path:5000"), "{stdout}");
}

#[test]
fn export_uses_the_same_size_guard_as_solve() {
    let ring5 = format!("{}/instances/004/ring5.toml", env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("guard");
    let line =
        error_line(&["--max-compact-events", "10", "export", &ring5, "--out", &dir.display().to_string()]);
    assert!(line.contains("ring5.toml") && line.contains("--max-compact-events"), "{line}");
    assert!(!dir.exists(), "nothing is written");
}

#[test]
fn check_prints_at_most_max_violations_and_counts_the_rest() {
    // 1000 hops of a token path:3 does not have: 1000 violations.
    let hop = r#"[{"from": 0, "to": 1, "tokens": [99]}]"#;
    let steps = vec![hop; 1000].join(",");
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("many.json");
    std::fs::write(
        &file,
        format!(r#"{{"problem": "total-exchange", "model": "store-forward", "steps": [{steps}]}}"#),
    )
    .unwrap();
    let f = file.display().to_string();
    let (code, stdout, _) = run(&["check", &data("path3.toml"), &f]);
    assert_eq!(code, 1);
    assert!(stdout.starts_with("path3: check inadmissible, "), "{stdout}");
    let listed = stdout.lines().filter(|l| l.starts_with("  ") && !l.contains("more")).count();
    assert_eq!(listed, 100, "the default --max-violations");
    let total: usize = stdout.split(", ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(stdout.contains(&format!("  ... and {} more (raise --max-violations)", total - 100)), "{stdout}");
    let (code, v) = json(&["check", &data("path3.toml"), &f, "--max-violations", "3"]);
    assert_eq!(code, 1);
    assert_eq!(v["violations"].as_array().unwrap().len(), 3);
    assert_eq!(v["violations_omitted"].as_u64().unwrap() as usize, total - 3);
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_commsched"))
        .args(["report", "--no-exact"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take()); // the reader goes away before the report is written
    let out = child.wait_with_output().expect("it ends");
    assert_eq!(out.status.code(), Some(0));
    // stderr carries the report's progress lines, and nothing about the closed pipe.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("error") && !stderr.contains("Broken pipe"), "{stderr}");
}

#[test]
fn ratios_writes_table_csv_and_chart_and_names_bad_flags() {
    for (name, flag, value) in [
        ("cli_error_ratios_count", "--count", "0"),
        ("cli_error_ratios_messages", "--messages", "13"),
        ("cli_error_ratios_max_len", "--max-len", "0"),
        ("cli_error_ratios_timeout", "--timeout", "0"),
    ] {
        snapshot!(name, error_line(&["ratios", "--family", "ula", flag, value]));
    }
    let (code, _, stderr) = run(&["ratios", "--family", "ring"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("invalid value 'ring'") && stderr.contains("ula"), "{stderr}");
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("ratios");
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) = run(&["ratios", "--family", "ula,esm", "--count", "3", "--out", out]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("| family | algorithm |"), "{stdout}");
    assert!(
        stdout.contains("| ula | first-fit | virtual | 3 | 1.000 | 1.000 | 1.000 | CHAT-14 | 0 |"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(dir.join("ratios.md")).unwrap(), stdout);
    let csv = std::fs::read_to_string(dir.join("ratios.csv")).unwrap();
    assert!(csv.starts_with("family,algorithm,schedule,instances,max_ratio,"), "{csv}");
    assert_eq!(csv.lines().count(), stdout.lines().take_while(|l| l.starts_with('|')).count() - 1);
    for family in ["ula", "esm"] {
        let svg = std::fs::read_to_string(dir.join(format!("ratios-{family}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("first-fit") == (family == "ula"), "{family}");
    }
}

#[test]
fn bench_checks_every_chatting_algorithm_and_reports_the_exact_draws() {
    let (code, stdout, stderr) = run(&[
        "bench",
        "--sizes",
        "4",
        "--messages",
        "40",
        "--exact-draws",
        "2",
        "--tree-draws",
        "1",
        "--timeout",
        "5",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("INADMISSIBLE"), "{stdout}");
    for method in ["first-fit", "recursive-cut", "esm-slot-refined", "bt-cut-decomposition"] {
        assert!(stdout.contains(&format!(" {method} ")), "{method}: {stdout}");
    }
    for (on, schedule, setting, draws) in [
        ("ula:8, 12 messages", "chatting", "ilp alone", "2"),
        ("ula:8, 12 messages", "virtual", "ilp alone", "2"),
        ("12-node trees, lengths 0..4", "distributed gather", "solve --method exact", "1"),
    ] {
        let line = stdout.lines().find(|l| l.starts_with(on) && l.contains(schedule)).unwrap();
        assert!(line.contains(setting), "{line}");
        // The last four cells: draws, certified, median s, max s.
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[cells.len() - 4], draws, "{line}");
    }
}

#[test]
fn list_and_bench_print_json_and_other_commands_refuse_formats_they_cannot_print() {
    let (code, v) = json(&["list"]);
    assert_eq!(code, 0);
    let problems = v.as_array().expect("an array of problems");
    assert_eq!(problems.len(), 9);
    let collective = problems.iter().find(|p| p["problem"] == "collective").unwrap();
    assert!(
        collective["exact"].as_array().unwrap().iter().any(|e| e["encoder"] == "collective"),
        "{collective}"
    );
    let te = problems.iter().find(|p| p["problem"] == "total-exchange").unwrap();
    assert!(te["algorithms"].as_array().unwrap().iter().any(|a| a["name"] == "furthest-first"));
    assert!(te["exact"].as_array().unwrap().iter().all(|e| e["backends"].is_array()));
    // Text: the name column fits the longest name, so every name is followed by a space.
    let (_, text, _) = run(&["list"]);
    for p in problems {
        for a in p["algorithms"].as_array().unwrap() {
            let name = a["name"].as_str().unwrap();
            assert!(text.contains(&format!("  {name} ")), "{name} overflows its column");
        }
    }
    let (code, v) = json(SMALL_BENCH);
    assert_eq!(code, 0);
    let rows = v["rows"].as_array().unwrap();
    assert!(
        rows.iter().any(|r| r["network"] == "path:4" && r["method"] == "furthest-first" && r["length"] == 4)
    );
    assert!(rows.iter().all(|r| r["violations"] == 0 && r["length"].is_u64()));
    let small_bench = |guard: &str| json(&[&[guard, "10"][..], SMALL_BENCH].concat());
    let (code, v) = small_bench("--max-events");
    assert_eq!(code, 0);
    // Furthest-first holds itineraries; consecutive-scatter, explicit only, is over --max-events.
    assert_eq!(
        (&v["skipped"][0]["network"], &v["skipped"][0]["method"]),
        (&"path:4".into(), &"consecutive-scatter".into())
    );
    assert!(v["skipped"][0]["reason"].as_str().unwrap().contains("20 packet hops"), "{}", v["skipped"][0]);
    let rows = v["rows"].as_array().unwrap();
    let ff = rows.iter().find(|r| r["network"] == "path:4" && r["method"] == "furthest-first").unwrap();
    assert_eq!((&ff["form"], &ff["length"]), (&"itineraries".into(), &4.into()));
    let (code, v) = small_bench("--max-compact-events");
    assert_eq!(code, 0);
    assert_eq!(
        (&v["skipped"][0]["network"], &v["skipped"][0]["method"]),
        (&"path:4".into(), &serde_json::Value::Null)
    );
    assert!(
        v["skipped"][0]["reason"].as_str().unwrap().contains("--max-compact-events"),
        "{}",
        v["skipped"][0]
    );
    let refused = error_line(&["--format", "json", "gen", "gossip", "--network", "path:4"]);
    assert!(
        refused.contains("field `--format`: `json` is not an output of gen, which prints text"),
        "{refused}"
    );
    let csv = error_line(&["--format", "csv", "bounds", "instances/004/path4.toml"]);
    assert!(csv.contains("`csv` is not an output of bounds"), "{csv}");
    let (code, csv, _) = run(&["--format", "csv", "report", "--no-exact", "instances/004/path4.toml"]);
    assert_eq!(code, 0);
    assert!(csv.starts_with("file,instance,problem,network,lower_bound,"), "{csv}");
    assert!(
        csv.contains("instances/004/path4.toml,path4,total-exchange,path:4,\"4 (bisection, TE-1)\""),
        "{csv}"
    );
}

#[test]
fn report_shards_cover_every_instance_once() {
    let rows = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--format", "csv", "report", "--no-exact", "instances/004"];
        all.extend_from_slice(args);
        let (code, csv, err) = run(&all);
        assert_eq!(code, 0, "{err}");
        csv.lines().skip(1).map(|l| l.split(',').next().unwrap().to_string()).collect()
    };
    let whole = rows(&[]);
    let mut shards = rows(&["--shard", "0/3"]);
    assert_eq!(shards.len(), whole.len().div_ceil(3));
    shards.extend(rows(&["--shard", "1/3"]));
    shards.extend(rows(&["--shard", "2/3"]));
    shards.sort();
    assert_eq!(shards, whole);
    let bad = error_line(&["report", "--shard", "3/3", "instances/004"]);
    assert!(bad.contains("field `--shard`: `3/3` is not I/N with 0 ≤ I < N"), "{bad}");
}

/// `bench --trees NODES:FLITS` adds paper 001's tree algorithms on a seeded random tree: every
/// row is checked admissible, FDF scatter and its reversed gather have the same length (SG-4 and
/// time reversal), and a tree over `--max-events` is skipped with a line saying so.
#[test]
fn bench_trees_rows_are_checked_and_guarded() {
    let bench = [SMALL_BENCH, &["--trees", "60:400"]].concat();
    let (code, stdout, stderr) = run(&bench);
    assert_eq!(code, 0, "{stderr}");
    let length = |method: &str| {
        let row = stdout.lines().find(|l| l.split_whitespace().nth(1) == Some(method)).expect(method);
        row.split_whitespace().nth(3).unwrap().parse::<u64>().unwrap_or_else(|_| panic!("{row}"))
    };
    assert_eq!(length("farthest-destination-first"), length("reversed-fdf"));
    assert!(length("nearest-first") >= length("farthest-destination-first"));
    assert!(!stdout.contains("INADMISSIBLE"), "{stdout}");
    let (code, stdout, _) = run(&[&["--max-events", "10"][..], &bench].concat());
    assert_eq!(code, 0);
    assert!(
        stdout.contains("skipped:") && stdout.contains("flit-arc crossings exceed --max-events 10"),
        "{stdout}"
    );
}

/// `sweep fat-tree`: Table 1 of paper 002 as CSV and SVG. Under w = 1 Algorithm 1 is the naive
/// broadcast, log N (log N + 1) (FT-3), checked, equal to recurrence (3) (FT-8) and to the
/// round-model bound it attains (FT-17); above the `--max-nodes` guard only the recurrence is
/// given.
#[test]
fn sweep_fat_tree_writes_table_1() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("sweep");
    let (code, stdout, stderr) = run(&[
        "sweep",
        "fat-tree",
        "--max-log",
        "5",
        "--capacities",
        "const:1,pow:1",
        "--max-nodes",
        "16",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let csv = std::fs::read_to_string(dir.join("table1.csv")).unwrap();
    assert_eq!(csv, stdout);
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 8, "N = 4 … 32 for two capacities");
    for row in rows.iter().filter(|r| r[0] == "const:1") {
        let l: u64 = row[1].parse().unwrap();
        let naive = (l * (l + 1)).to_string();
        assert_eq!(row[4], naive, "recurrence (3), log N = {l}");
        assert_eq!(row[3], if l <= 4 { naive.as_str() } else { "" }, "checked within the guard only");
        assert_eq!(row[10], naive, "FT-17 attained");
    }
    let svg = std::fs::read_to_string(dir.join("table1.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("w = pow:1"));
}

/// `solve --certificate` writes a folder that `verify` accepts: on ula12 (chatting, Fig. 5) the
/// optimum 5 is certified by a checked proof that T − 1 = 4 is infeasible. The same folder with
/// its proof truncated, or with the CNF of another horizon, is rejected with exit 1, naming the
/// file.
#[cfg(feature = "sat")]
#[test]
fn verify_accepts_the_certificate_folder_it_wrote_and_rejects_a_truncated_proof() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("certificate");
    let d = dir.to_str().unwrap();
    let (code, stdout, stderr) =
        run(&["solve", "instances/000/ula12-fig5.toml", "--method", "sat", "--certificate", d]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("infeasible-at-T-1 (T-1 = 4, proof checked)"), "{stdout}");
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!((code, stdout.contains("valid certificate")), (0, true), "{stdout}");

    let proof = dir.join("infeasible.lrat");
    let text = std::fs::read_to_string(&proof).unwrap();
    let cut: Vec<&str> = text.lines().collect();
    // Cut just before the step that adds the empty clause (`ID 0 HINTS 0`).
    let end = cut.iter().position(|l| l.split_whitespace().nth(1) == Some("0")).unwrap();
    std::fs::write(&proof, cut[..end].join("\n") + "\n").unwrap();
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("infeasible.lrat: sha256"), "{stdout}");
    assert!(stdout.contains("proof never derives the empty clause"), "{stdout}");
    std::fs::write(&proof, text).unwrap();

    let (code, _, stderr) =
        run(&["export", "instances/000/ula12-fig5.toml", "--backend", "sat", "--horizon", "3", "--out", d]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::rename(dir.join("ula12-fig5.sat.cnf"), dir.join("infeasible.cnf")).unwrap();
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("infeasible.cnf: not the encoding of the instance at T-1 = 4"), "{stdout}");
}

/// A proof-checked folder whose proof is stored compressed verifies: the committed DGX-1
/// allgather folder with its proof as `xz -9e` and `zstd -19 --long=27` wrote it
/// (tests/data/certificates/), the manifest listing the compressed file, its SHA-256 and size as
/// stored. A flipped byte in the compressed proof is bad input (docs/spec.md §7.1): exit 2, one
/// line naming the file and what the decoder found, nothing on standard output. A manifest that
/// lists the proof twice, plain and compressed, is an invalid certificate.
#[test]
fn verify_reads_a_compressed_proof_and_refuses_a_damaged_one() {
    let committed = "instances/sccl/dgx1-allgather-c6r7.certificate";
    for (extension, form) in [("xz", "xz"), ("zst", "zstd")] {
        let scratch = tempfile::tempdir().unwrap();
        let (dir, d) = (scratch.path(), scratch.path().to_str().unwrap());
        for f in ["instance.toml", "schedule.json", "infeasible.cnf"] {
            std::fs::copy(format!("{committed}/{f}"), dir.join(f)).unwrap();
        }
        let name = format!("infeasible.lrat.{extension}");
        let proof = dir.join(&name);
        std::fs::copy(format!("tests/data/certificates/dgx1-allgather-c6r7/{name}"), &proof).unwrap();
        let manifest = std::fs::read_to_string(format!("{committed}/manifest.json")).unwrap();
        let mut manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
        let (sha256, bytes) = commsched::proof::sha256::file_digest(&proof).unwrap();
        let files = manifest["files"].as_array_mut().unwrap();
        let plain = files.iter().position(|f| f["name"] == "infeasible.lrat").unwrap();
        let plain = std::mem::replace(
            &mut files[plain],
            serde_json::json!({"name": name, "sha256": sha256, "bytes": bytes}),
        );
        std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
        let (code, stdout, stderr) = run(&["verify", d]);
        assert_eq!((code, stdout.contains("valid certificate")), (0, true), "{name}: {stdout}{stderr}");

        manifest["files"].as_array_mut().unwrap().push(plain);
        std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
        std::fs::copy(format!("{committed}/infeasible.lrat"), dir.join("infeasible.lrat")).unwrap();
        let (code, stdout, _) = run(&["verify", d]);
        assert_eq!(code, 1, "{stdout}");
        assert!(stdout.contains(&format!("lists more than one proof: {name}, infeasible.lrat")), "{stdout}");
        manifest["files"].as_array_mut().unwrap().pop();
        std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();

        let mut packed = std::fs::read(&proof).unwrap();
        let middle = packed.len() / 2;
        packed[middle] ^= 0x55;
        std::fs::write(&proof, packed).unwrap();
        let (code, stdout, stderr) = run(&["verify", d]);
        assert_eq!((code, stdout.as_str(), stderr.lines().count()), (2, "", 1), "{name}: {stderr}");
        let named = format!("commsched: error: {}: cannot decode as {form}: ", proof.display());
        assert!(stderr.starts_with(&named), "{stderr}");
    }
}

/// The default build carries the SAT backend with no libclang: `sat` is a default feature and
/// the lock file holds no bindgen (rustsat-cadical's bindings are pregenerated,
/// vendor/rustsat-cadical/VENDORED.md). With it, `solve --method sat` on the DGX-1 allgather
/// refutes (S, R, C) = (2, 7, 6) with a proof that commsched checks, and `verify` accepts the
/// folder: the lower half of SCCL's bandwidth-optimal point (3, 7, 6).
#[test]
fn the_default_build_refutes_dgx1_allgather_at_two_steps_with_a_checked_proof() {
    let manifest: toml::Table = std::fs::read_to_string("Cargo.toml").unwrap().parse().unwrap();
    let default = manifest["features"]["default"].as_array().unwrap();
    assert!(default.iter().any(|f| f.as_str() == Some("sat")), "{default:?}");
    let lock = std::fs::read_to_string("Cargo.lock").unwrap();
    assert!(!lock.contains("name = \"bindgen\""), "bindgen needs libclang, which a fresh machine lacks");
    #[cfg(feature = "sat")]
    {
        let scratch = tempfile::tempdir().unwrap();
        let instance = scratch.path().join("ag6.toml");
        let (code, text, stderr) = run(&["gen", "allgather", "--network", "dgx1", "--chunks", "6"]);
        assert_eq!(code, 0, "{stderr}");
        std::fs::write(&instance, text).unwrap();
        let dir = scratch.path().join("c276");
        let (i, d) = (instance.to_str().unwrap(), dir.to_str().unwrap());
        let (code, stdout, stderr) =
            run(&["solve", i, "--method", "sat", "--steps", "2", "--rounds", "7", "--certificate", d]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("(S, R, C) = (2, 7, 6): infeasible (proof checked)"), "{stdout}");
        let (code, stdout, _) = run(&["verify", d]);
        assert_eq!((code, stdout.contains("valid certificate")), (0, true), "{stdout}");
    }
}

/// `verify` on the root of a frontier folder (`pareto --certificate`) re-checks every point's
/// folder, one line each, and exits 1 naming the point whose schedule was tampered with.
#[test]
fn verify_rechecks_every_point_of_a_frontier_folder() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("frontier");
    let d = dir.to_str().unwrap();
    let (code, _, stderr) =
        run(&["pareto", "allgather", "--network", "ring:4", "--max-chunks", "2", "--certificate", d]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("c1-r2: valid certificate") && stdout.contains("c2-r3: valid certificate"),
        "{stdout}"
    );
    assert!(stdout.contains("2 of 2 certificate folders valid"), "{stdout}");
    std::fs::write(dir.join("c1-r2").join("schedule.json"), "{}").unwrap();
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("c1-r2: invalid certificate") && stdout.contains("1 of 2 certificate folders valid"),
        "{stdout}"
    );
}

/// An interrupted SAT search leaves no proofs behind: `solve` on prefix on fat-tree:16 under
/// w = 1 (minutes of CaDiCaL) gets SIGINT once its first temporary proof directory exists, and
/// exits with 130, the directory removed.
#[cfg(feature = "sat")]
#[test]
fn an_interrupted_sat_search_removes_its_temporary_proofs() {
    let scratch = tempfile::tempdir().unwrap();
    let tmp = scratch.path().join("interrupt");
    std::fs::create_dir_all(&tmp).unwrap();
    let instance = tmp.join("prefix.toml");
    std::fs::write(
        &instance,
        "problem = \"prefix\"\nnetwork = \"fat-tree:16\"\n[model]\nkind = \"fat-tree\"\ncapacity = \"const:1\"\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_commsched"))
        .args(["solve", "--method", "sat", "--timeout", "600", instance.to_str().unwrap()])
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let proofs = || -> Vec<String> {
        std::fs::read_dir(&tmp)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|name| name.starts_with("commsched-proof-"))
            .collect()
    };
    // Waits for the directory (the search builds its models first), at most 10 minutes.
    for _ in 0..6000 {
        if !proofs().is_empty() || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(!proofs().is_empty(), "no temporary proof directory appeared");
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    assert_eq!(child.wait().unwrap().code(), Some(130));
    assert_eq!(proofs(), Vec::<String>::new());
}

/// Solves `instance` with the SAT backend into the certificate folder `dir`, asserts that the
/// answer carries `certificate` and that `verify` accepts the folder; then rewrites `from` as
/// `to` in its manifest and asserts that `verify` rejects it with `failure`.
#[cfg(feature = "sat")]
fn certify_then_tamper(
    instance: &str,
    dir: &std::path::Path,
    certificate: &str,
    tamper: [&str; 2],
    failure: &str,
) {
    let d = dir.to_str().unwrap();
    let (code, stdout, stderr) = run(&["solve", instance, "--method", "sat", "--certificate", d]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(certificate), "{stdout}");
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!((code, stdout.contains("valid certificate")), (0, true), "{stdout}");
    let manifest = dir.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace(tamper[0], tamper[1])).unwrap();
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(failure), "{stdout}");
}

/// A product certified through its relaxation: the folder's CNF and proof are those of the
/// broadcast at T − 1 = 11 that every product of length 11 would reverse into, the manifest
/// names the relaxation, and `verify` re-encodes the broadcast to compare. A manifest naming
/// another relaxation is rejected.
#[cfg(feature = "sat")]
#[test]
fn a_product_certified_by_its_broadcast_relaxation_verifies() {
    let scratch = tempfile::tempdir().unwrap();
    certify_then_tamper(
        "instances/002/fattree16-product-logplus1.toml",
        &scratch.path().join("relaxation"),
        "length 12, certified optimal: infeasible-at-T-1 (T-1 = 11 for the broadcast it reverses into (FT-24), proof checked)",
        ["\"the broadcast it reverses into (FT-24)\"", "\"a guess\""],
        "the manifest names the relaxation `a guess`",
    );
}

/// A prefix certified through the knowledge relaxation (fat-tree:8 under w = 1, optimum 11):
/// the folder's CNF and proof are those of the relaxed model at T − 1 = 10, the manifest names
/// it, and `verify` re-encodes that model to compare; with the relaxed model's name taken
/// away, the CNF is compared with the prefix model itself and rejected.
#[cfg(feature = "sat")]
#[test]
fn a_prefix_certified_by_its_knowledge_relaxation_verifies() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("knowledge");
    let instance = dir.with_extension("toml");
    let (code, text, stderr) = run(&["gen", "prefix", "--network", "fat-tree:8", "--capacity", "const:1"]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(&instance, text).unwrap();
    let relaxation = "its knowledge relaxation (a commutative, idempotent ⋆)";
    certify_then_tamper(
        instance.to_str().unwrap(),
        &dir,
        &format!(
            "length 11, certified optimal: infeasible-at-T-1 (T-1 = 10 for {relaxation}, proof checked)"
        ),
        [&format!("\"{relaxation}\""), "null"],
        "infeasible.cnf: not the encoding of the instance at T-1 = 10",
    );
}

/// A folder whose certificate is a lower bound (path(3) under furthest-first, TE-1) verifies too.
#[test]
fn verify_accepts_a_lower_bound_folder() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("certificate-lb");
    let d = dir.to_str().unwrap();
    let (code, _, stderr) =
        run(&["solve", &data("path3.toml"), "--method", "furthest-first", "--certificate", d]);
    assert_eq!(code, 0, "{stderr}");
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"kind\": \"lower-bound\""), "{manifest}");
    let (code, stdout, _) = run(&["verify", d]);
    assert_eq!(code, 0, "{stdout}");
}

/// `report --out DIR --jobs 2` writes the four formats, a plot per problem and a space-time
/// diagram per instance, and report.md links every picture it wrote: on paper 004's path
/// instances and paper 001's figures, every best schedule is drawable (store-and-forward and
/// bufferless), and each diagram's title carries the checked length the report states.
#[test]
fn report_out_writes_every_format_and_links_its_pictures() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("report-out");
    let d = dir.to_str().unwrap();
    let (code, stdout, stderr) = run(&[
        "report",
        "instances/004/path4.toml",
        "instances/004/path6-fig2.toml",
        "instances/001/scatter-fig1a.toml",
        "--out",
        d,
        "--jobs",
        "2",
        "--no-exact",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("wrote 4 plots and 3 diagrams"), "{stdout}");
    for f in ["report.txt", "report.md", "report.json", "report.csv", "report.html"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for (picture, instance, length) in [
        ("plot-total-exchange-path.svg", "", ""),
        ("gap-total-exchange.svg", "", ""),
        ("plot-scatter-one-instance.svg", "", ""),
        ("gap-scatter.svg", "", ""),
        ("diagrams/path4.svg", "path4", "4"),
        ("diagrams/path6-fig2.svg", "path6-fig2", "9"),
        ("diagrams/scatter-fig1a.svg", "scatter-fig1a", "10"),
    ] {
        assert!(md.contains(&format!("[{picture}]({picture})")), "{picture}: {md}");
        let svg = std::fs::read_to_string(dir.join(picture)).unwrap();
        assert!(svg.starts_with("<svg"), "{picture}");
        if !instance.is_empty() {
            assert!(svg.contains(instance) && svg.contains(&format!("length {length}")), "{picture}");
        }
    }
    // The page holds the four plots inline and links each diagram beside it.
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 4);
    assert!(html.contains("<a href=\"diagrams/path6-fig2.svg\">diagrams/path6-fig2.svg</a>"));
}

/// The attributes of each legend entry of an SVG: (colour, marker, dash) as its
/// `<g class="legend-entry">` states them, checked against what the group draws (its marker's
/// shape, its line's or swatch's colour and dash).
fn legend_entries(svg: &str) -> Vec<(String, String, String)> {
    let attribute = |text: &str, name: &str| -> Option<String> {
        let start = text.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(text[start..start + text[start..].find('"')?].to_string())
    };
    svg.split("<g class=\"legend-entry\"")
        .skip(1)
        .map(|group| {
            let group = &group[..group.find("</g>").expect("a closed legend group")];
            let (head, drawn) = group.split_once('>').unwrap();
            let entry =
                ["data-colour", "data-marker", "data-dash"].map(|a| attribute(head, a).unwrap_or_default());
            let sample =
                drawn.split('<').find(|e| e.starts_with("polyline") || e.starts_with("rect")).unwrap();
            let colour = if sample.starts_with("polyline") {
                attribute(sample, "stroke")
            } else {
                attribute(sample, "fill")
            };
            assert_eq!(colour.as_deref(), Some(entry[0].as_str()), "{group}");
            assert_eq!(attribute(sample, "stroke-dasharray").unwrap_or_default(), entry[2], "{group}");
            assert_eq!(attribute(drawn, "data-marker").as_deref(), Some(entry[1].as_str()), "{group}");
            let [c, m, d] = entry;
            (c, m, d)
        })
        .collect()
}

/// `report --out` over every instance and the machines at scale: one plot per problem and
/// network family (under one model), never a line across two families; every legend entry of
/// every plot written a distinct (colour, marker, dash); a gap plot per problem, certified
/// points filled and bounded ones hollow; the scale machines' table with the certified optima
/// (NDv2×4: 16.667 GB/s, hierarchical-ring at 100 %); and report.html with every plot inline.
#[test]
fn report_pictures_keep_families_apart_with_distinct_legends_and_gap_plots() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("pictures");
    let (code, stdout, stderr) =
        run(&["report", "instances", "--out", dir.to_str().unwrap(), "--jobs", "2", "--no-exact"]);
    assert_eq!(code, 0, "{stderr}");
    let mut plots = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        if path.extension().is_some_and(|x| x == "svg") {
            plots.push((
                path.file_name().unwrap().to_str().unwrap().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
    }
    plots.sort();
    assert!(stdout.contains(&format!("wrote {} plots", plots.len())), "{stdout}");
    for (name, svg) in &plots {
        let entries = legend_entries(svg);
        assert!(!entries.is_empty(), "{name} has no legend");
        let distinct: std::collections::HashSet<_> = entries.iter().collect();
        assert_eq!(distinct.len(), entries.len(), "{name}: {entries:?}");
    }
    let names: Vec<&str> = plots.iter().map(|(n, _)| n.as_str()).collect();
    let problems = [
        "broadcast",
        "chatting",
        "collective",
        "gather",
        "gossip",
        "prefix",
        "product",
        "scatter",
        "total-exchange",
    ];
    for p in problems {
        assert!(names.contains(&format!("gap-{p}.svg").as_str()), "{p}: {names:?}");
    }
    // Gossip: meshes and tori each on their own axis, the path's one instance a bar chart.
    let gossip: Vec<&str> = names.iter().copied().filter(|n| n.starts_with("plot-gossip-")).collect();
    assert_eq!(gossip, ["plot-gossip-mesh.svg", "plot-gossip-one-instance.svg", "plot-gossip-torus.svg"]);
    let svg = |name: &str| &plots.iter().find(|(n, _)| n == name).unwrap().1;
    // The points of a line (marker titles `LABEL: (x, y)`).
    let points = |name: &str, label: &str| -> Vec<(u64, u64)> {
        let prefix = format!("<title>{label}: (");
        svg(name)
            .split(&prefix)
            .skip(1)
            .map(|t| {
                let (x, y) = t[..t.find(')').unwrap()].split_once(", ").unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    };
    // Lemma 1's n(n + 1)/2 on the n × n meshes, met by urgent-orbits; Lemma 2 on the tori.
    assert_eq!(
        points("plot-gossip-mesh.svg", "lower bound"),
        [(2, 3), (3, 6), (4, 10), (5, 15), (6, 21), (10, 55), (11, 66)]
    );
    assert_eq!(
        points("plot-gossip-mesh.svg", "urgent-orbits"),
        points("plot-gossip-mesh.svg", "lower bound")
    );
    let tori: Vec<u64> = points("plot-gossip-torus.svg", "lower bound").iter().map(|p| p.0).collect();
    assert_eq!(tori, [3, 4, 7, 9, 10]);
    assert!(svg("plot-gossip-one-instance.svg").contains("path11-fig5 (path:11)"));
    assert!(svg("plot-gossip-one-instance.svg").contains("fill-opacity=\"0.85\""), "bars");
    // Certified points filled (outlined in dark grey), bounded ones hollow (white inside).
    let gap = svg("gap-gossip.svg");
    assert!(
        gap.contains(
            "stroke=\"#333333\" stroke-width=\"0.8\"><title>urgent-orbits on mesh10-fig2c: 1</title>"
        )
    );
    assert!(!gap.contains("stroke-width=\"1.8\""), "every gossip instance here is certified");
    // On ula8-fig3 without the exact layer only bounds are known: hollow, 9/8 for
    // length-classes-first-fit (9 steps over the congestion bound C = 8, CHAT-2).
    assert!(svg("gap-chatting.svg").contains(
        "fill=\"#ffffff\" stroke=\"#56B4E9\" stroke-width=\"1.8\"><title>length-classes-first-fit on ula8-fig3: 1.125</title>"
    ));
    assert!(gap.contains(">filled: over the certified optimum</text>"));
    // The machines at scale.
    let scale = svg("scale-1-nccl.svg");
    assert!(
        scale.contains("ndv2x4 (16.7)")
            && scale.contains("<title>hierarchical-ring on ndv2x4 (16.7): 100</title>")
    );
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("| ndv2x4 | 32 | 16.667 (cut) | 12.903 (77.4 %) | 16.667 (100.0 %) | 2.083 (12.5 %) | 1.878 (11.3 %) |"), "{md}");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), plots.len());
}

/// Past paper 003, the certificate folders of docs/results.md, "the frontier", each re-checked: its
/// hashes, the witness with the checker and the bound recomputed from the instance; and the
/// paper's algorithm on the same instance, checked, is longer.
/// - The 7×7 torus under H\* has gossip optimum 24, Lemma 2's bound (GOS-2), where Theorem 3
///   takes 26 (GOS-23) and `torus-cut-in` 25 (the SAT backend's witness; `torus-offset-growth`
///   now meets the bound on every torus).
/// - The 6×6, 7×7, 8×8 and 9×9 meshes have optima 21, 28, 36 and 45, Lemma 1's n(n + 1)/2
///   (GOS-1), where Theorem 1 takes 23, 31, 39 and 49 (GOS-14): the symmetric witnesses of the
///   exact search (9×9's along shortest paths).
/// - Rectangles at the total-load bound, with witnesses invariant under the 180° rotation:
///   2×7 (10), 4×7 (17), 5×6 (18), 5×7 (21), 5×8 (24) and 6×7 (25), where the combined
///   algorithm takes 13, 20, 20, 23, 27 and 27; and 3×8 (15, CaDiCaL's witness), against 19.
///   Past eight columns, with shortest routes: 3×10 (19), 4×9 (22), 4×10 (24), 3×11 (21),
///   3×12 (23) and 4×12 (29), against 24, 26, 29, 26, 29 and 35.
/// - The 2×8 mesh has optimum 12, the ladder cut bound (`bounds::gossip::ladder`; the total
///   load gives 11), where the combined algorithm takes 15. So do 2×9 … 2×12: 13, 15, 16 and
///   18, against 17, 19, 21 and 23.
/// - Rectangles at the total-load bound by `urgent-matching` (a polynomial algorithm, so its
///   witness is no search's): 7×8 (32), 6×9 (31), 7×9 (36), 5×12 (35), 9×10 (50), 9×11 (55),
///   9×12 (60), 11×12 (72), 5×11 (32), 6×12 (41), 8×11 (49), 10×12 (66) and 7×12 (47),
///   against 35, 35, 39, 41, 54, 59, 65, 77, 37, 47, 54, 71 and 53.
/// - The 4×11 mesh at the total-load bound 26, where the combined algorithm takes 32:
///   `urgent-orbits`' first 21 steps (the trivial group) completed by z3 (test
///   `the_four_by_eleven_mesh_completes_at_its_bound`).
/// - The 13×13, 14×14 and 15×15 meshes at Lemma 1 (91, 105, 120), where Theorem 1 takes 97,
///   111 and 127: `urgent-orbits`' first steps (its lookahead keeps every link busy until its
///   last steps) completed by the exact layer (`solve --steps S --complete`).
#[test]
fn the_frontier_gossip_certificates_verify() {
    for (folder, optimum, (paper, paper_length)) in [
        ("gossip-torus7x7-hstar", 24, ("torus-odd-delayer", 26)),
        ("gossip-mesh6x6-hstar", 21, ("mesh-combined", 23)),
        ("gossip-mesh7x7-hstar", 28, ("mesh-combined", 31)),
        ("gossip-mesh8x8-hstar", 36, ("mesh-combined", 39)),
        ("gossip-mesh9x9-hstar", 45, ("mesh-combined", 49)),
        ("gossip-mesh2x7-hstar", 10, ("mesh-combined", 13)),
        ("gossip-mesh4x7-hstar", 17, ("mesh-combined", 20)),
        ("gossip-mesh5x6-hstar", 18, ("mesh-combined", 20)),
        ("gossip-mesh5x7-hstar", 21, ("mesh-combined", 23)),
        ("gossip-mesh5x8-hstar", 24, ("mesh-combined", 27)),
        ("gossip-mesh6x7-hstar", 25, ("mesh-combined", 27)),
        ("gossip-mesh2x8-hstar", 12, ("mesh-combined", 15)),
        ("gossip-mesh3x8-hstar", 15, ("mesh-combined", 19)),
        ("gossip-mesh3x10-hstar", 19, ("mesh-combined", 24)),
        ("gossip-mesh4x9-hstar", 22, ("mesh-combined", 26)),
        ("gossip-mesh4x10-hstar", 24, ("mesh-combined", 29)),
        ("gossip-mesh3x11-hstar", 21, ("mesh-combined", 26)),
        ("gossip-mesh3x12-hstar", 23, ("mesh-combined", 29)),
        ("gossip-mesh2x9-hstar", 13, ("mesh-combined", 17)),
        ("gossip-mesh2x10-hstar", 15, ("mesh-combined", 19)),
        ("gossip-mesh2x11-hstar", 16, ("mesh-combined", 21)),
        ("gossip-mesh2x12-hstar", 18, ("mesh-combined", 23)),
        ("gossip-mesh4x12-hstar", 29, ("mesh-combined", 35)),
        ("gossip-mesh7x8-hstar", 32, ("mesh-combined", 35)),
        ("gossip-mesh6x9-hstar", 31, ("mesh-combined", 35)),
        ("gossip-mesh7x9-hstar", 36, ("mesh-combined", 39)),
        ("gossip-mesh5x12-hstar", 35, ("mesh-combined", 41)),
        ("gossip-mesh9x10-hstar", 50, ("mesh-combined", 54)),
        ("gossip-mesh9x11-hstar", 55, ("mesh-combined", 59)),
        ("gossip-mesh9x12-hstar", 60, ("mesh-combined", 65)),
        ("gossip-mesh11x12-hstar", 72, ("mesh-combined", 77)),
        ("gossip-mesh5x11-hstar", 32, ("mesh-combined", 37)),
        ("gossip-mesh6x12-hstar", 41, ("mesh-combined", 47)),
        ("gossip-mesh8x11-hstar", 49, ("mesh-combined", 54)),
        ("gossip-mesh10x12-hstar", 66, ("mesh-combined", 71)),
        ("gossip-mesh7x12-hstar", 47, ("mesh-combined", 53)),
        ("gossip-mesh5x10-hstar", 29, ("mesh-combined", 34)),
        ("gossip-mesh4x11-hstar", 26, ("mesh-combined", 32)),
        ("gossip-mesh13x13-hstar", 91, ("mesh-combined", 97)),
        ("gossip-mesh14x14-hstar", 105, ("mesh-combined", 111)),
        ("gossip-mesh15x15-hstar", 120, ("mesh-combined", 127)),
        ("gossip-mesh16x16-hstar", 136, ("mesh-combined", 143)),
        ("gossip-mesh17x17-hstar", 153, ("mesh-combined", 161)),
    ] {
        let dir = format!("docs/results/{folder}");
        let (code, stdout, stderr) = run(&["verify", &dir]);
        assert_eq!(code, 0, "{folder}: {stdout}{stderr}");
        assert!(stdout.contains("valid certificate"), "{stdout}");
        let manifest = std::fs::read_to_string(format!("{dir}/manifest.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
        assert_eq!(
            (manifest["length"].as_u64(), manifest["kind"].as_str()),
            (Some(optimum), Some("lower-bound")),
            "{folder}: {manifest}"
        );
        let (code, stdout, stderr) = run(&["solve", "--method", paper, &format!("{dir}/instance.toml")]);
        assert_eq!(code, 0, "{folder}: {stdout}{stderr}");
        assert!(stdout.contains(&format!("heuristic, length {paper_length},")), "{folder}: {stdout}");
    }
}

/// A report's JSON with every `seconds` field zeroed (times are the only thing a re-run changes).
fn untimed(mut v: serde_json::Value) -> serde_json::Value {
    fn zero(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k == "seconds" {
                        *x = 0.0.into();
                    } else {
                        zero(x);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(zero),
            _ => {}
        }
    }
    zero(&mut v);
    v
}

/// `report --cache DIR` stores one result per instance and reads it back on the next run:
/// the report is the same, a missing result is assessed again, and a cache file that does not
/// parse or whose schedule the checker rejects is named on stderr and assessed again.
#[test]
fn report_cache_resumes_and_checks_what_it_reads() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("cache");
    let cache = dir.display().to_string();
    let args = ["--format", "json", "report", "--no-exact", "--cache", &cache, "instances/004"];
    let (code, first) = json(&args[2..]);
    assert_eq!(code, 0);
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), first["instances"].as_array().unwrap().len(), "one file per instance");
    // Interrupted: one result lost; and one file cut short, one schedule replaced by an empty one.
    std::fs::remove_file(&files[0]).unwrap();
    std::fs::write(&files[1], "{\"key\": ").unwrap();
    let text = std::fs::read_to_string(&files[2]).unwrap();
    let mut cached: serde_json::Value = serde_json::from_str(&text).unwrap();
    let best = cached["best"][1].as_str().unwrap().to_string();
    let mut schedule: serde_json::Value = serde_json::from_str(&best).unwrap();
    schedule["steps"] = serde_json::json!([]);
    cached["best"][1] = schedule.to_string().into();
    std::fs::write(&files[2], cached.to_string()).unwrap();
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let again: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(untimed(again), untimed(first));
    let n = files.len();
    assert_eq!(stderr.matches(", cached)").count(), n - 3, "{stderr}");
    assert!(stderr.contains("does not parse"), "{stderr}");
    assert!(stderr.contains("holds a schedule the checker rejects (incomplete delivery"), "{stderr}");
    let (_, _, stderr) = run(&args);
    assert_eq!(stderr.matches(", cached)").count(), n, "everything is cached now: {stderr}");
}

/// `merge` joins the shards of `report --shard I/N --format json` into the whole report, and
/// refuses an instance that two files hold, or files from different runs.
#[test]
fn merge_joins_shards_into_the_whole_report() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("merge");
    std::fs::create_dir_all(&dir).unwrap();
    let report = |shard: Option<&str>| {
        let mut args = vec!["--format", "json", "report", "--no-exact", "instances/004"];
        args.extend(shard.map(|s| ["--shard", s]).into_iter().flatten());
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    let parts: Vec<String> = (0..3)
        .map(|i| {
            let path = dir.join(format!("part{i}.json"));
            std::fs::write(&path, report(Some(&format!("{i}/3")))).unwrap();
            path.display().to_string()
        })
        .collect();
    let whole: serde_json::Value = serde_json::from_str(&report(None)).unwrap();
    let (code, merged) =
        json(&[&["merge"][..], &parts.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    assert_eq!(code, 0);
    assert_eq!(untimed(merged), untimed(whole));
    let twice = error_line(&["merge", &parts[0], &parts[1], &parts[0]]);
    assert!(twice.contains("part0.json: field `instances`") && twice.contains("is also in"), "{twice}");
    let mut other: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&parts[1]).unwrap()).unwrap();
    other["run"]["commit"] = "0000000".into();
    let other_file = dir.join("other.json");
    std::fs::write(&other_file, other.to_string()).unwrap();
    let mixed = error_line(&["merge", &parts[0], &other_file.display().to_string()]);
    assert!(mixed.contains("other.json: field `run`: comes from another run"), "{mixed}");
}

/// `draw --style` paints the papers' pictures: paper 003's dot-wire diagram (one dot per link
/// and step, black when busy, wires for the relays, clashes outlined) and paper 000's
/// parallelograms (one per message); each refuses a network or model it does not draw.
#[test]
fn draw_paints_the_papers_pictures() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("styles");
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let (code, toml, _) = run(&["gen", "gossip", "--network", "path:6"]);
    assert_eq!(code, 0);
    std::fs::write(path("g.toml"), toml).unwrap();
    let (code, _, stderr) =
        run(&["solve", &path("g.toml"), "--method", "path-gossip", "--out", &path("g.json")]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) =
        run(&["draw", &path("g.toml"), &path("g.json"), "-o", &path("g.svg"), "--style", "dot-wire"]);
    assert_eq!(code, 0, "{stderr}");
    let svg = std::fs::read_to_string(path("g.svg")).unwrap();
    let schedule: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("g.json")).unwrap()).unwrap();
    let steps = schedule["steps"].as_array().unwrap();
    let transmissions: usize = steps.iter().map(|s| s.as_array().unwrap().len()).sum();
    // path(6) gossips in n + ⌊n/2⌋ − 1 = 8 steps (GOS-8): 5 links × 8 steps of dots, one black
    // dot per transmission (H*: one packet per link and step).
    assert_eq!(steps.len(), 8);
    assert_eq!(svg.matches("<circle").count(), 5 * 8, "{svg}");
    assert_eq!(svg.matches("fill=\"#000000\"").count(), transmissions);
    assert!(svg.contains("stroke-width=\"2\""), "wires: {svg}");
    assert!(!svg.contains("#d00000"), "nothing outlined when admissible");
    // A second packet on link {0,1} in step 1 is a clash, outlined in red.
    let mut clash = schedule.clone();
    clash["steps"][0].as_array_mut().unwrap().push(serde_json::json!({"from": 1, "to": 0, "tokens": [1]}));
    std::fs::write(path("clash.json"), clash.to_string()).unwrap();
    let (code, stdout, _) =
        run(&["draw", &path("g.toml"), &path("clash.json"), "-o", &path("clash.svg"), "--style", "dot-wire"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("inadmissible"), "{stdout}");
    assert!(std::fs::read_to_string(path("clash.svg")).unwrap().contains("#d00000"));
    // Paper 000 Fig. 3's instance, solved exactly: one parallelogram per message.
    let ula = "instances/000/ula8-fig3.toml";
    let (code, _, stderr) = run(&["solve", ula, "--method", "exact", "--out", &path("u.json")]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) =
        run(&["draw", ula, &path("u.json"), "-o", &path("u.svg"), "--style", "parallelogram"]);
    assert_eq!(code, 0, "{stderr}");
    let svg = std::fs::read_to_string(path("u.svg")).unwrap();
    let messages = std::fs::read_to_string(ula).unwrap().matches("length =").count();
    assert_eq!(svg.matches("<polygon").count(), messages, "{svg}");
    let wrong = error_line(&["draw", ula, &path("u.json"), "-o", &path("x.svg"), "--style", "dot-wire"]);
    assert!(wrong.contains("dot-wire does not apply") && wrong.contains("not ula:8"), "{wrong}");
    let wrong = error_line(&[
        "draw",
        &path("g.toml"),
        &path("g.json"),
        "-o",
        &path("x.svg"),
        "--style",
        "parallelogram",
    ]);
    assert!(wrong.contains("ULA"), "{wrong}");
}

/// A first model over the size guard is no bad input: `solve` answers as a timeout does, with
/// the exit code, the status `bounds`, the interval and the stop. On path(3) under H1 no
/// algorithm applies: the line is the timeout's with the stop replaced, [8, -].
#[test]
fn over_the_size_guard_solve_answers_as_a_timeout_does() {
    let path3 = data("path3-h1.toml");
    let (timeout_code, timed_out, _) = run(&["solve", &path3, "--method", "ilp", "--timeout", "0.000001"]);
    let (code, stdout, stderr) = run(&["solve", &path3, "--method", "ilp", "--max-vars", "5"]);
    assert_eq!(code, timeout_code, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let stop =
        "size guard: the model at horizon T = 8 needs at least 60 variables, over 5 (raise --max-vars)";
    assert_eq!(stdout.replace(stop, "timeout"), timed_out);
    snapshot!("cli_solve_size_guard", stdout);
}

/// The size guard judges the first model the search builds: with the symmetric witness (the
/// default on a mesh) a quarter of the variables, and it says so; `--no-symmetry` judges the
/// full model. Either way the answer is the timeout's kind (exit code, status `bounds`): from
/// the ladder cut's 18 on the 2×12 mesh to the best registered algorithm's length, recomputed here and
/// checked again from the schedule `--out` writes; `report` gives the same bounds and stop.
#[test]
fn over_the_size_guard_the_bounds_name_the_symmetric_model() {
    let mesh2x12 = MESH_2X12;
    let inst = commsched::spec::io::load_instance(std::path::Path::new(mesh2x12)).unwrap();
    let best = commsched::heuristics::for_instance(&inst)
        .into_iter()
        .filter_map(|m| {
            commsched::checker::check(&inst, &m.produce(&inst).ok()?).admissible().map(|c| c.length())
        })
        .min()
        .unwrap();
    let (timeout_code, timed_out) = json(&["solve", mesh2x12, "--method", "exact", "--timeout", "0.000001"]);
    assert_eq!((timed_out["status"].as_str(), timed_out["stop"].as_str()), (Some("bounds"), Some("timeout")));
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("upper.json").display().to_string();
    let symmetric = ["solve", mesh2x12, "--method", "exact", "--max-vars", "100", "--out", &out];
    let full: Vec<&str> = symmetric.iter().copied().chain(["--no-symmetry"]).collect();
    for args in [&symmetric[..], &full[..]] {
        let (code, v) = json(args);
        assert_eq!(code, timeout_code, "{v}");
        assert_eq!(v["status"], "bounds", "{v}");
        assert_eq!((v["lower_bound"].as_u64(), v["upper_bound"].as_u64()), (Some(18), Some(best)), "{v}");
        let stop = v["stop"].as_str().unwrap();
        assert!(stop.starts_with("size guard: the model at horizon T = 18 needs at least "), "{stop}");
        assert!(stop.ends_with(", over 100 (raise --max-vars)"), "{stop}");
        let restricted = "even restricted to schedules invariant under the 2 rotations by 180° of mesh:2x12";
        assert_eq!(stop.contains(restricted), !args.contains(&"--no-symmetry"), "{stop}");
        let (code, written) = json(&["check", mesh2x12, &out]);
        assert_eq!((code, written["length"].as_u64()), (0, Some(best)), "{written}");
    }
    let (code, report) = json(&["report", mesh2x12, "--max-vars", "100"]);
    assert_eq!(code, 0);
    let exact = &report["instances"][0]["exact"];
    assert_eq!((exact["status"].as_str(), exact["lower"].as_u64()), (Some("bounds"), Some(18)), "{exact}");
    assert_eq!(exact["upper"].as_u64(), Some(best), "{exact}");
    assert_eq!(
        (exact["stop"]["kind"].as_str(), exact["stop"]["limit"].as_u64()),
        (Some("size-guard"), Some(100))
    );
    assert_eq!(report["instances"][0]["answer"]["status"], "bounds");
}

/// `report` picks up the certificate folder `X.certificate/` beside `X.toml` and re-checks it:
/// the 2×12 mesh's committed folder settles the instance at the ladder cut's 18 with the exact
/// layer skipped, where the best algorithm alone leaves a gap. A folder whose witness was altered
/// after it was written, or one for another instance, is reported INVALID and ignored.
#[test]
fn report_settles_an_instance_by_its_certificate_folder_and_ignores_a_tampered_one() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("attached");
    let folder = dir.join("mesh2x12.certificate");
    std::fs::create_dir_all(&folder).unwrap();
    for f in ["instance.toml", "schedule.json", "manifest.json"] {
        std::fs::copy(format!("docs/results/gossip-mesh2x12-hstar/{f}"), folder.join(f)).unwrap();
    }
    let instance = dir.join("mesh2x12.toml");
    std::fs::copy(folder.join("instance.toml"), &instance).unwrap();
    let report = || {
        let (code, stdout, stderr) = run(&["report", instance.to_str().unwrap(), "--no-exact"]);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    let stdout = report();
    assert!(stdout.contains("18  valid: lower-bound ladder cut = 18"), "{stdout}");
    assert!(stdout.contains("gap 0 (settled)"), "{stdout}");
    // The copy of instance.toml inside the folder is not an instance of its own.
    assert_eq!(stdout.matches("== gossip-mesh2x12").count(), 1, "{stdout}");

    let schedule = std::fs::read_to_string(folder.join("schedule.json")).unwrap();
    std::fs::write(folder.join("schedule.json"), schedule.replacen("[", "[ ", 1)).unwrap();
    let stdout = report();
    assert!(stdout.contains("INVALID, ignored: schedule.json: sha256"), "{stdout}");
    assert!(!stdout.contains("gap 0 (settled)"), "{stdout}");
    std::fs::write(folder.join("schedule.json"), schedule).unwrap();

    let other = std::fs::read_to_string(&instance).unwrap().replace("packet = 1", "packet = 2");
    std::fs::write(&instance, other).unwrap();
    let stdout = report();
    assert!(stdout.contains("INVALID, ignored: instance.toml: not the instance"), "{stdout}");
}

/// `solve --incumbent FILE` hands a user's schedule to the exact search: the 2×12 mesh's
/// committed witness meets the ladder cut's 18, where every registered algorithm takes longer, so the
/// answer is that schedule, certified by the bound without a probe. The schedule is checked
/// first: with one transmission moved out of its sender's reach it is refused (exit 2, naming
/// the file), and an algorithm method refuses the flag.
#[test]
fn solve_certifies_a_users_incumbent_and_refuses_a_bad_one() {
    let dir = "docs/results/gossip-mesh2x12-hstar";
    let (instance, schedule) = (format!("{dir}/instance.toml"), format!("{dir}/schedule.json"));
    let (code, stdout, stderr) = run(&["solve", &instance, "--method", "exact", "--incumbent", &schedule]);
    assert_eq!(code, 0, "{stderr}");
    // The backend named is the build's choice for gossip; it never ran.
    assert!(stdout.contains(&format!("schedule {schedule} (incumbent of ")), "{stdout}");
    assert!(
        stdout.contains("optimal, length 18, certified optimal: lower-bound ladder cut = 18"),
        "{stdout}"
    );

    let scratch = tempfile::tempdir().unwrap();
    let bad = scratch.path().join("incumbent.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&schedule).unwrap()).unwrap();
    // In step 1 node 0 holds only its own token.
    json["steps"][0][0]["tokens"] = serde_json::json!([15]);
    std::fs::write(&bad, json.to_string()).unwrap();
    let b = bad.to_str().unwrap();
    let (code, stdout, stderr) = run(&["solve", &instance, "--method", "exact", "--incumbent", b]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(stderr.contains(&format!("{b}: the incumbent is inadmissible")), "{stderr}");

    let (code, _, stderr) = run(&["solve", &instance, "--method", "urgent-first", "--incumbent", &schedule]);
    assert_eq!(code, 2);
    assert!(stderr.contains("field `--incumbent`: starts an exact search"), "{stderr}");
}

/// `gen` reads an msccl-tools topology file into an explicit `[network]` table named after the
/// file, and refuses a malformed one in one line naming the file and field (exit 2).
#[test]
fn gen_reads_topology_files() {
    let (code, toml, stderr) =
        run(&["gen", "allgather", "--network", "tests/data/topologies/dgx1.json", "--chunks", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(toml.contains("name = \"allgather-dgx1\"") && toml.contains("[network]"), "{toml}");
    let inst = commsched::spec::io::parse_instance(&toml, "gen.toml", "gen").unwrap();
    assert_eq!(inst.network, commsched::spec::Network::parse("dgx1").unwrap());
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("topology");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"msccl_type": "topology", "name": "x", "links": [[0, 1], [1]], "switches": []}"#,
    )
    .unwrap();
    let (code, _, stderr) = run(&["gen", "allgather", "--network", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("bad.json: field `links[1]`: has 1 entries: the matrix must be square (2 x 2)"),
        "{stderr}"
    );
}

/// `solve --steps S --rounds R` decides SCCL's (S, R, C) question. On fully-connected:2 with
/// C = 2 each rank receives 2 chunks over one link: (1, 2, 2), one step of 2 rounds, is
/// feasible, and (1, 1, 2) is refuted by the receive bandwidth. JSON carries the status and
/// the certificate, and the folder of each answer verifies. `--rounds` without `--steps`, and
/// an algorithm as the method, are usage errors.
#[test]
fn solve_decides_one_point() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("fc2.toml");
    let (code, toml, stderr) = run(&["gen", "allgather", "--network", "fully-connected:2", "--chunks", "2"]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(&inst, toml).unwrap();
    let inst = inst.to_str().unwrap();
    for (rounds, status, certificate) in [
        ("2", "feasible", "checked witness"),
        ("1", "infeasible", "lower bound: receive bandwidth: node 0 receives 2 chunks"),
    ] {
        let cert = dir.path().join(format!("cert-{rounds}"));
        let cert = cert.to_str().unwrap();
        let args =
            ["solve", inst, "--method", "ilp", "--steps", "1", "--rounds", rounds, "--certificate", cert];
        let (code, v) = json(&args);
        assert_eq!(code, 0, "{v}");
        assert_eq!(
            (v["status"].as_str(), v["rounds"].as_u64(), v["chunks"].as_u64()),
            (Some(status), Some(rounds.parse().unwrap()), Some(2))
        );
        assert!(v["certificate"].as_str().unwrap().starts_with(certificate), "{v}");
        let (code, stdout, _) = run(&["verify", cert]);
        assert_eq!(code, 0, "{stdout}");
    }
    let (code, _, stderr) = run(&["solve", inst, "--method", "ilp", "--rounds", "2"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = run(&["solve", inst, "--method", "direct", "--steps", "1"]);
    assert_eq!(
        (code, stderr.trim()),
        (
            2,
            "commsched: error: <flags>: field `--method`: `direct` is an algorithm; deciding a point needs exact, ilp, smt or sat"
        )
    );
}

/// Gossip on `network` under H\* written as an instance into `dir`, and the schedule `method`
/// gives it written beside it: the two paths and what `solve` printed.
fn gossip_schedule(
    dir: &std::path::Path,
    network: &str,
    method: &str,
) -> (String, std::path::PathBuf, String) {
    let inst = dir.join("gossip.toml");
    let (code, toml, stderr) = run(&["gen", "gossip", "--network", network, "--rule", "H*"]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(&inst, toml).unwrap();
    let inst = inst.to_str().unwrap().to_string();
    let greedy = dir.join("greedy.json");
    let (code, stdout, stderr) =
        run(&["solve", &inst, "--method", method, "--out", greedy.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    (inst, greedy, stdout)
}

/// The steps of a store-and-forward schedule file, each as a sorted list of transmissions.
fn steps_of(file: &std::path::Path) -> Vec<Vec<serde_json::Value>> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let steps = v["steps"].as_array().expect("a store-and-forward schedule");
    steps
        .iter()
        .map(|step| {
            let mut step = step.as_array().unwrap().clone();
            step.sort_by_key(|tr| tr.to_string());
            step
        })
        .collect()
}

/// The last open rectangle of the 55 (2 ≤ r < c ≤ 12), settled: `urgent-orbits` takes the 4×11
/// mesh under H\* to 27, one above the total-load bound 26 (1892 deliveries over 73 links: 6
/// link slots to spare), and its first 21 steps complete into a checked 26-step schedule, the
/// optimum; the exact layer builds that completion from the state after step 21 (module
/// `exact::encode::gossip`, "Completing a prefix").
#[cfg(feature = "smt")]
#[test]
fn the_four_by_eleven_mesh_completes_at_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let (inst, greedy, stdout) = gossip_schedule(dir.path(), "mesh:4x11", "urgent-orbits");
    let inst = inst.as_str();
    assert!(stdout.contains("length 27, lower bound 26"), "{stdout}");
    let witness = dir.path().join("witness.json");
    let args = ["--steps", "26", "--complete", greedy.to_str().unwrap(), "--keep", "21"];
    let (code, v) = json(
        &["solve", inst, "--method", "exact", "--out", witness.to_str().unwrap()]
            .into_iter()
            .chain(args)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!((v["status"].as_str(), v["length"].as_u64()), (Some("feasible"), Some(26)), "{v}");
    let (code, stdout, _) = run(&["check", inst, witness.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("length 26, certified optimal"), "{stdout}");
    assert_eq!(steps_of(&witness)[..21], steps_of(&greedy)[..21]);
}

/// `solve --steps S --complete FILE --keep K` keeps the first K steps of a schedule and lets
/// the solver complete them. urgent-matching takes the 5×5 mesh under H\* in 16 steps, one
/// above Lemma 1 (15): its first 12 steps complete into a checked 15-step schedule (an
/// optimum) that starts with exactly those steps, and its first 14 do not, which is reported
/// as the restriction's refutation (status unknown), never as the instance's. K = 0, K over S
/// or over the schedule's length, and --complete without --keep are usage errors.
#[test]
fn solve_completes_the_first_steps_of_a_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let (inst, greedy, stdout) = gossip_schedule(dir.path(), "mesh:5x5", "urgent-matching");
    let inst = inst.as_str();
    assert!(stdout.contains("length 16, lower bound 15"), "{stdout}");
    let greedy_file = greedy.to_str().unwrap();
    let witness = dir.path().join("witness.json");
    let witness_file = witness.to_str().unwrap();
    // `solve --steps S --complete greedy --keep K`, then any further flags.
    let completion = |steps: &str, keep: &str, more: &[&str]| -> Vec<String> {
        let head =
            ["solve", inst, "--method", "exact", "--steps", steps, "--complete", greedy_file, "--keep", keep];
        head.iter().chain(more).map(|a| a.to_string()).collect()
    };
    let complete = |keep: &str| {
        let args = completion("15", keep, &["--out", witness_file]);
        let (code, v) = json(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{v}");
        v
    };
    let usage_error = |steps: &str, keep: &str| {
        let args = completion(steps, keep, &[]);
        let (code, _, stderr) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 2, "{stderr}");
        stderr
    };
    let v = complete("12");
    assert_eq!((v["status"].as_str(), v["length"].as_u64()), (Some("feasible"), Some(15)), "{v}");
    let (code, stdout, _) = run(&["check", inst, witness.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("length 15, certified optimal"), "{stdout}");
    assert_eq!(steps_of(&witness)[..12], steps_of(&greedy)[..12]);
    let v = complete("14");
    assert_eq!(v["status"].as_str(), Some("unknown"), "{v}");
    assert!(
        v["stop"].as_str().unwrap().starts_with("no schedule of at most 15 steps keeps the first 14 steps"),
        "{v}"
    );
    for (steps, keep, reason) in [
        ("15", "0", "keep at least one step"),
        ("15", "17", "K = 17 is over --steps 15"),
        ("20", "17", "K = 17, and the schedule has 16 steps"),
    ] {
        let stderr = usage_error(steps, keep);
        assert!(stderr.contains(&format!("{greedy_file}: field `--keep`: {reason}")), "{stderr}");
    }
    let (code, _, stderr) =
        run(&["solve", inst, "--method", "exact", "--steps", "15", "--complete", greedy_file]);
    assert_eq!(code, 2, "{stderr}");
}

/// `pareto` on fully-connected:3 allgather: R/C ≥ 1 (2 chunks over 2 in-links), met at C = 1
/// by one step of one round in which every rank multicasts its chunk: (C, S, R) = (1, 1, 1),
/// and the walk is complete at its first point. A problem outside the collective model is
/// refused in one line.
#[test]
fn pareto_walks_to_the_bound() {
    let (code, v) = json(&["pareto", "allgather", "--network", "fully-connected:3", "--method", "ilp"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["bound"], "1");
    assert_eq!(v["complete"], true);
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 1, "{v}");
    let p = &points[0];
    assert_eq!(
        (p["chunks"].as_u64(), p["steps"].as_u64(), p["rounds"].as_u64()),
        (Some(1), Some(1), Some(1)),
        "{v}"
    );
    let (code, _, stderr) = run(&["pareto", "gossip", "--network", "mesh:3x3"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `topology` prints a machine's nodes, links, bandwidths and diameter (the DGX-1: 8 GPUs,
/// 32 arcs in 16 links, NVLinks of bandwidth 1 and 2, diameter 2), its JSON form, and draws it;
/// an unknown network is one line with exit 2.
#[test]
fn topology_describes_and_draws_a_machine() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("dgx1.svg");
    let (code, text, stderr) = run(&["topology", "dgx1", "--out", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.starts_with("dgx1: 8 nodes, 32 arcs in 16 links, diameter 2\n"), "{text}");
    assert!(text.contains("  0 <-> 1  bandwidth 2\n") && text.contains("  0 <-> 2  bandwidth 1\n"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(picture.matches("<circle").count(), 8);
    assert_eq!(picture.matches("<line").count(), 16);
    let (code, v) = json(&["topology", "hub-and-spoke:4"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!((v["nodes"].as_u64(), v["diameter"].as_u64()), (Some(4), Some(1)));
    assert_eq!(v["switches"].as_array().map(Vec::len), Some(8), "{v}");
    let (code, _, stderr) = run(&["topology", "dgx7"]);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// docs/spec.md §5.3: a network is sized by its arcs as well as its nodes, counted from the
/// family's formula before anything is built, and a collective by its chunks at every rank;
/// a hostile size is one line naming the value, the count, the limit and the flag, exit 2.
#[test]
fn hostile_network_sizes_are_refused_by_their_arcs_or_items_before_anything_is_built() {
    let cases: [(&[&str], &[&str]); 7] = [
        (
            &["topology", "fully-connected:100000"],
            &["`fully-connected:100000`", "9999900000 arcs", "--max-arcs"],
        ),
        (&["topology", "fully-connected:2000"], &["3998000 arcs", "limit 2097152", "--max-arcs"]),
        (&["topology", "hub-and-spoke:1000"], &["`hub-and-spoke:1000`", "--max-arcs"]),
        (&["gen", "allgather", "--network", "star:100000"], &["10000000000 items", "--max-items"]),
        (&["gen", "allgather", "--network", "ring:100000"], &["10000000000 items", "--max-items"]),
        (&["gen", "alltoall", "--network", "ring:200"], &["8000000 items", "--max-items"]),
        (&["--max-arcs", "100", "topology", "mesh:10x10"], &["360 arcs", "limit 100", "--max-arcs"]),
    ];
    for (args, needles) in cases {
        let line = error_line(args);
        for needle in needles {
            assert!(line.contains(needle), "{args:?}: {line}");
        }
    }
    // Sizes whose arcs are few are answered: `star:N` has 2(N − 1) arcs, its diameter a
    // closed form.
    let (code, stdout, _) = run(&["topology", "star:100000"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("star:100000: 100000 nodes, 199998 arcs in 99999 links, diameter 2"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&["topology", "ring:100000"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("diameter 50000"), "{stdout}");
    // The limit is an override: raised, the same size goes through.
    let (code, stdout, _) = run(&["--max-arcs", "110", "topology", "fully-connected:11"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("110 arcs in 55 links, diameter 1"), "{stdout}");
}

/// A one-node network is refused in every path, as `fully-connected:1` is: a topology file
/// (`topology`, `gen`, `check --network`, `pareto`) and an instance's network table (`solve`).
#[test]
fn a_one_node_network_is_refused_in_every_path_naming_the_file_and_field() {
    let scratch = tempfile::tempdir().unwrap();
    let one = scratch.path().join("one.json");
    std::fs::write(&one, r#"{"msccl_type": "topology", "name": "one", "links": [[0]], "switches": []}"#)
        .unwrap();
    let one = one.display().to_string();
    let xml = format!("{}/tests/data/msccl/parasail-allgather-ring-4-simple.xml", env!("CARGO_MANIFEST_DIR"));
    for args in [
        vec!["topology", &one],
        vec!["gen", "allgather", "--network", &one],
        vec!["pareto", "allgather", "--network", &one, "--max-chunks", "1"],
        vec!["check", &xml, "--network", &one],
    ] {
        let line = error_line(&args);
        assert!(line.contains("one.json: field `links`: the network has 1 node"), "{args:?}: {line}");
    }
    let table = scratch.path().join("one.toml");
    std::fs::write(
        &table,
        "name = \"one\"\nproblem = \"allgather\"\nnetwork = { nodes = 1, links = [] }\nchunks = 1\n\n[model]\nkind = \"collective\"\n",
    )
    .unwrap();
    for method in ["direct", "exact"] {
        let line = error_line(&["solve", &table.display().to_string(), "--method", method]);
        assert!(line.contains("one.toml: field `network.nodes`: 1 is not a node count >= 2"), "{line}");
    }
    assert!(error_line(&["topology", "fully-connected:1"]).contains("at least 2 nodes"));
}

/// docs/msccl.md: `check FILE.xml` answers a well-formed file whose algorithm a runtime cannot
/// run (a send never received, a deadlock) with exit 1 and the violation `does not run`
/// naming the step, and a file it cannot parse with exit 2, on mutants of a corpus file.
#[test]
fn check_xml_tells_a_wrong_algorithm_from_a_malformed_file() {
    let corpus =
        format!("{}/tests/data/msccl/parasail-allgather-ring-2-simple.xml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&corpus).unwrap();
    let receive = r#"<step s="1" type="r" srcbuf="o" srcoff="0" dstbuf="o" dstoff="1""#;
    let line = text.lines().find(|l| l.contains(receive)).expect("rank 0 receives").to_string() + "\n";
    // Each rank sends at index 0 and receives at 1; receiving first on both makes a cycle.
    let deadlock = text
        .replace(r#"<step s="0" type="s""#, r#"<step s="X" type="s""#)
        .replace(r#"<step s="1" type="r""#, r#"<step s="0" type="r""#)
        .replace(r#"<step s="X" type="s""#, r#"<step s="1" type="s""#);
    let scratch = tempfile::tempdir().unwrap();
    let mutants = [
        ("no-receive.xml", text.replace(&line, ""), 1, "is never received"),
        ("deadlock.xml", deadlock, 1, "deadlock: it waits for"),
        ("malformed.xml", text[..text.len() / 2].to_string(), 2, "not well-formed XML"),
    ];
    let (code, _, _) = run(&["check", &corpus, "--collective", "allgather"]);
    assert_eq!(code, 0, "the corpus file itself is admissible");
    for (name, mutant, expected, needle) in mutants {
        let path = scratch.path().join(name);
        std::fs::write(&path, mutant).unwrap();
        let path = path.display().to_string();
        if expected == 2 {
            let line = error_line(&["check", &path, "--collective", "allgather"]);
            assert!(line.contains(name) && line.contains(needle), "{line}");
            continue;
        }
        let (code, v) = json(&["check", &path, "--collective", "allgather"]);
        assert_eq!(code, 1, "{name}: {v}");
        assert_eq!(v["status"], "inadmissible");
        let violations = v["violations"].as_array().unwrap();
        assert_eq!(violations.len(), 1, "{v}");
        let violation = violations[0].as_str().unwrap();
        assert!(violation.starts_with("does not run: gpu[") && violation.contains(needle), "{violation}");
    }
}

/// Small frictions of the answer line: `bounds` names its answer once, `solve` and `check` of a
/// collective print R and R/C beside the length, and an exact method on an allreduce names the
/// collective encoder's reason first, the encoders of other problems only by name.
#[test]
fn answers_name_rounds_once_and_the_useful_reason_first() {
    let (code, stdout, _) = run(&["bounds", "instances/sccl/ring4-allgather.toml"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("ring4-allgather: bounds ["), "{stdout}");
    let (code, stdout, _) = run(&["solve", "instances/sccl/ring4-allgather.toml", "--method", "ring"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("length 3, R = 3, R/C = 3, lower bound 2"), "{stdout}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ar.toml");
    std::fs::write(&file, "problem = \"allreduce\"\nnetwork = \"ring:4\"\n[model]\nkind = \"collective\"\n")
        .unwrap();
    let (code, _, stderr) = run(&["solve", file.to_str().unwrap(), "--method", "ilp"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("exact does not apply: collective: allreduce has no non-combining dual to encode"),
        "{stderr}"
    );
    assert!(stderr.contains("(the other encoders, total-exchange, gossip,"), "{stderr}");
}

/// The short form `solve PROBLEM --network NET` generates the instance as `gen` would (C = 1),
/// as `pareto` and `tune` take it; with an instance file, `--network` is refused, naming why.
#[test]
fn solve_takes_a_problem_and_a_network_as_pareto_does() {
    let (code, v) = json(&["solve", "allgather", "--network", "ring:4", "--method", "ring"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (&v["instance"], &v["length"], &v["rounds"]),
        (&"allgather-ring4".into(), &3.into(), &3.into())
    );
    let (code, v) = json(&["solve", "allgather", "--network", "ring:4", "--method", "sat", "--steps", "1"]);
    assert_eq!((code, &v["status"]), (0, &"infeasible".into()), "{v}");
    let (code, _, err) = run(&["solve", &data("path3.toml"), "--network", "ring:4", "--method", "sat"]);
    assert_eq!(code, 2);
    assert!(err.contains("--network") && err.contains("names its own network"), "{err}");
    // --chunks sets the generated instance's C: the ring takes 6 steps of one round for 2 chunks.
    let (code, v) = json(&["solve", "allgather", "--network", "ring:4", "--chunks", "2", "--method", "ring"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!((&v["length"], &v["rounds_per_chunk"]), (&6.into(), &"3".into()));
    let (code, _, err) = run(&["solve", &data("path3.toml"), "--chunks", "2", "--method", "sat"]);
    assert_eq!(code, 2);
    assert!(err.contains("--chunks") && err.contains("names its own C"), "{err}");
}

/// `topology` describes an instance file's network, and keeps an SCCL topology file's name.
#[test]
fn topology_reads_instance_files_and_keeps_a_topology_files_name() {
    let (code, out, err) = run(&["topology", "instances/sccl/dgx1-allgather.toml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("dgx1: 8 nodes, 32 arcs in 16 links, diameter 2"), "{out}");
    let (code, v) = json(&["topology", &data("two-boxes-8.json")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["name"], "TwoBoxes(8 GPUs fully connected, GPU i to GPU i) (graph:16)");
}
