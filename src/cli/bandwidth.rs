//! `solve COLLECTIVE --network NET --model bandwidth`: the certified bandwidth optimum of
//! allgather, reduce-scatter or allreduce on a machine at scale (docs/spec.md §3.2), its packing
//! (`--out`) and its certificate folder (`--certificate`); with `--method ALGORITHM`, a
//! registered algorithm's packing, checked and set against the optimum. `algbw`: that
//! comparison as a table, one machine per row.

use super::args::Format;
use super::io_err;
use commsched::bandwidth::baseline::Baseline;
use commsched::bandwidth::compare::{self, measured, reference};
use commsched::bandwidth::time::{SizedTime, parse_size, sized_time};
use commsched::bandwidth::{Answer, Optimum, optimise};
use commsched::checker::{Producer, accept};
use commsched::error::{Error, InputError, Result};
use commsched::folder::packing as folder;
use commsched::heuristics::collective::packed::packed_schedule;
use commsched::msccl::{self, XmlOptions};
use commsched::spec::fabric::{self, Fabric, ratio_text};
use commsched::spec::io::is_xml;
use commsched::spec::packing::{BandwidthCollective, Cuts, Packing, packing_to_json};
use num_rational::BigRational;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// The flags of a bandwidth solve.
pub(super) struct Args<'a> {
    pub collective: &'a str,
    pub method: Option<&'a str>,
    pub network: Option<&'a str>,
    pub size: Option<&'a str>,
    /// `--events`: the event model's best checked schedule at `size`.
    pub events: bool,
    /// `--events-out`: where to write it.
    pub events_out: Option<&'a Path>,
    pub default_bandwidth: Option<&'a str>,
    pub timeout: Option<Duration>,
    pub out: Option<&'a Path>,
    /// C of an MSCCL XML `out`.
    pub chunks: Option<usize>,
    /// What an MSCCL XML `out` asks of the runtime.
    pub xml: XmlOptions,
    pub certificate: Option<&'a Path>,
}

/// Writes a checked packing: its `packing.json` (docs/spec.md §7.3), or with a `.xml` path the
/// MSCCL file of its trees pipelined in C chunks (`packed_schedule`), the schedule checked before
/// it is exported.
fn write_packing(path: &Path, fabric: &Fabric, packing: &Packing, args: &Args<'_>) -> Result<()> {
    let text = if is_xml(path) {
        let (inst, schedule) = packed_schedule(fabric, packing, args.chunks)?;
        let checked = accept(&inst, schedule, Producer::Algorithm("packing pipeline"))?;
        msccl::to_xml(&inst, checked.schedule(), args.xml)?
    } else {
        if args.chunks.is_some() {
            return Err(InputError::new(
                "<flags>",
                "--chunks",
                "cuts the packing's shards for an MSCCL XML --out (FILE.xml); packing.json keeps the weights",
            )
            .into());
        }
        packing_to_json(fabric, packing)
    };
    std::fs::write(path, text).map_err(io_err(&path.display().to_string()))
}

/// Refuses `--steps`, which belongs to the step models.
pub(super) fn refuse_discrete_flags(steps: Option<u64>) -> Result<()> {
    match steps {
        None => Ok(()),
        Some(_) => Err(InputError::new(
            "<flags>",
            "--steps",
            "belongs to the step models; --model bandwidth computes its optimum directly",
        )
        .into()),
    }
}

fn parse_collective(text: &str) -> Result<BandwidthCollective> {
    BandwidthCollective::parse(text).ok_or_else(|| {
        InputError::new(
            "<flags>",
            "COLLECTIVE",
            format!(
                "`{text}` is not a collective of the bandwidth model: allgather, reduce-scatter, allreduce"
            ),
        )
        .into()
    })
}

/// `--bandwidth`: a positive number of GB/s.
fn parse_default_bandwidth(text: Option<&str>) -> Result<Option<BigRational>> {
    text.map(|text| {
        fabric::decimal(text).filter(|b| b > &BigRational::from_integer(0.into())).ok_or_else(|| {
            InputError::new("<flags>", "--bandwidth", format!("`{text}` is not a positive bandwidth in GB/s"))
                .into()
        })
    })
    .transpose()
}

/// `--method` with --model bandwidth: `optimal` (the default) or a registered algorithm.
fn parse_method(text: Option<&str>) -> Result<Option<Baseline>> {
    match text {
        None | Some("optimal") => Ok(None),
        Some(name) => Baseline::parse(name).map(Some).ok_or_else(|| {
            let known: Vec<&str> = Baseline::ALL.iter().map(|b| b.name()).collect();
            InputError::new(
                "<flags>",
                "--method",
                format!("`{name}` is not a method of the bandwidth model: optimal, {}", known.join(", ")),
            )
            .into()
        }),
    }
}

