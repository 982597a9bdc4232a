//! The papers' figures and examples as instance files (`instances/<paper>/*.toml`, indexed in
//! `instances/README.md`): every file loads with `spec::io::load_instance`, cites claim ids
//! that exist in the claim catalogue, uses its paper's problem and model family, and survives a round
//! trip through `instance_to_toml`. Bad input is rejected with one line naming the file, the
//! field and the reason (SPEC §5; snapshots in `snapshots/`).

use commsched::InputError;
use commsched::spec::io::{instance_to_toml, load_instance, parse_instance};
use commsched::spec::{Instance, Model, Problem};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Paper directories whose files are indexed by `instances/README.md` here; paper 001's
/// figures (SG-27 … SG-31) are transcribed and indexed separately.
const INDEXED_PAPERS: [&str; 5] = ["000", "002", "003", "004", "sccl"];

fn instances_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("instances")
}

/// Every instance file under `instances/`, as `report` finds them (recursively, sorted, not
/// inside certificate folders).
fn instance_files() -> Vec<PathBuf> {
    let files: Vec<PathBuf> = commsched::spec::io::instance_files(&[instances_dir()])
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|(_, path)| path)
        .collect();
    assert!(!files.is_empty(), "no instance files under {}", instances_dir().display());
    files
}

/// The paper directory (`000` … `004`) of an instance file.
fn paper_of(path: &Path) -> String {
    let dir = path.parent().and_then(Path::file_name).expect("instances/<paper>/<file>.toml");
    dir.to_string_lossy().into_owned()
}

fn load(path: &Path) -> Instance {
    load_instance(path).unwrap_or_else(|e| panic!("{e}"))
}

/// Claim ids of the crate's claim catalogue (`claims/*.toml`, `commsched::claims::catalogue`), including
/// the row ids of the papers' summary tables (`GOS-24a`).
fn claim_ids() -> BTreeSet<String> {
    commsched::claims::catalogue::all().iter().map(|c| c.id.clone()).collect()
}

/// Whether `dir` names a paper directory (`000` … `004`).
fn is_paper_dir(dir: &str) -> bool {
    matches!(dir, "000" | "001" | "002" | "003" | "004" | "sccl")
}

