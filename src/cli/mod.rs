//! The command-line interface: one small function per subcommand, all on the library's one
//! pipeline ([`commsched::compare::assess`]). Exit codes are a contract: 0 admissible / solved,
//! 1 inadmissible schedule, 2 bad input or error.

pub mod args;
mod bench;

use args::{BackendArg, Cli, Command, Format, GenArgs, Limits};
use commsched::bounds::{self, Bound};
use commsched::certify::certify;
use commsched::checker::{self, Producer};
use commsched::compare::assess::Answer;
use commsched::compare::report;
use commsched::compare::{Algorithms, AssessOptions, Assessment, Status, assess};
use commsched::error::{Error, InputError, Result};
use commsched::exact::{self, BackendKind, SolveOptions, encode};
use commsched::heuristics;
use commsched::spec::io::{
    instance_files, instance_to_toml, load_instance, load_schedule, paper_schedule_file, parse_instance,
    schedule_to_json,
};
use commsched::spec::{Instance, ProblemKind};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The JSON object `check`, `bounds` and `solve` print under `--format json` (`report` prints
/// an array of assessments instead). Field names are a stable contract (docs/json.md).
#[derive(Debug, Serialize, Default)]
pub struct Summary {
    /// Instance name.
    pub instance: String,
    /// Method or command that produced the result.
    pub method: String,
    /// `optimal` (certified), `bounds`, `heuristic` (admissible, no optimality proof) or
    /// `inadmissible`.
    pub status: String,
    /// Checked length of the schedule, if any.
    pub length: Option<u64>,
    /// Whether the schedule passed the checker.
    pub admissible: bool,
    /// Every violation, as contract text.
    pub violations: Vec<String>,
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
}

impl Summary {
    fn new(instance: &str, method: &str, answer: &Answer, bounds: Vec<Bound>) -> Self {
        Self {
            instance: instance.into(),
            method: method.into(),
            status: answer.status.to_string(),
            length: answer.length,
            admissible: answer.length.is_some() || answer.upper_bound.is_some(),
            violations: answer.violations.clone(),
            lower_bound: answer.lower_bound,
            upper_bound: answer.upper_bound,
            certified: answer.certificate.is_some(),
            certificate: answer.certificate.as_ref().map(ToString::to_string),
            stop: answer.stop.as_ref().map(ToString::to_string),
            bounds,
        }
    }
}

/// Runs the CLI; returns the exit code (0 or 1) or an error (exit code 2).
pub fn run(cli: Cli) -> Result<u8> {
    let mut out = std::io::stdout().lock();
    let format = cli.format;
    match cli.command {
        Command::Check { instance, schedule } => check(&instance, &schedule, format, &mut out),
        Command::Bounds { instance } => bounds_cmd(&instance, format, &mut out),
        Command::Solve { instance, method, limits, out: file } => {
            solve(&instance, &method, &limits, file.as_deref(), format, &mut out)
        }
        Command::Export { paths, backend, out: dir, horizon, max_vars } => {
            export(&paths, backend, &dir, horizon, max_vars, &mut out)
        }
        Command::Gen(g) => {
            let inst = generate(&g)?;
            write!(out, "{}", instance_to_toml(&inst)).map_err(io_err("<stdout>"))?;
            Ok(0)
        }
        Command::Report { paths, out: dir, backend, no_exact, limits } => {
            report_cmd(&paths, dir.as_deref(), (!no_exact).then_some(backend), &limits, format, &mut out)
        }
        Command::List => list(&mut out),
        Command::Bench { sizes, max_events } => bench::run(&sizes, max_events, &mut out),
    }
}

fn io_err(path: &str) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_string(), source }
}

fn backend(b: BackendArg) -> BackendKind {
    match b {
        BackendArg::Ilp => BackendKind::Ilp,
        BackendArg::Smt => BackendKind::Smt,
    }
}

fn solve_options(limits: &Limits) -> Result<SolveOptions> {
    if !(limits.timeout.is_finite() && limits.timeout > 0.0) {
        return Err(InputError::new(
            "<flags>",
            "--timeout",
            format!("{} is not a positive number of seconds", limits.timeout),
        )
        .into());
    }
    Ok(SolveOptions {
        timeout: Some(Duration::from_secs_f64(limits.timeout)),
        max_variables: limits.max_vars,
    })
}

