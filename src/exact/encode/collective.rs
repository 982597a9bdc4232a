//! # The collective model in steps and rounds (SCCL's path encoding)
//!
//! docs/spec.md §4.4: SCCL (PPoPP'21 §4, msccl-tools `path_encoding.py`) decides whether a
//! collective fits S steps and R rounds with C chunks; this encoder writes the same question
//! as a linear model for a horizon T (the steps) and the instance's budget R.
//!
//! ## Formulation for a horizon T
//!
//! - `x_c{c}_a{u}_{v}_t{t}` ∈ {0,1}: chunk c is sent on arc u → v in step t;
//! - `r_t{t}` ∈ 0..=R: the rounds of step t (only with a budget; without one every step has
//!   one round and r_t is the constant 1).
//!
//! Constraints:
//!
//! - `once`: Σ_{u,t} x(c, u → v, t) ≤ 1 for every chunk c and node v that does not start with
//!   it, = 1 where v is one of c's targets (SCCL's unique source);
//! - `held`: x(c, u → v, t) ≤ Σ_{w, t′ < t} x(c, w → u, t′) for u not among c's sources;
//! - `bw`: Σ_c x(c, u → v, t) ≤ b(u, v)·r_t on every arc and step;
//! - `switch`: Σ over the group's arcs and the chunks ≤ b·r_t;
//! - `budget`: Σ_t r_t ≤ R.
//!
//! A step may have r_t = 0 rounds only when it sends nothing (the bandwidth rows force that);
//! the decoder drops such steps, which keeps the schedule admissible (nothing arrives in
//! them) and no longer. So the model at T holds exactly the schedules of at most T steps
//! within the budget, and it is **horizon-monotone**: a solution whose sends all lie in steps
//! ≤ T′ gives every later step 0 rounds, and so is a solution at T′.
//!
//! **Reductions** (reduce, reduce-scatter) are encoded as their non-combining dual, the
//! broadcast or allgather on the reversed network (SCCL's `non_combining_dual`), and its
//! witnesses are decoded backwards in time on the original network. The two have the same
//! schedules up to useless sends (docs/spec.md §3.1), so the dual's optimum and infeasibility
//! are the reduction's. Allreduce has no such dual and no encoder.
//!
//! ## Pruning (valid: it keeps every schedule's useful sends)
//!
//! x(c, u → v, t) exists only if v does not start with c, t ≥ 1 + the distance from c's
//! nearest source to u (u cannot hold c earlier), and, when v is not a target of c, t + the
//! distance from v to the nearest target of c that does not start with it ≤ T (a relay that
//! reaches no target in time can be deleted: the bandwidth and once rows only cap sends).

use super::{Encoder, EncoderEntry, Encoding, Event, Shape, Variant};
use crate::exact::BackendKind;
use crate::exact::ir::{Linear, Program, Sense, VarId};
use crate::spec::{
    Applicability, Chunk, CollectiveKind, Instance, Model, ModelClass, Node, Problem, ProblemKind,
};
use std::borrow::Cow;

/// The registry entry: every collective of the collective model, on any network.
pub const ENTRY: EncoderEntry = EncoderEntry {
    name: "collective",
    source: "SCCL (PPoPP'21) §4 path encoding: allgather, alltoall, broadcast, scatter, gather in (steps, rounds, chunks); reduce and reduce-scatter as their non-combining duals",
    applicability: Applicability {
        problems: &[ProblemKind::Collective],
        models: &[ModelClass::Collective],
        families: &[],
        refine: Some(has_model),
        model_note: "",
    },
    build: |instance| Box::new(Collective::new(instance)),
    // DGX-1 allgather, C = 6, R = 7 (`solve --method X`, one run each on a 2-core machine):
    // sat certifies S = 3 with a checked proof at S = 2 in 6.0 s; smt is still at [3, -] after
    // its 60 s timeout. ilp has not been measured there.
    backends: &[BackendKind::Sat, BackendKind::Smt, BackendKind::Ilp],
};

