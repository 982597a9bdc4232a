//! # Start-time schedules (bufferless, docs/spec.md §4.1)
//!
//! Paper 000 (chatting, §2 (2.1)–(2.4); virtual schedules §3 (3.1)–(3.5): S_opt, CHAT-14) and
//! paper 001 (scatter and centralized gather, §1.2A single-port and §4 multi-port along the
//! instance's routes; SG-4 is the single-port scatter optimum this encoding certifies). A
//! message M with designated path e_0..e_{d−1} and length ℓ is scheduled by one integer, its
//! start: flit h crosses e_k in step s(M) + h + k (a virtual schedule occupies every arc of the
//! path in steps v(M)..v(M) + ℓ − 1). One mechanism serves the three registry entries: real
//! chatting schedules, virtual chatting schedules, scatter and centralized gather.
//!
//! ## Formulation for a horizon T
//!
//! - `y_M{m}_s{τ}` ∈ {0,1}: message m starts in step τ, for the starts that keep it inside steps
//!   1..=T (its **window**): real, 1 ≤ τ ≤ T − (ℓ + d − 2) (the last flit crosses the last arc in
//!   step τ + ℓ + d − 2); virtual, 1 ≤ τ ≤ T − ℓ + 1.
//! - `one_M{m}`: Σ_τ y(m, τ) = 1.
//! - `arc_a{u}_{v}_t{t}`: per arc and step, Σ of the y's that occupy the arc in that step ≤ 1
//!   (paper 000 (2.1), (3.1)); a path that uses an arc twice counts it twice.
//! - under `port = single`, real schedules only (paper 001 §1.2A): `send_v{v}_t{t}` and
//!   `recv_v{v}_t{t}`, per node and step at most one flit sent over all its out-arcs and one
//!   received over all its in-arcs.
//!
//! - `busy_…` (redundant, for the solvers): on a resource (arc or port), each message is a job
//!   whose flits lie between the first step it occupies when started first and the last step
//!   when started last. When the jobs that lie inside a window of steps [a, b] bring b − a + 1
//!   flits, every step of the window carries a data flit: Σ of the y's occupying the resource in
//!   that step ≥ 1. This follows from the windows and the capacity rows alone, so it removes no
//!   assignment; it states at once what a solver would otherwise find by counting. When the
//!   horizon meets a resource's release/tail bound (a gather at ΣL plus the root's first
//!   possible receipt, say), that resource is such a window. Stating it cut the proof that the
//!   12-node distributed gather `tree:0,1,0,3,1,1,1,6,5,2,4` needs 23 steps from 47 s to 1.8 s
//!   (z3).
//!
//! Rows with a single term are left out (a boolean is ≤ 1 anyway). Every start is ≥ 1 and every
//! event lies in 1..=T, so a decoded real schedule has length (its last step, §1.2) ≤ T and a
//! virtual one (max − min + 1) ≤ T; conversely every schedule of length ≤ T, normalised to begin
//! in step 1, is an assignment. The encoding is therefore exact at every horizon.
//!
//! ## Distributed gather (paper 001 §3, inequality (5); SG-8)
//!
//! Under `gather = distributed` the wake-up calls are real messages (docs/spec.md §4.1, rules
//! D0–D3) and the encoding adds them. One control message addressed to each non-root node is
//! enough: a second one, or a value on it, only adds arcs, ports and rules to obey (D0–D3 ask
//! for the *earliest* reception and let a valueless wake-up only wake). So, for every non-root
//! node u, any sender o ≠ u and any step c:
//!
//! - `w_v{u}_o{o}_s{c}` ∈ {0,1}: a wake-up o → u crosses its first arc in step c; it is received
//!   at the end of step c + d(o, u) − 1. `wake_v{u}`: exactly one per node (D0). Its flit takes
//!   part in the arc and port rows like a data flit.
//! - `a_v{u}_t{t}` ∈ {0,1}: u is woken by the end of step t; `woken_v{u}_t{t}` is the chain
//!   a(u, t) = a(u, t − 1) + Σ of the wake-ups of u received at the end of step t.
//! - `d1_M{u}_s{τ}`: y(u, τ) ≤ a(u, τ − 1), and `d1_v{o}_t{c}`: Σ_u w(u, o, c) ≤ a(o, c − 1)
//!   (D1: a node sends its message and its wake-ups only after it is woken; the root is exempt;
//!   single-port, so o sends at most one of them per step anyway).
//! - `d3_v{x}_t{t}`: the wake-up flits leaving x in step t (sent or relayed) plus Σ_{τ ≤ t}
//!   y(x, τ) ≤ 1 (D3: a node transmits only after every control flit it sends or relays).
//!
//! Windows use what every admissible schedule satisfies: a node at depth δ is woken at the end
//! of step δ at the earliest (a control flit crosses one arc per step from the root), so its
//! wake-ups leave after δ; each of its c children's subtrees is reached only over the arc to
//! that child, so c control flits leave it, one per step, after δ, and its message starts in
//! step δ + c + 1 at the earliest (the SG-8 bound's reasoning); a wake-up that would leave a
//! node or wake one too late for its message to fit in the horizon is left out. The encoding is
//! exact at every horizon, as above.

