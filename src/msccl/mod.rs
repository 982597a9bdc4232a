//! The MSCCL XML algorithm format (what msccl-tools, SCCL and TACCL emit and the MSCCL runtime
//! executes): total exchange as `alltoall`, gossip as `allgather`, the collectives of SCCL's
//! model as themselves (docs/spec.md §3.1). docs/msccl.md describes the mapping and its limits.
//!
//! Export ([`to_xml`], `export.rs`): one rank per node, chunks where `layout.rs` keeps them
//! (SCCL's numbering with C chunks per rank), step `s` of every thread block schedule step
//! `s + 1`, a `s` step on the sender and an `r` or `rrc` step on the receiver per contiguous
//! run, each step waiting for the one before it on its chunk's slot.
//!
//! Import has two readings ([`Reading`]). The **runtime** reading (the default) runs the file
//! as an MSCCL runtime does ([`runtime`]): every step type, FIFO pairing per
//! connection, dependencies, the earliest timing, and what every buffer slot holds; its
//! transfers become the instance's schedule (collective model, or store-and-forward gossip and
//! total exchange). The **step-index** reading, the one commsched's own export round-trips
//! exactly, reads `s`, `r` and `nop` steps only: every send must meet a receive of the same
//! count at the same index on its peer, and step index `s` is schedule step `s + 1`. Tokens are
//! read on the sender's side: input and output chunks by the convention above, scratch chunks
//! by what the rank last received into them. The checker then judges the schedule.

mod export;
mod header;
mod layout;
pub mod runtime;
mod semantics;
pub mod xml;

pub use self::export::{Proto, XmlOptions, to_xml};
pub use self::header::{from_header, header_instance};
use self::layout::{Chunk, Layout};
use self::runtime::{RunError, Semantics};
use self::xml::StepKind;
use crate::checker::Violation;
use crate::error::InputError;
use crate::spec::io;
use crate::spec::{
    CollectiveKind, Instance, Mode, Model, ModelKind, Network, Problem, Schedule, Transmission,
};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The collective an instance maps to: `alltoall` (total exchange, move mode) or `allgather`
/// (gossip, copy mode); `None` for everything else.
pub fn collective(inst: &Instance) -> Option<&'static str> {
    match inst.problem.kind().model() {
        ModelKind::StoreForward(Mode::Move) => Some("alltoall"),
        ModelKind::StoreForward(Mode::Copy) => Some("allgather"),
        ModelKind::Bufferless | ModelKind::FatTree | ModelKind::Collective => None,
    }
}

/// A send read from the file, before its tokens are resolved.
#[derive(Debug, Clone)]
struct Send {
    from: usize,
    to: usize,
    channel: usize,
    src: Chunk,
    cnt: usize,
    field: String,
}

