//! Bound-gap reports: a [`Report`] (run metadata plus one [`Entry`] per instance file, in input
//! order) and its formatters, all writing to `impl Write`: text, Markdown, JSON and CSV. Every
//! format shows the same facts per instance: the strongest lower bound with its name and claim,
//! each algorithm's checked length and ratio, the paper's schedule, the exact answer, the gap,
//! the time spent and each claim verdict once; the Markdown and text forms end with the claims
//! held, violated and unsettled per paper.

use super::assess::{Assessment, ClaimCheck, ExactAnswer, StoredRun};
use super::scale::{self, ScaleTable};
use crate::claims::{ClaimVerdict, catalogue};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// A report formatter.
pub type Writer = fn(&Report, &mut dyn Write) -> io::Result<()>;

/// The files `report --out DIR` writes, with their formatters.
pub const FILES: [(&str, Writer); 4] = [
    ("report.txt", write_text),
    ("report.md", write_markdown),
    ("report.json", write_json),
    ("report.csv", write_csv),
];

/// An optional number as text, `-` when absent.
pub fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "-".into(), |x| x.to_string())
}

/// How a report was produced.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunInfo {
    /// The commsched version.
    pub version: String,
    /// The git commit of the working directory, or `unknown`.
    pub commit: String,
    /// The exact backend, or `null` when the exact layer was skipped.
    pub backend: Option<String>,
    /// The exact layer's timeout per instance, in seconds.
    pub timeout_seconds: f64,
    /// Logical cores of the machine.
    pub cores: usize,
    /// Operating system and architecture.
    pub os: String,
}

/// One instance file's row: its assessment, or why it could not be assessed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    /// The instance file.
    pub file: String,
    /// Why the file could not be assessed (bad input), else `null`.
    pub error: Option<String>,
    /// The assessment, its fields inline.
    #[serde(flatten)]
    pub assessment: Option<Assessment>,
}

/// Claim verdicts of one paper, counted over a report.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PaperTally {
    /// Claims that hold.
    pub holds: usize,
    /// Claims violated (each a counterexample, listed in `violated`).
    pub violated: usize,
    /// Claims nothing decisive settled.
    pub unsettled: usize,
}

/// A violated claim: where, what was claimed and what was observed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Counterexample {
    /// The instance.
    pub instance: String,
    /// The claim id.
    pub claim: String,
    /// What the claim is about.
    pub about: String,
    /// `RELATION VALUE`, e.g. `= 21`.
    pub claimed: String,
    /// What was observed.
    pub observed: Option<u64>,
}

/// A bound-gap report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// Run metadata.
    pub run: RunInfo,
    /// Claim verdicts per paper (`000` … `004`).
    pub summary: BTreeMap<String, PaperTally>,
    /// Every violated claim.
    pub violated: Vec<Counterexample>,
    /// Files that could not be assessed (instance files and machine lists).
    pub failed: usize,
    /// One entry per instance file, in input order.
    pub instances: Vec<Entry>,
    /// The machines at scale: one table per machine list ([`scale`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scale: Vec<ScaleTable>,
}

/// The paper (`004`) of a claim id (`TE-13`, `TE-23 (TE-13)`), or `?` when not catalogued.
fn paper_of(claim: &str) -> String {
    let id = claim.split_whitespace().next().unwrap_or(claim);
    catalogue::find(id).map_or_else(|| "?".into(), |c| c.paper.clone())
}

/// A claim's relation and value, `= 21`.
pub(super) fn claimed(c: &ClaimCheck) -> String {
    format!("{} {}", c.claimed.relation, c.claimed.value)
}

impl Report {
    /// Builds a report over entries, counting the claim verdicts per paper.
    pub fn new(run: RunInfo, instances: Vec<Entry>) -> Self {
        let mut summary: BTreeMap<String, PaperTally> = BTreeMap::new();
        let mut violated = Vec::new();
        for a in instances.iter().filter_map(|e| e.assessment.as_ref()) {
            for c in a.all_claims() {
                let t = summary.entry(paper_of(&c.claimed.claim)).or_default();
                match c.verdict {
                    ClaimVerdict::Holds => t.holds += 1,
                    ClaimVerdict::Unsettled => t.unsettled += 1,
                    ClaimVerdict::Violated => {
                        t.violated += 1;
                        violated.push(Counterexample {
                            instance: a.instance.clone(),
                            claim: c.claimed.claim.clone(),
                            about: c.claimed.about.clone(),
                            claimed: claimed(c),
                            observed: c.observed,
                        });
                    }
                }
            }
        }
        let failed = instances.iter().filter(|e| e.error.is_some()).count();
        Self { run, summary, violated, failed, instances, scale: Vec::new() }
    }

