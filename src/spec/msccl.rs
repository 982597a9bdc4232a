//! The MSCCL XML algorithm format (what msccl-tools, SCCL and TACCL emit and the MSCCL runtime
//! executes), for store-and-forward schedules: total exchange as `alltoall`, gossip as
//! `allgather`. docs/msccl.md describes the mapping and its limits.
//!
//! Export: one rank per node; on each rank one thread block per arc it uses, a sending one
//! (`send` = the peer) per out-arc and a receiving one (`recv` = the peer) per in-arc. Step `s`
//! of every thread block is schedule step `s + 1`: a step in which the arc is idle is a `nop`,
//! so the step structure survives the round trip. A transmission is a `type="s"` step on the
//! sender and a `type="r"` step at the same index on the receiver, moving `cnt` contiguous
//! chunks. Chunks: total exchange keeps packet (u, v) in input chunk v of rank u, in output
//! chunk u of rank v, and in scratch chunk `u·n + v` on the way; gossip (in place) keeps the
//! token of origin u in output chunk u. A send of a token the rank received earlier depends
//! (`depid`, `deps`) on the latest such receive; that receive is marked `hasdep`.
//!
//! Import reads `s`, `r` and `nop` steps: every send must meet a receive of the same count at
//! the same index on its peer. Tokens are read on the sender's side: input and output chunks by
//! the convention above, scratch chunks by what the rank last received into them, so files
//! with another scratch layout read back too. The checker then judges the schedule.

use super::msccl_xml::StepKind;
use super::{Instance, Mode, Model, Problem, Schedule, Transmission};
use crate::error::{Error, InputError, Result};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// The collective an instance maps to: `alltoall` (total exchange, move mode) or `allgather`
/// (gossip, copy mode); `None` for everything else.
pub fn collective(inst: &Instance) -> Option<&'static str> {
    match (&inst.problem, &inst.model) {
        (Problem::TotalExchange(_), Model::StoreForward { mode: Mode::Move, .. }) => Some("alltoall"),
        (Problem::Gossip, Model::StoreForward { mode: Mode::Copy, .. }) => Some("allgather"),
        _ => None,
    }
}

/// A chunk of a rank's buffers: `i`nput, `o`utput or `s`cratch, and an offset.
type Chunk = (char, usize);

/// Where a token sits on `rank` by the export convention.
fn chunk(gossip: bool, n: usize, rank: usize, token: usize) -> Chunk {
    if gossip {
        ('o', token)
    } else if token / n == rank {
        ('i', token % n)
    } else if token % n == rank {
        ('o', token / n)
    } else {
        ('s', token)
    }
}

/// One XML step of a thread block, before it is written.
#[derive(Debug, Clone, Copy)]
struct Op {
    send: bool,
    src: Chunk,
    dst: Chunk,
    cnt: usize,
    dep: Option<(usize, usize)>,
    has_dep: bool,
}

