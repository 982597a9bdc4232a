//! `commsched bench`: generate-and-check times for total exchange on path(n) and ring(n), on
//! request for broadcast, product and prefix on fat-tree:N (paper 002), for the chatting algorithms (paper 000) on random instances of many messages, and on request for
//! scatter and centralized gather (paper 001) on seeded random trees, with the checker's
//! throughput in events per second; the time the exact layer alone needs to certify optima of
//! small random ULA chatting instances; and with `--exact`, per instance and backend, the time to
//! decide the exact model at T* and T* − 1; and with `--msccl`, the time to import MSCCL XML
//! files and judge them by their headers. Timings are printed, never asserted.

use super::args::Format;
use super::io_err;
use commsched::checker::{self, Verdict};
use commsched::compare::ratios::{chatting_instance, random_messages};
use commsched::error::InputError;
use commsched::error::Result;
use commsched::exact::{self, BackendKind, Outcome, SolveOptions};
use commsched::heuristics;
use commsched::rng::SplitMix64;
use commsched::spec::instance_file::default_model;
use commsched::spec::{Instance, Network, Problem, RingTie, Schedule};
use serde::Serialize;
use std::io::Write;
use std::time::{Duration, Instant};

/// The networks of the chatting rows: about a thousand nodes each (and a random 1024-node tree).
const CHATTING_NETWORKS: [&str; 4] = ["ula:1024", "path:1024", "esm:32", "mesh:32x32"];

/// One measured method in `bench --format json`.
#[derive(Debug, Serialize)]
struct Row {
    network: String,
    method: &'static str,
    /// The checked length; `None` when the checker rejects the schedule.
    length: Option<u64>,
    /// How many violations the checker found (0 when admissible).
    violations: usize,
    /// How the schedule is held: `explicit` steps or `itineraries` (docs/spec.md §5.4).
    form: &'static str,
    /// Events checked (packet hops), or schedule entries when inadmissible.
    events: u64,
    generate_ms: f64,
    check_ms: f64,
    events_per_second: f64,
}

/// A network `bench` skipped for the size guard.
#[derive(Debug, Serialize)]
struct Skipped {
    network: String,
    /// The method skipped, or `None` when the whole network is.
    method: Option<&'static str>,
    /// Why: the guard that refused it.
    reason: String,
}

/// The exact layer on seeded random small instances of one kind.
#[derive(Debug, Serialize)]
struct ExactRow {
    /// What was drawn: `ula:8, 12 messages` or `12-node trees, lengths 0..4`.
    instances: &'static str,
    /// `chatting` (T_opt), `virtual` (S_opt) or `distributed gather`.
    schedule: &'static str,
    /// How it was solved: `ilp alone` (no bounds, no incumbent) or `solve --method exact` with
    /// the backend the encoder's measured order picked.
    setting: String,
    draws: usize,
    certified: usize,
    median_seconds: f64,
    max_seconds: f64,
}

/// What `bench --format json` prints.
#[derive(Debug, Default, Serialize)]
struct Bench {
    rows: Vec<Row>,
    skipped: Vec<Skipped>,
    exact: Vec<ExactRow>,
}

/// The chatting part of the benchmark.
pub struct Chatting {
    /// Messages of each large random instance (lengths 1..=4, and unit-length for the
    /// unit-length algorithms).
    pub messages: usize,
    /// Random ULA instances of 12 messages whose optimum the exact layer certifies alone.
    pub exact_draws: usize,
    /// Random 12-node trees whose distributed gather `solve --method exact` certifies.
    pub tree_draws: usize,
    /// The exact layer's time limit per instance.
    pub exact_timeout: Duration,
}