/// The step-index reading (module documentation): a send and its receive share a step index,
/// which is the schedule's step. Errors name the file, the element (`gpu[2].tb[1].step[4]`)
/// and the reason.
fn by_step_index(text: &str, file: &str, inst: &Instance) -> std::result::Result<Schedule, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let layout = Layout::of(inst).map_err(|reason| err("", reason))?;
    let coll = layout.coll();
    let n = inst.network.len();
    let algo = xml::parse(text, file)?;
    let file_coll =
        algo.coll.as_deref().ok_or_else(|| err("algo", "<algo> has no `coll` attribute".into()))?;
    if CollectiveKind::parse(file_coll) != Some(layout.kind) {
        return Err(err(
            "algo.coll",
            format!("`{file_coll}` does not match the instance's {} (`{coll}`)", inst.problem),
        ));
    }
    if algo.ngpus != n {
        return Err(err("algo.ngpus", format!("the instance's network has {n} nodes")));
    }
    let mut sends: BTreeMap<usize, Vec<Send>> = BTreeMap::new();
    // (step index, sender, receiver, channel) -> (count, destination, element).
    type Key = (usize, usize, usize, usize);
    let mut recvs: BTreeMap<Key, (usize, Chunk, String)> = BTreeMap::new();
    for gpu in &algo.gpus {
        let g = gpu.id;
        if g >= n {
            return Err(err(
                &format!("gpu[{g}].id"),
                format!("rank {g} is unknown: the network has nodes 0..{}", n - 1),
            ));
        }
        for tb in &gpu.blocks {
            for (key, peer) in [("send", tb.send), ("recv", tb.recv)] {
                if let Some(peer) = peer.filter(|&p| p >= n) {
                    return Err(err(&format!("{}.{key}", tb.place), format!("rank {peer} is unknown")));
                }
            }
            for step in &tb.steps {
                let field = step.place.clone();
                let cnt = step.cnt;
                if step.kind != StepKind::Nop && cnt == 0 {
                    return Err(err(
                        &format!("{field}.cnt"),
                        "a send or receive moves at least one chunk".into(),
                    ));
                }
                let at = |(buffer, offset): (xml::Buffer, usize)| (buffer.letter(), offset);
                match step.kind {
                    // A local copy moves nothing between ranks.
                    StepKind::Nop | StepKind::Copy => {}
                    StepKind::Send => {
                        let to = tb.send.ok_or_else(|| {
                            err(
                                &format!("{}.send", tb.place),
                                "a thread block with send steps names its peer".into(),
                            )
                        })?;
                        sends.entry(step.index).or_default().push(Send {
                            from: g,
                            to,
                            channel: tb.channel,
                            src: at(step.src),
                            cnt,
                            field,
                        });
                    }
                    StepKind::Recv => {
                        let from = tb.recv.ok_or_else(|| {
                            err(
                                &format!("{}.recv", tb.place),
                                "a thread block with receive steps names its peer".into(),
                            )
                        })?;
                        let key = (step.index, from, g, tb.channel);
                        if recvs.insert(key, (cnt, at(step.dst), field.clone())).is_some() {
                            return Err(err(
                                &field,
                                format!(
                                    "a second receive from rank {from} on channel {} in step {}",
                                    tb.channel, step.index
                                ),
                            ));
                        }
                    }
                    other => {
                        return Err(err(
                            &format!("{field}.type"),
                            format!(
                                "`{}` is not a plain send (s), receive (r), copy or nop: reductions and fused steps do not map to store-and-forward (read the file as a runtime runs it)",
                                other.name()
                            ),
                        ));
                    }
                }
            }
        }
    }
    // Replays the steps in order: tokens are read where the sender holds them, and scratch
    // chunks remember what was received into them.
    let mut scratch: HashMap<(usize, usize), usize> = HashMap::new();
    let last = sends.keys().chain(recvs.keys().map(|k| &k.0)).max().copied();
    let mut steps: Vec<Vec<Transmission>> = Vec::new();
    for s in 0..last.map_or(0, |l| l + 1) {
        let mut step = Vec::new();
        let mut landed = Vec::new();
        for send in sends.get(&s).into_iter().flatten() {
            let Some((cnt, dst, _)) = recvs.remove(&(s, send.from, send.to, send.channel)) else {
                return Err(err(
                    &send.field,
                    format!("send to rank {} has no receive at the same step", send.to),
                ));
            };
            if cnt != send.cnt {
                return Err(err(
                    &send.field,
                    format!("sends {} chunks, rank {} receives {cnt}", send.cnt, send.to),
                ));
            }
            let mut tokens = Vec::with_capacity(cnt);
            for k in 0..cnt {
                let (buf, off) = (send.src.0, send.src.1 + k);
                let token = match buf {
                    's' => scratch.get(&(send.from, off)).copied(),
                    _ => layout.held(send.from, (buf, off)).map(|id| layout.token(id)),
                };
                let token = token.ok_or_else(|| {
                    err(
                        &format!("{}.srcoff", send.field),
                        format!("chunk {buf}[{off}] of rank {} holds no known token", send.from),
                    )
                })?;
                if dst.0 == 's' {
                    landed.push(((send.to, dst.1 + k), token));
                }
                tokens.push(token);
            }
            step.push(Transmission { from: send.from, to: send.to, tokens });
        }
        scratch.extend(landed);
        steps.push(step);
    }
    if let Some((_, (_, _, field))) = recvs.into_iter().next() {
        return Err(err(&field, "receive has no matching send at the same step".into()));
    }
    while steps.last().is_some_and(Vec::is_empty) {
        steps.pop();
    }
    Ok(schedule_of(inst, steps))
}

