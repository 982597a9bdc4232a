//! Switch removal by edge splitting-off (docs/spec.md §3.2; Lovász; Bang-Jensen, Frank and
//! Jackson, "Preserving and increasing local edge-connectivity in mixed graphs", 1995; ForestColl,
//! arXiv 2402.06787, §5): at a switch w, a pair of arcs u → w → t gives up M units to a new arc
//! u → t, as much as keeps every compute node's rooted connectivity from the source at N·k. A
//! split can only lower the cuts that hold u and t but not w (they lose u → w) or hold w but not
//! u and t (they lose w → t), so M is the least slack of those cuts over every compute node v
//! outside them: two max-flows per v.
//!
//! Every arc carries a *tape*: its capacity as consecutive segments, each a physical path of the
//! fabric. A split cuts M units off the front of the tapes of u → w and w → t and appends their
//! segment-wise concatenation to u → t, so every unit of the compute-only graph left at the end
//! knows the switches it crosses.

use super::flow::{FlowNetwork, INFINITE};
use super::{Graph, Halt, out_of_time};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::time::Instant;

/// A stretch of an arc's capacity realised by one physical path.
#[derive(Debug, Clone)]
pub struct Segment {
    /// Units of capacity.
    pub len: u64,
    /// The fabric nodes it crosses, first to last.
    pub path: Rc<[usize]>,
}

/// A tape read by position: the start of every segment and its path.
pub type Starts = Vec<(u64, Rc<[usize]>)>;

/// The compute-only graph: the capacity and the tape of every arc.
#[derive(Debug, Default)]
pub struct Split {
    /// Arc → capacity, compute nodes only.
    pub capacity: HashMap<(usize, usize), u64>,
    /// Arc → its tape's segments by start position.
    pub starts: HashMap<(usize, usize), Starts>,
}

/// Splits off every switch of `g`, whose arcs have capacities `g.arcs` (already scaled by U),
/// keeping rooted connectivity N·k (`k` units from the source to each compute node).
pub fn split_switches(g: &Graph, k: u64, deadline: Option<Instant>) -> Result<Split, Halt> {
    let mut arcs: HashMap<(usize, usize), (u64, VecDeque<Segment>)> = g
        .arcs
        .iter()
        .map(|&(u, v, c)| ((u, v), (c, VecDeque::from([Segment { len: c, path: Rc::from([u, v]) }]))))
        .collect();
    let compute: Vec<usize> = (0..g.n).filter(|&v| g.compute[v]).collect();
    let need = k * compute.len() as u64;
    for w in (0..g.n).filter(|&w| !g.compute[w]) {
        let preds: Vec<usize> = sorted(arcs.keys().filter(|a| a.1 == w).map(|a| a.0));
        let succs: Vec<usize> = sorted(arcs.keys().filter(|a| a.0 == w).map(|a| a.1));
        for &u in &preds {
            for &t in &succs {
                let (cu, ct) = (cap(&arcs, u, w), cap(&arcs, w, t));
                if cu == 0 {
                    break;
                }
                if ct == 0 {
                    continue;
                }
                let mut m = cu.min(ct);
                let base = network(g.n, &arcs, &compute, k);
                for &v in &compute {
                    if out_of_time(deadline) {
                        return Err(Halt::Deadline(None));
                    }
                    // Cuts holding the source, u and t but not w and v.
                    if v != u && v != t {
                        let mut net = base.clone();
                        net.add_arc(u, g.n, INFINITE);
                        if u != t {
                            net.add_arc(u, t, INFINITE);
                        }
                        net.add_arc(v, w, INFINITE);
                        m = m.min(net.max_flow(u, w, need + m).saturating_sub(need));
                    }
                    // Cuts holding the source and w but not u, t and v.
                    if m > 0 {
                        let mut net = base.clone();
                        net.add_arc(w, g.n, INFINITE);
                        for x in [u, v] {
                            if x != t {
                                net.add_arc(x, t, INFINITE);
                            }
                        }
                        m = m.min(net.max_flow(w, t, need + m).saturating_sub(need));
                    }
                    if m == 0 {
                        break;
                    }
                }
                if m > 0 {
                    let first = take(&mut arcs, (u, w), m);
                    let second = take(&mut arcs, (w, t), m);
                    if u != t {
                        let entry = arcs.entry((u, t)).or_insert_with(|| (0, VecDeque::new()));
                        entry.0 += m;
                        entry.1.extend(concatenate(first, second));
                    }
                }
            }
        }
        arcs.retain(|a, _| a.0 != w && a.1 != w);
    }
    arcs.retain(|_, (c, _)| *c > 0);
    let mut split = Split::default();
    for (arc, (c, tape)) in arcs {
        let mut at = 0;
        let starts = tape
            .into_iter()
            .map(|s| {
                at += s.len;
                (at - s.len, s.path)
            })
            .collect();
        split.capacity.insert(arc, c);
        split.starts.insert(arc, starts);
    }
    Ok(split)
}