/// `solve … --model bandwidth`.
pub(super) fn solve(args: &Args<'_>, format: Format, out: &mut dyn Write) -> Result<u8> {
    let collective = parse_collective(args.collective)?;
    let method = parse_method(args.method)?;
    let spec = args.network.ok_or_else(|| {
        InputError::new(
            "<flags>",
            "--network",
            "is required with --model bandwidth (ndv2x4, rail:16x8, a node-link JSON file, ...)",
        )
    })?;
    let size = match args.size {
        Some(text) => Some(parse_size(text).ok_or_else(|| {
            InputError::new(
                "<flags>",
                "--size",
                format!("`{text}` is not a size: bytes, or a number with K, M, G or T"),
            )
        })?),
        None => None,
    };
    let fabric = fabric::load(spec, parse_default_bandwidth(args.default_bandwidth)?.as_ref())?;
    if let Some(algorithm) = method {
        return solve_algorithm(args, &fabric, collective, algorithm, size, format, out);
    }
    let start = Instant::now();
    let answer = optimise(&fabric, collective, args.timeout.map(|t| start + t))?;
    let seconds = start.elapsed().as_secs_f64();
    let n = fabric.compute().len();
    let text = match &answer {
        Answer::Optimal(opt) => {
            if let Some(path) = args.out {
                write_packing(path, &fabric, &opt.packing, args)?;
            }
            if let Some(dir) = args.certificate {
                folder::write(dir, &fabric, opt, seconds)?;
            }
            let time = &opt.measure.time;
            let (algbw, busbw) = collective.bandwidths(n, time);
            let sized = size.map(|bytes| sized_time(&fabric, &opt.packing, &opt.measure, bytes));
            let events = event_report(args, &fabric, collective, &opt.packing, Some(time), size)?;
            match format {
                Format::Json => {
                    json!({
                        "size": sized,
                        "events": events.as_ref().map(|e| &e.json),
                        "status": "optimal",
                        "collective": collective.name(),
                        "network": fabric.name(),
                        "compute_nodes": n,
                        "algbw": algbw,
                        "busbw": busbw,
                        "time_per_shard": ratio_text(time),
                        "lower_bound": ratio_text(time),
                        "trees": opt.measure.trees,
                        "trees_per_root": opt.measure.trees_per_root,
                        "trees_in_all": opt.measure.trees_in_all,
                        "symmetry": opt.measure.generators,
                        "certificate": "cut",
                        "seconds": seconds,
                    })
                    .to_string()
                        + "\n"
                }
                _ => {
                    format!(
                        "{} on {} (bandwidth model, {n} compute nodes): optimal\n  algbw {algbw:.3} GB/s, busbw {busbw:.3} GB/s; time per shard {} s/GB, T(M) = (M/{n}) × that\n  certificate: {}; the packing of {} meets it (checked)\n",
                        collective.name(),
                        fabric.name(),
                        ratio_text(time),
                        describe_cuts(&fabric, &opt.cuts),
                        describe_trees(&fabric, opt),
                    ) + &sized.map_or(String::new(), |t| describe_size(&t))
                        + &events.map_or(String::new(), |e| e.text)
                }
            }
        }
        Answer::Bounds { cuts, lower } => {
            let (algbw, _) = collective.bandwidths(n, lower);
            match format {
                Format::Json => {
                    json!({
                        "status": "timeout",
                        "collective": collective.name(),
                        "network": fabric.name(),
                        "compute_nodes": n,
                        "lower_bound": ratio_text(lower),
                        "algbw_at_most": algbw,
                        "seconds": seconds,
                    })
                    .to_string()
                        + "\n"
                }
                _ => format!(
                    "{} on {} (bandwidth model, {n} compute nodes): bounds (timeout after {seconds:.1} s)\n  time per shard at least {} s/GB (algbw at most {algbw:.3} GB/s): {}; no packing yet\n",
                    collective.name(),
                    fabric.name(),
                    ratio_text(lower),
                    describe_cuts(&fabric, cuts),
                ),
            }
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}

/// `solve … --model bandwidth --method ALGORITHM`: the algorithm's packing, checked, and the
/// share of the optimum's algbw it reaches.
fn solve_algorithm(
    args: &Args<'_>,
    fabric: &Fabric,
    collective: BandwidthCollective,
    algorithm: Baseline,
    size: Option<u64>,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    if args.certificate.is_some() {
        return Err(InputError::new(
            "<flags>",
            "--certificate",
            "certifies the optimum (--method optimal); a registered algorithm's packing is checked, not certified: write it with --out",
        )
        .into());
    }
    let start = Instant::now();
    let (packing, measure) = measured(fabric, collective, algorithm)?
        .map_err(|reason| Error::NotApplicable { method: algorithm.name().into(), reason })?;
    if let Some(path) = args.out {
        write_packing(path, fabric, &packing, args)?;
    }
    let optimum = reference(fabric, collective, args.timeout.map(|t| start + t))?;
    let n = fabric.compute().len();
    let (algbw, busbw) = collective.bandwidths(n, &measure.time);
    let (best, _) = collective.bandwidths(n, &optimum.time);
    let sized = size.map(|bytes| sized_time(fabric, &packing, &measure, bytes));
    let tau = optimum.certified.then_some(&optimum.time);
    let events = event_report(args, fabric, collective, &packing, tau, size)?;
    let text = match format {
        Format::Json => {
            json!({
                "size": sized,
                "events": events.as_ref().map(|e| &e.json),
                "status": "checked",
                "method": algorithm.name(),
                "collective": collective.name(),
                "network": fabric.name(),
                "compute_nodes": n,
                "algbw": algbw,
                "busbw": busbw,
                "time_per_shard": ratio_text(&measure.time),
                "trees": measure.trees,
                "optimum": {
                    "algbw": best,
                    "time_per_shard": ratio_text(&optimum.time),
                    "certified": optimum.certified,
                },
                "share_of_optimum": algbw / best,
                "seconds": start.elapsed().as_secs_f64(),
            })
            .to_string()
                + "\n"
        }
        _ => {
            format!(
                "{} on {} (bandwidth model, {n} compute nodes): {}, checked\n  algbw {algbw:.3} GB/s, busbw {busbw:.3} GB/s; time per shard {} s/GB; {} trees\n  {:.1} % of the optimum's algbw {best:.3} GB/s ({})\n",
                collective.name(),
                fabric.name(),
                algorithm.name(),
                ratio_text(&measure.time),
                measure.trees,
                100.0 * algbw / best,
                if optimum.certified { "certified by a cut" } else { "a cut bound: the optimum timed out" },
            ) + &sized.map_or(String::new(), |t| describe_size(&t))
                + &events.map_or(String::new(), |e| e.text)
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}

/// "24576 trees, 6 per root (written: root `0.0.0`'s and 3 symmetry generators)", or "32 trees,
/// at most 1 per root".
fn describe_trees(fabric: &Fabric, opt: &Optimum) -> String {
    let m = &opt.measure;
    let per_phase = if opt.collective.phases().len() > 1 { " and phase" } else { "" };
    match opt.packing.trees.first().filter(|_| m.generators > 0) {
        Some(tree) => format!(
            "{} trees, {} per root{per_phase} (written: root `{}`'s {} and {} symmetry generators)",
            m.trees_in_all,
            m.trees_per_root,
            fabric.node_name(tree.root),
            m.trees,
            m.generators
        ),
        None => format!("{} trees, at most {} per root{per_phase}", m.trees, m.trees_per_root),
    }
}

/// `algbw COLLECTIVE --network A,B,…`: per machine, the optimum and every registered algorithm
/// ([`compare::compare`]).
pub(super) fn algbw(
    collective: &str,
    networks: &[String],
    default_bandwidth: Option<&str>,
    timeout: Duration,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let collective = parse_collective(collective)?;
    let default_bandwidth = parse_default_bandwidth(default_bandwidth)?;
    let mut rows = Vec::new();
    for spec in networks {
        let fabric = fabric::load(spec, default_bandwidth.as_ref())?;
        rows.push(compare::compare(spec, &fabric, collective, Some(Instant::now() + timeout))?);
    }
    let text = match format {
        Format::Json => json!({"collective": collective.name(), "machines": rows}).to_string() + "\n",
        _ => compare::table(collective, &rows),
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}

/// `--events` at `--size`: the event model's best checked schedule, the packing's trees among
/// its candidates.
fn event_report(
    args: &Args<'_>,
    fabric: &Fabric,
    collective: BandwidthCollective,
    packing: &Packing,
    tau: Option<&BigRational>,
    size: Option<u64>,
) -> Result<Option<super::events::EventReport>> {
    match size.filter(|_| args.events) {
        Some(bytes) => {
            super::events::events(fabric, collective, packing, tau, bytes, args.events_out).map(Some)
        }
        None => Ok(None),
    }
}

/// One line per size: the time, its bandwidth term, and each phase's pipeline.
fn describe_size(t: &SizedTime) -> String {
    let phases: Vec<String> = t
        .phases
        .iter()
        .map(|p| format!("{} {} chunks over depth {} at α {} µs", p.phase, p.chunks, p.depth, p.alpha_us))
        .collect();
    format!(
        "  at {} bytes: {:.1} µs, algbw {:.3} GB/s (bandwidth term {:.1} µs; {})\n",
        t.bytes,
        t.time_us,
        t.algbw,
        t.bandwidth_us,
        phases.join(", ")
    )
}

/// "the allgather cut of 25 nodes (24 compute) with 12.5 GB/s leaving bounds …", per phase.
fn describe_cuts(fabric: &Fabric, cuts: &Cuts) -> String {
    cuts.cuts
        .iter()
        .map(|c| {
            let mut inside = vec![false; fabric.len()];
            c.nodes.iter().for_each(|&v| inside[v] = true);
            let compute = c.nodes.iter().filter(|&&v| fabric.is_compute(v)).count();
            let leaving: BigRational = fabric.bandwidth_leaving(&inside);
            format!(
                "the {} cut of {} nodes ({compute} compute) with {} GB/s leaving bounds it at {}",
                c.phase.name(),
                c.nodes.len(),
                fabric::to_f64(&leaving),
                commsched::checker::packing::cut_bound(fabric, c).map_or("-".into(), |b| ratio_text(&b))
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}
