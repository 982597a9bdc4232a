//! # Collective model: steps and rounds (docs/spec.md §4.4, §8)
//!
//! SCCL's own bounds (PPoPP'21 §5), read in commsched's terms:
//!
//! * **distance**: a chunk moves one hop per step, so S ≥ the largest hop distance from a
//!   chunk's nearest source to one of its targets.
//! * **receive bandwidth**: node v must receive k_v distinct chunks (targets it does not start
//!   with), each once. In a step of r rounds it receives at most `cap_v · r`, where `cap_v` is
//!   the smallest of Σ_u b(u, v) over its in-arcs and the bandwidth of any switch group whose
//!   destinations are {v} and whose sources cover every in-neighbour of v. So the rounds used
//!   satisfy R ≥ ⌈k_v / cap_v⌉ ([`rounds_needed`]). With one round per step (no budget), that
//!   is a bound on the steps; with a budget R below it, no schedule exists at any length.
//!
//! * **cut** ([`cut`]): for a set S of nodes, every chunk with a target in S and no source in
//!   S enters S at least once, and the arcs into S carry at most Σ b(u, v) (u ∉ S, v ∈ S)
//!   chunks a round: R ≥ ⌈chunks entering / that bandwidth⌉. The sets tried grow greedily from
//!   each node, adding the node that raises the ratio most (and their complements): on two
//!   8-GPU boxes joined by 8 unit links, alltoall's 64 chunks into a box need 8 rounds.
//!   Receive bandwidth and cut are cheap and exact; with a budget R below either, no schedule
//!   exists at any length ([`no_schedule`]).
//!
//! * **multicommodity flow** ([`rounds_per_chunk`]): SCCL's `lower_bound_rounds` as a linear
//!   program (good_lp, microlp). With one chunk per unit, f(c, a) ∈ [0, 1] is the fraction of
//!   chunk c that crosses arc a; a node that does not start with c sends on each out-arc at
//!   most what it receives, a target receives exactly 1; every arc carries at most b(a)·ρ and
//!   every switch group its bandwidth times ρ. Any schedule of R rounds and C chunks gives a
//!   solution with ρ = R/C (count each piece of c as 1/C of it), so R/C ≥ ρ\* = min ρ. The
//!   receive-bandwidth bound per chunk is one of its rows summed, so ρ\* is at least that.
//!   The LP is solved in floating point: R is taken ≥ ⌈ρ\*·C − 10⁻⁶⌉.

use super::Bound;
use crate::deadline::{self, Deadline};
use crate::spec::{Chunk, Instance, Model, Node, Problem};
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, microlp, variable};

/// The largest hop distance some chunk must travel, if the instance is a collective: from its
/// nearest source to a target, or for a combining collective from any contributor.
pub fn distance(inst: &Instance) -> Option<u64> {
    let targets = inst.collective_distances()?;
    targets.iter().flatten().map(|&(_, d)| d).filter(|&d| d != usize::MAX).max().map(|d| d as u64)
}

/// The node whose receiving needs the most rounds: `(node, chunks it must receive, chunks it
/// can receive per round, ⌈chunks / per round⌉)`, if the instance is a collective.
pub fn rounds_needed(inst: &Instance) -> Option<(Node, u64, u64, u64)> {
    let Problem::Collective(c) = &inst.problem else { return None };
    if c.kind.combining() {
        return rounds_needed(&inst.non_combining_dual()?);
    }
    let net = &inst.network;
    let n = net.len();
    let mut need = vec![0u64; n];
    for chunk in c.chunk_table(n) {
        for &t in chunk.targets.iter().filter(|t| !chunk.sources.contains(t)) {
            need[t] += 1;
        }
    }
    let mut in_bw = vec![0u64; n];
    let mut in_nbrs: Vec<Vec<Node>> = vec![Vec::new(); n];
    for (a, &(u, v)) in net.arcs().iter().enumerate() {
        in_bw[v] += net.bandwidth(a);
        in_nbrs[v].push(u);
    }
    for sw in net.switches() {
        if let [v] = sw.destinations[..]
            && in_nbrs[v].iter().all(|u| sw.sources.contains(u))
        {
            in_bw[v] = in_bw[v].min(sw.bandwidth);
        }
    }
    (0..n)
        .filter(|&v| need[v] > 0 && in_bw[v] > 0)
        .map(|v| (v, need[v], in_bw[v], need[v].div_ceil(in_bw[v])))
        .max_by_key(|&(v, .., r)| (r, std::cmp::Reverse(v)))
}

