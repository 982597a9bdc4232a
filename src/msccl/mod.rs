//! The MSCCL XML algorithm format (what msccl-tools, SCCL and TACCL emit and the MSCCL runtime
//! executes), for store-and-forward schedules: total exchange as `alltoall`, gossip as
//! `allgather`. docs/msccl.md describes the mapping and its limits.
//!
//! Export: one rank per node; on each rank one thread block per arc it uses, a sending one
//! (`send` = the peer) per out-arc and a receiving one (`recv` = the peer) per in-arc. Step `s`
//! of every thread block is schedule step `s + 1`: a step in which the arc is idle is a `nop`,
//! so the step structure survives the step-index reading. A transmission is a `type="s"` step
//! on the sender and a `type="r"` step at the same index on the receiver, moving `cnt`
//! contiguous chunks. Chunks follow SCCL's numbering with C chunks per rank (`Layout`):
//! an allgather (gossip) keeps chunk g in output chunk g, in place; an alltoall (total
//! exchange) keeps the chunk from s to d in input chunk `d·C + j` of s, output chunk `s·C + j`
//! of d, and scratch chunk g on the way; a rank copies its chunks to itself (`cpy`) in a
//! thread block of its own. A send of a chunk the rank received earlier depends
//! (`depid`, `deps`) on the latest such receive; that receive is marked `hasdep`. What is
//! written is the schedule as a runtime runs the file: each transmission as early as its data
//! and its arc allow, checked again ([`to_xml`]).
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

mod header;
pub mod runtime;
mod semantics;
pub mod xml;

pub use self::header::{from_header, header_instance};
use self::runtime::{RunError, Semantics};
use self::xml::StepKind;
use crate::checker::Violation;
use crate::error::{Error, InputError, Result};
use crate::spec::io;
use crate::spec::{
    CollectiveKind, Instance, Mode, Model, ModelKind, Network, Problem, Schedule, Transmission,
};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
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

/// A chunk of a rank's buffers: `i`nput, `o`utput or `s`cratch, and an offset.
type Chunk = (char, usize);

/// Where the export keeps chunks (module documentation): an allgather or an alltoall on n
/// ranks with C chunks per rank, chunks numbered as SCCL's collectives number them. Total
/// exchange is an alltoall with C = 1 whose token `s·n + d` is chunk `d·n + s`; gossip an
/// allgather whose token is its chunk.
#[derive(Debug, Clone, Copy)]
struct Layout {
    alltoall: bool,
    /// Total exchange's token numbering.
    tokens_by_source: bool,
    n: usize,
    c: usize,
}

impl Layout {
    /// The layout of an instance, or why it has none.
    fn of(inst: &Instance) -> std::result::Result<Self, String> {
        let n = inst.network.len();
        match (&inst.problem, inst.problem.kind().model()) {
            (_, ModelKind::StoreForward(Mode::Move)) => {
                Ok(Layout { alltoall: true, tokens_by_source: true, n, c: 1 })
            }
            (_, ModelKind::StoreForward(Mode::Copy)) => {
                Ok(Layout { alltoall: false, tokens_by_source: false, n, c: 1 })
            }
            (Problem::Collective(c), _)
                if matches!(c.kind, CollectiveKind::Allgather | CollectiveKind::Alltoall) =>
            {
                Ok(Layout {
                    alltoall: c.kind == CollectiveKind::Alltoall,
                    tokens_by_source: false,
                    n,
                    c: c.chunks,
                })
            }
            _ => Err(format!(
                "{} in model {} has no MSCCL collective: export takes allgather and alltoall (gossip in copy mode, total exchange in move mode)",
                inst.problem,
                inst.model.name()
            )),
        }
    }

    fn name(&self) -> &'static str {
        if self.alltoall { "alltoall" } else { "allgather" }
    }

    /// A schedule token as a chunk id, and back.
    fn id(&self, token: usize) -> usize {
        if self.tokens_by_source { token % self.n * self.n + token / self.n } else { token }
    }

    fn token(&self, id: usize) -> usize {
        self.id(id)
    }

    /// Where chunk `id` sits on `rank`.
    fn chunk(&self, rank: usize, id: usize) -> Chunk {
        let (n, c) = (self.n, self.c);
        if !self.alltoall {
            return ('o', id);
        }
        let (unit, j) = (id / c, id % c);
        let (source, target) = (unit % n, unit / n);
        if rank == source {
            ('i', target * c + j)
        } else if rank == target {
            ('o', source * c + j)
        } else {
            ('s', id)
        }
    }

    /// The chunk an input or output chunk of `rank` holds by the convention (scratch is
    /// whatever was received there).
    fn held(&self, rank: usize, (buffer, offset): Chunk) -> Option<usize> {
        let (n, c) = (self.n, self.c);
        match (self.alltoall, buffer) {
            (false, 'o') if offset < n * c => Some(offset),
            (false, 'i') if offset < c => Some(rank * c + offset),
            (true, 'i') if offset < n * c => Some((offset / c * n + rank) * c + offset % c),
            (true, 'o') if offset < n * c => Some((rank * n + offset / c) * c + offset % c),
            _ => None,
        }
    }
}

