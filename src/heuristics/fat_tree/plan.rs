//! # Phases of a fat-tree algorithm (paper 002 §3, §4.2)
//!
//! The paper's algorithms are sequences of parallel steps ("pardo" lines, §3.1) and, for the
//! pipelined broadcast, of bursts of consecutive submissions (§3.3). A [`Phase`] is one such
//! step: its messages are submitted at offsets from the phase's start, and the next phase starts
//! in the step after the last of them is received (a message whose endpoints have their lowest
//! common ancestor at height h is received 2h − 1 steps after its submission step, FT-1). A
//! phase whose offsets are all 0 is a round of the round model (§4.2). Parallel recursive calls
//! on disjoint subtrees are the same phases translated ([`parallel`]).

use crate::spec::{FatTreeSend, Node, network::fat_tree_arrival};

/// One message of a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    /// Submission step minus the phase's first step.
    pub offset: i64,
    /// Sender.
    pub from: Node,
    /// Receiver.
    pub to: Node,
    /// The index range it carries (`[0, 0]` in a broadcast).
    pub payload: [usize; 2],
}

impl Hop {
    /// The step, counted from the phase's first step as 0, at whose end it is received.
    pub fn arrival(&self) -> i64 {
        fat_tree_arrival(self.from, self.to, self.offset)
    }
}

/// One parallel step of an algorithm.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Phase {
    /// Its messages.
    pub hops: Vec<Hop>,
}

impl Phase {
    /// A round: every pair `(from, to)` submitted in the phase's first step, carrying `[0, 0]`;
    /// self-sends (local work, 002 FT-6 notes) are left out.
    pub fn round(pairs: impl IntoIterator<Item = (Node, Node)>) -> Self {
        let hops = pairs
            .into_iter()
            .filter(|(a, b)| a != b)
            .map(|(from, to)| Hop { offset: 0, from, to, payload: [0, 0] })
            .collect();
        Phase { hops }
    }

    /// Steps from its first step to its last receipt (0 when empty).
    pub fn length(&self) -> i64 {
        self.hops.iter().map(|h| h.arrival() + 1).max().unwrap_or(0)
    }
}

/// The same phases run at once on the subtrees starting at `bases` (a "pardo" over recursive
/// calls on disjoint subtrees): phase k of the result is phase k of `plan` at every base.
pub fn parallel(plan: &[Phase], bases: impl Iterator<Item = Node> + Clone) -> Vec<Phase> {
    plan.iter()
        .map(|phase| Phase {
            hops: bases
                .clone()
                .flat_map(|b| phase.hops.iter().map(move |h| Hop { from: h.from + b, to: h.to + b, ..*h }))
                .collect(),
        })
        .collect()
}

/// Appends a phase unless it has no message.
pub fn push(plan: &mut Vec<Phase>, phase: Phase) {
    if !phase.hops.is_empty() {
        plan.push(phase);
    }
}

/// The phases back to back from step 1: each starts in the step after the previous one's last
/// receipt.
pub fn sends(plan: &[Phase]) -> Vec<FatTreeSend> {
    let mut start = 1;
    let mut out = Vec::with_capacity(plan.iter().map(|p| p.hops.len()).sum());
    for phase in plan {
        out.extend(phase.hops.iter().map(|h| FatTreeSend {
            step: start + h.offset,
            from: h.from,
            to: h.to,
            payload: h.payload,
        }));
        start += phase.length();
    }
    out
}