    /// The report with the machines at scale, a table that could not be assessed counted as
    /// failed.
    pub fn with_scale(mut self, scale: Vec<ScaleTable>) -> Self {
        self.failed += scale.iter().filter(|t| t.error.is_some()).count();
        self.scale.extend(scale);
        self
    }

    /// The assessed instances, in input order.
    pub fn assessments(&self) -> Vec<&Assessment> {
        self.instances.iter().filter_map(|e| e.assessment.as_ref()).collect()
    }

    /// Sets every time to zero (for reproducible output in tests).
    pub fn zero_times(&mut self) {
        for a in self.instances.iter_mut().filter_map(|e| e.assessment.as_mut()) {
            a.seconds = 0.0;
            if let Some(e) = &mut a.exact {
                e.seconds = 0.0;
            }
            if let Some(s) = &mut a.stored {
                s.seconds = 0.0;
            }
        }
    }
}

/// The facts of one row, as text cells shared by every format.
struct Cells {
    bound: String,
    algorithms: String,
    paper: String,
    exact: String,
    /// The exact answer and the certificate folder's verdict, for one-cell formats.
    exact_and_folder: String,
    gap: String,
    seconds: String,
    claims: String,
}

fn cells(a: &Assessment) -> Cells {
    let bound = a.lower_bound.as_ref().map_or_else(
        || "-".into(),
        |b| match b.claim {
            Some(c) => format!("{} ({}, {c})", b.value, b.name),
            None => format!("{} ({})", b.value, b.name),
        },
    );
    let algorithms: Vec<String> = a
        .algorithms
        .iter()
        .map(|m| match (m.length, m.ratio) {
            (Some(l), Some(r)) => format!("{} {l} (×{r:.2})", m.method),
            (Some(l), None) => format!("{} {l}", m.method),
            (None, _) if m.error.is_some() => format!("{} failed", m.method),
            (None, _) => format!("{} INADMISSIBLE", m.method),
        })
        .collect();
    let paper = a.paper_schedule.as_ref().map_or_else(
        || "-".into(),
        |p| match p.length {
            Some(l) => l.to_string(),
            None => "INADMISSIBLE".into(),
        },
    );
    let exact = a.exact.as_ref().map_or_else(
        || "skipped".into(),
        |e| match &e.answer {
            ExactAnswer::Optimal { optimum, certificate } => format!("{optimum} ({certificate})"),
            ExactAnswer::Bounds { lower, upper, stop } => format!("[{lower}, {}] ({stop})", opt(*upper)),
            ExactAnswer::NotApplicable { .. } => "no encoder".into(),
            ExactAnswer::Error { reason } => format!("error: {reason}"),
        },
    );
    // Markdown and CSV keep one exact cell: the folder's verdict joins it.
    let exact_and_folder = match &a.stored {
        Some(s) => format!("{exact}; certificate folder {}", stored(s)),
        None => exact.clone(),
    };
    let gap = match a.gap() {
        Some(0) => "0 (settled)".into(),
        Some(g) => format!("{g} (open)"),
        None => "-".into(),
    };
    let claims: Vec<String> = a
        .all_claims()
        .iter()
        .map(|c| match (c.verdict, c.observed) {
            (ClaimVerdict::Violated, Some(o)) => {
                format!("{} {}: violated (observed {o})", c.claimed.claim, claimed(c))
            }
            (v, _) => format!("{} {}: {v}", c.claimed.claim, claimed(c)),
        })
        .collect();
    Cells {
        bound,
        algorithms: if algorithms.is_empty() { "-".into() } else { algorithms.join(", ") },
        paper,
        exact,
        exact_and_folder,
        gap,
        seconds: format!("{:.2}", a.seconds),
        claims: if claims.is_empty() { "-".into() } else { claims.join("; ") },
    }
}

