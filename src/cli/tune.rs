//! `tune COLLECTIVE --network NET --sizes 1K..4G`: for each message size, the cheapest of every
//! certified Pareto point and every registered algorithm's checked schedule under the α–β cost
//! (`commsched::tune`), its time, algbw and busbw, the lower bound and the gap; with `--xml DIR`
//! the chosen schedules as an MSCCL algorithm set whose byte ranges tile every size.

use super::args::{Format, Limits};
use super::decide::{collective_base, exact_backend};
use super::topology::fabric_of;
use super::{io_err, solve_options};
use commsched::bandwidth::baseline::Baseline;
use commsched::bandwidth::compare::measured;
use commsched::bandwidth::depth::{compute_diameter, least_latency};
use commsched::bandwidth::{self as bw, optimise};
use commsched::checker::{Checked, Producer, accept};
use commsched::error::{InputError, Result};
use commsched::exact::pareto::{self, WalkOptions};
use commsched::heuristics;
use commsched::msccl::{self, XmlOptions};
use commsched::shard::Shard;
use commsched::spec::fabric::{Fabric, to_f64};
use commsched::spec::packing::BandwidthCollective;
use commsched::spec::{Instance, Model, Problem};
use commsched::svg::{LineChart, Series, reference_style, style};
use commsched::tune::{
    self, Candidate, Choice, CostModel, LowerBound, Packed, PackedBound, Preset, Range, Sizing,
};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The arguments of `tune`.
pub struct TuneArgs<'a> {
    /// A collective's name with `network`, or an instance file.
    pub target: &'a str,
    pub network: Option<&'a str>,
    pub root: Option<usize>,
    pub sizes: &'a str,
    pub alpha: Option<f64>,
    pub bandwidth: f64,
    pub preset: &'a str,
    pub max_chunks: usize,
    pub method: &'a str,
    pub limits: &'a Limits,
    pub xml: Option<&'a Path>,
    pub xml_options: XmlOptions,
    pub plot: Option<&'a Path>,
}

/// One candidate with the instance it is a schedule of.
struct Entry {
    candidate: Candidate,
    instance: Instance,
    checked: Checked,
}

