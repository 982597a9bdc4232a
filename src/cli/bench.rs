//! `commsched bench`: generate-and-check times for total exchange on path(n) and ring(n), and on
//! request for scatter and centralized gather (paper 001) on seeded random trees, with the
//! checker's throughput in events per second. Timings are printed, never asserted.

use super::io_err;
use commsched::checker::{self, Verdict};
use commsched::error::InputError;
use commsched::error::Result;
use commsched::heuristics;
use commsched::spec::io::default_model;
use commsched::spec::{Instance, Network, Problem, RingTie};
use std::io::Write;
use std::time::Instant;

/// Runs the benchmark table for the given sizes, skipping (with a line saying so) any network
/// whose total exchange needs more than `max_events` packet hops; then each `NODES:FLITS` tree of
/// `trees`, scatter and gather, under the same guard on flit-arc crossings.
pub fn run(sizes: &[usize], trees: &[String], max_events: u64, out: &mut dyn Write) -> Result<u8> {
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
            let network = Network::parse(&net).map_err(|r| InputError::new("<flags>", "--sizes", r))?;
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
            rows(&inst, &net, out)?;
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
            w(
                out,
                format!("{name:<12} skipped: {events} flit-arc crossings exceed --max-events {max_events}\n"),
            )?;
            continue;
        }
        for problem in [Problem::Scatter(lengths.clone()), Problem::Gather(lengths.clone())] {
            let model = default_model(&problem);
            let inst =
                Instance::new(name.clone(), network.clone(), problem, model, RingTie::Clockwise, "<flags>")?;
            rows(&inst, &name, out)?;
        }
    }
    Ok(0)
}

/// A random tree from `NODES:FLITS`, the same for the same text: node v's parent uniform in
/// 0..v and FLITS flits spread over the non-root nodes (each gets between 0 and twice the mean),
/// from a fixed-seed xorshift generator. Returns the parents of nodes 1.. and L_0..L_{n−1}.
fn random_tree(spec: &str) -> Result<(Vec<usize>, Vec<u64>)> {
    let bad =
        |why: &str| InputError::new("<flags>", "--trees", format!("`{spec}`: {why} (expected NODES:FLITS)"));
    let (nodes, flits) = spec.split_once(':').ok_or_else(|| bad("no colon"))?;
    let nodes: usize = nodes.parse().map_err(|_| bad("NODES is not a number"))?;
    let flits: u64 = flits.parse().map_err(|_| bad("FLITS is not a number"))?;
    if nodes < 2 {
        return Err(bad("a tree needs 2 nodes").into());
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound.max(1)
    };
    let parents = (1..nodes).map(|v| next(v as u64) as usize).collect();
    let mean = flits / (nodes as u64 - 1);
    let mut lengths = vec![0u64; nodes];
    let mut left = flits;
    for l in lengths.iter_mut().skip(1) {
        *l = next(2 * mean + 1).min(left);
        left -= *l;
    }
    lengths[nodes - 1] += left;
    Ok((parents, lengths))
}

/// One row per applicable algorithm: its checked length, events, generate and check times.
fn rows(inst: &Instance, name: &str, out: &mut dyn Write) -> Result<()> {
    for m in heuristics::for_instance(inst) {
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
        out.write_all(
            format!(
                "{:<12} {:<26} {:>7} {:>12} {:>12.1} {:>12.1} {:>14.0}\n",
                name,
                m.name,
                length,
                events,
                generate.as_secs_f64() * 1e3,
                check.as_secs_f64() * 1e3,
                rate
            )
            .as_bytes(),
        )
        .map_err(io_err("<stdout>"))?;
    }
    Ok(())
}
