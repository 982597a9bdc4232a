//! # Gossip on the odd torus with a delayer (paper 003 §4.2, Figs. 10, 11, Theorem 3)
//!
//! On a ring of odd length n two broadcasters are neighbours (v_{n−1} and v_0 when a row has
//! ⌈n/2⌉ even nodes, Fig. 10a) or two non-broadcasters are (Fig. 10b), and the even-ring Phase 1
//! would make wires cross: "v_0's packet and v_8's packet would collide at t = 1". The paper
//! pretends "that there is an odd node between v_{n−1} and v_0": the ring becomes an even ring of
//! n + 1 positions with a phantom P, the even-ring half-gossip runs on it (broadcasters keep
//! their positions; tokens go (n + 1)/2 right and (n − 1)/2 left), and the **delayer** v_{n−1}
//! plays P: a token crossing ⟨v_{n−1}, v_0⟩ spends one extra round at v_{n−1} (the hop
//! v_{n−1}–P is a wait, the hop P–v_0 the real link). Only traffic across that edge is delayed
//! (GOS-21: the paper's "delay every token" read literally would delay the rest too). Phase 1
//! takes ⌊n/2⌋ + 1 rounds in both cases without conflicts (GOS-21, GOS-33).
//!
//! Phase 2 is the FIFO ring gossip of the even case ([`ring_gossip`](super::ring_gossip)); the
//! loads alternate ⌈n/2⌉, ⌊n/2⌋, and on the columns (even positions heavier, "the dominating
//! case") it takes n²/2 − n/2 + 1 rounds (GOS-22, Fig. 11). Theorem 3 (corrected: it says "n is
//! even" and "q(T)", GOS-23): (n² + 1)/2 + 1 rounds, 2 above Lemma 2. Runs on r×c tori with an
//! odd side (even rings keep the plain Phase 1). Registered as `torus-odd-delayer`.

use super::torus_even::torus;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Theorem 3 on an r×c torus with an odd side: (n² + 1)/2 + 1 rounds on the n×n torus, n odd.
pub fn torus_odd(inst: &Instance) -> Result<Schedule> {
    torus(inst, METHOD.name)
}

/// Theorem 3's length on the n×n torus, n odd (GOS-23, corrected): (n² + 1)/2 + 1.
pub fn theorem_3(n: u64) -> u64 {
    (n * n).div_ceil(2) + 1
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "torus-odd-delayer",
    source: "003 §4.2 Figs. 10, 11, Theorem 3; GOS-21, GOS-22, GOS-23, GOS-33",
    summary: "Phase 1 with a delayer node (a phantom node on one edge of every odd ring), then \
              unidirectional FIFO ring gossip: (n² + 1)/2 + 1 rounds, 2 above Lemma 2",
    applicability: super::TORUS_ODD,
    claim: |inst| {
        let n = super::square(inst)?;
        super::claimed("GOS-23", "odd-torus algorithm (Theorem 3, corrected)", "(n² + 1)/2 + 1", theorem_3(n))
    },
    run: torus_odd,
};
