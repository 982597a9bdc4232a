//! Instance files (TOML) and schedule files (JSON), validated on load (SPEC §5). Every error
//! names the file, the field and the reason.

use super::instance_file::InstanceFile;
use super::problem::{Instance, Problem};
use super::schedule::{Schedule, ScheduleFile, Start};
use crate::error::InputError;
use std::path::Path;

/// Reads and validates an instance file.
pub fn load_instance(path: &Path) -> Result<Instance, InputError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| InputError::new(&file, "", format!("cannot read: {e}")))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    parse_instance(&text, &file, &stem)
}

/// Parses and validates instance TOML ([`InstanceFile`]); `file` names it in errors,
/// `default_name` is used when the file has no `name`.
pub fn parse_instance(text: &str, file: &str, default_name: &str) -> Result<Instance, InputError> {
    InstanceFile::parse(text, file)?.instance(file, default_name)
}

/// Writes an instance as commented TOML ([`InstanceFile::to_toml`]; `commsched gen`, certificate
/// folders).
pub fn instance_to_toml(inst: &Instance) -> String {
    InstanceFile::of(inst)
        .to_toml(&format!("commsched instance: {} on {} ({})", inst.problem, inst.network, inst.model))
}

/// Reads a schedule file in the JSON of SPEC §5 and validates it against the instance (a file
/// that may be MSCCL XML is read by `msccl::load_schedule`, a layer above the checker).
pub fn load_schedule(path: &Path, inst: &Instance) -> Result<Schedule, InputError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| InputError::new(&file, "", format!("cannot read: {e}")))?;
    parse_schedule(&text, &file, inst)
}

/// Whether a schedule file is MSCCL XML, by its extension.
pub fn is_xml(path: &Path) -> bool {
    path.extension().is_some_and(|x| x.eq_ignore_ascii_case("xml"))
}

/// Parses schedule JSON and validates its shape against the instance: problem and model echo,
/// exactly one body, known node ids. Message and token ids are checked by the checker, which
/// reports unknown ones as violations.
pub fn parse_schedule(text: &str, file: &str, inst: &Instance) -> Result<Schedule, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let raw: ScheduleFile = serde_json::from_str(text).map_err(|e| err("", e.to_string()))?;
    if raw.problem != inst.problem.name() {
        return Err(err(
            "problem",
            format!("`{}` does not match the instance's `{}`", raw.problem, inst.problem),
        ));
    }
    if raw.model != inst.model.name() {
        return Err(err(
            "model",
            format!("`{}` does not match the instance's `{}`", raw.model, inst.model.name()),
        ));
    }
    let n = inst.network.len();
    let node = |field: String, v: usize| {
        if v < n {
            Ok(())
        } else {
            Err(err(&field, format!("node {v} is unknown: the network has nodes 0..{}", n - 1)))
        }
    };
    let bodies = [
        raw.starts.is_some() || raw.control.is_some() || raw.order.is_some(),
        raw.virtual_starts.is_some(),
        raw.steps.is_some(),
        raw.sends.is_some(),
    ];
    if bodies.iter().filter(|&&b| b).count() != 1 {
        return Err(err("", "give exactly one of starts/control/order, virtual_starts, steps, sends".into()));
    }
    let sched = if let Some(order) = raw.order {
        let Problem::Scatter(lengths) = &inst.problem else {
            return Err(err("order", "a dispatch order is only meaningful for scatter".into()));
        };
        Schedule::Bufferless {
            starts: scatter_order_starts(&order, lengths, file)?,
            control: raw.control.unwrap_or_default(),
        }
    } else if raw.starts.is_some() || raw.control.is_some() {
        let control = raw.control.unwrap_or_default();
        for (i, c) in control.iter().enumerate() {
            node(format!("control[{i}].from"), c.from)?;
            node(format!("control[{i}].to"), c.to)?;
        }
        Schedule::Bufferless { starts: raw.starts.unwrap_or_default(), control }
    } else if let Some(v) = raw.virtual_starts {
        Schedule::Virtual(v)
    } else if let Some(steps) = raw.steps {
        for (t, step) in steps.iter().enumerate() {
            for (i, tr) in step.iter().enumerate() {
                node(format!("steps[{t}][{i}].from"), tr.from)?;
                node(format!("steps[{t}][{i}].to"), tr.to)?;
            }
        }
        match (&inst.model, raw.rounds) {
            (super::Model::Collective { .. }, rounds) => {
                let rounds = rounds.unwrap_or_else(|| vec![1; steps.len()]);
                if rounds.len() != steps.len() {
                    return Err(err(
                        "rounds",
                        format!("{} rounds given for {} steps: one r_s per step", rounds.len(), steps.len()),
                    ));
                }
                Schedule::Collective { steps, rounds }
            }
            (_, Some(_)) => {
                return Err(err("rounds", "only the collective model has rounds per step".into()));
            }
            (_, None) => Schedule::StoreForward(steps),
        }
    } else {
        let sends = raw.sends.unwrap_or_default();
        for (i, s) in sends.iter().enumerate() {
            node(format!("sends[{i}].from"), s.from)?;
            node(format!("sends[{i}].to"), s.to)?;
        }
        Schedule::FatTree(sends)
    };
    Ok(sched)
}

