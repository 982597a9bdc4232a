//! # Per-direction queue simulation (paper 004 §3, §4)
//!
//! The one mechanism behind every total-exchange algorithm of seed
//! `004_d5b71cb5fff24442.txt` (Dimakopoulos & Dimopoulos, "Optimal Total Exchange in Linear
//! Arrays and Rings").
//!
//! * Traffic splits into two [`Lane`]s: rightward and leftward on the linear array, clockwise and
//!   counter-clockwise on the ring. They use opposite arcs, so they "do not interfere" (§3, §4)
//!   and run at the same time; [`run`] merges them step by step into one F\* schedule.
//! * Each node keeps one queue per lane, initially its own messages in an [`InitialOrder`]
//!   (head first). In every step every node with a non-empty queue sends one message, chosen by
//!   a [`Discipline`], to its successor on the lane. A message received at the end of step t
//!   is consumed if it has reached its destination, otherwise it joins the back of the
//!   receiver's queue and may leave from step t+1 (SPEC §1, `mode = move`).
//! * Disciplines are small strategy types: furthest-first and closest-first (with a [`Tie`]
//!   rule) and FIFO message-shift live in their algorithms' files.
//!
//! Claims: TE-5 … TE-21 (the claims catalogue). The simulation is a producer: its schedules are trusted
//! only after [`crate::checker::check`].

use crate::error::{Error, Result};
use crate::spec::{Family, Instance, Node, RingTie, Schedule, Transmission};
use std::collections::{BTreeMap, VecDeque};

/// The way a lane's messages travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Rightward on the linear array (paper labels increasing), clockwise on the ring: node x
    /// sends to x + 1 (mod n).
    Forward,
    /// Leftward / counter-clockwise: node x sends to x − 1 (mod n).
    Backward,
}

/// One direction of traffic on an n-node linear array (`path(n)`) or ring (`ring(n)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lane {
    /// Number of nodes.
    pub n: usize,
    /// Whether the nodes close into a ring (x ⊕ 1 wraps around).
    pub ring: bool,
    /// The direction every message of this lane travels in.
    pub direction: Direction,
}

impl Lane {
    /// The node `x` sends to on this lane; `None` at the end of a linear array.
    pub fn next(&self, x: Node) -> Option<Node> {
        match (self.direction, self.ring) {
            (Direction::Forward, true) => Some((x + 1) % self.n),
            (Direction::Backward, true) => Some((x + self.n - 1) % self.n),
            (Direction::Forward, false) => (x + 1 < self.n).then_some(x + 1),
            (Direction::Backward, false) => x.checked_sub(1),
        }
    }

    /// Hops from `from` to `to` along the lane (`to` must lie ahead of `from` on a linear array).
    pub fn distance(&self, from: Node, to: Node) -> usize {
        let (a, b) = match self.direction {
            Direction::Forward => (to, from),
            Direction::Backward => (from, to),
        };
        if self.ring { (a + self.n - b) % self.n } else { a - b }
    }
}

/// A unit message m_src(dst) (paper 004 §3 notation); its token is `src * n + dst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Msg {
    /// Source node (SPEC numbering).
    pub src: Node,
    /// Destination node.
    pub dst: Node,
}

impl Msg {
    /// The token id of SPEC / [`Instance::packets`]: `src * n + dst`.
    pub fn token(&self, n: usize) -> usize {
        self.src * n + self.dst
    }
}

/// A queueing discipline: which queued message a node sends next on a lane (004 §4.1's f).
///
/// A node sends a queued message of largest [`priority`](Discipline::priority); among several,
/// the [`tie`](Discipline::tie) rule decides, and without one the message that joined the queue
/// first leaves (FIFO). Stated this way every queue can be kept ordered by its discipline, so a
/// step costs O(log len) per node rather than a scan of the queue.
pub trait Discipline {
    /// The priority of message `m` in node `at`'s queue (fixed while `m` waits there).
    fn priority(&self, lane: &Lane, at: Node, m: &Msg) -> i64;

    /// The rule among messages of equal priority; `None` keeps queue order (head first).
    fn tie(&mut self) -> Option<&mut TieBreak>;
}

/// How each node orders its own messages in its queue before step 1 (head leaves first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InitialOrder {
    /// Furthest destination first: Q_i(0) = (m_i(i⊕n/2), …, m_i(i⊕1)) read from the head, as
    /// in 004 §4.2 (TE-19) and the reconstruction of Fig. 3(a) (TE-25).
    FurthestFirst,
    /// Closest destination first.
    ClosestFirst,
}