fn sorted(it: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = it.collect();
    v.sort_unstable();
    v
}

fn cap(arcs: &HashMap<(usize, usize), (u64, VecDeque<Segment>)>, u: usize, v: usize) -> u64 {
    arcs.get(&(u, v)).map_or(0, |a| a.0)
}

/// The flow network of the current arcs plus the source (node `n`) with `k` to every compute node.
fn network(
    n: usize,
    arcs: &HashMap<(usize, usize), (u64, VecDeque<Segment>)>,
    compute: &[usize],
    k: u64,
) -> FlowNetwork {
    let mut net = FlowNetwork::new(n + 1);
    for &v in compute {
        net.add_arc(n, v, k);
    }
    for (&(u, v), &(c, _)) in arcs {
        if c > 0 {
            net.add_arc(u, v, c);
        }
    }
    net
}

/// Cuts `m` units off the front of an arc's tape.
fn take(
    arcs: &mut HashMap<(usize, usize), (u64, VecDeque<Segment>)>,
    arc: (usize, usize),
    m: u64,
) -> Vec<Segment> {
    let (c, tape) = arcs.get_mut(&arc).expect("a split takes from an arc it saw");
    *c -= m;
    let mut taken = Vec::new();
    let mut left = m;
    while left > 0 {
        let front = tape.front_mut().expect("a tape is as long as its capacity");
        if front.len <= left {
            left -= front.len;
            taken.push(tape.pop_front().expect("just seen"));
        } else {
            front.len -= left;
            taken.push(Segment { len: left, path: front.path.clone() });
            left = 0;
        }
    }
    taken
}

/// Two tapes of one length joined segment by segment: u → … → w then w → … → t, any cycle the
/// join closes cut out.
fn concatenate(first: Vec<Segment>, second: Vec<Segment>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let (mut a, mut b) = (first.into_iter(), second.into_iter());
    let (mut x, mut y) = (a.next(), b.next());
    while let (Some(s), Some(t)) = (x.as_mut(), y.as_mut()) {
        let len = s.len.min(t.len);
        let path = join(&s.path, &t.path);
        match out.last_mut() {
            Some(last) if last.path == path => last.len += len,
            _ => out.push(Segment { len, path }),
        }
        s.len -= len;
        t.len -= len;
        if s.len == 0 {
            x = a.next();
        }
        if t.len == 0 {
            y = b.next();
        }
    }
    out
}

/// `p` then `q` (which starts where `p` ends), without a repeated node.
fn join(p: &[usize], q: &[usize]) -> Rc<[usize]> {
    let mut path: Vec<usize> = Vec::with_capacity(p.len() + q.len());
    for &v in p.iter().chain(&q[1..]) {
        if let Some(i) = path.iter().position(|&x| x == v) {
            path.truncate(i);
        }
        path.push(v);
    }
    Rc::from(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_paths_lose_their_cycles() {
        assert_eq!(&*join(&[0, 5, 6], &[6, 5, 2]), &[0, 5, 2]);
        assert_eq!(&*join(&[0, 5], &[5, 7, 2]), &[0, 5, 7, 2]);
        let seg = |len, path: &[usize]| Segment { len, path: Rc::from(path) };
        let joined =
            concatenate(vec![seg(2, &[0, 9]), seg(3, &[1, 9])], vec![seg(4, &[9, 3]), seg(1, &[9, 4])]);
        let lens: Vec<(u64, Vec<usize>)> = joined.iter().map(|s| (s.len, s.path.to_vec())).collect();
        assert_eq!(lens, vec![(2, vec![0, 9, 3]), (2, vec![1, 9, 3]), (1, vec![1, 9, 4])]);
    }
}
