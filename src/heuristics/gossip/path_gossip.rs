//! # Gossip on a path (paper 003 §3.2, Fig. 5 and Fig. 3)
//!
//! The Phase-2 algorithm ([`phase2`](super::phase2), Fig. 3) with one token per node: "the
//! Phase-2 algorithm for a path of length n if every node has one token to distribute" (Fig. 5),
//! from Lau and Zhang's reference \[18\], which the paper calls optimal for this case. Two gathers
//! towards v_c and v_0, then a scatter: n + ⌊n/2⌋ − 1 rounds, with (n² − 4n + 3)/2 idle edge
//! instances for odd n (footnote 1; GOS-8, GOS-27: 15 rounds and 40 idle instances for n = 11).
//! Registered as `path-gossip` for `path:N`.

use super::line::{DotWire, Line, assemble};
use super::phase2::{own_tokens, path_gossip as phase2};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Gossip on the open `line`, one token per node: n + ⌊n/2⌋ − 1 rounds.
pub fn path_gossip_on(line: &Line) -> Schedule {
    let diagram = phase2(line.len(), &own_tokens(line.nodes()), &DotWire::new(line.edges()));
    assemble([(line, &diagram)])
}

/// Gossip on `path:N`.
pub fn path_gossip(inst: &Instance) -> Result<Schedule> {
    Ok(path_gossip_on(&Line::open((0..inst.network.len()).collect())))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "path-gossip",
    source: "003 §3.2 Fig. 3 and Fig. 5 (path algorithm of its ref. [18]); GOS-8, GOS-27",
    summary: "two gathers towards the centre and v_0, then a scatter (R/L queues, tokens move towards \
              the centre first): n + ⌊n/2⌋ − 1 rounds, called optimal by the paper",
    applicability: super::PATH,
    claim: |inst| {
        let n = inst.network.len() as u64;
        super::claimed("GOS-8", "path algorithm, one token per node (Fig. 5)", "n + ⌊n/2⌋ − 1", n + n / 2 - 1)
    },
    run: path_gossip,
};
