//! The claim catalogue (`claims/*.toml`, `commsched::claims::catalogue`): its ids are unique, prefixed by
//! their paper and numbered without gaps; every entry has its required fields; a sample of
//! entries carries the papers' real numbers and errata; and every claim id cited anywhere in the
//! crate (sources, tests, instance files and their `[paper] claims`, READMEs, the Markdown files
//! under docs/, the catalogue's own cross-references) is catalogued.

use commsched::claims::catalogue::{self, Claim, ClaimKind};
use commsched::spec::io::load_instance;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

fn claim(id: &str) -> &'static Claim {
    catalogue::find(id).unwrap_or_else(|| panic!("{id} is not catalogued"))
}

/// `(prefix, number, letter)` of an id such as `GOS-24a`, or `None` if it is not one.
fn split_id(id: &str) -> Option<(&str, u32, Option<char>)> {
    let (prefix, rest) = id.split_once('-')?;
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let letter = &rest[digits.len()..];
    if prefix.is_empty()
        || !prefix.chars().all(|c| c.is_ascii_uppercase())
        || digits.is_empty()
        || !digits.chars().all(|c| c.is_ascii_digit())
        || digits.starts_with('0')
        || letter.len() > 1
    {
        return None;
    }
    Some((prefix, digits.parse().ok()?, letter.chars().next()))
}

#[test]
fn ids_are_unique_and_prefixed_by_their_paper() {
    let all = catalogue::all();
    assert!(all.len() > 100, "only {} claims catalogued", all.len());
    let mut seen = HashSet::new();
    for c in all {
        assert!(seen.insert(c.id.as_str()), "{} is catalogued twice", c.id);
        let (prefix, _, _) = split_id(&c.id).unwrap_or_else(|| panic!("`{}` is not a claim id", c.id));
        let expected = catalogue::prefix_of_paper(&c.paper)
            .unwrap_or_else(|| panic!("{}: paper `{}` is not 000 … 004", c.id, c.paper));
        assert_eq!(prefix, expected, "{} is filed under paper {}", c.id, c.paper);
    }
    for (paper, prefix) in catalogue::PREFIXES {
        assert!(all.iter().any(|c| c.paper == paper), "paper {paper} ({prefix}) has no claim");
    }
}