/// A certificate folder's verdict: `LENGTH (CERTIFICATE)`, or why it is refused.
fn stored(s: &StoredRun) -> String {
    match (&s.certificate, s.failures.first()) {
        (Some(c), _) => format!("{} ({c})", opt(s.length)),
        (None, first) => format!(
            "INVALID, ignored: {}{}",
            first.map_or("", String::as_str),
            if s.failures.len() > 1 {
                format!(" (and {} more)", s.failures.len() - 1)
            } else {
                String::new()
            }
        ),
    }
}

fn write_run(run: &RunInfo, prefix: &str, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{prefix}commsched {} (commit {}); exact backend {}, timeout {} s; {} cores, {}",
        run.version,
        run.commit,
        run.backend.as_deref().unwrap_or("skipped"),
        run.timeout_seconds,
        run.cores,
        run.os
    )
}

fn write_summary(r: &Report, bullet: &str, out: &mut dyn Write) -> io::Result<()> {
    for (paper, t) in &r.summary {
        writeln!(
            out,
            "{bullet}paper {paper}: {} held, {} violated, {} unsettled",
            t.holds, t.violated, t.unsettled
        )?;
    }
    for v in &r.violated {
        writeln!(
            out,
            "{bullet}violated: {} on {}: claimed {}, observed {} ({})",
            v.claim,
            v.instance,
            v.claimed,
            opt(v.observed),
            v.about
        )?;
    }
    if r.failed > 0 {
        writeln!(out, "{bullet}{} instance file(s) could not be assessed", r.failed)?;
    }
    Ok(())
}

/// Writes a report as human-readable text: every bound, run and claim of every instance.
pub fn write_text(r: &Report, out: &mut dyn Write) -> io::Result<()> {
    write_run(&r.run, "", out)?;
    writeln!(out)?;
    for e in &r.instances {
        let Some(a) = &e.assessment else {
            writeln!(out, "== {} ==\n  ERROR: {}\n", e.file, e.error.as_deref().unwrap_or(""))?;
            continue;
        };
        let c = cells(a);
        // The name column fits the longest name of the instance (at least 28 wide).
        let width = (a.lower_bounds.iter().map(|b| b.name.len()))
            .chain(a.algorithms.iter().map(|m| m.method.len()))
            .chain(a.exact.iter().map(|x| x.backend.name().len()))
            .chain(a.all_claims().into_iter().map(|cl| cl.claimed.claim.len()))
            .fold(28, usize::max);
        writeln!(out, "== {} ({}) ==", a.instance, a.source)?;
        writeln!(out, "{} on {}, {}", a.problem, a.network, a.model)?;
        for b in &a.lower_bounds {
            writeln!(out, "  lower bound {:<width$} {:>6}  {}", b.name, b.value, b.claim.unwrap_or(""))?;
        }
        if let Some(p) = &a.paper_schedule {
            match p.length {
                Some(l) => {
                    writeln!(out, "  paper       {:<width$} {:>6}  checked ({})", "schedule", l, p.file)?
                }
                None => writeln!(
                    out,
                    "  paper       {:<width$} {:>6}  INADMISSIBLE ({}): {}",
                    "schedule",
                    "-",
                    p.file,
                    p.violations.first().map_or("", String::as_str)
                )?,
            }
        }
        for m in &a.algorithms {
            match m.length {
                Some(l) => writeln!(
                    out,
                    "  algorithm   {:<width$} {:>6}  checked{}",
                    m.method,
                    l,
                    m.ratio.map_or(String::new(), |x| format!(", ratio {x:.3} to the lower bound")),
                )?,
                None => writeln!(
                    out,
                    "  algorithm   {:<width$} {:>6}  {}",
                    m.method,
                    "-",
                    m.error.clone().unwrap_or_else(|| format!(
                        "INADMISSIBLE: {}",
                        m.violations.first().map_or("", String::as_str)
                    ))
                )?,
            }
        }
        if let Some(x) = &a.exact {
            writeln!(out, "  exact       {:<width$} {:>6}  {}", x.backend.name(), "", c.exact)?;
        }
        if let Some(s) = &a.stored {
            let verdict = match &s.certificate {
                Some(c) => format!("valid: {c}"),
                None => stored(s),
            };
            writeln!(
                out,
                "  certificate {:<width$} {:>6}  {verdict} ({})",
                "folder",
                opt(s.length),
                s.folder
            )?;
        }
        for cl in a.all_claims() {
            writeln!(
                out,
                "  claim       {:<width$} {:>6}  {} (observed {}; {})",
                cl.claimed.claim,
                claimed(cl),
                cl.verdict,
                opt(cl.observed),
                cl.claimed.about
            )?;
        }
        writeln!(out, "  gap {}; {} s", c.gap, c.seconds)?;
        writeln!(out)?;
    }
    scale::write_text(&r.scale, out)?;
    writeln!(out, "Summary")?;
    write_summary(r, "  ", out)
}