/// Runs the benchmark for the given sizes, skipping (with a line saying so) any network whose
/// total exchange needs more than `max_events` packet hops; then each `NODES:FLITS` tree of
/// `trees`, scatter and gather, under the same guard on flit-arc crossings; then the chatting
/// rows and the exact rows. Prints tables, or one JSON object.
pub fn run(
    sizes: &[usize],
    trees: &[String],
    fat_trees: &[usize],
    max_events: u64,
    chatting: &Chatting,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let mut table = Table {
        json: format == Format::Json,
        network: sizes
            .iter()
            .map(|n| format!("ring:{n}").len())
            .chain(trees.iter().map(|t| format!("tree({t})").len()))
            .chain(fat_trees.iter().map(|n| format!("fat-tree:{n} product").len()))
            .fold(16, usize::max),
        method: heuristics::all().iter().map(|m| m.name.len()).max().unwrap_or(0),
        bench: Bench::default(),
        out,
    };
    if !table.json {
        let (nw, mw) = (table.network, table.method);
        table.write(format!(
            "{:<nw$} {:<mw$} {:<11} {:>7} {:>12} {:>12} {:>12} {:>14}\n",
            "network", "method", "form", "length", "events", "generate ms", "check ms", "events/s"
        ))?;
    }
    for &n in sizes {
        for (net, tie) in
            [(format!("path:{n}"), RingTie::Clockwise), (format!("ring:{n}"), RingTie::Alternating)]
        {
            let network = Network::parse(&net).map_err(|r| InputError::new("<flags>", "--sizes", r))?;
            let problem = Problem::TotalExchange(None);
            let model = default_model(&problem);
            let inst = Instance::new(net.clone(), network, problem, model, tie, "<flags>")?;
            // The hops of the algorithms' shortest routes, guarded like `solve` does.
            if let Err(refused) = inst.guard_events() {
                table.skip(net, None, refused.reason)?;
                continue;
            }
            table.rows(&inst, &net)?;
        }
    }
    for spec in trees {
        let (parents, lengths) = random_tree(spec)?;
        let name = format!("tree({spec})");
        let network = Network::parse(&format!(
            "tree:{}",
            parents.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
        ))
        .map_err(|r| InputError::new("<flags>", "--trees", r))?;
        // Every flit crosses every arc of its path: the events of any schedule.
        let depth = network.distances_from(0);
        let events: u64 = lengths.iter().zip(&depth).map(|(&l, &d)| l * d as u64).sum();
        if events > max_events {
            table.skip(
                name,
                None,
                format!("{events} flit-arc crossings exceed --max-events {max_events}"),
            )?;
            continue;
        }
        for problem in [Problem::Scatter(lengths.clone()), Problem::Gather(lengths.clone())] {
            let model = default_model(&problem);
            let inst =
                Instance::new(name.clone(), network.clone(), problem, model, RingTie::Clockwise, "<flags>")?;
            table.rows(&inst, &name)?;
        }
    }
    // Broadcast, product and prefix (paper 002) on each fat-tree:N under w = 1.
    for &n in fat_trees {
        let net = format!("fat-tree:{n}");
        let network = Network::parse(&net).map_err(|r| InputError::new("<flags>", "--fat-trees", r))?;
        for problem in [Problem::Broadcast, Problem::Product, Problem::Prefix] {
            let name = format!("{net} {}", problem.kind());
            let model = default_model(&problem);
            let inst =
                Instance::new(name.clone(), network.clone(), problem, model, RingTie::Clockwise, "<flags>")?;
            if let Err(refused) = inst.guard_events() {
                table.skip(name, None, refused.reason)?;
                continue;
            }
            table.rows(&inst, &name)?;
        }
    }
    // Every chatting algorithm on `messages` random messages, unit-length (`unit`) and with
    // lengths 1..=4 (`var`), as chatting schedules.
    let mut rng = SplitMix64::new(1);
    let tree =
        format!("tree:{}", (1..1024).map(|v| rng.range(0, v - 1).to_string()).collect::<Vec<_>>().join(","));
    let networks = CHATTING_NETWORKS.iter().map(|s| (s.to_string(), s.to_string()));
    for (label, net) in networks.chain([("tree:1024".to_string(), tree)]) {
        let network = Network::parse(&net).expect("valid benchmark network");
        let var = random_messages(&network, chatting.messages, 4, &mut rng);
        let unit: Vec<_> = var.iter().map(|&(s, d, _)| (s, d, 1)).collect();
        for (kind, messages) in [("unit", &unit), ("var", &var)] {
            let label = format!("{label} {kind}");
            let inst = chatting_instance(label.clone(), &network, messages, false)?;
            table.rows(&inst, &label)?;
        }
    }
    exact_rows(chatting, &mut table.bench)?;
    tree_rows(chatting, &mut table.bench)?;
    if table.json {
        let text = serde_json::to_string_pretty(&table.bench).expect("the bench serialises") + "\n";
        table.write(text)?;
    } else if !table.bench.exact.is_empty() {
        table.write(format!(
            "\n{:<30} {:<20} {:<30} {:>6} {:>9} {:>9} {:>8}\n",
            "exact on", "schedule", "setting", "draws", "certified", "median s", "max s"
        ))?;
        let lines: Vec<String> = table
            .bench
            .exact
            .iter()
            .map(|e| {
                format!(
                    "{:<30} {:<20} {:<30} {:>6} {:>9} {:>9.3} {:>8.3}\n",
                    e.instances, e.schedule, e.setting, e.draws, e.certified, e.median_seconds, e.max_seconds
                )
            })
            .collect();
        table.write(lines.concat())?;
    }
    Ok(0)
}