/// A set of nodes and what must enter it: `(nodes, chunks entering per chunk unit, bandwidth
/// into it per round)`; the rounds it needs are ⌈C · entering / bandwidth⌉.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// S, in increasing order.
    pub nodes: Vec<Node>,
    /// The chunk units with a target in S and no source in S (C = 1).
    pub entering: u64,
    /// Σ b(u, v) over the arcs u → v with u ∉ S, v ∈ S.
    pub bandwidth: u64,
}

impl Cut {
    /// The rounds C chunks per unit need through it.
    pub fn rounds(&self, chunks: usize) -> u64 {
        (self.entering * chunks as u64).div_ceil(self.bandwidth)
    }
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nodes: Vec<String> = self.nodes.iter().map(ToString::to_string).collect();
        write!(f, "{{{}}}", nodes.join(", "))
    }
}

/// Greedy growths are skipped above this much work (starts × additions × candidates × (units +
/// arcs)), on networks too large for a bitmask (over 64 nodes), and for allreduce.
const CUT_WORK: usize = 200_000_000;

/// The set S of nodes whose entering chunks need the most rounds, per chunk unit (module
/// documentation), among the sets grown greedily from each node and their complements; `None`
/// when nothing must enter any of them (or the search is skipped). A reduction's is its
/// non-combining dual's.
pub fn cut(inst: &Instance) -> Option<Cut> {
    let Problem::Collective(c) = &inst.problem else { return None };
    if c.kind.combining() {
        return cut(&inst.non_combining_dual()?);
    }
    let net = &inst.network;
    let n = net.len();
    let units = crate::spec::Collective { chunks: 1, ..*c }.chunk_table(n);
    if n > 64 || n * n * n * (units.len() + net.arcs().len()) > CUT_WORK {
        return None;
    }
    let mask = |nodes: &[Node]| nodes.iter().fold(0u64, |m, &v| m | 1 << v);
    let units: Vec<(u64, u64)> = units.iter().map(|u| (mask(&u.sources), mask(&u.targets))).collect();
    let arcs: Vec<(u64, u64, u64)> =
        net.arcs().iter().enumerate().map(|(a, &(u, v))| (1 << u, 1 << v, net.bandwidth(a))).collect();
    let measure = |set: u64| -> (u64, u64) {
        let entering = units.iter().filter(|&&(s, t)| s & set == 0 && t & set != 0).count() as u64;
        let bandwidth = arcs.iter().filter(|&&(u, v, _)| u & set == 0 && v & set != 0).map(|a| a.2).sum();
        (entering, bandwidth)
    };
    // (entering, bandwidth) a before b: a's ratio is the larger, and every set counts.
    let better = |a: (u64, u64), b: (u64, u64)| match (a.1, b.1) {
        (0, _) | (_, 0) => false,
        _ => u128::from(a.0) * u128::from(b.1) > u128::from(b.0) * u128::from(a.1),
    };
    let all = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    let mut best: Option<(u64, (u64, u64))> = None;
    let mut consider = |set: u64, m: (u64, u64)| {
        if m.0 > 0 && m.1 > 0 && best.is_none_or(|(_, b)| better(m, b)) {
            best = Some((set, m));
        }
    };
    for start in 0..n {
        let mut set = 1u64 << start;
        loop {
            consider(set, measure(set));
            consider(all & !set, measure(all & !set));
            let next = (0..n)
                .filter(|&v| set & 1 << v == 0)
                .map(|v| (set | 1 << v, measure(set | 1 << v)))
                .reduce(|a, b| if better(b.1, a.1) { b } else { a });
            match next {
                Some((grown, _)) if grown != all => set = grown,
                _ => break,
            }
        }
    }
    let (set, (entering, bandwidth)) = best?;
    Some(Cut { nodes: (0..n).filter(|&v| set & 1 << v != 0).collect(), entering, bandwidth })
}

