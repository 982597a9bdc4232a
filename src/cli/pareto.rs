//! `pareto` (SCCL's latency–bandwidth frontier walked with a certificate per point,
//! docs/spec.md §4.5), one shard of it by C (`pareto --shard I/N`, which leaves its summary
//! beside its folders), and `merge` of the shards' summaries into the walk one machine makes,
//! every folder re-checked (§4.5, "Walks in shards").

use super::args::{Format, Limits};
use super::decide::{collective_base, exact_backend};
use super::solve::write_schedule;
use super::{STOPPED, io_err, solve_options};
use commsched::bounds::collective::{RoundsPerChunk, rounds_per_chunk};
use commsched::bounds::lower_bounds;
use commsched::checker::collective::ratio;
use commsched::error::{Error, InputError, Result};
use commsched::exact::StopReason;
use commsched::exact::pareto::{self, Frontier, ParetoPoint, Refuted, Walk, WalkOptions};
use commsched::folder;
use commsched::msccl::XmlOptions;
use commsched::shard::Shard;
use commsched::spec::io::{instance_to_toml, load_instance};
use commsched::spec::{Instance, InstanceFile};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The summary a shard writes into its folder: what it prints with `--format json`.
const SUMMARY: &str = "walk.json";

/// One point of `pareto --format json`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct PointJson {
    steps: u64,
    rounds: u64,
    chunks: usize,
    /// R/C as a fraction.
    rounds_per_chunk: String,
    /// Why S − 1 steps do not fit in R rounds.
    certificate: String,
    /// Not dominated by another point (`null`: the walk stopped before deciding a point that
    /// could dominate it).
    pareto: Option<bool>,
    folder: Option<String>,
    /// Its MSCCL file, with `--xml`.
    xml: Option<String>,
}

/// One refuted (C, R) of `pareto --format json`.
#[derive(Debug, Serialize, Deserialize)]
struct RefutedJson {
    /// The horizon refuted: R (no schedule within R rounds has more steps).
    steps: u64,
    rounds: u64,
    chunks: usize,
    certificate: String,
    folder: Option<String>,
}

/// The (C, R) a stopped walk left undecided first, and why.
#[derive(Debug, Serialize, Deserialize)]
struct StoppedJson {
    chunks: usize,
    rounds: u64,
    reason: StopReason,
}

/// Which C a shard walked: those of 1..=`max_chunks` that `shard` holds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct ShardJson {
    #[serde(flatten)]
    shard: Shard,
    max_chunks: usize,
}

/// What `pareto --format json` prints, and what a shard leaves in `DIR/walk.json`.
#[derive(Debug, Serialize, Deserialize)]
struct ParetoJson {
    instance: String,
    method: String,
    /// The lower bound on R/C and its name.
    bound: String,
    bound_name: String,
    /// Why the flow LP gave no bound (over its guard, out of its share of the time), if so.
    bound_note: Option<String>,
    points: Vec<PointJson>,
    refuted: Vec<RefutedJson>,
    /// The walk reached a point at the bound.
    complete: bool,
    stop: Option<String>,
    stopped_at: Option<StoppedJson>,
    seconds: f64,
    /// A shard's: which C it walked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<ShardJson>,
}

/// The arguments of `pareto`.
pub struct ParetoArgs<'a> {
    /// An instance file, or a collective's name with `network`.
    pub target: &'a str,
    pub network: Option<&'a str>,
    pub root: Option<usize>,
    pub max_chunks: usize,
    pub method: &'a str,
    pub limits: &'a Limits,
    pub certificate: Option<&'a Path>,
    /// Write each point as MSCCL XML under this directory, `c{C}-r{R}.xml`.
    pub xml: Option<&'a Path>,
    pub xml_options: XmlOptions,
    /// `--shard I/N`: walk only the C that shard holds.
    pub shard: Option<&'a str>,
}