use super::time_expanded::span;
use super::{Encoder, EncoderEntry, Encoding, Event, Shape, Variant};
use crate::bounds::generic::{self, Job};
use crate::exact::BackendKind;
use crate::exact::ir::{Linear, Program, Sense, VarId};
use crate::spec::{
    Applicability, GatherMode, Instance, Message, Model, ModelClass, Node, Port, Problem, ProblemKind, Start,
};

/// Real chatting schedules, multi- and single-port (paper 000 §2).
pub const CHATTING: EncoderEntry = EncoderEntry {
    name: "chatting-starts",
    source: "000 §2 (2.1)-(2.4): optimum chatting schedules T_opt, any network and designated paths",
    applicability: Applicability {
        problems: &[ProblemKind::Chatting],
        models: &[
            ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Centralized },
            ModelClass::Bufferless { port: Port::Single, gather: GatherMode::Centralized },
        ],
        families: &[],
        refine: None,
        model_note: "",
    },
    build: |instance| Box::new(Starts::new(instance)),
    // `bench --exact`: every chatting instance of paper 000 is settled in < 0.02 s by ilp and sat
    // (sat's infeasibility proofs are checked), z3 takes 0.02-0.06 s.
    backends: &[BackendKind::Sat, BackendKind::Ilp, BackendKind::Smt],
};

/// Virtual chatting schedules: rectangle compaction (paper 000 §3, S_opt; CHAT-14).
pub const VIRTUAL: EncoderEntry = EncoderEntry {
    name: "virtual-starts",
    source: "000 §3 (3.1)-(3.5): optimum virtual schedules S_opt (CHAT-14 on unit-length ULAs)",
    applicability: Applicability {
        problems: &[ProblemKind::Chatting],
        models: &[ModelClass::Virtual { port: Port::Multi }, ModelClass::Virtual { port: Port::Single }],
        families: &[],
        refine: None,
        model_note: "",
    },
    build: |instance| Box::new(Starts::new(instance)),
    // As chatting: < 0.01 s with ilp and sat on the virtual instances of paper 000.
    backends: &[BackendKind::Sat, BackendKind::Ilp, BackendKind::Smt],
};