/// One XML step of a thread block, before it is written.
#[derive(Debug, Clone, Copy)]
struct Op {
    send: bool,
    src: Chunk,
    dst: Chunk,
    cnt: usize,
    /// The receive it waits for: (peer, channel, step).
    dep: Option<(usize, usize, usize)>,
    has_dep: bool,
}

/// A rank's thread block: (sends?, peer, channel).
type Block = (bool, usize, usize);

/// A receipt of a chunk: (step index, sender, channel).
type Receipt = (usize, usize, usize);

/// The schedule as MSCCL XML, as a runtime will run it: the file for the schedule's own steps
/// is read back by the runtime reading, which moves every transmission as early as its data
/// and its arc allow; when the checker admits that schedule, it is what is written (so both
/// readings of the file give it), and otherwise the schedule's own steps are (the runtime
/// reading then differs, as it must for rules the runtime cannot enforce, such as one-port
/// F1 and H1). Refuses (naming the reason) schedules of other problems or models, and packets
/// whose tokens are not contiguous chunks on both ends.
pub fn to_xml(inst: &Instance, schedule: &Schedule) -> Result<String> {
    let exact = write(inst, schedule)?;
    let timed = import(&exact, "<export>", inst, Reading::Runtime, None)?;
    if timed.violations.is_empty() && crate::checker::check(inst, &timed.schedule).admissible().is_some() {
        return write(inst, &timed.schedule);
    }
    Ok(exact)
}

