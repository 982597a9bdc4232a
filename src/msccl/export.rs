//! MSCCL XML export (docs/msccl.md, "The mapping"): one rank per node, chunks where
//! [`Layout`] keeps them, one `s` step on the sender and one `r` (a copy) or `rrc` (a reduction
//! with the receiver's partial, combining collectives, docs/spec.md §3.1) on the receiver per
//! contiguous run of a transmission, at step index `t − 1` for schedule step t, idle indices
//! padded with `nop`s. Every step that touches a chunk's slot waits (`depid`, `deps`) for the
//! step before it on that slot in another thread block, so the runtime orders what the
//! schedule's steps order. A sending and a receiving thread block whose steps never meet share
//! one `<tb>`, so a rank uses as few thread blocks as its connections allow.
//!
//! [`to_xml`] writes the schedule as a runtime runs it when that timing keeps the schedule's
//! steps and rounds (checked again), and otherwise its own steps with `timing="step-index"`,
//! which the runtime reading reads as the release step of every send (docs/msccl.md, "Timing").

use super::layout::{Chunk, Layout};
use super::semantics::Ranks;
use super::{Reading, import};
use crate::checker;
use crate::error::{Error, Result};
use crate::spec::{Instance, Node, Problem, Schedule, Transmission};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

/// The runtime protocol an exported file asks for (`proto`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Proto {
    /// `Simple`.
    #[default]
    Simple,
    /// `LL`: low latency.
    Ll,
    /// `LL128`.
    Ll128,
}

impl Proto {
    /// The `proto` value.
    pub fn name(self) -> &'static str {
        match self {
            Proto::Simple => "Simple",
            Proto::Ll => "LL",
            Proto::Ll128 => "LL128",
        }
    }

    /// Parses `Simple`, `LL` or `LL128` (any case).
    pub fn parse(s: &str) -> Option<Self> {
        [Proto::Simple, Proto::Ll, Proto::Ll128].into_iter().find(|p| p.name().eq_ignore_ascii_case(s))
    }
}

/// What the file asks of the runtime beyond the schedule.
#[derive(Debug, Clone, Copy, Default)]
pub struct XmlOptions {
    /// `proto`.
    pub proto: Proto,
    /// The most thread blocks a rank may use; export refuses a schedule that needs more.
    pub max_thread_blocks: Option<usize>,
    /// The sizes the runtime may pick the file for, `minBytes..=maxBytes` in the runtime's
    /// bytes (docs/msccl.md); `None` for the upper end: every larger size (`maxBytes="0"`).
    /// Without a range: 0 to 1 GiB.
    pub bytes: Option<(u64, Option<u64>)>,
    /// Split each step's transfer on a connection into up to this many contiguous ranges, each
    /// on a channel of its own, which the runtime runs in parallel (`None`: one range, as few
    /// channels as the schedule allows). The steps and what each carries stay the same.
    pub channels: Option<usize>,
}

/// The schedule as MSCCL XML (module documentation). Refuses, naming the reason, schedules of
/// problems without an MSCCL collective, a rank that sends and receives one chunk in one step,
/// more thread blocks than allowed, and an admissible schedule whose file the runtime reading
/// does not give back with its steps and rounds.
pub fn to_xml(inst: &Instance, schedule: &Schedule, options: XmlOptions) -> Result<String> {
    Layout::of(inst).map_err(refuse)?;
    let explicit = schedule.explicit()?;
    let steps = match explicit.as_ref() {
        Schedule::StoreForward(steps) | Schedule::Collective { steps, .. } => steps,
        other => return Err(refuse(format!("a {} schedule is not store-and-forward", other.model_name()))),
    };
    // A schedule the checker rejects is written as it is, to be judged as it is.
    let Some((length, rounds)) = cost(inst, schedule) else {
        return write(inst, steps, options, true);
    };
    let keeps = |text: &str| -> bool {
        import(text, "<export>", inst, Reading::Runtime, None).is_ok_and(|read| {
            read.violations.is_empty()
                && cost(inst, &read.schedule).is_some_and(|(s, r)| s <= length && r <= rounds)
        })
    };
    // The runtime's own timing, where it keeps the steps and rounds.
    let earliest = write(inst, steps, options, false)?;
    if let Ok(read) = import(&earliest, "<export>", inst, Reading::Runtime, None)
        && let Schedule::StoreForward(timed) | Schedule::Collective { steps: timed, .. } = &read.schedule
    {
        let text = write(inst, timed, options, false)?;
        if keeps(&text) {
            return Ok(text);
        }
    }
    let text = write(inst, steps, options, true)?;
    if !keeps(&text) {
        let why = import(&text, "<export>", inst, Reading::Runtime, None)
            .map(|read| {
                read.violations.first().map_or("its steps or rounds change".into(), ToString::to_string)
            })
            .unwrap_or_else(|e| e.to_string());
        return Err(refuse(format!("the runtime reading does not give the schedule back: {why}")));
    }
    Ok(text)
}