/// `tune`: the choice by size (module documentation).
pub fn tune(args: &TuneArgs<'_>, format: Format, out: &mut dyn Write) -> Result<u8> {
    let flag = |name: &str, reason: String| InputError::new("<flags>", name, reason);
    if let Some(fabric) = args.network.map(fabric_of).transpose()?.flatten() {
        return tune_fabric(args, &fabric, format, out);
    }
    let base = collective_base(args.target, args.network, args.root, "tuning")?;
    let Problem::Collective(collective) = &base.problem else { unreachable!("collective_base checks") };
    if args.max_chunks == 0 {
        return Err(flag("--max-chunks", "at least 1".into()).into());
    }
    let preset = preset_of(args.preset)?;
    let alpha_us = match (args.alpha, preset.hop_us()) {
        (Some(a), _) if a.is_finite() && a >= 0.0 => a,
        (Some(a), _) => return Err(flag("--alpha", format!("{a} is not a latency in µs (≥ 0)")).into()),
        (None, Some(a)) => a,
        (None, None) => {
            return Err(flag("--alpha", "is required with --preset none (µs per step)".into()).into());
        }
    };
    if !(args.bandwidth.is_finite() && args.bandwidth > 0.0) {
        return Err(
            flag("--bandwidth", format!("{} is not a bandwidth in GB/s (> 0)", args.bandwidth)).into()
        );
    }
    let sizes = tune::parse_sizes(args.sizes).map_err(|r| flag("--sizes", r))?;
    let model = CostModel { alpha_us, base_us: preset.base_us(), bandwidth_gbs: args.bandwidth };
    let sizing = Sizing { kind: collective.kind, ranks: base.network.len() };

    let backend = exact_backend(args.method, &base)?;
    let options = WalkOptions {
        max_chunks: args.max_chunks,
        backend,
        solve: solve_options(args.limits)?,
        folders: None,
        shard: Shard::WHOLE,
    };
    let start = std::time::Instant::now();
    let walk = pareto::walk(&base, &options, &mut |_| Ok(()))?;
    let mut entries: Vec<Entry> = walk
        .points
        .iter()
        .map(|p| Entry {
            candidate: Candidate {
                name: format!("pareto ({}, {}, {})", p.steps(), p.rounds, p.chunks),
                steps: p.steps(),
                rounds: p.rounds,
                chunks: p.chunks,
                certified: true,
            },
            instance: pareto::at(&base, p.chunks, p.rounds),
            checked: p.checked.clone(),
        })
        .collect();
    entries.extend(algorithm_entries(&base, args.max_chunks)?);
    let bound = LowerBound {
        steps: commsched::bounds::collective::distance(&base).unwrap_or(0),
        rounds_per_chunk: walk.bound.value,
    };
    let candidates: Vec<Candidate> = entries.iter().map(|e| e.candidate.clone()).collect();
    let choices = tune::choose(&model, &sizing, &candidates, &bound, &sizes);
    let ranges = tune::ranges(&model, &sizing, &candidates);
    let files = match args.xml {
        Some(dir) => write_set(dir, &entries, &ranges, args.xml_options)?,
        None => Vec::new(),
    };
    if let Some(path) = args.plot {
        let svg = plot(&base, &model, &sizing, &candidates, &bound, &choices, &sizes);
        std::fs::write(path, svg).map_err(io_err(&path.display().to_string()))?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let answer = Answer {
        instance: &base.name,
        collective: collective.kind.name(),
        ranks: sizing.ranks,
        unit_divisor: tune::unit_divisor(sizing.kind, sizing.ranks),
        preset: preset.name(),
        model,
        bound,
        bound_name: walk.bound.name,
        candidates: &candidates,
        sizes: choices.iter().map(|c| SizeRow::of(c, &candidates)).collect(),
        ranges: ranges
            .iter()
            .enumerate()
            .map(|(i, r)| RangeRow {
                algorithm: &candidates[r.candidate].name,
                min_bytes: r.min_bytes,
                max_bytes: r.max_bytes,
                file: files.get(i).map(|f| f.display().to_string()),
            })
            .collect(),
        walk_complete: walk.complete(),
        stop: walk.stop.as_ref().map(ToString::to_string),
        seconds,
    };
    let text = match format {
        Format::Json => serde_json::to_string_pretty(&answer).expect("the answer serialises") + "\n",
        Format::Csv => csv(
            &[
                "bytes",
                "algorithm",
                "certified",
                "steps",
                "rounds",
                "chunks",
                "time_us",
                "lower_bound_us",
                "gap",
                "algbw",
                "busbw",
            ],
            &answer.sizes,
        ),
        _ => to_text(&answer),
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(if walk.stop.is_some() { super::STOPPED } else { 0 })
}

/// The preset `--preset` names.
fn preset_of(name: &str) -> Result<Preset> {
    Preset::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        InputError::new("<flags>", "--preset", format!("`{name}` is not a preset: {}", names.join(", ")))
            .into()
    })
}