/// `pareto`: SCCL's frontier of a collective, each point with its certificate; with `--shard`,
/// the C of one shard, and its summary and base instance written beside its folders.
pub fn pareto(args: &ParetoArgs<'_>, format: Format, out: &mut dyn Write) -> Result<u8> {
    let base = collective_base(args.target, args.network, args.root, "the Pareto walk")?;
    if args.max_chunks == 0 {
        return Err(InputError::new("<flags>", "--max-chunks", "at least 1").into());
    }
    let shard = args.shard.map(|text| walk_shard(text, args.max_chunks, args.certificate)).transpose()?;
    let backend = exact_backend(args.method, &base)?;
    let options = WalkOptions {
        max_chunks: args.max_chunks,
        backend,
        solve: solve_options(args.limits)?,
        folders: args.certificate.map(Path::to_path_buf),
        shard: shard.unwrap_or(Shard::WHOLE),
    };
    let start = std::time::Instant::now();
    let walk = pareto::walk(&base, &options, &mut folder::write_settled)?;
    let xml: Vec<Option<String>> = match args.xml {
        Some(dir) => point_files(dir, &base, &walk, args.xml_options)?.into_iter().map(Some).collect(),
        None => Vec::new(),
    };
    let seconds = start.elapsed().as_secs_f64();
    let shard = shard.map(|shard| ShardJson { shard, max_chunks: args.max_chunks });
    let json = to_json(&base, backend.name(), &walk, &xml, seconds, shard);
    let mut text = match format {
        Format::Json => serde_json::to_string_pretty(&json).expect("the walk serialises") + "\n",
        _ => to_text(&base, backend.name(), &walk, &xml, seconds),
    };
    if let (Some(ShardJson { shard, max_chunks }), Some(dir)) = (shard, args.certificate) {
        write_summary(dir, &base, &json)?;
        if format != Format::Json {
            let held: Vec<String> =
                (1..=max_chunks).filter(|c| shard.holds(c - 1)).map(|c| c.to_string()).collect();
            text += &format!(
                "shard {shard} of C = 1..{max_chunks}: C = {}; summary {}\n",
                held.join(", "),
                dir.join(SUMMARY).display()
            );
        }
    }
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(if walk.stop.is_some() { STOPPED } else { 0 })
}

/// `--shard I/N` of a walk up to `max_chunks`: a shard that holds some C (I < K), with a folder
/// for what `merge` reads back.
fn walk_shard(text: &str, max_chunks: usize, certificate: Option<&Path>) -> Result<Shard> {
    let shard = Shard::parse(text)?;
    let refuse = |reason: String| Err(InputError::new("<flags>", "--shard", reason).into());
    if certificate.is_none() {
        return refuse(format!(
            "`{text}` needs --certificate DIR: the shard's folders and its summary DIR/{SUMMARY} are what merge re-checks"
        ));
    }
    if shard.index >= max_chunks {
        return refuse(format!("`{text}` holds no C of 1..={max_chunks}: I is at least --max-chunks"));
    }
    Ok(shard)
}

/// Writes a shard's summary and the base instance it walked into its folder `dir`.
fn write_summary(dir: &Path, base: &Instance, json: &ParetoJson) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
    let put = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_err(&path.display().to_string()))
    };
    put(folder::INSTANCE, instance_to_toml(base))?;
    put(SUMMARY, serde_json::to_string_pretty(json).expect("the walk serialises") + "\n")
}

/// Writes every point of the walk as MSCCL XML, `dir/c{C}-r{R}.xml`, each a schedule of the
/// instance at (C, R) that export keeps with its S and R under the runtime reading.
fn point_files(dir: &Path, base: &Instance, walk: &Walk, options: XmlOptions) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
    walk.points
        .iter()
        .map(|p| {
            let path = dir.join(format!("c{}-r{}.xml", p.chunks, p.rounds));
            write_schedule(&path, &pareto::at(base, p.chunks, p.rounds), p.checked.schedule(), options)?;
            Ok(path.display().to_string())
        })
        .collect()
}

fn folder_name(dir: &Option<PathBuf>) -> Option<String> {
    dir.as_ref().map(|d| d.display().to_string())
}

/// The JSON of a walk; `xml` holds the MSCCL file of each point, by index, when it has one.
fn to_json(
    base: &Instance,
    method: &str,
    walk: &Walk,
    xml: &[Option<String>],
    seconds: f64,
    shard: Option<ShardJson>,
) -> ParetoJson {
    ParetoJson {
        instance: base.name.clone(),
        method: method.to_string(),
        bound: walk.bound.to_string(),
        bound_name: walk.bound.name.to_string(),
        bound_note: walk.bound.note.map(str::to_string),
        points: walk
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| PointJson {
                steps: p.steps(),
                rounds: p.rounds,
                chunks: p.chunks,
                rounds_per_chunk: ratio(p.rounds, p.chunks as u64),
                certificate: p.certificate.to_string(),
                pareto: match p.frontier {
                    Frontier::Yes => Some(true),
                    Frontier::No => Some(false),
                    Frontier::Unsettled => None,
                },
                folder: folder_name(&p.folder),
                xml: xml.get(i).cloned().flatten(),
            })
            .collect(),
        refuted: walk
            .refuted
            .iter()
            .map(|r| RefutedJson {
                steps: r.rounds,
                rounds: r.rounds,
                chunks: r.chunks,
                certificate: r.refutation.to_string(),
                folder: folder_name(&r.folder),
            })
            .collect(),
        complete: walk.complete(),
        stop: walk.stop.as_ref().map(StopReason::to_string),
        stopped_at: walk.stop.clone().zip(walk.stopped_at).map(|(reason, (chunks, rounds))| StoppedJson {
            chunks,
            rounds,
            reason,
        }),
        seconds,
        shard,
    }
}

