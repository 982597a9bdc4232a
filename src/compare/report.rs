//! Bound-gap reports: for each instance, the lower bounds, every applicable algorithm's checked
//! length, the exact optimum with its certificate (where small enough) and the papers' claims.

use super::claims::{self, ClaimValue};
use crate::bounds::{self, Bound};
use crate::checker;
use crate::exact::{self, BackendKind, Outcome, SolveOptions};
use crate::heuristics;
use crate::spec::{Instance, Schedule};
use serde::Serialize;
use std::io::{self, Write};

/// One algorithm's result on one instance.
#[derive(Debug, Clone, Serialize)]
pub struct MethodResult {
    /// The algorithm.
    pub method: String,
    /// The checked length, when the schedule is admissible.
    pub length: Option<u64>,
    /// `admissible`, or the reason it has no length (inadmissible output, error).
    pub status: String,
    /// length / best lower bound.
    pub ratio: Option<f64>,
    /// What the paper claims for this algorithm here, and whether the checked length meets it.
    pub claim: Option<ClaimCheck>,
}

/// The exact layer's answer on one instance.
#[derive(Debug, Clone, Serialize)]
pub struct ExactResult {
    /// Backend used.
    pub backend: String,
    /// `optimal`, `bounds` or `error`.
    pub status: String,
    /// The certified optimum.
    pub optimum: Option<u64>,
    /// The certificate, for an optimum.
    pub certificate: Option<String>,
    /// Lower and upper bounds, when not settled.
    pub lower: Option<u64>,
    /// Upper bound (checked witness length), when not settled.
    pub upper: Option<u64>,
    /// Why it stopped, or the error.
    pub detail: Option<String>,
}

/// A paper claim set against what the tool measured.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimCheck {
    /// The claimed value.
    #[serde(flatten)]
    pub claimed: ClaimValue,
    /// What the tool found: the certified optimum, or the best checked length.
    pub observed: Option<u64>,
    /// `holds`, `violated` or `unsettled`.
    pub verdict: String,
}

/// The paper's own schedule for an instance (a figure's trace, transcribed), checked.
#[derive(Debug, Clone, Serialize)]
pub struct PaperSchedule {
    /// The schedule file.
    pub file: String,
    /// The checked length, when admissible.
    pub length: Option<u64>,
    /// Every violation, when not.
    pub violations: Vec<String>,
}

/// Everything the comparator says about one instance.
#[derive(Debug, Clone, Serialize)]
pub struct InstanceReport {
    /// Instance name.
    pub instance: String,
    /// Where it comes from.
    pub source: String,
    /// Problem.
    pub problem: String,
    /// Network string.
    pub network: String,
    /// Model description.
    pub model: String,
    /// Every lower bound.
    pub lower_bounds: Vec<Bound>,
    /// The best lower bound.
    pub lower_bound: Option<u64>,
    /// The paper's own schedule, checked, when one is transcribed.
    pub paper_schedule: Option<PaperSchedule>,
    /// Every applicable algorithm.
    pub methods: Vec<MethodResult>,
    /// The exact layer, if run.
    pub exact: Option<ExactResult>,
    /// The papers' claims.
    pub claims: Vec<ClaimCheck>,
}

/// Options of a report run.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Exact backend, or `None` to skip the exact layer.
    pub backend: Option<BackendKind>,
    /// Options for each exact solve.
    pub solve: SolveOptions,
}

