//! Compact store-and-forward schedules: itineraries on a linear array or ring (docs/spec.md
//! §5.4).
//!
//! An explicit schedule ([`Schedule::StoreForward`](super::Schedule::StoreForward)) spends one
//! [`Transmission`] (about 64 bytes with its token vector) on every packet hop, and total
//! exchange on `path(1024)` has 358 million hops. [`Itineraries`] holds the same kind of
//! schedule, unit packets in move mode on `path:N` or `ring:N`, as one itinerary per packet:
//!
//! * its **route**: the walk from the packet's source that takes one arc per hop in its
//!   [`Direction`] (x → x + 1 forward, x → x − 1 backward, modulo n on a ring);
//! * its **departures**: departure h is the step in which the packet leaves the h-th node of
//!   that walk, so the packet crosses the h-th arc in that step.
//!
//! That is 4 bytes a hop. The checker reads it as it is
//! (`checker::itinerary`), without building a hop; [`Itineraries::to_steps`] gives the
//! explicit form for the files and pictures. Only producers build itineraries; the JSON schedule
//! format stays the explicit one.

use super::Transmission;
use super::limits::Resource;
use super::network::Node;
use crate::error::InputError;

/// The way a packet travels along a linear array or ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// Rightward on the linear array (labels increasing), clockwise on the ring: x → x + 1.
    Forward,
    /// Leftward / counter-clockwise: x → x − 1.
    Backward,
}

/// The node after `x` in direction `d` on an `n`-node linear array (`ring = false`) or ring;
/// `None` past either end of the array.
pub fn lane_next(n: usize, ring: bool, x: Node, d: Direction) -> Option<Node> {
    match (d, ring) {
        (Direction::Forward, true) => Some(if x + 1 == n { 0 } else { x + 1 }),
        (Direction::Backward, true) => Some(if x == 0 { n - 1 } else { x - 1 }),
        (Direction::Forward, false) => (x + 1 < n).then_some(x + 1),
        (Direction::Backward, false) => x.checked_sub(1),
    }
}

/// Hops from `from` to `to` in direction `d` (`None` on an array when `to` lies behind).
pub fn lane_distance(n: usize, ring: bool, from: Node, to: Node, d: Direction) -> Option<usize> {
    let (a, b) = match d {
        Direction::Forward => (to, from),
        Direction::Backward => (from, to),
    };
    if ring { Some((a + n - b) % n) } else { a.checked_sub(b) }
}

/// One packet's itinerary, as read back from [`Itineraries`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Itinerary<'a> {
    /// The packet's token, `src · n + dst`.
    pub token: usize,
    /// Its direction.
    pub direction: Direction,
    /// The step of each hop, first hop first.
    pub departures: &'a [u32],
}

/// A unit-packet, move-mode store-and-forward schedule on `path:n` or `ring:n` held as
/// itineraries (module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Itineraries {
    n: usize,
    ring: bool,
    /// Per packet, in the producer's order: token and direction.
    legs: Vec<(usize, Direction)>,
    /// `departures[offsets[i]..offsets[i + 1]]` are packet i's departures.
    offsets: Vec<usize>,
    departures: Vec<u32>,
}

impl Itineraries {
    /// No itinerary yet, on `n` nodes (closed into a ring when `ring`), with room for `packets`
    /// itineraries of `hops` hops in all.
    pub fn with_capacity(n: usize, ring: bool, packets: usize, hops: usize) -> Self {
        let mut offsets = Vec::with_capacity(packets + 1);
        offsets.push(0);
        Self { n, ring, legs: Vec::with_capacity(packets), offsets, departures: Vec::with_capacity(hops) }
    }

    /// Itineraries written in place, in parallel: `legs` gives each packet's token, direction
    /// and number of hops, in order, and `fill(i, out)` writes itinerary i's departures into
    /// `out` (that many). The legs are cut into one contiguous block of about equal hops per
    /// available core, each filled by its own thread.
    pub fn fill(
        n: usize,
        ring: bool,
        legs: &[(usize, Direction, usize)],
        fill: impl Fn(usize, &mut [u32]) + Sync,
    ) -> Self {
        let mut offsets = Vec::with_capacity(legs.len() + 1);
        offsets.push(0);
        for &(_, _, hops) in legs {
            offsets.push(offsets[offsets.len() - 1] + hops);
        }
        let total = offsets[legs.len()];
        let mut departures = vec![0u32; total];
        let threads = std::thread::available_parallelism().map_or(1, |c| c.get()).max(1);
        // Block b holds the legs whose departures start before (b + 1) · total / threads.
        let cuts: Vec<usize> = (1..threads)
            .map(|b| offsets.partition_point(|&o| o < b * total / threads).min(legs.len()))
            .chain([legs.len()])
            .collect();
        std::thread::scope(|scope| {
            let (mut rest, mut from) = (departures.as_mut_slice(), 0);
            for &to in &cuts {
                let (block, tail) = rest.split_at_mut(offsets[to] - offsets[from]);
                rest = tail;
                let (offsets, fill) = (&offsets, &fill);
                scope.spawn(move || {
                    for i in from..to {
                        let start = offsets[i] - offsets[from];
                        fill(i, &mut block[start..start + offsets[i + 1] - offsets[i]]);
                    }
                });
                from = to;
            }
        });
        Self { n, ring, legs: legs.iter().map(|&(k, d, _)| (k, d)).collect(), offsets, departures }
    }

