//! # First-fit interval colouring (paper 000 §4.1, Theorem 4.4, Corollary 4.2)
//!
//! Unit-length messages on a ULA: message u→v is the interval [η_u, η_{v−1}] of arcs, and a
//! virtual schedule is an assignment of intervals to tracks (virtual steps) with no two
//! overlapping intervals on one track. "One orders the nodes according to the left endpoints
//! of their corresponding intervals and then applies a first-fit on-line coloring strategy":
//! each interval takes the lowest track whose intervals all end before it starts. The number
//! of tracks is the largest clique, C(M) (Theorem 4.4, CHAT-14), so S(σ) = C(M) is optimal
//! (CHAT-4). VO of it (Corollary 4.2, CHAT-15) is a chatting schedule with T < C + Q ≤ 2·T_opt.
//! Ties of left endpoints are taken in message-id order. Time O(|M| log |M| + |M|·C).

use super::{LINEAR_ARRAYS, chatting_on, claimed, is_virtual, parameters, produce};
use crate::claims::Relation;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Message, Network, Schedule};

/// First-fit on unit-length ULA messages: the virtual start (track, from 1) of each message,
/// in message order.
pub fn first_fit_tracks(_network: &Network, messages: &[Message]) -> Result<Vec<i64>> {
    let interval = |m: &Message| (m.arcs[0], m.arcs[m.arcs.len() - 1]);
    let mut order: Vec<usize> = (0..messages.len()).collect();
    order.sort_by_key(|&i| (interval(&messages[i]).0, messages[i].id));
    // The right end of the last interval on each track.
    let mut track_end: Vec<usize> = Vec::new();
    let mut track = vec![0i64; messages.len()];
    for i in order {
        let (left, right) = interval(&messages[i]);
        let t = match track_end.iter().position(|&end| end < left) {
            Some(t) => t,
            None => {
                track_end.push(0);
                track_end.len() - 1
            }
        };
        track_end[t] = right;
        track[i] = t as i64 + 1;
    }
    Ok(track)
}

/// `first-fit` on the instance (a ULA, or a bidirectional array as two ULAs): the virtual
/// schedule on a virtual instance, its VO image on a chatting one.
pub fn first_fit(inst: &Instance) -> Result<Schedule> {
    produce(inst, &METHOD, first_fit_tracks)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "first-fit",
    source: "000 §4.1 Theorem 4.4, Corollary 4.2; CHAT-14, CHAT-15",
    summary: "unit-length messages on a ULA (a bidirectional array as two ULAs): intervals by left end, \
              first-fit tracks; virtual S = C (optimal), chatting = VO of it, T ≤ C + Q − 1",
    applicability: chatting_on(LINEAR_ARRAYS, true),
    claim: |inst| {
        let (c, _, q) = parameters(inst)?;
        if is_virtual(inst) {
            claimed("CHAT-14", "first-fit tracks (Theorem 4.4)", "C(M)", Relation::Equal, c)
        } else {
            claimed("CHAT-15", "VO of first-fit (Corollary 4.2)", "T < C + Q", Relation::AtMost, c + q - 1)
        }
    },
    run: first_fit,
};
