//! The command-line interface: one small function per subcommand, all on the library's one
//! pipeline ([`commsched::compare::assess`]). Exit codes are a contract: 0 admissible / solved,
//! 1 inadmissible schedule, 2 bad input or error, 3 a report written with some instance files
//! unassessable (their rows carry the error).

pub mod args;
mod bench;
mod check;
mod decide;
mod results;
mod sweep;
mod topology;

use args::{BackendArg, Cli, Command, Format, GenArgs, Limits, RatioFamily, Style};
use commsched::bounds::{self, Bound};
use commsched::certify::Certificate;
use commsched::checker::Producer;
use commsched::compare::assess::{Answer, ExactAnswer};
use commsched::compare::ratios;
use commsched::compare::report::{self, Entry, Report, RunInfo};
use commsched::compare::{Algorithms, AssessOptions, Assessment, Attached, Status, assess};
use commsched::error::{Error, InputError, Result};
use commsched::exact::{self, BackendChoice, BackendKind, SolveOptions, encode};
use commsched::heuristics;
use commsched::proof::folder;
use commsched::spec::io::{
    certificate_folder, instance_files, instance_to_toml, is_xml, load_instance, load_schedule,
    paper_schedule_file, schedule_to_json,
};
use commsched::spec::limits::Resource;
use commsched::spec::msccl;
use commsched::spec::{Family, Instance, ProblemKind, Schedule};
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
            violations_omitted: 0,
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
    for (resource, limit) in [
        (Resource::Nodes, cli.max_nodes),
        (Resource::Items, cli.max_items),
        (Resource::Events, cli.max_events),
        (Resource::CompactEvents, cli.max_compact_events),
    ] {
        resource.set_limit(limit);
    }
    refuse_format(&cli.command, format)?;
    match cli.command {
        Command::Check { instance, schedule, max_violations, reading, network, collective } => {
            let msccl =
                check::MscclFlags { reading, network: network.as_deref(), collective: collective.as_deref() };
            check::check(&instance, schedule.as_deref(), max_violations, &msccl, format, &mut out)
        }
        Command::Draw { instance, schedule, out: file, style } => {
            draw(&instance, &schedule, &file, style, &mut out)
        }
        Command::Bounds { instance } => bounds_cmd(&instance, format, &mut out),
        Command::Solve {
            instance,
            method,
            limits,
            out: file,
            certificate,
            steps: Some(steps),
            rounds,
            incumbent,
        } => {
            if incumbent.is_some() {
                return Err(InputError::new(
                    "<flags>",
                    "--incumbent",
                    "starts a search; --steps decides one point",
                )
                .into());
            }
            let files = (file.as_deref(), certificate.as_deref());
            decide::decide(&instance, &method, (steps, rounds), &limits, files, format, &mut out)
        }
        Command::Topology { network, out: svg } => {
            topology::topology(&network, svg.as_deref(), format, &mut out)
        }
        Command::Pareto { target, network, root, max_chunks, method, limits, certificate } => {
            let args = decide::ParetoArgs {
                target: &target,
                network: network.as_deref(),
                root,
                max_chunks,
                method: &method,
                limits: &limits,
                certificate: certificate.as_deref(),
            };
            decide::pareto(&args, format, &mut out)
        }
        Command::Solve {
            instance, method, limits, out: file, certificate, incumbent, steps: None, ..
        } => {
            let files = SolveFiles {
                out: file.as_deref(),
                certificate: certificate.as_deref(),
                incumbent: incumbent.as_deref(),
            };
            solve(&instance, &method, &limits, files, format, &mut out)
        }
        Command::Verify { dir } => verify(&dir, &mut out),
        Command::Export { paths, backend, out: dir, horizon, max_vars } => {
            export(&paths, backend, &dir, horizon, max_vars, &mut out)
        }
        Command::Gen(g) => {
            let inst = generate(&g)?;
            write!(out, "{}", instance_to_toml(&inst)).map_err(io_err("<stdout>"))?;
            Ok(0)
        }
        Command::Report { paths, out: dir, backend: b, no_exact, limits, jobs, shard, cache } => report_cmd(
            &paths,
            dir.as_deref(),
            (!no_exact).then(|| b.map_or(BackendChoice::Measured, |b| backend(b).into())),
            &limits,
            (jobs, shard.as_deref(), cache.as_deref()),
            format,
            &mut out,
        ),
        Command::Merge { files, out: dir } => {
            let report = results::merge(&files)?;
            write_report(&report, dir.as_deref(), format, &mut out)?;
            Ok(if report.failed > 0 { 3 } else { 0 })
        }
        Command::List => list(format, &mut out),
        Command::Ratios { family, count, seed, messages, max_len, backend: b, limits, out: dir } => {
            let solve = solve_options(&limits)?;
            let options = family.iter().map(|&f| ratios::RatioOptions {
                family: ratio_family(f),
                count,
                seed,
                messages,
                max_len,
                backend: backend(b),
                solve: solve.clone(),
            });
            ratios_cmd(options.collect(), dir.as_deref(), &mut out)
        }
        Command::Bench {
            sizes,
            trees,
            messages,
            exact_draws,
            tree_draws,
            exact: run_exact,
            instances,
            timeout,
            msccl: files,
        } => {
            if !files.is_empty() {
                return bench::msccl(&files, &mut out);
            }
            let limits = Limits { timeout, max_vars: exact::DEFAULT_MAX_VARIABLES, no_symmetry: false };
            let timeout = solve_options(&limits)?.timeout.expect("solve_options sets a timeout");
            if run_exact {
                bench::exact(&instances, timeout.as_secs_f64(), &mut out)
            } else {
                let chatting = bench::Chatting { messages, exact_draws, tree_draws, exact_timeout: timeout };
                bench::run(&sizes, &trees, cli.max_events, &chatting, format, &mut out)
            }
        }
        Command::Sweep { family: args::SweepFamily::FatTree, out: dir, max_log, capacities } => {
            sweep::run(&capacities, max_log, cli.max_nodes, &dir, &mut out)
        }
    }
}

