//! # The collective algorithms people compare against (docs/spec.md §4.4)
//!
//! Every algorithm here is a choice of **route trees**, one per chunk of a non-combining
//! collective: an arborescence from the
//! chunk's source that reaches each of its targets. One engine, [`pipeline`], then schedules the
//! trees step by step: a tree arc u → v can carry chunk c in step s once u holds c at the end of
//! step s − 1; each arc takes at most b·r chunks per step and each switch group b·r, the
//! farthest-reaching chunks first (the height of the subtree below v, then the chunk id). Every
//! step has the same r rounds: r = 1 without a budget; with a budget R, the least r whose
//! schedule of S steps fits S·r ≤ R.
//!
//! A **reduction** (reduce, reduce-scatter) is routed as its non-combining dual on the reversed
//! network and run backwards (`route`); an **allreduce** as a reduce-scatter so routed, then
//! an allgather (docs/spec.md §3.1).
//!
//! | method | file | networks | route trees |
//! |---|---|---|---|
//! | `direct` | [`direct`](mod@direct) | every source linked to every target | one arc per target |
//! | `ring` | [`ring`](mod@ring) | a directed Hamiltonian cycle | along the cycle |
//! | `recursive-doubling` | [`recursive_doubling`](mod@recursive_doubling) | 2^k nodes, i → i xor 2^j arcs | binomial trees (allgather, broadcast) |
//! | `shortest-path-trees` | [`shortest_path_trees`](mod@shortest_path_trees) | any | breadth-first, widest arcs first |
//! | `tacos-greedy` | [`tacos`](mod@tacos) | any; chunks for every node | none: each step a greedy matching of arcs to chunks |

pub mod direct;
pub mod packed;
pub mod recursive_doubling;
pub mod ring;
pub mod shortest_path_trees;
pub mod tacos;

use crate::error::{Error, Result};
use crate::spec::{
    Applicability, Chunk, Collective, CollectiveKind, Instance, Model, ModelClass, Node, Problem,
    ProblemKind, Schedule, Transmission,
};

/// The registered collective algorithms.
pub static METHODS: &[super::Method] =
    &[direct::METHOD, ring::METHOD, recursive_doubling::METHOD, shortest_path_trees::METHOD, tacos::METHOD];

/// Every collective of the collective model, on any network (algorithms refine it).
pub(crate) const fn applicability(refine: Option<crate::spec::Refinement>) -> Applicability {
    Applicability {
        problems: &[ProblemKind::Collective],
        models: &[ModelClass::Collective],
        families: &[],
        refine,
        model_note: "",
    }
}

/// The route tree of one chunk: `parent[v]` is the node v receives the chunk from (`None` for
/// the chunk's sources and for nodes off the tree).
pub type RouteTree = Vec<Option<Node>>;

/// The instance's chunks.
pub(crate) fn chunks(inst: &Instance) -> Vec<Chunk> {
    match &inst.problem {
        Problem::Collective(c) => c.chunk_table(inst.network.len()),
        _ => Vec::new(),
    }
}

/// The tree that keeps only the arcs of `parent` on the way to `targets` (a breadth-first
/// tree pruned to what the chunk needs).
pub(crate) fn prune(parent: &[Option<Node>], chunk: &Chunk) -> RouteTree {
    let mut tree = vec![None; parent.len()];
    for &t in chunk.targets.iter().filter(|t| !chunk.sources.contains(t)) {
        let mut v = t;
        while let Some(u) = parent[v] {
            if tree[v].is_some() {
                break;
            }
            tree[v] = Some(u);
            v = u;
        }
    }
    tree
}

/// The non-combining instances whose route trees an algorithm builds for `inst`, each with
/// whether its schedule runs backwards (docs/spec.md §3.1): the instance itself; for reduce and
/// reduce-scatter their non-combining dual; for allreduce a reduce-scatter's dual, then an
/// allgather, both without a budget.
pub(crate) fn parts(inst: &Instance) -> Vec<(Instance, bool)> {
    if let Some(dual) = inst.non_combining_dual() {
        return vec![(dual, true)];
    }
    let Problem::Collective(c) = &inst.problem else { return vec![(inst.clone(), false)] };
    if c.kind != CollectiveKind::Allreduce {
        return vec![(inst.clone(), false)];
    }
    let with = |kind| Instance {
        problem: Problem::Collective(Collective { kind, ..*c }),
        model: Model::Collective { rounds: None },
        ..inst.clone()
    };
    let halves = [(with(CollectiveKind::ReduceScatter), true), (with(CollectiveKind::Allgather), false)];
    halves
        .into_iter()
        .map(|(half, backwards)| (half.non_combining_dual().unwrap_or(half), backwards))
        .collect()
}

