//! # Phase 2, the path gossip (paper 003 §3.2–§3.4, Fig. 3)
//!
//! The path algorithm of Lau and Zhang's reference \[18\], with several tokens per node: "two
//! gather suboperations, followed by a scatter suboperation" around the centre v_c
//! (c = ⌊n/2⌋ for odd n, n/2 for even n). Every node keeps two queues, R_i (to send right) and
//! L_i (to send left), initially both holding its Phase-1 tokens (v_0 has no L, v_{n−1} no R).
//! Per round, each edge ⟨v_i, v_{i+1}⟩ carries one token (Fig. 3):
//!
//! * left of the centre (i < c): head(R_i) rightward if R_i ≠ ∅, else head(L_{i+1}) leftward;
//! * from the centre on (i ≥ c), mirrored: head(L_{i+1}) leftward first, then head(R_i).
//!
//! A token reaching v_b rightward joins R_b (b < n − 1), leftward joins L_b (b > 0), usable from
//! the next round. Tokens thus travel towards the centre first, and every token reaches every
//! node exactly once (no duplicates). Reference semantics D2 of the claim catalogue. Claimed: S′_odd =
//! (n² + n − 2)/2 (GOS-7), S″_odd = (n² + n − 4)/2 (GOS-10), S_even = (n² + n − 2)/2 (GOS-11),
//! one token per node n + ⌊n/2⌋ − 1 (GOS-8, Fig. 5); ovals behave like dots (GOS-12).
//!
//! **Cutting into Phase 1** (§3.4, combined algorithm, D3). [`path_gossip`] takes the line's
//! Phase-1 diagram as priority traffic: "the Phase-2 algorithm would give priority to Phase-1
//! tokens", so an edge carrying a Phase-1 token in a round carries nothing else. A node's
//! Phase-2 tokens join its queues ("appended as at initialisation") at the end of the round in
//! which they reach it ([`Release`]); with every release at round 0 and no priority traffic it is
//! the plain Phase-2 algorithm.

use super::line::{Dir, Dot, DotWire};
use std::collections::VecDeque;

/// A Phase-2 token joining the queues of line position `pos` at the end of `round` (0: initially).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// Line position.
    pub pos: usize,
    /// The round at the end of which it joins (0 = before round 1).
    pub round: usize,
    /// The token.
    pub token: usize,
}

/// One token per node, held from the start: the gossip instance on a path (Fig. 5).
pub fn own_tokens(nodes: &[usize]) -> Vec<Release> {
    nodes.iter().enumerate().map(|(pos, &token)| Release { pos, round: 0, token }).collect()
}

/// The centre position c of an n-node line: ⌊n/2⌋ (odd n) or n/2 (even n), i.e. ⌊n/2⌋ (§2).
pub fn centre(n: usize) -> usize {
    n / 2
}

/// Runs the Phase-2 algorithm (Fig. 3) on an open line of `n` nodes, tokens joining as
/// `releases` say (in the given order within a round), edges taken by `priority` left alone.
/// Returns the Phase-2 diagram (without the priority traffic).
pub fn path_gossip(n: usize, releases: &[Release], priority: &DotWire) -> DotWire {
    let c = centre(n);
    let mut diagram = DotWire::new(n.saturating_sub(1));
    let mut right: Vec<VecDeque<usize>> = vec![VecDeque::new(); n];
    let mut left: Vec<VecDeque<usize>> = vec![VecDeque::new(); n];
    let mut pending = releases.to_vec();
    pending.sort_by_key(|r| r.round);
    let mut pending = pending.into_iter().peekable();
    let mut join = |right: &mut Vec<VecDeque<usize>>, left: &mut Vec<VecDeque<usize>>, t: usize| {
        while let Some(r) = pending.next_if(|r| r.round <= t) {
            // "Appended as at initialisation": both queues, except v_0's L and v_{n−1}'s R.
            if r.pos + 1 < n {
                right[r.pos].push_back(r.token);
            }
            if r.pos > 0 {
                left[r.pos].push_back(r.token);
            }
        }
        pending.peek().is_some()
    };
    let mut more = join(&mut right, &mut left, 0);
    let mut t = 0;
    while more || right.iter().chain(&left).any(|q| !q.is_empty()) {
        t += 1;
        let mut arrivals = Vec::new();
        for e in 0..n.saturating_sub(1) {
            if priority.is_busy(t, e) {
                continue;
            }
            let send = if e < c {
                right[e]
                    .pop_front()
                    .map(|k| (k, Dir::Right))
                    .or_else(|| left[e + 1].pop_front().map(|k| (k, Dir::Left)))
            } else {
                left[e + 1]
                    .pop_front()
                    .map(|k| (k, Dir::Left))
                    .or_else(|| right[e].pop_front().map(|k| (k, Dir::Right)))
            };
            if let Some((token, dir)) = send {
                diagram.put(t, e, Dot { token, dir }).expect("one Phase-2 dot per edge and round");
                arrivals.push((e, token, dir));
            }
        }
        for (e, token, dir) in arrivals {
            match dir {
                Dir::Right if e + 2 < n => right[e + 1].push_back(token),
                Dir::Left if e > 0 => left[e].push_back(token),
                _ => {}
            }
        }
        more = join(&mut right, &mut left, t);
    }
    diagram
}
