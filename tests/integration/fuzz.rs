//! Fuzz smoke: the TOML and JSON loaders and the checker on hostile input must answer (an
//! instance, a schedule, an error, a verdict) and never panic. Three targets, each fed arbitrary
//! bytes and structure-aware mutations of the real instances and schedules under `instances/`:
//! byte edits that splice in hostile tokens, and JSON edits that replace one number or string of
//! a real schedule. Whatever loads is checked.
//!
//! Five more targets feed the machine formats the same way, seeded from the real files under
//! `tests/data`: SCCL / msccl-tools topology JSON (`parse_topology_json`, then the network, its
//! diameter and an allgather on it) and the same networks as instance-file tables (TOML), with
//! arbitrary bytes, spliced hostile tokens and one JSON leaf replaced; and MSCCL XML (the reader,
//! `check FILE.xml`'s judge-by-header with the runtime reading, and the runtime reading alone
//! for a custom collective), with arbitrary bytes, spliced hostile tokens and one attribute
//! value replaced by a hostile one. An error must be one line (docs/spec.md §5.3); an input that
//! takes longer than a second is reported on standard error (`slow fuzz input`), never asserted.
//!
//! The suite runs `FUZZ_CASES` inputs per target (default 2,500; 22,500 over the nine targets,
//! about 20 s). The long run of the first four is the same tests with `FUZZ_CASES=1000000`
//! (4·10^6 inputs, about five minutes on two cores, no panic). The five format targets ran with
//! `FUZZ_CASES=100000` (5·10^5 inputs, 310 s wall on two shared cores, 2026-12-02): the first
//! run found a two-line error (the XML parser quoting the newline it did not expect) and MSCCL
//! headers with `ngpus="1000"` taking 5–15 s (an all-pairs distance table, an N³ scan of
//! missing contributors, a second hash set over the 999 000 arcs), all fixed; the run after the
//! first two fixes passed with no panic and one input over a second (1.2 s, `ngpus="1000"`),
//! which the third fix brought to 0.6 s. The run after all three (304 s wall, load average
//! about 4 on the two cores) passed with no panic; five inputs took 1.2–1.3 s there, all at
//! the guards' edge (an allreduce on `ngpus="1000"`, 10^6 items on `fully-connected:1000`; one
//! with `nchunksperloop="100000"`, 8·10^5 items), which `check FILE.xml` answers alone in 0.5 s
//! and 0.8 s:
//!
//! ```text
//! FUZZ_CASES=1000000 cargo test --release --test integration fuzz::
//! ```

use commsched::msccl::{self, runtime, xml};
use commsched::spec::io::{instance_to_toml, parse_instance, parse_schedule};
use commsched::spec::topology::parse_topology_json;
use commsched::spec::{Collective, CollectiveKind, Instance, Model, Problem, RingTie};
use commsched::{bounds, checker};
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Tokens that broke or nearly broke a loader once: extreme numbers, empty and unbalanced
/// structure, sizes at and past the guards, wrong types.
const HOSTILE: &[&str] = &[
    "0",
    "-1",
    "1e20",
    "1e400",
    "-0",
    "NaN",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "99999999999999999999999",
    "\"\"",
    "\"ring:0\"",
    "\"path:100000000\"",
    "\"mesh:99999x99999\"",
    "\"fat-tree:3\"",
    "\"ring:-1\"",
    "[]",
    "{}",
    "[[]]",
    "null",
    "true",
    "[",
    "}",
    "\"",
    "=",
    "\n[model]\n",
    "\n[[messages]]\n",
    "\u{0}",
    "é",
];

/// A real file: an instance's text, and its schedule's text when it has one.
struct Sample {
    instance: String,
    schedule: Option<String>,
    loaded: Instance,
}

fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut files = Vec::new();
        collect(Path::new(env!("CARGO_MANIFEST_DIR")).join("instances").as_path(), &mut files);
        files.sort();
        let samples: Vec<Sample> = files
            .into_iter()
            .filter(|f| {
                f.extension().is_some_and(|e| e == "toml") && !commsched::spec::io::is_machine_list(f)
            })
            .map(|f| {
                let instance = std::fs::read_to_string(&f).unwrap();
                let loaded = parse_instance(&instance, "<fuzz>", "fuzz").unwrap();
                let schedule = std::fs::read_to_string(f.with_extension("schedule.json")).ok();
                Sample { instance, schedule, loaded }
            })
            .collect();
        assert!(samples.iter().filter(|s| s.schedule.is_some()).count() >= 8, "the paper schedules");
        samples
    })
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn cases() -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2_500)
}