/// Steps of transmissions as the instance's schedule, one transmission per arc and step: the
/// collective model's gives each step the rounds its busiest arc or switch group needs
/// ([`rounds_needed`]).
fn schedule_of(inst: &Instance, steps: Vec<Vec<Transmission>>) -> Schedule {
    // Transfers on one arc in one step (several channels) are one transmission.
    let steps: Vec<Vec<Transmission>> = steps
        .into_iter()
        .map(|step| {
            let mut arcs: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
            for t in step {
                arcs.entry((t.from, t.to)).or_default().extend(t.tokens);
            }
            arcs.into_iter().map(|((from, to), tokens)| Transmission { from, to, tokens }).collect()
        })
        .collect();
    match inst.model {
        Model::Collective { .. } => {
            let rounds = steps.iter().map(|step| rounds_needed(&inst.network, step)).collect();
            Schedule::Collective { steps, rounds }
        }
        _ => Schedule::StoreForward(steps),
    }
}

/// How an MSCCL file's steps become a schedule (module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reading {
    /// As a runtime runs it: program order, FIFO pairing per connection, dependencies, every
    /// step type, the earliest timing.
    #[default]
    Runtime,
    /// Step index `s` is schedule step `s + 1`, a send meets the receive of the same index
    /// (commsched's own export, which pads idle steps with `nop`s).
    StepIndex,
}

/// An imported file: the schedule it makes of the instance, and what the runtime reading found
/// wrong with what the file computes (reductions, output slots), which the model's checker
/// cannot see.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The schedule, for the checker.
    pub schedule: Schedule,
    /// Violations of the collective found by running the file (runtime reading only).
    pub violations: Vec<Violation>,
}

/// Reads a schedule file and validates it against the instance: MSCCL XML when the file ends
/// in `.xml` ([`parse`]), the JSON of SPEC §5 otherwise ([`io::load_schedule`]).
pub fn load_schedule(path: &Path, inst: &Instance) -> std::result::Result<Schedule, InputError> {
    if !io::is_xml(path) {
        return io::load_schedule(path, inst);
    }
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| InputError::new(&file, "", format!("cannot read: {e}")))?;
    parse(&text, &file, inst)
}

/// Parses MSCCL XML into a schedule of `inst` by the runtime reading, dropping what only the
/// runtime reading sees ([`import`] keeps it).
pub fn parse(text: &str, file: &str, inst: &Instance) -> std::result::Result<Schedule, InputError> {
    import(text, file, inst, Reading::Runtime, None).map(|i| i.schedule).map_err(InputError::from)
}

/// The collective an instance asks for, by MSCCL's name.
fn wanted(inst: &Instance) -> Option<CollectiveKind> {
    match (&inst.problem, &inst.model) {
        (Problem::Collective(c), _) => Some(c.kind),
        _ => collective(inst).and_then(CollectiveKind::parse),
    }
}

