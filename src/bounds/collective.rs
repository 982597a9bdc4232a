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
//! * **multicommodity flow** ([`rounds_per_chunk`]): SCCL's `lower_bound_rounds` as a linear
//!   program (good_lp, microlp). With one chunk per unit, f(c, a) ∈ [0, 1] is the fraction of
//!   chunk c that crosses arc a; a node that does not start with c sends on each out-arc at
//!   most what it receives, a target receives exactly 1; every arc carries at most b(a)·ρ and
//!   every switch group its bandwidth times ρ. Any schedule of R rounds and C chunks gives a
//!   solution with ρ = R/C (count each piece of c as 1/C of it), so R/C ≥ ρ\* = min ρ. The
//!   receive-bandwidth bound per chunk is one of its rows summed, so ρ\* is at least that.
//!   The LP is solved in floating point: R is taken ≥ ⌈ρ\*·C − 10⁻⁶⌉.

use super::Bound;
use crate::spec::{Instance, Model, Node, Problem};
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

/// The bounds of a collective instance on its steps; a reduction's are its non-combining
/// dual's (the same schedules run backwards, docs/spec.md §3.1), named so.
pub fn bounds(inst: &Instance) -> Vec<Bound> {
    if let Some(dual) = inst.non_combining_dual() {
        let mut out = bounds(&dual);
        for b in &mut out {
            b.note = format!("the non-combining dual's, on the reversed network: {}", b.note);
        }
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
    if let (Problem::Collective(c), Some(rho)) = (&inst.problem, rounds_per_chunk(inst))
        && rho.name == "multicommodity flow"
    {
        out.push(Bound::new(
            "multicommodity flow",
            None,
            rho.least_rounds(c.chunks),
            format!("R/C ≥ {rho} by the flow LP, one round per step, C = {}", c.chunks),
        ));
    }
    out
}

/// The flow LP's size guard: chunk units × arcs (DGX-1 alltoall: 64 × 32).
pub const MAX_FLOW_VARIABLES: usize = 40_000;

/// Slack for the LP's floating point answer.
const FLOW_EPSILON: f64 = 1e-6;

/// A lower bound ρ on rounds per chunk, R/C, of a collective (module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct RoundsPerChunk {
    /// ρ.
    pub value: f64,
    /// `multicommodity flow`, or `receive bandwidth` when the LP was over its guard.
    pub name: &'static str,
    /// ρ as a fraction p/q with q ≤ 1000, when one is within 10⁻⁹ of it.
    pub fraction: Option<(u64, u64)>,
}

impl RoundsPerChunk {
    fn new(value: f64, name: &'static str) -> Self {
        let fraction = (1..=1000u64).find_map(|q| {
            let p = (value * q as f64).round();
            ((p / q as f64 - value).abs() < 1e-9).then_some((p as u64, q))
        });
        Self { value, name, fraction }
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

/// The lower bound on R/C of a collective: the multicommodity-flow LP's optimum ρ\*, or the
/// receive bandwidth per chunk when the LP is over [`MAX_FLOW_VARIABLES`]; a reduction's is its
/// non-combining dual's. `None` when the instance is not a collective, is an allreduce, or
/// some chunk cannot reach a target.
pub fn rounds_per_chunk(inst: &Instance) -> Option<RoundsPerChunk> {
    let Problem::Collective(c) = &inst.problem else { return None };
    if c.kind.combining() {
        return rounds_per_chunk(&inst.non_combining_dual()?);
    }
    let unit = crate::spec::Collective { chunks: 1, ..*c };
    let units = unit.chunk_table(inst.network.len());
    if units.len() * inst.network.arcs().len() > MAX_FLOW_VARIABLES {
        let one = Instance { problem: Problem::Collective(unit), ..inst.clone() };
        return receive_per_chunk(&one).map(|v| RoundsPerChunk::new(v, "receive bandwidth"));
    }
    flow_lp(inst, &units).map(|v| RoundsPerChunk::new(v, "multicommodity flow"))
}

/// max_v k_v / cap_v for one chunk per unit.
fn receive_per_chunk(one: &Instance) -> Option<f64> {
    let (_, k, cap, _) = rounds_needed(one)?;
    Some(k as f64 / cap as f64)
}

/// ρ\* of the flow LP over `units` (one chunk each), `None` if it is infeasible.
fn flow_lp(inst: &Instance, units: &[crate::spec::Chunk]) -> Option<f64> {
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