    /// Nodes of the array or ring.
    pub fn nodes(&self) -> usize {
        self.n
    }

    /// Whether the nodes close into a ring.
    pub fn is_ring(&self) -> bool {
        self.ring
    }

    /// Appends the itinerary of `token` travelling in `direction` with the given departures.
    pub fn push(&mut self, token: usize, direction: Direction, departures: impl IntoIterator<Item = u32>) {
        self.legs.push((token, direction));
        self.departures.extend(departures);
        self.offsets.push(self.departures.len());
    }

    /// Number of itineraries.
    pub fn len(&self) -> usize {
        self.legs.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.legs.is_empty()
    }

    /// Packet hops in all.
    pub fn hops(&self) -> usize {
        self.departures.len()
    }

    /// Itinerary `i`.
    pub fn get(&self, i: usize) -> Itinerary<'_> {
        let (token, direction) = self.legs[i];
        Itinerary { token, direction, departures: &self.departures[self.offsets[i]..self.offsets[i + 1]] }
    }

    /// Every itinerary in the producer's order.
    pub fn iter(&self) -> impl Iterator<Item = Itinerary<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The node after `x` in direction `d`; `None` past an end of the array.
    pub fn next(&self, x: Node, d: Direction) -> Option<Node> {
        lane_next(self.n, self.ring, x, d)
    }

    /// Rewrites every departure of a `direction` packet with `f` (for step transformations
    /// such as the half-duplex split).
    pub fn map_departures(&mut self, f: impl Fn(Direction, u32) -> u32) {
        for (i, &(_, d)) in self.legs.iter().enumerate() {
            for t in &mut self.departures[self.offsets[i]..self.offsets[i + 1]] {
                *t = f(d, *t);
            }
        }
    }

    /// [`Itineraries::to_steps`] within [`Resource::Events`]: expanding more hops is refused, as
    /// an explicit hop costs about 64 bytes.
    pub fn explicit_steps(&self) -> Result<Vec<Vec<Transmission>>, InputError> {
        Resource::Events
            .guard(Some(self.hops() as u64), "the explicit form of this schedule")
            .map_err(|r| InputError::new("", "", r))?;
        Ok(self.to_steps())
    }

    /// The explicit schedule: step t (index t − 1) lists every hop departing in step t, a
    /// one-token packet each, in the order of the itineraries. A hop that would leave the
    /// array names node `n` (one past the last), which the explicit checker reports; a departure
    /// in step 0 is dropped, as no step 0 exists.
    pub fn to_steps(&self) -> Vec<Vec<Transmission>> {
        let last = self.departures.iter().copied().max().unwrap_or(0) as usize;
        let mut steps: Vec<Vec<Transmission>> = vec![Vec::new(); last];
        for it in self.iter() {
            let mut x = it.token / self.n;
            for &t in it.departures {
                let to = self.next(x, it.direction).unwrap_or(self.n);
                if t > 0 {
                    steps[t as usize - 1].push(Transmission { from: x, to, tokens: vec![it.token] });
                }
                x = to;
                if x == self.n {
                    break;
                }
            }
        }
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_geometry_on_arrays_and_rings() {
        use Direction::*;
        assert_eq!((lane_next(5, false, 4, Forward), lane_next(5, false, 0, Backward)), (None, None));
        assert_eq!((lane_next(5, true, 4, Forward), lane_next(5, true, 0, Backward)), (Some(0), Some(4)));
        assert_eq!(lane_distance(5, false, 1, 4, Forward), Some(3));
        assert_eq!(lane_distance(5, false, 4, 1, Forward), None);
        assert_eq!(
            (lane_distance(5, true, 3, 1, Forward), lane_distance(5, true, 1, 3, Backward)),
            (Some(3), Some(3))
        );
    }

    #[test]
    fn itineraries_expand_to_one_token_transmissions() {
        // m_0(2) rightward in steps 1 and 3, m_2(0) leftward in steps 1 and 2 on path(3).
        let mut it = Itineraries::with_capacity(3, false, 2, 4);
        it.push(2, Direction::Forward, [1, 3]);
        it.push(6, Direction::Backward, [1, 2]);
        assert_eq!((it.len(), it.hops()), (2, 4));
        let tr = |from, to, token| Transmission { from, to, tokens: vec![token] };
        assert_eq!(it.to_steps(), vec![vec![tr(0, 1, 2), tr(2, 1, 6)], vec![tr(1, 0, 6)], vec![tr(1, 2, 2)]]);
        it.map_departures(|d, t| if d == Direction::Forward { 2 * t - 1 } else { 2 * t });
        assert_eq!(it.get(0).departures, &[1, 5]);
        assert_eq!(it.get(1).departures, &[2, 4]);
    }
}