/// Parses MSCCL XML into a schedule of `inst` by `reading`; `collective` names the collective
/// when the file's `coll` is absent or `custom`. Errors name the file, the element and the
/// reason.
pub fn import(
    text: &str,
    file: &str,
    inst: &Instance,
    reading: Reading,
    collective: Option<&str>,
) -> std::result::Result<Imported, RunError> {
    if reading == Reading::StepIndex {
        return Ok(Imported { schedule: by_step_index(text, file, inst)?, violations: Vec::new() });
    }
    let err = |field: &str, reason: String| RunError::Input(InputError::new(file, field, reason));
    let algo = xml::parse(text, file)?;
    let n = inst.network.len();
    if algo.ngpus != n {
        return Err(err(
            "algo.ngpus",
            format!("{} ranks, but the instance's network has {n} nodes", algo.ngpus),
        ));
    }
    let want = wanted(inst).ok_or_else(|| {
        err("", format!("{} in model {} has no MSCCL collective", inst.problem, inst.model.name()))
    })?;
    let named = collective.or(algo.coll.as_deref().filter(|c| *c != "custom")).unwrap_or(want.name());
    let semantics = Semantics::of(&algo, Some(named), file)?;
    if semantics.kind != Some(want) {
        return Err(err(
            "algo.coll",
            format!("the file implements {named}, the instance asks for {}", want.name()),
        ));
    }
    if let Problem::Collective(c) = &inst.problem
        && want.rooted()
        && semantics.root != c.root
    {
        return Err(err(
            "algo.root",
            format!("the file's root is rank {}, the instance's rank {}", semantics.root, c.root),
        ));
    }
    let run = runtime::run(&algo, &semantics, file)?;
    let k = refinement(&semantics, inst, file)?;
    let token = |chunk: usize| -> Vec<usize> {
        match (&inst.problem, semantics.kind) {
            // Alltoall chunk (d·n + r) is the packet from r to d, token r·n + d.
            (Problem::TotalExchange(_), _) => vec![chunk % n * n + chunk / n],
            (Problem::Collective(_), _) => (chunk * k..chunk * k + k).collect(),
            _ => vec![chunk],
        }
    };
    // `schedule_of` merges the transfers that share an arc and a step.
    let mut steps: Vec<Vec<Transmission>> = vec![Vec::new(); run.length as usize];
    for t in &run.transfers {
        let tokens = t.chunks.iter().flat_map(|v| token(v.chunk)).collect();
        steps[t.step as usize - 1].push(Transmission { from: t.from, to: t.to, tokens });
    }
    Ok(Imported { schedule: schedule_of(inst, steps), violations: run.violations })
}

/// How many model chunks one of the file's chunks is: 1, except for an allreduce whose
/// `nchunksperloop` P is not a multiple of the ranks n, where the collective model's n·C
/// chunks cut each of the file's into k = n·C / P. Store-and-forward instances take one
/// chunk per rank.
fn refinement(semantics: &Semantics, inst: &Instance, file: &str) -> std::result::Result<usize, InputError> {
    let (n, p) = (semantics.ranks, semantics.chunks);
    let model = match &inst.problem {
        Problem::Collective(c) if c.kind.rooted() => c.chunks,
        Problem::Collective(c) => n * c.chunks,
        _ => n,
    };
    let per_rank = semantics.kind != Some(CollectiveKind::Allreduce);
    if model % p != 0 || (per_rank && model != p) {
        return Err(InputError::new(
            file,
            "algo.nchunksperloop",
            format!(
                "{p} chunks on {n} ranks do not cut into the instance's {model} ({})",
                match &inst.problem {
                    Problem::Collective(c) => format!("C = {}", c.chunks),
                    _ => "one per rank".into(),
                }
            ),
        ));
    }
    Ok(model / p)
}

/// The rounds a step needs: on every arc and switch group, its chunks over its bandwidth,
/// rounded up; at least one.
fn rounds_needed(net: &Network, step: &[Transmission]) -> u64 {
    let over = |load: usize, bandwidth: u64| (load as u64).div_ceil(bandwidth.max(1));
    let arcs =
        step.iter().filter_map(|t| net.arc(t.from, t.to).map(|a| over(t.tokens.len(), net.bandwidth(a))));
    let switches = net.switches().iter().map(|sw| {
        let load = step
            .iter()
            .filter(|t| sw.sources.contains(&t.from) && sw.destinations.contains(&t.to))
            .map(|t| t.tokens.len())
            .sum();
        over(load, sw.bandwidth)
    });
    arcs.chain(switches).max().unwrap_or(1).max(1)
}
