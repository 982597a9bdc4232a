//! The claim catalogue: every checkable claim of the five papers and of SCCL, as data shipped with the
//! crate (`claims/000-chatting.toml` … `claims/004-total-exchange.toml`).
//!
//! Each claim has a stable id whose prefix names its paper: `CHAT` (paper 000, chatting), `SG`
//! (001, scatter and gather), `FT` (002, fat-tree), `GOS` (003, gossip) and `TE` (004, total
//! exchange). Worked examples (figures, tables) are numbered in the same sequence, and a
//! table's rows carry a letter (`GOS-24a`). Each entry says where the claim is in its paper,
//! what kind of claim it is, the claim in the project's words, its checkable formula, how the
//! paper's numbers convert to commsched steps, and, where the paper is wrong or misprinted, the
//! corrected reading. Reports, bounds and instance files cite claims by these ids.
//!
//! The files are embedded with `include_str!` and parsed once; a unit test parses them all, so
//! a malformed shipped file fails the build's tests, never a user's run.
//!
//! ```
//! use commsched::claims::catalogue::{self, ClaimKind};
//!
//! let te13 = catalogue::find("TE-13").expect("TE-13 is catalogued");
//! assert_eq!(te13.paper, "004");
//! assert_eq!(te13.kind, ClaimKind::UpperBound);
//! assert!(te13.formula.contains("⌈(n²−1)/4⌉"));
//! assert!(catalogue::all().iter().any(|c| c.id == "GOS-24a"));
//! ```

use serde::Deserialize;
use std::sync::OnceLock;

/// What a claim asserts, and so how a tool checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// Every schedule (of some class) takes at least this long.
    LowerBound,
    /// An algorithm's schedule takes at most this long.
    UpperBound,
    /// An exact value, formula or optimum.
    ExactValue,
    /// A property every schedule or every step of an algorithm keeps.
    Invariant,
    /// A transformation or equivalence between kinds of schedules or problems.
    Transformation,
    /// A running-time or hardness statement.
    Complexity,
    /// A figure, table or example with concrete numbers.
    WorkedExample,
    /// A statement that cannot be checked on an instance (kept so nothing is silently dropped).
    NotCheckable,
}

impl ClaimKind {
    /// The kebab-case name used in the catalogue files.
    pub fn name(self) -> &'static str {
        match self {
            ClaimKind::LowerBound => "lower-bound",
            ClaimKind::UpperBound => "upper-bound",
            ClaimKind::ExactValue => "exact-value",
            ClaimKind::Invariant => "invariant",
            ClaimKind::Transformation => "transformation",
            ClaimKind::Complexity => "complexity",
            ClaimKind::WorkedExample => "worked-example",
            ClaimKind::NotCheckable => "not-checkable",
        }
    }
}

impl std::fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One claim of one paper.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Stable id, e.g. `GOS-24a`; the prefix names the paper.
    pub id: String,
    /// The paper, `"000"` … `"004"`, or `"sccl"` (the collective model's source).
    pub paper: String,
    /// Where the claim is in the paper, e.g. `§3.4B, Theorem 3.2`.
    pub section: String,
    /// What kind of claim it is.
    pub kind: ClaimKind,
    /// A short title.
    pub title: String,
    /// The claim with its conditions.
    pub statement: String,
    /// The checkable formula in plain text; empty when there is none.
    pub formula: String,
    /// How the paper's numbers convert to commsched steps.
    pub convention: String,
    /// What the paper gets wrong or misprints here, and the corrected reading.
    #[serde(default)]
    pub erratum: Option<String>,
    /// Expectations checked while cataloguing (e.g. "holds for n = 2..39").
    #[serde(default)]
    pub expected: Option<String>,
}

/// The catalogue files shipped with the crate: (path relative to the crate root, contents).
pub const FILES: [(&str, &str); 6] = [
    ("claims/000-chatting.toml", include_str!("../../claims/000-chatting.toml")),
    ("claims/001-scatter-gather.toml", include_str!("../../claims/001-scatter-gather.toml")),
    ("claims/002-fat-tree.toml", include_str!("../../claims/002-fat-tree.toml")),
    ("claims/003-gossip.toml", include_str!("../../claims/003-gossip.toml")),
    ("claims/004-total-exchange.toml", include_str!("../../claims/004-total-exchange.toml")),
    ("claims/sccl-collectives.toml", include_str!("../../claims/sccl-collectives.toml")),
];

/// The id prefixes of the papers, in paper order: `(paper, prefix)`.
pub const PREFIXES: [(&str, &str); 6] =
    [("000", "CHAT"), ("001", "SG"), ("002", "FT"), ("003", "GOS"), ("004", "TE"), ("sccl", "SCCL")];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    claim: Vec<Claim>,
}

/// Parses one catalogue file; the error names the file and says why.
pub fn parse(file: &str, text: &str) -> Result<Vec<Claim>, String> {
    toml::from_str::<CatalogueFile>(text).map(|f| f.claim).map_err(|e| format!("{file}: {e}"))
}

/// Every claim of the five papers and SCCL, in paper order and, within a paper, in catalogue order.
pub fn all() -> &'static [Claim] {
    static ALL: OnceLock<Vec<Claim>> = OnceLock::new();
    ALL.get_or_init(|| {
        FILES
            .iter()
            .flat_map(|(file, text)| {
                parse(file, text).unwrap_or_else(|e| panic!("shipped claim catalogue is malformed: {e}"))
            })
            .collect()
    })
}

/// The claim with this id (exact, case-sensitive), if catalogued.
pub fn find(id: &str) -> Option<&'static Claim> {
    all().iter().find(|c| c.id == id)
}

/// The id prefix of a paper (`"003"` → `"GOS"`).
pub fn prefix_of_paper(paper: &str) -> Option<&'static str> {
    PREFIXES.iter().find(|(p, _)| *p == paper).map(|(_, prefix)| *prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_file_parses_and_holds_only_its_papers_claims() {
        for (file, text) in FILES {
            let claims = parse(file, text).unwrap_or_else(|e| panic!("{e}"));
            assert!(!claims.is_empty(), "{file} holds no claim");
            let paper = file["claims/".len()..].split('-').next().unwrap_or_default();
            let prefix = prefix_of_paper(paper).expect("file named after a paper");
            for c in &claims {
                assert_eq!(c.paper, paper, "{file}: {} is filed under the wrong paper", c.id);
                assert!(c.id.starts_with(&format!("{prefix}-")), "{file}: {} lacks prefix {prefix}", c.id);
            }
        }
    }

    #[test]
    fn find_returns_the_claim_and_none_for_unknown_ids() {
        assert_eq!(find("GOS-24a").map(|c| c.paper.as_str()), Some("003"));
        assert!(find("gos-24a").is_none());
        assert!(find(&format!("TE-{}", 0)).is_none(), "ids start at 1");
        assert_eq!(all().len(), FILES.iter().map(|(f, t)| parse(f, t).unwrap().len()).sum::<usize>());
    }

    #[test]
    fn kind_names_match_serde() {
        for kind in [
            ClaimKind::LowerBound,
            ClaimKind::UpperBound,
            ClaimKind::ExactValue,
            ClaimKind::Invariant,
            ClaimKind::Transformation,
            ClaimKind::Complexity,
            ClaimKind::WorkedExample,
            ClaimKind::NotCheckable,
        ] {
            let parsed: ClaimKind = toml::from_str::<std::collections::BTreeMap<String, ClaimKind>>(
                &format!("k = \"{}\"", kind.name()),
            )
            .expect("kind parses")["k"];
            assert_eq!(parsed, kind);
        }
    }
}
