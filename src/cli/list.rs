//! `list`: every problem with its registered algorithms and exact encoders.

use super::args::Format;
use super::io_err;
use commsched::error::Result;
use commsched::exact::{BackendKind, encode};
use commsched::heuristics;
use commsched::spec::ProblemKind;
use serde::Serialize;
use std::io::Write;

/// One problem in `list --format json`: its algorithms and exact encoders.
#[derive(Debug, Serialize)]
struct ProblemMethods {
    problem: ProblemKind,
    algorithms: Vec<AlgorithmEntry>,
    exact: Vec<EncoderEntry>,
}

/// A registered algorithm in `list --format json`.
#[derive(Debug, Serialize)]
struct AlgorithmEntry {
    name: &'static str,
    summary: &'static str,
    source: &'static str,
}

/// An exact encoder in `list --format json`.
#[derive(Debug, Serialize)]
struct EncoderEntry {
    encoder: &'static str,
    applies: String,
    backends: Vec<&'static str>,
}

pub(super) fn list(format: Format, out: &mut dyn Write) -> Result<u8> {
    let available = BackendKind::available();
    let problems: Vec<ProblemMethods> = ProblemKind::ALL
        .into_iter()
        .map(|p| ProblemMethods {
            problem: p,
            algorithms: heuristics::all()
                .into_iter()
                .filter(|m| m.solves(p))
                .map(|m| AlgorithmEntry { name: m.name, summary: m.summary, source: m.source })
                .collect(),
            exact: encode::ENCODERS
                .iter()
                .filter(|e| e.applicability.problems.contains(&p))
                .map(|e| EncoderEntry {
                    encoder: e.name,
                    applies: e.applicability.describe(),
                    backends: e.backends.iter().filter(|b| available.contains(b)).map(|b| b.name()).collect(),
                })
                .collect(),
        })
        .collect();
    let text = if format == Format::Json {
        serde_json::to_string_pretty(&problems).expect("the list serialises") + "\n"
    } else {
        let exact = "exact | ilp | smt | sat";
        let width = problems
            .iter()
            .flat_map(|p| &p.algorithms)
            .map(|a| a.name.len())
            .chain([exact.len()])
            .max()
            .unwrap_or(0);
        let mut text = String::new();
        for p in &problems {
            text += &format!("{}:\n", p.problem);
            for m in &p.algorithms {
                text += &format!("  {:<width$} {}  [{}]\n", m.name, m.summary, m.source);
            }
            for e in &p.exact {
                text += &format!(
                    "  {exact:<width$} exact optimum with certificate, encoder `{}` ({}); backends in the order `exact` prefers: {}\n",
                    e.encoder,
                    e.applies,
                    e.backends.join(", ")
                );
            }
            if p.algorithms.is_empty() && p.exact.is_empty() {
                text += "  no algorithms yet (checker and lower bounds only)\n";
            }
        }
        text
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}
