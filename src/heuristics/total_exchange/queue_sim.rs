//! # Per-direction queue simulation (paper 004 §3, §4)
//!
//! The one mechanism behind every total-exchange algorithm of paper 004 (Dimakopoulos &
//! Dimopoulos, "Optimal Total Exchange in Linear Arrays and Rings").
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
use crate::rng::SplitMix64;
pub use crate::spec::Direction;
use crate::spec::itinerary::{lane_distance, lane_next};
use crate::spec::{Family, Instance, Itineraries, Node, RingTie, Schedule, Transmission};
use std::collections::{BTreeMap, VecDeque};

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
        lane_next(self.n, self.ring, x, self.direction)
    }

    /// Hops from `from` to `to` along the lane (`to` must lie ahead of `from` on a linear array).
    pub fn distance(&self, from: Node, to: Node) -> usize {
        lane_distance(self.n, self.ring, from, to, self.direction)
            .expect("the destination lies ahead on the lane")
    }

    /// The position of node `x` along the lane, counted from node 0 in the lane's direction
    /// (an involution: it also maps a position back to its node).
    fn position(&self, x: Node) -> usize {
        match self.direction {
            Direction::Forward => x,
            Direction::Backward => (self.n - x) % self.n,
        }
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
    stream: SplitMix64,
}

impl TieBreak {
    /// A fresh tie-breaker; `Random(seed)` starts its stream at `seed`.
    pub fn new(tie: Tie) -> Self {
        let seed = match tie {
            Tie::Random(seed) => seed,
            _ => 0,
        };
        Self { tie, stream: SplitMix64::new(seed) }
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
        // The shorter way round; only an antipodal pair asks the atlas's tie rule.
        let ahead = (p.dst + n - p.src) % n;
        let goes_forward = if !ring {
            p.src < p.dst
        } else if 2 * ahead != n {
            2 * ahead < n
        } else {
            let path = inst.network.default_path(p.src, p.dst, antipodal).expect("rings are connected");
            forward.next(p.src) == Some(path[1])
        };
        let msg = Msg { src: p.src, dst: p.dst };
        if goes_forward { fwd.push(msg) } else { bwd.push(msg) }
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
                (rule.stream.next_u64() % class.len() as u64) as usize
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
    let next = |x: Node| lane.next(x).expect("a queued message lies ahead on its lane");
    let mut steps: Vec<Vec<Transmission>> = Vec::new();
    drive(
        Queues::of(lane, (0..lane.n).collect(), messages, order),
        discipline,
        |x, m| (next(x), m),
        |t, x, m| {
            if steps.len() < t as usize {
                steps.push(Vec::new());
            }
            steps[t as usize - 1].push(Transmission { from: x, to: next(x), tokens: vec![m.token(lane.n)] });
        },
    );
    steps
}

/// The queues the step engine starts from: queue i is node `nodes[i]`'s and holds the messages
/// whose source it is, in `order`.
struct Queues<'a> {
    lane: &'a Lane,
    nodes: Vec<Node>,
    own: Vec<Vec<Msg>>,
    order: InitialOrder,
}

impl<'a> Queues<'a> {
    /// The queues of `nodes`, each with its own messages among `messages`, in input order
    /// until `order` sorts them; messages from other nodes are left out.
    fn of(lane: &'a Lane, nodes: Vec<Node>, messages: &[Msg], order: InitialOrder) -> Self {
        let mut queue_of = vec![None; lane.n];
        for (i, &x) in nodes.iter().enumerate() {
            queue_of[x] = Some(i);
        }
        let mut own: Vec<Vec<Msg>> = vec![Vec::new(); nodes.len()];
        for m in messages {
            if let Some(i) = queue_of[m.src] {
                own[i].push(*m);
            }
        }
        Self { lane, nodes, own, order }
    }
}

/// The step engine of [`simulate`] and [`node_invariant_itineraries`]: from the [`Queues`], in
/// every step each non-empty queue sends the message its discipline picks, reported as
/// `sent(t, i, m)`; `forward(i, m)` names the queue the message reaches and the message as that
/// queue sees it. Arrivals join the receivers' queues only after every node has chosen
/// (SPEC §1), unless they are home.
fn drive(
    start: Queues,
    discipline: &mut dyn Discipline,
    forward: impl Fn(usize, Msg) -> (usize, Msg),
    mut sent: impl FnMut(u32, usize, Msg),
) {
    let Queues { lane, nodes, own, order } = start;
    let mut queues: Vec<Queue> = nodes.iter().map(|_| Queue::default()).collect();
    let (mut seq, mut queued) = (0u64, 0usize);
    for (i, mut q) in own.into_iter().enumerate() {
        let x = nodes[i];
        match order {
            InitialOrder::FurthestFirst => q.sort_by_key(|m| std::cmp::Reverse(lane.distance(x, m.dst))),
            InitialOrder::ClosestFirst => q.sort_by_key(|m| lane.distance(x, m.dst)),
        }
        for m in q {
            queues[i].push(lane, x, m, seq, discipline);
            (seq, queued) = (seq + 1, queued + 1);
        }
    }
    let (mut t, mut moving) = (0u32, Vec::new());
    while queued > 0 {
        t += 1;
        moving.clear();
        for (i, q) in queues.iter_mut().enumerate() {
            if !q.is_empty() {
                let m = q.pop(discipline);
                queued -= 1;
                sent(t, i, m);
                moving.push(forward(i, m));
            }
        }
        for &(j, m) in &moving {
            if m.dst != nodes[j] {
                queues[j].push(lane, nodes[j], m, seq, discipline);
                (seq, queued) = (seq + 1, queued + 1);
            }
        }
    }
}