fn print_summary(s: &Summary, format: Format, out: &mut dyn Write) -> Result<()> {
    let text = match format {
        Format::Json => serde_json::to_string_pretty(s).expect("summary serialises") + "\n",
        Format::Text | Format::Markdown => {
            let mut t = format!("{}: {} ", s.instance, s.method);
            match s.status.as_str() {
                "inadmissible" => {
                    let n = s.violations.len();
                    t += &format!("inadmissible, {n} violation{}\n", if n == 1 { "" } else { "s" });
                }
                "bounds" if s.length.is_none() => {
                    t += &format!("bounds [{}, {}]", report::opt(s.lower_bound), report::opt(s.upper_bound));
                    if let Some(stop) = &s.stop {
                        t += &format!(" ({stop})");
                    }
                    t += "\n";
                }
                status => {
                    t += &format!("{status}, length {}", report::opt(s.length));
                    if let Some(c) = &s.certificate {
                        t += &format!(", certified optimal: {c}");
                    } else if let Some(lb) = s.lower_bound {
                        t += &format!(", lower bound {lb}");
                    }
                    t += "\n";
                }
            }
            for v in &s.violations {
                t += &format!("  {v}\n");
            }
            for b in &s.bounds {
                t += &format!("  lower bound {:<28} {:>6}  {}\n", b.name, b.value, b.claim.unwrap_or(""));
            }
            t
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))
}

/// Attributes an error about an instance (file left empty by the library) to its file.
fn in_file(file: &Path) -> impl Fn(Error) -> Error + '_ {
    move |e| match e {
        Error::Input(i) if i.file.is_empty() => Error::Input(i.in_file(file.display().to_string())),
        e => e,
    }
}

fn check(instance: &Path, schedule: &Path, format: Format, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let sched = load_schedule(schedule, &inst)?;
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
    match checker::judge(&inst, sched, Producer::User(schedule.display().to_string())) {
        Ok(checked) => {
            answer.length = Some(checked.length());
            answer.certificate = certify(&bounds, &checked, None);
            answer.status = if answer.certificate.is_some() { Status::Optimal } else { Status::Heuristic };
            answer.producer = Some(checked.producer().clone());
        }
        Err((_, violations)) => answer.violations = violations.iter().map(ToString::to_string).collect(),
    }
    let s = Summary::new(&inst.name, "check", &answer, Vec::new());
    print_summary(&s, format, out)?;
    Ok(if s.admissible { 0 } else { 1 })
}

fn bounds_cmd(instance: &Path, format: Format, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let bounds = bounds::lower_bounds(&inst);
    let s = Summary {
        instance: inst.name.clone(),
        method: "bounds".into(),
        status: Status::Bounds.to_string(),
        lower_bound: bounds::strongest(&bounds).map(|b| b.value),
        bounds,
        ..Default::default()
    };
    print_summary(&s, format, out)?;
    Ok(0)
}

/// What `--method` asks for: one algorithm, or the exact layer with a backend (`exact` = the
/// default backend), which also runs every applicable algorithm for its incumbent.
fn assess_options(method: &str, limits: &Limits) -> Result<AssessOptions> {
    let exact = match method {
        "exact" => Some(exact::default_backend()),
        "ilp" => Some(BackendKind::Ilp),
        "smt" => Some(BackendKind::Smt),
        _ => None,
    };
    let algorithms = match exact {
        Some(_) => Algorithms::Applicable,
        None => Algorithms::Only(heuristics::find(method).ok_or_else(|| {
            InputError::new(
                "<flags>",
                "--method",
                format!("unknown method `{method}`: an algorithm `commsched list` names, or exact, ilp, smt"),
            )
        })?),
    };
    Ok(AssessOptions { algorithms, exact, solve: solve_options(limits)?, fail_fast: true })
}