/// `tune` on a machine of the bandwidth model (docs/spec.md §4.6, "At scale"): the certified
/// optimum's packing and every registered algorithm's, each checked, pipelined at each size in
/// its best chunk count with the links' own latencies, plus the preset's base latency; the bound
/// of [`PackedBound`]. No Pareto walk, no `--xml` (one packing exports with `solve --model
/// bandwidth --out FILE.xml`) and no `--alpha`/`--bandwidth` (the links carry their own).
fn tune_fabric(args: &TuneArgs<'_>, fabric: &Fabric, format: Format, out: &mut dyn Write) -> Result<u8> {
    let flag = |name: &str, reason: &str| InputError::new("<flags>", name, reason);
    if args.xml.is_some() || args.plot.is_some() {
        return Err(flag(
            "--xml",
            "on a machine at scale tune compares packings; write one as MSCCL XML with `solve COLLECTIVE --network NET --model bandwidth --out FILE.xml`",
        )
        .into());
    }
    if args.alpha.is_some() {
        return Err(flag("--alpha", "a machine at scale has its links' own latencies").into());
    }
    let collective = BandwidthCollective::parse(args.target).ok_or_else(|| {
        flag("COLLECTIVE", "the bandwidth model has allgather, reduce-scatter and allreduce")
    })?;
    let preset = preset_of(args.preset)?;
    let sizes = tune::parse_sizes(args.sizes).map_err(|r| flag("--sizes", &r))?;
    let start = std::time::Instant::now();
    let deadline = solve_options(args.limits)?.timeout.map(|t| start + t);
    let n = fabric.compute().len();
    let depth = compute_diameter(fabric)
        .ok_or_else(|| flag("--network", "some compute node cannot reach another"))?;
    let (mut candidates, per_shard) = match optimise(fabric, collective, deadline)? {
        bw::Answer::Optimal(opt) => {
            let per_shard = to_f64(&opt.measure.time);
            let optimum = Packed {
                name: "optimum".into(),
                certified: true,
                packing: opt.packing,
                measure: opt.measure,
            };
            (vec![optimum], per_shard)
        }
        bw::Answer::Bounds { lower, .. } => (Vec::new(), to_f64(&lower)),
    };
    for baseline in Baseline::ALL {
        if let Ok((packing, measure)) = measured(fabric, collective, baseline)? {
            candidates.push(Packed { name: baseline.name().into(), certified: false, packing, measure });
        }
    }
    let bound = PackedBound {
        phases: collective.phases().len(),
        alpha_min_us: least_latency(fabric),
        depth,
        per_shard,
        ranks: n,
    };
    let choices = tune::choose_packed(fabric, &candidates, &bound, preset.base_us(), &sizes);
    let rows: Vec<PackedRow> = choices
        .iter()
        .map(|c| PackedRow {
            bytes: c.bytes,
            algorithm: &candidates[c.candidate].name,
            certified: candidates[c.candidate].certified,
            depth: c.phases.iter().map(|p| p.depth).max().unwrap_or(0),
            chunks: c.phases.iter().map(|p| p.chunks).max().unwrap_or(1),
            time_us: c.time_us,
            lower_bound_us: c.lower_bound_us,
            gap: c.gap,
            algbw: c.algbw,
            busbw: c.busbw,
        })
        .collect();
    let answer = PackedAnswer {
        network: fabric.name(),
        collective: collective.name(),
        ranks: n,
        preset: preset.name(),
        base_us: preset.base_us(),
        bound,
        candidates: candidates.iter().map(|c| c.name.as_str()).collect(),
        optimum_certified: candidates.first().is_some_and(|c| c.certified),
        sizes: rows,
        seconds: start.elapsed().as_secs_f64(),
    };
    let text = match format {
        Format::Json => serde_json::to_string_pretty(&answer).expect("the answer serialises") + "\n",
        Format::Csv => csv(
            &[
                "bytes",
                "algorithm",
                "certified",
                "depth",
                "chunks",
                "time_us",
                "lower_bound_us",
                "gap",
                "algbw",
                "busbw",
            ],
            &answer.sizes,
        ),
        _ => {
            let mut t = format!(
                "{} on {} ({n} ranks): pipelined packings, base {} µs ({}), links' own latencies; candidates: {}{}\n",
                answer.collective,
                answer.network,
                answer.base_us,
                answer.preset,
                answer.candidates.join(", "),
                if answer.optimum_certified {
                    ""
                } else {
                    " (the optimum timed out: its cut bound stands in the bound)"
                }
            );
            t += &format!(
                "lower bound: base + {}·α_min {} µs·depth {} + (M/{n})·{:.6} s/GB\n",
                bound.phases, bound.alpha_min_us, bound.depth, bound.per_shard
            );
            t += "      size  algorithm            D      C     time µs    bound µs    gap   algbw GB/s  busbw GB/s\n";
            for r in &answer.sizes {
                t += &format!(
                    "{:>10}  {:<18}{:>3}{:>7}{:>12.2}{:>12.2}{:>7.3}{:>13.3}{:>12.3}\n",
                    size_text(r.bytes),
                    r.algorithm,
                    r.depth,
                    r.chunks,
                    r.time_us,
                    r.lower_bound_us,
                    r.gap,
                    r.algbw,
                    r.busbw
                );
            }
            t + &format!("[{:.2} s]\n", answer.seconds)
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}

/// What `tune --format json` prints on a machine at scale.
#[derive(Serialize)]
struct PackedAnswer<'a> {
    network: &'a str,
    collective: &'static str,
    ranks: usize,
    preset: &'static str,
    base_us: f64,
    bound: PackedBound,
    candidates: Vec<&'a str>,
    /// The optimum was certified within the time limit (else only the algorithms compete).
    optimum_certified: bool,
    sizes: Vec<PackedRow<'a>>,
    seconds: f64,
}

/// One size on a machine at scale.
#[derive(Serialize)]
struct PackedRow<'a> {
    bytes: u64,
    algorithm: &'a str,
    certified: bool,
    /// The deepest tree of the chosen pipeline, links.
    depth: usize,
    /// Its chunk count C (the largest of its phases').
    chunks: u64,
    time_us: f64,
    lower_bound_us: f64,
    gap: f64,
    algbw: f64,
    busbw: f64,
}

