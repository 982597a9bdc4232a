//! # Reading a schedule back: departure times and queues (paper 004 §3, §4)
//!
//! The lemmas of paper 004 speak of t^{(j)}(m), the step in which
//! message m leaves node j (Lemma 1, (5), TE-6 … TE-12), and of the queues Q_i(t) after step t
//! (Lemma 3, TE-15; §4.2, TE-20). [`Trace`] recovers both from an emitted store-and-forward
//! schedule, not from a producer's internal state, so the lemmas are checked on what the
//! checker certified. Only meaningful for schedules the checker has accepted (in move mode a
//! token is then at exactly one node at a time).

use crate::spec::{Node, Schedule};
use std::collections::BTreeMap;

/// One crossing of an arc by a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    /// The step (1-based).
    pub step: u64,
    /// Sender.
    pub from: Node,
    /// Receiver.
    pub to: Node,
}

/// Every token's hops in a store-and-forward schedule, in step order.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    hops: BTreeMap<usize, Vec<Hop>>,
}

impl Trace {
    /// The trace of a schedule; `None` unless it is a store-and-forward schedule (itineraries
    /// within `--max-events` hops count).
    pub fn new(schedule: &Schedule) -> Option<Self> {
        let explicit = schedule.explicit().ok()?;
        let Schedule::StoreForward(steps) = explicit.as_ref() else { return None };
        let mut hops: BTreeMap<usize, Vec<Hop>> = BTreeMap::new();
        for (t, step) in steps.iter().enumerate() {
            for tr in step {
                for &token in &tr.tokens {
                    hops.entry(token).or_default().push(Hop { step: t as u64 + 1, from: tr.from, to: tr.to });
                }
            }
        }
        Some(Self { hops })
    }

    /// The hops of `token` in step order (empty if it never moves).
    pub fn hops(&self, token: usize) -> &[Hop] {
        self.hops.get(&token).map_or(&[], Vec::as_slice)
    }

    /// t^{(node)}(token): the first step in which `token` leaves `node`.
    pub fn departure(&self, token: usize, node: Node) -> Option<u64> {
        self.hops(token).iter().find(|h| h.from == node).map(|h| h.step)
    }

    /// The step in which `token` crosses its last arc (its delivery, in move mode).
    pub fn arrival(&self, token: usize) -> Option<u64> {
        self.hops(token).last().map(|h| h.step)
    }

    /// The (step, token) pairs sent over arc (from, to), in step order.
    pub fn sends(&self, from: Node, to: Node) -> Vec<(u64, usize)> {
        let mut sends: Vec<(u64, usize)> = self
            .hops
            .iter()
            .flat_map(|(&token, hops)| {
                hops.iter().filter(|h| h.from == from && h.to == to).map(move |h| (h.step, token))
            })
            .collect();
        sends.sort_unstable();
        sends
    }

    /// Q(t) of 004 §4 for one direction: the tokens waiting at `node` after step `after` whose
    /// next hop is `node` → `next`, in the order they leave (for FIFO, the queue order).
    pub fn queue(&self, node: Node, after: u64, next: Node) -> Vec<usize> {
        let mut waiting: Vec<(u64, usize)> = self
            .hops
            .iter()
            .filter_map(|(&token, hops)| {
                let h = hops.iter().find(|h| h.step > after)?;
                (h.from == node && h.to == next).then_some((h.step, token))
            })
            .collect();
        waiting.sort_unstable();
        waiting.into_iter().map(|(_, token)| token).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Transmission;

    #[test]
    fn reads_departures_and_queues_back() {
        let tr = |from, to, token| Transmission { from, to, tokens: vec![token] };
        // Token 2 (0 → 2) and token 1 (0 → 1) on a 3-node array, token 2 first.
        let s = Schedule::StoreForward(vec![vec![tr(0, 1, 2)], vec![tr(0, 1, 1), tr(1, 2, 2)]]);
        let t = Trace::new(&s).unwrap();
        assert_eq!((t.departure(2, 0), t.departure(2, 1), t.departure(1, 0)), (Some(1), Some(2), Some(2)));
        assert_eq!((t.arrival(2), t.departure(1, 1)), (Some(2), None));
        assert_eq!(t.queue(0, 0, 1), vec![2, 1]);
        assert_eq!((t.queue(0, 1, 1), t.queue(1, 1, 2)), (vec![1], vec![2]));
        assert!(t.queue(0, 2, 1).is_empty());
        assert_eq!(t.sends(0, 1), vec![(1, 2), (2, 1)]);
        assert!(Trace::new(&Schedule::Virtual(vec![])).is_none());
    }
}
