//! The collective model (docs/spec.md §4.4, SCCL's synthesis model): chunks move store-and-forward
//! one hop per step, a node may multicast, and in step s with r_s rounds
//!
//! - an arc u → v of bandwidth b carries at most b·r_s distinct chunks (**bandwidth rule**);
//! - a switch group (sources, destinations, b) carries at most b·r_s chunks, counted once per
//!   (source, destination) pair as SCCL's encoding counts them (**bandwidth rule**);
//! - Σ r_s over the schedule's steps is at most the model's budget R, and without a budget
//!   every step has one round (**round budget**);
//! - a node sends only chunks it holds at the end of step s − 1 (**not held**);
//! - a node receives each chunk at most once, and never one it started with (**receive
//!   once**: SCCL gives every received chunk a unique source);
//!
//! and at the end every chunk is at each of its targets (**incomplete delivery**). Every
//! violation is collected. The length is last non-empty step − first non-empty step + 1; the
//! rounds counted against R are those of the steps in that span.
//!
//! **Combining collectives** (reduce, reduce-scatter, allreduce) are judged by what each node
//! holds of each chunk: the set of contributors its partial reduction includes (its own input
//! at the start). A send carries the sender's set at the end of step s − 1 (an empty one is
//! **not held**). On arrival the receiver combines a set disjoint from its own, takes a copy
//! of one that contains its own, and anything else would count a contributor twice
//! (**counted twice**); arrivals at one node in one step are applied largest set first. A
//! node may receive a chunk any number of times, and at the end each target holds the
//! reduction of exactly all contributors (**incomplete delivery** names the missing ones).

use super::{Metrics, Rule, Verdict, Violation, span_length};
use crate::spec::{Chunk, Instance, Model, Node, Problem, Transmission};
use std::collections::BTreeSet;

/// What the nodes hold of each chunk, indexed `c·n + v`.
enum Holdings {
    /// Copies of chunks (non-combining collectives), and which were received.
    Copies { held: Vec<bool>, received: Vec<bool> },
    /// The contributors of each partial reduction (combining collectives).
    Partials(Vec<BTreeSet<Node>>),
}

/// One chunk arriving at the end of a step: its index `c·n + v`, sender, and for a combining
/// collective the contributors it carries.
struct Arrival {
    index: usize,
    from: Node,
    partial: BTreeSet<Node>,
}

impl Holdings {
    fn new(chunks: &[Chunk], n: usize, combining: bool) -> Self {
        let start = |c: usize, v: Node| chunks[c].sources.contains(&v);
        if combining {
            let sets = (0..chunks.len() * n)
                .map(|i| if start(i / n, i % n) { BTreeSet::from([i % n]) } else { BTreeSet::new() })
                .collect();
            Holdings::Partials(sets)
        } else {
            let held = (0..chunks.len() * n).map(|i| start(i / n, i % n)).collect();
            Holdings::Copies { held, received: vec![false; chunks.len() * n] }
        }
    }

    /// Whether v holds anything of chunk `index / n`.
    fn holds(&self, index: usize) -> bool {
        match self {
            Holdings::Copies { held, .. } => held[index],
            Holdings::Partials(sets) => !sets[index].is_empty(),
        }
    }

    /// What a send from `index` carries.
    fn payload(&self, index: usize) -> BTreeSet<Node> {
        match self {
            Holdings::Copies { .. } => BTreeSet::new(),
            Holdings::Partials(sets) => sets[index].clone(),
        }
    }