/// Every registered algorithm of the collective at C = 1 ..= `max_chunks`, one round per step,
/// each schedule checked: those that do not apply are left out; one the checker rejects is an
/// error (a producer's bug).
fn algorithm_entries(base: &Instance, max_chunks: usize) -> Result<Vec<Entry>> {
    let mut entries = Vec::new();
    for chunks in 1..=max_chunks {
        let mut inst = base.clone();
        if let Problem::Collective(c) = &mut inst.problem {
            c.chunks = chunks;
        }
        inst.model = Model::Collective { rounds: None };
        for method in heuristics::for_instance(&inst) {
            let Ok(schedule) = method.produce(&inst) else { continue };
            let checked = accept(&inst, schedule, Producer::Algorithm(method.name))?;
            let Some(rounds) = checked.metrics().rounds() else { continue };
            entries.push(Entry {
                candidate: Candidate {
                    name: format!("{} C={chunks}", method.name),
                    steps: checked.length(),
                    rounds,
                    chunks,
                    certified: false,
                },
                instance: inst.clone(),
                checked,
            });
        }
    }
    Ok(entries)
}

/// Writes one MSCCL file per range under `dir`, its `minBytes`/`maxBytes` the range's (the last
/// with `maxBytes="0"`, every larger size); export refuses a file whose runtime reading loses the
/// schedule's steps or rounds.
fn write_set(dir: &Path, entries: &[Entry], ranges: &[Range], options: XmlOptions) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
    let mut files = Vec::new();
    for (i, r) in ranges.iter().enumerate() {
        let e = &entries[r.candidate];
        let c = &e.candidate;
        let path = dir.join(format!("{i:02}-s{}-r{}-c{}.xml", c.steps, c.rounds, c.chunks));
        let options = XmlOptions { bytes: Some((r.min_bytes, r.max_bytes)), ..options };
        let text = msccl::to_xml(&e.instance, e.checked.schedule(), options)?;
        std::fs::write(&path, text).map_err(io_err(&path.display().to_string()))?;
        files.push(path);
    }
    Ok(files)
}

/// algbw against log₂ of the size: each candidate chosen at some size, the choice, and the
/// bound's algbw (dashed).
fn plot(
    base: &Instance,
    model: &CostModel,
    sizing: &Sizing,
    candidates: &[Candidate],
    bound: &LowerBound,
    choices: &[Choice],
    sizes: &[u64],
) -> String {
    let x = |m: u64| (m as f64).log2();
    let algbw = |m: u64, t: f64| m as f64 / (t * 1e3);
    let mut chosen: Vec<usize> = choices.iter().map(|c| c.candidate).collect();
    chosen.sort_unstable();
    chosen.dedup();
    let mut series: Vec<Series> = chosen
        .iter()
        .enumerate()
        .map(|(k, &i)| Series {
            label: candidates[i].name.clone(),
            points: sizes
                .iter()
                .map(|&m| (x(m), algbw(m, model.time_us(sizing, &candidates[i], m))))
                .collect(),
            style: style(k),
        })
        .collect();
    series.push(Series {
        label: "lower bound".into(),
        points: sizes.iter().map(|&m| (x(m), algbw(m, model.lower_bound_us(sizing, bound, m)))).collect(),
        style: reference_style(0),
    });
    LineChart {
        title: format!(
            "{}: algbw by size (α {} µs, base {} µs, {} GB/s per link unit)",
            base.name, model.alpha_us, model.base_us, model.bandwidth_gbs
        ),
        x_label: "message size, log₂ bytes (10 = 1 KiB, 20 = 1 MiB, 30 = 1 GiB)".into(),
        y_label: "algbw (GB/s)".into(),
        series,
    }
    .to_svg()
}