/// Tie-breaking rule among messages with the same priority (004 §3, TE-5).
///
/// Sources are compared *along the lane*: "smallest source" is the paper's rule, "the message
/// that has already travelled the furthest distance" (§3), which is the smallest label for
/// rightward traffic and its mirror image leftward. Measured this way `SmallestSource` and
/// `LargestSource` are rotation-consistent on a ring (Definition 1, TE-17); `Random` is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tie {
    /// The message that has travelled furthest (the paper's choice, Lemma 1).
    SmallestSource,
    /// The message that has travelled least.
    LargestSource,
    /// A tied message drawn from a seeded pseudo-random stream (SplitMix64).
    Random(u64),
}

/// A [`Tie`] rule with the state of its random stream.
#[derive(Debug, Clone)]
pub struct TieBreak {
    tie: Tie,
    state: u64,
}

impl TieBreak {
    /// A fresh tie-breaker; `Random(seed)` starts its stream at `seed`.
    pub fn new(tie: Tie) -> Self {
        let state = match tie {
            Tie::Random(seed) => seed,
            _ => 0,
        };
        Self { tie, state }
    }

    /// The rank of a message within its priority class in the queue at `at`, given how far it
    /// has `travelled` and its arrival number `seq` (larger leaves first). `SmallestSource` sends
    /// the message that has travelled furthest, `LargestSource` the one that has travelled least,
    /// the later / earlier arrival among equals; `Random` ranks by queue order (see [`Queue`]).
    fn rank(&self, travelled: usize, seq: u64) -> (i64, i64) {
        let (travelled, seq) = (travelled as i64, seq as i64);
        match self.tie {
            Tie::SmallestSource => (travelled, seq),
            Tie::LargestSource => (-travelled, -seq),
            Tie::Random(_) => (0, -seq),
        }
    }

    /// Whether the rule draws from its random stream (then [`TieBreak::rank`] is queue order).
    fn is_random(&self) -> bool {
        matches!(self.tie, Tie::Random(_))
    }

