//! MSCCL XML written by others (tests/data/msccl/, sources and licences in its README): every
//! file of the corpus reads as a document with the header its README records, a malformed one
//! is refused naming the attribute, and RCCL's one-step direct allgather on 8 fully connected
//! ranks is judged against the gossip model it implements.

use commsched::checker;
use commsched::checker::Rule;
use commsched::error::InputError;
use commsched::msccl;
use commsched::msccl::runtime::{self, Semantics};
use commsched::msccl::xml::{self, StepKind};
use commsched::spec::io::parse_instance;

fn corpus(name: &str) -> String {
    let path = format!("{}/tests/data/msccl/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// (file, coll, ngpus, nchunksperloop, nchannels, proto, step types used), as the README lists.
type Row = (&'static str, Option<&'static str>, usize, usize, usize, &'static str, &'static [&'static str]);

const FILES: [Row; 23] = [
    ("azure-alltoall-allpairs-8-ll-2ch.xml", Some("alltoall"), 8, 16, 2, "LL", &["s", "r", "cpy"]),
    (
        "azure-allgather-hier-4-ll-outofplace.xml",
        Some("allgather"),
        4,
        16,
        4,
        "LL",
        &["s", "r", "rcs", "cpy"],
    ),
    (
        "azure-allreduce-ndv5-8-simple.xml",
        Some("allreduce"),
        8,
        16,
        32,
        "Simple",
        &["s", "r", "rrc", "rrs", "rcs"],
    ),
    ("azure-allreduce-tree-4-ll.xml", Some("allreduce"), 4, 24, 24, "LL", &["s", "r", "rrc", "rrs", "rcs"]),
    (
        "lyd-allreduce-ring-4-simple-4ch.xml",
        Some("allreduce"),
        4,
        4,
        4,
        "Simple",
        &["s", "rrs", "rrcs", "rcs", "r"],
    ),
    ("lyd-allreduce-tree-2-simple.xml", Some("allreduce"), 2, 2, 1, "Simple", &["s", "rrcs", "r"]),
    (
        "lyd-allreduce-tree-4-simple.xml",
        Some("allreduce"),
        4,
        2,
        1,
        "Simple",
        &["s", "r", "rrc", "rrs", "rcs", "rrcs"],
    ),
    ("msccl-allreduce-allpairs-8-ll-pygen.xml", Some("allreduce"), 8, 8, 1, "LL", &["s", "r", "re", "nop"]),
    ("mscclang-allreduce-allpairs-8-ll.xml", Some("allreduce"), 8, 8, 1, "LL", &["s", "r", "re"]),
    (
        "mscclang-allreduce-ring-8-ll128.xml",
        Some("allreduce"),
        8,
        16,
        16,
        "LL128",
        &["s", "rrs", "rrcs", "rcs", "r"],
    ),
    ("mscclang-custom-alltonext-24-simple.xml", Some("custom"), 24, 16, 4, "Simple", &["s", "r"]),
    ("parasail-allgather-ring-2-simple.xml", None, 2, 2, 1, "Simple", &["s", "r"]),
    ("parasail-allgather-ring-4-simple.xml", None, 4, 4, 1, "Simple", &["s", "rcs", "r"]),
    ("parasail-allreduce-ring-2-simple-chunkld.xml", None, 2, 2, 1, "Simple", &["s", "rrcs", "r"]),
    ("parasail-allreduce-ring-2-simple.xml", None, 2, 2, 1, "Simple", &["s", "rrcs", "r"]),
    ("parasail-reducescatter-ring-4-simple.xml", None, 4, 4, 1, "Simple", &["s", "rrs", "rrc"]),
    ("rccl-allgather-direct-8-ll-split-tb.xml", Some("allgather"), 8, 8, 1, "LL", &["s", "r"]),
    ("rccl-allgather-direct-8-ll.xml", Some("allgather"), 8, 8, 1, "LL", &["s", "r"]),
    ("rccl-allreduce-allpairs-4-ll.xml", Some("allreduce"), 4, 8, 2, "LL", &["s", "r", "re", "nop"]),
    (
        "rccl-allreduce-allpairs-8-ll-outofplace.xml",
        Some("allreduce"),
        8,
        16,
        2,
        "LL",
        &["cpy", "s", "r", "re", "nop"],
    ),
    ("rccl-alltoall-direct-8-ll-cpy.xml", Some("alltoall"), 8, 8, 1, "LL", &["s", "r", "cpy"]),
    ("rccl-allreduce-allpairs-8-ll-32tb.xml", Some("allreduce"), 8, 256, 4, "LL", &["s", "r", "re", "nop"]),
    (
        "rccl-allreduce-ring-16-ll-24ch.xml",
        Some("allreduce"),
        16,
        384,
        24,
        "LL",
        &["s", "rrs", "rrcs", "rcs", "r"],
    ),
];

#[test]
fn every_file_of_the_corpus_reads_with_its_header() {
    let listed: Vec<String> = std::fs::read_dir(format!("{}/tests/data/msccl", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".xml") && !n.starts_with("lyd-invalid"))
        .collect();
    assert_eq!(listed.len(), FILES.len(), "a corpus file without a row here: {listed:?}");
    for (file, coll, ngpus, nchunks, nchannels, proto, kinds) in FILES {
        let algo = xml::parse(&corpus(file), file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (algo.coll.as_deref(), algo.ngpus, algo.nchunksperloop, algo.nchannels, algo.proto.as_str()),
            (coll, ngpus, Some(nchunks), Some(nchannels), proto),
            "{file}"
        );
        // Early files give no ngpus: the ranks are the <gpu> elements.
        assert_eq!(algo.gpus.len(), ngpus, "{file}");
        let used: std::collections::BTreeSet<&str> =
            algo.gpus.iter().flat_map(|g| &g.blocks).flat_map(|t| &t.steps).map(|s| s.kind.name()).collect();
        let expected: std::collections::BTreeSet<&str> = kinds.iter().copied().collect();
        assert_eq!(used, expected, "{file}");
        assert!(algo.gpus.iter().flat_map(|g| &g.blocks).all(|t| t.channel < nchannels), "{file}");
    }
}

/// A file with fractional channels (kept in the corpus as found) is refused at the first one,
/// naming the element and attribute; XML's own syntax (a `>` in an attribute, comments) is no
/// obstacle, and a step type outside the format is named.
#[test]
fn malformed_files_are_refused_naming_the_attribute() {
    let file = "lyd-invalid-fractional-channels-4.xml";
    let err = xml::parse(&corpus(file), file).unwrap_err();
    assert_eq!((err.field.as_str(), err.reason.as_str()), ("gpu[0].tb[0].chan", "`2.25` is not an integer"));
    let text = r#"<!-- a > b --><algo name="x>y" nchannels="1" nchunksperloop="1" ngpus="1" coll="allgather">
        <gpu id="0"><tb id="0" send="-1" recv="-1" chan="0">
        <step s="0" type="nop" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="-1" cnt="0" depid="-1" deps="-1" hasdep="0"/>
        </tb></gpu></algo>"#;
    let algo = xml::parse(text, "ok.xml").unwrap();
    assert_eq!((algo.name.as_str(), algo.gpus[0].blocks[0].steps[0].kind), ("x>y", StepKind::Nop));
    let err = xml::parse(&text.replace("\"nop\"", "\"rr\""), "bad.xml").unwrap_err();
    assert_eq!(err.field, "gpu[0].tb[0].step[0].type");
}

/// RCCL's `allgather-8n-0-8kb.xml`: every rank sends its chunk to the 7 others in one step,
/// a send-only and a receive-only thread block per peer. As gossip under F* on
/// fully-connected:8 (docs/msccl.md: allgather is gossip, in place) the checker admits it with
/// length 1, the distance bound.
#[test]
fn rccls_direct_allgather_is_admissible_on_eight_fully_connected_ranks() {
    let inst = parse_instance(
        "problem = \"gossip\"\nnetwork = \"fully-connected:8\"\n[model]\nkind = \"store-forward\"\nrule = \"F*\"\nmode = \"copy\"\npacket = 1\n",
        "<test>",
        "gossip-fc8",
    )
    .unwrap();
    let file = "rccl-allgather-direct-8-ll-split-tb.xml";
    let schedule = msccl::parse(&corpus(file), file, &inst).unwrap_or_else(|e| panic!("{e}"));
    let verdict = checker::check(&inst, &schedule);
    assert_eq!(verdict.admissible().map(|m| m.length()), Some(1), "{verdict:?}");
}

/// Mutants of a file (name, text): its first data-moving step dropped, the destination
/// offsets of two receives on one rank swapped, a dependency pointed at a step that does not
/// exist, and the first sending block's peer moved to another rank.
fn mutants(text: &str) -> Vec<(&'static str, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let step = |l: &&str| l.contains("<step") && !l.contains("type=\"nop\"");
    let attr = |l: &str, key: &str| -> Option<String> {
        let at = l.find(&format!(" {key}=\""))? + key.len() + 3;
        Some(l[at..at + l[at..].find('"')?].to_string())
    };
    let set = |l: &str, key: &str, v: &str| -> String {
        let old = attr(l, key).unwrap();
        l.replacen(&format!(" {key}=\"{old}\""), &format!(" {key}=\"{v}\""), 1)
    };
    let join = |ls: Vec<String>| ls.join("\n") + "\n";
    let owned = || lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let mut out = Vec::new();
    // A dropped step.
    let first = lines.iter().position(&step).unwrap();
    let mut dropped = owned();
    dropped.remove(first);
    out.push(("dropped step", join(dropped)));
    // The first receive into a buffer other than scratch (else any receive) takes the
    // destination of another receive of its rank, which takes its own; with no other, the
    // next offset of its buffer.
    let receives =
        |l: &&str| step(l) && matches!(attr(l, "type").as_deref(), Some("r" | "rcs" | "rrc" | "rrcs"));
    let mut rank_of = Vec::new();
    let mut rank = 0;
    for l in &lines {
        rank += usize::from(l.contains("<gpu "));
        rank_of.push(rank);
    }
    let dst = |i: usize| (attr(lines[i], "dstbuf").unwrap(), attr(lines[i], "dstoff").unwrap());
    let candidates: Vec<usize> = (0..lines.len()).filter(|&i| receives(&lines[i])).collect();
    let i = candidates.iter().copied().find(|&i| dst(i).0 != "s").unwrap_or(candidates[0]);
    let mut swapped = owned();
    match candidates.iter().copied().find(|&j| {
        j != i
            && rank_of[j] == rank_of[i]
            && dst(j) != dst(i)
            && attr(lines[j], "cnt") == attr(lines[i], "cnt")
    }) {
        Some(j) => {
            swapped[i] = set(&set(lines[i], "dstbuf", &dst(j).0), "dstoff", &dst(j).1);
            swapped[j] = set(&set(lines[j], "dstbuf", &dst(i).0), "dstoff", &dst(i).1);
        }
        None => {
            let next = dst(i).1.parse::<usize>().unwrap() + 1;
            swapped[i] = set(lines[i], "dstoff", &next.to_string());
        }
    }
    out.push(("swapped offset", join(swapped)));
    // A dependency on a step that does not exist.
    let mut broken = owned();
    broken[first] = set(&set(lines[first], "depid", "0"), "deps", "999");
    out.push(("broken dependency", join(broken)));
    // The first sending block sends to another rank.
    let mut wrong = owned();
    let tb =
        lines.iter().position(|l| l.contains("<tb ") && attr(l, "send").is_some_and(|v| v != "-1")).unwrap();
    let gpus = lines.iter().filter(|l| l.contains("<gpu ")).count();
    let own: usize = lines[..tb]
        .iter()
        .rev()
        .find(|l| l.contains("<gpu "))
        .and_then(|l| attr(l, "id"))
        .unwrap()
        .parse()
        .unwrap();
    let peer: usize = attr(lines[tb], "send").unwrap().parse().unwrap();
    let moved = (1..gpus).map(|d| (peer + d) % gpus).find(|&p| p != own).unwrap_or(own);
    wrong[tb] = set(lines[tb], "send", &moved.to_string());
    out.push(("wrong peer", join(wrong)));
    out
}

/// What `check FILE.xml` judges without an instance: the collective from `coll` (or the flag,
/// for SCCL-era files that have none) on `fully-connected:ngpus` in the collective model.
fn judge(
    text: &str,
    file: &str,
    collective: Option<&str>,
) -> Result<(msccl::Imported, checker::Verdict), InputError> {
    let (inst, imported) = msccl::from_header(text, file, None, collective)?;
    let verdict = checker::check(&inst, &imported.schedule);
    Ok((imported, verdict))
}

/// The collective named for files whose header has no `coll` (the SCCL-era files).
fn named(file: &str) -> Option<&'static str> {
    let row = FILES.iter().find(|r| r.0 == file).unwrap();
    row.1.is_none().then(|| {
        if file.contains("allgather") {
            "allgather"
        } else if file.contains("reducescatter") {
            "reduce_scatter"
        } else {
            "allreduce"
        }
    })
}

/// Every file that names a standard collective, run as the runtime runs it (docs/msccl.md):
/// (file, steps S, rounds R) of the derived timing on `fully-connected:ngpus` with bandwidth 1,
/// which the checker admits, every rank ending with what the collective requires. Allgather,
/// alltoall and allreduce files from RCCL, the MSCCL executor and scheduler, msccl-tools users
/// and early SCCL work implement their collectives (alltoall: RCCL's and the scheduler's). The
/// ring allreduces take 2(n − 1) steps (RCCL's 16-rank ring on 24 channels: 30), the all-pairs
/// ones 1 or 2; R counts the channels sharing a link.
#[test]
fn every_file_of_the_corpus_implements_its_collective_as_the_runtime_runs_it() {
    const RUNS: [(&str, u64, u64); 21] = [
        ("azure-allgather-hier-4-ll-outofplace.xml", 2, 8),
        ("azure-alltoall-allpairs-8-ll-2ch.xml", 1, 2),
        ("azure-allreduce-ndv5-8-simple.xml", 4, 18),
        ("azure-allreduce-tree-4-ll.xml", 6, 72),
        ("lyd-allreduce-ring-4-simple-4ch.xml", 6, 6),
        ("lyd-allreduce-tree-2-simple.xml", 2, 2),
        ("lyd-allreduce-tree-4-simple.xml", 5, 10),
        ("msccl-allreduce-allpairs-8-ll-pygen.xml", 2, 2),
        ("mscclang-allreduce-allpairs-8-ll.xml", 2, 2),
        ("mscclang-allreduce-ring-8-ll128.xml", 14, 28),
        ("parasail-allgather-ring-2-simple.xml", 1, 1),
        ("parasail-allgather-ring-4-simple.xml", 3, 3),
        ("parasail-allreduce-ring-2-simple-chunkld.xml", 2, 2),
        ("parasail-allreduce-ring-2-simple.xml", 2, 2),
        ("rccl-allgather-direct-8-ll-split-tb.xml", 1, 1),
        ("rccl-allgather-direct-8-ll.xml", 1, 1),
        ("rccl-allreduce-allpairs-4-ll.xml", 1, 8),
        ("rccl-allreduce-allpairs-8-ll-outofplace.xml", 1, 16),
        ("rccl-alltoall-direct-8-ll-cpy.xml", 1, 1),
        ("rccl-allreduce-allpairs-8-ll-32tb.xml", 2, 64),
        ("rccl-allreduce-ring-16-ll-24ch.xml", 30, 360),
    ];
    for (file, steps, rounds) in RUNS {
        let (imported, verdict) = judge(&corpus(file), file, named(file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(imported.violations, [], "{file}");
        let measure = verdict.admissible().unwrap_or_else(|| panic!("{file}: {:?}", verdict.violations()));
        let used = measure.metrics().extra.iter().find(|(k, _)| k == "rounds").map(|(_, v)| v.clone());
        assert_eq!((measure.length(), used), (steps, Some(rounds.to_string())), "{file}");
    }
}

/// The 4-rank ring reduce-scatter of an early NCCL fork, read as MSCCL runs it (a block's
/// `send` is where it sends), reduces what it receives with the wrong local chunk: rank 1
/// adds rank 0's chunk 1 to its own chunk 3. The file fits a ring run the other way round, so
/// it was written for other semantics; as an MSCCL file it does not implement reduce-scatter.
#[test]
fn the_early_ring_reduce_scatter_mixes_chunks_under_the_runtime_semantics() {
    let file = "parasail-reducescatter-ring-4-simple.xml";
    let (imported, verdict) = judge(&corpus(file), file, named(file)).unwrap();
    let first: Vec<String> = imported.violations.iter().take(2).map(ToString::to_string).collect();
    assert_eq!(
        first,
        [
            "mixed chunks: step 1, gpu[1].tb[0].step[1] reduces chunk 1 with chunk 3: a reduction combines one chunk",
            "mixed chunks: step 1, gpu[2].tb[0].step[1] reduces chunk 2 with chunk 0: a reduction combines one chunk",
        ]
    );
    assert!(imported.violations.iter().any(|v| v.rule == Rule::Incomplete));
    assert!(verdict.admissible().is_none());
}

/// A `custom` collective has no postcondition: `check` asks which collective it implements,
/// and the runtime reading still runs it: 24 ranks pass chunks on to the next, some through
/// a scratch chunk forwarded across the three groups of 8, in 3 steps.
#[test]
fn a_custom_collective_runs_but_names_no_postcondition() {
    let file = "mscclang-custom-alltonext-24-simple.xml";
    let text = corpus(file);
    let err = msccl::from_header(&text, file, None, None).unwrap_err();
    assert_eq!(err.error().field, "algo.coll");
    let algo = xml::parse(&text, file).unwrap();
    let semantics = Semantics::of(&algo, None, file).unwrap();
    let run = runtime::run(&algo, &semantics, file).unwrap();
    assert_eq!((run.length, run.violations.len()), (3, 0));
}

/// Every mutant of every file (a dropped step, a swapped offset, a broken dependency, a send to
/// the wrong peer) is rejected by the runtime reading with a diagnosis naming the element:
/// an input error at `gpu[…]…`, or violations placed at a step or rank. The custom file has no
/// postcondition, so its swapped offset is not among them.
#[test]
fn every_mutant_is_rejected_naming_the_element() {
    for row in FILES {
        let file = row.0;
        for (what, text) in mutants(&corpus(file)) {
            let custom = row.1 == Some("custom");
            if custom && what == "swapped offset" {
                continue;
            }
            let outcome = if custom {
                xml::parse(&text, file).and_then(|algo| {
                    let semantics = Semantics::of(&algo, None, file)?;
                    runtime::run(&algo, &semantics, file).map(|r| r.violations).map_err(InputError::from)
                })
            } else {
                judge(&text, file, named(file)).map(|(imported, _)| imported.violations)
            };
            match outcome {
                Err(e) => assert!(e.field.starts_with("gpu["), "{file}, {what}: {e}"),
                Ok(violations) => {
                    assert!(!violations.is_empty(), "{file}, {what}: accepted");
                    assert!(
                        violations.iter().all(|v| v.place.starts_with("gpu[")),
                        "{file}, {what}: {violations:?}"
                    );
                }
            }
        }
    }
}

/// RCCL's one-step allgather whose blocks send in step 0 and receive in step 1 (one block per
/// peer): the runtime pairs a send with the peer's next receive on the connection, so it is the
/// same one-step allgather; pairing by step index refuses it.
#[test]
fn fifo_pairing_reads_what_step_index_pairing_refuses() {
    let inst = parse_instance(
        "problem = \"gossip\"\nnetwork = \"fully-connected:8\"\n[model]\nkind = \"store-forward\"\nrule = \"F*\"\nmode = \"copy\"\npacket = 1\n",
        "<test>",
        "gossip-fc8",
    )
    .unwrap();
    let file = "rccl-allgather-direct-8-ll.xml";
    let imported = msccl::import(&corpus(file), file, &inst, msccl::Reading::Runtime, None).unwrap();
    assert_eq!(checker::check(&inst, &imported.schedule).admissible().map(|m| m.length()), Some(1));
    let err = msccl::import(&corpus(file), file, &inst, msccl::Reading::StepIndex, None).unwrap_err();
    assert_eq!(err.error().reason, "send to rank 1 has no receive at the same step");
}

/// `check FILE.xml` from the command line: exit 0 with the checked length for a file that
/// implements its collective, 1 for one that does not, 2 and one line naming the attribute for
/// a header that names no collective.
#[test]
fn check_judges_a_file_alone_with_the_usual_exit_codes() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_commsched"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let (code, stdout, _) =
        run(&["--format", "json", "check", "tests/data/msccl/rccl-alltoall-direct-8-ll-cpy.xml"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (code, &v["admissible"], &v["length"]),
        (Some(0), &serde_json::json!(true), &serde_json::json!(1))
    );
    assert_eq!(v["method"], "check (alltoall, R = 1, on fully-connected:8)");
    let rs = "tests/data/msccl/parasail-reducescatter-ring-4-simple.xml";
    let (code, stdout, _) = run(&["check", rs, "--collective", "reduce_scatter", "--network", "ring:4"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("mixed chunks: step 1, gpu[1].tb[0].step[1] reduces chunk 1 with chunk 3"),
        "{stdout}"
    );
    let (code, _, stderr) = run(&["check", rs]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr.trim(),
        format!(
            "commsched: error: {rs}: field `algo.coll`: absent: name the collective the file implements (--collective)"
        )
    );
    let (code, _, stderr) = run(&["check", rs, "--collective", "reduce_scatter", "--reading", "step-index"]);
    assert_eq!(code, Some(2), "{stderr}");
}
