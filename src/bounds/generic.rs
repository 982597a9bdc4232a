//! # Generic lower bounds (any network, any problem of the model)
//!
//! Two models, one mechanism. A *resource* — an arc, a node's sending or receiving port, the
//! arcs of a cut — serves at most `capacity` units of work per step; every *job* on it has a
//! release (its first unit cannot be served before that step) and a tail (after its last unit
//! the schedule still needs that many steps). For every subset J of jobs with smallest
//! release r, smallest tail q and total work W, the W units take ⌈W / capacity⌉ distinct steps
//! from step r on, so the last of them is served no earlier than r + ⌈W / capacity⌉ − 1 and the
//! schedule lasts at least
//!
//! ```text
//! r + ⌈W / capacity⌉ − 1 + q            (release/tail bound, [`release_tail`])
//! ```
//!
//! It suffices to take J = {jobs with release ≥ r, tail ≥ q} over all pairs (r, q) of values
//! that occur. With capacity 1 this is the preemptive one-machine relaxation (Carlier's bound
//! for 1 | r_j, q_j | C_max).
//!
//! ## Bufferless (SPEC §4.1; papers 000, 001)
//!
//! A message M with path e_0..e_{d−1}, length ℓ and start s ≥ s_min(M) puts its ℓ flits on
//! e_k in steps s+k .. s+k+ℓ−1 and ends in step s+ℓ+d−2: on e_k it is a job with release
//! s_min + k, work ℓ, tail d−1−k. Arcs have capacity 1 (arc rule); under `port = single` the
//! tail node of e_k sends and its head node receives the same job, one flit per step. With
//! s_min = 1 the arc bound contains CHAT-2 (all jobs of an arc: C(e); a single job: Q) and,
//! at the root's port, the exact scatter optimum of SG-4 ([`super::scatter_gather`]).
//!
//! ## Store-and-forward (SPEC §4.2; papers 003, 004)
//!
//! Tokens move one hop per step; a packet carries at most p tokens. Per step and per rule:
//! F* one packet per arc; H* one packet per link (an arc without its reverse counts alone);
//! F1 one send and one receive per node; H1 one transmission per node. So F* admits every
//! schedule the others admit, and a bound proved for a rule holds for the stricter ones.
//!
//! * **distance**: every demanded token travels its hop distance (copy mode: every token
//!   reaches every node, so the diameter).
//! * **total load**: Σ hop distances (move) or N(N−1) deliveries (copy) token-moves, at most
//!   p × (transmissions per step) of them per step: F* |arcs|, H* |links| + |one-way arcs|,
//!   F1 min(|arcs|, senders, receivers), H1 min(|links| + |one-way arcs|, ⌊N/2⌋). Under H*,
//!   p = 1, this is the edge-count bound of GOS-1/GOS-2.
//! * **port**: the tokens a node must send and receive — its own, those addressed to it and
//!   those it cannot be bypassed by (it separates source and destination; computed by a search
//!   in G − v, skipped beyond a fixed work budget) — in packets, divided by what the node can
//!   do per step: F* out-/in-degree, H* incident links (sends and receives together), F1 one
//!   send and one receive, H1 one transmission.
//! * **port with distances**: the same jobs with release = hop distance from the token's
//!   source and tail = hop distance still to go, through [`release_tail`].
//! * **cut**: for a node set S, the tokens that must leave S (move: demanded pairs from S to
//!   its complement; copy: every token born in S) and enter it, in packets, over what the cut
//!   carries per step under the rule ([`cut_capacity`]). Cuts: every interval of a path or ULA
//!   (prefixes: the bisection of TE-1), every cyclic interval of a ring (halves: TE-2), every
//!   band of rows and of columns of a mesh/torus/ESM (cyclic on a torus), every edge of a tree.

use super::Bound;
use super::cuts::crossing_steps;
pub use super::cuts::{CutCapacity, cut_capacity};
use crate::spec::{Instance, Message, Mode, Model, Network, Node, Port, PortRule};

/// One job on a resource: `work` units, the first no earlier than step `release`, and at
/// least `tail` more steps of schedule after its last unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Earliest step of its first unit (≥ 1).
    pub release: u64,
    /// Units of the resource it needs.
    pub work: u64,
    /// Steps the schedule still needs after its last unit.
    pub tail: u64,
}