fn refuse(reason: String) -> Error {
    Error::NotApplicable { method: "MSCCL XML export".into(), reason }
}

/// (S, R) of an admissible schedule: its length and the rounds of its steps (one each outside
/// the collective model).
fn cost(inst: &Instance, schedule: &Schedule) -> Option<(u64, u64)> {
    let length = checker::check(inst, schedule).admissible()?.length();
    let rounds = match schedule {
        Schedule::Collective { rounds, steps } => {
            let used = |s: &usize| !steps[*s].is_empty();
            let first = (0..steps.len()).find(used).unwrap_or(0);
            let last = (0..steps.len()).rev().find(used).unwrap_or(0);
            rounds.iter().take(last + 1).skip(first).sum()
        }
        _ => length,
    };
    Some((length, rounds))
}

/// A rank's connection block before thread blocks are merged: (sends?, peer, channel).
type Block = (bool, Node, usize);

/// One step of the program: its rank, block and step index.
type OpId = (Node, Block, usize);

/// A step's type: a send, a receive that stores (a copy), or one that reduces (`rrc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Send,
    Recv,
    Reduce,
}

/// One XML step of a block, before it is written.
#[derive(Debug, Clone, Copy)]
struct Op {
    kind: Kind,
    src: Chunk,
    dst: Chunk,
    cnt: usize,
    /// The step it waits for.
    dep: Option<OpId>,
}

/// The steps that touched one chunk's slot on a rank: the last that wrote it, and those that
/// read it since (with their schedule step).
#[derive(Debug, Default, Clone)]
struct History {
    writer: Option<OpId>,
    readers: Vec<(usize, OpId)>,
}

/// One chunk of a transmission, placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Piece {
    send_dep: Option<OpId>,
    recv_dep: Option<OpId>,
    kind: Kind,
    src: Chunk,
    dst: Chunk,
    id: usize,
}

/// The program of the schedule's steps: per rank, blocks and their ops by step index.
struct Program {
    layout: Layout,
    blocks: Vec<BTreeMap<Block, BTreeMap<usize, Op>>>,
    history: HashMap<(Node, usize), History>,
    /// Per (rank, chunk), the contributors of its partial reduction (combining collectives).
    partial: HashMap<(Node, usize), Ranks>,
    /// The most ranges a transfer on one connection is split into ([`XmlOptions::channels`]).
    channels: usize,
}

impl Program {
    fn new(inst: &Instance, layout: Layout, channels: usize) -> Self {
        let n = layout.n;
        let mut partial = HashMap::new();
        if let (Problem::Collective(c), true) = (&inst.problem, layout.combining()) {
            for (id, chunk) in c.chunk_table(n).iter().enumerate() {
                for &r in &chunk.sources {
                    partial.insert((r, id), Ranks::one(n, r));
                }
            }
        }
        Program { layout, blocks: vec![BTreeMap::new(); n], history: HashMap::new(), partial, channels }
    }

