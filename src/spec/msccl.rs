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

/// One XML tag: its name, attributes, and whether it closes (`</x>`) or is empty (`<x/>`).
#[derive(Debug)]
struct Tag {
    name: String,
    attrs: Vec<(String, String)>,
    closing: bool,
    empty: bool,
}

/// The tags of an XML document (declarations and comments skipped, text ignored).
fn tags(text: &str) -> std::result::Result<Vec<Tag>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let skip =
            [("<?", "?>"), ("<!--", "-->"), ("<!", ">")].into_iter().find(|(open, _)| rest.starts_with(open));
        if let Some((_, close)) = skip {
            let end = rest.find(close).ok_or_else(|| format!("unterminated `{}`", &rest[..2]))?;
            rest = &rest[end + close.len()..];
            continue;
        }
        let end = rest.find('>').ok_or("unterminated tag")?;
        let body = &rest[1..end];
        rest = &rest[end + 1..];
        let (closing, body) = match body.strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, body),
        };
        let (empty, body) = match body.strip_suffix('/') {
            Some(b) => (true, b),
            None => (false, body),
        };
        let body = body.trim();
        let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let (name, mut attrs_text) = (body[..name_end].to_string(), body[name_end..].trim_start());
        let mut attrs = Vec::new();
        while !attrs_text.is_empty() {
            let eq = attrs_text.find('=').ok_or_else(|| format!("<{name}>: attribute without a value"))?;
            let key = attrs_text[..eq].trim().to_string();
            let value_text = attrs_text[eq + 1..].trim_start();
            let quote = value_text.chars().next().filter(|c| *c == '"' || *c == '\'');
            let quote = quote.ok_or_else(|| format!("<{name}>: attribute `{key}` is not quoted"))?;
            let close =
                value_text[1..].find(quote).ok_or_else(|| format!("<{name}>: unterminated `{key}`"))?;
            let value = value_text[1..1 + close]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
            attrs.push((key, value));
            attrs_text = value_text[close + 2..].trim_start();
        }
        out.push(Tag { name, attrs, closing, empty });
    }
    Ok(out)
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
    let tags = tags(text).map_err(|r| err("", r))?;
    let attr = |tag: &Tag, field: &str, key: &str| -> std::result::Result<String, InputError> {
        tag.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| err(field, format!("<{}> has no `{key}` attribute", tag.name)))
    };
    let number = |tag: &Tag, field: &str, key: &str| -> std::result::Result<i64, InputError> {
        let v = attr(tag, field, key)?;
        v.trim().parse().map_err(|_| err(&format!("{field}.{key}"), format!("`{v}` is not an integer")))
    };
    let algo = tags
        .iter()
        .find(|t| t.name == "algo" && !t.closing)
        .ok_or_else(|| err("", "no <algo> element".into()))?;
    let file_coll = attr(algo, "algo", "coll")?;
    if file_coll != coll {
        return Err(err(
            "algo.coll",
            format!("`{file_coll}` does not match the instance's {} (`{coll}`)", inst.problem),
        ));
    }
    if number(algo, "algo", "ngpus")? != n as i64 {
        return Err(err("algo.ngpus", format!("the instance's network has {n} nodes")));
    }
    let buffer = |field: &str, key: &str, v: String| -> std::result::Result<char, InputError> {
        match v.as_str() {
            "i" | "o" | "s" => Ok(v.chars().next().unwrap_or('i')),
            _ => Err(err(&format!("{field}.{key}"), format!("`{v}` is not a buffer (i, o, s)"))),
        }
    };
    let (mut gpu, mut tb): (Option<usize>, Option<(i64, i64, String)>) = (None, None);
    let mut sends: BTreeMap<usize, Vec<Send>> = BTreeMap::new();
    let mut recvs: BTreeMap<(usize, usize, usize), (usize, Chunk, String)> = BTreeMap::new();
    for tag in &tags {
        match (tag.name.as_str(), tag.closing) {
            ("gpu", false) => {
                let id = number(tag, "gpu", "id")?;
                let field = format!("gpu[{id}]");
                gpu = Some(usize::try_from(id).ok().filter(|&g| g < n).ok_or_else(|| {
                    err(
                        &format!("{field}.id"),
                        format!("rank {id} is unknown: the network has nodes 0..{}", n - 1),
                    )
                })?);
            }
            ("gpu", true) => gpu = None,
            ("tb", false) => {
                let g = gpu.ok_or_else(|| err("tb", "<tb> outside a <gpu>".into()))?;
                let id = number(tag, &format!("gpu[{g}].tb"), "id")?;
                let field = format!("gpu[{g}].tb[{id}]");
                let (send, recv) = (number(tag, &field, "send")?, number(tag, &field, "recv")?);
                for (key, peer) in [("send", send), ("recv", recv)] {
                    if peer < -1 || peer >= n as i64 {
                        return Err(err(&format!("{field}.{key}"), format!("rank {peer} is unknown")));
                    }
                }
                tb = Some((send, recv, field));
            }
            ("tb", true) => tb = None,
            ("step", false) => {
                let (g, (send, recv, tb_field)) = match (gpu, &tb) {
                    (Some(g), Some(t)) => (g, t),
                    _ => return Err(err("step", "<step> outside a <tb>".into())),
                };
                let s = number(tag, &format!("{tb_field}.step"), "s")?;
                let field = format!("{tb_field}.step[{s}]");
                let s = usize::try_from(s)
                    .map_err(|_| err(&format!("{field}.s"), "a step index is ≥ 0".into()))?;
                let kind = attr(tag, &field, "type")?;
                if kind == "nop" {
                    continue;
                }
                let cnt = usize::try_from(number(tag, &field, "cnt")?).ok().filter(|&c| c > 0).ok_or_else(
                    || err(&format!("{field}.cnt"), "a send or receive moves at least one chunk".into()),
                )?;
                let chunk = |key: &str, off: &str| -> std::result::Result<Chunk, InputError> {
                    let b = buffer(&field, key, attr(tag, &field, key)?)?;
                    let o = usize::try_from(number(tag, &field, off)?)
                        .map_err(|_| err(&format!("{field}.{off}"), "an offset is ≥ 0".into()))?;
                    Ok((b, o))
                };
                match kind.as_str() {
                    "s" => {
                        let to = usize::try_from(*send).map_err(|_| {
                            err(
                                &format!("{tb_field}.send"),
                                "a thread block with send steps names its peer".into(),
                            )
                        })?;
                        let src = chunk("srcbuf", "srcoff")?;
                        sends.entry(s).or_default().push(Send { from: g, to, src, cnt, field });
                    }
                    "r" => {
                        let from = usize::try_from(*recv).map_err(|_| {
                            err(
                                &format!("{tb_field}.recv"),
                                "a thread block with receive steps names its peer".into(),
                            )
                        })?;
                        let dst = chunk("dstbuf", "dstoff")?;
                        if recvs.insert((s, from, g), (cnt, dst, field.clone())).is_some() {
                            return Err(err(
                                &field,
                                format!("a second receive from rank {from} in step {s}"),
                            ));
                        }
                    }
                    other => {
                        return Err(err(
                            &format!("{field}.type"),
                            format!(
                                "`{other}` is not a plain send (s), receive (r) or nop: reductions and fused steps do not map to store-and-forward"
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
        if tag.empty {
            match tag.name.as_str() {
                "gpu" => gpu = None,
                "tb" => tb = None,
                _ => {}
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