/// Loads `text` as a schedule of `inst` and, when it loads, checks it: neither may panic.
fn load_and_check(inst: &Instance, text: &str) {
    if let Ok(schedule) = parse_schedule(text, "<fuzz>", inst) {
        let verdict = checker::check(inst, &schedule);
        assert!(verdict.admissible().is_some() || !verdict.violations().is_empty());
    }
}

/// One byte-level edit: replace `len` bytes at `at` (both taken modulo the text) by a hostile
/// token or by arbitrary bytes.
fn splice(text: &str, at: usize, len: usize, token: &str) -> String {
    let bytes = text.as_bytes();
    let at = at % (bytes.len() + 1);
    let end = (at + len % 8).min(bytes.len());
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(token.as_bytes());
    out.extend_from_slice(&bytes[end..]);
    String::from_utf8_lossy(&out).into_owned()
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(HOSTILE).prop_map(str::to_string),
        1 => proptest::collection::vec(any::<u8>(), 0..6).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

/// Replaces the `k`-th leaf (modulo the number of leaves) of a JSON value by `by`.
fn replace_leaf(value: &mut Value, k: &mut usize, by: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter_mut().any(|v| replace_leaf(v, k, by)),
        Value::Object(fields) => fields.values_mut().any(|v| replace_leaf(v, k, by)),
        leaf => {
            if *k == 0 {
                *leaf = by.clone();
                return true;
            }
            *k -= 1;
            false
        }
    }
}

fn leaves(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.iter().map(leaves).sum(),
        Value::Object(fields) => fields.values().map(leaves).sum(),
        _ => 1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary bytes as an instance, and as a schedule of every real instance.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256), pick in any::<usize>()) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_instance(&text, "<fuzz>", "fuzz");
        let sample = &samples()[pick % samples().len()];
        load_and_check(&sample.loaded, &text);
    }

    /// A real instance with one hostile splice; whatever loads is checked against the paper's
    /// schedule (of the unedited instance) when there is one.
    #[test]
    fn spliced_instances_never_panic(pick in any::<usize>(), at in any::<usize>(), len in any::<usize>(), token in token()) {
        let sample = &samples()[pick % samples().len()];
        if let Ok(inst) = parse_instance(&splice(&sample.instance, at, len, &token), "<fuzz>", "fuzz") {
            load_and_check(&inst, sample.schedule.as_deref().unwrap_or("{}"));
        }
    }

    /// A real schedule with one hostile splice, loaded and checked against its instance.
    #[test]
    fn spliced_schedules_never_panic(pick in any::<usize>(), at in any::<usize>(), len in any::<usize>(), token in token()) {
        let with: Vec<&Sample> = samples().iter().filter(|s| s.schedule.is_some()).collect();
        let sample = with[pick % with.len()];
        load_and_check(&sample.loaded, &splice(sample.schedule.as_deref().unwrap(), at, len, &token));
    }

    /// A real schedule with one JSON leaf (a step, a node, a message, a token, a kind) replaced
    /// by a hostile value: the structure stays valid, so the checker itself is exercised.
    #[test]
    fn mutated_schedule_values_never_panic(pick in any::<usize>(), leaf in any::<usize>(), by in proptest::sample::select(HOSTILE)) {
        let with: Vec<&Sample> = samples().iter().filter(|s| s.schedule.is_some()).collect();
        let sample = with[pick % with.len()];
        let mut value: Value = serde_json::from_str(sample.schedule.as_deref().unwrap()).unwrap();
        let Ok(by) = serde_json::from_str::<Value>(by) else { return Ok(()) };
        let mut k = leaf % leaves(&value);
        replace_leaf(&mut value, &mut k, &by);
        load_and_check(&sample.loaded, &value.to_string());
    }
}