/// Scatter and centralized gather (paper 001 §2, §3; SG-4).
pub const SCATTER_GATHER: EncoderEntry = EncoderEntry {
    name: "scatter-gather-starts",
    source: "001 §2 (SG-4: the single-port scatter optimum), §3 centralized gather, §4 multi-port: any \
             start times",
    applicability: Applicability {
        problems: &[ProblemKind::Scatter, ProblemKind::Gather],
        models: &[
            ModelClass::Bufferless { port: Port::Single, gather: GatherMode::Centralized },
            ModelClass::Bufferless { port: Port::Single, gather: GatherMode::Distributed },
            ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Centralized },
            ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Distributed },
        ],
        families: &[],
        refine: Some(|instance| match instance.model.class() {
            ModelClass::Bufferless { gather: GatherMode::Distributed, .. }
                if instance.problem.kind() == ProblemKind::Gather =>
            {
                Err("distributed gather has its own encoder, distributed-gather-starts (single-port)".into())
            }
            _ => Ok(()),
        }),
        model_note: "paper 001 is single-port (§1.2A)",
    },
    build: |instance| Box::new(Starts::new(instance)),
    // Scatter and centralized gather meet the SG-4 bound: every backend settles them in 0.01 s.
    backends: &[BackendKind::Sat, BackendKind::Ilp, BackendKind::Smt],
};

/// Distributed gather with its wake-up calls (paper 001 §3, inequality (5); SG-8).
pub const DISTRIBUTED_GATHER: EncoderEntry = EncoderEntry {
    name: "distributed-gather-starts",
    source: "001 §3 (5) (SG-8): distributed gather, wake-up calls as real messages (rules D0-D3)",
    applicability: Applicability {
        problems: &[ProblemKind::Gather],
        models: &[ModelClass::Bufferless { port: Port::Single, gather: GatherMode::Distributed }],
        families: &[],
        refine: None,
        model_note: "paper 001 is single-port (§1.2A)",
    },
    build: |instance| Box::new(Starts::new(instance)),
    // With the `busy` rows, the 100 seeded 12-node trees of `bench --tree-draws 100` (lengths
    // 0..4), `solve --method B --timeout 30`: smt certifies all 100 (median 1.4 s, at most 3.4 s),
    // sat all 100 (median 1.2 s, at most 11.1 s: it traces and checks its proofs), both with
    // the same optima.
    backends: &[BackendKind::Smt, BackendKind::Sat, BackendKind::Ilp],
};

/// The start-time encoder (see the module documentation).
pub struct Starts {
    /// The messages with their paths, or why they cannot be resolved.
    messages: Result<Vec<Message>, String>,
    virtual_schedule: bool,
    single_port: bool,
    arcs: Vec<(usize, usize)>,
    nodes: usize,
    /// Distributed gather only: the wake-up calls' paths and the nodes' depths.
    wake: Option<WakeUpPaths>,
}

/// Distributed gather: where wake-up calls can go (docs/spec.md §4.1, control messages follow
/// the atlas path, here the unique tree path).
struct WakeUpPaths {
    /// Depth of every node (distance from the root).
    depth: Vec<u64>,
    /// The earliest start of every node's message: depth + children + 1.
    earliest: Vec<u64>,
    /// `paths[o][u]`: the path o → u as (nodes, arcs); empty for o = u.
    paths: Vec<Vec<(Vec<Node>, Vec<usize>)>>,
}

/// A candidate wake-up call of node `to` from `from`, on its first arc in step `start`.
#[derive(Debug, Clone, Copy)]
struct WakeUp {
    to: Node,
    from: Node,
    start: u64,
}