/// Refuses a `--format` a command cannot honour, naming the flag: `csv` is a report table,
/// `gen` writes a TOML instance, `export` and `draw` write files.
fn refuse_format(command: &Command, format: Format) -> Result<()> {
    let (name, takes): (&str, &[Format]) = match command {
        Command::Report { .. } => ("report", &[Format::Text, Format::Json, Format::Markdown, Format::Csv]),
        Command::Merge { .. } => ("merge", &[Format::Text, Format::Json, Format::Markdown, Format::Csv]),
        Command::Gen(_) => ("gen", &[Format::Text]),
        Command::Export { .. } => ("export", &[Format::Text]),
        Command::Draw { .. } => ("draw", &[Format::Text]),
        Command::Check { .. } => ("check", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Bounds { .. } => ("bounds", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Solve { .. } => ("solve", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Pareto { .. } => ("pareto", &[Format::Text, Format::Json]),
        Command::Topology { .. } => ("topology", &[Format::Text, Format::Json]),
        Command::List => ("list", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Bench { exact: true, .. } => ("bench --exact", &[Format::Text]),
        Command::Bench { msccl, .. } if !msccl.is_empty() => ("bench --msccl", &[Format::Text]),
        Command::Bench { .. } => ("bench", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Verify { .. } => ("verify", &[Format::Text]),
        // It prints its CSV table either way and writes the CSV and SVG files.
        Command::Sweep { .. } => ("sweep", &[Format::Text, Format::Csv]),
        Command::Ratios { .. } => ("ratios", &[Format::Text, Format::Markdown]),
    };
    if takes.contains(&format) {
        return Ok(());
    }
    let names: Vec<&str> = takes.iter().map(|f| f.name()).collect();
    Err(InputError::new(
        "<flags>",
        "--format",
        format!("`{}` is not an output of {name}, which prints {}", format.name(), names.join(", ")),
    )
    .into())
}

fn io_err(path: &str) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_string(), source }
}

fn ratio_family(f: RatioFamily) -> ratios::Family {
    match f {
        RatioFamily::Ula => ratios::Family::Ula,
        RatioFamily::Path => ratios::Family::Path,
        RatioFamily::Esm => ratios::Family::Esm,
        RatioFamily::Mesh => ratios::Family::Mesh,
        RatioFamily::Tree => ratios::Family::Tree,
    }
}

/// `ratios`: validates every family's options first (so a bad flag fails at once), measures
/// each family, prints the Markdown table and with `--out` writes the table, the CSV, one chart
/// per family and every counterexample instance.
fn ratios_cmd(options: Vec<ratios::RatioOptions>, dir: Option<&Path>, out: &mut dyn Write) -> Result<u8> {
    for o in &options {
        o.validate()?;
    }
    let runs = options.iter().map(ratios::measure).collect::<Result<Vec<_>>>()?;
    ratios::write_markdown(&runs, out).map_err(io_err("<stdout>"))?;
    let Some(dir) = dir else { return Ok(0) };
    let write = |name: &str, text: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_err(&path.display().to_string()))
    };
    std::fs::create_dir_all(dir.join("counterexamples")).map_err(io_err(&dir.display().to_string()))?;
    let mut md = Vec::new();
    ratios::write_markdown(&runs, &mut md).map_err(io_err("ratios.md"))?;
    write("ratios.md", &md)?;
    let mut csv = Vec::new();
    ratios::write_csv(&runs, &mut csv).map_err(io_err("ratios.csv"))?;
    write("ratios.csv", &csv)?;
    for run in &runs {
        write(&format!("ratios-{}.svg", run.options.family.name()), ratios::chart(run).to_svg().as_bytes())?;
        for c in run.rows.iter().flat_map(|r| &r.violations) {
            write(
                &format!("counterexamples/{}.toml", c.instance.name),
                instance_to_toml(&c.instance).as_bytes(),
            )?;
        }
    }
    Ok(0)
}

fn backend(b: BackendArg) -> BackendKind {
    match b {
        BackendArg::Ilp => BackendKind::Ilp,
        BackendArg::Smt => BackendKind::Smt,
        BackendArg::Sat => BackendKind::Sat,
    }
}

/// The longest `--timeout` accepted, in seconds (about 115 days).
const MAX_TIMEOUT: f64 = 1e7;

fn solve_options(limits: &Limits) -> Result<SolveOptions> {
    let typed = &limits.timeout;
    let seconds =
        typed.trim().parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= MAX_TIMEOUT).ok_or_else(|| {
            InputError::new(
                "<flags>",
                "--timeout",
                format!("`{typed}` is not a number of seconds in (0, {MAX_TIMEOUT:e}]"),
            )
        })?;
    Ok(SolveOptions {
        timeout: Some(Duration::from_secs_f64(seconds)),
        max_variables: limits.max_vars,
        proof_dir: None,
        symmetric: !limits.no_symmetry,
    })
}

