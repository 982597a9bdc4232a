//! # Urgent matching (ours, not paper 003's)
//!
//! [`urgent_first`](mod@super::urgent_first) with every step made a *maximum* matching. Under
//! F\* and H\* with p = 1 a step is a matching between the channels (an arc under F\*, a link
//! under H\*) and the (receiver, token) pairs: a channel carries one token, from an end that
//! holds it to an end that lacks it, and no receiver gets the same token twice. The greedy pass
//! of urgent-first gives a *maximal* matching, most urgent pairs first; here augmenting paths
//! then fill the channels it left idle (Berge: a matching is maximum exactly when no augmenting
//! path is left). A path runs from an idle channel to a pair it could carry that another channel
//! already carries, from that channel to another pair it could carry, and so on to a pair no
//! channel carries; shifting every channel on it to its new pair carries one more token. The
//! pairs the greedy pass chose stay carried, some by another channel.
//!
//! Why it matters: at the total-load bound (Lemma 1 on the n×n mesh, GOS-1) every channel must
//! carry a new token in every step. On the 10×10 mesh urgent-first's steps are all full only up
//! to step 16 (40 with augmenting paths), and one idle channel early costs a round at the end.
//! The greedy pass runs under four weightings of the urgency (`PORTFOLIO`), and the shortest
//! schedule is kept. Checked on every r×c mesh 2 ≤ r < c ≤ 12 under H\*, it meets the strongest
//! lower bound on thirteen rectangles that nothing had settled: 5×11 (32), 5×12 (35), 6×9
//! (31), 6×12 (41), 7×8 (32), 7×9 (36), 7×12 (47), 8×11 (49), 9×10 (50), 9×11 (55), 9×12 (60),
//! 10×12 (66) and 11×12 (72), the total-load bound, so each is a certified optimum (docs/results.md,
//! "Gossip"). It is not better everywhere: 2×10 takes 17 against urgent-first's 16. On the
//! squares it is never above urgent-first, and takes the 4×4 mesh to Lemma 1 (the lengths are
//! in the snapshot of the test `urgent_matching_on_the_meshes`).
//!
//! Each search is breadth-first over the channels, and the channels a failed search reached
//! are skipped until the matching next changes (no augmenting path can pass through them):
//! O(arcs² · n) per step at worst. Registered as `urgent-matching`.

use super::urgent_first::{Pass, TUNED, Weights, shortest_list_schedule, strongly_connected};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Applicability, Instance, Model, Network, Node, Schedule, Transmission};
use std::collections::{HashMap, VecDeque};

/// Gossip in copy mode under the all-port rules with one token per packet, where a step is a
/// matching of channels and (receiver, token) pairs.
const ALL_PORT: Applicability =
    super::matching_steps_only(matching_steps, "its steps are matchings of the channels of F* and H*");

/// A step is a matching only with one token per packet; and the network must be strongly
/// connected, as for urgent-first.
pub(super) fn matching_steps(inst: &Instance) -> std::result::Result<(), String> {
    match inst.model {
        Model::StoreForward { packet, .. } if packet > 1 => Err(format!(
            "with p = {packet} tokens per packet a step is no matching of channels and tokens; urgent-first takes any p"
        )),
        _ => strongly_connected(inst),
    }
}

/// The weights tried: urgent-first's, then the relay term at full weight with the backlog
/// term at full weight and at 0.7 (chosen from a grid of 0.3, 0.5, 0.7 and 1 for each, on the
/// open rectangles), and both terms heavier, (1.5, 2) (from a grid of 0.2 to 2 on the three
/// rectangles still open then). Each does what the others do not: (1, 1) takes the 4×4 mesh
/// to Lemma 1 (10) and 6×12 to its bound (41), (1, 0.7) 5×11 (32) and the 19×19 mesh to 191,
/// (1.5, 2) 7×12 (47), and urgent-first's own weights keep the 25×25 and 27×27 meshes a round
/// shorter (327, 380).
const PORTFOLIO: [Weights; 4] = [
    TUNED,
    Weights { relay: 1.0, backlog: 1.0 },
    Weights { relay: 1.0, backlog: 0.7 },
    Weights { relay: 1.5, backlog: 2.0 },
];