    /// Places step `s` (index from 0).
    fn step(&mut self, s: usize, step: &[Transmission]) -> Result<()> {
        let layout = self.layout;
        // What every sender sends is what it held before the step, after its last write.
        let carried: Vec<Vec<(usize, Option<Ranks>)>> = step
            .iter()
            .map(|tr| {
                tr.tokens
                    .iter()
                    .map(|&t| layout.id(t))
                    .map(|g| (g, self.partial.get(&(tr.from, g)).cloned()))
                    .collect()
            })
            .collect();
        let read: BTreeSet<(Node, usize)> = step
            .iter()
            .zip(&carried)
            .flat_map(|(tr, gs)| gs.iter().map(move |(g, _)| (tr.from, *g)))
            .collect();
        // Arrivals are applied largest partial reduction first (docs/spec.md §4.4).
        let size = |gs: &[(usize, Option<Ranks>)]| {
            gs.iter().map(|(_, r)| r.as_ref().map_or(0, |r| r.iter().count())).max()
        };
        let mut order: Vec<usize> = (0..step.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(size(&carried[i])));
        let mut sends = Vec::new();
        for i in order {
            let tr = &step[i];
            let mut pieces = Vec::new();
            for (g, sent) in &carried[i] {
                let g = *g;
                if read.contains(&(tr.to, g)) {
                    return Err(refuse(format!(
                        "rank {} sends and receives chunk {g} in step {}: MSCCL orders a slot's steps, the model runs them at once",
                        tr.to,
                        s + 1
                    )));
                }
                let kind = match (sent, self.partial.get(&(tr.to, g))) {
                    (Some(sent), Some(own)) if own.without(sent).is_empty() => Kind::Recv,
                    (Some(sent), Some(own)) if own.common(sent).is_empty() => Kind::Reduce,
                    (Some(_), Some(_)) => {
                        return Err(refuse(format!(
                            "step {}: rank {} would count chunk {g} twice",
                            s + 1,
                            tr.to
                        )));
                    }
                    _ => Kind::Recv,
                };
                if let Some(sent) = sent {
                    let joined = match (kind, self.partial.get(&(tr.to, g))) {
                        (Kind::Reduce, Some(own)) => own.union(sent),
                        _ => sent.clone(),
                    };
                    self.partial.insert((tr.to, g), joined);
                }
                let before = self.history.get(&(tr.to, g)).cloned().unwrap_or_default();
                let recv_dep =
                    before.readers.iter().max_by_key(|(at, _)| *at).map(|&(_, op)| op).or(before.writer);
                let send_dep = self.history.get(&(tr.from, g)).and_then(|h| h.writer);
                let (src, dst) = (layout.chunk(tr.from, g), layout.chunk(tr.to, g));
                pieces.push(Piece { send_dep, recv_dep, kind, src, dst, id: g });
            }
            pieces.sort_unstable();
            // MSCCL moves one contiguous range per step and connection, after at most one
            // dependency: each run of chunks contiguous on both ends that waits for the same
            // steps takes a channel of its own.
            let mut runs: Vec<Vec<Piece>> = Vec::new();
            for p in pieces {
                match runs.last_mut() {
                    Some(run) if run.last().is_some_and(|q| follows(q, &p)) => run.push(p),
                    _ => runs.push(vec![p]),
                }
            }
            // With more channels, each run is cut into up to that many ranges of near-equal size.
            let runs = runs.into_iter().flat_map(|run| {
                let size = run.len().div_ceil(self.channels.min(run.len()).max(1));
                run.chunks(size).map(<[Piece]>::to_vec).collect::<Vec<_>>()
            });
            for run in runs {
                let channel = (0..).find(|&k| {
                    !self.blocks[tr.from].get(&(true, tr.to, k)).is_some_and(|b| b.contains_key(&s))
                });
                let channel = channel.unwrap_or(0);
                let first = run[0];
                let send_id = (tr.from, (true, tr.to, channel), s);
                let recv_id = (tr.to, (false, tr.from, channel), s);
                let op = |kind, dep| Op { kind, src: first.src, dst: first.dst, cnt: run.len(), dep };
                self.blocks[tr.from].entry(send_id.1).or_default().insert(s, op(Kind::Send, first.send_dep));
                self.blocks[tr.to].entry(recv_id.1).or_default().insert(s, op(first.kind, first.recv_dep));
                for p in &run {
                    self.history
                        .insert((tr.to, p.id), History { writer: Some(recv_id), readers: Vec::new() });
                    sends.push(((tr.from, p.id), send_id));
                }
            }
        }
        for (slot, op) in sends {
            self.history.entry(slot).or_default().readers.push((s, op));
        }
        Ok(())
    }
}