/// Every collective but allreduce: the combining ones are encoded as their non-combining dual.
fn has_model(instance: &Instance) -> Result<(), String> {
    match &instance.problem {
        Problem::Collective(c) if c.kind == CollectiveKind::Allreduce => Err(
            "allreduce has no non-combining dual to encode: its schedules are checked, and its algorithms compose a reduce-scatter and an allgather".into(),
        ),
        _ => Ok(()),
    }
}

/// The collective encoder (see the module documentation).
pub struct Collective<'a> {
    /// The instance encoded: the given one, or a reduction's non-combining dual.
    instance: Cow<'a, Instance>,
    /// Whether `instance` is the dual, whose schedules run backwards on the reversed network.
    reversed: bool,
    chunks: Vec<Chunk>,
    budget: Option<u64>,
    /// `dist[u][v]`: hops from u to v (`usize::MAX` unreachable).
    dist: Vec<Vec<usize>>,
}

impl<'a> Collective<'a> {
    /// The encoder for a collective instance.
    pub fn new(instance: &'a Instance) -> Self {
        let (instance, reversed) = match instance.non_combining_dual() {
            Some(dual) => (Cow::Owned(dual), true),
            None => (Cow::Borrowed(instance), false),
        };
        let n = instance.network.len();
        let chunks = match &instance.problem {
            Problem::Collective(c) => c.chunk_table(n),
            _ => Vec::new(),
        };
        let budget = match instance.model {
            Model::Collective { rounds } => rounds,
            _ => None,
        };
        let dist = (0..n).map(|s| instance.network.distances_from(s)).collect();
        Self { instance, reversed, chunks, budget, dist }
    }

    /// Hops from the nearest source of `chunk` to `u`.
    fn hops_from_source(&self, chunk: &Chunk, u: Node) -> usize {
        chunk.sources.iter().map(|&s| self.dist[s][u]).min().unwrap_or(usize::MAX)
    }

    /// Hops from `v` to the nearest target of `chunk` that does not start with it.
    fn hops_to_target(&self, chunk: &Chunk, v: Node) -> usize {
        chunk
            .targets
            .iter()
            .filter(|t| !chunk.sources.contains(t))
            .map(|&t| self.dist[v][t])
            .min()
            .unwrap_or(usize::MAX)
    }

    /// The steps in which chunk `c` may cross arc `(u, v)` at horizon T (pruning above).
    fn window(&self, c: usize, u: Node, v: Node, horizon: u64) -> std::ops::Range<u64> {
        let chunk = &self.chunks[c];
        if chunk.sources.contains(&v) {
            return 0..0;
        }
        let earliest = self.hops_from_source(chunk, u);
        if earliest == usize::MAX {
            return 0..0;
        }
        let latest = if chunk.targets.contains(&v) {
            horizon
        } else {
            match self.hops_to_target(chunk, v) {
                usize::MAX => 0,
                d => horizon.saturating_sub(d as u64),
            }
        };
        (earliest as u64 + 1)..(latest + 1)
    }

    fn count(&self, horizon: u64) -> usize {
        let arcs = self.instance.network.arcs();
        let sends: usize = (0..self.chunks.len())
            .map(|c| arcs.iter().map(|&(u, v)| self.window(c, u, v, horizon).count()).sum::<usize>())
            .sum();
        sends + if self.budget.is_some() { horizon as usize } else { 0 }
    }
}

