//! `report.html`: the bound-gap report as one self-contained page beside report.md, no script
//! and no file it needs besides itself. In reading order: the run; the claims per paper with
//! each violated one; per problem its plots inline as SVG ([`super::plots`]); the machines at
//! scale with their table and plot; the table of instances (the cells of report.md); every
//! claim verdict of every instance; and relative links to each instance's diagrams
//! (`diagrams/…`).

use super::plots::Plot;
use super::report::{COLUMNS, Report, claimed, opt, row};
use crate::bandwidth::compare;
use crate::claims::ClaimVerdict;
use crate::svg::escape;
use std::io::{self, Write};

/// The page's style sheet: readable tables, plots that scroll sideways when wider than the page.
const STYLE: &str = "body{font-family:sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222}\
table{border-collapse:collapse;font-size:13px;margin:0.5em 0 1.5em}\
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}\
th{background:#f2f2f2}figure{margin:1em 0;overflow-x:auto}figcaption{font-size:14px;margin-bottom:4px}\
.holds{color:#00603f}.violated{color:#b00020;font-weight:bold}.unsettled{color:#7a5a00}\
nav a{margin-right:1em}";

/// One cell of a table row, escaped.
fn cells(tag: &str, cells: &[String]) -> String {
    let inner: Vec<String> = cells.iter().map(|c| format!("<{tag}>{}</{tag}>", escape(c))).collect();
    format!("<tr>{}</tr>", inner.concat())
}

/// A plot inline, with its caption and a link to its file.
fn figure(p: &Plot, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "<figure id=\"{f}\"><figcaption>{} (<a href=\"{f}\">{f}</a>)</figcaption>\n{}</figure>",
        escape(&p.caption),
        p.svg,
        f = escape(&p.file)
    )
}