/// Paper 001 (1): messages dispatched back to back in `order`; M_i starts at
/// τ(i) + 1 where τ(i) is the total length dispatched before it.
pub fn scatter_order_starts(order: &[usize], lengths: &[u64], file: &str) -> Result<Vec<Start>, InputError> {
    let mut tau = 0i64;
    let mut starts = Vec::new();
    for (k, &m) in order.iter().enumerate() {
        let l = *lengths.get(m).filter(|_| m > 0).ok_or_else(|| {
            InputError::new(
                file,
                format!("order[{k}]"),
                format!("message {m} is unknown: messages are 1..{}", lengths.len() - 1),
            )
        })?;
        if l == 0 {
            continue;
        }
        starts.push(Start { msg: m, start: tau + 1 });
        tau += l as i64;
    }
    Ok(starts)
}

/// Writes a schedule as the JSON file of SPEC §5 (itineraries in their explicit form, refused
/// beyond `--max-events` hops).
pub fn schedule_to_json(inst: &Instance, sched: &Schedule) -> Result<String, InputError> {
    let mut file = ScheduleFile {
        problem: inst.problem.name().into(),
        model: inst.model.name().into(),
        ..Default::default()
    };
    match sched {
        Schedule::Bufferless { starts, control } => {
            file.starts = Some(starts.clone());
            if !control.is_empty() {
                file.control = Some(control.clone());
            }
        }
        Schedule::Virtual(v) => file.virtual_starts = Some(v.clone()),
        Schedule::StoreForward(steps) => file.steps = Some(steps.clone()),
        Schedule::Itineraries(it) => file.steps = Some(it.explicit_steps()?),
        Schedule::FatTree(sends) => file.sends = Some(sends.clone()),
        Schedule::Collective { steps, rounds } => {
            file.steps = Some(steps.clone());
            file.rounds = Some(rounds.clone());
        }
    }
    Ok(serde_json::to_string_pretty(&file).expect("schedule serialises"))
}

/// Every `*.toml` under the given files and directories, sorted, each with the root it was found
/// under (to mirror the layout in outputs), but none inside a certificate folder
/// ([`certificate_folder`]), whose `instance.toml` is a copy, and no machine list of `report`
/// ([`is_machine_list`]). A path that does not exist is an input error.
pub fn instance_files(
    paths: &[std::path::PathBuf],
) -> crate::Result<Vec<(std::path::PathBuf, std::path::PathBuf)>> {
    let mut files = toml_files(paths)?;
    files.retain(|(_, f)| !is_machine_list(f));
    Ok(files)
}

/// Whether a file is a machine list of `report` (its name ends `.machines.toml`; the format is
/// [`crate::compare::scale`]'s), not an instance.
pub fn is_machine_list(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".machines.toml"))
}

/// The machine lists of `report` ([`is_machine_list`]) under the given
/// files and directories, sorted, found as [`instance_files`] finds instances.
pub fn machine_lists(paths: &[std::path::PathBuf]) -> crate::Result<Vec<std::path::PathBuf>> {
    let files = toml_files(paths)?.into_iter().map(|(_, f)| f);
    Ok(files.filter(|f| is_machine_list(f)).collect())
}

/// Every `*.toml` under the given directories (outside certificate folders) and every file
/// given, sorted, each with its root.
fn toml_files(paths: &[std::path::PathBuf]) -> crate::Result<Vec<(std::path::PathBuf, std::path::PathBuf)>> {
    use std::path::PathBuf;
    let io = |dir: &Path| {
        let path = dir.display().to_string();
        move |source| crate::Error::Io { path, source }
    };
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).map_err(io(&dir))? {
                    let path = entry.map_err(io(&dir))?.path();
                    if path.is_dir() {
                        if path.extension().is_none_or(|x| x != "certificate") {
                            stack.push(path);
                        }
                    } else if path.extension().is_some_and(|x| x == "toml") {
                        files.push((p.clone(), path));
                    }
                }
            }
        } else if p.exists() {
            files.push((p.parent().map(Path::to_path_buf).unwrap_or_else(PathBuf::new), p.clone()));
        } else {
            return Err(InputError::new(p.display().to_string(), "", "no such file or directory").into());
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(files)
}

/// The certificate folder of an instance file `X.toml`: the directory `X.certificate` beside it,
/// if any (docs/spec.md §7.1). [`instance_files`] does not look inside such folders.
pub fn certificate_folder(instance: &Path) -> Option<std::path::PathBuf> {
    let path = instance.with_extension("certificate");
    path.is_dir().then_some(path)
}

/// The paper's own schedule for an instance file `X.toml`: `X.schedule.json` beside it, if any.
pub fn paper_schedule_file(instance: &Path) -> Option<std::path::PathBuf> {
    let path = instance.with_extension("schedule.json");
    path.exists().then_some(path)
}