#[test]
fn every_claim_has_its_required_fields() {
    let mut problems = Vec::new();
    for c in catalogue::all() {
        let required = [
            ("section", &c.section),
            ("title", &c.title),
            ("statement", &c.statement),
            ("convention", &c.convention),
        ];
        for (field, value) in required {
            if value.trim().is_empty() {
                problems.push(format!("{}: empty {field}", c.id));
            }
        }
        for (field, value) in [("erratum", &c.erratum), ("expected", &c.expected)] {
            if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
                problems.push(format!("{}: {field} present but empty", c.id));
            }
        }
        // Bounds and exact values are what a tool compares numbers against: they need a formula.
        let numeric = matches!(c.kind, ClaimKind::LowerBound | ClaimKind::UpperBound | ClaimKind::ExactValue);
        if numeric && c.formula.trim().is_empty() {
            problems.push(format!("{}: a {} claim without a formula", c.id, c.kind));
        }
        if c.title.contains('\n') {
            problems.push(format!("{}: the title spans several lines", c.id));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Per paper the numbers run 1, 2, … without a gap, in file order; a lettered row id (`FT-21a`)
/// follows its table's own id and the letters run a, b, … without a gap.
#[test]
fn ids_are_numbered_without_gaps_in_order() {
    let mut by_prefix: BTreeMap<&str, Vec<(u32, Option<char>)>> = BTreeMap::new();
    for c in catalogue::all() {
        let (prefix, number, letter) = split_id(&c.id).expect("checked above");
        by_prefix.entry(prefix).or_default().push((number, letter));
    }
    for (prefix, ids) in &by_prefix {
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, &sorted, "{prefix}: claims are not in id order");
        let numbers: BTreeSet<u32> = ids.iter().map(|&(n, _)| n).collect();
        let max = *numbers.last().expect("non-empty");
        let missing: Vec<u32> = (1..=max).filter(|n| !numbers.contains(n)).collect();
        assert!(missing.is_empty(), "{prefix}: numbers {missing:?} are missing");
        for &number in &numbers {
            let letters: Vec<char> =
                ids.iter().filter(|&&(n, _)| n == number).filter_map(|&(_, l)| l).collect();
            if letters.is_empty() {
                continue;
            }
            assert!(ids.contains(&(number, None)), "{prefix}-{number}: rows without the table's own id");
            let expected: Vec<char> = ('a'..).take(letters.len()).collect();
            assert_eq!(letters, expected, "{prefix}-{number}: row letters");
        }
    }
    // The table rows the papers' summaries are split into.
    for id in ["FT-21a", "FT-21e", "GOS-24a", "GOS-24e"] {
        claim(id);
    }
}

#[test]
fn claims_carry_the_papers_numbers() {
    // 004 Theorem 1: furthest-first meets the linear-array bisection bound.
    let te13 = claim("TE-13");
    assert_eq!(te13.kind, ClaimKind::UpperBound);
    assert!(te13.formula.contains("⌈(n²−1)/4⌉"), "{}", te13.formula);
    assert!(te13.convention.contains("time 1 = step 1"), "{}", te13.convention);

    // 004 (2): ring bound values for n = 3..12.
    let te2 = claim("TE-2");
    assert_eq!(te2.kind, ClaimKind::LowerBound);
    assert!(te2.formula.contains("⌈(n²−1)/8⌉"));
    assert!(te2.expected.as_deref().is_some_and(|e| e.contains("1, 2, 3, 5, 6, 8, 10, 13, 15, 18")));

    // 001 Theorem 3 against its own Figure 4.
    let sg22 = claim("SG-22");
    assert_eq!(sg22.kind, ClaimKind::UpperBound);
    assert!(sg22.formula.contains("2B + C + M"));
    let erratum = sg22.erratum.as_deref().expect("SG-22 has an erratum");
    assert!(erratum.contains("Fig. 4") && erratum.contains("21"), "{erratum}");
    assert!(erratum.contains("2B + C + M = 18"), "{erratum}");

    // 001 Shoulder-Tap: the last processor's start.
    let sg11 = claim("SG-11").erratum.as_deref().expect("SG-11 has an erratum");
    assert!(sg11.contains("n + max(1, s_n)") && sg11.contains("L = (1, 1)"), "{sg11}");

    // 001 scatter: alpha is one more than the last step.
    let sg27 = claim("SG-27");
    assert_eq!(sg27.kind, ClaimKind::WorkedExample);
    assert!(sg27.convention.contains("11 − 1 = 10"), "{}", sg27.convention);

    // 003 §3.5: the 3×3 mesh.
    let gos17 = claim("GOS-17");
    let text = format!("{} {}", gos17.statement, gos17.formula);
    assert!(text.contains("7 rounds") && text.contains("6 rounds"), "{text}");

    // 003 Theorem 1's missing "/2".
    let gos14 = claim("GOS-14");
    assert!(gos14.formula.contains("n²/2 + n − 1/2") && gos14.formula.contains("n²/2 + n − 1"));
    assert!(gos14.erratum.as_deref().is_some_and(|e| e.contains("n² + n − 1/2")));
    assert!(claim("GOS-24d").formula.contains("n²/2 + 3/2"));

    // 000 §5.2: the misprinted slot test and the counterexample to Theorem 5.3.
    let chat25 = claim("CHAT-25").erratum.as_deref().expect("CHAT-25 has an erratum");
    assert!(chat25.contains("col_j[s] > h") && chat25.contains("col_j[s] ≥ h"), "{chat25}");
    let chat26 = claim("CHAT-26");
    assert_eq!(chat26.formula, "S ≤ 2·C");
    assert!(chat26.erratum.as_deref().is_some_and(|e| e.contains("N = 3") && e.contains("slot 3")));
    assert_eq!(claim("CHAT-2").formula, "T(tau) ≥ max(C, Q)");

    // 002: Fig. 1's capacities and the non-progressing recurrence (3).
    assert!(claim("FT-25").formula.contains("1, 2, 3, 4, 5"));
    assert!(claim("FT-8").erratum.as_deref().is_some_and(|e| e.contains("max(w(N), 2)")));
    assert!(claim("FT-3").formula.contains("log N·(log N + 1)"));

    // Statements kept although not checkable.
    assert_eq!(claim("SG-26").kind, ClaimKind::NotCheckable);
    assert_eq!(claim("FT-4").kind, ClaimKind::NotCheckable);
}

// ----- every cited id exists ---------------------------------------------------------------

const PREFIXES: [&str; 5] = ["CHAT", "SG", "FT", "GOS", "TE"];

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of `text` matching `\b(CHAT|SG|FT|GOS|TE)-\d+[a-z]?\b`.
fn cited_ids(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (start, _) in text.char_indices() {
        if text[..start].chars().next_back().is_some_and(is_word) {
            continue;
        }
        let rest = &text[start..];
        let Some(prefix) =
            PREFIXES.iter().find(|p| rest.strip_prefix(**p).is_some_and(|r| r.starts_with('-')))
        else {
            continue;
        };
        let after = &rest[prefix.len() + 1..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            continue;
        }
        let mut tail = after[digits..].chars();
        let end = match (tail.next(), tail.next()) {
            (None, _) => digits,
            (Some(c), _) if !is_word(c) => digits,
            (Some(c), next) if c.is_ascii_lowercase() && !next.is_some_and(is_word) => digits + 1,
            _ => continue,
        };
        out.push(format!("{prefix}-{}", &after[..end]));
    }
    out
}

/// Claim lists in a markdown table cell such as `CHAT-34, 1, 2, 3`: the first entry is a full id
/// and the bare numbers after it share its prefix.
fn cited_in_lists(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for cell in text.lines().filter(|l| l.trim_start().starts_with('|')).flat_map(|l| l.split('|')) {
        let mut entries = cell.split(',').map(str::trim);
        let Some((prefix, _, _)) = entries.next().and_then(split_id) else { continue };
        if !PREFIXES.contains(&prefix) {
            continue;
        }
        for entry in entries {
            let id = format!("{prefix}-{entry}");
            if split_id(&id).is_some() {
                out.push(id);
            }
        }
    }
    out
}

/// Every file under `dir` whose name ends in one of `extensions`, into `out`.
pub(crate) fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            walk(&path, extensions, out);
        } else if path.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)) {
            out.push(path);
        }
    }
}