fn to_text(base: &Instance, method: &str, walk: &Walk, xml: &[Option<String>], seconds: f64) -> String {
    let mut t =
        format!("{}: Pareto walk with {method}, R/C ≥ {} ({})\n", base.name, walk.bound, walk.bound.label());
    t += "   C   R  R/C   S  frontier   certificate\n";
    for p in &walk.points {
        t += &format!(
            "{:>4}{:>4}{:>5}{:>4}  {:<9}  {}\n",
            p.chunks,
            p.rounds,
            ratio(p.rounds, p.chunks as u64),
            p.steps(),
            match p.frontier {
                Frontier::Yes => "yes",
                Frontier::No => "no",
                Frontier::Unsettled => "unsettled",
            },
            p.certificate
        );
    }
    if let Some(dir) = xml.iter().flatten().next().and_then(|f| Path::new(f).parent()) {
        t += &format!("MSCCL XML of every point written to {} (cC-rR.xml)\n", dir.display());
    }
    for r in &walk.refuted {
        t += &format!("refuted (C, R) = ({}, {}): {}\n", r.chunks, r.rounds, r.refutation);
    }
    t += &match (&walk.stop, walk.complete()) {
        (Some(stop), _) => match walk.stopped_at {
            Some((c, r)) => format!("stopped: {stop}, (C, R) = ({c}, {r}) and on undecided"),
            None => format!("stopped: {stop}"),
        },
        (None, true) => "complete: the last point meets the bound".to_string(),
        (None, false) => "ended at --max-chunks before a point met the bound".to_string(),
    };
    t + &format!(" [{seconds:.2} s]\n")
}

/// Whether `path` is a shard of a walk (its folder, or the summary in it) rather than a report:
/// `merge` joins shards of one kind.
pub(super) fn is_walk(path: &Path) -> bool {
    path.is_dir() || std::fs::read_to_string(path).is_ok_and(|text| names_shard(&text))
}

/// Whether a JSON text holds a `shard` object, as a shard's summary does.
fn names_shard(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| v.get("shard").is_some_and(serde_json::Value::is_object))
}

/// What a shard decided at one C: the R refuted, in order, and the point (R, S) it reached.
type Column = (Vec<u64>, Option<(u64, u64)>);

/// One shard as `merge` reads it: its summary, the folder it lies in, and the base instance it
/// walked.
struct Part {
    file: String,
    dir: PathBuf,
    summary: ParetoJson,
    shard: Shard,
    max_chunks: usize,
    base: Instance,
}

impl Part {
    /// Reads a shard's folder (or the summary in it) and the base instance beside the summary.
    /// Errors: not a shard's summary, or one that names a C its shard does not hold.
    fn read(path: &Path) -> Result<Part> {
        let file = if path.is_dir() { path.join(SUMMARY) } else { path.to_path_buf() };
        let name = file.display().to_string();
        let fault = |field: &str, reason: String| -> Error { InputError::new(&name, field, reason).into() };
        let text = std::fs::read_to_string(&file).map_err(io_err(&name))?;
        if !names_shard(&text) {
            return Err(fault(
                "shard",
                format!(
                    "absent: not a shard's summary (`pareto --shard I/N --certificate DIR` writes DIR/{SUMMARY}) but a report or a whole walk; merge joins the shards of walks or of reports, not both"
                ),
            ));
        }
        let summary: ParetoJson = serde_json::from_str(&text)
            .map_err(|e| fault("", format!("not the summary of a shard of a walk: {e}")))?;
        let ShardJson { shard, max_chunks } = summary.shard.expect("names_shard saw the shard object");
        if shard.index >= shard.count {
            return Err(fault("shard", format!("{shard} is not I/N with 0 ≤ I < N")));
        }
        let stray = (summary.points.iter().map(|p| p.chunks))
            .chain(summary.refuted.iter().map(|r| r.chunks))
            .chain(summary.stopped_at.as_ref().map(|s| s.chunks))
            .find(|&c| c == 0 || c > max_chunks || !shard.holds(c - 1));
        if let Some(c) = stray {
            return Err(fault("points", format!("C = {c} is not shard {shard}'s of 1..={max_chunks}")));
        }
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let base = load_instance(&dir.join(folder::INSTANCE))?;
        Ok(Part { file: name, dir, summary, shard, max_chunks, base })
    }

