//! `commsched bench`: generate-and-check times for total exchange on path(n) and ring(n) and for
//! the chatting algorithms (paper 000) on random instances of many messages, the checker's
//! throughput in events per second, and the time the exact layer alone needs to certify optima
//! of small random ULA chatting instances. Timings are printed, never asserted.

use super::io_err;
use commsched::checker::{self, Verdict};
use commsched::compare::ratios::{chatting_instance, random_messages};
use commsched::error::Result;
use commsched::exact::{self, BackendKind, Outcome, SolveOptions};
use commsched::heuristics::{self, Method};
use commsched::rng::SplitMix64;
use commsched::spec::io::default_model;
use commsched::spec::{Instance, Network, Problem, RingTie};
use std::io::Write;
use std::time::{Duration, Instant};

/// The networks of the chatting rows: about a thousand nodes each.
const CHATTING_NETWORKS: [&str; 4] = ["ula:1024", "path:1024", "esm:32", "mesh:32x32"];

/// Writes a line of the table.
fn w(out: &mut dyn Write, s: String) -> Result<()> {
    out.write_all(s.as_bytes()).map_err(io_err("<stdout>"))
}

/// One row: `method` generates a schedule of `inst`, the checker checks it.
fn row(out: &mut dyn Write, label: &str, inst: &Instance, m: &Method) -> Result<()> {
    let t0 = Instant::now();
    let sched = m.produce(inst)?;
    let generate = t0.elapsed();
    let t1 = Instant::now();
    let verdict = checker::check(inst, &sched);
    let check = t1.elapsed();
    let (length, events) = match &verdict {
        Verdict::Admissible(c) => (c.length().to_string(), c.metrics().events),
        Verdict::Inadmissible(v) => (format!("INADMISSIBLE ({})", v.len()), sched.entries() as u64),
    };
    let rate = events as f64 / check.as_secs_f64().max(1e-9);
    w(
        out,
        format!(
            "{:<16} {:<31} {:>7} {:>12} {:>12.1} {:>12.1} {:>14.0}\n",
            label,
            m.name,
            length,
            events,
            generate.as_secs_f64() * 1e3,
            check.as_secs_f64() * 1e3,
            rate
        ),
    )
}

/// Runs the benchmark table for the given sizes, skipping (with a line saying so) any network
/// whose total exchange needs more than `max_events` packet hops.
pub fn run(sizes: &[usize], max_events: u64, chatting: &Chatting, out: &mut dyn Write) -> Result<u8> {
    w(
        out,
        format!(
            "{:<16} {:<31} {:>7} {:>12} {:>12} {:>12} {:>14}\n",
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
                w(out, format!("{net:<16} skipped: {hops} packet hops exceed --max-events {max_events}\n"))?;
                continue;
            }
            for m in heuristics::for_instance(&inst) {
                row(out, &net, &inst, m)?;
            }
        }
    }
    chatting_rows(chatting, out)?;
    exact_rows(chatting, out)?;
    Ok(0)
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

/// Every chatting algorithm on random instances of `messages` messages on networks of about a
/// thousand nodes (`CHATTING_NETWORKS` and a random tree), unit-length (`unit`) and with lengths
/// 1..=4 (`var`), as chatting schedules.
fn chatting_rows(c: &Chatting, out: &mut dyn Write) -> Result<()> {
    let mut rng = SplitMix64::new(1);
    let tree =
        format!("tree:{}", (1..1024).map(|v| rng.range(0, v - 1).to_string()).collect::<Vec<_>>().join(","));
    let networks = CHATTING_NETWORKS.iter().map(|s| (s.to_string(), s.to_string()));
    for (label, net) in networks.chain([("tree:1024".to_string(), tree)]) {
        let network = Network::parse(&net).expect("valid benchmark network");
        let var = random_messages(&network, c.messages, 4, &mut rng);
        let unit: Vec<_> = var.iter().map(|&(s, d, _)| (s, d, 1)).collect();
        for (kind, messages) in [("unit", &unit), ("var", &var)] {
            let inst = chatting_instance(format!("{label} {kind}"), &network, messages, false)?;
            for m in heuristics::for_instance(&inst) {
                row(out, &format!("{label} {kind}"), &inst, m)?;
            }
        }
    }
    Ok(())
}

/// The exact layer alone (ILP, no lower bounds, no incumbent: it must prove T* − 1 infeasible
/// itself) on `exact_draws` random ula:8 instances of 12 messages with lengths 1..=4, real and
/// virtual: how many it certifies within the limit, and the median and largest time.
fn exact_rows(c: &Chatting, out: &mut dyn Write) -> Result<()> {
    if c.exact_draws == 0 {
        return Ok(());
    }
    let network = Network::parse("ula:8").expect("valid network");
    let options = SolveOptions { timeout: Some(c.exact_timeout), ..SolveOptions::default() };
    w(
        out,
        format!(
            "\n{:<34} {:>9} {:>9} {:>12} {:>12}\n",
            "exact, ula:8, 12 messages", "draws", "certified", "median s", "max s"
        ),
    )?;
    for virtual_schedule in [false, true] {
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
        let kind = if virtual_schedule { "virtual (S_opt)" } else { "chatting (T_opt)" };
        w(
            out,
            format!(
                "{kind:<34} {:>9} {certified:>9} {:>12.3} {:>12.3}\n",
                c.exact_draws,
                seconds[seconds.len() / 2],
                seconds[seconds.len() - 1]
            ),
        )?;
    }
    Ok(())
}