/// The departures of one lane of a ring whose messages and discipline are invariant under
/// rotation by `period` positions along the lane (Definition 1; Lemma 3, TE-15: the queues of a
/// node-invariant algorithm are rotations of one another). Node q + period then does in every
/// step what node q does, rotated, so only the window of positions 0..period is simulated:
/// position 0 receives from position n − 1 what position period − 1 sends, rotated back by
/// `period`. The window's sends give each message's departures by (window node, distance,
/// hop): O(T log n) for the window, where [`simulate`] steps all n queues.
pub struct WindowTable {
    lane: Lane,
    period: usize,
    /// One more than the longest distance.
    far: usize,
    /// `departure[(q · far + distance) · far + hop]`: the step window node q sends such a message.
    departure: Vec<u32>,
}

impl WindowTable {
    /// Simulates the window. Errors unless the lane is a ring, `period` divides n, and the
    /// messages are invariant.
    pub fn new(
        lane: &Lane,
        messages: &[Msg],
        order: InitialOrder,
        discipline: &mut dyn Discipline,
        period: usize,
    ) -> Result<Self> {
        let n = lane.n;
        if !lane.ring || period == 0 || !n.is_multiple_of(period) {
            return Err(refuse_window(format!(
                "it needs a ring whose size is a multiple of the period {period}"
            )));
        }
        let pos = |x: Node| lane.position(x);
        // Rotation by `r` positions along the lane (r < n).
        let rotate =
            |m: Msg, r: usize| Msg { src: pos((pos(m.src) + r) % n), dst: pos((pos(m.dst) + r) % n) };
        let mut present = vec![false; n * n];
        for m in messages {
            present[m.token(n)] = true;
        }
        if let Some(m) = messages.iter().find(|m| !present[rotate(**m, period).token(n)]) {
            return Err(refuse_window(format!(
                "the lane's messages are not invariant under rotation by {period}: m{}({}) has no rotated twin",
                m.src, m.dst
            )));
        }
        let window = Queues::of(lane, (0..period).map(pos).collect(), messages, order);
        let far = messages.iter().map(|m| lane.distance(m.src, m.dst)).max().unwrap_or(0) + 1;
        let mut departure = vec![0u32; period * far * far];
        drive(
            window,
            discipline,
            |q, m| if q + 1 < period { (q + 1, m) } else { (0, rotate(m, n - period)) },
            |t, q, m| {
                let (ps, pd) = (pos(m.src), pos(m.dst));
                departure[(q * far + (pd + n - ps) % n) * far + (q + n - ps) % n] = t;
            },
        );
        Ok(Self { lane: *lane, period, far, departure })
    }

    /// Writes the departures of the message from `src` travelling `out.len()` hops: hop h
    /// leaves window node (position of src + h) mod period, so the rows cycle through the window.
    fn departures(&self, src: Node, out: &mut [u32]) {
        let (dist, far) = (out.len(), self.far);
        let mut q = self.lane.position(src) % self.period;
        for (h, t) in out.iter_mut().enumerate() {
            *t = self.departure[(q * far + dist) * far + h];
            q = if q + 1 == self.period { 0 } else { q + 1 };
        }
    }
}

/// The error of a window that does not apply.
fn refuse_window(reason: String) -> Error {
    Error::NotApplicable { method: "node-invariant simulation".into(), reason }
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

/// Both lanes of a ring total exchange as itineraries, read from one [`WindowTable`] per lane
/// (`period` 1 when every node acts alike, 2 under the alternating split of 004 §4.2), by
/// direction and then shortest distance first. A message the window never sends (the
/// discipline was not rotation-consistent) is an error.
pub fn run_node_invariant(
    inst: &Instance,
    antipodal: RingTie,
    order: InitialOrder,
    discipline: &mut dyn Discipline,
    period: usize,
) -> Result<Itineraries> {
    let n = inst.network.len();
    let lanes = lanes(inst, antipodal)?;
    let [(f, fwd), (b, bwd)] = &lanes;
    let tables = [
        WindowTable::new(f, fwd, order, discipline, period)?,
        WindowTable::new(b, bwd, order, discipline, period)?,
    ];
    let table = |d: Direction| &tables[usize::from(d == Direction::Backward)];
    let mut legs: Vec<(usize, Direction, usize)> = lanes
        .iter()
        .flat_map(|(lane, msgs)| {
            msgs.iter().map(move |m| (m.token(n), lane.direction, lane.distance(m.src, m.dst)))
        })
        .collect();
    legs.sort_unstable_by_key(|&(k, d, dist)| (d, dist, table(d).lane.position(k / n)));
    let out = Itineraries::fill(n, true, &legs, |i, out| {
        let (k, d, _) = legs[i];
        table(d).departures(k / n, out);
    });
    if let Some(leg) = out.iter().find(|leg| leg.departures.contains(&0)) {
        return Err(refuse_window(format!(
            "the window never sends m{}({}) on: the discipline is not rotation-consistent",
            leg.token / n,
            leg.token % n
        )));
    }
    Ok(out)
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
