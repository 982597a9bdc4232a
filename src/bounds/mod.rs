//! # Lower bounds
//!
//! Every bound here is a *true* lower bound, in SPEC §1 steps, on the length of every schedule
//! the checker admits for the instance's model. The papers' bounds (the claims catalogue, kind
//! `lower-bound`) are converted to SPEC steps claim by claim; where a paper's statement is asymptotic
//! or wrong (the errata of the claims catalogue), the module implements an exact integer
//! reading of the paper's own argument and says so in [`Bound::note`].
//!
//! | module | paper (seed file) | bounds |
//! |---|---|---|
//! | [`chatting`] | paper 000 §2.4, §3.2 | CHAT-2 (C, Q), CHAT-4 (C, L) |
//! | [`scatter_gather`] | paper 001 §2, §3 | SG-3, SG-4 (exact FDF optimum), SG-8, SG-23 |
//! | [`fat_tree`] | paper 002 §3, §4, §5 | FT-2, FT-11, FT-16..FT-18, FT-24 |
//! | [`gossip`] | paper 003 §2 | GOS-1, GOS-2; bridge release/tail (new: g(path(n)) = n + ⌊n/2⌋ − 1 under H\*) |
//! | [`total_exchange`] | paper 004 §2 | TE-1, TE-2, TE-23 |
//! | [`collective`] | SCCL (PPoPP'21) §5 | distance, receive bandwidth and cut (rounds), multicommodity flow |
//! | [`generic`] | — | release/tail congestion, single-port totals, distance, total load, port, cut |
//!
//! The generic bounds apply to any network and are computed from what the instance actually
//! demands ([`Instance::messages`], [`Instance::packets`]), so demand-matrix total exchanges and
//! arbitrary chatting message sets get correct bounds too.

pub mod chatting;
pub mod collective;
mod cuts;
pub mod fat_tree;
pub mod generic;
pub mod gossip;
pub mod scatter_gather;
pub mod total_exchange;

use crate::deadline::Deadline;
use crate::spec::{Instance, ModelKind};
use serde::{Deserialize, Serialize};

/// A lower bound on the length (SPEC steps) of every admissible schedule of an instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bound {
    /// Short name, e.g. `bisection`, `distance`, `congestion C`.
    pub name: String,
    /// The claim id of the claims catalogue, when the bound is a paper's (`TE-1`), else `None`.
    #[serde(deserialize_with = "crate::names::optional")]
    pub claim: Option<crate::names::Name>,
    /// The bound in SPEC steps.
    pub value: u64,
    /// How the value is derived and, for a paper's bound, the convention conversion.
    pub note: String,
}

impl Bound {
    /// A bound with its name, claim id, value (SPEC steps) and derivation note.
    pub fn new(
        name: impl Into<String>,
        claim: Option<&'static str>,
        value: u64,
        note: impl Into<String>,
    ) -> Self {
        Self { name: name.into(), claim, value, note: note.into() }
    }
}

/// Every lower bound that applies to the instance: the closed forms of the papers whose
/// hypotheses hold, plus the generic bounds of its model ([`lower_bounds_within`] without a
/// deadline: what a certificate's bound is checked against).
pub fn lower_bounds(instance: &Instance) -> Vec<Bound> {
    lower_bounds_within(instance, Deadline::NONE)
}

/// [`lower_bounds`] within `deadline`: [`cheap_lower_bounds`], then [`costly_lower_bounds`]
/// (the collective's flow LP, which gets half the time left; a cheaper bound stands in for it,
/// named so, when it runs over).
pub fn lower_bounds_within(instance: &Instance, deadline: Deadline) -> Vec<Bound> {
    let mut out = cheap_lower_bounds(instance);
    let costly = costly_lower_bounds(instance, deadline, &out);
    out.extend(costly);
    out
}

/// The bounds that take time, listed after the [`cheap_lower_bounds`] they may stand on: the
/// collective's flow LP within half the time `deadline` leaves
/// ([`collective::flow_bounds`]); none for the other models.
pub fn costly_lower_bounds(instance: &Instance, deadline: Deadline, cheap: &[Bound]) -> Vec<Bound> {
    collective::flow_bounds(instance, deadline, cheap)
}

/// Every lower bound of [`lower_bounds`] that takes no time: closed forms and counts, all of
/// them but the collective's flow LP.
pub fn cheap_lower_bounds(instance: &Instance) -> Vec<Bound> {
    let mut out = Vec::new();
    // A validated instance's model is its problem's (`ProblemKind::model`).
    match instance.problem.kind().model() {
        ModelKind::Bufferless => {
            // A validated instance always resolves its messages; a failure yields no bound
            // rather than a panic.
            let Ok(messages) = instance.messages() else { return out };
            out.extend(chatting::bounds(instance, &messages));
            out.extend(scatter_gather::bounds(instance, &messages));
            out.extend(generic::bufferless(instance, &messages));
        }
        ModelKind::StoreForward(_) => {
            out.extend(total_exchange::bounds(instance));
            out.extend(gossip::bounds(instance));
            out.extend(generic::store_forward(instance));
        }
        ModelKind::FatTree => {
            out.extend(fat_tree::bounds(instance));
        }
        ModelKind::Collective => out.extend(collective::cheap_bounds(instance)),
    }
    out
}

/// The strongest of `bounds` (largest value); on a tie the first listed, so a paper's bound
/// (listed before the generic ones by [`lower_bounds`]) names its claim whenever it can. Every
/// command picks its bound here, so a certificate reads the same whichever command prints it.
pub fn strongest(bounds: &[Bound]) -> Option<&Bound> {
    bounds.iter().reduce(|best, b| if b.value > best.value { b } else { best })
}

/// The strongest lower bound of the instance ([`strongest`] of [`lower_bounds`]), if any applies.
pub fn best(instance: &Instance) -> Option<Bound> {
    strongest(&lower_bounds(instance)).cloned()
}