    /// SplitMix64 (Steele, Lea & Flood 2014): small, seedable, no dependency.
    fn next_random(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The total-exchange packets of `inst` split into its two lanes (forward first), each message
/// routed along the instance network's atlas path with antipodal ring ties broken by
/// `antipodal` (SPEC §2; 004 §4.2's alternating split is [`RingTie::Alternating`]).
///
/// Errors with [`Error::NotApplicable`] unless the network is a linear array or a ring.
pub fn lanes(inst: &Instance, antipodal: RingTie) -> Result<[(Lane, Vec<Msg>); 2]> {
    let (n, ring) = match *inst.network.family() {
        Family::Path(n) => (n, false),
        Family::Ring(n) => (n, true),
        _ => {
            return Err(Error::NotApplicable {
                method: "the 004 queue simulation".into(),
                reason: format!("it runs on a linear array or a ring, not on {}", inst.network.spec_string()),
            });
        }
    };
    let forward = Lane { n, ring, direction: Direction::Forward };
    let backward = Lane { n, ring, direction: Direction::Backward };
    let (mut fwd, mut bwd) = (Vec::new(), Vec::new());
    for p in inst.packets() {
        let path = inst.network.default_path(p.src, p.dst, antipodal).expect("paths and rings are connected");
        let msg = Msg { src: p.src, dst: p.dst };
        if forward.next(p.src) == Some(path[1]) { fwd.push(msg) } else { bwd.push(msg) }
    }
    Ok([(forward, fwd), (backward, bwd)])
}

/// A queued message with its rank inside its priority class: (tie rank, arrival rank, message).
/// The ranks are unique per queue, so the message never decides the order.
type Ranked = (i64, i64, Node, Node);

/// One node's queue on a lane, kept sorted by its [`Discipline`]: per priority class (at most
/// n under furthest- and closest-first, one under FIFO) a deque in descending
/// [`TieBreak::rank`], so the choice is its front. Arrivals under FIFO and [`Tie::Random`] rank
/// below everything queued and join at the back in O(1); under the source rules a class holds
/// one destination's messages, at most n.
#[derive(Debug, Default)]
struct Queue(BTreeMap<i64, VecDeque<Ranked>>);

impl Queue {
    /// Appends `m`, the `seq`-th arrival of the lane, to the back of node `at`'s queue.
    fn push(&mut self, lane: &Lane, at: Node, m: Msg, seq: u64, discipline: &mut dyn Discipline) {
        let priority = discipline.priority(lane, at, &m);
        let (tie, arrival) = match discipline.tie() {
            Some(rule) => rule.rank(lane.distance(m.src, at), seq),
            None => (0, -(seq as i64)),
        };
        let ranked = (tie, arrival, m.src, m.dst);
        let class = self.0.entry(priority).or_default();
        if class.back().is_none_or(|last| *last > ranked) {
            class.push_back(ranked);
        } else {
            class.insert(class.partition_point(|queued| *queued > ranked), ranked);
        }
    }

    /// Removes the message the discipline sends from the (non-empty) queue: the front of the
    /// highest class, or under [`Tie::Random`] a draw among that class in queue order.
    fn pop(&mut self, discipline: &mut dyn Discipline) -> Msg {
        let mut top = self.0.last_entry().expect("a discipline is asked only for non-empty queues");
        let class = top.get_mut();
        let k = match discipline.tie() {
            // Random ranks by arrival only: the class's deque is in queue order.
            Some(rule) if rule.is_random() && class.len() > 1 => {
                (rule.next_random() % class.len() as u64) as usize
            }
            _ => 0,
        };
        let (_, _, src, dst) = class.remove(k).expect("classes are never left empty");
        if class.is_empty() {
            top.remove();
        }
        Msg { src, dst }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Simulates one lane from the initial queues until every message is consumed; entry t−1 of
/// the result lists the transmissions of step t.
pub fn simulate(
    lane: &Lane,
    messages: &[Msg],
    order: InitialOrder,
    discipline: &mut dyn Discipline,
) -> Vec<Vec<Transmission>> {
    let mut own: Vec<Vec<Msg>> = vec![Vec::new(); lane.n];
    for m in messages {
        own[m.src].push(*m);
    }
    let mut queues: Vec<Queue> = (0..lane.n).map(|_| Queue::default()).collect();
    let (mut seq, mut queued) = (0u64, 0usize);
    for (x, mut q) in own.into_iter().enumerate() {
        match order {
            InitialOrder::FurthestFirst => q.sort_by_key(|m| std::cmp::Reverse(lane.distance(x, m.dst))),
            InitialOrder::ClosestFirst => q.sort_by_key(|m| lane.distance(x, m.dst)),
        }
        for m in q {
            queues[x].push(lane, x, m, seq, discipline);
            (seq, queued) = (seq + 1, queued + 1);
        }
    }
    let mut steps = Vec::new();
    while queued > 0 {
        let mut sent = Vec::new();
        for (x, q) in queues.iter_mut().enumerate() {
            if !q.is_empty() {
                let m = q.pop(discipline);
                let to = lane.next(x).expect("a queued message lies ahead on its lane");
                sent.push((x, to, m));
                queued -= 1;
            }
        }
        // Arrivals join the receivers' queues only after every node has chosen (SPEC §1).
        for &(_, to, m) in &sent {
            if m.dst != to {
                queues[to].push(lane, to, m, seq, discipline);
                (seq, queued) = (seq + 1, queued + 1);
            }
        }
        steps.push(
            sent.into_iter()
                .map(|(from, to, m)| Transmission { from, to, tokens: vec![m.token(lane.n)] })
                .collect(),
        );
    }
    steps
}

/// Runs schedules at the same time: step t of the result is the union of every part's step t
/// (the two lanes of 004 §3 never share an arc).
pub fn merge(parts: Vec<Vec<Vec<Transmission>>>) -> Vec<Vec<Transmission>> {
    let mut steps: Vec<Vec<Transmission>> = Vec::new();
    for part in parts {
        if steps.len() < part.len() {
            steps.resize_with(part.len(), Vec::new);
        }
        for (t, step) in part.into_iter().enumerate() {
            steps[t].extend(step);
        }
    }
    steps
}

/// Both lanes of `inst` simulated with one discipline and merged into an F\* schedule.
pub fn run(
    inst: &Instance,
    antipodal: RingTie,
    order: InitialOrder,
    discipline: &mut dyn Discipline,
) -> Result<Schedule> {
    let parts =
        lanes(inst, antipodal)?.iter().map(|(lane, msgs)| simulate(lane, msgs, order, discipline)).collect();
    Ok(Schedule::StoreForward(merge(parts)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sends the head of the queue (what FIFO does), for engine tests only.
    struct Head;
    impl Discipline for Head {
        fn priority(&self, _: &Lane, _: Node, _: &Msg) -> i64 {
            0
        }
        fn tie(&mut self) -> Option<&mut TieBreak> {
            None
        }
    }

    /// Furthest remaining distance first, for engine tests only.
    struct Far(TieBreak);
    impl Discipline for Far {
        fn priority(&self, lane: &Lane, at: Node, m: &Msg) -> i64 {
            lane.distance(at, m.dst) as i64
        }
        fn tie(&mut self) -> Option<&mut TieBreak> {
            Some(&mut self.0)
        }
    }

    #[test]
    fn lane_geometry() {
        let right = Lane { n: 5, ring: false, direction: Direction::Forward };
        let left = Lane { direction: Direction::Backward, ..right };
        let cw = Lane { ring: true, ..right };
        let ccw = Lane { ring: true, ..left };
        assert_eq!((right.next(4), right.next(1), right.distance(1, 4)), (None, Some(2), 3));
        assert_eq!((left.next(0), left.next(3), left.distance(4, 1)), (None, Some(2), 3));
        assert_eq!((cw.next(4), cw.distance(3, 1)), (Some(0), 3));
        assert_eq!((ccw.next(0), ccw.distance(1, 3)), (Some(4), 3));
    }

    #[test]
    fn messages_pipeline_one_hop_per_step_and_are_consumed() {
        // A lone message from 0 to 3 crosses (0,1), (1,2), (2,3) in steps 1, 2, 3.
        let lane = Lane { n: 4, ring: false, direction: Direction::Forward };
        let steps = simulate(&lane, &[Msg { src: 0, dst: 3 }], InitialOrder::FurthestFirst, &mut Head);
        let hops: Vec<Vec<(Node, Node)>> =
            steps.iter().map(|s| s.iter().map(|t| (t.from, t.to)).collect()).collect();
        assert_eq!(hops, vec![vec![(0, 1)], vec![(1, 2)], vec![(2, 3)]]);
        assert!(steps.iter().flatten().all(|t| t.tokens == vec![3]));
    }

    #[test]
    fn initial_order_sets_the_head() {
        let lane = Lane { n: 4, ring: false, direction: Direction::Forward };
        let own = [Msg { src: 0, dst: 1 }, Msg { src: 0, dst: 3 }, Msg { src: 0, dst: 2 }];
        let first = |order| simulate(&lane, &own, order, &mut Head)[0][0].tokens[0];
        assert_eq!(first(InitialOrder::FurthestFirst), 3);
        assert_eq!(first(InitialOrder::ClosestFirst), 1);
    }

    #[test]
    fn tie_rules_compare_sources_along_the_lane() {
        // At node 3 of a leftward lane, m_5(0) has travelled 2 hops and m_4(0) one.
        let left = Lane { n: 6, ring: false, direction: Direction::Backward };
        let queue = [Msg { src: 4, dst: 0 }, Msg { src: 5, dst: 0 }];
        let first = |far: &mut Far| {
            let mut q = Queue::default();
            for (seq, m) in queue.iter().enumerate() {
                q.push(&left, 3, *m, seq as u64, far);
            }
            q.pop(far).src
        };
        assert_eq!(first(&mut Far(TieBreak::new(Tie::SmallestSource))), 5);
        assert_eq!(first(&mut Far(TieBreak::new(Tie::LargestSource))), 4);
        let mut random = Far(TieBreak::new(Tie::Random(7)));
        let draws: Vec<Node> = (0..64).map(|_| first(&mut random)).collect();
        assert!(draws.contains(&4) && draws.contains(&5), "a seeded stream picks both: {draws:?}");
    }

    #[test]
    fn merge_is_a_stepwise_union() {
        let t = |from, to| Transmission { from, to, tokens: vec![0] };
        let merged = merge(vec![vec![vec![t(0, 1)]], vec![vec![t(1, 0)], vec![t(2, 1)]]]);
        assert_eq!(merged, vec![vec![t(0, 1), t(1, 0)], vec![t(2, 1)]]);
    }
}
