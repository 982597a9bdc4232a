//! # Gossip on a cycle: unidirectional FIFO ring gossip (paper 003 §4.1, Fig. 9b; §3.5, Fig. 8a)
//!
//! The torus Phase 2 (§4.1): "Every node maintains a single queue of tokens", initially its
//! Phase-1 tokens; "each node extracts and sends the tokens in its queue to the right-hand
//! neighbour one by one until the queue becomes empty"; a token carries a counter set to n − 1,
//! decremented on receipt, and is not propagated further at 0 (reference semantics D7 of the claim catalogue). With k
//! tokens per node every ring link is busy in all k(n − 1) rounds: "the best one can do"
//! (GOS-19, Fig. 9b). With the odd-torus loads (⌈n/2⌉ and ⌊n/2⌋ alternating) it takes
//! n²/2 − n/2 + 1 rounds (GOS-22, Fig. 11).
//!
//! With one token per node it gossips a cycle of n nodes in n − 1 rounds: every one of the n
//! links is busy in every round and n(n − 1) deliveries need n(n − 1) link-rounds under H\*, so
//! it is optimal; on the 2×2 mesh (a 4-cycle) it is the §3.5 schedule of Fig. 8a ("send their
//! tokens along the same agreed direction", GOS-16), see [`mesh_2x2`](mod@super::mesh_2x2).
//! Registered as `cycle-gossip` for `ring:N`.

use super::line::{Dir, Dot, DotWire, Line, assemble};
use super::phase2::{Release, own_tokens};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};
use std::collections::VecDeque;

/// Runs the unidirectional FIFO ring gossip on a closed line of `n` nodes: each node sends the
/// head of its queue to v_{i+1 mod n} on edge i (unless `priority` holds that edge), a token
/// joins the queues of the next n − 2 nodes it reaches; tokens join as `releases` say.
pub fn ring_gossip(n: usize, releases: &[Release], priority: &DotWire) -> DotWire {
    let mut diagram = DotWire::new(n);
    let mut queue: Vec<VecDeque<(usize, usize)>> = vec![VecDeque::new(); n];
    let mut pending = releases.to_vec();
    pending.sort_by_key(|r| r.round);
    let mut pending = pending.into_iter().peekable();
    let mut join = |queue: &mut Vec<VecDeque<(usize, usize)>>, t: usize| {
        while let Some(r) = pending.next_if(|r| r.round <= t) {
            if n > 1 {
                queue[r.pos].push_back((r.token, n - 1));
            }
        }
        pending.peek().is_some()
    };
    let mut more = join(&mut queue, 0);
    let mut t = 0;
    while more || queue.iter().any(|q| !q.is_empty()) {
        t += 1;
        let mut arrivals = Vec::new();
        for (i, q) in queue.iter_mut().enumerate() {
            if priority.is_busy(t, i) {
                continue;
            }
            if let Some((token, counter)) = q.pop_front() {
                diagram.put(t, i, Dot { token, dir: Dir::Right }).expect("one dot per edge and round");
                arrivals.push(((i + 1) % n, token, counter - 1));
            }
        }
        for (at, token, counter) in arrivals {
            if counter > 0 {
                queue[at].push_back((token, counter));
            }
        }
        more = join(&mut queue, t);
    }
    diagram
}

/// Gossip on the cycle `line` (at least 3 nodes), one token per node: n − 1 rounds.
pub fn cycle_gossip_on(line: &Line) -> Schedule {
    let diagram = ring_gossip(line.len(), &own_tokens(line.nodes()), &DotWire::new(line.edges()));
    assemble([(line, &diagram)])
}

/// Gossip on `ring:N` in N − 1 rounds.
pub fn cycle_gossip(inst: &Instance) -> Result<Schedule> {
    Ok(cycle_gossip_on(&Line::closed((0..inst.network.len()).collect())))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "cycle-gossip",
    source: "003 §4.1 (torus Phase 2, Fig. 9b) with one token per node; GOS-19, GOS-16",
    summary: "every node forwards the head of its FIFO queue to its clockwise neighbour, each token \
              travelling n − 1 hops; every link busy every round: n − 1 rounds, optimal under H*",
    applicability: super::RING,
    claim: |_| None,
    run: cycle_gossip,
};
