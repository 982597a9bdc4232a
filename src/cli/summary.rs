//! The one answer `check`, `bounds` and `solve` print, as text or JSON.

use super::args::Format;
use super::io_err;
use commsched::bounds::Bound;
use commsched::checker::Metrics;
use commsched::compare::assess::Answer;
use commsched::compare::{Status, report};
use commsched::error::Result;
use serde::Serialize;
use std::io::Write;

/// The JSON object `check`, `bounds` and `solve` print under `--format json` (`report` prints
/// an array of assessments instead). Field names are a stable contract (docs/json.md).
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Instance name.
    pub instance: String,
    /// Method or command that produced the result.
    pub method: String,
    /// `optimal` (certified), `bounds`, `heuristic` (admissible, no optimality proof) or
    /// `inadmissible`.
    pub status: Status,
    /// Checked length of the schedule, if any.
    pub length: Option<u64>,
    /// Whether the schedule passed the checker.
    pub admissible: bool,
    /// The violations, as contract text (`check`: at most `--max-violations`).
    pub violations: Vec<String>,
    /// How many violations `violations` leaves out.
    pub violations_omitted: usize,
    /// The best lower bound.
    pub lower_bound: Option<u64>,
    /// Upper bound when only bounds are known.
    pub upper_bound: Option<u64>,
    /// Whether `length` is a certified optimum.
    pub certified: bool,
    /// The certificate: `infeasible-at-T-1 …` or `lower-bound NAME = V (CLAIM)`.
    pub certificate: Option<String>,
    /// Why an exact solve stopped without an optimum.
    pub stop: Option<String>,
    /// Every lower bound.
    pub bounds: Vec<Bound>,
    /// Why no schedule exists at all (`bounds`: a round budget a cheap count refutes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_schedule: Option<String>,
    /// The collective model's rounds R of the schedule (docs/spec.md §4.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u64>,
    /// Its bandwidth cost R/C in lowest terms (`7/6`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds_per_chunk: Option<String>,
}

impl Summary {
    pub(super) fn new(instance: &str, method: &str, answer: &Answer, bounds: Vec<Bound>) -> Self {
        Self {
            instance: instance.into(),
            method: method.into(),
            status: answer.status,
            length: answer.length,
            admissible: answer.length.is_some() || answer.upper_bound.is_some(),
            violations: answer.violations.clone(),
            violations_omitted: 0,
            lower_bound: answer.lower_bound,
            upper_bound: answer.upper_bound,
            certified: answer.certificate.is_some(),
            certificate: answer.certificate.as_ref().map(ToString::to_string),
            stop: answer.stop.as_ref().map(ToString::to_string),
            bounds,
            no_schedule: None,
            rounds: None,
            rounds_per_chunk: None,
        }
    }

    /// With the rounds and R/C the checker measured of a collective schedule.
    pub(super) fn measured(mut self, metrics: &Metrics) -> Self {
        self.rounds = metrics.rounds();
        self.rounds_per_chunk = metrics.value("bandwidth cost R/C").map(str::to_string);
        self
    }

    /// The answer of `bounds`: every lower bound and the strongest, no schedule.
    pub(super) fn of_bounds(instance: &str, bounds: Vec<Bound>) -> Self {
        Self {
            instance: instance.into(),
            method: "bounds".into(),
            status: Status::Bounds,
            length: None,
            admissible: false,
            violations: Vec::new(),
            violations_omitted: 0,
            lower_bound: commsched::bounds::strongest(&bounds).map(|b| b.value),
            upper_bound: None,
            certified: false,
            certificate: None,
            stop: None,
            bounds,
            no_schedule: None,
            rounds: None,
            rounds_per_chunk: None,
        }
    }
}

pub(super) fn print_summary(s: &Summary, format: Format, out: &mut dyn Write) -> Result<()> {
    let text = match format {
        Format::Json => serde_json::to_string_pretty(s).expect("summary serialises") + "\n",
        Format::Text | Format::Markdown | Format::Csv => {
            // `bounds` names its answer once: `NAME: bounds [2, -]`.
            let mut t = match (s.status, s.method.as_str()) {
                (Status::Bounds, "bounds") => format!("{}: ", s.instance),
                _ => format!("{}: {} ", s.instance, s.method),
            };
            match s.status {
                Status::Inadmissible => {
                    let n = s.violations.len() + s.violations_omitted;
                    t += &format!("inadmissible, {n} violation{}\n", if n == 1 { "" } else { "s" });
                }
                Status::Bounds if s.length.is_none() => {
                    t += &format!("bounds [{}, {}]", report::opt(s.lower_bound), report::opt(s.upper_bound));
                    if let Some(stop) = &s.stop {
                        t += &format!(" ({stop})");
                    }
                    t += "\n";
                }
                status => {
                    t += &format!("{status}, length {}", report::opt(s.length));
                    if let (Some(r), Some(ratio)) = (s.rounds, &s.rounds_per_chunk) {
                        t += &format!(", R = {r}, R/C = {ratio}");
                    }
                    if let Some(c) = &s.certificate {
                        t += &format!(", certified optimal: {c}");
                    } else if let Some(lb) = s.lower_bound {
                        t += &format!(", lower bound {lb}");
                    }
                    if let Some(stop) = &s.stop {
                        t += &format!(" ({stop})");
                    }
                    t += "\n";
                }
            }
            if let Some(reason) = &s.no_schedule {
                t += &format!("  no schedule exists: {reason}\n");
            }
            for v in &s.violations {
                t += &format!("  {v}\n");
            }
            if s.violations_omitted > 0 {
                t += &format!("  ... and {} more (raise --max-violations)\n", s.violations_omitted);
            }
            for b in &s.bounds {
                t += &format!("  lower bound {:<28} {:>6}  {}\n", b.name, b.value, b.claim.unwrap_or(""));
            }
            t
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))
}