/// Why no schedule of a collective fits its round budget R, when the receive bandwidth or a cut
/// needs more rounds than R (the argument in words); `None` without a budget.
pub fn no_schedule(inst: &Instance) -> Option<String> {
    let (&Model::Collective { rounds: Some(budget) }, Problem::Collective(c)) = (&inst.model, &inst.problem)
    else {
        return None;
    };
    if let Some((v, k, cap, r)) = rounds_needed(inst).filter(|&(.., r)| r > budget) {
        return Some(format!(
            "receive bandwidth: node {v} receives {k} chunks, at most {cap} per round, so it needs {r} rounds; the budget is R = {budget}"
        ));
    }
    let cut = cut(inst).filter(|cut| cut.rounds(c.chunks) > budget)?;
    Some(format!(
        "cut: {} chunks enter {cut}, at most {} per round, so they need {} rounds; the budget is R = {budget}",
        cut.entering * c.chunks as u64,
        cut.bandwidth,
        cut.rounds(c.chunks)
    ))
}

/// The bounds of a collective instance on its steps, every one of them ([`bounds_within`]
/// without a deadline).
pub fn bounds(inst: &Instance) -> Vec<Bound> {
    bounds_within(inst, Deadline::NONE)
}

/// The bounds of a collective instance on its steps: [`cheap_bounds`], then [`flow_bounds`]
/// within `deadline`.
pub fn bounds_within(inst: &Instance, deadline: Deadline) -> Vec<Bound> {
    let mut out = cheap_bounds(inst);
    let flow = flow_bounds(inst, deadline, &out);
    out.extend(flow);
    out
}

/// A reduction's bounds are its non-combining dual's (the same schedules run backwards,
/// docs/spec.md §3.1), named so; `None` for any other instance.
fn of_dual(inst: &Instance, bounds: impl FnOnce(&Instance) -> Vec<Bound>) -> Option<Vec<Bound>> {
    let mut out = bounds(&inst.non_combining_dual()?);
    for b in &mut out {
        b.note = format!("the non-combining dual's, on the reversed network: {}", b.note);
    }
    Some(out)
}

/// The bounds of a collective instance on its steps that take no time: the distance, and
/// without a budget the receive bandwidth and the cut.
pub fn cheap_bounds(inst: &Instance) -> Vec<Bound> {
    if let Some(out) = of_dual(inst, cheap_bounds) {
        return out;
    }
    let Model::Collective { rounds: budget } = inst.model else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(d) = distance(inst) {
        out.push(Bound::new("distance", None, d, "a chunk moves one hop per step: its farthest target"));
    }
    if budget.is_some() {
        return out;
    }
    if let Some((v, k, cap, r)) = rounds_needed(inst) {
        out.push(Bound::new(
            "receive bandwidth",
            None,
            r,
            format!("node {v} receives {k} chunks, at most {cap} per step (one round each): ⌈{k}/{cap}⌉"),
        ));
    }
    let Problem::Collective(c) = &inst.problem else { return out };
    if let Some(cut) = cut(inst) {
        let k = cut.entering * c.chunks as u64;
        out.push(Bound::new(
            "cut",
            None,
            cut.rounds(c.chunks),
            format!(
                "{k} chunks enter {cut}, at most {} per step (one round each): ⌈{k}/{}⌉",
                cut.bandwidth, cut.bandwidth
            ),
        ));
    }
    out
}