fn solve(
    instance: &Path,
    method: &str,
    limits: &Limits,
    file: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let inst = load_instance(instance)?;
    let options = assess_options(method, limits)?;
    let a = assess(&inst, None, &options).map_err(in_file(instance))?;
    let label = match &a.exact {
        Some(e) => e.backend.name().to_string(),
        None => method.to_string(),
    };
    let summary = Summary::new(&inst.name, &label, &a.answer, Vec::new());
    if let (Some(path), Some(best)) = (file, &a.best) {
        std::fs::write(path, schedule_to_json(&inst, best.schedule()) + "\n")
            .map_err(io_err(&path.display().to_string()))?;
    }
    print_summary(&summary, format, out)?;
    Ok(if a.answer.status == Status::Inadmissible { 1 } else { 0 })
}

fn export(
    paths: &[PathBuf],
    b: BackendArg,
    dir: &Path,
    horizon: Option<u64>,
    max_vars: usize,
    out: &mut dyn Write,
) -> Result<u8> {
    let kind = backend(b);
    let single = paths.len() == 1 && paths[0].is_file();
    for (root, file) in instance_files(paths)? {
        let inst = load_instance(&file)?;
        let skip = |out: &mut dyn Write, e: &Error| {
            writeln!(out, "skipped {}: {e}", file.display()).map_err(io_err("<stdout>"))
        };
        if let Err(reason) = encode::encoder_for(&inst).map(|_| ()) {
            if single {
                return Err(reason);
            }
            skip(out, &reason)?;
            continue;
        }
        let horizon = match horizon {
            Some(t) => t,
            None => match export_horizon(&inst) {
                Some(t) => t,
                None => {
                    let e = Error::Input(InputError::new(
                        file.display().to_string(),
                        "--horizon",
                        "no registered algorithm applies to this instance: give the horizon",
                    ));
                    if single {
                        return Err(e);
                    }
                    skip(out, &e)?;
                    continue;
                }
            },
        };
        // In a directory, an instance over the size guard is skipped like one no encoder takes.
        let text = match exact::export(&inst, kind, horizon, max_vars) {
            Ok(text) => text,
            Err(e) if !single => {
                skip(out, &e)?;
                continue;
            }
            Err(e) => return Err(in_file(&file)(e)),
        };
        let target = exact::model_file(dir, &root, &file, kind);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io_err(&parent.display().to_string()))?;
        }
        std::fs::write(&target, text).map_err(io_err(&target.display().to_string()))?;
        writeln!(out, "wrote {}", target.display()).map_err(io_err("<stdout>"))?;
    }
    Ok(0)
}

/// The default export horizon: the checked length of the shortest schedule of the registered
/// algorithms, so the exported model is satisfiable.
fn export_horizon(inst: &Instance) -> Option<u64> {
    let options = AssessOptions {
        algorithms: Algorithms::Applicable,
        exact: None,
        solve: SolveOptions::default(),
        fail_fast: false,
    };
    assess(inst, None, &options).ok()?.best.map(|c| c.length())
}

/// Builds the instance `commsched gen` writes, validated exactly like a file.
pub fn generate(g: &GenArgs) -> Result<Instance> {
    let mut t = toml::Table::new();
    let name = g.name.clone().unwrap_or_else(|| format!("{}-{}", g.problem, g.network.replace(':', "")));
    t.insert("name".into(), name.clone().into());
    t.insert("problem".into(), g.problem.clone().into());
    t.insert("network".into(), g.network.clone().into());
    if let Some(tie) = &g.ring_tie {
        t.insert("ring_tie".into(), tie.clone().into());
    }
    if !g.lengths.is_empty() {
        t.insert("lengths".into(), toml::Value::Array(g.lengths.iter().map(|&x| x.into()).collect()));
    }
    if !g.messages.is_empty() {
        let mut msgs = Vec::new();
        for (i, m) in g.messages.iter().enumerate() {
            let bad = || {
                InputError::new("<flags>", format!("--messages[{i}]"), format!("`{m}` is not SRC-DST:LEN"))
            };
            let (ends, len) = m.split_once(':').ok_or_else(bad)?;
            let (src, dst) = ends.split_once('-').ok_or_else(bad)?;
            let mut msg = toml::Table::new();
            msg.insert("src".into(), src.trim().parse::<i64>().map_err(|_| bad())?.into());
            msg.insert("dst".into(), dst.trim().parse::<i64>().map_err(|_| bad())?.into());
            msg.insert("length".into(), len.trim().parse::<i64>().map_err(|_| bad())?.into());
            msgs.push(toml::Value::Table(msg));
        }
        t.insert("messages".into(), toml::Value::Array(msgs));
    }
    let mut model = toml::Table::new();
    let mut set = |k: &str, v: toml::Value| {
        model.insert(k.into(), v);
    };
    if let Some(r) = &g.rule {
        set("rule", r.clone().into());
    }
    if let Some(p) = g.packet {
        set("packet", (p as i64).into());
    }
    if let Some(p) = &g.port {
        set("port", p.clone().into());
    }
    if g.r#virtual {
        set("virtual", true.into());
    }
    if g.distributed {
        set("gather", "distributed".into());
    }
    if let Some(c) = &g.capacity {
        set("capacity", c.clone().into());
    }
    if g.rounds {
        set("rounds", true.into());
    }
    if !model.is_empty() {
        t.insert("model".into(), toml::Value::Table(model));
    }
    let text = toml::to_string(&t).expect("a table serialises");
    Ok(parse_instance(&text, "<flags>", &name)?)
}