/// Builds the report of one instance, with the paper's own schedule `(file, schedule)` when one
/// is transcribed. Every length in it comes from the checker.
pub fn report(
    instance: &Instance,
    paper: Option<(&str, &Schedule)>,
    options: &ReportOptions,
) -> InstanceReport {
    let paper_schedule = paper.map(|(file, schedule)| {
        let verdict = checker::check(instance, schedule);
        PaperSchedule {
            file: file.to_string(),
            length: verdict.admissible().map(|c| c.length()),
            violations: verdict.violations().iter().map(|v| v.to_string()).collect(),
        }
    });
    let lower_bounds = bounds::lower_bounds(instance);
    let lower_bound = lower_bounds.iter().map(|b| b.value).max();
    let methods = heuristics::for_instance(instance)
        .into_iter()
        .map(|m| {
            let (length, status) =
                match (m.run)(instance).and_then(|s| checker::check_produced(instance, &s, m.name)) {
                    Ok(c) => (Some(c.length()), "admissible".to_string()),
                    Err(e) => (None, e.to_string()),
                };
            let claim = claims::claimed_for_method(m.name, instance).map(|claimed| ClaimCheck {
                verdict: match length {
                    Some(l) if claims::holds(&claimed, l) => "holds",
                    Some(_) => "violated",
                    None => "unsettled",
                }
                .into(),
                observed: length,
                claimed,
            });
            MethodResult {
                method: m.name.to_string(),
                length,
                status,
                ratio: length.zip(lower_bound).filter(|&(_, lb)| lb > 0).map(|(l, lb)| l as f64 / lb as f64),
                claim,
            }
        })
        .collect::<Vec<_>>();
    let exact = options.backend.map(|backend| exact_result(instance, backend, &options.solve));
    let best_heuristic = methods.iter().filter_map(|m| m.length).min();
    let optimum = exact.as_ref().and_then(|e| e.optimum);
    let figure = paper_schedule.as_ref().map(|p| p.length);
    let claims = claims::claimed_values(instance)
        .into_iter()
        .map(|claimed| {
            // The number a paper states for its own figure is settled by checking the figure.
            let figure = figure.filter(|_| claimed.about == claims::STATED);
            let (observed, verdict) = match (figure, optimum) {
                (Some(Some(len)), _) => {
                    (Some(len), if claims::holds(&claimed, len) { "holds" } else { "violated" })
                }
                (Some(None), _) => (None, "violated"),
                (None, Some(opt)) => {
                    (Some(opt), if claims::holds(&claimed, opt) { "holds" } else { "violated" })
                }
                // Without a certified optimum a claim is only refuted by a shorter checked
                // schedule or by a lower bound above it.
                (None, None) => match (best_heuristic, lower_bound) {
                    (Some(h), _) if h < claimed.value => (Some(h), "violated"),
                    (_, Some(lb)) if lb > claimed.value => (Some(lb), "violated"),
                    (Some(h), Some(lb)) if h == claimed.value && lb == claimed.value => (Some(h), "holds"),
                    (h, _) => (h, "unsettled"),
                },
            };
            ClaimCheck { claimed, observed, verdict: verdict.into() }
        })
        .collect();
    InstanceReport {
        instance: instance.name.clone(),
        source: instance.source.clone(),
        problem: instance.problem.name().into(),
        network: instance.network.spec_string(),
        model: instance.model.to_string(),
        lower_bounds,
        lower_bound,
        paper_schedule,
        methods,
        exact,
        claims,
    }
}

fn exact_result(instance: &Instance, backend: BackendKind, options: &SolveOptions) -> ExactResult {
    let mut r = ExactResult {
        backend: backend.to_string(),
        status: "error".into(),
        optimum: None,
        certificate: None,
        lower: None,
        upper: None,
        detail: None,
    };
    match exact::solve(instance, backend, options) {
        Ok(Outcome::Optimal { checked, certificate, .. }) => {
            r.status = "optimal".into();
            r.optimum = Some(checked.length());
            r.certificate = Some(certificate.to_string());
        }
        Ok(Outcome::Bounds { lower, upper, stop }) => {
            r.status = "bounds".into();
            r.lower = Some(lower);
            r.upper = upper.map(|(_, c)| c.length());
            r.detail = Some(stop.to_string());
        }
        Err(e) => r.detail = Some(e.to_string()),
    }
    r
}

/// An optional number as text, `-` when absent.
pub(crate) fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "-".into(), |x| x.to_string())
}

/// Writes reports as human-readable text.
pub fn write_text(reports: &[InstanceReport], out: &mut dyn Write) -> io::Result<()> {
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
        for m in &r.methods {
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
                None => writeln!(out, "  algorithm   {:<28} {:>6}  {}", m.method, "-", m.status)?,
            }
        }
        if let Some(e) = &r.exact {
            match e.status.as_str() {
                "optimal" => writeln!(
                    out,
                    "  exact       {:<28} {:>6}  certified: {}",
                    e.backend,
                    opt(e.optimum),
                    e.certificate.as_deref().unwrap_or("")
                )?,
                "bounds" => writeln!(
                    out,
                    "  exact       {:<28} {:>6}  bounds [{}, {}] ({})",
                    e.backend,
                    "-",
                    opt(e.lower),
                    opt(e.upper),
                    e.detail.as_deref().unwrap_or("")
                )?,
                _ => writeln!(
                    out,
                    "  exact       {:<28} {:>6}  {}",
                    e.backend,
                    "-",
                    e.detail.as_deref().unwrap_or("")
                )?,
            }
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
pub fn write_markdown(reports: &[InstanceReport], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "| instance | problem | network | lower bound | best algorithm | exact | claims |")?;
    writeln!(out, "|---|---|---|---|---|---|---|")?;
    for r in reports {
        let best = r
            .methods
            .iter()
            .filter_map(|m| m.length.map(|l| (l, &m.method)))
            .min()
            .map_or_else(|| "-".into(), |(l, m)| format!("{l} ({m})"));
        let exact = r.exact.as_ref().map_or_else(
            || "-".into(),
            |e| match e.status.as_str() {
                "optimal" => format!("{} ({})", opt(e.optimum), e.certificate.as_deref().unwrap_or("")),
                "bounds" => format!("[{}, {}]", opt(e.lower), opt(e.upper)),
                _ => "n/a".into(),
            },
        );
        let claims: Vec<String> = r
            .claims
            .iter()
            .map(|c| format!("{} = {}: {}", c.claimed.claim, c.claimed.value, c.verdict))
            .collect();
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.instance,
            r.problem,
            r.network,
            opt(r.lower_bound),
            best,
            exact,
            claims.join("; ")
        )?;
    }
    Ok(())
}
