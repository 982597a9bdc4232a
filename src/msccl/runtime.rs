//! What an MSCCL algorithm does when a runtime runs it (docs/msccl.md, "Runtime semantics"):
//! each thread block runs its steps in the order of their indices; sends and receives pair in
//! FIFO order per connection (sender, receiver, channel); `depid`/`deps` make a step wait for
//! a step of another block of the same rank; `cpy` copies locally, `nop` only waits, and the
//! reduction and fused steps combine what they receive with a local chunk.
//!
//! [`run`] derives the synchronous steps as the earliest timing that program order, the
//! dependencies and the pairing allow (a send leaves one step after what it waits for, a
//! receive lands when its send leaves, local steps take no time; with commsched's
//! `timing="step-index"` a send leaves no earlier than step `s + 1`), and follows what every
//! buffer slot holds symbolically: which chunk, with the contributions of which ranks. A file
//! the runtime cannot run is an error naming the element (`gpu[2].tb[1].step[4]`): a send
//! never received, a receive nothing feeds, a deadlock (a cycle of waits), a chunk read before
//! anything ordered before the read wrote it, a write of another value over a chunk that an
//! unordered step reads or writes, an offset outside its buffer. A file that runs but computes the wrong thing (a
//! reduction that mixes chunks or counts a rank twice, an output slot that ends without what
//! the collective requires) yields [`Violation`]s naming the step.

pub use super::semantics::{Ranks, Semantics, Value};
use super::xml::{Algo, Buffer, Step, StepKind};
use crate::checker::{Rule, Violation};
use crate::error::InputError;
use crate::spec::Node;
use std::collections::{BTreeMap, HashMap, VecDeque};

/// One transfer of the derived timing: in `step`, `from` sends `chunks` to `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    /// The synchronous step, from 1.
    pub step: u64,
    /// The sending rank.
    pub from: Node,
    /// The receiving rank.
    pub to: Node,
    /// The chunk values sent, in buffer order.
    pub chunks: Vec<Value>,
}

/// The file as the runtime runs it.
#[derive(Debug, Clone)]
pub struct Run {
    /// The transfers, by step.
    pub transfers: Vec<Transfer>,
    /// The last step in which something is sent (0 if nothing is).
    pub length: u64,
    /// What the file computes wrongly (module documentation).
    pub violations: Vec<Violation>,
}

/// One step of the file, placed in the program.
struct Op<'a> {
    step: &'a Step,
    rank: Node,
    block: usize,
    position: usize,
    /// The step it waits for (`depid`/`deps`), as an op index.
    dep: Option<usize>,
    /// The matched send feeding it, for steps that receive.
    feed: Option<usize>,
    /// The block's `send` peer.
    to: Option<Node>,
}

impl Op<'_> {
    fn receives(&self) -> bool {
        matches!(
            self.step.kind,
            StepKind::Recv
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceSend
                | StepKind::RecvReduceCopySend
                | StepKind::RecvCopySend
        )
    }

    fn sends(&self) -> bool {
        matches!(
            self.step.kind,
            StepKind::Send | StepKind::RecvReduceSend | StepKind::RecvReduceCopySend | StepKind::RecvCopySend
        )
    }
}

/// A slot's content and who touched it, for the race checks.
#[derive(Default, Clone)]
struct Slot {
    value: Option<Value>,
    /// The steps that wrote the value (several when they wrote the same one).
    writers: Vec<usize>,
    readers: Vec<usize>,
}

/// Why a file does not run, in the two classes `check FILE.xml` answers apart (docs/msccl.md,
/// "Runtime semantics"): a file that does not describe a program (an unknown rank, block or
/// step, a step without its peer) is bad input, exit code 2; a program that a runtime cannot
/// run to its end (a send never received, a receive nothing feeds, a deadlock, a read before
/// the write it needs, a race, an offset outside its buffer) is a wrong algorithm, exit code 1.
/// Both name the file, the element and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The file does not describe a program.
    Input(InputError),
    /// The program is wrong: a runtime cannot run it to its end.
    Wrong(InputError),
}

