//! # Recursive cut decomposition on the ULA (paper 000 §6.1, §6.2)
//!
//! On an n-node ULA cut the arc η_{⌊n/2⌋−1}: the parts are ULAs of ⌊n/2⌋ and ⌈n/2⌉ nodes, and
//! the recursion has ⌈log n⌉ levels. The messages crossing a cut arc all share it, so they are
//! stacked one after another in virtual time (in id order), taking C(cut arc) ≤ C(M) steps.
//! The sub-ULAs of one level are disjoint and run at once; the levels follow each other. Hence
//! S(σ) ≤ ⌈log n⌉·C(M), and VO (Theorem 3.2) gives T ≤ ⌈log n⌉·C(M) + Q(M) − 1 (CHAT-29).

use super::{LINEAR_ARRAYS, ceil_log2, chatting_on, claimed, is_virtual, parameters, produce};
use crate::claims::Relation;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Message, Network, Schedule};
use std::collections::BTreeMap;

/// The recursion level (0 = the whole ULA) and the sub-ULA's first node at which a message from
/// `u` to `v` (u < v) crosses the cut arc, on an `n`-node ULA.
pub fn cut_level(n: usize, u: usize, v: usize) -> (usize, usize) {
    let (mut lo, mut hi, mut depth) = (0, n - 1, 0);
    loop {
        let size = hi - lo + 1;
        // The left part has ⌊size/2⌋ nodes; the cut arc is η_{mid−1}.
        let mid = lo + size / 2;
        if v < mid {
            hi = mid - 1;
        } else if u >= mid {
            lo = mid;
        } else {
            return (depth, lo);
        }
        depth += 1;
    }
}

/// Virtual starts (from 1, in message order) of the recursive cut decomposition of a ULA.
pub fn recursive_cut_sigma(network: &Network, messages: &[Message]) -> Result<Vec<i64>> {
    let n = network.len();
    let mut stacks: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (x, m) in messages.iter().enumerate() {
        stacks.entry(cut_level(n, m.src, m.dst)).or_default().push(x);
    }
    let levels = stacks.keys().map(|&(depth, _)| depth + 1).max().unwrap_or(0);
    let mut level_len = vec![0i64; levels];
    for (&(depth, _), stack) in &stacks {
        level_len[depth] = level_len[depth].max(stack.iter().map(|&x| messages[x].len as i64).sum());
    }
    let mut offset = vec![0i64; levels];
    for d in 1..levels {
        offset[d] = offset[d - 1] + level_len[d - 1];
    }
    let mut start = vec![0i64; messages.len()];
    for (&(depth, _), stack) in &stacks {
        let mut t = offset[depth] + 1;
        for &x in stack {
            start[x] = t;
            t += messages[x].len as i64;
        }
    }
    Ok(start)
}

/// `recursive-cut` on the instance (a ULA, or a bidirectional array as two ULAs).
pub fn recursive_cut(inst: &Instance) -> Result<Schedule> {
    produce(inst, &METHOD, recursive_cut_sigma)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "recursive-cut",
    source: "000 §6.1, §6.2; CHAT-29",
    summary: "ULA (a bidirectional array as two ULAs), any lengths: cut the middle arc, stack the \
              messages crossing it, recurse on both halves in parallel; S ≤ ⌈log n⌉C, T ≤ ⌈log n⌉C + Q − 1",
    applicability: chatting_on(LINEAR_ARRAYS, false),
    claim: |inst| {
        let (c, _, q) = parameters(inst)?;
        let log_n = ceil_log2(inst.network.len() as u64);
        if is_virtual(inst) {
            claimed("CHAT-29", "recursive cut (§6.2)", "S ≤ ⌈log n⌉C", Relation::AtMost, log_n * c)
        } else {
            claimed(
                "CHAT-29",
                "VO of the recursive cut (§6.2)",
                "T < ⌈log n⌉C + Q",
                Relation::AtMost,
                log_n * c + q - 1,
            )
        }
    },
    run: recursive_cut,
};
