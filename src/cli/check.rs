//! `check`: a schedule against an instance, or an MSCCL algorithm file against the collective
//! its header names (docs/msccl.md). The checker judges what the file does; for MSCCL XML read
//! as a runtime runs it, what the file computes wrongly (a reduction of mixed chunks or
//! counting a rank twice, an output slot without what the collective requires) comes first.

use super::args::{Format, Reading};
use super::summary::{Summary, print_summary};
use commsched::bounds;
use commsched::certify::certify;
use commsched::checker::{self, Producer, Rule, Violation};
use commsched::compare::Status;
use commsched::compare::assess::Answer;
use commsched::error::{InputError, Result};
use commsched::msccl::{self, runtime::RunError};
use commsched::spec::io::{is_xml, load_instance, load_schedule};
use commsched::spec::{Model, Network, topology};
use std::path::Path;

/// The flags that only MSCCL XML reads.
pub struct MscclFlags<'a> {
    /// `--reading`.
    pub reading: Reading,
    /// `--network`, for `check FILE.xml`.
    pub network: Option<&'a str>,
    /// `--collective`.
    pub collective: Option<&'a str>,
}

/// `check INSTANCE SCHEDULE`, or `check FILE.xml`: exit 0 if admissible, 1 if not.
pub fn check(
    instance: &Path,
    schedule: Option<&Path>,
    max_violations: usize,
    flags: &MscclFlags<'_>,
    format: Format,
    out: &mut dyn std::io::Write,
) -> Result<u8> {
    // A file that runs gives a schedule to judge; one a runtime cannot run is judged by that.
    let (inst, imported): (_, Result<_, Violation>) = match schedule {
        Some(file) if is_xml(file) => {
            let inst = load_instance(instance)?;
            let reading = match flags.reading {
                Reading::Runtime => msccl::Reading::Runtime,
                Reading::StepIndex => msccl::Reading::StepIndex,
            };
            let name = file.display().to_string();
            let imported = ran(msccl::import(&read(file)?, &name, &inst, reading, flags.collective))?;
            (inst, imported.map(|i| (i.schedule, i.violations)))
        }
        Some(file) => {
            let inst = load_instance(instance)?;
            let sched = load_schedule(file, &inst)?;
            (inst, Ok((sched, Vec::new())))
        }
        None if is_xml(instance) => {
            if flags.reading == Reading::StepIndex {
                return Err(InputError::new(
                    "<flags>",
                    "--reading",
                    "a file judged by its header is read as a runtime runs it; step-index reading needs an instance",
                )
                .into());
            }
            let network = flags.network.map(network).transpose()?;
            let name = instance.display().to_string();
            let text = read(instance)?;
            match ran(msccl::from_header(&text, &name, network.clone(), flags.collective))? {
                Ok((inst, imported)) => (inst, Ok((imported.schedule, imported.violations))),
                Err(wrong) => (msccl::header_instance(&text, &name, network, flags.collective)?, Err(wrong)),
            }
        }
        None => {
            let text = read(instance)?;
            if !commsched::spec::events::is_event_schedule(&text) {
                return Err(InputError::new(
                    "<flags>",
                    "SCHEDULE",
                    "check takes an instance and a schedule, an MSCCL XML file alone, or an event schedule (events.json) with --network",
                )
                .into());
            }
            let network = flags.network.ok_or_else(|| {
                InputError::new(
                    "<flags>",
                    "--network",
                    "an event schedule is checked on the fabric given by --network",
                )
            })?;
            let (code, report) = super::events::check(instance, network, &text, format == Format::Json)?;
            out.write_all(report.as_bytes()).map_err(super::io_err("<stdout>"))?;
            return Ok(code);
        }
    };
    let file = schedule.unwrap_or(instance);
    let bounds = bounds::lower_bounds(&inst);
    let mut answer = Answer {
        status: Status::Inadmissible,
        length: None,
        lower_bound: bounds::strongest(&bounds).map(|b| b.value),
        upper_bound: None,
        certificate: None,
        producer: None,
        stop: None,
        violations: Vec::new(),
    };
    let (sched, mut violations) = match imported {
        Ok((sched, violations)) => (Some(sched), violations),
        Err(wrong) => (None, vec![wrong]),
    };
    let producer = Producer::User(file.display().to_string());
    let mut metrics = None;
    match sched.map(|sched| checker::judge(&inst, sched, producer)) {
        Some(Ok(checked)) if violations.is_empty() => {
            metrics = Some(checked.metrics().clone());
            answer.length = Some(checked.length());
            answer.certificate = certify(&bounds, &checked, None);
            answer.status = if answer.certificate.is_some() { Status::Optimal } else { Status::Heuristic };
            answer.producer = Some(checked.producer().clone());
        }
        Some(Ok(_)) | None => {}
        Some(Err((_, model))) => violations.extend(model),
    }
    answer.violations = violations.iter().map(ToString::to_string).collect();
    let method = match schedule {
        None => match inst.model {
            Model::Collective { rounds: Some(r) } => {
                format!("check ({}, R = {r}, on {})", inst.problem, inst.network)
            }
            _ => format!("check ({} on {})", inst.problem, inst.network),
        },
        Some(_) => "check".into(),
    };
    let mut s = Summary::new(&inst.name, &method, &answer, Vec::new());
    if let Some(metrics) = &metrics {
        s = s.measured(metrics);
    }
    s.violations_omitted = s.violations.len().saturating_sub(max_violations);
    s.violations.truncate(max_violations);
    print_summary(&s, format, out)?;
    Ok(if s.admissible { 0 } else { 1 })
}

/// Separates the two classes of [`RunError`] (docs/msccl.md): a file that does not describe a
/// program is bad input (exit 2, returned as the error); a program a runtime cannot run is a
/// wrong algorithm, returned as the violation `check` reports (exit 1).
fn ran<T>(outcome: std::result::Result<T, RunError>) -> Result<std::result::Result<T, Violation>> {
    match outcome {
        Ok(value) => Ok(Ok(value)),
        Err(RunError::Input(e)) => Err(e.into()),
        Err(RunError::Wrong(e)) => {
            Ok(Err(Violation { rule: Rule::DoesNotRun, step: None, place: e.field, detail: e.reason }))
        }
    }
}

fn read(path: &Path) -> Result<String> {
    let file = path.display().to_string();
    Ok(std::fs::read_to_string(path).map_err(|e| InputError::new(&file, "", format!("cannot read: {e}")))?)
}

/// `--network`: a network string or a topology JSON file.
fn network(spec: &str) -> Result<Network> {
    if spec.ends_with(".json") {
        return Ok(topology::load_topology(Path::new(spec))?);
    }
    Ok(Network::parse(spec).map_err(|r| InputError::new("<flags>", "--network", r))?)
}
