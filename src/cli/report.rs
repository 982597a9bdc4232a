//! `report [PATHS] [--out DIR]`: the bound-gap report of every instance file, on `--jobs`
//! threads, sharded and cached on request; `merge` writes a report from shards' results.

use super::args::{Format, Limits};
use super::{in_file, io_err, results, solve_options};
use commsched::compare::report::{self, Entry, Report, RunInfo};
use commsched::compare::{Algorithms, AssessOptions, Assessment, Attached, assess};
use commsched::compare::{html, plots, scale};
use commsched::error::Result;
use commsched::exact::BackendChoice;
use commsched::msccl::load_schedule;
use commsched::shard::Shard;
use commsched::spec::io::{
    certificate_folder, instance_files, load_instance, machine_lists, paper_schedule_file,
};
use commsched::spec::{Family, ProblemKind, Schedule};
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// `report`: assesses every instance file under `paths` (default `instances/`) and writes the
/// report; exit code 3 when some file could not be assessed.
pub(super) fn report(
    paths: &[PathBuf],
    dir: Option<&Path>,
    exact: Option<BackendChoice>,
    limits: &Limits,
    (jobs, shard, cache): (usize, Option<&str>, Option<&Path>),
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let shard = shard.map(Shard::parse).transpose()?.unwrap_or(Shard::WHOLE);
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
        .filter(|&(k, _)| shard.holds(k))
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
    let lists: Vec<PathBuf> = machine_lists(paths)?
        .into_iter()
        .enumerate()
        .filter(|&(k, _)| shard.holds(k))
        .map(|(_, f)| f)
        .collect();
    let cache = cache.map(|d| results::Cache::open(d, &run, &options)).transpose()?;
    let entries = assess_all(&files, &options, jobs, cache.as_ref());
    let scale = lists
        .iter()
        .map(|f| {
            let table = scale::assess(f, options.solve.timeout);
            eprintln!(
                "{}: machines at scale {}",
                f.display(),
                table.error.as_deref().map_or("assessed", |_| "not assessed")
            );
            table
        })
        .collect();
    let report = Report::new(run, entries).with_scale(scale);
    write_report(&report, dir, format, out)?;
    Ok(if report.failed > 0 { 3 } else { 0 })
}

/// Writes a report: every format and the pictures into `dir`, or `format` to `out`.
pub(super) fn write_report(
    report: &Report,
    dir: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
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

/// `report --out DIR`'s pictures and report.html: the plots ([`plots::plots`]: per problem and
/// family, the gap plots, the machines at scale) and a space-time diagram of each instance's
/// best checked schedule (`diagrams/NAME.svg`, where [`commsched::draw`] can draw it and it has
/// at most [`report::MAX_DIAGRAM_CELLS`] cells), linked from report.md, then report.html with
/// the plots inline.
fn write_pictures(report: &Report, dir: &Path, out: &mut dyn Write) -> Result<()> {
    let write = |name: &str, text: &str| -> Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_err(&path.display().to_string()))
    };
    let plots = plots::plots(&report.assessments(), &report.scale);
    for p in &plots {
        write(&p.file, &p.svg)?;
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
    let names: Vec<String> = plots.iter().map(|p| p.file.clone()).collect();
    report::write_pictures(&names, &diagrams, &mut file).map_err(io_err(&md.display().to_string()))?;
    let page = dir.join("report.html");
    let mut html_file = std::fs::File::create(&page).map_err(io_err(&page.display().to_string()))?;
    html::write_html(report, &plots, &diagrams, &mut html_file)
        .map_err(io_err(&page.display().to_string()))?;
    writeln!(out, "wrote {}", page.display()).map_err(io_err("<stdout>"))?;
    let drawn = diagrams.iter().filter(|(_, f)| f.is_ok()).count();
    writeln!(out, "wrote {} plots and {drawn} diagrams in {}", names.len(), dir.display())
        .map_err(io_err("<stdout>"))?;
    Ok(())
}
