//! `solve INSTANCE --method M`: one algorithm, or the exact layer with the algorithms as
//! incumbents; the answer, the schedule (`--out`) and the certificate folder (`--certificate`).

use super::args::{Format, Limits};
use super::summary::{Summary, print_summary};
use super::{assess_options, in_file, io_err};
use commsched::certify::Certificate;
use commsched::checker::Producer;
use commsched::compare::assess::ExactAnswer;
use commsched::compare::{Assessment, Attached, Status, assess};
use commsched::error::{InputError, Result};
use commsched::folder;
use commsched::msccl::{self, XmlOptions, load_schedule};
use commsched::spec::io::{is_xml, schedule_to_json};
use commsched::spec::{Instance, Schedule};
use std::io::Write;
use std::path::Path;

/// The files of `solve`: where the schedule and the certificate folder go, and a schedule to
/// start the exact search from.
pub(super) struct SolveFiles<'a> {
    pub out: Option<&'a Path>,
    /// What an MSCCL XML `out` asks of the runtime.
    pub xml: XmlOptions,
    pub certificate: Option<&'a Path>,
    pub incumbent: Option<&'a Path>,
}

pub(super) fn solve(
    inst: &Instance,
    instance: &Path,
    method: &str,
    limits: &Limits,
    files: SolveFiles<'_>,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let SolveFiles { out: file, xml, certificate: certificate_dir, incumbent } = files;
    let mut options = assess_options(method, limits)?;
    if incumbent.is_some() && options.exact.is_none() {
        return Err(InputError::new(
            "<flags>",
            "--incumbent",
            format!(
                "starts an exact search, and `{method}` is an algorithm: use --method exact, ilp, smt or sat"
            ),
        )
        .into());
    }
    let incumbent_file = incumbent.map(|path| path.display().to_string());
    let incumbent = match incumbent {
        Some(path) => Some(load_schedule(path, inst)?),
        None => None,
    };
    if let Some(dir) = certificate_dir {
        std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
        options.solve.proof_dir = Some(dir.to_path_buf());
    }
    let start = std::time::Instant::now();
    let attached = Attached { incumbent: incumbent_file.as_deref().zip(incumbent), ..Attached::default() };
    let a = assess(inst, attached, &options).map_err(in_file(instance))?;
    let seconds = start.elapsed().as_secs_f64();
    let label = match &a.exact {
        Some(e) => match (&e.answer, incumbent_name(&a)) {
            // The search returns the incumbent without a probe when it meets the bound: the
            // witness is the algorithm's, the backend never ran.
            (ExactAnswer::Optimal { certificate: Certificate::LowerBound { .. }, .. }, Some(name)) => {
                format!("{name} (incumbent of {})", e.backend.name())
            }
            _ => e.backend.name().to_string(),
        },
        None => method.to_string(),
    };
    let mut summary = Summary::new(&inst.name, &label, &a.answer, Vec::new());
    if let Some(best) = &a.best {
        summary = summary.measured(best.metrics());
    }
    if let (Some(path), Some(best)) = (file, &a.best) {
        write_schedule(path, inst, best.schedule(), xml).map_err(in_file(instance))?;
    }
    print_summary(&summary, format, out)?;
    if let Some(dir) = certificate_dir {
        match (&a.best, &a.answer.certificate) {
            (Some(best), Some(c)) => {
                folder::write(dir, inst, best, c, &a.lower_bounds, seconds)?;
                if format == Format::Text {
                    writeln!(out, "certificate folder written to {}", dir.display())
                        .map_err(io_err("<stdout>"))?;
                }
            }
            _ => eprintln!("no certificate folder written: the answer is not a certified optimum"),
        }
    }
    Ok(if a.answer.status == Status::Inadmissible { 1 } else { 0 })
}

/// Writes a checked schedule: MSCCL XML when `path` ends in `.xml` (docs/msccl.md), the JSON
/// of docs/spec.md §5.2 otherwise.
pub(super) fn write_schedule(
    path: &Path,
    inst: &Instance,
    schedule: &Schedule,
    xml: XmlOptions,
) -> Result<()> {
    let text = if is_xml(path) {
        msccl::to_xml(inst, schedule, xml)?
    } else {
        schedule_to_json(inst, schedule)? + "\n"
    };
    std::fs::write(path, text).map_err(io_err(&path.display().to_string()))
}

/// Who produced the answer's witness when the backend did not: the incumbent, an algorithm by
/// its name or a user's schedule (`--incumbent`) as `schedule FILE`.
fn incumbent_name(a: &Assessment) -> Option<String> {
    match a.answer.producer.as_ref()? {
        Producer::Algorithm(name) => Some(name.to_string()),
        producer @ Producer::User(_) => Some(producer.to_string()),
        _ => None,
    }
}