/// Whether piece `p` extends the run that ends with `q`: the same kind and waits, the next
/// chunk on both ends.
fn follows(q: &Piece, p: &Piece) -> bool {
    (q.send_dep, q.recv_dep, q.kind) == (p.send_dep, p.recv_dep, p.kind)
        && (q.src.0, q.src.1 + 1, q.dst.0, q.dst.1 + 1) == (p.src.0, p.src.1, p.dst.0, p.dst.1)
}

/// The thread blocks of one rank: pairs of a sending and a receiving block on one channel
/// whose step indices never meet, each pair one `<tb>` (send peer, receive peer, channel).
fn thread_blocks(blocks: &BTreeMap<Block, BTreeMap<usize, Op>>) -> Vec<(Option<Block>, Option<Block>)> {
    let disjoint = |a: &Block, b: &Block| blocks[a].keys().all(|s| !blocks[b].contains_key(s));
    let mut receivers: Vec<Block> = blocks.keys().filter(|b| !b.0).copied().collect();
    let mut tbs = Vec::new();
    for send in blocks.keys().filter(|b| b.0) {
        let fits = |r: &&Block| r.2 == send.2 && disjoint(send, r);
        let pick = receivers.iter().filter(fits).min_by_key(|r| r.1 != send.1).copied();
        if let Some(r) = pick {
            receivers.retain(|b| *b != r);
        }
        tbs.push((Some(*send), pick));
    }
    tbs.extend(receivers.into_iter().map(|r| (None, Some(r))));
    tbs
}

