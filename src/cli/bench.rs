//! `commsched bench`: generate-and-check times for total exchange on path(n) and ring(n) and for
//! the chatting algorithms (paper 000) on random instances of many messages, the checker's
//! throughput in events per second, and the time the exact layer alone needs to certify optima
//! of small random ULA chatting instances. Timings are printed, never asserted.

use super::args::Format;
use super::io_err;
use commsched::checker::{self, Verdict};
use commsched::compare::ratios::{chatting_instance, random_messages};
use commsched::error::Result;
use commsched::exact::{self, BackendKind, Outcome, SolveOptions};
use commsched::heuristics::{self, Method};
use commsched::rng::SplitMix64;
use commsched::spec::io::default_model;
use commsched::spec::{Instance, Network, Problem, RingTie};
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
    /// Events checked (packet or flit hops), or schedule entries when inadmissible.
    events: u64,
    generate_ms: f64,
    check_ms: f64,
    events_per_second: f64,
}

/// A network `bench` skipped for the size guard.
#[derive(Debug, Serialize)]
struct Skipped {
    network: String,
    packet_hops: u64,
    max_events: u64,
}

/// The exact layer alone on random 12-message ULA instances of one schedule kind.
#[derive(Debug, Serialize)]
struct ExactRow {
    /// `chatting` (T_opt) or `virtual` (S_opt).
    schedule: &'static str,
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
    /// The exact layer's time limit per instance.
    pub exact_timeout: Duration,
}

/// Writes text to the output.
fn w(out: &mut dyn Write, s: String) -> Result<()> {
    out.write_all(s.as_bytes()).map_err(io_err("<stdout>"))
}

/// `method` generates a schedule of `inst`, the checker checks it.
fn measure(network: &str, inst: &Instance, m: &'static Method) -> Result<Row> {
    let t0 = Instant::now();
    let sched = m.produce(inst)?;
    let generate = t0.elapsed();
    let t1 = Instant::now();
    let verdict = checker::check(inst, &sched);
    let check = t1.elapsed();
    let (length, events) = match &verdict {
        Verdict::Admissible(c) => (Some(c.length()), c.metrics().events),
        Verdict::Inadmissible(_) => (None, sched.entries() as u64),
    };
    Ok(Row {
        network: network.to_string(),
        method: m.name,
        length,
        violations: verdict.violations().len(),
        events,
        generate_ms: generate.as_secs_f64() * 1e3,
        check_ms: check.as_secs_f64() * 1e3,
        events_per_second: events as f64 / check.as_secs_f64().max(1e-9),
    })
}

/// Runs the benchmark for the given sizes, skipping (with a line saying so) any network whose
/// total exchange needs more than `max_events` packet hops, then the chatting rows and the exact
/// rows; prints tables, or one JSON object.
pub fn run(
    sizes: &[usize],
    max_events: u64,
    chatting: &Chatting,
    format: Format,
    out: &mut dyn Write,
) -> Result<u8> {
    let json = format == Format::Json;
    let width = heuristics::all().iter().map(|m| m.name.len()).max().unwrap_or(0);
    let mut bench = Bench::default();
    let push = |out: &mut dyn Write, bench: &mut Bench, row: Row| -> Result<()> {
        if !json {
            let length =
                row.length.map_or_else(|| format!("INADMISSIBLE ({})", row.violations), |l| l.to_string());
            w(
                out,
                format!(
                    "{:<16} {:<width$} {:>7} {:>12} {:>12.1} {:>12.1} {:>14.0}\n",
                    row.network,
                    row.method,
                    length,
                    row.events,
                    row.generate_ms,
                    row.check_ms,
                    row.events_per_second
                ),
            )?;
        }
        bench.rows.push(row);
        Ok(())
    };
    if !json {
        w(
            out,
            format!(
                "{:<16} {:<width$} {:>7} {:>12} {:>12} {:>12} {:>14}\n",
                "network", "method", "length", "events", "generate ms", "check ms", "events/s"
            ),
        )?;
    }
    for &n in sizes {
        for (net, tie) in
            [(format!("path:{n}"), RingTie::Clockwise), (format!("ring:{n}"), RingTie::Alternating)]
        {
            let network = Network::parse(&net)
                .map_err(|r| commsched::error::InputError::new("<flags>", "--sizes", r))?;
            let problem = Problem::TotalExchange(None);
            let model = default_model(&problem);
            let inst = Instance::new(net.clone(), network, problem, model, tie, "<flags>")?;
            // Every packet crosses at least its distance: the hops of any schedule.
            let hops: u64 = inst
                .packets()
                .iter()
                .filter_map(|p| inst.network.distance(p.src, p.dst))
                .map(|d| d as u64)
                .sum();
            if hops > max_events {
                if !json {
                    w(
                        out,
                        format!("{net:<16} skipped: {hops} packet hops exceed --max-events {max_events}\n"),
                    )?;
                }
                bench.skipped.push(Skipped { network: net, packet_hops: hops, max_events });
                continue;
            }
            for m in heuristics::for_instance(&inst) {
                push(out, &mut bench, measure(&net, &inst, m)?)?;
            }
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
            for m in heuristics::for_instance(&inst) {
                push(out, &mut bench, measure(&label, &inst, m)?)?;
            }
        }
    }
    exact_rows(chatting, &mut bench)?;
    if json {
        w(out, serde_json::to_string_pretty(&bench).expect("the bench serialises") + "\n")?;
    } else if !bench.exact.is_empty() {
        w(
            out,
            format!(
                "\n{:<34} {:>9} {:>9} {:>12} {:>12}\n",
                "exact, ula:8, 12 messages", "draws", "certified", "median s", "max s"
            ),
        )?;
        for e in &bench.exact {
            let kind =
                format!("{} ({})", e.schedule, if e.schedule == "virtual" { "S_opt" } else { "T_opt" });
            w(
                out,
                format!(
                    "{kind:<34} {:>9} {:>9} {:>12.3} {:>12.3}\n",
                    e.draws, e.certified, e.median_seconds, e.max_seconds
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
            schedule,
            draws: c.exact_draws,
            certified,
            median_seconds: seconds[seconds.len() / 2],
            max_seconds: seconds[seconds.len() - 1],
        });
    }
    Ok(())
}