fn print_summary(s: &Summary, format: Format, out: &mut dyn Write) -> Result<()> {
    let text = match format {
        Format::Json => serde_json::to_string_pretty(s).expect("summary serialises") + "\n",
        Format::Text | Format::Markdown | Format::Csv => {
            let mut t = format!("{}: {} ", s.instance, s.method);
            match s.status.as_str() {
                "inadmissible" => {
                    let n = s.violations.len() + s.violations_omitted;
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

/// Attributes an error about an instance (file left empty by the library) to its file.
fn in_file(file: &Path) -> impl Fn(Error) -> Error + '_ {
    move |e| match e {
        Error::Input(i) if i.file.is_empty() => Error::Input(i.in_file(file.display().to_string())),
        e => e,
    }
}

/// `draw`: the checked schedule as a space-time diagram; prints the verdict it drew.
fn draw(instance: &Path, schedule: &Path, file: &Path, style: Style, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let sched = load_schedule(schedule, &inst)?;
    let d = commsched::draw::diagram(&inst, &sched).map_err(in_file(instance))?;
    let svg = match style {
        Style::SpaceTime => Ok(d.to_svg()),
        Style::DotWire => commsched::draw::paper::dot_wire(&inst, &sched, &d),
        Style::Parallelogram => commsched::draw::paper::parallelograms(&inst, &d),
    }
    .map_err(in_file(instance))?;
    std::fs::write(file, svg).map_err(io_err(&file.display().to_string()))?;
    writeln!(
        out,
        "wrote {} ({}; {} cells, {} marked)",
        file.display(),
        d.title,
        d.cells.len(),
        d.marks.len()
    )
    .map_err(io_err("<stdout>"))?;
    Ok(0)
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
/// The exact backend a `--method` names, `None` for an algorithm.
fn exact_choice(method: &str) -> Option<BackendChoice> {
    match method {
        "exact" => Some(BackendChoice::Measured),
        "ilp" => Some(BackendKind::Ilp.into()),
        "smt" => Some(BackendKind::Smt.into()),
        "sat" => Some(BackendKind::Sat.into()),
        _ => None,
    }
}

fn assess_options(method: &str, limits: &Limits) -> Result<AssessOptions> {
    let exact = exact_choice(method);
    let algorithms = match exact {
        Some(_) => Algorithms::Applicable,
        None => Algorithms::Only(heuristics::find(method).ok_or_else(|| {
            InputError::new(
                "<flags>",
                "--method",
                format!(
                    "unknown method `{method}`: an algorithm `commsched list` names, or exact, ilp, smt, sat"
                ),
            )
        })?),
    };
    Ok(AssessOptions { algorithms, exact, solve: solve_options(limits)?, fail_fast: true })
}

/// The files of `solve`: where the schedule and the certificate folder go, and a schedule to
/// start the exact search from.
struct SolveFiles<'a> {
    out: Option<&'a Path>,
    certificate: Option<&'a Path>,
    incumbent: Option<&'a Path>,
}

fn solve(
    instance: &Path,
    method: &str,
    limits: &Limits,
    files: SolveFiles<'_>,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let SolveFiles { out: file, certificate: certificate_dir, incumbent } = files;
    let inst = load_instance(instance)?;
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
        Some(path) => Some(load_schedule(path, &inst)?),
        None => None,
    };
    if let Some(dir) = certificate_dir {
        std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
        options.solve.proof_dir = Some(dir.to_path_buf());
    }
    let start = std::time::Instant::now();
    let attached = Attached { incumbent: incumbent_file.as_deref().zip(incumbent), ..Attached::default() };
    let a = assess(&inst, attached, &options).map_err(in_file(instance))?;
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
    let summary = Summary::new(&inst.name, &label, &a.answer, Vec::new());
    if let (Some(path), Some(best)) = (file, &a.best) {
        let text = if is_xml(path) {
            msccl::to_xml(&inst, best.schedule())
        } else {
            schedule_to_json(&inst, best.schedule()).map(|json| json + "\n").map_err(Error::from)
        }
        .map_err(in_file(instance))?;
        std::fs::write(path, text).map_err(io_err(&path.display().to_string()))?;
    }
    print_summary(&summary, format, out)?;
    if let Some(dir) = certificate_dir {
        match (&a.best, &a.answer.certificate) {
            (Some(best), Some(c)) => {
                folder::write(dir, &inst, best, c, &a.lower_bounds, seconds)?;
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

/// Who produced the answer's witness when the backend did not: the incumbent, an algorithm by
/// its name or a user's schedule (`--incumbent`) as `schedule FILE`.
fn incumbent_name(a: &Assessment) -> Option<String> {
    match a.answer.producer.as_ref()? {
        Producer::Algorithm(name) => Some(name.to_string()),
        producer @ Producer::User(_) => Some(producer.to_string()),
        _ => None,
    }
}

/// `verify DIR`: every failure on its own line, exit 1 if there is any.
fn verify(dir: &Path, out: &mut dyn Write) -> Result<u8> {
    let failures = folder::verify(dir);
    let text = if failures.is_empty() {
        format!("{}: valid certificate\n", dir.display())
    } else {
        let mut t = format!("{}: invalid certificate\n", dir.display());
        for f in &failures {
            t += &format!("  {f}\n");
        }
        t
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(if failures.is_empty() { 0 } else { 1 })
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
        inst.guard_events().map_err(|e| Error::Input(e.in_file(file.display().to_string())))?;
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
    assess(inst, Attached::default(), &options).ok()?.best.map(|c| c.length())
}

/// Builds the instance `commsched gen` writes ([`commsched::generate`]).
pub fn generate(g: &GenArgs) -> Result<Instance> {
    commsched::generate::generate(&g.request())
}

/// One instance file assessed for `report`; bad input becomes the entry's error.
fn report_entry(file: &Path, options: &AssessOptions) -> Entry {
    let assessed = (|| -> Result<Assessment> {
        let inst = load_instance(file)?;
        let paper_file = paper_schedule_file(file);
        let paper_name = paper_file.as_ref().map(|p| p.display().to_string());
        let paper = match &paper_file {
            Some(p) => Some(load_schedule(p, &inst)?),
            None => None,
        };
        let certificate = certificate_folder(file);
        let attached = Attached {
            paper: paper_name.as_deref().zip(paper),
            certificate: certificate.as_deref(),
            incumbent: None,
        };
        assess(&inst, attached, options).map_err(in_file(file))
    })();
    let (assessment, error) = match assessed {
        Ok(a) => (Some(a), None),
        Err(e) => (None, Some(e.to_string())),
    };
    Entry { file: file.display().to_string(), error, assessment }
}

/// The git commit of the working directory, or `unknown`.
fn git_commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".into(), |s| s.trim().to_string())
}

/// `--shard I/N` as (I, N), with 0 ≤ I < N.
fn parse_shard(text: &str) -> Result<(usize, usize)> {
    text.split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse::<usize>().ok()?, n.trim().parse::<usize>().ok()?)))
        .filter(|&(i, n)| i < n)
        .ok_or_else(|| {
            InputError::new("<flags>", "--shard", format!("`{text}` is not I/N with 0 ≤ I < N")).into()
        })
}

/// Progress of a long `report` on stderr: a bar with a count and an ETA redrawn in place when
/// stderr is a terminal, one plain line per finished file otherwise (logs, batch jobs).
struct Progress {
    total: usize,
    start: std::time::Instant,
    bar: bool,
    done: std::sync::Mutex<usize>,
}

impl Progress {
    fn new(total: usize) -> Self {
        use std::io::IsTerminal;
        let bar = std::io::stderr().is_terminal();
        Self { total, start: std::time::Instant::now(), bar, done: std::sync::Mutex::new(0) }
    }

    /// Reports one finished file (`index` in input order; `cached`: read back from the cache).
    fn finished(&self, index: usize, file: &Path, entry: &Entry, cached: bool) {
        let mut done = self.done.lock().expect("no thread panics while printing progress");
        *done += 1;
        if self.bar {
            let eta = self.start.elapsed().as_secs_f64() / *done as f64 * (self.total - *done) as f64;
            let filled = 30 * *done / self.total.max(1);
            eprint!(
                "\r\x1b[K[{}{}] {}/{} ETA {:.0} s  {}",
                "#".repeat(filled),
                " ".repeat(30 - filled),
                *done,
                self.total,
                eta,
                file.display()
            );
            if *done == self.total {
                eprintln!();
            }
        } else {
            let status = match (&entry.error, &entry.assessment) {
                (Some(e), _) => format!("ERROR: {e}"),
                (None, Some(a)) if cached => format!("{} ({:.2} s, cached)", a.answer.status, a.seconds),
                (None, Some(a)) => format!("{} ({:.2} s)", a.answer.status, a.seconds),
                (None, None) => String::new(),
            };
            eprintln!("[{}/{}] {}: {status}", index + 1, self.total, file.display());
        }
    }
}

/// Assesses `files` on `jobs` threads, results in input order, with [`Progress`] on stderr;
/// with a cache, a file whose result is cached is read back instead, and every new result is
/// stored as soon as it is known.
fn assess_all(
    files: &[PathBuf],
    options: &AssessOptions,
    jobs: usize,
    cache: Option<&results::Cache>,
) -> Vec<Entry> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let progress = Progress::new(files.len());
    let slots: Vec<std::sync::Mutex<Option<Entry>>> = files.iter().map(|_| Default::default()).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, files.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(file) = files.get(i) else { break };
                    let slot = cache.map(|c| (c, c.slot(file)));
                    let cached = slot.as_ref().and_then(|(c, s)| c.load(file, s));
                    let from_cache = cached.is_some();
                    let entry = cached.unwrap_or_else(|| report_entry(file, options));
                    if let Some((c, s)) = slot.as_ref().filter(|_| !from_cache)
                        && let Err(e) = c.store(file, s, &entry)
                    {
                        eprintln!("commsched: note: result of {} not cached: {e}", file.display());
                    }
                    progress.finished(i, file, &entry, from_cache);
                    *slots[i].lock().expect("no thread panics holding a slot") = Some(entry);
                }
            });
        }
    });
    slots.into_iter().filter_map(|s| s.into_inner().expect("no thread panics holding a slot")).collect()
}