impl Starts {
    /// Resolves the messages' designated paths, and for a distributed gather every wake-up path.
    pub fn new(instance: &Instance) -> Self {
        let (virtual_schedule, single_port, gather) = match instance.model {
            Model::Bufferless { port, virtual_schedule, gather } => {
                (virtual_schedule, port == Port::Single, gather)
            }
            // Instance validation pairs chatting, scatter and gather with the bufferless model.
            _ => (false, false, GatherMode::Centralized),
        };
        let net = &instance.network;
        let wake = (matches!(instance.problem, Problem::Gather(_)) && gather == GatherMode::Distributed)
            .then(|| {
                let paths = (0..net.len())
                    .map(|o| {
                        (0..net.len())
                            .map(|u| match net.default_path(o, u, instance.ring_tie).filter(|_| o != u) {
                                Some(nodes) => {
                                    let arcs = net.walk_arcs(&nodes, o, u).expect("atlas paths are walks");
                                    (nodes, arcs)
                                }
                                None => (Vec::new(), Vec::new()),
                            })
                            .collect()
                    })
                    .collect();
                let depth: Vec<u64> = net.distances_from(0).into_iter().map(|d| d as u64).collect();
                let mut earliest: Vec<u64> = depth.iter().map(|d| d + 1).collect();
                for v in 1..net.len() {
                    // The parent: the neighbour one level up.
                    let parent = net
                        .arcs()
                        .iter()
                        .find(|&&(a, b)| a == v && depth[b] + 1 == depth[v])
                        .expect("a tree")
                        .1;
                    earliest[parent] += 1;
                }
                WakeUpPaths { depth, earliest, paths }
            });
        Self {
            messages: instance.messages().map_err(|e| e.to_string()),
            virtual_schedule,
            single_port: single_port && !virtual_schedule,
            arcs: net.arcs().to_vec(),
            nodes: net.len(),
            wake,
        }
    }

    fn messages(&self) -> &[Message] {
        self.messages.as_deref().unwrap_or_default()
    }

    /// The first start of message `m`: 1, or in a distributed gather depth + children + 1 of its
    /// node (module documentation).
    fn first_start(&self, m: &Message) -> u64 {
        self.wake.as_ref().map_or(1, |w| w.earliest[m.src])
    }

    /// The steps message `m` spans: its flits on its path (real), or its length (virtual).
    fn steps(&self, m: &Message) -> u64 {
        if self.virtual_schedule { m.len } else { m.len + m.arcs.len() as u64 - 1 }
    }

    /// The last start of message `m` that keeps it inside steps 1..=`horizon` (0: none).
    fn last_start(&self, m: &Message, horizon: u64) -> u64 {
        (horizon + 1).saturating_sub(self.steps(m))
    }

    /// The last start of node `x`'s own message (gather: message x leaves x), if it has one.
    fn last_start_at(&self, x: Node, horizon: u64) -> Option<u64> {
        self.messages().iter().find(|m| m.src == x).map(|m| self.last_start(m, horizon))
    }

    /// Every wake-up call that fits the windows of the module documentation at `horizon`, in
    /// the order (receiver, sender, step).
    fn wake_ups(&self, horizon: u64) -> Vec<WakeUp> {
        let Some(wake) = &self.wake else { return Vec::new() };
        let mut out = Vec::new();
        for to in 1..self.nodes {
            for from in (0..self.nodes).filter(|&o| o != to) {
                let (nodes, arcs) = &wake.paths[from][to];
                let d = arcs.len() as u64;
                let first = if from == 0 { 1 } else { wake.depth[from] + 1 };
                // Received by the end of the horizon, before `to` starts, and sent or relayed by
                // each node on the way before that node starts.
                let mut last = (horizon + 1).saturating_sub(d);
                if let Some(l) = self.last_start_at(to, horizon) {
                    last = last.min(l.saturating_sub(d));
                }
                for (k, &x) in nodes[..arcs.len()].iter().enumerate().filter(|&(_, &x)| x != 0) {
                    if let Some(l) = self.last_start_at(x, horizon) {
                        last = last.min(l.saturating_sub(k as u64 + 1));
                    }
                }
                out.extend((first..=last).map(|start| WakeUp { to, from, start }));
            }
        }
        out
    }

    /// The steps t for which `a_v{u}_t{t}` (u woken by the end of t) exists: its depth ..
    /// horizon − 1.
    fn woken_steps(&self, u: Node, horizon: u64) -> std::ops::Range<u64> {
        self.wake.as_ref().map_or(0..0, |w| w.depth[u]..horizon)
    }

