//! `commsched bench`: generate-and-check times for total exchange on path(n) and ring(n), and
//! the checker's throughput in events per second. Timings are printed, never asserted.

use super::args::Format;
use super::io_err;
use commsched::checker::{self, Verdict};
use commsched::error::Result;
use commsched::heuristics;
use commsched::spec::io::default_model;
use commsched::spec::{Instance, Network, Problem, RingTie};
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// One measured method in `bench --format json`.
#[derive(Debug, Serialize)]
struct Row {
    network: String,
    method: &'static str,
    /// The checked length; `None` when the checker rejects the schedule.
    length: Option<u64>,
    /// How many violations the checker found (0 when admissible).
    violations: usize,
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
    packet_hops: u64,
    max_events: u64,
}

/// What `bench --format json` prints.
#[derive(Debug, Default, Serialize)]
struct Bench {
    rows: Vec<Row>,
    skipped: Vec<Skipped>,
}

/// Runs the benchmark for the given sizes, skipping (with a line saying so) any network whose
/// total exchange needs more than `max_events` packet hops; prints a table, or one JSON object.
pub fn run(sizes: &[usize], max_events: u64, format: Format, out: &mut dyn Write) -> Result<u8> {
    let w = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(io_err("<stdout>"));
    let json = format == Format::Json;
    let width = heuristics::all().iter().map(|m| m.name.len()).max().unwrap_or(0);
    let mut bench = Bench::default();
    if !json {
        w(
            out,
            format!(
                "{:<12} {:<width$} {:>7} {:>12} {:>12} {:>12} {:>14}\n",
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
                        format!("{net:<12} skipped: {hops} packet hops exceed --max-events {max_events}\n"),
                    )?;
                }
                bench.skipped.push(Skipped { network: net, packet_hops: hops, max_events });
                continue;
            }
            for m in heuristics::for_instance(&inst) {
                let t0 = Instant::now();
                let sched = m.produce(&inst)?;
                let generate = t0.elapsed();
                let t1 = Instant::now();
                let verdict = checker::check(&inst, &sched);
                let check = t1.elapsed();
                let (length, events) = match &verdict {
                    Verdict::Admissible(c) => (Some(c.length()), c.metrics().events),
                    Verdict::Inadmissible(_) => (None, sched.entries() as u64),
                };
                let row = Row {
                    network: net.clone(),
                    method: m.name,
                    length,
                    violations: verdict.violations().len(),
                    events,
                    generate_ms: generate.as_secs_f64() * 1e3,
                    check_ms: check.as_secs_f64() * 1e3,
                    events_per_second: events as f64 / check.as_secs_f64().max(1e-9),
                };
                if !json {
                    let length = row
                        .length
                        .map_or_else(|| format!("INADMISSIBLE ({})", row.violations), |l| l.to_string());
                    w(
                        out,
                        format!(
                            "{:<12} {:<width$} {:>7} {:>12} {:>12.1} {:>12.1} {:>14.0}\n",
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
            }
        }
    }
    if json {
        w(out, serde_json::to_string_pretty(&bench).expect("the bench serialises") + "\n")?;
    }
    Ok(0)
}
