//! The command-line interface: one small function per subcommand. Exit codes are a contract:
//! 0 admissible / solved, 1 inadmissible schedule, 2 bad input or error.

pub mod args;
mod bench;

use crate::bounds::{self, Bound};
use crate::checker::{self, Verdict, Violation};
use crate::compare::report::{self, InstanceReport, ReportOptions, opt};
use crate::error::{Error, InputError, Result};
use crate::exact::{self, BackendKind, Outcome, SolveOptions};
use crate::heuristics;
use crate::spec::io::{load_instance, load_schedule, parse_instance, schedule_to_json};
use crate::spec::{Instance, Problem, Schedule};
use args::{BackendArg, Cli, Command, Format, GenArgs, Limits};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The JSON object every command prints under `--format json` (report prints an array of
/// reports instead). Field names are a stable contract.
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
    /// Every violation, as SPEC §6 text.
    pub violations: Vec<String>,
    /// The best lower bound.
    pub lower_bound: Option<u64>,
    /// Upper bound when only bounds are known.
    pub upper_bound: Option<u64>,
    /// Whether `length` is a certified optimum.
    pub certified: bool,
    /// The certificate: `infeasible-at-T-1 (T-1 = ..)` or `lower-bound NAME = V`.
    pub certificate: Option<String>,
    /// Why an exact solve stopped without an optimum.
    pub stop: Option<String>,
    /// Every lower bound.
    pub bounds: Vec<Bound>,
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
        Command::Export { paths, backend, out: dir } => export(&paths, backend, &dir, &mut out),
        Command::Gen(g) => {
            let inst = generate(&g)?;
            write!(out, "{}", crate::spec::io::instance_to_toml(&inst)).map_err(io_err("<stdout>"))?;
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
                    t += &format!("bounds [{}, {}]", opt(s.lower_bound), opt(s.upper_bound));
                    if let Some(stop) = &s.stop {
                        t += &format!(" ({stop})");
                    }
                    t += "\n";
                }
                status => {
                    t += &format!("{status}, length {}", opt(s.length));
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

/// Fills a summary from a verdict; an admissible length equal to the best lower bound is a
/// certified optimum (certificate: the matching bound).
fn summarise(inst: &Instance, method: &str, verdict: &Verdict) -> Summary {
    let bounds = bounds::lower_bounds(inst);
    let best = bounds.iter().max_by_key(|b| b.value).cloned();
    let mut s = Summary {
        instance: inst.name.clone(),
        method: method.into(),
        lower_bound: best.as_ref().map(|b| b.value),
        ..Default::default()
    };
    match verdict {
        Verdict::Admissible(c) => {
            s.admissible = true;
            s.length = Some(c.length());
            match best {
                Some(b) if b.value == c.length() => {
                    s.status = "optimal".into();
                    s.certified = true;
                    s.certificate = Some(format!("lower-bound {} = {}", bound_label(&b), b.value));
                }
                _ => s.status = "heuristic".into(),
            }
        }
        Verdict::Inadmissible(v) => {
            s.status = "inadmissible".into();
            s.violations = v.iter().map(Violation::to_string).collect();
        }
    }
    s
}

fn bound_label(b: &Bound) -> String {
    match b.claim {
        Some(c) => format!("{} ({c})", b.name),
        None => b.name.clone(),
    }
}

fn check(instance: &Path, schedule: &Path, format: Format, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let sched = load_schedule(schedule, &inst)?;
    let verdict = checker::check(&inst, &sched);
    let s = summarise(&inst, "check", &verdict);
    print_summary(&s, format, out)?;
    Ok(if s.admissible { 0 } else { 1 })
}

fn bounds_cmd(instance: &Path, format: Format, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let bounds = bounds::lower_bounds(&inst);
    let s = Summary {
        instance: inst.name.clone(),
        method: "bounds".into(),
        status: "bounds".into(),
        lower_bound: bounds.iter().map(|b| b.value).max(),
        bounds,
        ..Default::default()
    };
    print_summary(&s, format, out)?;
    Ok(0)
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
    let file_name = instance.display().to_string();
    let exact_backend = match method {
        "ilp" => Some(BackendKind::Ilp),
        "smt" => Some(BackendKind::Smt),
        "exact" => Some(exact::default_backend()),
        _ => None,
    };
    let (summary, schedule): (Summary, Option<Schedule>) = match exact_backend {
        Some(b) => {
            let outcome = exact::solve(&inst, b, &solve_options(limits)?).map_err(|e| match e {
                Error::Input(i) if i.file.is_empty() => Error::Input(i.in_file(&file_name)),
                e => e,
            })?;
            let mut s = Summary {
                instance: inst.name.clone(),
                method: b.to_string(),
                lower_bound: bounds::best(&inst).map(|b| b.value),
                ..Default::default()
            };
            match outcome {
                Outcome::Optimal { witness, checked, certificate } => {
                    s.status = "optimal".into();
                    s.admissible = true;
                    s.certified = true;
                    s.length = Some(checked.length());
                    s.certificate = Some(certificate.to_string());
                    (s, Some(witness))
                }
                Outcome::Bounds { lower, upper, stop } => {
                    s.status = "bounds".into();
                    s.lower_bound = Some(lower.max(s.lower_bound.unwrap_or(0)));
                    s.stop = Some(stop.to_string());
                    s.admissible = upper.is_some();
                    s.upper_bound = upper.as_ref().map(|(_, c)| c.length());
                    (s, upper.map(|(w, _)| w))
                }
            }
        }
        None => {
            let m = heuristics::find(method).ok_or_else(|| {
                let names: Vec<&str> = heuristics::all().iter().map(|m| m.name).collect();
                InputError::new(
                    "<flags>",
                    "--method",
                    format!("unknown method `{method}` (known: {}, ilp, smt, exact)", names.join(", ")),
                )
            })?;
            (m.applies)(&inst).map_err(|reason| Error::NotApplicable { method: m.name.into(), reason })?;
            let sched = (m.run)(&inst)?;
            let verdict = checker::check(&inst, &sched);
            let s = summarise(&inst, m.name, &verdict);
            let admissible = s.admissible;
            (s, admissible.then_some(sched))
        }
    };
    if let (Some(path), Some(sched)) = (file, &schedule) {
        std::fs::write(path, schedule_to_json(&inst, sched) + "\n")
            .map_err(io_err(&path.display().to_string()))?;
    }
    print_summary(&summary, format, out)?;
    Ok(if summary.status == "inadmissible" { 1 } else { 0 })
}

/// Every `*.toml` under the given files and directories, sorted, with the root each was found
/// under (to mirror the layout in outputs).
pub fn instance_files(paths: &[PathBuf]) -> Result<Vec<(PathBuf, PathBuf)>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(dir) = stack.pop() {
                let entries = std::fs::read_dir(&dir).map_err(io_err(&dir.display().to_string()))?;
                for e in entries {
                    let path = e.map_err(io_err(&dir.display().to_string()))?.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|x| x == "toml") {
                        files.push((p.clone(), path));
                    }
                }
            }
        } else if p.exists() {
            files.push((p.parent().map(Path::to_path_buf).unwrap_or_default(), p.clone()));
        } else {
            return Err(InputError::new(p.display().to_string(), "", "no such file or directory").into());
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(files)
}