fn report_cmd(
    paths: &[PathBuf],
    dir: Option<&Path>,
    exact: Option<BackendChoice>,
    limits: &Limits,
    (jobs, shard, cache): (usize, Option<&str>, Option<&Path>),
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let shard = shard.map(parse_shard).transpose()?;
    let default = [PathBuf::from("instances")];
    let paths = if paths.is_empty() { &default[..] } else { paths };
    let options = AssessOptions {
        algorithms: Algorithms::Applicable,
        exact,
        solve: solve_options(limits)?,
        fail_fast: false,
    };
    let files: Vec<PathBuf> = instance_files(paths)?
        .into_iter()
        .enumerate()
        .filter(|(k, _)| shard.is_none_or(|(i, n)| k % n == i))
        .map(|(_, (_, f))| f)
        .collect();
    let run = RunInfo {
        version: env!("CARGO_PKG_VERSION").into(),
        commit: git_commit(),
        backend: options.exact.map(|k| k.name().to_string()),
        timeout_seconds: options.solve.timeout.map_or(0.0, |t| t.as_secs_f64()),
        cores: std::thread::available_parallelism().map_or(1, usize::from),
        os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
    };
    let cache = cache.map(|d| results::Cache::open(d, &run, &options)).transpose()?;
    let report = Report::new(run, assess_all(&files, &options, jobs, cache.as_ref()));
    write_report(&report, dir, format, out)?;
    Ok(if report.failed > 0 { 3 } else { 0 })
}