impl Encoder for Collective<'_> {
    fn impossible(&self) -> Option<String> {
        crate::bounds::collective::no_schedule(&self.instance)
    }

    fn min_variables(&self, horizon: u64, _: Variant) -> usize {
        self.count(horizon)
    }

    fn variables(&self, horizon: u64, _: Variant) -> usize {
        self.count(horizon)
    }

    /// The one model: no variants.
    fn encode(&self, horizon: u64, variant: Variant) -> Option<Encoding> {
        let Variant::Full = variant else { return None };
        let net = &self.instance.network;
        let n = net.len();
        let mut model = Program::new(format!(
            "{} on {} in at most {horizon} steps{}",
            self.instance.problem,
            net.spec_string(),
            self.budget.map_or_else(|| ", one round each".into(), |r| format!(" and {r} rounds"))
        ));
        // Rounds first, so that r_t is variable `t − 1` (the decoder reads them by index).
        let rounds: Vec<VarId> = match self.budget {
            Some(r) => (1..=horizon).map(|t| model.int_var(format!("r_t{t}"), 0, r as i64)).collect(),
            None => Vec::new(),
        };
        // x per (chunk, arc): the variables of its window, by step.
        let mut sends: Vec<Vec<Vec<(u64, VarId)>>> =
            vec![vec![Vec::new(); net.arcs().len()]; self.chunks.len()];
        let mut events = Vec::new();
        for (c, per_arc) in sends.iter_mut().enumerate() {
            for (a, &(u, v)) in net.arcs().iter().enumerate() {
                for t in self.window(c, u, v, horizon) {
                    let x = model.bool_var(format!("x_c{c}_a{u}_{v}_t{t}"));
                    per_arc[a].push((t, x));
                    events.push((x, Event::Hop { token: c, from: u, to: v, step: t }));
                }
            }
        }
        // The arcs into each node.
        let into: Vec<Vec<usize>> = (0..n)
            .map(|v| net.arcs().iter().enumerate().filter(|(_, a)| a.1 == v).map(|(i, _)| i).collect())
            .collect();
        for (c, chunk) in self.chunks.iter().enumerate() {
            for v in (0..n).filter(|v| !chunk.sources.contains(v)) {
                let received: Vec<VarId> =
                    into[v].iter().flat_map(|&a| sends[c][a].iter().map(|&(_, x)| x)).collect();
                let sense = if chunk.targets.contains(&v) { Sense::Eq } else { Sense::Le };
                model.constrain(format!("once_c{c}_v{v}"), &Linear::sum(&received), sense, 1);
            }
            for (a, &(u, v)) in net.arcs().iter().enumerate() {
                if chunk.sources.contains(&u) {
                    continue;
                }
                for &(t, x) in &sends[c][a] {
                    let mut held = Linear::new();
                    for &b in &into[u] {
                        for &(_, y) in sends[c][b].iter().filter(|(t2, _)| *t2 < t) {
                            held.add(1, y);
                        }
                    }
                    held.add(-1, x);
                    model.constrain(format!("held_c{c}_a{u}_{v}_t{t}"), &held, Sense::Ge, 0);
                }
            }
        }
        let step_load = |arcs: &mut dyn Iterator<Item = usize>, t: u64| -> Linear {
            let mut load = Linear::new();
            for a in arcs {
                for per_arc in &sends {
                    for &(_, x) in per_arc[a].iter().filter(|(s, _)| *s == t) {
                        load.add(1, x);
                    }
                }
            }
            load
        };
        // `load ≤ b·r_t`: with a budget `load − b·r_t ≤ 0`, without one `load ≤ b`.
        let cap = |model: &mut Program, name: String, mut load: Linear, b: u64, t: u64| match rounds
            .get(t as usize - 1)
        {
            Some(&r) => {
                load.add(-(b as i64), r);
                model.constrain(name, &load, Sense::Le, 0);
            }
            None => model.constrain(name, &load, Sense::Le, b as i64),
        };
        for t in 1..=horizon {
            for (a, &(u, v)) in net.arcs().iter().enumerate() {
                let load = step_load(&mut std::iter::once(a), t);
                cap(&mut model, format!("bw_a{u}_{v}_t{t}"), load, net.bandwidth(a), t);
            }
            for (i, sw) in net.switches().iter().enumerate() {
                let mut arcs = net
                    .arcs()
                    .iter()
                    .enumerate()
                    .filter(|(_, (u, v))| sw.sources.contains(u) && sw.destinations.contains(v))
                    .map(|(a, _)| a);
                let load = step_load(&mut arcs, t);
                cap(&mut model, format!("switch{i}_t{t}"), load, sw.bandwidth, t);
            }
        }
        if let Some(r) = self.budget {
            model.constrain("budget", &Linear::sum(&rounds), Sense::Le, r as i64);
        }
        let shape = Shape::Collective { rounds: self.budget.is_some(), reversed: self.reversed };
        Some(Encoding { horizon, model, shape, events })
    }

    fn last_step(&self, event: &Event) -> Option<u64> {
        match *event {
            Event::Hop { step, .. } => Some(step),
            _ => None,
        }
    }
}
