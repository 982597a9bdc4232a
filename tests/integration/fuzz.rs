//! Fuzz smoke: the TOML and JSON loaders and the checker on hostile input must answer (an
//! instance, a schedule, an error, a verdict) and never panic. Three targets, each fed arbitrary
//! bytes and structure-aware mutations of the real instances and schedules under `instances/`:
//! byte edits that splice in hostile tokens, and JSON edits that replace one number or string of
//! a real schedule. Whatever loads is checked.
//!
//! The suite runs `FUZZ_CASES` inputs per target (default 2,500; 10^4 over the four targets, a few
//! seconds). The long run is the same tests with `FUZZ_CASES=1000000` (4·10^6 inputs, about five
//! minutes on two cores, no panic):
//!
//! ```text
//! FUZZ_CASES=1000000 cargo test --release --test integration fuzz::
//! ```

use commsched::checker;
use commsched::spec::Instance;
use commsched::spec::io::{parse_instance, parse_schedule};
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

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
            .filter(|f| f.extension().is_some_and(|e| e == "toml"))
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