/// Writes the page: `plots` as [`super::plots::plots`] made them (each problem's gap plot named
/// `gap-PROBLEM.svg`, scale plots `scale-…`), `diagrams` as report.md lists them (instance and
/// file, or why there is none).
pub fn write_html(
    r: &Report,
    plots: &[Plot],
    diagrams: &[(String, Result<String, String>)],
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Bound-gap report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>Bound-gap report</h1>"
    )?;
    let run = &r.run;
    writeln!(
        out,
        "<p>commsched {} (commit {}); exact backend {}, timeout {} s; {} cores, {}</p>",
        escape(&run.version),
        escape(&run.commit),
        escape(run.backend.as_deref().unwrap_or("skipped")),
        run.timeout_seconds,
        run.cores,
        escape(&run.os)
    )?;
    let assessments = r.assessments();
    let mut problems: Vec<String> = assessments.iter().map(|a| a.problem.to_string()).collect();
    problems.sort();
    problems.dedup();
    let nav: Vec<String> = std::iter::once("claims".to_string())
        .chain(problems.iter().cloned())
        .chain(if r.scale.is_empty() { None } else { Some("scale".to_string()) })
        .chain(["instances", "verdicts", "diagrams"].map(String::from))
        .map(|s| format!("<a href=\"#{0}\">{0}</a>", escape(&s)))
        .collect();
    writeln!(out, "<nav>{}</nav>", nav.concat())?;

    writeln!(out, "<h2 id=\"claims\">Claims</h2>\n<ul>")?;
    for (paper, t) in &r.summary {
        writeln!(
            out,
            "<li>paper {}: {} held, {} violated, {} unsettled</li>",
            escape(paper),
            t.holds,
            t.violated,
            t.unsettled
        )?;
    }
    if r.failed > 0 {
        writeln!(out, "<li class=\"violated\">{} file(s) could not be assessed</li>", r.failed)?;
    }
    for v in &r.violated {
        writeln!(
            out,
            "<li class=\"violated\">violated: {} on {}: claimed {}, observed {} ({})</li>",
            escape(&v.claim),
            escape(&v.instance),
            escape(&v.claimed),
            opt(v.observed),
            escape(&v.about)
        )?;
    }
    writeln!(out, "</ul>\n<p>Every verdict of every instance: <a href=\"#verdicts\">below</a>.</p>")?;
    for problem in &problems {
        writeln!(out, "<h2 id=\"{0}\">{0}</h2>", escape(problem))?;
        let mine = |p: &&Plot| {
            p.file == format!("gap-{problem}.svg") || p.file.starts_with(&format!("plot-{problem}-"))
        };
        for p in plots.iter().filter(mine) {
            figure(p, out)?;
        }
    }

    if !r.scale.is_empty() {
        writeln!(out, "<h2 id=\"scale\">Machines at scale</h2>")?;
        writeln!(
            out,
            "<p>algbw in GB/s: the optimum certified by a packing and a tight cut (<code>bound</code>: only the cut's, at the timeout); each NCCL-style algorithm's packing checked, with its share of the optimum.</p>"
        )?;
        for (t, p) in r.scale.iter().zip(plots.iter().filter(|p| p.file.starts_with("scale-"))) {
            writeln!(out, "<h3>{} ({})</h3>", escape(&t.collective), escape(&t.file))?;
            if let Some(e) = &t.error {
                writeln!(out, "<p class=\"violated\">ERROR: {}</p>", escape(e))?;
                continue;
            }
            writeln!(out, "<table>\n{}", cells("th", &compare::header()))?;
            for row in &t.machines {
                writeln!(out, "{}", cells("td", &compare::cells(row)))?;
            }
            writeln!(out, "</table>")?;
            for note in t.machines.iter().flat_map(compare::notes) {
                writeln!(out, "<p>{}</p>", escape(&note))?;
            }
            figure(p, out)?;
        }
    }

    writeln!(out, "<h2 id=\"instances\">Instances</h2>\n<table>")?;
    writeln!(out, "{}", cells("th", &COLUMNS.map(String::from)))?;
    for e in &r.instances {
        match &e.assessment {
            Some(a) => writeln!(out, "{}", cells("td", &row(a)))?,
            None => writeln!(
                out,
                "<tr><td>{}</td><td class=\"violated\" colspan=\"9\">ERROR: {}</td></tr>",
                escape(&e.file),
                escape(e.error.as_deref().unwrap_or(""))
            )?,
        }
    }
    writeln!(out, "</table>")?;

    writeln!(out, "<h2 id=\"verdicts\">Every claim verdict</h2>\n<table>")?;
    let header = ["instance", "claim", "claimed", "verdict", "observed", "about"].map(String::from);
    writeln!(out, "{}", cells("th", &header))?;
    for a in &assessments {
        for c in a.all_claims() {
            let class = match c.verdict {
                ClaimVerdict::Holds => "holds",
                ClaimVerdict::Violated => "violated",
                ClaimVerdict::Unsettled => "unsettled",
            };
            writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{class}\">{}</td><td>{}</td><td>{}</td></tr>",
                escape(&a.instance),
                escape(&c.claimed.claim),
                escape(&claimed(c)),
                c.verdict,
                opt(c.observed),
                escape(&c.claimed.about)
            )?;
        }
    }
    writeln!(out, "</table>")?;

    writeln!(
        out,
        "<h2 id=\"diagrams\">Diagrams</h2>\n<p>Each instance's best checked schedule: space-time, and the papers' dot-wire (gossip on a path or ring) and parallelograms (chatting on a ULA).</p>\n<ul>"
    )?;
    for (instance, file) in diagrams {
        match file {
            Ok(f) => writeln!(out, "<li>{}: <a href=\"{f}\">{f}</a></li>", escape(instance), f = escape(f))?,
            Err(why) => writeln!(out, "<li>{}: no diagram ({})</li>", escape(instance), escape(why))?,
        }
    }
    writeln!(out, "</ul>\n</body>\n</html>")
}