/// The urgent-matching schedule of the module documentation: the shortest under the weights
/// of `PORTFOLIO` (the first on a tie).
pub fn urgent_matching(inst: &Instance) -> Result<Schedule> {
    shortest_list_schedule(inst, METHOD.name, &PORTFOLIO, Pass::Greedy(Some(augment)))
}

/// Fills the channels the greedy pass left idle by augmenting paths (module documentation):
/// `step` is rewritten into a maximum matching that carries every pair it carried.
fn augment(
    net: &Network,
    channel: &[usize],
    holds: &dyn Fn(Node, usize) -> bool,
    step: &mut Vec<Transmission>,
) {
    let arcs = net.arcs();
    let mut arcs_of: Vec<Vec<usize>> = vec![Vec::new(); arcs.len()];
    for (a, &c) in channel.iter().enumerate() {
        arcs_of[c].push(a);
    }
    // The matching: per channel the (arc, token) it carries, per (receiver, token) its channel.
    let mut carries: Vec<Option<(usize, usize)>> = vec![None; arcs.len()];
    let mut owner: HashMap<(Node, usize), usize> = HashMap::new();
    for tr in step.iter() {
        let a = net.arc(tr.from, tr.to).expect("a transmission of the step is on an arc");
        carries[channel[a]] = Some((a, tr.tokens[0]));
        owner.insert((tr.to, tr.tokens[0]), channel[a]);
    }
    // Channels from which no augmenting path leads, since the matching last changed; channels
    // the current search reached.
    let mut dead = vec![false; arcs.len()];
    let mut in_search = vec![false; arcs.len()];
    for idle in 0..arcs.len() {
        if arcs_of[idle].is_empty() || carries[idle].is_some() || dead[idle] {
            continue;
        }
        // `via[pair]`: the channel, and its arc, that would take the pair over.
        let mut via: HashMap<(Node, usize), (usize, usize)> = HashMap::new();
        let mut reached = vec![idle];
        in_search[idle] = true;
        let mut queue = VecDeque::from([idle]);
        let mut free = None;
        'search: while let Some(c) = queue.pop_front() {
            for &a in &arcs_of[c] {
                let (u, v) = arcs[a];
                for t in (0..net.len()).filter(|&t| holds(u, t) && !holds(v, t)) {
                    if via.contains_key(&(v, t)) {
                        continue;
                    }
                    via.insert((v, t), (c, a));
                    match owner.get(&(v, t)) {
                        None => {
                            free = Some((v, t));
                            break 'search;
                        }
                        Some(&d) if !dead[d] && !in_search[d] => {
                            in_search[d] = true;
                            reached.push(d);
                            queue.push_back(d);
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        for &c in &reached {
            in_search[c] = false;
        }
        let Some(mut pair) = free else {
            for c in reached {
                dead[c] = true;
            }
            continue;
        };
        // Every channel on the path takes the pair found through it and frees the one it
        // carried, which the channel before it on the path takes; the idle channel frees none.
        while let Some((b, t)) = {
            let (c, a) = via[&pair];
            owner.insert(pair, c);
            carries[c].replace((a, pair.1))
        } {
            pair = (arcs[b].1, t);
        }
        dead.fill(false);
    }
    *step = (carries.iter().flatten())
        .map(|&(a, t)| Transmission { from: arcs[a].0, to: arcs[a].1, tokens: vec![t] })
        .collect();
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "urgent-matching",
    source: "ours (not paper 003's): urgent-first with every step a maximum matching of channels and \
             (receiver, token) pairs; at the total-load bound on thirteen open rectangles",
    summary: "urgent-first's greedy step, then augmenting paths fill the channels it left idle; F* and H*, \
              one token per packet",
    applicability: ALL_PORT,
    claim: |_| None,
    run: urgent_matching,
};