/// The schedule's steps as MSCCL XML (module documentation); `timed` marks the file's step
/// indices as the synthesised timing.
fn write(inst: &Instance, steps: &[Vec<Transmission>], options: XmlOptions, timed: bool) -> Result<String> {
    let layout = Layout::of(inst).map_err(refuse)?;
    let mut program = Program::new(inst, layout, options.channels.unwrap_or(1).max(1));
    for (s, step) in steps.iter().enumerate() {
        program.step(s, step)?;
    }
    let n = layout.n;
    let tbs: Vec<_> = program.blocks.iter().map(thread_blocks).collect();
    // Each block's thread block id, per rank.
    let ids: Vec<HashMap<Block, usize>> = tbs
        .iter()
        .map(|t| {
            t.iter().enumerate().flat_map(|(i, (a, b))| a.iter().chain(b).map(move |k| (*k, i))).collect()
        })
        .collect();
    let named: BTreeSet<(Node, usize, usize)> = program
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(rank, blocks)| {
            let ids = &ids[rank];
            blocks.iter().flat_map(move |(b, ops)| {
                ops.values().filter_map(move |op| {
                    op.dep.filter(|d| ids[&d.1] != ids[b]).map(|d| (rank, ids[&d.1], d.2))
                })
            })
        })
        .collect();
    let copies = layout.kind == crate::spec::CollectiveKind::Alltoall;
    let most = tbs.iter().map(|t| t.len() + usize::from(copies)).max().unwrap_or(0);
    if let Some(cap) = options.max_thread_blocks.filter(|&cap| most > cap) {
        let rank = tbs.iter().position(|t| t.len() + usize::from(copies) == most).unwrap_or(0);
        return Err(refuse(format!(
            "rank {rank} needs {most} thread blocks, one per connection it sends or receives on that cannot share one, more than --max-thread-blocks {cap}"
        )));
    }
    let channels = program.blocks.iter().flat_map(|b| b.keys().map(|k| k.2 + 1)).max().unwrap_or(1);
    let [inputs, outputs, scratch] = layout.buffers();
    let inplace = u8::from(layout.inplace());
    let (min_bytes, max_bytes) = match options.bytes {
        Some((lo, hi)) => (lo, hi.unwrap_or(0)),
        None => (0, MAX_BYTES),
    };
    let mut xml = format!(
        "<algo name=\"{}\" nchunksperloop=\"{}\" nchannels=\"{channels}\" proto=\"{}\" ngpus=\"{n}\" coll=\"{}\" inplace=\"{inplace}\" outofplace=\"{}\" minBytes=\"{min_bytes}\" maxBytes=\"{max_bytes}\"",
        crate::svg::escape(&inst.name),
        layout.per_loop(),
        options.proto.name(),
        layout.coll(),
        1 - inplace
    );
    if layout.kind.rooted() {
        let _ = write!(xml, " root=\"{}\"", layout.root);
    }
    if timed {
        xml += " timing=\"step-index\"";
    }
    xml += ">\n";
    for (rank, pairs) in tbs.iter().enumerate() {
        let _ = writeln!(
            xml,
            "  <gpu id=\"{rank}\" i_chunks=\"{inputs}\" o_chunks=\"{outputs}\" s_chunks=\"{scratch}\">"
        );
        for (id, (send, recv)) in pairs.iter().enumerate() {
            let peer = |b: &Option<Block>| b.map_or(-1, |b| b.1 as i64);
            let channel = send.or(*recv).map_or(0, |b| b.2);
            let _ = writeln!(
                xml,
                "    <tb id=\"{id}\" send=\"{}\" recv=\"{}\" chan=\"{channel}\">",
                peer(send),
                peer(recv)
            );
            let mut ops: BTreeMap<usize, Op> = BTreeMap::new();
            for b in send.iter().chain(recv) {
                ops.extend(program.blocks[rank][b].iter().map(|(s, op)| (*s, *op)));
            }
            let last = ops.keys().next_back().copied().unwrap_or(0);
            for s in 0..=last {
                let line = match ops.get(&s) {
                    Some(op) => {
                        let (depid, deps) = op
                            .dep
                            .filter(|d| ids[rank][&d.1] != id)
                            .map_or((-1, -1), |d| (ids[rank][&d.1] as i64, d.2 as i64));
                        format!(
                            "type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" dstoff=\"{}\" cnt=\"{}\" depid=\"{depid}\" deps=\"{deps}\" hasdep=\"{}\"",
                            match op.kind {
                                Kind::Send => "s",
                                Kind::Recv => "r",
                                Kind::Reduce => "rrc",
                            },
                            op.src.0,
                            op.src.1,
                            op.dst.0,
                            op.dst.1,
                            op.cnt,
                            u8::from(named.contains(&(rank, id, s)))
                        )
                    }
                    None => "type=\"nop\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" cnt=\"0\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"".into(),
                };
                let _ = writeln!(xml, "      <step s=\"{s}\" {line}/>");
            }
            xml += "    </tb>\n";
        }
        // An alltoall's chunks from a rank to itself stay local: one copy, input to output.
        if copies {
            let (at, c) = (rank * layout.c, layout.c);
            let _ = writeln!(
                xml,
                "    <tb id=\"{}\" send=\"-1\" recv=\"-1\" chan=\"0\">\n      <step s=\"0\" type=\"cpy\" srcbuf=\"i\" srcoff=\"{at}\" dstbuf=\"o\" dstoff=\"{at}\" cnt=\"{c}\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>",
                pairs.len()
            );
        }
        xml += "  </gpu>\n";
    }
    xml += "</algo>\n";
    Ok(xml)
}

/// The largest message (bytes) an exported file declares it serves when no range is asked for
/// (`maxBytes`; `minBytes` is 0): runtimes pick an algorithm file by message size and skip files
/// without the range.
const MAX_BYTES: u64 = 1 << 30;