/// What `tune --format json` prints.
#[derive(Serialize)]
struct Answer<'a> {
    instance: &'a str,
    collective: &'static str,
    ranks: usize,
    /// d: SCCL's unit of data is M/d.
    unit_divisor: f64,
    preset: &'static str,
    model: CostModel,
    /// The lower bounds on S and R/C.
    bound: LowerBound,
    bound_name: &'static str,
    candidates: &'a [Candidate],
    sizes: Vec<SizeRow<'a>>,
    ranges: Vec<RangeRow<'a>>,
    /// The Pareto walk reached the bound on R/C.
    walk_complete: bool,
    stop: Option<String>,
    seconds: f64,
}

/// One size of the answer.
#[derive(Serialize)]
struct SizeRow<'a> {
    bytes: u64,
    algorithm: &'a str,
    certified: bool,
    steps: u64,
    rounds: u64,
    chunks: usize,
    time_us: f64,
    lower_bound_us: f64,
    gap: f64,
    algbw: f64,
    busbw: f64,
}

impl<'a> SizeRow<'a> {
    fn of(c: &Choice, candidates: &'a [Candidate]) -> Self {
        let k = &candidates[c.candidate];
        SizeRow {
            bytes: c.bytes,
            algorithm: &k.name,
            certified: k.certified,
            steps: k.steps,
            rounds: k.rounds,
            chunks: k.chunks,
            time_us: c.time_us,
            lower_bound_us: c.lower_bound_us,
            gap: c.gap,
            algbw: c.algbw,
            busbw: c.busbw,
        }
    }
}

/// One range of the algorithm set.
#[derive(Serialize)]
struct RangeRow<'a> {
    algorithm: &'a str,
    min_bytes: u64,
    /// `None`: every larger size.
    max_bytes: Option<u64>,
    /// Its MSCCL file, with `--xml`.
    file: Option<String>,
}

/// A size as nccl-tests prints it when it is a whole number of KiB, MiB, GiB.
fn size_text(bytes: u64) -> String {
    for (shift, unit) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}

fn to_text(a: &Answer<'_>) -> String {
    let mut t = format!(
        "{}: α–β tuning ({}), base {} µs, α {} µs per step, {} GB/s per link unit; {} candidates\n",
        a.instance,
        a.preset,
        a.model.base_us,
        a.model.alpha_us,
        a.model.bandwidth_gbs,
        a.candidates.len()
    );
    t += &format!(
        "lower bound: base + α·{} + (M/{})·{:.6}/b  (S ≥ {}, R/C ≥ {:.6}, {})\n",
        a.bound.steps,
        a.unit_divisor,
        a.bound.rounds_per_chunk,
        a.bound.steps,
        a.bound.rounds_per_chunk,
        a.bound_name
    );
    t += "      size  algorithm                         time µs   bound µs    gap   algbw GB/s  busbw GB/s\n";
    for s in &a.sizes {
        t += &format!(
            "{:>10}  {:<30}{:>11.2}{:>11.2}{:>7.3}{:>13.3}{:>12.3}\n",
            size_text(s.bytes),
            s.algorithm,
            s.time_us,
            s.lower_bound_us,
            s.gap,
            s.algbw,
            s.busbw
        );
    }
    t += "algorithm set (bytes):\n";
    for r in &a.ranges {
        let hi = r.max_bytes.map_or("∞".to_string(), |h| h.to_string());
        t += &format!("  {}..={hi}  {}", r.min_bytes, r.algorithm);
        if let Some(f) = &r.file {
            t += &format!("  {f}");
        }
        t += "\n";
    }
    if let Some(stop) = &a.stop {
        t += &format!("the Pareto walk stopped ({stop}): the points past it are not candidates\n");
    }
    t + &format!("[{:.2} s]\n", a.seconds)
}

/// The rows as CSV with these columns (fields of their JSON), strings quoted.
fn csv<T: Serialize>(columns: &[&str], rows: &[T]) -> String {
    let mut t = columns.join(",") + "\n";
    for row in rows {
        let value = serde_json::to_value(row).expect("a row serialises");
        let cells: Vec<String> = columns
            .iter()
            .map(|c| match &value[*c] {
                serde_json::Value::String(text) => format!("\"{text}\""),
                other => other.to_string(),
            })
            .collect();
        t += &(cells.join(",") + "\n");
    }
    t
}
