//! MSCCL XML written by others (tests/data/msccl/, sources and licences in its README): every
//! file of the corpus reads as a document with the header its README records, a malformed one
//! is refused naming the attribute, and RCCL's one-step direct allgather on 8 fully connected
//! ranks is judged against the gossip model it implements.

use commsched::checker;
use commsched::spec::io::parse_instance;
use commsched::spec::msccl;
use commsched::spec::msccl_xml::{self, StepKind};

fn corpus(name: &str) -> String {
    let path = format!("{}/tests/data/msccl/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// (file, coll, ngpus, nchunksperloop, nchannels, proto, step types used), as the README lists.
type Row = (&'static str, Option<&'static str>, usize, usize, usize, &'static str, &'static [&'static str]);

const FILES: [Row; 20] = [
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
        let algo = msccl_xml::parse(&corpus(file), file).unwrap_or_else(|e| panic!("{e}"));
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
    let err = msccl_xml::parse(&corpus(file), file).unwrap_err();
    assert_eq!((err.field.as_str(), err.reason.as_str()), ("gpu[0].tb[0].chan", "`2.25` is not an integer"));
    let text = r#"<!-- a > b --><algo name="x>y" nchannels="1" nchunksperloop="1" ngpus="1" coll="allgather">
        <gpu id="0"><tb id="0" send="-1" recv="-1" chan="0">
        <step s="0" type="nop" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="-1" cnt="0" depid="-1" deps="-1" hasdep="0"/>
        </tb></gpu></algo>"#;
    let algo = msccl_xml::parse(text, "ok.xml").unwrap();
    assert_eq!((algo.name.as_str(), algo.gpus[0].blocks[0].steps[0].kind), ("x>y", StepKind::Nop));
    let err = msccl_xml::parse(&text.replace("\"nop\"", "\"rr\""), "bad.xml").unwrap_err();
    assert_eq!(err.field, "gpu[0].tb[0].step[0].type");
}

/// RCCL's `allgather-8n-0-8kb.xml`: every rank sends its chunk to the 7 others in one step,
/// a send-only and a receive-only thread block per peer. As gossip under F* on
/// fully-connected:8 (docs/msccl.md: allgather is gossip, in place) the checker admits it with
/// length 1, the distance bound. (Its sibling `allgather-allpairs-8n-ll.xml` sends in step 0
/// and receives in step 1 of one block per peer: pairing by step index refuses it, and the
/// runtime's FIFO pairing per connection is the MSCCL interop work still open.)
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