/// The flow LP's bound on the steps of a collective without a budget, solved within half the
/// time `deadline` leaves ([`rounds_per_chunk_within`]); when it is not solved (over its size
/// guard, out of time), the largest of the `cheap` bounds but the distance stands in for it,
/// named `flow LP not solved`.
pub fn flow_bounds(inst: &Instance, deadline: Deadline, cheap: &[Bound]) -> Vec<Bound> {
    if let Some(out) = of_dual(inst, |dual| flow_bounds(dual, deadline, cheap)) {
        return out;
    }
    let (Model::Collective { rounds: None }, Problem::Collective(c)) = (&inst.model, &inst.problem) else {
        return Vec::new();
    };
    match flow_within(inst, deadline) {
        Ok(Some(rho)) => vec![Bound::new(
            FLOW,
            None,
            rho.least_rounds(c.chunks),
            format!("R/C ≥ {rho} by the flow LP, one round per step, C = {}", c.chunks),
        )],
        Ok(None) => Vec::new(),
        Err(why) => cheap
            .iter()
            .filter(|b| b.name != "distance")
            .reduce(|a, b| if b.value > a.value { b } else { a })
            .map(|b| {
                Bound::new(
                    "flow LP not solved",
                    None,
                    b.value,
                    format!("the flow LP was {why}: the {} bound stands in for it", b.name),
                )
            })
            .into_iter()
            .collect(),
    }
}

/// The flow LP's name.
const FLOW: &str = "multicommodity flow";

/// The flow LP's size guard: chunk units × arcs (DGX-1 alltoall: 64 × 32).
pub const MAX_FLOW_VARIABLES: usize = 40_000;

/// Slack for the LP's floating point answer.
const FLOW_EPSILON: f64 = 1e-6;

/// A lower bound ρ on rounds per chunk, R/C, of a collective (module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct RoundsPerChunk {
    /// ρ.
    pub value: f64,
    /// `multicommodity flow`, or the cheaper bound that stands in for it, `receive bandwidth`
    /// or `cut`, when it is the larger or the LP was not solved.
    pub name: &'static str,
    /// ρ as a fraction p/q with q ≤ 1000, when one is within 10⁻⁹ of it.
    pub fraction: Option<(u64, u64)>,
    /// Why the flow LP was not solved (over its guard, or out of its share of the time).
    pub note: Option<&'static str>,
}

impl RoundsPerChunk {
    fn new(value: f64, name: &'static str) -> Self {
        let fraction = (1..=1000u64).find_map(|q| {
            let p = (value * q as f64).round();
            ((p / q as f64 - value).abs() < 1e-9).then_some((p as u64, q))
        });
        Self { value, name, fraction, note: None }
    }

    /// Its name, with why the flow LP was not solved when it was not.
    pub fn label(&self) -> String {
        match self.note {
            Some(note) => format!("{}; no flow LP: {note}", self.name),
            None => self.name.to_string(),
        }
    }

    /// The least R that C chunks allow: ⌈ρ·C⌉ (at least 1).
    pub fn least_rounds(&self, chunks: usize) -> u64 {
        ((self.value * chunks as f64 - FLOW_EPSILON).ceil() as u64).max(1)
    }

    /// Whether R/C meets ρ.
    pub fn met_by(&self, rounds: u64, chunks: usize) -> bool {
        rounds as f64 <= self.value * chunks as f64 + FLOW_EPSILON
    }
}

impl std::fmt::Display for RoundsPerChunk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.fraction {
            Some((p, 1)) => write!(f, "{p}"),
            Some((p, q)) => write!(f, "{p}/{q}"),
            None => write!(f, "{:.6}", self.value),
        }
    }
}

/// The lower bound on R/C of a collective, [`rounds_per_chunk_within`] without a deadline.
pub fn rounds_per_chunk(inst: &Instance) -> Option<RoundsPerChunk> {
    rounds_per_chunk_within(inst, Deadline::NONE)
}

