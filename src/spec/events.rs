//! Schedules of the event model (docs/spec.md §3.3): an allgather of M bytes whose shards are cut
//! into C pieces of equal size, each link carrying its pieces one at a time in a written order.
//! The file names no time: the checker derives every transfer's start and end from the order
//! and the links' latencies and bandwidths (`events.json`).

use super::fabric::Fabric;
use super::packing::{BandwidthCollective, Reader};
use crate::error::InputError;
use serde_json::Value;

/// One piece as a link carries it: the `index`-th of the C pieces of the shard of compute node
/// `root`; on a link into or out of a switch, also the route of the copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// The compute node whose shard it is part of.
    pub root: usize,
    /// Which of its shard's C pieces, from 0.
    pub index: u64,
    /// On a link into or out of a switch, the copy's route `(from, to)`: the compute node that
    /// sent it into the switches and the one it is for, the ends of its path. A switch holds
    /// copies by route and relays each along it. `None` between two compute nodes.
    pub route: Option<(usize, usize)>,
}

/// `events.json`: per link, the pieces it carries, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct EventSchedule {
    /// M: the allgather's output per rank, in bytes (nccl-tests' size).
    pub bytes: u64,
    /// C: the pieces each shard of M/N bytes is cut into.
    pub pieces_per_rank: u64,
    /// `(link index, pieces in the order the link carries them)`, links in the fabric's order.
    pub links: Vec<(usize, Vec<Piece>)>,
}

impl EventSchedule {
    /// The transfers it makes: one per piece per link.
    pub fn transfers(&self) -> usize {
        self.links.iter().map(|(_, p)| p.len()).sum()
    }
}

/// `events.json`'s text: one link per line, written directly since a schedule at scale has
/// millions of transfers.
pub fn events_to_json(fabric: &Fabric, schedule: &EventSchedule) -> String {
    let quoted: Vec<String> =
        (0..fabric.len()).map(|v| Value::from(fabric.node_name(v)).to_string()).collect();
    let mut text = format!(
        "{{\n  \"collective\": \"allgather\",\n  \"model\": \"events\",\n  \"bytes\": {},\n  \"pieces_per_rank\": {},\n  \"links\": [",
        schedule.bytes, schedule.pieces_per_rank
    );
    for (i, (l, pieces)) in schedule.links.iter().enumerate() {
        let link = &fabric.links()[*l];
        let list: Vec<String> = pieces
            .iter()
            .map(|p| match p.route {
                Some((from, to)) => {
                    format!("[{}, {}, {}, {}]", quoted[p.root], p.index, quoted[from], quoted[to])
                }
                None => format!("[{}, {}]", quoted[p.root], p.index),
            })
            .collect();
        text += if i == 0 { "\n    " } else { ",\n    " };
        text += &format!(
            "{{\"from\": {}, \"to\": {}, \"pieces\": [{}]}}",
            quoted[link.from],
            quoted[link.to],
            list.join(", ")
        );
    }
    text + "\n  ]\n}\n"
}

/// Whether a JSON text is an event schedule (its `model` is `events`), for `check` to tell it
/// from an instance.
pub fn is_event_schedule(text: &str) -> bool {
    // The header comes first in the files written here; a file of anyone's is parsed whole.
    serde_json::from_str::<Value>(text)
        .is_ok_and(|v| v.get("model").and_then(Value::as_str) == Some("events"))
}

/// Reads `events.json` against its fabric. Errors name the file, the field (`links[3].pieces[7]`)
/// and the reason; whether the order runs is the checker's to judge.
pub fn parse_events(text: &str, file: &str, fabric: &Fabric) -> Result<EventSchedule, InputError> {
    let r = Reader::new(file, fabric);
    let doc = r.doc(text)?;
    if r.collective(&doc)? != BandwidthCollective::Allgather {
        return Err(r.err("collective", "the event model schedules allgather only"));
    }
    match doc.get("model").and_then(Value::as_str) {
        Some("events") => {}
        _ => return Err(r.err("model", "is not \"events\"")),
    }
    let count = |field: &str| {
        doc.get(field)
            .and_then(Value::as_u64)
            .filter(|&c| c > 0)
            .ok_or_else(|| r.err(field, "is not a positive whole number"))
    };
    let bytes = count("bytes")?;
    let pieces_per_rank = count("pieces_per_rank")?;
    let mut links: Vec<(usize, Vec<Piece>)> = Vec::new();
    for (i, entry) in r.list("links", doc.get("links"))?.iter().enumerate() {
        let field = |f: &str| format!("links[{i}].{f}");
        let entry = entry.as_object().ok_or_else(|| r.err(&format!("links[{i}]"), "is not an object"))?;
        let end = |f: &str| r.node(&field(f), entry.get(f).ok_or_else(|| r.err(&field(f), "is missing"))?);
        let (from, to) = (end("from")?, end("to")?);
        let link = fabric.link_index(from, to).ok_or_else(|| {
            r.err(
                &format!("links[{i}]"),
                format!(
                    "`{}` → `{}` is not a link of `{}`",
                    fabric.node_name(from),
                    fabric.node_name(to),
                    fabric.name()
                ),
            )
        })?;
        if links.iter().any(|(l, _)| *l == link) {
            return Err(r.err(&format!("links[{i}]"), "names a link a second time: one entry per link"));
        }
        let mut pieces = Vec::new();
        for (k, p) in r.list(&field("pieces"), entry.get("pieces"))?.iter().enumerate() {
            let at = format!("links[{i}].pieces[{k}]");
            let routed = !fabric.is_compute(from) || !fabric.is_compute(to);
            let entry = p.as_array().filter(|a| a.len() == if routed { 4 } else { 2 }).ok_or_else(|| {
                r.err(
                    &at,
                    if routed {
                        "is not [root, index, from, to]: a link into or out of a switch names the route of the copy"
                    } else {
                        "is not a pair [root, index]"
                    },
                )
            })?;
            let compute = |v: &Value| {
                let node = r.node(&at, v)?;
                match fabric.is_compute(node) {
                    true => Ok(node),
                    false => Err(
                        r.err(&at, format!("`{}` is a switch, not a compute node", fabric.node_name(node)))
                    ),
                }
            };
            let root = compute(&entry[0])?;
            let index = entry[1].as_u64().filter(|&k| k < pieces_per_rank).ok_or_else(|| {
                r.err(
                    &at,
                    format!("`{}` is not a piece index below pieces_per_rank = {pieces_per_rank}", entry[1]),
                )
            })?;
            let route = if routed { Some((compute(&entry[2])?, compute(&entry[3])?)) } else { None };
            pieces.push(Piece { root, index, route });
        }
        links.push((link, pieces));
    }
    links.sort_by_key(|(l, _)| *l);
    Ok(EventSchedule { bytes, pieces_per_rank, links })
}
