//! The collective model (docs/spec.md §4.4, SCCL's synthesis model): chunks move store-and-forward
//! one hop per step, a node may multicast, and in step s with r_s rounds
//!
//! - an arc u → v of bandwidth b carries at most b·r_s distinct chunks (**bandwidth rule**);
//! - a switch group (sources, destinations, b) carries at most b·r_s chunks, counted once per
//!   (source, destination) pair as SCCL's encoding counts them (**bandwidth rule**);
//! - Σ r_s over the schedule's steps is at most the model's budget R (**round budget**);
//! - a node sends only chunks it holds at the end of step s − 1 (**not held**);
//! - a node receives each chunk at most once, and never one it started with (**receive
//!   once**: SCCL gives every received chunk a unique source);
//!
//! and at the end every chunk is at each of its targets (**incomplete delivery**). Every
//! violation is collected. The length is last non-empty step − first non-empty step + 1; the
//! rounds counted against R are those of the steps in that span.

use super::{Metrics, Rule, Verdict, Violation, span_length};
use crate::spec::{Instance, Model, Problem, Transmission};
use std::collections::BTreeSet;

/// At most this many chunks are named in one diagnosis.
const LISTED: usize = 6;

/// Checks a collective schedule: `steps[t]` are the transmissions of step t + 1 (their tokens
/// are chunk ids), `rounds[t]` its rounds.
pub fn check(inst: &Instance, steps: &[Vec<Transmission>], rounds: &[u64]) -> Verdict {
    let (Problem::Collective(collective), Model::Collective { rounds: budget }) =
        (&inst.problem, &inst.model)
    else {
        return Verdict::Inadmissible(vec![Violation {
            rule: Rule::BadEntry,
            step: None,
            place: "schedule".into(),
            detail: format!(
                "is a collective schedule but the instance is {} in {}",
                inst.problem,
                inst.model.name()
            ),
        }]);
    };
    let net = &inst.network;
    let n = net.len();
    let chunks = collective.chunk_table(n);
    let mut held = vec![false; chunks.len() * n];
    let mut received = vec![false; chunks.len() * n];
    for (c, chunk) in chunks.iter().enumerate() {
        for &v in &chunk.sources {
            held[c * n + v] = true;
        }
    }
    let mut violations = Vec::new();
    let (mut first, mut last) = (None, None);
    let mut events = 0u64;
    if rounds.len() != steps.len() {
        violations.push(Violation {
            rule: Rule::BadEntry,
            step: None,
            place: "schedule".into(),
            detail: format!("gives {} rounds for {} steps", rounds.len(), steps.len()),
        });
    }
    for (t, step) in steps.iter().enumerate() {
        let s = t as i64 + 1;
        let r = rounds.get(t).copied().unwrap_or(1);
        if r == 0 {
            violations.push(Violation {
                rule: Rule::BadEntry,
                step: Some(s),
                place: "schedule".into(),
                detail: "has 0 rounds: every step has at least one".into(),
            });
        }
        if !step.is_empty() {
            first = first.or(Some(s));
            last = Some(s);
        }
        let mut arrivals = Vec::new();
        // Distinct chunks per (source, destination) pair, for the switch groups.
        let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
        let mut seen_arcs = BTreeSet::new();
        for tr in step {
            let place = format!("arc ({},{})", tr.from, tr.to);
            let Some(arc) = net.arc(tr.from, tr.to) else {
                violations.push(Violation {
                    rule: Rule::NotAnArc,
                    step: Some(s),
                    place,
                    detail: format!("is not an arc of {}", net.spec_string()),
                });
                continue;
            };
            if !seen_arcs.insert(arc) {
                violations.push(Violation {
                    rule: Rule::BadEntry,
                    step: Some(s),
                    place: place.clone(),
                    detail: "is listed twice in the step: give all its chunks in one transmission".into(),
                });
            }
            let distinct: BTreeSet<usize> = tr.tokens.iter().copied().collect();
            if distinct.len() != tr.tokens.len() || distinct.is_empty() {
                violations.push(Violation {
                    rule: Rule::BadEntry,
                    step: Some(s),
                    place: place.clone(),
                    detail: if distinct.is_empty() {
                        "carries no chunk".into()
                    } else {
                        format!("names a chunk twice: {}", chunk_list(&tr.tokens))
                    },
                });
            }
            let capacity = net.bandwidth(arc).saturating_mul(r);
            if distinct.len() as u64 > capacity {
                violations.push(Violation {
                    rule: Rule::BandwidthRule,
                    step: Some(s),
                    place: place.clone(),
                    detail: format!(
                        "carries {} chunks, more than bandwidth {} x {r} round{} = {capacity}: {}",
                        distinct.len(),
                        net.bandwidth(arc),
                        if r == 1 { "" } else { "s" },
                        chunk_list(&tr.tokens)
                    ),
                });
            }
            pairs.push((tr.from, tr.to, distinct.len()));
            for &c in &distinct {
                let Some(chunk) = chunks.get(c) else {
                    violations.push(Violation {
                        rule: Rule::UnknownItem,
                        step: Some(s),
                        place: place.clone(),
                        detail: format!(
                            "carries chunk {c}, but the instance has chunks 0..{}",
                            chunks.len() - 1
                        ),
                    });
                    continue;
                };
                events += 1;
                if !held[c * n + tr.from] {
                    violations.push(Violation {
                        rule: Rule::NotHeld,
                        step: Some(s),
                        place: format!("node {}", tr.from),
                        detail: format!(
                            "sends chunk {c}, which it does not hold at the end of step {}",
                            s - 1
                        ),
                    });
                }
                if chunk.sources.contains(&tr.to) {
                    violations.push(Violation {
                        rule: Rule::ReceiveOnce,
                        step: Some(s),
                        place: format!("node {}", tr.to),
                        detail: format!("receives chunk {c}, which it started with (from node {})", tr.from),
                    });
                } else if std::mem::replace(&mut received[c * n + tr.to], true) {
                    violations.push(Violation {
                        rule: Rule::ReceiveOnce,
                        step: Some(s),
                        place: format!("node {}", tr.to),
                        detail: format!("receives chunk {c} a second time (from node {})", tr.from),
                    });
                }
                arrivals.push(c * n + tr.to);
            }
        }
        for sw in net.switches() {
            let load: usize = pairs
                .iter()
                .filter(|(u, v, _)| sw.sources.contains(u) && sw.destinations.contains(v))
                .map(|&(_, _, k)| k)
                .sum();
            let capacity = sw.bandwidth.saturating_mul(r);
            if load as u64 > capacity {
                violations.push(Violation {
                    rule: Rule::BandwidthRule,
                    step: Some(s),
                    place: format!("switch `{}`", sw.name),
                    detail: format!(
                        "carries {load} chunks, more than bandwidth {} x {r} round{} = {capacity}",
                        sw.bandwidth,
                        if r == 1 { "" } else { "s" }
                    ),
                });
            }
        }
        for i in arrivals {
            held[i] = true;
        }
    }
    let length = span_length(first, last);
    let used: u64 = match (first, last) {
        (Some(f), Some(l)) => rounds.iter().take(l as usize).skip(f as usize - 1).sum(),
        _ => 0,
    };
    if let Some(budget) = budget
        && used > *budget
    {
        violations.push(Violation {
            rule: Rule::RoundBudget,
            step: None,
            place: "schedule".into(),
            detail: format!("uses {used} rounds over its {length} steps, more than the budget R = {budget}"),
        });
    }
    for v in 0..n {
        let missing: Vec<usize> =
            (0..chunks.len()).filter(|&c| chunks[c].targets.contains(&v) && !held[c * n + v]).collect();
        if !missing.is_empty() {
            violations.push(Violation {
                rule: Rule::Incomplete,
                step: None,
                place: format!("node {v}"),
                detail: format!(
                    "does not end with {} chunk{}: {}",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" },
                    chunk_list(&missing)
                ),
            });
        }
    }
    let mut metrics = Metrics { events, ..Default::default() };
    metrics.extra.push(("rounds".into(), used.to_string()));
    metrics.extra.push(("chunks per rank's data (C)".into(), collective.chunks.to_string()));
    metrics.extra.push(("bandwidth cost R/C".into(), ratio(used, collective.chunks as u64)));
    if let Some(f) = first.filter(|&f| f > 1) {
        metrics.extra.push(("first step".into(), f.to_string()));
    }
    Verdict::from_parts(violations, length, metrics)
}

/// `R/C` in lowest terms (`7/6`, `2`).
pub fn ratio(rounds: u64, chunks: u64) -> String {
    let (mut a, mut b) = (rounds, chunks.max(1));
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1);
    if chunks / g == 1 { format!("{}", rounds / g) } else { format!("{}/{}", rounds / g, chunks / g) }
}

/// `chunks 0, 3, 5` (the first [`LISTED`], then how many more).
fn chunk_list(chunks: &[usize]) -> String {
    let shown: Vec<String> = chunks.iter().take(LISTED).map(|c| c.to_string()).collect();
    let more = chunks.len().saturating_sub(LISTED);
    format!(
        "chunks {}{}",
        shown.join(", "),
        if more > 0 { format!(", and {more} more") } else { String::new() }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_is_in_lowest_terms() {
        assert_eq!(ratio(7, 6), "7/6");
        assert_eq!(ratio(4, 2), "2");
        assert_eq!(ratio(3, 6), "1/2");
        assert_eq!(ratio(0, 3), "0");
    }
}