/// The schedule's steps as MSCCL XML (module documentation).
fn write(inst: &Instance, schedule: &Schedule) -> Result<String> {
    let refuse = |reason: String| Error::NotApplicable { method: "MSCCL XML export".into(), reason };
    let layout = Layout::of(inst).map_err(refuse)?;
    let explicit = schedule.explicit()?;
    let steps = match explicit.as_ref() {
        Schedule::StoreForward(steps) | Schedule::Collective { steps, .. } => steps,
        other => return Err(refuse(format!("a {} schedule is not store-and-forward", other.model_name()))),
    };
    let n = inst.network.len();
    // Per rank, thread blocks and their ops by step index.
    let mut blocks: Vec<BTreeMap<Block, BTreeMap<usize, Op>>> = vec![BTreeMap::new(); n];
    // Per rank and chunk, the step indices, senders and channels of its receipts.
    let mut receipts: Vec<HashMap<usize, Vec<Receipt>>> = vec![HashMap::new(); n];
    for (s, step) in steps.iter().enumerate() {
        let mut landed = Vec::new();
        for tr in step {
            // Each chunk with the receive it waits for (the latest before this step), if any.
            let latest = |g: usize| {
                receipts[tr.from].get(&g).and_then(|r| r.iter().filter(|(at, ..)| *at < s).max().copied())
            };
            let mut pairs: Vec<_> = tr
                .tokens
                .iter()
                .map(|&t| layout.id(t))
                .map(|g| (latest(g), layout.chunk(tr.from, g), layout.chunk(tr.to, g), g))
                .collect();
            pairs.sort_unstable();
            // MSCCL moves one contiguous range per step and connection, after at most one
            // dependency: each run of chunks contiguous on both ends that waits for one receive
            // takes a channel of its own.
            let mut runs: Vec<Vec<_>> = Vec::new();
            for p in pairs {
                match runs.last_mut() {
                    Some(run)
                        if run.last().is_some_and(|&(d, a, b, _): &(_, Chunk, Chunk, _)| {
                            d == p.0 && a.0 == p.1.0 && b.0 == p.2.0 && p.1.1 == a.1 + 1 && p.2.1 == b.1 + 1
                        }) =>
                    {
                        run.push(p)
                    }
                    _ => runs.push(vec![p]),
                }
            }
            for (channel, run) in runs.iter().enumerate() {
                let dep = run[0].0;
                let op = Op {
                    send: true,
                    src: run[0].1,
                    dst: run[0].2,
                    cnt: run.len(),
                    dep: dep.map(|(at, w, ch)| (w, ch, at)),
                    has_dep: false,
                };
                blocks[tr.from].entry((true, tr.to, channel)).or_default().insert(s, op);
                blocks[tr.to]
                    .entry((false, tr.from, channel))
                    .or_default()
                    .insert(s, Op { send: false, dep: None, ..op });
                if let Some(r) =
                    dep.and_then(|(at, w, ch)| blocks[tr.from].get_mut(&(false, w, ch))?.get_mut(&at))
                {
                    r.has_dep = true;
                }
                landed.extend(run.iter().map(|&(.., g)| (tr.to, g, (s, tr.from, channel))));
            }
        }
        for (rank, g, receipt) in landed {
            receipts[rank].entry(g).or_default().push(receipt);
        }
    }
    let channels = blocks.iter().flat_map(|tbs| tbs.keys().map(|k| k.2 + 1)).max().unwrap_or(1);
    let c = layout.c;
    let (inputs, scratch, inplace) = if layout.alltoall { (n * c, n * n * c, 0) } else { (c, 0, 1) };
    let mut xml = format!(
        "<algo name=\"{}\" nchunksperloop=\"{}\" nchannels=\"{channels}\" proto=\"Simple\" ngpus=\"{n}\" coll=\"{}\" inplace=\"{inplace}\" outofplace=\"{}\" minBytes=\"0\" maxBytes=\"{MAX_BYTES}\">\n",
        crate::svg::escape(&inst.name),
        n * c,
        layout.name(),
        1 - inplace
    );
    for (rank, tbs) in blocks.iter().enumerate() {
        let ids: HashMap<Block, usize> = tbs.keys().enumerate().map(|(i, k)| (*k, i)).collect();
        let _ = writeln!(
            xml,
            "  <gpu id=\"{rank}\" i_chunks=\"{inputs}\" o_chunks=\"{}\" s_chunks=\"{scratch}\">",
            n * c
        );
        for (&(send, peer, channel), ops) in tbs {
            let (to, from) = if send { (peer as i64, -1) } else { (-1, peer as i64) };
            let _ = writeln!(
                xml,
                "    <tb id=\"{}\" send=\"{to}\" recv=\"{from}\" chan=\"{channel}\">",
                ids[&(send, peer, channel)]
            );
            let last = ops.keys().next_back().copied().unwrap_or(0);
            for s in 0..=last {
                let line = match ops.get(&s) {
                    Some(op) => {
                        let (depid, deps) =
                            op.dep.map_or((-1, -1), |(w, ch, at)| (ids[&(false, w, ch)] as i64, at as i64));
                        format!(
                            "type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" dstoff=\"{}\" cnt=\"{}\" depid=\"{depid}\" deps=\"{deps}\" hasdep=\"{}\"",
                            if op.send { "s" } else { "r" },
                            op.src.0,
                            op.src.1,
                            op.dst.0,
                            op.dst.1,
                            op.cnt,
                            u8::from(op.has_dep)
                        )
                    }
                    None => "type=\"nop\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" cnt=\"0\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"".into(),
                };
                let _ = writeln!(xml, "      <step s=\"{s}\" {line}/>");
            }
            xml += "    </tb>\n";
        }
        // An alltoall's chunks from a rank to itself stay local: one copy, input to output.
        if layout.alltoall {
            let at = rank * c;
            let _ = writeln!(
                xml,
                "    <tb id=\"{}\" send=\"-1\" recv=\"-1\" chan=\"0\">\n      <step s=\"0\" type=\"cpy\" srcbuf=\"i\" srcoff=\"{at}\" dstbuf=\"o\" dstoff=\"{at}\" cnt=\"{c}\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>",
                tbs.len()
            );
        }
        xml += "  </gpu>\n";
    }
    xml += "</algo>\n";
    Ok(xml)
}

/// The largest message (bytes) an exported file declares it serves (`maxBytes`; `minBytes` is
/// 0): runtimes pick an algorithm file by message size and skip files without the range.
const MAX_BYTES: u64 = 1 << 30;

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
    let coll = layout.name();
    let n = inst.network.len();
    let algo = xml::parse(text, file)?;
    let file_coll =
        algo.coll.as_deref().ok_or_else(|| err("algo", "<algo> has no `coll` attribute".into()))?;
    if file_coll != coll {
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
