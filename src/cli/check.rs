//! `check`: a schedule against an instance, or an MSCCL algorithm file against the collective
//! its header names (docs/msccl.md). The checker judges what the file does; for MSCCL XML read
//! as a runtime runs it, what the file computes wrongly (a reduction of mixed chunks or
//! counting a rank twice, an output slot without what the collective requires) comes first.

use super::args::{Format, Reading};
use super::summary::{Summary, print_summary};
use commsched::bounds;
use commsched::certify::certify;
use commsched::checker::{self, Producer, Violation};
use commsched::compare::Status;
use commsched::compare::assess::Answer;
use commsched::error::{InputError, Result};
use commsched::msccl;
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
    let (inst, (sched, mut violations)): (_, (_, Vec<Violation>)) = match schedule {
        Some(file) if is_xml(file) => {
            let inst = load_instance(instance)?;
            let reading = match flags.reading {
                Reading::Runtime => msccl::Reading::Runtime,
                Reading::StepIndex => msccl::Reading::StepIndex,
            };
            let imported =
                msccl::import(&read(file)?, &file.display().to_string(), &inst, reading, flags.collective)?;
            (inst, (imported.schedule, imported.violations))
        }
        Some(file) => {
            let inst = load_instance(instance)?;
            let sched = load_schedule(file, &inst)?;
            (inst, (sched, Vec::new()))
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
            let (inst, imported) = msccl::from_header(&read(instance)?, &name, network, flags.collective)?;
            (inst, (imported.schedule, imported.violations))
        }
        None => {
            return Err(InputError::new(
                "<flags>",
                "SCHEDULE",
                "check takes an instance and a schedule, or an MSCCL XML file alone",
            )
            .into());
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
    match checker::judge(&inst, sched, Producer::User(file.display().to_string())) {
        Ok(checked) if violations.is_empty() => {
            answer.length = Some(checked.length());
            answer.certificate = certify(&bounds, &checked, None);
            answer.status = if answer.certificate.is_some() { Status::Optimal } else { Status::Heuristic };
            answer.producer = Some(checked.producer().clone());
        }
        Ok(_) => {}
        Err((_, model)) => violations.extend(model),
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
    s.violations_omitted = s.violations.len().saturating_sub(max_violations);
    s.violations.truncate(max_violations);
    print_summary(&s, format, out)?;
    Ok(if s.admissible { 0 } else { 1 })
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