    fn fault(&self, field: &str, reason: String) -> Error {
        InputError::new(&self.file, field, reason).into()
    }

    fn column(&self, c: usize) -> Column {
        let refuted = self.summary.refuted.iter().filter(|r| r.chunks == c).map(|r| r.rounds).collect();
        let point = self.summary.points.iter().find(|p| p.chunks == c).map(|p| (p.rounds, p.steps));
        (refuted, point)
    }

    /// The shard's decisions at C, each folder re-checked as the certificate of the instance
    /// at (C, R): the R refuted from ⌈ρ·C⌉ on, in turn, then the point at the next R (none
    /// where the shard stopped at that R).
    fn decisions(&self, c: usize, bound: &RoundsPerChunk) -> Result<(Vec<Refuted>, Option<ParetoPoint>)> {
        let (rounds, point) = self.column(c);
        let least = bound.least_rounds(c);
        let next = least + rounds.len() as u64;
        let stopped = self.summary.stopped_at.as_ref().filter(|s| s.chunks == c).map(|s| s.rounds);
        if rounds.iter().zip(least..).any(|(&r, expected)| r != expected)
            || point.map(|(r, _)| r).or(stopped) != Some(next)
        {
            return Err(self.fault(
                "refuted",
                format!(
                    "C = {c}: {}; a walk refutes R = {least}, {}, … in turn until the point",
                    describe(&(rounds, point)),
                    least + 1
                ),
            ));
        }
        let folder_at = |r: u64| self.dir.join(format!("c{c}-r{r}"));
        let refused = |dir: &Path, failures: Vec<String>| -> Error {
            let more = match failures.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            let first = failures.into_iter().next().unwrap_or_default();
            InputError::new(dir.display().to_string(), "", format!("refused: {first}{more}")).into()
        };
        let refuted = rounds
            .iter()
            .map(|&r| {
                let dir = folder_at(r);
                match folder::refutation(&dir, &pareto::at(&self.base, c, r), r) {
                    Ok(refutation) => Ok(Refuted { chunks: c, rounds: r, refutation, folder: Some(dir) }),
                    Err(failures) => Err(refused(&dir, failures)),
                }
            })
            .collect::<Result<Vec<_>>>()?;
        let Some((r, steps)) = point else { return Ok((refuted, None)) };
        let (dir, inst) = (folder_at(r), pareto::at(&self.base, c, r));
        let (checked, certificate) =
            folder::attest(&dir, &inst, &lower_bounds(&inst)).map_err(|f| refused(&dir, f))?;
        if checked.length() != steps {
            return Err(self.fault(
                "points",
                format!(
                    "C = {c}: S = {steps}, and the witness of {} has {}",
                    dir.display(),
                    checked.length()
                ),
            ));
        }
        let point = ParetoPoint {
            chunks: c,
            rounds: r,
            checked,
            certificate,
            frontier: Frontier::Yes,
            folder: Some(dir),
        };
        Ok((refuted, Some(point)))
    }
}

fn describe((rounds, point): &Column) -> String {
    let point = match point {
        Some((r, s)) => format!("the point (S, R) = ({s}, {r})"),
        None => "no point".to_string(),
    };
    format!("R = {rounds:?} refuted, then {point}")
}

