//! `solve --steps S [--rounds R]` (one point decided, docs/spec.md §4.5), and the collective a
//! Pareto walk (`pareto`, `tune`) starts from.

use super::args::{Format, Limits};
use super::solve::write_schedule;
use super::{exact_choice, in_file, io_err, solve_options};
use commsched::checker::{Producer, accept};
use commsched::error::{InputError, Result};
use commsched::exact::BackendKind;
use commsched::exact::decision::{Point, decide_point};
use commsched::exact::encode::Prefix;
use commsched::folder;
use commsched::msccl::XmlOptions;
use commsched::spec::io::{load_instance, load_schedule};
use commsched::spec::{Instance, Model, Problem, Schedule};
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// The backend an exact `--method` names (`exact`: the encoder's measured first).
pub(super) fn exact_backend(method: &str, inst: &Instance) -> Result<BackendKind> {
    let choice = exact_choice(method).ok_or_else(|| {
        InputError::new(
            "<flags>",
            "--method",
            format!("`{method}` is an algorithm; deciding a point needs exact, ilp, smt or sat"),
        )
    })?;
    Ok(choice.resolve(inst))
}

/// What `solve --steps` prints as JSON.
#[derive(Debug, Serialize)]
struct DecisionJson<'a> {
    instance: &'a str,
    method: &'a str,
    steps: u64,
    /// The round budget, for the collective model.
    rounds: Option<u64>,
    /// C, for the collective model.
    chunks: Option<usize>,
    /// `feasible`, `infeasible` or `unknown`.
    status: &'static str,
    /// The witness's checked length (≤ steps), when feasible.
    length: Option<u64>,
    /// `checked witness`, `proof checked`, `lower bound: …` or `… solver's word`.
    certificate: Option<String>,
    /// Why it is undecided.
    stop: Option<String>,
    seconds: f64,
}

/// C of a collective.
fn chunks_of(inst: &Instance) -> Option<usize> {
    match &inst.problem {
        Problem::Collective(c) => Some(c.chunks),
        _ => None,
    }
}

/// What `solve --steps` asks.
pub struct Question<'a> {
    /// S.
    pub steps: u64,
    /// The round budget R (`--rounds`).
    pub rounds: Option<u64>,
    /// The schedule whose first K steps a witness keeps (`--complete FILE --keep K`).
    pub complete: Option<(&'a Path, u64)>,
}

/// The first K steps of the schedule in `file` ([`Prefix`]), read and checked against the
/// instance: a store-and-forward schedule with at least K steps, and 1 ≤ K ≤ S.
fn prefix(inst: &Instance, file: &Path, keep: u64, steps: u64) -> Result<Prefix> {
    let source = file.display().to_string();
    let checked = accept(inst, load_schedule(file, inst)?, Producer::User(source.clone()))?;
    let Schedule::StoreForward(kept) = checked.into_schedule() else {
        return Err(InputError::new(
            &source,
            "--complete",
            "only a store-and-forward schedule (gossip, total exchange) has steps to keep",
        )
        .into());
    };
    let fault = if keep == 0 {
        Some("keep at least one step (K = 0 is `--steps` alone)".to_string())
    } else if keep > steps {
        Some(format!("K = {keep} is over --steps {steps}"))
    } else if keep > kept.len() as u64 {
        Some(format!("K = {keep}, and the schedule has {} steps", kept.len()))
    } else {
        None
    };
    match fault {
        Some(reason) => Err(InputError::new(&source, "--keep", reason).into()),
        None => Ok(Prefix { steps: kept, keep, source }),
    }
}

/// Where `solve --steps` writes: the witness (and what an MSCCL XML one asks of the runtime)
/// and the certificate folder.
pub struct Files<'a> {
    pub out: Option<&'a Path>,
    pub xml: XmlOptions,
    pub certificate: Option<&'a Path>,
}

