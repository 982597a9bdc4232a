//! # Phase 1, the half-gossip (paper 003 §2 Fig. 1, §3.1 Fig. 2, §4.1 Fig. 9a)
//!
//! "All even nodes broadcast their tokens to all the nodes in their respective rows and all odd
//! nodes broadcast their tokens to all the nodes in their respective columns" (Fig. 1, after
//! Fujita and Yamashita). On one line every other node broadcasts, so the wires are straight:
//! a token leaves its broadcaster in round 1 in both directions and moves one hop per round
//! (GOS-4). [`half_gossip`] draws them; two wires crossing at a black dot is an error.
//!
//! How far a token travels each way is the only difference between the networks:
//!
//! * mesh line (open): to both ends ([`Reach::Ends`]): n − 1 rounds with broadcasters at both
//!   ends (Fig. 2b, odd n), n − 2 with broadcasters inside (Fig. 2a), n − 1 for even n
//!   (Fig. 2c); GOS-4, GOS-26;
//! * even torus ring: n/2 hops right and n/2 − 1 left ([`Reach::Ring`]), n/2 rounds, n/2 idle
//!   instances in the last round (§4.1, GOS-18, GOS-32);
//! * odd torus ring: the same on n + 1 positions with a phantom node ([`delayed_half_gossip`];
//!   the delayer is explained in [`torus_odd`](mod@super::torus_odd), §4.2, GOS-21).

use super::line::{Dir, Dot, DotWire, Line, crossing};
use crate::error::Result;

/// How far a Phase-1 token travels from its broadcaster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// To both ends of an open line (mesh, §3.1).
    Ends,
    /// ⌈(n−1)/2⌉ hops right and ⌊(n−1)/2⌋ left on a closed line of n nodes: n/2 and n/2 − 1
    /// for even n (§4.1).
    Ring,
}

impl Reach {
    /// (hops right, hops left) of the token broadcast from position `pos` of an `n`-node line.
    pub fn hops(self, n: usize, pos: usize) -> (usize, usize) {
        match self {
            Reach::Ends => (n - 1 - pos, pos),
            Reach::Ring => (n / 2, (n - 1) / 2),
        }
    }
}

/// The positions of a line that broadcast in Phase 1 with their tokens: on a line of an r×c grid,
/// the nodes whose parity (i + j even: "even", 003 §2) is the line's; rows broadcast the even
/// tokens, columns the odd ones.
pub fn broadcasters(line: &Line, cols: usize, even: bool) -> Vec<(usize, usize)> {
    (0..line.len())
        .map(|pos| (pos, line.node(pos)))
        .filter(|&(_, v)| (v / cols + v % cols).is_multiple_of(2) == even)
        .collect()
}

/// Phase 1 on `line`: every `(position, token)` of `broadcasters` sends its token both ways, one
/// hop per round from round 1, as far as `reach` says. Errors name the round and edge where two
/// wires would cross (they never do when broadcasters alternate, GOS-4).
pub fn half_gossip(line: &Line, broadcasters: &[(usize, usize)], reach: Reach) -> Result<DotWire> {
    let n = line.len();
    let mut diagram = DotWire::new(line.edges());
    let mut dots: Vec<(usize, usize, Dot)> = broadcasters
        .iter()
        .flat_map(|&(pos, token)| {
            let (right, left) = reach.hops(n, pos);
            let rightward = (1..=right).map(move |k| (k, (pos + k - 1) % n, Dot { token, dir: Dir::Right }));
            rightward.chain((1..=left).map(move |k| (k, (pos + n - k) % n, Dot { token, dir: Dir::Left })))
        })
        .collect();
    // Round by round, so that a crossing is reported at its first round.
    dots.sort_by_key(|&(round, edge, _)| (round, edge));
    for (round, edge, dot) in dots {
        diagram.put(round, edge, dot).map_err(|was| crossing("phase 1", round, edge, dot, was))?;
    }
    Ok(diagram)
}

/// Phase 1 on a ring `line` of odd length n with v_{n−1} the delayer: the even-ring half-gossip
/// on n + 1 positions (phantom P at position n), the wait on v_{n−1}–P dropped and the hop
/// P–v_0 drawn on the real edge ⟨v_{n−1}, v_0⟩. A wire ending at P is cut one hop short: P is
/// no node, and v_{n−1} gets that token along its other wire (no duplicate receipt, 003 §2).
pub fn delayed_half_gossip(line: &Line, broadcasters: &[(usize, usize)]) -> Result<DotWire> {
    let n = line.len();
    let phantom = Line::closed((0..=n).collect());
    let extended = half_gossip(&phantom, broadcasters, Reach::Ring)?;
    let mut diagram = DotWire::new(line.edges());
    for t in 1..=extended.len() {
        for e in (0..=n).filter(|&e| e + 1 != n) {
            let Some(dot) = extended.dot(t, e) else { continue };
            // A wire ending at P: v_{n−1} gets that token from its other wire.
            let ends_at_phantom = e == n && dot.dir == Dir::Left && extended.dot(t + 1, n - 1) != Some(dot);
            if !ends_at_phantom {
                diagram
                    .put(t, e.min(n - 1), dot)
                    .expect("the phantom ring's edges map to distinct real edges");
            }
        }
    }
    Ok(diagram)
}