/// The schedule as MSCCL XML. Refuses (naming the reason) schedules of other problems or
/// models, and packets whose tokens are not contiguous chunks on both ends.
pub fn to_xml(inst: &Instance, schedule: &Schedule) -> Result<String> {
    let refuse = |reason: String| Error::NotApplicable { method: "MSCCL XML export".into(), reason };
    let coll = collective(inst).ok_or_else(|| {
        refuse(format!(
            "{} in model {} has no MSCCL collective: export takes total exchange (move) and gossip (copy)",
            inst.problem,
            inst.model.name()
        ))
    })?;
    let explicit = schedule.explicit()?;
    let Schedule::StoreForward(steps) = explicit.as_ref() else {
        return Err(refuse(format!("a {} schedule is not store-and-forward", schedule.model_name())));
    };
    let gossip = coll == "allgather";
    let n = inst.network.len();
    // Per rank, thread blocks keyed by (is_send, peer): their ops by step index.
    let mut blocks: Vec<BTreeMap<(bool, usize), BTreeMap<usize, Op>>> = vec![BTreeMap::new(); n];
    // Per rank and token, the step indices (and sender) of its receipts.
    let mut receipts: Vec<HashMap<usize, Vec<(usize, usize)>>> = vec![HashMap::new(); n];
    for (s, step) in steps.iter().enumerate() {
        for (k, tr) in step.iter().enumerate() {
            let mut pairs: Vec<(Chunk, Chunk)> = tr
                .tokens
                .iter()
                .map(|&t| (chunk(gossip, n, tr.from, t), chunk(gossip, n, tr.to, t)))
                .collect();
            pairs.sort_unstable();
            let contiguous = pairs.windows(2).all(|w| {
                let ((a, b), (c, d)) = (w[0], w[1]);
                a.0 == c.0 && b.0 == d.0 && c.1 == a.1 + 1 && d.1 == b.1 + 1
            });
            let Some(&(src, dst)) = pairs.first().filter(|_| contiguous) else {
                return Err(refuse(format!(
                    "step {}, transmission {k} ({},{}): tokens {:?} are not one run of contiguous chunks",
                    s + 1,
                    tr.from,
                    tr.to,
                    tr.tokens
                )));
            };
            let dep = tr
                .tokens
                .iter()
                .filter_map(|t| receipts[tr.from].get(t))
                .flatten()
                .filter(|(at, _)| *at < s)
                .max()
                .copied();
            let op = Op {
                send: true,
                src,
                dst,
                cnt: pairs.len(),
                dep: dep.map(|(at, w)| (w, at)),
                has_dep: false,
            };
            blocks[tr.from].entry((true, tr.to)).or_default().insert(s, op);
            blocks[tr.to].entry((false, tr.from)).or_default().insert(s, Op { send: false, dep: None, ..op });
            if let Some(r) = dep.and_then(|(at, w)| blocks[tr.from].get_mut(&(false, w))?.get_mut(&at)) {
                r.has_dep = true;
            }
        }
        for tr in step {
            for &t in &tr.tokens {
                receipts[tr.to].entry(t).or_default().push((s, tr.from));
            }
        }
    }
    let scratch = if gossip { 0 } else { n * n };
    let (inputs, inplace) = if gossip { (1, 1) } else { (n, 0) };
    let mut xml = format!(
        "<algo name=\"{}\" nchunksperloop=\"{n}\" nchannels=\"1\" proto=\"Simple\" ngpus=\"{n}\" coll=\"{coll}\" inplace=\"{inplace}\">\n",
        crate::svg::escape(&inst.name)
    );
    for (rank, tbs) in blocks.iter().enumerate() {
        let ids: HashMap<(bool, usize), usize> = tbs.keys().enumerate().map(|(i, k)| (*k, i)).collect();
        let _ = writeln!(
            xml,
            "  <gpu id=\"{rank}\" i_chunks=\"{inputs}\" o_chunks=\"{n}\" s_chunks=\"{scratch}\">"
        );
        for (&(send, peer), ops) in tbs {
            let (to, from) = if send { (peer as i64, -1) } else { (-1, peer as i64) };
            let _ = writeln!(
                xml,
                "    <tb id=\"{}\" send=\"{to}\" recv=\"{from}\" chan=\"0\">",
                ids[&(send, peer)]
            );
            let last = ops.keys().next_back().copied().unwrap_or(0);
            for s in 0..=last {
                let line = match ops.get(&s) {
                    Some(op) => {
                        let (depid, deps) = op.dep.map_or((-1, -1), |(w, at)| (ids[&(false, w)] as i64, at as i64));
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
        xml += "  </gpu>\n";
    }
    xml += "</algo>\n";
    Ok(xml)
}

/// A send read from the file, before its tokens are resolved.
#[derive(Debug, Clone)]
struct Send {
    from: usize,
    to: usize,
    src: Chunk,
    cnt: usize,
    field: String,
}

/// Parses MSCCL XML into a store-and-forward schedule of `inst` (see the module docs). Errors
/// name the file, the element (`gpu[2].tb[1].step[4]`) and the reason.
pub fn parse(text: &str, file: &str, inst: &Instance) -> std::result::Result<Schedule, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let coll = collective(inst).ok_or_else(|| {
        err(
            "",
            format!(
                "MSCCL XML is read for total exchange and gossip store-and-forward instances, not {}",
                inst.problem
            ),
        )
    })?;
    let gossip = coll == "allgather";
    let n = inst.network.len();
    let algo = super::msccl_xml::parse(text, file)?;
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
    let mut recvs: BTreeMap<(usize, usize, usize), (usize, Chunk, String)> = BTreeMap::new();
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
                let at = |(buffer, offset): (super::msccl_xml::Buffer, usize)| (buffer.letter(), offset);
                match step.kind {
                    StepKind::Nop => {}
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
                        if recvs.insert((step.index, from, g), (cnt, at(step.dst), field.clone())).is_some() {
                            return Err(err(
                                &field,
                                format!("a second receive from rank {from} in step {}", step.index),
                            ));
                        }
                    }
                    other => {
                        return Err(err(
                            &format!("{field}.type"),
                            format!(
                                "`{}` is not a plain send (s), receive (r) or nop: reductions and fused steps do not map to store-and-forward",
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
            let Some((cnt, dst, _)) = recvs.remove(&(s, send.from, send.to)) else {
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
                    'i' if gossip && off == 0 => Some(send.from),
                    'i' if !gossip && off < n => Some(send.from * n + off),
                    'o' if gossip && off < n => Some(off),
                    'o' if !gossip && off < n => Some(off * n + send.from),
                    's' => scratch.get(&(send.from, off)).copied(),
                    _ => None,
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
    Ok(Schedule::StoreForward(steps))
}