/// The output being written: the text table's column widths, or the rows collected for JSON.
struct Table<'a> {
    json: bool,
    network: usize,
    method: usize,
    bench: Bench,
    out: &'a mut dyn Write,
}

impl Table<'_> {
    fn write(&mut self, s: String) -> Result<()> {
        self.out.write_all(s.as_bytes()).map_err(io_err("<stdout>"))
    }

    /// Records a network, or one method on it, skipped for a size guard, with the reason.
    fn skip(&mut self, network: String, method: Option<&'static str>, reason: String) -> Result<()> {
        if !self.json {
            let (nw, mw) = (self.network, self.method);
            self.write(format!("{network:<nw$} {:<mw$} skipped: {reason}\n", method.unwrap_or("")))?;
        }
        self.bench.skipped.push(Skipped { network, method, reason });
        Ok(())
    }

    /// One row per applicable algorithm: its checked length, events, generate and check times.
    fn rows(&mut self, inst: &Instance, name: &str) -> Result<()> {
        for m in heuristics::for_instance(inst) {
            let t0 = Instant::now();
            let sched = match m.produce(inst) {
                Ok(sched) => sched,
                Err(commsched::error::Error::Input(refused)) => {
                    self.skip(name.to_string(), Some(m.name), refused.reason)?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let generate = t0.elapsed();
            let t1 = Instant::now();
            let verdict = checker::check(inst, &sched);
            let check = t1.elapsed();
            let (length, events) = match &verdict {
                Verdict::Admissible(c) => (Some(c.length()), c.metrics().events),
                Verdict::Inadmissible(_) => (None, sched.entries() as u64),
            };
            let row = Row {
                network: name.to_string(),
                method: m.name,
                form: if matches!(sched, Schedule::Itineraries(_)) { "itineraries" } else { "explicit" },
                length,
                violations: verdict.violations().len(),
                events,
                generate_ms: generate.as_secs_f64() * 1e3,
                check_ms: check.as_secs_f64() * 1e3,
                events_per_second: events as f64 / check.as_secs_f64().max(1e-9),
            };
            if !self.json {
                let length = row
                    .length
                    .map_or_else(|| format!("INADMISSIBLE ({})", row.violations), |l| l.to_string());
                let (nw, mw) = (self.network, self.method);
                self.write(format!(
                    "{:<nw$} {:<mw$} {:<11} {:>7} {:>12} {:>12.1} {:>12.1} {:>14.0}\n",
                    row.network,
                    row.method,
                    row.form,
                    length,
                    row.events,
                    row.generate_ms,
                    row.check_ms,
                    row.events_per_second
                ))?;
            }
            self.bench.rows.push(row);
        }
        Ok(())
    }
}

/// A random tree from `NODES:FLITS`, the same for the same text: node v's parent uniform in
/// 0..v and FLITS flits spread over the non-root nodes (each gets between 0 and twice the mean),
/// from the crate's seeded generator (seed 1). Returns the parents of nodes 1.. and L_0..L_{n−1}.
fn random_tree(spec: &str) -> Result<(Vec<usize>, Vec<u64>)> {
    let bad =
        |why: &str| InputError::new("<flags>", "--trees", format!("`{spec}`: {why} (expected NODES:FLITS)"));
    let (nodes, flits) = spec.split_once(':').ok_or_else(|| bad("no colon"))?;
    let nodes: usize = nodes.parse().map_err(|_| bad("NODES is not a number"))?;
    let flits: u64 = flits.parse().map_err(|_| bad("FLITS is not a number"))?;
    if nodes < 2 {
        return Err(bad("a tree needs 2 nodes").into());
    }
    let mut rng = SplitMix64::new(1);
    let parents = (1..nodes).map(|v| rng.range(0, v - 1)).collect();
    let mean = flits / (nodes as u64 - 1);
    let mut lengths = vec![0u64; nodes];
    let mut left = flits;
    for l in lengths.iter_mut().skip(1) {
        *l = (rng.range(0, 2 * mean as usize) as u64).min(left);
        left -= *l;
    }
    lengths[nodes - 1] += left;
    Ok((parents, lengths))
}

/// The instances `bench --exact` measures when none are given: one per encoder family whose
/// optimum the SAT backend settles in seconds (total exchange, gossip, chatting).
pub const EXACT_DEFAULT: [&str; 4] = [
    "instances/004/ring5.toml",
    "instances/004/path6-te3.toml",
    "instances/003/mesh3-fig8b.toml",
    "instances/000/ula12-fig5.toml",
];

/// `bench --exact`: per instance and available backend, the seconds to decide the exact model
/// at the optimum T* (a checked witness) and at T* − 1 (infeasible), and the seconds of the
/// whole certified search `solve` runs (the algorithms' incumbent, the bounds, the probes, and
/// for SAT the LRAT proof of T* − 1 produced and checked when no bound meets the optimum), or
/// the bounds it stopped at. T* comes from the SAT backend's certified search (the first available backend
/// without it); a decision that runs out of `timeout` seconds prints `timeout`. These figures
/// order each encoder's [`backends`](commsched::exact::encode::EncoderEntry::backends). Timings
/// are printed, never asserted.
pub fn exact(paths: &[std::path::PathBuf], timeout: f64, out: &mut dyn Write) -> Result<u8> {
    use commsched::compare::{Algorithms, AssessOptions, Attached, assess};
    use commsched::exact::{self, BackendKind, Decision, SolveOptions};
    use commsched::spec::io::{instance_files, load_instance};
    let w = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(io_err("<stdout>"));
    let options = SolveOptions {
        timeout: Some(std::time::Duration::from_secs_f64(timeout)),
        ..SolveOptions::default()
    };
    let available = BackendKind::available();
    let reference = if available.contains(&BackendKind::Sat) { BackendKind::Sat } else { available[0] };
    let defaults: Vec<std::path::PathBuf> = EXACT_DEFAULT.iter().map(Into::into).collect();
    let paths = if paths.is_empty() { &defaults[..] } else { paths };
    w(
        out,
        format!(
            "{:<22} {:>4} {:<8} {:>16} {:>20} {:>12}\n",
            "instance", "T*", "backend", "witness at T* s", "infeasible at T*-1 s", "certified s"
        ),
    )?;
    for (_, file) in instance_files(paths)? {
        let inst = load_instance(&file)?;
        let assess_options = AssessOptions {
            algorithms: Algorithms::Applicable,
            exact: Some(reference.into()),
            solve: options.clone(),
            fail_fast: false,
        };
        let a = assess(&inst, Attached::default(), &assess_options)?;
        let (Some(t), Some(_)) = (a.answer.length, &a.answer.certificate) else {
            w(
                out,
                format!(
                    "{:<22} skipped: {reference} found no certified optimum within {timeout} s\n",
                    inst.name
                ),
            )?;
            continue;
        };
        for &backend in &available {
            let time = |horizon: u64| -> Result<String> {
                let start = Instant::now();
                let d = exact::decide(&inst, backend, horizon, &options)?;
                let seconds = start.elapsed().as_secs_f64();
                Ok(match d {
                    Decision::Feasible(_) | Decision::Infeasible => format!("{seconds:.2}"),
                    Decision::Unknown(stop) => stop.to_string(),
                })
            };
            let below = if t == 0 { "-".to_string() } else { time(t - 1)? };
            let start = Instant::now();
            let search = assess(
                &inst,
                Attached::default(),
                &AssessOptions { exact: Some(backend.into()), ..assess_options.clone() },
            )?;
            let search = match (search.answer.certificate, search.answer.length) {
                (Some(_), Some(_)) => format!("{:.2}", start.elapsed().as_secs_f64()),
                (_, upper) => format!(
                    "[{}, {}]",
                    search.answer.lower_bound.map_or("-".into(), |l| l.to_string()),
                    upper.map_or("-".into(), |u| u.to_string())
                ),
            };
            w(
                out,
                format!(
                    "{:<22} {:>4} {:<8} {:>16} {:>20} {:>12}\n",
                    inst.name,
                    t,
                    backend.name(),
                    time(t)?,
                    below,
                    search
                ),
            )?;
        }
    }
    Ok(0)
}

/// The exact layer alone (ILP, no lower bounds, no incumbent: it must prove T* − 1 infeasible
/// itself) on `exact_draws` random ula:8 instances of 12 messages with lengths 1..=4, real and
/// virtual: how many it certifies within the limit, and the median and largest time.
fn exact_rows(c: &Chatting, bench: &mut Bench) -> Result<()> {
    if c.exact_draws == 0 {
        return Ok(());
    }
    let network = Network::parse("ula:8").expect("valid network");
    let options = SolveOptions { timeout: Some(c.exact_timeout), ..SolveOptions::default() };
    for (schedule, virtual_schedule) in [("chatting", false), ("virtual", true)] {
        let mut rng = SplitMix64::new(2);
        let mut seconds = Vec::new();
        let mut certified = 0;
        for i in 0..c.exact_draws {
            let messages = random_messages(&network, 12, 4, &mut rng);
            let inst = chatting_instance(format!("ula8-{i}"), &network, &messages, virtual_schedule)?;
            let t0 = Instant::now();
            let outcome = exact::solve(&inst, BackendKind::Ilp, &options, &[], None)?;
            seconds.push(t0.elapsed().as_secs_f64());
            certified += usize::from(matches!(outcome, Outcome::Optimal { .. }));
        }
        seconds.sort_by(f64::total_cmp);
        bench.exact.push(ExactRow {
            instances: "ula:8, 12 messages",
            schedule,
            setting: "ilp alone".into(),
            draws: c.exact_draws,
            certified,
            median_seconds: seconds[seconds.len() / 2],
            max_seconds: seconds[seconds.len() - 1],
        });
    }
    Ok(())
}

/// Distributed gather (paper 001 §3, inequality (5), SG-8) on `tree_draws` random 12-node trees
/// (node v's parent uniform in 0..v, lengths uniform in 0..=4, seed 3) the way `solve --method
/// exact` runs it: the registered algorithms' incumbent, the lower bounds, and the backend the
/// distributed-gather encoder's measured order picks in this build. How many it certifies
/// within the limit, and the median and largest time.
fn tree_rows(c: &Chatting, bench: &mut Bench) -> Result<()> {
    use commsched::compare::{Algorithms, AssessOptions, Attached, assess};
    use commsched::exact::BackendChoice;
    use commsched::spec::{GatherMode, Model, Port};
    if c.tree_draws == 0 {
        return Ok(());
    }
    let options = AssessOptions {
        algorithms: Algorithms::Applicable,
        exact: Some(BackendChoice::Measured),
        solve: SolveOptions { timeout: Some(c.exact_timeout), ..SolveOptions::default() },
        fail_fast: true,
    };
    let model =
        Model::Bufferless { port: Port::Single, virtual_schedule: false, gather: GatherMode::Distributed };
    let mut rng = SplitMix64::new(3);
    let (mut seconds, mut certified, mut backend) = (Vec::new(), 0, None);
    for i in 0..c.tree_draws {
        let parents: Vec<String> = (1..12).map(|v| rng.range(0, v - 1).to_string()).collect();
        let network = Network::parse(&format!("tree:{}", parents.join(","))).expect("valid tree");
        let lengths = std::iter::once(0).chain((1..12).map(|_| rng.range(0, 4) as u64)).collect();
        let inst = Instance::new(
            format!("tree12-{i}"),
            network,
            Problem::Gather(lengths),
            model.clone(),
            RingTie::Clockwise,
            "<bench>",
        )?;
        let t0 = Instant::now();
        let a = assess(&inst, Attached::default(), &options)?;
        seconds.push(t0.elapsed().as_secs_f64());
        certified += usize::from(a.answer.certificate.is_some());
        backend = backend.or(a.exact.map(|e| e.backend));
    }
    seconds.sort_by(f64::total_cmp);
    bench.exact.push(ExactRow {
        instances: "12-node trees, lengths 0..4",
        schedule: "distributed gather",
        setting: format!("solve --method exact ({})", backend.map_or("-", |b| b.name())),
        draws: c.tree_draws,
        certified,
        median_seconds: seconds[seconds.len() / 2],
        max_seconds: seconds[seconds.len() - 1],
    });
    Ok(())
}

/// `bench --msccl PATH...`: per MSCCL XML file, the medians of 5 runs of parsing, running it as a
/// runtime does, and checking the schedule (docs/msccl.md, `check FILE.xml`).
pub fn msccl(paths: &[std::path::PathBuf], out: &mut dyn Write) -> Result<u8> {
    use commsched::msccl::{from_header, xml};
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut xml: Vec<_> = std::fs::read_dir(path)
                .map_err(io_err(&path.display().to_string()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "xml"))
                .collect();
            xml.sort();
            files.extend(xml);
        } else {
            files.push(path.clone());
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let w = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(io_err("<stdout>"));
    w(
        out,
        format!(
            "{:<48} {:>8} {:>7} {:>9} {:>9} {:>9}  verdict\n",
            "file", "kB", "steps", "parse ms", "run ms", "check ms"
        ),
    )?;
    for file in files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(&file).map_err(io_err(&name))?;
        let (mut parse, mut run, mut check) = (Vec::new(), Vec::new(), Vec::new());
        let mut verdict = String::new();
        let mut steps = 0;
        for _ in 0..5 {
            let start = Instant::now();
            let algo = xml::parse(&text, &name);
            parse.push(start.elapsed().as_secs_f64() * 1e3);
            steps = algo
                .as_ref()
                .map_or(0, |a| a.gpus.iter().flat_map(|g| &g.blocks).map(|t| t.steps.len()).sum());
            let start = Instant::now();
            let judged = from_header(&text, &name, None, None);
            run.push(start.elapsed().as_secs_f64() * 1e3);
            let start = Instant::now();
            verdict = match judged {
                Ok((inst, imported)) => match checker::check(&inst, &imported.schedule) {
                    v if !imported.violations.is_empty() => {
                        format!("{} violations", imported.violations.len() + v.violations().len())
                    }
                    Verdict::Admissible(m) => format!("S = {}", m.length()),
                    v => format!("{} violations", v.violations().len()),
                },
                Err(e) => format!("not judged: {}", e.error().reason),
            };
            check.push(start.elapsed().as_secs_f64() * 1e3);
        }
        let short = file.file_name().map_or(name.clone(), |f| f.to_string_lossy().into_owned());
        w(
            out,
            format!(
                "{short:<48} {:>8.0} {steps:>7} {:>9.2} {:>9.2} {:>9.2}  {verdict}\n",
                text.len() as f64 / 1e3,
                median(parse),
                median(run),
                median(check)
            ),
        )?;
    }
    w(
        out,
        "(run ms includes a second parse: `check FILE.xml` reads the header, then runs the file)\n".into(),
    )?;
    Ok(0)
}
