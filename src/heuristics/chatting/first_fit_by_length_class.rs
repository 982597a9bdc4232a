//! # First-fit by length class: a substitute for Kierstead's allocation (paper 000 §4.2)
//!
//! **Not Kierstead's algorithm.** §4.2 reduces rectangle compaction on a ULA to Dynamic Storage
//! Allocation (CHAT-16: message u→v of ℓ flits is the item of size ℓ over the arc span
//! [η_u, η_{v−1}]) and cites Kierstead's algorithm \[7\] (Theorem 4.5(b), CHAT-17): (1) round
//! every height up to a power of two; (2) take the rectangles by non-increasing height, a
//! rectangle of height h standing for h copies of its interval; (3) colour the copies with
//! "a particular on-line strategy" that puts the h copies on h consecutive tracks and uses at
//! most 6·C(M) tracks. The paper does not describe that strategy and this implementation does
//! not reproduce it. Steps (1) and (2) are the paper's; step (3) is replaced by first-fit on
//! aligned blocks: a rectangle of rounded height h takes the lowest block of tracks
//! [b·h + 1, (b+1)·h] free on all its arcs (ties of height by left end, then id). Every
//! earlier rectangle is at least as high and aligned to its own height, so a block is either
//! free or busy on each arc, and the h copies lie on consecutive tracks, as in \[7\]. The 6·C
//! guarantee (CHAT-17) and Corollary 4.3's T < 6C + Q (CHAT-18) are **not** proved for it;
//! the tests measure them. Registered as `first-fit-by-length-class`.

use super::{LINEAR_ARRAYS, chatting_on, produce};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Message, Network, Schedule};

/// Virtual starts (from 1, in message order) of first-fit on power-of-two aligned blocks, by
/// non-increasing rounded length.
pub fn first_fit_by_length_class_sigma(network: &Network, messages: &[Message]) -> Result<Vec<i64>> {
    let height = |m: &Message| m.len.next_power_of_two() as usize;
    let mut order: Vec<usize> = (0..messages.len()).collect();
    order.sort_by_key(|&x| (std::cmp::Reverse(height(&messages[x])), messages[x].arcs[0], messages[x].id));
    // busy[arc][track]: the unit tracks (virtual steps, from 0) taken on each arc.
    let mut busy: Vec<Vec<bool>> = vec![Vec::new(); network.arcs().len()];
    let mut start = vec![0i64; messages.len()];
    for x in order {
        let (m, h) = (&messages[x], height(&messages[x]));
        let free = |b: usize| {
            m.arcs.iter().all(|&a| (b * h..(b + 1) * h).all(|t| !busy[a].get(t).copied().unwrap_or(false)))
        };
        let b = (0..).find(|&b| free(b)).expect("a block beyond every busy track is free");
        for &a in &m.arcs {
            if busy[a].len() < (b + 1) * h {
                busy[a].resize((b + 1) * h, false);
            }
            busy[a][b * h..(b + 1) * h].fill(true);
        }
        start[x] = (b * h) as i64 + 1;
    }
    Ok(start)
}

/// `first-fit-by-length-class` on the instance (a ULA, or a bidirectional array as two ULAs).
pub fn first_fit_by_length_class(inst: &Instance) -> Result<Schedule> {
    produce(inst, &METHOD, first_fit_by_length_class_sigma)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "first-fit-by-length-class",
    source: "000 §4.2 steps 1-2 of Kierstead's algorithm, step 3 replaced by first-fit (a substitute, \
             not [7]); CHAT-16, CHAT-17, CHAT-18 measured",
    summary: "ULA (a bidirectional array as two ULAs), any lengths: heights rounded to powers of two, \
              by non-increasing height, lowest free aligned block of tracks; no 6C guarantee",
    applicability: chatting_on(LINEAR_ARRAYS, false),
    // A substitute: the paper's 6C (CHAT-17, CHAT-18) is Kierstead's, not its claim.
    claim: |_| None,
    run: first_fit_by_length_class,
};