fn report_cmd(
    paths: &[PathBuf],
    dir: Option<&Path>,
    b: Option<BackendArg>,
    limits: &Limits,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let default = [PathBuf::from("instances")];
    let paths = if paths.is_empty() { &default[..] } else { paths };
    let options = AssessOptions {
        algorithms: Algorithms::Applicable,
        exact: b.map(backend),
        solve: solve_options(limits)?,
        fail_fast: false,
    };
    let mut reports: Vec<Assessment> = Vec::new();
    for (_, file) in instance_files(paths)? {
        let inst = load_instance(&file)?;
        let paper = match paper_schedule_file(&file) {
            Some(p) => Some((p.display().to_string(), load_schedule(&p, &inst)?)),
            None => None,
        };
        reports.push(assess(&inst, paper.as_ref().map(|(f, s)| (f.as_str(), s.clone())), &options)?);
    }
    let write = |format: Format, w: &mut dyn Write| -> std::io::Result<()> {
        match format {
            Format::Text => report::write_text(&reports, w),
            Format::Markdown => report::write_markdown(&reports, w),
            Format::Json => {
                writeln!(w, "{}", serde_json::to_string_pretty(&reports).expect("reports serialise"))
            }
        }
    };
    match dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(io_err(&d.display().to_string()))?;
            for (f, name) in
                [(Format::Text, "report.txt"), (Format::Markdown, "report.md"), (Format::Json, "report.json")]
            {
                let path = d.join(name);
                let mut file = std::fs::File::create(&path).map_err(io_err(&path.display().to_string()))?;
                write(f, &mut file).map_err(io_err(&path.display().to_string()))?;
                writeln!(out, "wrote {}", path.display()).map_err(io_err("<stdout>"))?;
            }
        }
        None => write(format, out).map_err(io_err("<stdout>"))?,
    }
    Ok(0)
}

fn list(out: &mut dyn Write) -> Result<u8> {
    let mut text = String::new();
    for p in ProblemKind::ALL {
        text += &format!("{p}:\n");
        let methods: Vec<_> = heuristics::all().into_iter().filter(|m| m.solves(p)).collect();
        for m in &methods {
            text += &format!("  {:<26} {}  [{}]\n", m.name, m.summary, m.source);
        }
        let encoders: Vec<_> =
            encode::ENCODERS.iter().filter(|e| e.applicability.problems.contains(&p)).collect();
        for e in &encoders {
            let backends: Vec<&str> = BackendKind::available().iter().map(|b| b.name()).collect();
            text += &format!(
                "  {:<26} exact optimum with certificate, encoder `{}` ({}); backends: {}\n",
                "exact | ilp | smt",
                e.name,
                e.applicability.describe(),
                backends.join(", ")
            );
        }
        if methods.is_empty() && encoders.is_empty() {
            text += "  no algorithms yet (checker and lower bounds only)\n";
        }
    }
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}