/// `merge SHARD...` of `pareto --shard I/N` walks: the walk one machine makes with the same
/// instance, method and `--max-chunks` (the same points, refuted (C, R), frontier and JSON
/// fields), from each C's decisions in the first shard that made them, every folder re-checked
/// ([`Part::decisions`]). Refused, naming the file: shards of different instances, methods,
/// `--max-chunks` or bounds, two shards that decided one C differently, a C that no shard
/// decided before the walk's end, and a folder that does not re-check. A shard that stopped
/// stops the joined walk at its C (exit 4). `seconds` is the shards' sum.
pub(super) fn merge(
    paths: &[PathBuf],
    out_dir: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    if let Some(dir) = out_dir {
        return Err(InputError::new(
            "<flags>",
            "--out",
            format!(
                "{}: writes a report's files; a joined walk prints its frontier (--format text or json)",
                dir.display()
            ),
        )
        .into());
    }
    if !matches!(format, Format::Text | Format::Json) {
        return Err(InputError::new(
            "<flags>",
            "--format",
            format!("`{}` is not an output of merge of walks, which prints text, json", format.name()),
        )
        .into());
    }
    let parts = paths.iter().map(|p| Part::read(p)).collect::<Result<Vec<_>>>()?;
    let Some(first) = parts.first() else {
        return Err(InputError::new("<flags>", "FILE", "merge needs at least one shard").into());
    };
    for p in &parts[1..] {
        let other = |what: &str| p.fault(what, format!("made for another {what} than {}", first.file));
        if InstanceFile::of(&p.base) != InstanceFile::of(&first.base) {
            return Err(other("instance"));
        }
        if p.summary.method != first.summary.method {
            return Err(other("method"));
        }
        if p.max_chunks != first.max_chunks {
            return Err(other("max_chunks"));
        }
    }
    let base = &first.base;
    let bound = rounds_per_chunk(&pareto::at(base, 1, 1))
        .ok_or_else(|| first.fault("bound", "some chunk cannot reach a target: no schedule exists".into()))?;
    if let Some(p) =
        parts.iter().find(|p| p.summary.bound != bound.to_string() || p.summary.bound_name != bound.name)
    {
        return Err(p.fault(
            "bound",
            format!(
                "walked from R/C ≥ {} ({}); the instance's bound is {} ({})",
                p.summary.bound, p.summary.bound_name, bound, bound.name
            ),
        ));
    }
    let mut walk = Walk { bound, points: Vec::new(), refuted: Vec::new(), stop: None, stopped_at: None };
    let mut xml = Vec::new();
    for c in 1..=first.max_chunks {
        let mut deciders = parts.iter().filter(|p| p.column(c).1.is_some());
        if let Some(p) = deciders.next() {
            let column = p.column(c);
            if let Some(q) = deciders.find(|q| q.column(c) != column) {
                return Err(q.fault(
                    "points",
                    format!(
                        "C = {c}: {}, where {} has {}",
                        describe(&q.column(c)),
                        p.file,
                        describe(&column)
                    ),
                ));
            }
            let (refuted, point) = p.decisions(c, &walk.bound)?;
            let point = point.expect("a decider has a point");
            walk.refuted.extend(refuted);
            xml.push(p.summary.points.iter().find(|q| q.chunks == c).and_then(|q| q.xml.clone()));
            let met = walk.bound.met_by(point.rounds, c);
            walk.points.push(point);
            if met {
                break;
            }
            continue;
        }
        let stopped = parts
            .iter()
            .find_map(|p| p.summary.stopped_at.as_ref().filter(|s| s.chunks == c).map(|s| (p, s)));
        let Some((p, at)) = stopped else { return Err(missing(&parts, c)) };
        walk.refuted.extend(p.decisions(c, &walk.bound)?.0);
        walk.stop = Some(at.reason.clone());
        walk.stopped_at = Some((c, at.rounds));
        break;
    }
    pareto::mark_frontier(&mut walk, base, first.max_chunks);
    let seconds = parts.iter().map(|p| p.summary.seconds).sum();
    let method = &first.summary.method;
    let text = match format {
        Format::Json => {
            serde_json::to_string_pretty(&to_json(base, method, &walk, &xml, seconds, None))
                .expect("the walk serialises")
                + "\n"
        }
        _ => to_text(base, method, &walk, &xml, seconds),
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(if walk.stop.is_some() { STOPPED } else { 0 })
}

/// Why no shard decided C before the walk's end: a shard that holds it did not get there, or
/// no shard holds it.
fn missing(parts: &[Part], c: usize) -> Error {
    if let Some(p) = parts.iter().find(|p| p.shard.holds(c - 1)) {
        let why = match &p.summary.stopped_at {
            Some(s) => format!("stopped at (C, R) = ({}, {}) before it", s.chunks, s.rounds),
            None => "did not decide it".to_string(),
        };
        return p.fault("points", format!("C = {c} is shard {}'s, which {why}", p.shard));
    }
    let mut counts: Vec<usize> = parts.iter().map(|p| p.shard.count).collect();
    counts.sort_unstable();
    counts.dedup();
    let which = match counts[..] {
        [n] => format!(": shard {}/{n} is missing", (c - 1) % n),
        _ => String::new(),
    };
    InputError::new("<shards>", "", format!("no shard holds C = {c}{which}")).into()
}