/// The lower bound on R/C of a collective: the largest of the multicommodity-flow LP's optimum
/// ρ\*, the receive bandwidth and the cut per chunk unit. The cheap two are computed first; the
/// LP is solved only under [`MAX_FLOW_VARIABLES`] and within half the time `deadline` leaves,
/// else they stand in for it, with [`RoundsPerChunk::note`] saying why. A reduction's is its
/// non-combining dual's. `None` when the instance is not a collective, is an allreduce, or
/// some chunk cannot reach a target.
pub fn rounds_per_chunk_within(inst: &Instance, deadline: Deadline) -> Option<RoundsPerChunk> {
    let Problem::Collective(c) = &inst.problem else { return None };
    if c.kind.combining() {
        return rounds_per_chunk_within(&inst.non_combining_dual()?, deadline);
    }
    let unit = crate::spec::Collective { chunks: 1, ..*c };
    let one = Instance {
        problem: Problem::Collective(unit),
        model: Model::Collective { rounds: None },
        ..inst.clone()
    };
    let receive = rounds_needed(&one)
        .map(|(_, k, cap, _)| RoundsPerChunk::new(k as f64 / cap as f64, "receive bandwidth"));
    let cut = cut(&one).map(|cut| RoundsPerChunk::new(cut.entering as f64 / cut.bandwidth as f64, "cut"));
    let cheap = [receive, cut]
        .into_iter()
        .flatten()
        .reduce(|a, b| if b.value > a.value + FLOW_EPSILON { b } else { a });
    match flow_within(inst, deadline) {
        // The LP's optimum is at least the receive bandwidth; a cut may exceed it.
        Ok(flow) => match (flow, cheap) {
            (Some(f), Some(c)) if c.value > f.value + FLOW_EPSILON => Some(c),
            (flow, _) => flow,
        },
        Err(note) => cheap.map(|c| RoundsPerChunk { note: Some(note), ..c }),
    }
}

/// The flow LP's ρ\* of a non-combining collective, within half the time `deadline` leaves:
/// `Ok(None)` when it is infeasible, `Err` with why it was not solved (over
/// [`MAX_FLOW_VARIABLES`], or out of its share of the time).
fn flow_within(inst: &Instance, deadline: Deadline) -> Result<Option<RoundsPerChunk>, &'static str> {
    let Problem::Collective(c) = &inst.problem else { return Ok(None) };
    let unit = crate::spec::Collective { chunks: 1, ..*c };
    let units = unit.chunk_table(inst.network.len());
    if units.len() * inst.network.arcs().len() > MAX_FLOW_VARIABLES {
        return Err("over its size guard");
    }
    let inst = inst.clone();
    deadline::within(deadline.share(2), move || flow_lp(&inst, &units).map(|v| RoundsPerChunk::new(v, FLOW)))
        .ok_or("out of its share of the time limit")
}

/// ρ\* of the flow LP over `units` (one chunk each), `None` if it is infeasible.
fn flow_lp(inst: &Instance, units: &[Chunk]) -> Option<f64> {
    let net = &inst.network;
    let arcs = net.arcs();
    let mut vars = ProblemVariables::new();
    let rho = vars.add(variable().min(0));
    let f: Vec<Vec<good_lp::Variable>> =
        units.iter().map(|_| arcs.iter().map(|_| vars.add(variable().min(0).max(1))).collect()).collect();
    let mut lp = vars.minimise(rho).using(microlp);
    for (c, chunk) in units.iter().enumerate() {
        for v in (0..net.len()).filter(|v| !chunk.sources.contains(v)) {
            let inflow: Expression = (0..arcs.len()).filter(|&a| arcs[a].1 == v).map(|a| f[c][a]).sum();
            for a in (0..arcs.len()).filter(|&a| arcs[a].0 == v) {
                lp.add_constraint((f[c][a] - inflow.clone()).leq(0));
            }
            if chunk.targets.contains(&v) {
                lp.add_constraint(inflow.eq(1));
            }
        }
    }
    for (a, _) in arcs.iter().enumerate() {
        let load: Expression = (0..units.len()).map(|c| f[c][a]).sum();
        lp.add_constraint((load - rho * net.bandwidth(a) as f64).leq(0));
    }
    for sw in net.switches() {
        let inside: Vec<usize> = (0..arcs.len())
            .filter(|&a| sw.sources.contains(&arcs[a].0) && sw.destinations.contains(&arcs[a].1))
            .collect();
        let load: Expression =
            (0..units.len()).flat_map(|c| inside.iter().map(move |&a| (c, a))).map(|(c, a)| f[c][a]).sum();
        lp.add_constraint((load - rho * sw.bandwidth as f64).leq(0));
    }
    lp.solve().ok().map(|solution| solution.value(rho))
}
