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