/// The claim-id prefix and the problems of each paper (the claim catalogue, SPEC §3).
fn paper_conventions(paper: &str) -> (&'static str, &'static [&'static str]) {
    match paper {
        "000" => ("CHAT-", &["chatting"]),
        "001" => ("SG-", &["scatter", "gather"]),
        "002" => ("FT-", &["broadcast", "product", "prefix"]),
        "003" => ("GOS-", &["gossip"]),
        "004" => ("TE-", &["total-exchange"]),
        "sccl" => ("SCCL-", &["allgather", "alltoall", "broadcast", "scatter", "gather"]),
        other => panic!("instances/{other}/ is not a paper directory (000 … 004, sccl)"),
    }
}

#[test]
fn every_instance_loads_and_cites_known_claims() {
    let known = claim_ids();
    assert!(known.contains("TE-24") && known.contains("GOS-24a"), "catalogue ids not recognised");
    let mut problems = Vec::new();
    for path in instance_files() {
        let file = path.display();
        let inst = match load_instance(&path) {
            Ok(inst) => inst,
            Err(e) => {
                problems.push(e.to_string());
                continue;
            }
        };
        let stem = path.file_stem().expect("file name").to_string_lossy();
        if inst.name != stem {
            problems.push(format!("{file}: name `{}` differs from the file name", inst.name));
        }
        if inst.source.is_empty() {
            problems.push(format!("{file}: no `source`"));
        }
        let (prefix, paper_problems) = paper_conventions(&paper_of(&path));
        if !paper_problems.contains(&inst.problem.name()) {
            problems.push(format!("{file}: problem `{}` is not one of {paper_problems:?}", inst.problem));
        }
        if inst.paper.claims.is_empty() {
            problems.push(format!("{file}: [paper].claims is empty"));
        }
        for claim in &inst.paper.claims {
            if !known.contains(claim) {
                problems.push(format!("{file}: claim `{claim}` is not in the claim catalogue"));
            } else if !claim.starts_with(prefix) {
                problems
                    .push(format!("{file}: claim `{claim}` belongs to another paper (expected {prefix}*)"));
            }
        }
        if inst.paper.note.is_empty() {
            problems.push(format!("{file}: [paper].note is empty"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each paper's own model (SPEC §4): 000 bufferless multi-port, 001 single-port (multi-port
/// over routed trees for §4's Fig. 5), 003 store-and-forward copy
/// with p = 1, 004 store-and-forward move with p = 1 (F*, or H* for TE-23), 002 the ideal
/// fat-tree with a capacity that `validate` accepted on load.
#[test]
fn every_instance_uses_its_papers_model() {
    use commsched::spec::{Mode, Port, PortRule};
    for path in instance_files() {
        let inst = load(&path);
        let ok = match (paper_of(&path).as_str(), &inst.model) {
            ("000", Model::Bufferless { port, .. }) => *port == Port::Multi,
            // §4's multi-port extension runs over routed trees (Fig. 5).
            ("001", Model::Bufferless { port, .. }) => *port == Port::Single || inst.routes.is_some(),
            ("002", Model::FatTree { .. }) => true,
            ("003", Model::StoreForward { rule, mode, packet }) => {
                *rule == PortRule::HStar && *mode == Mode::Copy && *packet == 1
            }
            ("004", Model::StoreForward { rule, mode, packet }) => {
                matches!(rule, PortRule::FStar | PortRule::HStar) && *mode == Mode::Move && *packet == 1
            }
            ("sccl", Model::Collective { .. }) => true,
            _ => false,
        };
        assert!(ok, "{}: model `{}` is not the paper's", path.display(), inst.model);
    }
}

#[test]
fn every_instance_round_trips_through_instance_to_toml() {
    for path in instance_files() {
        let inst = load(&path);
        let text = instance_to_toml(&inst);
        let file = path.display().to_string();
        let again = parse_instance(&text, &file, "").unwrap_or_else(|e| panic!("{e}\nwritten as:\n{text}"));
        assert_eq!(again, inst, "{file} changes in a round trip; written as:\n{text}");
    }
}

/// Chatting instances keep their messages and fat-tree instances their capacity through the
/// round trip (the equality above would also pass if both were dropped on load).
#[test]
fn round_trip_keeps_messages_capacities_and_paper_notes() {
    let figure3 = load(&instances_dir().join("000/ula8-fig3.toml"));
    let Problem::Chatting(msgs) = &figure3.problem else { panic!("ula8-fig3 is chatting") };
    assert_eq!(msgs.len(), 5);
    let again = parse_instance(&instance_to_toml(&figure3), "ula8-fig3", "").expect("round trip");
    assert_eq!(again.problem, figure3.problem);

    let fig1 = load(&instances_dir().join("002/fattree16-fig1.toml"));
    let Model::FatTree { capacity, rounds } = &fig1.model else { panic!("fattree16-fig1 is a fat-tree") };
    // FT-25: Fig. 1's channel capacities 1, 2, 3, 4 and w(16) = 5.
    assert_eq!([1, 2, 4, 8, 16].map(|n| capacity.w(n)), [1, 2, 3, 4, 5]);
    assert!(!rounds);

    let te24 = load(&instances_dir().join("004/path6-fig2.toml"));
    let again = parse_instance(&instance_to_toml(&te24), "path6-fig2", "").expect("round trip");
    assert_eq!(again.paper.length, Some(9));
    assert_eq!(again.paper.claims.first().map(String::as_str), Some("TE-24"));
    assert_eq!(again.paper.note, te24.paper.note);
}

/// Options the instance files above do not use also survive: explicit paths, a non-default
/// gather mode on a chatting instance, quotes and backslashes in the note.
#[test]
fn round_trip_keeps_every_option() {
    let text = r#"
name = "odd \"one\""
source = "hand-written"
problem = "chatting"
network = "ring:5"
ring_tie = "counterclockwise"

[model]
kind = "bufferless"
port = "single"
virtual = true
gather = "distributed"

[paper]
claims = ["CHAT-2"]
note = "a \\ b \"c\" ⌈n/2⌉"

[[messages]]
src = 0
dst = 2
length = 2
path = [0, 4, 3, 2]
"#;
    let inst = parse_instance(text, "options.toml", "options").expect("valid instance");
    let again = parse_instance(&instance_to_toml(&inst), "options.toml", "").expect("round trip");
    assert_eq!(again, inst);
    assert_eq!(again.paper.note, "a \\ b \"c\" ⌈n/2⌉");
}

#[test]
fn readme_indexes_every_instance() {
    let readme_path = instances_dir().join("README.md");
    let readme = std::fs::read_to_string(&readme_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", readme_path.display()));
    for path in instance_files() {
        let paper = paper_of(&path);
        if !INDEXED_PAPERS.contains(&paper.as_str()) {
            continue;
        }
        let name = path.file_name().expect("file name").to_string_lossy();
        let entry = format!("`{paper}/{name}`");
        assert!(readme.contains(&entry), "instances/README.md has no row for {entry}");
    }
    let is_file_cell =
        |c: &&str| c.ends_with(".toml") && c.split_once('/').is_some_and(|(dir, _)| is_paper_dir(dir));
    for cell in readme.split('`').skip(1).step_by(2).filter(is_file_cell) {
        assert!(
            instances_dir().join(cell).is_file(),
            "instances/README.md lists {cell}, which does not exist"
        );
    }
}

// ----- bad input: one line naming file, field and reason -----------------------------------

/// Parses `text` as the file `bad/<name>.toml`, expects a rejection naming `field`, and
/// snapshots its one-line Display as `instance_error_<name>`.
fn assert_rejected(name: &str, field: &str, text: &str) -> InputError {
    let file = format!("bad/{name}.toml");
    let err = parse_instance(text, &file, name).expect_err("the instance must be rejected");
    assert_eq!(err.file, file);
    assert_eq!(err.field, field, "{err}");
    let line = err.to_string();
    assert!(!line.contains('\n'), "not one line: {line}");
    snapshot!(format!("instance_error_{name}"), line);
    err
}

#[test]
fn malformed_toml_names_the_line() {
    let err = assert_rejected(
        "malformed_toml",
        "",
        "name = \"x\"\nproblem = \"gossip\"\nnetwork = \"mesh:2x2\"\n= 3\n",
    );
    assert!(err.reason.starts_with("line 4: "), "{err}");
}

#[test]
fn unknown_problem_is_rejected() {
    assert_rejected("unknown_problem", "problem", "problem = \"sorting\"\nnetwork = \"path:4\"\n");
}

#[test]
fn unknown_network_family_is_rejected() {
    assert_rejected("unknown_network", "network", "problem = \"gossip\"\nnetwork = \"hypercube:3\"\n");
}

#[test]
fn chatting_message_to_an_unknown_node_is_rejected() {
    assert_rejected(
        "unknown_node",
        "messages[0]",
        "problem = \"chatting\"\nnetwork = \"path:4\"\n\n[[messages]]\nsrc = 0\ndst = 99\nlength = 1\n",
    );
}

#[test]
fn negative_scatter_length_is_rejected() {
    assert_rejected(
        "negative_length",
        "lengths[1]",
        "problem = \"scatter\"\nnetwork = \"path:4\"\nlengths = [2, -1, 3]\n",
    );
}

#[test]
fn capacity_breaking_the_doubling_rule_is_rejected() {
    // SPEC §4.3 / 002 §2: w(n) <= w(2n) <= 2 w(n); here w(2) = 3 > 2 w(1).
    assert_rejected(
        "capacity_doubling",
        "model.capacity",
        "problem = \"broadcast\"\nnetwork = \"fat-tree:8\"\n\n[model]\nkind = \"fat-tree\"\ncapacity = \"table:1,3,4,4\"\n",
    );
}

#[test]
fn fat_tree_network_with_a_store_forward_model_is_rejected() {
    assert_rejected(
        "fat_tree_store_forward",
        "network",
        "problem = \"gossip\"\nnetwork = \"fat-tree:8\"\n\n[model]\nkind = \"store-forward\"\nrule = \"H*\"\n",
    );
}

#[test]
fn empty_packets_are_rejected() {
    assert_rejected(
        "packet_zero",
        "model.packet",
        "problem = \"gossip\"\nnetwork = \"mesh:2x2\"\n\n[model]\nkind = \"store-forward\"\npacket = 0\n",
    );
}