/// Writes a report as Markdown: the run, one table row per instance, then the claim summary.
pub fn write_markdown(r: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# Bound-gap report\n")?;
    write_run(&r.run, "", out)?;
    writeln!(out)?;
    writeln!(out, "| {} |", COLUMNS.join(" | "))?;
    writeln!(out, "|{}", "---|".repeat(COLUMNS.len()))?;
    for e in &r.instances {
        match &e.assessment {
            Some(a) => writeln!(out, "| {} |", row(a).join(" | "))?,
            None => writeln!(
                out,
                "| {} | ERROR: {} | | | | | | | | |",
                e.file,
                e.error.as_deref().unwrap_or("").replace('|', "\\|")
            )?,
        }
    }
    scale::write_markdown(&r.scale, out)?;
    writeln!(out, "\n## Claims\n")?;
    write_summary(r, "- ", out)
}

/// The columns of an instance's row in the Markdown and HTML tables ([`row`]).
pub(super) const COLUMNS: [&str; 10] = [
    "instance",
    "problem",
    "network",
    "lower bound",
    "algorithms (length, ratio)",
    "paper schedule",
    "exact",
    "gap",
    "seconds",
    "claims",
];

/// One instance's row of the Markdown table, the HTML table and the CSV: instance, problem,
/// network and its [`Cells`], in column order ([`COLUMNS`]).
pub(super) fn row(a: &Assessment) -> Vec<String> {
    let c = cells(a);
    vec![
        a.instance.clone(),
        a.problem.to_string(),
        a.network.clone(),
        c.bound,
        c.algorithms,
        c.paper,
        c.exact_and_folder,
        c.gap,
        c.seconds,
        c.claims,
    ]
}

/// Quotes a CSV field (RFC 4180).
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.into()
    }
}

/// Writes a report as CSV, one row per instance file, the same cells as the Markdown table
/// plus the file and its error.
pub fn write_csv(r: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "file,instance,problem,network,lower_bound,algorithms,paper_schedule,exact,gap,seconds,claims,error"
    )?;
    for e in &r.instances {
        let row: Vec<String> = match &e.assessment {
            Some(a) => {
                let mut cells = vec![e.file.clone()];
                cells.extend(row(a));
                cells.push(String::new());
                cells
            }
            None => {
                let mut row = vec![e.file.clone()];
                row.extend(std::iter::repeat_n(String::new(), 10));
                row.push(e.error.clone().unwrap_or_default());
                row
            }
        };
        let row: Vec<String> = row.iter().map(|f| csv(f)).collect();
        writeln!(out, "{}", row.join(","))?;
    }
    Ok(())
}

/// Writes a report as one JSON object (`run`, `summary`, `violated`, `failed`, `instances`).
pub fn write_json(r: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", serde_json::to_string_pretty(r).expect("a report serialises"))
}

/// The most cells a space-time diagram of `report --out` may have; a larger schedule is listed
/// in report.md without a picture (its SVG would be megabytes).
pub const MAX_DIAGRAM_CELLS: usize = 5_000;

/// The Markdown section report.md ends with when `report --out` wrote pictures: the per-problem
/// plots, then each instance's space-time diagram (`diagrams`: instance and file, or why there
/// is none).
pub fn write_pictures(
    plots: &[String],
    diagrams: &[(String, Result<String, String>)],
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "\n## Pictures\n")?;
    for p in plots {
        writeln!(out, "- [{p}]({p})")?;
    }
    writeln!(
        out,
        "\nDiagrams of each instance's best checked schedule: space-time, and the papers' dot-wire (gossip on a path or ring) and parallelograms (chatting on a ULA):\n"
    )?;
    for (instance, file) in diagrams {
        match file {
            Ok(f) => writeln!(out, "- {instance}: [{f}]({f})")?,
            Err(why) => writeln!(out, "- {instance}: no diagram ({why})")?,
        }
    }
    Ok(())
}