    /// Whether `index` holds everything chunk c must end with at v.
    fn complete(&self, index: usize, chunk: &Chunk) -> bool {
        match self {
            Holdings::Copies { held, .. } => held[index],
            Holdings::Partials(sets) => chunk.sources.iter().all(|s| sets[index].contains(s)),
        }
    }
}

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
    let mut holdings = Holdings::new(&chunks, n, collective.kind.combining());
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
        if r > 1 && budget.is_none() {
            violations.push(Violation {
                rule: Rule::RoundBudget,
                step: Some(s),
                place: "schedule".into(),
                detail: format!("has {r} rounds, but without a budget R every step has one"),
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
                if !holdings.holds(c * n + tr.from) {
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
                if let Holdings::Copies { received, .. } = &mut holdings {
                    let again = std::mem::replace(&mut received[c * n + tr.to], true);
                    let detail = if chunk.sources.contains(&tr.to) {
                        format!("receives chunk {c}, which it started with (from node {})", tr.from)
                    } else if again {
                        format!("receives chunk {c} a second time (from node {})", tr.from)
                    } else {
                        String::new()
                    };
                    if !detail.is_empty() {
                        let place = format!("node {}", tr.to);
                        violations.push(Violation { rule: Rule::ReceiveOnce, step: Some(s), place, detail });
                    }
                }
                let partial = holdings.payload(c * n + tr.from);
                arrivals.push(Arrival { index: c * n + tr.to, from: tr.from, partial });
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
        arrive(&mut holdings, arrivals, n, s, &mut violations);
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
        let missing: Vec<usize> = (0..chunks.len())
            .filter(|&c| chunks[c].targets.contains(&v) && !holdings.complete(c * n + v, &chunks[c]))
            .collect();
        if let (Holdings::Partials(sets), Some(&c)) = (&holdings, missing.first()) {
            let lacking: Vec<Node> =
                chunks[c].sources.iter().copied().filter(|u| !sets[c * n + v].contains(u)).collect();
            violations.push(Violation {
                rule: Rule::Incomplete,
                step: None,
                place: format!("node {v}"),
                detail: format!(
                    "ends chunk {c} without the contributions of {} (and {} of its chunks are incomplete: {})",
                    node_list(&lacking),
                    missing.len(),
                    chunk_list(&missing)
                ),
            });
        } else if !missing.is_empty() {
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

/// Applies the arrivals of step `s` (module documentation): copies are held; partial
/// reductions combine when disjoint, replace one they contain, and otherwise count a
/// contributor twice.
fn arrive(
    holdings: &mut Holdings,
    mut arrivals: Vec<Arrival>,
    n: usize,
    s: i64,
    violations: &mut Vec<Violation>,
) {
    match holdings {
        Holdings::Copies { held, .. } => arrivals.iter().for_each(|a| held[a.index] = true),
        Holdings::Partials(sets) => {
            arrivals.sort_by_key(|a| (std::cmp::Reverse(a.partial.len()), a.index, a.from));
            for a in arrivals.into_iter().filter(|a| !a.partial.is_empty()) {
                let own = &mut sets[a.index];
                if own.is_disjoint(&a.partial) {
                    own.extend(a.partial);
                } else if a.partial.is_superset(own) {
                    *own = a.partial;
                } else {
                    let twice: Vec<Node> = own.intersection(&a.partial).copied().collect();
                    violations.push(Violation {
                        rule: Rule::CountedTwice,
                        step: Some(s),
                        place: format!("node {}", a.index % n),
                        detail: format!(
                            "receives chunk {} from node {} with the contributions of {}, which its own partial reduction ({}) already counts in part: {} would count twice",
                            a.index / n,
                            a.from,
                            node_list(&a.partial.iter().copied().collect::<Vec<_>>()),
                            node_list(&own.iter().copied().collect::<Vec<_>>()),
                            node_list(&twice)
                        ),
                    });
                }
            }
        }
    }
}

/// `nodes 0, 3, 5` (the first [`LISTED`], then how many more).
fn node_list(nodes: &[Node]) -> String {
    listed("node", nodes)
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
    listed("chunk", chunks)
}

/// `WHATs 0, 3, 5` (`WHAT 4` alone; the first [`LISTED`], then how many more).
fn listed(what: &str, items: &[usize]) -> String {
    let shown: Vec<String> = items.iter().take(LISTED).map(|c| c.to_string()).collect();
    let more = items.len().saturating_sub(LISTED);
    format!(
        "{what}{} {}{}",
        if items.len() == 1 { "" } else { "s" },
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