/// max over (r, q) of r + ⌈W(r, q) / capacity⌉ − 1 + q, where W(r, q) is the work of the jobs
/// with release ≥ r and tail ≥ q (module documentation). 0 without jobs or work.
pub fn release_tail(jobs: &[Job], capacity: u64) -> u64 {
    let capacity = capacity.max(1);
    groups(jobs).map(|(r, q, w)| r + w.div_ceil(capacity) - 1 + q).max().unwrap_or(0)
}

/// The windows of steps [r, T − q] that the jobs with release ≥ r and tail ≥ q fill on a
/// resource of capacity 1 in any schedule of length ≤ `horizon` T: those whose release/tail
/// value r + W(r, q) − 1 + q reaches T, so W(r, q) ≥ T − q − r + 1 units need every step.
pub fn full_windows(jobs: &[Job], horizon: u64) -> Vec<(u64, u64)> {
    groups(jobs).filter(|&(r, q, w)| r + w - 1 + q >= horizon).map(|(r, q, _)| (r, horizon - q)).collect()
}

/// Every (r, q, W(r, q)) with W > 0 over the distinct releases r and tails q of the jobs.
fn groups(jobs: &[Job]) -> impl Iterator<Item = (u64, u64, u64)> {
    let mut releases: Vec<u64> = jobs.iter().filter(|j| j.work > 0).map(|j| j.release).collect();
    let mut tails: Vec<u64> = jobs.iter().filter(|j| j.work > 0).map(|j| j.tail).collect();
    releases.sort_unstable();
    releases.dedup();
    tails.sort_unstable();
    tails.dedup();
    let (nr, nq) = (releases.len(), tails.len());
    // work[ri][qi] becomes the work of jobs with release ≥ releases[ri] and tail ≥ tails[qi].
    let mut work = vec![vec![0u64; nq + 1]; nr + 1];
    for j in jobs.iter().filter(|j| j.work > 0) {
        let ri = releases.binary_search(&j.release).unwrap_or_default();
        let qi = tails.binary_search(&j.tail).unwrap_or_default();
        work[ri][qi] += j.work;
    }
    for ri in (0..nr).rev() {
        for qi in (0..nq).rev() {
            work[ri][qi] += work[ri + 1][qi] + work[ri][qi + 1] - work[ri + 1][qi + 1];
        }
    }
    let mut out = Vec::new();
    for (ri, &r) in releases.iter().enumerate() {
        for (qi, &q) in tails.iter().enumerate().filter(|&(qi, _)| work[ri][qi] > 0) {
            out.push((r, q, work[ri][qi]));
        }
    }
    out.into_iter()
}

// ---------------------------------------------------------------------------------------------
// Bufferless

/// The jobs of bufferless messages on each arc and, for the single-port rule, on each node's
/// sending and receiving side (module documentation).
pub(crate) struct BufferlessJobs {
    /// Per arc.
    pub arcs: Vec<Vec<Job>>,
    /// Per node, its sending side.
    pub sends: Vec<Vec<Job>>,
    /// Per node, its receiving side.
    pub receives: Vec<Vec<Job>>,
}

/// The jobs of `messages` whose starts are at least `earliest(M)`.
pub(crate) fn bufferless_jobs(
    network: &Network,
    messages: &[Message],
    earliest: &dyn Fn(&Message) -> u64,
) -> BufferlessJobs {
    let n = network.len();
    let mut jobs = BufferlessJobs {
        arcs: vec![Vec::new(); network.arcs().len()],
        sends: vec![Vec::new(); n],
        receives: vec![Vec::new(); n],
    };
    for m in messages {
        let d = m.arcs.len() as u64;
        let s = earliest(m).max(1);
        for (k, &a) in m.arcs.iter().enumerate() {
            let k = k as u64;
            let job = Job { release: s + k, work: m.len, tail: d - 1 - k };
            let (u, v) = network.arcs()[a];
            jobs.arcs[a].push(job);
            jobs.sends[u].push(job);
            jobs.receives[v].push(job);
        }
    }
    jobs
}

/// The release/tail bound of bufferless messages whose starts are at least `earliest(M)`:
/// the maximum over arcs and, under the single-port rule, over nodes' sending and receiving
/// sides.
pub fn bufferless_release_tail(
    network: &Network,
    messages: &[Message],
    single_port: bool,
    earliest: &dyn Fn(&Message) -> u64,
) -> u64 {
    let jobs = bufferless_jobs(network, messages, earliest);
    let arcs = jobs.arcs.iter().map(|j| release_tail(j, 1)).max().unwrap_or(0);
    let ports = if single_port {
        jobs.sends.iter().chain(&jobs.receives).map(|j| release_tail(j, 1)).max().unwrap_or(0)
    } else {
        0
    };
    arcs.max(ports)
}