    /// The resources a message over `arcs` with `len` flits started in step `tau` occupies, one
    /// entry per flit-crossing: (resource, step). Resources: arc a = a; under the single-port
    /// rule, node v's sending port = |A| + v and its receiving port = |A| + n + v.
    fn occupies(&self, arcs: &[usize], len: u64, tau: u64) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        for (k, &a) in arcs.iter().enumerate() {
            let first = if self.virtual_schedule { tau } else { tau + k as u64 };
            for t in first..first + len {
                out.push((a, t));
                if self.single_port {
                    let (u, v) = self.arcs[a];
                    out.push((self.arcs.len() + u, t));
                    out.push((self.arcs.len() + self.nodes + v, t));
                }
            }
        }
        out
    }

    /// The resource-steps that every assignment fills with a data flit (`busy` rows, module
    /// documentation): per resource, each message is a job whose units lie between the first
    /// step it occupies from its first start and the last from its last start (tail: T minus
    /// that step), and [`generic::full_windows`] finds the windows these jobs fill.
    fn full_windows(&self, horizon: u64, resources: usize) -> Vec<(usize, u64)> {
        let mut jobs: Vec<Vec<Job>> = vec![Vec::new(); resources];
        for m in self.messages() {
            let (first, last) = (self.first_start(m), self.last_start(m, horizon));
            if first > last {
                continue;
            }
            // (resource, first step, last step, units) of the message on each resource it uses.
            let mut units: Vec<(usize, u64, u64, u64)> = Vec::new();
            for ((r, lo), (_, hi)) in
                self.occupies(&m.arcs, m.len, first).into_iter().zip(self.occupies(&m.arcs, m.len, last))
            {
                match units.iter_mut().find(|u| u.0 == r) {
                    Some(u) => *u = (r, u.1.min(lo), u.2.max(hi), u.3 + 1),
                    None => units.push((r, lo, hi, 1)),
                }
            }
            for (r, lo, hi, work) in units {
                jobs[r].push(Job { release: lo, work, tail: horizon - hi });
            }
        }
        let mut out = Vec::new();
        for (r, jobs) in jobs.iter().enumerate() {
            let mut busy = vec![false; horizon as usize + 1];
            for (a, b) in generic::full_windows(jobs, horizon) {
                busy[a as usize..=b as usize].iter_mut().for_each(|s| *s = true);
            }
            out.extend(busy.iter().enumerate().filter(|(_, b)| **b).map(|(t, _)| (r, t as u64)));
        }
        out
    }

    /// A row's name from its resource index and step.
    fn row_name(&self, resource: usize, t: u64) -> String {
        let a = self.arcs.len();
        match resource {
            r if r < a => format!("arc_a{}_{}_t{t}", self.arcs[r].0, self.arcs[r].1),
            r if r < a + self.nodes => format!("send_v{}_t{t}", r - a),
            r => format!("recv_v{}_t{t}", r - a - self.nodes),
        }
    }
}

impl Encoder for Starts {
    fn impossible(&self) -> Option<String> {
        self.messages.as_ref().err().cloned()
    }

    fn min_variables(&self, horizon: u64, _: Variant) -> usize {
        self.messages().iter().map(|m| span(self.first_start(m), self.last_start(m, horizon))).sum()
    }

    fn variables(&self, horizon: u64, _: Variant) -> usize {
        let woken: usize = (1..self.nodes).map(|u| self.woken_steps(u, horizon).count()).sum();
        self.min_variables(horizon, Variant::Full) + self.wake_ups(horizon).len() + woken
    }