/// An algorithm's condition, on every part ([`parts`]) of the instance.
pub(crate) fn each_part(inst: &Instance, check: fn(&Instance) -> Result<(), String>) -> Result<(), String> {
    parts(inst).iter().try_for_each(|(part, _)| check(part))
}

/// An algorithm's condition under a round budget: its routed schedule fits it (known only by
/// scheduling the trees).
pub(crate) fn fits(inst: &Instance, trees: fn(&Instance) -> Vec<RouteTree>) -> Result<(), String> {
    fits_with(inst, &|part, _| pipeline(part, &trees(part)))
}

/// [`fits`] for an algorithm that schedules each part itself.
pub(crate) fn fits_with(
    inst: &Instance,
    schedule: &dyn Fn(&Instance, bool) -> Result<Schedule>,
) -> Result<(), String> {
    if !matches!(inst.model, Model::Collective { rounds: Some(_) }) {
        return Ok(());
    }
    compose(inst, schedule).map(drop).map_err(|e| match e {
        Error::NotApplicable { reason, .. } => reason,
        other => other.to_string(),
    })
}

/// An algorithm's schedule: its route trees on each part ([`parts`]) scheduled by
/// [`pipeline`], composed by [`compose`].
pub(crate) fn route(inst: &Instance, trees: fn(&Instance) -> Vec<RouteTree>) -> Result<Schedule> {
    compose(inst, &|part, _| pipeline(part, &trees(part)))
}

/// The schedules of the parts ([`parts`]), each made by `schedule(part, backwards)` and read
/// backwards where the part is a dual, one after the other. The result must fit the instance's
/// budget.
pub(crate) fn compose(
    inst: &Instance,
    schedule: &dyn Fn(&Instance, bool) -> Result<Schedule>,
) -> Result<Schedule> {
    let (mut steps, mut rounds) = (Vec::new(), Vec::new());
    for (part, backwards) in &parts(inst) {
        let part_schedule = schedule(part, *backwards)?;
        if let Schedule::Collective { steps: s, rounds: r } =
            if *backwards { part_schedule.reversed_collective() } else { part_schedule }
        {
            steps.extend(s);
            rounds.extend(r);
        }
    }
    let used: u64 = rounds.iter().sum();
    if let Model::Collective { rounds: Some(budget) } = &inst.model
        && used > *budget
    {
        return Err(Error::NotApplicable {
            method: "collective pipeline".into(),
            reason: format!("its schedule uses {used} rounds, over the budget R = {budget}"),
        });
    }
    Ok(Schedule::Collective { steps, rounds })
}

/// Schedules the route trees (module documentation), trying r = 1, 2, … rounds per step until
/// the budget fits.
pub fn pipeline(inst: &Instance, trees: &[RouteTree]) -> Result<Schedule> {
    let budget = match inst.model {
        Model::Collective { rounds } => rounds,
        _ => None,
    };
    let mut r = 1;
    loop {
        let steps = pipeline_with_rounds(inst, trees, r)?;
        let used = steps.len() as u64 * r;
        match budget {
            Some(b) if used > b => {
                // More rounds per step only shortens the schedule down to its depth.
                if steps.len() as u64 * (r + 1) > b && r >= b {
                    return Err(Error::NotApplicable {
                        method: "collective pipeline".into(),
                        reason: format!("its route trees need more rounds than the budget R = {b}"),
                    });
                }
                r += 1;
            }
            _ => return Ok(Schedule::Collective { rounds: vec![r; steps.len()], steps }),
        }
    }
}

/// What one step of r rounds may still carry: each arc b·r chunks, each switch group b·r (a
/// chunk counted once per arc it crosses, so a multicast through a switch counts per arc: within
/// the model, never beyond it). Built once per schedule; [`StepBudget::start_step`] refills it.
pub(crate) struct StepBudget {
    arc_cap: Vec<u64>,
    switch_cap: Vec<u64>,
    arc_left: Vec<u64>,
    switch_left: Vec<u64>,
    /// The switch groups each arc crosses.
    switches_of: Vec<Vec<usize>>,
}