#[test]
fn id_scanner_finds_exactly_the_claim_tokens() {
    let found = cited_ids("see TE-13, GOS-24a and FT-21e; not XTE-1, TE-1x2, SG-conv, GOS-24ab, CHAT-");
    assert_eq!(found, ["TE-13", "GOS-24a", "FT-21e"]);
    assert_eq!(cited_ids("(CHAT-34)…SG-8 … SG-14."), ["CHAT-34", "SG-8", "SG-14"]);
    assert_eq!(cited_in_lists("| `a.toml` | CHAT-34, 1, 2 | x, 3 |"), ["CHAT-1", "CHAT-2"]);
    assert_eq!(cited_in_lists("| GOS-17, 31, 3 rounds |"), ["GOS-31"]);
}

#[test]
fn every_claim_id_cited_in_the_crate_is_catalogued() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    walk(&root.join("docs"), &["md"], &mut files);
    walk(&root.join("src"), &["rs"], &mut files);
    walk(&root.join("tests"), &["rs"], &mut files);
    walk(&root.join("instances"), &["toml", "md"], &mut files);
    walk(&root.join("claims"), &["toml"], &mut files);
    files.sort();

    let mut missing: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut cited = 0;
    let mut note = |id: String, file: &Path| {
        cited += 1;
        if catalogue::find(&id).is_none() {
            let file = file.strip_prefix(root).unwrap_or(file).display().to_string();
            missing.entry(id).or_default().insert(file);
        }
    };
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let mut ids = cited_ids(&text);
        if file.extension().is_some_and(|x| x == "md") {
            ids.extend(cited_in_lists(&text));
        }
        for id in ids {
            note(id, file);
        }
        // Instance files: every `[paper] claims` entry must be a full catalogued id, as the
        // instance tests require (a bare number is reported as itself).
        if file.starts_with(root.join("instances"))
            && file.extension().is_some_and(|x| x == "toml")
            && !commsched::spec::io::is_machine_list(file)
        {
            let inst = load_instance(file).unwrap_or_else(|e| panic!("{e}"));
            for id in inst.paper.claims {
                note(id, file);
            }
        }
    }
    assert!(cited > 100, "only {cited} citations found: is the scan looking in the right places?");
    let report: Vec<String> = missing
        .iter()
        .map(|(id, files)| {
            format!("{id} (cited in {})", files.iter().cloned().collect::<Vec<_>>().join(", "))
        })
        .collect();
    assert!(report.is_empty(), "claim ids cited but not catalogued:\n{}", report.join("\n"));
}