impl RunError {
    /// The file, the element and the reason, whichever the class.
    pub fn error(&self) -> &InputError {
        match self {
            RunError::Input(e) | RunError::Wrong(e) => e,
        }
    }
}

impl From<InputError> for RunError {
    fn from(e: InputError) -> Self {
        RunError::Input(e)
    }
}

/// For callers to whom a file that does not run is bad input, whatever the class.
impl From<RunError> for InputError {
    fn from(e: RunError) -> Self {
        match e {
            RunError::Input(e) | RunError::Wrong(e) => e,
        }
    }
}

impl From<RunError> for crate::error::Error {
    fn from(e: RunError) -> Self {
        InputError::from(e).into()
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error().fmt(f)
    }
}

impl std::error::Error for RunError {}

/// Runs `algo` under `semantics` (module documentation); errors are [`RunError`]s of either
/// class.
pub fn run(algo: &Algo, semantics: &Semantics, file: &str) -> Result<Run, RunError> {
    let err = |field: &str, reason: String| RunError::Input(InputError::new(file, field, reason));
    let wrong = |field: &str, reason: String| RunError::Wrong(InputError::new(file, field, reason));
    let n = semantics.ranks;
    // The program: ops of every block in index order.
    let mut ops: Vec<Op> = Vec::new();
    let mut blocks: Vec<(Node, &super::xml::ThreadBlock, Vec<usize>)> = Vec::new();
    let mut block_of: HashMap<(Node, usize), usize> = HashMap::new();
    for gpu in &algo.gpus {
        if gpu.id >= n {
            return Err(err(
                &format!("gpu[{}].id", gpu.id),
                format!("rank {} is outside ngpus = {n}", gpu.id),
            ));
        }
        for tb in &gpu.blocks {
            for (key, peer) in [("send", tb.send), ("recv", tb.recv)] {
                if let Some(p) = peer.filter(|&p| p >= n || p == gpu.id) {
                    return Err(err(
                        &format!("{}.{key}", tb.place),
                        format!("rank {p} is not another rank of 0..{n}"),
                    ));
                }
            }
            let b = blocks.len();
            if block_of.insert((gpu.id, tb.id), b).is_some() {
                return Err(err(
                    &tb.place,
                    format!("rank {} has two thread blocks with id {}", gpu.id, tb.id),
                ));
            }
            let mut steps: Vec<&Step> = tb.steps.iter().collect();
            steps.sort_by_key(|s| s.index);
            if let Some(w) = steps.windows(2).find(|w| w[0].index == w[1].index) {
                return Err(err(&w[1].place, format!("step index {} is given twice", w[1].index)));
            }
            let mut ids = Vec::with_capacity(steps.len());
            for (position, step) in steps.into_iter().enumerate() {
                ids.push(ops.len());
                ops.push(Op { step, rank: gpu.id, block: b, position, dep: None, feed: None, to: tb.send });
            }
            blocks.push((gpu.id, tb, ids));
        }
    }
    for i in 0..ops.len() {
        let op = &ops[i];
        let (_, tb, _) = &blocks[op.block];
        if (op.sends() && tb.send.is_none()) || (op.receives() && tb.recv.is_none()) {
            let key = if op.sends() && tb.send.is_none() { "send" } else { "recv" };
            return Err(err(
                &format!("{}.type", op.step.place),
                format!("`{}` needs the thread block's `{key}` peer, which is -1", op.step.kind.name()),
            ));
        }
        if op.step.kind != StepKind::Nop && op.step.cnt == 0 {
            return Err(err(
                &format!("{}.cnt", op.step.place),
                "a step that moves data moves at least one chunk".into(),
            ));
        }
        if let Some((depid, deps)) = op.step.dep {
            let b = *block_of.get(&(op.rank, depid)).ok_or_else(|| {
                err(
                    &format!("{}.depid", op.step.place),
                    format!("rank {} has no thread block {depid}", op.rank),
                )
            })?;
            let target =
                blocks[b].2.iter().copied().find(|&o| ops[o].step.index == deps).ok_or_else(|| {
                    err(
                        &format!("{}.deps", op.step.place),
                        format!("thread block {depid} has no step {deps}"),
                    )
                })?;
            ops[i].dep = Some(target);
        }
    }
    // Connections (sender, receiver, channel): one sending and one receiving block each, and
    // their sends and receives paired in order.
    type Connection = (Node, Node, usize);
    let mut senders: BTreeMap<Connection, (usize, Vec<usize>)> = BTreeMap::new();
    let mut receivers: BTreeMap<Connection, (usize, Vec<usize>)> = BTreeMap::new();
    for (b, (rank, tb, ids)) in blocks.iter().enumerate() {
        for (peer, map, sends) in [(tb.send, &mut senders, true), (tb.recv, &mut receivers, false)] {
            let Some(peer) = peer else { continue };
            let key = if sends { (*rank, peer, tb.channel) } else { (peer, *rank, tb.channel) };
            let used: Vec<usize> = ids
                .iter()
                .copied()
                .filter(|&o| if sends { ops[o].sends() } else { ops[o].receives() })
                .collect();
            if used.is_empty() {
                continue;
            }
            if let Some((other, _)) = map.get(&key) {
                return Err(err(
                    &tb.place,
                    format!(
                        "{} rank {peer} on channel {} like {}: a connection has one thread block at each end, or its order is undefined",
                        if sends { "sends to" } else { "receives from" },
                        tb.channel,
                        blocks[*other].1.place
                    ),
                ));
            }
            map.insert(key, (b, used));
        }
    }
    for (key, (_, sends)) in &senders {
        let receives = receivers.get(key).map_or(&[][..], |(_, r)| r.as_slice());
        if let Some(&unmatched) = sends.get(receives.len()) {
            return Err(wrong(
                &ops[unmatched].step.place,
                format!(
                    "sends to rank {} on channel {}, and is never received: rank {} receives {} time{} on that connection, rank {} sends {}",
                    key.1,
                    key.2,
                    key.1,
                    receives.len(),
                    if receives.len() == 1 { "" } else { "s" },
                    key.0,
                    sends.len()
                ),
            ));
        }
    }
    for (key, (_, receives)) in &receivers {
        let sends = senders.get(key).map_or(&[][..], |(_, s)| s.as_slice());
        if let Some(&unfed) = receives.get(sends.len()) {
            return Err(wrong(
                &ops[unfed].step.place,
                format!(
                    "receives from rank {} on channel {}, and nothing feeds it: rank {} sends {} time{} on that connection",
                    key.0,
                    key.2,
                    key.0,
                    sends.len(),
                    if sends.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        for (&s, &r) in sends.iter().zip(receives) {
            if ops[s].step.cnt != ops[r].step.cnt {
                return Err(wrong(
                    &format!("{}.cnt", ops[r].step.place),
                    format!(
                        "receives {} chunks, its send {} sends {}",
                        ops[r].step.cnt, ops[s].step.place, ops[s].step.cnt
                    ),
                ));
            }
            ops[r].feed = Some(s);
        }
    }
    // Waits: program order, dependencies, and a receive on its send.
    let mut waits: Vec<Vec<usize>> = vec![Vec::new(); ops.len()];
    for (i, op) in ops.iter().enumerate() {
        if op.position > 0 {
            waits[i].push(i - 1);
        }
        waits[i].extend(op.dep);
        waits[i].extend(op.feed);
    }
    let order = topological(&waits).map_err(|cycle| {
        let path: Vec<&str> = cycle.iter().map(|&o| ops[o].step.place.as_str()).collect();
        wrong(
            &ops[cycle[0]].step.place,
            format!(
                "deadlock: it waits for {}, which waits for {}",
                path[1..].join(", which waits for "),
                path[0]
            ),
        )
    })?;
    // Everything `simulate` refuses is something the program does wrong.
    simulate(&ops, &waits, &order, blocks.len(), semantics, algo, file).map_err(RunError::Wrong)
}

/// The ops in an order that respects every wait, or a cycle of waits.
fn topological(waits: &[Vec<usize>]) -> Result<Vec<usize>, Vec<usize>> {
    let mut pending: Vec<usize> = waits.iter().map(Vec::len).collect();
    let mut waiters: Vec<Vec<usize>> = vec![Vec::new(); waits.len()];
    for (i, w) in waits.iter().enumerate() {
        w.iter().for_each(|&j| waiters[j].push(i));
    }
    let mut ready: VecDeque<usize> = (0..waits.len()).filter(|&i| pending[i] == 0).collect();
    let mut order = Vec::with_capacity(waits.len());
    while let Some(i) = ready.pop_front() {
        order.push(i);
        for &k in &waiters[i] {
            pending[k] -= 1;
            if pending[k] == 0 {
                ready.push_back(k);
            }
        }
    }
    if order.len() == waits.len() {
        return Ok(order);
    }
    // Every op left waits for one left: follow them until one repeats.
    let mut at = (0..waits.len()).find(|&i| pending[i] > 0).unwrap_or(0);
    let mut seen: HashMap<usize, usize> = HashMap::new();
    let mut path = Vec::new();
    while !seen.contains_key(&at) {
        seen.insert(at, path.len());
        path.push(at);
        at = waits[at].iter().copied().find(|&j| pending[j] > 0).unwrap_or(at);
    }
    // Each op waits for the next; the first is the one earliest in the file.
    let mut cycle = path.split_off(seen[&at]);
    let first = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
    cycle.rotate_left(first);
    Err(cycle)
}

/// Runs the ops in `order`: times, vector clocks for the happens-before order, and the slots.
fn simulate(
    ops: &[Op],
    waits: &[Vec<usize>],
    order: &[usize],
    nblocks: usize,
    semantics: &Semantics,
    algo: &Algo,
    file: &str,
) -> Result<Run, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let n = semantics.ranks;
    // Each op's finishing step, and the step its send leaves in.
    let mut finish = vec![0u64; ops.len()];
    let mut clock: Vec<Vec<u32>> = vec![Vec::new(); ops.len()];
    let before = |clock: &[Vec<u32>], w: usize, x: usize| clock[x][ops[w].block] > ops[w].position as u32;
    let declared: HashMap<Node, [usize; 3]> = algo.gpus.iter().map(|g| (g.id, g.chunks)).collect();
    let mut slots: HashMap<(Node, Buffer, usize), Slot> = HashMap::new();
    let mut payloads: HashMap<usize, Vec<Value>> = HashMap::new();
    let mut transfers = Vec::new();
    let mut violations = Vec::new();
    for &x in order {
        let op = &ops[x];
        let mut vc = vec![0u32; nblocks];
        for &w in &waits[x] {
            vc.iter_mut().zip(&clock[w]).for_each(|(a, &b)| *a = (*a).max(b));
        }
        vc[op.block] = op.position as u32 + 1;
        clock[x] = vc;
        let local = waits[x].iter().filter(|&&w| Some(w) != op.feed).map(|&w| finish[w]).max().unwrap_or(0);
        let landed = op.feed.map_or(local, |s| local.max(finish[s]));
        let step = op.step;
        let cnt = step.cnt;
        // Resolves a named range to canonical slots, checking the bounds.
        let range = |(buffer, offset): (Buffer, usize),
                     key: &str|
         -> Result<Vec<(Node, Buffer, usize)>, InputError> {
            let sizes = declared.get(&op.rank).copied().unwrap_or_default();
            let index = buffer as usize;
            let limit = if sizes[index] > 0 { sizes[index] } else { semantics.needed(buffer) };
            if offset + cnt > limit {
                return Err(err(
                    &format!("{}.{key}", step.place),
                    format!(
                        "chunks {offset}..{} are outside buffer `{}` of rank {}, which has {limit} chunk{}",
                        offset + cnt,
                        buffer.letter(),
                        op.rank,
                        if limit == 1 { "" } else { "s" }
                    ),
                ));
            }
            Ok((offset..offset + cnt)
                .map(|o| {
                    let (b, o) = semantics.canonical(op.rank, buffer, o);
                    (op.rank, b, o)
                })
                .collect())
        };
        let read = |slots: &mut HashMap<(Node, Buffer, usize), Slot>,
                    at: &[(Node, Buffer, usize)],
                    key: &str|
         -> Result<Vec<Value>, InputError> {
            at.iter()
                .map(|&slot| {
                    let s = slots.entry(slot).or_insert_with(|| Slot {
                        value: semantics.initial(slot.0, slot.1, slot.2),
                        ..Slot::default()
                    });
                    let name = format!("{}[{}] of rank {}", slot.1.letter(), slot.2, slot.0);
                    let unordered = !s.writers.is_empty() && s.writers.iter().all(|&w| !before(&clock, w, x));
                    match &s.value {
                        None => Err(err(
                            &format!("{}.{key}", step.place),
                            format!("reads {name} before anything arrives there"),
                        )),
                        Some(_) if unordered => Err(err(
                            &format!("{}.{key}", step.place),
                            format!(
                                "reads {name}, written by {}, without waiting for it (no dependency orders the two)",
                                ops[s.writers[0]].step.place
                            ),
                        )),
                        Some(v) => {
                            s.readers.push(x);
                            Ok(v.clone())
                        }
                    }
                })
                .collect()
        };
        let write = |slots: &mut HashMap<(Node, Buffer, usize), Slot>,
                     at: &[(Node, Buffer, usize)],
                     values: Vec<Value>|
         -> Result<(), InputError> {
            for (&slot, value) in at.iter().zip(values) {
                let s = slots.entry(slot).or_insert_with(|| Slot {
                    value: semantics.initial(slot.0, slot.1, slot.2),
                    ..Slot::default()
                });
                let name = format!("{}[{}] of rank {}", slot.1.letter(), slot.2, slot.0);
                // Writing the value a slot holds changes nothing, whatever the order.
                if s.value.as_ref() == Some(&value) {
                    s.writers.push(x);
                    continue;
                }
                let unordered = s
                    .writers
                    .iter()
                    .chain(s.readers.iter())
                    .copied()
                    .find(|&o| o != x && !before(&clock, o, x));
                if let Some(o) = unordered {
                    return Err(err(
                        &format!("{}.dstoff", step.place),
                        format!(
                            "overwrites {name}, which {} also touches without an order between the two (a race)",
                            ops[o].step.place
                        ),
                    ));
                }
                *s = Slot { value: Some(value), writers: vec![x], readers: Vec::new() };
            }
            Ok(())
        };
        // Combines a received or local operand into another, naming mixed chunks and ranks
        // counted twice.
        let mut combine = |into: Vec<Value>, with: Vec<Value>, at: u64| -> Vec<Value> {
            into.into_iter()
                .zip(with)
                .map(|(a, b)| {
                    if a.chunk != b.chunk {
                        violations.push(Violation {
                            rule: Rule::MixedChunks,
                            step: Some(at as i64),
                            place: step.place.clone(),
                            detail: format!(
                                "reduces chunk {} with chunk {}: a reduction combines one chunk",
                                a.chunk, b.chunk
                            ),
                        });
                    }
                    let twice = a.ranks.common(&b.ranks);
                    if !twice.is_empty() {
                        violations.push(Violation {
                            rule: Rule::CountedTwice,
                            step: Some(at as i64),
                            place: step.place.clone(),
                            detail: format!(
                                "reduces chunk {} and counts the contribution of rank{} {} twice",
                                a.chunk,
                                if twice.len() == 1 { "" } else { "s" },
                                twice.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                            ),
                        });
                    }
                    Value { chunk: a.chunk, ranks: a.ranks.union(&b.ranks) }
                })
                .collect()
        };
        let received = || op.feed.and_then(|s| payloads.get(&s)).cloned().unwrap_or_default();
        let sent: Option<Vec<Value>> = match step.kind {
            StepKind::Nop => None,
            StepKind::Send => Some(read(&mut slots, &range(step.src, "srcoff")?, "srcoff")?),
            StepKind::Recv => {
                write(&mut slots, &range(step.dst, "dstoff")?, received())?;
                None
            }
            StepKind::RecvCopySend => {
                let values = received();
                write(&mut slots, &range(step.dst, "dstoff")?, values.clone())?;
                Some(values)
            }
            StepKind::Copy => {
                let values = read(&mut slots, &range(step.src, "srcoff")?, "srcoff")?;
                write(&mut slots, &range(step.dst, "dstoff")?, values)?;
                None
            }
            StepKind::Reduce => {
                let dst = range(step.dst, "dstoff")?;
                let own = read(&mut slots, &dst, "dstoff")?;
                let other = read(&mut slots, &range(step.src, "srcoff")?, "srcoff")?;
                write(&mut slots, &dst, combine(own, other, landed))?;
                None
            }
            StepKind::RecvReduceCopy | StepKind::RecvReduceSend | StepKind::RecvReduceCopySend => {
                let own = read(&mut slots, &range(step.src, "srcoff")?, "srcoff")?;
                let values = combine(received(), own, landed);
                if step.kind != StepKind::RecvReduceSend {
                    write(&mut slots, &range(step.dst, "dstoff")?, values.clone())?;
                }
                (step.kind != StepKind::RecvReduceCopy).then_some(values)
            }
        };
        finish[x] = landed;
        if let Some(values) = sent {
            // A send leaves one step after what it waits for has finished, and with
            // `timing="step-index"` not before step `s + 1`.
            let release = if algo.timed_by_index { step.index as u64 + 1 } else { 0 };
            finish[x] = (landed + 1).max(release);
            let to = op.to.unwrap_or(op.rank);
            transfers.push(Transfer { step: finish[x], from: op.rank, to, chunks: values.clone() });
            payloads.insert(x, values);
        }
    }
    for rank in 0..n {
        for (offset, chunk) in semantics.expected(rank) {
            let (b, o) = semantics.canonical(rank, Buffer::Output, offset);
            let (held, writer) = match slots.get(&(rank, b, o)) {
                Some(slot) => (slot.value.clone(), slot.writers.last().copied()),
                None => (semantics.initial(rank, b, o), None),
            };
            let want = semantics.contributors(chunk);
            let detail = match held {
                None => format!("ends with nothing in o[{offset}], which must hold chunk {chunk}"),
                Some(v) if v.chunk != chunk => {
                    format!("ends with chunk {} in o[{offset}], which must hold chunk {chunk}", v.chunk)
                }
                Some(v) if v.ranks != want => {
                    let missing: Vec<String> = want.without(&v.ranks).iter().map(|r| r.to_string()).collect();
                    format!(
                        "ends chunk {chunk} in o[{offset}] without the contribution of rank{} {}",
                        if missing.len() == 1 { "" } else { "s" },
                        missing.join(", ")
                    )
                }
                Some(_) => continue,
            };
            // The step that left the slot so, where one did.
            let place = writer.map_or(format!("gpu[{rank}]"), |w| ops[w].step.place.clone());
            let detail = if writer.is_some() { format!("(rank {rank}) {detail}") } else { detail };
            violations.push(Violation { rule: Rule::Incomplete, step: None, place, detail });
        }
    }
    transfers.sort_by_key(|t| (t.step, t.from, t.to));
    let length = transfers.last().map_or(0, |t| t.step);
    Ok(Run { transfers, length, violations })
}