impl StepBudget {
    /// The budget of steps of `r` rounds on `net`, full.
    pub(crate) fn new(net: &crate::spec::Network, r: u64) -> Self {
        let switches_of = net
            .arcs()
            .iter()
            .map(|&(u, v)| {
                (0..net.switches().len())
                    .filter(|&i| {
                        net.switches()[i].sources.contains(&u) && net.switches()[i].destinations.contains(&v)
                    })
                    .collect()
            })
            .collect();
        let arc_cap: Vec<u64> = (0..net.arcs().len()).map(|a| net.bandwidth(a) * r).collect();
        let switch_cap: Vec<u64> = net.switches().iter().map(|sw| sw.bandwidth * r).collect();
        Self { arc_left: arc_cap.clone(), switch_left: switch_cap.clone(), arc_cap, switch_cap, switches_of }
    }

    /// Refills the budget for the next step.
    pub(crate) fn start_step(&mut self) {
        self.arc_left.copy_from_slice(&self.arc_cap);
        self.switch_left.copy_from_slice(&self.switch_cap);
    }

    /// Takes one chunk over `arc` if the arc and its switch groups have room left.
    pub(crate) fn take(&mut self, arc: usize) -> bool {
        let room = self.arc_left[arc] > 0 && self.switches_of[arc].iter().all(|&i| self.switch_left[i] > 0);
        if room {
            self.arc_left[arc] -= 1;
            for &i in &self.switches_of[arc] {
                self.switch_left[i] -= 1;
            }
        }
        room
    }
}

/// Adds chunk `c` to the transmission u → v of a step.
pub(crate) fn send(step: &mut Vec<Transmission>, u: Node, v: Node, c: usize) {
    match step.iter_mut().find(|tr| tr.from == u && tr.to == v) {
        Some(tr) => tr.tokens.push(c),
        None => step.push(Transmission { from: u, to: v, tokens: vec![c] }),
    }
}

/// [`pipeline`] with `r` rounds in every step.
fn pipeline_with_rounds(inst: &Instance, trees: &[RouteTree], r: u64) -> Result<Vec<Vec<Transmission>>> {
    let net = &inst.network;
    let n = net.len();
    let chunks = chunks(inst);
    // Height of the subtree below each tree node, for the priority.
    let mut height = vec![vec![0usize; n]; trees.len()];
    for (c, tree) in trees.iter().enumerate() {
        for start in 0..n {
            let (mut v, mut h) = (start, 0);
            while let Some(u) = tree[v] {
                h += 1;
                height[c][u] = height[c][u].max(h);
                v = u;
            }
        }
    }
    let mut held: Vec<Vec<bool>> =
        chunks.iter().map(|chunk| (0..n).map(|v| chunk.sources.contains(&v)).collect()).collect();
    let mut pending: Vec<(usize, Node, Node)> =
        (0..trees.len()).flat_map(|c| (0..n).filter_map(move |v| trees[c][v].map(|u| (c, u, v)))).collect();
    pending.sort_by_key(|&(c, _, v)| (std::cmp::Reverse(height[c][v]), c, v));
    let mut steps = Vec::new();
    let mut budget = StepBudget::new(net, r);
    while !pending.is_empty() {
        budget.start_step();
        let mut step: Vec<Transmission> = Vec::new();
        let mut left = Vec::with_capacity(pending.len());
        for &(c, u, v) in &pending {
            let arc = net.arc(u, v).ok_or_else(|| Error::NotApplicable {
                method: "collective pipeline".into(),
                reason: format!("its route tree for chunk {c} uses ({u},{v}), which is not an arc"),
            })?;
            if !held[c][u] || !budget.take(arc) {
                left.push((c, u, v));
                continue;
            }
            send(&mut step, u, v, c);
        }
        if step.is_empty() {
            return Err(Error::NotApplicable {
                method: "collective pipeline".into(),
                reason: "its route trees do not reach every target from a source".into(),
            });
        }
        for tr in &step {
            for &c in &tr.tokens {
                held[c][tr.to] = true;
            }
        }
        step.sort_by_key(|tr| (tr.from, tr.to));
        steps.push(step);
        pending = left;
    }
    Ok(steps)
}