    /// The one model: no variants.
    fn encode(&self, horizon: u64, variant: Variant) -> Option<Encoding> {
        let Variant::Full = variant else { return None };
        let kind = if self.virtual_schedule { "virtual" } else { "real" };
        let mut model = Program::new(format!(
            "bufferless start times ({kind} schedules{}{}), {} messages, horizon T = {horizon}",
            if self.single_port { ", single-port" } else { "" },
            if self.wake.is_some() { ", distributed gather with wake-up calls" } else { "" },
            self.messages().len()
        ));
        let resources = self.arcs.len() + 2 * self.nodes;
        // rows[r][t]: the start variables occupying resource r in step t (t = 1..=T).
        let mut rows: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); horizon as usize + 1]; resources];
        let mut events = Vec::new();
        // starts[x]: node x's message's start variables with their steps (gather: message x).
        let mut starts: Vec<Vec<(u64, VarId)>> = vec![Vec::new(); self.nodes];
        for m in self.messages() {
            let mut ys = Vec::new();
            for tau in self.first_start(m)..=self.last_start(m, horizon) {
                let y = model.bool_var(format!("y_M{}_s{tau}", m.id));
                ys.push(y);
                starts[m.src].push((tau, y));
                events.push((y, Event::Start(Start { msg: m.id, start: tau as i64 })));
                for (r, t) in self.occupies(&m.arcs, m.len, tau) {
                    rows[r][t as usize].push(y);
                }
            }
            // No start at all leaves the row 0 = 1: the model's own contradiction.
            model.constrain(format!("one_M{}", m.id), &Linear::sum(&ys), Sense::Eq, 1);
        }
        let busy = self.full_windows(horizon, resources);
        for &(r, t) in &busy {
            let data = Linear::sum(&rows[r][t as usize]);
            model.constrain(format!("busy_{}", self.row_name(r, t)), &data, Sense::Ge, 1);
        }
        if let Some(wake) = &self.wake {
            self.encode_wake_ups(wake, horizon, &mut model, &mut rows, &mut events, &starts);
        }
        for (r, steps) in rows.iter().enumerate() {
            for (t, vars) in steps.iter().enumerate().filter(|(_, vars)| vars.len() > 1) {
                model.constrain(self.row_name(r, t as u64), &Linear::sum(vars), Sense::Le, 1);
            }
        }
        let shape = if self.virtual_schedule { Shape::Virtual } else { Shape::Bufferless };
        Some(Encoding { horizon, model, shape, events })
    }

    /// Horizon-monotone: the encoding is exact at every horizon (module documentation). A
    /// message ends when its last flit crosses its last arc, a wake-up when its flit reaches
    /// its receiver.
    fn last_step(&self, event: &Event) -> Option<u64> {
        match *event {
            Event::Start(s) => {
                let m = self.messages().iter().find(|m| m.id == s.msg)?;
                Some(s.start as u64 + self.steps(m) - 1)
            }
            Event::WakeUp { from, to, start } => {
                let d = self.wake.as_ref()?.paths[from][to].1.len() as u64;
                Some(start as u64 + d - 1)
            }
            _ => None,
        }
    }
}