/// Attribute values and tokens that stress MSCCL XML: counts at and past every size, negative
/// and malformed numbers, every step type and collective name, entities and broken markup.
const XML_HOSTILE: &[&str] = &[
    "-1",
    "0",
    "1",
    "2",
    "7",
    "1000",
    "100000",
    "4294967296",
    "18446744073709551615",
    "99999999999999999999",
    "",
    " 3",
    "1e3",
    "x",
    "s",
    "r",
    "nop",
    "cpy",
    "rrcs",
    "i",
    "o",
    "custom",
    "allreduce",
    "broadcast",
    "&amp;",
    "&#0;",
    "\"",
    "<",
    "/>",
    "<step/>",
    "<tb id=\"9\"/>",
    "<!DOCTYPE a [<!ENTITY b \"c\">]>",
];

/// Reports an input that takes longer than a second (the long run is read for this line; the
/// suite asserts no time).
fn timed(input: &str, run: impl FnOnce()) {
    let start = Instant::now();
    run();
    let took = start.elapsed();
    if took > Duration::from_secs(1) {
        eprintln!("slow fuzz input ({took:?}): {:?}", input.chars().take(400).collect::<String>());
    }
}

/// An error is one line (docs/spec.md §5.3).
fn one_line(error: impl std::fmt::Display) {
    let text = error.to_string();
    assert!(!text.contains('\n'), "an error of more than one line: {text}");
}

/// The real files of a corpus directory under `tests/data`, with their names.
fn corpus(dir: &str, ext: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    collect(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(dir), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == ext))
        .map(|f| {
            (f.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&f).unwrap())
        })
        .collect()
}

/// The topology files of `tests/data/topologies`.
fn topologies() -> &'static [(String, String)] {
    static FILES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FILES.get_or_init(|| corpus("topologies", "json"))
}

/// The MSCCL files of `tests/data/msccl`, each with the collective it implements where its
/// header names none (the SCCL-era files): read from its name.
fn msccl_files() -> &'static [(String, String, Option<&'static str>)] {
    static FILES: OnceLock<Vec<(String, String, Option<&'static str>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        corpus("msccl", "xml")
            .into_iter()
            .map(|(name, text)| {
                let named = ["allgather", "allreduce", "alltoall", "reducescatter"]
                    .into_iter()
                    .find(|c| name.contains(c))
                    .map(|c| if c == "reducescatter" { "reduce-scatter" } else { c });
                (name, text, named)
            })
            .collect()
    })
}

/// Every topology file as an instance file with its network as a table (what `gen` writes
/// for a topology file): the TOML form of the same networks.
fn network_tables() -> &'static [String] {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        topologies()
            .iter()
            .map(|(name, text)| {
                let net = parse_topology_json(text, name).unwrap().network().unwrap();
                instance_to_toml(&allgather(net).unwrap())
            })
            .collect()
    })
}

fn allgather(net: commsched::spec::Network) -> Result<Instance, commsched::error::InputError> {
    let problem = Problem::Collective(Collective { kind: CollectiveKind::Allgather, chunks: 1, root: 0 });
    Instance::new("fuzz", net, problem, Model::Collective { rounds: None }, RingTie::default(), "<fuzz>")
}

/// Reads `text` as a topology JSON file: what it accepts builds its network, whose diameter is
/// computed and on which an allgather is validated and given the bounds that read the network
/// (distance, receive bandwidth; the flow LP's time is the network's, not the file's); what it
/// refuses is one line.
fn load_topology(text: &str) {
    timed(text, || match parse_topology_json(text, "<fuzz>") {
        Ok(topology) => {
            let net = topology.network().expect("a topology the reader accepts builds");
            let _ = net.diameter();
            match allgather(net) {
                Ok(inst) => network_bounds(&inst),
                Err(e) => one_line(e),
            }
        }
        Err(e) => one_line(e),
    });
}

fn network_bounds(inst: &Instance) {
    let _ = (bounds::collective::distance(inst), bounds::collective::rounds_needed(inst));
}

