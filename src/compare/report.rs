//! Bound-gap reports: formatters over [`Assessment`]s (data first, formatters second, all writing
//! to `impl Write`): text, Markdown and JSON.

use super::assess::{Assessment, ExactAnswer};
use std::io::{self, Write};

/// An optional number as text, `-` when absent.
pub fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "-".into(), |x| x.to_string())
}

/// Writes reports as human-readable text.
pub fn write_text(reports: &[Assessment], out: &mut dyn Write) -> io::Result<()> {
    for r in reports {
        writeln!(out, "== {} ({}) ==", r.instance, r.source)?;
        writeln!(out, "{} on {}, {}", r.problem, r.network, r.model)?;
        for b in &r.lower_bounds {
            writeln!(out, "  lower bound {:<28} {:>6}  {}", b.name, b.value, b.claim.unwrap_or(""))?;
        }
        if let Some(p) = &r.paper_schedule {
            match p.length {
                Some(l) => writeln!(out, "  paper       {:<28} {:>6}  checked ({})", "schedule", l, p.file)?,
                None => writeln!(
                    out,
                    "  paper       {:<28} {:>6}  INADMISSIBLE ({}): {}",
                    "schedule",
                    "-",
                    p.file,
                    p.violations.first().map_or("", String::as_str)
                )?,
            }
        }
        for m in &r.algorithms {
            match m.length {
                Some(l) => writeln!(
                    out,
                    "  algorithm   {:<28} {:>6}  checked{}{}",
                    m.method,
                    l,
                    m.ratio.map_or(String::new(), |x| format!(", ratio {x:.3} to the lower bound")),
                    m.claim.as_ref().map_or(String::new(), |c| format!(
                        "; paper {} {} {}: {}",
                        c.claimed.claim, c.claimed.relation, c.claimed.value, c.verdict
                    ))
                )?,
                None => writeln!(
                    out,
                    "  algorithm   {:<28} {:>6}  {}",
                    m.method,
                    "-",
                    m.error.clone().unwrap_or_else(|| format!(
                        "INADMISSIBLE: {}",
                        m.violations.first().map_or("", String::as_str)
                    ))
                )?,
            }
        }
        if let Some(e) = &r.exact {
            let (value, text) = match &e.answer {
                ExactAnswer::Optimal { optimum, certificate } => {
                    (optimum.to_string(), format!("certified: {certificate}"))
                }
                ExactAnswer::Bounds { lower, upper, stop } => {
                    ("-".to_string(), format!("bounds [{lower}, {}] ({stop})", opt(*upper)))
                }
                ExactAnswer::NotApplicable { reason } => {
                    ("-".to_string(), format!("not applicable: {reason}"))
                }
                ExactAnswer::Error { reason } => ("-".to_string(), format!("error: {reason}")),
            };
            writeln!(out, "  exact       {:<28} {:>6}  {text}", e.backend.name(), value)?;
        }
        for c in &r.claims {
            writeln!(
                out,
                "  claim       {:<28} {:>6}  {} (observed {}; {})",
                c.claimed.claim,
                c.claimed.value,
                c.verdict,
                opt(c.observed),
                c.claimed.about
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Writes reports as one Markdown table (a bound-gap report).
pub fn write_markdown(reports: &[Assessment], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "| instance | problem | network | lower bound | best algorithm | exact | claims |")?;
    writeln!(out, "|---|---|---|---|---|---|---|")?;
    for r in reports {
        let best = r
            .algorithms
            .iter()
            .filter_map(|m| m.length.map(|l| (l, m.method)))
            .min()
            .map_or_else(|| "-".into(), |(l, m)| format!("{l} ({m})"));
        let exact = r.exact.as_ref().map_or_else(
            || "-".into(),
            |e| match &e.answer {
                ExactAnswer::Optimal { optimum, certificate } => format!("{optimum} ({certificate})"),
                ExactAnswer::Bounds { lower, upper, .. } => format!("[{lower}, {}]", opt(*upper)),
                ExactAnswer::NotApplicable { .. } | ExactAnswer::Error { .. } => "n/a".into(),
            },
        );
        let claims: Vec<String> = r
            .claims
            .iter()
            .chain(r.algorithms.iter().filter_map(|a| a.claim.as_ref()))
            .map(|c| format!("{} = {}: {}", c.claimed.claim, c.claimed.value, c.verdict))
            .collect();
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.instance,
            r.problem,
            r.network,
            opt(r.lower_bound.as_ref().map(|b| b.value)),
            best,
            exact,
            claims.join("; ")
        )?;
    }
    Ok(())
}