/// The paper's own schedule for an instance file `X.toml`: `X.schedule.json` beside it, if any.
pub fn paper_schedule_file(instance: &Path) -> Option<PathBuf> {
    let path = instance.with_extension("schedule.json");
    path.exists().then_some(path)
}

/// Where `export` writes the model of `instance` (found under `root`): the instance's path
/// relative to `root`, in `dir`, with the backend's extension (`004/path6-fig2.ilp.lp`).
pub fn model_file(dir: &Path, root: &Path, instance: &Path, kind: BackendKind) -> PathBuf {
    let rel = instance.strip_prefix(root).unwrap_or(instance).with_extension("");
    dir.join(format!("{}.{}", rel.display(), kind.file_extension()))
}

fn export(paths: &[PathBuf], b: BackendArg, dir: &Path, out: &mut dyn Write) -> Result<u8> {
    let kind = backend(b);
    let single = paths.len() == 1 && paths[0].is_file();
    for (root, file) in instance_files(paths)? {
        let inst = load_instance(&file)?;
        let text = match exact::export(&inst, kind, None) {
            Ok(t) => t,
            Err(e @ Error::NotApplicable { .. }) if !single => {
                writeln!(out, "skipped {}: {e}", file.display()).map_err(io_err("<stdout>"))?;
                continue;
            }
            Err(Error::Input(i)) if i.file.is_empty() => {
                return Err(i.in_file(file.display().to_string()).into());
            }
            Err(e) => return Err(e),
        };
        let target = model_file(dir, &root, &file, kind);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io_err(&parent.display().to_string()))?;
        }
        std::fs::write(&target, text).map_err(io_err(&target.display().to_string()))?;
        writeln!(out, "wrote {}", target.display()).map_err(io_err("<stdout>"))?;
    }
    Ok(0)
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
    let options = ReportOptions { backend: b.map(backend), solve: solve_options(limits)? };
    let mut reports: Vec<InstanceReport> = Vec::new();
    for (_, file) in instance_files(paths)? {
        let inst = load_instance(&file)?;
        let paper = paper_schedule_file(&file);
        let schedule = match &paper {
            Some(p) => Some(load_schedule(p, &inst)?),
            None => None,
        };
        let name = paper.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
        reports.push(report::report(&inst, schedule.as_ref().map(|s| (name.as_str(), s)), &options));
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
    for p in Problem::NAMES {
        text += &format!("{p}:\n");
        for m in heuristics::all().into_iter().filter(|m| m.problem == p) {
            text += &format!("  {:<26} {}  [{}]\n", m.name, m.summary, m.source);
        }
        if exact::supports(p) {
            text +=
                &format!("  {:<26} exact optimum with certificate (ILP, good_lp + microlp)\n", "ilp | exact");
            text += &format!("  {:<26} exact optimum with certificate (SMT, z3)\n", "smt");
        }
    }
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}