/// Generic bounds of a (non-virtual) bufferless instance: arc release/tail congestion and,
/// under `port = single`, the per-node send/receive totals and their release/tail refinement.
pub fn bufferless(instance: &Instance, messages: &[Message]) -> Vec<Bound> {
    let Model::Bufferless { port, virtual_schedule: false, .. } = instance.model else { return Vec::new() };
    let net = &instance.network;
    let one = |_: &Message| 1u64;
    let jobs = bufferless_jobs(net, messages, &one);
    let mut out = vec![Bound::new(
        "arc release/tail",
        None,
        jobs.arcs.iter().map(|j| release_tail(j, 1)).max().unwrap_or(0),
        "per arc, flits of the messages crossing it, the k-th arc of a d-arc path released at \
         step 1+k with d−1−k steps to go; max over subsets of r + Σℓ − 1 + q (refines CHAT-2)",
    )];
    if port == Port::Single {
        let total =
            |side: &[Vec<Job>]| side.iter().map(|j| j.iter().map(|j| j.work).sum::<u64>()).max().unwrap_or(0);
        out.push(Bound::new(
            "port send total",
            None,
            total(&jobs.sends),
            "single-port: the flits a node sends (own and relayed), one per step",
        ));
        out.push(Bound::new(
            "port receive total",
            None,
            total(&jobs.receives),
            "single-port: the flits a node receives (for it and relayed), one per step",
        ));
        out.push(Bound::new(
            "port release/tail",
            None,
            jobs.sends.iter().chain(&jobs.receives).map(|j| release_tail(j, 1)).max().unwrap_or(0),
            "single-port: the arc release/tail bound on each node's sending and receiving side",
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Store-and-forward

/// Hop distances between all pairs (`usize::MAX` where unreachable).
fn all_distances(network: &Network) -> Vec<Vec<usize>> {
    (0..network.len()).map(|s| network.distances_from(s)).collect()
}

/// Work budget (arc visits) for the separator searches of the port bound.
const SEPARATOR_BUDGET: usize = 50_000_000;

/// `reach[s][d]`: whether d is reachable from s without passing through v.
fn reach_without(out: &[Vec<Node>], v: Node) -> Vec<Vec<bool>> {
    let n = out.len();
    (0..n)
        .map(|s| {
            let mut seen = vec![false; n];
            if s == v {
                return seen;
            }
            seen[s] = true;
            let mut stack = vec![s];
            while let Some(x) = stack.pop() {
                for &y in &out[x] {
                    if y != v && !seen[y] {
                        seen[y] = true;
                        stack.push(y);
                    }
                }
            }
            seen
        })
        .collect()
}

/// The nodes whose removal can separate a reachable pair: for a network where every arc has
/// its reverse, those whose removal disconnects it; otherwise every node.
fn separator_candidates(network: &Network, out: &[Vec<Node>]) -> Vec<Node> {
    let n = network.len();
    let symmetric = network.arcs().iter().all(|&(u, v)| network.arc(v, u).is_some());
    (0..n)
        .filter(|&v| {
            if !symmetric || n < 3 {
                return !symmetric;
            }
            let start = if v == 0 { 1 } else { 0 };
            let mut seen = vec![false; n];
            seen[start] = true;
            let mut stack = vec![start];
            let mut count = 1;
            while let Some(x) = stack.pop() {
                for &y in &out[x] {
                    if y != v && !seen[y] {
                        seen[y] = true;
                        count += 1;
                        stack.push(y);
                    }
                }
            }
            count < n - 1
        })
        .collect()
}

/// Store-and-forward bounds (module documentation): distance, total load, port, port with
/// distances and cut, for the tokens the instance demands.
pub fn store_forward(instance: &Instance) -> Vec<Bound> {
    let Model::StoreForward { rule, mode, packet } = instance.model else { return Vec::new() };
    let p = packet.max(1) as u64;
    let net = &instance.network;
    let n = net.len();
    let dist = all_distances(net);
    let reachable = |s: Node, d: Node| dist[s][d] != usize::MAX;
    // Demanded (source, destination) pairs: move mode, the packets; copy mode, every token
    // (named by its origin) at every other node.
    let pairs: Vec<(Node, Node)> = match mode {
        Mode::Move => instance.packets().iter().map(|t| (t.src, t.dst)).collect(),
        Mode::Copy => (0..n).flat_map(|u| (0..n).filter(move |&w| w != u).map(move |w| (u, w))).collect(),
    };
    let mut out = Vec::new();

    let distance = pairs.iter().filter(|&&(s, d)| reachable(s, d)).map(|&(s, d)| dist[s][d] as u64).max();
    out.push(Bound::new(
        "distance",
        None,
        distance.unwrap_or(0),
        match mode {
            Mode::Move => "largest hop distance of a demanded packet, one hop per step",
            Mode::Copy => "diameter: every token reaches every node, one hop per step",
        },
    ));

    let hops: u64 = pairs
        .iter()
        .filter(|&&(s, d)| reachable(s, d))
        .map(|&(s, d)| if mode == Mode::Move { dist[s][d] as u64 } else { 1 })
        .sum();
    let per_step = transmissions_per_step(net, rule) * p;
    if per_step > 0 {
        out.push(Bound::new(
            "total load",
            None,
            hops.div_ceil(per_step),
            format!(
                "{hops} token moves ({}) at most {per_step} per step under {rule}, p = {p}",
                if mode == Mode::Move { "Σ hop distances" } else { "N(N−1) deliveries" }
            ),
        ));
    }

    let (port, port_dist, transit) = port_bounds(net, &dist, &pairs, rule, mode, p);
    let transit_note = if transit {
        "own, addressed and unavoidable transit tokens"
    } else {
        "own and addressed tokens (transit search over budget)"
    };
    out.push(Bound::new(
        "port",
        None,
        port,
        format!("per node, {transit_note} in packets over its per-step capacity under {rule}"),
    ));
    out.push(Bound::new(
        "port with distances",
        None,
        port_dist,
        format!("per node and side, {transit_note} released at their hop distance, release/tail bound"),
    ));

    if let Some((value, family)) = super::cuts::cut_bound(instance, &pairs, rule, mode, p) {
        out.push(Bound::new(
            "cut",
            None,
            value,
            format!(
                "tokens forced across a cut over its per-step capacity under {rule}, p = {p}; cuts: {family}"
            ),
        ));
    }
    out
}

/// Transmissions the whole network can make in one step under `rule`.
fn transmissions_per_step(network: &Network, rule: PortRule) -> u64 {
    let n = network.len();
    let arcs = network.arcs().len() as u64;
    let links = network.arcs().iter().filter(|&&(u, v)| u < v && network.arc(v, u).is_some()).count() as u64;
    let channels = arcs - links;
    let mut senders = vec![false; n];
    let mut receivers = vec![false; n];
    for &(u, v) in network.arcs() {
        senders[u] = true;
        receivers[v] = true;
    }
    let count = |f: &[bool]| f.iter().filter(|&&x| x).count() as u64;
    match rule {
        PortRule::FStar => arcs,
        PortRule::HStar => channels,
        PortRule::F1 => arcs.min(count(&senders)).min(count(&receivers)),
        PortRule::H1 => channels.min(n as u64 / 2),
    }
}

/// Port and port-with-distances bounds, and whether transit tokens were included.
fn port_bounds(
    net: &Network,
    dist: &[Vec<usize>],
    pairs: &[(Node, Node)],
    rule: PortRule,
    mode: Mode,
    p: u64,
) -> (u64, u64, bool) {
    let n = net.len();
    let out_adj = net.out_neighbours();
    let candidates = separator_candidates(net, &out_adj);
    let transit = candidates.len().saturating_mul(n).saturating_mul(n + net.arcs().len()) <= SEPARATOR_BUDGET;
    let d = |a: Node, b: Node| dist[a][b] as u64;
    let (mut port, mut port_dist) = (0, 0);
    // Without a separator at v, node v's jobs come from the pairs it sends or receives: index
    // them, so a node costs its own pairs rather than all of them (n³ on a total exchange).
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, &(s, t)) in pairs.iter().enumerate() {
        at[s].push(i);
        if t != s {
            at[t].push(i);
        }
    }
    for v in 0..n {
        let separator = (transit && candidates.binary_search(&v).is_ok()).then(|| reach_without(&out_adj, v));
        // forced(s, t): t is reachable from s, but not without v.
        let forced = |s: Node, t: Node| {
            dist[s][t] != usize::MAX && separator.as_ref().is_some_and(|r| s != v && !r[s][t])
        };
        let mut sends = Vec::new();
        let mut receives = Vec::new();
        match mode {
            Mode::Move => {
                let own: Vec<(Node, Node)>;
                let relevant = if separator.is_some() {
                    pairs
                } else {
                    own = at[v].iter().map(|&i| pairs[i]).collect();
                    &own
                };
                for &(s, t) in relevant.iter().filter(|&&(s, t)| dist[s][t] != usize::MAX) {
                    if s == v {
                        sends.push(Job { release: 1, work: 1, tail: d(s, t) - 1 });
                    } else if t == v {
                        receives.push(Job { release: d(s, v), work: 1, tail: 0 });
                    } else if forced(s, t) {
                        receives.push(Job { release: d(s, v), work: 1, tail: d(v, t) });
                        sends.push(Job { release: d(s, v) + 1, work: 1, tail: d(v, t) - 1 });
                    }
                }
            }
            Mode::Copy => {
                for u in (0..n).filter(|&u| u != v && dist[u][v] != usize::MAX) {
                    receives.push(Job { release: d(u, v), work: 1, tail: 0 });
                }
                // The send of token u by v that starts the route to the farthest node w that
                // u can only reach through v (v's own token: the farthest node at all).
                for u in 0..n {
                    let far = (0..n)
                        .filter(|&w| {
                            w != v && w != u && (if u == v { dist[v][w] != usize::MAX } else { forced(u, w) })
                        })
                        .map(|w| d(v, w))
                        .max();
                    if let Some(far) = far {
                        let release = if u == v { 1 } else { d(u, v) + 1 };
                        sends.push(Job { release, work: 1, tail: far - 1 });
                    }
                }
            }
        }
        let mut only_v = vec![false; n];
        only_v[v] = true;
        let cap = cut_capacity(net, &only_v, rule);
        if let Some(steps) = crossing_steps(sends.len() as u64, receives.len() as u64, cap, p) {
            port = port.max(steps);
        }
        if cap.out > 0 {
            port_dist = port_dist.max(release_tail(&sends, cap.out * p));
        }
        if cap.inn > 0 {
            port_dist = port_dist.max(release_tail(&receives, cap.inn * p));
        }
    }
    (port, port_dist, transit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_tail_is_carliers_preemptive_bound() {
        // One job: r + w − 1 + q.
        assert_eq!(release_tail(&[Job { release: 3, work: 4, tail: 2 }], 1), 8);
        // Two jobs: the pair (1 + 5 − 1 + 0 = 5) against the late one alone (4 + 2 − 1 + 1 = 6).
        let jobs = [Job { release: 1, work: 3, tail: 0 }, Job { release: 4, work: 2, tail: 1 }];
        assert_eq!(release_tail(&jobs, 1), 6);
        // Capacity 2 halves the work, rounded up.
        let unit = [Job { release: 1, work: 1, tail: 0 }; 5];
        assert_eq!(release_tail(&unit, 2), 3);
        assert_eq!(release_tail(&[], 1), 0);
    }

    #[test]
    fn cut_capacity_per_rule() {
        let path = Network::parse("path:4").unwrap();
        let left = [true, true, false, false];
        assert_eq!(cut_capacity(&path, &left, PortRule::FStar), CutCapacity { out: 1, inn: 1, both: 2 });
        assert_eq!(cut_capacity(&path, &left, PortRule::HStar), CutCapacity { out: 1, inn: 1, both: 1 });
        assert_eq!(cut_capacity(&path, &left, PortRule::H1), CutCapacity { out: 1, inn: 1, both: 1 });
        // A star centre under F1 sends one packet per step, under F* one per arc.
        let star = Network::parse("tree:0,0,0").unwrap();
        let centre = [true, false, false, false];
        assert_eq!(cut_capacity(&star, &centre, PortRule::F1), CutCapacity { out: 1, inn: 1, both: 2 });
        assert_eq!(cut_capacity(&star, &centre, PortRule::FStar), CutCapacity { out: 3, inn: 3, both: 6 });
        assert_eq!(cut_capacity(&star, &centre, PortRule::HStar).both, 3);
    }

    #[test]
    fn separators_on_path_and_ring() {
        let path = Network::parse("path:4").unwrap();
        assert_eq!(separator_candidates(&path, &path.out_neighbours()), vec![1, 2]);
        let ring = Network::parse("ring:5").unwrap();
        assert!(separator_candidates(&ring, &ring.out_neighbours()).is_empty());
        let reach = reach_without(&path.out_neighbours(), 1);
        assert!(!reach[0][2] && reach[2][3]);
    }
}