/// Reads `text` as an instance file with a network table and bounds what loads as
/// [`load_topology`] does.
fn load_instance(text: &str) {
    timed(text, || match parse_instance(text, "<fuzz>", "fuzz") {
        Ok(inst) => network_bounds(&inst),
        Err(e) => one_line(e),
    });
}

/// Judges `text` as `check FILE.xml` does (from its header, as a runtime runs it, then the
/// checker), and runs a custom collective's file through the runtime reading alone.
fn judge_xml(text: &str, collective: Option<&str>) {
    timed(text, || {
        match msccl::from_header(text, "<fuzz>", None, collective) {
            Ok((inst, imported)) => drop(checker::check(&inst, &imported.schedule)),
            Err(e) => one_line(e),
        }
        let Ok(algo) = xml::parse(text, "<fuzz>") else { return };
        if let Ok(semantics) = runtime::Semantics::of(&algo, collective, "<fuzz>")
            && semantics.kind.is_none()
        {
            match runtime::run(&algo, &semantics, "<fuzz>") {
                Ok(run) => assert!(run.violations.iter().all(|v| !v.to_string().contains('\n'))),
                Err(e) => one_line(e),
            }
        }
    });
}

/// The byte ranges of the attribute values of `text` (between `="` and the next `"`).
fn attribute_values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("=\"") {
        let start = from + at + 2;
        let Some(len) = text[start..].find('"') else { break };
        out.push((start, start + len));
        from = start + len + 1;
    }
    out
}

fn xml_token() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(XML_HOSTILE).prop_map(str::to_string),
        1 => proptest::sample::select(HOSTILE).prop_map(str::to_string),
        1 => proptest::collection::vec(any::<u8>(), 0..6).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary bytes as a topology JSON file and as MSCCL XML.
    #[test]
    fn arbitrary_bytes_as_topologies_and_msccl_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256), pick in any::<usize>()) {
        let text = String::from_utf8_lossy(&bytes);
        load_topology(&text);
        let files = msccl_files();
        judge_xml(&text, files[pick % files.len()].2);
    }

    /// A real topology file with one hostile splice, and its network table (TOML) with one.
    #[test]
    fn spliced_topologies_never_panic(pick in any::<usize>(), at in any::<usize>(), len in any::<usize>(), token in token()) {
        let files = topologies();
        load_topology(&splice(&files[pick % files.len()].1, at, len, &token));
        let tables = network_tables();
        load_instance(&splice(&tables[pick % tables.len()], at, len, &token));
    }

    /// A real topology file with one JSON leaf (a bandwidth, a node of a switch, a name)
    /// replaced by a hostile value: the structure stays JSON, so the reader's checks and the
    /// network builder are exercised.
    #[test]
    fn mutated_topology_values_never_panic(pick in any::<usize>(), leaf in any::<usize>(), by in proptest::sample::select(HOSTILE)) {
        let files = topologies();
        let mut value: Value = serde_json::from_str(&files[pick % files.len()].1).unwrap();
        let Ok(by) = serde_json::from_str::<Value>(by) else { return Ok(()) };
        let mut k = leaf % leaves(&value);
        replace_leaf(&mut value, &mut k, &by);
        load_topology(&value.to_string());
    }

    /// A real MSCCL file with one hostile splice, judged as `check FILE.xml` judges it.
    #[test]
    fn spliced_msccl_never_panics(pick in any::<usize>(), at in any::<usize>(), len in any::<usize>(), token in xml_token()) {
        let (_, text, named) = &msccl_files()[pick % msccl_files().len()];
        judge_xml(&splice(text, at, len, &token), *named);
    }

    /// A real MSCCL file with one attribute value (a rank, a peer, an offset, a count, a step
    /// type, a dependency, the collective) replaced by a hostile one: still well-formed XML, so
    /// the reader's checks and the runtime reading are exercised.
    #[test]
    fn mutated_msccl_attributes_never_panic(pick in any::<usize>(), which in any::<usize>(), by in proptest::sample::select(XML_HOSTILE)) {
        let (_, text, named) = &msccl_files()[pick % msccl_files().len()];
        let values = attribute_values(text);
        let (start, end) = values[which % values.len()];
        let mutant = format!("{}{by}{}", &text[..start], &text[end..]);
        judge_xml(&mutant, *named);
    }
}