/// `solve FILE --steps S [--rounds R]`: is there a schedule of at most S steps (within R
/// rounds)? A feasible answer is a checked witness, an infeasible one names its evidence. With
/// `--complete SCHEDULE --keep K`, is there one that keeps the first K steps of SCHEDULE?
/// The instance comes with the file (or problem name) it was read from, for errors.
pub fn decide(
    (inst, instance): (&Instance, &Path),
    method: &str,
    Question { steps, rounds, complete }: Question<'_>,
    limits: &Limits,
    Files { out: file, xml, certificate }: Files<'_>,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let mut inst = inst.clone();
    if let Some(r) = rounds {
        if !matches!(inst.model, Model::Collective { .. }) {
            return Err(InputError::new(
                "<flags>",
                "--rounds",
                "a round budget belongs to the collective model; this instance's is another".to_string(),
            )
            .into());
        }
        if r == 0 {
            return Err(InputError::new("<flags>", "--rounds", "the budget R is at least 1").into());
        }
        inst.model = Model::Collective { rounds: Some(r) };
    }
    let backend = exact_backend(method, &inst)?;
    let mut options = solve_options(limits)?;
    if let Some(dir) = certificate {
        std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
        options.proof_dir = Some(dir.to_path_buf());
    }
    let start = std::time::Instant::now();
    let prefix = match complete {
        Some((file, keep)) => Some(prefix(&inst, file, keep, steps)?),
        None => None,
    };
    let point = decide_point(&inst, backend, steps, &options, prefix).map_err(in_file(instance))?;
    let seconds = start.elapsed().as_secs_f64();
    let budget = match inst.model {
        Model::Collective { rounds } => rounds,
        _ => None,
    };
    let mut json = DecisionJson {
        instance: &inst.name,
        method: backend.name(),
        steps,
        rounds: budget,
        chunks: chunks_of(&inst),
        status: "unknown",
        length: None,
        certificate: None,
        stop: None,
        seconds,
    };
    match &point {
        Point::Feasible(checked) => {
            json.status = "feasible";
            json.length = Some(checked.length());
            json.certificate = Some("checked witness".into());
            if let Some(path) = file {
                write_schedule(path, &inst, checked.schedule(), xml).map_err(in_file(instance))?;
            }
            if let Some(dir) = certificate {
                folder::write_witness(dir, &inst, checked, seconds)?;
            }
        }
        Point::Infeasible(refutation) => {
            json.status = "infeasible";
            json.certificate = Some(refutation.to_string());
            if let Some(dir) = certificate {
                folder::write_refutation(dir, &inst, steps, refutation, seconds)?;
            }
        }
        Point::Unknown(stop) => json.stop = Some(stop.to_string()),
    }
    let text = match format {
        Format::Json => serde_json::to_string_pretty(&json).expect("the decision serialises") + "\n",
        _ => {
            let at = match (budget, json.chunks) {
                (Some(r), Some(c)) => format!("(S, R, C) = ({steps}, {r}, {c})"),
                _ => format!("S = {steps}"),
            };
            let what = match &point {
                Point::Feasible(c) => format!("feasible: checked witness of {} steps", c.length()),
                Point::Infeasible(r) => format!("infeasible ({r})"),
                Point::Unknown(stop) => format!("unknown ({stop})"),
            };
            format!("{}: {} at {at}: {what} [{seconds:.2} s]\n", inst.name, backend.name())
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    if let (Some(dir), false, Format::Text) = (certificate, matches!(point, Point::Unknown(_)), format) {
        writeln!(out, "certificate folder written to {}", dir.display()).map_err(io_err("<stdout>"))?;
    }
    Ok(0)
}

/// The collective a walk starts from: an instance file (`*.toml`), or a collective's name with
/// `--network` (and `--root`), at C = 1; refused unless it is of the collective model. `what`
/// names the command's work in the errors.
pub(super) fn collective_base(
    target: &str,
    network: Option<&str>,
    root: Option<usize>,
    what: &str,
) -> Result<Instance> {
    let base = if target.ends_with(".toml") {
        load_instance(Path::new(target))?
    } else {
        let network = network.ok_or_else(|| {
            InputError::new(
                "<flags>",
                "--network",
                "a collective's name needs --network (or give an instance file)",
            )
        })?;
        super::generate_named(target, network, root, Some(1))?
    };
    if !matches!(base.model, Model::Collective { .. }) {
        return Err(InputError::new(
            &base.name,
            "problem",
            format!("{what} needs a collective of the collective model"),
        )
        .into());
    }
    Ok(base)
}