/// Writes a report: every format and the pictures into `dir`, or `format` to `out`.
fn write_report(report: &Report, dir: Option<&Path>, format: Format, out: &mut dyn Write) -> Result<()> {
    match dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(io_err(&d.display().to_string()))?;
            for (name, w) in report::FILES {
                let path = d.join(name);
                let mut file = std::fs::File::create(&path).map_err(io_err(&path.display().to_string()))?;
                w(report, &mut file).map_err(io_err(&path.display().to_string()))?;
                writeln!(out, "wrote {}", path.display()).map_err(io_err("<stdout>"))?;
            }
            write_pictures(report, d, out)
        }
        None => match format {
            Format::Text => report::write_text(report, out),
            Format::Markdown => report::write_markdown(report, out),
            Format::Json => report::write_json(report, out),
            Format::Csv => report::write_csv(report, out),
        }
        .map_err(io_err("<stdout>")),
    }
}

/// `report --out DIR`'s pictures: the per-problem plots and a space-time diagram of each
/// instance's best checked schedule (`diagrams/NAME.svg`, where [`commsched::draw`] can draw
/// it and it has at most [`report::MAX_DIAGRAM_CELLS`] cells), linked from report.md.
fn write_pictures(report: &Report, dir: &Path, out: &mut dyn Write) -> Result<()> {
    let write = |name: &str, text: &str| -> Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_err(&path.display().to_string()))
    };
    let plots = report::plots(report);
    for (name, svg) in &plots {
        write(name, svg)?;
    }
    std::fs::create_dir_all(dir.join("diagrams"))
        .map_err(io_err(&dir.join("diagrams").display().to_string()))?;
    let mut diagrams = Vec::new();
    for e in &report.instances {
        let Some(a) = &e.assessment else { continue };
        let Some(best) = &a.best else {
            let why = match a.answer.length.or(a.answer.upper_bound) {
                // Read back by `merge`: report.json holds lengths, not schedules.
                Some(_) => "its schedule is not in report.json (`report --cache` keeps it)",
                None => "no checked schedule",
            };
            diagrams.push((a.instance.clone(), Err(why.to_string())));
            continue;
        };
        // Each picture's file, or why there is none.
        let mut picture =
            |label: String, name: String, svg: std::result::Result<String, String>| -> Result<()> {
                let file = match svg {
                    Ok(svg) => write(&name, &svg).map(|()| Ok(name))?,
                    Err(why) => Err(why),
                };
                diagrams.push((label, file));
                Ok(())
            };
        let drawn = load_instance(Path::new(&e.file)).map_err(|e| e.to_string()).and_then(|inst| {
            let d = match best.schedule().entries() {
                // Every entry draws at least one cell: too many, before anything is expanded.
                n if n > report::MAX_DIAGRAM_CELLS => {
                    Err(format!("{n} cells or more, over {}", report::MAX_DIAGRAM_CELLS))
                }
                _ => commsched::draw::diagram(&inst, best.schedule()).map_err(|e| e.to_string()),
            }?;
            match d.cells.len() {
                n if n > report::MAX_DIAGRAM_CELLS => {
                    Err(format!("{n} cells, over {}", report::MAX_DIAGRAM_CELLS))
                }
                _ => Ok((inst, d)),
            }
        });
        let name = format!("diagrams/{}.svg", a.instance);
        picture(a.instance.clone(), name, drawn.as_ref().map(|(_, d)| d.to_svg()).map_err(Clone::clone))?;
        // The papers' own pictures where they draw one: dot-wire (003), parallelograms (000).
        let Ok((inst, d)) = &drawn else { continue };
        let paper = match (inst.network.family(), best.schedule()) {
            (Family::Path(_) | Family::Ring(_), Schedule::StoreForward(_))
                if a.problem == ProblemKind::Gossip =>
            {
                Some(("dot-wire", commsched::draw::paper::dot_wire(inst, best.schedule(), d)))
            }
            (Family::Ula(_), Schedule::Bufferless { .. }) => {
                Some(("parallelograms", commsched::draw::paper::parallelograms(inst, d)))
            }
            _ => None,
        };
        if let Some((style, svg)) = paper {
            let name = format!("diagrams/{}.{style}.svg", a.instance);
            picture(format!("{} ({style})", a.instance), name, svg.map_err(|e| e.to_string()))?;
        }
    }
    let md = dir.join("report.md");
    let mut file =
        std::fs::OpenOptions::new().append(true).open(&md).map_err(io_err(&md.display().to_string()))?;
    let names: Vec<String> = plots.into_iter().map(|(n, _)| n).collect();
    report::write_pictures(&names, &diagrams, &mut file).map_err(io_err(&md.display().to_string()))?;
    let drawn = diagrams.iter().filter(|(_, f)| f.is_ok()).count();
    writeln!(out, "wrote {} plots and {drawn} diagrams in {}", names.len(), dir.display())
        .map_err(io_err("<stdout>"))?;
    Ok(())
}

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

fn list(format: Format, out: &mut dyn Write) -> Result<u8> {
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
