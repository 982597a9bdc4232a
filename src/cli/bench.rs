//! `commsched bench`: generate-and-check times for total exchange on path(n) and ring(n), and
//! the checker's throughput in events per second. Timings are printed, never asserted.

use super::io_err;
use commsched::checker::{self, Verdict};
use commsched::error::Result;
use commsched::heuristics;
use commsched::spec::io::default_model;
use commsched::spec::{Instance, Network, Problem, RingTie};
use std::io::Write;
use std::time::Instant;

/// Runs the benchmark table for the given sizes, skipping (with a line saying so) any network
/// whose total exchange needs more than `max_events` packet hops.
pub fn run(sizes: &[usize], max_events: u64, out: &mut dyn Write) -> Result<u8> {
    let w = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(io_err("<stdout>"));
    w(
        out,
        format!(
            "{:<12} {:<26} {:>7} {:>12} {:>12} {:>12} {:>14}\n",
            "network", "method", "length", "events", "generate ms", "check ms", "events/s"
        ),
    )?;
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
                w(out, format!("{net:<12} skipped: {hops} packet hops exceed --max-events {max_events}\n"))?;
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
                    Verdict::Admissible(c) => (c.length().to_string(), c.metrics().events),
                    Verdict::Inadmissible(v) => {
                        (format!("INADMISSIBLE ({})", v.len()), sched.entries() as u64)
                    }
                };
                let rate = events as f64 / check.as_secs_f64().max(1e-9);
                w(
                    out,
                    format!(
                        "{:<12} {:<26} {:>7} {:>12} {:>12.1} {:>12.1} {:>14.0}\n",
                        net,
                        m.name,
                        length,
                        events,
                        generate.as_secs_f64() * 1e3,
                        check.as_secs_f64() * 1e3,
                        rate
                    ),
                )?;
            }
        }
    }
    Ok(0)
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
/// at the optimum T* (a checked witness) and at T* − 1 (infeasible). T* comes from the SAT
/// backend's certified search (the first available backend without it); a decision that runs
/// out of `timeout` seconds prints `timeout`. Timings are printed, never asserted.
pub fn exact(paths: &[std::path::PathBuf], timeout: f64, out: &mut dyn Write) -> Result<u8> {
    use commsched::compare::{Algorithms, AssessOptions, assess};
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
            "{:<22} {:>4} {:<8} {:>16} {:>20}\n",
            "instance", "T*", "backend", "witness at T* s", "infeasible at T*-1 s"
        ),
    )?;
    for (_, file) in instance_files(paths)? {
        let inst = load_instance(&file)?;
        let assess_options = AssessOptions {
            algorithms: Algorithms::Applicable,
            exact: Some(reference),
            solve: options.clone(),
            fail_fast: false,
        };
        let a = assess(&inst, None, &assess_options)?;
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
            w(
                out,
                format!("{:<22} {:>4} {:<8} {:>16} {:>20}\n", inst.name, t, backend.name(), time(t)?, below),
            )?;
        }
    }
    Ok(0)
}