impl Starts {
    /// The wake-up calls of a distributed gather and rules D0, D1 and D3 (module documentation);
    /// their flits join the arc and port `rows`.
    fn encode_wake_ups(
        &self,
        wake: &WakeUpPaths,
        horizon: u64,
        model: &mut Program,
        rows: &mut [Vec<Vec<VarId>>],
        events: &mut Vec<(VarId, Event)>,
        starts: &[Vec<(u64, VarId)>],
    ) {
        let h = horizon as usize;
        // Per node: its wake-ups by step of reception, those it sends by step, and the wake-up
        // flits leaving it (sent or relayed) by step.
        let mut received: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); h + 1]; self.nodes];
        let mut sent: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); h + 1]; self.nodes];
        let mut leaving: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); h + 1]; self.nodes];
        let mut of: Vec<Vec<VarId>> = vec![Vec::new(); self.nodes];
        for WakeUp { to, from, start } in self.wake_ups(horizon) {
            let z = model.bool_var(format!("w_v{to}_o{from}_s{start}"));
            events.push((z, Event::WakeUp { from, to, start: start as i64 }));
            of[to].push(z);
            let (nodes, arcs) = &wake.paths[from][to];
            received[to][(start as usize) + arcs.len() - 1].push(z);
            sent[from][start as usize].push(z);
            for (k, &x) in nodes[..arcs.len()].iter().enumerate() {
                leaving[x][start as usize + k].push(z);
            }
            for (r, t) in self.occupies(arcs, 1, start) {
                rows[r][t as usize].push(z);
            }
        }
        // woken[u][t]: a(u, t), u woken by the end of step t.
        let mut woken: Vec<Vec<Option<VarId>>> = vec![vec![None; h + 1]; self.nodes];
        for u in 1..self.nodes {
            model.constrain(format!("wake_v{u}"), &Linear::sum(&of[u]), Sense::Eq, 1);
            for t in self.woken_steps(u, horizon) {
                let a = model.bool_var(format!("a_v{u}_t{t}"));
                let mut chain = Linear::sum(&received[u][t as usize]);
                if let Some(before) = t.checked_sub(1).and_then(|p| woken[u][p as usize]) {
                    chain.add(1, before);
                }
                chain.add(-1, a);
                model.constrain(format!("woken_v{u}_t{t}"), &chain, Sense::Eq, 0);
                woken[u][t as usize] = Some(a);
            }
        }
        // Woken by the end of step t (0 when no variable exists: before the node's depth).
        let by = |u: Node, t: u64, row: &mut Linear| {
            if let Some(a) = woken[u].get(t as usize).copied().flatten() {
                row.add(-1, a);
            }
        };
        for u in 1..self.nodes {
            // D1 for the node's own message.
            for &(tau, y) in &starts[u] {
                let mut row = Linear::new();
                row.add(1, y);
                by(u, tau - 1, &mut row);
                model.constrain(format!("d1_M{u}_s{tau}"), &row, Sense::Le, 0);
            }
            // D1 for the wake-ups it sends.
            for (c, zs) in sent[u].iter().enumerate().filter(|(_, zs)| !zs.is_empty()) {
                let mut row = Linear::sum(zs);
                by(u, c as u64 - 1, &mut row);
                model.constrain(format!("d1_v{u}_t{c}"), &row, Sense::Le, 0);
            }
            // D3: no wake-up flit leaves u once its message has started.
            for (t, zs) in leaving[u].iter().enumerate().filter(|(_, zs)| !zs.is_empty()) {
                let ys: Vec<VarId> =
                    starts[u].iter().filter(|&&(tau, _)| tau <= t as u64).map(|&(_, y)| y).collect();
                if !ys.is_empty() {
                    let mut row = Linear::sum(zs);
                    row.add_all(&Linear::sum(&ys));
                    model.constrain(format!("d3_v{u}_t{t}"), &row, Sense::Le, 1);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::io::parse_instance;

    fn chatting(net: &str, model: &str, messages: &[(usize, usize, u64)]) -> Instance {
        let mut text = format!("problem = \"chatting\"\nnetwork = \"{net}\"\n[model]\n{model}\n");
        for (src, dst, len) in messages {
            text += &format!("[[messages]]\nsrc = {src}\ndst = {dst}\nlength = {len}\n");
        }
        parse_instance(&text, "<test>", "t").unwrap()
    }

    /// Windows: a real message of ℓ = 2 over d = 3 arcs fits at horizon T from step 1 to
    /// T − 3; a virtual one to T − 1.
    #[test]
    fn windows_keep_every_event_inside_the_horizon() {
        let real = chatting("ula:4", "kind = \"bufferless\"", &[(0, 3, 2)]);
        let virt = chatting("ula:4", "kind = \"bufferless\"\nvirtual = true", &[(0, 3, 2)]);
        assert_eq!(Starts::new(&real).variables(6, Variant::Full), 3);
        assert_eq!(Starts::new(&virt).variables(6, Variant::Full), 5);
        assert_eq!(Starts::new(&real).variables(3, Variant::Full), 0);
        assert!(Starts::new(&real).encode(3, Variant::Full).unwrap().model.contradiction().is_some());
        assert!(Starts::new(&real).encode(4, Variant::Full).unwrap().model.contradiction().is_none());
    }

    /// The size guard's count is the built model's.
    #[test]
    fn variable_counts_match_the_model() {
        let inst = chatting("ring:5", "kind = \"bufferless\"\nport = \"single\"", &[(0, 2, 2), (1, 4, 1)]);
        let enc = Starts::new(&inst);
        for t in [0, 2, 5, 9] {
            assert_eq!(
                enc.variables(t, Variant::Full),
                enc.encode(t, Variant::Full).unwrap().model.variables.len(),
                "T = {t}"
            );
        }
        let text = "problem = \"gather\"\nnetwork = \"tree:0,0,1\"\nlengths = [1, 0, 2]\n[model]\n\
                    kind = \"bufferless\"\nport = \"single\"\ngather = \"distributed\"";
        let enc = Starts::new(&parse_instance(text, "<test>", "t").unwrap());
        for t in [0, 3, 6, 10] {
            assert_eq!(
                enc.variables(t, Variant::Full),
                enc.encode(t, Variant::Full).unwrap().model.variables.len(),
                "distributed, T = {t}"
            );
        }
    }

    /// Distributed gather on the path P_0 - P_1 - P_2 with L = 1, 1 at T = 4: M_1 starts in step 3
    /// or 4 (depth + children + 1 = 3), M_2 in step 3 (its two arcs end by step 4). So the root
    /// receives M_1's and M_2's flits in steps 3..4 (two flits, two steps: both busy), P_1
    /// forwards them in those steps, and M_2 alone fills its arc into P_1 in step 3. At T = 5 the
    /// window 3..5 holds two flits: nothing is forced.
    #[test]
    fn busy_rows_fill_full_windows() {
        let text = "problem = \"gather\"\nnetwork = \"path:3\"\nlengths = [1, 1]\n[model]\n\
                    kind = \"bufferless\"\nport = \"single\"\ngather = \"distributed\"";
        let enc = Starts::new(&parse_instance(text, "<test>", "t").unwrap());
        let busy = |t: u64| -> Vec<String> {
            let model = enc.encode(t, Variant::Full).unwrap().model;
            model.constraints.iter().filter(|c| c.name.starts_with("busy_")).map(|c| c.name.clone()).collect()
        };
        assert_eq!(
            busy(4),
            [
                "busy_arc_a1_0_t3",
                "busy_arc_a1_0_t4",
                "busy_arc_a2_1_t3",
                "busy_send_v1_t3",
                "busy_send_v1_t4",
                "busy_send_v2_t3",
                "busy_recv_v0_t3",
                "busy_recv_v0_t4",
                "busy_recv_v1_t3",
            ]
        );
        assert!(busy(5).is_empty());
    }

    /// Distributed gather on the path P_0 - P_1 - P_2 with L = 1, 1: (5) asks s(M_1) ≥ 3 and
    /// s(M_2) ≥ 3, so at T = 3 M_2 (two arcs) has no window. At T = 4 the wake-ups that fit: P_1
    /// from P_0 in steps 1..3 (P_1 starts by step 4), P_2 from P_0 in step 1 (received at the
    /// end of step 2, relayed by P_1 in step 2) or from P_1 in step 2; P_2 cannot wake P_1, since
    /// it is woken at the end of step 2 at the earliest and must send before its own start 3.
    #[test]
    fn wake_up_windows_follow_inequality_5() {
        let text = "problem = \"gather\"\nnetwork = \"path:3\"\nlengths = [1, 1]\n[model]\n\
                    kind = \"bufferless\"\nport = \"single\"\ngather = \"distributed\"";
        let enc = Starts::new(&parse_instance(text, "<test>", "t").unwrap());
        assert!(enc.encode(3, Variant::Full).unwrap().model.contradiction().is_some());
        let windows: Vec<(Node, Node, u64)> =
            enc.wake_ups(4).iter().map(|w| (w.to, w.from, w.start)).collect();
        assert_eq!(windows, [(1, 0, 1), (1, 0, 2), (1, 0, 3), (2, 0, 1), (2, 1, 2)]);
    }
}
